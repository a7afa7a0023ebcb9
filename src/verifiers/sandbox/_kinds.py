"""The judge contract every kind of test plugs into (`JudgeKind`), and the kinds registered on it (`KINDS`).

A kind is two steps, each checkable on its own:

1. ``prepare(code, spec)``: a task's tests for one program, as one work item per test: what the child runs,
   built from the program-side part of the test only (never an expected value), and what the parent keeps
   to decide the test.
2. ``decide(item, ran)``: that test's `TestOutcome`, computed in this process from what the child returned
   (untrusted, already decoded and validated by `_result` or `_stdio.run_result`) and the parent's part.

Registered kinds:

* ``asserts`` (MBPP): assert statements and set-up code; an item is a `TestPlan` (`_judge` splits each
  assert into program-side leaves, the child computes them, `_evaluate` decides in the parent).
* ``check_function`` (HumanEval): ``check(candidate)`` test code compiled to flat asserts
  (`verifiers.humaneval.compile_check`), then ``asserts``.
* ``expected_output`` (EvalPlus): inputs and expected outputs compiled to asserts (`_expected`), then
  ``asserts``.
* ``stdio``: one run per test with its input on stdin; the output compared here (`_stdio.StdioKind`).

A kind that compiles to asserts adds no rule of its own to what reaches the child or how it is decided:
its guarantees are those of ``asserts``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from verifiers.sandbox._expected import expected_output_tests
from verifiers.sandbox._judge import plan_tests
from verifiers.sandbox._leaves import LeafResults, TestPlan
from verifiers.sandbox._result import TestOutcome, assert_outcome
from verifiers.sandbox._stdio import STDIO

SpecT_contra = TypeVar("SpecT_contra", contravariant=True)
ItemT = TypeVar("ItemT")
RanT_contra = TypeVar("RanT_contra", contravariant=True)


@runtime_checkable
class JudgeKind(Protocol[SpecT_contra, ItemT, RanT_contra]):
    """One kind of test on the judge: ``prepare`` what the child runs, ``decide`` each test in the parent."""

    name: str

    def prepare(self, code: str, spec: SpecT_contra) -> list[ItemT]:
        """One work item per test of ``spec`` for the program ``code``."""
        ...

    def decide(self, item: ItemT, ran: RanT_contra) -> TestOutcome:
        """The test's verdict from what the child returned for it."""
        ...


@dataclass(frozen=True)
class AssertTests:
    """Assert statements over the program's names, and the set-up code they read (MBPP's shape)."""

    tests: tuple[str, ...]
    setup_code: str = ""


@dataclass(frozen=True)
class CheckFunction:
    """HumanEval's shape: test code defining ``check(candidate)``, the prompt, and the entry point."""

    test: str
    prompt: str
    entry_point: str


@dataclass(frozen=True)
class ExpectedOutputs:
    """EvalPlus's shape: one argument list and one expected value per test (see `_expected`)."""

    entry_point: str
    inputs: Sequence[Sequence[Any]]
    outputs: Sequence[Any]
    atol: float = 0.0


class AssertKind:
    """Assert statements: each planned into parent-side logic over program-side leaves (`_judge`)."""

    name = "asserts"

    def prepare(self, code: str, spec: AssertTests) -> list[TestPlan]:
        """The program's `TestPlan` s (one judge work budget across them); the child gets their leaves."""
        return plan_tests(code, list(spec.tests), spec.setup_code)

    def decide(self, item: TestPlan, ran: LeafResults) -> TestOutcome:
        """`_result.assert_outcome`: the plan's tree evaluated here over the leaves' decoded values."""
        return assert_outcome(item, ran)


ASSERTS = AssertKind()


class CheckFunctionKind:
    """HumanEval's ``check(candidate)``, compiled to asserts the ``asserts`` kind judges."""

    name = "check_function"

    @staticmethod
    def asserts(spec: CheckFunction) -> AssertTests:
        """The flat asserts and set-up code of ``spec`` (raises `verifiers.humaneval.CheckShapeError`)."""
        from verifiers.humaneval import compile_check  # a task module: imported when this kind is used

        compiled = compile_check(spec.test, spec.prompt, spec.entry_point)
        return AssertTests(tuple(compiled.tests), compiled.setup_code)

    def prepare(self, code: str, spec: CheckFunction) -> list[TestPlan]:
        return ASSERTS.prepare(code, self.asserts(spec))

    def decide(self, item: TestPlan, ran: LeafResults) -> TestOutcome:
        return ASSERTS.decide(item, ran)


class ExpectedOutputKind:
    """Inputs and expected outputs of a function (EvalPlus), compiled to asserts the ``asserts`` kind judges."""

    name = "expected_output"

    @staticmethod
    def asserts(spec: ExpectedOutputs) -> AssertTests:
        """`_expected.expected_output_tests` of ``spec`` (raises `ConfigError` for bad input)."""
        return AssertTests(tuple(expected_output_tests(spec.entry_point, spec.inputs, spec.outputs, spec.atol)))

    def prepare(self, code: str, spec: ExpectedOutputs) -> list[TestPlan]:
        return ASSERTS.prepare(code, self.asserts(spec))

    def decide(self, item: TestPlan, ran: LeafResults) -> TestOutcome:
        return ASSERTS.decide(item, ran)


KINDS: dict[str, JudgeKind[Any, Any, Any]] = {
    k.name: k for k in (ASSERTS, CheckFunctionKind(), ExpectedOutputKind(), STDIO)
}
