"""`ExecutionResult` and how the parent builds it from a program's (untrusted) frames and its zygote's report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from verifiers.sandbox._evaluate import judge
from verifiers.sandbox._leaves import LeafResults, TestPlan, Wrapped
from verifiers.sandbox._protocol import (
    MAX_VALUE_NODES,
    ProtocolError,
    ValueRejected,
    decode_value,
    loads_untrusted,
    split_frames,
)

MAX_CHILD_FRAME_BYTES = 1024 * 1024  # one leaf's value, as the child encodes it

ExecStatus = Literal["passed", "failed", "timeout", "memory", "syntax_error", "runtime_error", "crashed", "no_tests"]
TestStatus = Literal["passed", "failed", "error", "not_run"]

_SIGNALS = {4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 24: "SIGXCPU",
            25: "SIGXFSZ", 31: "SIGSYS"}


@dataclass(frozen=True)
class TestOutcome:
    """Verdict for one test: ``status`` is ``passed``, ``failed`` (assert false), ``error`` (raised) or ``not_run``."""

    test: str
    status: TestStatus
    detail: str = ""


@dataclass(frozen=True)
class ExecutionResult:
    """Outcome of running one program against its tests.

    Attributes:
        passed: all tests passed and at least one ran.
        status: ``passed``, ``failed``, ``timeout``, ``memory``, ``syntax_error``, ``runtime_error``,
            ``crashed`` or ``no_tests``.
        tests_passed: number of tests judged passed (in the parent).
        tests_total: number of tests given.
        per_test: one `TestOutcome` per test, in order.
        stdout: the program's standard output, truncated.
        stderr: its standard error, truncated.
        duration_s: wall time of the program's child process.
        cpu_s: its CPU time (all its processes): what the time limit counts.
        detail: one line saying why (error message, signal, limit hit).
    """

    passed: bool
    status: ExecStatus
    tests_passed: int
    tests_total: int
    per_test: tuple[TestOutcome, ...] = ()
    stdout: str = ""
    stderr: str = ""
    duration_s: float = 0.0
    detail: str = ""
    cpu_s: float = 0.0

    @property
    def pass_rate(self) -> float:
        """Fraction of tests passed (0.0 when there are no tests)."""
        return self.tests_passed / self.tests_total if self.tests_total else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form."""
        return {
            "passed": self.passed, "status": self.status, "tests_passed": self.tests_passed,
            "tests_total": self.tests_total,
            "per_test": [{"test": t.test, "status": t.status, "detail": t.detail} for t in self.per_test],
            "stdout": self.stdout, "stderr": self.stderr, "duration_s": self.duration_s, "detail": self.detail,
            "cpu_s": self.cpu_s,
        }


def no_tests_result(tests: list[str]) -> ExecutionResult:
    """Result for a program given no tests: never a pass."""
    return ExecutionResult(False, "no_tests", 0, len(tests), detail="no tests to run; zero tests is never a pass")


def failed_result(plans: list[TestPlan], status: ExecStatus, detail: str, duration: float = 0.0,
                  cpu: float = 0.0) -> ExecutionResult:
    """Every test not run (timeouts the parent enforced, workers that died)."""
    per = tuple(TestOutcome(p.source, "not_run", detail) for p in plans)
    return ExecutionResult(False, status, 0, len(plans), per, duration_s=duration, cpu_s=cpu, detail=detail)


@dataclass(frozen=True)
class ChildReport:
    """What the parent knows about one finished program: the zygote's report and the child's raw output.

    Attributes:
        code: exit status (negative: killed by that signal).
        timed_out: the zygote killed it at its deadline (or the parent did, later).
        duration: wall time from fork to reap, in the zygote.
        cpu: CPU seconds (user + system) of the child and the processes of its program that ended.
        setup: the child completed its isolation set-up (False: it failed before the program ran).
        frames: the bytes the child wrote on its channel (at most the result budget).
        overflow: the child tried to write more than that budget.
        stdout, stderr: captured output (already truncated) and whether it was.
        oom: the sandbox's cgroup recorded an out-of-memory kill during the program.
    """

    code: int
    timed_out: bool
    duration: float
    setup: bool
    frames: bytes
    cpu: float = 0.0
    overflow: bool = False
    stdout: str = ""
    stderr: str = ""
    oom: bool = False


class Violation(Exception):
    """The child's frames break the protocol (a frame not asked for, out of order, oversize, malformed)."""


def _leaf_frames(plans: list[TestPlan], blob: bytes) -> tuple[dict[int, Any], dict[int, str], str | None, bool, bool]:
    """Validate and decode the child's frames: ``(values, errors, failure, failure_is_syntax, done)``.

    Exactly one ``v``/``w``/``e`` frame per requested leaf, in order (``w`` only for leaves with a wrap); or one ``syntax``/``rt`` frame before any
    leaf; then ``done``; nothing after it. A truncated tail (the child was killed mid-write) just ends the
    stream. Raises `Violation` for anything else. One node budget covers all values of the program.
    """
    wanted = [leaf.index for p in plans for leaf in p.leaves]
    wraps = {leaf.index: leaf.wrap for p in plans for leaf in p.leaves}
    raws, tail = split_frames(blob, MAX_CHILD_FRAME_BYTES)
    if tail == "oversize":
        raise Violation("a frame longer than the per-frame limit")
    values: dict[int, Any] = {}
    errors: dict[int, str] = {}
    failure: str | None = None
    syntax = done = False
    budget = [MAX_VALUE_NODES]
    i = 0
    for raw in raws:
        try:  # each frame on its own: one JSON value may never span frames (each is at most MAX_CHILD_FRAME_BYTES)
            fr = loads_untrusted(raw)
        except ProtocolError as exc:
            raise Violation(str(exc)) from None
        if done:
            raise Violation("a frame after the end of the results")
        if type(fr) is not list or not fr or type(fr[0]) is not str:
            raise Violation("a frame that is not a tagged list")
        tag = fr[0]
        if tag in ("v", "w", "e") and len(fr) == 3 and failure is None:
            if i >= len(wanted) or fr[1] != wanted[i] or type(fr[1]) is not int:
                raise Violation(f"a result for leaf {str(fr[1])[:20]} where leaf "
                                f"{wanted[i] if i < len(wanted) else 'none'} was due")
            k = wanted[i]
            i += 1
            if tag == "e":
                errors[k] = "raised " + str(fr[2])[:400]
                continue
            if tag == "w" and wraps.get(k) is None:
                raise Violation(f"a wrapped result for leaf {k}, which has no judge call around it")
            try:
                value = decode_value(fr[2], budget)
                values[k] = Wrapped(value) if tag == "w" else value
            except ValueRejected as exc:
                errors[k] = f"returned an unsupported value ({exc})"
        elif tag in ("syntax", "rt") and len(fr) == 2 and i == 0 and failure is None:
            failure, syntax = str(fr[1])[:400], tag == "syntax"
        elif tag == "done" and len(fr) == 1 and (failure is not None or i == len(wanted)):
            done = True
        else:
            raise Violation(f"an unexpected {str(tag)[:20]!r} frame")
    return values, errors, failure, syntax, done


def assert_outcome(plan: TestPlan, ran: LeafResults) -> TestOutcome:
    """One assert test's verdict from its leaves' results (`_evaluate.judge` decides; a leaf the child did
    not report makes it ``not_run``)."""
    ok, why = judge(plan, ran.values, ran.errors)
    if ok:
        return TestOutcome(plan.source, "passed")
    if any(leaf.index not in ran.values and leaf.index not in ran.errors for leaf in plan.leaves):
        return TestOutcome(plan.source, "not_run", ran.failure or why)
    return TestOutcome(plan.source, "error" if why.startswith("raised") else "failed", why)


def build_result(plans: list[TestPlan], report: ChildReport, timeout: float) -> tuple[ExecutionResult, str | None]:
    """Judge a program from its child's report: ``(result, violation or None)`` (all child data untrusted).

    A protocol violation fails the program (``runtime_error``) and is returned so the caller recycles
    the sandbox; verdicts come only from parent-side evaluation of the decoded leaf values.
    """
    violation = None
    values: dict[int, Any] = {}
    errors: dict[int, str] = {}
    failure: str | None = None
    syntax = done = False
    if not report.overflow:  # an overflowing stream was cut at the budget: nothing in it is judged
        try:
            values, errors, failure, syntax, done = _leaf_frames(plans, report.frames)
        except Violation as exc:
            violation = str(exc)
    ran = LeafResults(values, errors, failure or violation)
    per = [assert_outcome(p, ran) for p in plans]
    n_ok = sum(t.status == "passed" for t in per)
    memory = report.oom or any(e.startswith("raised MemoryError") for e in errors.values()) or (
        failure is not None and failure.startswith("MemoryError"))
    sig = -report.code if report.code < 0 else 0
    status: ExecStatus
    if violation is not None:
        status, detail = "runtime_error", f"sandbox protocol violation: {violation}"
        n_ok, per = 0, [TestOutcome(p.source, "not_run", detail) for p in plans]
    elif report.overflow:
        status, detail = "runtime_error", "the program's results exceeded the size limit"
    elif syntax:
        status, detail = "syntax_error", failure or ""
    elif sig == 24 or report.cpu > timeout:
        status, detail = "timeout", f"time limit exceeded ({report.cpu:.1f} s of CPU, limit {timeout:g} s)"
    elif report.timed_out:
        status, detail = "timeout", (f"wall-time backstop exceeded after {report.duration:.1f} s with "
                                     f"{report.cpu:.1f} s of CPU (the program slept or waited)")
    elif report.oom and not done:
        status, detail = "memory", "out of memory (the sandbox's memory limit killed the program)"
    elif failure is not None:
        status, detail = ("memory" if memory else "runtime_error"), failure
    elif done and n_ok == len(plans) and plans:
        status, detail = "passed", ""
    elif done:
        status = "memory" if memory else "failed"
        detail = next((t.detail for t in per if t.status != "passed"), "")
    elif sig == 25:
        status, detail = "runtime_error", "output file size limit exceeded (SIGXFSZ)"
    elif sig:
        status, detail = "crashed", f"killed by signal {_SIGNALS.get(sig, sig)}"
    else:
        status, detail = "runtime_error", "the program exited before the tests finished"
    result = ExecutionResult(
        passed=status == "passed",
        status=status,
        tests_passed=n_ok,
        tests_total=len(plans),
        per_test=tuple(per),
        stdout=report.stdout,
        stderr=report.stderr,
        duration_s=report.duration,
        detail=detail,
        cpu_s=report.cpu,
    )
    return result, violation
