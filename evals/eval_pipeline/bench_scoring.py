"""Time `verifiers-eval`'s scoring stage on MATH-500: the 500 gold solutions as responses, through `score_file`.

Each measurement runs in a fresh process (CAS worker start-up included, as in a real evaluation) against the
source tree on ``PYTHONPATH``, so two trees can be compared in one run::

    python evals/eval_pipeline/bench_scoring.py --trees new=src old=/tmp/base/src --workers old=2 --repeats 3

``--workers TREE=W`` passes ``workers=W`` to `score_file` for that tree (the code before issue #15 took a
process count there: 0 = one thread; the evaluator defaulted to min(4, CPUs) processes for MATH).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, sys, tempfile, time
from verifiers.datasets import load_problems
from verifiers_train.evaluation import score_file
problems = load_problems("math500")
tmp = tempfile.mkdtemp()
path = f"{tmp}/responses.jsonl"
with open(path, "w") as f:
    for p in problems:
        f.write(json.dumps({"problem_id": p.id, "response": p.solution, "gold": p.gold}) + "\n")
kwargs = {} if sys.argv[1] == "default" else {"workers": int(sys.argv[1])}
t0 = time.perf_counter()
_, m = score_file(path, "math500", out=f"{tmp}/out", report=False, **kwargs)
print(json.dumps({"seconds": time.perf_counter() - t0, "correct": m["status_counts"].get("correct", 0),
                  "n": m["n_samples"] if "n_samples" in m else len(problems)}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", nargs="+", required=True, help="NAME=SRC_DIR")
    ap.add_argument("--workers", nargs="*", default=[], help="NAME=W (default: score_file's default)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    trees = dict(t.split("=", 1) for t in args.trees)
    workers = dict(w.split("=", 1) for w in args.workers)
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.repeats):  # alternate the trees, so load drifts hit both alike
        for name, src in trees.items():
            env = os.environ | {"PYTHONPATH": str(Path(src).resolve())}
            out = subprocess.run([sys.executable, "-c", CHILD, workers.get(name, "default")], env=env,
                                 capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
            rec = json.loads(out.stdout.strip().splitlines()[-1])
            times[name].append(rec["seconds"])
            print(f"{name}: {rec['seconds']:.2f} s, {rec['correct']} correct", flush=True)
    for name, ts in times.items():
        print(f"{name} (workers={workers.get(name, 'default')}): median {statistics.median(ts):.2f} s over "
              f"{len(ts)} runs {[round(t, 2) for t in ts]}")


if __name__ == "__main__":
    main()
