"""Sort this project's disagreements with a label into the classes of issue #13, with the rule that fired.

The classes name kinds of input, not cases. The first rule that matches wins, in this order: false
positives (accepting a wrong answer) first, then what decided the verdict in the scorer (several boxes, the
last-number fallback, a sentence read as the answer, gold and response treated differently), then what
the answer is (±, relations and sets, labels, approximations, decimal commas, text answers, notation).
This is a first sort for people to review, not a verdict: ``why`` says which rule fired.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

NO_MARKER = "no answer marker"
SEVERAL_BOXES = "several boxes"
RELATIONS = "relations/sets"
PLUS_MINUS = "±"
LABELLED = "labelled answers"
SENTENCES = "sentences"
NOTATION = "notation (lists/sets/matrices/unicode/debris)"
ASYMMETRIC = "asymmetric normalisation"
FP_NONFINITE = "false positive (non-finite/undefined)"
FP_OTHER = "false positive (other)"
APPROX = "approximation/precision"
DECIMAL_COMMA = "decimal comma"
TEXT = "text answers"
PERCENT = "percent"
UNITS = "units"
OTHER = "other"
PLAIN = "plain number/expression"  # the kind when no structure rule matches

CLASSES = (
    FP_NONFINITE,
    FP_OTHER,
    SEVERAL_BOXES,
    NO_MARKER,
    SENTENCES,
    ASYMMETRIC,
    PLUS_MINUS,
    RELATIONS,
    LABELLED,
    APPROX,
    DECIMAL_COMMA,
    PERCENT,
    UNITS,
    TEXT,
    NOTATION,
    OTHER,
    PLAIN,
)

_DEBRIS = re.compile(r"<\|[^|>]*\|>|</?think>|</?s>")
_BOX = re.compile(r"\\(?:boxed|fbox)\b")
_COMMANDS = re.compile(r"\\(?:begin|end)\{[a-z*]+\}|\\[A-Za-z]+")
_DIV_ZERO = re.compile(
    r"\\frac\s*\{[^{}]*\}\s*\{\s*0\s*\}|/\s*0(?![\d.])|\bzoo\b|\bnan\b|undefined", re.IGNORECASE
)
_NEG_INF = re.compile(r"-\s*\\infty|-\s*∞")
_RELATION = re.compile(
    r"<|>|\\[lg]eq?\b|\\[lg]t\b|\\neq?\b|!=|≤|≥|≠|\\in\b|\\cup\b|\\cap\b|\\infty|∞"
    r"|\[[^\[\]()]*\)|\([^\[\]()]*\]"  # half-open intervals
)
_APPROX_MARK = re.compile(r"\\approx|≈|\d\.\d{3,}")
_COMMA_NUMBER = re.compile(r"-?\d+,\d+")
_POINT_NUMBER = re.compile(r"-?\d*\.\d+")
_PERCENT = re.compile(r"\\%|%|percent|pct")
_UNITS = re.compile(
    r"^-?[\d.,]+\s*(\\(?:text|mbox|textbf|mathrm)\s*\{[^{}]*\}|[A-Za-z][A-Za-z ]*)(\^\{?\d\}?)?$"
)
_WORDISH = re.compile(r"[A-Za-z]{3,}")
_TEXT_ANSWER = re.compile(r"^(\\text\{[A-Za-z ]+\}|[A-Za-z]+)$")
_NOTATION = re.compile(
    r";|\\\{|\\\\\\\\|matrix|array|cases|[^\x00-\x7f]|[\t\f]|(?<![A-Za-z}])\{\s*-?\d[^{}]*,"
    r"|\b(?:or|and)\b|\d \d{3}\b|\\\s*$|\d:\d\d|^\d+ \d+/\d+$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class Classified:
    """``cls``: the class (mechanism first); ``kind``: what the answer is, whatever the mechanism."""

    cls: str
    why: str
    kind: str = ""


def _clean(text: str) -> str:
    return _DEBRIS.sub(" ", text or "")


def _answer_text(text: str) -> str:
    """The answer part of a gold: its last box if it has one, else the text without outer ``$``."""
    from peer.scorers import unwrap
    from peer.sources import last_box

    box = last_box(text)
    return (box if box is not None else unwrap(text)).strip()


def _words(text: str) -> bool:
    return bool(_WORDISH.search(_COMMANDS.sub(" ", text)))


def classify(
    row: dict[str, Any],
    detail: dict[str, Any],
    accepted: bool,
    label: bool,
    diag: dict[str, Any] | None = None,
) -> Classified:
    """The class of one disagreement (``accepted != label``) and the rule that chose it.

    ``diag`` may carry ``gold_unwrap_flips`` (the verdict changes when the gold loses its outer ``$...$``),
    ``symmetric`` (``equivalent(a, b) == equivalent(b, a)``) and ``gold_self_ok`` (the gold scored as a
    response against itself is correct), all computed by the caller. Rules about the answer itself look at
    the gold's answer and the extracted answer, not at the reasoning around them.
    """
    diag = diag or {}
    gold_raw, resp = _clean(row["gold"]), _clean(row["response"])
    explanation = detail.get("explanation") or ""
    marker = explanation.split(" ", 1)[0] if detail.get("call") == "score" else ""
    gold = _answer_text(gold_raw)
    answer = (detail.get("extracted") or "") if detail.get("call") == "score" else resp
    mech = _mechanism(row, gold_raw, resp, gold, answer, marker, explanation, accepted, label, diag)
    fragment = marker in ("last_number", "last_expression", "final_answer")
    if fragment or (mech is not None and mech.cls in (NO_MARKER, SENTENCES)) or not answer:
        answer = resp.strip()[-200:]  # what the answer is: the response's end, not the fragment read
    kind = _kind(row, gold, answer)
    if mech is None:
        return Classified(kind.cls, kind.why, PLAIN if kind.cls == OTHER else kind.cls)
    return Classified(mech.cls, mech.why, PLAIN if kind.cls == OTHER else kind.cls)


def _mechanism(
    row: dict[str, Any],
    gold_raw: str,
    resp: str,
    gold: str,
    answer: str,
    marker: str,
    explanation: str,
    accepted: bool,
    label: bool,
    diag: dict[str, Any],
) -> Classified | None:
    """A class named by how the scorer reached its verdict, or ``None``."""
    if accepted and not label:
        both = f"{gold}\n{answer}"
        if _DIV_ZERO.search(both) or len(_NEG_INF.findall(gold)) != len(_NEG_INF.findall(answer)):
            return Classified(FP_NONFINITE, "accepted; a division by zero, undefined value or infinity sign")
        return Classified(
            FP_OTHER, f"accepted a wrong answer ({marker or 'equivalent'} read {answer[:40]!r})"
        )
    multi_valued = bool(re.search(r",|;|\band\b|\bor\b", gold))
    if (
        "hedged" in explanation
        or len(_BOX.findall(gold_raw)) >= 2
        or (row["compare"] == "extract" and len(_BOX.findall(resp)) >= 2 and multi_valued)
    ):
        return Classified(
            SEVERAL_BOXES,
            "several boxes on one side" + (" (called a hedge)" if "hedged" in explanation else ""),
        )
    if (
        marker in ("last_number", "last_expression")
        or "no answer marker" in explanation
        or "string of numbers" in explanation
    ):
        return Classified(NO_MARKER, f"no marker found; the fallback read {answer[:40]!r}")
    if marker == "final_answer" and (
        _words(answer) or (re.search(r"\d", gold) and not re.search(r"\d", answer))
    ):
        return Classified(SENTENCES, f"the answer statement was read as {answer[:40]!r}")
    if diag.get("gold_unwrap_flips"):
        return Classified(ASYMMETRIC, "the verdict changes when the gold's outer $...$ is removed")
    if diag.get("symmetric") is False:
        return Classified(ASYMMETRIC, "equivalent(gold, response) != equivalent(response, gold)")
    if diag.get("gold_self_ok") is False:
        return Classified(ASYMMETRIC, "the gold, scored as a response against itself, is not correct")
    return None


def _kind(row: dict[str, Any], gold: str, answer: str) -> Classified:
    """A class named by what the gold and the answer are (±, relation, label, approximation, ...)."""
    both = f"{gold}\n{answer}"
    if "\\pm" in both or "±" in both or "\\mp" in both:
        return Classified(PLUS_MINUS, "± on one side")
    if _RELATION.search(both):
        return Classified(RELATIONS, "a relation, interval or set operation on one side")
    for side in (gold, answer):
        if "=" in side and _words(side.rsplit("=", 1)[0]) or re.search(r"[A-Za-z|]\s*(\}|\))?\s*=", side):
            return Classified(LABELLED, "a `label =` (or a chain of `=`) before the value on one side")
    if _APPROX_MARK.search(both) or (row.get("mv_config") or {}).get("float_rounding", 6) != 6:
        return Classified(
            APPROX, "a decimal approximation (3+ decimals), \\approx, or a loosened upstream precision"
        )
    g, a = gold.replace("$", "").replace(" ", ""), answer.replace("$", "").replace(" ", "")
    if (_COMMA_NUMBER.fullmatch(g) and _POINT_NUMBER.fullmatch(a)) or (
        _COMMA_NUMBER.fullmatch(a) and _POINT_NUMBER.fullmatch(g)
    ):
        return Classified(
            DECIMAL_COMMA, "one side is a number with a decimal comma, the other a decimal point"
        )
    if _PERCENT.search(both):
        return Classified(PERCENT, "a percent sign or word")
    if _UNITS.match(gold) or _UNITS.match(answer):
        return Classified(UNITS, "a number followed by a unit")
    if _TEXT_ANSWER.match(gold) or _TEXT_ANSWER.match(answer):
        return Classified(TEXT, "a word or \\text{} answer")
    if _NOTATION.search(both):
        return Classified(
            NOTATION,
            "`;`, `\\{`, a matrix environment, words joining a list, a space or "
            "trailing backslash in a number, a time, non-ASCII, doubled backslashes "
            "or control characters",
        )
    return Classified(OTHER, "no rule matched")
