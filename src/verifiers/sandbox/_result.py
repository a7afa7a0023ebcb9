"""`ExecutionResult` and how the parent builds it from a worker's (untrusted) report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from verifiers.sandbox._judge import TestPlan, judge
from verifiers.sandbox._protocol import (
    ProtocolError,
    ValueRejected,
    decode_value,
    loads_untrusted,
    split_frames,
)

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
        }


def no_tests_result(tests: list[str]) -> ExecutionResult:
    """Result for a program given no tests: never a pass."""
    return ExecutionResult(False, "no_tests", 0, len(tests), detail="no tests to run; zero tests is never a pass")


def failed_result(plans: list[TestPlan], status: ExecStatus, detail: str, duration: float = 0.0) -> ExecutionResult:
    """Every test not run (timeouts the parent enforced, workers that died)."""
    per = tuple(TestOutcome(p.source, "not_run", detail) for p in plans)
    return ExecutionResult(False, status, 0, len(plans), per, duration_s=duration, detail=detail)


def build_result(plans: list[TestPlan], header: dict[str, Any], blob: bytes) -> ExecutionResult:
    """Judge a program from the worker's header and the child's raw frames (all untrusted)."""
    values: dict[int, Any] = {}
    errors: dict[int, str] = {}
    syntax = runtime = None
    done = memory = False
    for raw in split_frames(blob):
        try:
            fr = loads_untrusted(raw)
        except ProtocolError:
            continue
        if type(fr) is not list or not fr or type(fr[0]) is not str:
            continue
        tag = fr[0]
        if tag in ("v", "e") and len(fr) == 3 and type(fr[1]) is int:
            k = fr[1]
            if k in values or k in errors:  # first report wins: independent leaves arrive before the program runs
                continue
            if tag == "v":
                try:
                    values[k] = decode_value(fr[2])
                except ValueRejected as exc:
                    errors[k] = f"returned an unsupported value ({exc})"
            else:
                msg = str(fr[2])[:400]
                errors[k] = f"raised {msg}"
                memory = memory or msg.startswith("MemoryError")
        elif tag == "syntax" and len(fr) == 2 and syntax is None and runtime is None:
            syntax = str(fr[1])[:400]
        elif tag == "rt" and len(fr) == 2 and runtime is None and syntax is None:
            runtime = str(fr[1])[:400]
            memory = memory or runtime.startswith("MemoryError")
        elif tag == "done":
            done = True
            break
    per: list[TestOutcome] = []
    for p in plans:
        ok, why = judge(p, values, errors)
        if ok:
            per.append(TestOutcome(p.source, "passed"))
        elif any(leaf.index not in values and leaf.index not in errors for leaf in p.leaves):
            per.append(TestOutcome(p.source, "not_run", syntax or runtime or why))
        else:
            per.append(TestOutcome(p.source, "error" if why.startswith("raised") else "failed", why))
    n_ok = sum(t.status == "passed" for t in per)
    sig = int(header.get("signal") or 0) if type(header.get("signal")) is int else 0
    status: ExecStatus
    if syntax is not None:
        status, detail = "syntax_error", syntax
    elif header.get("timed_out") is True or sig == 24:
        status, detail = "timeout", "time limit exceeded" + (" (CPU)" if sig == 24 else "")
    elif header.get("overflow") is True:
        status, detail = "runtime_error", "the program's results exceeded the size limit"
    elif runtime is not None:
        status, detail = ("memory" if memory else "runtime_error"), runtime
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
    passed = status == "passed"
    return ExecutionResult(
        passed=passed,
        status=status,
        tests_passed=n_ok,
        tests_total=len(plans),
        per_test=tuple(per),
        stdout=str(header.get("stdout", ""))[:1 << 20],
        stderr=str(header.get("stderr", ""))[:1 << 20],
        duration_s=float(header["duration"]) if type(header.get("duration")) is float else 0.0,
        detail=detail,
    )
