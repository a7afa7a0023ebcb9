"""Are two normalized MATH answers the same? Parse both into typed answers, then compare kind by kind.

Kinds come from `verifiers.answers._typed`. The rules (the verdict contract,
``docs/answer-equivalence.md``):

- a label names the value it precedes: ``x = 5``, ``(p, q) = (3, 2)``, ``x = 5 + 6 = 11`` equal ``5``, ``(3, 2)``, ``11``;
  two equations are equal when they have the same solutions (``y = 2x + 1`` and ``2x - y + 1 = 0``);
- inequalities are the sets they describe: ``x \\ge 6`` = ``6 \\le x`` = ``-x \\le -6`` = ``[6, \\infty)``;
  ``-3 < y < 8`` = ``(-3, 8)``; endpoints and their openness must match, union order does not;
- tuples, vectors, intervals and matrices are ordered and keep their brackets (``(1, 2]`` differs from
  ``[1, 2]``); sets, bare lists, ``\\pm`` expansions and several boxes are unordered and must match one to one;
- words compare as text (case-insensitive), never as products of symbols;
- expressions compare by value (`verifiers.equivalence._expr_eval`): rationals exactly, approximations only
  against a decimal answer with ``rel_tol``, variables by random points. Only what the in-process parser
  cannot read, or what agrees numerically but is not a rational function, goes to the CAS (``symbolic``);
  infinities equal only the same infinity, and an undefined value (``\\frac{3}{0}``) equals nothing.
"""

from __future__ import annotations

import functools
import math as _m
import re
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal, NamedTuple, TypeVar

from verifiers.answers._latex_expr import (
    DoubleSuperscript,
    Malformed,
    Node,
    Unsupported,
    free_symbols,
    parse_expr,
)
from verifiers.answers._typed import (
    MAX_ITEMS,
    Answer,
    Coll,
    Empty,
    Eq,
    Expr,
    Matrix,
    Ratio,
    Rel,
    Seq,
    Text,
    Union,
    is_name,
    parse_answer,
)
from verifiers.equivalence import _expr_eval as ev
from verifiers.equivalence._calculus import is_indefinite
from verifiers.equivalence._enclose import differ
from verifiers.equivalence._proof import proves_proportional

Verdict = Literal["equal", "different", "timeout"]
_T = TypeVar("_T")
# A symbolic check: (gold, answer, rel_tol, deadline) -> True / False / None when it did not answer by the
# deadline (a time.monotonic() instant shared by the whole verdict).
Symbolic = Callable[[str, str, float, float], "bool | None"]


class _Timeout(Exception):
    pass


class SymbolicUnavailable(Exception):
    """Raised by a ``Symbolic`` callable when no CAS worker can run in this process."""


class _Ctx(NamedTuple):  # a tuple: built once a verdict at a third of a frozen dataclass's cost
    rel_tol: float
    deadline: float
    symbolic: Symbolic | None
    graded: bool  # g is the reference and a the response (score), not two peers (equivalent)


def compare(gold: str, answer: str, *, rel_tol: float, deadline: float, symbolic: Symbolic | None,
            graded: bool = False) -> Verdict:
    """Compare two normalized answers; ``deadline`` is a ``time.monotonic()`` instant for the whole comparison.

    ``graded``: ``gold`` is the reference and ``answer`` a response (a response's ``1,22`` may be a decimal
    comma; a gold's ``1,3`` stays a list). Without it the comparison is symmetric.
    """
    ev.reset_budget()
    g, a = parse_answer(gold), parse_answer(answer)
    if gold == answer:
        return "different" if g is not None and _undefined_answer(g) else "equal"
    if g is None or a is None:
        return "different"
    return compare_answers(g, a, rel_tol=rel_tol, deadline=deadline, symbolic=symbolic, graded=graded)


def compare_answers(g: Answer, a: Answer, *, rel_tol: float, deadline: float, symbolic: Symbolic | None,
                    graded: bool = False) -> Verdict:
    """`compare` for answers already parsed (``verifiers.answers._typed.parse_answer``)."""
    try:
        if g is a:  # one parse (parses are cached): what _equal(g, g) says, without its context
            return "different" if _undefined_answer(g) else "equal"
        return "equal" if _equal(g, a, _Ctx(rel_tol, deadline, symbolic, graded)) else "different"
    except _Timeout:
        return "timeout"
    except (RecursionError, ArithmeticError, ValueError, TypeError):
        # absurd structures (deep nesting, complex interval ends, ...): never equal to a real gold
        return "different"


def _single(x: Answer) -> Answer:
    while isinstance(x, Coll) and len(x.items) == 1 and not isinstance(x.items[0], Empty | Coll):
        x = x.items[0]  # \{5\} is 5, but \{\emptyset\} is not the empty set
    return x


def _equal(g: Answer, a: Answer, c: _Ctx) -> bool:
    g, a = _single(g), _single(a)
    if g == a:  # the same answer, unless a part of it has no value: \frac{3}{0} equals nothing, itself included
        return not _undefined_answer(g)
    if isinstance(g, Eq) or isinstance(a, Eq):
        return _equal_eq(g, a, c)
    for x, y in ((g, a), (a, g)):
        if isinstance(x, Expr) and x.tree is None and not isinstance(y, Expr | Text) and _text(y):
            return _symbolic_equal(_text(g), _text(a), c)  # only the CAS reads one side (matrix arithmetic)
    if _set_like(g) or _set_like(a):
        if isinstance(g, Rel) and isinstance(a, Rel) and _same_relation(g, a):
            return True
        sg, sa = as_set(g), as_set(a)
        if sg is not None and sa is not None:
            return _same_set(sg, sa, g, a)
        for rel, other in ((_single(g), sa), (_single(a), sg)):
            if isinstance(rel, Rel) and other is not None and len(_rel_symbols(rel)) == 1:
                return _relation_matches(rel, other, c.deadline)
        if isinstance(g, Rel) and isinstance(a, Rel):
            return False
        if isinstance(g, Rel) or isinstance(a, Rel):
            value = a if isinstance(g, Rel) else g
            if isinstance(value, Expr) and value.tree is not None:
                return False  # an inequality is never a number or an expression
            return _symbolic_equal(_text(g), _text(a), c) if _text(g) and _text(a) else False
    if isinstance(g, Seq) or isinstance(a, Seq):
        return _equal_seq(g, a, c)
    if isinstance(g, Matrix) or isinstance(a, Matrix):
        return _equal_matrix(g, a, c)
    if isinstance(g, Coll) or isinstance(a, Coll):
        if isinstance(g, Coll) and isinstance(a, Coll):
            return _same_members(g.items, a.items, c)
        comma = _decimal_comma(a) if c.graded and isinstance(a, Coll) else None  # only a response's "1,22"
        return comma is not None and _equal(g, comma, c)
    if isinstance(g, Union) and isinstance(a, Union):
        return _match_unordered(g.parts, a.parts, c)
    if isinstance(g, Ratio) or isinstance(a, Ratio):
        tg, ta = clock_seconds(g), clock_seconds(a)
        if tg is not None and ta is not None:
            return tg == ta  # 9 a.m. = 9:00 a.m. = 09:00
        if isinstance(g, Ratio) and isinstance(a, Ratio):
            return len(g.parts) == len(a.parts) and all(_equal(x, y, c) for x, y in zip(g.parts, a.parts))
        return False
    if isinstance(g, Text) or isinstance(a, Text):
        return isinstance(g, Text) and isinstance(a, Text) and g.text == a.text
    if isinstance(g, Expr) and isinstance(a, Expr):
        return _equal_expr(g, a, c)
    return False


def clock_seconds(r: Answer) -> int | None:
    """Seconds after midnight of a clock time (``8:34``, ``20:34:00``, ``08:34 p.m.``, ``9 a.m.``), or ``None``."""
    if isinstance(r, Expr | Text) and r.text.lower().endswith(("am", "pm")) and r.text[:-2].isdigit():
        texts = [r.text[:-2], "00" + r.text[-2:]]
    elif isinstance(r, Ratio) and 2 <= len(r.parts) <= 3 and all(isinstance(p, Expr | Text) for p in r.parts):
        texts = [p.text for p in r.parts if isinstance(p, Expr | Text)]
    else:
        return None
    last = texts[-1].lower().replace(".", "")
    half = last[-2:] if last.endswith(("am", "pm")) else ""
    texts[-1] = texts[-1][:len(texts[-1]) - len(half) - (texts[-1].count("."))].strip() if half else texts[-1]
    if not all(t.isdigit() for t in texts) or len(texts[1]) != 2 or (len(texts) == 3 and len(texts[2]) != 2):
        return None
    h, m, sec = int(texts[0]), int(texts[1]), int(texts[2]) if len(texts) == 3 else 0
    if m >= 60 or sec >= 60 or h > (12 if half else 24) or (half and h == 0):
        return None
    if half:
        h = h % 12 + (12 if half == "pm" else 0)
    return h * 3600 + m * 60 + sec


def _text(x: Answer) -> str:
    if isinstance(x, Expr | Matrix):
        return x.text
    if isinstance(x, Rel):
        ops = {"<": "<", "<=": "\\le ", ">": ">", ">=": "\\ge ", "!=": "\\ne "}
        return x.terms[0].text + "".join(ops[op] + t.text for op, t in zip(x.ops, x.terms[1:]))
    return ""


# ----------------------------------------------------------------------------------------- equations


def _equal_eq(g: Answer, a: Answer, c: _Ctx) -> bool:
    if not isinstance(g, Eq):
        return isinstance(a, Eq) and _states_value(a) and _equal(g, a.value, c)
    if not isinstance(a, Eq):
        return _states_value(g) and _equal(g.value, a, c)
    if len(g.sides) == 2 and len(a.sides) == 2 and _same_solutions(g, a, c):
        return True  # y = x and x - y = 0
    if g.is_label and a.is_label:
        # bare names say nothing (f(x) = 2x vs y = 2x); expressions must agree (sin(x) = c vs cos(x) = c)
        names = is_name(_text(g.sides[0])) and is_name(_text(a.sides[0]))
        return (names or _equal(g.sides[0], a.sides[0], c)) and _equal(g.value, a.value, c)
    if _states_value(g) and _states_value(a):
        return _equal(g.value, a.value, c)
    return False


def _states_value(e: Eq) -> bool:
    """A labelled equation (``x = 5``), a computation of constants (``2 + 3 = 5``), or a chain ending in a constant."""
    if e.is_label:
        return True
    consts = [isinstance(s, Expr) and s.tree is not None and not free_symbols(s.tree) for s in e.sides]
    return all(consts) or (len(consts) >= 3 and consts[-1])


def _same_solutions(g: Eq, a: Eq, c: _Ctx) -> bool | None:
    """Whether two equations in variables have the same solutions (their sides' differences are proportional)."""
    sides = (*g.sides, *a.sides)
    trees = [s.tree for s in sides if isinstance(s, Expr) and s.tree is not None]
    if len(trees) != len(sides) or not any(free_symbols(t) for t in trees):
        return None
    dg, da = ("sub", trees[0], trees[1]), ("sub", trees[2], trees[3])
    out = ev.sample_compare(dg, da, 0.0, relation=ev.ratio_relation(),
                            seed_text=f"{_text(g.sides[0])}={_text(a.sides[0])}", deadline=c.deadline)
    if out == "different":
        return False
    if out not in ("equal", "agree"):
        return None
    # proportional at every point proves nothing: prove dg = r da with r the exact ratio at one point
    ratio = _exact_ratio(dg, da)
    if ratio is not None and proves_proportional(dg, da, ratio):
        return True
    if c.symbolic is None:
        return None
    texts = [_text(s) for s in sides]
    if not all(texts):
        return None
    verdict = _symbolic_call(f"{texts[0]}={texts[1]}", f"{texts[2]}={texts[3]}", c)
    if verdict is None:
        raise _Timeout  # no proof in time
    return verdict


def _exact_ratio(f: Node, h: Node) -> Fraction | None:
    """``f / h`` at the first of a few rational points where both are exact and ``h`` is not zero."""
    names = sorted(free_symbols(f) | free_symbols(h))
    for k in range(1, 6):
        point = {n: Fraction(7919 * k + 31 * j, 113 + 17 * j) for j, n in enumerate(names)}
        try:
            vf, vh = ev.exact(f, point), ev.exact(h, point)
        except (ev.Inexact, ev.Undefined):
            continue
        if vh != 0:
            return vf / vh
    return None


# ------------------------------------------------------------------------------------ sets and relations

Bound = tuple[ev.Value, bool]  # (value, closed)
Interval = tuple[Bound, Bound]


def _set_like(x: Answer) -> bool:
    return isinstance(x, (Rel, Union, Empty)) or (isinstance(x, Coll) and any(isinstance(i, Rel) for i in x.items))


def as_set(x: Answer) -> tuple[str | None, list[Interval]] | None:
    """The set an answer describes as (subject, intervals), or ``None`` when it is not a set of reals we can read.

    The subject is the variable a relation constrains (``None`` for intervals written as such).
    """
    x = _single(x)
    if isinstance(x, Empty):
        return None, []
    if isinstance(x, Seq):
        iv = _interval(x)
        return None if iv is None else (None, [iv])
    if isinstance(x, Union):
        out: list[Interval] = []
        for p in x.parts:
            s = as_set(p)
            if s is None or s[0] is not None:
                return None
            out += s[1]
        return None, out
    if isinstance(x, Rel):
        return _relation_set(x)
    if isinstance(x, Coll) and x.items and all(isinstance(i, Rel) for i in x.items):  # x < 2 or x > 5
        subject, out = None, []
        for i in x.items:
            s = as_set(i)
            if s is None or (subject is not None and s[0] != subject):
                return None
            subject = s[0]
            out += s[1]
        return subject, out
    return None


def _interval(x: Seq) -> Interval | None:
    if len(x.items) != 2 or x.open not in "([" or x.close not in ")]":
        return None
    ends = []
    for item in x.items:
        if not isinstance(item, Expr) or item.tree is None or free_symbols(item.tree):
            return None
        try:
            ends.append(ev.constant_value(item.tree))
        except (ev.Undefined, ev.TooLarge, ev.Refused):
            return None
    lo, hi = ends
    if not all(isinstance(v, Fraction) or ev.is_real(v) for v in ends):
        return None
    if not ev.to_mp(lo) < ev.to_mp(hi):  # (a, a) is a point or a pair, never an empty interval
        return None
    return (lo, x.open == "["), (hi, x.close == "]")


_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}


def _relation_set(r: Rel) -> tuple[str | None, list[Interval]] | None:
    """Solve each link of an inequality chain for its unknown, when every link is linear in it.

    The unknown is the one variable (``-x \\le -6``: ``x``), or else the smallest sub-expression holding all the
    variables, shared by every non-constant term (``0 < g(x) < 3`` and ``-g(x) > 0``: ``g(x)``).
    """
    trees = [t.tree for t in r.terms if t.tree is not None]
    if len(trees) != len(r.terms):
        return None
    names: set[str] = set()
    for t in trees:
        names |= free_symbols(t)
    if not names:
        return None
    if len(names) == 1:
        subject = next(iter(names))
    else:
        cores = {_core(t) for t in trees if free_symbols(t)}
        if len(cores) != 1:
            return None
        core = cores.pop()
        if free_symbols(core) != names:
            return None
        trees = [_substitute(t, core, ("sym", _UNKNOWN)) for t in trees]
        subject = repr(core)
    bounds: list[tuple[str, ev.Value]] = []  # (op with the unknown on the left, value)
    var = subject if len(names) == 1 else _UNKNOWN
    for left, op, right in zip(trees, r.ops, trees[1:]):
        solved = _solve_linear(("sub", left, right), var)
        if solved is None:
            return None  # not linear: see _relation_matches
        slope_sign, root = solved
        bounds.append((op if slope_sign > 0 else _FLIP[op], root))
    return subject, _bounds_to_intervals(bounds)


_UNKNOWN = "\\unknown"


def _core(t: Node) -> Node:
    """The smallest sub-tree of ``t`` that holds all of its variables."""
    names = free_symbols(t)
    while True:
        inner = [x for x in t[1:] if isinstance(x, tuple) and free_symbols(x) == names]
        if len(inner) != 1 or inner[0][0] in ("sym",) and len(names) > 1:
            return t
        t = inner[0]


def _substitute(t: Node, old: Node, new: Node) -> Node:
    if t == old:
        return new
    if t[0] in ("num", "sym", "const"):
        return t
    return (t[0], *(_substitute(x, old, new) if isinstance(x, tuple) else x for x in t[1:]))


def _solve_linear(f: Node, var: str) -> tuple[int, ev.Value] | None:
    """(sign of the slope, root) when ``f`` is linear in ``var`` with a non-zero slope; else ``None``."""
    try:
        f0, f1 = ev.exact(f, {var: Fraction(0)}), ev.exact(f, {var: Fraction(1)})
        slope = f1 - f0
        if slope == 0 or any(ev.exact(f, {var: p}) != f0 + slope * p for p in _PROBES):
            return None
        return (1 if slope > 0 else -1), -f0 / slope
    except (ev.Inexact, ev.Undefined):
        pass
    try:
        f0, f1 = ev.approx(f, {var: ev.to_mp(Fraction(0))}), ev.approx(f, {var: ev.to_mp(Fraction(1))})
        slope = f1 - f0
        if slope == 0 or any(ev.values_agree(ev.approx(f, {var: ev.to_mp(p)}), f0 + slope * ev.to_mp(p), 0.0)
                             != "agree" for p in _PROBES):
            return None
        return (1 if slope > 0 else -1), -f0 / slope
    except (ev.Undefined, ev.TooLarge, ev.Refused):
        return None


_PROBES = (Fraction(7919, 113), Fraction(-6007, 89), Fraction(3, 7))


def _rel_symbols(r: Rel) -> frozenset[str]:
    out: frozenset[str] = frozenset()
    for t in r.terms:
        if t.tree is None:
            return frozenset({"?", "??"})
        out |= free_symbols(t.tree)
    return out


def _relation_matches(r: Rel, target: tuple[str | None, list[Interval]], deadline: float) -> bool:
    """Whether a relation in one variable that is not linear (``1 \\le |z| \\le 2``, ``x^2 < 4``) holds exactly on
    a set of intervals: checked at every endpoint, just inside and outside it, and at points across scales.

    A sampling test, not a proof: a relation that differs from the set only on a narrow range away from the
    set's endpoints could pass. Undefined points are skipped.
    """
    var = next(iter(_rel_symbols(r)))
    trees = [t.tree for t in r.terms if t.tree is not None]  # all of them: the relation has one variable
    if target[0] is not None and target[0] != var:
        return False
    points: list[Fraction] = [Fraction(k, 4) for k in range(-41, 42, 3)] + [Fraction(s * 10**e) for e in (2, 4, 6)
                                                                          for s in (-1, 1)]
    points += [Fraction(0), Fraction(1), Fraction(-1)]  # where 1/x, log x and sqrt x change their domain
    for (lo, _), (hi, _) in target[1]:
        for end in (lo, hi):
            if isinstance(end, Fraction):
                eps = Fraction(1, 10**6) * max(Fraction(1), abs(end))
                points += [end, end - eps, end + eps]
            elif ev.is_finite(end):
                points += [Fraction(str(ev.to_mp(end) * (1 + d))) for d in (-1e-6, 0, 1e-6)]
    checked = 0
    for p in points:
        if time.monotonic() > deadline:
            raise _Timeout
        holds = _holds(trees, r.ops, var, p)
        if holds is None:
            continue
        checked += 1
        if holds != any(_inside(iv, p) for iv in target[1]):
            return False
    return checked >= 8


def _holds(trees: list[Node], ops: tuple[str, ...], var: str, p: Fraction) -> bool | None:
    values: list[ev.Value] = []
    for t in trees:
        try:
            try:
                values.append(ev.exact(t, {var: p}))
            except ev.Inexact:
                values.append(ev.approx(t, {var: ev.to_mp(p)}))
        except ev.Undefined:
            return False  # outside the relation's domain it does not hold (sqrt(x) >= 0 is not all reals)
        except (ev.TooLarge, ev.Inexact, ev.Refused):
            return None
    if not all(ev.is_real(v) for v in values):
        return False
    for x, op, y in zip(values, ops, values[1:]):
        same = ev.values_agree(x, y, 0.0) == "agree"
        bigger = ev.to_mp(x) > ev.to_mp(y)
        ok = {"<": not same and not bigger, "<=": same or not bigger, ">": not same and bigger,
              ">=": same or bigger, "!=": not same}[op]
        if not ok:
            return False
    return True


def _inside(iv: Interval, p: Fraction) -> bool:
    (lo, lo_closed), (hi, hi_closed) = iv
    x, a, b = ev.to_mp(p), ev.to_mp(lo), ev.to_mp(hi)
    above = x > a or (lo_closed and ev.values_agree(p, lo, 0.0) == "agree")
    below = x < b or (hi_closed and ev.values_agree(p, hi, 0.0) == "agree")
    return bool(above and below)


def _bounds_to_intervals(bounds: list[tuple[str, ev.Value]]) -> list[Interval]:
    lo: Bound = (ev.NEG_INF, False)
    hi: Bound = (ev.POS_INF, False)
    holes: list[ev.Value] = []
    for op, v in bounds:
        if op == "!=":
            holes.append(v)
        elif op in (">", ">="):
            if ev.to_mp(v) > ev.to_mp(lo[0]) or (ev.to_mp(v) == ev.to_mp(lo[0]) and op == ">"):
                lo = (v, op == ">=")
        elif ev.to_mp(v) < ev.to_mp(hi[0]) or (ev.to_mp(v) == ev.to_mp(hi[0]) and op == "<"):
            hi = (v, op == "<=")
    out = [(lo, hi)]
    for h in holes:
        nxt = []
        for (a, b) in out:
            if ev.to_mp(a[0]) < ev.to_mp(h) < ev.to_mp(b[0]):
                nxt += [(a, (h, False)), ((h, False), b)]
            else:
                nxt.append((a, b))
        out = nxt
    return out


def _same_set(sg: tuple[str | None, list[Interval]], sa: tuple[str | None, list[Interval]], g: Answer,
              a: Answer) -> bool:
    if sg[0] is not None and sa[0] is not None and isinstance(_single(g), (Rel, Coll)) and sg[0] != sa[0]:
        return False  # two relations about different variables
    return _pair_off(sg[1], sa[1], _same_interval)


def _same_interval(x: Interval, y: Interval) -> bool:
    return all(closed == closed2 and ev.values_agree(v, w, 0.0) == "agree"
               for (v, closed), (w, closed2) in zip(x, y))


_AS_LESS = {"<": ("<", False), "<=": ("<=", False), ">": ("<", True), ">=": ("<=", True), "!=": ("!=", False)}


def _links(r: Rel) -> list[tuple[str, Node]] | None:
    """Each link of a chain as ``f op 0`` with op in ``< <= !=`` (``L > R`` becomes ``R - L < 0``)."""
    out = []
    for left, op, right in zip(r.terms, r.ops, r.terms[1:]):
        if left.tree is None or right.tree is None:
            return None
        kind, flip = _AS_LESS[op]
        out.append((kind, ("sub", right.tree, left.tree) if flip else ("sub", left.tree, right.tree)))
    return out


def _same_relation(g: Rel, a: Rel) -> bool:
    """Inequalities that say the same: each link's ``f op 0`` has the same op and ``f`` up to a positive factor
    (``g(x) < 0`` = ``-g(x) > 0``, ``2x < 4`` = ``x < 2``, ``0 < u < 3`` = ``3 > u > 0``)."""
    lg, la = _links(g), _links(a)
    if lg is None or la is None or len(lg) != len(la):
        return False
    for order in (la, la[::-1]):
        if all(og == oa and _positive_multiple(fg, fa, og == "!=") for (og, fg), (oa, fa) in zip(lg, order)):
            return True
    return False


def _positive_multiple(f: Node, h: Node, any_sign: bool) -> bool:
    if not free_symbols(f) and not free_symbols(h):
        return False  # a relation between constants is a statement, not an answer
    out = ev.sample_compare(f, h, 0.0, relation=ev.ratio_relation(positive=not any_sign))
    return out in ("equal", "agree")


# ------------------------------------------------------------------------------------ ordered structures


def _equal_seq(g: Answer, a: Answer, c: _Ctx) -> bool:
    if isinstance(g, Seq) and isinstance(a, Seq):
        if (g.open, g.close) != (a.open, a.close) or len(g.items) != len(a.items) or len(g.items) > MAX_ITEMS:
            return False
        return all(_equal(x, y, c) for x, y in zip(g.items, a.items))
    seq, other = (g, a) if isinstance(g, Seq) else (a, g)
    assert isinstance(seq, Seq)
    if isinstance(other, Coll) and other.bare and (seq.open, seq.close) == ("(", ")") and _labelled_parts(other):
        # "a = 2, b = 3" against (2, 3): distinct labels state the pair's parts in order (a bare "2, 3" or
        # "a = -7 or a = -2" could as well be an interval's ends)
        return len(seq.items) == len(other.items) and all(
            _equal(x, y, c) for x, y in zip(seq.items, other.items))
    if isinstance(other, Matrix):
        return _equal_matrix(g, a, c)
    return False


def _labelled_parts(x: Coll) -> bool:
    """Whether every item of a list is a labelled value and the labels are all different (``a = 2, b = 3``)."""
    labels = [_text(i.sides[0]) for i in x.items if isinstance(i, Eq) and i.is_label]
    return len(labels) == len(x.items) and len(set(labels)) == len(labels) and ";" not in x.text


def _vector(x: Answer) -> tuple[Answer, ...] | None:
    if isinstance(x, Matrix) and (len(x.rows) == 1 or all(len(r) == 1 for r in x.rows)):
        return x.rows[0] if len(x.rows) == 1 else tuple(r[0] for r in x.rows)
    if isinstance(x, Seq) and (x.open, x.close) in (("(", ")"), ("[", "]")):
        return x.items
    return None


def _equal_matrix(g: Answer, a: Answer, c: _Ctx) -> bool:
    if isinstance(g, Matrix) and isinstance(a, Matrix):
        if len(g.rows) != len(a.rows) or any(len(x) != len(y) for x, y in zip(g.rows, a.rows)):
            return False
        return all(_equal(x, y, c) for rg, ra in zip(g.rows, a.rows) for x, y in zip(rg, ra))
    vg, va = _vector(g), _vector(a)  # a column or row vector against a tuple
    return vg is not None and va is not None and len(vg) == len(va) and all(_equal(x, y, c) for x, y in zip(vg, va))


def _decimal_comma(x: Coll) -> Expr | None:
    """``1,22`` read as 1.22 (a European decimal comma) when the other side is one number; ``None`` if not that form."""
    texts = [i.text for i in x.items if isinstance(i, Expr)]
    if not x.bare or len(x.items) != 2 or len(texts) != 2 or " " in x.text or "," not in x.text:
        return None
    whole, frac = texts
    if not (whole.lstrip("-").isdigit() and frac.isdigit()) or (len(frac) == 3 and whole.lstrip("-") != "0"):
        return None
    if not frac.strip("0"):
        return None  # "3,0", "3,00": a list with a zero, never a way to write 3
    value = Fraction(int(whole.lstrip("-") + frac), 10 ** len(frac)) * (-1 if whole.startswith("-") else 1)
    return Expr(f"{whole}.{frac}", ("num", value, True))


def _same_members(g: tuple[Answer, ...], a: tuple[Answer, ...], c: _Ctx) -> bool:
    """Set equality: every member of each side equals a member of the other (duplicates do not count)."""
    if len(g) > MAX_ITEMS or len(a) > MAX_ITEMS:
        return False
    if len(g) == len(a) and _match_unordered(g, a, c):
        return True
    ug, ua = _distinct(g, c), _distinct(a, c)
    return (len(ug), len(ua)) != (len(g), len(a)) and len(ug) == len(ua) and _match_unordered(ug, ua, c)


def _distinct(items: tuple[Answer, ...], c: _Ctx) -> tuple[Answer, ...]:
    out: list[Answer] = []
    for x in items:
        if time.monotonic() > c.deadline:
            raise _Timeout
        if not any(x == y or _equal(x, y, c) for y in out):
            out.append(x)
    return tuple(out)


def _match_unordered(g: tuple[Answer, ...], a: tuple[Answer, ...], c: _Ctx) -> bool:
    return len(g) <= MAX_ITEMS and _pair_off(g, a, lambda x, y: _equal(x, y, c), c.deadline)


def _pair_off(xs: Sequence[_T], ys: Sequence[_T], same: Callable[[_T, _T], bool],
              deadline: float = _m.inf) -> bool:
    """Whether each of ``xs`` is ``same`` as a different one of ``ys``, none left over (first match taken)."""
    if len(xs) != len(ys):
        return False
    left = list(ys)
    for x in xs:
        if time.monotonic() > deadline:
            raise _Timeout  # pairwise matching of large sets is quadratic: bounded by the verdict's deadline
        for k, y in enumerate(left):
            if same(x, y):
                del left[k]
                break
        else:
            return False
    return True


# ------------------------------------------------------------------------------------------ expressions


def _equal_expr(g: Expr, a: Expr, c: _Ctx) -> bool:
    if g.text == a.text:
        return True
    if g.tree is None or a.tree is None:
        if _malformed(g) or _malformed(a) or _every_reading_differs(g, a, c):
            return False
        return _symbolic_equal(g.text, a.text, c)
    tg, ta = g.tree, a.tree
    if is_indefinite(tg) or is_indefinite(ta):
        # an antiderivative is a family of functions (up to + C), never one value; two of them: the CAS
        return is_indefinite(tg) and is_indefinite(ta) and _symbolic_equal(g.text, a.text, c)
    if tg[0] == "num" and ta[0] == "num":
        return bool(tg[1] == ta[1])
    constant = not free_symbols(tg) and not free_symbols(ta)
    if constant:
        vg, va = _constant(tg), _constant(ta)
        if vg is _REFUSED or va is _REFUSED:  # an integral with no closed form: enclosures, else the CAS
            return not differ(tg, ta, {}) and _symbolic_equal(g.text, a.text, c)
        if vg is None or va is None:
            return False  # an undefined value equals nothing
        if vg is _HUGE or va is _HUGE:
            if vg is _HUGE and va is _HUGE:
                xg, xa = _exact_rational(tg), _exact_rational(ta)
                if xg is not None and xa is not None:  # exact arithmetic is a proof, either way
                    return xg == xa
                return _symbolic_equal(g.text, a.text, c)
            return False  # beyond 2^4096 (or below 2^-4096) against a number of ordinary size
        if not (ev.is_finite(vg) and ev.is_finite(va)):
            return vg == va
    # rel_tol only for a plain decimal written to rel_tol's precision against an irrational (1.41421356237 vs
    # sqrt(2)); a shorter decimal (9.20212 vs 19 sqrt(19)/9, within 1e-9 by chance) or one inside a larger
    # expression (0.3333333333 e^0) is compared exactly, so it never passes for the exact value
    tol = c.rel_tol if _long_decimal(tg, c.rel_tol) or _long_decimal(ta, c.rel_tol) else 0.0
    out = ev.sample_compare(tg, ta, tol, seed_text=f"{g.text}|{a.text}", deadline=c.deadline)
    if out == "equal":
        return True
    if out == "different":
        return False
    if out == "unknown" and (_undefined_part(tg) or _undefined_part(ta)):
        return False  # a part with no value (0^0, \frac{1}{0}) leaves the whole without one: it equals nothing
    if out == "agree":  # numerically equal, no proof yet: only the CAS's exact zero test can prove it
        if c.symbolic is None:
            return False
        try:
            verdict = _symbolic_call(g.text, a.text, c)
        except SymbolicUnavailable:
            return False
        if verdict is None:
            raise _Timeout  # no proof in time: never "equal" on numbers alone
        return verdict
    return _symbolic_equal(g.text, a.text, c)


def _malformed(x: Expr) -> bool:
    """Whether an expression the parser refused is no expression in any reading (``\\tan^{-1}`` alone)."""
    if x.tree is not None:
        return False
    try:
        parse_expr(x.text, double="left")
    except Malformed:
        return True
    except (Unsupported, RecursionError, ValueError):
        return False
    return False


def _every_reading_differs(g: Expr, a: Expr, c: _Ctx) -> bool:
    """Whether a side with a double superscript (``x^2^3``, invalid LaTeX) differs from the other side under
    both readings, ``(x^2)^3`` and ``x^{2^3}``: then it is wrong whichever was meant."""
    for x, other in ((g, a), (a, g)):
        if x.tree is None and other.tree is not None and "^" in x.text:
            try:
                readings = [parse_expr(x.text, double=side) for side in ("left", "right")]
            except DoubleSuperscript:
                return False
            except (Unsupported, RecursionError, ValueError):
                continue
            return all(is_indefinite(r) != is_indefinite(other.tree)
                       or ev.sample_compare(other.tree, r, 0.0, seed_text=f"{other.text}|{x.text}",
                                            deadline=c.deadline) == "different" for r in readings)
    return False


_HUGE = object()
_REFUSED = object()


def _constant(t: Node) -> ev.Value | object | None:
    """A constant's value, ``_HUGE`` when beyond the numeric budget, ``_REFUSED`` when the evaluator cannot
    vouch for one (an integral with no closed form), ``None`` when undefined."""
    try:
        return ev.constant_value(t)
    except ev.Undefined:
        return None
    except (ev.TooLarge, ev.Inexact):
        return _HUGE
    except ev.Refused:
        return _REFUSED


MAX_EXACT_BITS = 1 << 20  # exact rationals up to a million bits (2^65536 is 65,537): microseconds to build


def _exact_rational(t: Node) -> Fraction | None:
    """A constant built from rationals with +, -, *, / and integer powers, exactly, while every value stays
    within ``MAX_EXACT_BITS``; ``None`` for anything else (irrationals, functions, larger values)."""
    kind = t[0]
    if kind == "num":
        return t[1] if isinstance(t[1], Fraction) else None
    if kind == "neg":
        x = _exact_rational(t[1])
        return None if x is None else -x
    if kind in ("add", "sub", "mul", "div") and len(t) == 3:
        x, y = _exact_rational(t[1]), _exact_rational(t[2])
        if x is None or y is None or (kind == "div" and y == 0):
            return None
        out = x + y if kind == "add" else x - y if kind == "sub" else x * y if kind == "mul" else x / y
        return out if _bits(out) <= MAX_EXACT_BITS else None
    if kind == "pow" and len(t) == 3:
        base, exp = _exact_rational(t[1]), _exact_rational(t[2])
        if base is None or exp is None or exp.denominator != 1 or (base == 0 and exp < 0):
            return None
        if abs(exp) * max(1, _bits(base)) > MAX_EXACT_BITS:
            return None
        return base ** int(exp)
    return None


def _bits(x: Fraction) -> int:
    return max(x.numerator.bit_length(), x.denominator.bit_length())


@functools.lru_cache(maxsize=8192)
def _undefined_tree(tree: Node) -> bool:
    """Whether a parsed expression is a constant with no value (cached: a gold is judged many times)."""
    return not free_symbols(tree) and _constant(tree) is None


def _undefined_part(tree: Node) -> bool:
    """Whether a constant part of an expression has no value (``x + 0^0``, ``\\sum_{k=0}^{4} k^k``): then the
    expression has none anywhere. Bodies of sums and integrals are not parts (an empty range ignores them)."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if n[0] in ("num", "sym", "const"):
            continue
        if not free_symbols(n):
            if _undefined_tree(n):
                return True
            continue
        if n[0] in ("sum", "prod", "int"):
            stack.extend(x for x in n[2:4] if x is not None)
        else:
            stack.extend(x for x in n[1:] if isinstance(x, tuple))
    return False


def _undefined(x: object) -> bool:
    """Whether an answer holds a constant with no value (``\\frac{3}{0}``, ``0/0``), however deep."""
    if isinstance(x, Expr):
        return x.tree is not None and _undefined_tree(x.tree)
    if isinstance(x, tuple):
        return any(_undefined(v) for v in x)
    return hasattr(x, "__dataclass_fields__") and any(_undefined(getattr(x, f)) for f in x.__dataclass_fields__)


_UNDEFINED_SEEN: dict[int, tuple[Answer, bool]] = {}  # id(answer) -> (answer, _undefined(answer))
_UNDEFINED_SEEN_MAX = 4096


def _undefined_answer(x: Answer) -> bool:
    """`_undefined` of a whole answer, remembered by identity: golds and parsed answers are cached objects, so
    the same one comes back verdict after verdict, and hashing its trees (Fractions) costs more than a look-up.
    The entry holds the answer, so its id cannot be reused while the entry exists."""
    seen = _UNDEFINED_SEEN.get(id(x))
    if seen is not None and seen[0] is x:
        return seen[1]
    out = _undefined(x)
    if len(_UNDEFINED_SEEN) >= _UNDEFINED_SEEN_MAX:
        _UNDEFINED_SEEN.clear()
    _UNDEFINED_SEEN[id(x)] = (x, out)
    return out


def _long_decimal(t: Node, rel_tol: float) -> bool:
    """A plain decimal whose last digit's place is at most ``rel_tol`` of its value: a correctly rounded
    one is then within ``rel_tol`` of what it approximates, and a coarser one matching is a coincidence."""
    if t[0] == "neg":
        t = t[1]
    if t[0] != "num" or not t[2] or t[1] == 0:
        return False
    places = 0
    while 10**places % t[1].denominator:
        places += 1
    return bool(Fraction(1, 10**places) <= rel_tol * abs(t[1]))


def _symbolic_call(g: str, a: str, c: _Ctx) -> bool | None:
    """The CAS verdict, or ``None`` when it did not answer in time."""
    if c.symbolic is None or c.deadline <= time.monotonic():
        return None
    return c.symbolic(g, a, c.rel_tol, c.deadline)


_CAS_DROPS = re.compile(r"'(?![a-zA-Z]*\()")  # primes: latex2sympy drops (5)' and 1'8 silently


def _symbolic_equal(g: str, a: str, c: _Ctx) -> bool:
    if c.symbolic is None or _CAS_DROPS.search(g) or _CAS_DROPS.search(a):
        return False
    verdict = _symbolic_call(g, a, c)
    if verdict is None:
        raise _Timeout
    return verdict
