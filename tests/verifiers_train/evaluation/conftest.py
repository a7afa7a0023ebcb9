"""A tiny model that partly solves one-digit arithmetic problems, built once per test session."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from verifiers.datasets import load_problems

_NAMES = ("Tom", "Ann", "Bob", "Mia")
_ITEMS = ("apples", "pens", "books")


def one_digit_rows(n: int, seed: int) -> list[dict[str, object]]:
    """GSM8K-format rows (like `verifiers.arith` level 1, with one-digit numbers a tiny model can learn)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        name, item = rng.choice(_NAMES), rng.choice(_ITEMS)
        a, b = rng.randint(1, 9), rng.randint(1, 9)
        if rng.random() < 0.5:
            q = f"{name} has {a} {item} and gets {b} more. How many {item} does {name} have now?"
            sol = f"{name} has {a} + {b} = {a + b} {item}.\n#### {a + b}"
        else:
            a, b = max(a, b), min(a, b)
            q = f"{name} has {a} {item} and gives away {b}. How many {item} are left?"
            sol = f"{name} has {a} - {b} = {a - b} {item} left.\n#### {a - b}"
        rows.append({"question": q, "answer": sol, "level": 1})
    return rows


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 24-problem ``arith``-format test file (one-digit numbers)."""
    return write_jsonl(tmp_path_factory.mktemp("data") / "test.jsonl", one_digit_rows(24, seed=123))


@pytest.fixture(scope="session")
def tiny_model(build_once: Callable[[str, Callable[[Path], Path]], Path]) -> Path:
    """Tiny Qwen2 model + tokenizer SFT-trained to partial accuracy (about 15 s on one CPU thread), one per run.

    Its folder is ``<root>/model`` beside the ``<root>/train.jsonl`` it was trained on."""
    def build(root: Path) -> Path:
        from verifiers_train.tiny import build_tiny_model

        train = write_jsonl(root / "train.jsonl", one_digit_rows(1500, seed=0))
        problems = load_problems("arith", train, split="train")
        info = build_tiny_model(root / "model", dataset="arith", problems=problems, size="test", steps=250,
                                batch_size=16, lr=1e-2, threads=1, log=None)
        assert 0.0 < info.greedy_accuracy < 1.0, info  # partial accuracy: RL/eval signal exists
        return info.path

    return build_once("tiny-eval-model", build)
