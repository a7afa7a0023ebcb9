"""GSM8K scorer: read the final number of a response and compare it exactly with the gold.

Example:
    >>> from verifiers import gsm8k
    >>> gsm8k.score("9 * 2 = 18 dollars.\\n#### $18.00", "18").status
    'correct'
    >>> gsm8k.equivalent("1,450,000", "1450000")
    True

Everything is in-process and bounded (linear regexes, capped sizes): there is no symbolic step, so the
``timeout`` field only matters for ``score_batch``'s per-item budget. Golds may be the bare answer
(``"1,450,000"``) or a whole GSM8K solution (the text after ``####`` is used).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from verifiers._problem import last_boxed
from verifiers.answers._extract import (
    HEDGE_GAP,
    Extraction,
    cut_debris,
    find_answer,
    grader_note,
    may_have_debris,
    statement_refusal,
)
from verifiers.answers._numbers import DASHES, UNIT_LETTERS, format_number, parse_number, unicode_numbers
from verifiers.answers._qualifiers import SCALE_WORDS, multiplier_before, qualifier, trailing_qualifier
from verifiers.rewards._config import DEFAULT_MAX_CHARS, PRESETS, ScorerConfig, rewarded
from verifiers.rewards._format_parts import format_parts
from verifiers.rewards._inputs import Gold, gold_text, response_text, scorer_config
from verifiers.rewards._score import Score

__all__ = ["Config", "equivalent", "score", "score_batch"]

@dataclass(frozen=True)
class Config(ScorerConfig):
    """How GSM8K answers are found and rewarded (frozen, hashable).

    Attributes:
        markers: the answer markers that count (``answer_tag``, ``boxed``, ``hash``,
            ``final_answer``, ``last_number``; see ``verifiers.answers._extract``): explicit ones compete
            by position (the last commitment wins); fallbacks only when nothing was committed.
        mode: ``"flexible"`` (default) also falls back to the last number and accepts unit words
            (``18 dollars``); ``"strict"`` needs an explicit marker around a bare number.
        rel_tol: relative tolerance for comparing numbers; 0 (default) means exact.
        timeout: seconds one verdict may take (only ``score_batch`` workers can ever approach it).
        max_chars: responses longer than this are cut to their last ``max_chars`` characters.
        preset: reward weights: ``"accuracy"`` (default), ``"book"`` or ``"grail"`` (see
        ``verifiers.rewards._config``). weights: explicit ``{part: weight}`` overriding the preset.
        tags: thinking/answer tags for the ``answer_tag`` marker and the format parts.
    """

    markers: tuple[str, ...] = ("hash", "answer_tag", "boxed", "final_answer", "last_number")
    presets: ClassVar[Mapping[str, Mapping[str, float]]] = PRESETS["gsm8k"]


_DEFAULT = Config()
_NUMBERS = re.compile(r"-?\$?\d[\d,]*(?:\.\d+)?(?:/\d+)?")
_GLUED_LETTER = re.compile(r"\d[a-zA-Z](?![a-zA-Z])")
_MATH_SIGNS = re.compile(r"[√²³^*/+×÷=<>≤≥≠∛∜()]|(?<![A-Za-z])-(?![A-Za-z])|\d\s*[xX]\s*\d|\\(?:sqrt|times|cdot|frac)")
_PRODUCT = re.compile(r"\d\s*[xX]\s*\d")  # "18 x 18"
_LEADING_OK = frozenset({"about", "approximately", "around", "roughly", "nearly", "almost", "exactly", "only", "just",
                         "a", "an", "the", "total", "of", "is", "equals", "so", "then", "thus", "hence", "answer",
                         "final", "we", "get", "she", "he", "they", "it", "has", "have", "had", "makes", "made"})
HEDGED = "hedged: several different numbers after the answer marker"
_SIMPLE_INT = re.compile(r"-?(?:0|[1-9]\d{0,17})")
_GOLDS: dict[str, str | None] = {}
_GOLD_CACHE_MAX = 200_000


def score(response: str, gold: Gold, *, config: Config | Mapping[str, Any] | None = None) -> Score:
    """Score one response against a GSM8K gold answer; never raises for what the response says.

    Args:
        response: the model output.
        gold: the reference answer (``"18"``, ``"1,450,000"``, ``18``, ``Fraction(3, 4)``, ``Decimal("2.50")``)
            or a full solution ending ``#### 18``. A float gold is the decimal it prints as (``0.1``).
        config: extraction/reward settings, or a mapping of its fields (``{"preset": "book"}``); ``None``
            means ``Config()`` (accuracy preset, flexible).

    Raises:
        TypeError: ``response`` is not a ``str``, or ``gold`` is neither text nor a finite number.
        ConfigError: ``config`` is not a ``Config`` or a mapping of valid fields.

    Returns:
        A ``Score``; ``status`` is ``no_answer`` when no number was found, ``gold_unparseable`` when the
        gold is not a number.

    Example:
        >>> score("#### 18", "18").reward
        1.0
    """
    if type(response) is not str:
        response = response_text(response)
    if type(gold) is not str:
        gold = gold_text(gold)
    if config is None:
        try:
            fast = _fast_path(response, gold)
        except Exception:  # noqa: BLE001 - the general path turns the same failure into an error verdict
            fast = None
        if fast is not None:
            return fast
        config = _DEFAULT
    elif type(config) is not Config:
        config = scorer_config(config, Config, _DEFAULT)
    try:
        return _score(response, gold, config)
    except Exception as e:  # noqa: BLE001 - outcomes are values: a scorer bug must not kill a training step
        return Score(0.0, False, "error", None, {"correctness": 0.0},
                     f"scorer error {type(e).__name__}: {e}"[:300])


def _gold_key(gold: str) -> str | None:
    """Canonical number of a gold (cached; ``None`` if it is not a number)."""
    key = _GOLDS.get(gold)
    if key is None:
        text = gold.rpartition("####")[2] if "####" in gold else gold
        value = parse_number(text)
        key = "" if value is None else format_number(value)
        if len(_GOLDS) >= _GOLD_CACHE_MAX:
            _GOLDS.clear()
        _GOLDS[gold] = key
    return key or None


def _fast_path(response: str, gold: str) -> Score | None:
    """The common case in microseconds: one ``#### <integer>`` line, no hedge, default config."""
    i = response.rfind("####")
    # another #### close before it may be a hedge: the general path decides
    if i < 0 or len(response) > DEFAULT_MAX_CHARS or response.find("####", max(0, i - HEDGE_GAP - 8), i) >= 0:
        return None
    if may_have_debris(response):
        return None  # maybe chat-template debris: the general path cuts it first
    j = response.find("\n", i)
    if j >= 0 and not response.isspace() and response[j:].strip():
        return None  # text after the answer line may correct it: the general path reads it
    content = (response[i + 4:] if j < 0 else response[i + 4:j]).strip()
    if _SIMPLE_INT.fullmatch(content) is None:
        return None
    key = _GOLDS.get(gold) or _gold_key(gold)
    if not key:
        return None
    if content != key:
        return Score(0.0, False, "incorrect", content, {"correctness": 0.0}, f"#### {content} != gold {key}")
    if _may_address_grader(response) and grader_note(response) >= 0:
        return None  # the general path reports the note
    return Score(1.0, True, "correct", content, {"correctness": 1.0}, f"#### {content} == gold")


def _may_address_grader(t: str) -> bool:
    """Whether ``t`` contains one of ``verifiers.answers._extract.NOTE_STEMS`` (unrolled for the hot path):
    ``False`` means it certainly holds no note to the grader."""
    t = t.lower()
    return ("grad" in t or "answer" in t or "solution" in t or "judge" in t or "verif" in t or "evaluat" in t
            or "credit" in t or "mark" in t or "instruct" in t)


def _number_key(text: str, strict: bool) -> str | None:
    value = parse_number(text, units=not strict)
    return None if value is None else format_number(value)


# Count words are units a grader reads both ways: "7 dozen" answers "how many dozen" (7) and "how many eggs" (84).
_COUNT_WORDS = {"dozen": 12, "dozens": 12, "gross": 144}
_COUNTED = re.compile(r"(-?\$?\d[\d,]*(?:\.\d+)?)\s+(dozens?|gross)\b([A-Za-z\s'-]*)[.!]?", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"[.!?]\s|\n|<br\s*/?>", re.IGNORECASE)
_HEDGE = re.compile(r"\b(?:or|maybe|perhaps|possibly|alternatively|if|unless|otherwise)\b", re.IGNORECASE)
_TRAILING_PAREN = re.compile(r"\s*\(([^()]{0,80})\)\s*[.!]?\s*$")


_COUNT_IN_SENTENCE = re.compile(r"(-?\$?\d[\d,]*(?:\.\d+)?)\s+(dozens?|gross)\b(?:\s+of\s+[a-z]+)?()", re.IGNORECASE)


def _counted_in_sentence(text: str) -> re.Match[str] | None:
    """A count word in an answer sentence whose only number (its setting aside) it counts: "Claire will eat 7
    dozens of eggs in 4 weeks" reads as "7 dozens"."""
    if "dozen" not in text.lower() and "gross" not in text.lower():
        return None
    rest = _without_setting(text[:400])
    found = _COUNT_IN_SENTENCE.search(rest)
    if found is None or len(_NUMBERS.findall(rest)) != 1 or _HEDGE.search(rest) or qualifier(rest[:found.start()]):
        return None
    return found


def _answer_number(found: Extraction, strict: bool) -> tuple[str | None, str, str | None, str]:
    """The number inside an extracted answer, a reason why there is none, its other reading (count words:
    "7 dozen" is 7 or 84) and the text it was read from (an explanation in parentheses left out; ``""`` for a
    count-word reading, whose only qualifier is its count word)."""
    counted = None if strict else _COUNTED.fullmatch(found.text.strip()) or _counted_in_sentence(found.text)
    if counted is not None and not any(w.lower() in SCALE_WORDS for w in counted.group(3).split()):
        key = _number_key(counted.group(1), False)
        if key is not None:
            return key, "", format_number(Fraction(key) * _COUNT_WORDS[counted.group(2).lower()]), ""
    key = _number_key(found.text, strict)
    if key is not None or strict:
        return key, "", None, found.text
    text = found.text
    if "\\" in text:  # "\(\boxed{150}\)" is not an explanation in parentheses
        text = _MATH_DELIMITERS.sub(" ", text)
    paren = _TRAILING_PAREN.search(text)
    if paren is not None and not _HEDGE.search(paren.group(1)) and _NUMBERS.search(text[:paren.start()]):
        text = text[:paren.start()]  # "18 eggs (1.5 dozen)", "21 (7 × 3)": an explanation of the number
        key = _number_key(text, strict)
        if key is not None:
            return key, "", None, text
    key, why = _number_in_words(text)
    return key, "" if key is not None else why, None, text


# A number a preposition introduces is the statement's setting, not its answer: "Jim spends 36 hours in 4 weeks",
# "pays $255 each month for 3 months", "saves $6 by buying 18 flowers". At most two words between ("in the first
# 15 minutes", "in the remaining 4 days", "by buying 18").
_SETTING = re.compile(r"\b(?:in|for|over|during|within|after|by|per|at)(?:\s+[a-z]+){0,2}?\s+(?:\$\s?)?$",
                      re.IGNORECASE)
_SETTING_FILLER = frozenset({"the", "a", "an", "first", "last", "next", "remaining", "following", "another",
                             "only", "just", "all", "about", "around", "roughly", "its", "his", "her", "their"})
# Inline-math delimiters are layout: "they eat \(5 + 15 = 20\) cookies" is "5 + 15 = 20 cookies".
_MATH_DELIMITERS = re.compile(r"\\[()\[\]]")


def _without_setting(text: str) -> str:
    """``text`` with each number a preposition introduces (and the preposition) blanked out."""
    out, last = [], 0
    for m in _NUMBERS.finditer(text):
        head = text[max(last, m.start() - 40):m.start()]
        p = _SETTING.search(head)
        if p is None or any(w.lower() not in _SETTING_FILLER and not w.lower().endswith("ing")
                            for w in p.group(0).split()[1:] if w != "$"):
            continue
        out.append(text[last:m.start() - len(head) + p.start()])
        out.append(" ")
        last = m.end()
    return "".join(out) + text[last:] if out else text


def _number_in_words(text: str, setting_removed: bool = False) -> tuple[str | None, str]:
    """The one number of a worded answer ("18 dollars in all"), or a reason why there is none."""
    if "\\" in text:
        text = _MATH_DELIMITERS.sub(" ", text)
    left = text.rpartition("=")[0]
    if "=" in text and not _SENTENCE_BREAK.search(left):  # "9 * 2 = 18" -> the right-hand side (one equation,
        key = _number_key(text.rpartition("=")[2], False)  # not "1,700 because ... . ... = 1430")
        if key is not None:
            return key, ""
    found_numbers = _NUMBERS.findall(text[:400])
    nums = {_number_key(n, False) for n in found_numbers}
    nums.discard(None)
    if len(nums) == 1:
        rest = _NUMBERS.sub(" ", text[:400])
        words = re.findall(r"[a-zA-Z]+", rest)
        glued = _GLUED_LETTER.search(text[:400]) is not None  # 18k, 18M, 18i
        first = _NUMBERS.search(text[:400])
        before, after = (text[:first.start()], text[first.end():400]) if first else ("", "")
        leading = re.findall(r"[a-zA-Z]+", before)
        # what qualifies the number: a word before it ("twice 18", "at least 18", "not 18") or right after it
        # ("18 or more", "18 thousand", "18 is wrong"); the rest of a sentence is context ("Henry baked 50
        # cookies last year", "21 melons were not ready")
        if (_MATH_SIGNS.search(rest) or _PRODUCT.search(text[:400]) or glued
                or any(len(w) == 1 and w not in UNIT_LETTERS for w in words)
                or any(w.lower() in SCALE_WORDS and w.lower() not in _LEADING_OK for w in leading)
                or qualifier(before) or multiplier_before(before) or trailing_qualifier(after)):
            return None, f"the number in {text[:60]!r} is transformed or qualified (squared, thousand, ...)"
        return nums.pop(), ""
    if len(nums) > 1:
        return _concluded(text, setting_removed), HEDGED
    return None, ""


def _concluded(text: str, setting_removed: bool) -> str | None:
    """The one number of a statement with several: its last sentence's (the conclusion of a derivation:
    "... so 20 + 5 = 25 shells on Monday. ... which is 2 * 25 = 50 shells."), or the one left once the numbers
    prepositions introduce are set aside ("7 dozens of eggs in 4 weeks"). None if neither settles it."""
    if "boxed{" in text and not setting_removed:  # a box inside an answer block is its commitment
        box = last_boxed(text)
        key = _number_key(box, False) if box else None
        if key is not None:
            return key
    lead = _NUMBERS.match(text.lstrip())  # "1,700 because ... = 1430": an answer stated first, then contradicted
    if lead is not None and not setting_removed:
        key = _concluded(text, True)
        return key if key is not None and key == _number_key(lead.group(0), False) else None
    if not setting_removed:
        head = text[-400:].rstrip(" \t.!")
        breaks = list(_SENTENCE_BREAK.finditer(head))
        if breaks:
            last = head[breaks[-1].end():]
            if last.strip() and not _HEDGE.search(last):
                key, _ = _number_in_words(last, True)
                if key is not None:
                    return key
    rest = _without_setting(text[:400])
    if rest != text[:400]:
        key, _ = _number_in_words(rest, True)
        return key
    return None


def _score(response: str, gold: str, cfg: Config) -> Score:
    if not isinstance(response, str) or not isinstance(gold, str):
        return Score(0.0, False, "error", None, {"correctness": 0.0},
                     f"response and gold must be str, got {type(response).__name__}/{type(gold).__name__}")
    text = unicode_numbers(cut_debris(response)[-cfg.max_chars:]).translate(DASHES)
    note = grader_note(text) if _may_address_grader(text) else -1
    if note >= 0:  # the answer must come before any note to the grader
        text = text[:note]
    strict = cfg.mode == "strict"
    found = find_answer(text, cfg.active_markers, cfg.tags, _same_for_hedge)
    parts = format_parts(text, found, cfg.tags, cfg.part_names) if len(cfg.part_names) > 1 else None
    gold_key = _gold_key(gold)
    if gold_key is None:
        return rewarded(cfg, parts, False, "gold_unparseable", None, f"gold {gold[:60]!r} is not a number")
    if found is None or not found.text:
        why = found.refusal if found is not None and found.refusal else "no answer marker or number found"
        return rewarded(cfg, parts, False, "no_answer", None, why)
    key, why, other, used = _answer_number(found, strict)
    if key is None and why == HEDGED:
        return rewarded(cfg, parts, False, "incorrect", None, why)
    if key is None:
        return rewarded(cfg, parts, False, "no_answer", None,
                        why or f"{found.marker} answer {found.text[:60]!r} is not a number")
    refusal = found.refusal
    if refusal.startswith("qualified answer (") and used != found.text:  # read from less than the whole answer
        refusal = statement_refusal(used) if used else ""
    if refusal:
        return rewarded(cfg, parts, False, "incorrect", key, refusal)
    if not _numbers_equal(key, gold_key, cfg.rel_tol) and (other is None
                                                           or not _numbers_equal(other, gold_key, cfg.rel_tol)):
        return rewarded(cfg, parts, False, "incorrect", key, f"{found.marker} answer {key} != gold {gold_key}")
    if note >= 0:
        return rewarded(cfg, parts, False, "incorrect", key, "response addresses the grader; no credit")
    return rewarded(cfg, parts, True, "correct", key, f"{found.marker} answer {key} == gold")


def _same_for_hedge(a: str, b: str) -> bool:
    x, y = parse_number(a), parse_number(b)
    return a.strip() == b.strip() if x is None or y is None else x == y


def _numbers_equal(a: str, b: str, rel_tol: float) -> bool:
    if a == b:
        return True
    if rel_tol <= 0:
        return False
    x, y = Fraction(a), Fraction(b)
    return abs(x - y) <= rel_tol * max(abs(x), abs(y))


def equivalent(a: str, b: str) -> bool:
    """Whether two already-extracted GSM8K answers are the same number (used for majority voting).

    Example:
        >>> equivalent("$1,000.00", "1000")
        True
    """
    try:
        ka, kb = _number_key(a, False), _number_key(b, False)
        if ka is None or kb is None:
            return a.strip() == b.strip() and a.strip() != ""
        return ka == kb
    except Exception:  # noqa: BLE001 - majority voting must never crash on odd text
        return False


def score_batch(responses: Iterable[str], golds: Iterable[Gold], *, workers: int | None = None,
                config: Config | Mapping[str, Any] | None = None) -> list[Score]:
    """Score many responses; ``workers > 1`` spreads them over processes (GSM8K is fast in-process).

    Args:
        responses: model outputs.
        golds: reference answers, one per response.
        workers: ``None``/``1`` scores in this process (fastest for GSM8K); ``n`` allows up to ``n`` processes,
            used only when an item costs more than ~300 us of CPU (never slower than a loop over `score`).
        config: as for ``score``.

    Raises:
        ConfigError: ``responses`` and ``golds`` differ in length, or a bad ``config``.
        TypeError: ``responses``/``golds`` is not a sequence of items (``None``, a bare string), or an item
            has a type `score` refuses.
    """
    from verifiers.rewards._batch import run_batch

    return run_batch("gsm8k", score, responses, golds, workers=workers,
                     config=scorer_config(config, Config, None))
