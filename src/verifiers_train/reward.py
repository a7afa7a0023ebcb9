"""verl 0.9.1 reward function: ``compute_score`` dispatching to the GSM8K, MATH and MBPP scorers.

Register it with verl (``reward.*`` keys; the top-level ``custom_reward_function`` is ignored by 0.9.1)::

    reward.custom_reward_function.path=pkg://verifiers_train.reward
    reward.custom_reward_function.name=compute_score
    +reward.custom_reward_function.reward_kwargs.preset=book          # optional

The returned dict always has the same keys (`result_keys`): verl turns them into per-sample arrays, and
``pred`` enables its maj@N validation metric. The reward parts are those of every scorer (``part_all_passed``
is MBPP's, ``part_correctness`` GSM8K's and MATH's, ...); a part that is not the row's own scorer's is
``None``, which verl's validation metrics skip (``process_validation_metrics`` drops ``None`` before its
mean), so ``val-aux/openai/gsm8k/part_all_passed`` is not reported at all instead of as 0.0, and a mixed batch
keeps one key set. A failure inside scoring never raises into verl: the
sample gets score 0 with ``error=1`` and the traceback is logged (rate-limited). A ``data_source`` no
scorer knows is logged once per source and process, as an error naming the fix (a renamed dataset must
not train silently on zero reward); ``+reward.custom_reward_function.reward_kwargs.task=NAME`` forces a
scorer for every row whatever its ``data_source``. No signals are used, so it runs in Ray workers and
executor threads.

Example:
    >>> compute_score("openai/gsm8k", "... #### 18", "18")["acc"]
    1.0
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from verifiers import Tags
from verifiers import tasks as registry
from verifiers.errors import ConfigError, one_of
from verifiers.rewards._config import BaseConfig
from verifiers.tasks import Scorer

__all__ = ["CORE_KEYS", "TAG_PRESETS", "UnknownDataSource", "check_reward_kwargs", "compute_score", "config_for", "freeze",
           "result_keys", "scorer_names", "task_for"]

logger = logging.getLogger(__name__)

# Keys present in every result, before the reward parts.
CORE_KEYS: tuple[str, ...] = ("score", "acc", "pred", "no_answer", "timeout", "error")
# Named tag sets for the ``tags`` reward kwarg (a mapping of `Tags` fields also works).
TAG_PRESETS: dict[str, Tags] = {
    "grail": Tags(),
    "think": Tags("<think>", "</think>", "<answer>", "</answer>"),
}
# verl passes these itself (reward-model routing); they are not reward kwargs of ours.
_VERL_KWARGS = frozenset({"reward_router_address", "reward_model_tokenizer"})
# Log the first few scoring failures per process in full, then one in _LOG_EVERY.
_LOG_FIRST, _LOG_EVERY = 5, 1000
_errors = 0
_errors_lock = threading.Lock()
_unknown_sources: set[str] = set()  # data sources already reported in this process


class UnknownDataSource(ConfigError):
    """A row's ``data_source`` names no scorer (and no ``task`` reward kwarg forces one)."""


def task_for(data_source: str) -> str | None:
    """The scorer name (``gsm8k``/``math``/``mbpp``) for a ``data_source``, or ``None`` if unknown.

    A data source or task name of `verifiers.tasks`; see `verifiers.tasks.for_data_source`.
    """
    spec = registry.for_data_source(data_source)
    return spec.scorer_name if spec is not None else None


def scorer_names() -> tuple[str, ...]:
    """The distinct scorers of the registered tasks (``gsm8k``, ``math``, ``mbpp``, ...)."""
    return tuple(dict.fromkeys(registry.get(n).scorer_name for n in registry.names()))


def _scorer(name: str) -> Scorer:
    """The scorer called ``name`` (the scorer of the first task that names it)."""
    one_of(name, scorer_names(), "reward task")
    return next(spec for spec in map(registry.get, registry.names()) if spec.scorer_name == name).scorer()


def freeze(value: Any) -> Any:
    """Reward kwargs (possibly OmegaConf containers, as verl passes them from Hydra) as nested tuples,
    hashable for the config cache: a mapping becomes its sorted ``(key, value)`` pairs, a list a tuple."""
    if hasattr(value, "items"):
        return tuple(sorted((str(k), freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple) or type(value).__name__ == "ListConfig":
        return tuple(freeze(v) for v in value)
    return value


def _tags(spec: Any) -> Tags:
    if isinstance(spec, Tags):
        return spec
    if isinstance(spec, str):
        if spec not in TAG_PRESETS:
            raise ConfigError(f"unknown tags {spec!r}; use one of {', '.join(TAG_PRESETS)} or a mapping of "
                              f"{[f.name for f in dataclasses.fields(Tags)]}")
        return TAG_PRESETS[spec]
    if isinstance(spec, tuple):  # frozen mapping
        spec = dict(spec)
    try:
        return Tags(**spec)
    except TypeError as e:
        raise ConfigError(f"bad tags {spec!r}: {e}") from e


def _fields(scorer: str) -> set[str]:
    return {f.name for f in dataclasses.fields(_scorer(scorer).Config) if f.init}


@lru_cache(maxsize=64)
def _config(scorer: str, frozen_kwargs: tuple[tuple[str, Any], ...]) -> BaseConfig:
    """The scorer's ``Config`` for these kwargs (cached: configs are frozen and hashable).

    Each kwarg that names a field of the scorer's ``Config`` is passed to it; the others are for other scorers.
    """
    names = _fields(scorer)
    values: dict[str, Any] = {}
    for key, value in frozen_kwargs:
        if key not in names or value is None:
            continue
        if key == "tags":
            value = _tags(value)
        elif key == "weights":
            value = dict(value)
        elif isinstance(value, list):
            value = tuple(value)
        values[key] = value
    try:
        return _scorer(scorer).Config(**values)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"bad reward kwargs for {scorer} ({', '.join(map(str, values))}): {e}") from e


def config_for(scorer: str, **reward_kwargs: Any) -> BaseConfig:
    """The ``Config`` of ``scorer`` (a scorer, task or data-source name) that these reward kwargs make."""
    return _config(task_for(scorer) or scorer, freeze(reward_kwargs))


@lru_cache(maxsize=64)
def _keys(frozen_kwargs: tuple[tuple[str, Any], ...], scorers: tuple[str, ...]) -> tuple[str, ...]:
    parts: list[str] = []
    for scorer in scorers:  # passed in, so a scorer registered later gets its own cache entry
        try:
            config = _config(scorer, frozen_kwargs)
        except Exception:  # noqa: BLE001, S112 - a scorer that cannot build this config adds no part names
            continue
        parts.extend(p for p, _ in config.resolved_weights if p not in parts)
    return CORE_KEYS + tuple(f"part_{p}" for p in parts)


def result_keys(**reward_kwargs: Any) -> tuple[str, ...]:
    """The keys every `compute_score` result has for these reward kwargs (core keys + ``part_<name>``)."""
    return _keys(freeze(reward_kwargs), scorer_names())


def check_reward_kwargs(tasks: tuple[str, ...] | None = None, **reward_kwargs: Any) -> None:
    """Raise `ConfigError` now for reward kwargs `compute_score` would reject on every sample.

    Used by ``verifiers-train run`` before launching, so a typo fails in seconds, not as a run of zeros.

    Args:
        tasks: scorers the run will use (their modules must import and accept the kwargs); default all.
        **reward_kwargs: ``task`` or any field of the scorers' ``Config`` (preset, weights, tags, mode, ...).
    """
    if reward_kwargs.get("task"):
        tasks = (task_for(reward_kwargs["task"]) or reward_kwargs["task"],)
    tasks = scorer_names() if tasks is None else tasks
    known: set[str] = {"task"}
    for t in tasks:
        one_of(t, scorer_names(), "reward task")
        try:
            known |= _fields(t)
        except ImportError as e:
            raise ConfigError(f"scorer verifiers.{t} cannot be imported ({e}); reinstall verifiers") from e
    unknown = sorted(set(reward_kwargs) - known)
    if unknown:
        raise ConfigError(f"unknown reward kwargs {unknown}; known: {', '.join(sorted(known))}")
    frozen = freeze(reward_kwargs)
    for t in tasks:
        _config(t, frozen)


def _empty(keys: tuple[str, ...]) -> dict[str, Any]:
    """A result with every key: core keys zero (``pred`` empty), parts ``None`` (not this row's)."""
    return {k: ("" if k == "pred" else 0.0 if k in CORE_KEYS else None) for k in keys}


@lru_cache(maxsize=64)
def _own_parts(scorer: str, frozen_kwargs: tuple[tuple[str, Any], ...]) -> tuple[str, ...]:
    """The ``part_<name>`` keys of ``scorer`` under these kwargs (its share of `result_keys`)."""
    return tuple(f"part_{p}" for p, _ in _config(scorer, frozen_kwargs).resolved_weights)


def _note_error(data_source: str, exc: BaseException) -> None:
    global _errors
    if isinstance(exc, UnknownDataSource):
        # Once per source, whatever the sample count: every such sample scores 0, which a run must not hide.
        # Not counted below, so the scoring failures that follow still get their first tracebacks logged.
        with _errors_lock:
            first_of_source = data_source not in _unknown_sources
            _unknown_sources.add(data_source)
        if first_of_source:
            logger.error("verifiers reward: %s. Every sample with this data_source scores 0 with error=1. Fix: "
                         "prepare the data with a known --data-source, or force a scorer with "
                         "+reward.custom_reward_function.reward_kwargs.task=gsm8k|math|mbpp", exc)
        return
    with _errors_lock:
        _errors += 1
        n = _errors
    if n <= _LOG_FIRST or n % _LOG_EVERY == 0:
        # A configuration problem needs its message, not a traceback; a bug needs the traceback.
        logger.error("verifiers reward failed on a %s sample (%d failures so far in this process): %s",
                     data_source, n, exc, exc_info=None if isinstance(exc, ConfigError) else exc)


def compute_score(data_source: str, solution_str: str, ground_truth: Any, extra_info: Mapping[str, Any] | None = None,
                  **kwargs: Any) -> dict[str, Any]:
    """Score one response for verl; never raises.

    Args:
        data_source: the row's ``data_source`` (see `verifiers.tasks.for_data_source`).
        solution_str: the decoded response (verl passes the response only, not the prompt).
        ground_truth: the gold answer; for MBPP a JSON-encoded list of assert statements.
        extra_info: the row's ``extra_info``; code tasks read ``setup_code``. Read, never modified.
        **kwargs: reward kwargs (verl's ``reward_kwargs``): ``task`` (force a scorer) or any field of the
            scorers' ``Config``: ``preset``, ``weights`` (part -> weight), ``tags`` (``grail``/``think`` or a
            mapping), ``mode``, ``timeout``, ... A field only some scorers have goes to those.

    Returns:
        ``score`` (the reward), ``acc`` (1.0 if correct), ``pred`` (extracted answer, ``""`` if none),
        ``no_answer``/``timeout``/``error`` flags (0/1), and ``part_<name>`` for each reward part of any
        scorer: a float for the row's own scorer's parts, ``None`` for the others' (and for every part when
        no scorer knows the row's ``data_source``).
    """
    ours = {k: v for k, v in kwargs.items() if k not in _VERL_KWARGS and v is not None}
    frozen = freeze(ours) if ours else ()
    try:
        keys = _keys(frozen, scorer_names())
    except Exception as exc:  # noqa: BLE001 - pragma: no cover; only if even the core keys fail
        _note_error(data_source, exc)
        keys = CORE_KEYS
    result = _empty(keys)
    try:
        spec = registry.for_data_source(str(ours.get("task") or data_source))
        if spec is None:
            raise UnknownDataSource(f"no verifiers scorer for data_source {data_source!r}; known tasks: "
                              f"{', '.join(registry.names())} (and their data_source names)")
        for key in _own_parts(spec.scorer_name, frozen):  # this row's parts: 0.0 until scored
            if key in result:
                result[key] = 0.0
        # No kwargs: pass config=None so the scorer can take its default fast path.
        config = _config(spec.scorer_name, frozen) if frozen else None
        text = solution_str if isinstance(solution_str, str) else str(solution_str)
        reference = spec.reference.decode(ground_truth, str((extra_info or {}).get("setup_code") or ""))
        s = spec.scorer().score(text, reference, config=config)
    except Exception as exc:  # noqa: BLE001 - a bad sample is data, not a crash: flag it, keep the batch going
        _note_error(str(data_source), exc)
        result["error"] = 1.0
        return result
    result["score"] = float(s.reward)
    result["acc"] = 1.0 if s.correct else 0.0
    result["pred"] = "" if s.extracted is None else str(s.extracted)
    result["no_answer"] = 1.0 if s.status == "no_answer" else 0.0
    result["timeout"] = 1.0 if s.status == "timeout" else 0.0
    result["error"] = 1.0 if s.status in ("error", "gold_unparseable") else 0.0
    for name, value in s.parts.items():
        key = f"part_{name}"
        if key in result:  # only declared parts: the key set must not vary between samples
            result[key] = float(value)
    return result
