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
    "hundreds", "dozen", "dozens", "score", "squared", "cubed", "half", "halves", "times", "plus", "minus",
    "over", "bn", "mn",
    "and", "or", "not", "less", "more", "least", "most", "than", "wrong", "incorrect",
})
# "or"/"and" are not here: between values they list a set ("x = 1 or x = 2"), which the answer parser reads,
# so "12 or 13" is two values, wrong for a single-valued gold. Approximation words ("about 3.14", "≈ 0.33")
# are not here either: they are how answers to "round to ..." problems
# are stated, and they cannot make a wrong number pass (the number itself is compared).
_QUALIFIER = re.compile(
    r"\b(?:not|never|cannot|can't|isn't|aren't|wasn't|won't|neither|nor|less|fewer|more|greater|"
    r"larger|smaller|least|most|over|under|above|below|up\s+to|maybe|perhaps|possibly|probably|either|"
    r"between|except|excluding|wrong|incorrect)\b"
    r"|[<>≤≥≠]|\u0338|\\(?:ne|neq|le|ge|leq|geq|lt|gt|not)(?![a-zA-Z])",
    re.IGNORECASE)


_TEXT_ARG = re.compile(r"\\(?:text|mbox|textbf|textrm|mathrm|textit)\s*\{([^{}]*)\}")


def text_qualifier(math: str) -> str:
    """A qualifier inside the ``\\text{...}`` parts of a math answer (``5 \\text{ or more}``), or ``""``."""
    if "\\" not in math or not _TEXT_ARG.sub("", math).strip(" ${}"):
        return ""  # all text: a word answer (\\text{neither}), not a qualified value
    return next((q for q in (qualifier(t) for t in _TEXT_ARG.findall(math)) if q), "")


def qualifier(text: str) -> str:
    """The first qualifying word or sign in ``text`` (plain text, math already removed), or ``""``."""
    m = _QUALIFIER.search(text)
    return m.group() if m else ""
