"""A pool of worker processes for symbolic (sympy) work, with hard deadlines that work in any thread.

Why processes: a runaway CAS computation cannot be interrupted inside the calling process, and
``signal.alarm`` only works on the main thread (it silently fails in thread pools and Ray workers). Here the
caller waits on a pipe with a timeout; a worker that overruns is killed (SIGKILL) and replaced, and the
caller gets ``("timeout", ...)`` right away. Workers are forked from a ``forkserver`` that has already
imported sympy, so a replacement is ready in milliseconds.

The first symbolic call in a process starts the pool, which takes about a second (importing sympy once);
``warm_up()`` does that up front. After that, ``call`` never blocks longer than its timeout plus a few
milliseconds of bookkeeping.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

STARTUP_TIMEOUT = 60.0  # seconds the one-time pool start may take (importing sympy in the forkserver)
WORKER_MEMORY_BYTES = 4 << 30  # address-space cap per worker: a CAS blow-up fails there, not here
DEFAULT_SIZE = max(1, min(4, os.cpu_count() or 1))

_PRELOAD = "verifiers._symbolic"


def _worker_main(conn: Connection) -> None:
    """Worker loop: run named functions from ``verifiers._symbolic`` and send back results."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_BYTES, WORKER_MEMORY_BYTES))
    except (ImportError, ValueError, OSError):  # not on Linux or not allowed: the deadline still holds
        pass
    import importlib

    module = importlib.import_module(_PRELOAD)
    conn.send(("ready", None))
    while True:
        try:
            name, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", getattr(module, name)(*args)))
        except BaseException as e:  # noqa: BLE001 - report every failure, the worker lives on
            conn.send(("error", f"{type(e).__name__}: {e}"[:500]))


class _Worker:
    __slots__ = ("proc", "conn", "ready")

    def __init__(self, ctx: Any) -> None:
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=True, name="verifiers-symbolic")
        self.proc.start()
        child.close()
        self.conn = parent
        self.ready = False

    def wait_ready(self, timeout: float) -> bool:
        if self.ready:
            return True
        if self.conn.poll(max(0.0, timeout)):
            try:
                tag, _ = self.conn.recv()
            except (EOFError, OSError):
                return False
            self.ready = tag == "ready"
        return self.ready

    def kill(self) -> None:
        try:
            self.proc.kill()
            self.proc.join(0.05)
        except (OSError, ValueError, AssertionError):
            pass
        try:
            self.conn.close()
        except OSError:
            pass


class WorkerPool:
    """Worker processes that run ``verifiers._symbolic`` functions under a deadline."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._size = size
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._lock = threading.Lock()
        self._count = 0
        self._pid = -1
        self._ctx: Any = None
        self._started = threading.Event()
        self._failure = ""

    def _reset_after_fork(self) -> None:
        self._idle = queue.Queue()
        self._count = 0
        self._started = threading.Event()
        self._failure = ""
        self._pid = os.getpid()

    def _spawn(self) -> None:
        try:
            worker = _Worker(self._ctx)
        except Exception as e:  # e.g. a daemonic parent may not have children
            self._failure = f"cannot start a symbolic worker ({type(e).__name__}: {e})"
            return
        with self._lock:
            self._count += 1
        self._idle.put(worker)

    def _start(self) -> None:
        with self._lock:
            if self._pid != os.getpid():
                self._reset_after_fork()
            if self._ctx is None:
                ctx = multiprocessing.get_context("forkserver")
                try:
                    ctx.set_forkserver_preload([_PRELOAD])
                except Exception:  # the forkserver already runs: workers import sympy themselves
                    pass
                self._ctx = ctx
            need = self._size - self._count
        for _ in range(max(0, need)):
            self._spawn()
        self._started.set()

    def resize(self, size: int) -> None:
        """Grow the pool to ``size`` workers (it never shrinks while in use)."""
        self._size = max(self._size, size)
        if self._started.is_set() and self._pid == os.getpid():
            self._start()

    def warm_up(self, timeout: float = STARTUP_TIMEOUT) -> bool:
        """Start the pool and wait until one worker is ready; ``False`` if it could not start in time."""
        if self._pid != os.getpid() or not self._started.is_set():
            self._start()
        try:
            worker = self._idle.get(timeout=timeout)
        except queue.Empty:
            return False
        ok = worker.wait_ready(timeout)
        self._idle.put(worker)
        return ok

    def call(self, name: str, args: tuple[Any, ...], timeout: float) -> tuple[str, Any]:
        """Run ``verifiers._symbolic.<name>(*args)`` in a worker.

        Returns:
            ``("ok", result)``, ``("timeout", reason)``, ``("error", message)`` when the function raised
            or its worker died, or ``("unavailable", reason)`` when no worker process can be started.
        """
        deadline = time.monotonic() + timeout
        if self._pid != os.getpid() or not self._started.is_set():
            if not self.warm_up():  # one-time start, see module doc
                return "unavailable", self._failure or "symbolic workers did not start"
            deadline = max(deadline, time.monotonic() + timeout)
        try:
            worker = self._idle.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            if self._failure and self._count == 0:
                return "unavailable", self._failure
            return "timeout", "no symbolic worker free before the deadline"
        try:
            if not worker.wait_ready(deadline - time.monotonic()):
                if worker.proc.is_alive():
                    self._idle.put(worker)  # still starting; keep it
                    return "timeout", "symbolic worker still starting"
                return self._replace(worker, "error", "symbolic worker died while starting")
            worker.conn.send((name, args))
            if worker.conn.poll(max(0.0, deadline - time.monotonic())):
                result = worker.conn.recv()
                self._idle.put(worker)
                return result
            return self._replace(worker, "timeout", f"symbolic check exceeded {timeout:.2f}s")
        except (EOFError, OSError, BrokenPipeError) as e:
            return self._replace(worker, "error", f"symbolic worker failed ({type(e).__name__})")

    def _replace(self, worker: _Worker, status: str, reason: str) -> tuple[str, Any]:
        worker.kill()
        with self._lock:
            self._count -= 1
        self._spawn()
        return status, reason


_POOL = WorkerPool()


def pool() -> WorkerPool:
    """The process-wide symbolic worker pool."""
    return _POOL
