"""Class parent CPU/memory: expected-output tests (`expected_output_tests`) against programs returning values
costly for the parent to decode or compare: a 56-Mbit int, a 6 MiB non-ASCII str, 100,000-deep nesting, 1M
floats. Safe: each fails fast, parent CPU < 1 s, parent RSS +< 200 MB."""
from __future__ import annotations

import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import report

from verifiers.sandbox import CodePool, expected_output_tests

TESTS = (expected_output_tests("f", [[1]], [3]) + expected_output_tests("f", [[1]], [0.5])
         + expected_output_tests("f", [[1]], [[1.0, 2.0]]))
PROGS = {
    "bigint": "def f(x):\n    return 1 << (8 * (1 << 20) * 7)\n",
    "bigstr": "def f(x):\n    return '\\xff' * (6 << 20)\n",
    "nested": "def f(x):\n    a = []\n    for _ in range(100000):\n        a = [a]\n    return a\n",
    "manyfloats": "def f(x):\n    return [0.5] * (1 << 20)\n",
    "complex": "def f(x):\n    return complex(0.5, 1e-9) if x == 1 else 0\n",
}


def main() -> None:
    with CodePool(workers=2, max_output_bytes=8 << 20) as pool:
        pool.run("def f(x): return 3", TESTS[:1])
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
        for k, p in PROGS.items():
            c0, t0 = time.process_time(), time.monotonic()
            r = pool.run(p, TESTS)
            cpu, wall = time.process_time() - c0, time.monotonic() - t0
            grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10) - base
            obs = f"{r.status} {r.tests_passed}/{r.tests_total}; parent CPU {cpu:.2f}s wall {wall:.2f}s RSS +{grew} MB; {r.detail[:90]}"
            report("parent-cpu", f"expected-output test vs {k}", "fails, parent CPU < 1 s, RSS +< 200 MB", obs,
                   r.tests_passed > (1 if k == "complex" else 0) or cpu > 1 or grew > 200)


if __name__ == "__main__":
    main()
