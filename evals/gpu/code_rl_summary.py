"""Summarise a code-RL run of `evals/gpu/code_rl.sh`: verl's rewards and validation metrics, and every hostile
program's reward (from `hostile_code.injected`'s sample log).

    python evals/gpu/code_rl_summary.py RUN_DIR --task humaneval [--json OUT.json]

Exit status 1 when a hostile program earned reward (score or acc above 0), when no hostile program was scored,
or when verl logged no training step; 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def rows(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of ``path`` (none when it is missing); not splitlines: U+2028 may occur in a response."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def summarise(run: Path, task: str) -> dict[str, Any]:
    """Per-family reward counts, verl's per-step reward and last validation metrics, and the verdict."""
    from verifiers import tasks

    sources = {s.lower() for s in (task, *tasks.get(task).data_sources)}
    families: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows(run / "reward_samples.jsonl"):
        families[r.get("family") or "(policy)"].append(r)
    table = {f: {"samples": len(rs), "max_score": max(r["score"] for r in rs),
                 "acc": sum(r["acc"] for r in rs), "timeouts": sum(r["timeout"] for r in rs),
                 "errors": sum(r["error"] for r in rs), "no_answer": sum(r["no_answer"] for r in rs),
                 "workers": len({r["pid"] for r in rs}),
                 "median_s": round(statistics.median(r["seconds"] for r in rs), 3)}
             for f, rs in sorted(families.items())}
    metrics = [r["data"] | {"step": r["step"]} for r in rows(run / "verl_metrics.jsonl")]
    steps = [m for m in metrics if "critic/score/mean" in m]
    val = [m for m in metrics if any(k.startswith("val-") for k in m)]
    last_val = {k: v for k, v in (val[-1] if val else {}).items()
                if k.startswith("val-") and any(f"/{s}/" in k.lower() for s in sources)}
    hostile = {f: t for f, t in table.items() if f != "(policy)"}
    problems = [f"hostile family {f} earned reward (max score {t['max_score']}, acc {t['acc']})"
                for f, t in hostile.items() if t["max_score"] > 0 or t["acc"] > 0]
    if not hostile:
        problems.append("no hostile program was scored (is the reward evals/gpu/hostile_code.py:injected?)")
    if not steps:
        problems.append("verl logged no training step (verl_metrics.jsonl)")
    return {"task": task, "families": table,
            "steps": [{"step": m["step"], "score_mean": m["critic/score/mean"],
                       "step_s": m.get("timing_s/step"), "reward_s": m.get("timing_s/reward")} for m in steps],
            "validation": {"step": val[-1]["step"], **last_val} if val else {}, "problems": problems}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--task", required=True)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    s = summarise(a.run, a.task)
    if a.json:
        a.json.write_text(json.dumps(s, indent=1) + "\n", encoding="utf-8")
    print(f"## code RL on {a.task}: {a.run}\n")
    print("| family | samples | max score | acc | timeouts | errors | no answer | workers | median s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for f, t in s["families"].items():
        print(f"| {f} | {t['samples']} | {t['max_score']:g} | {t['acc']:g} | {t['timeouts']:g} | {t['errors']:g} "
              f"| {t['no_answer']:g} | {t['workers']} | {t['median_s']} |")
    print("\n| step | critic/score/mean | timing_s/step | timing_s/reward |\n|---:|---:|---:|---:|")
    for m in s["steps"]:
        print(f"| {m['step']} | {m['score_mean']:.4f} | {m['step_s']} | {m['reward_s']} |")
    if s["validation"]:
        print(f"\nvalidation at step {s['validation']['step']}:")
        for k, v in s["validation"].items():
            if k != "step":
                print(f"- {k}: {v:.4f}" if isinstance(v, float) else f"- {k}: {v}")
    print("\n" + ("FAIL: " + "; ".join(s["problems"]) if s["problems"] else "OK: no hostile program earned reward"))
    return 1 if s["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
