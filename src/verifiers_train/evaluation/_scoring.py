"""Score generated samples with the core scorers, off the generation thread.

Each dataset's scorer comes from the task registry (`verifiers.tasks`); a chunk is scored with the
scorer's own ``score_batch`` (MATH spreads its CAS checks over the core's worker pool) in one background
thread, so the next chunk generates while this one is scored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from verifiers import tasks
from verifiers.datasets import Problem
from verifiers.errors import VerifiersError
from verifiers.tasks import Reference

# What "follows the format" means per prompt template (format compliance metric).
_FORMAT_CHECKS: dict[str, Callable[[str], bool]] = {
    "verl": lambda r: re.search(r"####\s*\S", r) is not None,
    "boxed": lambda r: re.search(r"\\boxed\s*\{", r) is not None,
    "grail": lambda r: re.search(r"<SOLUTION>.*?\S.*?</SOLUTION>", r, re.DOTALL) is not None,
    "mbpp": lambda r: re.search(r"```(?:python|py)?\s*\n.*?```", r, re.DOTALL) is not None,
    "mbpp-grail": lambda r: re.search(r"<SOLUTION>.*?\S.*?</SOLUTION>", r, re.DOTALL) is not None,
}


def vote_equivalence(dataset: str) -> Callable[[str, str], bool] | None:
    """Answer equivalence for maj@k voting: ``None`` for tasks without answers to vote on (code), exact string
    match if the scorer offers no ``equivalent``."""
    spec = tasks.get(dataset)
    if not spec.reference.votes:
        return None
    equivalent: Callable[[str, str], bool] | None = getattr(spec.scorer(), "equivalent", None)
    return equivalent or (lambda a, b: a == b)


def format_ok(template: str, response: str, extracted: str | None) -> bool:
    """Whether ``response`` gives its answer in the form ``template`` asks for (any answer, for ``plain``)."""
    check = _FORMAT_CHECKS.get(template)
    return check(response) if check else extracted is not None


@dataclass(frozen=True)
class ScoreJob:
    """What one sample needs to be scored: the response and its reference (a gold answer, or `CodeTests`)."""

    response: str
    reference: Reference


def job_for(problem: Problem, response: str, dataset: str) -> ScoreJob:
    """The `ScoreJob` of a response to ``problem`` of ``dataset``."""
    return ScoreJob(response, tasks.get(dataset).reference.of(problem))


def score_jobs(dataset: str, preset: str, template: str, jobs: Sequence[ScoreJob],
               workers: int | None = None, pool: Any = None) -> list[dict[str, Any]]:
    """Score jobs in order with the scorer's ``score_batch``; a scorer crash becomes an ``error`` sample
    instead of aborting the run. ``pool``: the `CodePool` a code task's programs run in (default: the
    process's default pool).

    Returns:
        Dicts with ``reward``, ``correct``, ``status``, ``extracted``, ``parts``, ``explanation``, ``format_ok``.
    """
    spec = tasks.get(dataset)
    scorer = spec.scorer()
    config = scorer_config(dataset, preset)
    responses, references = [j.response for j in jobs], [j.reference for j in jobs]
    try:
        extra = {"pool": pool} if pool is not None else {}
        rows = [s.to_dict() for s in scorer.score_batch(responses, references, workers=workers, config=config,
                                                        **extra)]
    except VerifiersError:  # bad settings, or a sandbox that cannot start: the run cannot go on
        raise
    except Exception:  # noqa: BLE001 - a scorer bug on some rollout: score one by one to find it, keep the rest
        rows = [_score_one(scorer, j, config) for j in jobs]
    for row, job in zip(rows, jobs, strict=True):
        extracted = row.get("extracted")
        row["format_ok"] = format_ok(template, job.response, extracted if isinstance(extracted, str) else None)
    return rows


def _score_one(scorer: tasks.Scorer, job: ScoreJob, config: Any) -> dict[str, Any]:
    try:
        return scorer.score(job.response, job.reference, config=config).to_dict()
    except Exception as e:  # noqa: BLE001 - a bad rollout is data: record it, keep its siblings going
        return {"reward": 0.0, "correct": False, "status": "error", "extracted": None, "parts": {},
                "explanation": f"scorer raised {type(e).__name__}: {e}"}


def scorer_config(dataset: str, preset: str) -> Any:
    """The scorer ``Config`` for ``preset``; `ConfigError` before any generation if the scorer rejects it."""
    return tasks.get(dataset).scorer().Config(preset=preset)


class BackgroundScorer:
    """Score chunks of jobs concurrently with generation, in one background thread.

    Args:
        dataset: dataset name (picks the scorer).
        preset: scorer preset (``accuracy``, ``book``, ``grail``).
        template: prompt template (for format compliance).
        workers: the scorer's ``score_batch`` parallelism (``None``: its own choice; MATH adds threads
            over the core's CAS worker processes while they are the bottleneck).
        sandbox: where a code task's programs run: ``local`` (the default pool on this host) or ``ray``
            (sandbox actors spread over the Ray cluster, `CodePool(backend="ray")`).
    """

    def __init__(self, dataset: str, preset: str, template: str, workers: int | None = None, *,
                 sandbox: str = "local") -> None:
        scorer_config(dataset, preset)
        self.dataset, self.preset, self.template = dataset, preset, template
        self.workers = workers
        self._pool: Any = None
        if sandbox != "local" and isinstance(tasks.get(dataset).reference, tasks.TestsReference):
            from verifiers.sandbox import CodePool

            self._pool = CodePool(backend=sandbox).start()
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="verifiers-eval-score")

    def submit(self, jobs: Sequence[ScoreJob]) -> Future[list[dict[str, Any]]]:
        """Start scoring ``jobs``; the future yields one result dict per job, in order."""
        return self._executor.submit(score_jobs, self.dataset, self.preset, self.template, list(jobs), self.workers,
                                     self._pool)

    def close(self) -> None:
        """Wait for pending work and stop the thread (and the sandbox pool this scorer started)."""
        self._executor.shutdown(wait=True)
        if self._pool is not None:
            self._pool.close()
