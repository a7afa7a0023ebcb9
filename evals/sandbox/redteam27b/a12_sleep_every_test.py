"""Class hang: with preset ``partial`` code_stdio runs tests one after another (total_timeout is set) and
does not stop at a failure; the problem budget counts CPU only. A program that sleeps on every test uses no
CPU, so each test ends at its wall backstop (timeout x 3 x load scale + 1 s) and every test runs: one response
holds a sandbox for tests x backstop (defaults: timeout 4 s -> 13-25 s a test; 100 tests -> 20-40 min).
Safe: one response's wall time is bounded (e.g. by a problem wall budget), not linear in its test count.
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import HOSTILE, fence, report

from verifiers import code_stdio
from verifiers.sandbox import CodePool

N = int(os.environ.get("RT_TESTS", "6"))
TIMEOUT = 0.5


def main() -> None:
    with CodePool(workers=2, max_output_bytes=code_stdio.OUTPUT_CAP_BYTES, timeout_s=TIMEOUT) as pool:
        ref = {"tests": [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(N)]}
        t0 = time.monotonic()
        s = code_stdio.score(fence(HOSTILE["sleeper"]), ref, config={"preset": "partial", "timeout": TIMEOUT}, pool=pool)
        wall = time.monotonic() - t0
    per = wall / N
    obs = (f"{N} tests, timeout {TIMEOUT}s (total_timeout 60 s CPU): {s.status} after {wall:.1f}s wall "
           f"({per:.1f}s a test); at code_stdio defaults (timeout 4 s) that is ~{(4 * 3 + 1) * N / 60:.1f}-"
           f"{(4 * 6 + 1) * N / 60:.1f} min for these {N} tests, linear in the test count (MAX_TESTS 1000)")
    report("hang", f"sleep on every test, preset partial, {N} tests", "wall bounded independent of test count",
           obs, wall > 3 * (TIMEOUT * 3 * 2 + 1))


if __name__ == "__main__":
    main()
