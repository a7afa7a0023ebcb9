"""A small seccomp-BPF deny list for sandbox workers (x86-64), handed to ``bwrap --seccomp FD``.

Denied with EPERM: new namespaces (``unshare``, ``setns``, namespace flags on ``clone``), mounts,
``ptrace`` and cross-process memory/fd access, kernel keyrings, BPF, perf, userfaultfd, io_uring,
module loading, kexec/reboot/swap, System V IPC and POSIX message queues (state that could outlive a
program in a warm worker), and the x32 ABI. ``clone3`` gets ENOSYS so libc falls back to ``clone``,
whose flags the filter can inspect. Everything else is allowed: this narrows the kernel surface, the
namespaces/uid/rlimits do the containment.
"""

from __future__ import annotations

import errno
import os
import platform
import struct

AUDIT_ARCH_X86_64 = 0xC000003E
_X32_BIT = 0x40000000
# x86-64 syscall numbers.
DENIED: dict[str, int] = {
    "ptrace": 101, "syslog": 103, "personality": 135, "pivot_root": 155, "chroot": 161, "acct": 163,
    "settimeofday": 164, "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169,
    "iopl": 172, "ioperm": 173, "init_module": 175, "delete_module": 176, "quotactl": 179,
    "add_key": 248, "request_key": 249, "keyctl": 250, "kexec_load": 246, "unshare": 272,
    "mbind": 237, "mq_open": 240, "perf_event_open": 298, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
    "finit_module": 313, "kexec_file_load": 320, "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438, "process_madvise": 440,
    "mount_setattr": 442,
    "shmget": 29, "shmat": 30, "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66, "msgget": 68,
    "msgsnd": 69, "msgrcv": 70, "msgctl": 71,
}
_CLONE, _CLONE3 = 56, 435
# CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
_NS_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000

_LD_W_ABS, _JEQ_K, _JSET_K, _JGE_K, _RET_K = 0x20, 0x15, 0x45, 0x35, 0x06
_RET_ALLOW, _RET_KILL, _RET_ERRNO = 0x7FFF0000, 0x80000000, 0x00050000


def supported() -> bool:
    """Whether this machine's architecture has a filter (x86-64 only)."""
    return platform.machine() in ("x86_64", "AMD64")


def _ins(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


def build_filter() -> bytes:
    """The BPF program as raw ``struct sock_filter`` entries."""
    eperm = _RET_ERRNO | errno.EPERM
    prog = [
        _ins(_LD_W_ABS, 4),                          # arch
        _ins(_JEQ_K, AUDIT_ARCH_X86_64, 1, 0),
        _ins(_RET_K, _RET_KILL),
        _ins(_LD_W_ABS, 0),                          # syscall number
        _ins(_JGE_K, _X32_BIT, 0, 1),
        _ins(_RET_K, eperm),
        _ins(_JEQ_K, _CLONE3, 0, 1),
        _ins(_RET_K, _RET_ERRNO | errno.ENOSYS),
        _ins(_JEQ_K, _CLONE, 0, 3),
        _ins(_LD_W_ABS, 16),                         # clone flags (args[0], low 32 bits)
        _ins(_JSET_K, _NS_FLAGS, 0, 1),
        _ins(_RET_K, eperm),
    ]
    # Both clone branches land here; reload the number (the flags load replaced it).
    prog.append(_ins(_LD_W_ABS, 0))
    for nr in sorted(set(DENIED.values())):
        prog += [_ins(_JEQ_K, nr, 0, 1), _ins(_RET_K, eperm)]
    prog.append(_ins(_RET_K, _RET_ALLOW))
    return b"".join(prog)


def filter_fd() -> int:
    """A readable fd positioned at the start of the filter (the caller passes it to bwrap, then closes it)."""
    data = build_filter()
    fd = os.memfd_create("seccomp", 0)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
