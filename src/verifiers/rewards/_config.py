"""Reward presets, their weighted sum, and the checks every scorer ``Config`` runs on construction.

A reward is a weighted sum of parts in [0, 1]; a weight of 0 means "logged, not optimized".

Presets (weights over parts in [0, 1]; see ``verifiers.rewards._format_parts`` for what each format part
means):

- ``accuracy`` (default): 1.0 correctness.
- ``book``: 0.75 correctness + 0.25 format, where the format part is 0.3 multi-line reasoning + 0.2 explicit
  answer marker (so its maximum is 0.5 and the preset's maximum reward is 0.875, as specified).
- ``grail``: GSM8K 0.6 correctness, 0.15 strict numeric-only answer, 0.1 thinking block, 0.1 answer block,
  0.05 nothing trailing; MATH 0.7 correctness, 0.15 answer format, 0.1 thinking, 0.05 nothing trailing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from verifiers.answers._extract import FALLBACK_MARKERS, MARKERS
from verifiers.answers._tags import Tags
from verifiers.errors import ConfigError, one_of
from verifiers.rewards._score import Score, Status

# Hostile-input budgets.
DEFAULT_TIMEOUT = 1.0  # seconds for the symbolic step of one verdict
MAX_TIMEOUT = 600.0
DEFAULT_MAX_CHARS = 100_000  # longer responses are cut to their last DEFAULT_MAX_CHARS characters

PRESETS: Mapping[str, Mapping[str, Mapping[str, float]]] = MappingProxyType({
    "gsm8k": MappingProxyType({
        "accuracy": MappingProxyType({"correctness": 1.0}),
        "book": MappingProxyType({"correctness": 0.75, "reasoning": 0.25 * 0.3, "marker": 0.25 * 0.2}),
        "grail": MappingProxyType({"correctness": 0.6, "numeric_only": 0.15, "thinking": 0.1,
                                   "answer_block": 0.1, "no_trailing": 0.05}),
    }),
    "math": MappingProxyType({
        "accuracy": MappingProxyType({"correctness": 1.0}),
        "book": MappingProxyType({"correctness": 0.75, "reasoning": 0.25 * 0.3, "marker": 0.25 * 0.2}),
        "grail": MappingProxyType({"correctness": 0.7, "answer_format": 0.15, "thinking": 0.1,
                                   "no_trailing": 0.05}),
    }),
})
KNOWN_PARTS = ("correctness", "reasoning", "marker", "numeric_only", "thinking", "answer_block",
               "no_trailing", "answer_format")


def resolve_weights(weights: Any, preset: str, presets: Mapping[str, Mapping[str, float]],
                    known_parts: Sequence[str]) -> tuple[tuple[str, float], ...]:
    """Effective reward weights: ``weights`` if given (checked against ``known_parts``), else the preset's.

    Raises:
        ConfigError: unknown preset or part, or weights that are not part names mapped to numbers.
    """
    one_of(preset, presets, "preset")
    if weights is None:
        return tuple(presets[preset].items())
    try:
        items = weights.items() if isinstance(weights, Mapping) else weights
        resolved = tuple((str(k), float(v)) for k, v in items)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"weights must map part names to numbers, got {weights!r}") from e
    bad = [k for k, _ in resolved if k not in known_parts]
    if bad:
        raise ConfigError(f"unknown reward part(s) {bad}; known parts: {', '.join(known_parts)}")
    return resolved


def combine(parts: Mapping[str, float], weights: Mapping[str, float]) -> float:
    """Weighted sum of ``parts`` over the names in ``weights`` (a missing part counts 0)."""
    return float(sum(w * float(parts.get(name, 0.0)) for name, w in weights.items()))


def rewarded(cfg: BaseConfig, parts: dict[str, float] | None, correct: bool, status: Status, extracted: str | None,
             why: str) -> Score:
    """The `Score` of a verdict: ``parts`` (the format parts the weights name, or ``None`` when they name at most
    one part, so none is computed) with ``correctness`` added, weighted by ``cfg``."""
    if parts is None:  # correctness is the only part: its two rewards are computed once per config
        return Score(cfg.correctness_rewards[correct], correct, status, extracted,
                     {"correctness": 1.0 if correct else 0.0}, why)
    parts["correctness"] = 1.0 if correct else 0.0
    return Score(combine(parts, cfg.weight_map), correct, status, extracted, parts, why)


def check_budgets(timeout: Any, max_chars: Any) -> None:
    """Raise `ConfigError` unless ``timeout`` is in (0, MAX_TIMEOUT] seconds and ``max_chars`` >= 16."""
    try:
        seconds, chars = float(timeout), int(max_chars)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"timeout and max_chars must be numbers, got {timeout!r} and {max_chars!r}") from e
    if not (0 < seconds <= MAX_TIMEOUT):
        raise ConfigError(f"timeout must be in (0, {MAX_TIMEOUT}] seconds, got {timeout!r}")
    if chars < 16:
        raise ConfigError(f"max_chars must be at least 16, got {max_chars!r}")


def check_answer_config(cfg: ScorerConfig) -> None:
    """Raise `ConfigError` for an unknown marker or mode, or a ``rel_tol`` outside [0, 1)."""
    if cfg.mode not in ("flexible", "strict"):
        raise ConfigError(f"mode must be 'flexible' or 'strict', got {cfg.mode!r}")
    if not cfg.markers:
        raise ConfigError("markers is empty; enable at least one of " + ", ".join(MARKERS))
    unknown = [m for m in cfg.markers if m not in MARKERS]
    if unknown:
        raise ConfigError(f"unknown answer marker(s) {unknown}; known markers: {', '.join(MARKERS)}")
    if not (0 <= float(cfg.rel_tol) < 1):
        raise ConfigError(f"rel_tol must be in [0, 1), got {cfg.rel_tol!r}")


@dataclass(frozen=True)
class BaseConfig:
    """Fields every scorer's ``Config`` has (GSM8K, MATH, MBPP); each subclass sets its presets and parts.

    Derived once, not passed (nor compared): ``resolved_weights``, the preset's weights or ``weights`` checked
    against ``parts``, as ``(part, weight)`` pairs; ``weight_map``, the same as a mapping (a part named twice:
    its last weight); ``part_names``, its keys; ``correctness_rewards``, the rewards of a verdict whose only part
    is correctness, wrong and right (``combine`` of ``{"correctness": 0.0}`` and ``{"correctness": 1.0}``).
    """

    presets: ClassVar[Mapping[str, Mapping[str, float]]] = MappingProxyType({})
    parts: ClassVar[tuple[str, ...]] = ()

    preset: str = "accuracy"
    weights: Mapping[str, float] | tuple[tuple[str, float], ...] | None = None
    tags: Tags = field(default_factory=Tags)
    timeout: float = DEFAULT_TIMEOUT
    max_chars: int = DEFAULT_MAX_CHARS
    resolved_weights: tuple[tuple[str, float], ...] = field(init=False, repr=False, compare=False, default=())
    weight_map: Mapping[str, float] = field(init=False, repr=False, compare=False, default_factory=dict)
    part_names: frozenset[str] = field(init=False, repr=False, compare=False, default=frozenset())
    correctness_rewards: tuple[float, float] = field(init=False, repr=False, compare=False, default=(0.0, 0.0))

    def __post_init__(self) -> None:
        check_budgets(self.timeout, self.max_chars)
        resolved = resolve_weights(self.weights, self.preset, self.presets, self.parts)
        if self.weights is not None:  # keep the config hashable
            object.__setattr__(self, "weights", resolved)
        object.__setattr__(self, "resolved_weights", resolved)
        weight_map = dict(resolved)
        object.__setattr__(self, "weight_map", MappingProxyType(weight_map))
        object.__setattr__(self, "part_names", frozenset(weight_map))
        object.__setattr__(self, "correctness_rewards", (combine({"correctness": 0.0}, weight_map),
                                                         combine({"correctness": 1.0}, weight_map)))


@dataclass(frozen=True)
class ScorerConfig(BaseConfig):
    """Fields the answer scorers' ``Config`` share (GSM8K, MATH); each subclass sets its defaults.

    ``active_markers`` is derived: ``markers`` less the fallbacks (``last_number``, ``last_expression``) in strict
    mode.
    """

    parts: ClassVar[tuple[str, ...]] = KNOWN_PARTS

    markers: tuple[str, ...] = ()
    mode: Literal["flexible", "strict"] = "flexible"
    rel_tol: float = 0.0
    active_markers: tuple[str, ...] = field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "markers", tuple(self.markers))
        check_answer_config(self)
        super().__post_init__()
        strict = self.mode == "strict"
        object.__setattr__(self, "active_markers",
                           tuple(m for m in self.markers if not (strict and m in FALLBACK_MARKERS)))
