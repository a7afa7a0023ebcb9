"""The `Score` value every scorer returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, get_args

Status = Literal["correct", "incorrect", "no_answer", "gold_unparseable", "timeout", "error"]
STATUSES: tuple[str, ...] = get_args(Status)
# A code task's verdict from the sandbox's ``ExecutionResult.status`` (MBPP, HumanEval, code_stdio alike).
PROGRAM_STATUS: Mapping[str, Status] = MappingProxyType({
    "passed": "correct", "failed": "incorrect", "syntax_error": "incorrect", "runtime_error": "incorrect",
    "memory": "incorrect", "crashed": "incorrect", "timeout": "timeout", "no_tests": "gold_unparseable",
})


@dataclass(frozen=True)
class Score:
    """Outcome of scoring one response.

    Attributes:
        reward: weighted reward the trainer optimizes (sum of ``parts`` times the preset's weights).
        correct: whether the final answer matched the gold.
        status: one of ``STATUSES``; ``no_answer``/``timeout``/``error`` are not the same as ``incorrect``.
        extracted: the final answer read from the response, normalized; ``None`` if none was found.
        parts: each reward component in [0, 1] before weighting, e.g. ``{"correctness": 1.0, "format": 0.5}``.
        explanation: one line saying why.

    Example:
        >>> from verifiers import gsm8k
        >>> gsm8k.score("... #### 18", "18").correct
        True
    """

    reward: float
    correct: bool
    status: Status
    extracted: str | None = None
    parts: dict[str, float] = field(default_factory=dict)
    explanation: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; expected one of {STATUSES}")

    def to_dict(self) -> dict[str, object]:
        """Plain-JSON form (used by CLIs and JSONL outputs)."""
        return {
            "reward": self.reward,
            "correct": self.correct,
            "status": self.status,
            "extracted": self.extracted,
            "parts": dict(self.parts),
            "explanation": self.explanation,
        }
