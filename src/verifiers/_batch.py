"""``score_batch`` for every task: in this process, or chunked over worker processes.

Worker processes come from a ``forkserver`` so that calling from threads is safe; each one scores a
chunk with the task's own ``score`` (so MATH workers keep their own symbolic deadline pools). A broken
process pool never loses results: its chunks are scored again in this process.
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
    size = max(CHUNK, -(-len(responses) // (workers * 4)))
    spans = [(i, min(i + size, len(responses))) for i in range(0, len(responses), size)]
    ex = _executor(workers)
    futures = [ex.submit(_score_chunk, task, responses[a:b], golds[a:b], config) for a, b in spans]
    out: list[Score] = []
    for (a, b), fut in zip(spans, futures):
        try:
            out.extend(fut.result())
        except Exception:  # a broken pool: score this chunk here, and start a fresh pool next time
            with _LOCK:
                _EXECUTORS.pop(workers, None)
            out.extend(_score_chunk(task, responses[a:b], golds[a:b], config))
    return out
