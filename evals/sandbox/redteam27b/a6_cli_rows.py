"""Class CLI: `verifiers score --task code_stdio rows.jsonl --skip-bad-rows` on rows in the documented row
schema (docs/code-tasks.md, stdio_data module doc: ``tests`` plus top-level ``checker``/``float_tol``), a bad
row, and a row with more than code_stdio.MAX_TESTS (1,000) tests.

Safe: float_tol and checker of a row are honoured (honest answers pass), one bad row gives one line and the
others are scored, and a program failing test 1,001 is not rewarded (or the row is refused).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from _common import report

CHK = "def check(i, e, o):\n    return sorted(o.split()) == sorted(e.split())\n"
ROWS = [
    {"id": "float", "response": "```python\nprint(1/3)\n```", "tests": [{"input": "", "output": "0.333333\n"}],
     "float_tol": 1e-4},
    {"id": "checker", "response": "```python\nprint(2, 1)\n```", "tests": [{"input": "", "output": "1 2\n"}],
     "checker": CHK},
    {"id": "bad", "response": "print(1)", "tests": [{"input": 1, "output": "1"}]},
    {"id": "many", "response": "```python\nprint(input())\n```",
     "tests": [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(1000)] + [{"input": "x\n", "output": "NEVER\n"}]},
    {"id": "good", "response": "```python\nprint(sum(map(int, input().split())))\n```",
     "tests": [{"input": "1 2\n", "output": "3\n"}]},
]


def main() -> None:
    d = tempfile.mkdtemp(prefix="rt27b-cli-")
    src, out = os.path.join(d, "rows.jsonl"), os.path.join(d, "out.jsonl")
    with open(src, "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in ROWS)
    exe = os.path.join(os.path.dirname(sys.executable), "verifiers")
    p = subprocess.run([exe, "score", "--task", "code_stdio", src, "--skip-bad-rows", "-o", out],  # noqa: PLW1510
                       capture_output=True, text=True, timeout=600)
    got = {}
    if os.path.exists(out):
        for line in open(out):  # noqa: SIM115
            r = json.loads(line)
            got[r["id"]] = (r["score"]["status"], r["score"]["reward"], r["score"]["explanation"][:110])
    skipped = [ln for ln in (p.stdout + p.stderr).splitlines() if "skipped" in ln]
    cmd = f"verifiers score --task code_stdio {src} --skip-bad-rows -o {out}"
    report("cli", "row schema float_tol at top level (honest 1/3 vs 0.333333, tol 1e-4)", "correct",
           f"{got.get('float')} ({cmd})", got.get("float", ("",))[0] != "correct")
    report("cli", "row schema checker at top level (honest '2 1' for a permutation problem)", "correct",
           f"{got.get('checker')}", got.get("checker", ("",))[0] != "correct")
    report("cli", "one bad row among good ones (--skip-bad-rows)", "one line naming it; others scored",
           f"rc={p.returncode} {skipped} scored={sorted(got)}", p.returncode != 0 or len(got) != 4 or len(skipped) != 1)
    report("cli", "1,001 tests, program fails only the last", "reward 0 (or the row refused)",
           f"{got.get('many')}", got.get("many", ("", 0))[1] > 0)


if __name__ == "__main__":
    main()
