"""Are two normalized MATH answers the same? Structure first, then exact arithmetic, then the CAS.

Order of checks (cheapest first; the first definitive one wins):

1. identical canonical strings;
2. structure: matrices (cell by cell), ``\\cup`` unions, intervals and tuples (ordered, bracket kinds must
   match, so ``(1,2]`` differs from ``[1,2]``), ``\\{...\\}`` sets and bare comma lists (unordered);
3. words and names compared as text (case-insensitive), never as products of symbols;
4. exact numbers (``verifiers._numbers``) and in-process arithmetic (``verifiers._arith``): rationals
   exactly, irrationals with a relative tolerance, so tiny values never collapse to equal;
5. only then sympy, in a worker process that is killed if it overruns the deadline.

Deliberately *not* equal (Qwen-style graders accept these): ``gold*100`` or ``gold/100`` for percents,
a number against an expression with a variable, different bracket kinds.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Literal

from verifiers import _arith
from verifiers._normalize import is_text_answer
from verifiers._numbers import parse_number

Verdict = Literal["equal", "different", "timeout"]
# A symbolic check: (gold, answer, rel_tol, seconds) -> True / False / None for timeout.
Symbolic = Callable[[str, str, float, float], "bool | None"]

MAX_ITEMS = 64  # elements in one list/tuple/matrix compared pairwise

_OPEN = {"(": ")", "[": "]", "{": "}"}


class _Timeout(Exception):
    pass


def compare(gold: str, answer: str, *, rel_tol: float, deadline: float, symbolic: Symbolic | None) -> Verdict:
    """Compare two normalized answers; ``deadline`` is a ``time.monotonic()`` instant for the CAS step."""
    try:
        return "equal" if _equal(gold, answer, rel_tol, deadline, symbolic) else "different"
    except _Timeout:
        return "timeout"
    except RecursionError:  # absurdly nested sets/lists; never equal to a real gold
        return "different"


def _equal(g: str, a: str, rel_tol: float, deadline: float, symbolic: Symbolic | None) -> bool:
    if g == a:
        return True
    if not g or not a:
        return False
    mg, ma = _matrix(g), _matrix(a)
    if mg is not None or ma is not None:
        if mg is None or ma is None or len(mg) != len(ma) or any(len(x) != len(y) for x, y in zip(mg, ma)):
            return False
        return all(_equal(x, y, rel_tol, deadline, symbolic) for rg, ra in zip(mg, ma) for x, y in zip(rg, ra))
    ug, ua = split_top(g, "\\cup"), split_top(a, "\\cup")
    if len(ug) > 1 or len(ua) > 1:
        return len(ug) == len(ua) and _match_unordered(ug, ua, rel_tol, deadline, symbolic)
    sg, sa = _brackets(g), _brackets(a)
    if sg or sa:
        return _equal_bracketed(g, a, sg, sa, rel_tol, deadline, symbolic)
    lg, la = split_top(g, ","), split_top(a, ",")
    if len(lg) > 1 or len(la) > 1:
        return len(lg) == len(la) and _match_unordered(lg, la, rel_tol, deadline, symbolic)
    return _scalar(g, a, rel_tol, deadline, symbolic)


def _equal_bracketed(g: str, a: str, sg: tuple[str, ...], sa: tuple[str, ...], rel_tol: float, deadline: float,
                     symbolic: Symbolic | None) -> bool:
    ig = split_top(g[len(sg[0]):-len(sg[1])], ",") if sg else split_top(g, ",")
    ia = split_top(a[len(sa[0]):-len(sa[1])], ",") if sa else split_top(a, ",")
    if len(ig) != len(ia) or len(ig) > MAX_ITEMS:
        return False
    if len(ig) == 1 and (not sg or not sa or sg == ("(", ")") or sa == ("(", ")")):
        # plain parentheses around one value are grouping, not a tuple: (5) == 5
        if (not sg or sg == ("(", ")")) and (not sa or sa == ("(", ")")):
            return _scalar(ig[0], ia[0], rel_tol, deadline, symbolic)
        return False
    if sg and sa and sg != sa:
        if {sg, sa} <= {("\\{", "\\}"), ("{", "}")}:
            return _match_unordered(ig, ia, rel_tol, deadline, symbolic)
        return False
    if (not sg or not sa) and (sg or sa) != ("(", ")"):
        return False  # a bare list against a tuple: only ordered pairs in parentheses accept it
    if (sg or sa) in (("\\{", "\\}"), ("{", "}")):
        return _match_unordered(ig, ia, rel_tol, deadline, symbolic)
    return all(_equal(x, y, rel_tol, deadline, symbolic) for x, y in zip(ig, ia))


def _match_unordered(g: list[str], a: list[str], rel_tol: float, deadline: float,
                     symbolic: Symbolic | None) -> bool:
    if len(g) != len(a) or len(g) > MAX_ITEMS:
        return False
    left = list(a)
    for x in g:
        for k, y in enumerate(left):
            if _equal(x, y, rel_tol, deadline, symbolic):
                del left[k]
                break
        else:
            return False
    return True


_LEAD_VAR = re.compile(r"^[a-zA-Z](?:_\{?\w+\}?)?=(?=[^=]+$)")


def _scalar(g: str, a: str, rel_tol: float, deadline: float, symbolic: Symbolic | None) -> bool:
    if g == a:
        return True
    g, a = _LEAD_VAR.sub("", g), _LEAD_VAR.sub("", a)  # list items such as "x=1" in "x=1,x=-2"
    if g == a:
        return True
    if is_text_answer(g) or is_text_answer(a):
        return g.lower() == a.lower()
    ng, na = parse_number(g, units=False), parse_number(a, units=False)
    if ng is not None and na is not None:
        return ng == na
    vg, sym_g = _evaluate(g if ng is None else str(ng))
    va, sym_a = _evaluate(a if na is None else str(na))
    if vg is not None and va is not None:
        return _arith.close(vg, va, rel_tol)
    if (vg is not None and sym_a) or (va is not None and sym_g):
        return False  # a number never equals an expression in a variable
    if symbolic is None:
        return False
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _Timeout
    verdict = symbolic(g, a, rel_tol, remaining)
    if verdict is None:
        raise _Timeout
    return verdict


def _evaluate(s: str) -> tuple[_arith.Value | None, bool]:
    """(value, has_symbols): the in-process arithmetic value, or why there is none."""
    try:
        return _arith.evaluate(s), False
    except _arith.HasSymbols:
        return None, True
    except (_arith.NotArithmetic, ArithmeticError, ValueError, RecursionError):
        return None, False


def split_top(s: str, sep: str) -> list[str]:
    """Split ``s`` on ``sep`` outside any brackets (``\\{`` ``\\}`` count as brackets)."""
    if sep not in s:
        return [s]
    parts, depth, start, i, n = [], 0, 0, 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n and s[i + 1] in "{}":
            depth += 1 if s[i + 1] == "{" else -1
            i += 2
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and s.startswith(sep, i):
            parts.append(s[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    parts.append(s[start:])
    return [p for p in (x.strip() for x in parts)]


def _brackets(s: str) -> tuple[str, str] | tuple[()]:
    """The outer bracket pair if one pair encloses the whole string (``(``/``[`` may close either way)."""
    if s.startswith("\\{") and s.endswith("\\}"):
        return ("\\{", "\\}") if _encloses(s) else ()
    if len(s) < 2 or s[0] not in "([" or s[-1] not in ")]":
        return ()
    return (s[0], s[-1]) if _encloses(s) else ()


def _encloses(s: str) -> bool:
    """Whether the opening bracket at 0 is closed only at the very end."""
    depth = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n and s[i + 1] in "{}":
            depth += 1 if s[i + 1] == "{" else -1
            i += 2
        else:
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            i += 1
        if depth == 0 and i < n:
            return False
    return depth == 0


def _matrix(s: str) -> list[list[str]] | None:
    """Rows of cells of a ``\\begin{pmatrix}...\\end{pmatrix}`` (any matrix kind), or ``None``."""
    if not s.startswith("\\begin{") or "matrix}" not in s[:20]:
        return None
    head = s.find("}") + 1
    tail = s.rfind("\\end{")
    if tail < head:
        return None
    body = s[head:tail]
    rows = [r for r in body.split("\\\\") if r.strip()]
    if len(rows) > MAX_ITEMS:
        return None
    return [[c.strip() for c in r.split("&")] for r in rows]
