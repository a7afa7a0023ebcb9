"""A pool of worker processes for symbolic (sympy) work, with hard deadlines that work in any thread.

Why processes: a runaway CAS computation cannot be interrupted inside the calling process, and
``signal.alarm`` only works on the main thread (it silently fails in thread pools and Ray workers). Here the
caller waits on a pipe with ``select``; a worker that overruns is killed (SIGKILL) and replaced, and the
caller gets ``("timeout", ...)`` at once.

Workers are plain ``python -m verifiers._symbolic_worker`` subprocesses speaking JSON lines, so they never
re-import the caller's ``__main__`` script (as ``spawn``/``forkserver`` would) and can be started from
daemonic processes. A fresh worker needs about a second to import sympy: the pool keeps ``size`` workers and
starts a replacement the moment one is killed. The first symbolic call in a process waits for that one-time
start (``warm_up()`` does it up front); after that ``call`` never blocks longer than its timeout plus a few
milliseconds.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import selectors
import subprocess
import sys
import threading
import time
import weakref
from typing import Any

STARTUP_TIMEOUT = 60.0  # seconds the one-time pool start may take (importing sympy)
WORKER_MEMORY_BYTES = 4 << 30  # address-space cap per worker: a CAS blow-up fails there, not here
DEFAULT_SIZE = max(2, min(4, os.cpu_count() or 1))
MAX_MESSAGE = 1 << 20


class _Worker:
    __slots__ = ("__weakref__", "buf", "proc", "ready", "sel")

    def __init__(self) -> None:
        env = dict(os.environ)
        # The child must import the same `verifiers` as this process (editable installs, PYTHONPATH=src).
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        env["VERIFIERS_WORKER_MEMORY"] = str(WORKER_MEMORY_BYTES)
        self.proc = subprocess.Popen(
            [sys.executable, "-u", "-m", "verifiers._symbolic_worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
            close_fds=True, start_new_session=True)
        self.buf = b""
        self.ready = False
        self.sel = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        self.sel.register(self.proc.stdout, selectors.EVENT_READ)
        _LIVE.add(self)

    def read_line(self, timeout: float) -> bytes | None:
        """One line from the worker; ``None`` on timeout; raises ``EOFError`` if it died."""
        deadline = time.monotonic() + timeout
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            if not self.sel.select(max(0.0, deadline - time.monotonic())):  # select(0) still polls
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("worker exited")
            self.buf += chunk
            if len(self.buf) > MAX_MESSAGE:
                raise EOFError("worker reply too large")
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def wait_ready(self, timeout: float) -> bool:
        if not self.ready:
            line = self.read_line(max(0.0, timeout))
            self.ready = line == b'"ready"'
        return self.ready

    def send(self, name: str, args: tuple[Any, ...]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps([name, list(args)]).encode() + b"\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        try:
            self.proc.kill()
        except OSError:
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self.sel.close()
        # Reap without blocking this caller: the kernel finishes the kill in the background.
        threading.Thread(target=self.proc.wait, daemon=True).start()


class WorkerPool:
    """Worker processes that run ``verifiers._symbolic`` functions under a deadline."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self._size = size
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._lock = threading.Lock()
        self._count = 0
        self._pid = -1
        self._failure = ""

    def _ensure(self) -> None:
        with self._lock:
            if self._pid != os.getpid():  # after a fork, the parent's workers are not ours
                self._idle = queue.Queue()
                self._count = 0
                self._pid = os.getpid()
            need = self._size - self._count
            self._count += max(0, need)
        for _ in range(max(0, need)):
            self._spawn()

    def _spawn(self) -> None:
        try:
            worker = _Worker()
        except Exception as e:  # noqa: BLE001 - no fork/exec allowed here: report, never hang
            self._failure = f"cannot start a symbolic worker ({type(e).__name__}: {e})"
            with self._lock:
                self._count -= 1
            return
        self._idle.put(worker)

    def resize(self, size: int) -> None:
        """Grow the pool to ``size`` workers (it never shrinks)."""
        if size > self._size:
            self._size = size
            if self._pid == os.getpid():
                self._ensure()

    def _acquire(self, deadline: float) -> _Worker | str:
        """A *ready* idle worker, preferring any ready one over one still importing sympy.

        Returns the worker, ``"timeout"`` when none is ready by ``deadline``, or ``"unavailable"`` when
        every worker failed to start.
        """
        while True:
            if self._count <= 0:
                return "unavailable"
            remaining = deadline - time.monotonic()
            try:
                worker = self._idle.get(timeout=max(0.0, min(remaining, 0.1)))
            except queue.Empty:
                if remaining <= 0:
                    return "timeout"
                continue
            try:
                if worker.wait_ready(0.0):
                    return worker
            except (EOFError, OSError):  # it died while starting: the install is broken, not the answer
                self._discard(worker)
                if self._count <= 0:
                    return "unavailable"
                with self._lock:
                    self._count += 1
                self._spawn()
                continue
            self._idle.put(worker)  # still starting; look at the others, then poll again
            if time.monotonic() >= deadline:
                return "timeout"
            if self._idle.qsize() <= 1:
                time.sleep(0.005)

    def warm_up(self, timeout: float = STARTUP_TIMEOUT) -> bool:
        """Start the pool and wait until one worker is ready; ``False`` if none could start in time."""
        self._ensure()
        got = self._acquire(time.monotonic() + timeout)
        if isinstance(got, str):
            return False
        self._idle.put(got)
        return True

    def call(self, name: str, args: tuple[Any, ...], timeout: float) -> tuple[str, Any]:
        """Run ``verifiers._symbolic.<name>(*args)`` in a worker.

        Returns:
            ``("ok", result)``, ``("timeout", reason)``, ``("error", message)`` when the function raised
            or its worker died, or ``("unavailable", reason)`` when no worker process can be started.
        """
        if self._pid != os.getpid() and not self.warm_up():  # one-time start, see module doc
            return "unavailable", self._failure or "symbolic workers did not start"
        deadline = time.monotonic() + timeout
        worker = self._acquire(deadline)
        if worker == "unavailable":
            return "unavailable", self._failure or "symbolic workers exit while starting"
        if isinstance(worker, str):
            return "timeout", "no ready symbolic worker before the deadline"
        try:
            worker.send(name, args)
            line = worker.read_line(max(0.0, deadline - time.monotonic()))
        except (EOFError, OSError, ValueError) as e:
            self._replace(worker)
            return "error", f"symbolic worker failed ({type(e).__name__}: {e})"
        if line is None:
            self._replace(worker)
            return "timeout", f"symbolic check exceeded {timeout:.2f}s"
        self._idle.put(worker)
        try:
            status, result = json.loads(line)
        except (ValueError, TypeError):
            return "error", "unreadable worker reply"
        return str(status), result

    def _discard(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            self._count -= 1

    def _replace(self, worker: _Worker) -> None:
        self._discard(worker)
        with self._lock:
            self._count += 1
        self._spawn()


_POOL = WorkerPool()
_LIVE: weakref.WeakSet[_Worker] = weakref.WeakSet()


@atexit.register
def _kill_all() -> None:
    """No CAS job outlives this process (the workers also get SIGKILL on parent death on Linux)."""
    for worker in list(_LIVE):
        try:
            worker.proc.kill()
        except OSError:
            pass


def pool() -> WorkerPool:
    """The process-wide symbolic worker pool."""
    return _POOL
