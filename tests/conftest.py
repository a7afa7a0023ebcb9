"""Shared fixtures and hypothesis profiles: the real datasets live outside the repo (../shared/data)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from verifiers.errors import SandboxError
from verifiers.sandbox import CodePool

_DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data"

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
        pytest.skip(f"datasets not found at {path}; set VERIFIERS_DATA_DIR")
    return path


@pytest.fixture(scope="module")
def pool():
    """A started 2-sandbox pool per test module; skips where the bubblewrap sandbox cannot start."""
    try:
        p = CodePool(workers=2, timeout_s=5.0).start()
    except SandboxError as exc:
        pytest.skip(f"bubblewrap sandbox unavailable: {exc}")
    yield p
    p.close()
