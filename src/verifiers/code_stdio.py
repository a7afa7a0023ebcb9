"""Standard input/output programs (competitive programming): extract the program, run it once per test with the
test's input on stdin, compare its output with the expected one in this process.

Example:
    >>> from verifiers import code_stdio
    >>> ref = code_stdio.StdioTests((("1 2\\n", "3\\n"), ("5 7\\n", "12\\n")))
    >>> s = code_stdio.score("```python\\na, b = map(int, input().split())\\nprint(a + b)\\n```", ref)
    >>> s.status, s.parts["correctness"]                                               # doctest: +SKIP
    ('correct', 1.0)

The reference (`StdioTests`, or its JSON object, see `reference`) is the row schema of docs/code-tasks.md:
``tests`` (``[{"input", "output"}]``), optional ``checker`` (trusted Python defining ``check(input, expected,
output) -> bool``, run sandboxed), ``float_tol`` and ``time_limit_s``. The program runs as ``__main__``
(`verifiers.sandbox.CodePool.submit_stdio`); expected outputs never enter its sandbox.

Extraction is MBPP's (`verifiers.mbpp.extract_code`: tagged block, last fenced ``python`` block, or the
whole response if it is a program; code inside ``<think>`` only when nothing follows it), plus a bare
program made of expressions only (``print(sum(map(int, input().split())))``).

Rewards: ``accuracy`` (default) is 1 iff every test passed; ``partial`` is the fraction of tests passed (the part
``correctness``, as MBPP's)
(with ``stop_on_failure`` off, so every test runs). Statuses as MBPP's: ``correct``, ``incorrect``,
``timeout``, ``no_answer`` (no program), ``gold_unparseable`` (no tests), ``error`` (the sandbox failed).
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from verifiers._problem import MAX_STDIO_TESTS, StdioTests
from verifiers.errors import ConfigError, DataError, SandboxError
from verifiers.mbpp import Config as _MbppConfig
from verifiers.mbpp import extract_code
from verifiers.rewards._config import combine
from verifiers.rewards._inputs import batch_items, response_text, scorer_config
from verifiers.rewards._score import PROGRAM_STATUS, Score
from verifiers.sandbox._setup import parse_python

if TYPE_CHECKING:
    from concurrent.futures import Future

    from verifiers.sandbox import CodePool, ExecutionResult

__all__ = ["OUTPUT_CAP_BYTES", "PRESETS", "Config", "StdioTests", "default_pool", "extract_program", "reference", "score",
           "score_batch"]

PRESETS: Mapping[str, Mapping[str, float]] = MappingProxyType({
    "accuracy": MappingProxyType({"all_passed": 1.0}),
    "partial": MappingProxyType({"correctness": 1.0}),
})
PARTS = ("all_passed", "correctness", "syntax")
MAX_TESTS = MAX_STDIO_TESTS
# What a program may print on one test: a pool's ``max_stdio_output_bytes`` (its default; contest problems print
# megabytes, unlike a function task's diagnostics, which ``max_output_bytes`` caps at 8 KiB).
OUTPUT_CAP_BYTES = 8 << 20


def default_pool() -> CodePool:
    """The process-wide pool this task uses when the caller passes none: `verifiers.sandbox.default_pool`,
    shared with the function tasks (stdin/stdout runs may print `OUTPUT_CAP_BYTES` a test there)."""
    from verifiers.sandbox import default_pool as sandbox_pool

    return sandbox_pool()


@dataclass(frozen=True)
class Config(_MbppConfig):
    """How stdin/stdout programs are extracted, run and rewarded (frozen, hashable).

    Attributes:
        preset: ``"accuracy"`` (default: 1 iff every test passed) or ``"partial"`` (the fraction passed).
        timeout: CPU seconds a program may use on one test (a row's ``time_limit_s`` overrides it); wall
            time is only a backstop (`verifiers.sandbox`).
        total_timeout: CPU seconds for all tests of one problem together.
        stop_on_failure: stop at the first failed test (the rest ``not_run``); default: on, unless the
            reward needs every test (``partial``), where ``None`` means "off".
        (``sources``, ``fence``, ``tags``, ``max_chars``: extraction, as `verifiers.mbpp.Config`.)
    """

    presets: ClassVar[Mapping[str, Mapping[str, float]]] = PRESETS
    parts: ClassVar[tuple[str, ...]] = PARTS

    timeout: float = 4.0
    total_timeout: float = 60.0
    stop_on_failure: bool | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("timeout", "total_timeout"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:
                raise ConfigError(f"{name} must be a positive number of seconds, got {value!r}")

    @property
    def stops_early(self) -> bool:
        """Whether a problem stops at its first failed test."""
        if self.stop_on_failure is not None:
            return self.stop_on_failure
        return dict(self.resolved_weights).get("correctness", 0.0) == 0.0


_DEFAULT = Config()


def reference(value: Any) -> StdioTests:
    """A problem's reference from what rows and callers carry.

    Accepts a `StdioTests`; a mapping ``{"tests": [...], "checker"?, "float_tol"?, "time_limit_s"?}``, or its
    JSON text; or the tests alone, as ``[{"input", "output"}, ...]`` or ``[(input, output), ...]``.

    Raises:
        TypeError: any other shape (the message says which field is wrong).
        DataError: more than `MAX_TESTS` tests (scoring a prefix would pass programs that fail the rest).
    """
    if isinstance(value, StdioTests):
        if len(value.tests) > MAX_TESTS:
            raise DataError(f"a stdin/stdout problem has {len(value.tests)} tests, more than {MAX_TESTS}; this task "
                            "runs every test, so keep at most that many in the row")
        return value
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise TypeError("a stdin/stdout reference given as text must be a JSON object {'tests': [...]}") from None
    if isinstance(value, Mapping):
        extra = {k: value.get(k) for k in ("checker", "float_tol", "time_limit_s")}
        tests = value.get("tests")
    else:
        extra, tests = {}, value
    if tests is None or isinstance(tests, str | bytes) or not isinstance(tests, Iterable):
        raise TypeError("stdin/stdout tests must be a list of {'input', 'output'} objects or (input, output) pairs")
    pairs: list[tuple[str, str]] = []
    for i, t in enumerate(tests):
        if isinstance(t, Mapping):
            pair = (t.get("input"), t.get("output"))
        elif isinstance(t, Sequence) and not isinstance(t, str | bytes) and len(t) == 2:
            pair = (t[0], t[1])
        else:
            raise TypeError(f"stdin/stdout test {i} must be {{'input', 'output'}} or an (input, output) pair")
        if not isinstance(pair[0], str) or not isinstance(pair[1], str):
            raise TypeError(f"stdin/stdout test {i}: 'input' and 'output' must be strings")
        pairs.append((pair[0], pair[1]))
        if len(pairs) > MAX_TESTS:  # never score on a prefix: a program failing only later tests would pass
            raise DataError(f"a stdin/stdout problem has more than {MAX_TESTS} tests; this task runs every test, "
                            "so keep at most that many in the row")
    checker, tol, limit = extra.get("checker") or "", extra.get("float_tol"), extra.get("time_limit_s")
    if not isinstance(checker, str):
        raise TypeError("'checker' must be Python source text")
    for name, number in (("float_tol", tol), ("time_limit_s", limit)):
        if number is not None and (isinstance(number, bool) or not isinstance(number, int | float)
                                   or not 0 <= number < math.inf):
            raise TypeError(f"{name!r} must be a non-negative number, got {number!r}")
    return StdioTests(tuple(pairs), checker, None if tol is None else float(tol),
                      None if limit is None else float(limit))


def _is_program(text: str) -> bool:
    """Parses as Python and does something (a call or a statement), not a lone name or a sentence."""
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False
    return any(not isinstance(n, ast.Expr) or isinstance(n.value, ast.Call) for n in tree.body)


def extract_program(response: str, config: Config | None = None) -> tuple[str | None, str]:
    """The program in ``response``: ``(code or None, which source matched)`` (see the module doc)."""
    cfg = config or _DEFAULT
    code, source = extract_code(response, cfg)
    if code is None and "plain" in cfg.sources:
        text = response[-cfg.max_chars:].strip()
        if text and "</think>" not in text and _is_program(text):
            return text, "plain"
    return code, source


def _to_score(code: str | None, source: str, result: ExecutionResult | None, cfg: Config, error: str) -> Score:
    parts = {"all_passed": 1.0 if result is not None and result.passed else 0.0,
             "correctness": result.pass_rate if result is not None else 0.0,
             "syntax": 1.0 if result is not None and result.status != "syntax_error" else 0.0}
    reward = combine(parts, dict(cfg.resolved_weights))
    if code is None:
        return Score(reward, False, "no_answer", None, parts, f"no program found (looked for: {', '.join(cfg.sources)})")
    if result is None:
        return Score(reward, False, "error", code, parts, f"sandbox error: {error}"[:500])
    first = next((t for t in result.per_test if t.status != "passed"), None)
    why = f"sandbox {result.status}: {result.tests_passed}/{result.tests_total} tests passed (code from {source})"
    if first is not None:
        why += f"; {first.test}: {first.detail or first.status}"
    elif result.detail:
        why += f"; {result.detail}"
    return Score(reward, result.passed, PROGRAM_STATUS[result.status], code, parts, why[:500])


def score(response: str, reference_: StdioTests | Mapping[str, Any] | Sequence[Any] | str, *,
          config: Config | Mapping[str, Any] | None = None, pool: CodePool | None = None) -> Score:
    """Score one response against its stdin/stdout tests; never raises for model output.

    Args:
        response: the model output.
        reference_: the problem's tests (see `reference` for the shapes accepted).
        config: settings, or a mapping of its fields (default `Config()`).
        pool: a `verifiers.sandbox.CodePool` (its ``max_stdio_output_bytes`` caps what a program may print); default:
            this task's lazily started pool (`default_pool`, 8 MiB of output).

    Raises:
        TypeError: ``response`` is not a ``str``, or the reference has a wrong shape.
        ConfigError: a bad ``config``.
    """
    return score_batch([response], [reference_], config=config, pool=pool)[0]


def score_batch(responses: Iterable[str], references: Iterable[Any], *, workers: int | None = None,
                config: Config | Mapping[str, Any] | None = None, pool: CodePool | None = None) -> list[Score]:
    """Score many responses over the pool (all their tests in flight at once); results in input order.

    ``workers`` is accepted for the common scorer signature; the pool's size sets the parallelism.

    Raises:
        TypeError: as for `score`, for any item; ``None`` or a bare string where a sequence is expected.
        ConfigError: the lengths differ, or a bad ``config``.
    """
    from verifiers.sandbox import OutputMatch, StdioTest

    cfg = scorer_config(config, Config, _DEFAULT)
    responses = [response_text(r) for r in batch_items(responses, "responses")]
    refs = [reference(r) for r in batch_items(references, "references")]
    if len(refs) != len(responses):
        raise ConfigError("responses and references must have the same length")
    found = [extract_program(r, cfg) for r in responses]
    runner = None
    futures: list[Future[ExecutionResult] | SandboxError | None] = []
    for (code, _), ref in zip(found, refs):
        if code is None:
            futures.append(None)
            continue
        runner = runner or pool or default_pool()
        match = OutputMatch(float_tol=ref.float_tol, checker=ref.checker or None)
        try:
            futures.append(runner.submit_stdio(
                code, [StdioTest(i, o) for i, o in ref.tests], match=match,
                timeout_s=ref.time_limit_s or cfg.timeout, total_timeout_s=cfg.total_timeout,
                stop_on_failure=cfg.stops_early))
        except SandboxError as exc:
            futures.append(exc)
    out = []
    for (code, source), fut in zip(found, futures):
        result, error = None, ""
        if isinstance(fut, SandboxError):
            error = str(fut)
        elif fut is not None:
            try:
                result = fut.result()
            except SandboxError as exc:
                error = str(exc)
        out.append(_to_score(code, source, result, cfg, error))
    return out
