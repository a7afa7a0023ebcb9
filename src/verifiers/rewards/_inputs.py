"""The caller's side of every scorer: golds, configs and batch arguments, checked the same way in each.

A scorer never raises for what a *response* says; it raises for what its *caller* got wrong, at the call,
so that a training loop does not run for hours on rewards that are all 0:

- a gold that is not text or a number is a `TypeError`; numbers are converted exactly (`gold_text`);
- a config that is not the scorer's ``Config`` (or a mapping of its fields) is a `ConfigError`;
- a response that is not a ``str`` is a `TypeError`;
- a batch argument that is not a collection of items (``None``, a bare string, a number) is a `TypeError`;
  any other iterable, a generator included, is read once into a list.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from verifiers.answers._numbers import decimal_places
from verifiers.errors import ConfigError

__all__ = ["Gold", "batch_items", "gold_text", "response_text", "scorer_config"]

# What a gold may be. A float gold is read as the decimal it prints as (Python's shortest round-trip
# ``repr``): ``0.1`` means one tenth, not the binary double nearest to it, since that is what the person who
# wrote the gold typed.
Gold = str | int | float | Fraction | Decimal
_C = TypeVar("_C")
_D = TypeVar("_D")


def gold_text(gold: object, *, latex: bool = False) -> str:
    """``gold`` as the text the scorers read, exactly.

    Args:
        gold: a ``str`` (returned as is), an integer, a float (its shortest round-trip decimal), a
            ``Fraction`` or any rational, or a ``Decimal``.
        latex: write a non-terminating fraction as ``\\frac{p}{q}`` (MATH) instead of ``p/q`` (GSM8K).

    Raises:
        TypeError: any other type, ``bool`` included (``True`` as a gold is a bug, not the number 1).
        ValueError: a number that is not finite (NaN, infinity).
    """
    if isinstance(gold, str):
        return gold
    if isinstance(gold, bool) or not isinstance(gold, numbers.Number | Decimal):
        raise TypeError(f"gold must be a str or a number (int, float, Fraction, Decimal), got {type(gold).__name__}")
    if isinstance(gold, numbers.Integral):
        return str(int(gold))
    if isinstance(gold, Decimal):
        if not gold.is_finite():
            raise ValueError(f"gold must be finite, got {gold}")
        return _plain(gold)
    if isinstance(gold, numbers.Rational):
        value = Fraction(int(gold.numerator), int(gold.denominator))
        if value.denominator == 1:
            return str(value.numerator)
        places = decimal_places(value.denominator)
        if places is not None:  # exact: Decimal division would round to its context's 28 digits
            scaled = abs(value.numerator) * 10**places // value.denominator
            sign = "-" if value < 0 else ""
            return _plain(Decimal(f"{sign}{scaled}E-{places}"))
        sign, p, q = ("-" if value < 0 else ""), abs(value.numerator), value.denominator
        return f"{sign}\\frac{{{p}}}{{{q}}}" if latex else f"{sign}{p}/{q}"
    if isinstance(gold, numbers.Real):
        number = float(gold)
        if not math.isfinite(number):
            raise ValueError(f"gold must be finite, got {number}")
        return _plain(Decimal(repr(number)))
    raise TypeError(f"gold must be a real number, got {type(gold).__name__} {gold!r}")


def _plain(value: Decimal) -> str:
    """A finite decimal without exponent or trailing zeros after the point (``1E+3`` -> ``1000``)."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def response_text(response: object) -> str:
    """``response`` itself; a `TypeError` unless it is a ``str`` (bytes must be decoded by the caller)."""
    if isinstance(response, str):
        return response
    raise TypeError(f"response must be a str, got {type(response).__name__}")


def scorer_config(config: object, cls: type[_C], default: _D) -> _C | _D:
    """The scorer's config: ``default`` for ``None``, ``config`` if it is a ``cls``, ``cls(**config)`` for a mapping.

    Raises:
        ConfigError: a mapping with unknown fields or bad values, another scorer's config, or any other type.
    """
    if config is None:
        return default
    if isinstance(config, cls):
        return config
    name = f"{cls.__module__.rpartition('.')[2]}.{cls.__qualname__}"
    if isinstance(config, Mapping):
        fields = {f.name for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
        unknown = sorted(str(k) for k in config if k not in fields)
        if unknown:
            raise ConfigError(f"unknown {name} field(s) {unknown}; known: {', '.join(sorted(fields))}")
        try:
            return cls(**config)
        except ConfigError:
            raise
        except (TypeError, ValueError) as e:
            raise ConfigError(f"bad {name}: {e}") from e
    got = type(config)
    raise ConfigError(f"config must be a {name} or a mapping of its fields, "
                      f"got {got.__module__.rpartition('.')[2]}.{got.__qualname__}")


def batch_items(values: object, what: str) -> list[Any]:
    """``values`` as a list; a `TypeError` for ``None``, a bare ``str``/``bytes`` or a non-iterable."""
    if isinstance(values, list):
        return values
    if values is None or isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(f"{what} must be a sequence with one item per response, got {type(values).__name__}"
                        + (" (a bare string is not a sequence of items)" if isinstance(values, str | bytes) else ""))
    return list(values)
