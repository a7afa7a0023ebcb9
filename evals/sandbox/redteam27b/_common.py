"""Shared bits of the redteam27b attempts: one result line per attempt, honest and hostile programs."""
from __future__ import annotations

import json
import sys

HONEST = "a, b = map(int, input().split())\nprint(a + b)\n"
HONEST_TESTS = [("1 2\n", "3\n"), ("5 7\n", "12\n"), ("100 -3\n", "97\n")]

HOSTILE = {
    "spinner": "while True:\n    pass\n",
    "sleeper": "import time\ntime.sleep(1000)\n",
    "forkbomb": "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
    "memhog": "x = []\nwhile True:\n    x.append(bytearray(16 << 20))\n",
    "flood": "import sys\nwhile True:\n    sys.stdout.write('9' * 65536)\n",
    "orphan": ("import os, time\nif os.fork() == 0:\n    os.setsid()\n    while True: pass\n"
               "a, b = map(int, input().split())\nprint(a + b)\n"),
    "forkspin": "import os\nfor _ in range(8):\n    if os.fork() == 0:\n        break\nwhile True: pass\n",
    "forksleep": "import os, time\nfor _ in range(8):\n    if os.fork() == 0:\n        break\ntime.sleep(1000)\n",
}


def fence(code: str) -> str:
    return f"```python\n{code}```"


def report(cls: str, attempt: str, expected: str, observed: str, finding: bool) -> None:
    line = {"class": cls, "attempt": attempt, "expected": expected, "observed": observed,
            "verdict": "FINDING" if finding else "held"}
    print("RESULT " + json.dumps(line), flush=True)
    sys.stdout.flush()


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
