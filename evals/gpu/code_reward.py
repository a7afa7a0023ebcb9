"""verl reward for the code-RL run: our reward (`verifiers_train.reward.compute_score`), timed and logged.

Each call appends one JSON line to ``sample_log``: the worker pid, the scorer's seconds, the reward fields,
and the hostile family the response contains (`hostile_mbpp.classify`), so the run shows which programs
were rewarded and that no hostile one was. One ``O_APPEND`` write per line (Ray stops reward workers
without exit handlers, so nothing is buffered)::

    reward.custom_reward_function.path=/abs/evals/gpu/code_reward.py
    reward.custom_reward_function.name=logged
    +reward.custom_reward_function.reward_kwargs.sample_log=/abs/RUN/samples.jsonl
    +reward.custom_reward_function.reward_kwargs.task=gsm8k      # the no-code baseline: same path, no sandbox
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from verifiers_train.reward import compute_score

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile_mbpp import classify


def logged(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any = None, *,
           sample_log: str, **kwargs: Any) -> Any:
    """Our reward, with one log line per sample."""
    t0 = time.perf_counter()
    result = compute_score(data_source, solution_str, ground_truth, extra_info, **kwargs)
    line = {"pid": os.getpid(), "s": round(time.perf_counter() - t0, 6), "family": classify(solution_str),
            "response": solution_str[:300]} | {k: v for k, v in result.items() if k != "pred"}
    fd = os.open(sample_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, (json.dumps(line) + "\n").encode())
    finally:
        os.close(fd)
    return result
