"""Metamorphic properties of ``verifiers.gsm8k``, derived from the verdict contract (docs/answer-equivalence.md).

Written blind to the implementation (issue #13, item 6). Golds are integers rendered as the GSM8K dataset
writes them (``18``, ``2,125``, ``-10``); the label of each response follows from construction: the same
number in another format (thousands separators, ``$``, ``.00``, units, U+2212 minus) and in another place
(``####``, "The answer is", a box, the last number of a closing sentence) scores ``correct``; a changed
number, a flipped sign, a hedge, a fraction ending a sentence, or a value found only in the reasoning scores
``incorrect``. The decimal-comma question is left alone except for what the contract says: ``,`` is a
thousands separator (``1,000`` = 1000).

Profiles: ``scorer-props`` from tests/conftest.py (HYPOTHESIS_PROFILE=ci: 500 examples, derandomized).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from verifiers import gsm8k

PROPS = settings.get_profile("scorer-props")
MINUS = "\u2212"  # U+2212, as models trained on typeset text write it

# GSM8K answers: mostly small counts and amounts of money, some large, a few negative.
VALUES = st.one_of(st.integers(0, 999), st.integers(1000, 10**9), st.integers(-999, -1))


def gold_text(n: int, grouped: bool) -> str:
    """The dataset's own spellings: ``2125`` or ``2,125``."""
    return f"{n:,}" if grouped else str(n)


def renderings(n: int) -> list[str]:
    """Spellings of n that the contract says are the same number (``$``, separators, ``.00``, U+2212)."""
    sign, a = ("-" if n < 0 else ""), abs(n)
    out = [str(n), f"{n}.0", f"{n}.00", f"{sign}{a:,}"]
    if n < 0:
        out += [MINUS + str(a), MINUS + f"{a:,}", f"-${a}", f"-${a:,}.00"]
    else:
        out += [f"${a}", f"${a:,}", f"${a:,}.00", f"\\${a}", f"\\${a:,}"]
    return list(dict.fromkeys(out))


def latex_dollar(answer: str) -> str:
    """Inside ``$\\boxed{...}$`` a dollar sign is written ``\\$``."""
    return answer if "\\$" in answer else answer.replace("$", "\\$")


def change_one_digit(n: int, draw: Callable[[st.SearchStrategy[str]], str]) -> int:
    text = str(abs(n))
    i = draw(st.integers(0, len(text) - 1))
    choices = [c for c in "0123456789" if c != text[i] and not (i == 0 and len(text) > 1 and c == "0")]
    new = int(text[:i] + draw(st.sampled_from(choices)) + text[i + 1:])
    return -new if n < 0 else new


REASONING = [
    "Janet's ducks lay 16 eggs per day. She eats 3 and bakes with 4, so 16 - 3 - 4 = 9 remain.\n",
    "First, 12 * 3 = <<12*3=36>>36. Then 36 + 14 = <<36+14=50>>50.\n",
    "Let's think step by step. The price went up by 20%, i.e. 1.2 times, over 2 years.\n",
    "",
    "Step 1: 5 boxes with 8 pencils each give 40 pencils.\nStep 2: She gives away 1/4 of them.\n",
]
UNITS = ["", " apples", " dollars", " eggs", " minutes", " km", " cookies per day", " people"]

STATEMENTS = {
    "hash": "{r}#### {a}",
    "hash_then_debris": "{r}#### {a}<|im_end|>\n<|im_start|>user\nNext: what is 3 dozen?",
    "the_answer_is": "{r}The answer is {a}{u}.",
    "the_answer_is_then_debris": "{r}The answer is {a}{u}.</s>Question: Tom has 7 cats and 2 dogs.",
    "answer_colon": "{r}Answer: {a}",
    "bold_answer": "{r}**Answer:** {a}{u}",
    "boxed": "{r}So the final answer is $\\boxed{{{a}}}$.",
    "last_number_in_sentence": "{r}So in total she has {a}{u} left.",
    "last_number_bold": "{r}Therefore, the total is **{a}**{u}.",
    "final_answer_line": "{r}Final Answer: The final answer is {a}. I hope it is correct.",
    "final_answer_latex": "{r}Final Answer: The final answer is ${a}$. I hope it is correct.",
}
IN_LATEX = ("boxed", "final_answer_latex")  # statements whose answer sits inside $...$


def check(response: str, gold: str, expect: bool, why: str) -> None:
    """Score and assert the contract's verdict, showing response, gold and Score on failure."""
    s = gsm8k.score(response, gold)
    ok = s.status == "correct" if expect else s.status == "incorrect"
    verdict = "correct" if expect else "incorrect"
    assert ok, f"{why}: expected {verdict}\n  response: {response!r}\n  gold:     {gold!r}\n  score:    {s}"


@pytest.mark.parametrize("statement", list(STATEMENTS))
@settings(PROPS)
@given(n=VALUES, data=st.data())
def test_same_number_any_spelling_any_statement_scores_correct(statement: str, n: int,
                                                               data: st.DataObject) -> None:
    gold = gold_text(n, data.draw(st.booleans()))
    answer = data.draw(st.sampled_from(renderings(n)))
    if statement in IN_LATEX:
        answer = latex_dollar(answer)
    response = STATEMENTS[statement].format(r=data.draw(st.sampled_from(REASONING)), a=answer,
                                            u=data.draw(st.sampled_from(UNITS)))
    check(response, gold, True, f"{statement}: the same number")


@pytest.mark.parametrize("statement", list(STATEMENTS))
@settings(PROPS)
@given(n=VALUES, data=st.data())
def test_changed_digit_scores_incorrect(statement: str, n: int, data: st.DataObject) -> None:
    gold = gold_text(n, data.draw(st.booleans()))
    wrong = change_one_digit(n, data.draw)
    answer = data.draw(st.sampled_from(renderings(wrong)))
    if statement in IN_LATEX:
        answer = latex_dollar(answer)
    response = STATEMENTS[statement].format(r=data.draw(st.sampled_from(REASONING)), a=answer,
                                            u=data.draw(st.sampled_from(UNITS)))
    check(response, gold, False, f"{statement}: one digit changed")


@settings(PROPS)
@given(n=st.integers(1, 10**7), data=st.data())
def test_unicode_minus_is_a_minus(n: int, data: st.DataObject) -> None:
    """``−42`` (U+2212) is -42: right for gold -42, wrong for gold 42."""
    grouped = data.draw(st.booleans())
    answer = MINUS + gold_text(n, grouped)
    form = data.draw(st.sampled_from(["#### {a}", "The answer is {a}.", "The temperature ends at {a} degrees."]))
    response = data.draw(st.sampled_from(REASONING)) + form.format(a=answer)
    check(response, gold_text(-n, data.draw(st.booleans())), True, "U+2212 minus, negative gold")
    check(response, gold_text(n, data.draw(st.booleans())), False, "U+2212 minus, positive gold")


@settings(PROPS)
@given(n=st.integers(1000, 10**12), data=st.data())
def test_thousands_separators(n: int, data: st.DataObject) -> None:
    """``,`` groups thousands (``1,000`` = 1000), in the response and in the gold."""
    gold_grouped, answer_grouped = data.draw(st.booleans()), data.draw(st.booleans())
    response = f"#### {gold_text(n, answer_grouped)}"
    check(response, gold_text(n, gold_grouped), True, "thousands separators")
    assert gsm8k.equivalent(f"{n:,}", str(n)), f"equivalent({n:,}, {n}) is False"


@settings(PROPS)
@given(den=st.integers(2, 99), num=st.integers(1, 98), data=st.data())
def test_fraction_ending_a_sentence_is_not_its_denominator(den: int, num: int, data: st.DataObject) -> None:
    """"... each gets 1/3." is the number 1/3, never 3 (nor 1)."""
    assume(num < den)
    sentence = data.draw(st.sampled_from([
        "So each friend gets {p}/{q}.", "That means {p}/{q} of the pie is left.",
        "Therefore the fraction of red marbles is {p}/{q}.",
    ])).format(p=num, q=den)
    response = data.draw(st.sampled_from(REASONING)) + sentence
    check(response, str(den), False, "fraction at the end read as its denominator")
    check(response, str(num), False, "fraction at the end read as its numerator")


@settings(PROPS)
@given(n=VALUES, data=st.data())
def test_hedge_is_incorrect(n: int, data: st.DataObject) -> None:
    """``#### 41 or 42``: two candidate answers, the right one first or second."""
    other = change_one_digit(n, data.draw)
    a, b = (n, other) if data.draw(st.booleans()) else (other, n)
    form = data.draw(st.sampled_from(["#### {a} or {b}", "The answer is {a} or {b}.",
                                      "The answer is either {a} or {b}.", "#### {a} (or {b})"]))
    check(form.format(a=a, b=b), gold_text(n, False), False, "hedge")


@settings(PROPS)
@given(n=VALUES, data=st.data())
def test_right_value_only_in_the_reasoning(n: int, data: st.DataObject) -> None:
    wrong = change_one_digit(n, data.draw)
    form = data.draw(st.sampled_from([
        "She had {n} apples at first, then bought more.\n#### {w}",
        "Maybe {n}? No: recounting gives {w}.\nThe answer is {w}.",
        "Subtotal: {n}.\n$\\boxed{{{w}}}$",
    ]))
    check(form.format(n=n, w=wrong), gold_text(n, False), False, "right value only in the reasoning")


@settings(PROPS)
@given(n=VALUES, data=st.data())
def test_equivalent_is_reflexive_symmetric_and_right(n: int, data: st.DataObject) -> None:
    a = data.draw(st.sampled_from(renderings(n)))
    b = data.draw(st.sampled_from(renderings(n) + [gold_text(n, True)]))
    c = data.draw(st.sampled_from(renderings(change_one_digit(n, data.draw))))
    for x in (a, b, c):
        assert gsm8k.equivalent(x, x), f"not reflexive on {x!r}"
    for x, y in ((a, b), (a, c), (b, c)):
        assert gsm8k.equivalent(x, y) == gsm8k.equivalent(y, x), f"not symmetric on {x!r}, {y!r}"
    assert gsm8k.equivalent(a, b), f"{a!r} and {b!r} are the same number"
    assert not gsm8k.equivalent(a, c), f"{a!r} and {c!r} differ by one digit"
