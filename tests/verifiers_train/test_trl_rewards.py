"""TRL export: one named function per weighted part, summing to the scorer's reward."""

from __future__ import annotations

import json

import pytest

from verifiers import gsm8k
from verifiers.errors import ConfigError
from verifiers_train.trl_rewards import reward_funcs


def test_parts_are_named_and_sum_to_the_reward() -> None:
    funcs = reward_funcs("gsm8k", preset="book")
    names = [f.__name__ for f in funcs]
    assert names == ["gsm8k_correctness", "gsm8k_reasoning", "gsm8k_marker"]
    completions = ["First 3 + 15 = 18.\nSo the answer is 18.\n#### 18", "#### 17", "no idea"]
    answers = ["18", "18", "18"]
    per_part = [f(completions, answer=answers, prompts=["q"] * 3) for f in funcs]
    assert all(isinstance(v, float) for part in per_part for v in part)
    totals = [sum(vals) for vals in zip(*per_part, strict=True)]
    config = gsm8k.Config(preset="book")
    assert totals == pytest.approx([gsm8k.score(c, a, config=config).reward for c, a in zip(completions, answers)])


def test_conversational_completions_and_single_total() -> None:
    (f,) = reward_funcs("openai/gsm8k", split_parts=False)
    assert f.__name__ == "gsm8k_reward"
    chats = [[{"role": "assistant", "content": "#### 18"}], [{"role": "assistant", "content": "#### 2"}]]
    assert f(chats, ground_truth=["18", "18"]) == [1.0, 0.0]


def test_mbpp_reads_tests_column() -> None:
    (f,) = reward_funcs("mbpp", split_parts=False)
    tests = json.dumps(["assert sq(3) == 9"])
    out = f(["```python\ndef sq(x):\n    return x * x\n```", "```python\ndef sq(x):\n    return x\n```"],
            tests=[tests, tests])
    assert out[0] > out[1]


def test_bad_configuration_fails_when_built() -> None:
    with pytest.raises(ConfigError, match="unknown task"):
        reward_funcs("apps")
    with pytest.raises(ConfigError, match="unknown reward kwargs"):
        reward_funcs("gsm8k", presett="book")
    (f,) = reward_funcs("gsm8k", split_parts=False)
    with pytest.raises(ConfigError, match="no gold answer column"):
        f(["#### 1"], prompts=["q"])
