"""Where an isolated program's CPU goes: the parent, the sandbox worker, and the child forked per program.

    python evals/sandbox/fault_profile.py --data-dir ../shared/data [--trivial] [--workers 1] [--repeat 3]

Runs the 973 MBPP reference solutions other than mbpp/123 (or 1,000 copies of a 3-assert program) through
a warm `CodePool` and prints, per program, this process's CPU and, read from /proc, each sandbox worker's
own CPU and minor page faults and those of the children it forked and reaped. On this VM a copy-on-write
fault costs ~1.7 us and a bare fork + exit ~1-1.8 us per mapped region, so faults and mappings are most of
the sandbox side.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from verifiers.datasets import load_problems
from verifiers.sandbox import CodePool

TICK = os.sysconf("SC_CLK_TCK")
TRIVIAL = {"code": "def f(x):\n    return x + 1\n",
           "tests": ["assert f(1) == 2", "assert f(2) == 3", "assert f(3) == 4"]}


def _stat(pid: int) -> tuple[str, list[int]]:
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    name, rest = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
    # ppid, minflt, cminflt, utime, stime, cutime, cstime
    return name, [int(rest[i]) for i in (1, 7, 8, 11, 12, 13, 14)]


def _workers() -> dict[int, list[int]]:
    """Counters of every Python process below this one (the sandbox workers)."""
    procs: dict[int, tuple[str, list[int]]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                procs[int(d)] = _stat(int(d))
            except OSError:
                pass
    below, todo = {}, [os.getpid()]
    while todo:
        parent = todo.pop()
        for pid, (name, c) in procs.items():
            if c[0] == parent:
                todo.append(pid)
                if name.startswith("python"):
                    below[pid] = c
    return below


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=os.environ.get("VERIFIERS_DATA_DIR", "../shared/data"))
    ap.add_argument("--trivial", action="store_true", help="1,000 copies of a 3-assert program instead of MBPP")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if args.trivial:
        items = [TRIVIAL] * 1000
    else:
        problems = load_problems("mbpp", Path(args.data_dir) / "mbpp" / "mbpp.jsonl", split="all")
        items = [{"code": p.solution, "tests": list(p.tests), "setup_code": p.setup_code}
                 for p in problems if p.id != "mbpp/123"]
    n = len(items)
    with CodePool(workers=args.workers, timeout_s=30.0, recycle_after=100_000) as pool:
        pool.map(items[:50])
        for _ in range(args.repeat):
            before, c0, t0 = _workers(), time.process_time(), time.perf_counter()
            results = pool.map(items)
            wall, parent, after = time.perf_counter() - t0, time.process_time() - c0, _workers()
            worker = child = faults = child_faults = 0.0
            for pid, b in before.items():
                a = after.get(pid, b)
                worker += (a[3] + a[4] - b[3] - b[4]) / TICK
                child += (a[5] + a[6] - b[5] - b[6]) / TICK
                faults += a[1] - b[1]
                child_faults += a[2] - b[2]
            total = parent + worker + child
            print(f"{n / wall:6.0f} programs/s, {sum(r.passed for r in results)}/{n} passed; per program: "
                  f"parent {parent / n * 1e3:.2f} ms, worker {worker / n * 1e3:.2f} ms ({faults / n:.0f} faults), "
                  f"child {child / n * 1e3:.2f} ms ({child_faults / n:.0f} faults), total {total / n * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
