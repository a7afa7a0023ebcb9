"""`CodePool`, the public pool: programs run on this host (`_local.LocalPool`) or on a registered backend
(`_ray.RayBackend`, Ray actors each hosting a `LocalPool`); see `_backend` for what a backend receives."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, Self

from verifiers.errors import ConfigError
from verifiers.sandbox._backend import Backend, Isolation, Job, PoolOptions
from verifiers.sandbox._expected import expected_output_tests
from verifiers.sandbox._local import FILE_BYTES, LocalPool
from verifiers.sandbox._ray import RayBackend
from verifiers.sandbox._result import ExecutionResult

# Backends other than this host's dispatcher, by name: each is built from the pool's options.
BACKENDS: dict[str, Callable[[PoolOptions], Backend]] = {"ray": RayBackend}


class CodePool(LocalPool):
    """A pool of sandboxes that run Python programs against assert tests, judged in this process.

    Args:
        workers: number of sandboxes, i.e. programs running at once (default: CPU count).
        memory_mb: address-space limit of each program process; with cgroups also the sandbox's total.
        timeout_s: default CPU-time limit per program (all its tests and processes together); a program is
            also killed after a wall-time backstop of ``3 x timeout_s + 1`` s, stretched by the host's load
            per CPU (at most 10x), which only a program that sleeps or blocks reaches.
        isolation: ``"bwrap"`` (default; refuses to start without bubblewrap and user namespaces) or
            ``"process"`` (UNSAFE: programs run as plain child processes of this user, trusted code only).
        backend: ``"local"`` or a name in `BACKENDS` (``"ray"``: sandboxes hosted by Ray actors).
        max_procs: processes and threads a program may have, itself included (RLIMIT_NPROC).
        max_output_bytes: stdout/stderr kept per program of a function task (its diagnostics).
        max_stdio_output_bytes: what a stdin/stdout program may print on one test (its answer; default 8 MiB,
            at most 16 MiB); more is ``output limit exceeded``.
        recycle_after: programs per sandbox before it is replaced.
        pipeline: programs queued on a sandbox at once.
        seccomp: load the syscall filters of `verifiers.sandbox._seccomp` (libseccomp). ``False`` runs
            programs without them, with a warning; there is no silent fallback.
        cgroup: ``"auto"`` (a per-sandbox cgroup where the host allows, see `verifiers.sandbox._cgroups`),
            ``"off"``, or the path of a delegated cgroup v2 directory.
        ray_address: the Ray cluster for ``backend="ray"`` (default: start or join the local one).

    Example:
        >>> with CodePool(workers=2) as pool:                      # doctest: +SKIP
        ...     pool.run("def f(x): return x + 1", ["assert f(1) == 2"]).passed
        True
    """

    def __init__(self, workers: int | None = None, memory_mb: int = 512, timeout_s: float = 5.0, *,
                 isolation: Isolation = "bwrap", backend: str = "local", max_procs: int = 32,
                 max_output_bytes: int = 8192, recycle_after: int = 2000, pipeline: int = 8,
                 seccomp: bool = True, cgroup: str | None = "auto", ray_address: str | None = None,
                 max_stdio_output_bytes: int = 8 << 20) -> None:
        if backend != "local" and backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {', '.join(['local', *BACKENDS])}, got {backend!r}")
        if isolation not in ("bwrap", "process"):
            raise ConfigError(f"isolation must be 'bwrap' or 'process', got {isolation!r}")
        if workers is not None and not 1 <= workers <= 100:
            raise ConfigError(f"workers must be between 1 and 100, got {workers}")
        if timeout_s <= 0 or memory_mb < 32 or max_procs < 2 or pipeline < 1 or recycle_after < 1:
            raise ConfigError("timeout_s must be > 0, memory_mb >= 32, max_procs >= 2, pipeline >= 1, "
                              f"recycle_after >= 1 (got {timeout_s}, {memory_mb}, {max_procs}, {pipeline}, "
                              f"{recycle_after})")
        if not 1 <= max_stdio_output_bytes < FILE_BYTES or max_output_bytes < 0:
            raise ConfigError(f"max_stdio_output_bytes must be between 1 and {FILE_BYTES - 1} (the sandbox's file "
                              f"limit) and max_output_bytes >= 0, got {max_stdio_output_bytes}, {max_output_bytes}")
        if seccomp not in (True, False):
            raise ConfigError(f"seccomp must be True or False, got {seccomp!r}")
        self.backend, self.ray_address = backend, ray_address
        super().__init__(PoolOptions(workers or os.cpu_count() or 1, memory_mb, float(timeout_s), isolation,
                                     max_procs, max_output_bytes, recycle_after, pipeline, seccomp, cgroup,
                                     ray_address, max_stdio_output_bytes))
        self._remote: Backend | None = None

    def start(self) -> Self:
        """Start the sandboxes (here, or the backend's) and wait until they are ready."""
        if self.backend == "local":
            return super().start()
        self._connect()
        return self

    def _connect(self) -> Backend:
        if self._remote is None:
            self._remote = BACKENDS[self.backend](self.options)
        return self._remote

    def _enqueue(self, jobs: list[Job]) -> None:
        if self.backend == "local":
            super()._enqueue(jobs)
            return
        remote = self._connect()
        for job in jobs:
            remote.submit(job)

    def submit_expected_output(self, code: str, entry_point: str, inputs: Sequence[Sequence[Any]],
                               outputs: Sequence[Any], *, atol: float = 0.0,
                               timeout_s: float | None = None) -> Future[ExecutionResult]:
        """Queue ``code`` against expected-output tests (EvalPlus style): ``entry_point(*inputs[i])`` must give
        ``outputs[i]``, compared in this process, exactly or by EvalPlus's float rule (see
        `expected_output_tests`); the expected outputs never reach the program. Raises `ConfigError` for bad
        arguments."""
        return self.submit(code, expected_output_tests(entry_point, inputs, outputs, atol), "", timeout_s)

    def run_expected_output(self, code: str, entry_point: str, inputs: Sequence[Sequence[Any]],
                            outputs: Sequence[Any], *, atol: float = 0.0,
                            timeout_s: float | None = None) -> ExecutionResult:
        """`submit_expected_output`, waited for."""
        return self.submit_expected_output(code, entry_point, inputs, outputs, atol=atol,
                                           timeout_s=timeout_s).result()

    def close(self) -> None:
        """Stop every sandbox (pending jobs still finish first)."""
        if self._remote is not None:
            self._remote.close()
            self._remote = None
        super().close()
