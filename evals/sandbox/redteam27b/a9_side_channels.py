"""Class side channel: what a program can learn about which test it is in, and what a score line says.

(a) With a problem CPU budget (code_stdio's total_timeout), each test's RLIMIT_CPU is min(timeout, budget left):
a program that burns a known amount of CPU reads its test index from getrlimit(RLIMIT_CPU) even when every
test has the same stdin. (b) Score.explanation quotes the expected token of the first failed (hidden) test:
anything that feeds explanations back to the policy (multi-turn, self-repair loops) leaks expected outputs.
(c) Persistent state between runs of one sandbox: /dev/shm and /tmp writable and fresh each run?
Safe: (a) the same view on every test; (b) no expected output text; (c) nothing carries over.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import fence, report

from verifiers import code_stdio
from verifiers.sandbox import CodePool, StdioTest

IDX = ("import resource, time\nlim = resource.getrlimit(resource.RLIMIT_CPU)[0]\n"
       "t = time.process_time()\nwhile time.process_time() - t < 1.05:\n    pass\nprint(lim)\n")
PERSIST = ("import os\nseen = sorted(os.listdir('/dev/shm')) + sorted(os.listdir('/tmp'))\n"
           "open('/dev/shm/mark', 'w').write('1')\nopen('/tmp/mark', 'w').write('1')\nprint(len(seen))\n")


def main() -> None:
    with CodePool(workers=1, timeout_s=2.0, max_output_bytes=1 << 16) as pool:
        r = pool.run_stdio(IDX, [StdioTest("", "x\n")] * 4, timeout_s=2.0, total_timeout_s=4.0)
        seen = [t.detail.split("got ")[-1] for t in r.per_test]
        report("side-channel", "RLIMIT_CPU per test with a problem budget (4 identical tests, 1.05 s CPU each)",
               "same limit on every test", f"limits seen: {seen}", len(set(seen)) > 1)
        s = code_stdio.score(fence("print(1)\n"), {"tests": [{"input": "", "output": "1\n"},
                                                            {"input": "7\n", "output": "SECRET-hidden-42\n"}]},
                             config={"preset": "partial"}, pool=pool)
        report("side-channel", "Score.explanation of a failed hidden test", "no expected text",
               s.explanation[:160], "SECRET" in s.explanation)
        p = pool.run_stdio(PERSIST, [StdioTest("", "0\n")] * 3)
        report("side-channel", "files left in /dev/shm and /tmp across tests (one sandbox)", "each test sees 0",
               f"{p.status} {p.tests_passed}/{p.tests_total} {p.detail[:80]}", not p.passed)


if __name__ == "__main__":
    main()
