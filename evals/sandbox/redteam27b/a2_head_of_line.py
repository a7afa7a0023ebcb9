"""Class fairness: head-of-line blocking. One sleeper, then at once a burst of honest programs, 2 sandboxes.

The dispatcher deals jobs to the least-loaded sandbox while its head program is younger than HEAD_SLOW_S,
so honest programs submitted right after a sleeper are pipelined BEHIND it and wait for its wall-time
backstop (timeout x 3 x load scale + 1 s) while the other sandbox idles.
Safe: every honest program finishes within ~1 s (its own cost ~ms; the other sandbox is free).
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import HONEST, HOSTILE, pct, report

from verifiers.sandbox import CodePool, StdioTest

TIMEOUT = 1.0


def main() -> None:
    with CodePool(workers=2, timeout_s=TIMEOUT) as pool:
        pool.run_stdio(HONEST, [StdioTest("1 2\n", "3\n")])  # warm
        t0 = time.monotonic()
        sleeper = pool.submit_stdio(HOSTILE["sleeper"], [StdioTest("1 2\n", "3\n")])
        honest = []
        for i in range(8):
            f = pool.submit_stdio(HONEST, [StdioTest(f"{i} 1\n", f"{i + 1}\n")])
            f.add_done_callback(lambda _f, s=time.monotonic(): setattr(_f, "lat", time.monotonic() - s))  # noqa: B008
            honest.append(f)
        res = [f.result() for f in honest]
        lat = [f.lat for f in honest]  # type: ignore[attr-defined]
        sl = sleeper.result()
        total = time.monotonic() - t0
    bad = [r.status for r in res if not r.passed]
    obs = (f"honest n=8 p50={pct(lat, .5):.2f}s max={max(lat):.2f}s fails={bad}; "
           f"slow(>1s)={sum(x > 1 for x in lat)}; sleeper {sl.status} after {sl.duration_s:.1f}s; all {total:.1f}s")
    report("fairness", "1 sleeper then 8 honest submit_stdio at once, workers=2, timeout 1s",
           "honest all pass within ~1 s (one sandbox idle)", obs, bool(bad) or max(lat) > 2.0)


if __name__ == "__main__":
    main()
