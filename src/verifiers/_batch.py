"""``score_batch`` for every task: in this process, over threads, or chunked over worker processes.

- GSM8K work is pure Python (GIL-bound), so ``workers > 1`` uses processes from a ``forkserver`` (safe to
  start from threads); results come back as plain tuples, which pickle several times faster than ``Score``.
- MATH spends its time in the symbolic worker processes, so ``workers > 1`` uses that many threads in this
  process and grows the symbolic pool to match: the CAS checks run in parallel, nothing is pickled twice.

A broken process pool never loses results: its chunks are scored again in this process.
"""

from __future__ import annotations

import importlib
import multiprocessing
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from verifiers._score import Score
from verifiers.errors import ConfigError

CHUNK = 256
_EXECUTORS: dict[int, ProcessPoolExecutor] = {}
_LOCK = threading.Lock()


def _score_chunk(task: str, responses: list[str], golds: list[str], config: Any) -> list[Score]:
    module = importlib.import_module(f"verifiers.{task}")
    return [module.score(r, g, config=config) for r, g in zip(responses, golds)]


def _score_chunk_tuples(task: str, responses: list[str], golds: list[str], config: Any) -> list[tuple]:
    return [(s.reward, s.correct, s.status, s.extracted, s.parts, s.explanation)
            for s in _score_chunk(task, responses, golds, config)]


def _from_tuple(t: tuple) -> Score:
    s = object.__new__(Score)
    s.__dict__.update(zip(_FIELDS, t))
    return s


_FIELDS = ("reward", "correct", "status", "extracted", "parts", "explanation")


def _executor(workers: int) -> ProcessPoolExecutor:
    with _LOCK:
        ex = _EXECUTORS.get(workers)
        if ex is None:
            ex = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("forkserver"))
            _EXECUTORS[workers] = ex
        return ex


def run_batch(task: str, responses: Sequence[str], golds: Sequence[str], *, workers: int | None,
              config: Any) -> list[Score]:
    """Score ``responses`` against ``golds`` with ``workers`` processes (``None``/``1``: in-process)."""
    if len(responses) != len(golds):
        raise ConfigError(f"got {len(responses)} responses but {len(golds)} golds; pass one gold per response")
    if workers is not None and workers < 1:
        raise ConfigError(f"workers must be >= 1 (or None for in-process), got {workers}")
    responses, golds = list(responses), list(golds)
    if not workers or workers == 1 or len(responses) <= CHUNK:
        return _score_chunk(task, responses, golds, config)
    if task == "math":
        return _threaded(task, responses, golds, workers, config)
    size = max(CHUNK, -(-len(responses) // (workers * 4)))
    spans = [(i, min(i + size, len(responses))) for i in range(0, len(responses), size)]
    ex = _executor(workers)
    futures = [ex.submit(_score_chunk_tuples, task, responses[a:b], golds[a:b], config) for a, b in spans]
    out: list[Score] = []
    for (a, b), fut in zip(spans, futures):
        try:
            out.extend(map(_from_tuple, fut.result()))
        except Exception:  # noqa: BLE001 - a broken pool: score this chunk here, and start a fresh pool next time
            with _LOCK:
                _EXECUTORS.pop(workers, None)
            out.extend(_score_chunk(task, responses[a:b], golds[a:b], config))
    return out


def _threaded(task: str, responses: list[str], golds: list[str], workers: int, config: Any) -> list[Score]:
    from concurrent.futures import ThreadPoolExecutor

    from verifiers._workers import pool

    pool().resize(workers)
    module = importlib.import_module(f"verifiers.{task}")
    with ThreadPoolExecutor(workers, thread_name_prefix="verifiers-batch") as ex:
        return list(ex.map(lambda rg: module.score(rg[0], rg[1], config=config), zip(responses, golds)))
