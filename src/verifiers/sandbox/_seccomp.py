"""The sandbox's syscall filter, built with libseccomp (ctypes over ``libseccomp.so.2``) for this machine.

One deny list (denied calls fail with EPERM, everything else is allowed; namespaces, uid, capabilities,
rlimits and cgroups do the containment, the filter narrows the kernel surface), loaded by bubblewrap
(``--seccomp FD``) for every process of a sandbox: the zygote and every program. It denies tracing and
cross-process memory/fd access, BPF, perf, userfaultfd, io_uring, keyrings, module loading, kexec/reboot/
swap/clock setting, System V IPC and POSIX message queues, handle-based opens, ``memfd_create`` and ``memfd_secret`` (memory
outside every file-size limit), the new mount API, ``chroot``/``pivot_root``, ``clone`` with any
namespace flag, ``unshare``/``setns`` with anything but ``CLONE_NEWPID`` (the zygote's one namespace
operation: a new pid namespace per program), and the calls that take another process as argument
(``prlimit64``, ``setpriority``, ``ioprio_set``, the ``sched_set*`` family) unless it is the caller
itself. ``clone3`` fails with ENOSYS so libc falls back to ``clone``, whose flags a filter can read.
Kernel quotas counted per user rather than per namespace are out of reach: ``inotify_init*`` and
``fanotify_init`` are denied (their instances count against the host user's limit), and pending signals
are bounded by RLIMIT_SIGPENDING. No sockets: ``socket`` and ``socketpair`` are denied (the network
namespace has only a down loopback, some families such as ``AF_VSOCK`` reach objects it does not isolate,
socket buffers are kernel memory no rlimit counts, and ``SCM_RIGHTS`` would let a program keep fds in flight
beyond RLIMIT_NOFILE); ``fcntl(F_SETPIPE_SZ)`` is denied too, so a pipe keeps its default buffer. Changing ``SIGCHLD``'s
disposition is denied (``rt_sigaction(SIGCHLD, act)`` with an ``act``): with ``SIG_IGN`` or ``SA_NOCLDWAIT``
the kernel reaps children itself and their CPU time would reach no process's rusage. ``setsid`` is denied: every process of a
sandbox stays in one session, so the scheduler's autogroups give a sandbox one share of the CPU however
many processes it forks (what the cgroup's CPU controller does where there is one; each child makes its
own process group instead).

What a program's child may not do beyond that (``mount``/``umount2``, which the zygote uses for each
program's ``/tmp``, and that ``unshare``/``setns``) needs ``CAP_SYS_ADMIN``, which the child drops with
every other capability before its program is read, so one filter serves both and no child pays for
loading its own.

Built for the native architecture only: a syscall made through another ABI (i386 ``int 0x80``, x32 on
x86-64) kills the process. Names the architecture does not have are skipped. Without libseccomp
`SeccompUnavailable` is raised; `CodePool` then refuses to start unless the caller passes
``seccomp=False``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import signal
from collections.abc import Iterable
from dataclasses import dataclass

from verifiers.errors import SandboxError

_ACT_ALLOW = 0x7FFF0000
_ACT_ERRNO = 0x00050000
# enum scmp_compare
_CMP_NE, _CMP_EQ, _CMP_MASKED_EQ = 1, 4, 7

# clone(2) namespace flags.
CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x08000000, 0x10000000, 0x20000000, 0x40000000
CLONE_NEW_ALL = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET
# The zygote's only namespace operation, once per program: setns back to its own pid namespace, then
# unshare(CLONE_NEWPID) (its next child is pid 1 of a new one). Anything else with namespaces is denied.
ZYGOTE_NS_FLAGS = CLONE_NEWPID

# Denied for every process of a sandbox, by family (the attack suite probes one call of each family).
SANDBOX_DENIED: dict[str, tuple[str, ...]] = {
    "tracing": ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "process_madvise"),
    "kernel-programs": ("bpf", "perf_event_open", "userfaultfd"),
    "io_uring": ("io_uring_setup", "io_uring_enter", "io_uring_register"),
    "keyrings": ("add_key", "request_key", "keyctl"),
    "modules-and-boot": ("init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot",
                         "swapon", "swapoff", "acct", "syslog", "uselib", "vhangup"),
    "clock": ("settimeofday", "clock_settime", "clock_adjtime", "adjtimex"),
    "hardware": ("iopl", "ioperm", "quotactl", "quotactl_fd", "lookup_dcookie", "personality"),
    "numa": ("mbind", "set_mempolicy", "migrate_pages", "move_pages"),
    "handles": ("name_to_handle_at", "open_by_handle_at"),
    "sysv-ipc": ("shmget", "shmat", "shmctl", "semget", "semop", "semtimedop", "semctl", "msgget", "msgsnd",
                 "msgrcv", "msgctl"),
    "posix-mqueue": ("mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr"),
    "namespaces": ("chroot", "pivot_root"),  # and setns/unshare except with CLONE_NEWPID, clone with any flag
    "mount-api": ("open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr"),
    "memfd": ("memfd_create", "memfd_secret"),  # fd-backed memory outside RLIMIT_AS
    "per-user-quotas": ("inotify_init", "inotify_init1", "fanotify_init"),
    "sessions": ("setsid",),
    "sockets": ("socket", "socketpair"),
}
SIGACTION_CALLS = ("rt_sigaction", "sigaction", "signal")  # (sig, act, ...): denied for SIGCHLD with an act
F_SETPIPE_SZ = 1031  # fcntl(fd, F_SETPIPE_SZ, size): denied
# Calls whose first argument names a target process: allowed only on the caller itself (0).
SELF_ONLY_PID_ARG0 = ("prlimit64", "sched_setaffinity", "sched_setparam", "sched_setscheduler", "sched_setattr")
# setpriority/ioprio_set(which, who, ...): allowed only as (PRIO_PROCESS/IOPRIO_WHO_PROCESS = 1 for ioprio, 0, ...).
_WHICH_WHO = {"setpriority": 0, "ioprio_set": 1}


class SeccompUnavailable(SandboxError):
    """libseccomp is missing or cannot build a filter for this machine."""


class _Cmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]


class _Version(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint), ("minor", ctypes.c_uint), ("micro", ctypes.c_uint)]


@functools.lru_cache(maxsize=1)
def _lib() -> ctypes.CDLL:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError as exc:
        raise SeccompUnavailable(
            f"libseccomp is not installed ({exc}); install it (Debian/Ubuntu: `apt-get install libseccomp2`, "
            "Fedora: `dnf install libseccomp`) or pass seccomp=False (UNSAFE: no syscall filter)") from None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_release.argtypes = [ctypes.c_void_p]
    lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.restype = ctypes.c_int
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           ctypes.c_void_p]
    lib.seccomp_export_bpf.restype = ctypes.c_int
    lib.seccomp_export_bpf.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.seccomp_version.restype = ctypes.POINTER(_Version)
    return lib


def version() -> str:
    """The libseccomp version in use (raises `SeccompUnavailable` without it)."""
    v = _lib().seccomp_version().contents
    return f"{v.major}.{v.minor}.{v.micro}"


def syscall_number(name: str) -> int | None:
    """The native number of syscall ``name``, or None if this architecture has no such call."""
    nr = _lib().seccomp_syscall_resolve_name(name.encode())
    return nr if nr >= 0 else None


@dataclass(frozen=True)
class _Rule:
    action: int
    nr: int
    cmps: tuple[tuple[int, int, int, int], ...] = ()


def _deny(names: Iterable[str], *when: tuple[int, int, int, int], err: int = errno.EPERM) -> list[_Rule]:
    """Fail each of these syscalls (those this architecture has) with ``err`` when every ``(arg, op, a, b)``
    comparison of ``when`` holds (always, without one)."""
    return [_Rule(_ACT_ERRNO | err, nr, when) for name in names if (nr := syscall_number(name)) is not None]


def _export(rules: list[_Rule]) -> bytes:
    lib = _lib()
    ctx = lib.seccomp_init(_ACT_ALLOW)
    if not ctx:
        raise SeccompUnavailable("seccomp_init failed")
    try:
        for r in rules:
            arr = (_Cmp * max(1, len(r.cmps)))(*[_Cmp(*c) for c in r.cmps])
            rc = lib.seccomp_rule_add_array(ctx, r.action, r.nr, len(r.cmps), arr if r.cmps else None)
            if rc != 0:
                raise SeccompUnavailable(f"seccomp_rule_add failed for syscall {r.nr}: {os.strerror(-rc)}")
        rfd, wfd = os.pipe()
        try:
            rc = lib.seccomp_export_bpf(ctx, wfd)
            os.close(wfd)
            wfd = -1
            if rc != 0:
                raise SeccompUnavailable(f"seccomp_export_bpf failed: {os.strerror(-rc)}")
            chunks = []
            while chunk := os.read(rfd, 1 << 16):
                chunks.append(chunk)
        finally:
            os.close(rfd)
            if wfd >= 0:
                os.close(wfd)
    finally:
        lib.seccomp_release(ctx)
    data = b"".join(chunks)
    if not data or len(data) % 8:
        raise SeccompUnavailable(f"libseccomp exported a malformed filter ({len(data)} bytes)")
    return data


def _clone_rules(forbidden_flags: int) -> list[_Rule]:
    rules = _deny(["clone3"], err=errno.ENOSYS)  # its flags live in a struct a filter cannot read
    for flag in (1 << bit for bit in range(32)):
        if flag & forbidden_flags:
            rules += _deny(["clone"], (0, _CMP_MASKED_EQ, flag, flag))
    return rules


@functools.lru_cache(maxsize=1)
def sandbox_filter() -> bytes:
    """BPF of the filter every process of a sandbox runs under (raw ``struct sock_filter`` entries)."""
    names = [n for family in SANDBOX_DENIED.values() for n in family]
    rules = _deny(names) + _clone_rules(CLONE_NEW_ALL)
    rules += _deny(["unshare"], (0, _CMP_NE, ZYGOTE_NS_FLAGS, 0))  # unshare(flags)
    rules += _deny(["setns"], (1, _CMP_NE, ZYGOTE_NS_FLAGS, 0))  # setns(fd, nstype)
    rules += _deny(SELF_ONLY_PID_ARG0, (0, _CMP_NE, 0, 0))
    rules += _deny(["fcntl", "fcntl64"], (1, _CMP_EQ, F_SETPIPE_SZ, 0))  # fcntl(fd, cmd, ...)
    # SIGCHLD's disposition stays the default for every process: with SIG_IGN or SA_NOCLDWAIT the kernel
    # reaps children itself and their CPU time reaches no one's rusage (reading it, act == NULL, is allowed).
    rules += _deny(SIGACTION_CALLS, (0, _CMP_EQ, signal.SIGCHLD, 0), (1, _CMP_NE, 0, 0))
    for name, which in _WHICH_WHO.items():
        rules += _deny([name], (0, _CMP_NE, which, 0)) + _deny([name], (1, _CMP_NE, 0, 0))
    return _export(rules)


def memfd_with(data: bytes, name: str = "seccomp") -> int:
    """A readable fd positioned at the start of ``data`` (for ``bwrap --seccomp FD``; the caller closes it)."""
    fd = os.memfd_create(name, 0)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
