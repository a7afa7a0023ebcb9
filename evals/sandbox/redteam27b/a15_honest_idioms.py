"""Class honest-fail: common competitive-programming idioms that a correct program uses.
- deep recursion in a thread with a big stack (threading.stack_size(2**26) + setrecursionlimit),
- deep recursion on the main thread with setrecursionlimit(10**6) (depth 10**5),
- 9 MB of debug output to stderr with the correct answer on stdout,
- reading all of a 20 MB stdin at once (sys.stdin.buffer.read()).
Safe: all pass (memory_mb 512, timeout 4 s), as root (cgroup) and as a normal user (split rlimit)."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import report

from verifiers import code_stdio
from verifiers.sandbox import CodePool, StdioTest

DEPTH = 100_000
REC = "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n"
PROGS = {
    "thread with 64 MB stack, depth 1e5": (
        "import sys, threading\nsys.setrecursionlimit(10**6)\nthreading.stack_size(1 << 26)\n" + REC +
        f"def main():\n    print(f({DEPTH}))\nt = threading.Thread(target=main)\nt.start()\nt.join()\n", "", f"{DEPTH}\n"),
    "main thread setrecursionlimit, depth 1e5": (
        "import sys\nsys.setrecursionlimit(10**6)\n" + REC + f"print(f({DEPTH}))\n", "", f"{DEPTH}\n"),
    "9 MB of stderr debug": (
        "import sys\nfor i in range(9 * 1024):\n    print('x' * 1023, file=sys.stderr)\nprint(42)\n", "", "42\n"),
    "20 MB stdin read at once": (
        "import sys\nd = sys.stdin.buffer.read().split()\nprint(len(d))\n", "1 " * (10 << 20), f"{10 << 20}\n"),
}


def main() -> None:
    who = "root" if os.getuid() == 0 else f"uid {os.getuid()}"
    with CodePool(workers=1, memory_mb=512, timeout_s=4, max_output_bytes=code_stdio.OUTPUT_CAP_BYTES) as pool:
        for name, (code, stdin, want) in PROGS.items():
            r = pool.run_stdio(code, [StdioTest(stdin, want)])
            report("honest-fail", f"{name} ({who})", "passed", f"{r.status} {r.detail[:110]}", not r.passed)
    with CodePool(workers=1) as pool:  # the default output cap (8 KiB), as verifiers.sandbox.run_stdio uses
        r = pool.run_stdio("import sys\nsys.stderr.write('d' * 100_000)\nprint(42)\n", [StdioTest("", "42\n")])
        report("honest-fail", f"100 KB of stderr debug, default CodePool() ({who})", "passed",
               f"{r.status} {r.detail[:110]}", not r.passed)


if __name__ == "__main__":
    main()
