"""Step time and reward time of verl runs with our reward vs verl's built-in gsm8k scorer.

    python evals/gpu/step_times.py --ours RUN... --verl RUN...      # prints a Markdown table

Reads each run directory's ``verl_metrics.jsonl`` (verl's file logger) or ``metrics.jsonl`` (parsed
console), and ``reward_times.tsv`` when the run used `timed_reward.py` (one ``pid<TAB>seconds`` line per
scored sample; samples per step come from the run's ``command.sh``). The first step of every run is left
out (CUDA graphs, allocator and worker warm-up).
Runs of one variant are pooled; the ratio is of the pooled medians. With interleaved runs (ours, verl,
ours, verl) each pair's ratio is printed too, so run-to-run drift shows.
"""

from __future__ import annotations

import argparse
import re
import statistics
from pathlib import Path

from verifiers_train.verl_log import read_run_metrics

PHASES = ("gen", "old_log_prob", "ref", "adv", "update_actor", "update_weights")


def _median(rows: list[dict], key: str) -> float:
    vals = [float(r[key]) for r in rows if key in r]
    return statistics.median(vals) if vals else float("nan")


class _Run:
    """One run directory, read once: its steps after the first, scorer times, samples per step."""

    def __init__(self, path: Path) -> None:
        rows, _ = read_run_metrics(path)
        if not rows:
            raise SystemExit(f"{path}: no verl_metrics.jsonl or metrics.jsonl")
        self.name = path.name
        self.rows = rows[1:]  # first step: warm-up
        tsv = path / "reward_times.tsv"
        lines = tsv.read_text().splitlines() if tsv.is_file() else []
        self.times = [float(line.split("\t")[1]) for line in lines if "\t" in line]
        # train_batch_size x rollout.n, from the run's command.sh
        text = (path / "command.sh").read_text() if (path / "command.sh").is_file() else ""
        batch = re.search(r"data\.train_batch_size=(\d+)", text)
        n = re.search(r"actor_rollout_ref\.rollout\.n=(\d+)", text)
        self.samples_per_step = int(batch.group(1)) * int(n.group(1)) if batch and n else 0

    @property
    def step(self) -> float:
        return _median(self.rows, "timing_s/step")


def _reward_cell(runs: list[_Run]) -> str:
    """Scorer time per sample (all; and warm: after the first step's samples) and per step (warm)."""
    times = [t for run in runs for t in run.times]
    if not times:
        return "not timed"
    warm = [t for run in runs for t in run.times[run.samples_per_step:]]
    per_step = {run.samples_per_step for run in runs}
    cell = (f"{statistics.fmean(times) * 1e3:.3f} ms mean ({statistics.median(times) * 1e3:.3f} median, "
            f"{max(times) * 1e3:.0f} max) over {len(times)} samples")
    if warm and len(per_step) == 1:
        n = per_step.pop()
        cell += (f"; after step 1: {statistics.fmean(warm) * 1e3:.3f} ms mean = {statistics.fmean(warm) * n:.4f} s "
                 f"per {n}-sample step")
    return cell


def _variant_row(label: str, runs: list[_Run]) -> tuple[str, float]:
    rows = [r for run in runs for r in run.rows]
    step = _median(rows, "timing_s/step")
    phases = " | ".join(f"{_median(rows, f'timing_s/{p}'):.2f}" for p in PHASES)
    return f"| {label} | {len(runs)} | {len(rows)} | {step:.3f} | {phases} | {_reward_cell(runs)} |", step


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", nargs="+", type=Path, required=True, help="run dirs with our reward")
    ap.add_argument("--verl", nargs="+", type=Path, required=True, help="run dirs with verl's built-in scorer")
    args = ap.parse_args(argv)
    print("| reward | runs | steps | median step (s) | " + " | ".join(PHASES) + " | scorer time per sample, per step |")
    print("|---|---:|---:|---:|" + "---:|" * len(PHASES) + "---|")
    ours, verl = [_Run(p) for p in args.ours], [_Run(p) for p in args.verl]
    row_a, step_a = _variant_row("ours (verifiers_train.reward)", ours)
    row_b, step_b = _variant_row("verl built-in gsm8k", verl)
    print(row_a + "\n" + row_b)
    print(f"\nstep-time ratio ours / built-in, pooled medians: **{step_a / step_b:.3f}x** (first step of each run excluded)")
    for i, (a, b) in enumerate(zip(ours, verl, strict=False), 1):
        print(f"- pair {i}: {a.name} {a.step:.3f} s / {b.name} {b.step:.3f} s = {a.step / b.step:.3f}x")


if __name__ == "__main__":
    main()
