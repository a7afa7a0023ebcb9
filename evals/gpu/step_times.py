"""Step time of two verl runs (our reward vs verl's built-in gsm8k scorer) from their metrics files.

    python evals/gpu/step_times.py RUN_OURS RUN_VERL      # prints a Markdown table

Reads ``verl_metrics.jsonl`` (verl's file logger) or ``metrics.jsonl`` (parsed console) of each run
directory. The first step is left out (CUDA graphs, allocator and worker warm-up). The ratio is of
medians; every ``timing_s/*`` key that mentions reward is reported too.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from verifiers_train.metrics import read_metrics


def _rows(run: Path) -> list[dict]:
    for name in ("verl_metrics.jsonl", "metrics.jsonl"):
        if (run / name).is_file():
            return read_metrics(run / name)
    raise SystemExit(f"{run}: no verl_metrics.jsonl or metrics.jsonl")


def _median(rows: list[dict], key: str) -> float | None:
    vals = [float(r[key]) for r in rows[1:] if key in r]
    return statistics.median(vals) if vals else None


def main(ours: str, verl: str) -> None:
    a, b = _rows(Path(ours)), _rows(Path(verl))
    step_a, step_b = _median(a, "timing_s/step"), _median(b, "timing_s/step")
    print("| run | steps | median step time (s) | reward timings (median s) |\n|---|---:|---:|---|")
    for label, rows, step in (("our reward (verifiers_train.reward)", a, step_a),
                              ("verl built-in gsm8k scorer", b, step_b)):
        keys = sorted({k for r in rows for k in r if k.startswith("timing") and "reward" in k})
        rt = ", ".join(f"{k} {_median(rows, k):.4f}" for k in keys) or "(verl logs none)"
        print(f"| {label} | {len(rows)} | {step:.3f} | {rt} |" if step else f"| {label} | {len(rows)} | n/a | {rt} |")
    if step_a and step_b:
        print(f"\nstep-time ratio ours / built-in: **{step_a / step_b:.3f}x** (first step excluded)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
