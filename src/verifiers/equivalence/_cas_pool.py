"""A self-sizing pool of symbolic (sympy) worker processes whose calls honour a deadline in any thread.

Why processes: a runaway CAS computation cannot be interrupted inside the calling process, and
``signal.alarm`` only works on the main thread (it silently fails in thread pools and Ray workers). A worker
that overruns its deadline is killed (SIGKILL) and replaced; the caller gets ``("timeout", ...)`` at once.

The deadline covers the whole call: waiting for a free worker, and for the pool's start-up in a fresh
process, counts against it. Callers never start processes themselves; they wait (each on its own event,
earliest deadline served first) until a worker is handed to them or their deadline passes.

One background thread per pool does all process management:

- it starts a *template* (``python -m verifiers.equivalence._cas_worker``: an exec, so the caller's
  ``__main__`` is never re-imported, and it works from daemonic processes and Ray workers), which imports
  sympy once (about a second) and then forks warm workers on request in milliseconds
  (``verifiers.equivalence._cas_worker``);
- it keeps ``size`` workers (default: the CPUs this process may use, at most ``FLOOR_MAX``) and ``SPARE``
  idle ones beyond the callers' demand, forks more while callers are waiting (up to ``max_size``),
  replaces killed workers, and retires extra workers idle for ``IDLE_RETIRE_S``;
- the process-wide pool starts this thread when ``verifiers.equivalence._cas_pool`` is imported, so the
  template warms up while the caller loads its data; a forked child gets a fresh, cold pool on its first call.

Workers die with the caller (parent-death signals chained through the template) and at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import heapq
import itertools
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import weakref
from typing import Any

from verifiers.equivalence._cas_worker import FORK, PID, READY, WARM

STARTUP_TIMEOUT = 60.0  # seconds the template may take to import sympy before it counts as broken
FORK_TIMEOUT = 10.0  # seconds the template may take to answer one fork request
FORK_RETRY_S = 0.5  # after the kernel refused a fork, the next attempt waits this long
RETRY_AFTER_S = 5.0  # after a failed start, calls report "unavailable" this long before a new attempt
IDLE_RETIRE_S = 30.0  # a worker above the floor that has been idle this long is retired
SPARE = 1  # idle workers kept beyond the callers' demand (up to max_size)
FLOOR_MAX = 4  # workers kept warm by default, at most (more are forked on demand, in milliseconds)
WORKER_MEMORY_BYTES = 4 << 30  # address-space cap per worker: a CAS blow-up fails there, not here
MAX_MESSAGE = 1 << 20
ATTEMPTS = 3  # workers one call tries when the one it got turns out dead


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def _timeval(seconds: float) -> bytes:
    """A ``struct timeval`` for SO_RCVTIMEO/SO_SNDTIMEO (at least 1 ms: zero would mean "wait forever")."""
    seconds = max(seconds, 0.001)
    whole = int(seconds)
    return _TIMEVAL.pack(whole, int((seconds - whole) * 1e6))


_TIMEVAL = struct.Struct("@ll")


class _Worker:
    """The caller's handle on one forked worker: its socket and (where the kernel has them) a pidfd.

    The socket stays blocking, with kernel send/receive timeouts (SO_SNDTIMEO/SO_RCVTIMEO) for the
    deadline, so a request is one ``send`` and (usually) one ``recv``: each call into the kernel hands the
    GIL to the other threads and has to win it back, which under 32 busy threads costs up to tens of
    milliseconds a time, and Python's own socket timeouts would add a ``poll`` (another round trip) per step.
    """

    __slots__ = ("last_used", "pid", "pidfd", "sock", "warm")

    def __init__(self, sock: socket.socket, pid: int, warm: bool = False) -> None:
        sock.setblocking(True)  # even under socket.setdefaulttimeout(): the kernel keeps the time
        self.sock = sock
        self.pid = pid
        self.warm = warm  # forked after the template warmed every family
        self.last_used = time.monotonic()
        try:  # a pidfd can never signal a recycled pid; the worker is alive now (it waits for requests)
            self.pidfd: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self.pidfd = None

    def request(self, payload: bytes, deadline: float) -> bytes | None:
        """Send one request and read its reply line; ``None`` at the deadline; ``EOFError`` if it died."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        limit = _timeval(remaining)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, limit)  # setsockopt keeps the GIL (~4 µs)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, limit)
        view = memoryview(payload)
        try:
            while view:  # MSG_NOSIGNAL: a dead worker is an error here, never a SIGPIPE for the caller
                view = view[self.sock.send(view, socket.MSG_NOSIGNAL):]
            buf = self.sock.recv(65536)
            while b"\n" not in buf:
                if not buf or len(buf) > MAX_MESSAGE:
                    raise EOFError("worker exited" if not buf else "worker reply too large")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _timeval(remaining))
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise EOFError("worker exited")
                buf += chunk
        except BlockingIOError:  # the kernel timeout: the deadline passed
            return None
        return buf[:buf.index(b"\n")]

    def kill(self) -> None:
        """SIGKILL the worker and close its handles (its parent, the template, reaps it)."""
        with contextlib.suppress(OSError):  # already gone
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        self.forget()

    def forget(self) -> None:
        """Close this process's handles, no signal (a forked child must not kill its parent's workers)."""
        if self.pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self.pidfd)
            self.pidfd = None
        with contextlib.suppress(OSError):
            self.sock.close()


class ForkRefused(RuntimeError):
    """The template is alive but could not fork a worker right now."""


class _Template:
    """The warm process that forks workers; started and used only by the pool's manager thread."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        env = dict(os.environ)
        # The template must import the same `verifiers` as this process (editable installs, PYTHONPATH=src).
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        env["VERIFIERS_WORKER_MEMORY"] = str(WORKER_MEMORY_BYTES)
        env["VERIFIERS_CALLER_PID"] = str(os.getpid())
        try:
            self.proc = subprocess.Popen(
                # -P: the caller's working directory is not put on the path (a local sympy.py or
                # json.py there must not shadow the real one); its sys.path comes in PYTHONPATH.
                [sys.executable, "-P", "-m", "verifiers.equivalence._cas_worker"], stdin=theirs.fileno(),
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, close_fds=True,
                start_new_session=True)
        finally:
            theirs.close()
        ours.setblocking(True)  # timeouts are the kernel's (SO_RCVTIMEO), see _Worker
        self.control = ours

    def wait_ready(self, timeout: float) -> None:
        """Block until the template says it is warm; ``RuntimeError`` (with its stderr) if it cannot."""
        self.control.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _timeval(timeout))
        try:
            got = self.control.recv(1)
        except BlockingIOError:  # the kernel timeout
            got = None
        except OSError:
            got = b""
        if got != READY:
            why = f"did not start within {timeout:.0f}s" if got is None else "exited"
            raise RuntimeError(f"symbolic worker template {why}{self._last_words()}")
        assert self.proc.stderr is not None
        self.proc.stderr.close()  # the template now writes nothing there
        for option in (socket.SO_RCVTIMEO, socket.SO_SNDTIMEO):
            self.control.setsockopt(socket.SOL_SOCKET, option, _timeval(FORK_TIMEOUT))

    def _last_words(self) -> str:
        """Kill a template that failed to start; its exit code and the last line it wrote to stderr."""
        try:
            self.proc.kill()
            code = self.proc.wait(timeout=5)
            assert self.proc.stderr is not None
            lines = self.proc.stderr.read(8000).decode(errors="replace").strip().splitlines()
        except (OSError, ValueError, subprocess.TimeoutExpired):
            code, lines = None, []
        finally:
            self.forget()
        return f" (code {code})" + (f": {lines[-1][:200]}" if lines else "")

    def finish_warm_up(self, timeout: float) -> None:
        """Have the template warm every remaining family now (it otherwise does so while idle, on the caller's
        CPUs); ``OSError``/``EOFError`` if it does not answer within ``timeout`` (it is then broken)."""
        self.control.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _timeval(timeout))
        try:
            self.control.send(WARM, socket.MSG_NOSIGNAL)
            got = self.control.recv(1)
        except BlockingIOError as e:  # the kernel timeout: a late answer would be misread, so it is broken
            raise EOFError(f"the symbolic worker template did not finish warming up in {timeout:.0f}s") from e
        finally:
            with contextlib.suppress(OSError):
                self.control.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, _timeval(FORK_TIMEOUT))
        if got != WARM:
            raise EOFError("symbolic worker template closed its channel")

    def fork(self, warm: bool = False) -> _Worker:
        """A new worker forked from the template (milliseconds); ``OSError``/``EOFError`` if it is broken.
        ``warm``: the template has warmed every family."""
        self.control.send(FORK, socket.MSG_NOSIGNAL)
        msg, fds, _, _ = socket.recv_fds(self.control, PID.size, 1)
        if len(msg) != PID.size or len(fds) > 1:
            for fd in fds:
                os.close(fd)
            raise EOFError("symbolic worker template closed its channel")
        if not fds:  # the template is fine but the kernel refused a fork (process or memory limits)
            raise ForkRefused(f"the symbolic worker template could not fork (errno {PID.unpack(msg)[0]})")
        return _Worker(socket.socket(fileno=fds[0]), PID.unpack(msg)[0], warm)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.kill()  # its workers follow (parent-death signal)
        self.forget()
        with contextlib.suppress(subprocess.TimeoutExpired):  # pragma: no cover - SIGKILL is not ignorable
            self.proc.wait(timeout=5)

    def forget(self) -> None:
        for stream in (self.control, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class _Waiter:
    """A caller waiting for a worker: the manager or a finishing caller hands one over and sets ``event``."""

    __slots__ = ("deadline", "event", "failure", "gave_up", "worker")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.event = threading.Event()
        self.worker: _Worker | None = None
        self.failure = ""
        self.gave_up = False


class WorkerPool:
    """Worker processes that run ``verifiers.equivalence._cas`` functions under a deadline, from any thread.

    Args:
        size: workers kept warm (default: the usable CPUs, at most ``FLOOR_MAX``).
        max_size: most workers at once while callers queue (default: max(4, 2 x CPUs)).
        start: start the template now, in the background (else on the first call or ``warm_up``).
    """

    def __init__(self, size: int | None = None, *, max_size: int | None = None, start: bool = True) -> None:
        cpus = usable_cpus()
        self._floor = max(1, size if size is not None else min(cpus, FLOOR_MAX))
        self._cap = max(self._floor, max_size if max_size is not None else max(4, 2 * cpus))
        self._seq = itertools.count()
        self._reset()
        _POOLS.add(self)
        if start:
            self._ensure_manager()

    # ----- state (all of it guarded by self._cond) -----

    def _reset(self) -> None:
        """Fresh state for this process (also in a forked child, where the parent's handles are not ours)."""
        self._cond = threading.Condition(threading.Lock())
        self._pid = os.getpid()
        self._idle: list[_Worker] = []
        self._live = 0  # idle + busy workers
        self._forking = 0
        self._waiters: list[tuple[float, int, _Waiter]] = []
        self._waiting = 0
        self._template: _Template | None = None
        self._state = "cold"  # cold -> starting -> ready; failed after a start that did not work
        self._failure = ""
        self._failed_at = 0.0
        self._manager: threading.Thread | None = None
        self._closed = False
        self._call_s: dict[int, float] = {}  # seconds in calls, by thread
        self._fork_after = 0.0  # no fork before this instant (set when the kernel refused one)
        self._warm = False  # the template has warmed every family (see warm_up)
        self._warm_wanted = False  # a caller waits in warm_up: the manager asks the template to finish
        self._warming = False
        self._warmed = threading.Event()  # set when _warm becomes true
        self._stats: dict[str, float] = {"template_starts": 0, "template_start_s": 0.0, "forks": 0,
                                         "fork_s_total": 0.0, "killed": 0, "retired": 0}

    def _after_fork_in_child(self) -> None:
        for w in self._idle:
            w.forget()
        if self._template is not None:
            self._template.forget()
        self._reset()

    # ----- public API -----

    def call(self, name: str, args: tuple[Any, ...], timeout: float) -> tuple[str, Any]:
        """Run ``verifiers.equivalence._cas.<name>(*args)`` in a worker, returning within ``timeout`` seconds.

        Returns:
            ``("ok", result)``; ``("timeout", reason)`` when no worker was free in time or the job overran
            (that worker is killed and replaced); ``("error", message)`` when the function raised or its
            worker died; ``("unavailable", reason)`` when no worker process can be started here.
        """
        return self.call_until(name, args, time.monotonic() + timeout)

    def call_until(self, name: str, args: tuple[Any, ...], deadline: float) -> tuple[str, Any]:
        """``call`` with an absolute ``time.monotonic()`` deadline (several calls of a verdict share one)."""
        start = time.monotonic()
        try:
            return self._call(name, args, deadline)
        finally:
            # Per thread, so no lock: a contended lock under many busy threads costs a GIL round trip.
            tid = threading.get_ident()
            self._call_s[tid] = self._call_s.get(tid, 0.0) + time.monotonic() - start

    def seconds_in_calls(self) -> float:
        """Wall seconds this process's callers have spent in ``call``/``call_until`` (waiting included)."""
        return sum(list(self._call_s.values()))  # list(): one atomic copy while other threads add keys

    def _call(self, name: str, args: tuple[Any, ...], deadline: float) -> tuple[str, Any]:
        try:
            payload = json.dumps([name, list(args)]).encode() + b"\n"
        except (TypeError, ValueError) as e:
            return "error", f"arguments are not JSON ({type(e).__name__}: {e})"
        failed = ""
        for _ in range(ATTEMPTS):
            got = self._acquire(deadline)
            if isinstance(got, tuple):
                return got
            if time.monotonic() >= deadline:  # handed over just too late: the worker is fine, keep it
                self._release(got)
                return "timeout", "no symbolic worker was free before the deadline"
            try:
                line = got.request(payload, deadline)
            except (EOFError, OSError) as e:
                self._lose(got)
                self._check_template()
                # Workers killed from outside (or with their template) die while idle, and a caller only
                # learns it when it writes or reads; a job that kills its worker kills every one it gets.
                failed = f"symbolic worker failed ({type(e).__name__}: {e})"
                continue
            if line is None:
                self._lose(got)
                return "timeout", "symbolic check overran its deadline"
            self._release(got)
            try:
                status, result = json.loads(line)
            except (ValueError, TypeError):
                return "error", "unreadable worker reply"
            return str(status), result
        return "error", failed

    def warm_up(self, timeout: float = STARTUP_TIMEOUT) -> bool:
        """Start the pool if needed and wait for a ready worker and a template that has finished warming up;
        ``False`` if either is not there within ``timeout``.

        Without this call the template warms its last families of checks while idle, in the first seconds
        after it is ready, on the CPUs this process may use; after it, nothing of the pool runs until a call.
        """
        deadline = time.monotonic() + timeout
        while True:
            got = self._acquire(deadline)
            if isinstance(got, tuple):
                return False
            self._release(got)
            with self._cond:
                if self._warm and got.warm:
                    return True
                self._warm_wanted = True
                event = self._warmed
                self._cond.notify()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            event.wait(min(remaining, 0.25))  # a new template (after a crash) gets a new event: poll too

    def stats(self) -> dict[str, float]:
        """Counters: workers now (live, idle, waiting callers), the template's pid, starts and start-up
        seconds, forks and mean fork milliseconds, workers killed (overran or died) and retired (idle)."""
        with self._cond:
            s = dict(self._stats)
            s.update(live=self._live, idle=len(self._idle), waiting=self._waiting, floor=self._floor, warm=int(self._warm),
                     cap=self._cap, fork_ms_mean=1e3 * s["fork_s_total"] / max(1, s["forks"]),
                     template_pid=self._template.proc.pid if self._template is not None else 0)
            return s

    def close(self) -> None:
        """Kill every worker and the template; later calls return ``("unavailable", ...)``."""
        with self._cond:
            if self._pid != os.getpid():
                return
            self._closed = True
            idle, self._idle = self._idle, []
            template, self._template = self._template, None
            self._live -= len(idle)
            self._fail_waiters("the symbolic worker pool is closed")
            self._cond.notify()
        for w in idle:
            w.kill()
        if template is not None:
            template.kill()

    # ----- callers' side -----

    def _acquire(self, deadline: float) -> _Worker | tuple[str, str]:
        """A worker handed to this caller, or ``("timeout"|"unavailable", reason)`` by ``deadline``."""
        if self._pid != os.getpid():  # forked without the at-fork hook (e.g. a raw syscall)
            self._after_fork_in_child()
        with self._cond:
            if self._closed:
                return "unavailable", "the symbolic worker pool is closed"
            if self._idle:
                # Most recently used first, so the others can retire. One that died while idle shows at
                # its first read or write; the call then tries one more worker.
                return self._idle.pop()
            if self._state == "failed":
                if time.monotonic() - self._failed_at < RETRY_AFTER_S:
                    return "unavailable", self._failure
                self._state = "cold"
            if not self._ensure_manager():
                return "unavailable", "cannot start the symbolic worker pool's thread"
            waiter = _Waiter(deadline)
            heapq.heappush(self._waiters, (deadline, next(self._seq), waiter))
            self._waiting += 1
            self._cond.notify()  # the manager may fork one more worker
        waiter.event.wait(max(0.0, deadline - time.monotonic()))
        with self._cond:
            if waiter.worker is not None:
                return waiter.worker
            if not waiter.failure:
                waiter.gave_up = True
                self._waiting -= 1
                if self._state in ("cold", "starting"):
                    return "timeout", ("the symbolic workers were still starting "
                                       "(about a second, once per process)")
                return "timeout", "no symbolic worker was free before the deadline"
        return "unavailable", waiter.failure

    def _release(self, worker: _Worker) -> None:
        with self._cond:
            stale = self._warm and not worker.warm  # forked before the template finished warming up
            if stale and self._pid == os.getpid() and not self._closed:
                self._live -= 1
                self._cond.notify()  # the manager forks a warm replacement
            elif self._pid == os.getpid() and not self._closed:
                self._hand_over(worker)
                return
        worker.kill()

    def _lose(self, worker: _Worker) -> None:
        """A worker that overran or died: kill it; the manager forks a replacement."""
        worker.kill()
        with self._cond:
            if self._pid == os.getpid():
                self._live -= 1
                self._stats["killed"] += 1
                self._cond.notify()

    def _check_template(self) -> None:
        """After a worker died: if its template died too, so did every idle worker; drop them now rather
        than let callers find them one by one (the manager starts a new template)."""
        template = self._template
        if template is None or template.alive():
            return
        with self._cond:
            if self._template is not template:
                return
            self._drop_idle()
            self._cond.notify()

    def _drop_idle(self) -> None:
        """Forget every idle worker (lock held): their template died, and they with it."""
        for w in self._idle:
            w.forget()
        self._live -= len(self._idle)
        self._idle.clear()

    def _hand_over(self, worker: _Worker) -> None:
        """Give a free worker to the waiting caller with the earliest deadline, else park it (lock held)."""
        now = time.monotonic()
        while self._waiters:
            deadline, _, waiter = heapq.heappop(self._waiters)
            if waiter.gave_up or deadline <= now:
                continue  # a waiter past its deadline reports "timeout" itself
            waiter.worker = worker
            self._waiting -= 1
            waiter.event.set()
            return
        worker.last_used = now
        self._idle.append(worker)

    def _fail_waiters(self, why: str) -> None:
        for _, _, waiter in self._waiters:
            if not waiter.gave_up and waiter.worker is None:
                waiter.failure = why
                self._waiting -= 1
                waiter.event.set()
        self._waiters.clear()

    # ----- the manager thread -----

    def _ensure_manager(self) -> bool:
        if self._manager is not None and self._manager.is_alive():
            return True
        # PR_SET_PDEATHSIG fires when the *thread* that started the template ends, so one long-lived
        # thread starts it: a caller's short-lived thread would take the template down with it.
        thread = threading.Thread(target=self._manage, name="verifiers-cas-pool", daemon=True)
        try:
            thread.start()
        except RuntimeError:  # interpreter shutting down
            return False
        self._manager = thread
        return True

    def _manage(self) -> None:
        while True:
            with self._cond:
                action = self._next_action()
                while action is None:
                    self._cond.wait(timeout=self._tick())
                    action = self._next_action()
            if action == "exit":
                return
            try:
                action()
            except Exception:  # noqa: BLE001 - the manager must outlive any single failure
                time.sleep(0.05)
                continue

    def _tick(self) -> float | None:
        """How long the manager may sleep: wake for idle retirement, a fork retry, a dead template."""
        if self._template is None:
            return None
        return max(0.01, min(1.0, self._fork_after - time.monotonic())) if self._fork_after else 1.0

    def _next_action(self) -> Any:
        """The manager's next step (lock held): ``"exit"``, a bound method to run unlocked, or ``None``."""
        if self._closed or self._pid != os.getpid():
            return "exit"
        if self._state in ("cold", "ready") and (self._template is None or not self._template.alive()):
            if self._template is not None:  # it died, and its workers with it
                self._template.forget()
                self._template = None
                self._drop_idle()
            self._state = "starting"
            return self._start_template
        if self._state != "ready":
            return None
        busy = self._live - len(self._idle)
        # One spare beyond the demand, so that a caller never waits for a fork (forks need this thread,
        # and this thread needs the GIL, which 32 busy threads make slow to get).
        wanted = max(self._floor, min(self._cap, busy + self._waiting + SPARE))
        if self._live + self._forking < wanted and time.monotonic() >= self._fork_after:
            self._forking += 1
            return self._fork
        if self._warm_wanted and not self._warm and not self._warming and not self._forking:
            self._warming = True
            return self._finish_warm_up
        if len(self._idle) > 0 and self._live > self._floor:
            oldest = min(self._idle, key=lambda w: w.last_used)
            if time.monotonic() - oldest.last_used > IDLE_RETIRE_S:
                self._idle.remove(oldest)
                self._live -= 1
                self._stats["retired"] += 1
                return oldest.kill
        return None

    def _start_template(self) -> None:
        start = time.monotonic()
        try:
            template = _Template()
            template.wait_ready(STARTUP_TIMEOUT)
        except Exception as e:  # noqa: BLE001 - any failure to start is reported to callers, never raised
            with self._cond:
                self._state = "failed"
                self._failed_at = time.monotonic()
                self._failure = f"cannot start symbolic workers ({e})"[:300]
                self._fail_waiters(self._failure)
            return
        with self._cond:
            if self._closed or self._pid != os.getpid():
                template.kill()
                return
            self._template = template
            self._state = "ready"
            self._warm = False
            self._warmed = threading.Event()
            self._stats["template_starts"] += 1
            self._stats["template_start_s"] = round(time.monotonic() - start, 3)
            self._cond.notify()

    def _finish_warm_up(self) -> None:
        """Have the template warm every family; then replace the idle workers forked before that."""
        template = self._template
        try:
            if template is None:
                raise EOFError("no template")
            template.finish_warm_up(STARTUP_TIMEOUT)
        except Exception:  # noqa: BLE001 - a template that cannot answer is replaced (as in _fork)
            with self._cond:
                self._warming = False
                self._drop_template(template)
            if template is not None:
                template.kill()
            return
        with self._cond:
            self._warming = False
            if self._template is not template:
                return
            self._warm = True
            self._warmed.set()
            stale = [w for w in self._idle if not w.warm]
            self._idle = [w for w in self._idle if w.warm]
            self._live -= len(stale)
            self._cond.notify()  # the manager forks their replacements
        for w in stale:
            w.kill()

    def _drop_template(self, template: _Template | None) -> None:
        """Forget a template that stopped answering (lock held; the caller kills it): the manager starts a new one."""
        if self._template is template and template is not None:
            self._template = None
            self._state = "cold"
            self._cond.notify()

    def _fork(self) -> None:
        template = self._template
        start = time.monotonic()
        try:
            if template is None:
                raise EOFError("no template")
            with self._cond:
                warm = self._warm
            worker = template.fork(warm)
        except ForkRefused:
            with self._cond:
                self._forking -= 1
                self._fork_after = time.monotonic() + FORK_RETRY_S
            return
        except Exception:  # noqa: BLE001 - a template that cannot answer is replaced
            with self._cond:
                self._forking -= 1
                self._drop_template(template)
            if template is not None:
                template.kill()
            return
        with self._cond:
            self._forking -= 1
            if self._closed or self._pid != os.getpid() or self._template is not template:
                worker.kill()
                return
            self._live += 1
            self._stats["forks"] += 1
            self._stats["fork_s_total"] += time.monotonic() - start
            self._hand_over(worker)


_POOLS: weakref.WeakSet[WorkerPool] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for p in list(_POOLS):
        p._after_fork_in_child()


def _close_all() -> None:
    """No CAS job outlives this process (the workers also get SIGKILL on parent death on Linux)."""
    for p in list(_POOLS):
        p.close()


os.register_at_fork(after_in_child=_after_fork_in_child)
atexit.register(_close_all)
_POOL = WorkerPool()


def pool() -> WorkerPool:
    """The process-wide symbolic worker pool (started in the background when this module is imported)."""
    return _POOL
