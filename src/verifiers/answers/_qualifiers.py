"""Words around a stated number that change or withdraw it: negations, bounds, approximations, hedges, scales.

"The answer is not 5", "#### at least 18", "#### 18 thousand", "5 or more", "approximately 7" do not state the
value they contain. Extraction refuses such a statement (`qualifier`), and unit stripping never drops a
scale word (`SCALE_WORDS`: "18 thousand" is not 18). Matching is on plain text outside math: inside math,
``x \\ge 5`` is a relation and an answer in its own right.
"""

from __future__ import annotations

import re

# Words that multiply or transform the number before them; never units. (Single letters such as "k" in "18k"
# are refused where they are glued to the number; "m" after a space is meters.)
SCALE_WORDS = frozenset({
    "thousand", "thousands", "million", "millions", "billion", "billions", "trillion", "trillions", "hundred",
    "hundreds", "dozen", "dozens", "score", "gross", "grand", "lakh", "lakhs", "crore", "crores", "mil", "bn",
    "mn", "tenths", "hundredths", "thousandths", "squared", "cubed", "half", "halves", "halved", "doubled",
    "tripled", "twice", "thrice", "double", "triple", "times", "plus", "minus", "over", "reciprocal",
    "inverse", "negative", "opposite", "max", "maximum", "min", "minimum", "tops", "bound",
    "and", "or", "not", "less", "more", "least", "most", "than", "wrong", "incorrect", "false", "impossible",
})
# Words that turn the number next to them into another number ("5 thousand", "5 squared", "minus 5").
TRANSFORM_WORDS = frozenset({
    "thousand", "thousands", "million", "millions", "billion", "billions", "trillion", "trillions", "hundred",
    "hundreds", "dozen", "dozens", "score", "gross", "grand", "lakh", "lakhs", "crore", "crores", "mil", "bn",
    "mn", "tenths", "hundredths", "thousandths", "squared", "cubed", "halved", "doubled", "tripled", "plus",
    "minus",
})
# "<" and ">" in markup ("</ answer>", "answer>", "<b>") are not comparisons: a tag opens with "<" before a letter
# or "/", and closes with ">" after a word or "/" ("x>5" compares).
# "or"/"and" are not here: between values they list a set ("x = 1 or x = 2"), which the answer parser reads,
# so "12 or 13" is two values, wrong for a single-valued gold. Approximation words ("about 3.14", "≈ 0.33")
# are not here either: they are how answers to "round to ..." problems
# are stated, and they cannot make a wrong number pass (the number itself is compared).
_QUALIFIER = re.compile(
    r"\b(?:not|never|cannot|neither|nor|less|fewer|more|greater|larger|smaller|least|most|over|under|above|"
    r"below|up\s+to|upwards|beyond|exceeding|excess|maybe|perhaps|possibly|probably|either|between|except|"
    r"excluding|excluded|wrong|incorrect|false|impossible|ruled\s+out|instead|upper\s+bound|lower\s+bound|"
    r"max|maximum|min|minimum|tops|other\s+than|distinct\s+from|anything\s+but|reciprocal\s+of|inverse\s+of|"
    r"negative\s+of|opposite\s+of)\b"
    r"|\b(?:is|are|was|were|do|does|did|can|could|would|should|has|have|had|wo|ai|must|need)n['’]?t\b"  # isn't, isnt
    r"|<(?![/A-Za-z!])|(?<![A-Za-z]{2})(?<!/)>|[≤≥≠]|\u0338|\\(?:ne|neq|le|ge|leq|geq|lt|gt|not)(?![a-zA-Z])",
    re.IGNORECASE)


_TEXT_ARG = re.compile(r"\\(?:text|mbox|textbf|textrm|mathrm|textit)\s*\{([^{}]*)\}")


def text_qualifier(math: str) -> str:
    """A qualifier inside the ``\\text{...}`` parts of a math answer (``5 \\text{ or more}``), or ``""``."""
    if "\\" not in math or ("\\text" not in math and "\\mbox" not in math and "\\mathrm" not in math):
        return ""  # no \\text{} part: every match of _TEXT_ARG holds one of these
    if not _TEXT_ARG.sub("", math).strip(" ${}"):
        return ""  # all text: a word answer (\\text{neither}), not a qualified value
    return next((q for q in (qualifier(t) for t in _TEXT_ARG.findall(math)) if q), "")


def qualifier(text: str) -> str:
    """The first qualifying or transforming word or sign in ``text`` (plain text, math already removed), or ``""``."""
    m = _QUALIFIER.search(text)
    if m:
        return m.group()
    return next((w for w in _WORDS.findall(text) if w.lower() in TRANSFORM_WORDS), "")


_WORDS = re.compile(r"[A-Za-z]+")

# After a number only what changes the value it states qualifies it ("18 or more", "18 at most", "18+",
# "18 thousand", "5 times 3"); a description that goes on ("21 more candies than James", "5 times.", "25 miles
# between the stops", "21 melons were not ready") is the answer's unit and context.
_TRAILING = re.compile(
    r"\s*(?:or\s+(?:more|less|fewer|so|above|below|higher|lower|greater|smaller|over|under|thereabouts)\b"
    r"|at\s+(?:least|most)\b|and\s+(?:up|above|over|more)\b|\+(?!\s*\d)|or\s+\d|max(?:imum)?\b|min(?:imum)?\b"
    r"|tops\b|(?:times|over|plus|minus)\s+\$?\d"
    r"|(?:is|was|would\s+be)\s+(?:not\b|wrong|incorrect)|(?:isn|wasn)'?t\b)",
    re.IGNORECASE)


_MULTIPLIER_BEFORE = re.compile(
    r"\b(?:twice|thrice|half|halves|double|triple|quadruple|quarter|third|reciprocal|square|cube|negative|minus)"
    r"(?:\s+(?:of|the|as|that|times))*\s*\$?\s*\Z", re.IGNORECASE)


def multiplier_before(before: str) -> str:
    """A word right before a number that makes the answer another number ("twice 18", "half of 18"), or ``""``."""
    m = _MULTIPLIER_BEFORE.search(before[-40:])
    return m.group().strip() if m else ""


def trailing_qualifier(after: str) -> str:
    """A qualifier right after a number that changes the value it states (``18 or more``, ``18 thousand``,
    ``5 times 3``), or ``""``; see ``_TRAILING``."""
    m = _TRAILING.match(after)
    if m:
        return m.group().strip()
    first = _WORDS.match(after.lstrip())
    if first is not None and first.group().lower() in TRANSFORM_WORDS and first.group().lower() not in (
            "times", "over", "plus", "minus"):
        return first.group()
    return ""
