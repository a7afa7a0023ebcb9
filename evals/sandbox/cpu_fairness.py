"""CPU fairness between sandboxes: how much a program that forks busy processes slows an honest program
running at the same time in another sandbox of the same pool.

    python evals/sandbox/cpu_fairness.py [--hogs 30] [--passes 5] [--json out.json]

For each setting (``cgroup="auto"``: a per-sandbox CPU weight and quota where this host has a CPU
controller; ``cgroup="off"``: only the sandbox's single session, i.e. the scheduler's autogroup), it times an
honest CPU-bound program alone (``--passes`` runs), then again while the other sandbox runs a program that
forks ``--hogs`` busy processes (each also tries ``setsid``, which the filter denies). It prints one JSON
object: per setting the honest program's median wall time alone and under attack, and their ratio. On a
machine with C free CPUs and two sandboxes, a fair share gives the honest program one CPU: ratio ~1 while
C >= 2; without any fairness it would get 1/(hogs + 1) of a CPU (ratio ~hogs + 1).
Run it on a quiet machine; other load moves both numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from verifiers.sandbox import CodePool

HONEST = "def work(n):\n    s = 0\n    for i in range(n):\n        s += i * i % 7\n    return s\n"
HOG = """import os, time
def hog(k, seconds):
    for _ in range(k):
        if os.fork() == 0:
            try:
                os.setsid()
            except OSError:
                pass
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                pass
            os._exit(0)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return 1
"""


def _honest_n(pool: CodePool, target_s: float) -> int:
    """A loop size that takes about ``target_s`` in a sandbox here, alone."""
    n = 200_000
    while True:
        expected = sum(i * i % 7 for i in range(n))
        r = pool.run(HONEST, [f"assert work({n}) == {expected}"], timeout_s=60)
        if not r.passed:
            raise SystemExit(f"honest program failed: {r.status} {r.detail}")
        if r.duration_s >= target_s / 2:
            return int(n * target_s / r.duration_s)
        n *= 4


def _honest_times(pool: CodePool, n: int, passes: int) -> list[float]:
    expected = sum(i * i % 7 for i in range(n))
    out = []
    for _ in range(passes):
        r = pool.run(HONEST, [f"assert work({n}) == {expected}"], timeout_s=60)
        if not r.passed:
            raise SystemExit(f"honest program failed: {r.status} {r.detail}")
        out.append(r.duration_s)
    return out


def measure(cgroup: str, hogs: int, passes: int, target_s: float) -> dict:
    with CodePool(workers=2, timeout_s=60, max_procs=hogs + 8, cgroup=cgroup) as pool:
        n = _honest_n(pool, target_s)
        alone = _honest_times(pool, n, passes)
        hog_s = max(10.0, 3 * target_s * passes)
        attack = pool.submit(HOG, [f"assert hog({hogs}, {hog_s}) == 1"], timeout_s=hog_s + 30)
        time.sleep(1.0)  # the hogs are running in the other sandbox
        under = _honest_times(pool, n, passes)
        still_running = not attack.done()
        attack.result()
        return {
            "cgroup": cgroup, "limits": pool.limits_in_force, "loop_n": n, "hogs": hogs,
            "alone_s": alone, "under_attack_s": under, "hogs_still_running": still_running,
            "alone_median_s": statistics.median(alone), "under_attack_median_s": statistics.median(under),
            "slowdown": statistics.median(under) / statistics.median(alone),
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hogs", type=int, default=30)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.5, help="the honest program's run time alone")
    ap.add_argument("--settings", default="auto,off")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    out = {"host": {"cpus": len(os.sched_getaffinity(0)), "python": platform.python_version(),
                    "kernel": platform.release(), "uid": os.getuid(), "load_start": os.getloadavg()},
           "runs": []}
    for setting in args.settings.split(","):
        run = measure(setting, args.hogs, args.passes, args.seconds)
        out["runs"].append(run)
        print(f"{setting}: {run['limits']}: alone {run['alone_median_s']:.3f} s, with {args.hogs} hogs "
              f"{run['under_attack_median_s']:.3f} s ({run['slowdown']:.2f}x)", file=sys.stderr)
    out["host"]["load_end"] = os.getloadavg()
    text = json.dumps(out, indent=1)
    if args.json:
        args.json.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
