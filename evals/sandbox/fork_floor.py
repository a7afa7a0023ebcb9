"""The floor under any fork-per-program runner on this machine: bare ``os.fork()`` + exit from Python, and
what a new pid namespace (the sandbox's per-program isolation) or a mount namespace adds to it.

    python -I -S evals/sandbox/fork_floor.py [N]                         # as the sandbox runs (no site)
    python evals/sandbox/fork_floor.py [N]                               # a default interpreter: dearer
    unshare -Ur python -I -S evals/sandbox/fork_floor.py --namespaces [N]   # needs CAP_SYS_ADMIN (a userns)

Prints wall time, CPU (parent + child) and minor page faults per fork. On 2 cores the CPU per fork bounds
how many fresh children per second any such runner can make, before a program does any work. With
``--namespaces`` it also times the zygote's raw ``clone`` (`verifiers.sandbox._zygote`) without and with
``CLONE_NEWPID``, and ``CLONE_NEWPID|CLONE_NEWNS`` plus a tmpfs mount (the per-program mount namespace the
sandbox does not use: evals/sandbox/README.md). Kernel work deferred to RCU callbacks or workers is not
in these CPU figures; compare wall throughput for that.
"""

from __future__ import annotations

import ctypes
import gc
import os
import platform
import resource
import sys
import time
from collections.abc import Callable

CLONE_NEWNS, CLONE_NEWPID = 0x00020000, 0x20000000
_CLONE_NR = {"x86_64": 56, "aarch64": 220}


def _raw_clone() -> Callable[[int], int]:
    """fork() with extra clone flags, wrapped as os.fork wraps it (the zygote's technique)."""
    libc = ctypes.PyDLL(None, use_errno=True)
    sc = libc.syscall
    sc.argtypes = [ctypes.c_long, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    sc.restype = ctypes.c_long
    api = ctypes.pythonapi
    for f in (api.PyOS_BeforeFork, api.PyOS_AfterFork_Child, api.PyOS_AfterFork_Parent):
        f.argtypes, f.restype = [], None
    nr = _CLONE_NR[platform.machine()]

    def clone(flags: int) -> int:
        api.PyOS_BeforeFork()
        pid = sc(nr, flags | 17, 0, 0, 0, 0)  # | SIGCHLD
        (api.PyOS_AfterFork_Child if pid == 0 else api.PyOS_AfterFork_Parent)()
        if pid < 0:
            raise OSError(ctypes.get_errno(), "clone")
        return pid

    return clone


def _fork_in_new_pid_ns() -> Callable[[], int]:
    """os.fork() into a fresh pid namespace: reset the namespace for children to our own, unshare a new one."""
    libc = ctypes.CDLL(None, use_errno=True)
    self_fd = os.pidfd_open(os.getpid())

    def fork() -> int:
        if libc.setns(self_fd, CLONE_NEWPID) != 0 or libc.unshare(CLONE_NEWPID) != 0:
            raise OSError(ctypes.get_errno(), "setns/unshare")
        return os.fork()

    return fork


def _mount_tmpfs() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 6, b"size=64m,mode=1777") != 0:
        raise OSError(ctypes.get_errno(), "mount")


def measure(name: str, n: int, make: Callable[[], int], child: Callable[[], None] = lambda: None) -> None:
    """Fork ``n`` children with ``make`` (each runs ``child`` and exits) and print the costs."""
    gc.collect()
    gc.freeze()  # as the sandbox's zygote does: keep the heap shared copy-on-write
    t0 = time.perf_counter()
    c0, s0 = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    for _ in range(n):
        pid = make()
        if pid == 0:
            try:
                child()
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
    wall = time.perf_counter() - t0
    c1, s1 = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    kid = (c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime) / n
    parent = (s1.ru_utime + s1.ru_stime - s0.ru_utime - s0.ru_stime) / n
    cores = os.cpu_count() or 1
    print(f"{name}, {n} times: {wall / n * 1e6:.0f} us wall, {kid * 1e6:.0f} us child CPU + "
          f"{parent * 1e6:.0f} us parent CPU, {(c1.ru_minflt - c0.ru_minflt) / n:.0f} minor faults per fork; "
          f"ceiling on {cores} cores: {cores / (kid + parent):,.0f} forks/s")


def main(argv: list[str]) -> None:
    namespaces = "--namespaces" in argv
    args = [a for a in argv if a != "--namespaces"]
    n = int(args[0]) if args else 2000
    measure("bare fork+exit", n, os.fork)
    if namespaces:
        clone = _raw_clone()
        measure("raw clone (the zygote's)", n, lambda: clone(0))
        measure("raw clone, new pid namespace", n, lambda: clone(CLONE_NEWPID))
        measure("setns + unshare(CLONE_NEWPID) + os.fork", n, _fork_in_new_pid_ns())
        measure("raw clone, new pid + mount namespace, tmpfs /tmp", n, lambda: clone(CLONE_NEWPID | CLONE_NEWNS),
                _mount_tmpfs)


if __name__ == "__main__":
    main(sys.argv[1:])
