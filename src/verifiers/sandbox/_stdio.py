"""stdin/stdout programs: their tests, one run's verdict, output comparison in the parent, a problem's runs.

Each test is its own job: the warm zygote forks a child that runs the program as ``__main__`` with the
test's input on fd 0 (a memfd the parent filled) and its stdout in a memfd the parent reads, cut at the
pool's ``max_stdio_output_bytes`` (RLIMIT_FSIZE stops a program that writes more). The expected output never
leaves this process for the program's run: `compare_output` judges here; a dataset checker runs sandboxed
as a run of its own (`CHECKER_HARNESS`: the checker's source, with input, expected and the program's output
on its stdin), only its one-byte verdict read.
"""

from __future__ import annotations

import marshal
import math
import re
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import Protocol

from verifiers.errors import ConfigError
from verifiers.sandbox._protocol import ProtocolError, encode_frame, loads_untrusted, split_frames
from verifiers.sandbox._result import ChildReport, ExecStatus, ExecutionResult, TestOutcome, TestStatus

MAX_STDIN_BYTES = 64 * 1024 * 1024  # one test's input (it travels in a memfd, not in a frame)
MAX_STDIO_FRAME = 4096  # a child's one verdict frame (``["ok"]``, ``["rt", msg]``, ``["syntax", msg]``)
FLOAT_TOKEN_CHARS = 64  # longer tokens are compared exactly (no float parse of a gigantic token)
_FLOAT = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
# A dataset checker's run: its source, then a call of its `check` on (input, expected, output) read from
# stdin (marshal: the parent's own data); its own prints go to stderr, its verdict alone to stdout.
CHECKER_HARNESS = """{checker}


def __verifiers_check():
    import marshal, os, sys
    data = marshal.loads(sys.stdin.buffer.read())
    stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        ok = bool(check(*data))
    finally:
        sys.stdout = stdout
    os.write(1, b"1" if ok else b"0")


__verifiers_check()
"""
_SIGNALS = {6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL", 11: "SIGSEGV", 31: "SIGSYS"}


@dataclass(frozen=True)
class StdioTest:
    """One stdin/stdout test: the program's standard input and the expected standard output."""

    input: str
    output: str


@dataclass(frozen=True)
class OutputMatch:
    """How the parent compares a program's stdout with the expected output.

    Default: whitespace-separated tokens (any ASCII whitespace, so ``\\r\\n``, trailing spaces and blank
    lines do not matter), each equal byte for byte. ``float_tol``: two tokens that are both plain decimal
    numbers are equal when ``|a - b| <= float_tol * max(1, |b|)`` (b the expected one). ``checker``: Python
    source of a trusted dataset checker defining ``check(input: str, expected: str, output: str) -> bool``,
    run sandboxed as a run of its own (`CHECKER_HARNESS`); only its verdict is read; when set it replaces
    token comparison.
    """

    float_tol: float | None = None
    checker: str | None = None


@dataclass(frozen=True)
class StdioTests:
    """A stdin/stdout task's tests for one program: the `StdioTest` s and how outputs are compared."""

    tests: tuple[StdioTest, ...]
    match: OutputMatch = OutputMatch()


@dataclass(frozen=True)
class StdioRun:
    """One test as the stdio kind runs it: ``stdin``, the only part the child receives, and what the parent
    keeps to decide it (``label``, ``expected`` output, ``float_tol``)."""

    label: str
    stdin: bytes
    expected: str
    float_tol: float | None


class StdioKind:
    """stdin/stdout tests on the judge contract (`_kinds.JudgeKind`): each test a run of the program as
    ``__main__`` with the test's input on stdin; its output compared here (`compare_output`).

    A test whose `OutputMatch` has a checker is decided by the checker's own sandboxed run
    (`StdioProblem`), not by `decide`.
    """

    name = "stdio"

    def prepare(self, code: str, spec: StdioTests) -> list[StdioRun]:
        """One `StdioRun` per test (the program is the same for every run)."""
        inputs = [t.input.encode("utf-8", "surrogatepass") for t in spec.tests]
        return [StdioRun(f"test {i + 1} (stdin {len(b)} bytes)", b, t.output, spec.match.float_tol)
                for i, (t, b) in enumerate(zip(spec.tests, inputs))]

    def decide(self, item: StdioRun, ran: ExecutionResult) -> TestOutcome:
        """The test's verdict from its run's record (`run_result`): an ``error`` when the program did not end
        normally, else its output against the expected one."""
        if ran.status != "passed":
            return TestOutcome(item.label, "error", ran.detail)
        why = compare_output(item.expected, run_output(ran), item.float_tol)
        return TestOutcome(item.label, "passed" if why is None else "failed", why or "")


STDIO = StdioKind()


class StdioRunner(Protocol):
    """What a problem's runs go through: the pool (`_local.LocalPool`)."""

    def submit_run(self, code: str, stdin: bytes, timeout: float) -> Future[ExecutionResult]:
        """One run of a stdin/stdout program (the future resolves to `run_result`'s record)."""
        ...



def stdio_request(code: str, file_limit: int) -> bytes:
    """The request frame of one run: the program and its RLIMIT_FSIZE (the output cap + 1); no test data."""
    return encode_frame(marshal.dumps((code, file_limit)))


def check_stdio_args(code: object, tests: object, match: object, timeout_s: object, total_timeout_s: object,
                     stop_on_failure: object) -> tuple[list[StdioTest], OutputMatch]:
    """Validate `submit_stdio`'s arguments: ``(tests, match)``, or `ConfigError` saying what is wrong."""
    if not isinstance(code, str):
        raise ConfigError(f"code must be str, got {type(code).__name__}")
    if isinstance(tests, (str, bytes)) or not isinstance(tests, Sequence):
        raise ConfigError("tests must be a sequence of StdioTest")
    out: list[StdioTest] = []
    for i, t in enumerate(tests):
        if not isinstance(t, StdioTest) or not isinstance(t.input, str) or not isinstance(t.output, str):
            raise ConfigError(f"tests[{i}] must be a StdioTest with str input and output, got {type(t).__name__}")
        if len(t.input) > MAX_STDIN_BYTES:
            raise ConfigError(f"tests[{i}].input is longer than {MAX_STDIN_BYTES} characters")
        out.append(t)
    m = OutputMatch() if match is None else match
    if not isinstance(m, OutputMatch):
        raise ConfigError(f"match must be an OutputMatch, got {type(m).__name__}")
    if m.float_tol is not None and (isinstance(m.float_tol, bool) or not isinstance(m.float_tol, (int, float))
                                    or not math.isfinite(m.float_tol) or m.float_tol < 0):
        raise ConfigError(f"match.float_tol must be a finite number >= 0, got {m.float_tol!r}")
    if m.checker is not None and not isinstance(m.checker, str):
        raise ConfigError(f"match.checker must be Python source (str), got {type(m.checker).__name__}")
    for name, v in (("timeout_s", timeout_s), ("total_timeout_s", total_timeout_s)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0
                              or not math.isfinite(v)):
            raise ConfigError(f"{name} must be a number > 0, got {v!r}")
    if stop_on_failure not in (True, False):
        raise ConfigError(f"stop_on_failure must be True or False, got {stop_on_failure!r}")
    return out, m


# ------------------------------------------------------------------------------------------ one run
def run_result(report: ChildReport, out: bytes, size: int, cap: int,
               timeout: float) -> tuple[ExecutionResult, str | None]:
    """One run's record from its (untrusted) child: ``(record, protocol violation or None)``.

    The record is an `ExecutionResult` without tests: ``status`` ``passed`` means the program ended
    normally (its output still to be compared), and `run_output` gives its output bytes exactly. Any other
    status says why it did not.
    """
    violation = None
    frame: list[object] = []
    raws, tail = split_frames(report.frames, MAX_STDIO_FRAME)
    if report.overflow or tail == "oversize" or len(raws) > 1:
        violation = "more than one verdict frame"
    elif raws:
        try:
            fr = loads_untrusted(raws[0])
        except ProtocolError as exc:
            fr, violation = None, str(exc)
        if type(fr) is list and fr and fr[0] in ("ok", "rt", "syntax") and len(fr) == (1 if fr[0] == "ok" else 2):
            frame = fr
        elif violation is None:
            violation = "an unexpected frame"
    sig = -report.code if report.code < 0 else 0
    status: ExecStatus
    if violation is not None:
        status, detail = "runtime_error", f"runtime error: sandbox protocol violation: {violation}"
    elif frame[:1] == ["syntax"]:
        status, detail = "syntax_error", f"syntax error: {str(frame[1])[:300]}"
    elif size > cap or sig == 25:
        status, detail = "runtime_error", f"output limit exceeded (more than {cap} bytes written)"
    elif sig == 24 or report.cpu > timeout:
        status, detail = "timeout", f"timeout ({report.cpu:.2f} s of CPU, limit {timeout:g} s)"
    elif report.timed_out:
        status, detail = "timeout", (f"{SLEPT} after {report.duration:.1f} s with "
                                     f"{report.cpu:.2f} s of CPU: the program slept or waited)")
    elif report.oom or (frame[:1] == ["rt"] and str(frame[1]).startswith("MemoryError")):
        status, detail = "memory", "memory limit exceeded"
    elif frame[:1] == ["rt"]:
        status, detail = "runtime_error", f"runtime error: {str(frame[1])[:300]}"
    elif sig:
        status, detail = "runtime_error", f"runtime error: killed by signal {_SIGNALS.get(sig, sig)}"
    elif report.code != 0:
        status, detail = "runtime_error", f"runtime error: exit status {report.code}"
    else:
        status, detail = "passed", ""
    rec = RunRecord(status == "passed", status, 0, 0, stderr=report.stderr, duration_s=report.duration,
                    detail=detail, cpu_s=report.cpu, output=out)
    return rec, violation


@dataclass(frozen=True)
class RunRecord(ExecutionResult):
    """One run's record: its output kept as the bytes read (``output``; ``stdout`` stays empty), so judging a
    run never decodes megabytes; a problem decodes only the run it shows."""

    output: bytes = b""


def run_output(rec: ExecutionResult) -> bytes:
    """A run record's exact output bytes (see `run_result`)."""
    return rec.output if isinstance(rec, RunRecord) else rec.stdout.encode("utf-8", "surrogateescape")


# ------------------------------------------------------------------------------------------ comparison
def _show(tok: bytes) -> str:
    text = tok[:24].decode("utf-8", "replace")
    return repr(text + "..." if len(tok) > 24 else text)


def _close(a: bytes, b: bytes, tol: float) -> bool:
    if len(a) > FLOAT_TOKEN_CHARS or len(b) > FLOAT_TOKEN_CHARS or not _FLOAT.fullmatch(a) or not _FLOAT.fullmatch(b):
        return False
    fa, fb = float(a), float(b)
    return math.isfinite(fa) and math.isfinite(fb) and abs(fa - fb) <= tol * max(1.0, abs(fb))


_WS_BYTES = (b" ", b"\t", b"\n", b"\r", b"\x0b", b"\x0c")  # what `bytes.split()` splits on
CHUNK_BYTES = 1 << 16


def _next_space(out: bytes, j: int) -> int:
    """The first whitespace at or after ``j`` (``len(out)`` if none): C scans over windows that double, so the cost
    is linear in the distance (a regex steps byte by byte through a long token; one find per kind over the
    whole rest would rescan it for each piece)."""
    n, size = len(out), 1 << 12
    while True:
        end = min(n, j + size)
        hits = [p for p in (out.find(c, j, end) for c in _WS_BYTES) if p >= 0]
        if hits or end == n:
            return min(hits, default=n)
        j, size = end, size * 2


def _chunks(out: bytes) -> Iterator[tuple[int, list[bytes]]]:
    """``(offset, tokens)`` of consecutive pieces of ``out`` of about CHUNK_BYTES, cut at whitespace: the
    parent never holds more than one piece's tokens of a (hostile) output at once."""
    i, n = 0, len(out)
    while i < n:
        j = n if n - i <= CHUNK_BYTES else i + CHUNK_BYTES
        if j < n:
            j = _next_space(out, j)
        yield i, out[i:j].split()
        i = j


def _where(out: bytes, offset: int, tokens: list[bytes], t: int) -> str:
    """``line L token T`` of ``tokens[t]``, the piece of ``out`` at ``offset`` split (1-based line and token)."""
    pos = offset  # each token is found where the last one ended (a token holds no whitespace, so it cannot
    for k in range(t + 1):  # start earlier); `find` is one C scan
        pos = out.find(tokens[k], pos) + (len(tokens[k]) if k < t else 0)
    line_start = out.rfind(b"\n", 0, pos) + 1
    line = out.count(b"\n", 0, pos) + 1
    return f"line {line} token {len(out[line_start:pos].split()) + 1}"


def compare_output(expected: str, out: bytes, float_tol: float | None = None) -> str | None:
    """None when ``out`` matches ``expected`` token for token (see `OutputMatch`); else a short detail.

    Linear in the sizes, and the output is read a piece at a time (see `_chunks`); a float is parsed only
    from short tokens.
    """
    want = expected.encode("utf-8", "surrogatepass").split()
    k = 0  # tokens of the output matched so far
    for offset, got in _chunks(out):
        if got == want[k:k + len(got)]:
            k += len(got)
            continue
        for t, g in enumerate(got):
            if k >= len(want):
                return (f"wrong answer: extra output from {_where(out, offset, got, t)} "
                        f"(expected {len(want)} tokens)")
            w = want[k]
            if g != w and not (float_tol is not None and _close(g, w, float_tol)):
                return f"wrong answer: {_where(out, offset, got, t)} differs (expected {_show(w)}, got {_show(g)})"
            k += 1
    if k < len(want):
        return f"wrong answer: output ends after {k} tokens, expected {len(want)}"
    return None


# ------------------------------------------------------------------------------------------ a problem
SLEPT = "timeout (wall-time backstop"  # how a run's detail starts when it slept or blocked past the backstop
class StdioProblem:
    """One program against its stdin/stdout tests: runs them (all at once, or one after another when
    ``stop_on_failure`` or ``total_timeout_s`` needs each verdict first), judges each here, resolves ``future``."""

    def __init__(self, runner: StdioRunner, code: str, tests: list[StdioTest], match: OutputMatch,
                 timeout: float, total: float | None, stop_on_failure: bool, checker_timeout: float,
                 output_cap: int) -> None:
        self.runner, self.code, self.tests, self.match = runner, code, tests, match
        self.timeout, self.total, self.stop = timeout, total, stop_on_failure
        self.checker_timeout, self.cap = checker_timeout, output_cap
        self.future: Future[ExecutionResult] = Future()
        self.runs = STDIO.prepare(code, StdioTests(tuple(tests), match))
        self.inputs = [r.stdin for r in self.runs]
        self.labels = [r.label for r in self.runs]
        self.outcomes: list[TestOutcome | None] = [None] * len(tests)
        self.kinds: list[ExecStatus] = ["passed"] * len(tests)
        self.records: list[ExecutionResult | None] = [None] * len(tests)
        self.bad: int | None = None  # the first test decided as not passed: `_finish` shows its run
        self.last = -1  # the highest test with a run: `_finish` shows it when every test passed
        self.used = 0.0  # CPU seconds of the runs so far
        self.lock = threading.Lock()
        self.sequential = stop_on_failure or total is not None

    def start(self) -> Future[ExecutionResult]:
        """Submit the first run (or every run) and return the problem's future."""
        if not self.tests:
            self.future.set_result(ExecutionResult(False, "no_tests", 0, 0,
                                                   detail="no tests to run; zero tests is never a pass"))
        else:
            for i in range(1 if self.sequential else len(self.tests)):
                self._launch(i)
        return self.future

    def _launch(self, i: int) -> None:
        timeout = self.timeout if self.total is None else min(self.timeout, self.total - self.used)
        try:
            fut = self.runner.submit_run(self.code, self.inputs[i], timeout)
        except Exception as exc:  # noqa: BLE001  (a broken pool: the problem's future says so)
            self._fail(exc)
            return
        fut.add_done_callback(lambda f: self._ran(i, timeout, f))

    def _fail(self, exc: BaseException) -> None:
        with self.lock:
            if not self.future.done():
                self.future.set_exception(exc)

    def _ran(self, i: int, timeout: float, fut: Future[ExecutionResult]) -> None:
        exc = fut.exception()
        if exc is not None:
            self._fail(exc)
            return
        rec = fut.result()
        with self.lock:
            self.records[i] = rec
            if i > self.last:
                self.last, before = i, self.last
                self._forget(before)
            self.used += rec.cpu_s
        if rec.status == "passed" and self.match.checker is not None:
            self._check(i, rec)
            return
        out = STDIO.decide(self.runs[i], rec)
        detail = out.detail
        if rec.status == "timeout" and self.total is not None and timeout < self.timeout:
            detail = f"total time limit exceeded ({self.total:g} s of CPU for the problem)"
        kind: ExecStatus = rec.status if out.status == "error" else "passed" if out.status == "passed" else "failed"
        self._record(i, out.status, kind, detail)

    def _check(self, i: int, rec: ExecutionResult) -> None:
        out = run_output(rec).decode("utf-8", "replace")
        t = self.tests[i]
        assert self.match.checker is not None
        try:  # its own run: the checker, the test's input and expected output, and the program's output
            fut = self.runner.submit_run(CHECKER_HARNESS.format(checker=self.match.checker),
                                         marshal.dumps((t.input, t.output, out)), self.checker_timeout)
        except Exception as exc:  # noqa: BLE001
            self._fail(exc)
            return
        fut.add_done_callback(lambda f: self._checked(i, f))

    def _checked(self, i: int, fut: Future[ExecutionResult]) -> None:
        exc = fut.exception()
        if exc is not None:
            self._fail(exc)
            return
        res = fut.result()
        verdict = run_output(res) if res.status == "passed" else b""
        if verdict == b"1":
            self._record(i, "passed", "passed", "")
        elif verdict == b"0":
            self._record(i, "failed", "failed", "wrong answer: the checker rejected the output")
        else:
            why = " ".join((f"{res.status}: {res.detail}" if res.status != "passed" else
                            f"no verdict (it wrote {len(verdict)} bytes to stdout)").split())[:300]
            self._record(i, "error", "crashed", f"checker failed (not the program): {why}")

    def _record(self, i: int, status: TestStatus, kind: ExecStatus, detail: str) -> None:
        with self.lock:
            if self.future.done():
                return
            self.outcomes[i] = TestOutcome(self.labels[i], status, detail)
            self.kinds[i] = kind
            if status != "passed" and (self.bad is None or i < self.bad):
                self.bad, before = i, self.bad
                self._forget(before)
            self._forget(i)
            if not self.sequential:
                if all(o is not None for o in self.outcomes):
                    self._finish(None)
                return
            over = self.total is not None and self.used >= self.total
            # A run that slept past its wall-time backstop stops the problem: each further test would hold a
            # sandbox for a backstop again (redteam27b F2), and a sleeping program earns nothing there anyway.
            slept = detail.startswith(SLEPT)
            if (i + 1 == len(self.tests) or (self.stop and status != "passed") or kind == "syntax_error" or over
                    or slept):
                why = ("total time limit exceeded" if over and i + 1 < len(self.tests) else
                       "not run: an earlier test slept past the wall-time backstop" if slept else
                       "not run: an earlier test failed")
                self._finish(why)
                return
        self._launch(i + 1)

    def _forget(self, k: int | None) -> None:
        """Drop test ``k``'s output unless `_finish` may show it (called with the lock held, whenever ``k`` stops
        being `bad` or `last` or is decided as neither): only those two runs' outputs are kept, not one per test
        (a program printing megabytes on each of many tests would otherwise hold them all: redteam27b F4)."""
        if k is None or k < 0 or k in (self.bad, self.last):
            return
        r = self.records[k]
        if isinstance(r, RunRecord) and (r.output or r.stderr):
            self.records[k] = replace(r, output=b"", stderr="")

    def _finish(self, rest: str | None) -> None:
        """Resolve the future (called with the lock held); tests not run get ``rest``."""
        per = [o if o is not None else TestOutcome(self.labels[k], "not_run", rest or "not run")
               for k, o in enumerate(self.outcomes)]
        n_ok = sum(o.status == "passed" for o in per)
        bad = next((k for k, o in enumerate(per) if o.status != "passed" and o.status != "not_run"), None)
        status: ExecStatus
        if n_ok == len(per):
            status, detail = "passed", ""
        elif "syntax_error" in self.kinds:
            status, detail = "syntax_error", per[self.kinds.index("syntax_error")].detail
        elif bad is None:  # every test run passed; the rest were cut by the problem's time limit
            status, detail = "timeout", f"total time limit exceeded ({self.total} s of CPU for the problem)"
        else:
            status, detail = self.kinds[bad], f"{per[bad].test}: {per[bad].detail}"
        ran = [k for k, r in enumerate(self.records) if r is not None]
        shown = self.records[bad if bad is not None else ran[-1]] if ran else None
        stdout = run_output(shown).decode("utf-8", "replace") if shown is not None else ""
        self.future.set_result(ExecutionResult(
            passed=status == "passed", status=status, tests_passed=n_ok, tests_total=len(per), per_test=tuple(per),
            stdout=stdout[:self.cap], stderr=shown.stderr if shown is not None else "",
            duration_s=sum(r.duration_s for r in self.records if r is not None), detail=detail, cpu_s=self.used))
