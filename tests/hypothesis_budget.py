"""How many examples the property tests draw: CI's full counts, or a fifth of them on a developer's machine.

``HYPOTHESIS_PROFILE=ci`` (``.ci/run`` sets it) keeps every count as written; anything else (a plain ``pytest``)
draws fewer, so the local suite runs in minutes. Test modules write ``@settings(max_examples=examples(300))``
instead of a bare count; tests without their own ``settings`` get the local default profile registered here
(CI keeps hypothesis's own default). tests/conftest.py imports this module first, which puts ``tests/`` on
``sys.path`` for every test module.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

CI = os.environ.get("HYPOTHESIS_PROFILE") == "ci"
LOCAL_SHARE = 5  # locally, a test draws 1/LOCAL_SHARE of its CI examples ...
LOCAL_MIN = 10  # ... but never fewer than this


def examples(ci_count: int) -> int:
    """``ci_count`` under CI; locally a fifth of it (at least 10, at most ``ci_count``)."""
    return ci_count if CI else min(ci_count, max(LOCAL_MIN, ci_count // LOCAL_SHARE))


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
    max_examples=25,  # CI: 500
    deadline=None,
    phases=_PHASES,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("scorer-props", settings.get_profile("scorer-props-ci" if CI else "scorer-props-dev"))

# The default for tests without their own `settings` (hypothesis's own default, 100 examples, under CI).
settings.register_profile("verifiers-local", max_examples=examples(settings.default.max_examples))
if not CI:
    settings.load_profile("verifiers-local")
