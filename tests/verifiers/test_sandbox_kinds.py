"""The judge contract (`_kinds.JudgeKind`): every registered kind prepares what the child runs without the
expected side, and decides each test in the parent from what the child returned."""

from __future__ import annotations

from verifiers.sandbox import OutputMatch, StdioTest
from verifiers.sandbox._kinds import (
    KINDS,
    AssertTests,
    CheckFunction,
    ExpectedOutputs,
    JudgeKind,
)
from verifiers.sandbox._leaves import LeafResults
from verifiers.sandbox._result import ExecutionResult
from verifiers.sandbox._stdio import StdioTests

CHECK = "def check(candidate):\n    for x in range(3):\n        assert candidate(x) == x * 31337\n"


def test_the_registered_kinds() -> None:
    assert sorted(KINDS) == ["asserts", "check_function", "expected_output", "stdio"]
    assert all(isinstance(k, JudgeKind) and k.name == name for name, k in KINDS.items())


def _wire(plans: list) -> str:
    return repr([leaf.wire() for p in plans for leaf in p.leaves])


def test_assert_kinds_send_only_the_program_side_and_decide_here() -> None:
    specs = {
        "asserts": AssertTests(("assert f(1) == 31337", "assert f(2) == 62674")),
        "check_function": CheckFunction(CHECK, "def f(x):\n    pass\n", "f"),
        "expected_output": ExpectedOutputs("f", [[1], [2]], [31337, 62674]),
    }
    for name, spec in specs.items():
        kind = KINDS[name]
        plans = kind.prepare("def f(x):\n    return x * 31337\n", spec)
        assert plans and all(p.error is None for p in plans), name
        assert "31337" not in _wire(plans) and "62674" not in _wire(plans), name
        first = plans[0].leaves[0].index
        x = 0 if name == "check_function" else 1
        right = kind.decide(plans[0], LeafResults({first: x * 31337}, {}))
        wrong = kind.decide(plans[0], LeafResults({first: x * 31337 + 1}, {}))
        raised = kind.decide(plans[0], LeafResults({}, {first: "raised ValueError: no"}))
        missing = kind.decide(plans[0], LeafResults({}, {}, "SyntaxError: bad"))
        assert (right.status, wrong.status, raised.status, missing.status) == (
            "passed", "failed", "error", "not_run"), name
        assert missing.detail == "SyntaxError: bad"


def test_the_stdio_kind_sends_only_stdin_and_compares_here() -> None:
    kind = KINDS["stdio"]
    runs = kind.prepare("print(input())", StdioTests((StdioTest("1 2\n", "3\n"), StdioTest("x", "1.0")),
                                                      OutputMatch(float_tol=1e-3)))
    assert [r.stdin for r in runs] == [b"1 2\n", b"x"]
    assert [r.label for r in runs] == ["test 1 (stdin 4 bytes)", "test 2 (stdin 1 bytes)"]

    def ran(out: str, status: str = "passed") -> ExecutionResult:
        return ExecutionResult(status == "passed", status, 0, 0, stdout=out, detail="" if status == "passed" else "why")  # type: ignore[arg-type]

    assert kind.decide(runs[0], ran("3")).status == "passed"
    assert kind.decide(runs[0], ran("4")).status == "failed"
    assert kind.decide(runs[1], ran("1.0005\n")).status == "passed"  # the float tolerance is the parent's
    assert (kind.decide(runs[0], ran("3", "timeout")).status, kind.decide(runs[0], ran("", "timeout")).detail) == (
        "error", "why")
