"""Class fairness/hang: as many sleeping responses (preset partial, every test sleeps) as the pool has
workers block every honest response behind them: each of their tests holds a sandbox until its wall
backstop, tests run one after another and are re-queued, so honest single-test responses submitted just
after wait for them. Safe: an honest response submitted after them finishes within a few seconds.
"""
from __future__ import annotations

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import HONEST, HONEST_TESTS, HOSTILE, fence, report

from verifiers import code_stdio
from verifiers.sandbox import CodePool

N = 6
TIMEOUT = 0.5
CFG = {"preset": "partial", "timeout": TIMEOUT}


def main() -> None:
    with CodePool(workers=2, max_output_bytes=code_stdio.OUTPUT_CAP_BYTES, timeout_s=TIMEOUT) as pool:
        ref_h = {"tests": [{"input": i, "output": o} for i, o in HONEST_TESTS]}
        code_stdio.score(fence(HONEST), ref_h, config=CFG, pool=pool)
        ref = {"tests": [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(N)]}
        ts = [threading.Thread(target=code_stdio.score, args=(fence(HOSTILE["sleeper"]), ref),
                               kwargs={"config": CFG, "pool": pool}) for _ in range(2)]
        for t in ts:
            t.start()
        time.sleep(0.3)
        lat = []
        for _ in range(3):
            t0 = time.monotonic()
            s = code_stdio.score(fence(HONEST), ref_h, config=CFG, pool=pool)
            lat.append((round(time.monotonic() - t0, 1), s.status))
        for t in ts:
            t.join()
    report("fairness", f"2 sleeping partial-preset responses ({N} tests) on a 2-worker pool, then honest ones",
           "honest responses finish within a few seconds", f"honest (latency s, status): {lat}",
           max(x for x, _ in lat) > 5)


if __name__ == "__main__":
    main()
