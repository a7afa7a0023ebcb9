"""Summarise the code-RL runs of `evals/gpu/realsize.sh` (stage coderl): step times, rewards, hostile programs.

    python evals/gpu/coderl_summary.py WORK/coderl      # reads run_code/ and run_nocode/
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]  # not splitlines: U+2028


def steps(run: Path) -> list[dict[str, Any]]:
    """verl's per-step metrics (file logger rows)."""
    return [r["data"] | {"step": r["step"]} for r in _rows(run / "verl_metrics.jsonl") if "timing_s/step" in r.get("data", {})]


def main() -> None:
    root = Path(sys.argv[1])
    print("| run | steps | step s (median, steps 2+) | score/mean first -> last |")
    print("|---|---|---|---|")
    for variant in ("code", "nocode"):
        st = steps(root / f"run_{variant}")
        if not st:
            print(f"| {variant} | 0 | | |")
            continue
        later = st[1:] or st
        print(f"| {variant} | {len(st)} | {statistics.median(s['timing_s/step'] for s in later):.2f} | "
              f"{st[0].get('critic/score/mean', float('nan')):.3f} -> "
              f"{st[-1].get('critic/score/mean', float('nan')):.3f} |")
    samples = _rows(root / "run_code" / "reward_samples.jsonl")
    if not samples:
        return
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in samples:
        by[s.get("family") or "other (not hostile)"].append(s)
    print(f"\nrun_code: {len(samples)} scored samples; scorer seconds a sample median "
          f"{statistics.median(s['s'] for s in samples):.4f}, max {max(s['s'] for s in samples):.3f}\n")
    print("| response family | samples | mean reward | max reward | correct | timeout flag | error flag | no answer |")
    print("|---|---|---|---|---|---|---|---|")
    for fam in sorted(by):
        rows = by[fam]
        print(f"| {fam} | {len(rows)} | {statistics.mean(r['score'] for r in rows):.3f} | "
              f"{max(r['score'] for r in rows):.3f} | {sum(r['acc'] for r in rows):.0f} | "
              f"{sum(r['timeout'] for r in rows):.0f} | {sum(r['error'] for r in rows):.0f} | "
              f"{sum(r['no_answer'] for r in rows):.0f} |")


if __name__ == "__main__":
    main()
