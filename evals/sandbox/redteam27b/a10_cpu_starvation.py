"""Class fairness: an honest program that needs ~40% of its CPU-time limit, running beside attackers that
fork as many CPU spinners as they may (4 sandboxes on this host's cores). The limit is CPU time, with a wall
backstop of timeout x 3 x load scale (<= 2) + 1 s: without a cgroup CPU share the honest program gets
1/(number of spinners) of the cores and can hit the wall backstop.
Safe: the honest program passes (it stays under its CPU limit). Run as root (cgroup) and as a normal user.
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import report

from verifiers.sandbox import CodePool, StdioTest

TIMEOUT = 2.0
FRAC = float(os.environ.get("RT_FRAC", "0.4"))
SPIN = ("import os\nfor _ in range(64):\n    try:\n        if os.fork() == 0:\n            break\n"
        "    except OSError:\n        break\nwhile True:\n    pass\n")


def honest(n: int) -> str:
    return f"s = 0\nfor i in range({n}):\n    s += i\nprint(s)\n"


def expect(n: int) -> str:
    return f"{n * (n - 1) // 2}\n"


def main() -> None:
    workers = int(os.environ.get("RT_WORKERS", "4"))
    with CodePool(workers=workers, timeout_s=TIMEOUT) as pool:
        lim = pool.limits_in_force
        n = 2_000_000
        r = pool.run_stdio(honest(n), [StdioTest("", expect(n))], timeout_s=30)
        n = int(n * TIMEOUT / max(r.cpu_s, 1e-3) * FRAC)  # FRAC of the limit
        quiet = pool.run_stdio(honest(n), [StdioTest("", expect(n))])
        spins = [pool.submit_stdio(SPIN, [StdioTest("", "x\n")]) for _ in range(workers - 1)]
        time.sleep(0.5)
        t0 = time.monotonic()
        loud = pool.run_stdio(honest(n), [StdioTest("", expect(n))])
        wall = time.monotonic() - t0
        sp = [f.result() for f in spins]
    who = "root" if os.getuid() == 0 else f"uid {os.getuid()}"
    obs = (f"as {who} ({lim[:40]}...); honest alone: {quiet.status} cpu {quiet.cpu_s:.2f}s; beside "
           f"{workers - 1} fork-spinners: {loud.status} cpu {loud.cpu_s:.2f}s wall {wall:.1f}s {loud.detail[:90]}; "
           f"spinners {[s.status for s in sp]}")
    report("fairness", f"honest {FRAC:.0%}-of-limit CPU program beside {workers - 1} fork-spinner programs ({who})",
           "honest passes", obs, quiet.passed and not loud.passed)


if __name__ == "__main__":
    main()
