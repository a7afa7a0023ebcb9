"""Write cases.jsonl from the hand-written rows in rows_math.py and rows_gsm8k.py.

Golds are read from the datasets themselves (MATH test ``answer``, GSM8K test text after ``####``), so they
are in the datasets' own style; the rows hold only the responses and their labels.

Run: python evals/accuracy/heldout/build_cases.py [--data ../shared/data]   (or set VERIFIERS_DATA_DIR)
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

# Run as a script: its own folder is on sys.path, so the row modules next to it import directly.
from rows_gsm8k import GSM8K_ROWS
from rows_math import MATH_ROWS

HERE = Path(__file__).resolve().parent

DEFAULT_DATA = HERE.parents[3] / "shared" / "data"


def _jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def build(data: Path) -> list[dict]:
    """Every row with its gold, in file order; raises KeyError for an unknown problem id."""
    math_golds = {r["unique_id"]: r["answer"] for r in _jsonl(data / "math" / "test.jsonl")}
    gsm8k_golds = [r["answer"].split("####")[-1].strip() for r in _jsonl(data / "gsm8k" / "test.jsonl")]
    cases = []
    for i, (pid, cls, expected, why, response) in enumerate(MATH_ROWS, 1):
        uid = f"test/{pid}.json"
        cases.append({"id": f"math-{i:03d}", "task": "math", "source": f"MATH {uid}", "gold": math_golds[uid],
                      "response": response, "expected": expected, "class": cls, "why": why})
    for i, (idx, cls, expected, why, response) in enumerate(GSM8K_ROWS, 1):
        cases.append({"id": f"gsm8k-{i:03d}", "task": "gsm8k", "source": f"GSM8K test line {idx}",
                      "gold": gsm8k_golds[idx], "response": response, "expected": expected, "class": cls,
                      "why": why})
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("VERIFIERS_DATA_DIR", DEFAULT_DATA)))
    parser.add_argument("--out", type=Path, default=HERE / "cases.jsonl")
    args = parser.parse_args()
    cases = build(args.data)
    with args.out.open("w", encoding="utf-8") as f:
        for case in cases:
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    n_math = sum(c["task"] == "math" for c in cases)
    print(f"wrote {len(cases)} cases ({n_math} MATH, {len(cases) - n_math} GSM8K) to {args.out}")


if __name__ == "__main__":
    main()
