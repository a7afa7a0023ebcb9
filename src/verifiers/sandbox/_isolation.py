"""How a sandbox is started: the bubblewrap command line, its user namespace and its minimal file view.

Security model (``isolation="bwrap"``), the same as root and as a normal user:

* Every sandbox (one warm zygote, `_zygote`) gets its own **user namespace**. Its programs, and the zygote
  that forks them, run as the unprivileged `SANDBOX_UID`/`SANDBOX_GID` (1000) of that namespace, never as its
  uid 0: a program cannot become uid 0 again (``setuid(0)`` fails), so a kernel bug that trusts "uid 0 of
  some namespace" finds no such process among them. Outside, `SANDBOX_UID` is a uid leased for this
  sandbox alone when the pool runs as root (`_uids.UidLease.program_uid`), or the user's own uid otherwise.
  The process that creates the namespace blocks until the parent has written the uid/gid maps
  (``setgroups`` denied).

  - As a normal user the kernel lets a namespace map exactly one uid (the user's own) without a set-uid
    helper, so `SANDBOX_UID` is the only uid mapped: bubblewrap creates the namespace (``--unshare-user
    --userns-block-fd --uid 1000``) and, as its creator, holds every capability in it; it keeps the
    zygote's two (below) across its ``execve`` as *ambient* capabilities, which a uid other than 0 needs.
  - As root `_launcher` creates the namespace as the leased uid (so that uid owns it and is charged the
    per-user kernel counts of its processes; as root where the host forbids unprivileged user namespaces)
    and execs bubblewrap inside it as uid 0 of the namespace: bubblewrap run by a uid other than 0 would
    make a second, nested user namespace, which such hosts forbid. So two uids are mapped there: 0 (the
    leased uid: bubblewrap and its init) and `SANDBOX_UID` (the lease's second host uid: the zygote and
    programs). The zygote starts as uid 0 with ``CAP_SETUID``/``CAP_SETGID`` too, becomes `SANDBOX_UID`
    with ``SECBIT_NO_SETUID_FIXUP`` locked (its capabilities survive the change) and then drops those two
    from every set, the bounding set included, before anything else.

  RLIMIT_NPROC is counted per namespace and uid (kernel >= 5.14), independent of what else the user runs.
  The zygote keeps ``CAP_SYS_ADMIN`` and ``CAP_SETPCAP`` *in that namespace only*: enough to give each
  program its own pid namespace and a fresh tmpfs at ``/tmp`` (owned by `SANDBOX_UID`, mode 1777); each
  program's child drops every capability (ambient ones with them) before its code is read, with
  no_new_privs and ``SECBIT_NOROOT`` locked, so no ``execve`` gives any back.
* Namespaces: user, mount, pid, net (no interfaces but a down loopback), ipc, uts, cgroup.
  ``--die-with-parent``, ``--new-session``, an empty environment.
* File view, all read-only: the interpreter binary, its stdlib (``site-packages`` masked by an empty
  read-only tmpfs), the shared libraries these load (found with ``ldd``), a ``/dev`` with only `DEVICES`
  (no devpts, so no pseudo-terminals); the root itself is remounted read-only. Each program gets a fresh tmpfs at ``/tmp``, mounted by the zygote for it
  and dropped unread once all its processes are gone.
  No ``/proc``, no shell, no project tree, no datasets, no home directories.
* The zygote's own source arrives over its control socket (`BOOTSTRAP`), never as a file of the project.
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

# Run as `python -I -S -B -c BOOTSTRAP <ctl-fd>`: one SOCK_SEQPACKET message on that fd is the zygote source.
BOOTSTRAP = (
    "import os,sys\n"
    "fd=int(sys.argv[1])\n"
    "exec(compile(os.read(fd,1<<20),'<sandbox-zygote>','exec'),{'__name__':'__sandbox_zygote__','CTL':fd})\n"
)
# Root only: empty, world-traversable mount points where `_launcher` binds what a leased uid cannot reach.
STAGE_DIR = "/run/verifiers-sandbox-stage"
DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom")
# Capabilities the zygote keeps inside its own user namespace (see the module docstring).
ZYGOTE_CAPS = ("CAP_SYS_ADMIN", "CAP_SETPCAP")
# As root only: what the zygote needs once, to become SANDBOX_UID/SANDBOX_GID, and then drops for good.
SWITCH_CAPS = ("CAP_SETUID", "CAP_SETGID")
# The uid and gid programs (and their zygote) run as inside their user namespace: not 0, and not the
# kernel's overflow id 65534 (what files of unmapped owners show), so nothing seen in the sandbox is theirs
# unless they made it.
SANDBOX_UID = SANDBOX_GID = 1000


@functools.lru_cache(maxsize=2)
def script_source(name: str) -> bytes:
    """The text of this package's script ``_<name>.py``: ``zygote`` (sent as the first message on the
    zygote's control socket) or ``launcher`` (run by root with ``-c``)."""
    return Path(__file__).with_name(f"_{name}.py").read_bytes()


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
    return {m.group(1) for m in re.finditer(r"(?:=>\s*)?(/\S+)\s+\(0x", out)}


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
    libs = _ldd([exe, *sos])
    pairs = {(os.path.realpath(p), p) for p in libs if os.path.exists(p)}
    if not dynload.startswith(stdlib + os.sep) and os.path.isdir(dynload):
        pairs.add((dynload, dynload))
    return PythonLayout(exe, stdlib, masked, tuple(sorted(pairs, key=lambda x: x[1])))


@functools.lru_cache(maxsize=1)
def bwrap_features() -> frozenset[str]:
    """Options this bubblewrap understands (``--userns-block-fd`` and ``--perms`` are needed)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return frozenset()
    text = subprocess.run([exe, "--help"], capture_output=True, text=True, check=False).stdout
    return frozenset(o for o in ("--perms", "--clearenv", "--seccomp", "--userns-block-fd", "--remount-ro",
                                 "--ro-bind-fd") if o in text) | {"present"}


def require_bwrap() -> str:
    """Path of ``bwrap`` (recent enough), or a `SandboxError` saying how to fix it."""
    exe = shutil.which("bwrap")
    if exe is None:
        raise SandboxError(
            "bubblewrap (`bwrap`) is not installed, so programs cannot be isolated. Install it "
            "(Debian/Ubuntu: `apt-get install bubblewrap`) or pass isolation='process' to run programs "
            "without isolation (UNSAFE: only for trusted code)."
        )
    missing = {"--userns-block-fd", "--remount-ro", "--perms", "--clearenv"} - bwrap_features()
    if missing:
        raise SandboxError(f"bubblewrap at {exe} is too old (no {', '.join(sorted(missing))}); "
                           "install bubblewrap >= 0.5")
    return exe


def host_is_root() -> bool:
    """Root of the host (euid 0 in the initial user namespace), who can map any uid for a sandbox."""
    return os.geteuid() == 0 and (_read("/proc/self/uid_map") or "").split() == ["0", "0", "4294967295"]


def bind_sources() -> list[tuple[str, str]]:
    """``(host path, sandbox path)`` of everything the sandbox shows read-only (interpreter, stdlib, libraries)."""
    lay = python_layout()
    return [(lay.executable, lay.executable), (lay.stdlib, lay.stdlib), *lay.libraries]


@functools.lru_cache(maxsize=1)
def stage_plan() -> tuple[tuple[str, str], ...]:
    """Root only: ``(host dir or file, stage path)`` for each bind source a leased uid cannot traverse to.

    The unit staged is the child of the deepest ancestor without "others may search" (``/root/.pyenv``
    for an interpreter under ``/root``); `_launcher` binds it on an empty path under `STAGE_DIR`.
    """
    units: dict[str, str] = {}
    for src, _ in bind_sources():
        parts = Path(src).parts
        unit = None
        for i in range(1, len(parts) - 1):
            d = os.path.join(*parts[: i + 1])
            if not os.stat(d).st_mode & 0o001:
                unit = os.path.join(d, parts[i + 1])
        if unit is not None and unit not in units:
            units[unit] = os.path.join(STAGE_DIR, str(len(units)))
    if units:
        os.makedirs(STAGE_DIR, mode=0o755, exist_ok=True)
        os.chmod(STAGE_DIR, 0o755)
        for unit, stage in units.items():
            if os.path.isdir(unit):
                os.makedirs(stage, mode=0o755, exist_ok=True)
            elif not os.path.exists(stage):
                Path(stage).touch()
            os.chmod(stage, 0o755)
    return tuple(units.items())


def _staged(src: str, stages: tuple[tuple[str, str], ...]) -> str:
    for unit, stage in stages:
        if src == unit or src.startswith(unit + "/"):
            return stage + src[len(unit):]
    return src


def bwrap_argv(ctl_fd: int, seccomp_fd: int | None, *, userns_fds: tuple[int, int] | None,
               stages: tuple[tuple[str, str], ...] = ()) -> list[str]:
    """Full command line of one sandbox (bubblewrap running the zygote).

    Args:
        ctl_fd: the zygote's end of its control socket.
        seccomp_fd: the sandbox filter for ``--seccomp``, or None.
        userns_fds: ``(info_fd, block_fd)``: bubblewrap makes the user namespace and waits (normal user);
            None: it runs inside one `_launcher` made (root).
        stages: `stage_plan` (root): bind sources are read from their stage paths.
    """
    exe = require_bwrap()
    lay = python_layout()
    argv = [exe]
    if userns_fds is not None:
        argv += ["--unshare-user", "--info-fd", str(userns_fds[0]), "--userns-block-fd", str(userns_fds[1]),
                 "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_GID)]
    argv += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
             "--die-with-parent", "--new-session", "--clearenv", "--cap-drop", "ALL"]
    for cap in ZYGOTE_CAPS + (SWITCH_CAPS if userns_fds is None else ()):
        argv += ["--cap-add", cap]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    binds = bind_sources()
    argv += _parent_dirs([d for _, d in binds], [d for s, d in binds if os.path.isdir(s)])
    for src, dest in binds:
        argv += ["--ro-bind", _staged(src, stages), dest]
    for m in lay.masked:
        argv += ["--tmpfs", m, "--remount-ro", m]
    # A minimal /dev: four device nodes bound from the host, no devpts (a program could drain the host's
    # pseudo-terminal pool through /dev/ptmx), no tty. /dev/shm (POSIX semaphores and shared memory:
    # `multiprocessing`) is a link to /tmp, the program's own fresh tmpfs: inside its size and memory limits,
    # and gone with the program, so nothing in it reaches a later program.
    argv += ["--perms", "0755", "--dir", "/dev"]
    for dev in DEVICES:
        argv += ["--dev-bind", dev, dev]
    argv += ["--symlink", "/tmp", "/dev/shm"]
    argv += ["--perms", "0755", "--dir", "/tmp", "--remount-ro", "/"]
    argv += ["--", lay.executable, "-I", "-S", "-B", "-c", BOOTSTRAP, str(ctl_fd)]
    return argv


def launcher_argv(report_fd: int, release_fd: int, uid: int, stages: tuple[tuple[str, str], ...],
                  bwrap: list[str]) -> list[str]:
    """Root's command line: `_launcher` (talking over the two fds, making a user namespace owned by the
    leased ``uid``), which then execs ``bwrap``."""
    exe = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
    flat = [x for pair in stages for x in pair]
    script = script_source("launcher").decode()
    return _with_pdeathsig([exe, "-I", "-S", "-B", "-c", script, str(report_fd), str(release_fd),
                            str(uid), str(len(stages)), *flat, "--", *bwrap])


def process_argv(ctl_fd: int) -> list[str]:
    """Command line of an unisolated zygote (``isolation="process"``)."""
    exe = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
    return _with_pdeathsig([exe, "-I", "-S", "-B", "-c", BOOTSTRAP, str(ctl_fd)])


def _with_pdeathsig(argv: list[str]) -> list[str]:
    """Prefix ``setpriv --pdeathsig SIGKILL``: the sandbox dies with the thread that spawned it."""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "SIGKILL", "--", *argv] if setpriv else argv


def _parent_dirs(dests: list[str], bound_dirs: list[str]) -> list[str]:
    """``--dir`` options creating every ancestor of ``dests`` world-traversable (bwrap's default is 0700)."""
    dirs: set[str] = set()
    for d in dests:
        p = os.path.dirname(d)
        while p not in ("/", ""):
            dirs.add(p)
            p = os.path.dirname(p)
    out: list[str] = []
    for d in sorted(dirs, key=lambda x: (x.count("/"), x)):
        if not any(d == b or d.startswith(b + "/") for b in bound_dirs):
            out += ["--perms", "0755", "--dir", d]
    return out


def id_maps(outer: int, program_outer: int | None = None) -> list[tuple[int, int]]:
    """``(inside, outside)`` ids of a sandbox's user namespace, used for both uids and gids.

    A normal user (``program_outer`` None): `SANDBOX_UID` is ``outer``, the user's own id (the one id such a
    namespace may map). Root: 0 is the leased ``outer`` (bubblewrap's), `SANDBOX_UID` the lease's
    ``program_outer`` (the zygote's and the programs').
    """
    if program_outer is None:
        return [(SANDBOX_UID, outer)]
    return [(0, outer), (SANDBOX_UID, program_outer)]


def write_id_maps(pid: int, uids: list[tuple[int, int]], gids: list[tuple[int, int]]) -> None:
    """Write the uid and gid maps (`id_maps`) of ``pid``'s new user namespace (and deny setgroups)."""
    def text(pairs: list[tuple[int, int]]) -> str:
        return "".join(f"{inside} {outside} 1\n" for inside, outside in pairs)

    maps = (("setgroups", "deny"), ("uid_map", text(uids)), ("gid_map", text(gids)))
    for name, content in maps:  # in this order: gid_map may be written only once setgroups is denied
        fd = os.open(f"/proc/{pid}/{name}", os.O_WRONLY | os.O_CLOEXEC)
        try:  # a map is taken in one write(2) or not at all
            if os.write(fd, content.encode()) != len(content):
                raise OSError(f"short write to /proc/{pid}/{name}")
        finally:
            os.close(fd)


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def userns_diagnosis(root: bool, proc_sys: str = "/proc/sys") -> str | None:
    """One line naming the host setting that forbids the sandbox's user namespaces, with its fix; or None."""
    if _read(f"{proc_sys}/user/max_user_namespaces") == "0":
        return ("user namespaces are disabled on this host (user.max_user_namespaces=0); enable them: "
                "`sysctl -w user.max_user_namespaces=15000`")
    if root:
        return None
    if _read(f"{proc_sys}/kernel/unprivileged_userns_clone") == "0":
        return ("unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone=0); enable them "
                "(`sysctl -w kernel.unprivileged_userns_clone=1`) or run the pool as root")
    if _read(f"{proc_sys}/kernel/apparmor_restrict_unprivileged_userns") == "1":
        return ("AppArmor forbids unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1, "
                "Ubuntu >= 23.10): add a profile for bwrap that allows `userns` (e.g. /etc/apparmor.d/bwrap "
                "with `profile bwrap /usr/bin/bwrap flags=(unconfined) { userns, }`), or run the pool as root")
    return None
