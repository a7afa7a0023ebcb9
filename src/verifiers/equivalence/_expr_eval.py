"""Values of expression trees (``verifiers.answers._latex_expr``), exactly or to ~75 digits, and comparison by
sampling.

Two expressions are compared by evaluating both at the same random points (Schwartz–Zippel):

- **Exact mode.** When both trees are rational functions of their variables (``+ - * /``, integer powers,
  perfect roots), they are evaluated with `fractions.Fraction` at random rational points. A difference at
  any point proves them different; agreement at ``POINTS`` points is accepted as equality: a non-zero rational
  function whose numerator has degree ``d`` vanishes at a point drawn uniformly from ``S^n`` with probability at
  most ``d/|S|`` (Schwartz–Zippel), here ``|S| > 10^6`` and ``d`` is bounded by the token budget, so a false
  "equal" has probability below ``(d/10^6)^POINTS`` (< 1e-20 for ``d <= 100``).
- **Approximate mode.** Otherwise (``\\pi``, ``e``, ``i``, radicals, trigonometric and logarithmic functions) at
  ``PRECISION_BITS`` bits with mpmath in a private context. A relative difference above ``DIFFERENT_REL`` at a
  point proves them different; agreement below ``AGREE_REL`` at every point is "agree"; anything in between, a
  value beyond ``MAX_MAGNITUDE``, or too few points inside both domains is "unknown" and goes to the CAS.

Domain errors (division by zero, logarithms of non-positive numbers, even roots of negatives) reject the point and
another is drawn; they never decide. Constant expressions take a single evaluation. An undefined constant
(``\\frac{3}{0}``, ``0^0``) is `Undefined`: it equals nothing.
"""

from __future__ import annotations

import contextlib
import math as _m
import random
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Literal

import mpmath

from verifiers.answers._latex_expr import Node, free_symbols, subtrees
from verifiers.equivalence._calculus import closed_form
from verifiers.equivalence._enclose import differ
from verifiers.equivalence._proof import proves_equal

POINTS = 5
MAX_ATTEMPTS = 40
PRECISION_BITS = 256
AGREE_REL = mpmath.mpf(2) ** -190  # ~1e-57
DIFFERENT_REL = mpmath.mpf(10) ** -12
MAX_MAGNITUDE_BITS = 4096  # |values| beyond 2^4096 (or below its inverse) are too large to judge numerically
MAX_EXACT_BITS = 70_000  # exact values stop here (2^{65536} is exact; sums of huge fractions are not)
MAX_FACTORIAL = 2_000
MAX_EXACT_WORK_BITS = 4_000_000  # bits of exact intermediate values one comparison may produce
MAX_SUM_TERMS = 2_000  # terms of a sum or product computed one by one (at integer bounds)
MAX_GAMMA = 10**5
MAX_ENCLOSED_POINTS = 6  # points where an integral without a closed form is enclosed before the CAS decides

_CTX = mpmath.MPContext()
_CTX.prec = PRECISION_BITS
_LOCAL = threading.local()  # a higher-precision context for one re-check, per thread (contexts are not shared)
MAX_EXTRA_BITS = 4_096
ESCALATION_BITS = (0, 512, 1_536, 3_584)  # extra bits tried in turn to show a tiny difference
POS_INF = _CTX.inf
NEG_INF = _CTX.ninf

Value = Fraction | Any  # Fraction, or an mpf/mpc of _CTX
Outcome = Literal["equal", "different", "agree", "unknown"]


class Undefined(ArithmeticError):
    """The expression has no value here (division by zero, log of a non-positive number, ...)."""


class Inexact(Exception):
    """The value is not a rational number (or is too large to compute exactly)."""


class TooLarge(Exception):
    """A value is beyond the numeric budget: no verdict from numbers."""


class Refused(Exception):
    """No value this evaluator can vouch for (an integral without a closed form): the CAS decides."""


def is_rational_tree(node: Node) -> bool:
    """Whether ``node`` uses only rational operations (so exact evaluation may succeed at every point)."""
    for n in subtrees(node):
        if n[0] in ("const", "fn", "log", "root"):
            return False
        if n[0] == "pow" and n[2][0] != "num" and not (n[2][0] == "neg" and n[2][1][0] == "num"):
            return False
    return True


def has_imaginary(node: Node) -> bool:
    """Whether the imaginary unit ``i`` appears."""
    return any(n == ("const", "i") for n in subtrees(node))


# ------------------------------------------------------------------------------------------------ exact


def exact(node: Node, env: dict[str, Any]) -> Fraction:
    """The exact rational value of ``node`` with variables from ``env`` (``Fraction`` values).

    Raises:
        Undefined: no value here. Inexact: irrational, or beyond the exact budget.
    """
    v = _exact(node, env)
    bits = v.numerator.bit_length() + v.denominator.bit_length()
    if bits > 2 * MAX_EXACT_BITS:
        raise Inexact("value too large to keep exact")  # sums of huge fractions grow without bound
    spent = getattr(_LOCAL, "exact_bits", 0) + bits
    _LOCAL.exact_bits = spent
    if spent > MAX_EXACT_WORK_BITS:
        raise Inexact("exact arithmetic budget spent")  # many huge terms: approximate instead
    return v


def _exact(node: Node, env: dict[str, Any]) -> Fraction:
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "sym":
        v = env.get(node[1])
        if v is None:
            raise Inexact(node[1])
        return v
    if kind == "add":
        return exact(node[1], env) + exact(node[2], env)
    if kind == "sub":
        return exact(node[1], env) - exact(node[2], env)
    if kind == "mul":
        return exact(node[1], env) * exact(node[2], env)
    if kind == "div":
        num, den = exact(node[1], env), exact(node[2], env)
        if den == 0:
            raise Undefined("division by zero")
        return num / den
    if kind == "neg":
        return -exact(node[1], env)
    if kind == "pow":
        return _exact_pow(exact(node[1], env), exact(node[2], env))
    if kind == "root":
        return _exact_root(exact(node[1], env), exact(node[2], env))
    if kind == "fact":
        n = exact(node[1], env)
        if n.denominator != 1 or n < 0:
            raise Undefined("factorial of a non-natural number")
        if n > MAX_FACTORIAL:
            raise Inexact("factorial too large")
        return Fraction(_m.factorial(int(n)))
    if kind == "binom":
        n, k = exact(node[1], env), exact(node[2], env)
        if n.denominator != 1 or k.denominator != 1 or n < 0 or n > MAX_FACTORIAL:
            raise Inexact("binomial of non-naturals, or too large to compute exactly")
        return Fraction(_m.comb(int(n), int(k))) if k >= 0 else Fraction(0)
    if kind == "fn" and node[1] in ("abs", "floor", "ceil"):
        v = exact(node[2], env)
        return abs(v) if node[1] == "abs" else Fraction(_m.floor(v) if node[1] == "floor" else _m.ceil(v))
    if kind == "fn" and node[1] == "gamma":
        v = exact(node[2], env)
        if v.denominator != 1:
            raise Inexact("gamma of a non-integer")
        if v <= 0:
            raise Undefined("gamma at a pole")
        if v > MAX_FACTORIAL:
            raise Inexact("gamma too large")
        return Fraction(_m.factorial(int(v) - 1))
    if kind in ("sum", "prod"):
        return _series(node, env, lambda n, e: exact(n, e), Fraction(int(kind == "prod")), lambda j: Fraction(j),
                       Inexact)
    if kind in ("int", "deriv"):
        closed = closed_form(node)
        if closed[0] == kind:
            raise Inexact("an integral or a derivative without a closed form")
        return exact(closed, env)
    raise Inexact(kind)


def _series(node: Node, env: dict[str, Any], value: Callable[[Node, dict[str, Any]], Any], start: Any,
            number: Callable[[int], Any], too_many: type[Exception]) -> Any:
    """A sum or product at integer bounds, term by term; with the upper bound below the lower one minus one it
    has no value (``b = a - 1`` is the empty sum or product), as in `verifiers.equivalence._calculus`. More than
    ``MAX_SUM_TERMS`` terms raise ``too_many`` (the value is unknown here, not large)."""
    kind, var, low, high, body = node
    a, b = _integer_value(value(low, env)), _integer_value(value(high, env))
    if b < a - 1:
        raise Undefined("a sum or product over a reversed range")
    if b - a + 1 > MAX_SUM_TERMS:
        raise too_many("too many terms")
    out = start
    inner = dict(env)
    for j in range(a, b + 1):
        inner[var] = number(j)
        term = value(body, inner)
        out = out * term if kind == "prod" else out + term
    return out


def _integer_value(v: Any) -> int:
    """A bound of a sum or product as an integer, or `Undefined` (a sum to n = 2.5 has no value)."""
    if isinstance(v, Fraction):
        if v.denominator != 1:
            raise Undefined("a non-integer bound")
        return int(v)
    if not _is_integer(v):
        raise Undefined("a non-integer bound")
    return int(_ctx().re(v))


def _exact_pow(base: Fraction, e: Fraction) -> Fraction:
    if e.denominator != 1:
        root = _rational_root(base, e.denominator)
        if root is None:
            raise Inexact("irrational power")
        base, e = root, Fraction(e.numerator)
    n = e.numerator
    if base == 0:
        if n <= 0:
            raise Undefined("zero to a non-positive power")
        return Fraction(0)
    bits = max(abs(base.numerator).bit_length(), base.denominator.bit_length())
    if bits * abs(n) > MAX_EXACT_BITS:
        raise Inexact("power too large to evaluate exactly")
    return base**n


def _exact_root(radicand: Fraction, index: Fraction) -> Fraction:
    if index.denominator != 1 or not 2 <= index <= 64:
        raise Inexact("root index")
    n = int(index)
    if radicand < 0 and n % 2 == 0:
        raise Undefined("even root of a negative number")
    r = _rational_root(abs(radicand), n)
    if r is None:
        raise Inexact("irrational root")
    return -r if radicand < 0 else r


def _rational_root(value: Fraction, n: int) -> Fraction | None:
    """The exact non-negative ``n``-th root of ``value``, or ``None`` (also for negatives and huge values)."""
    if value < 0 or n > 64:
        return None
    num, den = _int_root(value.numerator, n), _int_root(value.denominator, n)
    return None if num is None or den is None else Fraction(num, den)


def _int_root(x: int, n: int) -> int | None:
    if x < 2:
        return x
    if x.bit_length() > 8192:
        return None
    r = 1 << ((x.bit_length() + n - 1) // n)  # Newton from above
    while True:
        s = ((n - 1) * r + x // r ** (n - 1)) // n
        if s >= r:
            break
        r = s
    return r if r**n == x else None


# ----------------------------------------------------------------------------------------- approximate


def approx(node: Node, env: dict[str, Any], complex_ok: bool = False) -> Any:
    """The value of ``node`` to ``PRECISION_BITS`` bits (real unless ``complex_ok``).

    Raises:
        Undefined: outside the domain (real mode: also any non-real intermediate value). TooLarge: over budget.
    """
    v = _approx(node, env, complex_ok)
    _check(v, complex_ok)
    return v


def _check(v: Any, complex_ok: bool) -> Any:
    ctx = _ctx()
    if isinstance(v, Fraction):
        return v
    if ctx.isnan(v):
        raise Undefined("not a number")
    if ctx.isinf(v):
        return v
    if type(v) is ctx.mpc:
        if not complex_ok:
            if v.imag != 0:
                raise Undefined("non-real value")
            v = v.real
        elif ctx.isinf(v.real) or ctx.isinf(v.imag):
            raise Undefined("complex infinity")
    if v != 0 and abs(ctx.mag(v)) > MAX_MAGNITUDE_BITS:
        raise TooLarge("magnitude")
    return v


def _ctx() -> Any:
    return getattr(_LOCAL, "ctx", None) or _CTX


def _approx(node: Node, env: dict[str, Any], cx: bool) -> Any:
    ctx = _ctx()
    kind = node[0]
    if kind == "num":
        return ctx.mpf(node[1].numerator) / node[1].denominator
    if kind == "sym":
        v = env.get(node[1])
        if v is None:
            raise Undefined(f"no value for {node[1]}")
        return v
    if kind == "const":
        name = node[1]
        if name == "pi":
            return +ctx.pi
        if name == "e":
            return +ctx.e
        if name == "inf":
            return ctx.inf
        if not cx:
            raise Undefined("imaginary unit in real mode")
        return ctx.mpc(0, 1)
    if kind in ("add", "sub", "mul", "div"):
        a = _check(_approx(node[1], env, cx), cx)
        b = _check(_approx(node[2], env, cx), cx)
        if kind == "add":
            return a + b
        if kind == "sub":
            return a - b
        if kind == "mul":
            if (ctx.isinf(a) and b == 0) or (ctx.isinf(b) and a == 0):
                raise Undefined("0 * infinity")
            return a * b
        if b == 0:
            raise Undefined("division by zero")
        return a / b
    if kind == "neg":
        return -_check(_approx(node[1], env, cx), cx)
    if kind == "pow":
        return _approx_pow(_check(_approx(node[1], env, cx), cx), _check(_approx(node[2], env, cx), cx), cx)
    if kind == "root":
        x = _check(_approx(node[1], env, cx), cx)
        n = _natural(_check(_approx(node[2], env, cx), cx))
        if not 2 <= n <= 64:
            raise Undefined("root index")
        if not cx and x < 0:
            if int(n) % 2 == 0:
                raise Undefined("even root of a negative number")
            return -ctx.root(-x, int(n))
        return ctx.root(x, int(n))
    if kind == "fact":
        x = _natural(_check(_approx(node[1], env, cx), cx))
        if x > 10**6:
            raise TooLarge("factorial")
        return ctx.factorial(x)
    if kind == "binom":  # the general binomial (n may be any real: \binom{n}{2} = n(n-1)/2)
        n = _check(_approx(node[1], env, cx), cx)
        k = _check(_approx(node[2], env, cx), cx)
        if ctx.isinf(n) or ctx.isinf(k) or abs(ctx.re(n)) > 10**6 or not _is_integer(k):
            raise Undefined("binomial outside its domain")
        return ctx.binomial(n, k) if k >= 0 else ctx.mpf(0)
    if kind == "log":
        base = _check(_approx(node[1], env, cx), cx)
        x = _check(_approx(node[2], env, cx), cx)
        return _log(x, cx) / _nonzero(_log(base, cx))
    if kind == "fn":
        return _function(node[1], _check(_approx(node[2], env, cx), cx), cx)
    if kind in ("sum", "prod"):
        return _series(node, env, lambda n, e: _check(_approx(n, e, cx), cx), ctx.mpf(int(kind == "prod")),
                       lambda j: ctx.mpf(j), Refused)
    if kind in ("int", "deriv"):
        closed = closed_form(node)
        if closed[0] == kind:
            raise Refused("an integral or a derivative without a closed form")
        return _approx(closed, env, cx)
    raise Undefined(f"unknown node {kind}")


def _is_integer(v: Any) -> bool:
    ctx = _ctx()
    return not ctx.isinf(v) and ctx.im(v) == 0 and ctx.re(v) == int(ctx.re(v))


def _natural(v: Any) -> int:
    """``v`` as a natural number (factorials, root indices, binomials), or `Undefined`."""
    if not _is_integer(v) or _ctx().re(v) < 0:
        raise Undefined("not a natural number")
    return int(_ctx().re(v))


def _nonzero(v: Any) -> Any:
    if v == 0:
        raise Undefined("division by zero")
    return v


def _log(x: Any, cx: bool) -> Any:
    ctx = _ctx()
    if x == 0 or ctx.isinf(x) or (not cx and x < 0):
        raise Undefined("logarithm outside its domain")
    return ctx.ln(x)


def _approx_pow(base: Any, e: Any, cx: bool) -> Any:
    ctx = _ctx()
    if ctx.isinf(base) or ctx.isinf(e):
        raise Undefined("power with an infinity")
    if base == 0:
        if (not cx or e.imag == 0) and ctx.re(e) > 0:
            return ctx.mpf(0)
        raise Undefined("zero to a non-positive power")
    if abs(ctx.re(e)) > 64 and abs(ctx.re(e)) * abs(ctx.log(abs(base), 2)) > 4 * MAX_MAGNITUDE_BITS:
        raise TooLarge("power")  # |log2 of the result| = |e| |log2 base|
    if not cx and base < 0 and e != int(e):
        raise Undefined("negative base, fractional exponent")
    return ctx.power(base, e)


_REAL_DOMAIN: dict[str, Callable[[Any], bool]] = {
    "arcsin": lambda x: -1 <= x <= 1, "arccos": lambda x: -1 <= x <= 1,
    "arcsec": lambda x: abs(x) >= 1, "arccsc": lambda x: abs(x) >= 1,
}


def _function(name: str, x: Any, cx: bool) -> Any:
    ctx = _ctx()
    if ctx.isinf(x):
        raise Undefined("function of an infinity")
    if name == "abs":
        return abs(x)
    if name in ("floor", "ceil"):
        if cx and x.imag != 0:
            raise Undefined("floor of a complex number")
        return ctx.floor(ctx.re(x)) if name == "floor" else ctx.ceil(ctx.re(x))
    if name in ("ln", "log"):
        return _log(x, cx)
    if not cx and name in _REAL_DOMAIN and not _REAL_DOMAIN[name](x):
        raise Undefined(f"{name} outside its domain")
    if abs(ctx.re(x)) > 10**6 and name in ("exp", "sinh", "cosh", "tanh"):
        raise TooLarge(name)
    if name == "gamma":
        if _is_integer(x) and ctx.re(x) <= 0:
            raise Undefined("gamma at a pole")
        if abs(ctx.re(x)) > MAX_GAMMA:
            raise TooLarge("gamma")
        return ctx.gamma(x)
    fn = {"sin": ctx.sin, "cos": ctx.cos, "tan": ctx.tan, "cot": ctx.cot, "sec": ctx.sec, "csc": ctx.csc,
          "arcsin": ctx.asin, "arccos": ctx.acos, "arctan": ctx.atan, "arccot": ctx.acot, "arcsec": ctx.asec,
          "arccsc": ctx.acsc, "sinh": ctx.sinh, "cosh": ctx.cosh, "tanh": ctx.tanh, "coth": ctx.coth,
          "exp": ctx.exp}.get(name)
    if fn is None:
        raise Undefined(f"unknown function {name}")
    try:
        return fn(x)
    except (ZeroDivisionError, ValueError) as err:
        raise Undefined(str(err)) from None


# ------------------------------------------------------------------------------------------- constants


def constant_value(node: Node) -> Value:
    """The value of a constant expression: a ``Fraction`` when exact, else a number of the mpmath context.

    Raises:
        Undefined: it has no value (``\\frac{1}{0}``). TooLarge: beyond the numeric budget. Refused: an
        integral without a closed form.
    """
    node = closed_form(node)
    with contextlib.suppress(Inexact):
        return exact(node, {})
    return approx(node, {}, complex_ok=has_imaginary(node))


def values_agree(a: Value, b: Value, rel_tol: float) -> Outcome:
    """"agree", "different" or "unknown" for two values (``rel_tol`` > 0: one side is a decimal approximation)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return "agree" if a == b else "different"
    ctx = _ctx()
    x = a if not isinstance(a, Fraction) else ctx.mpf(a.numerator) / a.denominator
    y = b if not isinstance(b, Fraction) else ctx.mpf(b.numerator) / b.denominator
    if ctx.isinf(x) or ctx.isinf(y):
        return "agree" if x == y else "different"
    diff = abs(x - y)
    scale = max(abs(x), abs(y))
    if scale == 0 or diff == 0:
        return "agree"
    rel = diff / scale
    if rel_tol > 0:
        return "agree" if rel <= rel_tol else "different"
    if rel <= ctx.mpf(2) ** -(ctx.prec - 66):  # AGREE_REL at the normal precision
        return "agree"
    return "different" if rel > DIFFERENT_REL else "unknown"


# -------------------------------------------------------------------------------------------- sampling


def integer_names(node: Node) -> frozenset[str]:
    """Variables that must be integers somewhere for ``node`` to have a value: in a factorial, the lower
    argument of a binomial coefficient, or a bound of a sum or product (``n!``, ``\\sum_{k=1}^{n}``)."""
    out: set[str] = set()
    for n in subtrees(node):
        if n[0] == "fact":
            out |= free_symbols(n[1])
        elif n[0] == "binom":
            out |= free_symbols(n[2])
        elif n[0] in ("sum", "prod"):
            out |= free_symbols(n[2]) | free_symbols(n[3])
    return frozenset(out)


def _points(names: Sequence[str], rng: random.Random, exact_mode: bool, positive: bool,
            wide: bool, integers: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Random rational points: moderate ones (|v| < 100), and every other attempt a wide one (up to 10^7);
    names in ``integers`` get natural numbers (up to 12, wide: up to 40)."""
    env: dict[str, Any] = {}
    for name in names:
        sign = 1 if positive else rng.choice((-1, 1))
        if name in integers:
            v = Fraction(rng.randint(0, 40 if wide else 12))
        elif wide:
            v = Fraction(sign * rng.randint(1, 10**4) * 10 ** rng.randint(0, 3), rng.randint(1, 997))
        else:
            v = Fraction(sign * rng.randint(1, 10**4), rng.randint(1, 997) * (1 if exact_mode else 100))
        env[name] = v if exact_mode else _CTX.mpf(v.numerator) / v.denominator
    return env


def reset_budget() -> None:
    """Start a new exact-arithmetic budget for this thread (call once per verdict)."""
    _LOCAL.exact_bits = 0


def sample_compare(g: Node, a: Node, rel_tol: float, *, relation: Callable[[Value, Value], Outcome] | None = None,
                   seed_text: str = "", deadline: float = _m.inf) -> Outcome:
    """Compare two trees at random points.

    Returns "equal" (constants, or exact-mode agreement), "agree" (approximate agreement at every point, to be
    confirmed by the CAS), "different" or "unknown" (also when ``deadline``, a ``time.monotonic()`` instant,
    passes). ``relation(vg, va)`` replaces value agreement (used for equations: proportional sides).
    """
    integers = integer_names(g) | integer_names(a)  # of the trees as written: a sum's bound stays an integer
    g, a = closed_form(g), closed_form(a)
    names = sorted(free_symbols(g) | free_symbols(a))
    agree = relation or (lambda x, y: values_agree(x, y, rel_tol))
    if not names:
        try:
            vg, va = constant_value(g), constant_value(a)
        except Refused:  # an integral with no closed form: rigorous enclosures may tell them apart, or a proof
            return _refused(g, a, relation if rel_tol == 0 else agree, {})
        except (Undefined, TooLarge, Inexact):
            return "unknown"
        out = agree(vg, va)
        if out == "different":
            return out
        if isinstance(vg, Fraction) and isinstance(va, Fraction):
            return "equal"
        if out == "agree" and rel_tol > 0:
            return "equal"  # a decimal approximation within rel_tol (1.41421356237 vs sqrt(2))
        if relation is None:
            if proves_equal(g, a):
                return "equal"
            # no proof: rounding, or a real difference below 2^-190 (pi + 10^-60, 1/80!): more bits may show
            # it. Only a difference that stays put as the precision grows counts; agreement proves nothing.
            base = extra_bits(g) + extra_bits(a)
            for more in ESCALATION_BITS:
                if base + more > MAX_EXTRA_BITS:
                    break
                if _recheck(g, a, base + more, deadline) == "different":
                    return "different"
            return "agree"
        return "unknown"
    exact_mode = is_rational_tree(g) and is_rational_tree(a)
    cx = has_imaginary(g) or has_imaginary(a)
    extra = 0 if exact_mode else extra_bits(g) + extra_bits(a)
    if extra:  # tiny terms (10^{-100} pi) must show at every point, equations and relations included
        if extra > MAX_EXTRA_BITS:
            return "unknown"
        fine = mpmath.MPContext()
        fine.prec = PRECISION_BITS + extra
        _LOCAL.ctx = fine
        try:
            return _sample(g, a, names, agree, relation, exact_mode, cx, seed_text, deadline, extra, rel_tol,
                           integers)
        finally:
            _LOCAL.ctx = None
    return _sample(g, a, names, agree, relation, exact_mode, cx, seed_text, deadline, 0, rel_tol, integers)


def _sample(g: Node, a: Node, names: list[str], agree: Callable[[Value, Value], Outcome],
            relation: Callable[[Value, Value], Outcome] | None, exact_mode: bool, cx: bool, seed_text: str,
            deadline: float, extra: int, rel_tol: float = 0.0, integers: frozenset[str] = frozenset()) -> Outcome:
    rng = random.Random(zlib.crc32(seed_text.encode("utf-8", "replace")) if seed_text else 0)
    integers = integers | integer_names(g) | integer_names(a)
    good = refused = 0
    for attempt in range(MAX_ATTEMPTS):
        if time.monotonic() > deadline:
            return "unknown"
        env = _points(names, rng, exact_mode, positive=attempt % 2 == 1, wide=attempt % 3 == 2,
                      integers=integers)
        if not exact_mode:
            env = {k: _ctx().mpf(v) for k, v in env.items()}
        try:
            if exact_mode:
                try:
                    vg, va = exact(g, env), exact(a, env)
                except Inexact:
                    exact_mode = False
                    continue
            else:
                vg, va = approx(g, env, cx), approx(a, env, cx)
                if not (is_finite(vg) and is_finite(va)):
                    continue  # a pole or an infinity at this point: a domain problem, never a verdict
        except (Undefined, TooLarge):
            continue  # outside a domain, or beyond the budget here (2^{2^x} at a wide point): another point
        except Refused:  # an integral with no closed form: a proof, enclosures at this point, or another point
            if refused == 0 and relation is None and proves_equal(g, a):
                return "equal"
            if relation is None and rel_tol == 0 and differ(g, a, _rational_point(env)):
                return "different"
            refused += 1
            if refused >= MAX_ENCLOSED_POINTS:
                break
            continue
        out = agree(vg, va)
        if out == "unknown" and relation is None and not exact_mode:
            out = _recheck(g, a, extra, deadline, env)
            out = "agree" if out == "equal" else out
        if out == "different":
            return "different"
        if out == "unknown":
            return "unknown"
        good += 1
        if good >= POINTS:
            if relation is not None:
                return "agree"  # the caller proves the relation (or does not accept it)
            if proves_equal(g, a):
                return "equal"
            if not exact_mode and _recheck(g, a, extra, deadline, env) == "different":
                return "different"
            return "agree"  # equal values at every point prove nothing: the CAS must prove it
    return "unknown"


def _refused(g: Node, a: Node, relation: Callable[[Value, Value], Outcome] | None,
             point: dict[str, Fraction]) -> Outcome:
    """The outcome when a value was refused (an integral with no closed form): "different" when rigorous
    enclosures at ``point`` do not meet, "equal" when the canonical forms prove it, else "unknown" (the CAS).
    With a ``relation`` (equations, or a tolerance for a decimal answer) enclosures decide nothing."""
    if relation is not None:
        return "unknown"
    if differ(g, a, point):
        return "different"
    return "equal" if proves_equal(g, a) else "unknown"


def _rational_point(env: dict[str, Any]) -> dict[str, Fraction]:
    """A sample point's coordinates as exact rationals (an mpf is a binary fraction)."""
    out = {}
    for k, v in env.items():
        if isinstance(v, Fraction):
            out[k] = v
        else:
            man, exp = v.man_exp
            out[k] = Fraction(man) * Fraction(2) ** exp
    return out


def extra_bits(node: Node) -> int:
    """Bits beyond ``PRECISION_BITS`` that extreme constant exponents need: a tiny one hides a difference
    (``2^{2^{-1000}}`` is 1 to 300 digits), a huge one magnifies rounding (``(2^{2^{-100}})^{2^{100}}``)."""
    extra = 0
    for n in subtrees(node):
        if n[0] == "pow":
            try:
                e = exact(n[2], {})
            except (Inexact, Undefined, RecursionError):
                e = None
            if e:
                extra += max(0, abs(abs(e.numerator).bit_length() - e.denominator.bit_length()) - 32)
                base = _constant_magnitude(n[1])
                if base is not None:  # 10^{-200}, e^{-200}: a term far below the others hides at 256 bits
                    try:
                        extra += max(0, int(abs(float(e) * base)) - 64)
                    except OverflowError:
                        return MAX_EXTRA_BITS + 1
    return extra


def _constant_magnitude(node: Node) -> float | None:
    """|log2| of a constant base (10 -> 3.3, e -> 1.44), or ``None`` when it is not a plain constant."""
    if node[0] == "num" and node[1] > 0:
        return abs(_m.log2(node[1]))
    if node[0] == "const" and node[1] in ("e", "pi"):
        return _m.log2(_m.e if node[1] == "e" else _m.pi)
    return None


def _recheck(g: Node, a: Node, extra: int, deadline: float, env: dict[str, Any] | None = None) -> Outcome:
    """Two expressions (at the point ``env``, if any), compared at two higher precisions: a difference that
    shrinks with the precision is rounding (equal), one that stays is real (different)."""
    if extra > MAX_EXTRA_BITS:
        return "unknown"
    point = {k: Fraction(str(v)) if not isinstance(v, Fraction) else v for k, v in (env or {}).items()}
    rel = []
    for bits in (PRECISION_BITS + extra, PRECISION_BITS + extra + 160):
        if time.monotonic() > deadline:
            return "unknown"
        ctx = mpmath.MPContext()
        ctx.prec = bits
        outer, _LOCAL.ctx = getattr(_LOCAL, "ctx", None), ctx
        try:
            at = {k: ctx.mpf(v.numerator) / v.denominator for k, v in point.items()}
            x, y = approx(g, at, has_imaginary(g)), approx(a, at, has_imaginary(a))
        except (Undefined, TooLarge, Refused):
            return "unknown"
        finally:
            _LOCAL.ctx = outer
        x, y = (ctx.mpf(v.numerator) / v.denominator if isinstance(v, Fraction) else v for v in (x, y))
        scale = max(abs(x), abs(y))
        rel.append(ctx.mpf(0) if scale == 0 else abs(x - y) / scale)
    d1, d2 = rel
    if d2 <= mpmath.mpf(2) ** -(PRECISION_BITS + extra + 160 - 66):  # at the rounding floor of the finer pass
        return "equal"
    if d1 > 0 and abs(d2 - d1) <= d1 * mpmath.mpf(2) ** -20:
        return "different"
    return "unknown"


def ratio_relation(positive: bool = False) -> Callable[[Value, Value], Outcome]:
    """A ``relation`` for `sample_compare`: the two values keep one constant non-zero ratio (equations), a
    positive one if ``positive`` (inequalities ``f < 0``)."""
    first: list[Value] = []

    def rel(x: Value, y: Value) -> Outcome:
        if not (is_finite(x) and is_finite(y)):
            return "different"  # 0 = \\infty is no equation: an infinite side never fits
        zx, zy = x == 0, y == 0
        if zx or zy:
            return "agree" if zx and zy else "different"
        r = x / y
        if positive and r < 0:
            return "different"
        if not first:
            first.append(r)
            return "agree"
        return values_agree(first[0], r, 0.0)

    return rel


def value_key(v: Value) -> str:
    """A short text equal for equal values (exact for rationals, 30 digits otherwise, complex parts both kept)."""
    if isinstance(v, Fraction):
        big = max(v.numerator.bit_length(), v.denominator.bit_length()) > 4096
        return f"#{hash(v)}" if big else str(v)  # str() of a 4,300-digit int raises
    return _CTX.nstr(v, 30)


def to_mp(v: Value) -> Any:
    """A value as an mpmath number of the private context."""
    return _CTX.mpf(v.numerator) / v.denominator if isinstance(v, Fraction) else v


def is_real(v: Value) -> bool:
    """Whether ``v`` is a real number (possibly infinite)."""
    return isinstance(v, Fraction) or type(v) is not _CTX.mpc and _CTX.im(v) == 0


def is_finite(v: Value) -> bool:
    """Whether ``v`` is a finite number."""
    return isinstance(v, Fraction) or not _CTX.isinf(v)


def sign(v: Value) -> int:
    """-1, 0 or 1."""
    return (v > 0) - (v < 0)
