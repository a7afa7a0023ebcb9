"""Honest programs keep their reward: __main__ blocks, multiprocessing, CPU-time limits with a wall backstop."""

from __future__ import annotations

import pytest

from verifiers.sandbox import CodePool

MAIN_BLOCK = '''
def add(a, b):
    return a + b


if __name__ == "__main__":
    a, b = map(int, input().split())
    print(add(a, b))
'''

POOL = '''
from multiprocessing import Pool


def square(x):
    return x * x


def squares(xs):
    with Pool(2) as p:
        return p.map(square, xs)
'''


def test_main_block_is_skipped_in_function_tasks(pool: CodePool) -> None:
    r = pool.run(MAIN_BLOCK, ["assert add(1, 2) == 3"])
    assert r.passed, r.detail
    r = pool.run("import sys\ndef name():\n    return __name__\n", ["assert name() == 'solution'",
                                                                    "assert name() != '__main__'"])
    assert r.passed, r.detail


def test_multiprocessing_pool_works(pool: CodePool) -> None:
    r = pool.run(POOL, ["assert squares([1, 2, 3]) == [1, 4, 9]"])
    assert r.passed, (r.detail, r.stderr[-500:])


def test_shared_memory_is_the_programs_own(pool: CodePool) -> None:
    write = "import os\nopen('/dev/shm/left', 'w').write('x')\ndef f():\n    return os.listdir('/dev/shm')\n"
    assert pool.run(write, ["assert f() == ['left']"]).passed
    for _ in range(3):  # later programs (on either sandbox) never see it
        r = pool.run("import os\ndef f():\n    return os.listdir('/dev/shm')\n", ["assert f() == []"])
        assert r.passed, r.detail


def test_cpu_time_limit_reports_cpu() -> None:
    with CodePool(workers=1, timeout_s=1.0) as p:
        r = p.run("def f():\n    while True:\n        pass\n", ["assert f()"])
    assert r.status == "timeout" and "s of CPU" in r.detail and r.cpu_s >= 1.0


@pytest.mark.slow
def test_sleeping_program_stops_at_the_wall_backstop() -> None:
    with CodePool(workers=1, timeout_s=0.5) as p:
        r = p.run("import time\ndef f():\n    time.sleep(60)\n", ["assert f() is None"])
    assert r.status == "timeout" and "wall-time backstop" in r.detail
    assert r.cpu_s < 0.5 and r.duration_s < 30


def test_printing_past_the_output_file_limit_truncates(pool: CodePool) -> None:
    """Red team 26 `print-20MB`: more than the 16 MB output file raised OSError (EFBIG); now it is dropped."""
    r = pool.run("def f(x):\n    for i in range(40000):\n        print('x' * 500)\n    return x\n", ["assert f(3) == 3"])
    assert r.passed, r.detail
    assert r.stdout.startswith("x" * 100) and len(r.stdout) <= pool.max_output_bytes + 100


def test_cpu_count_is_what_the_program_may_use(pool: CodePool) -> None:
    """Red team 26 `mp-pool8-nocg`/`mp-pool64-cg`: `Pool()` sized itself to the host's CPUs, beyond the limits."""
    prog = ("import os, multiprocessing as mp\ndef sq(x):\n    return x * x\ndef f():\n"
            "    return os.cpu_count(), len(os.sched_getaffinity(0))\ndef g():\n"
            "    with mp.Pool() as p:\n        return sum(p.map(sq, range(10)))\n")
    r = pool.run(prog, ["assert 1 <= f()[0] == f()[1] <= max(1, pool_procs // 2)".replace(
        "pool_procs", str(pool.max_procs)), "assert g() == 285"])
    assert r.passed, r.detail
