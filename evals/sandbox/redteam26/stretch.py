"""The wall backstop stretched by load the programs make: a sleeper's hold before and after rounds of burners.

Usage: PYTHONPATH=src python evals/sandbox/redteam26/stretch.py [ROUNDS]  (cgroup off; timeout_s=2, backstop 7 s)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_cases as mc

from verifiers.sandbox import CodePool


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    burn = mc.BURN.replace("NPROC", "6")
    with CodePool(workers=2, cgroup="off", timeout_s=2.0) as pool:
        t = time.time()
        pool.run(mc.SLEEPER, ["assert f(1) == 1"])
        print(f"sleeper alone: load {os.getloadavg()[0]:.1f}, held {time.time() - t:.1f} s")
        for i in range(rounds):
            t = time.time()
            pool.map([{"code": burn, "tests": ["assert f(1) == 1"]}] * 2)
            print(f"round {i}: 2 burners held {time.time() - t:.1f} s; load now {os.getloadavg()[0]:.1f}")
        t = time.time()
        r = pool.run(mc.SLEEPER, ["assert f(1) == 1"])
        print(f"sleeper after: load {os.getloadavg()[0]:.1f}, held {time.time() - t:.1f} s ({r.detail[:60]})")


if __name__ == "__main__":
    main()
