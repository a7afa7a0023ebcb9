"""`Problem` (the record every dataset is read into), `CodeTests` (a code task's reference), and the helpers
that find a solution's final answer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from verifiers.answers._extract import boxes


@dataclass(frozen=True)
class Problem:
    """One dataset problem, normalized across datasets.

    Attributes:
        id: stable identifier (``gsm8k/test/0``, the MATH ``unique_id``, ``mbpp/11``).
        question: the problem text shown to the model.
        gold: the reference final answer (GSM8K: text after ``####``; MATH: final boxed answer;
            MBPP: empty, the tests are the reference).
        solution: the reference worked solution (MBPP: reference code).
        tests: MBPP assert statements; empty for math datasets.
        setup_code: MBPP test set-up code (imports), run before the tests.
        meta: extra fields kept from the source row (level, subject, ...).
    """

    id: str
    question: str
    gold: str
    solution: str = ""
    tests: tuple[str, ...] = ()
    setup_code: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CodeTests:
    """The reference of a code task: assert statements and the set-up code they need (MBPP).

    A function-completion task (HumanEval) also carries the ``prompt`` a response may continue and the
    ``entry_point`` it must define (`verifiers.humaneval.program`); both empty for MBPP.
    """

    tests: tuple[str, ...]
    setup_code: str = ""
    prompt: str = ""
    entry_point: str = ""


def gsm8k_final_answer(solution: str) -> str:
    """The text after the last ``####`` of a GSM8K solution (``""`` if there is none)."""
    _, sep, tail = solution.rpartition("####")
    return tail.strip() if sep else ""


def last_boxed(text: str) -> str | None:
    """Content of the last complete ``\\boxed{...}`` / ``\\fbox{...}`` in ``text``, or ``None``.

    An unclosed last box does not fall back to an earlier one (the scorers' own rule, `_extract.boxes`).
    """
    found, unclosed = boxes(text)
    return None if unclosed or not found else found[-1][0].strip()


MAX_STDIO_TESTS = 1_000  # tests a stdin/stdout problem may have: every one runs (a prefix would pass programs)


@dataclass(frozen=True)
class StdioTests:
    """The reference of a stdin/stdout task (`verifiers.code_stdio`): each test's input and expected output,
    and how outputs compare: a trusted ``checker`` (Python defining ``check(input, expected, output)``), a
    float tolerance, a per-test CPU limit (``None``: the scorer's)."""

    tests: tuple[tuple[str, str], ...]
    checker: str = ""
    float_tol: float | None = None
    time_limit_s: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The row schema's form (``docs/code-tasks.md``)."""
        out: dict[str, Any] = {"tests": [{"input": i, "output": o} for i, o in self.tests]}
        if self.checker:
            out["checker"] = self.checker
        if self.float_tol is not None:
            out["float_tol"] = self.float_tol
        if self.time_limit_s is not None:
            out["time_limit_s"] = self.time_limit_s
        return out
