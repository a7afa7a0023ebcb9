"""The same scorers as TRL ``reward_funcs``: ``f(completions, **kwargs) -> list[float]``, one per reward part.

TRL sums its reward functions (times ``reward_weights``, default 1) and logs each under its ``__name__``.
`reward_funcs` returns one function per weighted part, each already multiplied by its weight, so the sum
equals the scorer's ``Score.reward`` and every part shows up in the logs (``gsm8k_correctness``,
``gsm8k_reasoning``...). The response is scored once per batch and shared by the part functions.

Example::

    from trl import GRPOConfig, GRPOTrainer
    from verifiers_train.trl_rewards import reward_funcs
    trainer = GRPOTrainer(model=..., reward_funcs=reward_funcs("gsm8k", preset="book"),
                          train_dataset=ds)   # ds has "prompt" and "answer" (or "ground_truth") columns
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from verifiers import tasks
from verifiers.errors import ConfigError
from verifiers_train.reward import check_reward_kwargs, config_for

__all__ = ["GOLD_COLUMNS", "TESTS_COLUMNS", "reward_funcs"]

# Dataset columns read for the reference, first present wins.
GOLD_COLUMNS = tasks.ANSWER.columns
TESTS_COLUMNS = tasks.TESTS.columns
SETUP_COLUMNS = ("setup_code", "test_setup_code")

RewardFunc = Callable[..., list[float]]


def _text(completion: Any) -> str:
    """A completion as text: TRL passes strings, or message lists for conversational data."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list | tuple):
        return "".join(str(m.get("content", "")) if isinstance(m, dict) else str(m) for m in completion)
    if isinstance(completion, dict):
        return str(completion.get("content", ""))
    return str(completion)


def _column(kwargs: dict[str, Any], names: Sequence[str], n: int, what: str) -> list[Any]:
    for name in names:
        if name in kwargs and kwargs[name] is not None:
            values = list(kwargs[name])
            if len(values) != n:
                raise ConfigError(f"column {name!r} has {len(values)} values for {n} completions")
            return values
    raise ConfigError(f"no {what} column among {list(names)}; the dataset has {sorted(kwargs)}")


def reward_funcs(task: str = "gsm8k", *, split_parts: bool = True, gold_column: str | None = None,
                 **reward_kwargs: Any) -> list[RewardFunc]:
    """TRL reward functions for one scorer.

    Args:
        task: a task of `verifiers.tasks` (``gsm8k``, ``math``, ``mbpp``, ...) or one of its data-source names.
        split_parts: one function per weighted part (default); ``False`` for a single ``{task}_reward``.
        gold_column: dataset column holding the reference (default: the first of the task's reference
            columns: `GOLD_COLUMNS`, or `TESTS_COLUMNS` for code tasks).
        **reward_kwargs: scorer ``Config`` fields (``preset``, ``weights``, ``tags``, ``mode``...).

    Returns:
        Functions ``f(completions, **kwargs) -> list[float]`` with distinct ``__name__``s.

    Raises:
        ConfigError: unknown task or reward kwargs.
    """
    spec = tasks.for_data_source(task)
    if spec is None:
        raise ConfigError(f"unknown task {task!r}; choose one of {', '.join(tasks.names())}")
    task = spec.scorer_name
    check_reward_kwargs((task,), **reward_kwargs)
    scorer = spec.scorer()
    config = config_for(task, **reward_kwargs)
    weights = dict(config.resolved_weights)
    lock = threading.Lock()
    memo: dict[str, Any] = {"completions": None, "scores": None}

    def scores(completions: list[Any], kwargs: dict[str, Any]) -> list[Any]:
        with lock:  # the part functions share one scoring pass per batch
            if memo["completions"] is completions:
                return list(memo["scores"])
        n = len(completions)
        texts = [_text(c) for c in completions]
        columns = (gold_column,) if gold_column else spec.reference.columns
        values = _column(kwargs, columns, n, "gold answer" if spec.reference.votes else "tests")
        setups = next((list(kwargs[c]) for c in SETUP_COLUMNS if kwargs.get(c) is not None), [""] * n)
        out = [scorer.score(t, spec.reference.decode(v, str(s or "")), config=config)
               for t, v, s in zip(texts, values, setups, strict=True)]
        with lock:
            memo["completions"], memo["scores"] = completions, out
        return out

    def make(part: str | None) -> RewardFunc:
        def f(completions: list[Any], **kwargs: Any) -> list[float]:
            results = scores(completions, kwargs)
            if part is None:
                return [float(s.reward) for s in results]
            return [weights[part] * float(s.parts.get(part, 0.0)) for s in results]

        f.__name__ = f.__qualname__ = f"{task}_{part or 'reward'}"
        f.__doc__ = f"TRL reward: {task} {'total reward' if part is None else f'part {part!r} x {weights[part]}'}."
        return f

    if not split_parts:
        return [make(None)]
    return [make(part) for part in weights]
