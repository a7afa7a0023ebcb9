"""Per-sandbox cgroups: one memory limit for everything a sandbox holds (its processes, tmpfs and memfd
pages included), a process limit and a CPU share, where the host lets this process create cgroups.

* cgroup v2: a delegated directory given explicitly (``CodePool(cgroup=PATH)`` or
  ``$VERIFIERS_SANDBOX_CGROUP``), or, as root on a host whose unified hierarchy has the ``memory`` and
  ``pids`` controllers, ``/sys/fs/cgroup/verifiers-sandbox``. Each sandbox gets ``memory.max``,
  ``memory.swap.max = 0``, ``pids.max`` and, with the ``cpu`` controller, ``cpu.weight`` and ``cpu.max``.
* cgroup v1 (hybrid hosts, root only): a child of this process's own ``memory``, ``pids`` (and ``cpu``)
  groups with ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes`` where swap is accounted),
  ``pids.max``, ``cpu.shares`` and a CFS quota.
* otherwise none: the program's processes share ``memory_mb`` through rlimits (`split_limits`): at most
  ``procs`` processes and threads (RLIMIT_NPROC, the namespace's own count) of ``memory_mb / procs`` address
  space each (RLIMIT_AS), so their sum stays within ``memory_mb`` without root or a cgroup.

CPU: every sandbox gets the same weight and at most `Limits.cpus` CPUs, so a program that forks busy
processes slows its own sandbox, not the others (without a CPU controller the sandbox's one session
gives it one scheduler autogroup: see `_seccomp`).

The parent moves a sandbox's first process in before that process starts the program side, so every
process of the sandbox is charged. An out-of-memory kill is read back from the group's counters.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from verifiers.errors import SandboxError

ROOT = Path("/sys/fs/cgroup")
ENV_VAR = "VERIFIERS_SANDBOX_CGROUP"
_serial = itertools.count()


@dataclass(frozen=True)
class Limits:
    """What one sandbox may hold in all: bytes of memory, processes and threads, CPUs of run time."""

    memory_bytes: int
    pids: int
    cpus: float = 1.0


# Without a cgroup, the address space one program process gets at least (`split_limits`). A forked child
# holds ~18 MB of address space before it runs anything (the warm zygote's, measured as a normal user);
# 64 MB leaves room for imports, a few 8 MB thread stacks (multiprocessing.Pool's handler threads) and work.
SPLIT_FLOOR_MB = 64
# Below this a program's child cannot start at all: the bound is then 2 x this, not memory_mb.
MIN_PROCESS_MB = 32


@dataclass(frozen=True)
class SplitLimits:
    """Rlimits that keep the sum of a program's processes within its memory without a cgroup."""

    procs: int  # processes and threads the program may have, itself included (RLIMIT_NPROC)
    process_bytes: int  # address space of each (RLIMIT_AS)

    @property
    def total_bytes(self) -> int:
        return self.procs * self.process_bytes


def split_limits(memory_mb: int, max_procs: int) -> SplitLimits:
    """Split ``memory_mb`` across the program's processes: ``procs = min(max_procs, memory_mb // 64)`` (at least
    2) of ``memory_mb / procs`` each, so ``procs x RLIMIT_AS <= memory_mb`` (for ``memory_mb >= 64``)."""
    procs = max(2, min(max_procs, memory_mb // SPLIT_FLOOR_MB))
    return SplitLimits(procs, max(memory_mb // procs, MIN_PROCESS_MB) << 20)


CPU_PERIOD_US = 20_000
CPU_SHARES_V1 = 1024  # the default weight: sandboxes are equal to each other and to a default group
CPU_WEIGHT_V2 = 100


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def _rmdirs(dirs: Iterable[Path]) -> None:
    """Remove these groups in order, passing over any the kernel refuses (not empty yet, already gone)."""
    for d in dirs:
        with contextlib.suppress(OSError):
            d.rmdir()


def _counter(path: Path, key: str) -> int:
    try:
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


class SandboxCgroup:
    """One sandbox's group(s): ``dirs`` is one directory (v2) or the memory, pids (and cpu) groups (v1)."""

    def __init__(self, version: int, dirs: tuple[Path, ...]) -> None:
        self.version = version
        self.dirs = dirs

    def add(self, pid: int) -> None:
        """Move process ``pid`` (and so everything it forks later) into the group."""
        for d in self.dirs:
            _write(d / "cgroup.procs", str(pid))

    def oom_kills(self) -> int:
        """Out-of-memory kills so far in this group."""
        counters = "memory.events" if self.version == 2 else "memory.oom_control"
        return _counter(self.dirs[0] / counters, "oom_kill")

    def cpu_usage(self) -> float | None:
        """CPU seconds used so far by every process that ever ran in the group (auto-reaped ones included),
        or None where the host offers no such counter (v1 without ``cpuacct``)."""
        for d in self.dirs:
            if self.version == 2:
                usec = _counter(d / "cpu.stat", "usage_usec")
                return usec / 1e6
            try:
                return int((d / "cpuacct.usage").read_text()) / 1e9
            except (OSError, ValueError):
                continue
        return None

    def remove(self) -> None:
        """Delete the group(s) (their processes must be gone)."""
        _rmdirs(self.dirs)


class Cgroups:
    """Where this pool's sandbox groups are made (`detect` builds it)."""

    def __init__(self, version: int, bases: tuple[Path, ...], cpu: bool = False) -> None:
        self.version = version
        self.bases = bases  # v2: (parent,), v1: (memory parent, pids parent[, cpu parent])
        self.cpu = cpu  # a CPU controller is in force
        self._names = itertools.count()

    def describe(self) -> str:
        return (f"cgroup v{self.version} under {', '.join(str(b) for b in self.bases)}"
                + ("" if self.cpu else " (no CPU controller)"))

    def create(self, limits: Limits) -> SandboxCgroup:
        """A new group with ``limits``; `SandboxError` if the host refuses."""
        name = f"s{next(self._names)}"
        made: list[Path] = []
        try:
            for b in self.bases:  # v2: one group; v1: one per controller hierarchy
                (b / name).mkdir()
                made.append(b / name)
            if self.version == 2:
                d = made[0]
                _write(d / "memory.max", str(limits.memory_bytes))
                if (d / "memory.swap.max").exists():
                    _write(d / "memory.swap.max", "0")
                _write(d / "pids.max", str(limits.pids))
                if self.cpu:
                    _write(d / "cpu.weight", str(CPU_WEIGHT_V2))
                    _write(d / "cpu.max", f"{int(limits.cpus * CPU_PERIOD_US)} {CPU_PERIOD_US}")
            else:
                mem, pids = made[0], made[1]
                _write(mem / "memory.limit_in_bytes", str(limits.memory_bytes))
                if (mem / "memory.memsw.limit_in_bytes").exists():
                    _write(mem / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))
                _write(pids / "pids.max", str(limits.pids))
                if self.cpu:
                    cpu = made[2]
                    _write(cpu / "cpu.shares", str(CPU_SHARES_V1))
                    _write(cpu / "cpu.cfs_period_us", str(CPU_PERIOD_US))
                    _write(cpu / "cpu.cfs_quota_us", str(int(limits.cpus * CPU_PERIOD_US)))
        except OSError as exc:
            _rmdirs(made)
            raise SandboxError(f"could not create a sandbox cgroup ({self.describe()}): {exc}") from None
        return SandboxCgroup(self.version, tuple(made))

    def close(self) -> None:
        """Remove this pool's parent group(s) (after every sandbox group)."""
        _rmdirs(self.bases)


def _own_paths(proc_cgroup: str = "/proc/self/cgroup") -> dict[str, str]:
    """``{controller or "" (v2): path}`` of this process."""
    out: dict[str, str] = {}
    try:
        text = Path(proc_cgroup).read_text()
    except OSError:
        return out
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) == 3:
            for ctrl in parts[1].split(",") if parts[1] else [""]:
                out[ctrl] = parts[2]
    return out


def _pool_dir_name() -> str:
    return f"verifiers-{os.getpid()}-{next(_serial)}"


def _reap_stale(parent: Path) -> None:
    """Remove empty groups left by pools of processes that no longer exist."""
    try:
        entries = list(parent.iterdir())
    except OSError:
        return
    for d in entries:
        m = re.fullmatch(r"verifiers-(\d+)-\d+", d.name)
        if m and d.is_dir() and not Path(f"/proc/{m.group(1)}").exists():
            _rmdirs([*(child for child in d.iterdir() if child.is_dir()), d])  # its sandbox groups, then it


def _v2_at(base: Path) -> Cgroups:
    ctrls = (base / "cgroup.controllers").read_text().split()
    if not {"memory", "pids"} <= set(ctrls):
        raise SandboxError(f"cgroup {base} lacks the memory/pids controllers (has: {' '.join(ctrls) or 'none'})")
    wanted = ["memory", "pids"] + (["cpu"] if "cpu" in ctrls else [])
    sub = (base / "cgroup.subtree_control").read_text().split()
    missing = [c for c in wanted if c not in sub]
    if missing:
        try:
            _write(base / "cgroup.subtree_control", " ".join("+" + c for c in missing))
        except OSError:
            if "cpu" not in missing or len(missing) > 1:
                raise
            wanted.remove("cpu")  # the CPU controller may be unavailable (e.g. realtime threads): go on without
    _reap_stale(base)
    pool = base / _pool_dir_name()
    pool.mkdir()
    _write(pool / "cgroup.subtree_control", " ".join("+" + c for c in wanted))
    return Cgroups(2, (pool,), cpu="cpu" in wanted)


def _v1_auto() -> Cgroups | None:
    own = _own_paths()
    mem_root, pids_root = ROOT / "memory", ROOT / "pids"
    if "memory" not in own or "pids" not in own or not (mem_root / "memory.limit_in_bytes").exists():
        return None
    bases = []
    name = _pool_dir_name()
    roots = [(mem_root, "memory"), (pids_root, "pids")]
    cpu_root = ROOT / "cpu"
    cpu = "cpu" in own and (cpu_root / "cpu.cfs_quota_us").exists()
    if cpu:
        roots.append((cpu_root, "cpu"))
    # The group's CPU counter (every process's CPU, auto-reaped ones too): in the cpu directory where the
    # host mounts cpu,cpuacct together, else in a cpuacct hierarchy of its own.
    acct_root = ROOT / "cpuacct"
    if ("cpuacct" in own and (acct_root / "cpuacct.usage").exists()
            and not (cpu and (cpu_root / "cpuacct.usage").exists())):
        roots.append((acct_root, "cpuacct"))
    for root, ctrl in roots:
        parent = root / own[ctrl].lstrip("/")
        _reap_stale(parent)
        d = parent / name
        try:
            d.mkdir()
        except OSError:
            if ctrl not in ("cpu", "cpuacct"):
                raise
            if ctrl == "cpu":
                cpu = False
            continue  # no CPU controller (or counter) for us: memory and pids still hold
        bases.append(d)
    return Cgroups(1, tuple(bases), cpu=cpu)


def detect(setting: str | None, root: bool) -> Cgroups | None:
    """The cgroups to put sandboxes in, or None.

    Args:
        setting: ``"auto"`` (default: an explicit ``$VERIFIERS_SANDBOX_CGROUP``, else what root can use
            here), ``"off"``/None (none), or the path of a delegated cgroup v2 directory.
        root: whether this process is the host's root.

    Raises:
        SandboxError: an explicit setting that cannot be used.
    """
    if setting in (None, "off"):
        return None
    if setting == "auto" and os.environ.get(ENV_VAR):
        setting = os.environ[ENV_VAR]
    if setting != "auto":
        base = Path(setting)
        try:
            return _v2_at(base)
        except (OSError, SandboxError) as exc:
            raise SandboxError(f"cannot use cgroup {base} for sandboxes: {exc}") from None
    if not root:
        return None
    try:
        if (ROOT / "cgroup.controllers").exists():  # the unified hierarchy is mounted at the root
            base = ROOT / "verifiers-sandbox"
            base.mkdir(exist_ok=True)
            return _v2_at(base)
        return _v1_auto()
    except (OSError, SandboxError):
        return None
