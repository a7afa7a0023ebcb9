"""Reward cost inside verl GRPO steps, from the files `timed_reward.py` and verl's file logger write.

Reads a run folder holding ``verl_metrics.jsonl`` and ``reward_times.tsv`` (our scorer, one
``pid<TAB>seconds`` line per response) and, for a ``both`` run, ``reward_times.tsv.verl`` (verl's built-in
scorer on the same responses). Prints, per step, the step time and each scorer's summed time, and the
share of the step our scorer took, counting all reward workers' time as if it ran in series (an upper
bound: verl runs several reward workers at once). Step 1 is shown but left out of the medians (cold
workers import the scorers on their first call).

    python evals/gpu/reward_cost.py evals/gpu/run7/both

A run with ``timed_reward.alternate`` (four columns a line: pid, seconds, scorer, row) used ours on odd
steps and verl's built-in on even steps of one launch. Then the step of each line comes from its row, every
step is checked to have used one scorer, and the step times are compared A/B/A: each verl step (B) against
the mean of the ours steps (A) on either side, which cancels a drift that is linear over the three steps.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path


def _columns(path: Path) -> list[list[str]]:
    """The tab-separated columns of each line of a timing log (none when it is missing)."""
    return [line.split("\t") for line in path.read_text().splitlines() if line] if path.is_file() else []


def alternating(run: Path, step_s: list[float], lines: list[list[str]]) -> None:
    """The A/B/A report of a ``timed_reward.alternate`` run (``lines``: its timing log's columns)."""
    per_step = len(lines) // len(step_s)
    batch = re.search(r"data\.train_batch_size=(\d+)", (run / "command.sh").read_text()) \
        if (run / "command.sh").is_file() else None  # rows a step; else every step's rows are distinct
    rows_per_step = int(batch.group(1)) if batch else len({int(c[3]) for c in lines}) // len(step_s)
    scorer: dict[int, set[str]] = {}
    total: dict[int, float] = {}
    for _pid, seconds, name, row in lines:
        k = int(row) // rows_per_step + 1
        scorer.setdefault(k, set()).add(name)
        total[k] = total.get(k, 0.0) + float(seconds)
    mixed = [k for k, names in scorer.items() if len(names) > 1]
    if mixed:
        raise SystemExit(f"{run}: steps {mixed} used both scorers: was data.shuffle=False set?")
    kind = {k: names.pop() for k, names in scorer.items()}
    print(f"{run}: {len(step_s)} steps, {per_step} responses a step ({rows_per_step} prompts), scorer alternating\n")
    print("| step | scorer | step s | scorer s (sum over the step's responses) | scorer / step |")
    print("|---|---|---|---|---|")
    for k, s in enumerate(step_s, 1):
        print(f"| {k} | {kind.get(k, '?')} | {s:.2f} | {total.get(k, 0.0):.3f} | {total.get(k, 0.0) / s:.2%} |")
    warm = range(2, len(step_s) + 1)  # step 1: cold workers
    for name in ("ours", "verl"):
        ks = [k for k in warm if kind.get(k) == name]
        if ks:
            print(f"\n{name} steps {ks}: median step {statistics.median(step_s[k - 1] for k in ks):.2f} s, "
                  f"mean {statistics.mean(step_s[k - 1] for k in ks):.2f} s; scorer median "
                  f"{statistics.median(total[k] / step_s[k - 1] for k in ks):.2%} of the step", end="")
    triples = [k for k in warm if kind.get(k) == "verl" and kind.get(k - 1) == kind.get(k + 1) == "ours"
               and k - 1 >= 2 and k + 1 <= len(step_s)]
    diffs = [(step_s[k - 2] + step_s[k]) / 2 - step_s[k - 1] for k in triples]  # ours - verl, seconds
    print("\n\nA/B/A (ours, verl, ours): step time of ours minus verl, each verl step against its neighbours")
    for k, d in zip(triples, diffs, strict=True):
        print(f"  steps {k - 1}/{k}/{k + 1}: {d:+.2f} s ({d / step_s[k - 1]:+.2%})")
    if len(diffs) > 1:
        mean, sd = statistics.mean(diffs), statistics.stdev(diffs)
        half = 2 * sd / len(diffs) ** 0.5
        ref = statistics.median(step_s[k - 1] for k in triples)
        print(f"  mean {mean:+.2f} s ± {half:.2f} s (2 standard errors, {len(diffs)} triples) = "
              f"{mean / ref:+.2%} ± {half / ref:.2%} of a {ref:.1f} s step")


def main(run: Path) -> None:
    steps = [json.loads(line)["data"] for line in (run / "verl_metrics.jsonl").read_text().splitlines() if line]
    step_s = [d["timing_s/step"] for d in steps]
    ours = _columns(run / "reward_times.tsv")
    if ours and len(ours[0]) == 4:  # pid, seconds, scorer, row
        return alternating(run, step_s, ours)
    per_step = len(ours) // len(steps)  # responses per step (batch x rollouts)
    scorers = {"ours": [float(c[1]) for c in ours],
               "verl built-in": [float(c[1]) for c in _columns(run / "reward_times.tsv.verl")]}
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
