"""Summary of a `evals/gpu/gpu_e2e.sh` work dir: base vs GRPO vs PPO evaluations, and validation curves.

    python evals/gpu/summary.py WORK_DIR [--png OUT.png]    # prints a short Markdown table, plots the curves

The table is the headline rows of `verifiers-eval compare` over the evaluations present (the paired accuracy
change is against the base model); the curves use the same validation metric as `verifiers-train report`.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from verifiers_train.evaluation import write_compare
from verifiers_train.report import series, validation_key
from verifiers_train.verl_log import read_run_metrics

HEADLINE = ("accuracy (mean pass@1)", "accuracy change vs", "pass@8", "maj@8", "generated tokens/s")


def _val_curve(run: Path) -> tuple[str, list[tuple[int, float]]]:
    """(metric name, [(step, value)]) of the run's validation accuracy."""
    rows, _ = read_run_metrics(run)
    key = validation_key(rows)
    return (key, list(zip(*series(rows, key), strict=True))) if key else ("", [])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("work")
    ap.add_argument("--png", default=None)
    args = ap.parse_args()
    w = Path(args.work)
    names = [n for n in ("base", "grpo", "ppo") if (w / f"eval_{n}" / "metrics.json").is_file()]
    if names:
        with tempfile.TemporaryDirectory() as out:
            header, rows = write_compare([w / f"eval_{n}" for n in names], out, names)
        print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        for row in rows:
            if row[0].startswith(HEADLINE):
                print("| " + " | ".join(row) + " |")
    curves = {algo: _val_curve(w / algo) for algo in ("grpo", "ppo")}
    for algo, (key, pts) in curves.items():
        if pts:
            print(f"\n{algo} validation `{key}`: " + ", ".join(f"step {s}: {v:.3f}" for s, v in pts))
    if args.png and any(p for _, p in curves.values()):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        for algo, (key, pts) in curves.items():
            if pts:
                ax.plot([s for s, _ in pts], [v for _, v in pts], marker="o", label=f"{algo} ({key})")
        ax.set_xlabel("training step"); ax.set_ylabel("validation accuracy"); ax.grid(alpha=0.3)
        ax.set_title("tiny Qwen2 on arith: validation accuracy during RL"); ax.legend(fontsize=7)
        fig.tight_layout(); fig.savefig(args.png, dpi=120)


if __name__ == "__main__":
    main()
