"""Score every corpus response with verifiers and Math-Verify once and cache the verdicts (labelling aid).

    /work/main/.venv/bin/python evals/accuracy/realout/score_all.py   # -> data/verdicts.jsonl

The cache is what ``label.py`` compares with the upstream verdicts to find the cases to adjudicate.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import load, run

HERE = Path(__file__).resolve().parent


def main() -> int:
    rows, _ = load()
    res = run(rows, ["verifiers", "math_verify"])
    with open(HERE / "data" / "verdicts.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps({"id": r["id"], "sha": r["sha"], "verifiers": v, "math_verify": m}, ensure_ascii=False) + "\n" for r, v, m in zip(rows, res["verifiers"], res["math_verify"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
