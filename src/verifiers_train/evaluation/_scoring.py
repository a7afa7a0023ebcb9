"""Score generated samples with the core scorers, off the generation thread.

GSM8K and ``arith`` go through `verifiers.gsm8k`, MATH and MATH-500 through `verifiers.math`, MBPP
through `verifiers.mbpp` (its sandboxed pool). Scoring runs in a background thread, or in a pool of
worker processes for the symbolic MATH checker, so the next chunk generates while this one is scored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

from verifiers.datasets import Problem
from verifiers.errors import ConfigError

# Which core scorer judges each dataset.
SCORER_OF = {"gsm8k": "gsm8k", "arith": "gsm8k", "math": "math", "math500": "math", "mbpp": "mbpp"}
DATASETS = tuple(SCORER_OF)

# What "follows the format" means per prompt template (format compliance metric).
_FORMAT_CHECKS: dict[str, Callable[[str], bool]] = {
    "verl": lambda r: re.search(r"####\s*\S", r) is not None,
    "boxed": lambda r: re.search(r"\\boxed\s*\{", r) is not None,
    "grail": lambda r: re.search(r"<SOLUTION>.*?\S.*?</SOLUTION>", r, re.DOTALL) is not None,
    "mbpp": lambda r: re.search(r"```(?:python|py)?\s*\n.*?```", r, re.DOTALL) is not None,
    "mbpp-grail": lambda r: re.search(r"<SOLUTION>.*?\S.*?</SOLUTION>", r, re.DOTALL) is not None,
}


def scorer_module(dataset: str) -> Any:
    """The core scorer module for a dataset (`verifiers.gsm8k`, `verifiers.math` or `verifiers.mbpp`)."""
    try:
        name = SCORER_OF[dataset]
    except KeyError:
        raise ConfigError(f"unknown dataset {dataset!r}; choose one of {', '.join(DATASETS)}") from None
    import importlib

    return importlib.import_module(f"verifiers.{name}")


def equivalence_for(dataset: str) -> Callable[[str, str], bool] | None:
    """Answer equivalence used for maj@k voting; ``None`` for code (no answer to vote on)."""
    if SCORER_OF.get(dataset) == "mbpp":
        return None
    return scorer_module(dataset).equivalent  # type: ignore[no-any-return]


def vote_equivalence(dataset: str) -> Callable[[str, str], bool] | None:
    """`equivalence_for`, falling back to exact string match if the scorer offers no ``equivalent``."""
    try:
        return equivalence_for(dataset)
    except (ImportError, AttributeError):
        return lambda a, b: a == b


def format_ok(template: str, response: str, extracted: str | None) -> bool:
    """Whether ``response`` gives its answer in the form ``template`` asks for (any answer, for ``plain``)."""
    check = _FORMAT_CHECKS.get(template)
    return check(response) if check else extracted is not None


@dataclass(frozen=True)
class ScoreJob:
    """What one sample needs to be scored (plain data, so it can cross to a worker process)."""

    response: str
    gold: str
    tests: tuple[str, ...] = ()
    setup_code: str = ""


def job_for(problem: Problem, response: str) -> ScoreJob:
    """The `ScoreJob` of a response to ``problem``."""
    return ScoreJob(response, problem.gold, tuple(problem.tests), problem.setup_code)


def score_jobs(dataset: str, preset: str, template: str, jobs: Sequence[ScoreJob],
               pool: Any = None) -> list[dict[str, Any]]:
    """Score jobs in order; a scorer crash becomes an ``error`` sample instead of aborting the run.

    ``pool`` is the `CodePool` MBPP programs run in (default: the process's default pool).

    Returns:
        Dicts with ``reward``, ``correct``, ``status``, ``extracted``, ``parts``, ``explanation``, ``format_ok``.
    """
    mod = scorer_module(dataset)
    config = _config(mod, preset)
    if SCORER_OF[dataset] == "mbpp":
        # the sandbox pool runs a chunk's programs in parallel; a pool that cannot start raises SandboxError
        scores = mod.score_batch([j.response for j in jobs], [list(j.tests) for j in jobs],
                                 [j.setup_code for j in jobs], config=config, pool=pool)
        return [s.to_dict() | {"format_ok": format_ok(template, j.response, s.extracted)}
                for j, s in zip(jobs, scores, strict=True)]
    out = []
    for job in jobs:
        try:
            row = mod.score(job.response, job.gold, config=config).to_dict()
        except Exception as e:  # noqa: BLE001 - a bad rollout is data: record it, keep its siblings going
            row = {"reward": 0.0, "correct": False, "status": "error", "extracted": None, "parts": {},
                   "explanation": f"scorer raised {type(e).__name__}: {e}"}
        row["format_ok"] = format_ok(template, job.response, row.get("extracted"))
        out.append(row)
    return out


def check_preset(dataset: str, preset: str) -> None:
    """Fail early, before any generation, if the scorer rejects ``preset``."""
    _config(scorer_module(dataset), preset)


def _config(mod: Any, preset: str) -> Any:
    cls = getattr(mod, "Config", None)
    if cls is None:
        if preset != "accuracy":
            raise ConfigError(f"{mod.__name__} has no presets; drop --preset {preset}")
        return None
    return cls(preset=preset)


class PendingScores:
    """Handle on a chunk being scored (possibly split over several worker processes)."""

    def __init__(self, parts: list[Future[list[dict[str, Any]]]]) -> None:
        self._parts = parts

    def done(self) -> bool:
        """Whether every piece has finished."""
        return all(p.done() for p in self._parts)

    def result(self) -> list[dict[str, Any]]:
        """Wait for and return the results, in job order."""
        return [r for p in self._parts for r in p.result()]


class BackgroundScorer:
    """Score chunks of jobs concurrently with generation.

    Args:
        dataset: dataset name (picks the scorer).
        preset: scorer preset (``accuracy``, ``book``, ``grail``).
        template: prompt template (for format compliance).
        workers: 0 scores in one background thread; N > 0 uses N worker processes (spawned, so it is
            safe next to CUDA and vLLM's engine processes). Code tasks always score in the thread: the
            sandbox pool is parallel already.
        sandbox: where code tasks run their programs: ``local`` (a pool on this host) or ``ray`` (sandbox
            actors spread over the Ray cluster, `CodePool(backend="ray")`).
    """

    def __init__(self, dataset: str, preset: str, template: str, workers: int = 0, *,
                 sandbox: str = "local") -> None:
        check_preset(dataset, preset)
        self.dataset, self.preset, self.template = dataset, preset, template
        self._pool: Any = None
        if SCORER_OF[dataset] == "mbpp":
            from verifiers.sandbox import CodePool

            workers = 0
            self._pool = CodePool(backend=sandbox).start() if sandbox != "local" else None
        self.workers = workers
        self._executor: Executor = (ProcessPoolExecutor(workers, mp_context=get_context("spawn")) if workers > 0
                                    else ThreadPoolExecutor(1, thread_name_prefix="verifiers-eval-score"))

    def submit(self, jobs: Sequence[ScoreJob]) -> PendingScores:
        """Start scoring ``jobs``; the handle yields one result dict per job, in order."""
        size = -(-len(jobs) // self.workers) if self.workers > 1 else max(len(jobs), 1)
        extra = (self._pool,) if self._pool is not None else ()
        return PendingScores([self._executor.submit(score_jobs, self.dataset, self.preset, self.template,
                                                    list(jobs[i : i + size]), *extra)
                              for i in range(0, len(jobs), size)])

    def close(self) -> None:
        """Wait for pending work and stop the workers (and the sandbox pool this scorer started)."""
        self._executor.shutdown(wait=True)
        if self._pool is not None:
            self._pool.close()
