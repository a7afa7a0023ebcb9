"""Timing helpers for the speed benchmark: per-call latencies, throughput, interleaved A/B ratios."""

from __future__ import annotations

import os
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path


def latency_summary(seconds: Sequence[float]) -> dict:
    """p50/p99/max of per-call latencies, in milliseconds."""
    lat = sorted(seconds)
    if not lat:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    return {"p50_ms": round(lat[len(lat) // 2] * 1e3, 3), "p99_ms": round(lat[int(len(lat) * 0.99)] * 1e3, 3),
            "max_ms": round(lat[-1] * 1e3, 3)}


def sequential(fn: Callable[[str, str], object], responses: Sequence[str], golds: Sequence[str],
               passes: int = 1) -> dict:
    """Time every call: verdicts/s over all passes (wall and CPU time), the best pass, p50/p99 in µs.

    On a shared machine the wall-clock rate drops whenever another process takes the core; the CPU-time
    rate and the best pass are closer to what a quiet core does.
    """
    clock = time.perf_counter_ns
    lat: list[int] = []
    best = 0.0
    start, cpu_start = clock(), time.process_time()
    for _ in range(passes):
        pass_start = clock()
        for r, g in zip(responses, golds):
            t = clock()
            fn(r, g)
            lat.append(clock() - t)
        best = max(best, len(responses) / ((clock() - pass_start) / 1e9))
    total, cpu = (clock() - start) / 1e9, time.process_time() - cpu_start
    lat.sort()
    return {"verdicts": len(lat), "seconds": round(total, 3), "verdicts_per_s": round(len(lat) / total, 1),
            "verdicts_per_cpu_s": round(len(lat) / max(cpu, 1e-9), 1), "best_pass_per_s": round(best, 1),
            "p50_us": round(lat[len(lat) // 2] / 1e3, 1), "p99_us": round(lat[int(len(lat) * 0.99)] / 1e3, 1)}


def statuses(fn: Callable[[str, str], str], responses: Sequence[str], golds: Sequence[str]) -> dict:
    """Score one by one: verdicts/s, status counts and latency percentiles (for slow, CAS-bound work)."""
    lat: list[float] = []
    counts: Counter[str] = Counter()
    out: list[str] = []
    start = time.perf_counter()
    for r, g in zip(responses, golds):
        t = time.perf_counter()
        status = fn(r, g)
        lat.append(time.perf_counter() - t)
        counts[status] += 1
        out.append(status)
    total = time.perf_counter() - start
    return {"verdicts": len(lat), "seconds": round(total, 3), "verdicts_per_s": round(len(lat) / total, 2),
            "statuses": dict(counts), **latency_summary(lat), "_statuses": out}


def threaded(fn: Callable[[str, str], str], responses: Sequence[str], golds: Sequence[str], threads: int,
             timeout: float) -> dict:
    """``threads`` threads take items in turn; per-call latency, statuses and calls over timeout + 0.2 s."""
    n = len(responses)
    lat = [0.0] * n
    out = [""] * n
    nxt = iter(range(n))
    lock = threading.Lock()
    go = threading.Event()

    def work() -> None:
        go.wait()
        while True:
            with lock:
                i = next(nxt, None)
            if i is None:
                return
            t = time.perf_counter()
            out[i] = fn(responses[i], golds[i])
            lat[i] = time.perf_counter() - t

    pool = [threading.Thread(target=work) for _ in range(threads)]
    for t in pool:
        t.start()
    start = time.perf_counter()
    go.set()
    for t in pool:
        t.join()
    total = time.perf_counter() - start
    counts = Counter(out)
    bound = timeout + 0.2
    return {"calls": n, "threads": threads, "timeout_s": timeout, "seconds": round(total, 3),
            "verdicts_per_s": round(n / total, 1), "statuses": dict(counts),
            "timeout_rate": round(counts.get("timeout", 0) / n, 4), **latency_summary(lat),
            "over_bound": sum(x > bound for x in lat),
            "worst_over_timeout_ms": round((max(lat) - timeout) * 1e3, 1), "_statuses": out}


def ratio(baseline: Callable[[int], object], candidate: Callable[[int], object], reps: int = 5,
          statuses: Callable[[object], Counter[str]] | None = None) -> dict:
    """Wall time of each over ``reps`` interleaved runs (ABBA order, so a drifting load favours neither).

    ``speedup`` is baseline / candidate of the medians, ``speedup_min`` of the fastest runs (the usual
    estimate of the undisturbed cost on a shared machine). Each function gets a run number (the baseline
    even, the candidate odd), so a workload can hand every run items of its own (caches then favour
    neither side). ``statuses`` (optional) counts the outcomes in a run's result; the sums over all runs
    come back as ``baseline_statuses`` and ``candidate_statuses``.
    """
    a: list[float] = []
    b: list[float] = []
    counts: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    for k in range(reps):
        pair = ((baseline, a, 2 * k, counts[0]), (candidate, b, 2 * k + 1, counts[1]))
        for fn, acc, run, count in (pair if k % 2 == 0 else pair[::-1]):
            t = time.perf_counter()
            result = fn(run)
            acc.append(time.perf_counter() - t)
            if statuses is not None:
                count.update(statuses(result))
    ma, mb = statistics.median(a), statistics.median(b)
    out = {"baseline_s": round(ma, 4), "candidate_s": round(mb, 4), "speedup": round(ma / mb, 3),
           "baseline_min_s": round(min(a), 4), "candidate_min_s": round(min(b), 4),
           "speedup_min": round(min(a) / min(b), 3), "reps": reps}
    if statuses is not None:
        out.update(baseline_statuses=dict(counts[0]), candidate_statuses=dict(counts[1]))
    return out


def _family_cpu_ticks(pid: int) -> int:
    """CPU ticks (user + system) of ``pid`` and its live children, from /proc; 0 where unreadable."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += int(fields[11]) + int(fields[12])
    return total


def quiet_cas_pool(timeout: float = 20.0, still: float = 0.5) -> float:
    """Wait until the CAS pool's template and workers use no CPU for ``still`` seconds (at most ``timeout``);
    the seconds waited. Before 2026-11-29 ``math.warm_up()`` returned while the template still warmed up (about
    1 s of CPU, on the caller's CPUs): a timed pass must not share its core with that, whichever tree it times."""
    from verifiers.equivalence._cas_pool import pool

    pid = int(pool().stats().get("template_pid", 0))
    start = time.monotonic()
    if not pid or not os.path.exists(f"/proc/{pid}"):
        return 0.0
    ticks = _family_cpu_ticks(pid)
    while time.monotonic() - start < timeout:
        time.sleep(still)
        now = _family_cpu_ticks(pid)
        if now == ticks:
            break
        ticks = now
    return round(time.monotonic() - start - still, 2)
