"""Find the final answer in a model response: explicit markers by priority, hedges, floods and grader notes.

Markers (names used in ``Config.markers``, tried in the configured priority order; within one marker the
*last* occurrence wins):

- ``answer_tag``: the configured answer block (``<SOLUTION>...</SOLUTION>``) or ``<answer>...</answer>``;
- ``boxed``: the last *complete* ``\\boxed{...}``/``\\fbox{...}``; an unclosed last box means "no answer"
  (it never falls back to an earlier box, which may be an intermediate result);
- ``hash``: the text after the last ``####`` (GSM8K style), up to the end of that line;
- ``final_answer``: "The final answer is ...", "Final Answer: ...", "the answer is ...";
- ``last_number``: the last number in the text (flexible mode only).

Every function here is linear in the input (no nested quantifiers), so hostile text cannot stall it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from verifiers._rewards import Tags

MARKERS = ("answer_tag", "boxed", "hash", "final_answer", "last_number")
# Boxes closer than this (and not split by a blank line) read as one final statement, e.g. a hedge.
HEDGE_GAP = 80
# A response may carry at most this many boxes; more is a flood of candidates.
MAX_BOXES = 64


class Extraction(NamedTuple):
    """The answer text a marker found, where it ends in the response, and any reason to refuse credit."""

    text: str
    marker: str
    end: int
    refusal: str = ""  # non-empty: hedged / flood; the answer earns no credit


_BOX_OPEN = re.compile(r"\\(?:boxed|fbox)\s*\{|\\boxed\s+(?=\S)")
_FINAL = re.compile(
    r"(?:final\s+answer|the\s+answer|answer)\s*(?:is\s*[:=]?|[:=])\s*", re.IGNORECASE)
_NUMBER = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?|-?\.\d+")
# Digit groups need a separator between them and a run separator needs a space, so the regex is unambiguous.
_NUMBER_RUN_TAIL = re.compile(r"(?:-?\d+(?:[.,]\d+)*(?:,?\s+|;\s*)(?:(?:and|or)\s+)?){2,}-?\d+(?:[.,]\d+)*\D{0,3}$")
# Notes addressed to a grader or claims about the reference answer: the answer must stand on its own.
# Matched on lower-cased text. Every pattern contains one of NOTE_STEMS, so a text without any stem
# (the common case) is ruled out by a few substring checks; _GRADER_NOTE then only runs in small windows.
NOTE_STEMS = ("grad", "judge", "verif", "evaluat", "answer", "solution", "credit", "marks", "mark ", "instruct")
_GRADER_NOTE = re.compile(
    r"(?:note|message|instruction|hint|attention|comment)s?\s*(?:to|for)\s*(?:the\s+)?"
    r"(?:grader|evaluator|judge|verifier|grading)"
    r"|(?:dear|hey|hi|hello)\s+(?:grader|evaluator|judge|verifier)"
    r"|\b(?:grader|evaluator|verifier|grading\s+system|auto-?grader)\s*[:,]"
    r"|(?:reference|gold|official|expected|ground[- ]truth|correct)\s+(?:answer|solution)\s+"
    r"(?:is\s+(?:wrong|incorrect|actually|also)|was|should|says|states|equals|matches|in\s+the\s+key)"
    r"|(?:reference|gold|official|ground[- ]truth)\s+(?:answer|solution)\s*(?:is|=|:)"
    r"|mark\s+(?:this|it|my\s+answer|the\s+answer|the\s+response|me)\s+(?:as\s+)?(?:correct|right|full)"
    r"|(?:award|give|grant)\s+(?:me\s+)?(?:full|maximum|max|the\s+full)\s+(?:credit|marks)"
    r"|ignore\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above)\s+(?:instructions)")
_NOTE_ANCHOR = re.compile("|".join(NOTE_STEMS))
_NOTE_WINDOW = 60


def may_have_grader_note(text: str) -> bool:
    """Cheap prefilter for ``grader_note``: ``False`` means there is certainly no note."""
    low = text.lower()
    return any(stem in low for stem in NOTE_STEMS)


def grader_note(text: str) -> int:
    """Where a note to the grader (or a claim about the reference answer) starts in ``text``; -1 if none."""
    if not may_have_grader_note(text):
        return -1
    low = text.lower()
    for m in _NOTE_ANCHOR.finditer(low):
        lo = max(0, m.start() - _NOTE_WINDOW)
        hit = _GRADER_NOTE.search(low, lo, m.end() + _NOTE_WINDOW)
        if hit:
            return hit.start()
    return -1


def boxes(text: str) -> tuple[list[tuple[str, int, int]], bool]:
    """All complete boxes as (content, start, end), and whether the *last* box opened is unclosed."""
    found: list[tuple[str, int, int]] = []
    unclosed = False
    pos = 0
    n = len(text)
    while len(found) <= MAX_BOXES:
        m = _BOX_OPEN.search(text, pos)
        if m is None:
            break
        if not m.group().endswith("{"):  # \boxed 5: up to the next space or $
            end = m.end()
            while end < n and not text[end].isspace() and text[end] != "$":
                end += 1
            found.append((text[m.end():end], m.start(), end))
            unclosed = False
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
                i += 1  # an escaped brace \{ or \} does not count
            i += 1
        if depth:
            unclosed = True
            break
        found.append((text[m.end():i], m.start(), i + 1))
        unclosed = False
        pos = i + 1
    return found, unclosed


def _same_text(a: str, b: str) -> bool:
    return a.strip() == b.strip()


def find_answer(text: str, markers: tuple[str, ...], tags: Tags,
                same: Callable[[str, str], bool] = _same_text) -> Extraction | None:
    """The final answer by marker priority, or ``None`` if no enabled marker matches.

    Args:
        text: the response (already cut to the size budget).
        markers: enabled marker names, highest priority first (see module doc).
        tags: the answer block tags for ``answer_tag``.
        same: whether two answer texts are the same answer, used to tell hedges from repeats.

    Returns:
        An ``Extraction``; ``text == ""`` with marker ``"boxed"`` and refusal ``"unclosed box"`` when the last
        box is unclosed and nothing of higher priority matched.
    """
    for marker in markers:
        if marker == "answer_tag":
            got = _answer_tag(text, tags)
        elif marker == "boxed":
            if "box" not in text:
                continue
            found, unclosed = boxes(text)
            if unclosed:
                return Extraction("", "boxed", len(text), "unclosed last \\boxed{")
            if not found:
                continue
            last = found[-1]
            refusal = _hedge(text, found, same)
            return Extraction(last[0].strip(), "boxed", last[2], refusal)
        elif marker == "hash":
            got = _hash(text, same)
        elif marker == "final_answer":
            got = _final_answer(text)
        elif marker == "last_number":
            got = _last_number(text)
        else:
            continue
        if got is not None:
            return got
    return None


def _hedge(text: str, found: list[tuple[str, int, int]], same: Callable[[str, str], bool]) -> str:
    if len(found) > MAX_BOXES:
        return "flood of candidate answers"
    final = last = found[-1]
    for prev in reversed(found[:-1]):
        gap_text = text[prev[2]:last[1]]
        if len(gap_text) > HEDGE_GAP or "\n\n" in gap_text:
            break
        if not same(prev[0], final[0]):
            return "hedged: several different final answers"
        last = prev
    return ""


def _answer_tag(text: str, tags: Tags) -> Extraction | None:
    for start, end in ((tags.answer_start, tags.answer_end), ("<answer>", "</answer>")):
        if not start or start not in text:
            continue
        j = text.rfind(end)
        i = text.rfind(start, 0, j if j >= 0 else len(text))
        if i < 0:
            continue
        if j < 0:  # truncated before the closing tag: the block runs to the end
            return Extraction(text[i + len(start):].strip(), "answer_tag", len(text))
        return Extraction(text[i + len(start):j].strip(), "answer_tag", j + len(end))
    return None


def _hash(text: str, same: Callable[[str, str], bool]) -> Extraction | None:
    i = text.rfind("####")
    if i < 0:
        return None
    j = text.find("\n", i)
    j = len(text) if j < 0 else j
    content = text[i + 4:j].strip().lstrip("#").strip()
    refusal = ""
    k = text.rfind("####", 0, i)
    if k >= 0 and i - k <= HEDGE_GAP + 8:
        line_end = text.find("\n", k, i)
        prev = text[k + 4:line_end if line_end >= 0 else i].strip()
        if prev and "\n\n" not in text[k:i] and not same(prev, content):
            refusal = "hedged: several different final answers"
    return Extraction(content, "hash", j, refusal)


def _final_answer(text: str) -> Extraction | None:
    last = None
    for m in _FINAL.finditer(text):
        last = m
    if last is None:
        return None
    rest = text[last.end():last.end() + 500]
    if rest.startswith("$"):
        close = rest.find("$", 1)
        content = rest[1:close] if close > 0 else rest[1:]
        end = last.end() + (close + 1 if close > 0 else len(rest))
    else:
        line = rest.split("\n", 1)[0]
        cut = re.search(r"\.(?:\s|$)", line)
        content = line[:cut.start()] if cut else line
        end = last.end() + len(content)
    content = content.strip()
    if not content:
        return None
    return Extraction(content, "final_answer", end)


def _last_number(text: str) -> Extraction | None:
    last = None
    for m in _NUMBER.finditer(text):
        last = m
    if last is None:
        return None
    tail = text[max(0, last.start() - 400):last.end() + 3]
    if _NUMBER_RUN_TAIL.search(tail) and len(set(_NUMBER.findall(tail[-200:]))) >= 3:
        return Extraction(last.group(), "last_number", last.end(), "ends in a string of numbers")
    return Extraction(last.group(), "last_number", last.end())
