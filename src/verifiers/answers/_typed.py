"""The typed answer model: one normalized answer text parsed once into a small tree of kinds.

Kinds (frozen dataclasses):

- `Expr`: one expression (number, ``2\\sqrt{3}``, ``x^2+1``, ``\\infty``); ``tree`` is its
  `verifiers.answers._latex_expr` tree, or ``None`` when only the CAS can read it;
- `Seq`: an ordered bracketed list: tuple, vector, point, or interval (``(1,2]``); brackets are kept;
- `Coll`: an unordered collection: ``\\{1, 2\\}``, a bare list ``1, 2`` or ``1; 2``, ``a \\pm b`` expanded, several boxes;
- `Union`: intervals joined by ``\\cup``;
- `Rel`: a chain of inequalities (``-3 < y \\le 8``, ``x \\ne 2``);
- `Eq`: a chain of equalities (``y = 2x + 1``, ``(p, q) = (3, 2)``, ``x = 5 + 6 = 11``); `is_label` says whether its
  first side only names the value;
- `Matrix`, `Ratio` (``11:21``, ``4:30``), `Text` (words and names), `Empty` (the empty set).

`verifiers.equivalence._compare` compares two answers kind by kind. Parsing is linear in the text (bounded
splits).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from verifiers.answers._latex_expr import FUNCTIONS, GREEK, Node, Unsupported, free_symbols, parse_expr
from verifiers.answers._normalize import bracket_depths, is_text_answer, split_top, top_level
from verifiers.answers._numbers import parse_number

MAX_ITEMS = 64  # elements in one list/tuple/matrix


@dataclass(frozen=True, slots=True)
class Expr:
    """One expression; ``tree`` is ``None`` when the in-process parser cannot read it."""

    text: str
    tree: Node | None


@dataclass(frozen=True, slots=True)
class Seq:
    """An ordered bracketed list (tuple, vector, point, interval)."""

    open: str
    close: str
    items: tuple[Answer, ...]


@dataclass(frozen=True, slots=True)
class Coll:
    """An unordered collection of answers (a set of solutions); ``bare``: written without braces (``1, 2``)."""

    items: tuple[Answer, ...]
    bare: bool = False
    text: str = ""


@dataclass(frozen=True, slots=True)
class Union:
    """A union of intervals."""

    parts: tuple[Answer, ...]


@dataclass(frozen=True, slots=True)
class Rel:
    """An inequality chain: ``terms[0] ops[0] terms[1] ...`` with ops in ``< <= > >= !=``."""

    terms: tuple[Expr, ...]
    ops: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Eq:
    """An equality chain ``sides[0] = sides[1] = ...``; ``is_label``: ``sides[0]`` only names the value."""

    sides: tuple[Answer, ...]
    is_label: bool

    @property
    def value(self) -> Answer:
        """The value a labelled equation states (its last side)."""
        return self.sides[-1]


@dataclass(frozen=True, slots=True)
class Matrix:
    """Rows of cells; ``text`` is the source (for the CAS)."""

    rows: tuple[tuple[Answer, ...], ...]
    text: str = ""


@dataclass(frozen=True, slots=True)
class Ratio:
    """``a:b`` (ratios, clock times): ordered parts."""

    parts: tuple[Answer, ...]


@dataclass(frozen=True, slots=True)
class Text:
    """A word or name, compared case-insensitively."""

    text: str


@dataclass(frozen=True, slots=True)
class Empty:
    """The empty set."""


Answer = Expr | Seq | Coll | Union | Rel | Eq | Matrix | Ratio | Text | Empty

_REL_OPS = {"<": "<", ">": ">", "\\le": "<=", "\\ge": ">=", "\\ne": "!=", "\\lt": "<", "\\gt": ">",
            "\\leqslant": "<=", "\\geqslant": ">="}
_REL_AT = re.compile(r"\\(?:leqslant|geqslant|le|ge|ne|lt|gt)(?![a-zA-Z])|<|>|=")
_EMPTY = frozenset({"\\emptyset", "\\varnothing", "\\{\\}", "\\{ \\}", "\\O"})
_REALS = frozenset({"\\mathbb{R}", "\\mathbb R", "\\mathbf{R}", "\\R", "ℝ"})
_LABEL = re.compile(
    r"(?:[a-zA-Z]|\\(?:" + "|".join(sorted(GREEK)) + r"))(?:_\{?[\w,]+\}?)?(?:'+)?(?:\^\{?-1\}?)?"
    r"(?:\([a-zA-Z,\s]*\))?"  # x, x_1, \theta, f(x), f^{-1}(x)
    r"|[A-Z]{2,4}|\|[A-Za-z]{1,4}\||\\overline\{[A-Z]{2}\}|m\\angle[A-Z]{1,3}|\\angle[A-Z]{1,3}")
_LABEL_LIST = re.compile(r"\((?:\s*[a-zA-Z](?:_\{?\w+\}?)?\s*,)+\s*[a-zA-Z](?:_\{?\w+\}?)?\s*\)")
_SUBSCRIPT = re.compile(r"_\{[^{}]*\}|_\w")
_NAME_COMMANDS = sorted(GREEK | FUNCTIONS | {"frac", "cdot", "angle", "overline", "triangle", "sqrt", "vec", "hat",
                                              "bar", "mathbf", "mathrm"}, key=len, reverse=True)
_NAME_EXPR = re.compile(r"(?:[a-zA-Z+\-*/^(){}|:' ]|\\(?:" + "|".join(_NAME_COMMANDS) + r")(?![a-zA-Z]))+")
_BASE_NUMERAL = re.compile(r"-?([0-9A-Za-z]+)(?:\.([0-9A-Za-z]+))?_\{?(\d{1,2})\}?")
_SET_BUILDER = re.compile(r"[a-zA-Z](?:_\w)?\s*(?:\\in\s*\\mathbb\{?R\}?\s*)?(?:\\mid|\||:|\\vert)\s*")
_DECIMAL = re.compile(r"\d\.\d+(?![\d(]|\\)")  # a terminating decimal literal (not 0.\overline{3}, 0.(3))
_THOUSANDS = re.compile(r"^-?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$")


@functools.lru_cache(maxsize=65536)
def parse_answer(text: str) -> Answer | None:
    """The typed answer of one normalized answer text (``None`` for empty text)."""
    s = text.strip()
    if not s:
        return None
    return _parse(s, 0)


def _parse(s: str, depth: int) -> Answer:
    s = s.strip()
    if depth > 12:
        return Expr(s, None)
    if s in _EMPTY:
        return Empty()
    if s in _REALS:
        inf = _expr("\\infty")
        return Seq("(", ")", (_expr("-\\infty"), inf))
    m = matrix_rows(s)
    if m is not None:
        return Matrix(tuple(tuple(_parse(c, depth + 1) for c in row) for row in m), s)
    if "\\begin{" in s and "=" not in s and "," not in s:
        return Expr(s, None)  # matrix arithmetic (A + B, AB): only the CAS evaluates it
    if "\\approx" in s:
        return _approximation(s, depth)
    eq = _label_equation(s, depth)
    if eq is not None:
        return eq
    parts = split_top(s, "\\cup")
    if len(parts) > 1:
        return Union(tuple(_parse(p, depth + 1) for p in parts))
    if s.startswith("\\{") and s.endswith("\\}") and encloses(s):
        inner = s[2:-2].strip()
        builder = _SET_BUILDER.match(inner)
        if builder and _relation_ops(inner[builder.end():]):  # \{x \mid x < -3\}: the set the relation describes
            return _parse(inner[builder.end():], depth + 1)
        return Coll(_members(_items(inner), depth)) if inner else Empty()
    if s.startswith("{") and s.endswith("}") and encloses(s) and len(split_top(s[1:-1], ",")) > 1:
        # {1, 3} without backslashes is a LaTeX group: it renders as the bare list 1, 3
        return Coll(_members(_items(s[1:-1]), depth), bare=True, text=s[1:-1])
    br = outer_brackets(s)
    if br:
        items = split_top(s[1:-1], ",")
        if len(items) == 1 and ";" in s:
            items = split_top(s[1:-1], ";")  # (0;-2;6): a tuple written with semicolons
        if len(items) == 1 and (br == ("(", ")") or br == ("[", "]")):
            return _parse(items[0], depth + 1)  # grouping: (5), [x+1]
        return Seq(br[0], br[1], tuple(_parse(x, depth + 1) for x in items[:MAX_ITEMS + 1]))
    if not _THOUSANDS.match(s):
        items = _items(s)
        if len(items) > 1:
            return Coll(_members(items[:MAX_ITEMS + 1], depth), bare=True, text=s)
    if "\\pm" in s or "\\mp" in s:
        expanded = _expand_pm(s)
        if expanded is not None:
            return Coll(tuple(_parse(x, depth + 1) for x in expanded), bare=True)
    ops = _relation_ops(s)
    if ops:
        return _relation(s, ops, depth)
    colon = split_top(s, ":")
    if len(colon) > 1 and all(colon):
        return Ratio(tuple(_parse(x, depth + 1) for x in colon))
    if is_text_answer(s):
        return Text(s.lower())
    if "_" in s and _base_numeral(s):  # 2112_6, 4210_{7}: digits and base must both match
        return Text(s.replace("{", "").replace("}", "").lower())
    return _expr(s)


def _base_numeral(s: str) -> bool:
    """A numeral with its base as a subscript (``2112_6``, ``4210_{7}``, ``2A_{16}``): a base from 2 to 36 and every
    digit below it (``2y_1`` is a coefficient times a subscripted name, ``x_1`` a name)."""
    m = _BASE_NUMERAL.fullmatch(s)
    if m is None:
        return False
    base = int(m.group(3))
    digits = m.group(1) + (m.group(2) or "")
    return 2 <= base <= 36 and all(int(d, 36) < base for d in digits)


def _approximation(s: str, depth: int) -> Answer:
    """``\\frac13 \\approx 0.333``: the value before ``\\approx`` is the answer, the approximation a remark.

    Only that first value is compared, so writing a second value after ``\\approx`` can never earn credit
    (``5 \\approx 7`` states 5). ``x \\approx 11`` names its value like a label.
    """
    parts = split_top(s, "\\approx")
    if len(parts) == 2 and is_name(parts[0]):
        return _parse(parts[1], depth + 1)
    return _parse(parts[0], depth + 1)


def _members(items: list[str], depth: int) -> tuple[Answer, ...]:
    """The members of a set or list; an item that is itself ``a \\pm b`` adds both values."""
    out: list[Answer] = []
    for x in items:
        a = _parse(x, depth + 1)
        if isinstance(a, Coll) and a.bare and ("\\pm" in x or "\\mp" in x):
            out.extend(a.items)
        else:
            out.append(a)
    return tuple(out)


def _expr(s: str) -> Expr:
    value = parse_number(s, units=False)  # plain, repeating and mixed numbers, thousands separators
    if value is not None:
        return Expr(s, ("num", value, bool(_DECIMAL.search(s))))
    try:
        return Expr(s, parse_expr(s))
    except (Unsupported, RecursionError, ValueError):
        return Expr(s, None)


def _items(s: str) -> list[str]:
    """Items of a list separated by top-level ``,`` or ``;`` (``;`` wins when both appear)."""
    sep = ";" if split_top(s, ";") != [s] else ","
    return [x for x in split_top(s, sep) if x != ""]


def _label_equation(s: str, depth: int) -> Eq | None:
    """``x = ...``, ``(p, q) = ...``, ``f(x) = ...`` with one ``=`` at top level: the label and its value."""
    if "\\in" in s:
        parts = split_top(s, "\\in")
        if len(parts) == 2 and parts[1] and _LABEL.fullmatch(parts[0]):
            return Eq((_expr(parts[0]), _parse(parts[1], depth + 1)), True)
    if "=" not in s:
        return None
    parts = split_top(s, "=")
    if len(parts) != 2 or not parts[0] or not parts[1] or parts[0][-1:] in "<>!" or _relation_ops(parts[1]):
        return None
    lhs = parts[0].strip()
    if not is_label(lhs):
        return None
    rhs = _parse(parts[1], depth + 1)
    if not is_name(lhs) and not is_constant(rhs):
        return None  # x + y = 2z is an equation; x + y = 5 states the value of x + y
    return Eq((_expr(lhs), rhs), True)


def is_constant(x: Answer) -> bool:
    """Whether an answer has no variables (numbers, constant expressions and structures of them)."""
    if isinstance(x, Expr):
        return x.tree is not None and not free_symbols(x.tree)
    if isinstance(x, Seq | Coll):
        return all(is_constant(i) for i in x.items)
    if isinstance(x, Ratio):
        return all(is_constant(i) for i in x.parts)
    return False


def is_name(text: str) -> bool:
    """Whether ``text`` is a bare name (``x``, ``f(x)``, ``a_1``, ``(p, q)``, ``|AB|``): a label that says nothing."""
    return bool(_LABEL.fullmatch(text) or _LABEL_LIST.fullmatch(text) or _ratio_label(text))


def is_label(text: str) -> bool:
    """Whether ``text`` (left of ``=``) only names a value: ``x``, ``f(x)``, ``(p, q)``, ``|AB|``, ``\\frac{NO}{BO}``.

    Names are letters, commands, subscripts, brackets and operators without a digit outside subscripts, so
    ``x + y = 5`` states the value of ``x + y`` while ``2x - y + 1 = 0`` is an equation.
    """
    if is_name(text):
        return True
    return bool(text) and len(text) <= 40 and _NAME_EXPR.fullmatch(_SUBSCRIPT.sub("", text)) is not None


def _ratio_label(s: str) -> bool:
    parts = split_top(s, ":")
    return len(parts) > 1 and all(_LABEL.fullmatch(p.strip()) for p in parts)


def _relation_ops(s: str) -> list[tuple[int, int, str]]:
    """Top-level relation operators as (start, end, op)."""
    if not ("<" in s or ">" in s or "=" in s or "\\" in s):
        return []
    found: list[tuple[int, int, str]] = []
    end = 0  # the end of the last operator found: positions before it belong to it
    for i in top_level(s):
        if i < end or s[i] not in "<>=\\":
            continue
        m = _REL_AT.match(s, i)
        if m:
            tok, end = m.group(), m.end()
            if tok in ("<", ">") and s.startswith("=", end):
                end += 1
                found.append((i, end, "<=" if tok == "<" else ">="))
            else:
                found.append((i, end, "=" if tok == "=" else _REL_OPS[tok]))
    return found


def _relation(s: str, ops: list[tuple[int, int, str]], depth: int) -> Answer:
    terms, pos = [], 0
    for start, end, _ in ops:
        terms.append(s[pos:start].strip())
        pos = end
    terms.append(s[pos:].strip())
    kinds = [op for _, _, op in ops]
    if any(not t for t in terms):
        return Expr(s, None)
    if all(k == "=" for k in kinds):
        sides = tuple(_parse(t, depth + 1) for t in terms)
        return Eq(sides, is_name(terms[0]) or (is_label(terms[0]) and is_constant(sides[-1])))
    if "=" in kinds:
        return Expr(s, None)
    return Rel(tuple(_expr(t) for t in terms), tuple(kinds))


def _expand_pm(s: str) -> list[str] | None:
    """``a \\pm b`` -> [``a+b``, ``a-b``]; at most two signs; ``None`` if a sign is inside brackets only."""
    if s.count("\\pm") + s.count("\\mp") > 2:
        return None
    outs = [s]
    for _ in range(2):
        nxt = []
        for t in outs:
            m = re.search(r"\\(pm|mp)(?![a-zA-Z])", t)
            if m is None:
                nxt.append(t)
                continue
            first, second = ("+", "-") if m.group(1) == "pm" else ("-", "+")
            nxt += [t[:m.start()] + first + t[m.end():], t[:m.start()] + second + t[m.end():]]
        outs = nxt
    cleaned = [t.strip().removeprefix("+") for t in outs]
    return None if any(not t or t.endswith(("+", "-")) for t in cleaned) else cleaned


# ------------------------------------------------------------------------------------ text structure


def outer_brackets(s: str) -> tuple[str, str] | tuple[()]:
    """The bracket pair around the whole string (``(``/``[`` may close either way), or ``()``."""
    if len(s) < 2 or s[0] not in "([" or s[-1] not in ")]":
        return ()
    return (s[0], s[-1]) if encloses(s) else ()


def encloses(s: str) -> bool:
    """Whether the opening bracket at 0 (``s`` starts with one) is closed only at the very end."""
    return next((end == len(s) for _, end, depth in bracket_depths(s) if depth == 0), False)


_MATRIX_BEGIN = re.compile(r"^\\begin\{([a-zA-Z]*matrix|array)\}(?:\{[^{}]*\})?")


def matrix_rows(s: str) -> list[list[str]] | None:
    """Rows of cells of a matrix environment (``pmatrix``, ``bmatrix``, ``array``...), brackets around it allowed."""
    br = outer_brackets(s)
    if br and s[1:].lstrip().startswith("\\begin{"):
        s = s[1:-1].strip()
    m = _MATRIX_BEGIN.match(s)
    if m is None or s.count("\\begin{") != 1:
        return None
    tail = s.rfind("\\end{")
    if tail < m.end() or not s.endswith("}") or s[tail:] != f"\\end{{{m.group(1)}}}":
        return None
    body = s[m.end():tail]
    rows = [r for r in body.split("\\\\") if r.strip() and r.strip() != "\\hline"]
    if not rows or len(rows) > MAX_ITEMS:
        return None
    out = [[c.strip() for c in r.replace("\\hline", "").split("&")] for r in rows]
    if any(len(r) > MAX_ITEMS for r in out):
        return None
    return out
