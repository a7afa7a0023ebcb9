"""Class honest-fail (limits without root): memory_mb=512 promises a program 512 MB. Without a cgroup the
pool splits it across the allowed processes (RLIMIT_AS memory_mb/procs each), so an honest single-process
program that needs ~100-200 MB (a list of 2-4 million ints, a 150 MB bytearray: ordinary contest sizes)
gets MemoryError. Safe: these pass at memory_mb=512, as root (cgroup) and as a normal user."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import report

from verifiers.sandbox import CodePool, StdioTest

PROGS = {
    "list of 2M ints (~80 MB)": ("n = int(input())\na = list(range(n))\nprint(sum(a) % 1000)\n", "2000000\n"),
    "150 MB bytearray": ("n = int(input())\nb = bytearray(n << 20)\nb[-1] = 7\nprint(b[-1])\n", "150\n"),
}
EXPECT = {"list of 2M ints (~80 MB)": f"{sum(range(2000000)) % 1000}\n", "150 MB bytearray": "7\n"}


def main() -> None:
    who = "root" if os.getuid() == 0 else f"uid {os.getuid()}"
    with CodePool(workers=1, memory_mb=512, timeout_s=4) as pool:
        lim = pool.limits_in_force
        for name, (code, stdin) in PROGS.items():
            r = pool.run_stdio(code, [StdioTest(stdin, EXPECT[name])])
            report("honest-fail", f"{name} at memory_mb=512 ({who})", "passed",
                   f"{r.status} {r.detail[:80]}; limits: {lim[:70]}", not r.passed)


if __name__ == "__main__":
    main()
