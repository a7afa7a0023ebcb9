"""The local backend, `LocalPool`: warm sandboxes on this host, pipelined programs, judging in the parent.

One dispatcher thread owns every sandbox (a `selectors` loop); callers submit jobs from any thread and
wait on futures. Each sandbox (`_sandbox.Sandbox`: bubblewrap + a pristine zygote) gets up to ``pipeline``
programs at once, each with its own channel, so it never idles waiting for the parent. The zygote runs
them one at a time, each in a fresh child with its own pid namespace and a fresh ``/tmp``, and kills a
child at its deadline; the parent also checks the deadline on its own wall clock and kills the whole sandbox if the
zygote does not report in time. Any anomaly (a child that failed before its program ran, a protocol
violation, a zygote that misbehaves or dies) recycles the sandbox. Only the program that was running
when a sandbox died is charged for it; programs queued behind it go to another sandbox free. Replacement
sandboxes are started (and old ones stopped) by a lifecycle thread (`_lifecycle`), so a recycle never
holds up the dispatcher.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import itertools
import math
import mmap
import os
import resource
import selectors
import tempfile
import threading
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, wait
from typing import Any, Self

from verifiers.errors import ConfigError, SandboxError
from verifiers.sandbox import _cgroups, _isolation, _seccomp
from verifiers.sandbox._backend import Job, PoolOptions
from verifiers.sandbox._kinds import ASSERTS, AssertTests
from verifiers.sandbox._lifecycle import Lifecycle
from verifiers.sandbox._protocol import MAX_FRAME_BYTES, MAX_VALUE_NODES, ProtocolError, encode_request
from verifiers.sandbox._result import (
    MAX_CHILD_FRAME_BYTES,
    ChildReport,
    ExecStatus,
    ExecutionResult,
    TestOutcome,
    build_result,
    failed_result,
    no_tests_result,
)
from verifiers.sandbox._sandbox import JobIO, Sandbox, SandboxSpec, start_error, stderr_head
from verifiers.sandbox._setup import child_setup
from verifiers.sandbox._stdio import (
    OutputMatch,
    StdioProblem,
    StdioTest,
    check_stdio_args,
    run_result,
    stdio_request,
)

# Budgets and timings (seconds / bytes).
STARTUP_TIMEOUT_S = 30.0
KILL_GRACE_S = 2.0
# Where the sandbox has a cgroup CPU counter, the parent reads it every CPU_POLL_S while a program runs and
# kills the sandbox once the group used more than a process's own RLIMIT_CPU (int(limit) + 1 s) plus
# GROUP_CPU_SLACK_S (the zygote's own work between programs, and the next program's start before this one's
# report is read, fall in the group too); a report whose group CPU is over the limit is a timeout.
CPU_POLL_S = 0.1
GROUP_CPU_SLACK_S = 0.25  # the parent's own kill, after the zygote's deadline should have fired
# A program's time limit is CPU time (all its processes): other processes on a busy host slow it, never
# fail it. Wall time is only a backstop, for programs that sleep or block: this many times the limit plus a
# second, stretched by the host's load per CPU (a program gets about 1/load of a core), up to MAX_LOAD_SCALE.
WALL_FACTOR = 3.0
# At most this stretch: the load counts the programs' own processes (a hostile program raises it by forking
# spinners), so the stretch must stay small whatever they do: the backstop is at most
# MAX_LOAD_SCALE x (WALL_FACTOR x timeout) + 1 s.
MAX_LOAD_SCALE = 2.0
HEAD_STALL_S = 0.25  # a sandbox whose program has run this long (wall) is dealt no further jobs
HEAD_SLOW_S = 0.02  # ... and one whose program has run this long only when every other one's has too
_LOAD = [float("-inf"), 1.0]  # (monotonic time read, scale): read at most once a second


def load_scale() -> float:
    """The 1-minute load average per CPU, at least 1 and at most `MAX_LOAD_SCALE`."""
    now = time.monotonic()
    if now - _LOAD[0] >= 1.0:
        try:
            per_cpu = os.getloadavg()[0] / (os.cpu_count() or 1)
        except OSError:
            per_cpu = 1.0
        _LOAD[:] = [now, min(MAX_LOAD_SCALE, max(1.0, per_cpu))]
    return _LOAD[1]


def wall_backstop(timeout: float, scale: float = 1.0) -> float:
    """The wall-clock seconds a program with a CPU-time limit of ``timeout`` may run before it is killed."""
    return timeout * WALL_FACTOR * scale + 1.0
MAX_CODE_CHARS = 1_000_000
MAX_START_FAILURES = 3
MAX_ATTEMPTS = 3  # a program whose child keeps failing before it runs is reported `crashed`
TMPFS_BYTES = 64 * 1024 * 1024
FILE_BYTES = 16 * 1024 * 1024  # RLIMIT_FSIZE: any file a program writes, its stdout and stderr included
SIGPENDING = 64  # queued signals per sandbox process tree (RLIMIT_SIGPENDING)
TMPFS_INODES = 4096
SANDBOX_OVERHEAD_BYTES = 96 * 1024 * 1024  # the zygote, bubblewrap's init, page tables (cgroup limit)
# Processes of the sandbox's user namespace that share the program's uid (`_isolation.SANDBOX_UID`), by
# whether the pool runs as root: RLIMIT_NPROC counts them with the program's processes and threads. As a
# normal user bubblewrap's init and the zygote; as root the zygote alone (bubblewrap's init and monitor
# stay uid 0 of the namespace, a uid of their own).
TRUSTED_PROCS = {True: 1, False: 2}
# While every sandbox has at least COALESCE_DEPTH programs queued, the dispatcher naps COALESCE_S after
# taking answers, so it wakes once per few programs instead of once per program (2 cores: each wake-up
# preempts a sandbox).
COALESCE_S = 0.002
COALESCE_DEPTH = 3
MAP_CHUNK = 16  # `map` hands jobs to the dispatcher this many at a time (one wake-up each)
# A running program's frames are read when the zygote reports it reaped (one wake-up); one that runs longer
# than this has its channel watched too, so results larger than the socket buffer keep flowing.
DRAIN_AFTER_S = 0.005
# While it is watched, a channel that yielded less than DRAIN_BURST_BYTES in one read is left alone for a
# pause (its bytes wait in the socket buffer) that doubles from DRAIN_PAUSE_S up to DRAIN_PAUSE_MAX_S while
# reads stay small: a program trickling single bytes costs the parent a few dozen wake-ups in all, not one
# per write; a program writing a large result is read without pauses.
DRAIN_PAUSE_S = 0.002
DRAIN_PAUSE_MAX_S = 0.05
DRAIN_BURST_BYTES = 1 << 16
# Imported once per zygote (shared copy-on-write by every child).
# Read-only once a pool is made: its options and each of their fields as an attribute.
_SETTINGS = frozenset(("options", *(f.name for f in dataclasses.fields(PoolOptions))))

WARM_MODULES = ("math", "re", "collections", "heapq", "itertools", "functools", "operator", "bisect", "sys")


class LocalPool:
    """Sandboxes on this host that run Python programs against assert tests, judged in this process.

    The local backend of `verifiers.sandbox.CodePool` (which checks the settings; its docstring lists them);
    a Ray actor hosts one of these too.
    """

    def __init__(self, options: PoolOptions) -> None:
        self.options = options
        # Each setting is an attribute of the pool too (``pool.timeout_s``, ``pool.max_output_bytes``), read-only
        # (`__setattr__`): a remote backend starts with ``options``, so a later change would reach only this host.
        self.workers = options.workers
        self.memory_mb = options.memory_mb
        self.timeout_s = options.timeout_s
        self.isolation = options.isolation
        self.max_procs = options.max_procs
        self.max_output_bytes = options.max_output_bytes
        self.max_stdio_output_bytes = options.max_stdio_output_bytes
        self.recycle_after = options.recycle_after
        self.pipeline = options.pipeline
        self.seccomp = options.seccomp
        self.cgroup = options.cgroup
        self._settings_fixed = True
        self._lock = threading.Lock()
        self._submitted: collections.deque[Job] = collections.deque()
        self._queue: collections.deque[Job] = collections.deque()
        self._sandboxes: list[Sandbox] = []
        self._ids = itertools.count(1)
        self._thread: threading.Thread | None = None
        self._closing = False
        self._broken: str | None = None
        self._last_start_error = ""  # why the last sandbox that never became ready failed (for start())
        self._start_failures = 0
        self._wake_r, self._wake_w = -1, -1
        self._life: Lifecycle | None = None
        self._spec: SandboxSpec | None = None
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None
        self.stats = collections.Counter[str]()

    def __setattr__(self, name: str, value: object) -> None:
        if name in _SETTINGS and getattr(self, "_settings_fixed", False):
            raise AttributeError(f"{name} is fixed when the pool is made; make a new CodePool with {name}={value!r}")
        super().__setattr__(name, value)

    # ------------------------------------------------------------------------------------------ public
    def start(self) -> Self:
        """Start the sandboxes and wait until every one is ready; `SandboxError` if isolation is unavailable."""
        if self._thread is not None:
            return self
        self._spec = self._make_spec()
        self._closing = False
        self._broken = None
        self._start_failures = 0
        self._last_start_error = ""
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)  # a full pipe already means "wake up"
        self._life = Lifecycle(self._spec, self._wake_w)
        # The dispatcher thread spawns the first sandboxes and the lifecycle thread their replacements: each
        # gets PDEATHSIG tied to the thread that spawned it, and both live as long as the pool, so sandboxes
        # die with the pool even if this process is killed.
        ready = threading.Event()
        self._start_exc: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(ready,), name="codepool-dispatch", daemon=True)
        self._thread.start()
        ready.wait()
        if self._start_exc is not None:
            self._join()
            raise self._start_exc
        return self

    def _make_spec(self) -> SandboxSpec:
        """Check the host (bubblewrap, libseccomp, cgroups) and fix what every sandbox of this pool gets."""
        root = _isolation.host_is_root()
        if self.isolation == "bwrap":
            _isolation.require_bwrap()
            _isolation.python_layout()
            if self.seccomp:
                _seccomp.sandbox_filter()  # raises SeccompUnavailable (with the fix) where it cannot be built
            else:
                warnings.warn("CodePool(seccomp=False): sandboxed programs run WITHOUT a syscall filter",
                              RuntimeWarning, stacklevel=3)
        mem = self.memory_mb * 1024 * 1024
        cgroups = _cgroups.detect(self.cgroup, root) if self.isolation == "bwrap" else None
        # Without a cgroup the program's processes split memory_mb between them (rlimits): fewer of them.
        split = (_cgroups.split_limits(self.memory_mb, self.max_procs)
                 if cgroups is None and self.isolation == "bwrap" else None)
        procs = self.max_procs if split is None else split.procs
        limits = _cgroups.Limits(mem + TMPFS_BYTES + SANDBOX_OVERHEAD_BYTES, self.max_procs + TRUSTED_PROCS[root] + 4)
        config: dict[str, Any] = {
            "sandboxed": self.isolation == "bwrap", "modules": list(WARM_MODULES), "max_frame": MAX_CHILD_FRAME_BYTES,
            "value_nodes": MAX_VALUE_NODES,
            # What `os.cpu_count()`/`os.sched_getaffinity(0)` report inside: the CPUs a program may use (the
            # cgroup's CPU quota; half its process allowance), so `multiprocessing.Pool()` fits the limits.
            "cpus": max(1, min(os.cpu_count() or 1, procs // 2,
                               *([math.ceil(limits.cpus)] if cgroups is not None and cgroups.cpu else []))),
            "tmpfs_bytes": TMPFS_BYTES, "tmpfs_inodes": TMPFS_INODES,
            "uid": _isolation.SANDBOX_UID, "gid": _isolation.SANDBOX_GID,
            "as_bytes": mem if split is None else split.process_bytes,
            # RLIMIT_SIGPENDING and RLIMIT_MEMLOCK: counted per user across namespaces (the namespace's
            # owner is charged too), so a sandbox keeps them small.
            "limits": [[resource.RLIMIT_FSIZE, FILE_BYTES], [resource.RLIMIT_NOFILE, 64],
                       [resource.RLIMIT_CORE, 0], [resource.RLIMIT_SIGPENDING, SIGPENDING],
                       [resource.RLIMIT_MEMLOCK, 64 * 1024]] + (
                [[resource.RLIMIT_NPROC, procs + TRUSTED_PROCS[root]]] if self.isolation == "bwrap" else []),
            # Numbers that differ between architectures, resolved here (the zygote loads no `resource`/`mmap`).
            "rlimit_as": resource.RLIMIT_AS, "rlimit_cpu": resource.RLIMIT_CPU, "map_anonymous": mmap.MAP_ANONYMOUS,
            "rlimit_fsize": resource.RLIMIT_FSIZE,
        }
        tmp = None
        if self.isolation == "process":
            self._tmpdir = tempfile.TemporaryDirectory(prefix="codepool-")
            tmp = config["tmp"] = self._tmpdir.name
        return SandboxSpec(self.isolation, config, self.seccomp, cgroups, limits, root, tmp)

    @property
    def cgroup_in_force(self) -> bool:
        """Whether each sandbox runs in its own cgroup (memory and tasks bounded for the sandbox as a whole)."""
        return self._spec is not None and self._spec.cgroups is not None

    @property
    def limits_in_force(self) -> str:
        """What bounds a program here: its memory, ``cgroup ...`` (the sandbox's group), ``split rlimit ...`` (its
        processes share ``memory_mb`` through RLIMIT_AS and RLIMIT_NPROC) or ``per-process rlimit ...``
        (``isolation="process"``: each process alone); then, in the bubblewrap sandbox, the unprivileged uid
        it runs as (``...; programs run as uid 1000 ...``)."""
        spec = self._spec
        if spec is None:
            return "not started"
        identity = (f"; programs run as uid {_isolation.SANDBOX_UID} of their own user namespace, no capabilities"
                    if self.isolation == "bwrap" else "")
        if spec.cgroups is None:
            as_mb = int(spec.config["as_bytes"]) >> 20
            if self.isolation != "bwrap":
                return (f"per-process rlimit: RLIMIT_AS {as_mb} MB per process, processes not limited "
                        f"(isolation='process')")
            procs = _cgroups.split_limits(self.memory_mb, self.max_procs).procs
            return (f"split rlimit: {procs} processes and threads x RLIMIT_AS {as_mb} MB = {procs * as_mb} MB "
                    f"a program (memory_mb={self.memory_mb}), plus a {TMPFS_BYTES >> 20} MB tmpfs; no cgroup "
                    f"on this host{identity}")
        return (f"{spec.cgroups.describe()}: {spec.limits.memory_bytes >> 20} MB and {spec.limits.pids} tasks per "
                f"sandbox{identity}")

    def _run(self, ready: threading.Event) -> None:
        try:
            assert self._spec is not None
            for slot in range(self.workers):
                self._sandboxes.append(Sandbox.spawn(slot, self._spec))
                self.stats["workers_started"] += 1
            self._wait_ready()
        except SandboxError as exc:
            self._start_exc = exc
        except Exception as exc:  # noqa: BLE001  (start() must never wait forever)
            self._start_exc = SandboxError(f"could not start sandboxes: {exc!r}")
        if self._start_exc is not None:
            for sb in self._sandboxes:
                sb.kill()
            self._sandboxes.clear()
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
             timeout_s: float | None) -> tuple[Future[ExecutionResult], Job | None]:
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
        plans = ASSERTS.prepare(code if len(code) <= MAX_CODE_CHARS else "", AssertTests(tuple(tests), setup_code))
        if len(code) > MAX_CODE_CHARS:
            fut.set_result(failed_result(plans, "runtime_error", f"program longer than {MAX_CODE_CHARS} characters"))
            return fut, None
        timeout = float(timeout_s) if timeout_s is not None else self.timeout_s
        job = Job(code, setup_code, plans, timeout, fut)
        try:
            job.frame = encode_request(code, child_setup(setup_code),  # never data only tests read
                                       [leaf.wire() for p in plans for leaf in p.leaves])
        except ProtocolError:
            fut.set_result(failed_result(plans, "runtime_error",
                                         f"program and test inputs exceed {MAX_FRAME_BYTES} bytes"))
            return fut, None
        return fut, job

    def _enqueue(self, jobs: list[Job]) -> None:
        """Hand jobs to the backend, waking the dispatcher once for all of them."""
        if not jobs:
            return
        if self._thread is None:
            self.start()
        if self._broken:
            raise SandboxError(self._broken)
        with self._lock:
            self._submitted.extend(jobs)
        self._wake()

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
            if not isinstance(it, Mapping):
                if not 2 <= len(it) <= 4:
                    raise ConfigError("map items are (code, tests[, setup_code[, timeout_s]]), "
                                      f"got {len(it)} fields")
                it = dict(zip(("code", "tests", "setup_code", "timeout_s"), it))
            fut, job = self._job(it["code"], it["tests"], it.get("setup_code", ""), it.get("timeout_s"))
            futs.append(fut)
            if job is not None:
                jobs.append(job)
            if len(jobs) >= MAP_CHUNK:  # sandboxes start while the rest is still being planned
                self._enqueue(jobs)
                jobs = []
        self._enqueue(jobs)
        wait(futs)  # one wake-up for the whole batch, not one per result
        return [f.result() for f in futs]

    # ------------------------------------------------------------ stdin/stdout programs (see `_stdio`)
    def submit_stdio(self, code: str, tests: Sequence[StdioTest], *, match: OutputMatch | None = None,
                     timeout_s: float | None = None, total_timeout_s: float | None = None,
                     stop_on_failure: bool = False) -> Future[ExecutionResult]:
        """Queue one stdin/stdout program against its tests (each test a run of its own, judged here).

        Args:
            code: the program, run as ``__main__`` with each test's input on stdin.
            tests: `StdioTest` items; the expected outputs never enter the sandbox.
            match: how outputs are compared (default: whitespace-separated tokens, exactly).
            timeout_s: CPU seconds per test (default: the pool's ``timeout_s``).
            total_timeout_s: CPU seconds for all tests together; tests then run one after another.
            stop_on_failure: after the first test that does not pass, the rest are ``not_run``.
        """
        checked, m = check_stdio_args(code, tests, match, timeout_s, total_timeout_s, stop_on_failure)
        timeout = float(timeout_s) if timeout_s is not None else self.timeout_s
        total = float(total_timeout_s) if total_timeout_s is not None else None
        problem = StdioProblem(self, code, checked, m, timeout, total, stop_on_failure, self.timeout_s,
                               self.max_stdio_output_bytes)
        if len(code) > MAX_CODE_CHARS:
            problem.tests = []
            fut: Future[ExecutionResult] = Future()
            detail = f"program longer than {MAX_CODE_CHARS} characters"
            fut.set_result(ExecutionResult(False, "runtime_error", 0, len(checked), tuple(
                TestOutcome(label, "not_run", detail) for label in problem.labels), detail=detail))
            return fut
        return problem.start()

    def run_stdio(self, code: str, tests: Sequence[StdioTest], *, match: OutputMatch | None = None,
                  timeout_s: float | None = None, total_timeout_s: float | None = None,
                  stop_on_failure: bool = False) -> ExecutionResult:
        """`submit_stdio`, waited for."""
        return self.submit_stdio(code, tests, match=match, timeout_s=timeout_s, total_timeout_s=total_timeout_s,
                                 stop_on_failure=stop_on_failure).result()

    def submit_run(self, code: str, stdin: bytes, timeout: float) -> Future[ExecutionResult]:
        """One run of a stdin/stdout program with ``stdin`` on fd 0 (`_stdio.run_result` is its record)."""
        fut: Future[ExecutionResult] = Future()
        job = Job(code, "", [], timeout, fut, stdin=stdin,
                  frame=stdio_request(code, min(self.max_stdio_output_bytes + 1, FILE_BYTES)))
        self._enqueue([job])
        return fut
    # ------------------------------------------------------------ end of stdin/stdout programs

    def close(self) -> None:
        """Stop every sandbox (pending jobs still finish first)."""
        if self._thread is None:
            return
        self._closing = True
        self._wake()
        self._join()

    def _join(self) -> None:
        """Wait for the dispatcher to end, then stop the lifecycle thread and release the pool's wake-up pipe,
        cgroups and scratch directory."""
        assert self._thread is not None
        self._thread.join()
        self._thread = None
        if self._life is not None:
            self._life.stop()
            self._life = None
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        if self._spec is not None and self._spec.cgroups is not None:
            self._spec.cgroups.close()
        self._spec = None
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError):  # full: the dispatcher has wake-ups pending already
            os.write(self._wake_w, b"x")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------------------------------- sandboxes
    def _wait_ready(self) -> None:
        """Drive the start-up handshake synchronously so a broken sandbox fails `start()` loudly."""
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if self._broken:
                raise SandboxError(self._broken)
            if len(self._sandboxes) == self.workers and all(sb.ready for sb in self._sandboxes):
                return
            self._collect_started()
            pending = [sb for sb in self._sandboxes if not sb.ready]
            for sb in pending:
                if sb.proc.poll() is not None and not sb.ready:
                    raise SandboxError(start_error(sb.stderr_path, self.isolation))
            if not pending and not (self._life is not None and self._life.pending):
                # one was lost and could not be replaced: say why it failed, when a failed start lost it
                raise SandboxError(self._last_start_error or "could not start every sandbox")
            sel = selectors.DefaultSelector()
            try:
                for sb in pending:
                    sel.register(sb.ctl, selectors.EVENT_READ, sb)
                for key, _ in sel.select(timeout=0.05):
                    self._on_ctl(key.data)
            finally:
                sel.close()
            if time.monotonic() > deadline:
                said = stderr_head(self._sandboxes[0].stderr_path) if self._sandboxes else ""
                raise SandboxError(f"sandboxes did not start within {STARTUP_TIMEOUT_S}s: {said}")

    def _replace(self, sb: Sandbox) -> bool:
        """Have a sandbox started in ``sb``'s slot (off this thread: see `_lifecycle`); True if requested."""
        if self._closing or self._broken or self._life is None:
            return False
        self._life.spawn(sb.slot)
        self.stats["workers_started"] += 1  # counted now (taken back if it fails): stats move with results
        return True

    def _collect_started(self) -> None:
        """Take in the sandboxes the lifecycle thread started (counting failures: three in a row break the pool)."""
        if self._life is None:
            return
        for new in self._life.collect():
            if isinstance(new, SandboxError):
                self.stats["workers_started"] -= 1
                self._start_failures += 1
                if self._start_failures >= MAX_START_FAILURES:
                    self._broken = self._broken or str(new)
            elif self._closing or self._broken:
                self._stop(new, graceful=False)
            else:
                self._sandboxes.append(new)
                if hasattr(self, "_sel"):
                    self._watch(new.ctl.fileno(), selectors.EVENT_READ, new)

    def _stop(self, sb: Sandbox, *, graceful: bool) -> None:
        """Have ``sb`` stopped off this thread (`Lifecycle.retire`: closed once idle, or killed)."""
        assert self._life is not None  # set from start() until the dispatcher has ended
        self._life.retire(sb, graceful=graceful)

    def _drain(self, sb: Sandbox) -> None:
        """Give ``sb`` no more programs and start its replacement now: the new sandbox warms up (~0.1 s)
        while ``sb`` finishes the programs it holds, instead of its slot standing empty after the drain."""
        if not sb.draining:
            sb.draining = True
            sb.replaced = self._replace(sb)

    # --------------------------------------------------------------------------------------- dispatcher
    def _watch(self, fd: int, events: int, obj: Any) -> None:
        """Register or change ``fd`` in the dispatcher's selector (0 events: unregister)."""
        old = self._watched.get(fd)
        if old == (events, obj):
            return
        if old is not None:
            if events:
                self._sel.modify(fd, events, obj)
            else:
                self._sel.unregister(fd)
        elif events:
            self._sel.register(fd, events, obj)
        if events:
            self._watched[fd] = (events, obj)
        else:
            self._watched.pop(fd, None)

    def _loop(self) -> None:
        self._sel = selectors.DefaultSelector()
        self._watched: dict[int, tuple[int, Any]] = {}
        self._sel.register(self._wake_r, selectors.EVENT_READ, None)
        for sb in self._sandboxes:
            self._watch(sb.ctl.fileno(), selectors.EVENT_READ, sb)
        answered = False
        while True:
            self._collect_started()
            if self._submitted:
                with self._lock:
                    while self._submitted:
                        job = self._submitted.popleft()
                        job.id = next(self._ids)
                        self._queue.append(job)
            if self._closing and not self._queue and not any(sb.inflight for sb in self._sandboxes):
                break
            if self._queue:
                self._assign()
            now = time.monotonic()
            wake = now + 1.0
            for sb in list(self._sandboxes):
                due = self._deadline(sb)
                if now >= due and sb.ready and sb.inflight:
                    # Its report may be queued already (this thread was busy judging): read it before
                    # deciding the program overran, so a stalled parent never turns a finished program into
                    # a timeout. The next job's deadline counts from when its predecessor's report is read.
                    self._on_ctl(sb)
                    if sb not in self._sandboxes:
                        continue
                    due = self._deadline(sb)
                if now >= due:
                    self._on_deadline(sb)
                    continue
                wake = min(wake, due)
                if sb.inflight and sb.cpu_mark is not None and now - sb.head_since >= CPU_POLL_S:
                    # The group's CPU counter sees every process of the program: kill it once over its limit.
                    used = sb.cpu_since_mark()
                    # Past the RLIMIT_CPU the zygote gives each process (int(timeout) + 1): only CPU that no
                    # process's own limit stops (many processes) is killed here, with the whole sandbox.
                    if used is not None and used > int(sb.inflight[0].timeout) + 1 + GROUP_CPU_SLACK_S:
                        self.stats["cpu_kills"] += 1
                        self._retire(sb, "timeout", f"time limit exceeded ({used:.1f} s of CPU in the sandbox's "
                                                    f"processes, limit {sb.inflight[0].timeout:g} s)", cpu=used)
                        continue
                    wake = min(wake, now + CPU_POLL_S)
                elif sb.inflight and sb.cpu_mark is not None:
                    wake = min(wake, sb.head_since + CPU_POLL_S)
                if sb.inflight:  # a program still running after DRAIN_AFTER_S: read its frames as they come
                    head = sb.inflight[0]
                    if head.io is not None and not head.io.done and not head.reading:
                        if now - sb.head_since >= DRAIN_AFTER_S:
                            head.reading = True
                            self._watch(head.io.chan, selectors.EVENT_READ, head)
                        else:
                            wake = min(wake, sb.head_since + DRAIN_AFTER_S)
                    elif head.io is not None and head.paused_until:
                        if now >= head.paused_until:
                            head.paused_until = 0.0
                            self._watch(head.io.chan, selectors.EVENT_READ | (
                                selectors.EVENT_WRITE if head.io.pending else 0), head)
                        else:
                            wake = min(wake, head.paused_until)
            self._maintain()
            if not self._sandboxes and self._queue and not self._broken and not (self._life and self._life.pending):
                self._broken = "every sandbox failed to start"
            if self._broken:  # nothing queued can run any more
                while self._queue:
                    self._queue.popleft().future.set_exception(SandboxError(self._broken))
            if answered and all(len(sb.inflight) >= COALESCE_DEPTH for sb in self._sandboxes):
                time.sleep(COALESCE_S)  # every sandbox has work queued: let answers pile up, wake less often
            answered = False
            for key, ev in self._sel.select(timeout=max(0.0, min(wake - time.monotonic(), 1.0))):
                obj = key.data
                if obj is None:
                    with contextlib.suppress(BlockingIOError):
                        os.read(self._wake_r, 4096)
                elif isinstance(obj, Sandbox):
                    if obj not in self._sandboxes:
                        continue
                    if ev & selectors.EVENT_WRITE:
                        self._flush(obj)
                    if ev & selectors.EVENT_READ:
                        self._on_ctl(obj)
                        answered = True
                elif obj.io is not None:
                    if ev & selectors.EVENT_WRITE:
                        obj.io.write_request()
                    if ev & selectors.EVENT_READ:
                        if obj.io.read_frames():
                            obj.reading = False  # EOF or over budget: stop waking on it
                        elif obj.io.last_read < DRAIN_BURST_BYTES:
                            obj.pause = min(DRAIN_PAUSE_MAX_S, max(DRAIN_PAUSE_S, 2 * obj.pause))
                            obj.paused_until = time.monotonic() + obj.pause
                        else:
                            obj.pause = 0.0
                    want = (selectors.EVENT_WRITE if obj.io.pending else 0) | (
                        selectors.EVENT_READ if obj.reading and not obj.paused_until else 0)
                    self._watch(obj.io.chan, want, obj)
        for sb in self._sandboxes:
            self._unwatch(sb)
            self._stop(sb, graceful=True)
        self._sandboxes.clear()
        self._sel.close()

    def _unwatch(self, sb: Sandbox) -> None:
        """Stop watching ``sb``'s fds and its jobs' channels (before any of them is closed)."""
        if not hasattr(self, "_sel"):
            return
        self._watch(sb.ctl.fileno(), 0, sb)
        for job in sb.inflight:
            if job.io is not None and job.io.chan_open:
                self._watch(job.io.chan, 0, job)

    def _deadline(self, sb: Sandbox) -> float:
        if not sb.ready:
            return sb.started + STARTUP_TIMEOUT_S
        if sb.inflight:
            return sb.head_since + sb.inflight[0].wall + KILL_GRACE_S
        return float("inf")

    def _assign(self) -> None:
        """Deal queued jobs one at a time to the least-loaded sandbox.

        A sandbox takes jobs while it has fewer than ``pipeline``, but only starts a top-up when at most half
        full (fewer wake-ups); dealing one job at a time spreads a small batch over all sandboxes.
        """
        pipeline = self.pipeline
        refill_at = pipeline // 2
        touched: set[int] = set()
        now = time.monotonic()
        # A sandbox whose program has run HEAD_SLOW_S already (an honest one takes about a millisecond: this
        # one sleeps, blocks or computes long) is dealt nothing while another one's program is young (the job
        # waits here for it instead), and nothing at all once it ran HEAD_STALL_S: what is dealt behind a
        # program waits for it, while other sandboxes may be idle.
        live = [c for c in self._sandboxes if c.ready and not c.draining]
        slow = {id(c) for c in live if c.inflight and now - c.head_since >= HEAD_SLOW_S}
        avoid = {id(c) for c in live if c.inflight and now - c.head_since >= HEAD_STALL_S}
        if len(slow) < len(live):
            avoid |= slow
        while self._queue and not self._broken:
            eligible = [c for c in live if len(c.inflight) < pipeline and id(c) not in avoid
                        and (len(c.inflight) <= refill_at or id(c) in touched)]
            if not eligible:
                return
            sb = min(eligible, key=lambda c: len(c.inflight))  # the first of the least loaded
            job = self._queue.popleft()
            try:
                job.io = JobIO(job.frame, job.stdin)
            except OSError as exc:  # out of fds: try again once answers free some
                self._queue.appendleft(job)
                self.stats["fd_pressure"] += 1
                if not any(s.inflight for s in self._sandboxes):
                    self._broken = f"cannot open a program channel: {exc}"
                return
            if not sb.inflight:
                sb.head_since = time.monotonic()
                sb.mark_cpu()
            sb.inflight.append(job)
            touched.add(id(sb))
            job.io.write_request()
            if job.io.pending:
                self._watch(job.io.chan, selectors.EVENT_WRITE, job)
            try:
                job.wall = wall_backstop(job.timeout, load_scale())
                sb.send_job(job.id, job.wall, int(job.timeout) + 1, job.io.child_fds)
            except SandboxError as exc:
                self._retire(sb, None, str(exc))
                continue
            if sb.outbox:
                self._watch(sb.ctl.fileno(), selectors.EVENT_READ | selectors.EVENT_WRITE, sb)
            else:
                job.io.release_child_fds()

    def _flush(self, sb: Sandbox) -> None:
        try:
            sb.flush()
        except SandboxError as exc:
            self._retire(sb, None, str(exc))
            return
        if not sb.outbox:
            self._watch(sb.ctl.fileno(), selectors.EVENT_READ, sb)
        for job in sb.inflight:  # commands sent: drop our copies of their children's channel ends
            if job.io is not None and job.io.child_fds[0] >= 0 and not any(
                    fds is job.io.child_fds for _, fds in sb.outbox):
                job.io.release_child_fds()

    def _on_ctl(self, sb: Sandbox) -> None:
        try:
            msgs = sb.receive()
        except EOFError:
            self._retire(sb, "crashed", "the sandbox died")
            return
        except ProtocolError as exc:
            self._retire(sb, "crashed", f"protocol error from the sandbox: {exc}")
            return
        for msg in msgs:
            if sb not in self._sandboxes:
                return
            if not sb.ready:
                if "ready" in msg and (self.isolation != "bwrap" or msg.get("uid") == _isolation.SANDBOX_UID):
                    sb.ready = True
                    sb.info = msg
                    sb.head_since = time.monotonic()
                    sb.mark_cpu()
                    self._start_failures = 0
                    continue
                self._broken = f"sandbox refused to start: {str(msg.get('fatal', msg))[:300]}"
                self._retire(sb, None, self._broken)
                return
            if "end" not in msg or not sb.inflight or msg.get("end") != sb.inflight[0].id:
                self._retire(sb, "crashed", "the sandbox answered out of order")
                return
            self._finish(sb, msg)

    def _finish(self, sb: Sandbox, msg: dict[str, Any]) -> None:
        """The zygote reaped the head job's child: read what it left, judge it, resolve its future."""
        job = sb.inflight.popleft()
        group_cpu = sb.lap_cpu()  # the next job's CPU counts from here
        sb.head_since = time.monotonic()
        io = job.io
        assert io is not None
        self._watch(io.chan, 0, job)
        io.read_frames()
        stdout, stderr = io.outputs(self.max_output_bytes)
        code: Any = msg.get("code")
        report_ok = type(code) is int and type(msg.get("setup")) is bool and type(msg.get("timed_out")) is bool
        if not report_ok or msg.get("error") or not msg["setup"]:
            # The child failed before its program ran (or the zygote could not fork it): never the
            # program's doing. Recycle the sandbox; the job runs again elsewhere.
            job.close_io()
            self.stats["anomalies"] += 1
            self._drain(sb)
            self._charge(job, f"the sandbox failed before the program ran: {str(msg.get('error', 'set-up'))[:200]}")
            return
        duration: Any = msg.get("duration")
        cpu: Any = msg.get("cpu")
        cpu_s = float(cpu) if type(cpu) in (int, float) else 0.0
        if group_cpu is not None and group_cpu > cpu_s + GROUP_CPU_SLACK_S:
            cpu_s = group_cpu  # CPU rusage never saw (auto-reaped processes, ones killed with the namespace)
        report = ChildReport(code=code, timed_out=msg["timed_out"],
                             duration=float(duration) if type(duration) in (int, float) else 0.0,
                             cpu=cpu_s,
                             setup=True, frames=bytes(io.rx), overflow=io.overflow, stdout=stdout, stderr=stderr,
                             oom=code == -9 and not msg["timed_out"] and sb.record_oom())
        out = io.stdout_bytes(self.max_stdio_output_bytes + 1) if job.stdin is not None else None  # stdin/stdout
        job.close_io()
        try:
            res, violation = (build_result(job.plans, report, job.timeout) if out is None
                              else run_result(report, out[0], out[1], self.max_stdio_output_bytes, job.timeout))
        except Exception as exc:  # noqa: BLE001  (a judging bug must not kill the dispatcher)
            res, violation = failed_result(job.plans, "crashed", f"internal judging error: {exc!r}"), None
        if violation is not None:
            self.stats["violations"] += 1
            self._drain(sb)
        self.stats["programs"] += 1
        job.future.set_result(res)
        sb.done += 1
        if not sb.draining and sb.done >= self.recycle_after:
            self.stats["recycled"] += 1
            self._drain(sb)

    def _charge(self, job: Job, detail: str) -> None:
        """Count a failed attempt against ``job``: run it again, or report it crashed after MAX_ATTEMPTS."""
        job.attempts += 1
        if job.attempts >= MAX_ATTEMPTS:
            job.future.set_result(failed_result(job.plans, "crashed", f"{detail} ({job.attempts} attempts)"))
        else:
            self._queue.appendleft(job)

    def _on_deadline(self, sb: Sandbox) -> None:
        if not sb.ready:
            self._retire(sb, None, "sandbox did not start in time")
            return
        self.stats["hard_kills"] += 1
        self._retire(sb, "timeout", "time limit exceeded (the sandbox was killed by the parent)")

    def _retire(self, sb: Sandbox, head_status: ExecStatus | None, detail: str, cpu: float = 0.0) -> None:
        """Kill ``sb``. The job it was running gets ``head_status`` (None: it is charged an attempt and
        runs again); jobs queued behind it run elsewhere, uncharged."""
        if sb not in self._sandboxes:
            return
        self._unwatch(sb)
        self._sandboxes.remove(sb)
        was_ready = sb.ready
        err = "" if was_ready else start_error(sb.stderr_path, self.isolation)
        jobs = list(sb.inflight)
        sb.inflight.clear()
        for job in jobs:
            job.close_io()
        oom = sb.record_oom()
        self._stop(sb, graceful=False)
        if jobs:
            head = jobs.pop(0)
            if head_status is not None:
                status = "memory" if oom and head_status == "crashed" else head_status
                head.future.set_result(failed_result(head.plans, status, detail,
                                                     time.monotonic() - sb.head_since, cpu))
            else:
                self._charge(head, detail)
        for job in reversed(jobs):
            self._queue.appendleft(job)
        if not was_ready:
            self._start_failures += 1
            self._last_start_error = err or self._last_start_error
            if self._start_failures >= MAX_START_FAILURES:
                self._broken = self._broken or err
        if not sb.replaced:
            self._replace(sb)

    def _maintain(self) -> None:
        for sb in list(self._sandboxes):
            if sb.draining and not sb.inflight:
                self._unwatch(sb)
                self._sandboxes.remove(sb)
                self._stop(sb, graceful=True)
                if not sb.replaced:
                    self._replace(sb)
