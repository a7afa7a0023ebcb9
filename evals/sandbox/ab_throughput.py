"""A/B throughput of `CodePool` builds: the 973 MBPP reference solutions (all but mbpp/123) through a
2-worker pool, each build in its own fresh interpreter, builds interleaved in shuffled rounds.

    python evals/sandbox/ab_throughput.py --build old=/tmp/oldsb/src --build new=src --rounds 6
    python evals/sandbox/ab_throughput.py --build old=/tmp/oldsb/src --build new=src --alternate --rounds 15

Each round starts one process per build (in random order); each process starts a pool, warms it, and
times ``--passes`` passes of ``pool.map`` over the 973 programs. Reported per build: the median over
rounds of each round's median programs/s, every round's value, and the machine's load average. Run it on
a quiet machine, and compare builds of the same run only (this shared VM drifts by 10-20 % over minutes).

``--alternate``: one warm process per build for the whole run; each round runs one pass of every build,
back to back in shuffled order (only one pool works at a time, the others idle), so two builds' passes
are seconds apart and the machine's drift cancels in the per-round ratios. Each process also reports the
CPU its pool used per program (this process, the sandboxes and the children they reaped, from /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _path_with(src: str) -> str:
    """PYTHONPATH for a build's process: its source tree first, then this process's (its dependencies)."""
    return os.pathsep.join(p for p in (str(Path(src).resolve()), os.environ.get("PYTHONPATH", "")) if p)

_CHILD = r"""
import json, sys, time
from pathlib import Path
from verifiers.datasets import load_problems
from verifiers.sandbox import CodePool
data, workers, passes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
problems = [p for p in load_problems("mbpp", Path(data) / "mbpp" / "mbpp.jsonl", split="all") if p.id != "mbpp/123"]
items = [{"code": p.solution, "tests": list(p.tests), "setup_code": p.setup_code, "timeout_s": 30.0}
         for p in problems]
out = []
with CodePool(workers=workers, timeout_s=30.0) as pool:
    pool.map([{"code": "def f():\n    return 1\n", "tests": ["assert f() == 1"]}] * 50)
    for _ in range(passes):
        t0 = time.perf_counter()
        rs = pool.map(items)
        out.append([time.perf_counter() - t0, sum(r.passed for r in rs)])
print(json.dumps({"passes": out, "n": len(items)}))
"""

# --alternate: a warm pool that runs one pass per line on stdin and answers with one JSON line.
_SERVER = r"""
import json, os, sys, time
from pathlib import Path
from verifiers.datasets import load_problems
from verifiers.sandbox import CodePool
TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu():
    # {pid: (start time, CPU s incl. reaped children)} of every process below this one
    stats, kids = {}, {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(d)] = fields
            kids.setdefault(int(fields[1]), []).append(int(d))
    out, todo = {}, list(kids.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        out[pid] = (stats[pid][19], sum(int(x) for x in stats[pid][11:15]) / TICK)
        todo += kids.get(pid, [])
    return out


def tree_delta(before, after):
    # CPU between two snapshots; None if a process of the first is gone (its time went with it)
    if any(pid not in after or after[pid][0] != b[0] for pid, b in before.items()):
        return None
    return sum(a[1] - (before[pid][1] if pid in before else 0.0) for pid, a in after.items())


data, workers, kw = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
problems = [p for p in load_problems("mbpp", Path(data) / "mbpp" / "mbpp.jsonl", split="all") if p.id != "mbpp/123"]
items = [{"code": p.solution, "tests": list(p.tests), "setup_code": p.setup_code, "timeout_s": 30.0}
         for p in problems]
with CodePool(workers=workers, timeout_s=30.0, **kw) as pool:
    pool.map([{"code": "def f():\n    return 1\n", "tests": ["assert f() == 1"]}] * 50)
    print(json.dumps({"ready": True, "n": len(items)}), flush=True)
    for _ in sys.stdin:
        c0, s0, t0 = time.process_time(), tree_cpu(), time.perf_counter()
        rs = pool.map(items)
        wall = time.perf_counter() - t0
        sandboxes = tree_delta(s0, tree_cpu())
        cpu = None if sandboxes is None else time.process_time() - c0 + sandboxes
        print(json.dumps({"s": wall, "passed": sum(r.passed for r in rs), "cpu": cpu}), flush=True)
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="append", required=True, help="NAME=PATH of a src directory (repeatable)")
    ap.add_argument("--data-dir", default=os.environ.get("VERIFIERS_DATA_DIR", "../shared/data"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--alternate", action="store_true", help="warm processes, one pass per build per round")
    ap.add_argument("--pool-kw", action="append", default=[],
                    help="NAME=JSON: CodePool keyword arguments for build NAME (--alternate only)")
    args = ap.parse_args(argv)
    builds = dict(b.split("=", 1) for b in args.build)
    if args.alternate:
        return _alternate(args, builds)
    rng = random.Random(args.seed)
    per_round: dict[str, list[float]] = {name: [] for name in builds}
    loads = [os.getloadavg()]
    for r in range(args.rounds):
        order = list(builds)
        rng.shuffle(order)
        for name in order:
            env = {**os.environ, "PYTHONPATH": _path_with(builds[name])}
            proc = subprocess.run([args.python, "-c", _CHILD, str(Path(args.data_dir).resolve()), str(args.workers),
                                   str(args.passes)], env=env, capture_output=True, text=True, check=False,
                                  cwd="/")
            if proc.returncode != 0:
                print(f"{name}: failed\n{proc.stderr[-2000:]}", file=sys.stderr)
                return 1
            got = json.loads(proc.stdout.strip().splitlines()[-1])
            rates = [got["n"] / s for s, _ in got["passes"]]
            if any(p != got["n"] for _, p in got["passes"]):
                print(f"{name}: not every reference solution passed: {got['passes']}", file=sys.stderr)
            per_round[name].append(statistics.median(rates))
            print(f"round {r + 1} {name}: " + " ".join(f"{x:.0f}" for x in rates) + " programs/s", flush=True)
        loads.append(os.getloadavg())
    summary = {name: {"median_programs_per_s": round(statistics.median(v), 1),
                      "rounds": [round(x, 1) for x in v]} for name, v in per_round.items()}
    names = list(builds)
    if len(names) == 2:
        a, b = names
        ratios = [y / x for x, y in zip(per_round[a], per_round[b])]
        summary[f"{b}/{a}"] = {"per_round": [round(x, 3) for x in ratios], "median": round(statistics.median(ratios), 3)}
    summary["load_average"] = [[round(x, 2) for x in la] for la in loads]
    summary["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(json.dumps(summary, indent=1))
    return 0


def _alternate(args: argparse.Namespace, builds: dict[str, str]) -> int:
    rng = random.Random(args.seed)
    pool_kw = dict(b.split("=", 1) for b in args.pool_kw)
    procs: dict[str, subprocess.Popen[str]] = {}
    n = 0
    for name, src in builds.items():
        env = {**os.environ, "PYTHONPATH": _path_with(src)}
        procs[name] = subprocess.Popen([args.python, "-c", _SERVER, str(Path(args.data_dir).resolve()),
                                        str(args.workers), pool_kw.get(name, "{}")], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True, cwd="/")
    try:
        for name, proc in procs.items():
            assert proc.stdout is not None
            line = proc.stdout.readline()
            if not line:
                print(f"{name}: failed to start", file=sys.stderr)
                return 1
            n = json.loads(line)["n"]
        rates: dict[str, list[float]] = {name: [] for name in builds}
        cpu: dict[str, list[float]] = {name: [] for name in builds}
        loads = [os.getloadavg()]
        for r in range(args.rounds):
            order = list(builds)
            rng.shuffle(order)
            for name in order:
                proc = procs[name]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
                got = json.loads(proc.stdout.readline())
                if got["passed"] != n:
                    print(f"{name}: only {got['passed']}/{n} reference solutions passed", file=sys.stderr)
                rates[name].append(n / got["s"])
                if got["cpu"] is not None:  # None: a sandbox was recycled during the pass
                    cpu[name].append(got["cpu"] / n * 1e3)
            loads.append(os.getloadavg())
            print(f"round {r + 1}: " + "  ".join(f"{name} {rates[name][-1]:.0f}/s" for name in builds)
                  + f"  load {loads[-1][0]:.2f}", flush=True)
    finally:
        for proc in procs.values():
            if proc.stdin is not None:
                proc.stdin.close()
        for proc in procs.values():
            proc.wait()
    summary: dict[str, object] = {name: {"median_programs_per_s": round(statistics.median(rates[name]), 1),
                                         "median_cpu_ms_per_program": round(statistics.median(cpu[name]), 3) if cpu[name] else None,
                                         "rounds": [round(x, 1) for x in rates[name]]} for name in builds}
    names = list(builds)
    for other in names[1:]:
        ratios = [y / x for x, y in zip(rates[names[0]], rates[other])]
        summary[f"{other}/{names[0]}"] = {"median": round(statistics.median(ratios), 3),
                                          "per_round": [round(x, 3) for x in ratios]}
    summary["load_average"] = [[round(x, 2) for x in la] for la in loads]
    summary["when"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
