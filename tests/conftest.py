"""Shared fixtures and hypothesis profiles: the real datasets live outside the repo (../shared/data).

A test whose component is missing on this machine (the bubblewrap sandbox, the datasets, verl, ...) skips with
the reason, so a plain ``pytest`` works on a developer's box; where ``$VERIFIERS_REQUIRE`` names that
component (``.ci/run`` sets it, e.g. ``VERIFIERS_REQUIRE=bwrap,cgroup,data,verl``), the same test fails
instead, so CI cannot pass by skipping what it is meant to check.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import hypothesis_budget  # noqa: F401  (registers and loads the hypothesis profiles)
import pytest

from verifiers.errors import SandboxError
from verifiers.sandbox import CodePool

_DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data"

# A suite started in the background by a non-interactive shell (`cmd &`) inherits SIGINT ignored, and so would
# every CLI it starts: the Ctrl-C tests would find their signal ignored. Take what a terminal gives instead. A
# handler is reset to the default when a child execs (an ignored signal stays ignored), so the CLIs start as a
# user's would.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REQUIRE_ENV = "VERIFIERS_REQUIRE"
# What a test may find missing, and so skip for, unless $VERIFIERS_REQUIRE names it.
COMPONENTS = {
    "bwrap": "the bubblewrap sandbox starts (bubblewrap, libseccomp, user namespaces)",
    "cgroup": "the sandbox's cgroup limits are in force (root, or a delegated cgroup v2 directory)",
    "data": "the datasets under $VERIFIERS_DATA_DIR",
    "verl": "verl 0.9.1 installed and not yet patched by `verifiers-train patch-verl`",
    "ray": "ray installed (the sandbox's Ray backend)",
    "pyarrow": "pyarrow installed (parquet datasets)",
    "unshare": "util-linux `unshare` (the disabled-user-namespace diagnosis)",
    "python3.12": "a Python 3.12 interpreter with `regex` (the sandbox under 3.12)",
    "evalscope": "EvalScope in $VERIFIERS_EVALSCOPE_PYTHON's interpreter",
    "trl": "TRL installed (the `trl` extra: examples/trl_grpo_gsm8k.py)",
}


def required_components() -> frozenset[str]:
    """The components ``$VERIFIERS_REQUIRE`` (comma-separated) says must be present."""
    return frozenset(n.strip() for n in os.environ.get(REQUIRE_ENV, "").split(",") if n.strip())


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "results: re-measures a README Results row on the full data "
                                       "(a few seconds; deselect with -m 'not results')")
    unknown = required_components() - COMPONENTS.keys()
    if unknown:  # a typo would otherwise require nothing, silently
        raise pytest.UsageError(f"{REQUIRE_ENV}: unknown component(s) {sorted(unknown)}; "
                                f"known: {sorted(COMPONENTS)}")


def unavailable(component: str, reason: str) -> NoReturn:
    """Skip a test whose ``component`` is missing here; fail it where ``$VERIFIERS_REQUIRE`` names it."""
    if component not in COMPONENTS:
        raise KeyError(f"unknown component {component!r}; add it to COMPONENTS")
    if component in required_components():
        pytest.fail(f"{component} is required here ({REQUIRE_ENV}) but unavailable: {reason}", pytrace=False)
    pytest.skip(f"{reason} [{component}: not required here; {REQUIRE_ENV}={component} makes this a failure]")


@pytest.fixture(scope="session", name="unavailable")
def unavailable_fixture() -> Callable[[str, str], NoReturn]:
    """``unavailable(component, reason)`` for test modules (they cannot import this conftest)."""
    return unavailable

@pytest.fixture(scope="session")
def data_dir() -> Path:
    """Folder with gsm8k/, math/ and mbpp/ (VERIFIERS_DATA_DIR or ../shared/data); skips if absent."""
    path = Path(os.environ.get("VERIFIERS_DATA_DIR", _DEFAULT))
    if not (path / "gsm8k" / "test.jsonl").is_file():
        unavailable("data", f"datasets not found at {path}; set VERIFIERS_DATA_DIR (`verifiers data fetch "
                            "--task all --out DIR` writes one)")
    return path


@pytest.fixture(scope="module")
def pool():
    """A started 2-sandbox pool per test module; skips where the bubblewrap sandbox cannot start."""
    try:
        p = CodePool(workers=2, timeout_s=5.0).start()
    except SandboxError as exc:
        unavailable("bwrap", f"bubblewrap sandbox unavailable: {exc}")
    yield p
    p.close()


# ---------------------------------------------------------------- parallel runs (`pytest -n N`, pytest-xdist)
# Workers are separate processes with separate session fixtures. Two tools keep the suite correct and fast
# under them; without -n both do nothing:
#
# * `build_once(name, build)`: an expensive session fixture (a trained tiny model) built once per run,
#   whichever worker asks first, and reused by the others.
# * markers, held across workers with file locks for the test's set-up, call and tear-down:
#   `@pytest.mark.alone`: no other test runs meanwhile (a test that checks a host-wide resource, such as
#   which sandbox uids are free); `@pytest.mark.mutex("ray")`: no other test of that name runs meanwhile
#   (tests that start or stop a Ray cluster on this host). A mutex held by consecutive tests of one worker
#   stays held between them, so a module-scoped resource (a Ray instance) is covered for its whole life.


def _worker(config: pytest.Config) -> dict[str, str] | None:
    """xdist's worker input (``workerid``, ``testrunuid``) in a worker process, None otherwise."""
    return getattr(config, "workerinput", None)


@pytest.fixture(scope="session")
def build_once(tmp_path_factory: pytest.TempPathFactory,
               pytestconfig: pytest.Config) -> Callable[[str, Callable[[Path], Path]], Path]:
    """``build_once(name, build)``: ``build(folder)`` (which returns a path in ``folder``) runs once per run.

    Under ``-n N`` the first worker to ask builds into a folder all workers share, under a file lock; the
    others wait for it and get the same path. Use it in every session fixture that builds something slow.
    """
    import fcntl

    shared = _worker(pytestconfig) is not None
    root = tmp_path_factory.getbasetemp().parent if shared else tmp_path_factory.getbasetemp()
    made: dict[str, Path] = {}

    def build_once(name: str, build: Callable[[Path], Path]) -> Path:
        if name in made:
            return made[name]
        if not shared:
            made[name] = build(tmp_path_factory.mktemp(name))
            return made[name]
        folder, done = root / f"shared-{name}", root / f"shared-{name}.built"
        with open(root / f"shared-{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released on close; a worker that dies releases it too
            if not done.is_file():
                if folder.exists():  # a worker died mid-build
                    import shutil
                    shutil.rmtree(folder)
                folder.mkdir()
                done.write_text(str(build(folder)))
        made[name] = Path(done.read_text())
        return made[name]

    return build_once


def _mutexes(item: pytest.Item | None) -> list[str]:
    return sorted({str(m.args[0]) for m in item.iter_markers("mutex")}) if item is not None else []


class _HostLocks:
    """The file locks behind `alone` and `mutex` for one parallel run (one folder per run, shared by workers)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.held: dict[str, int] = {}  # mutex name -> fd of its lock file

    def _open(self, name: str) -> int:
        return os.open(self.folder / f"{name}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)

    def take_mutexes(self, names: list[str]) -> None:
        import fcntl

        for name in names:  # sorted: two tests needing the same two mutexes take them in one order
            if name not in self.held:
                fd = self._open(f"mutex-{name}")
                fcntl.flock(fd, fcntl.LOCK_EX)
                self.held[name] = fd

    def keep_only(self, names: list[str]) -> None:
        for name in [n for n in self.held if n not in names]:
            os.close(self.held.pop(name))

    def enter(self, alone: bool) -> int:
        """Hold the run lock: exclusively for an `alone` test, shared otherwise. A gate taken first lets a
        waiting `alone` test in before later shared holders (no starvation). Returns the fd to close."""
        import fcntl

        gate, run = self._open("gate"), self._open("run")
        try:
            fcntl.flock(gate, fcntl.LOCK_EX)
            fcntl.flock(run, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        finally:
            os.close(gate)
        return run


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    worker = _worker(item.config)
    if worker is None:  # not a parallel run: nothing to exclude
        yield
        return
    locks: _HostLocks | None = getattr(item.config, "_verifiers_locks", None)
    if locks is None:
        import tempfile

        locks = _HostLocks(Path(tempfile.gettempdir()) / f"verifiers-tests-{worker['testrunuid']}")
        item.config._verifiers_locks = locks  # type: ignore[attr-defined]
    locks.take_mutexes(_mutexes(item))  # before the run lock: never wait for a mutex while holding it
    run = locks.enter(alone=item.get_closest_marker("alone") is not None)
    try:
        yield
    finally:
        os.close(run)
        locks.keep_only(_mutexes(nextitem))
