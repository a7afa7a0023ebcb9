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

from verifiers.sandbox._pool import CodePool
from verifiers.sandbox._result import ExecutionResult, TestOutcome

__all__ = ["CodePool", "ExecutionResult", "TestOutcome", "default_pool", "run"]

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


def run(code: str, tests: Sequence[str], *, setup_code: str = "", timeout_s: float | None = None,
        pool: CodePool | None = None) -> ExecutionResult:
    """Run ``code`` against assert ``tests`` in a sandbox (the default pool unless ``pool`` is given).

    Example:
        >>> run("def f(x): return 2 * x", ["assert f(2) == 4"]).passed   # doctest: +SKIP
        True
    """
    return (pool or default_pool()).run(code, tests, setup_code, timeout_s)
