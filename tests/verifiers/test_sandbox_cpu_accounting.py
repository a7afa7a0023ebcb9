"""CPU accounting covers every process of a program (red team 26, finding 1) and the wall backstop and job
dealing stay bounded whatever the programs do (finding 2)."""

from __future__ import annotations

import time

import pytest

from verifiers.sandbox import CodePool, _local

# Red team 26 `cpu-dodge-sigign-*`: children reaped by the kernel (SIGCHLD ignored) hide their CPU time.
SIGIGN = '''
import os, signal
def f():
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    return 1
'''

NOCLDWAIT = '''
import ctypes, signal
class Act(ctypes.Structure):
    _fields_ = [("handler", ctypes.c_void_p), ("flags", ctypes.c_ulong), ("restorer", ctypes.c_void_p),
                ("mask", ctypes.c_ulong * 16)]
def f():
    libc = ctypes.CDLL(None, use_errno=True)
    act = Act()
    act.flags = 2  # SA_NOCLDWAIT
    return libc.sigaction(int(signal.SIGCHLD), ctypes.byref(act), None), ctypes.get_errno()
'''

# The same class without touching SIGCHLD: the children do the work, hand it over, and are still alive (never
# waited) when the program ends, so they die with its pid namespace and no rusage ever sees their CPU.
LINGERING_WORKERS = '''
import os, time
def _spin(seconds):
    t0 = time.process_time()
    n = 0
    while time.process_time() - t0 < seconds:
        n += 1
    return n
def f():
    pipes = []
    for _ in range(2):
        r, w = os.pipe()
        if os.fork() == 0:
            _spin(0.9)
            os.write(w, b"1")
            time.sleep(100)
            os._exit(0)
        os.close(w)
        pipes.append(r)
    return sum(int(os.read(r, 10)) for r in pipes)
'''


def test_sigchld_disposition_cannot_be_changed(pool: CodePool) -> None:
    r = pool.run(SIGIGN, ["assert f() == 1"])
    assert r.status == "failed" and "PermissionError" in r.detail, r.detail
    r = pool.run(NOCLDWAIT, ["assert f() == (-1, 1)"])  # EPERM
    assert r.passed, r.detail
    # Reading it is allowed; other signals are the program's own.
    r = pool.run("import signal\ndef f():\n    signal.signal(signal.SIGUSR1, signal.SIG_IGN)\n"
                 "    return signal.getsignal(signal.SIGCHLD)\n", ["assert f() == signal.SIG_DFL"])
    assert r.passed, r.detail


def test_cpu_of_processes_killed_with_the_program_counts_where_a_cgroup_is() -> None:
    with CodePool(workers=1, timeout_s=1.0) as p:
        if not p.cgroup_in_force:
            pytest.skip("no cgroup here: CPU of processes alive when the program ends is not counted")
        r = p.run(LINGERING_WORKERS, ["assert f() == 2"])
        assert r.status == "timeout" and r.cpu_s > 1.0, (r.status, r.detail, r.cpu_s)
        # The same work inline, and an honest program with waited children, are judged as before.
        honest = p.run("import os\ndef f():\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n"
                       "    os.waitpid(pid, 0)\n    return 2\n", ["assert f() == 2"])
        assert honest.passed and honest.cpu_s < 1.0, (honest.detail, honest.cpu_s)


def test_the_load_stretch_of_the_backstop_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_local.os, "getloadavg", lambda: (1000.0, 1000.0, 1000.0))
    monkeypatch.setattr(_local, "_LOAD", [float("-inf"), 1.0])
    assert _local.load_scale() == _local.MAX_LOAD_SCALE <= 2.0
    assert _local.wall_backstop(10.0, _local.load_scale()) <= 2 * 3 * 10.0 + 1.0


@pytest.mark.slow
def test_no_job_is_dealt_behind_a_sleeping_program() -> None:
    """Red team 26 `head-of-line-sleeper`: jobs submitted once a program sleeps go to the other sandbox."""
    with CodePool(workers=2, timeout_s=2.0) as p:
        sleeper = p.submit("import time\ndef f(x):\n    time.sleep(1000)\n    return x\n", ["assert f(1) == 1"])
        time.sleep(1.0)  # the sleeper has run past HEAD_STALL_S
        honest = [p.submit("def add(a, b):\n    return a + b\n", ["assert add(1, 2) == 3"]) for _ in range(12)]
        for fut in honest:
            assert fut.result(timeout=60).passed
            assert not sleeper.done()  # every honest program finished while the sleeper still held its sandbox
        assert sleeper.result(timeout=60).status == "timeout"


def test_values_over_the_node_budget_are_never_sent(pool: CodePool) -> None:
    """Red team 26 `parent-cost-*`: one program's huge values held the judging parent ~1 s; now the child's
    encoder stops at the same per-program budget the parent decodes with."""
    from verifiers.sandbox._protocol import MAX_VALUE_NODES

    r = pool.run("def f(x):\n    return [[[]]] * 120000\n", ["assert f(1) == 1", "assert f(2) == 2"])
    assert r.status == "failed" and "too large" in r.per_test[1].detail, r.per_test  # 240,001 nodes, then none
    # The budget is the program's, not each value's: two values of 60% of it each cannot both come back.
    n = MAX_VALUE_NODES * 6 // 10
    r = pool.run(f"def f(x):\n    return [0] * {n}\n", [f"assert len(f(1)) == {n}", f"assert len(f(2)) == {n}"])
    assert r.tests_passed == 1 and "too large" in r.per_test[1].detail, r.detail
