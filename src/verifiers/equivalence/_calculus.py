"""Sums, products and integrals in closed form, where the closed form is a theorem.

`closed_form` rewrites the ``sum``/``prod``/``int`` nodes of an expression tree
(``verifiers.answers._latex_expr``) into ordinary trees, and leaves a node alone when no rule below applies
(the evaluator then computes it numerically at integer bounds, or refuses it, and the CAS decides):

- **Finite ranges.** A sum or product whose bounds are integer constants with at most ``MAX_EXPANDED`` terms
  is written out term by term (``\\sum_{k=1}^{3} k`` is ``1 + 2 + 3``).
- **Polynomial sums.** ``\\sum_{k=a}^{b} p(k)`` with ``p`` a polynomial in ``k`` (coefficients free of ``k``,
  degree at most ``MAX_DEGREE``) is ``\\sum_j c_j (F_j(b) - F_j(a-1))``, where ``F_j(m) = 1^j + ... + m^j`` is
  Faulhaber's polynomial (exact rational coefficients from the Bernoulli numbers), for every integer
  ``b >= a - 1``. A sum with ``b < a - 1`` has no value (the evaluator says so; ``b = a - 1`` is the empty
  sum, 0), so the closed form equals the sum wherever the sum has a value.
- **The binomial theorem.** ``\\sum_{k=0}^{n} c \\binom{n}{k} x^k y^{n-k}`` (``c``, ``x``, ``y`` free of ``k``; ``x``
  or ``y`` may be absent, i.e. 1) is ``c (x + y)^n``, for every natural ``n``.
- **Polynomial integrals.** ``\\int_a^b p(t)\\,dt`` with ``p`` a polynomial in ``t`` is
  ``\\sum_j c_j (b^{j+1} - a^{j+1}) / (j + 1)`` (the fundamental theorem of calculus), and a term ``c/t`` gives
  ``c \\ln(b/a)``, defined exactly where the integral is (``a`` and ``b`` of one sign).
- **Derivatives.** ``\\frac{d}{dx} f`` by the rules of differentiation (sums, products, quotients, powers,
  roots, ``\\sin \\cos \\tan \\exp \\ln`` and the inverse trigonometric functions, the chain rule, and
  ``\\frac{d}{dx}\\int_{a}^{g(x)} f(t)\\,dt = f(g(x)) g'(x)`` for an integrand free of ``x``); each rule holds
  wherever the function is differentiable. Anything else (``|x|``, ``\\lfloor x\\rfloor``, ``x!``) is left alone.
- An indefinite integral (``\\int x\\,dx``) is a family of functions, not a value: it is left as it is and
  never equals a value (`is_indefinite`).

Everything is exact tree rewriting; no number is sampled.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from verifiers.answers._latex_expr import Node, free_symbols, subtrees

MAX_EXPANDED = 64
MAX_DEGREE = 24
MAX_NODES = 4_000  # nodes of one coefficient tree; past it the rewrite is refused (left as it was)
BINDERS = frozenset({"sum", "prod", "int"})
OPERATORS = BINDERS | {"deriv"}

_ONE: Node = ("num", Fraction(1), False)
_ZERO: Node = ("num", Fraction(0), False)


class _Refused(Exception):
    pass


def has_binder(node: Node) -> bool:
    """Whether a sum, a product, an integral or a derivative appears."""
    return any(n[0] in OPERATORS for n in subtrees(node))


def is_indefinite(node: Node) -> bool:
    """Whether an indefinite integral appears (a family of antiderivatives, not one value)."""
    return any(n[0] == "int" and n[2] is None for n in subtrees(node))


def closed_form(node: Node) -> Node:
    """``node`` with every sum, product and integral that a rule above covers written in closed form."""
    if not has_binder(node):
        return node
    try:
        return _cached(node)
    except (RecursionError, _Refused, ZeroDivisionError, OverflowError):
        return node


@functools.lru_cache(maxsize=4096)
def _cached(node: Node) -> Node:
    return _rewrite(node)


def _rewrite(node: Node) -> Node:
    kind = node[0]
    if kind in ("num", "sym", "const"):
        return node
    if kind in BINDERS:
        var, low, high, body = node[1], node[2], node[3], node[4]
        low = None if low is None else _rewrite(low)
        high = None if high is None else _rewrite(high)
        body = _rewrite(body)
        out = _sum(var, low, high, body) if kind == "sum" else _prod(var, low, high, body) if kind == "prod" \
            else _integral(var, low, high, body)
        return out if out is not None else (kind, var, low, high, body)
    if kind == "deriv":
        body = _rewrite(node[2])
        try:
            return _fold(_derivative(body, node[1]))
        except _Refused:
            return ("deriv", node[1], body)
    return (kind, *(_rewrite(x) if isinstance(x, tuple) else x for x in node[1:]))


def _derivative(f: Node, x: str) -> Node:
    """``df/dx`` by the rules of differentiation; `_Refused` where no rule applies."""
    if x not in free_symbols(f):
        return _ZERO
    kind = f[0]
    if kind == "sym":
        return _ONE
    if kind in ("add", "sub"):
        return (kind, _derivative(f[1], x), _derivative(f[2], x))
    if kind == "neg":
        return ("neg", _derivative(f[1], x))
    if kind == "mul":
        return ("add", ("mul", _derivative(f[1], x), f[2]), ("mul", f[1], _derivative(f[2], x)))
    if kind == "div":
        u, v = f[1], f[2]
        return ("div", ("sub", ("mul", _derivative(u, x), v), ("mul", u, _derivative(v, x))), ("pow", v, _number(2)))
    if kind == "pow":
        base, e = f[1], f[2]
        if x not in free_symbols(e):  # (u^c)' = c u^(c-1) u'
            return ("mul", ("mul", e, ("pow", base, ("sub", e, _ONE))), _derivative(base, x))
        if base == ("const", "e"):  # (e^v)' = e^v v'
            return ("mul", f, _derivative(e, x))
        # (u^v)' = u^v (v' ln u + v u'/u), where u > 0
        return ("mul", f, ("add", ("mul", _derivative(e, x), ("fn", "ln", base)),
                           ("div", ("mul", e, _derivative(base, x)), base)))
    if kind == "root":  # (u^(1/n))' = u^(1/n) u' / (n u)
        if x in free_symbols(f[2]):
            raise _Refused("root index")
        return ("div", ("mul", f, _derivative(f[1], x)), ("mul", f[2], f[1]))
    if kind == "fn" and f[1] in _CHAIN:
        return ("mul", _CHAIN[f[1]](f[2]), _derivative(f[2], x))
    if kind == "log" and f[1] is not None:  # log_b u = ln u / ln b
        return _derivative(("div", ("fn", "ln", f[2]), ("fn", "ln", f[1])), x)
    if kind == "int" and f[2] is not None and f[3] is not None and x not in free_symbols(f[4]) \
            and f[1] != x:  # the fundamental theorem of calculus
        upper = ("mul", substitute(f[4], f[1], f[3]), _derivative(f[3], x))
        lower = ("mul", substitute(f[4], f[1], f[2]), _derivative(f[2], x))
        return ("sub", upper, lower)
    raise _Refused(kind)


def _one_over(g: Node) -> Node:
    return ("div", _ONE, g)


_TWO: Node = ("num", Fraction(2), False)
_CHAIN = {  # f'(u) for each function f
    "sin": lambda u: ("fn", "cos", u), "cos": lambda u: ("neg", ("fn", "sin", u)),
    "tan": lambda u: _one_over(("pow", ("fn", "cos", u), _TWO)), "exp": lambda u: ("fn", "exp", u),
    "ln": _one_over, "sinh": lambda u: ("fn", "cosh", u), "cosh": lambda u: ("fn", "sinh", u),
    "arctan": lambda u: _one_over(("add", _ONE, ("pow", u, _TWO))),
    "arcsin": lambda u: _one_over(("root", ("sub", _ONE, ("pow", u, _TWO)), _TWO)),
    "arccos": lambda u: ("neg", _one_over(("root", ("sub", _ONE, ("pow", u, _TWO)), _TWO))),
}


# ------------------------------------------------------------------------------------------ the rules


def _sum(k: str, low: Node | None, high: Node | None, body: Node) -> Node | None:
    if low is None or high is None:
        return None
    a, b = _integer(low), _integer(high)
    if a is not None and b is not None:
        if b < a - 1:
            return None  # no value: the evaluator says so
        if b - a + 1 <= MAX_EXPANDED:
            return _chain("add", [substitute(body, k, _number(j)) for j in range(a, b + 1)], _ZERO)
    coefficients = poly_in(body, k)
    if coefficients is None:
        return _binomial_theorem(k, low, high, body) if a == 0 else None
    before = ("sub", low, _ONE)
    terms = []
    for j, c in enumerate(coefficients):
        if c == _ZERO:
            continue
        f = faulhaber(j)
        terms.append(_mul(c, ("sub", _poly_tree(f, high), _poly_tree(f, before))))
    return _chain("add", terms, _ZERO)


def _binomial_theorem(k: str, low: Node, n: Node, body: Node) -> Node | None:
    """``sum_{k=0}^{n} c binom(n, k) x^k y^{n-k}`` as ``c (x + y)^n``; ``None`` when the body is not that."""
    factors = _factors(body)
    if factors is None:
        return None
    coefficient: list[Node] = []
    x: Node = _ONE
    y: Node = _ONE
    seen = 0
    for f in factors:
        if k not in free_symbols(f):
            coefficient.append(f)
        elif f == ("binom", n, ("sym", k)):
            seen += 1
        elif f[0] == "pow" and k not in free_symbols(f[1]) and f[2] == ("sym", k) and x == _ONE:
            x = f[1]
        elif f[0] == "pow" and k not in free_symbols(f[1]) and f[2] == ("sub", n, ("sym", k)) and y == _ONE:
            y = f[1]
        else:
            return None
    if seen != 1 or k in free_symbols(n):
        return None
    return _chain("mul", [*coefficient, ("pow", ("add", x, y), n)], _ONE)


def _factors(node: Node) -> list[Node] | None:
    """The factors of a product (``-f`` gives the factor -1, ``f / c`` the factor ``1/c``)."""
    if node[0] == "mul":
        left, right = _factors(node[1]), _factors(node[2])
        return None if left is None or right is None else left + right
    if node[0] == "neg":
        inner = _factors(node[1])
        return None if inner is None else [_number(-1), *inner]
    if node[0] == "div":
        inner = _factors(node[1])
        return None if inner is None else [*inner, ("div", _ONE, node[2])]
    return [node]


def _prod(k: str, low: Node | None, high: Node | None, body: Node) -> Node | None:
    if low is None or high is None:
        return None
    a, b = _integer(low), _integer(high)
    if a is None or b is None or not 0 <= b - a + 1 <= MAX_EXPANDED:
        return None
    return _chain("mul", [substitute(body, k, _number(j)) for j in range(a, b + 1)], _ONE)


def _integral(t: str, low: Node | None, high: Node | None, body: Node) -> Node | None:
    if low is None or high is None:
        return None
    laurent = laurent_in(body, t)
    if laurent is None or any(j < -1 for j in laurent):
        return None
    terms = []
    for j, c in sorted(laurent.items()):
        if j == -1:
            terms.append(_mul(c, ("fn", "ln", ("div", high, low))))
            continue
        e = _number(j + 1)
        terms.append(_mul(c, ("div", ("sub", ("pow", high, e), ("pow", low, e)), e)))
    return _chain("add", terms, _ZERO)


# ------------------------------------------------------------------------------- polynomials in a variable


def poly_in(node: Node, var: str) -> list[Node] | None:
    """Coefficient trees ``[c_0, c_1, ...]`` (free of ``var``) of ``node`` as a polynomial in ``var``, or
    ``None`` when it is not one (or is beyond ``MAX_DEGREE``)."""
    laurent = laurent_in(node, var)
    if laurent is None or any(j < 0 for j in laurent):
        return None
    top = max(laurent, default=0)
    return [laurent.get(j, _ZERO) for j in range(top + 1)]


def laurent_in(node: Node, var: str) -> dict[int, Node] | None:
    """``node`` as ``sum_j c_j var^j`` (``j`` may be negative: ``c/t``), coefficients free of ``var``."""
    try:
        return _laurent(node, var)
    except _Refused:
        return None


def _laurent(node: Node, var: str) -> dict[int, Node] | None:
    if var not in free_symbols(node):
        return {0: node}
    kind = node[0]
    if kind == "sym":
        return {1: _ONE}
    if kind in ("add", "sub"):
        p, q = _laurent(node[1], var), _laurent(node[2], var)
        if p is None or q is None:
            return None
        out = dict(p)
        for j, c in q.items():
            out[j] = _add(out[j], c, kind) if j in out else (c if kind == "add" else _neg(c))
        return out
    if kind == "neg":
        p = _laurent(node[1], var)
        return None if p is None else {j: _neg(c) for j, c in p.items()}
    if kind == "mul":
        p, q = _laurent(node[1], var), _laurent(node[2], var)
        return None if p is None or q is None else _times(p, q)
    if kind == "div":
        p, q = _laurent(node[1], var), _laurent(node[2], var)
        if p is None or q is None or len(q) != 1:
            return None  # only division by one term c var^m
        (m, c), = q.items()
        return {j - m: ("div", v, c) for j, v in p.items()}
    if kind == "pow":
        n = _integer(node[2])
        p = _laurent(node[1], var)
        if n is None or p is None or not 0 <= n <= MAX_DEGREE:
            return None
        power: dict[int, Node] = {0: _ONE}
        for _ in range(n):
            power = _times(power, p)
        return power
    return None


def _times(p: dict[int, Node], q: dict[int, Node]) -> dict[int, Node]:
    out: dict[int, Node] = {}
    for i, a in p.items():
        for j, b in q.items():
            if abs(i + j) > MAX_DEGREE:
                raise _Refused("degree")
            term = _mul(a, b)
            out[i + j] = _add(out[i + j], term, "add") if i + j in out else term
    return out


@functools.lru_cache(maxsize=64)
def faulhaber(j: int) -> tuple[Fraction, ...]:
    """Coefficients ``(f_0, f_1, ..., f_{j+1})`` of ``F_j(m) = 1^j + 2^j + ... + m^j`` as a polynomial in ``m``."""
    b = _bernoulli(j)  # B_i with B_1 = +1/2
    out = [Fraction(0)] * (j + 2)
    for i in range(j + 1):
        out[j + 1 - i] = Fraction(_comb(j + 1, i)) * b[i] / (j + 1)
    return tuple(out)


def _bernoulli(n: int) -> list[Fraction]:
    b = [Fraction(1)]
    for m in range(1, n + 1):
        b.append(-sum((Fraction(_comb(m + 1, k)) * b[k] for k in range(m)), Fraction(0)) / (m + 1))
    if n >= 1:
        b[1] = Fraction(1, 2)
    return b


def _comb(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


# ------------------------------------------------------------------------------------------ tree helpers


def substitute(node: Node, var: str, value: Node) -> Node:
    """``node`` with the free occurrences of ``var`` replaced by ``value``."""
    kind = node[0]
    if kind == "sym":
        return value if node[1] == var else node
    if kind in ("num", "const"):
        return node
    if kind == "deriv":
        if var in free_symbols(node):
            raise _Refused("a value for a derivative's variable")  # d/dx f at x = 2 is not d/d2 f(2)
        return node
    if kind in BINDERS:
        low = None if node[2] is None else substitute(node[2], var, value)
        high = None if node[3] is None else substitute(node[3], var, value)
        body = node[4] if node[1] == var else substitute(node[4], var, value)  # an inner binder of var shadows it
        return (kind, node[1], low, high, body)
    return (kind, *(substitute(x, var, value) if isinstance(x, tuple) else x for x in node[1:]))


def _integer(node: Node) -> int | None:
    """The value of a small constant integer tree (``3``, ``n-1`` is not one), else ``None``."""
    v = _rational(node)
    return int(v) if v is not None and v.denominator == 1 and abs(v) < 10**9 else None


def _rational(node: Node) -> Fraction | None:
    kind = node[0]
    if kind == "num":
        return node[1]  # type: ignore[no-any-return]
    if kind == "neg":
        v = _rational(node[1])
        return None if v is None else -v
    if kind in ("add", "sub", "mul", "div"):
        a, b = _rational(node[1]), _rational(node[2])
        if a is None or b is None or (kind == "div" and b == 0):
            return None
        return a + b if kind == "add" else a - b if kind == "sub" else a * b if kind == "mul" else a / b
    if kind == "pow":
        a, e = _rational(node[1]), _rational(node[2])
        if a is None or e is None or e.denominator != 1 or abs(e) > 64 or (a == 0 and e < 0):
            return None
        if max(a.numerator.bit_length(), a.denominator.bit_length()) * abs(e) > 4096:
            return None  # bounds and exponents of ordinary size only
        return a ** int(e)
    return None


def _number(v: int | Fraction) -> Node:
    return ("num", Fraction(v), False)


def _size(node: Node) -> int:
    return sum(1 for _ in subtrees(node))


def _fold(node: Node) -> Node:
    v = _rational(node)
    if v is not None:
        return _number(v)
    if _size(node) > MAX_NODES:
        raise _Refused("tree too large")
    return node


def _mul(a: Node, b: Node) -> Node:
    if a == _ONE:
        return b
    if b == _ONE:
        return a
    if a == _ZERO or b == _ZERO:
        return _ZERO
    return _fold(("mul", a, b))


def _add(a: Node, b: Node, kind: str) -> Node:
    if b == _ZERO:
        return a
    if a == _ZERO:
        return b if kind == "add" else _neg(b)
    return _fold((kind, a, b))


def _neg(a: Node) -> Node:
    return _fold(("neg", a))


def _chain(kind: str, terms: list[Node], empty: Node) -> Node:
    out = terms[0] if terms else empty
    for t in terms[1:]:
        out = (kind, out, t)
    return out


def _poly_tree(coefficients: tuple[Fraction, ...], at: Node) -> Node:
    """``sum_i c_i at^i`` as a tree."""
    terms = [_mul(_number(c), at if i == 1 else ("pow", at, _number(i)) if i else _ONE)
             for i, c in enumerate(coefficients) if c]
    return _chain("add", terms, _ZERO)
