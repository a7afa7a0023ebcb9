"""Exception hierarchy. Scorers never raise these for model output; they are for bad configuration or data."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any


class VerifiersError(Exception):
    """Base class of every error this package raises on purpose."""


class ConfigError(VerifiersError, ValueError):
    """A configuration value is invalid (unknown preset, negative timeout, impossible batch sizes...)."""


class DataError(VerifiersError, ValueError):
    """A dataset file or record is missing, unreadable or lacks a required field."""


class SandboxError(VerifiersError, RuntimeError):
    """The code-execution sandbox cannot start or has failed."""


def one_of(name: Any, choices: Iterable[Any], what: str, error: type[VerifiersError] = ConfigError) -> Any:
    """``name`` if it is one of ``choices``; else ``error``: ``unknown WHAT 'nam'; did you mean 'name'? choose
    one of a, b`` (the suggestion only when one is close)."""
    known = list(choices)  # a list: an unhashable name is unknown too, not a TypeError
    if name not in known:
        close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise error(f"unknown {what} {name!r}; {hint}choose one of {', '.join(map(str, known))}")
    return name
