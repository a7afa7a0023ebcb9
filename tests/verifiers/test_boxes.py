"""The box parser (`boxes`) and the cheap checks around the boxed answer, against straightforward references.

`boxes` finds box openings by searching for "box" and closing braces by substring searches over the stretches
between "}"; the reference here reads the text one character at a time, as the parser once did. The prefilters
of the boxed path (instructions, ``\\text{}`` qualifiers) must let through every form the full check matches:
upper case and non-ASCII letters included.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifiers import math
from verifiers.answers._extract import boxes, find_answer
from verifiers.answers._qualifiers import text_qualifier
from verifiers.answers._tags import Tags

_OPEN = re.compile(r"\\(?:boxed|fbox)\s*\{|\\boxed\s+(?=\S)")


def reference_boxes(text: str, start: int = 0) -> tuple[list[tuple[str, int, int]], bool]:
    """`boxes` written plainly: a regex search for each opening, then one character at a time to its close."""
    found: list[tuple[str, int, int]] = []
    pos, n = start, len(text)
    while (m := _OPEN.search(text, pos)) is not None:
        if not m.group().endswith("{"):
            end = m.end()
            while end < n and not text[end].isspace() and text[end] != "$":
                end += 1
            found.append((text[m.end():end], m.start(), end))
            pos = end
            continue
        depth, i = 1, m.end()
        while i < n:
            c = text[i]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
            elif c == "\\" and i + 1 < n:
                i += 1
            i += 1
        if depth:
            return found, True
        found.append((text[m.end():i], m.start(), i + 1))
        pos = i + 1
    return found, False


# Pieces that make brace and escape structure dense: openings, escapes, runs of backslashes, near-misses.
_PIECES = ["{", "}", "\\", "\\\\", "\\{", "\\}", "\\boxed{", "\\boxed {", "\\boxed ", "\\fbox{", "\\fbox ",
           "\\boxedx{", "\\box{", "box", "fbox", "\\f", "\\frac{1}{2}", "\\left\\{", "\\right\\}", "a", "5", " ",
           "\n", "$", "é", "∞"]
texts = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


@settings(max_examples=2000, deadline=None)
@given(texts, st.integers(min_value=0, max_value=40))
def test_boxes_matches_the_character_reference(text: str, start: int) -> None:
    start = min(start, len(text))
    assert boxes(text, start) == reference_boxes(text, start)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="{}\\ab $\n", max_size=60))
def test_boxes_on_raw_brace_strings(body: str) -> None:
    text = "x \\boxed{" + body + "} y \\fbox{" + body[::-1]
    assert boxes(text) == reference_boxes(text)
    assert boxes(body) == reference_boxes(body)


@pytest.mark.parametrize(("text", "expected"), [
    ("\\boxed{5}", ([("5", 0, 9)], False)),
    ("\\boxed{\\frac{1}{2}} and \\fbox{3}", ([("\\frac{1}{2}", 0, 19), ("3", 24, 32)], False)),
    ("\\boxed{\\{1, 2\\}}", ([("\\{1, 2\\}", 0, 16)], False)),  # escaped braces do not count
    ("\\boxed{a\\\\}b}", ([("a\\\\", 0, 11)], False)),  # an escaped backslash: the brace after it closes
    ("\\boxed{{5}", ([], True)),  # unclosed
    ("\\boxed{1} \\boxed{2", ([("1", 0, 9)], True)),  # the last box is unclosed
    ("\\boxed 5$ and \\boxed{6}", ([("5", 0, 8), ("6", 14, 23)], False)),
    ("\\boxedx{5} \\box{3} boxes", ([], False)),  # near-misses open nothing
    ("", ([], False)),
])
def test_boxes_examples(text: str, expected: tuple[list[tuple[str, int, int]], bool]) -> None:
    assert boxes(text) == expected


def test_boxes_from_a_start_skips_openings_before_it() -> None:
    text = "\\boxed{1} \\fbox{2}"
    assert boxes(text, 1) == ([("2", 10, 18)], False)  # "\\boxed" starts before 1: not an opening from 1
    assert boxes(text, 12) == ([], False)  # "box" of \\fbox is after 12, its backslash before


@pytest.mark.parametrize("before", [
    "Please put your final answer within ",
    "PUT YOUR FINAL ANSWER WITHIN $",  # upper case
    "Put the final answer in a ",
    "Write the result as ",
    "Format the answer using the $$ ",
    "Write your answer like: \"",
    "e.g. ",
    "For Example: `",
    "Put the answer wıthin ",  # dotless i: the tail is not ASCII, the full check decides
])
def test_a_box_named_by_an_instruction_is_no_answer(before: str) -> None:
    # The instruction's box comes last: a box in it must not be read as the answer (the earlier one wins or none).
    got = find_answer(f"So it is 12.\n\n{before}\\boxed{{5}}", ("boxed",), Tags())
    reference = _reference_in_instruction(before)
    assert (got is None) == reference, (before, got)


def _reference_in_instruction(before: str) -> bool:
    instruction = re.compile(
        r"\b(?:put|place|write|enclose|wrap|present|provide|format|give)\b[^.\n]{0,60}?"
        r"\b(?:answers?|results?|solutions?|responses?)\b[^.\n]{0,30}?"
        r"(?<!\\)\b(?:in|within|inside|using|with|as)\s+(?:an?\s+|the\s+)?\$*\s*\Z", re.IGNORECASE)
    example = re.compile(r"(?:(?:\be\.g\.|\bfor\s+example|\bsuch\s+as|\blike)\s*[:,]?\s*[\"“'`]?|[\"“`])\$*\s*\Z",
                         re.IGNORECASE)
    window = f"So it is 12.\n\n{before}"[-120:]
    return instruction.search(window) is not None or example.search(window) is not None


@pytest.mark.parametrize("before", ["The answer is $", "so $x = ", "\\[", "Answers: none or ", "It has "])
def test_a_box_after_a_statement_is_the_answer(before: str) -> None:
    got = find_answer(f"{before}\\boxed{{5}}", ("boxed",), Tags())
    assert got is not None and got.text == "5"


@pytest.mark.parametrize(("math_text", "word"), [
    ("5 \\text{ or more}", "more"),
    ("5\\mbox{ at least}", "least"),
    ("5 \\mathrm{not}", "not"),
    ("5 \\textbf{ or fewer}", "fewer"),
    ("5 \\textit {maybe}", "maybe"),
    ("\\frac{1}{2} \\text{ cm}", ""),
    ("\\text{neither}", ""),  # all text: a word answer
    ("\\mathbf{5} \\not", ""),  # no \\text{} part
    ("5", ""),
])
def test_text_qualifier(math_text: str, word: str) -> None:
    assert text_qualifier(math_text) == word


def test_boxed_verdicts_through_the_scorer() -> None:
    assert math.score("So $\\boxed{\\frac{1}{2}}$.", "\\frac12").reward == 1.0
    assert math.score("The set is $\\boxed{\\{1, 2\\}}$.", "\\{1,2\\}").reward == 1.0
    assert math.score("$\\boxed{5 \\text{ or more}}$", "5").reward == 0.0  # qualified
    assert math.score("It is not \\boxed{5}", "5").reward == 0.0  # negated
    assert math.score("\\boxed{5\\boxed{3}}", "5").reward == 0.0  # a box nested inside a box
    assert math.score("\\boxed{{{12}}}", "12").reward == 1.0  # braces that wrap it all
    assert math.score("\\boxed{x = \\boxed{3}}", "3").reward == 1.0  # a box after a label


@pytest.mark.parametrize(("before", "negated"), [
    ("The answer is not ", True),
    ("THE ANSWER IS NOT $", True),  # upper case
    ("so $x \\neq ", True),
    ("so $x \\NE ", True),
    ("so $x \\not= $", True),
    ("so $x ≠ ", True),  # non-ASCII
    ("it isn't equal to ", True),
    ("it can not be ", True),
    ("so $x = ", False),
    ("The answer is $", False),
    ("note that ", False),
])
def test_a_negated_box_is_refused(before: str, negated: bool) -> None:
    got = find_answer(f"{before}\\boxed{{5}}", ("boxed",), Tags())
    assert got is not None and got.refusal.startswith("negated") == negated, (before, got)
