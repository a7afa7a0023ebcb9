"""``score_batch`` for every task: in this thread, over threads, or over processes, chosen by measuring.

Parallelism only pays when there is something to overlap or spread, so the calling thread starts scoring
the items in order and keeps measuring where the time goes:

- **in this thread** (the start, and whenever nothing below applies): exactly a loop over ``score``;
- **threads** (MATH) while a noticeable share of the time goes to waiting for the CAS worker processes
  (``verifiers.equivalence._cas_pool``) and CPUs are free for them: while one thread waits for sympy, the
  others keep parsing and comparing, and the CAS pool runs their checks in parallel. Helper threads take the
  next item as soon as they are free (no batch-wide barriers), and stop once the CAS share drops (pure
  in-process work is GIL-bound) or the CPUs fill up with other work (then parallel CAS checks only slow each
  other down, and overrun deadlines a loop would have met);
- **processes** (GSM8K, only when ``workers > 1`` is asked for) when one item costs far more CPU than
  shipping it to another process does; at a few microseconds an item (GSM8K's usual cost) pickling alone
  costs more than scoring, so that batch stays in this thread. MATH never uses processes: each would need
  its own CAS pool.

A broken process pool never loses results: its chunks are scored again in this process.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from verifiers.errors import ConfigError
from verifiers.rewards._inputs import batch_items, gold_text, response_text
from verifiers.rewards._score import Score

CAS_SHARE = 0.2  # helper threads start when at least this share of the time waits for the CAS
CAS_SHARE_STOP = 0.1  # ... and stop below this share
MEASURE_S = 0.25  # the calling thread judges where the time went once per window this long
CLOCK_EVERY = 16  # ... reading the clock every this many items while they are fast (below FAST_ITEM_S)
FAST_ITEM_S = 50e-6
MAX_THREADS = 32  # the default thread count is one more than the CPUs, at most this
PROCESS_MIN_ITEM_S = 300e-6  # processes only when an item costs this much CPU (pickling costs ~10-20 µs)
PROCESS_MIN_REST_S = 2.0  # ... and the rest of the batch would take this long in this thread
PROCESS_MEASURE_S = 0.25  # CPU seconds of scoring here before that is judged (first items run cold)
PROCESS_CHUNK = 256

Scorer = Callable[..., Score]
_EXECUTORS: dict[int, ProcessPoolExecutor] = {}
_LOCK = threading.Lock()


def cas_clock(task: str) -> Callable[[], float]:
    """A clock of the seconds this process's callers have spent in CAS calls (0 for tasks without a CAS)."""
    if task != "math":
        return lambda: 0.0
    from verifiers.equivalence._cas_pool import pool

    return pool().seconds_in_calls


def default_threads() -> int:
    from verifiers.equivalence._cas_pool import usable_cpus

    # one more than the CAS workers can run at once, to overlap the in-process part of each item
    return max(2, min(MAX_THREADS, usable_cpus() + 1))


def free_cpus(ours: float) -> float:
    """CPUs not busy with other processes' work: usable CPUs minus the run queue (1-minute load average)
    that is not ``ours``."""
    from verifiers.equivalence._cas_pool import usable_cpus

    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here: assume the CPUs are ours
        return float(usable_cpus())
    return usable_cpus() - max(0.0, load - ours)


def run_batch(task: str, score: Scorer, responses: Iterable[Any], golds: Iterable[Any], *,
              workers: int | None, config: Any) -> list[Score]:
    """Score ``responses`` against ``golds``: results equal ``[score(r, g, config=config) ...]``, in order.

    Args:
        task: ``"gsm8k"`` or ``"math"`` (how to parallelize).
        score: the task's ``score`` function (module-level, so worker processes can unpickle it).
        workers: most threads (MATH) or processes (GSM8K) to use; ``None``: MATH picks threads by the CPU
            count, GSM8K stays in this process; ``1``: this thread only.

    Raises:
        ConfigError: lengths differ, ``workers < 1`` or an unknown task.
    """
    responses, golds = batch_items(responses, "responses"), batch_items(golds, "golds")
    if len(responses) != len(golds):
        raise ConfigError(f"got {len(responses)} responses but {len(golds)} golds; "
                          "pass one gold per response")
    # the caller's mistakes raise here, before any item is scored, whichever thread would score it
    for r in responses:
        if type(r) is not str:
            response_text(r)
    if any(type(g) is not str for g in golds):
        golds = [gold_text(g, latex=task == "math") for g in golds]
    if workers is not None and workers < 1:
        raise ConfigError(f"workers must be >= 1 (or None to choose), got {workers}")
    if task not in ("gsm8k", "math"):
        raise ConfigError(f"score_batch has no task {task!r}; use 'gsm8k' or 'math'")
    threads = workers if workers is not None else (default_threads() if task == "math" else 1)
    # Nothing to decide (MATH on one thread; GSM8K without processes to ship items to): exactly the loop.
    if len(responses) <= 1 or (workers in (None, 1) if task == "gsm8k" else threads == 1):
        if config is None:
            return [score(r, g) for r, g in zip(responses, golds)]
        return [score(r, g, config=config) for r, g in zip(responses, golds)]
    return Batch(task, score, responses, golds, config, threads, workers).run()


class Batch:
    """One ``run_batch`` call: the items, the shared next-item counter and the helper threads."""

    def __init__(self, task: str, score: Scorer, responses: list[str], golds: list[str], config: Any,
                 threads: int, workers: int | None) -> None:
        self.task, self.score, self.config = task, score, config
        self.responses, self.golds = responses, golds
        self.n = len(responses)
        self.out: list[Score | None] = [None] * self.n
        self.next_item = itertools.count()  # next() on a count is atomic under the GIL: no lock
        self.threads, self.workers = threads, workers
        self.helping = threading.Event()  # helpers take items while it is set
        self.helpers: list[threading.Thread] = []
        self.cas_clock = cas_clock(task)
        self.window, self.window_cas = time.perf_counter(), self.cas_clock()

    def scorer_for(self) -> Callable[[int], Score]:
        """``k -> score(item k)``, with ``config`` passed only when given (a keyword costs per call)."""
        score, responses, golds, config = self.score, self.responses, self.golds, self.config
        if config is None:
            return lambda k: score(responses[k], golds[k])
        return lambda k: score(responses[k], golds[k], config=config)

    def helper(self) -> None:
        one, out, n, helping = self.scorer_for(), self.out, self.n, self.helping
        for k in self.next_item:
            if k >= n:
                return
            out[k] = one(k)
            if not helping.is_set():
                return

    def run(self) -> list[Score]:
        """Score every item; helper threads come and go as the measurements in ``_decide`` say.

        The loop is kept lean (locals; the clock read after every item only while items are slow): on
        GSM8K's microsecond items anything more per item shows as a slower batch than a plain loop.
        """
        one, out, n, clock = self.scorer_for(), self.out, self.n, time.perf_counter
        self.window = last = clock()
        cpu_start = time.thread_time()
        since, every = 0, 1
        try:
            for k in self.next_item:  # shared with the helpers: each item is taken exactly once
                if k >= n:
                    break
                out[k] = one(k)
                since += 1
                if since < every:
                    continue
                now = clock()
                every = CLOCK_EVERY if now - last < FAST_ITEM_S * since else 1
                since, last = 0, now
                if now - self.window < MEASURE_S:
                    continue
                if self.task == "gsm8k" and self._processes_pay(time.thread_time() - cpu_start, k + 1):
                    score_in_processes(self.score, self.responses, self.golds, self.config, out, k + 1,
                                       self.workers or 1)
                    break
                self._decide(now)
        finally:
            self.stop_helpers()
        return out  # type: ignore[return-value]  # every slot is filled

    def _decide(self, now: float) -> None:
        """Start or stop helper threads after a window of ``MEASURE_S``.

        Helpers start when the CAS share of the time is high and a CPU is free for each extra CAS check
        (the load average says how busy the machine is; this batch itself keeps about one CPU busy per
        thread while CAS-bound). Throughput itself is no guide here: one CAS check takes 1 ms or 1 s, so
        any window's rate is mostly noise.
        """
        wall = now - self.window
        share = (self.cas_clock() - self.window_cas) / (wall * (1 + len(self.helpers)))
        cas_bound = share >= (CAS_SHARE_STOP if self.helpers else CAS_SHARE)
        want = min(self.threads - 1, int(free_cpus(ours=1 + len(self.helpers)))) if cas_bound else 0
        if self.helpers and want < len(self.helpers):
            self.stop_helpers()
        elif not self.helpers and want >= 1:
            self.start_helpers(want)
        self.window, self.window_cas = time.perf_counter(), self.cas_clock()

    def _processes_pay(self, cpu: float, rest: int) -> bool:
        """Whether the items from ``rest`` on are worth shipping to ``workers`` processes (GSM8K), after
        ``cpu`` seconds of scoring the first ``rest`` items here."""
        if self.workers is None or self.workers < 2 or cpu < PROCESS_MEASURE_S:
            return False
        per_item = cpu / rest
        return per_item >= PROCESS_MIN_ITEM_S and per_item * (self.n - rest) >= PROCESS_MIN_REST_S

    def start_helpers(self, count: int) -> None:
        self.helping.set()
        self.helpers = [threading.Thread(target=self.helper, name="verifiers-batch", daemon=True)
                        for _ in range(count)]
        for t in self.helpers:
            t.start()

    def stop_helpers(self) -> None:
        """Helpers finish the item in hand and stop; every item taken is scored before this returns."""
        self.helping.clear()
        for t in self.helpers:
            t.join()
        self.helpers = []


def _score_chunk(score: Scorer, responses: list[str], golds: list[str], config: Any) -> list[tuple]:
    """Score in a worker process; plain tuples pickle several times faster than ``Score`` objects."""
    return [(s.reward, s.correct, s.status, s.extracted, s.parts, s.explanation)
            for s in (score(r, g, config=config) for r, g in zip(responses, golds))]


def _executor(workers: int) -> ProcessPoolExecutor:
    with _LOCK:
        ex = _EXECUTORS.get(workers)
        if ex is None:  # forkserver: safe to start from threads, and children do not inherit our threads
            ex = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"))
            _EXECUTORS[workers] = ex
        return ex


def score_in_processes(score: Scorer, responses: list[str], golds: list[str], config: Any,
                       out: list[Score | None],
               start: int, workers: int) -> None:
    """Score ``[start, n)`` over ``workers`` processes, in chunks; a failed chunk is scored here instead."""
    n = len(responses)
    size = max(PROCESS_CHUNK, -(-(n - start) // (workers * 4)))
    spans = [(a, min(a + size, n)) for a in range(start, n, size)]
    ex = _executor(workers)
    futures = [ex.submit(_score_chunk, score, responses[a:b], golds[a:b], config) for a, b in spans]
    for (a, b), fut in zip(spans, futures):
        try:
            out[a:b] = [Score(*t) for t in fut.result()]
        except Exception:  # noqa: BLE001 - a broken pool: score this chunk here, and start a fresh pool next time
            with _LOCK:
                _EXECUTORS.pop(workers, None)
            out[a:b] = [score(r, g, config=config) for r, g in zip(responses[a:b], golds[a:b])]
