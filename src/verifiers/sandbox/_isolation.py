"""How a sandbox worker is started: the bubblewrap command line, the uid drop and the minimal file view.

Security model (``isolation="bwrap"``):

* Started as root (as in CI), bubblewrap uses real namespaces (no setuid helper, no user namespace: one
  mapped to root would still read root-only files). Inside, ``setpriv`` drops to a per-worker uid with
  no groups, no capabilities and ``no_new_privs`` before the interpreter starts, so RLIMIT_NPROC applies
  and root-only files stay unreadable. Started as a normal user, bubblewrap makes a user namespace
  mapped to that user and nested user namespaces are disabled.
* Namespaces: mount, pid, net (no interfaces but a down loopback), ipc, uts, cgroup. ``--die-with-parent``,
  ``--new-session``, empty environment.
* File view: only the interpreter binary, its stdlib (``site-packages`` masked by an empty tmpfs), the
  shared libraries these load (found with ``ldd``), ``setpriv``, a minimal ``/dev`` and a small private
  tmpfs at ``/tmp``. No ``/proc``, no shell, no project tree, no datasets, no home directories.
* The worker's own source arrives over stdin (`BOOTSTRAP`), never as a file of the project.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from verifiers.errors import SandboxError

# The interpreter runs this with -I -S -B: read a 10-digit length, then that many bytes of worker source.
BOOTSTRAP = (
    "import os\n"
    "def r(n):\n"
    " b=b''\n"
    " while len(b)<n:\n"
    "  c=os.read(0,n-len(b))\n"
    "  if not c: raise SystemExit(3)\n"
    "  b+=c\n"
    " return b\n"
    "exec(compile(r(int(r(10))),'<sandbox-worker>','exec'),{'__name__':'__sandbox_worker__'})\n"
)
WORKER_SOURCE_PATH = Path(__file__).with_name("_worker.py")
TMPFS_BYTES = 64 * 1024 * 1024
# uids for dropped workers: a block per parent pid so two pools on one host do not share NPROC counts.
UID_BASE = 200_000


@functools.lru_cache(maxsize=1)
def worker_payload() -> bytes:
    """What the parent writes to a new worker's stdin: 10-digit length + the worker source."""
    src = WORKER_SOURCE_PATH.read_bytes()
    return b"%010d" % len(src) + src


@dataclass(frozen=True)
class PythonLayout:
    """Where the interpreter lives, so the sandbox can show exactly that and nothing else."""

    executable: str
    stdlib: str
    masked: tuple[str, ...]
    libraries: tuple[tuple[str, str], ...]  # (host source, sandbox destination)


def _ldd(paths: list[str]) -> set[str]:
    if not paths:
        return set()
    ldd = shutil.which("ldd")
    if ldd is None:
        raise SandboxError("`ldd` not found; it is needed to list the interpreter's shared libraries "
                           "(install libc-bin) or pass isolation='process' (unsafe)")
    out = subprocess.run([ldd, *paths], capture_output=True, text=True, check=False).stdout
    found = set()
    for m in re.finditer(r"(?:=>\s*)?(/\S+)\s+\(0x", out):
        found.add(m.group(1))
    return found


@functools.lru_cache(maxsize=1)
def python_layout() -> PythonLayout:
    """The base interpreter (not a venv's symlink), its stdlib and every shared library it may load."""
    exe = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
    stdlib = os.path.realpath(sysconfig.get_path("stdlib", vars={"installed_base": sys.base_prefix}))
    dynload = os.path.join(os.path.realpath(sysconfig.get_path("platstdlib",
                                                               vars={"platbase": sys.base_prefix})), "lib-dynload")
    masked = tuple(p for p in (os.path.join(stdlib, "site-packages"), os.path.join(stdlib, "dist-packages"))
                   if os.path.isdir(p))
    # Extension modules' own libraries (libssl, libffi, libz...); the GUI toolkit's X11 stack is left out.
    sos = [os.path.join(dynload, f) for f in os.listdir(dynload)
           if f.endswith(".so") and not f.startswith("_tkinter")] if os.path.isdir(dynload) else []
    setpriv = shutil.which("setpriv")
    libs = _ldd([exe, *sos, *([setpriv] if setpriv else [])])
    pairs = {(os.path.realpath(p), p) for p in libs if os.path.exists(p)}
    if not dynload.startswith(stdlib + os.sep) and os.path.isdir(dynload):
        pairs.add((dynload, dynload))
    return PythonLayout(exe, stdlib, masked, tuple(sorted(pairs, key=lambda x: x[1])))


@functools.lru_cache(maxsize=1)
def bwrap_features() -> frozenset[str]:
    """Options this bubblewrap understands (``--size`` and ``--disable-userns`` are recent)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return frozenset()
    text = subprocess.run([exe, "--help"], capture_output=True, text=True, check=False).stdout
    return frozenset(o for o in ("--size", "--perms", "--disable-userns", "--clearenv", "--seccomp")
                     if o in text) | {"present"}


def require_bwrap() -> str:
    """Path of ``bwrap`` (and ``setpriv`` when root), or a `SandboxError` saying how to fix it."""
    exe = shutil.which("bwrap")
    if exe is None:
        raise SandboxError(
            "bubblewrap (`bwrap`) is not installed, so programs cannot be isolated. Install it "
            "(Debian/Ubuntu: `apt-get install bubblewrap`) or pass isolation='process' to run programs "
            "without isolation (UNSAFE: only for trusted code)."
        )
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        raise SandboxError("running as root needs `setpriv` (util-linux) to drop each worker to an "
                           "unprivileged uid; install util-linux or run as a normal user")
    return exe


def worker_uid(slot: int) -> int:
    """The unprivileged uid/gid of worker ``slot`` (distinct per worker and per parent process)."""
    return UID_BASE + (os.getpid() % 20_000) * 100 + slot % 100


def bwrap_argv(slot: int, *, seccomp_fd: int | None = None) -> list[str]:
    """Full command line of one sandbox worker."""
    exe = require_bwrap()
    lay = python_layout()
    feats = bwrap_features()
    root = os.geteuid() == 0
    argv = [exe, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session"]
    if "--clearenv" in feats:
        argv.append("--clearenv")
    if not root:
        argv += ["--unshare-user", "--cap-drop", "ALL"]
        if "--disable-userns" in feats:
            argv.append("--disable-userns")
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    binds = [(lay.executable, lay.executable), (lay.stdlib, lay.stdlib), *lay.libraries]
    if root:
        setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
        binds.append((setpriv, setpriv))
    argv += _parent_dirs([d for _, d in binds], [d for s, d in binds if os.path.isdir(s)],
                         "--perms" in feats)
    for src, dest in binds:
        argv += ["--ro-bind", src, dest]
    for m in lay.masked:
        argv += ["--tmpfs", m]
    argv += ["--dev", "/dev"]
    if "--size" in feats:
        argv += ["--size", str(TMPFS_BYTES)]
    if "--perms" in feats:
        argv += ["--perms", "1777"]
    argv += ["--tmpfs", "/tmp"]
    if root:
        uid = worker_uid(slot)
        argv += ["--", setpriv, f"--reuid={uid}", f"--regid={uid}",
                 "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    else:
        argv.append("--")
    argv += [lay.executable, "-I", "-S", "-B", "-c", BOOTSTRAP]
    return _with_pdeathsig(argv)


def _with_pdeathsig(argv: list[str]) -> list[str]:
    """Prefix ``setpriv --pdeathsig SIGKILL``: the worker dies with the thread that spawned it."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "SIGKILL", "--", *argv] if setpriv else argv


def _parent_dirs(dests: list[str], bound_dirs: list[str], perms: bool) -> list[str]:
    """``--dir`` options creating every ancestor of ``dests`` world-traversable (bwrap's default is 0700)."""
    dirs: set[str] = set()
    for d in dests:
        p = os.path.dirname(d)
        while p not in ("/", ""):
            dirs.add(p)
            p = os.path.dirname(p)
    out: list[str] = []
    for d in sorted(dirs, key=lambda x: (x.count("/"), x)):
        if any(d == b or d.startswith(b + "/") for b in bound_dirs):
            continue
        out += (["--perms", "0755", "--dir", d] if perms else ["--dir", d])
    return out


def process_argv() -> list[str]:
    """Command line of an unisolated worker (``isolation="process"``)."""
    exe = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
    return _with_pdeathsig([exe, "-I", "-S", "-B", "-c", BOOTSTRAP])


def count_processes(uid: int) -> int:
    """Processes (threads included) the kernel counts against ``uid``'s RLIMIT_NPROC."""
    n = 0
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.stat(f"/proc/{d}").st_uid == uid:
                    n += len(os.listdir(f"/proc/{d}/task"))
            except OSError:
                pass
    return n
