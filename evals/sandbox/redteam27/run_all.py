"""redteam27 runner: one line per attempt: class | attempt | expected safe outcome | observed | FINDING/held.

Run: PYTHONPATH=/work/wt/redteam27/src /work/main/.venv/bin/python evals/sandbox/redteam27/run_all.py
"""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
for f in ("attacks_stdio.py", "attacks_expected.py", "attacks_flood.py", "attacks_checker.py", "attacks_resource.py"):
    out = subprocess.run([sys.executable, str(HERE / f)], capture_output=True, text=True, timeout=600)  # noqa: PLW1510
    sys.stdout.write(out.stdout)
    if out.returncode:
        print(f"{f} | runner | exit 0 | exit {out.returncode}: {out.stderr[-300:]!r} | FINDING")
