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

_NO_PARTS: dict[str, float] = {}  # the default of ``parts``: a fresh dict each time, never this one


@dataclass(frozen=True, init=False)
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

    def __init__(self, reward: float, correct: bool, status: Status, extracted: str | None = None,
                 parts: dict[str, float] = _NO_PARTS, explanation: str = "") -> None:
        # written out: the generated frozen-dataclass __init__ (one object.__setattr__ a field) costs twice the
        # instructions, ~5,000 of a GSM8K verdict's ~39,000
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}; expected one of {STATUSES}")
        fields = self.__dict__
        fields["reward"] = reward
        fields["correct"] = correct
        fields["status"] = status
        fields["extracted"] = extracted
        fields["parts"] = {} if parts is _NO_PARTS else parts
        fields["explanation"] = explanation

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
