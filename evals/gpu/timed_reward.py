"""verl reward functions that time the scorer they wrap: ours, or verl's built-in default scorer.

Used by the reward-overhead stage of `evals/gpu/gpu_e2e.sh` so that both runs take the same verl code path
(a custom reward function) and differ only in the scorer called::

    reward.custom_reward_function.path=/abs/path/evals/gpu/timed_reward.py
    reward.custom_reward_function.name=ours            # or verl_builtin
    +reward.custom_reward_function.reward_kwargs.timing_log=/abs/path/RUN/reward_times.tsv

``alternate`` switches scorer from step to step inside one launch (an A/B/A/B... step-time comparison; see its
docstring).

Every call's scorer time (``time.perf_counter``, seconds) is appended to ``timing_log`` as a
``pid<TAB>seconds`` line, written at once: Ray stops reward workers without running exit handlers, so a
buffer would lose its tail. Several worker processes append to one file; each line is one ``O_APPEND``
write, far under the pipe-buffer size, so lines do not interleave.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from typing import Any

from verifiers_train.reward import _VERL_KWARGS
from verifiers_train.reward import compute_score as _ours


def _timed(scorer: Callable[..., Any], data_source: str, solution_str: str, ground_truth: Any,
           extra_info: Any, timing_log: str, kwargs: dict[str, Any], columns: str = "") -> Any:
    """Call ``scorer``; append ``pid<TAB>seconds`` (and ``columns``) to ``timing_log`` in one ``O_APPEND`` write."""
    t0 = time.perf_counter()
    result = scorer(data_source, solution_str, ground_truth, extra_info, **kwargs)
    elapsed = time.perf_counter() - t0
    fd = os.open(timing_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, f"{os.getpid()}\t{elapsed:.9f}{columns}\n".encode())
    finally:
        os.close(fd)
    return result


def ours(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None, *,
         timing_log: str, **kwargs: Any) -> Any:
    """`verifiers_train.reward.compute_score`, timed."""
    return _timed(_ours, data_source, solution_str, ground_truth, extra_info, timing_log, kwargs)


def verl_builtin(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None, *,
                 timing_log: str, **kwargs: Any) -> Any:
    """verl's ``default_compute_score`` (its gsm8k scorer for ``openai/gsm8k`` rows), timed."""
    kwargs = {k: v for k, v in kwargs.items() if k not in _VERL_KWARGS}
    return _timed(_verl_default(), data_source, solution_str, ground_truth, extra_info, timing_log, kwargs)


_calls = itertools.count()


def both(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None, *,
         timing_log: str, **kwargs: Any) -> Any:
    """Both scorers on every response, timed to ``timing_log`` (ours) and ``timing_log + ".verl"``; returns ours.

    One launch gives a paired comparison: the same responses, in the same reward worker, with the order of
    the two calls alternating from one response to the next.
    """
    verl_first = next(_calls) % 2  # one read: verl's reward workers call this from several threads
    if verl_first:
        verl_builtin(data_source, solution_str, ground_truth, extra_info, timing_log=timing_log + ".verl", **kwargs)
    result = ours(data_source, solution_str, ground_truth, extra_info, timing_log=timing_log, **kwargs)
    if not verl_first:
        verl_builtin(data_source, solution_str, ground_truth, extra_info, timing_log=timing_log + ".verl", **kwargs)
    return result


def alternate(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None, *,
              timing_log: str, rows_per_step: int, **kwargs: Any) -> Any:
    """Ours on the rows of odd steps, verl's built-in on the rows of even steps, in one launch.

    Needs ``data.shuffle=False`` (verl then reads the train file in order, so step k scores rows
    ``[(k-1)·rows_per_step, k·rows_per_step)``) and ``rows_per_step`` = ``data.train_batch_size``. Each call
    appends ``pid<TAB>seconds<TAB>scorer<TAB>row`` to ``timing_log``, so `reward_cost.py` can check every step
    used one scorer and compare the step times of the two kinds of step (each verl step against the mean of
    the ours steps on either side: A/B/A).
    """
    row = int(extra_info["index"])
    scorer, name = (_ours, "ours") if (row // rows_per_step) % 2 == 0 else (_verl_default(), "verl")
    if name == "verl":
        kwargs = {k: v for k, v in kwargs.items() if k not in _VERL_KWARGS}
    return _timed(scorer, data_source, solution_str, ground_truth, extra_info, timing_log, kwargs, f"\t{name}\t{row}")


def _verl_default() -> Callable[..., Any]:
    from verl.utils.reward_score import default_compute_score

    return default_compute_score
