"""``CodePool(backend="ray")``: the same sandbox workers hosted by Ray actors, so CPU nodes share the load.

Each actor runs a local `CodePool` (bubblewrap isolation, one worker) on its node and judges there: the
actor is trusted code, the sandboxed program never talks to Ray. Results travel back as
`ExecutionResult` values between trusted processes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
from concurrent.futures import Future
from typing import Any

from verifiers.errors import SandboxError
from verifiers.sandbox._backend import Job, PoolOptions
from verifiers.sandbox._local import LocalPool
from verifiers.sandbox._result import ExecutionResult


class _SandboxActor:
    """Ray actor body: one local pool per actor."""

    def __init__(self, options: PoolOptions) -> None:
        self.pool = LocalPool(options).start()

    def ping(self) -> int:
        return self.pool.workers

    def run(self, code: str, tests: list[str], setup_code: str, timeout_s: float) -> ExecutionResult:
        return self.pool.run(code, tests, setup_code, timeout_s)

    def run_once(self, code: str, stdin: bytes, timeout: float) -> ExecutionResult:
        """One run of a stdin/stdout program (its record: `_stdio.run_result`); judged by the caller."""
        return self.pool.submit_run(code, stdin, timeout).result()

    def close(self) -> None:
        self.pool.close()


class RayBackend:
    """Dispatches jobs round-robin over ``options.workers`` actors (``ray.init`` is called if needed).

    Args:
        options: the pool's settings; each actor's local pool gets them with one worker.
    """

    def __init__(self, options: PoolOptions) -> None:
        try:
            import ray
        except ImportError as exc:
            raise SandboxError("backend='ray' needs Ray: pip install 'ray>=2.40'") from exc
        self._ray = ray
        if not ray.is_initialized():
            ray.init(address=options.ray_address, ignore_reinit_error=True, log_to_driver=False)
        local = dataclasses.replace(options, workers=1)
        actor_cls = ray.remote(num_cpus=1, max_concurrency=2 * options.pipeline)(_SandboxActor)  # type: ignore[call-overload]
        self._actors = [actor_cls.remote(local) for _ in range(options.workers)]
        try:
            ray.get([a.ping.remote() for a in self._actors], timeout=120)
        except Exception as exc:  # the actor's SandboxError arrives wrapped by Ray
            self.close()
            raise SandboxError(f"Ray sandbox actors failed to start: {exc}") from exc
        self._next = itertools.cycle(range(len(self._actors)))

    def submit(self, job: Job) -> Future[ExecutionResult]:
        actor = self._actors[next(self._next)]
        ref = (actor.run.remote(job.code, [p.source for p in job.plans], job.setup, job.timeout) if job.stdin is None
               else actor.run_once.remote(job.code, job.stdin, job.timeout))
        out = job.future

        def done(f: Future[Any]) -> None:
            try:
                out.set_result(f.result())
            except Exception as exc:  # noqa: BLE001  (RayActorError, RayTaskError, ...)
                out.set_exception(SandboxError(f"Ray sandbox actor failed: {exc}"))

        ref.future().add_done_callback(done)
        return out

    def close(self) -> None:
        for a in self._actors:
            with contextlib.suppress(Exception):  # already dead is fine
                self._ray.kill(a)
        self._actors = []
