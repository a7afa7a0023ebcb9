"""Exception hierarchy. Scorers never raise these for model output; they are for bad configuration or data."""

from __future__ import annotations

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
    """``name`` if it is one of ``choices``; else ``error``: ``unknown WHAT 'name'; choose one of a, b``."""
    known = list(choices)  # a list: an unhashable name is unknown too, not a TypeError
    if name not in known:
        raise error(f"unknown {what} {name!r}; choose one of {', '.join(map(str, known))}")
    return name
