"""GSM8K scorer: published failures of other scorers, presets, config errors and the real golds."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from verifiers import ConfigError, Score, Tags, gsm8k

CASES_DIR = Path(__file__).resolve().parents[1] / "cases"


def load_cases(name: str) -> list:
    """``tests/cases/<name>`` rows as ``pytest.param(row, id=row["id"])``."""
    rows = json.loads((CASES_DIR / name).read_text(encoding="utf-8"))
    return [pytest.param(row, id=row["id"]) for row in rows]


@pytest.mark.parametrize("case", load_cases("gsm8k_cases.json"))
def test_case_table(case: dict) -> None:
    s = gsm8k.score(case["response"], case["gold"])
    assert s.status == case["status"], s.explanation
    assert s.correct == (case["status"] == "correct")
    assert s.reward == (1.0 if s.correct else 0.0)


def test_score_fields() -> None:
    s = gsm8k.score("9 * 2 = 18\n#### 18", "18")
    assert isinstance(s, Score)
    assert (s.reward, s.correct, s.status, s.extracted) == (1.0, True, "correct", "18")
    assert s.parts == {"correctness": 1.0}
    assert "18" in s.explanation


def test_fast_path_and_slow_path_agree() -> None:
    response = "Janet makes 9 * 2 = 18 dollars.\n#### 18"
    fast = gsm8k.score(response, "18")
    slow = gsm8k.score(response, "18", config=gsm8k.Config())
    assert (fast.status, fast.extracted, fast.reward) == (slow.status, slow.extracted, slow.reward)


def test_parts_are_not_shared_between_scores() -> None:
    a = gsm8k.score("#### 18", "18")
    a.parts["correctness"] = 0.0
    assert gsm8k.score("#### 18", "18").parts["correctness"] == 1.0


def test_strict_mode_needs_a_marker() -> None:
    strict = gsm8k.Config(mode="strict")
    assert gsm8k.score("So she makes 18 dollars.", "18", config=strict).status == "no_answer"
    assert gsm8k.score("#### 18", "18", config=strict).correct
    assert gsm8k.score("#### 18 dollars", "18", config=strict).status == "no_answer"


def test_enabled_markers_compete_by_position() -> None:
    text = "<SOLUTION>17</SOLUTION>\n#### 18"
    assert gsm8k.score(text, "18").correct  # the last commitment wins
    assert gsm8k.score("#### 18\n<SOLUTION>17</SOLUTION>", "17").correct
    tags_only = gsm8k.Config(markers=("answer_tag",))
    assert gsm8k.score(text, "18", config=tags_only).extracted == "17"


def test_rel_tol() -> None:
    assert not gsm8k.score("#### 33.33", "33.333").correct
    assert gsm8k.score("#### 33.33", "33.333", config=gsm8k.Config(rel_tol=1e-3)).correct


def test_book_preset_weights() -> None:
    cfg = gsm8k.Config(preset="book")
    full = gsm8k.score("First, 16 - 3 - 4 = 9.\nThen 9 * 2 = 18.\n#### 18", "18", config=cfg)
    assert full.parts == {"reasoning": 1.0, "marker": 1.0, "correctness": 1.0}
    assert full.reward == pytest.approx(0.75 + 0.25 * (0.3 + 0.2))
    bare = gsm8k.score("18", "18", config=cfg)
    assert bare.correct and bare.reward == pytest.approx(0.75)


def test_grail_preset_weights() -> None:
    cfg = gsm8k.Config(preset="grail")
    good = "<start_working_out>9*2=18<end_working_out><SOLUTION>18</SOLUTION>"
    s = gsm8k.score(good, "18", config=cfg)
    assert s.reward == pytest.approx(1.0)
    assert s.parts == {"thinking": 1.0, "answer_block": 1.0, "no_trailing": 1.0, "numeric_only": 1.0,
                       "correctness": 1.0}
    messy = "9*2=18 <SOLUTION>$18 dollars</SOLUTION> hope that helps"
    s = gsm8k.score(messy, "18", config=cfg)
    assert s.correct and s.reward == pytest.approx(0.6 + 0.1)
    wrong = gsm8k.score("<start_working_out>x<end_working_out><SOLUTION>17</SOLUTION>", "18", config=cfg)
    assert not wrong.correct and wrong.reward == pytest.approx(0.15 + 0.1 + 0.1 + 0.05)


def test_custom_tags_and_weights() -> None:
    cfg = gsm8k.Config(tags=Tags("<think>", "</think>", "<answer>", "</answer>"), weights={"correctness": 0.5,
                       "thinking": 0.5})
    s = gsm8k.score("<think>9*2</think><answer>18</answer>", "18", config=cfg)
    assert s.reward == pytest.approx(1.0)
    hash(cfg)  # configs stay hashable


@pytest.mark.parametrize("kwargs", [{"preset": "nope"}, {"mode": "lenient"}, {"timeout": 0},
                                    {"markers": ("hash", "regex")}, {"markers": ()},
                                    {"weights": {"style": 1.0}}, {"max_chars": 0}, {"rel_tol": -1}])
def test_bad_config_raises_config_error(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        gsm8k.Config(**kwargs)


def test_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        gsm8k.Config().mode = "strict"  # type: ignore[misc]


def test_non_str_response_is_the_callers_error() -> None:
    with pytest.raises(TypeError, match="response must be a str"):
        gsm8k.score(None, "18")  # type: ignore[arg-type]


def test_huge_input_is_bounded() -> None:
    s = gsm8k.score("1 " * 2_000_000 + "#### 18", "18")
    assert s.correct


@pytest.mark.parametrize(("a", "b", "same"), [("1,000", "1000", True), ("$18.00", "18", True), ("18", "17", False),
                                              ("\\boxed{5}", "5", True), ("abc", "abc", True), ("", "", False),
                                              ("0.5", "1/2", True)])
def test_equivalent(a: str, b: str, same: bool) -> None:
    assert gsm8k.equivalent(a, b) is same


def test_score_batch_matches_score() -> None:
    responses = [f"#### {i}" for i in range(600)] + ["no idea"]
    golds = [str(i if i % 3 else i + 1) for i in range(600)] + ["1"]
    one = [gsm8k.score(r, g) for r, g in zip(responses, golds)]
    assert gsm8k.score_batch(responses, golds) == one
    assert gsm8k.score_batch(responses, golds, workers=2) == one


def test_score_batch_length_mismatch() -> None:
    with pytest.raises(ConfigError):
        gsm8k.score_batch(["#### 1"], ["1", "2"])


def test_all_gold_solutions_self_verify(data_dir) -> None:
    from verifiers.datasets import load_problems

    for split in ("train", "test"):
        problems = load_problems("gsm8k", data_dir / "gsm8k" / f"{split}.jsonl")
        bad = [p.id for p in problems if not gsm8k.score(p.solution, p.gold).correct]
        assert bad == []


# An answer statement with several numbers: the ones a preposition introduces are its setting, and a derivation's
# last sentence is its conclusion (both read as a grader does); a statement that leads with a different number, or
# hedges, stays unsettled.
@pytest.mark.parametrize("response, gold, correct", [
    ("Answer: Mia reads 45 pages in 3 days.", "45", True),
    ("Final answer: the shop sells $120 of bread over 6 hours.", "120", True),
    ("Answer: Tom pays $90 each week for 8 weeks.", "90", True),
    ("Answer: 12 birds landed on the roof in the last 30 minutes.", "12", True),
    ("Answer: Ana saves $14 by choosing 3 large boxes at the lower price.", "14", True),
    ("Answer: In 5 years, the tree will be 31 feet tall.", "31", True),
    ("Answer: Mia reads 45 pages in 3 days.", "3", False),
    ("<answer> Ben has 4 + 9 = 13 marbles. Then he gives away 5, so 13 - 5 = 8 marbles. </answer>", "8", True),
    ("<answer> Let x be the price. Then 3x = 27, so x = 9. Therefore, each pen costs $9. </answer>", "9", True),
    ("<answer> The total is \\(7 + 8 = 15\\) apples. </answer>", "15", True),
    ("<answer> 1,200 because she adds 10%. So 1000 + 100 = 1100 </answer>", "1100", False),
    ("<answer> Ben has 4 + 9 = 13 marbles. Maybe he has 8 or 9 left. </answer>", "8", False),
    ("Answer: it is 5 or 15 in 3 weeks.", "5", False),
])
def test_several_numbers_in_one_answer_statement(response: str, gold: str, correct: bool) -> None:
    assert gsm8k.score(response, gold).correct is correct


@pytest.mark.parametrize("response, gold, correct", [
    ("<answer> We compute in Python:\n```python\nprint(6 * 7)\n```\n```output\n42\n```\nSo the total is \\(\\boxed{42}\\).</answer>",
     "42", True),
    ("<answer> " + "First we note the setup of the problem with 3 values and 5 steps. " * 8
     + "Then 6 * 4 = 24. Therefore, Jo has 24 stickers. </answer>", "24", True),
    ("<answer> Apples: 3 + 4 = 7. Pears: \\(\\boxed{9}\\) </answer>", "7", False),
])
def test_answer_blocks_with_a_box_or_a_long_derivation(response: str, gold: str, correct: bool) -> None:
    assert gsm8k.score(response, gold).correct is correct


@pytest.mark.parametrize("response, gold, correct", [
    ("Answer: 14 chairs are still missing from the hall.", "14", True),
    ("**Answer:** 9 cookies were eaten by the children.", "9", True),
    ("So the answer is that 6 bottles are left unopened.", "6", True),
    ("Answer: 14 chairs are still missing from the hall.", "15", False),
    ("Answer: 14 is wrong.", "14", False),
    ("The answer is neither.", "14", False),
])
def test_a_statement_whose_subject_is_its_value(response: str, gold: str, correct: bool) -> None:
    assert gsm8k.score(response, gold).correct is correct


@pytest.mark.parametrize("response, gold, correct", [
    # a statement inside the answer block ends with the block
    ("We add them.</think>\n<answer>Answer: 45 kilometres</answer>", "45", True),
    ("<answer>So 4*5 = 20 and 20 + 7 = 27. The answer is $27</answer>", "27", True),
    # an empty answer block opened before a made-up next turn does not replace the committed answer
    ("So there are 9.\nAnswer: $$\\boxed{9}$$ <answer>\nUser: Why is it 9?\nAssistant: Because", "9", True),
    ("So there are 9.\nAnswer: $$\\boxed{9}$$ <answer>\nUser: Why is it 9?\nAssistant: Because", "8", False),
])
def test_answer_blocks_and_statements_inside_them(response: str, gold: str, correct: bool) -> None:
    assert gsm8k.score(response, gold).correct is correct


@pytest.mark.parametrize("response, gold, correct", [
    ("Answer: the bakery sells 5 dozens of rolls in 2 days.", "5", True),
    ("Answer: the bakery sells 5 dozens of rolls in 2 days.", "60", True),
    ("Answer: the bakery sells 5 dozens of rolls in 2 days.", "2", False),
    ("Answer: the bakery sells at least 5 dozens of rolls.", "5", False),
    ("Answer: the bakery sells 5 or 6 dozens of rolls.", "5", False),
])
def test_a_count_word_inside_an_answer_sentence(response: str, gold: str, correct: bool) -> None:
    assert gsm8k.score(response, gold).correct is correct
