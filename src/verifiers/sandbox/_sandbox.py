"""One sandbox process (bubblewrap + zygote) as the parent sees it, and one program's channel to its child.

Start-up (`Sandbox.spawn`): bubblewrap creates the sandbox's user namespace and blocks; the parent reads
the new process's pid from ``--info-fd``, moves it into the sandbox's cgroup, writes its uid/gid map
(`_isolation.id_maps`: the programs' unprivileged `_isolation.SANDBOX_UID` inside is the user's uid, or as
root a leased one, with uid 0 a second leased uid for bubblewrap) and lets it go on. The zygote's source
and configuration then go over the control socket (SOCK_SEQPACKET: one message per command or report).

Per program (`JobIO`): a fresh socketpair and two memfds. The parent writes the request into its end of
the pair, sends the zygote "run job N" with the child's three fds and closes its copies of them; it reads
the child's frames (at most ``MAX_RESULT_BYTES``) and, once the zygote reports the child reaped, its output.
"""

from __future__ import annotations

import _socket
import collections
import contextlib
import json
import os
import select
import signal
import socket
import struct
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from verifiers.errors import SandboxError
from verifiers.sandbox import _isolation, _seccomp
from verifiers.sandbox._cgroups import Cgroups, Limits, SandboxCgroup
from verifiers.sandbox._protocol import ProtocolError, loads_untrusted
from verifiers.sandbox._uids import UidLease, lease_uid

INFO_TIMEOUT_S = 10.0
# Per-job control messages; `_zygote` defines the same two layouts (it cannot import this module).
JOB = struct.Struct("<Qdi")  # job id, timeout (s), CPU limit (s); sent with the child's three fds (four: stdin)
END = struct.Struct("<QiBBidd")  # job id, exit status (-signal), timed out, set-up done, error, duration, CPU (s)
MAX_RESULT_BYTES = 4 * 1024 * 1024  # frames one program may send back
READ_BYTES = 1 << 16  # per read: a 1 MiB buffer is mmap-ed and unmapped on every read
MAX_CTL_MESSAGE = 4096


@dataclass(frozen=True)
class SandboxSpec:
    """Everything a sandbox needs to start, fixed for a pool."""

    isolation: str
    config: dict[str, Any]  # sent to the zygote (see `_zygote`)
    seccomp: bool
    cgroups: Cgroups | None
    limits: Limits
    root: bool
    tmp: str | None = None  # process isolation: the programs' scratch directory


class JobIO:
    """The parent's side of one program: its channel, its stdout/stderr memfds and the request to send."""

    def __init__(self, request: bytes, stdin: bytes | None = None) -> None:
        # The C socket type (`socket.socketpair` wraps each end in a Python object first: twice the cost).
        parent, child = _socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        parent.setblocking(False)
        self.chan = parent.detach()
        self.child_fds: list[int] = [child.detach()]
        for name in ("stdout", "stderr"):
            self.child_fds.append(os.memfd_create(name, os.MFD_CLOEXEC))
        self.out, self.err = self.child_fds[1], self.child_fds[2]
        if stdin is not None:  # a stdin/stdout program: its input, a fourth fd (the child's fd 0)
            fd = os.memfd_create("stdin", os.MFD_CLOEXEC)
            self.child_fds.append(fd)
            view = memoryview(stdin)
            while view:
                view = view[os.pwrite(fd, view, len(stdin) - len(view)):]
        self.request = memoryview(request)
        self.rx = bytearray()
        self.last_read = 0  # bytes the last `read_frames` took
        self.overflow = False
        self.done = False  # EOF, error or over budget: nothing more will be read
        self.chan_open = True

    def release_child_fds(self) -> None:
        """Close the parent's copy of the child's channel end (after sending it: EOF then means exited)."""
        os.close(self.child_fds[0])
        self.child_fds[0] = -1

    @property
    def pending(self) -> bool:
        """Request bytes not yet written."""
        return bool(self.request) and self.chan_open

    def write_request(self) -> None:
        """Write what the channel takes now of the request."""
        try:
            while self.request:
                n = os.write(self.chan, self.request[:READ_BYTES])
                self.request = self.request[n:]
        except BlockingIOError:
            pass
        except OSError:  # the child died before reading it
            self.request = memoryview(b"")

    def read_frames(self) -> bool:
        """Take what the child has written, up to the result budget; True once nothing more can come.

        Past the budget the channel is shut for reading, so the child's next write fails (EPIPE).
        """
        if self.done:
            return True
        before = len(self.rx)
        try:
            while True:
                self.last_read = len(self.rx) - before
                chunk = os.read(self.chan, READ_BYTES)
                if not chunk:
                    self.done = True
                    return True
                if len(self.rx) + len(chunk) > MAX_RESULT_BYTES:
                    self.overflow = self.done = True
                    with socket.socket(fileno=os.dup(self.chan)) as sock, contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RD)
                    return True
                self.rx += chunk
        except BlockingIOError:
            return False
        except OSError:
            self.done = True
            return True

    def stdout_bytes(self, limit: int) -> tuple[bytes, int]:
        """The first ``limit`` bytes of the program's stdout and its whole size."""
        size = os.lseek(self.out, 0, os.SEEK_END)
        return (os.pread(self.out, min(size, limit), 0) if size else b""), size

    def outputs(self, limit: int) -> tuple[str, str]:
        """The program's stdout and stderr, each cut to ``limit`` bytes."""
        texts = []
        for fd in (self.out, self.err):
            size = os.lseek(fd, 0, os.SEEK_END)
            data = os.pread(fd, min(size, limit), 0) if size else b""
            texts.append(data.decode("utf-8", "replace"))
        return texts[0], texts[1]

    def close(self) -> None:
        """Release every fd (idempotent)."""
        if self.chan_open:
            self.chan_open = False
            os.close(self.chan)
        for i, fd in enumerate(self.child_fds):
            if fd >= 0:
                os.close(fd)
                self.child_fds[i] = -1


@dataclass
class Sandbox:
    """A running sandbox: its process, control socket, lease, cgroup and the jobs sent to it (in order)."""

    slot: int
    proc: subprocess.Popen[bytes]
    ctl: socket.socket
    stderr_path: str
    started: float
    lease: UidLease | None = None
    cgroup: SandboxCgroup | None = None
    ready: bool = False  # the pool accepted its ``ready`` message
    greeted: bool = False  # the zygote sent ``ready``: what follows are `END` structs
    info: dict[str, Any] = field(default_factory=dict)
    inflight: collections.deque[Any] = field(default_factory=collections.deque)
    outbox: collections.deque[tuple[bytes, list[int]]] = field(default_factory=collections.deque)
    head_since: float = 0.0
    cpu_mark: float | None = None  # the cgroup's CPU counter when the head job started (None: no counter)
    done: int = 0
    draining: bool = False
    replaced: bool = False  # its replacement is already started (see `CodePool._drain`)
    oom_seen: int = 0

    @classmethod
    def spawn(cls, slot: int, spec: SandboxSpec) -> Sandbox:
        """Start one sandbox; raises `SandboxError` (with the fix where known) if it cannot start."""
        parent_ctl, child_sock = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # A raw fd, closed exactly once below: a socket object closing it again when collected could
        # close an fd another thread has been given the same number for meanwhile (see `_lifecycle`).
        child_ctl = child_sock.detach()
        err_fd, err_path = tempfile.mkstemp(prefix="codepool-sandbox-", suffix=".stderr")
        lease: UidLease | None = None
        cgroup: SandboxCgroup | None = None
        proc: subprocess.Popen[bytes] | None = None
        to_close: list[int] = [child_ctl, err_fd]
        ours: list[int] = []  # this side's ends of the user-namespace pipes, closed once however spawn ends
        bwrap = spec.isolation == "bwrap"
        try:
            if bwrap:
                seccomp_fd = _seccomp.memfd_with(_seccomp.sandbox_filter()) if spec.seccomp else None
                if seccomp_fd is not None:
                    to_close.append(seccomp_fd)
                lease = lease_uid() if spec.root else None
                cgroup = spec.cgroups.create(spec.limits) if spec.cgroups is not None else None
                # A pipe pair to the process that makes the user namespace: it reports, we map, we release it.
                report_r, report_w = os.pipe()
                release_r, release_w = os.pipe()
                to_close += [report_w, release_r]
                ours += [report_r, release_w]
                if spec.root:
                    stages = _isolation.stage_plan()
                    assert lease is not None
                    argv = _isolation.launcher_argv(report_w, release_r, lease.uid, stages, _isolation.bwrap_argv(
                        child_ctl, seccomp_fd, userns_fds=None, stages=stages))
                else:
                    argv = _isolation.bwrap_argv(child_ctl, seccomp_fd, userns_fds=(report_w, release_r))
            else:
                argv = _isolation.process_argv(child_ctl)
            # cwd: the programs' scratch directory under process isolation (bwrap has none: "/")
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err_fd,
                                    env={}, cwd=spec.tmp or "/", close_fds=True, start_new_session=True,
                                    pass_fds=tuple(fd for fd in to_close if fd != err_fd),
                                    extra_groups=[] if bwrap and spec.root else None)
            for fd in to_close:
                os.close(fd)
            to_close = []
            if bwrap:
                try:
                    cls._map_user(proc, report_r, release_w, lease, cgroup, err_path)
                finally:
                    for fd in ours:
                        os.close(fd)
                    ours = []
            parent_ctl.send(_isolation.script_source("zygote"))
            parent_ctl.send(json.dumps(spec.config, separators=(",", ":")).encode())
            parent_ctl.setblocking(False)
        except BaseException as exc:
            died = None  # the launcher exited before it took the zygote (bwrap refused its mounts, namespaces
            if proc is not None and isinstance(exc, OSError):  # denied): its stderr says why, not the socket
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=2)
                if proc.poll() is not None:
                    died = start_error(err_path, "bwrap" if bwrap else "process")
            for fd in (*to_close, *ours):
                os.close(fd)
            sb = cls(slot, proc, parent_ctl, err_path, time.monotonic(), lease, cgroup) if proc else None
            if sb is not None:
                sb.kill()
            else:
                parent_ctl.close()
                if lease is not None:
                    lease.release()
                if cgroup is not None:
                    cgroup.remove()
                _unlink(err_path)
            if isinstance(exc, SandboxError):
                raise
            if died is not None:
                raise SandboxError(died) from exc
            raise SandboxError(f"could not start a sandbox: {exc!r}") from exc
        return cls(slot, proc, parent_ctl, err_path, time.monotonic(), lease, cgroup)

    @staticmethod
    def _map_user(proc: subprocess.Popen[bytes], report_r: int, release_w: int, lease: UidLease | None,
                  cgroup: SandboxCgroup | None, err_path: str) -> None:
        """Wait for the new user namespace, put its process in the cgroup, write its id maps, release it.

        As root the launcher (``proc`` itself) writes one byte; bubblewrap (a normal user) writes JSON naming
        its child's pid on its ``--info-fd``. Either way nothing of the sandbox runs before the release.
        """
        data = b""
        deadline = time.monotonic() + INFO_TIMEOUT_S
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([report_r], [], [], left)[0]:
                raise SandboxError("the sandbox's user namespace was not ready in time")
            chunk = os.read(report_r, 4096)
            data += chunk
            if not chunk or (lease is not None and chunk == b"u"):
                break
        try:
            pid = proc.pid if lease is not None and data == b"u" else int(json.loads(data)["child-pid"])
        except (ValueError, KeyError, TypeError):
            proc.wait(timeout=5)
            raise SandboxError(start_error(err_path, "bwrap")) from None
        if cgroup is not None:
            cgroup.add(pid)
        if lease is not None:
            uids = gids = _isolation.id_maps(lease.uid, lease.program_uid)
        else:
            uids, gids = _isolation.id_maps(os.getuid()), _isolation.id_maps(os.getgid())
        _isolation.write_id_maps(pid, uids, gids)
        os.write(release_w, b"1")

    # ---------------------------------------------------------------------------------- control channel
    def send_job(self, job_id: int, timeout: float, cpu: int, fds: list[int]) -> None:
        """Queue "run job N" with the child's fds (sent now when the socket takes it)."""
        self.outbox.append((JOB.pack(job_id, timeout, cpu), fds))
        self.flush()

    def flush(self) -> None:
        """Send queued commands; `SandboxError` if the socket is gone."""
        while self.outbox:
            msg, fds = self.outbox[0]
            try:
                socket.send_fds(self.ctl, [msg], fds)
            except BlockingIOError:
                return
            except OSError as exc:
                raise SandboxError(f"the sandbox's control socket failed: {exc}") from None
            self.outbox.popleft()

    def receive(self) -> list[dict[str, Any]]:
        """Every report the zygote has sent; raises EOFError when it is gone, ProtocolError on garbage.

        Until it is ready the zygote speaks JSON (``ready`` or ``fatal``); then only `END` structs, returned
        as ``{"end": id, "code", "timed_out", "setup", "error", "duration", "cpu"}``.
        """
        out: list[dict[str, Any]] = []
        while True:
            try:
                data = self.ctl.recv(MAX_CTL_MESSAGE)
            except BlockingIOError:
                return out
            except OSError:
                data = b""
            if not data:
                if out:
                    return out
                raise EOFError
            if self.greeted:
                if len(data) != END.size:
                    raise ProtocolError(f"a report of {len(data)} bytes")
                job, code, timed_out, setup, error, duration, cpu = END.unpack(data)
                out.append({"end": job, "code": code, "timed_out": bool(timed_out), "setup": bool(setup),
                            "error": error, "duration": duration, "cpu": cpu})
                continue
            msg = loads_untrusted(data)
            if not isinstance(msg, dict):
                raise ProtocolError("a control message that is not an object")
            out.append(msg)
            self.greeted = self.greeted or "ready" in msg  # reports may follow in the same read

    def mark_cpu(self) -> None:
        """Note the group's CPU counter: the next `cpu_since_mark` counts from here (the head job's start)."""
        self.cpu_mark = self.cgroup.cpu_usage() if self.cgroup is not None else None

    def cpu_since_mark(self) -> float | None:
        """CPU seconds every process of the sandbox used since `mark_cpu` (None without a counter). It counts
        what rusage cannot: processes reaped by the kernel (SIGCHLD ignored) or killed with their namespace."""
        if self.cpu_mark is None or self.cgroup is None:
            return None
        now = self.cgroup.cpu_usage()
        return None if now is None else max(0.0, now - self.cpu_mark)

    def lap_cpu(self) -> float | None:
        """`cpu_since_mark`, and the mark moved to now: one read of the counter per program."""
        if self.cpu_mark is None or self.cgroup is None:
            return None
        now = self.cgroup.cpu_usage()
        used, self.cpu_mark = (None if now is None else max(0.0, now - self.cpu_mark)), now
        return used

    def record_oom(self) -> bool:
        """Whether the cgroup recorded a new out-of-memory kill since the last call."""
        if self.cgroup is None:
            return False
        n = self.cgroup.oom_kills()
        new, self.oom_seen = n > self.oom_seen, n
        return new

    # -------------------------------------------------------------------------------------- teardown
    def close(self) -> None:
        """Graceful stop: the zygote exits on EOF once idle; then everything is released."""
        with contextlib.suppress(OSError):
            self.ctl.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=2)
        self.kill()

    def kill(self) -> None:
        """Kill the sandbox (bubblewrap's monitor; the sandbox dies with it) and release everything."""
        for target in (lambda: os.killpg(self.proc.pid, signal.SIGKILL), self.proc.kill):
            with contextlib.suppress(OSError):
                target()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.ctl.close()
        self.outbox.clear()  # the fds in it belong to jobs, which close them
        if self.cgroup is not None:
            _wait_empty(self.cgroup)
            self.cgroup.remove()
            self.cgroup = None
        if self.lease is not None:
            self.lease.release()
            self.lease = None
        _unlink(self.stderr_path)


def _wait_empty(cgroup: SandboxCgroup, timeout: float = 2.0) -> None:
    """Wait until the group's processes are gone (the kernel reaps them asynchronously after a kill)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if not (cgroup.dirs[0] / "cgroup.procs").read_text().strip():
                return
        except OSError:
            return
        time.sleep(0.005)


def stderr_head(path: str) -> str:
    """The first 4000 bytes of a sandbox's stderr file, as text ("" if it cannot be read)."""
    try:
        with open(path, "rb") as f:
            return f.read(4000).decode("utf-8", "replace").strip()
    except OSError:
        return ""


def _unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def start_error(stderr_path: str, isolation: str) -> str:
    """Why a sandbox failed to start, with the fix in one line when the host's settings explain it."""
    err = stderr_head(stderr_path)
    if isolation != "bwrap":
        return f"the process sandbox failed to start: {err or 'no error output'}"
    diag = _isolation.userns_diagnosis(_isolation.host_is_root())
    if diag:
        return f"the bubblewrap sandbox cannot start: {diag} (bwrap said: {err or 'nothing'})"
    return (f"the bubblewrap sandbox failed to start: {err or 'no error output'}. It needs user namespaces "
            "(`sysctl user.max_user_namespaces` > 0; as a normal user also unprivileged ones) or pass "
            "isolation='process' (UNSAFE: no isolation, trusted code only).")
