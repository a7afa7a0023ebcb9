"""The CAS worker pool: deadlines cover start-up and queueing, workers are replaced, any thread or process.

The contract is "every call returns within its timeout + 0.2 s" (the README's), and these tests hold it to
that: ``SLACK`` is the promised 0.2 s. On the shared 2-core VM at load average ~10 the worst overrun seen
was 43 ms (32 threads, 3 passes), a cold call in a fresh process 4 ms; ``evals/speed`` measures it at scale.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import verifiers.equivalence._cas_pool as workers
from verifiers.equivalence._cas_pool import WorkerPool, pool

SLACK = 0.2  # the README's promise
# A CAS job that runs for minutes: a true identity whose proof expands two 5,001-term polynomials (no numeric
# probe can settle it; a pair that differs, such as (x+1)^{100000} vs (x+2)^{100000}, a warm worker now proves
# different in 0.3 s)
HANG = ("(x+1)^{5000}(x-1)^{5000}", "(x^2-1)^{5000}", 1e-9)
EASY = ("x^2-1", "(x-1)(x+1)", 1e-9)
GENEROUS = 60.0  # for calls that must succeed, however loaded the machine


@pytest.fixture
def private() -> Iterator[WorkerPool]:
    """A pool of its own (one warm worker, up to three), closed afterwards."""
    p = WorkerPool(size=1, max_size=3)
    assert p.warm_up(), "symbolic workers did not start"
    yield p
    p.close()


def _timed(p: WorkerPool, args: tuple, timeout: float) -> tuple[str, object, float]:
    start = time.monotonic()
    status, result = p.call("equal", args, timeout)
    return status, result, time.monotonic() - start


def _children(pid: int) -> list[int]:
    """Live child pids of ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


def test_cold_call_in_a_fresh_process_honours_its_deadline() -> None:
    code = ("import json, time; from verifiers.equivalence._cas_pool import pool; t = time.monotonic(); "
            "s, _ = pool().call('equal', ('x^2-1', '(x-1)(x+1)', 1e-9), 0.2); "
            "took = time.monotonic() - t; ok = pool().warm_up(); print(json.dumps([s, took, ok]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          check=True)
    status, took, ready = json.loads(done.stdout)
    assert status in ("ok", "timeout")  # a cold start usually takes longer than 0.2 s: then "timeout"
    assert took < 0.2 + SLACK
    assert ready


def test_cold_private_pool_call_honours_its_deadline_then_works() -> None:
    p = WorkerPool(size=1, start=False)
    try:
        status, _, took = _timed(p, EASY, 0.1)
        assert status in ("ok", "timeout") and took < 0.1 + SLACK
        assert p.call("equal", EASY, GENEROUS) == ("ok", True)
    finally:
        p.close()


def test_overrunning_worker_is_killed_and_replaced(private: WorkerPool) -> None:
    status, reason, took = _timed(private, HANG, 0.3)
    assert status == "timeout" and "overran" in str(reason)
    assert took < 0.3 + SLACK
    assert private.call("equal", EASY, GENEROUS) == ("ok", True)
    stats = private.stats()
    assert stats["killed"] >= 1 and stats["forks"] >= 2


def test_worker_killed_from_outside_is_replaced(private: WorkerPool) -> None:
    template = int(private.stats()["template_pid"])
    victims = _children(template)
    assert victims
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    assert private.call("equal", EASY, GENEROUS) == ("ok", True)


def test_template_killed_is_restarted(private: WorkerPool) -> None:
    os.kill(int(private.stats()["template_pid"]), signal.SIGKILL)
    deadline = time.monotonic() + GENEROUS
    while time.monotonic() < deadline:  # the first calls may find the dead workers; later ones a new template
        status, result, took = _timed(private, EASY, 2.0)
        assert took < 2.0 + SLACK
        if status == "ok":
            assert result is True
            break
    else:
        pytest.fail("the pool did not recover from its template's death")
    assert private.stats()["template_starts"] >= 2


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_warm_up_leaves_a_fully_warm_quiet_template_and_warm_workers() -> None:
    p = WorkerPool(size=1, max_size=2)
    try:
        # a worker forked before warm_up asked the template to finish warming up: stale, to be replaced
        assert p.call("equal", EASY, GENEROUS) == ("ok", True)
        forks = p.stats()["forks"]
        assert p.warm_up(GENEROUS)
        stats = p.stats()
        assert stats["warm"] == 1 and stats["idle"] >= 1
        assert stats["forks"] > forks  # the stale worker was replaced by a warm fork
        template = int(stats["template_pid"])
        before = _cpu_ticks(template)
        time.sleep(1.0)
        # nothing left to warm: the template only waits for fork requests (a tick is 10 ms)
        assert _cpu_ticks(template) - before <= 2
        assert p.call("equal", EASY, GENEROUS) == ("ok", True)
        assert p.warm_up(GENEROUS)  # again: at once, nothing more to do
    finally:
        p.close()


def test_warm_up_survives_a_template_killed_while_warming() -> None:
    p = WorkerPool(size=1, max_size=2)
    try:
        assert p.call("equal", EASY, GENEROUS) == ("ok", True)
        os.kill(int(p.stats()["template_pid"]), signal.SIGKILL)
        assert p.warm_up(GENEROUS)
        assert p.stats()["warm"] == 1 and p.stats()["template_starts"] >= 2
        assert p.call("equal", EASY, GENEROUS) == ("ok", True)
    finally:
        p.close()


def test_warm_up_with_too_little_time_says_false() -> None:
    p = WorkerPool(size=1, start=False)
    try:
        assert p.warm_up(0.01) is False
    finally:
        p.close()


def test_past_deadline_returns_timeout_at_once(private: WorkerPool) -> None:
    start = time.monotonic()
    status, _ = private.call_until("equal", EASY, time.monotonic() - 1.0)
    assert status == "timeout" and time.monotonic() - start < SLACK


def test_unknown_function_and_bad_arguments_are_errors(private: WorkerPool) -> None:
    status, message = private.call("no_such_function", (), GENEROUS)
    assert status == "error" and "AttributeError" in message
    status, message = private.call("equal", (object(),), GENEROUS)
    assert status == "error" and "JSON" in message
    assert private.call("equal", EASY, GENEROUS) == ("ok", True)  # the worker lived on


def test_calls_from_many_threads_all_return_within_their_deadline(private: WorkerPool) -> None:
    results: list[tuple[str, float]] = []
    lock = threading.Lock()

    def work(k: int) -> None:
        for j in range(3):
            status, _, took = _timed(private, HANG if (k + j) % 4 == 0 else EASY, 0.5)
            with lock:
                results.append((status, took))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(32)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(results) == 96
    assert {s for s, _ in results} <= {"ok", "timeout"}
    assert max(took for _, took in results) < 0.5 + SLACK
    assert private.call("equal", EASY, GENEROUS) == ("ok", True)


def test_pool_grows_while_callers_queue_and_shrinks_when_idle(private: WorkerPool,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "IDLE_RETIRE_S", 0.3)

    def at_once(args: tuple, timeout: float) -> list[tuple[str, object]]:
        got: list[tuple[str, object]] = []
        threads = [threading.Thread(target=lambda: got.append(private.call("equal", args, timeout)))
                   for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        return got

    # three runaway jobs at once on a pool of one: each got a worker of its own and overran there
    reasons = [str(r) for _, r in at_once(HANG, 3.0)]
    assert len(reasons) == 3 and all("overran" in r for r in reasons), reasons
    assert at_once(("\\sin(2x)", "2\\sin x\\cos x", 1e-9), GENEROUS) == [("ok", True)] * 3
    assert private.stats()["live"] >= 2  # grew for the waiting callers (and these jobs did not overrun)
    deadline = time.monotonic() + 30
    while private.stats()["live"] != 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    stats = private.stats()
    assert stats["live"] == 1 and stats["retired"] >= 1  # idle workers above the floor retired


def test_template_that_cannot_start_is_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", "/bin/false")
    p = WorkerPool(size=1)
    try:
        status, reason, took = _timed(p, EASY, 5.0)
        assert status == "unavailable" and "template" in str(reason)
        assert took < 5.0
    finally:
        p.close()


def _call_in_child(queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    queue.put(tuple(pool().call("equal", EASY, GENEROUS)))


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_works_from_a_daemonic_multiprocessing_child(method: str) -> None:
    assert pool().warm_up()
    ctx = multiprocessing.get_context(method)
    queue = ctx.Queue()
    child = ctx.Process(target=_call_in_child, args=(queue,), daemon=True)
    child.start()
    try:
        assert queue.get(timeout=120) == ("ok", True)
    finally:
        child.join(timeout=30)
    assert pool().call("equal", EASY, GENEROUS) == ("ok", True)  # the parent's pool is untouched


def test_works_after_os_fork_in_both_processes() -> None:
    assert pool().warm_up()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a fresh pool of its own
        try:
            os.close(read)
            os.write(write, json.dumps(pool().call("equal", EASY, GENEROUS)).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        got = f.read()
    os.waitpid(pid, 0)
    assert json.loads(got) == ["ok", True]
    assert pool().call("equal", EASY, GENEROUS) == ("ok", True)


def test_workers_die_with_their_caller() -> None:
    code = ("import time; from verifiers.equivalence._cas_pool import pool; p = pool(); assert p.warm_up(); "
            "print(int(p.stats()['template_pid']), flush=True); time.sleep(600)")
    caller = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert caller.stdout is not None
        template = int(caller.stdout.readline())
        family = [template, *_children(template)]
        assert len(family) >= 2
    finally:
        caller.kill()
        caller.wait()
    deadline = time.monotonic() + 10
    while not all(_gone(pid) for pid in family) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in family)
