"""Unique host uids for sandboxes started by root, leased with lock files across every process on the host.

A lease is an exclusive ``flock`` on ``<lock dir>/<uid>.lock``, held for the sandbox's life and released
when it closes or its process dies, so two pools (in one process or two) never share a uid, its
RLIMIT_NPROC count or its kill permissions. The uids come from a range far above regular accounts and
container subordinate ranges.

A lease covers two host uids: ``uid`` (uid 0 of the sandbox's user namespace: its owner, bubblewrap) and
``program_uid`` = ``uid + UID_SPAN`` (`_isolation.SANDBOX_UID` there: the zygote and its programs), so
programs never share a host uid with the processes that set their sandbox up, nor with another sandbox.
"""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
import threading
from dataclasses import dataclass, field

from verifiers.errors import SandboxError

UID_BASE = 1_900_000_000
UID_SPAN = 1 << 16
_LOCK_DIRS = ("/run/verifiers-sandbox", os.path.join(tempfile.gettempdir(), "verifiers-sandbox-uids"))
_lock = threading.Lock()


@dataclass(eq=False)
class UidLease:
    """One leased uid; `release` (or process exit) frees it."""

    uid: int
    _fd: int = field(repr=False)  # the lock file, held with an exclusive flock

    @property
    def program_uid(self) -> int:
        """The lease's second host uid (and gid), the one its sandbox's programs run as."""
        return self.uid + UID_SPAN

    def release(self) -> None:
        """Give the uid back (idempotent)."""
        fd, self._fd = self._fd, -1
        if fd >= 0:
            os.close(fd)


def _safe_dir(path: str) -> bool:
    """Create ``path`` (0700) if needed; True if it is a real directory only this user can write."""
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o022


def lock_dir() -> str:
    """Where leases live: ``/run/verifiers-sandbox``, else a private directory under the temp dir."""
    for d in _LOCK_DIRS:
        if _safe_dir(d):
            return d
    raise SandboxError(f"no safe directory for sandbox uid leases (tried {', '.join(_LOCK_DIRS)})")


def lease_uid(directory: str | None = None) -> UidLease:
    """Lease the lowest free uid of the range (raises `SandboxError` when all are taken)."""
    d = directory or lock_dir()
    with _lock:  # one scan at a time in this process (flock itself excludes other processes and fds)
        for uid in range(UID_BASE, UID_BASE + UID_SPAN):
            fd = os.open(os.path.join(d, f"{uid}.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return UidLease(uid, fd)
    raise SandboxError(f"all {UID_SPAN} sandbox uids are leased")
