"""`CodePool`: warm sandbox workers, pipelined requests, judging in the parent.

One dispatcher thread owns every worker pipe (a `selectors` loop); callers submit jobs from any thread
and wait on futures. Each worker gets up to ``pipeline`` requests at once so it never idles waiting for
the parent. The parent enforces a wall-clock deadline on the program at the head of each worker's queue
and kills the whole sandbox if the worker does not answer in time; workers are recycled after
``recycle_after`` programs or any anomaly, and their queued jobs move to other workers.
"""

from __future__ import annotations

import collections
import itertools
import os
import selectors
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, wait
from dataclasses import dataclass, field
from typing import Any, Literal

from verifiers.errors import ConfigError, SandboxError
from verifiers.sandbox import _isolation, _seccomp
from verifiers.sandbox._judge import TestPlan, defined_names, plan_test
from verifiers.sandbox._protocol import (
    FrameReader,
    ProtocolError,
    encode_json_frame,
    loads_untrusted,
)
from verifiers.sandbox._result import ExecutionResult, build_result, failed_result, no_tests_result

Isolation = Literal["bwrap", "process"]
# Budgets and timings (seconds / bytes).
STARTUP_TIMEOUT_S = 30.0
KILL_GRACE_S = 2.0
MAX_CODE_CHARS = 1_000_000
MAX_RESULT_BYTES = 4 * 1024 * 1024
MAX_CHILD_FRAME_BYTES = 1024 * 1024
MAX_START_FAILURES = 3
# While every worker has at least COALESCE_DEPTH programs queued, the dispatcher naps COALESCE_S after
# taking answers, so it wakes once per few programs instead of once per program (2 cores: each wake-up
# preempts a sandbox).
COALESCE_S = 0.002
COALESCE_DEPTH = 3
MAP_CHUNK = 16  # `map` hands jobs to the dispatcher this many at a time (one wake-up each)
READ_BYTES = 1 << 16  # per pipe read: a 1 MiB buffer is mmap-ed and unmapped on every read
# Imported once per worker (shared copy-on-write by every child) and restored before tests run.
WARM_MODULES = ("math", "re", "collections", "heapq", "itertools", "functools", "operator", "bisect", "sys")


@dataclass
class _Job:
    code: str
    setup: str
    plans: list[TestPlan]
    timeout: float
    future: Future[ExecutionResult]
    id: int = 0
    frame: bytes = b""
    attempts: int = 0


@dataclass
class _Worker:
    slot: int
    proc: subprocess.Popen[bytes]
    stderr_path: str
    started: float
    reader: FrameReader = field(default_factory=lambda: FrameReader(MAX_RESULT_BYTES + 65536))
    out: bytearray = field(default_factory=bytearray)
    inflight: collections.deque[_Job] = field(default_factory=collections.deque)
    ready: bool = False
    head_since: float = 0.0
    header: dict[str, Any] | None = None
    done: int = 0
    draining: bool = False

    def deadline(self) -> float:
        if not self.ready:
            return self.started + STARTUP_TIMEOUT_S
        if self.inflight:
            return self.head_since + self.inflight[0].timeout + KILL_GRACE_S
        return float("inf")


class CodePool:
    """A pool of sandboxed Python workers that run programs against assert tests.

    Args:
        workers: number of sandbox workers (default: CPU count).
        memory_mb: address-space limit of each program.
        timeout_s: default wall-clock limit per program (all its tests together).
        isolation: ``"bwrap"`` (default; refuses to start without bubblewrap) or ``"process"`` (UNSAFE:
            programs run as plain child processes of this user, for trusted code only).
        backend: ``"local"`` or ``"ray"`` (workers as Ray actors; see `verifiers.sandbox._ray`).
        max_procs: RLIMIT_NPROC of a program (processes and threads).
        max_output_bytes: stdout/stderr kept per program.
        recycle_after: programs per worker before it is replaced.
        pipeline: requests queued on a worker at once.
        seccomp: load the syscall deny list of `verifiers.sandbox._seccomp` (default: on where supported).

    Example:
        >>> with CodePool(workers=2) as pool:                      # doctest: +SKIP
        ...     pool.run("def f(x): return x + 1", ["assert f(1) == 2"]).passed
        True
    """

    def __init__(self, workers: int | None = None, memory_mb: int = 512, timeout_s: float = 5.0, *,
                 isolation: Isolation = "bwrap", backend: Literal["local", "ray"] = "local", max_procs: int = 32,
                 max_output_bytes: int = 8192, recycle_after: int = 2000, pipeline: int = 8,
                 seccomp: bool | None = None, ray_address: str | None = None) -> None:
        if isolation not in ("bwrap", "process"):
            raise ConfigError(f"isolation must be 'bwrap' or 'process', got {isolation!r}")
        if backend not in ("local", "ray"):
            raise ConfigError(f"backend must be 'local' or 'ray', got {backend!r}")
        if workers is not None and not 1 <= workers <= 100:
            raise ConfigError(f"workers must be between 1 and 100, got {workers}")
        if timeout_s <= 0 or memory_mb < 32 or max_procs < 2 or pipeline < 1 or recycle_after < 1:
            raise ConfigError("timeout_s must be > 0, memory_mb >= 32, max_procs >= 2, pipeline >= 1, "
                              f"recycle_after >= 1 (got {timeout_s}, {memory_mb}, {max_procs}, {pipeline}, "
                              f"{recycle_after})")
        self.workers = workers or os.cpu_count() or 1
        self.memory_mb = memory_mb
        self.timeout_s = float(timeout_s)
        self.isolation = isolation
        self.backend = backend
        self.max_procs = max_procs
        self.max_output_bytes = max_output_bytes
        self.recycle_after = recycle_after
        self.pipeline = pipeline
        self.ray_address = ray_address
        if seccomp and not _seccomp.supported():
            raise ConfigError("seccomp=True needs x86-64; pass seccomp=None (auto) or False on this machine")
        self.seccomp = _seccomp.supported() if seccomp is None else bool(seccomp)
        self._ray: Any = None
        self._lock = threading.Lock()
        self._submitted: collections.deque[_Job] = collections.deque()
        self._queue: collections.deque[_Job] = collections.deque()
        self._workers: list[_Worker] = []
        self._ids = itertools.count(1)
        self._thread: threading.Thread | None = None
        self._closing = False
        self._broken: str | None = None
        self._start_failures = 0
        self._nproc: int | None = None
        self._wake_r, self._wake_w = -1, -1
        self._tmpdirs: list[tempfile.TemporaryDirectory[str]] = []
        self.stats = collections.Counter[str]()

    # ------------------------------------------------------------------------------------------ public
    def start(self) -> CodePool:
        """Start the workers and wait until every one is ready; `SandboxError` if isolation is unavailable."""
        if self._thread is not None or self._ray is not None:
            return self
        if self.backend == "ray":
            from verifiers.sandbox._ray import RayBackend

            self._ray = RayBackend(self)
            return self
        if self.isolation == "bwrap":
            _isolation.require_bwrap()
            _isolation.python_layout()
        self._closing = False
        self._broken = None
        self._start_failures = 0
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        # The dispatcher thread spawns every worker: each bwrap gets PDEATHSIG tied to that thread, so
        # sandboxes die with the pool even if this process is killed.
        ready = threading.Event()
        self._start_exc: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(ready,), name="codepool-dispatch", daemon=True)
        self._thread.start()
        ready.wait()
        if self._start_exc is not None:
            self._thread.join()
            self._thread = None
            for fd in (self._wake_r, self._wake_w):
                os.close(fd)
            raise self._start_exc
        return self

    def _run(self, ready: threading.Event) -> None:
        try:
            for slot in range(self.workers):
                self._workers.append(self._spawn(slot))
            self._wait_ready()
        except SandboxError as exc:
            self._start_exc = exc
        except Exception as exc:  # noqa: BLE001  (start() must never wait forever)
            self._start_exc = SandboxError(f"could not start sandbox workers: {exc!r}")
        ready.set()
        if self._start_exc is None:
            self._loop()

    def submit(self, code: str, tests: Sequence[str], setup_code: str = "",
               timeout_s: float | None = None) -> Future[ExecutionResult]:
        """Queue one program; the future resolves to its `ExecutionResult` (never raises for bad code)."""
        fut, job = self._job(code, tests, setup_code, timeout_s)
        if job is not None:
            self._enqueue([job])
        return fut

    def _job(self, code: str, tests: Sequence[str], setup_code: str,
             timeout_s: float | None) -> tuple[Future[ExecutionResult], _Job | None]:
        """A future and the job to run (None: the future is already resolved)."""
        fut: Future[ExecutionResult] = Future()
        if not isinstance(code, str) or not isinstance(setup_code, str):
            raise ConfigError("code and setup_code must be str")
        if isinstance(tests, str):
            raise ConfigError("tests must be a list of assert statements, not one string")
        tests = [str(t) for t in tests]
        if not tests:
            fut.set_result(no_tests_result(tests))
            return fut, None
        plans, first = [], 0
        shadowed = defined_names(code)
        for t in tests:
            p = plan_test(t, first, shadowed)
            plans.append(p)
            first += len(p.leaves)
        if len(code) > MAX_CODE_CHARS:
            fut.set_result(failed_result(plans, "runtime_error", f"program longer than {MAX_CODE_CHARS} characters"))
            return fut, None
        timeout = float(timeout_s) if timeout_s is not None else self.timeout_s
        return fut, _Job(code, setup_code, plans, timeout, fut)

    def _enqueue(self, jobs: list[_Job]) -> None:
        """Hand jobs to the backend, waking the dispatcher once for all of them."""
        if not jobs:
            return
        if self._ray is None and self._thread is None:
            self.start()
        if self._ray is not None:
            for job in jobs:
                self._ray.submit(job)
            return
        if self._broken:
            raise SandboxError(self._broken)
        with self._lock:
            self._submitted.extend(jobs)
        os.write(self._wake_w, b"x")

    def run(self, code: str, tests: Sequence[str], setup_code: str = "",
            timeout_s: float | None = None) -> ExecutionResult:
        """Run one program against ``tests`` (assert statements) and judge it in this process."""
        return self.submit(code, tests, setup_code, timeout_s).result()

    def map(self, items: Iterable[Mapping[str, Any] | Sequence[Any]]) -> list[ExecutionResult]:
        """Run many programs in parallel; results in input order.

        Args:
            items: mappings with ``code``, ``tests`` and optional ``setup_code``/``timeout_s``, or tuples
                ``(code, tests[, setup_code[, timeout_s]])``.
        """
        futs, jobs = [], []
        for it in items:
            if isinstance(it, Mapping):
                fut, job = self._job(it["code"], it["tests"], it.get("setup_code", ""), it.get("timeout_s"))
            else:
                fut, job = self._job(*self._tuple_args(it))
            futs.append(fut)
            if job is not None:
                jobs.append(job)
            if len(jobs) >= MAP_CHUNK:  # workers start while the rest is still being planned
                self._enqueue(jobs)
                jobs = []
        self._enqueue(jobs)
        wait(futs)  # one wake-up for the whole batch, not one per result
        return [f.result() for f in futs]

    @staticmethod
    def _tuple_args(it: Sequence[Any]) -> tuple[str, Sequence[str], str, float | None]:
        if not 2 <= len(it) <= 4:
            raise ConfigError(f"map items are (code, tests[, setup_code[, timeout_s]]), got {len(it)} fields")
        padded = [*it, *["", None][len(it) - 2:]]  # defaults for the fields left out
        return padded[0], padded[1], padded[2], padded[3]

    def close(self) -> None:
        """Stop every worker (pending jobs still finish first)."""
        if self._ray is not None:
            self._ray.close()
            self._ray = None
            return
        if self._thread is None:
            for w in self._workers:
                self._kill(w)
            self._workers.clear()
            return
        self._closing = True
        os.write(self._wake_w, b"x")
        self._thread.join()
        self._thread = None
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        for d in self._tmpdirs:
            d.cleanup()

    def __enter__(self) -> CodePool:  # noqa: PYI034
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------ workers
    def _spawn(self, slot: int) -> _Worker:
        fd, err_path = tempfile.mkstemp(prefix="codepool-worker-", suffix=".stderr")
        cfg: dict[str, Any] = {"sandboxed": self.isolation == "bwrap", "max_child_frame": MAX_CHILD_FRAME_BYTES,
                               "modules": list(WARM_MODULES)}
        pass_fds: tuple[int, ...] = ()
        if self.isolation == "bwrap":
            if self.seccomp:
                pass_fds = (_seccomp.filter_fd(),)
            argv = _isolation.bwrap_argv(slot, seccomp_fd=pass_fds[0] if pass_fds else None)
            cfg["tmp"] = "/tmp"
            if os.geteuid() == 0:
                cfg["nproc"] = self.max_procs
            else:  # the user's own uid: leave room for what already runs
                cfg["nproc"] = _isolation.count_processes(os.getuid()) + self.max_procs
            cwd = "/"
        else:
            argv = _isolation.process_argv()
            d = tempfile.TemporaryDirectory(prefix="codepool-")
            self._tmpdirs.append(d)
            cfg["tmp"] = cwd = d.name
        self._nproc = cfg.get("nproc")
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=fd, env={},
                                cwd=cwd, close_fds=True, start_new_session=True, pass_fds=pass_fds)
        os.close(fd)
        for f in pass_fds:
            os.close(f)
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        w = _Worker(slot, proc, err_path, time.monotonic())
        w.out += _isolation.worker_payload() + encode_json_frame(cfg)
        self.stats["workers_started"] += 1
        return w

    def _kill(self, w: _Worker, graceful: bool = False) -> None:
        if graceful and w.ready and not w.inflight:
            # EOF on stdin ends the worker; bwrap then exits on its own (and its CPU time gets accounted).
            try:
                assert w.proc.stdin is not None
                w.proc.stdin.close()
                w.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        try:
            w.proc.kill()
        except OSError:
            pass
        for f in (w.proc.stdin, w.proc.stdout):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        try:
            w.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.unlink(w.stderr_path)
        except OSError:
            pass

    def _stderr_of(self, w: _Worker) -> str:
        try:
            with open(w.stderr_path, "rb") as f:
                return f.read(4000).decode("utf-8", "replace").strip()
        except OSError:
            return ""

    def _wait_ready(self) -> None:
        """Drive the startup handshake synchronously so a broken sandbox fails `start()` loudly."""
        sel = selectors.DefaultSelector()
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        try:
            while not all(w.ready for w in self._workers) or self._broken:
                if self._broken:
                    raise SandboxError(self._broken)
                for w in self._workers:
                    self._flush(w)
                    if w.proc.poll() is not None and not w.ready:
                        raise SandboxError(self._start_error(w))
                sel = selectors.DefaultSelector()
                for w in self._workers:
                    if not w.ready:
                        assert w.proc.stdout is not None
                        sel.register(w.proc.stdout.fileno(), selectors.EVENT_READ, w)
                for key, _ in sel.select(timeout=0.05):
                    self._on_readable(key.data)
                if time.monotonic() > deadline:
                    raise SandboxError(f"sandbox workers did not start within {STARTUP_TIMEOUT_S}s: "
                                       f"{self._stderr_of(self._workers[0])}")
        except SandboxError:
            for w in self._workers:
                self._kill(w)
            self._workers.clear()
            raise
        finally:
            sel.close()

    def _start_error(self, w: _Worker) -> str:
        err = self._stderr_of(w) or f"worker exited with code {w.proc.returncode}"
        if self.isolation == "bwrap":
            return (f"the bubblewrap sandbox failed to start: {err}. Check that bwrap can create namespaces "
                    "here (as root: mount/pid/net namespaces; as a user: unprivileged user namespaces, "
                    "e.g. sysctl kernel.unprivileged_userns_clone=1), or pass isolation='process' "
                    "(UNSAFE: no isolation, trusted code only).")
        return f"the process worker failed to start: {err}"

    # --------------------------------------------------------------------------------------- dispatcher
    def _loop(self) -> None:
        sel = selectors.DefaultSelector()
        sel.register(self._wake_r, selectors.EVENT_READ, None)
        registered: dict[int, tuple[_Worker, int]] = {}
        answered = False
        while True:
            with self._lock:
                while self._submitted:
                    job = self._submitted.popleft()
                    job.id = next(self._ids)
                    self._queue.append(job)
            if self._closing and not self._queue and not any(w.inflight for w in self._workers):
                break
            self._assign()
            now = time.monotonic()
            for w in list(self._workers):
                if now >= w.deadline():
                    self._on_deadline(w)
            self._maintain()
            wanted: dict[int, tuple[_Worker, int]] = {}
            for w in self._workers:
                assert w.proc.stdout is not None and w.proc.stdin is not None
                wanted[w.proc.stdout.fileno()] = (w, selectors.EVENT_READ)
                if w.out and not w.proc.stdin.closed:
                    wanted[w.proc.stdin.fileno()] = (w, selectors.EVENT_WRITE)
            for fd in list(registered):
                if fd not in wanted or wanted[fd] != registered[fd]:
                    sel.unregister(fd)
                    del registered[fd]
            for fd, (w, ev) in wanted.items():
                if fd not in registered:
                    sel.register(fd, ev, w)
                    registered[fd] = (w, ev)
            timeout = min((w.deadline() for w in self._workers), default=now + 1.0) - time.monotonic()
            if answered and all(len(w.inflight) >= COALESCE_DEPTH for w in self._workers):
                time.sleep(COALESCE_S)  # every worker has work queued: let answers pile up, wake less often
            answered = False
            for key, ev in sel.select(timeout=max(0.0, min(timeout, 1.0))):
                if key.data is None:
                    try:
                        os.read(self._wake_r, 4096)
                    except BlockingIOError:
                        pass
                    continue
                w = key.data
                if w not in self._workers:
                    continue
                if ev & selectors.EVENT_WRITE:
                    self._flush(w)
                if ev & selectors.EVENT_READ:
                    self._on_readable(w)
                    answered = True
        sel.close()
        for w in self._workers:
            self._kill(w, graceful=True)
        self._workers.clear()

    def _assign(self) -> None:
        """Deal queued jobs one at a time to the least-loaded worker, then write each worker's share at once.

        A worker takes jobs while it has fewer than ``pipeline``, but only starts a top-up when at most half
        full (fewer, larger pipe writes); dealing one job at a time spreads a small batch over all workers.
        """
        refill_at = self.pipeline // 2
        touched: list[_Worker] = []
        while self._queue:
            if self._broken:
                job = self._queue.popleft()
                job.future.set_exception(SandboxError(self._broken))
                continue
            cands = [w for w in self._workers if not w.draining and len(w.inflight) < self.pipeline
                     and (len(w.inflight) <= refill_at or any(w is t for t in touched))]
            if not cands:
                break
            w = min(cands, key=lambda x: len(x.inflight))
            if not w.inflight:
                w.head_since = time.monotonic()
            job = self._queue.popleft()
            if not job.frame:
                job.frame = self._request(job)
            w.inflight.append(job)
            w.out += job.frame
            if not any(w is t for t in touched):
                touched.append(w)
        for w in touched:
            self._flush(w)

    def _request(self, job: _Job) -> bytes:
        pre = [[leaf.index, leaf.source, list(leaf.modules)] for p in job.plans for leaf in p.leaves
               if leaf.independent]
        post = [[leaf.index, leaf.source] for p in job.plans for leaf in p.leaves if not leaf.independent]
        mem = self.memory_mb * 1024 * 1024
        limits = {"RLIMIT_AS": mem, "RLIMIT_CPU": int(job.timeout) + 1, "RLIMIT_FSIZE": 16 * 1024 * 1024,
                  "RLIMIT_NOFILE": 64, "RLIMIT_CORE": 0}
        if self._nproc:
            limits["RLIMIT_NPROC"] = self._nproc
        req = {"id": job.id, "code": job.code, "setup": job.setup, "pre": pre, "post": post,
               "timeout": job.timeout, "limits": limits, "max_blob": MAX_RESULT_BYTES,
               "max_output": self.max_output_bytes}
        return encode_json_frame(req)

    def _flush(self, w: _Worker) -> None:
        assert w.proc.stdin is not None
        while w.out and not w.proc.stdin.closed:
            try:
                n = os.write(w.proc.stdin.fileno(), w.out)
            except BlockingIOError:
                return
            except (BrokenPipeError, OSError):
                w.out.clear()
                return
            del w.out[:n]

    def _on_readable(self, w: _Worker) -> None:
        assert w.proc.stdout is not None
        try:
            data = os.read(w.proc.stdout.fileno(), READ_BYTES)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._retire(w, "crashed", "the sandbox worker died")
            return
        try:
            frames = w.reader.feed(data)
        except ProtocolError as exc:
            self._retire(w, "crashed", f"protocol error from worker: {exc}")
            return
        for fr in frames:
            if not w.ready:
                msg = loads_untrusted(fr)
                if isinstance(msg, dict) and "ready" in msg:
                    w.ready = True
                    w.head_since = time.monotonic()
                    continue
                raise_msg = msg.get("fatal") if isinstance(msg, dict) else msg
                self._broken = f"sandbox worker refused to start: {raise_msg}"
                self._retire(w, "crashed", self._broken)
                return
            if w.header is None:
                try:
                    hdr = loads_untrusted(fr)
                except ProtocolError as exc:
                    self._retire(w, "crashed", str(exc))
                    return
                if not isinstance(hdr, dict) or not w.inflight or hdr.get("id") != w.inflight[0].id:
                    self._retire(w, "crashed", "worker answered out of order")
                    return
                w.header = hdr
                continue
            job = w.inflight.popleft()
            hdr, w.header = w.header, None
            try:
                res = build_result(job.plans, hdr, fr)
            except Exception as exc:  # noqa: BLE001  (a judging bug must not kill the dispatcher)
                res = failed_result(job.plans, "crashed", f"internal judging error: {exc!r}")
            self.stats["programs"] += 1
            job.future.set_result(res)
            w.head_since = time.monotonic()
            w.done += 1
            if not w.draining and (w.done >= self.recycle_after or hdr.get("anomaly") is True):
                w.draining = True
                self.stats["recycled"] += 1

    def _on_deadline(self, w: _Worker) -> None:
        if not w.ready:
            self._retire(w, None, "worker did not start in time")
            return
        self.stats["hard_kills"] += 1
        self._retire(w, "timeout", "time limit exceeded (worker killed by the parent)")

    def _retire(self, w: _Worker, head_status: str | None, detail: str) -> None:
        """Kill ``w``; its head job gets ``head_status`` (None: requeue it), the rest are requeued."""
        if w not in self._workers:
            return
        self._workers.remove(w)
        was_ready = w.ready
        err = "" if w.ready else self._start_error(w)
        self._kill(w)
        jobs = list(w.inflight)
        if jobs and head_status is not None and was_ready:
            head = jobs.pop(0)
            head.future.set_result(failed_result(head.plans, head_status, detail,  # type: ignore[arg-type]
                                                 time.monotonic() - w.head_since))
        for job in reversed(jobs):
            job.attempts += 1
            if job.attempts > 3:
                job.future.set_result(failed_result(job.plans, "crashed", "workers kept dying: " + detail))
            else:
                self._queue.appendleft(job)
        if not was_ready:
            self._start_failures += 1
            if self._start_failures >= MAX_START_FAILURES:
                self._broken = self._broken or err
        else:
            self._start_failures = 0
        if not self._closing and not self._broken:
            self._workers.append(self._spawn(w.slot))

    def _maintain(self) -> None:
        for w in list(self._workers):
            if w.draining and not w.inflight:
                self._workers.remove(w)
                self._kill(w, graceful=True)
                if not self._closing:
                    self._workers.append(self._spawn(w.slot))
