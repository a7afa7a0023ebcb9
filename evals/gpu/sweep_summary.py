"""Table and curves of an `rl_sweep.py` run (one JSONL with every setting's lines).

    python evals/gpu/sweep_summary.py evals/gpu/h200_run2/grpo_sweep.jsonl --png evals/gpu/grpo_sweep.png
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path


def load(path: Path) -> dict[str, list[dict]]:
    """Lines grouped by setting name, in file order."""
    runs: dict[str, list[dict]] = defaultdict(list)
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            runs[row["name"]].append(row)
    return runs


def _mean(xs: list[float]) -> float:
    return statistics.fmean(xs) if xs else float("nan")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sweep", type=Path)
    ap.add_argument("--png", type=Path)
    args = ap.parse_args(argv)
    runs = load(args.sweep)
    print("| setting | steps | s/step | train reward, first 10 → last 10 steps | greedy validation: start → mean of last 5 (max) |")
    print("|---|---:|---:|---|---|")
    for name, rows in sorted(runs.items()):
        train = [r for r in rows if "reward" in r]
        val = [r["val_acc"] for r in rows if "val_acc" in r]
        print(f"| {name} | {len(train)} | {statistics.median(r['step_s'] for r in train):.2f} | "
              f"{_mean([r['reward'] for r in train[:10]]):.3f} → {_mean([r['reward'] for r in train[-10:]]):.3f} | "
              f"{val[0]:.1%} → {_mean(val[-5:]):.1%} ({max(val):.1%}) |")
    if args.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, (ax_v, ax_r) = plt.subplots(1, 2, figsize=(11, 4))
        for name, rows in sorted(runs.items()):
            val = [(r["step"], r["val_acc"]) for r in rows if "val_acc" in r]
            train = [(r["step"], r["reward"]) for r in rows if "reward" in r]
            ax_v.plot(*zip(*val, strict=True), marker=".", label=name)
            k = 10  # moving average over 10 steps
            smooth = [(train[i][0], _mean([y for _, y in train[max(0, i - k + 1):i + 1]])) for i in range(len(train))]
            ax_r.plot(*zip(*smooth, strict=True), label=name)
        ax_v.set_title("greedy validation accuracy (500 arith test problems)")
        ax_r.set_title("training reward (sampled, T=1), 10-step mean")
        for ax in (ax_v, ax_r):
            ax.set_xlabel("GRPO step")
            ax.grid(alpha=0.3)
        ax_v.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)


if __name__ == "__main__":
    main()
