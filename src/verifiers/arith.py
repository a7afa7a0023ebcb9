"""Synthetic arithmetic word problems in GSM8K format, for smoke-testing RL on tiny models.

Each problem has a ``question`` and a worked ``answer`` that ends in ``#### N`` (like GSM8K), so the
GSM8K scorer judges it. Four difficulty levels (1: one addition or subtraction ... 4: three steps with
multiplication and division). Generation is pure Python, seeded and deterministic across machines and
Python versions; train and test are disjoint by construction (a problem's split is a hash of its text).

Example:
    >>> rows = generate(2, split="test", seed=0, levels=(1,))
    >>> rows[0]["answer"].rsplit("####", 1)[1].strip().isdigit()
    True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from typing import Any

from verifiers.errors import ConfigError

LEVELS: tuple[int, ...] = (1, 2, 3, 4)
# Default sizes when `load_problems("arith")` is called without a limit.
DEFAULT_SIZES: dict[str, int] = {"train": 5000, "test": 500}
# One problem in TEST_EVERY goes to the test split (by hash of its question), the rest to train.
TEST_EVERY = 10
# Upper bound on draws per requested problem; the level-1 space is small, so duplicates are skipped.
_MAX_DRAWS_PER_PROBLEM = 200

_NAMES = ("Tom", "Ann", "Bob", "Mia", "Sam", "Eva", "Leo", "Zoe", "Max", "Ivy", "Raj", "Lin")
_ITEMS = ("apples", "pens", "books", "cards", "coins", "eggs", "shells", "stamps", "marbles", "stickers")
_CONTAINERS = (("box", "boxes"), ("bag", "bags"), ("jar", "jars"), ("crate", "crates"))


def _level1(rng: random.Random) -> tuple[str, list[str], int]:
    name, item = rng.choice(_NAMES), rng.choice(_ITEMS)
    a, b = rng.randint(2, 30), rng.randint(1, 30)
    if rng.random() < 0.5:
        q = f"{name} has {a} {item} and gets {b} more. How many {item} does {name} have now?"
        return q, [f"{name} has {a} + {b} = {a + b} {item}."], a + b
    a, b = max(a, b), min(a, b)
    q = f"{name} has {a} {item} and gives away {b}. How many {item} are left?"
    return q, [f"{name} has {a} - {b} = {a - b} {item} left."], a - b


def _level2(rng: random.Random) -> tuple[str, list[str], int]:
    name, item = rng.choice(_NAMES), rng.choice(_ITEMS)
    box, boxes = rng.choice(_CONTAINERS)
    if rng.random() < 0.5:
        a, k, per = rng.randint(1, 20), rng.randint(2, 6), rng.randint(2, 12)
        q = (f"{name} has {a} {item}. {name} buys {k} {boxes} with {per} {item} in each {box}. "
             f"How many {item} does {name} have now?")
        steps = [f"The {boxes} hold {k} * {per} = {k * per} {item}.",
                 f"{name} has {a} + {k * per} = {a + k * per} {item}."]
        return q, steps, a + k * per
    a, b, c = rng.randint(20, 60), rng.randint(1, 15), rng.randint(1, 15)
    q = (f"{name} had {a} {item}, lost {b} of them and then found {c}. "
         f"How many {item} does {name} have now?")
    steps = [f"After losing some, {name} has {a} - {b} = {a - b} {item}.",
             f"After finding some, {name} has {a - b} + {c} = {a - b + c} {item}."]
    return q, steps, a - b + c


def _level3(rng: random.Random) -> tuple[str, list[str], int]:
    name, item = rng.choice(_NAMES), rng.choice(_ITEMS)
    if rng.random() < 0.5:
        friends, each = rng.randint(2, 9), rng.randint(2, 12)
        extra = rng.randint(1, friends - 1)  # a true remainder
        total = friends * each + extra
        q = (f"{name} shares {total} {item} equally among {friends} friends and keeps the {extra} "
             f"that are left over. How many {item} does each friend get?")
        steps = [f"{name} gives away {total} - {extra} = {total - extra} {item}.",
                 f"Each friend gets {total - extra} / {friends} = {each} {item}."]
        return q, steps, each
    price, qty, paid_extra = rng.randint(2, 15), rng.randint(2, 9), rng.randint(1, 20)
    cost = price * qty
    paid = cost + paid_extra
    q = (f"One of the {item} costs {price} dollars. {name} buys {qty} of them and pays with {paid} dollars. "
         f"How much change does {name} get?")
    steps = [f"The {item} cost {qty} * {price} = {cost} dollars.",
             f"The change is {paid} - {cost} = {paid_extra} dollars."]
    return q, steps, paid_extra


def _level4(rng: random.Random) -> tuple[str, list[str], int]:
    name = rng.choice(_NAMES)
    per_day, days, spent = rng.randint(3, 15), rng.randint(3, 7), rng.randint(1, 10)
    people = rng.randint(2, 5)
    saved = per_day * days - spent
    # Make the final share a whole number by adjusting what was spent.
    spent += saved % people
    saved = per_day * days - spent
    if saved <= 0:
        spent, saved = 0, per_day * days - (per_day * days) % people
        spent = per_day * days - saved
    q = (f"{name} earns {per_day} dollars a day for {days} days, spends {spent} dollars on lunch, "
         f"and splits the rest equally with {people - 1} "
         f"{'sibling' if people == 2 else 'siblings'}. How many dollars does each person get?")
    steps = [f"{name} earns {per_day} * {days} = {per_day * days} dollars.",
             f"After lunch {per_day * days} - {spent} = {saved} dollars are left.",
             (f"There are {people - 1} + 1 = {people} people, so each gets {saved} / {people} = "
              f"{saved // people} dollars.")]
    return q, steps, saved // people


_GENERATORS: dict[int, Callable[[random.Random], tuple[str, list[str], int]]] = {
    1: _level1, 2: _level2, 3: _level3, 4: _level4,
}


def split_of(question: str) -> str:
    """The split (``train`` or ``test``) a question belongs to, from a stable hash of its text."""
    digest = hashlib.sha256(question.encode("utf-8")).digest()
    return "test" if int.from_bytes(digest[:4], "big") % TEST_EVERY == 0 else "train"


def generate(n: int, *, split: str = "train", seed: int = 0,
             levels: Sequence[int] = LEVELS) -> list[dict[str, Any]]:
    """Generate ``n`` distinct problems of one split as GSM8K-style rows.

    Args:
        n: number of problems.
        split: ``train`` or ``test``; the two never share a question.
        seed: random seed; the same (n, split, seed, levels) always gives the same rows.
        levels: difficulty levels to draw from, cycled in order so each level gets an equal share.

    Returns:
        Dicts with ``question``, ``answer`` (worked solution ending ``#### N``) and ``level``.

    Raises:
        ConfigError: unknown split or level, or more problems than the levels can produce.
    """
    if split not in ("train", "test"):
        raise ConfigError(f"arith has splits 'train' and 'test', not {split!r}")
    bad = [lv for lv in levels if lv not in _GENERATORS]
    if bad or not levels:
        raise ConfigError(f"arith levels must be a non-empty subset of {LEVELS}, got {list(levels)}")
    rng = random.Random(f"verifiers-arith-{seed}")  # str seeds hash with sha512: stable everywhere
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    draws = 0
    while len(rows) < n:
        draws += 1
        if draws > _MAX_DRAWS_PER_PROBLEM * max(n, 1):
            raise ConfigError(f"could only make {len(rows)} distinct {split} problems of levels "
                              f"{list(levels)}; ask for fewer or add levels")
        level = levels[len(rows) % len(levels)]
        question, steps, answer = _GENERATORS[level](rng)
        if question in seen or split_of(question) != split:
            continue
        seen.add(question)
        rows.append({"question": question, "answer": "\n".join(steps) + f"\n#### {answer}", "level": level})
    return rows
