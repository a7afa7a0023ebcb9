"""Summary of a `scripts/gpu_e2e.sh` work dir: base vs GRPO vs PPO accuracy, and validation curves.

    python evals/gpu/summary.py WORK_DIR [--png OUT.png]    # prints a Markdown table, plots the curves
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verifiers_train.metrics import read_run_metrics


def _val_curve(run: Path) -> tuple[str, list[tuple[int, float]]]:
    """(metric name, [(step, value)]) of the run's validation accuracy (``val-core/*acc*`` first)."""
    rows, _ = read_run_metrics(run)
    keys = sorted({k for r in rows for k in r if k.startswith("val") and ("acc" in k or "score" in k)})
    preferred = [k for k in keys if k.startswith("val-core") and "acc" in k] + [k for k in keys if "acc" in k]
    key = next(iter(preferred), keys[0] if keys else "")
    return key, [(int(r["step"]), float(r[key])) for r in rows if key in r]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("work")
    ap.add_argument("--png", default=None)
    args = ap.parse_args()
    w = Path(args.work)
    print("| model | accuracy (95% CI) | pass@8 | maj@8 | tok/s |\n|---|---|---:|---:|---:|")
    for name in ("base", "grpo", "ppo"):
        f = w / f"eval_{name}" / "metrics.json"
        if f.is_file():
            m = json.loads(f.read_text())
            lo, hi = m["accuracy_ci95"]
            print(f"| {name} | {m['accuracy']:.4f} [{lo:.4f}, {hi:.4f}] | {m['pass_at_k'].get('8', float('nan')):.4f} "
                  f"| {m['maj_at_k'].get('8', float('nan')):.4f} | {m['throughput']['tokens_per_s']:,.0f} |")
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
