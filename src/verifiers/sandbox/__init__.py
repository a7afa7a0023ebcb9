"""Sandboxed execution of model-written Python against assert tests, judged in the trusted parent.

    >>> from verifiers.sandbox import CodePool
    >>> with CodePool(workers=2) as pool:                                     # doctest: +SKIP
    ...     r = pool.run("def add(a, b): return a + b", ["assert add(1, 2) == 3"])
    >>> r.passed, r.status                                                     # doctest: +SKIP
    (True, 'passed')

See `verifiers.sandbox._isolation` for the security model.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Sequence

from verifiers.sandbox._expected import expected_output_tests
from verifiers.sandbox._pool import CodePool
from verifiers.sandbox._result import ExecutionResult, TestOutcome
from verifiers.sandbox._stdio import OutputMatch, StdioTest

__all__ = ["CodePool", "ExecutionResult", "OutputMatch", "StdioTest", "TestOutcome", "check", "default_pool",
           "expected_output_tests", "run", "run_stdio"]

_default: CodePool | None = None
_default_lock = threading.Lock()


def default_pool() -> CodePool:
    """The lazily started process-wide pool `run` uses (bwrap isolation, default limits)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = CodePool().start()
            atexit.register(_default.close)
        return _default


def check() -> str | None:
    """Whether sandboxed programs can run here: ``None``, or one line saying why not.

    Starts a one-sandbox pool with the default isolation and runs one trivial program against one test, so
    everything a reward worker needs is exercised: bubblewrap, user namespaces, seccomp, the launcher.
    """
    from verifiers.errors import VerifiersError

    try:
        with CodePool(workers=1, timeout_s=30.0) as pool:
            result = pool.run("x = 1", ["assert x == 1"])
    except (VerifiersError, OSError) as e:
        return " ".join(str(e).split())
    return None if result.passed else (f"a trivial program did not pass in the sandbox ({result.status}: "
                                       f"{' '.join(result.detail.split())[:300]})")


def run(code: str, tests: Sequence[str], *, setup_code: str = "", timeout_s: float | None = None,
        pool: CodePool | None = None) -> ExecutionResult:
    """Run ``code`` against assert ``tests`` in a sandbox (the default pool unless ``pool`` is given).

    Example:
        >>> run("def f(x): return 2 * x", ["assert f(2) == 4"]).passed   # doctest: +SKIP
        True
    """
    return (pool or default_pool()).run(code, tests, setup_code, timeout_s)


def run_stdio(code: str, tests: Sequence[StdioTest], *, match: OutputMatch | None = None,
              timeout_s: float | None = None, total_timeout_s: float | None = None, stop_on_failure: bool = False,
              pool: CodePool | None = None) -> ExecutionResult:
    """Run the stdin/stdout program ``code`` against ``tests`` in a sandbox (see `CodePool.submit_stdio`).

    Example:
        >>> run_stdio("print(sum(map(int, input().split())))", [StdioTest("1 2\\n", "3\\n")]).passed  # doctest: +SKIP
        True
    """
    return (pool or default_pool()).run_stdio(code, tests, match=match, timeout_s=timeout_s,
                                               total_timeout_s=total_timeout_s, stop_on_failure=stop_on_failure)
