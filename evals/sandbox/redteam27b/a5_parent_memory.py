"""Class parent memory: one hostile response makes the scoring process hold GBs.

code_stdio with preset ``partial`` runs every test at once (no early stop) and `StdioProblem` keeps every
run's record (its stdout decoded to str) until the problem ends. The program prints the output cap (8 MiB)
of non-ASCII bytes on every test: each record is 8 MiB of bytes read + a 4-byte-per-char str
(surrogateescape) = ~40 MiB, times the tests. Safe: the parent's peak grows by a small multiple of one
output cap, independent of the number of tests.
"""
from __future__ import annotations

import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import fence, report

from verifiers import code_stdio
from verifiers.sandbox import CodePool

N_TESTS = int(os.environ.get("RT_TESTS", "48"))
PROG = "import sys\nsys.stdout.buffer.write(b'\\xff' * (8 << 20))\n"


def maxrss_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10


def main() -> None:
    pool = CodePool(workers=2, max_output_bytes=code_stdio.OUTPUT_CAP_BYTES, timeout_s=4).start()
    try:
        ref = {"tests": [{"input": f"{i}\n", "output": f"{i}\n"} for i in range(N_TESTS)]}
        code_stdio.score(fence("print(input())\n"), ref, config={"preset": "partial"}, pool=pool)
        base = maxrss_mb()
        t0 = time.monotonic()
        cpu0 = time.process_time()
        s = code_stdio.score(fence(PROG), ref, config={"preset": "partial"}, pool=pool)
        cpu = time.process_time() - cpu0
        wall = time.monotonic() - t0
        peak = maxrss_mb()
    finally:
        pool.close()
    grew = peak - base
    obs = (f"{N_TESTS} tests, preset partial: parent peak RSS grew {grew} MB (base {base} MB -> {peak} MB), "
           f"parent CPU {cpu:.1f}s, wall {wall:.1f}s; score {s.status} reward {s.reward}")
    report("parent-memory", f"8 MiB of 0xff on each of {N_TESTS} tests (partial preset)",
           "parent growth ~ a few x 8 MiB, not x tests", obs, grew > 400)


if __name__ == "__main__":
    main()
