"""Find the final answer in a model response: explicit markers by priority, hedges, floods and grader notes.

Markers (names used in ``Config.markers``, tried in the configured priority order; within one marker the
*last* occurrence wins):

- ``answer_tag``: the configured answer block (``<SOLUTION>...</SOLUTION>``) or ``<answer>...</answer>``;
- ``boxed``: the last *complete* ``\\boxed{...}``/``\\fbox{...}``; an unclosed last box means "no answer"
  (it never falls back to an earlier box, which may be an intermediate result);
- ``hash``: the text after the last ``####`` (GSM8K style), up to the end of that line;
- ``final_answer``: "The final answer is ...", "Final Answer: ...", "the answer is ...";
- ``last_number``: the last number in the text (flexible mode only; GSM8K's fallback);
- ``last_expression``: the last mathematical expression — the last inline or display math span, or a final
  plain-text number or fraction (``2/3``) if that comes later (flexible mode only; MATH's fallback).

Chat-template debris (``<|im_end|>``, ``<|im_start|>user``, ``</s>``, ...) ends the response (`cut_debris`). An
answer stated in a sentence ("The area of $PQRS$ is 96.") is the value after the last copula, never the name
before it (`answer_in_statement`).

Every function here is linear in the input (no nested quantifiers), so hostile text cannot stall it.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from verifiers.answers._qualifiers import (
    SCALE_WORDS,
    multiplier_before,
    qualifier,
    text_qualifier,
    trailing_qualifier,
)
from verifiers.answers._tags import Tags

MARKERS = ("answer_tag", "boxed", "hash", "final_answer", "last_number", "last_expression")
# Markers that are fallbacks, not explicit answers (strict mode drops them; format rewards do not count them).
FALLBACK_MARKERS = frozenset({"last_number", "last_expression"})
# Tokens that end a chat turn; what follows them is template debris, not the answer.
END_OF_TURN = ("<|im_end|>", "<|im_start|>", "<|endoftext|>", "<|eot_id|>", "<|end_of_text|>", "<|end|>",
               "</s>", "<｜end▁of▁sentence｜>", "<end_of_turn>", "<|user|>", "<|assistant|>")  # see cut_debris
DEBRIS_START = re.compile(r"<(?:\||/s>|｜|end_of_turn>)")
MAX_FALLBACK_CHARS = 4_000  # the fallbacks look at the end of the response only
MAX_STATEMENT_CHARS = 2_000  # a final statement longer than this is read from its end (bounds the span scans)
_HEDGE_WORDS = re.compile(r"\b(?:or|maybe|perhaps|alternatively|possibly|otherwise)\b", re.IGNORECASE)
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
    parts: tuple[str, ...] = ()  # boxed: the different answers of the final group of adjacent boxes
    joined: bool = False  # boxed: the text between those boxes only links them ("and", ",", "\\quad")
    start: int = -1  # where the commitment starts in the response (-1: not recorded)


_BOX_OPEN = re.compile(r"\\(?:boxed|fbox)\s*\{|\\boxed\s+(?=\S)")


def _braced_body(depth: int) -> str:
    """A regex for text whose braces nest at most ``depth`` deep, an escape (``\\`` and the next character) counting
    as no brace. Every quantifier is possessive and the alternatives start with different characters, so a
    match reads each character once: linear."""
    inner = "" if depth == 0 else "|\\{" + _braced_body(depth - 1) + "\\}"
    return r"[^{}\\]*+(?:(?:\\[\s\S]" + inner + r")[^{}\\]*+)*+"


_BALANCED = re.compile(_braced_body(3) + r"\}")  # a box's content (3 nested braces at most) and its closing brace
_FINAL = re.compile(
    r"(?:final\s+answer|the\s+answer|answer)\s*(?:is\b\s*[:=]?|[:=])\s*", re.IGNORECASE)
_MINUS = "[-\u2212\u2013]"
# A number, with a sign (also U+2212), money sign, thousands separators, decimals and a ``/d`` denominator: "1/3"
# is one number, never "3". The denominator allows no spaces, so "10 / 2 = 5" still ends in 5.
# Digits inside a word ("AZYUK2A", "x2") are not a number; "1 000" (groups of three) is one.
_NUMBER = re.compile(r"(?<![A-Za-z_^])(?:\d{1,2}:\d\d(?::\d\d)?(?:\s?[aApP]\.?[mM]\.?(?![A-Za-z]))?|" + _MINUS
                     + r"?\$?(?:\d{1,3}(?: \d{3})+(?![\d,.])|\d[\d,]*(?:\.\d+)?(?:/\d+(?:\.\d+)?)?)|" + _MINUS
                     + r"?\.\d+)")  # a clock time 4:30 p.m. is one answer too
# Display math may span lines; inline $...$ and \(...\) may not. An escaped \$ is money, never a delimiter.
_MATH_SPAN = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\(([^\n]+?)\\\)|(?<!\\)\$((?:[^$\\\n]|\\[^\n])+)\$",
                        re.DOTALL)
_UNICODE_MATH = re.compile("[π√∞±×÷]")  # 9π, 2√3 written without delimiters (not m²: a unit)
_WORD = re.compile(r"(?<![\\a-zA-Z])[a-zA-Z]{3,}")  # a word of prose (``\\infty`` and ``x`` are not)
_LEADING_NUMBER_WORDS = re.compile(r"(" + _MINUS + r"?\$?\d[\d,]*(?:\.\d+)?(?:/\d+)?)\s+[A-Za-z][A-Za-z\s'-]*")
_COPULA = re.compile(
    r"\b(?:is|are|was|were|equals?|be|becomes|gives|yields|makes)\s*:?\s+"
    r"(?:(?:equal|equivalent|congruent)\s+to\s+|exactly\s+|therefore\s+|thus\s+)?(?=\S)", re.IGNORECASE)
# Digit groups need a separator between them and a run separator needs a space, so the regex is unambiguous.
_NUMBER_RUN_TAIL = re.compile(
    r"(?:-?\d++(?:[.,]\d++)*+(?:,?\s++|;\s*+)(?:(?:and|or)\s++)?){2,}-?\d++(?:[.,]\d++)*+\D{0,3}$")
# Notes addressed to a grader or claims about the reference answer: the answer must stand on its own.
# Matched on lower-cased text. Each rule is a keyword with the context a note puts before and after it
# ("note to the <grader>", "reference <answer> is wrong"): the keyword is found with substring searches,
# then only its neighbourhood is matched, so the cost grows with the keywords a text holds, not its length.
# Every keyword contains one of NOTE_STEMS, so a text without any stem (the common case) is ruled out by
# a few substring checks. ("mark" covers "marks" and "mark "; a prefilter may let more through, never fewer.)
NOTE_STEMS = ("grad", "judge", "verif", "evaluat", "answer", "solution", "credit", "mark", "instruct")
_NOTE_CONTEXT = 60  # characters of context read before a keyword


@dataclass(frozen=True)
class _NoteRule:
    """A note: one of ``keywords``, right after text matching ``before`` and right before ``after``."""

    keywords: tuple[str, ...]
    before: re.Pattern[str] | None = None  # must end where the keyword starts (searched in the context)
    after: re.Pattern[str] | None = None  # must start where the keyword ends
    word_start: bool = False  # the keyword (or ``before``'s match) starts a word


def _ending(pattern: str) -> re.Pattern[str]:
    return re.compile(f"(?:{pattern})\\Z")


_TO_GRADER = ("grader", "evaluator", "judge", "verifier", "grading")
_NOTE_RULES = (
    _NoteRule(_TO_GRADER, _ending(r"(?:note|message|instruction|hint|attention|comment)s?\s*(?:to|for)\s*(?:the\s+)?")),
    _NoteRule(_TO_GRADER[:4], _ending(r"(?:dear|hey|hi|hello)\s+")),
    _NoteRule(("grader", "evaluator", "verifier"), None, re.compile(r"\s*[:,]"), word_start=True),
    _NoteRule(("grader",), _ending(r"auto-?"), re.compile(r"\s*[:,]"), word_start=True),
    _NoteRule(("grading",), None, re.compile(r"\s+system\s*[:,]"), word_start=True),
    _NoteRule(("answer", "solution"), _ending(r"(?:reference|gold|official|ground[- ]truth)\s+"), re.compile(
        r"\s+(?:is\s+(?:wrong|incorrect|actually|also)|was|should|says|states|equals|matches|in\s+the\s+key)"
        r"|\s*(?:is|=|:)")),
    _NoteRule(("mark",), None, re.compile(
        r"\s+(?:this|it|my\s+answer|the\s+answer|the\s+response|me)\s+(?:as\s+)?(?:correct|right|full)")),
    _NoteRule(("credit", "marks"), _ending(r"(?:award|give|grant)\s+(?:me\s+)?(?:full|maximum|max|the\s+full)\s+")),
    _NoteRule(("instructions",), _ending(r"ignore\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above)\s+")),
)
_WORD_CHAR = re.compile(r"\w")


def _note_start(low: str, rule: _NoteRule, at: int, end: int) -> int:
    """Where ``rule``'s note around the keyword at ``low[at:end]`` starts; -1 if there is none."""
    if rule.after is not None and rule.after.match(low, end) is None:
        return -1
    start = at
    if rule.before is not None:
        m = rule.before.search(low, max(0, at - _NOTE_CONTEXT), at)
        if m is None:
            return -1
        start = m.start()
    if rule.word_start and start > 0 and _WORD_CHAR.match(low, start - 1):
        return -1
    return start


# keyword -> (its stem, the rules it anchors), in the order of NOTE_STEMS
_NOTE_KEYWORDS: dict[str, tuple[str, tuple[_NoteRule, ...]]] = {
    word: (next(stem for stem in NOTE_STEMS if stem in word),
           tuple(rule for rule in _NOTE_RULES if word in rule.keywords))
    for word in dict.fromkeys(w for rule in _NOTE_RULES for w in rule.keywords)
}


def may_address_grader(low: str) -> bool:
    """Whether the lower-cased ``low`` holds one of ``NOTE_STEMS`` other than "answer" (unrolled for the hot path):
    ``False`` means a note needs "answer". A stem's rare letter ("j" in "judge", "k" in "mark", "v" in "verif"
    and "evaluat") is one character search that rules out the longer substring search: every occurrence of
    the stem contains it."""
    return ("grad" in low or "solution" in low or "credit" in low or "instruct" in low or ("j" in low and "judge" in low)
            or ("k" in low and "mark" in low) or ("v" in low and ("verif" in low or "evaluat" in low)))


def _lowered(text: str) -> tuple[str, int]:
    """``text.lower()`` and where "answer" first occurs in it (-1: nowhere), computed once per text object: a
    verdict reads the same response lower-cased in several places (`grader_note`, `_answer_field`,
    `_final_search_start`)."""
    seen = _LOWERED[0]
    if seen[0] is text:
        return seen[1], seen[2]
    low = text.lower()
    answer = low.find("answer")
    _LOWERED[0] = (text, low, answer)  # one store: another thread sees the old entry or the new one
    return low, answer


# The last text `_lowered` lowered, with its results. Keyed by identity: strings are immutable and the entry keeps
# the object alive, so ``seen[0] is text`` proves the results; another thread replacing it only costs a recompute.
_LOWERED: list[tuple[str, str, int]] = [("", "", -1)]


def _answer_at(text: str, pos: int) -> int:
    """``text.lower().find("answer", pos)`` (the first search is shared by the verdict)."""
    low, first = _lowered(text)
    return first if first < 0 or first >= pos else low.find("answer", pos)


def grader_note(text: str) -> int:
    """Where a note to the grader (or a claim about the reference answer) starts in ``text``; -1 if none."""
    low, answer = _lowered(text)
    if answer < 0 and not may_address_grader(low):
        return -1
    stems = [stem for stem in NOTE_STEMS if stem in low]
    first = -1
    for word, (stem, rules) in _NOTE_KEYWORDS.items():
        if stem not in stems:
            continue
        at = low.find(word)
        while at >= 0 and (first < 0 or at < first + _NOTE_CONTEXT):
            for rule in rules:
                start = _note_start(low, rule, at, at + len(word))
                if start >= 0 and (first < 0 or start < first):
                    first = start
            at = low.find(word, at + 1)
    return first


def boxes(text: str, start: int = 0) -> tuple[list[tuple[str, int, int]], bool]:
    """All complete boxes from ``start`` as (content, start, end), and whether the *last* box opened is unclosed.

    Linear in the text: each character is read a bounded number of times (a box's content is skipped by the next
    search).
    """
    return _boxes_from(text, start, text.find("box", start))


def _boxes_from(text: str, pos: int, at: int) -> tuple[list[tuple[str, int, int]], bool]:
    """`boxes` from ``pos``, given ``at = text.find("box", pos)``: every box opens with ``\\boxed`` or ``\\fbox``,
    so only the places of "box" are tried."""
    found: list[tuple[str, int, int]] = []
    while at >= 0:
        c = text[at - 1] if at > pos else ""
        if c == "\\" and text[at + 3:at + 6] == "ed{":  # \boxed{ (most boxes): the match of _BOX_OPEN is known
            i = at + 6
            close = _box_close(text, i)
            if close < 0:
                return found, True
            found.append((text[i:close], at - 1, close + 1))
            pos = close + 1
            at = text.find("box", pos)
            continue
        if c == "\\":
            m = _BOX_OPEN.match(text, at - 1)
        elif c == "f" and at - 1 > pos and text[at - 2] == "\\":
            m = _BOX_OPEN.match(text, at - 2)
        else:
            m = None
        if m is None:
            at = text.find("box", at + 1)
            continue
        i = m.end()
        if text[i - 1] != "{":  # \boxed 5: up to the next space or $
            end, n = i, len(text)
            while end < n and not text[end].isspace() and text[end] != "$":
                end += 1
            found.append((text[i:end], m.start(), end))
            pos = end
        else:
            close = _box_close(text, i)
            if close < 0:
                return found, True
            found.append((text[i:close], m.start(), close + 1))
            pos = close + 1
        at = text.find("box", pos)
    return found, False


def _box_close(text: str, i: int) -> int:
    """Where the ``}`` closing a box whose content starts at ``i`` is, or -1 (unclosed)."""
    close = text.find("}", i)
    if close < 0:
        return -1
    flat = text[i:close]
    # no brace or escape before the first "}": it closes the box
    return _closing_brace(text, i) if "{" in flat or "\\" in flat else close


def _closing_brace(text: str, i: int) -> int:
    """Where the ``}`` that closes a brace opened just before ``i`` is, or -1; a backslash escapes the character
    after it (``\\{``, ``\\}``, ``\\\\``)."""
    m = _BALANCED.match(text, i)
    return m.end() - 1 if m is not None else _closing_brace_escaped(text, i, 1)  # deeper, or unclosed


def _closing_brace_escaped(text: str, i: int, depth: int) -> int:
    """`_closing_brace` from ``i`` at brace depth ``depth``, one character at a time (for escaped braces)."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i
        elif c == "\\":
            i += 1  # an escaped brace \{ or \} does not count
        i += 1
    return -1


def _last_match(pattern: re.Pattern[str], text: str, pos: int = 0) -> re.Match[str] | None:
    """The last of the non-overlapping matches of ``pattern`` in ``text`` from ``pos``, or ``None``."""
    last = deque(pattern.finditer(text, pos), maxlen=1)  # one pass, keeping only the latest match
    return last[0] if last else None


def _same_text(a: str, b: str) -> bool:
    return a.strip() == b.strip()


def find_answer(text: str, markers: tuple[str, ...], tags: Tags,
                same: Callable[[str, str], bool] = _same_text) -> Extraction | None:
    """The committed final answer, or ``None`` if no enabled marker matches.

    The model (the verdict contract, "Reasoning traces"):

    1. **Scope.** Struck-through text (``~~18~~``, ``1̶8̶``, ``\\sout{18}``) is withdrawn and never read. When the
       response closes a thinking block (``</think>``) and commits to an answer after it, only what follows
       counts; when it commits only inside the thinking, the last commitment there counts (an unfinished
       derivation after ``</think>`` commits nothing); with no commitment anywhere, the fallbacks read the text
       after the thinking first.
    2. **Commitments.** Every explicit answer is a commitment: a complete box (or group of adjacent boxes), a
       ``####`` line (a markdown heading such as ``#### Step 1: ...`` is not one), an answer block or a JSON/YAML
       answer field, a final-answer statement ("the answer is 15"). Boxes inside an instruction ("put your
       final answer within \\boxed{}") are not. **The last commitment wins**, except that a later statement
       that gives no value ("the answer is computed as follows") or the same value does not replace an earlier
       box, line or field.
    3. **Withdrawal.** After the last commitment, a correction ("Wait, no, it's 20", "I made a mistake",
       "15, not 12") withdraws it; its replacement, the value the correction states, is the answer, and
       without one there is no answer. Re-confirmation ("Hmm, yes, 12 is correct") keeps it.
    4. **Fallbacks** (``last_number``, ``last_expression``) are read only when nothing was committed.
    5. **Cut off while thinking.** A response that ends inside a thinking block it opened (or, with
       ``tags.prompt_opens_thinking``, one the prompt opened) committed nothing: no answer.

    Args:
        text: the response (already cut to the size budget and at template debris).
        markers: enabled marker names (see module doc); their order no longer ranks explicit markers,
            which compete by position, and fallbacks come after every explicit marker.
        tags: the thinking and answer block tags.
        same: whether two answer texts are the same answer, used to tell hedges from repeats.

    Returns:
        An ``Extraction``; ``text == ""`` with a ``refusal`` when the last commitment is an unclosed box or was
        withdrawn without a replacement. For boxes, ``parts`` holds the different answers of the final group
        of adjacent boxes; more than one is refused as a hedge unless the caller knows the gold has several.
    """
    text = mask_non_answers(text)
    if _cut_off_thinking(text, tags):
        return Extraction("", "thinking", len(text), "cut off inside the thinking block: no answer was committed",
                          start=len(text))
    outside = _after_thinking_end(text, tags)
    if outside > 0:
        explicit = tuple(m for m in markers if m not in FALLBACK_MARKERS)
        for scope in ((outside, explicit), (0, explicit), (outside, markers)):
            got = _committed(text, scope[0], scope[1], tags, same) if scope[1] else None
            if got is not None and (got.text or got.refusal):
                return got
    return _committed(text, 0, markers, tags, same)


# A new turn written after the answer ("Question: ... ?", "Q: ... ?", "User: ... ?") is the model going on with
# a made-up exchange, not its answer: the response ends there, once it has committed to an explicit answer.
_NEW_TURN = re.compile(r"\n[ \t]*(?:#+\s*|\*\*)?(?:Q|Question|Problem|User|Human)\s*(?:\*\*)?\s*:[^\n]{0,500}\?",
                       re.IGNORECASE)


def _committed(text: str, start: int, markers: tuple[str, ...], tags: Tags,
               same: Callable[[str, str], bool]) -> Extraction | None:
    """`find_answer` on ``text[start:]`` (positions stay those of ``text``)."""
    if "\n" in text and "?" in text:  # a made-up next question needs both
        for turn in _NEW_TURN.finditer(text, start):
            explicit = tuple(m for m in markers if m not in FALLBACK_MARKERS)
            before = _commitments(text[:turn.start()], start, explicit, tags, same) if explicit else None
            if before is not None:
                return before
    return _commitments(text, start, markers, tags, same)


def _commitments(text: str, start: int, markers: tuple[str, ...], tags: Tags,
                 same: Callable[[str, str], bool]) -> Extraction | None:
    """The last commitment in ``text[start:]`` (with withdrawals), else the first fallback that matches."""
    found: list[Extraction] = []
    after = start  # where the last of their starts is
    for marker in markers:
        if marker == "boxed":  # the explicit markers but final_answer (read after them)
            got = _boxed(text, start, same)
        elif marker == "answer_tag":
            got = _answer_tag(text, start, tags)
        elif marker == "hash":
            got = _hash(text, start, same)
        else:
            continue
        if got is not None:
            found.append(got)
            after = max(after, got.start)
    if "final_answer" in markers:  # a statement counts only after the other commitments' starts (_last_commitment)
        got = _final_answer(text, after)
        if got is not None:
            found.append(got)
    if found:
        best = found[0] if len(found) == 1 else _last_commitment(found, same)
        return _unless_withdrawn(text, best, markers, same)
    for marker in markers:
        if marker == "last_number":
            got = _last_number(text, start)
        elif marker == "last_expression":
            got = _last_expression(text, start)
        else:
            continue
        if got is not None:
            return got
    return None


def _boxed(text: str, start: int, same: Callable[[str, str], bool]) -> Extraction | None:
    at = text.find("box", start)  # every box opens with "\\boxed" or "\\fbox"
    if at < 0:
        return None
    found, unclosed = _boxes_from(text, start, at)
    if unclosed:
        return Extraction("", "boxed", len(text), "unclosed last \\boxed{", start=len(text))
    if len(found) == 1:
        if _in_instruction(text, found[0][1]):
            return None
    else:
        found = [b for b in found if not _in_instruction(text, b[1])]
        if not found:
            return None
    last = found[-1]
    if len(found) > MAX_BOXES:
        distinct = {content.strip() for content, _, _ in found}
        if len(distinct) > 1:
            return Extraction(last[0].strip(), "boxed", last[2], "flood of candidate answers", start=last[1])
        found = found[-1:]  # the same box repeated: one answer, however often
    content = _unwrap(last[0])
    value = content.strip()
    if len(found) == 1:  # `_final_group` of one box
        parts: tuple[str, ...] = (value,)
        joined = True
    else:
        found[-1] = (content, last[1], last[2])
        parts, joined = _final_group(text, found, same)
    if "box" in content and _BOX_OPEN.search(content):  # \boxed{5\boxed{3}}: two answers in one
        return Extraction(value, "boxed", last[2], "a box nested inside a box: no single answer", start=last[1])
    if _negated_before(text, last[1]):  # "the answer is not \boxed{12}"
        return Extraction(value, "boxed", last[2], "negated: the response denies the boxed value", start=last[1])
    word = text_qualifier(content)  # the box is the answer (contract rule 1): words around it do not count
    refusal = _qualified(word) if word else "hedged: several different final answers" if len(parts) > 1 else ""
    # tuple.__new__ builds the NamedTuple without its Python-level __new__ (the most common return: a box)
    return _new_tuple(Extraction, (value, "boxed", last[2], refusal, parts, joined, last[1]))


_new_tuple = tuple.__new__


_NEGATED = re.compile(r"(?:\bnot|n't|\\neq?|\\not\s*=|≠)\s*(?:equal\s+to\s+|be\s+)?\$*\s*\Z", re.IGNORECASE)


# ASCII characters no match of _NEGATED ends with (before its trailing spaces and dollars), in either case
_NO_NEGATION_LAST = frozenset(chr(c) for c in range(128)) - set("tTeEqQoO=")


def _negated_before(text: str, at: int) -> bool:
    """Whether the 40 characters before ``at`` end in a negation (``_NEGATED``). Each of its forms holds "not",
    "n't", "\\ne" or "≠" (any case), so a window without them is ruled out by substring checks."""
    lo = at - 40 if at > 40 else 0
    end = text[lo:at].rstrip(_BLANK_DOLLAR)
    if end[-1:] in _NO_NEGATION_LAST:  # a match ends in "not", "n't", "\\ne", "\\neq", "=", "to", "be" or "≠"
        return False
    low = text[lo:at].lower()
    if "n" not in low and "≠" not in low:
        return False
    if low.isascii() and "not" not in low and "n't" not in low and "\\ne" not in low:
        return False
    return _NEGATED.search(text, lo, at) is not None


_LABEL_EQ = re.compile(r"\s*[A-Za-z](?:_\{?\w+\}?)?\s*=\s*")


def _unwrap(content: str) -> str:
    """A box's content without what wraps all of it: braces (``{{12}}``), a box (``\\boxed{\\boxed{12}}``), a box
    after a label (``\\boxed{x = \\boxed{3}}``)."""
    if "box" not in content:  # no box inside (every box opens with "\\boxed" or "\\fbox"): only braces wrap it
        inner = content.strip()
        return _strip_braces(inner) if inner[:1] == "{" else inner
    for _ in range(8):
        inner = _strip_braces(content.strip())
        label = _LABEL_EQ.match(inner)
        boxed = inner[label.end():] if label is not None else inner
        m = _BOX_OPEN.match(boxed)
        if m is None or not m.group().endswith("{") or not boxed.endswith("}"):
            return inner
        got, unclosed = boxes(boxed)
        if unclosed or len(got) != 1 or got[0][1] != 0 or got[0][2] != len(boxed):
            return inner
        content = got[0][0]
    return content


def _strip_braces(s: str) -> str:
    """``s`` without the brace pairs that wrap all of it (``{{{5}}}`` -> ``5``), in one pass."""
    lead = len(s) - len(s.lstrip("{"))
    trail = len(s) - len(s.rstrip("}"))
    k = min(lead, trail)
    if k == 0:
        return s
    depth, low = 0, k  # the outer j pairs wrap it all iff the depth stays >= j until the last j closers
    for i, c in enumerate(s[:len(s) - k]):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if i >= k - 1:
            low = min(low, depth)
    return s[low:len(s) - low] if low > 0 else s


def _last_commitment(found: list[Extraction], same: Callable[[str, str], bool]) -> Extraction:
    """The commitment that ends last; a final-answer statement that wraps a box, or that comes after another
    commitment without a value of its own (or with the same value), does not replace it."""
    found = sorted(found, key=lambda e: e.end)
    best = found[0]
    for got in found[1:]:
        if got.marker == "final_answer" and best.marker == "answer_tag" and got.start < best.end:
            # a statement inside the answer block ("<answer>... The answer is $180</answer>") ends with it
            cut = got.text.find("</")
            got = got._replace(text=got.text[:cut].strip()) if cut >= 0 else got
        if got.marker == "final_answer" and best.marker != "final_answer" and (
                best.start >= got.start or not _states_value(got.text) or (best.text and same(best.text, got.text))):
            continue
        if best.text and not got.text.strip() and not got.refusal:  # an empty "<answer>" before a made-up turn
            continue
        best = got
    return best


# What a statement cut off mid-formula ends with: "the final answer is \(", "... is \(\boxed".
_CUT_OPENERS = re.compile(r"(?:\\[(\[]|\$+|\\boxed\s*\{?|\{|\\)+\s*\Z")


_VALUE_START = re.compile(r"\s*(?:[-\u2212+$\\(\[{|\d.]|[a-zA-Z]\s*[=(^_]|[a-zA-Z]$|[a-zA-Z]\b(?!\s+[a-zA-Z]{2}))")


def _states_value(answer: str) -> bool:
    """Whether a statement's answer reads as a value (``20``, ``\\frac12``, ``x = 3``, ``(1, 2)``) rather than
    prose ("computed as follows", "an integer")."""
    answer = _CUT_OPENERS.sub("", answer) if answer.endswith(("(", "[", "$", "{", "\\", "boxed")) else answer
    return bool(answer) and len(answer) <= MAX_STATEMENT_CHARS and _VALUE_START.match(answer) is not None and (
        any(c.isdigit() for c in answer) or "\\" in answer or _UNICODE_MATH.search(answer) is not None
        or len(answer.split()) <= 2)


# What can follow the last commitment (read in the text after it, at most _TAIL_CHARS):
# - a strong correction ("wait, no", "oops", "I made a mistake", "that's wrong") withdraws the answer;
# - a doubt ("wait", "hmm", "hold on", "but") withdraws it only together with a negative verdict ("can't be
#   right", "off by one", "I forgot ..."), an unfinished redo ("let me recompute") or a conclusion that states
#   another value ("..., so the smallest $k$ is $12$"): "Wait, let me verify: 3 + 4 + 5 = 12" withdraws nothing;
# - the answer denied by value ("15, not 12", "12 is wrong") withdraws it.
# The replacement is the value the correction concludes with ("so there are 26 in total", "it's 150 — ..."),
# else the value the correcting sentence states ("3·5 = 15, not 12"); without one there is no answer.
_STRONG = re.compile(
    r"\b(?:wait,?\s*no\b|no,?\s*wait\b|oops\b|whoops\b|scratch\s+that|on\s+second\s+thought|correction\s*:"
    r"|i\s+made\s+(?:a|an)\s+(?:\w+\s+)?(?:mistake|error)|i\s+was\s+wrong"
    r"|(?:that|this|it)(?:'s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+(?:right|correct))"
    r"|actually,?\s+(?:it'?s|it\s+is|the\s+(?:answer|result|total)\s+(?:is|should\s+be)|that\s+should\s+be))",
    re.IGNORECASE)
_DOUBT = re.compile(r"\b(?:wait|hmm+|hold\s+on|hang\s+on|actually|but)\b", re.IGNORECASE)
# Every match of _DOUBT holds one of these words: a tail without any has no doubt.
_DOUBT_WORDS = ("wait", "hmm", "hold", "hang", "actually", "but")
# Every match of _STRONG holds one of these, or "not" with "right" or "correct" ("that's not right").
_STRONG_WORDS = ("wait", "oops", "scratch", "thought", "made", "wrong", "incorrect", "correction", "actually")


def _may_correct(low: str) -> bool:
    """Cheap prefilter on lower-cased ASCII text: ``False`` means ``_STRONG`` has no match in it."""
    return ("wait" in low or "oops" in low or "scratch" in low or "thought" in low or "made" in low or "wrong" in low
            or "incorrect" in low or "correction" in low or "actually" in low  # _STRONG_WORDS, unrolled
            or ("not" in low and ("right" in low or "correct" in low)))
_VERDICT = re.compile(
    r"\b(?:can'?t|cannot|couldn'?t)\s+be\s+(?:right|correct)|\b(?:doesn'?t|does\s+not|don'?t)\s+(?:seem|look)\s+"
    r"(?:right|correct)|\bnot\s+(?:right|correct)\b|\b(?:wrong|incorrect|mistake|error)\b|\boff\s+by\s+(?:one|\d+)"
    r"|\bmis(?:count|calculat|read|interpret)\w*|\b(?:forgot|overlooked|missed|ignored)\b|\bcounted\b[^.\n]{0,40}\btwice"
    r"|\b(?:let\s+me|i\s+(?:need|have)\s+to|i\s+should)\s+(?:re-?(?:do|compute|calculate|count|evaluate|solve|work)"
    r"|fix|correct|start\s+over)\b", re.IGNORECASE)
_CONCLUSION = re.compile(
    r"(?:\b(?:so|therefore|thus|hence|which\s+means|that\s+means|this\s+means)\b,?\s+|\b(?:it'?s|it\s+is|should\s+be"
    r"|is\s+actually)\s+(?=[-\u2212$\\\d]))", re.IGNORECASE)
_TAIL_CHARS = 2_000  # the text after the answer read for a correction


@functools.lru_cache(maxsize=4096)
def _negation(value: str) -> re.Pattern[str]:
    """``not 12``, ``isn't 12``, ``12 is wrong``: the committed ``value`` denied."""
    v = re.escape(value)
    return re.compile(
        r"(?:\bnot|\bisn'?t|\bis\s+not)\s*\$?\s*(?:\\boxed\s*\{)?\s*" + v + r"(?![\w.]*\d)"
        r"|(?<![\w.])" + v + r"\$?\s+(?:is|was)\s+(?:wrong|incorrect|not\s+(?:right|correct)|a\s+mistake)",
        re.IGNORECASE)


def _unless_withdrawn(text: str, best: Extraction, markers: tuple[str, ...],
                      same: Callable[[str, str], bool]) -> Extraction:
    """``best``, or the correction that withdraws it (with its replacement, if it states one)."""
    if not best.text:
        return best
    tail = text[best.end:min(len(text), best.end + _TAIL_CHARS)]
    value = best.text.strip().strip("$").strip()
    low = tail.lower()
    negation = _negation(value) if 0 < len(value) <= 200 and value in tail and (
        "not" in low or "n't" in low or "wrong" in low or "incorrect" in low or "mistake" in low) else None
    denied = negation.search(tail) if negation is not None else None
    ascii_tail = tail.isascii()  # then a cue's keyword must be in ``low`` (IGNORECASE folds some non-ASCII letters)
    strong = _STRONG.search(tail) if not ascii_tail or _may_correct(low) else None
    doubt = _DOUBT.search(tail) if denied is None and strong is None and (
        not ascii_tail or "wait" in low or "hmm" in low or "hold" in low or "hang" in low or "actually" in low
        or "but" in low) else None  # _DOUBT_WORDS, unrolled
    if denied is None and strong is None and doubt is None:
        return best
    cue = min((m for m in (denied, strong, doubt) if m is not None), key=lambda m: m.start())
    at = max(tail.rfind("\n", 0, cue.start()), tail.rfind(". ", 0, cue.start()),
             tail.rfind(": ", 0, max(0, cue.start() - 1)) if cue is denied else -1) + 1
    rest = tail[at:]
    if negation is not None:  # the denied value is no replacement: "15, not 12" states 15
        rest = negation.sub(lambda m: " " * len(m.group()), rest)
    replacement = _concluded(rest, same, best.text)
    if doubt is not None and replacement is None and _VERDICT.search(rest) is None:
        return best  # a re-check that finds nothing wrong ("Wait, let me verify: 3 + 4 + 5 = 12.")
    if replacement is None and (denied is not None or strong is not None):
        base = best.end + at
        masked = text[:base] + rest  # the fallbacks read positions in the whole text; only the correction counts
        for marker in ("last_number", "last_expression"):
            got = (_last_number if marker == "last_number" else _last_expression)(masked, base) \
                if marker in markers else None
            if got is not None and got.text and not got.refusal:
                replacement = got.text.rstrip(",;:")
                break
    if replacement is not None:
        if same(replacement, best.text):  # "no wait, it is 12 after all": the answer stands
            return best
        return Extraction(replacement, "correction", best.end + at + len(rest), start=best.end + at)
    return Extraction("", best.marker, best.end, "withdrawn: a later correction retracts the answer "
                      f"{value[:40]!r} and states no other", start=best.start)


def _concluded(rest: str, same: Callable[[str, str], bool], answer: str) -> str | None:
    """The value the last conclusion of a correction states ("so the smallest $k$ is $12$", "it's 150 — I
    forgot ..."), or ``None``."""
    last = _last_match(_CONCLUSION, rest)
    if last is None:
        return None
    clause = rest[last.end():]
    clause = re.split(r"\s[\u2014\u2013]\s|\s--?\s|\n", clause, maxsplit=1)[0]
    clause = clause[:_sentence_end(clause)]
    got = answer_in_statement(clause).strip().rstrip(",;:")
    if not _states_value(got) or statement_refusal(clause):
        return None
    return got


_INSTRUCTION = re.compile(
    r"\b(?:put|place|write|enclose|wrap|present|provide|format|give)\b[^.\n]{0,60}?"
    r"\b(?:answers?|results?|solutions?|responses?)\b[^.\n]{0,30}?"
    r"(?<!\\)\b(?:in|within|inside|using|with|as)\s+(?:an?\s+|the\s+)?\$*\s*\Z", re.IGNORECASE)


# In ASCII text (IGNORECASE folds some non-ASCII letters to ASCII ones too) every match of _INSTRUCTION holds
# one of these verbs and, without its trailing spaces and dollars, ends with a preposition or an article; every
# match of _EXAMPLE ends with a quote, a colon or comma, or its keyword ("e.g.", "for example", "such as", "like").
_INSTRUCTION_VERBS = ("put", "place", "write", "enclose", "wrap", "present", "provide", "format", "give")
_INSTRUCTION_ENDS = ("in", "inside", "using", "with", "as", "a", "an", "the")
_EXAMPLE_ENDS = ('"', "“", "'", "`", ":", ",", ".", "example", "as", "like")


_CUE_ENDS = _INSTRUCTION_ENDS + _EXAMPLE_ENDS  # at most 7 characters each
_BLANK_DOLLAR = "".join(chr(c) for c in range(128) if chr(c).isspace()) + "$"  # ASCII whitespace (\\s) and "$"
# ASCII characters none of _CUE_ENDS ends with, in either case (a non-ASCII one may match a letter under IGNORECASE)
_NO_CUE_LAST = frozenset(chr(c) for c in range(128)) - {e[-1] for e in _CUE_ENDS} - {e[-1].upper() for e in _CUE_ENDS}


_EXAMPLE = re.compile(r"(?:(?:\be\.g\.|\bfor\s+example|\bsuch\s+as|\blike)\s*[:,]?\s*[\"“'`]?|[\"“`])\$*\s*\Z",
                      re.IGNORECASE)


def _in_instruction(text: str, box_start: int) -> bool:
    """Whether the marker at ``box_start`` is named by an instruction ("put your final answer within \\boxed{}")
    or quoted as an example (``e.g. "#### 10"``): neither is an answer."""
    lo = box_start - 120 if box_start > 120 else 0
    end = text[lo:box_start].rstrip(_BLANK_DOLLAR)  # a match ends in one of _CUE_ENDS, then spaces and dollars
    if end[-1:] in _NO_CUE_LAST:
        return False
    tail = end[-7:]
    if tail.isascii() and not tail.lower().endswith(_CUE_ENDS):
        return False
    window = text[lo:box_start].lower()
    if window.isascii():  # what each match must end with, once trailing spaces and dollars are dropped
        end = window.rstrip().rstrip("$").rstrip()
        instruction = end.endswith(_INSTRUCTION_ENDS) and any(verb in window for verb in _INSTRUCTION_VERBS)
        example = end.endswith(_EXAMPLE_ENDS)
    else:
        instruction = example = True
    if instruction and ("answer" in window or "result" in window or "solution" in window or "response" in window) \
            and _INSTRUCTION.search(text, lo, box_start) is not None:
        return True
    if example and ('"' in window or "“" in window or "`" in window or "e.g" in window or "example" in window
                    or "such as" in window or "like" in window):
        return _EXAMPLE.search(text, lo, box_start) is not None
    return False


_STRUCK = re.compile(r"~~[^~\n]{1,200}~~|<(s|del|strike)>[^<]{0,200}</\1>|\\(?:sout|st|cancel|xcancel|bcancel)\s*\{[^{}]{0,200}\}"
                     r"|(?:[^\s\u0335\u0336][\u0335\u0336])+")
# An answer marker quoted as an example of the format ('e.g. "#### 10"', "write `\\boxed{5}`") states nothing.
_QUOTED_MARKER = re.compile(r"[\"“`]\s*\$*\s*(?:####[^\"”`\n]{0,80}|\\boxed\s*\{[^\"”`\n]{0,80})[\"”`]")


def mask_non_answers(text: str) -> str:
    """``text`` with what states no answer blanked out, same length: struck-through spans (markdown ``~~x~~``,
    HTML ``<s>``/``<del>``, LaTeX ``\\sout{}``/``\\cancel{}``, Unicode combining strokes U+0335/U+0336: a struck
    value is withdrawn) and answer markers quoted as format examples (``e.g. "#### 10"``)."""
    seen, state = _MASKED[0]
    if seen is text and state == _FIXED:
        return text  # the same object was just found to hold nothing to blank (a scorer masks twice)
    # Blanking only turns characters into spaces, and every strike marker is free of spaces: the output of a text
    # without one has none either.
    strike = not (seen is text and state == _NO_STRIKE) and _may_strike(text)
    blanked = False
    if strike:
        text, n = _STRUCK.subn(lambda m: " " * len(m.group()), text)
        blanked = n > 0
    if ('"' in text or "“" in text or "`" in text) and ("#" in text or "\\" in text):  # "####", "\\boxed"
        masked = _blank_quoted_markers(text)
        blanked = blanked or masked is not text
        text = masked
    _MASKED[0] = (text, _FIXED if not blanked else _NO_STRIKE if not strike else 0)
    return text


# The last text `mask_non_answers` returned, and what is known of it: _FIXED, nothing was blanked (masking it
# again changes nothing); _NO_STRIKE, it holds no strike marker (quoted markers may still be blanked: blanking
# one can join a quote to a later marker). Strings are immutable and the entry keeps the object alive, so
# ``text is seen`` proves the state; another thread replacing it (one store) only costs a recheck.
_FIXED, _NO_STRIKE = 2, 1
_MASKED: list[tuple[str, int]] = [("", _FIXED)]


def _blank_quoted_markers(text: str) -> str:
    """``_QUOTED_MARKER.sub`` blanking each match, with the pattern tried only where a match can start: every match
    is a quote character, whitespace and dollars, then "####" or "\\boxed"; so each place is found by walking back
    from a marker over whitespace and dollars (the runs walked are disjoint: linear), and the places are tried
    left to right, skipping those inside an earlier match, as ``sub`` does."""
    starts: list[int] = []
    for marker in ("####", "\\boxed"):
        at = text.find(marker)
        while at >= 0:
            p = at
            while p > 0 and (text[p - 1] == "$" or text[p - 1].isspace()):  # ``\s`` is ``str.isspace``
                p -= 1
            if p > 0 and text[p - 1] in _OPENING_QUOTES:
                starts.append(p - 1)
            at = text.find(marker, at + 1)
    if not starts:
        return text
    pieces: list[str] = []
    done = 0
    for i in sorted(starts):
        if i < done:
            continue
        m = _QUOTED_MARKER.match(text, i)
        if m is not None:
            pieces += (text[done:i], " " * (m.end() - i))
            done = m.end()
    if not pieces:
        return text
    pieces.append(text[done:])
    return "".join(pieces)


_OPENING_QUOTES = ('"', "\u201c", "`")  # the first character class of _QUOTED_MARKER


def _may_strike(text: str) -> bool:
    """Cheap prefilter: ``False`` means ``text`` has no struck-through span (each kind has a fixed marker; "\\sout"
    and "\\st" both hold "\\s", rarer than either in math text)."""
    return (("~" in text and "~~" in text) or "\u0336" in text or "\u0335" in text
            or ("<" in text and ("<s>" in text or "<del>" in text or "<strike>" in text))
            or ("\\" in text and (("\\s" in text and ("\\sout" in text or "\\st" in text)) or "cancel" in text)))


def _cut_off_thinking(text: str, tags: Tags) -> bool:
    """Whether the response ends inside a thinking block: one it opened (``<think>`` after the last
    ``</think>``), or, when the prompt opened it (``tags.prompt_opens_thinking``), never closed."""
    if "<" not in text and _angle_tags(tags):
        return tags.prompt_opens_thinking  # no tag at all: cut off only if the prompt opened the block
    close = max(text.rfind("</think>"), text.rfind(tags.thinking_end) if tags.thinking_end else -1)
    opened = max(text.rfind("<think>"), text.rfind(tags.thinking_start) if tags.thinking_start else -1)
    return opened > close or (tags.prompt_opens_thinking and close < 0)


def _angle_tags(tags: Tags) -> bool:
    """Whether every thinking tag starts with "<" (then a text without "<" holds none of them)."""
    return tags.thinking_start[:1] in ("", "<") and tags.thinking_end[:1] in ("", "<")


def _after_thinking_end(text: str, tags: Tags) -> int:
    """Where the text after the last closed thinking block starts; 0 if there is none."""
    if "<" not in text and _angle_tags(tags):
        return 0
    end = text.rfind("</think>")
    at = end + len("</think>") if end >= 0 else 0
    if tags.thinking_end:
        own = text.rfind(tags.thinking_end)
        if own >= 0:
            at = max(at, own + len(tags.thinking_end))
    return at


def _final_group(text: str, found: list[tuple[str, int, int]],
                 same: Callable[[str, str], bool]) -> tuple[tuple[str, ...], bool]:
    """The different contents of the last run of boxes that are close together (no blank line between), and
    whether only linking words stand between them (then they can be one multi-part answer)."""
    if len(found) == 1:
        return (found[0][0].strip(),), True
    group = [found[-1]]
    for prev in reversed(found[:-1]):
        gap_text = text[prev[2]:group[-1][1]]
        if (len(gap_text) > HEDGE_GAP or "\n\n" in gap_text) and not (
                len(gap_text) <= 4 * HEDGE_GAP and _HEDGE_WORDS.search(gap_text)):
            break  # far apart, unless the words between offer an alternative ("\n\nor maybe\n\n")
        group.append(prev)
    parts: list[str] = []
    for content, _, _ in reversed(group):
        content = content.strip()
        if not any(same(p, content) for p in parts):
            parts.append(content)
    gaps = [text[a[2]:b[1]] for b, a in itertools.pairwise(group)]
    return tuple(parts), all(_links(g) for g in gaps)


_LINK = re.compile(r"(?:[\s$,;&.]|\\[(),;:! \]\[]|\\q?quad|\\text\s*\{\s*(?:and|or|,)?\s*\}|\band\b|\bor\b"
                   r"|[a-zA-Z](?:_\{?\w+\}?)?\s*=)*")


def _links(gap: str) -> bool:
    """Whether a gap between boxes only links them: "and", commas, ``\\quad``, a label (``y =``), or words that
    name what each box counts when joined by "and" ("\\boxed{1} papers and \\boxed{2} bins")."""
    if _LINK.fullmatch(gap) or not any(c.isalnum() for c in gap):
        return True  # separators only (also "++++++")
    words = re.findall(r"(?<!\\)\b[A-Za-z]+", gap)
    return len(words) <= 6 and any(w in ("and", "or") for w in words)


def may_have_debris(text: str) -> bool:
    """Cheap prefilter for chat-template debris: ``False`` means ``text`` has no end-of-turn token."""
    return "<" in text and DEBRIS_START.search(text) is not None  # every token starts with "<"


_ASSISTANT_TURN = re.compile(r"<\|im_start\|>\s*assistant\b[^\n]*\n?|<\|start_header_id\|>\s*assistant\s*<\|end_header_id\|>"
                             r"|<\|assistant\|>|<start_of_turn>\s*model\b|<｜Assistant｜>")


_PROMPT_TURN = re.compile(r"\s*(?:<\|im_start\|>\s*(?:system|user)\b|<\|start_header_id\|>\s*(?:system|user)\b"
                          r"|<\|(?:system|user)\|>|<start_of_turn>\s*user\b|<｜User｜>)")


def cut_debris(text: str) -> str:
    """``text`` up to the first chat-template end-of-turn token that follows some content (a made-up next turn
    is debris); a response that starts by echoing the prompt's system or user turn is read from its first
    assistant turn."""
    text = mask_non_answers(text)  # "<s>64</s>" is struck-through HTML, not the end-of-sequence token "</s>"
    if not may_have_debris(text):
        return text  # one scan: every END_OF_TURN token starts with one of these
    if _PROMPT_TURN.match(text):  # the response echoes the prompt's turns: its answer is the assistant turn
        turn = _ASSISTANT_TURN.search(text)
        if turn is not None:
            text = text[turn.end():]
    cut = len(text)
    for tok in END_OF_TURN:
        i = text.find(tok)
        while 0 <= i < cut and not text[:i].strip():  # a token before any content (a role header)
            i = text.find(tok, i + len(tok))
        if 0 <= i < cut:
            cut = i
    return text[:cut]


# A statement whose subject is its value: "500 pieces are left to be placed", "that 3 oranges are left unwashed".
_VALUE_SUBJECT = re.compile(r"\W*(?:that\s+)?\$?\d[\d,]*(?:\.\d+)?\s+[A-Za-z][A-Za-z\s'-]*")


def _value_copula(masked: str) -> re.Match[str] | None:
    """The copula a statement's value follows: the last one, unless nothing after it is a number or math and
    the words before the first one are a number and its noun ("40 girls are not in the scout"): then ``None``,
    the whole statement is read."""
    last = _last_match(_COPULA, masked)
    if last is None or "$" in masked[last.end():] or any(ch.isdigit() for ch in masked[last.end():]):
        return last
    first = _COPULA.search(masked)
    return None if first is not None and _VALUE_SUBJECT.fullmatch(masked, 0, first.start()) else last


def answer_in_statement(statement: str) -> str:
    """The answer a closing statement gives: the value after its last copula, as math if it is math.

    "The area of $PQRS$ is $96$." -> ``96``; "The smallest $k$ is 12." -> ``12``; "$\\frac{1}{2}$" -> ``\\frac{1}{2}``;
    "Jane started 3 hours ago" -> ``3``. Copulas inside math spans do not count (``$x = 5$`` is a labelled value
    for the answer parser).
    """
    s = statement[-MAX_STATEMENT_CHARS:].replace("**", "").strip().strip("*_").strip()  # markdown: **Monday**
    if not s:
        return s
    masked = _mask_math(s)
    last = _value_copula(masked)
    if last is not None:
        s, masked = s[last.end():].strip(), masked[last.end():].strip()
    spans = _joined_spans(s)
    outside = _MATH_SPAN.sub(" ", s)
    if spans and not any(ch.isdigit() for ch in outside):
        return spans[0] if len(spans) == 1 else ", ".join(spans)
    if not spans and _WORD.search(s) is None:
        return s.strip().rstrip(".").strip()  # math written without delimiters: [0,\\infty), x + 1
    text = _plain_answer(s)
    if spans:
        return text
    m = _LEADING_NUMBER_WORDS.fullmatch(text)
    if m and not any(w.lower() in SCALE_WORDS for w in re.findall(r"[a-zA-Z]+", text)):  # "12 apples", not "12 or 13"
        return m.group(1)
    if text[:1].isdigit() or text[:1] in "-\u2212\\(":
        return text
    numbers = _NUMBER.findall(text)
    return numbers[0] if len(numbers) == 1 else text


_JOINER = re.compile(r"\s*(?:,|;|\band\b|\bor\b)?\s*(?:\band\b|\bor\b)?\s*")


def _joined_spans(s: str) -> list[str]:
    """The math spans of a statement that list one answer: ``$1$, $2$ and $3$``; a span after other words
    (``$\\frac12$, independent of $k$``) starts a side remark and is not part of it."""
    out: list[str] = []
    pos = None
    for m in _MATH_SPAN.finditer(s):
        if pos is not None and not _JOINER.fullmatch(s, pos, m.start()):
            break
        out.append(next(g for g in m.groups() if g is not None).strip())
        pos = m.end()
    return out


def statement_refusal(statement: str) -> str:
    """Why a final statement does not commit to its value ("not $5$", "at least 18", "12 or 13"), or ``""``.

    Only the text outside math counts (``$x \\ge 5$`` is a relation, an answer of its own), plus the
    ``\\text{}`` parts inside it (``$5 \\text{ or more}$``).
    """
    s = statement[-MAX_STATEMENT_CHARS:].replace("**", "")
    masked = _mask_math(s)
    last = _value_copula(masked)
    rest = s[last.end():] if last is not None else s
    plain = _MATH_SPAN.sub(" ", rest)
    if plain == rest and not any(ch.isdigit() for ch in rest):
        return ""  # only words: a word answer ("neither", "none of them"), not a qualified value
    if plain == rest and _WORD.search(rest) is None:  # bare math: f(2) < f(1) < f(4) is an answer, 5̸ is not
        return _qualified("\u0338" if "\u0338" in rest else text_qualifier(rest))
    first = _NUMBER.search(plain) if plain == rest else None
    if first is not None:  # a plain-text value: only what qualifies the number counts ("at least 18", "twice
        # 18", "18 or more", "18 is wrong"), not the rest of its sentence ("3 more hours than James")
        before, after = plain[:first.start()], plain[first.end():]
        return _qualified(qualifier(before) or multiplier_before(before) or trailing_qualifier(after))
    return _qualified(qualifier(plain) or text_qualifier(rest))


def _qualified(word: str) -> str:
    """The refusal for an answer a qualifying ``word`` ("at least", "not") keeps from stating one value."""
    return f"qualified answer ({word!r}): it does not state one value" if word else ""


def _mask_math(s: str) -> str:
    """``s`` with the inside of every math span replaced by ``#`` (same length)."""
    if "$" not in s and "\\" not in s:
        return s
    return _MATH_SPAN.sub(lambda m: "$" + "#" * (len(m.group()) - 2) + "$", s)


def _only_span(masked: str) -> bool:
    """Whether a masked statement is one math span, maybe followed by words (units) or punctuation."""
    if not masked.startswith("$"):
        return False
    close = masked.find("$", 1 if not masked.startswith("$$") else 2)
    rest = masked[close + 1:].strip().lstrip("$").strip()
    return "$" not in rest and not any(ch.isdigit() for ch in rest)


def _plain_answer(s: str) -> str:
    """The plain-text answer at the start of ``s``: up to the end of its sentence (decimals kept)."""
    out = s[:_sentence_end(s)].strip()
    return out or s.strip()


def _answer_tag(text: str, pos: int, tags: Tags) -> Extraction | None:
    """The last answer block (``<answer>...</answer>``, the configured tags) or JSON answer field
    (``"answer": "12"``, ``"final_answer": 12``) from ``pos``."""
    best: Extraction | None = None
    angle = "<" in text  # one character search rules out every tag that starts with "<"
    for start, end in ((tags.answer_start, tags.answer_end), ("<answer>", "</answer>")):
        if not start or (not angle and start[0] == "<") or start not in text:
            continue
        j = text.rfind(end, pos)
        i = text.rfind(start, pos, j if j >= 0 else len(text))
        if i < 0:
            continue
        content = text[i + len(start):j if j >= 0 else len(text)].strip()[-MAX_STATEMENT_CHARS:]
        got = Extraction(content, "answer_tag", j + len(end) if j >= 0 else len(text),
                         statement_refusal(content), start=i)
        if best is None or got.end > best.end:
            best = got
    field = _answer_field(text, pos)
    if field is not None and (best is None or field.end > best.end):
        best = field
    return best


_FIELD = re.compile(r"""(["'])(?:final[_ ]?)?answer\1\s*:\s*(?:"((?:[^"\\\n]|\\.){0,2000})"|'([^'\n]{0,2000})'"""
                    r"""|(-?[\d.][\d.,/eE+-]{0,100}|null|true|false))""", re.IGNORECASE)


def _answer_field(text: str, pos: int) -> Extraction | None:
    """The last JSON (or Python-dict) answer field from ``pos``: its value is a commitment like a box."""
    if text.isascii():  # a match is a quote, at most "final_" and "answer": start the search just before it
        at = _answer_at(text, pos)
        if at < 0:
            return None
        pos = max(pos, at - len('"final_'))
    elif "answer" not in text[pos:].lower():
        return None
    m = _last_match(_FIELD, text, pos)
    if m is None:
        return None
    if m.group(2) is not None:
        try:
            value = str(json.loads(f'"{m.group(2)}"'))
        except ValueError:
            value = m.group(2)
    else:
        value = m.group(3) if m.group(3) is not None else m.group(4)
    value = "" if value in ("null", "true", "false") else value.strip()
    return Extraction(value, "answer_tag", m.end(), statement_refusal(value) if value else "", start=m.start())


# A markdown heading is "#### Title": a label, not a value. It is one when its text has no digit, when it is a
# label other than an answer's followed by a colon ("#### Step 1: Find the cost", "#### Rings: 4 at $5 = $20"),
# when it starts with a word and text follows below it ("#### Step 1"), or when it holds several numbers and
# more reasoning with numbers follows ("#### 2 hours per day × 6 days").
# "#### 18", "#### $18.00", "#### Answer: 18", "#### 18 dollars" are answers.
_LABEL = re.compile(r"([^\W\d_][^\n:]{0,60}):")
_ANSWER_LABEL = re.compile(r"(?:the\s+)?(?:final\s+)?(?:answer|result|solution|total)s?\s*$", re.IGNORECASE)


def _is_heading(content: str, after: str = "") -> bool:
    if not content or not any(c.isdigit() for c in content):
        return bool(content) or bool(after.strip())
    label = _LABEL.match(content)
    if label is not None and _ANSWER_LABEL.match(label.group(1)) is None:
        return True
    if content[0].isalpha() and after.strip() and _ANSWER_LABEL.match(content.split()[0]) is None \
            and not content.lower().startswith(("the answer", "the final", "final answer")):
        return True  # "#### Step 1" followed by the step: a title over the text below it
    return len(_NUMBER.findall(content)) > 1 and any(c.isdigit() for c in after)


def _hash(text: str, pos: int, same: Callable[[str, str], bool]) -> Extraction | None:
    """The last ``####`` answer line from ``pos`` (markdown headings are skipped)."""
    if "#" not in text:  # one character search (most math text has none)
        return None
    i = len(text)
    while True:
        i = text.rfind("####", pos, i)
        if i < 0:
            return None
        j = text.find("\n", i)
        j = len(text) if j < 0 else j
        content = text[i + 4:j].strip().lstrip("#").strip()[-MAX_STATEMENT_CHARS:]
        if not _is_heading(content, text[j:j + MAX_STATEMENT_CHARS]) and not _in_instruction(text, i):
            break
    refusal = statement_refusal(content)
    k = text.rfind("####", pos, i)
    if k >= 0 and i - k <= HEDGE_GAP + 8:
        line_end = text.find("\n", k, i)
        prev = text[k + 4:line_end if line_end >= 0 else i].strip()
        if prev and "\n\n" not in text[k:i] and not _is_heading(prev) and not same(prev, content):
            refusal = "hedged: several different final answers"
    return Extraction(content, "hash", j, refusal, start=i)


def _final_answer(text: str, pos: int) -> Extraction | None:
    last = _last_match(_FINAL, text, _final_search_start(text, pos))
    if last is None:
        return None
    rest = text[last.end():last.end() + 500]
    line = rest.split("\n", 1)[0]
    sentence = line[:_sentence_end(line)]
    span = _MATH_SPAN.match(rest)
    if span is not None and _only_span(_mask_math(line)):  # "The final answer is $x = 5$. I hope..."
        content, end = next(g for g in span.groups() if g is not None), last.end() + span.end()
    else:
        content, end = answer_in_statement(sentence), last.end() + len(sentence)
    content = content.strip()
    # the refusal reads the whole sentence: "$5$ or more", "$5$ thousand"
    return Extraction(content, "final_answer", end, statement_refusal(sentence), start=last.start()) if content else None


def _final_search_start(text: str, pos: int) -> int:
    """Where the search for ``_FINAL`` from ``pos`` can start without changing its last match (``len(text)`` when
    there is none): every match holds "answer" and starts at most "final" and a run of spaces before it.

    Only for ASCII text: ``IGNORECASE`` also folds some non-ASCII letters to ASCII ones (ſ, ı, İ)."""
    if not text.isascii():
        return pos
    at = _answer_at(text, pos)
    if at < 0:
        return len(text)
    while at > pos and text[at - 1].isspace():
        at -= 1
    return max(pos, at - len("final"))


def _sentence_end(line: str) -> int:
    """Where the first sentence of ``line`` ends: a ``.``/``!``/``?`` followed by a space or the end of the line,
    outside ``$...$`` (so ``$3.5$`` and "costs 3.5 dollars" do not end it); ``len(line)`` if none."""
    in_math = False
    n = len(line)
    dollars = line.count("$")
    for i, ch in enumerate(line):
        if ch == "$":
            dollars -= 1
            in_math = not in_math and dollars > 0  # a "$" with no partner later is money: "$0. I hope..."
        elif ch in ".!?" and not in_math and (i + 1 == n or line[i + 1].isspace()):
            return i
    return n


def _last_number(text: str, pos: int = 0) -> Extraction | None:
    last = _last_match(_NUMBER, text, pos)
    if last is None:
        return None
    tail = text[max(0, last.end() - 400):last.end() + 3]  # bounded: the last "number" may be 200 kB of digits
    if _NUMBER_RUN_TAIL.search(tail) and len(set(_NUMBER.findall(tail[-200:]))) >= 3:
        return Extraction(last.group(), "last_number", last.end(), "ends in a string of numbers", start=last.start())
    near = re.split(r"[,;:.!?]\s", text[max(0, last.start() - 40):last.start()])[-1]  # this clause only
    words = near.split()[-3:]  # "at least 18", "not 18" (but "twice that, 16" states 16)
    while any(ch.isdigit() for w in words for ch in w):
        words = words[1:]  # only the words after the previous number: "not 10, it's 18" states 18
    before = " ".join(words)
    if re.search(r"\bor\b", text[max(0, last.start() - 12):last.start()]):
        return Extraction(last.group(), "last_number", last.end(), "hedged: several different final answers",
                          start=last.start())
    after = text[last.end():last.end() + 40]
    after = after[:_sentence_end(after)]
    word = (qualifier(_mask_math(before)) or multiplier_before(text[max(0, last.start() - 40):last.start()])
            or trailing_qualifier(_mask_math(after)))  # "at least 18", "twice 18", "18 or more"
    return Extraction(last.group(), "last_number", last.end(), _qualified(word), start=last.start())


def _last_expression(text: str, pos: int = 0) -> Extraction | None:
    """The last math span, or a plain expression after it (``2/3``, ``\\frac{10}{9}`` without delimiters)."""
    base = max(pos, len(text) - MAX_FALLBACK_CHARS)
    tail = text[base:]
    span = _last_match(_MATH_SPAN, tail)
    number = _last_match(_NUMBER, tail, span.end() if span is not None else 0)
    if number is not None:
        got = _last_number(text, base)
        if got is not None:
            bare = _bare_latex_word(tail, number.start(), number.end())
            if bare is not None and not got.refusal:
                return Extraction(bare[0], "last_expression", base + bare[1], start=base + bare[1] - len(bare[0]))
            return got._replace(marker="last_expression")
    if span is None:
        return None
    content = next(g for g in span.groups() if g is not None).strip()
    line_start = max(tail.rfind("\n", 0, span.start()) + 1, tail.rfind(". ", 0, span.start()) + 1)
    sentence = tail[line_start:span.end()]
    if _COPULA.search(_MATH_SPAN.sub("$$", sentence)) is not None:
        content = answer_in_statement(sentence) or content
    clause = re.split(r"[,;:.!?]\s", _MATH_SPAN.sub(" ", tail[line_start:span.start()]))[-1]
    before = " ".join(clause.split()[-3:])  # "$x$ cannot be $5$"
    after = tail[span.end():span.end() + 200]
    after = _MATH_SPAN.sub(" ", after[:_sentence_end(after)])  # "$5$ is not a solution", "$x = 5$ doesn't work"
    word = qualifier(before) or qualifier(after) or text_qualifier(content)
    return Extraction(content, "last_expression", base + span.end(), _qualified(word), start=base + span.start())


def _bare_latex_word(text: str, start: int, end: int) -> tuple[str, int] | None:
    """The whitespace-delimited word around a number when it is LaTeX written without delimiters (``\\frac{1}{2}``)."""
    lo = start
    while lo > 0 and not text[lo - 1].isspace() and start - lo < 200:
        lo -= 1
    hi = end
    while hi < len(text) and not text[hi].isspace() and hi - end < 200:
        hi += 1
    word = text[lo:hi].rstrip(".,;:!?")
    if not ("\\" in word or _UNICODE_MATH.search(word)) or word.count("{") != word.count("}"):
        return None
    return word, lo + len(word)
