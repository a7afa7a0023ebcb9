"""The synthetic arithmetic dataset: deterministic, correct, disjoint splits, GSM8K-scorable."""

from __future__ import annotations

import re

import pytest

from verifiers import arith, gsm8k
from verifiers.datasets import load_problems
from verifiers.errors import ConfigError

_EQUATION = re.compile(r"(\d+) ([-+*/]) (\d+) = (\d+)")


def test_same_seed_same_rows_and_prefix_stable() -> None:
    a = arith.generate(40, split="train", seed=3)
    assert a == arith.generate(40, split="train", seed=3)
    assert arith.generate(10, split="train", seed=3) == a[:10]  # a limit is a prefix of the full set
    assert a != arith.generate(40, split="train", seed=4)


def test_every_worked_step_is_true_and_ends_with_the_answer() -> None:
    rows = arith.generate(400, split="train", seed=0)
    ops = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
           "/": lambda x, y: x / y}
    for row in rows:
        steps = _EQUATION.findall(row["answer"])
        assert steps, row
        for a, op, b, c in steps:
            assert ops[op](int(a), int(b)) == int(c), (row["question"], a, op, b, c)
        final = row["answer"].rsplit("####", 1)[1].strip()
        assert final == steps[-1][3] and int(final) >= 0


def test_levels_cycle_and_grow_in_steps() -> None:
    rows = arith.generate(8, split="test", seed=1)
    assert [r["level"] for r in rows] == [1, 2, 3, 4, 1, 2, 3, 4]
    counts = {lv: len(_EQUATION.findall(r["answer"])) for r in rows for lv in [r["level"]]}
    assert counts[1] == 1 and counts[2] == 2 and counts[4] >= 3


def test_train_and_test_are_disjoint() -> None:
    train = {r["question"] for r in arith.generate(2000, split="train")}
    test = {r["question"] for r in arith.generate(300, split="test")}
    assert not train & test
    assert all(arith.split_of(q) == "test" for q in test)


@pytest.mark.parametrize("kwargs", [{"split": "validation"}, {"levels": (5,)}, {"levels": ()}])
def test_bad_arguments_raise_config_error(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        arith.generate(3, **kwargs)


def test_load_problems_generates_gsm8k_style_problems_the_scorer_accepts() -> None:
    problems = load_problems("arith", split="test", limit=30)
    assert len(problems) == 30
    assert problems[0].id == "arith/test/0" and problems[0].meta["level"] == 1
    for p in problems:
        assert gsm8k.score(p.solution, p.gold).correct
        assert not gsm8k.score(p.solution.rsplit("####", 1)[0] + f"#### {int(p.gold) + 1}", p.gold).correct
    assert len(load_problems("arith", split="train")) == arith.DEFAULT_SIZES["train"]
