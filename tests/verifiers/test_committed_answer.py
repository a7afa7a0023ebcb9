"""The committed final answer (contract, "Reasoning traces"), checked by metamorphic rewrites.

Each test takes a response that commits to a value and rewrites it the way reasoning models do — a later
correction, a re-confirmation, a thinking block, a heading, a JSON field, struck-through drafts — and checks
that the verdict moves exactly as a careful grader's would. The values and the wrappers are generated, so the
rules are checked as rules, not as the strings written next to the code.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verifiers import gsm8k, math
from verifiers.answers import _extract
from verifiers.answers._extract import mask_non_answers

values = st.integers(min_value=-10**6, max_value=10**6)
pairs = st.tuples(values, values).filter(lambda p: p[0] != p[1])
reasoning = st.sampled_from([
    "Let me work through this carefully.\n\n",
    "First, 3 + 4 = 7 and 7 * 2 = 14.\n",
    "## Solution\n\nWe set up the equation and solve it.\n\n",
    "",
])
commit_math = st.sampled_from(["So the answer is $\\boxed{{{v}}}$.", "\\boxed{{{v}}}", "Final Answer: $\\boxed{{{v}}}$"])
commit_gsm = st.sampled_from(["#### {v}", "The answer is {v}.", "\\boxed{{{v}}}", "Final Answer: {v}"])
corrections = st.sampled_from([
    "\n\nWait, no, it's {w}.", "\n\nOops, I made a mistake: the answer is {w}.",
    "\n\nHmm, wait. That can't be right; recounting gives {w}, so the answer is {w}.",
    "\n\nActually, it's {w}.",
])
withdrawals = st.sampled_from([
    "\n\nWait, that's wrong. I need to redo the computation.",
    "\n\nHmm, wait. That doesn't seem right; I counted one day twice. Let me recount",
    "\n\nOops, I made a mistake somewhere.",
])
confirmations = st.sampled_from([
    "\n\nHmm, yes, {v} is correct.", "\n\nWait, let me verify: that checks out, {v}.",
    "\n\nLet me double-check. Yes, the result stands.", "\n\nI hope it is correct.",
])


@given(reasoning, commit_math, corrections, pairs)
def test_a_correction_replaces_the_answer_math(pre: str, commit: str, fix: str, p: tuple[int, int]) -> None:
    v, w = p
    text = pre + commit.format(v=v) + fix.format(w=w)
    assert math.score(text, str(w)).correct, text
    assert not math.score(text, str(v)).correct, text


@given(reasoning, commit_gsm, corrections, pairs)
def test_a_correction_replaces_the_answer_gsm8k(pre: str, commit: str, fix: str, p: tuple[int, int]) -> None:
    v, w = p
    text = pre + commit.format(v=v) + fix.format(w=w)
    assert gsm8k.score(text, str(w)).correct, text
    assert not gsm8k.score(text, str(v)).correct, text


@given(reasoning, st.one_of(commit_math, commit_gsm), withdrawals, values)
def test_a_withdrawal_without_replacement_leaves_no_answer(pre: str, commit: str, take_back: str, v: int) -> None:
    text = pre + commit.format(v=v) + take_back
    for scorer in (gsm8k, math):
        s = scorer.score(text, str(v))
        assert not s.correct, (scorer.__name__, text, s)


@given(reasoning, st.one_of(commit_math, commit_gsm), confirmations, values)
def test_re_confirmation_keeps_the_answer(pre: str, commit: str, again: str, v: int) -> None:
    text = pre + commit.format(v=v) + again.format(v=v)
    assert gsm8k.score(text, str(v)).correct, text
    assert math.score(text, str(v)).correct, text


@given(reasoning, commit_math, commit_math, pairs)
def test_thinking_is_overridden_by_the_answer_after_it(pre: str, inner: str, outer: str, p: tuple[int, int]) -> None:
    v, w = p
    text = f"<think>\n{pre}{inner.format(v=v)}\n</think>\n\n{outer.format(v=w)}"
    assert math.score(text, str(w)).correct and not math.score(text, str(v)).correct, text
    only_inside = f"<think>\n{pre}{inner.format(v=v)}\n</think>"
    assert math.score(only_inside, str(v)).correct, "read whole when the thinking is all there is"


@given(pairs, reasoning)
def test_the_last_commitment_wins_whatever_its_marker(p: tuple[int, int], pre: str) -> None:
    v, w = p
    for first, last in (("\\boxed{{{v}}}", "The answer is {v}."), ("The answer is {v}.", "\\boxed{{{v}}}"),
                        ("#### {v}", '{{"answer": {v}}}'), ('{{"answer": "{v}"}}', "#### {v}")):
        text = pre + first.format(v=v) + "\n\nLet me redo this another way: 5 - 2 = 3.\n\n" + last.format(v=w)
        assert gsm8k.score(text, str(w)).correct, text
        assert not gsm8k.score(text, str(v)).correct, text


@given(values, st.sampled_from(["Step 1", "Jewelry", "Rings: 4 at $5 each", "Total cost"]))
def test_markdown_headings_are_not_the_gsm8k_marker(v: int, title: str) -> None:
    text = f"#### {title}\nWe add the costs.\n\n#### Result\nShe spends {v} dollars in all."
    s = gsm8k.score(text, str(v))
    assert s.correct, s


@given(values, values)
def test_a_json_answer_field_is_the_answer(v: int, noise: int) -> None:
    body = json.dumps({"reasoning": f"We have {noise} apples and then some.", "answer": v})
    assert gsm8k.score(body, str(v)).correct
    words = json.dumps({"reasoning": f"{v} appears here", "answer": "infinitely many"})
    assert not gsm8k.score(words, str(v)).correct  # the field commits; a number in the reasoning does not


@given(pairs, st.sampled_from(["~~{v}~~", "<s>{v}</s>", "<del>{v}</del>", "\\sout{{{v}}}"]))
def test_struck_through_drafts_are_withdrawn(p: tuple[int, int], strike: str) -> None:
    v, w = p
    text = f"The answer is {strike.format(v=v)} {w}."
    assert gsm8k.score(text, str(w)).correct, text
    assert not gsm8k.score(text, str(v)).correct, text


def test_unicode_strikethrough_digits() -> None:
    struck = "".join(c + "\u0336" for c in "18")
    assert gsm8k.score(f"The answer is {struck} 20.", "20").correct
    assert not gsm8k.score(f"The answer is {struck} 20.", "18").correct


@pytest.mark.parametrize(("response", "gold", "correct"), [
    ("\\boxed{12}\n\nPlease put your final answer within \\boxed{}.", "12", True),  # an echoed instruction
    ('The format is "#### <number>", e.g. "#### 10". I cannot tell the hours.', "10", False),  # a quoted example
    ("The answer is 36.\n\nQuestion: A baker makes 48 muffins and sells 30. How many are left?\nAnswer: 18",
     "36", True),  # a made-up next question ends the response
    ("<|im_start|>user\nExample: #### 250<|im_end|>\n<|im_start|>assistant\n25 x 8 = 200.\n#### 200", "200", True),
    ("the answer is not $\\boxed{12}$.", "12", False), ("$x \\neq \\boxed{4}$", "4", False),
    ("\\boxed{5\\boxed{3}}", "3", False), ("\\boxed{\\boxed{3}}", "3", True), ("$\\boxed{x = \\boxed{3}}$", "3", True),
    ("$\\boxed{" + "{" * 1500 + "5" + "}" * 1500 + "}$", "5", True),
    ("\\boxed{4}" * 200, "4", True),  # the same box repeated is one answer
    ("".join(f"\\boxed{{{i}}}\n\n" for i in range(100)), "99", False),  # a flood of different boxes
])
def test_what_is_not_a_commitment(response: str, gold: str, correct: bool) -> None:
    scorer = gsm8k if "####" in response else math
    assert scorer.score(response, gold).correct is correct


@pytest.mark.parametrize(("response", "gold", "correct"), [
    ("#### 18½", "18.5", True), ("#### 18½", "18", False), ("She walked 3¼ miles.\n#### 3¼", "3.25", True),
    ("The answer is 2 ¾ cups.", "2.75", True), ("#### ½", "0.5", True), ("#### 10⁶", "1000000", True),
    ("#### 7 dozens", "7", True), ("#### 7 dozen", "84", True), ("#### 7 dozen", "8", False),
    ("#### -3°C", "-3", True), ("The temperature dropped.\n#### −11 °C", "-11", True),
    ("#### 18 eggs (1.5 dozen)", "18", True), ("#### 21 (7 × 3)", "21", True),
    ("The answer is 12 (or 15 if you count the teacher).", "12", False),
])
def test_gsm8k_numbers_as_a_grader_reads_them(response: str, gold: str, correct: bool) -> None:
    assert gsm8k.score(response, gold).correct is correct


@pytest.mark.parametrize(("response", "gold", "correct"), [
    ("The candle will be 8 centimeters shorter.", "8", True),  # words around a number are its context
    ("Therefore, Henry baked 50 cookies last year.", "50", True),
    ("John has 21 more candies than James.", "21", True), ("Sandra needs to babysit 5 times.", "5", True),
    ("21 baby watermelons were not ready for harvest.", "21", True),
    ("twice 18", "18", False), ("half of 18", "18", False), ("The answer is twice 18", "18", False),
    ("at least 18 apples", "18", False), ("18 or more", "18", False), ("18 is not the answer", "18", False),
    ("The answer is 18 thousand", "18", False), ("The answer is \\$114,\\!200.", "114200", True),
])
def test_what_qualifies_a_gsm8k_number(response: str, gold: str, correct: bool) -> None:
    assert gsm8k.score(response, gold).correct is correct


@pytest.mark.parametrize(("response", "gold", "correct"), [
    ("Answer: Harry slept 3 more hours than James.", "3", True),  # context after the number
    ("Answer: There are 40 girls not in the girl scout.", "40", True),
    ("The answer is at least 18", "18", False), ("The answer is 12 or 13", "12", False),
    ("The answer is between 10 and 12", "10", False), ("The answer is not 18", "18", False),
    ("<answer> 1,700 because she loses 10% of 1300. And so 1300+130=1430</answer>", "1430", False),  # not one equation
    ("<answer> 3 * 6 = 18 apples </answer>", "18", True),
])
def test_what_qualifies_a_stated_gsm8k_answer(response: str, gold: str, correct: bool) -> None:
    assert gsm8k.score(response, gold).correct is correct


def test_an_exponent_is_not_the_last_number() -> None:
    assert not math.score("so we get $0.69x^2-1.43x+1.39=0$ and then 0.69x^2", "2").correct


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _reference_mask(text: str) -> str:
    """`mask_non_answers` as its two patterns define it, with no prefilter."""
    return _extract._QUOTED_MARKER.sub(_blank, _extract._STRUCK.sub(_blank, text))


MASK_PIECES = ['"', "\u201c", "`", "\u201d", " ", "  ", "\n", "\t", "\u2003", "$", "$$", "####", "#### 10", "#",
               "\\boxed{5}", "\\boxed {", "\\", "e.g.", "x", "~~3~~", "~", "\\sout{4}", "\\st{", "<s>2</s>", "<", "}",
               "\\cancel{7}", "1\u0336"]


@given(st.lists(st.sampled_from(MASK_PIECES), max_size=16).map("".join))
def test_masking_blanks_what_its_patterns_match_also_when_masking_again(text: str) -> None:
    once = mask_non_answers(text)
    assert once == _reference_mask(text)
    assert mask_non_answers(once) == _reference_mask(_reference_mask(text))  # the scorers mask twice
    assert mask_non_answers(text) == once


def test_masking_again_can_blank_a_marker_the_first_blanking_exposed() -> None:
    text = '""####1"####2"'  # blanking the first quoted marker joins the first quote to the second marker
    once = mask_non_answers(text)
    assert once == '"' + " " * 7 + '####2"'
    assert mask_non_answers(once) == " " * len(text)


def test_the_unrolled_cue_prefilters_let_every_cue_word_through() -> None:
    for word in _extract._STRONG_WORDS:
        assert _extract._may_correct(f"so {word} it"), word
    assert _extract._may_correct("that is not right") and not _extract._may_correct("so it is 12.")
    for word in _extract._DOUBT_WORDS:  # a doubt alone keeps the answer; with a verdict it withdraws it
        assert not gsm8k.score(f"The answer is 12.\n\n{word.capitalize()}, that is wrong.", "12").correct, word
