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

import pytest
from hypothesis import HealthCheck, Phase, settings

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

# Profiles for the scorers' metamorphic property tests (tests/verifiers/test_*_properties.py) only; other
# files keep their own settings. They are not named "ci"/"dev": hypothesis ships a built-in "ci" profile that
# it loads by itself when it detects CI, and re-registering that name would silently switch every test in the
# suite to 500 examples. HYPOTHESIS_PROFILE=ci selects the CI one (500 examples, reproducible); anything else
# the quick one. Test files use it as `@settings(settings.get_profile("scorer-props"))`. No "explain" phase:
# it re-runs a failing example many times, and a scorer that times out would make that cost minutes.
_PHASES = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink]
settings.register_profile(
    "scorer-props-ci",
    max_examples=500,
    deadline=None,
    derandomize=True,
    database=None,
    phases=_PHASES,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "scorer-props-dev",
    max_examples=50,
    deadline=None,
    phases=_PHASES,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "scorer-props",
    settings.get_profile(
        "scorer-props-ci" if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else "scorer-props-dev"
    ),
)


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
