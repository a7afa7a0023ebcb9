"""A/B throughput of `CodePool` builds: the 973 MBPP reference solutions (all but mbpp/123) through a
2-worker pool, each build in its own fresh interpreter, builds interleaved in shuffled rounds.

    python evals/sandbox/ab_throughput.py --build old=/tmp/oldsb/src --build new=src --rounds 6

Each round starts one process per build (in random order); each process starts a pool, warms it, and
times ``--passes`` passes of ``pool.map`` over the 973 programs. Reported per build: the median over
rounds of each round's median programs/s, every round's value, and the machine's load average. Run it on
a quiet machine, and compare builds of the same run only (this shared VM drifts by 10-20 % over minutes).
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="append", required=True, help="NAME=PATH of a src directory (repeatable)")
    ap.add_argument("--data-dir", default=os.environ.get("VERIFIERS_DATA_DIR", "../shared/data"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    builds = dict(b.split("=", 1) for b in args.build)
    rng = random.Random(args.seed)
    per_round: dict[str, list[float]] = {name: [] for name in builds}
    loads = [os.getloadavg()]
    for r in range(args.rounds):
        order = list(builds)
        rng.shuffle(order)
        for name in order:
            env = {**os.environ, "PYTHONPATH": str(Path(builds[name]).resolve())}
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


if __name__ == "__main__":
    raise SystemExit(main())
