"""Reward cost inside verl GRPO steps, from the files `timed_reward.py` and verl's file logger write.

Reads a run folder holding ``verl_metrics.jsonl`` and ``reward_times.tsv`` (our scorer, one
``pid<TAB>seconds`` line per response) and, for a ``both`` run, ``reward_times.tsv.verl`` (verl's built-in
scorer on the same responses). Prints, per step, the step time and each scorer's summed time, and the
share of the step our scorer took, counting all reward workers' time as if it ran in series (an upper
bound: verl runs several reward workers at once). Step 1 is shown but left out of the medians (cold
workers import the scorers on their first call).

    python evals/gpu/reward_cost.py evals/gpu/run7/both
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path


def _times(path: Path) -> list[float]:
    return [float(line.split("\t")[1]) for line in path.read_text().splitlines() if line] if path.is_file() else []


def main(run: Path) -> None:
    steps = [json.loads(line)["data"] for line in (run / "verl_metrics.jsonl").read_text().splitlines() if line]
    step_s = [d["timing_s/step"] for d in steps]
    per_step = len(_times(run / "reward_times.tsv")) // len(steps)  # responses per step (batch x rollouts)
    scorers = {"ours": _times(run / "reward_times.tsv"), "verl built-in": _times(run / "reward_times.tsv.verl")}
    scorers = {k: v for k, v in scorers.items() if v}
    print(f"{run}: {len(steps)} steps, {per_step} responses a step\n")
    print("| step | step s | " + " | ".join(f"{k} scorer s (sum)" for k in scorers) + " | ours / step |")
    print("|---|---|" + "---|" * len(scorers) + "---|")
    shares = []
    for i, s in enumerate(step_s):
        sums = [sum(v[i * per_step:(i + 1) * per_step]) for v in scorers.values()]
        shares.append(sums[0] / s)
        print(f"| {i + 1} | {s:.2f} | " + " | ".join(f"{x:.3f}" for x in sums) + f" | {shares[-1]:.2%} |")
    print(f"\nsteps 2+: median step {statistics.median(step_s[1:]):.2f} s; our scorer "
          f"{statistics.median(shares[1:]):.2%} of the step (median), {max(shares[1:]):.2%} (max)")
    for k, v in scorers.items():
        warm = v[per_step:]
        print(f"{k}: per response median {statistics.median(warm) * 1e3:.3f} ms, mean "
              f"{statistics.mean(warm) * 1e3:.3f} ms, max {max(warm) * 1e3:.1f} ms (steps 2+); "
              f"step 1 max {max(v[:per_step]) * 1e3:.1f} ms")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
