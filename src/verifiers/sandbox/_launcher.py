
"""Root only: make a sandbox's user namespace while still privileged, then exec bubblewrap inside it.

Run by the parent as ``python -I -S -B -c <this file's text> REPORT_FD RELEASE_FD N SRC1 STAGE1 ... -- BWRAP...``
(standard library only; never imported). Steps:

1. ``unshare(CLONE_NEWUSER | CLONE_NEWNS)``: root may, whatever the host says about *unprivileged* user
   namespaces; the mount namespace is private to this process and what it execs.
2. Write ``u`` on REPORT_FD and wait for ``1`` on RELEASE_FD: meanwhile the parent maps uid/gid 0 of the
   namespace to the sandbox's leased uid and puts this process in the sandbox's cgroup.
3. Still host uid 0, bind each SRC (a directory or file the leased uid could not traverse to, such as an
   interpreter under ``/root``) onto its empty STAGE path, in this private mount namespace only.
4. Become uid/gid 0 of the namespace, i.e. the leased uid outside, and exec bubblewrap.
"""

import ctypes
import os
import sys

CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000
MS_BIND, MS_REC, MS_SLAVE = 0x1000, 0x4000, 0x80000


def _die(msg):
    os.write(2, ("sandbox launcher: " + msg + "\n").encode())
    os._exit(126)


def main(argv):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    report, release, n = int(argv[0]), int(argv[1]), int(argv[2])
    stages = [(argv[3 + 2 * i], argv[4 + 2 * i]) for i in range(n)]
    bwrap = argv[3 + 2 * n + 1:]
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        _die("unshare(CLONE_NEWUSER|CLONE_NEWNS) failed: " + os.strerror(ctypes.get_errno()))
    os.write(report, b"u")
    os.close(report)
    if os.read(release, 1) != b"1":
        os._exit(125)
    os.close(release)
    if libc.mount(None, b"/", None, MS_REC | MS_SLAVE, None) != 0:
        _die("making / a slave mount failed: " + os.strerror(ctypes.get_errno()))
    for src, stage in stages:
        if libc.mount(src.encode(), stage.encode(), None, MS_BIND | MS_REC, None) != 0:
            _die(f"binding {src} on {stage} failed: " + os.strerror(ctypes.get_errno()))
    os.setresgid(0, 0, 0)
    os.setresuid(0, 0, 0)
    os.execv(bwrap[0], bwrap)


main(sys.argv[1:])
