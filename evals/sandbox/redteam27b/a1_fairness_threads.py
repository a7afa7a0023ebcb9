"""Class fairness: 16 reward threads submit hostile and honest code_stdio programs at once to one pool.

Measures honest latency p50/max with only honest programs, then in the same pool with attackers mixed in.
Safe: every honest program `correct`, and its latency stays within a few seconds (its own cost is ~ms;
queueing behind others' CPU is expected, waiting for a sleeper's wall backstop while a sandbox is idle is not).
"""
from __future__ import annotations

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import HONEST, HONEST_TESTS, HOSTILE, fence, pct, report

from verifiers import code_stdio
from verifiers.sandbox import CodePool

THREADS = int(os.environ.get("RT_THREADS", "16"))
TIMEOUT = float(os.environ.get("RT_TIMEOUT", "1.0"))
CFG = {"timeout": TIMEOUT, "total_timeout": 10.0}


def run_phase(pool: CodePool, kinds_per_thread: list[list[str]]) -> tuple[list[float], list[str], dict[str, list]]:
    honest_lat: list[float] = []
    bad: list[str] = []
    hostile: dict[str, list] = {}
    lock = threading.Lock()
    ref = {"tests": [{"input": i, "output": o} for i, o in HONEST_TESTS]}

    def worker(kinds: list[str]) -> None:
        for k in kinds:
            code = HONEST if k == "honest" else HOSTILE[k]
            t0 = time.monotonic()
            s = code_stdio.score(fence(code), ref, config=CFG, pool=pool)
            dt = time.monotonic() - t0
            with lock:
                if k == "honest":
                    honest_lat.append(dt)
                    if s.status != "correct":
                        bad.append(f"{s.status}: {s.explanation[:200]}")
                else:
                    hostile.setdefault(k, []).append((s.status, round(dt, 1), s.reward))
    ts = [threading.Thread(target=worker, args=(ks,)) for ks in kinds_per_thread]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return honest_lat, bad, hostile


def main() -> None:
    pool = CodePool(workers=int(os.environ.get("RT_WORKERS", "2")), max_output_bytes=8 << 20, timeout_s=TIMEOUT).start()
    try:
        base, bad0, _ = run_phase(pool, [["honest"] * 4 for _ in range(THREADS)])
        names = list(HOSTILE)
        mixed = []
        for i in range(THREADS):
            mixed.append([names[i % len(names)], "honest", "honest", "honest", "honest"])
        t0 = time.monotonic()
        lat, bad, hostile = run_phase(pool, mixed)
        total = time.monotonic() - t0
    finally:
        pool.close()
    hostile_ok = {k: v for k, v in hostile.items() if k != "orphan" and any(r > 0 for _, _, r in v)}  # orphan solves the task
    obs = (f"baseline honest n={len(base)} p50={pct(base, .5):.3f}s max={max(base):.2f}s fails={len(bad0)}; "
           f"with {THREADS} attackers honest n={len(lat)} p50={pct(lat, .5):.2f}s p90={pct(lat, .9):.2f}s "
           f"max={max(lat):.2f}s fails={len(bad)} {bad[:2]}; phase {total:.1f}s; hostile rewarded={hostile_ok}; "
           f"hostile={ {k: v[0][:2] for k, v in hostile.items()} }")
    finding = bool(bad or bad0 or hostile_ok or max(lat) > 8 * TIMEOUT)
    report("fairness", f"{THREADS} threads x (1 hostile + 4 honest) code_stdio.score, shared 2-worker pool, timeout {TIMEOUT:g}s",
           "honest all correct, honest max latency < 8x timeout, no hostile reward", obs, finding)


if __name__ == "__main__":
    main()
