"""Step time and reward time of verl runs with our reward vs verl's built-in gsm8k scorer.

    python evals/gpu/step_times.py --ours RUN... --verl RUN...      # prints a Markdown table

Reads each run directory's ``verl_metrics.jsonl`` (verl's file logger) or ``metrics.jsonl`` (parsed
console), and ``reward_times.tsv`` when the run used `timed_reward.py` (one ``pid<TAB>seconds`` line per
scored sample; samples per step come from the run's ``command.sh``). The first step of every run is left out (CUDA graphs, allocator and worker warm-up).
Runs of one variant are pooled; the ratio is of the pooled medians. With interleaved runs (ours, verl,
ours, verl) each pair's ratio is printed too, so run-to-run drift shows.
"""

from __future__ import annotations

import argparse
import re
import statistics
from pathlib import Path

from verifiers_train.metrics import read_run_metrics

PHASES = ("gen", "old_log_prob", "ref", "adv", "update_actor", "update_weights")


def _all_rows(run: Path) -> list[dict]:
    rows, _ = read_run_metrics(run)
    if not rows:
        raise SystemExit(f"{run}: no verl_metrics.jsonl or metrics.jsonl")
    return rows


def _rows(run: Path) -> list[dict]:
    return _all_rows(run)[1:]  # first step: warm-up


def _median(rows: list[dict], key: str) -> float:
    vals = [float(r[key]) for r in rows if key in r]
    return statistics.median(vals) if vals else float("nan")


def _samples_per_step(run: Path) -> int:
    """train_batch_size x rollout.n, read from the run's ``command.sh``."""
    text = (run / "command.sh").read_text() if (run / "command.sh").is_file() else ""
    batch = re.search(r"data\.train_batch_size=(\d+)", text)
    n = re.search(r"actor_rollout_ref\.rollout\.n=(\d+)", text)
    return int(batch.group(1)) * int(n.group(1)) if batch and n else 0


def _reward_times(run: Path) -> list[float]:
    path = run / "reward_times.tsv"
    if not path.is_file():
        return []
    return [float(line.split("\t")[1]) for line in path.read_text().splitlines() if "\t" in line]


def _reward_cell(runs: list[Path]) -> str:
    """Scorer time per sample (all; and warm: after the first step's samples) and per step (warm)."""
    per_step = {_samples_per_step(run) for run in runs}
    times = [t for run in runs for t in _reward_times(run)]
    warm = [t for run in runs for t in _reward_times(run)[_samples_per_step(run):]]
    if not times:
        return "not timed"
    cell = (f"{statistics.fmean(times) * 1e3:.3f} ms mean ({statistics.median(times) * 1e3:.3f} median, "
            f"{max(times) * 1e3:.0f} max) over {len(times)} samples")
    if warm and len(per_step) == 1:
        n = per_step.pop()
        cell += f"; after step 1: {statistics.fmean(warm) * 1e3:.3f} ms mean = {statistics.fmean(warm) * n:.4f} s per {n}-sample step"
    return cell


def _variant_row(label: str, runs: list[Path]) -> tuple[str, float]:
    rows = [r for run in runs for r in _rows(run)]
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
    row_a, step_a = _variant_row("ours (verifiers_train.reward)", args.ours)
    row_b, step_b = _variant_row("verl built-in gsm8k", args.verl)
    print(row_a + "\n" + row_b)
    print(f"\nstep-time ratio ours / built-in, pooled medians: **{step_a / step_b:.3f}x** (first step of each run excluded)")
    for i, (a, b) in enumerate(zip(args.ours, args.verl, strict=False), 1):
        ra, rb = _median(_rows(a), "timing_s/step"), _median(_rows(b), "timing_s/step")
        print(f"- pair {i}: {a.name} {ra:.3f} s / {b.name} {rb:.3f} s = {ra / rb:.3f}x")


if __name__ == "__main__":
    main()
