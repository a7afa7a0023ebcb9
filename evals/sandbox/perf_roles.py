"""Where a 2-sandbox `CodePool`'s CPU goes, by process role and by kernel path, from `perf` samples.

    sudo python evals/sandbox/perf_roles.py --data-dir ../shared/data [--src src] [--seconds 4] [--trivial]

Starts a pool (``--src`` on PYTHONPATH, fresh interpreter) that runs the 973 MBPP reference solutions
other than mbpp/123 (or 1,000 copies of a 3-assert program) over and over, samples every CPU with
``perf record -a -g`` for ``--seconds`` once it is warm, and splits the samples:

- by role: ``parent`` (the pool's process: dispatcher and caller), ``zygote``, ``child`` (the process forked
  per program and anything it forked), ``sandbox-other`` (bubblewrap, the launcher), ``kthreads``, ``idle``,
  ``other`` (every other process on the machine);
- within each role, by what the sample was doing: ``user`` (the interpreter), ``page faults``, ``fork``
  (the clone system call), ``exit``, ``mount`` (mount/umount), ``syscalls`` (every other system call),
  ``kernel other`` (interrupts, scheduling).

Prints ms of CPU per program (samples / frequency / programs completed in the window). Needs perf and
the right to sample the whole machine (root, or ``kernel.perf_event_paranoid`` <= 0).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_DRIVER = r"""
import os, sys, time
from pathlib import Path
from verifiers.datasets import load_problems
from verifiers.sandbox import CodePool
data, trivial, go, count = sys.argv[1], sys.argv[2] == "1", sys.argv[3], sys.argv[4]
if trivial:
    items = [{"code": "def f(x):\n    return x + 1\n",
              "tests": ["assert f(1) == 2", "assert f(2) == 3", "assert f(3) == 4"]}] * 1000
else:
    items = [{"code": p.solution, "tests": list(p.tests), "setup_code": p.setup_code, "timeout_s": 30.0}
             for p in load_problems("mbpp", Path(data) / "mbpp" / "mbpp.jsonl", split="all") if p.id != "mbpp/123"]
with CodePool(workers=int(sys.argv[5]), timeout_s=30.0) as pool:
    pool.map(items)  # warm: plans cached, sandboxes settled
    Path(go).write_text(str(os.getpid()))
    with open(count, "a") as log:
        log.write(f"{time.monotonic()} {pool.stats['programs']}\n")
        while not os.path.exists(go + ".stop"):
            pool.map(items)
            log.write(f"{time.monotonic()} {pool.stats['programs']}\n")
            log.flush()
"""

ROLES = ("parent", "zygote", "child", "sandbox-other", "kthreads", "idle", "other")
KINDS = ("user", "page faults", "fork", "exit", "mount", "syscalls", "kernel other")
_FORK = re.compile(r"PERF_RECORD_FORK\((\d+):(\d+)\):\((\d+):(\d+)\)")
_COMM = re.compile(r"PERF_RECORD_COMM(?: exec)?: (.*):(\d+)/(\d+)")
_SAMPLE = re.compile(r"^\s*(.*?)\s+(\d+)/(\d+)\s")


def _kind(chain: list[tuple[str, str]]) -> str:
    """What one sample was doing, from its call chain (innermost first): (symbol, dso) pairs."""
    kernel = [sym for sym, dso in chain if "kernel" in dso]
    if not kernel:
        return "user"
    text = " ".join(kernel)
    if "page_fault" in text:
        return "page faults"
    if "sys_clone" in text or "kernel_clone" in text:
        return "fork"
    if "do_exit" in text or "do_group_exit" in text:
        return "exit"
    if "sys_mount" in text or "sys_umount" in text or "path_mount" in text:
        return "mount"
    if "do_syscall" in text or "el0_svc" in text:
        return "syscalls"
    return "kernel other"


def analyse(data: Path, driver_pid: int) -> collections.Counter[tuple[str, str]]:
    """Samples per (role, kind) in a ``perf record -a -g`` file."""
    out = subprocess.run(["perf", "script", "-i", str(data), "--show-task-events", "-F", "comm,pid,tid,ip,sym,dso"],
                         capture_output=True, text=True, check=True).stdout
    parent: dict[int, int] = {}
    comm: dict[int, str] = {}
    counts: collections.Counter[tuple[str, str]] = collections.Counter()

    def role(pid: int) -> str:
        if pid == 0:
            return "idle"
        if pid == driver_pid:
            return "parent"
        chain, p = [], pid
        while p in parent and p not in chain:
            chain.append(p)
            p = parent[p]
        chain.append(p)
        if driver_pid in chain:
            below = chain[:chain.index(driver_pid)]  # pid ... child of the driver
            for i in range(len(below) - 1, -1, -1):
                q = below[i]
                if comm.get(q, "").startswith("python") and i + 1 < len(below) and comm.get(below[i + 1]) == "bwrap":
                    return "zygote" if q == pid else "child"
            return "sandbox-other"
        return "kthreads" if 2 in chain[1:] or pid == 2 else "other"

    header: tuple[int, list[tuple[str, str]]] | None = None
    for line in out.splitlines() + [""]:
        if m := _FORK.search(line):
            if m.group(1) != m.group(3):
                parent[int(m.group(1))] = int(m.group(3))
            continue
        if m := _COMM.search(line):
            if m.group(2) == m.group(3):
                comm[int(m.group(2))] = m.group(1)
            continue
        if not line.strip():
            if header is not None:
                counts[(role(header[0]), _kind(header[1]))] += 1
                header = None
            continue
        if header is None:
            if (m := _SAMPLE.match(line)) and "PERF_RECORD" not in line:
                header = (int(m.group(2)), [])
            continue
        parts = line.split(None, 1)
        if len(parts) == 2:
            sym, _, dso = parts[1].rpartition(" (")
            header[1].append((sym.split("+")[0], dso))
    return counts


def _done_at(log: Path, t: float) -> float | None:
    """Programs finished by time ``t`` (monotonic), interpolated between the driver's per-pass records."""
    rows = [tuple(map(float, line.split())) for line in log.read_text().splitlines() if line.strip()]
    for (ta, na), (tb, nb) in itertools.pairwise(rows):
        if ta <= t <= tb:
            return na + (nb - na) * (t - ta) / (tb - ta)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=os.environ.get("VERIFIERS_DATA_DIR", "../shared/data"))
    ap.add_argument("--src", default="src", help="the src directory of the build to profile")
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--frequency", type=int, default=1999)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--trivial", action="store_true", help="1,000 copies of a 3-assert program instead of MBPP")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="perf-roles-") as tmp:
        go, count, data = Path(tmp) / "go", Path(tmp) / "count", Path(tmp) / "perf.data"
        env = {**os.environ, "PYTHONPATH": str(Path(args.src).resolve())}
        driver = subprocess.Popen([sys.executable, "-c", _DRIVER, str(Path(args.data_dir).resolve()),
                                   "1" if args.trivial else "0", str(go), str(count), str(args.workers)], env=env)
        try:
            while not go.exists():
                if driver.poll() is not None:
                    print("the pool failed to start", file=sys.stderr)
                    return 1
                time.sleep(0.05)
            time.sleep(0.5)
            t0 = time.monotonic()
            subprocess.run(["perf", "record", "-a", "-g", "-F", str(args.frequency), "-o", str(data), "--",
                            "sleep", str(args.seconds)], check=True, capture_output=True)
            t1 = time.monotonic()
            while _done_at(count, t1) is None and driver.poll() is None:  # until a pass ends after the window
                time.sleep(0.05)
        finally:
            go.with_name("go.stop").write_text("")
            driver.wait()
        start, end = _done_at(count, t0), _done_at(count, t1)
        if start is None or end is None:
            print("no pass finished around the window", file=sys.stderr)
            return 1
        rate = (end - start) / (t1 - t0)
        counts = analyse(data, int(go.read_text()))
    per_program = 1e3 / args.frequency / (rate * args.seconds)
    print(f"{rate:.0f} programs/s during the window; ms of CPU per program (load {os.getloadavg()[0]:.2f})")
    print(f"{'':15}" + "".join(f"{k:>13}" for k in KINDS) + f"{'total':>10}")
    for r in ROLES:
        row = [counts[(r, k)] * per_program for k in KINDS]
        if sum(row):
            print(f"{r:15}" + "".join(f"{x:13.3f}" for x in row) + f"{sum(row):10.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
