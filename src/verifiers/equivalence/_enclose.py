"""Rigorous enclosures of values, to prove two expressions *different* where no closed form exists.

`enclose` computes an interval certain to contain the value of an expression tree
(``verifiers.answers._latex_expr``) at a rational point, with mpmath's interval context (outward rounding at
``PRECISION_BITS``). An integral with no closed form (``\\int_0^{\\pi} \\sin t\\,dt``) is enclosed by splitting its
range into ``PIECES`` pieces: on each piece the integral lies in (width) x (an enclosure of the integrand over
the whole piece), which holds for every integrand bounded there (the mean-value bound). Two values whose
enclosures do not meet are different: that is a proof. Meeting enclosures prove nothing (`differ` is then
``False`` and the CAS decides); this module never shows two values equal.

Only operations whose interval versions are sound here are enclosed: ``+ - * /`` (a divisor whose enclosure
holds 0 is refused), integer powers, powers and roots of positive values, ``\\sin``, ``\\cos``, ``\\exp``,
``\\ln``, ``\\arctan``/``\\arcsin``/``\\arccos`` (monotone: their end points computed 40 bits finer, widened by
``2^{8 - PRECISION_BITS}`` relative), ``\\Gamma`` where it is monotone (likewise), ``|x|``, factorials of exact
naturals, binomials with a natural lower argument, sums and products at integer bounds; ``\\tan \\cot \\sec \\csc``
as quotients of ``\\sin`` and ``\\cos`` (a divisor that may be 0 is refused), ``\\sinh \\cosh \\tanh`` from ``\\exp``.
Anything else raises `NoEnclosure`.
"""

from __future__ import annotations

import math as _m
from fractions import Fraction
from typing import Any

import mpmath
from mpmath.ctx_iv import MPIntervalContext

from verifiers.answers._latex_expr import Node
from verifiers.equivalence._calculus import closed_form

PRECISION_BITS = 128
PIECES = 64
MAX_WORK = 40_000  # node evaluations for one enclosure (nested integrals multiply)
MAX_TERMS = 2_000
MAX_EXP_ARG = 10_000


class NoEnclosure(Exception):
    """No sound enclosure (an operation outside the list, a divisor that may be 0, a budget spent)."""


def _context() -> Any:
    iv = MPIntervalContext()
    iv.prec = PRECISION_BITS
    return iv


def differ(g: Node, a: Node, env: dict[str, Fraction]) -> bool:
    """Whether ``g`` and ``a`` at the point ``env`` have disjoint enclosures (so are certainly different)."""
    try:
        iv = _context()
        work = [0]
        x = _enclose(iv, closed_form(g), _point(iv, env), work)
        y = _enclose(iv, closed_form(a), _point(iv, env), work)
    except (NoEnclosure, ZeroDivisionError, ValueError, ArithmeticError, RecursionError, OverflowError):
        return False
    return bool(x.b < y.a or y.b < x.a)


def enclose(node: Node, env: dict[str, Fraction]) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Lower and upper bounds of the value of ``node`` at ``env``.

    Raises:
        NoEnclosure: no sound enclosure (see the module docstring).
    """
    iv = _context()
    try:
        x = _enclose(iv, closed_form(node), _point(iv, env), [0])
    except (ZeroDivisionError, ValueError, ArithmeticError, RecursionError, OverflowError) as err:
        raise NoEnclosure(str(err)) from None
    return mpmath.mpf(x.a), mpmath.mpf(x.b)


def _point(iv: Any, env: dict[str, Fraction]) -> dict[str, Any]:
    return {k: _rational(iv, v) for k, v in env.items()}


def _rational(iv: Any, v: Fraction) -> Any:
    return iv.mpf(v.numerator) / iv.mpf(v.denominator)


def _exact_integer(x: Any) -> int | None:
    """The integer an enclosure pins down exactly (a point interval on an integer), else ``None``."""
    if x.a != x.b:
        return None
    v = mpmath.mpf(x.a)
    return int(v) if mpmath.isfinite(v) and v == int(v) else None


def _enclose(iv: Any, node: Node, env: dict[str, Any], work: list[int]) -> Any:
    work[0] += 1
    if work[0] > MAX_WORK:
        raise NoEnclosure("work budget")
    kind = node[0]
    if kind == "num":
        return _rational(iv, node[1])
    if kind == "sym":
        if node[1] not in env:
            raise NoEnclosure(f"no value for {node[1]}")
        return env[node[1]]
    if kind == "const":
        if node[1] == "pi":
            return iv.pi
        if node[1] == "e":
            return iv.e
        raise NoEnclosure(node[1])
    if kind == "neg":
        return -_enclose(iv, node[1], env, work)
    if kind in ("add", "sub", "mul", "div"):
        x, y = _enclose(iv, node[1], env, work), _enclose(iv, node[2], env, work)
        if kind == "add":
            return x + y
        if kind == "sub":
            return x - y
        if kind == "mul":
            return x * y
        if y.a <= 0 <= y.b:
            raise NoEnclosure("a divisor that may be 0")
        return x / y
    if kind == "pow":
        return _power(iv, _enclose(iv, node[1], env, work), _enclose(iv, node[2], env, work))
    if kind == "root":
        x, n = _enclose(iv, node[1], env, work), _exact_integer(_enclose(iv, node[2], env, work))
        if n is None or not 2 <= n <= 64:
            raise NoEnclosure("root index")
        if x.a > 0:
            return iv.exp(iv.log(x) / n)
        if x.b < 0 and n % 2:
            return -iv.exp(iv.log(-x) / n)
        raise NoEnclosure("a root of a value that may be 0 or negative")
    if kind == "fn":
        return _function(iv, node[1], _enclose(iv, node[2], env, work))
    if kind == "log":
        if node[1] is None:
            raise NoEnclosure("log without a base")
        base, x = _enclose(iv, node[1], env, work), _enclose(iv, node[2], env, work)
        return _function(iv, "ln", x) / _nonzero(_function(iv, "ln", base))
    if kind == "fact":
        n = _exact_integer(_enclose(iv, node[1], env, work))
        if n is None or not 0 <= n <= 1_000:
            raise NoEnclosure("factorial of a non-natural (or large) value")
        return iv.mpf(_m.factorial(n))
    if kind == "binom":
        upper = _enclose(iv, node[1], env, work)
        n, k = _exact_integer(upper), _exact_integer(_enclose(iv, node[2], env, work))
        if k is None or k > 64 and (n is None or not 0 <= n <= 10_000):
            raise NoEnclosure("binomial of non-naturals, or large")
        if k < 0:
            return iv.mpf(0)
        if n is not None and 0 <= n <= 10_000:
            return iv.mpf(_m.comb(n, k))
        out = iv.mpf(1)  # the general binomial n (n-1) ... (n-k+1) / k!
        for j in range(k):
            out = out * (upper - j) / (j + 1)
        return out
    if kind in ("sum", "prod"):
        return _series(iv, node, env, work)
    if kind == "int":
        return _integral(iv, node, env, work)
    raise NoEnclosure(kind)


def _nonzero(x: Any) -> Any:
    if x.a <= 0 <= x.b:
        raise NoEnclosure("a divisor that may be 0")
    return x


def _power(iv: Any, base: Any, e: Any) -> Any:
    n = _exact_integer(e)
    if n is not None and abs(n) <= 64:
        if n < 0:
            return 1 / (_nonzero(base) ** -n)
        return base**n
    if base.a > 0:
        exponent = e * iv.log(base)
        if exponent.b > MAX_EXP_ARG:
            raise NoEnclosure("power too large")
        return iv.exp(exponent)
    raise NoEnclosure("a non-integer power of a value that may be 0 or negative")


def _monotone(iv: Any, fn: Any, x: Any, increasing: bool) -> Any:
    """``fn`` over ``x`` from its end points, computed 40 bits finer and widened by 2^-(PRECISION_BITS - 8)."""
    ctx = mpmath.MPContext()
    ctx.prec = PRECISION_BITS + 40
    lo, hi = fn(ctx, ctx.mpf(x.a)), fn(ctx, ctx.mpf(x.b))
    if not increasing:
        lo, hi = hi, lo
    slack = ctx.mpf(2) ** -(PRECISION_BITS - 8) * (1 + max(abs(lo), abs(hi)))
    return iv.mpf([lo - slack, hi + slack])


def _function(iv: Any, name: str, x: Any) -> Any:
    if name == "sin":
        return iv.sin(x)
    if name == "cos":
        return iv.cos(x)
    if name == "exp":
        if x.b > MAX_EXP_ARG:
            raise NoEnclosure("exp too large")
        return iv.exp(x)
    if name in ("ln", "log"):
        if not x.a > 0:
            raise NoEnclosure("a logarithm of a value that may be 0 or negative")
        return iv.log(x)
    if name == "abs":
        if x.a >= 0:
            return x
        if x.b <= 0:
            return -x
        return iv.mpf([0, max(-x.a, x.b)])
    if name in ("tan", "cot", "sec", "csc"):
        sin, cos = iv.sin(x), iv.cos(x)
        top, bottom = {"tan": (sin, cos), "cot": (cos, sin), "sec": (iv.mpf(1), cos), "csc": (iv.mpf(1), sin)}[name]
        return top / _nonzero(bottom)
    if name in ("sinh", "cosh", "tanh"):
        if abs(x.a) > MAX_EXP_ARG or abs(x.b) > MAX_EXP_ARG:
            raise NoEnclosure(f"{name} too large")
        up, down = iv.exp(x), iv.exp(-x)
        return (up - down) / 2 if name == "sinh" else (up + down) / 2 if name == "cosh" else (up - down) / (up + down)
    if name == "gamma":  # monotone on [1.5, oo) (increasing) and on (0, 1.4] (decreasing)
        if x.b > 1_000 or not (x.a >= 1.5 or (x.a > 0 and x.b <= 1.4)):
            raise NoEnclosure("gamma where it is not monotone, or large")
        return _monotone(iv, lambda c, v: c.gamma(v), x, x.a >= 1.5)
    if name == "arctan":
        return _monotone(iv, lambda c, v: c.atan(v), x, True)
    if name in ("arcsin", "arccos"):
        if not (x.a >= -1 and x.b <= 1):
            raise NoEnclosure(f"{name} outside [-1, 1]")
        fn = (lambda c, v: c.asin(v)) if name == "arcsin" else (lambda c, v: c.acos(v))
        return _monotone(iv, fn, x, name == "arcsin")
    raise NoEnclosure(f"function {name}")


def _series(iv: Any, node: Node, env: dict[str, Any], work: list[int]) -> Any:
    kind, var, low, high, body = node
    a = _exact_integer(_enclose(iv, low, env, work))
    b = _exact_integer(_enclose(iv, high, env, work))
    if a is None or b is None or b - a + 1 > MAX_TERMS:
        raise NoEnclosure("bounds")
    if b < a - 1:
        raise NoEnclosure("a sum or product over a reversed range has no value")
    out = iv.mpf(int(kind == "prod"))
    inner = dict(env)
    for j in range(a, b + 1):
        inner[var] = iv.mpf(j)
        term = _enclose(iv, body, inner, work)
        out = out * term if kind == "prod" else out + term
    return out


def _integral(iv: Any, node: Node, env: dict[str, Any], work: list[int]) -> Any:
    """``\\int_{low}^{high} body\\,dvar``: the main part from the lower ends of both bounds' enclosures, in
    ``PIECES`` pieces, plus the two tails over the bounds' own widths (each within width x the integrand's
    enclosure over it)."""
    _, var, low, high, body = node
    if low is None or high is None:
        raise NoEnclosure("an indefinite integral has no value")
    lo, hi = _enclose(iv, low, env, work), _enclose(iv, high, env, work)
    a0, b0 = iv.mpf(lo.a), iv.mpf(hi.a)  # exact points
    inner = dict(env)

    def over(x: Any) -> Any:
        inner[var] = x
        return _enclose(iv, body, inner, work)

    total = iv.mpf(0)
    step = (b0 - a0) / PIECES
    for i in range(PIECES):
        left, right = a0 + step * i, a0 + step * (i + 1)
        piece = iv.mpf([min(left.a, right.a), max(left.b, right.b)])
        total += (right - left) * over(piece)
    for end, sign in ((hi, 1), (lo, -1)):
        if end.a != end.b:  # int_{a0}^{a} for a in [lo.a, lo.b], and the same at the top
            total += sign * iv.mpf([0, end.b - end.a]) * over(end)
    return total
