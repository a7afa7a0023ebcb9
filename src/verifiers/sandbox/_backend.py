"""What `CodePool` hands a backend: a planned `Job`, the pool's `PoolOptions`, and the `Backend` protocol.

The local backend is `_local.LocalPool` (the pool's own dispatcher); another backend (`_ray`) is built from
the options and receives jobs through `Backend.submit`.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Literal, Protocol

from verifiers.sandbox._leaves import TestPlan
from verifiers.sandbox._result import ExecutionResult
from verifiers.sandbox._sandbox import JobIO

Isolation = Literal["bwrap", "process"]


@dataclass
class Job:
    """One program with its planned tests, on its way to a sandbox; ``future`` gets its result."""

    code: str
    setup: str
    plans: list[TestPlan]
    timeout: float  # CPU seconds
    future: Future[ExecutionResult]
    id: int = 0
    frame: bytes = b""
    attempts: int = 0
    io: JobIO | None = field(default=None, repr=False)
    reading: bool = False  # its channel is watched for frames (it ran longer than DRAIN_AFTER_S)
    paused_until: float = 0.0  # reading, but not watched until then (see DRAIN_PAUSE_S)
    pause: float = 0.0  # the last pause
    wall: float = 0.0  # its wall-time backstop (s), set when it is sent to a sandbox (`_local.wall_backstop`)
    stdin: bytes | None = None  # a stdin/stdout program's run: its input (fd 0); see `_stdio`

    def close_io(self) -> None:
        self.reading = False
        if self.io is not None:
            self.io.close()
            self.io = None


@dataclass(frozen=True)
class PoolOptions:
    """A pool's settings: the `CodePool` arguments, checked, with ``workers`` resolved. A `LocalPool` runs
    with them; a remote backend starts its `LocalPool` s with them."""

    workers: int
    memory_mb: int
    timeout_s: float
    isolation: Isolation
    max_procs: int
    max_output_bytes: int
    recycle_after: int
    pipeline: int
    seccomp: bool
    cgroup: str | None
    ray_address: str | None = None
    max_stdio_output_bytes: int = 8 << 20


class Backend(Protocol):
    """Runs jobs somewhere else than this process's dispatcher (e.g. Ray actors)."""

    def submit(self, job: Job) -> Future[ExecutionResult]:
        """Start ``job``; its future resolves to the `ExecutionResult` (or a `SandboxError`)."""
        ...

    def close(self) -> None:
        """Stop whatever the backend started."""
        ...
