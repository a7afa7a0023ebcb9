"""One row of ``samples.jsonl`` (its keys spelled out once) and the step that ends every evaluation:
metrics from the saved rows, ``metrics.json`` and the report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from verifiers.datasets import Problem
from verifiers_train.evaluation._metrics import accuracy_by, compute_metrics
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.evaluation._scoring import vote_equivalence


class SampleRow(TypedDict, total=False):
    """One sample: what generation wrote, then what scoring added (`Score.to_dict` plus ``format_ok``)."""

    problem_id: str
    sample_index: int
    seed: int
    prompt: str
    response: str
    gold: str
    response_tokens: int
    finish_reason: str
    level: Any
    reward: float
    correct: bool
    status: str
    extracted: str | None
    parts: dict[str, float]
    explanation: str
    format_ok: bool


# The generation side of a row: what rescoring keeps from its input (the scores are replaced).
GENERATION_KEYS = ("problem_id", "sample_index", "seed", "prompt", "response", "gold", "response_tokens",
                   "finish_reason", "level")


def sample_row(problem: Problem, sample_index: int, seed: int, prompt: str, response: str, response_tokens: int,
               finish_reason: str) -> SampleRow:
    """The generation side of one sample of ``problem`` (scores are added when its chunk is scored)."""
    row = SampleRow(problem_id=problem.id, sample_index=sample_index, seed=seed, prompt=prompt, response=response,
                    gold=problem.gold, response_tokens=response_tokens, finish_reason=finish_reason)
    if "level" in problem.meta:
        row["level"] = problem.meta["level"]
    return row


def finish_run(run: RunDir, config: Mapping[str, Any], samples: Sequence[Mapping[str, Any]], dataset: str, *,
               report: bool, seed: int = 0, timing: Mapping[str, float] | None = None,
               extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Summarize a run's scored samples: metrics (plus ``extra``) into ``metrics.json``, and the report.

    Returns:
        The metrics written.
    """
    metrics = compute_metrics(samples, equivalent=vote_equivalence(dataset), timing=timing, seed=seed)
    metrics.update(extra or {})
    metrics["by_level"] = accuracy_by(samples, "level")
    run.write_metrics(metrics)
    if report:
        from verifiers_train.evaluation._report import write_report

        write_report(run.path, dict(config), metrics, list(samples))
    return metrics
