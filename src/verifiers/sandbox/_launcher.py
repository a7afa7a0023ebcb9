"""Root only: make a sandbox's user namespace, owned by the sandbox's leased uid, then exec bubblewrap in it.

Run by the parent as ``python -I -S -B -c <this file's text> REPORT_FD RELEASE_FD UID N SRC1 STAGE1 ... --
BWRAP...`` (standard library only; never imported). Steps:

1. ``unshare(CLONE_NEWNS)`` while root: a mount namespace private to this process and what it execs,
   where each SRC (a directory or file the leased uid could not traverse to, such as an interpreter under
   ``/root``) is bound onto its empty STAGE path.
2. Become the leased UID (no capabilities left on the host) and ``unshare(CLONE_NEWUSER)``: the new user
   namespace is *owned by the leased uid*, so the per-user kernel counts charged to a namespace's owner
   (pending signals, inotify instances, ...) are the leased uid's, never root's. Where the host forbids
   unprivileged user namespaces (a probe child tries first), root makes it instead, as before: root may,
   whatever the host says about unprivileged ones.
3. Write ``u`` on REPORT_FD and wait for ``1`` on RELEASE_FD: meanwhile the parent maps uid/gid 0 of the
   namespace to the leased uid (and the programs' unprivileged uid to the lease's second one) and puts
   this process in the sandbox's cgroup.
4. Become uid/gid 0 of the namespace (the leased uid outside) and exec bubblewrap (which must run as uid 0
   there: as any other uid it would nest a user namespace of its own); the zygote then leaves uid 0.
"""

import ctypes
import os
import sys

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
MS_BIND, MS_REC, MS_SLAVE = 0x1000, 0x4000, 0x80000


def _die(msg):
    os.write(2, ("sandbox launcher: " + msg + "\n").encode())
    os._exit(126)


def _become(uid):
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def _leased_owner_works(libc, uid):
    """Whether the leased uid may create a user namespace here (tried in a throw-away child)."""
    pid = os.fork()
    if pid == 0:
        try:
            _become(uid)
            os._exit(0 if libc.unshare(CLONE_NEWUSER) == 0 else 1)
        except BaseException:  # noqa: BLE001  (a probe: any failure means no)
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    return status == 0


def main(argv):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    report, release, uid, n = int(argv[0]), int(argv[1]), int(argv[2]), int(argv[3])
    stages = [(argv[4 + 2 * i], argv[5 + 2 * i]) for i in range(n)]
    bwrap = argv[4 + 2 * n + 1:]
    if libc.unshare(CLONE_NEWNS) != 0:
        _die("unshare(CLONE_NEWNS) failed: " + os.strerror(ctypes.get_errno()))
    if libc.mount(None, b"/", None, MS_REC | MS_SLAVE, None) != 0:
        _die("making / a slave mount failed: " + os.strerror(ctypes.get_errno()))
    for src, stage in stages:
        if libc.mount(src.encode(), stage.encode(), None, MS_BIND | MS_REC, None) != 0:
            _die(f"binding {src} on {stage} failed: " + os.strerror(ctypes.get_errno()))
    if _leased_owner_works(libc, uid):
        _become(uid)
    if libc.unshare(CLONE_NEWUSER) != 0:
        _die("unshare(CLONE_NEWUSER) failed: " + os.strerror(ctypes.get_errno()))
    os.write(report, b"u")
    os.close(report)
    if os.read(release, 1) != b"1":
        os._exit(125)
    os.close(release)
    os.setresgid(0, 0, 0)
    os.setresuid(0, 0, 0)
    os.execv(bwrap[0], bwrap)


main(sys.argv[1:])
