"""`CodePool`, the public pool: programs run on this host (`_local.LocalPool`) or on a registered backend
(`_ray.RayBackend`, Ray actors each hosting a `LocalPool`); see `_backend` for what a backend receives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Self

from verifiers.errors import ConfigError
from verifiers.sandbox._backend import Backend, Job, PoolOptions
from verifiers.sandbox._local import Isolation, LocalPool
from verifiers.sandbox._ray import RayBackend

# Backends other than this host's dispatcher, by name: each is built from the pool's options.
BACKENDS: dict[str, Callable[[PoolOptions], Backend]] = {"ray": RayBackend}


class CodePool(LocalPool):
    """A pool of sandboxes that run Python programs against assert tests, judged in this process.

    Args:
        workers: number of sandboxes, i.e. programs running at once (default: CPU count).
        memory_mb: address-space limit of each program process; with cgroups also the sandbox's total.
        timeout_s: default wall-clock limit per program (all its tests together).
        isolation: ``"bwrap"`` (default; refuses to start without bubblewrap and user namespaces) or
            ``"process"`` (UNSAFE: programs run as plain child processes of this user, trusted code only).
        backend: ``"local"`` or a name in `BACKENDS` (``"ray"``: sandboxes hosted by Ray actors).
        max_procs: processes and threads a program may have, itself included (RLIMIT_NPROC).
        max_output_bytes: stdout/stderr kept per program.
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
                 seccomp: bool = True, cgroup: str | None = "auto", ray_address: str | None = None) -> None:
        if backend != "local" and backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {', '.join(['local', *BACKENDS])}, got {backend!r}")
        super().__init__(workers, memory_mb, timeout_s, isolation=isolation, max_procs=max_procs,
                         max_output_bytes=max_output_bytes, recycle_after=recycle_after, pipeline=pipeline,
                         seccomp=seccomp, cgroup=cgroup)
        self.backend, self.ray_address = backend, ray_address
        self._remote: Backend | None = None

    @property
    def options(self) -> PoolOptions:
        """This pool's settings, as a backend receives them."""
        return PoolOptions(self.workers, self.memory_mb, self.timeout_s, self.isolation, self.max_procs,
                           self.max_output_bytes, self.recycle_after, self.pipeline, self.seccomp, self.cgroup,
                           self.ray_address)

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

    def close(self) -> None:
        """Stop every sandbox (pending jobs still finish first)."""
        if self._remote is not None:
            self._remote.close()
            self._remote = None
        super().close()
