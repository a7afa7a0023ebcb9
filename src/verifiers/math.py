"""MATH scorer: find the final answer, normalize it, and decide equivalence with the gold without hanging.

Example:
    >>> from verifiers import math
    >>> math.score("So the answer is $\\\\boxed{\\\\dfrac{1}{2}}$.", "0.5").status
    'correct'
    >>> math.equivalent("0.\\\\overline{3}", "\\\\frac{1}{3}")
    True

The final answer is found (``verifiers.answers._extract``), normalized the same way as the gold
(``verifiers.answers._normalize``), parsed into a typed answer (``verifiers.answers._typed``: numbers,
expressions, tuples, sets, intervals, relations, equations, matrices, ``\\pm``, text) and compared kind by
kind (``verifiers.equivalence._compare``). Expressions are compared in-process by exact arithmetic or by
evaluating both sides at random points (``verifiers.equivalence._expr_eval``); only what that cannot settle
goes to sympy, in worker processes with a hard deadline (``Config.timeout``, default 1 s, which covers the
whole verdict, waiting for a worker included; see ``verifiers.equivalence._cas_pool``). The worker pool starts
in the background when this module is imported; ``warm_up()`` waits until it is ready. Where this differs from
Math-Verify on purpose: ``evals/accuracy/README.md``.

Inside this package, ``import math`` still means the standard library (absolute imports); this module is
``verifiers.math``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from verifiers.answers._extract import (
    answer_in_statement,
    boxes,
    cut_debris,
    find_answer,
    grader_note,
)
from verifiers.answers._latex_expr import free_symbols
from verifiers.answers._normalize import MAX_ANSWER_CHARS, normalize
from verifiers.answers._numbers import parse_number
from verifiers.answers._typed import Answer, Coll, Eq, Expr, parse_answer
from verifiers.equivalence._cas_pool import pool
from verifiers.equivalence._compare import SymbolicUnavailable, compare, compare_answers
from verifiers.equivalence._expr_eval import (
    Inexact,
    Refused,
    TooLarge,
    Undefined,
    constant_value,
    reset_budget,
    value_key,
)
from verifiers.rewards._config import DEFAULT_TIMEOUT, PRESETS, ScorerConfig, rewarded
from verifiers.rewards._format_parts import format_parts
from verifiers.rewards._inputs import Gold, gold_text, response_text, scorer_config
from verifiers.rewards._score import Score

__all__ = ["Config", "equivalent", "score", "score_batch", "warm_up"]


@dataclass(frozen=True)
class Config(ScorerConfig):
    """How MATH answers are found, compared and rewarded (frozen, hashable).

    Attributes:
        markers: the answer markers that count (``answer_tag``, ``boxed``, ``hash``,
            ``final_answer``, ``last_expression``, ``last_number``; see ``verifiers.answers._extract``): explicit ones compete
            by position (the last commitment wins); fallbacks only when nothing was committed.
        mode: ``"flexible"`` (default) may fall back to the last expression; ``"strict"`` needs an explicit marker.
        rel_tol: 0 (default): a decimal is the exact rational it writes, so it never equals an irrational
            (``1.41421356237`` is not ``\\sqrt{2}``: equality is proved, not sampled); a positive value
            accepts a plain decimal written to that precision against an irrational gold. Rationals are
            always compared exactly (``2^{-70}`` and ``2^{-71}`` differ).
        timeout: seconds the symbolic (sympy) step of one verdict may take; ``status="timeout"`` after.
        max_chars: responses longer than this are cut to their last ``max_chars`` characters.
        preset: reward weights: ``"accuracy"`` (default), ``"book"`` or ``"grail"`` (see
        ``verifiers.rewards._config``). weights: explicit ``{part: weight}`` overriding the preset.
        tags: thinking/answer tags for the ``answer_tag`` marker and the format parts.
    """

    markers: tuple[str, ...] = ("answer_tag", "boxed", "final_answer", "hash", "last_expression")
    presets: ClassVar[Mapping[str, Mapping[str, float]]] = PRESETS["math"]
    rel_tol: float = 0.0


_DEFAULT = Config()
_GOLDS: dict[str, tuple[str, Answer | None, Answer | None]] = {}
_GOLD_CACHE_MAX = 100_000


def score(response: str, gold: Gold, *, config: Config | Mapping[str, Any] | None = None) -> Score:
    """Score one response against a MATH gold answer; never raises for what the response says, never exceeds
    the timeout.

    Args:
        response: the model output.
        gold: the reference answer (``"\\frac{1}{2}"``) or a full solution (its last ``\\boxed{}`` is used),
            or a number (``2``, ``Fraction(1, 3)``, ``Decimal("0.25")``; a float is the decimal it prints as).
        config: extraction/comparison/reward settings, or a mapping of its fields (``{"preset": "book"}``);
            ``None`` means ``Config()``.

    Raises:
        TypeError: ``response`` is not a ``str``, or ``gold`` is neither text nor a finite number.
        ConfigError: ``config`` is not a ``Config`` or a mapping of valid fields.

    Returns:
        A ``Score``: ``correct``/``incorrect``, ``no_answer`` (nothing extracted, or an unclosed last box),
        ``gold_unparseable``, ``timeout`` (the symbolic step overran) or ``error``.

    Example:
        >>> score("\\\\boxed{(1,2]}", "[1,2]").status
        'incorrect'
    """
    if type(response) is not str:
        response = response_text(response)
    if type(gold) is not str:
        gold = gold_text(gold, latex=True)
    cfg = _DEFAULT if config is None else config if type(config) is Config else scorer_config(config, Config, _DEFAULT)
    try:
        return _score(response, gold, cfg)
    except Exception as e:  # noqa: BLE001 - outcomes are values: a scorer bug must not kill a training step
        return Score(0.0, False, "error", None, {"correctness": 0.0},
                     f"scorer error {type(e).__name__}: {e}"[:300])


def _gold(gold: str) -> tuple[str, Answer | None, Answer | None]:
    """The gold's normalized text, typed answer and, for ``70,110``, its other reading (cached).

    ``70,110`` is seventy thousand one hundred ten or the list 70, 110: a response matching either reading is
    accepted (MATH writes both; the problem text would tell them apart).

    A gold may be the bare answer, a solution with boxes (the final group of boxes: several boxes are one
    multi-part answer), or a solution in prose without a box (read like a response: "Final Answer: ...").
    """
    got = _GOLDS.get(gold)
    if got is None:
        parts: tuple[str, ...] = (gold,)
        if "box" in gold:
            found = find_answer(gold, ("boxed",), _DEFAULT.tags, _same_text)
            if found is not None and found.text:
                parts = found.parts if found.joined and found.parts else (found.text,)
        elif _is_prose(gold):
            found = find_answer(cut_debris(gold), _PROSE_MARKERS, _DEFAULT.tags)
            if found is not None and found.text:
                parts = (_answer_text(found.marker, found.text),)
        keys = [normalize(p) for p in parts]
        key = ", ".join(k for k in keys if k)
        if len(keys) > 1:
            typed: Answer | None = Coll(tuple(_flatten(parse_answer(k) for k in keys if k)), bare=True)
        else:
            typed = parse_answer(key) if key else None
        other = None
        if len(keys) == 1 and _THOUSANDS_LIST.fullmatch(parts[0].strip().strip("$")) and ",0" not in parts[0]:
            groups = parts[0].strip().strip("$").split(",")  # digit groups: each parses to one number
            other = Coll(tuple(_flatten(parse_answer(x) for x in groups)), bare=True)
        got = (key, typed, other)
        if len(_GOLDS) >= _GOLD_CACHE_MAX:
            _GOLDS.clear()
        _GOLDS[gold] = got
    return got


_THOUSANDS_LIST = re.compile(r"-?\d{1,3}(?:,\d{3})+")
_PROSE_MARKERS = ("answer_tag", "final_answer", "last_expression")
_WORD = re.compile(r"(?<![\\a-zA-Z])[a-zA-Z]{3,}\b")


def _is_prose(gold: str) -> bool:
    """A worked solution rather than an answer: several plain words (commands such as ``\\frac`` do not count)."""
    return len(gold) > 40 and len(_WORD.findall(gold, 0, 2000)) >= 4


def _same_text(a: str, b: str) -> bool:
    return normalize(a) == normalize(b)


def _multi_valued(answer: Answer | None) -> bool:
    """Whether a gold lists several values (``-1, 4``, ``\\{1, 2\\}``, ``x = \\pm 3``), so several boxes may state it."""
    if isinstance(answer, Eq) and answer.is_label:
        answer = answer.value
    return isinstance(answer, Coll) and len(answer.items) > 1


def _hedge_key(text: str) -> str:
    """A key equal for boxes of equal value (``15\\frac{39}{40}`` and ``\\frac{639}{40}``), cheap, in-process."""
    norm = normalize(text)
    value = parse_number(norm, units=False)
    if value is not None:
        return str(value)
    answer = parse_answer(norm)
    if isinstance(answer, Expr) and answer.tree is not None and not free_symbols(answer.tree):
        try:
            v = constant_value(answer.tree)
        except (Undefined, TooLarge, Inexact, Refused, RecursionError):
            return norm
        return value_key(v)
    return norm


def _same_answer(a: str, b: str, deadline: float) -> bool:
    """Whether two boxes next to each other hold the same answer (a repeat, not a hedge).

    Shares the verdict's deadline; if the CAS cannot decide in time, the boxes count as different.
    """
    if _hedge_key(a) == _hedge_key(b):
        return True
    try:
        return compare(normalize(a), normalize(b), rel_tol=_DEFAULT.rel_tol, deadline=deadline,
                       symbolic=_symbolic) == "equal"
    except SymbolicUnavailable:
        return False


def _symbolic(gold: str, answer: str, rel_tol: float, deadline: float) -> bool | None:
    status, result = pool().call_until("equal", (gold, answer, rel_tol), deadline)
    if status == "ok":
        return bool(result)
    if status == "timeout":
        return None
    if status == "unavailable":
        raise SymbolicUnavailable(result)
    return False  # the CAS could not parse or prove it: not shown equal


def _answer_text(marker: str, text: str) -> str:
    """The math of an extracted answer: a box inside an answer block wins, else the statement's value."""
    if marker == "answer_tag":
        if "box" in text:
            found, unclosed = boxes(text)
            if found and not unclosed:
                return found[-1][0]
        return answer_in_statement(_conclusion(text))
    return text


_LINE_LEAD = re.compile(r"^\s*(?:\$\$|\\\[|\$)?\s*(?:\\Rightarrow|\\implies|\\therefore|=>|⇒)\s*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _conclusion(block: str) -> str:
    """What an answer block that holds a derivation concludes with: its last line that states something
    (``$$\\Rightarrow x=17$$`` after the steps), else its last sentence; a one-line block is itself."""
    lines = [ln for ln in block.strip().splitlines() if ln.strip()]
    if len(lines) > 1 and (("=" in block) or len(lines) > 2):
        last = _LINE_LEAD.sub(lambda m: m.group()[:2] if m.group().lstrip().startswith(("$$", "\\[")) else "",
                              lines[-1]).strip()
        if any(ch.isdigit() for ch in last) or "\\" in last:
            return last
    sentences = _SENTENCE_END.split(block.strip())
    return sentences[-1] if len(sentences) > 1 and any(ch.isdigit() for ch in sentences[-1]) else block


def _score(response: str, gold: str, cfg: Config) -> Score:
    if not isinstance(response, str) or not isinstance(gold, str):
        return Score(0.0, False, "error", None, {"correctness": 0.0},
                     f"response and gold must be str, got {type(response).__name__}/{type(gold).__name__}")
    reset_budget()  # one exact-arithmetic budget for the whole verdict (hedge checks included)
    text = cut_debris(response)[-cfg.max_chars:]
    note = grader_note(text)
    if note >= 0:  # the answer must come before any note to the grader
        text = text[:note]
    deadline = time.monotonic() + cfg.timeout  # one budget for the whole verdict

    def same(a: str, b: str) -> bool:
        return _same_answer(a, b, deadline)

    found = find_answer(text, cfg.active_markers, cfg.tags, same)
    parts = format_parts(text, found, cfg.tags, cfg.part_names) if len(cfg.part_names) > 1 else None
    gold_key, gold_answer, gold_list = _GOLDS.get(gold) or _gold(gold)
    if gold_answer is None:
        return rewarded(cfg, parts, False, "gold_unparseable", None,
                        f"gold {gold[:60]!r} is empty after normalization")
    if found is None or not found.text:
        why = found.refusal if found is not None and found.refusal else "no answer marker found"
        return rewarded(cfg, parts, False, "no_answer", None, why)
    refusal = found.refusal
    if len(found.parts) > 1 and refusal.startswith("hedged") and found.joined and _multi_valued(gold_answer):
        # several boxes for a gold with several values: together they are one answer (a set)
        answer = ", ".join(normalize(p) for p in found.parts)
        typed: Answer | None = Coll(tuple(_flatten(parse_answer(normalize(p)) for p in found.parts)), bare=True)
        refusal = ""
    else:
        raw = _answer_text(found.marker, found.text)
        if len(raw) > MAX_ANSWER_CHARS:  # never judge a truncated answer: "5" + 2,000 spaces + "+1" is not 5
            return rewarded(cfg, parts, False, "incorrect", None, f"answer longer than {MAX_ANSWER_CHARS} characters")
        answer = normalize(raw)
        typed = parse_answer(answer) if answer else None
    if typed is None:
        return rewarded(cfg, parts, False, "no_answer", None, f"{found.marker} answer is empty")
    if refusal:
        return rewarded(cfg, parts, False, "incorrect", answer, refusal)
    numeral = _base_numeral(answer) if "_" in answer else None  # every numeral has a "_"
    if numeral is not None and numeral[1] == 10:  # 255_{10} is 255
        answer, typed = numeral[0], parse_answer(numeral[0])
    gold_numeral = _base_numeral(gold_key) if "_" in gold_key else None
    if gold_numeral is not None and gold_numeral[1] != 10 and answer in (gold_numeral[0], gold_key):
        # the digits of a numeral the question asked for in base b: 4210 answers 4210_5
        return rewarded(cfg, parts, True, "correct", answer,
                        f"{found.marker} answer {answer[:60]} == gold (base {gold_numeral[1]})")
    if typed is None:
        return rewarded(cfg, parts, False, "no_answer", None, f"{found.marker} answer is empty")
    try:
        verdict = compare_answers(gold_answer, typed, rel_tol=cfg.rel_tol, deadline=deadline, symbolic=_symbolic,
                                  graded=True)
    except SymbolicUnavailable as e:
        return rewarded(cfg, parts, False, "error", answer, f"symbolic check unavailable: {e}"[:300])
    if verdict == "different" and gold_list is not None and isinstance(typed, Coll):
        verdict = compare_answers(gold_list, typed, rel_tol=cfg.rel_tol, deadline=deadline, symbolic=_symbolic)
    if verdict == "timeout":
        return rewarded(cfg, parts, False, "timeout", answer, f"symbolic check exceeded {cfg.timeout:g}s")
    if verdict == "different":
        return rewarded(cfg, parts, False, "incorrect", answer,
                        f"{found.marker} answer {answer[:60]} != gold {gold_key[:60]}")
    if note >= 0:
        return rewarded(cfg, parts, False, "incorrect", answer, "response addresses the grader; no credit")
    return rewarded(cfg, parts, True, "correct", answer, f"{found.marker} answer {answer[:60]} == gold")


_NUMERAL = re.compile(r"([0-9A-Za-z]+)_\{?(\d{1,2})\}?")


def _base_numeral(text: str) -> tuple[str, int] | None:
    """The digits and base of a numeral written with its base as a subscript (``4210_5``, ``1A_{16}``), or None."""
    m = _NUMERAL.fullmatch(text)
    if m is None or not 2 <= int(m.group(2)) <= 36:
        return None
    digits, base = m.group(1), int(m.group(2))
    try:
        int(digits, base)
    except ValueError:
        return None
    return (digits, base) if digits[:1].isdigit() or base > 10 else None


def _flatten(answers: Iterable[Answer | None]) -> list[Answer]:
    """The answers in one list, a collection's items in its place, ``None`` left out."""
    return [x for a in answers if a is not None for x in (a.items if isinstance(a, Coll) else (a,))]


def equivalent(a: str, b: str) -> bool:
    """Whether two already-extracted MATH answers are equal (used for majority voting); never raises.

    A comparison that times out (default 1 s) counts as not equal.

    Example:
        >>> equivalent("\\\\frac{1}{2}", "0.5")
        True
    """
    try:
        na, nb = normalize(a), normalize(b)
        if not na or not nb:
            return False
        deadline = time.monotonic() + DEFAULT_TIMEOUT
        return compare(na, nb, rel_tol=_DEFAULT.rel_tol, deadline=deadline, symbolic=_symbolic) == "equal"
    except Exception:  # noqa: BLE001 - majority voting must never crash on odd text (or no CAS worker)
        return False


def warm_up(timeout: float = 60.0) -> bool:
    """Wait until the symbolic workers (started in the background at import) are ready and their template has
    finished warming up; ``True`` when both are.

    Optional: before they are ready, a check that needs them returns ``timeout`` at its deadline. Without this
    call the template warms its last families of checks while idle, in the first seconds after it is ready,
    on this process's CPUs (a caller pinned to one CPU shares it); after it, the pool uses no CPU until a call.
    """
    return pool().warm_up(timeout)


def score_batch(responses: Iterable[str], golds: Iterable[Gold], *, workers: int | None = None,
                config: Config | Mapping[str, Any] | None = None) -> list[Score]:
    """Score many responses: ``None`` adds threads while the CAS is the bottleneck and CPUs are free, ``1`` uses
    this thread only, ``n`` at most ``n`` threads; never slower than a loop over `score`.

    Raises:
        ConfigError: ``responses`` and ``golds`` differ in length, ``workers < 1``, or a bad ``config``.
        TypeError: ``responses``/``golds`` is not a sequence of items (``None``, a bare string), or an item
            has a type `score` refuses.
    """
    from verifiers.rewards._batch import run_batch

    return run_batch("math", score, responses, golds, workers=workers, config=scorer_config(config, Config, None))
