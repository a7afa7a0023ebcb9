"""MBPP scorer: extraction, presets, status mapping, and every reference solution passing its tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from verifiers import Tags, mbpp
from verifiers.errors import ConfigError
from verifiers.sandbox import CodePool

TESTS = ["assert add(1, 2) == 3", "assert add(2, 2) == 4"]
GOOD = "def add(a, b):\n    return a + b"
HALF = "def add(a, b):\n    return 3"



@pytest.mark.parametrize(("response", "code", "source"), [
    (f"Here:\n```python\n{GOOD}\n```\nDone.", GOOD, "fenced"),
    (f"```py\nx = 1\n```\nthen\n```python\n{GOOD}\n```", GOOD, "fenced"),
    (f"```\n{GOOD}\n```", GOOD, "fenced"),
    (f"```python\n{GOOD}", GOOD, "fenced"),  # unclosed fence of a truncated generation
    (f"<SOLUTION>\n{GOOD}\n</SOLUTION>", GOOD, "tags"),
    (f"<SOLUTION>\n```python\n{GOOD}\n```\n</SOLUTION>", GOOD, "tags"),
    (f"```python\nwrong = 1\n```\n<SOLUTION>{GOOD}</SOLUTION>", GOOD, "tags"),
    (GOOD, GOOD, "plain"),
    (f"<start_working_out>```python\nwrong = 1\n```<end_working_out>\n```python\n{GOOD}\n```", GOOD, "fenced"),
    (f"<start_working_out>only here\n```python\n{GOOD}\n```<end_working_out>", GOOD, "fenced"),
    ("I cannot solve this.", None, ""),
    ("", None, ""),
])
def test_extract_code(response: str, code: str | None, source: str) -> None:
    assert mbpp.extract_code(response) == (code, source)


def test_extract_options() -> None:
    both = "```python\na = 1\n```\n```python\nb = 2\n```"
    assert mbpp.extract_code(both, mbpp.Config(fence="all"))[0] == "a = 1\n\nb = 2"
    tags = Tags("<think>", "</think>", "<answer>", "</answer>")
    assert mbpp.extract_code(f"<answer>{GOOD}</answer>", mbpp.Config(tags=tags)) == (GOOD, "tags")
    assert mbpp.extract_code(GOOD, mbpp.Config(sources=("tags", "fenced")))[0] is None


def test_score_statuses(pool: CodePool) -> None:
    s = mbpp.score(f"```python\n{GOOD}\n```", TESTS, pool=pool)
    assert (s.status, s.correct, s.reward, s.extracted) == ("correct", True, 1.0, GOOD)
    s = mbpp.score(f"```python\n{HALF}\n```", TESTS, pool=pool)
    assert (s.status, s.correct, s.reward, s.parts["correctness"]) == ("incorrect", False, 0.0, 0.5)
    assert "sandbox failed: 1/2" in s.explanation
    s = mbpp.score("```python\ndef add(a, b:\n```", TESTS, pool=pool)
    assert s.status == "incorrect" and s.parts["syntax"] == 0.0 and "syntax_error" in s.explanation
    s = mbpp.score("```python\ndef add(a, b):\n    while True: pass\n```", TESTS, pool=pool,
                   config=mbpp.Config(timeout=0.5))
    assert s.status == "timeout" and s.reward == 0.0
    s = mbpp.score("no code here", TESTS, pool=pool)
    assert s.status == "no_answer" and s.extracted is None
    assert mbpp.score(GOOD, [], pool=pool).status == "gold_unparseable"
    s = mbpp.score("```python\nimport sys\nsys.exit(0)\n```", TESTS, pool=pool)
    assert s.status == "incorrect" and s.reward == 0.0


def test_grail_preset(pool: CodePool) -> None:
    cfg = mbpp.Config(preset="grail")
    full = f"<start_working_out>think<end_working_out><SOLUTION>{GOOD}</SOLUTION>"
    assert mbpp.score(full, TESTS, config=cfg, pool=pool).reward == pytest.approx(1.0)
    half = f"<start_working_out>think<end_working_out><SOLUTION>{HALF}</SOLUTION>"
    assert mbpp.score(half, TESTS, config=cfg, pool=pool).reward == pytest.approx(0.7 * 0.5 + 0.3)
    bare = f"```python\n{HALF}\n```"
    assert mbpp.score(bare, TESTS, config=cfg, pool=pool).reward == pytest.approx(0.35 + 0.1)
    assert mbpp.score("nothing", TESTS, config=cfg, pool=pool).reward == 0.0
    weighted = mbpp.Config(weights={"correctness": 1.0})
    assert mbpp.score(bare, TESTS, config=weighted, pool=pool).reward == pytest.approx(0.5)


def test_bad_config() -> None:
    for kw in ({"preset": "book"}, {"sources": ("html",)}, {"fence": "first"}, {"timeout": 0},
               {"weights": {"style": 1.0}}, {"weights": {"all_passed": "x"}}, {"weights": [("all_passed",)]},
               {"timeout": "soon"}, {"max_chars": 3}):
        with pytest.raises(ConfigError):
            mbpp.Config(**kw)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        mbpp.score_batch(["a"], [], config=None)
    assert hash(mbpp.Config(weights={"correctness": 1.0}))


def test_bad_batch_items_fail_the_call_before_anything_runs() -> None:
    code = "```python\ndef add(a, b):\n    return a + b\n```"

    class NoPool:  # any submit would be a bug: the inputs are checked first
        def submit(self, *a: object, **k: object) -> None:
            raise AssertionError("submitted before the inputs were checked")

    for tests, setups in ((["assert add(1, 2) == 3"], None),            # a bare string, not a list of asserts
                          ([["assert add(1, 2) == 3"], [3]], None),     # a non-string assert
                          ([["assert add(1, 2) == 3"]] * 2, ["", 7])):  # a non-string setup
        n = len(tests)
        with pytest.raises(TypeError):
            mbpp.score_batch([code] * n, tests, setups, pool=NoPool())  # type: ignore[arg-type]


_FENCE_ALPHABET = ["```", "\n", "python", " ", "py", "x", "`", "\t", "-", "def f():", "```py extra\n"]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from(_FENCE_ALPHABET), max_size=30))
def test_fence_scan_matches_the_markdown_fence_regex(pieces: list[str]) -> None:
    # the one-pass scanner replaced this regex (quadratic on a long line of fences); same blocks
    import re

    regex = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
    text = "".join(pieces)
    assert mbpp._fence_blocks(text) == [(lang.lower(), body) for lang, body in regex.findall(text)]


def test_fence_floods_extract_nothing() -> None:
    for text in ("```" * 33_333, "```" + "a" * 99_997):
        assert mbpp.extract_code(text)[0] is None
    assert mbpp.extract_code("pre ```py extra\nx = 1\n``` mid ```python\ny = 2\n```") == ("y = 2", "fenced")


def test_score_batch_order(pool: CodePool) -> None:
    responses = [f"```python\ndef f():\n    return {i}\n```" for i in range(20)]
    tests = [[f"assert f() == {i if i % 3 else -1}"] for i in range(20)]
    scores = mbpp.score_batch(responses, tests, pool=pool)
    assert [s.correct for s in scores] == [bool(i % 3) for i in range(20)]


@pytest.mark.slow
def test_sanitized_reference_solutions_pass(data_dir: Path, pool: CodePool) -> None:
    rows = json.loads((data_dir / "mbpp" / "sanitized-mbpp.json").read_text())
    responses = [f"```python\n{r['code']}\n```" for r in rows]
    scores = mbpp.score_batch(responses, [r["test_list"] for r in rows],
                              ["\n".join(r["test_imports"]) for r in rows], pool=pool,
                              config=mbpp.Config(timeout=30.0))  # task 123 needs seconds of CPU
    failed = [(r["task_id"], s.explanation) for r, s in zip(rows, scores) if not s.correct]
    assert not failed and len(rows) == 427


@pytest.mark.slow
def test_full_mbpp_reference_solutions_pass(data_dir: Path, pool: CodePool) -> None:
    from verifiers.datasets import load_problems

    problems = load_problems("mbpp", data_dir / "mbpp" / "mbpp.jsonl", split="all")
    assert len(problems) == 974
    results = pool.map([{"code": p.solution, "tests": list(p.tests), "setup_code": p.setup_code,
                         "timeout_s": 30.0} for p in problems])
    failed = [(p.id, r.status, r.detail) for p, r in zip(problems, results) if not r.passed]
    assert not failed


def test_mbpp_challenge_tests_pass(data_dir: Path, pool: CodePool) -> None:
    from verifiers.datasets import load_problems

    problems = [p for p in load_problems("mbpp", data_dir / "mbpp" / "mbpp.jsonl", split="all")
                if p.meta.get("challenge_tests")]
    assert len(problems) >= 5
    results = pool.map([{"code": p.solution, "tests": list(p.meta["challenge_tests"]), "setup_code": p.setup_code,
                         "timeout_s": 30.0} for p in problems])
    failed = [(p.id, r.status, r.detail) for p, r in zip(problems, results) if not r.passed]
    assert not failed
