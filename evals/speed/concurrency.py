"""Many threads scoring MATH at once, in this (fresh) process: timeouts and worst latency vs the deadline.

``run.py`` starts this script as a new process, so ``--cold`` measures what every verl reward worker
sees: the threads start right after ``import verifiers.math``, while the CAS workers are still starting.
``--warm`` first calls ``math.warm_up()`` and scores the workload once untimed.

Run: python evals/speed/concurrency.py [--workload mix|pathological|cas_bound] [--threads 32] [--timeout 1]
     [--warm] [--data DIR]      (prints one JSON object)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import timing  # this folder is on sys.path when the script runs
import workloads

START = time.monotonic()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workload", choices=("mix", "pathological", "cas_bound"), default="mix")
    ap.add_argument("--threads", type=int, default=32)
    ap.add_argument("--timeout", type=float, default=1.0)
    ap.add_argument("--warm", action="store_true")
    ap.add_argument("--data", type=Path, default=workloads.DEFAULT_DATA)
    ap.add_argument("--skip", default="", help="pathological: comma-separated case indices to leave out")
    args = ap.parse_args()

    from verifiers import math

    imported = time.monotonic()
    labels: list[str] = []
    if args.workload == "mix":
        labels, (responses, golds) = workloads.concurrency_mix(args.data)
    elif args.workload == "cas_bound":
        rows, (responses, golds) = workloads.cas_bound()
        labels = [r["label"] for r in rows]
    else:
        import pathological

        skip = {int(k) for k in args.skip.split(",") if k.strip()}
        triples = [c for k, c in enumerate(pathological.cases()) if k not in skip]
        labels = [name for name, _, _ in triples]
        responses, golds = [r for _, r, _ in triples], [g for _, _, g in triples]
    cfg = math.Config(timeout=args.timeout)

    def score(r: str, g: str) -> str:
        return math.score(r, g, config=cfg).status

    if args.warm:
        math.warm_up()
        timing.threaded(score, responses, golds, args.threads, args.timeout)
    loaded = time.monotonic()
    row = timing.threaded(score, responses, golds, args.threads, args.timeout)
    statuses = row.pop("_statuses")
    row.update({"workload": args.workload, "warm": args.warm, "cpus": len(os.sched_getaffinity(0)),
                "import_s": round(imported - START, 3),
                "first_call_after_import_s": round(loaded - imported, 3),
                "loadavg": os.getloadavg()})
    if args.workload == "mix":  # junk that timed out is the failure the issue reports
        row["junk_timeouts"] = sum(s == "timeout" and lab == "junk" for s, lab in zip(statuses, labels))
        row["equal_not_correct"] = sum(s != "correct" and lab == "equal" for s, lab in zip(statuses, labels))
    if args.workload == "cas_bound":
        row["agree_with_label"] = sum((s == "correct") == (lab == "equal")
                                      for s, lab in zip(statuses, labels))
    from verifiers.equivalence._cas_pool import pool

    if hasattr(pool(), "stats"):  # the pool before issue 13 had no counters
        stats = pool().stats()
        row["pool"] = {k: stats[k] for k in ("template_start_s", "forks", "killed", "live") if k in stats}
    print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
