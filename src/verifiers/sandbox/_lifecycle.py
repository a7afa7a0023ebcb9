"""A thread that starts and stops sandboxes for the pool's dispatcher, so that neither ever stalls it.

Starting a sandbox waits ~40-70 ms here (the launcher or bubblewrap, the user-namespace handshake) and a
graceful stop up to ~0.1 s (the zygote's exit, the cgroup emptying). On the dispatcher thread each
recycle (every ``recycle_after`` programs, and after any anomaly or protocol violation, which a hostile
program can force once per program) held up every other sandbox's results and refills for that long
(evals/sandbox/README.md). A sandbox dies with the thread that spawned it (PDEATHSIG), so this thread
lives as long as the pool and is stopped only after every sandbox it started was handed back.
"""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import threading

from verifiers.errors import SandboxError
from verifiers.sandbox._sandbox import Sandbox, SandboxSpec


class Lifecycle:
    """Spawns (`spawn`) and stops (`retire`) sandboxes on its own thread, in request order.

    Started sandboxes (or the `SandboxError` of a failed start) wait in a queue for the dispatcher
    (`collect`); each arrival writes a byte to ``wake_fd`` so the dispatcher's selector wakes up.
    """

    def __init__(self, spec: SandboxSpec, wake_fd: int) -> None:
        self._spec = spec
        self._wake_fd = wake_fd
        self._requests: queue.SimpleQueue[tuple[str, int | Sandbox] | None] = queue.SimpleQueue()
        self._started: collections.deque[Sandbox | SandboxError] = collections.deque()
        self.pending = 0  # starts requested and not collected yet (the dispatcher's count)
        self._thread = threading.Thread(target=self._run, name="codepool-lifecycle", daemon=True)
        self._thread.start()

    def spawn(self, slot: int) -> None:
        """Start a sandbox for ``slot``; it (or why it failed) comes back through `collect`."""
        self.pending += 1
        self._requests.put(("spawn", slot))

    def retire(self, sb: Sandbox, *, graceful: bool) -> None:
        """Stop ``sb``: gracefully (`Sandbox.close`: let the zygote exit) or at once (`Sandbox.kill`)."""
        self._requests.put(("close" if graceful else "kill", sb))

    def collect(self) -> list[Sandbox | SandboxError]:
        """Every start finished since the last call, in request order."""
        out = []
        while self._started:
            out.append(self._started.popleft())
            self.pending -= 1
        return out

    def stop(self) -> None:
        """Finish every request, then end the thread; sandboxes started but never collected are killed."""
        self._requests.put(None)
        self._thread.join()
        for result in self.collect():
            if isinstance(result, Sandbox):
                result.kill()

    def _run(self) -> None:
        while (request := self._requests.get()) is not None:
            kind, arg = request
            if isinstance(arg, Sandbox):
                try:
                    (arg.close if kind == "close" else arg.kill)()
                except Exception:  # noqa: BLE001, S110  (best effort: the thread must keep serving starts)
                    pass
                continue
            try:
                result: Sandbox | SandboxError = Sandbox.spawn(arg, self._spec)
            except SandboxError as exc:
                result = exc
            except Exception as exc:  # noqa: BLE001  (the dispatcher must hear of every request)
                result = SandboxError(f"could not start a sandbox: {exc!r}")
            self._started.append(result)
            with contextlib.suppress(OSError):  # the pool is closing: `stop` collects it
                os.write(self._wake_fd, b"x")
