"""Metamorphic properties of ``verifiers.math``, derived from the verdict contract (docs/answer-equivalence.md).

Written blind to the implementation (issue #13, item 5). Every gold is built from a VALUE (a number, a set,
an interval, a matrix, ...) and rendered in the MATH dataset's style; the label of each response follows from
construction: another rendering of the same value must score ``correct``; a changed value (one digit, an
endpoint's openness, an inequality's direction, a dropped element, a transpose, ...) must score
``incorrect``. Strategies stay within the contract's unambiguous cases (no unreduced fractions, no long
decimal approximations, no factored-vs-expanded polynomials).

Profiles: ``scorer-props`` from tests/conftest.py (HYPOTHESIS_PROFILE=ci: 500 examples, derandomized).
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from verifiers import math

PROPS = settings.get_profile("scorer-props")
# Twice the default timeout: these tests check verdicts, not speed (speed lives in evals/speed), and CI may be
# loaded. A `timeout` status still fails every test below: it is neither `correct` nor `incorrect`.
CONFIG = math.Config(timeout=2.0)


@pytest.fixture(scope="module", autouse=True)
def _warm_cas_workers() -> None:
    """Start the CAS workers before the first property, so that start-up is not charged to one example."""
    math.warm_up()


Draw = Callable[[st.SearchStrategy], object]


# --------------------------------------------------------------------------------------------------------
# Rendering numbers
# --------------------------------------------------------------------------------------------------------


def _braces(cmd: str, *args: str) -> str:
    return "\\" + cmd + "".join("{" + a + "}" for a in args)


def terminating_decimal(q: Fraction) -> str | None:
    """The exact decimal expansion of q, or None when it does not terminate."""
    d, k2, k5 = q.denominator, 0, 0
    while d % 2 == 0:
        d, k2 = d // 2, k2 + 1
    while d % 5 == 0:
        d, k5 = d // 5, k5 + 1
    if d != 1:
        return None
    k = max(k2, k5)
    digits = str(abs(q.numerator * 10**k // q.denominator)).rjust(k + 1, "0")
    text = digits if k == 0 else digits[:-k] + "." + digits[-k:]
    return ("-" if q < 0 else "") + text


def repeating_decimal(q: Fraction, max_period: int = 6) -> str | None:
    """``0.1\\overline{6}`` for a non-terminating q with a short period, else None."""
    if terminating_decimal(q) is not None:
        return None
    a = abs(q)
    whole, rem, den = a.numerator // a.denominator, a.numerator % a.denominator, a.denominator
    digits: list[str] = []
    seen: dict[int, int] = {}
    while rem not in seen:
        if len(digits) > 3 + max_period:
            return None
        seen[rem] = len(digits)
        rem *= 10
        digits.append(str(rem // den))
        rem %= den
    start = seen[rem]
    if len(digits) - start > max_period:
        return None
    body = f"{whole}." + "".join(digits[:start]) + "\\overline{" + "".join(digits[start:]) + "}"
    return ("-" if q < 0 else "") + body


def latex_fraction(q: Fraction, style: str = "frac") -> str:
    """A non-integer q as ``\\frac{p}{q}`` (``frac``, ``dfrac``, ``tfrac``), ``p/q`` (``slash``),
    ``\\frac{-p}{q}`` (``neg_inside``) or ``\\frac34`` (``compact``, single digits only)."""
    p, d = abs(q.numerator), q.denominator
    sign = "-" if q < 0 else ""
    if style == "slash":
        return f"{sign}{p}/{d}"
    if style == "neg_inside":
        return _braces("frac", f"{sign}{p}", str(d))
    if style == "compact" and p < 10 and d < 10:
        return f"{sign}\\frac{p}{d}"
    cmd = style if style in ("frac", "dfrac", "tfrac") else "frac"
    return sign + _braces(cmd, str(p), str(d))


def number_renderings(q: Fraction) -> list[str]:
    """Every rendering of q that the contract says is the same value (no thousands separators)."""
    out: list[str] = []
    if q.denominator == 1:
        n = q.numerator
        out += [str(n), f"{n}.0", f"{n}.00"]
        if n < 0:
            out.append("\u2212" + str(-n))  # U+2212 minus sign
        if n != 0 and n % 1000 == 0:
            m, k = n, 0
            while m % 10 == 0:
                m, k = m // 10, k + 1
            out += [f"{m} \\times 10^{{{k}}}", f"{m}\\times10^{{{k}}}", f"{m} \u00d7 10^{{{k}}}",
                    f"{m} \\cdot 10^{{{k}}}"]
    else:
        out += [latex_fraction(q, s) for s in ("frac", "dfrac", "tfrac", "slash", "neg_inside", "compact")]
        dec = terminating_decimal(q)
        if dec is not None:
            out.append(dec)
            if dec.startswith("0."):
                out.append(dec[1:])  # .25
            if dec.startswith("-0."):
                out.append("-" + dec[2:])
        rep = repeating_decimal(q)
        if rep is not None:
            out.append(rep)
        if q > 1:
            whole, rest = divmod(q.numerator, q.denominator)
            out.append(f"{whole}" + _braces("frac", str(rest), str(q.denominator)))  # mixed number
        if q < 0:
            out.append("\u2212" + latex_fraction(-q))
    return list(dict.fromkeys(out))


def gold_number(q: Fraction, style: int) -> str:
    """q as a MATH-dataset gold: an integer, ``\\frac{p}{q}`` / ``-\\frac{p}{q}``, or a short decimal."""
    if q.denominator == 1:
        return str(q.numerator)
    dec = terminating_decimal(q)
    if dec is not None and style % 3 == 0:
        return dec
    return latex_fraction(q, "dfrac" if style % 3 == 1 else "frac")


def plain_number(q: Fraction) -> str:
    """q as a model writes it in running text: ``12``, ``0.25`` or ``2/3``."""
    return terminating_decimal(q) or latex_fraction(q, "slash")


def change_one_digit(q: Fraction, draw: Draw) -> Fraction:
    """q with one digit of its written form (decimal, or numerator/denominator) changed."""
    dec = terminating_decimal(q)
    parts = [dec] if dec is not None else [str(q.numerator), str(q.denominator)]
    which = draw(st.integers(0, len(parts) - 1))
    text = parts[which]
    positions = [i for i, c in enumerate(text) if c.isdigit()]
    i = draw(st.sampled_from(positions))
    leading = i == positions[0] and len(positions) > 1 and "." not in text[: i + 2]
    choices = [c for c in "0123456789" if c != text[i] and not (leading and c == "0")]
    parts[which] = text[:i] + draw(st.sampled_from(choices)) + text[i + 1:]
    new = Fraction(parts[0]) if dec is not None else Fraction(int(parts[0]), int(parts[1]) or 1)
    assume(new != q)
    return new


# --------------------------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------------------------

small_ints = st.integers(-999, 999).map(Fraction)
big_ints = st.integers(10**6, 10**18).flatmap(lambda n: st.sampled_from([n, -n])).map(Fraction)
round_ints = st.tuples(st.integers(1, 99), st.integers(3, 9)).map(lambda t: Fraction(t[0] * 10 ** t[1]))
fractions_ = st.builds(Fraction, st.integers(-300, 300), st.integers(2, 64)).filter(lambda q: q.denominator > 1)
decimals = st.builds(lambda n, k: Fraction(n, 10**k), st.integers(-10**9, 10**9), st.integers(1, 9))
NUMBERS = st.one_of(small_ints, big_ints, round_ints, fractions_, decimals)
# Elements of tuples, sets, intervals and matrices: small, so that `1, 234` is never read as 1234.
ELEMENTS = st.one_of(st.integers(-60, 60).map(Fraction),
                     st.builds(Fraction, st.integers(-40, 40), st.integers(2, 12)),
                     st.builds(lambda n: Fraction(n, 4), st.integers(-60, 60)))
SQUAREFREE = [2, 3, 5, 6, 7, 10, 11, 13, 14, 15, 17, 19, 21, 22, 23, 26, 29, 30]


def element(q: Fraction, draw: Draw) -> str:
    """One rendering of a small number inside a tuple, set, interval or matrix. Repeating decimals, mixed
    numbers and powers of ten are left to the number tests, so that one unsupported notation does not hide
    every container failure behind it."""
    plain = [r for r in number_renderings(q) if not any(k in r for k in ("\\times", "\\overline", "\\cdot"))]
    if q.denominator > 1 and q > 1:
        plain = [r for r in plain if not r.startswith(str(q.numerator // q.denominator) + "\\frac")]
    return draw(st.sampled_from(plain))


@dataclass(frozen=True)
class Case:
    """A generated gold with one equivalent rendering and one perturbation (a different value)."""

    kind: str
    gold: str
    same: str
    wrong: str
    wrong_how: str
    parts: tuple[str, ...] = ()  # elements of a multi-valued gold, one per box


@st.composite
def number_case(draw: Draw) -> Case:
    q = draw(NUMBERS)
    gold = gold_number(q, draw(st.integers(0, 2)))
    same = draw(st.sampled_from(number_renderings(q)))
    wrong = change_one_digit(q, draw)
    return Case("number", gold, same, draw(st.sampled_from(number_renderings(wrong))), "one digit changed")


def _times_sqrt(c: Fraction, b: int, style: int) -> str:
    """c * sqrt(b) in one of several equal spellings."""
    root = _braces("sqrt", str(b))
    sign = "-" if c < 0 else ""
    a = abs(c)
    if a.denominator == 1:
        k = a.numerator
        coef = "" if k == 1 else str(k)
        forms = [f"{sign}{coef}{root}", f"{sign}{coef}\u221a{b}", f"{sign}{coef} \\sqrt {{{b}}}"]
        if k > 1:
            forms.append(sign + _braces("sqrt", str(k * k * b)))
        if k > 1:
            forms.append(f"{sign}{root} \\cdot {k}")
    else:
        p, d = a.numerator, a.denominator
        num = f"{'' if p == 1 else p}{root}"
        forms = [sign + _braces("frac", num, str(d)), sign + _braces("frac", str(p), str(d)) + root,
                 f"{sign}{num}/{d}", sign + _braces("dfrac", num, str(d)),
                 sign + _braces("frac", _braces("sqrt", str(p * p * b)), str(d))]
    return forms[style % len(forms)]


@st.composite
def radical_case(draw: Draw) -> Case:
    c = draw(st.one_of(st.integers(-30, 30).filter(bool).map(Fraction),
                       st.builds(Fraction, st.integers(-20, 20).filter(bool), st.integers(2, 9))))
    b = draw(st.sampled_from(SQUAREFREE))
    gold = _times_sqrt(c, b, 0)
    same = _times_sqrt(c, b, draw(st.integers(0, 9)))
    if draw(st.booleans()):
        wrong, how = _times_sqrt(change_one_digit(c, draw), b, draw(st.integers(0, 9))), "coefficient digit"
    else:
        b2 = draw(st.sampled_from([s for s in SQUAREFREE if s != b]))
        wrong, how = _times_sqrt(c, b2, draw(st.integers(0, 9))), "radicand changed"
    return Case("radical", gold, same, wrong, how)


def _times_pi(c: Fraction, style: int, pi: str = "\\pi") -> str:
    sign = "-" if c < 0 else ""
    a = abs(c)
    p, d = a.numerator, a.denominator
    coef = "" if p == 1 else str(p)
    if d == 1:
        forms = [f"{sign}{coef}{pi}", f"{sign}{coef} {pi}", f"{sign}{coef}\u03c0"]
    else:
        forms = [sign + _braces("frac", coef + pi, str(d)), sign + _braces("frac", str(p), str(d)) + pi,
                 f"{sign}{coef}{pi}/{d}", sign + _braces("dfrac", coef + pi, str(d)),
                 f"{sign}{coef}\u03c0/{d}", sign + _braces("frac", coef + "\u03c0", str(d))]
    return forms[style % len(forms)]


@st.composite
def pi_case(draw: Draw) -> Case:
    c = draw(st.builds(Fraction, st.integers(-24, 24).filter(bool), st.integers(1, 12)))
    wrong = change_one_digit(c, draw)
    return Case("pi", _times_pi(c, 0), _times_pi(c, draw(st.integers(0, 9))),
                _times_pi(wrong, draw(st.integers(0, 9))), "coefficient digit")


def _poly(coefs: dict[int, int], order: list[int], style: int) -> str:
    """sum coefs[d] x^d over `order`, e.g. ``3x^2 - 2x + 5``; style varies spacing, braces and ``\\cdot``."""
    out = ""
    for i, d in enumerate(order):
        c = coefs[d]
        a = abs(c)
        if d == 0:
            term = str(a)
        else:
            xpow = "x" if d == 1 else (f"x^{{{d}}}" if style % 2 else f"x^{d}")
            term = xpow if a == 1 else (f"{a} \\cdot {xpow}" if style % 3 == 2 else f"{a}{xpow}")
        if i == 0:
            out = ("-" if c < 0 else "") + term
        else:
            out += (" - " if c < 0 else " + ") + term if style % 5 else ("-" if c < 0 else "+") + term
    return out


@st.composite
def polynomial_case(draw: Draw) -> Case:
    degree = draw(st.integers(1, 3))
    coefs = {d: draw(st.integers(-9, 9)) for d in range(degree + 1)}
    coefs[degree] = coefs[degree] or 1
    coefs = {d: c for d, c in coefs.items() if c}
    assume(len(coefs) >= 2)
    descending = sorted(coefs, reverse=True)
    shuffled = draw(st.permutations(descending))
    gold = _poly(coefs, descending, 1)
    same = _poly(coefs, list(shuffled), draw(st.integers(0, 29)))
    d = draw(st.sampled_from(descending))
    changed = dict(coefs)
    changed[d] = coefs[d] + draw(st.sampled_from([-2, -1, 1, 2]))
    changed = {k: v for k, v in changed.items() if v}
    how = "coefficient changed"
    wrong = _poly(changed, [k for k in descending if k in changed], draw(st.integers(0, 29)))
    return Case("polynomial", gold, same, wrong, how)


@st.composite
def rational_case(draw: Draw) -> Case:
    a, b, c, d = (draw(st.integers(-9, 9)) for _ in range(4))
    assume(a != 0 and c != 0 and a * d - b * c != 0)

    def lin(p: int, q: int, swap: bool) -> str:
        return _poly({1: p, 0: q} if q else {1: p}, [0, 1] if swap and q else [1, 0] if q else [1], 0)

    def render(b_: int, style: int) -> str:
        num, den = lin(a, b_, style % 4 == 3), lin(c, d, style % 4 == 3)
        if style % 4 == 1:
            return f"({num})/({den})"
        return _braces("dfrac" if style % 4 == 2 else "frac", num, den)

    b2 = b + draw(st.sampled_from([-2, -1, 1, 2]))
    assume(a * d - b2 * c != 0)
    return Case("rational", render(b, 0), render(b, draw(st.integers(0, 3))),
                render(b2, draw(st.integers(0, 3))), "constant changed")


@st.composite
def line_case(draw: Draw) -> Case:
    m = draw(st.integers(-9, 9).filter(bool))
    c = draw(st.integers(-9, 9))

    def render(c_: int, style: int) -> str:
        rhs = _poly({1: m, 0: c_} if c_ else {1: m}, [1, 0] if c_ else [1], 0)
        if style == 0:
            return "y = " + rhs
        if style == 1:  # mx - y + c = 0
            lhs = _poly({1: m}, [1], 0) + " - y" + ((" + " if c_ > 0 else " - ") + str(abs(c_)) if c_ else "")
            return lhs + " = 0"
        if style == 2:
            return rhs + " = y"
        return "y " + ("- " if m > 0 else "+ ") + _poly({1: abs(m)}, [1], 0) + f" = {c_}"

    c2 = c + draw(st.sampled_from([-2, -1, 1, 2]))
    return Case("equation", render(c, 0), render(c, draw(st.integers(0, 3))),
                render(c2, draw(st.integers(0, 3))), "intercept changed")


def _complex(a: Fraction, b: Fraction, style: int) -> str:
    """a + b i, b != 0, in one of several spellings."""
    def coef(x: Fraction) -> str:
        ax = abs(x)
        if ax == 1:
            return ""
        return str(ax.numerator) if ax.denominator == 1 else latex_fraction(ax)

    imag = coef(b) + "i"
    if a == 0:
        return ("-" if b < 0 else "") + imag
    real = str(a.numerator) if a.denominator == 1 else latex_fraction(a)
    if a.denominator == b.denominator != 1 and style % 3 == 2:  # one fraction bar: \frac{p + r i}{q}
        p, r, den = a.numerator, b.numerator, a.denominator
        inner = f"{p} {'-' if r < 0 else '+'} {'' if abs(r) == 1 else abs(r)}i"
        return _braces("frac", inner, str(den))
    if style % 3 == 1:  # imaginary part first
        return ("-" if b < 0 else "") + imag + (" + " if a > 0 else " - ") + real.lstrip("-")
    sep = ("-" if b < 0 else "+")
    return real + (f" {sep} " if style % 2 else sep) + imag


@st.composite
def complex_case(draw: Draw) -> Case:
    den = draw(st.sampled_from([1, 1, 1, 2, 3, 5]))
    a = Fraction(draw(st.integers(-20, 20)), den)
    b = Fraction(draw(st.integers(-20, 20).filter(bool)), den)
    if draw(st.booleans()):
        wrong, how = _complex(a, -b, draw(st.integers(0, 5))), "conjugate"
    else:
        a2 = change_one_digit(a, draw) if a else Fraction(draw(st.integers(1, 9)))
        wrong, how = _complex(a2, b, draw(st.integers(0, 5))), "real part digit"
    return Case("complex", _complex(a, b, 0), _complex(a, b, draw(st.integers(0, 5))), wrong, how)


def _tuple(items: list[str], style: int) -> str:
    inner = (", " if style % 2 else ",").join(items)
    return f"\\left( {inner} \\right)" if style % 3 == 2 else f"({inner})"


@st.composite
def tuple_case(draw: Draw) -> Case:
    values = draw(st.lists(ELEMENTS, min_size=2, max_size=3))
    assume(len(set(values)) > 1)
    gold = _tuple([gold_number(v, 2) for v in values], 1)
    same = _tuple([element(v, draw) for v in values], draw(st.integers(0, 5)))
    if draw(st.booleans()):
        i, j = draw(st.sampled_from([(i, j) for i in range(len(values)) for j in range(i + 1, len(values))
                                      if values[i] != values[j]]))
        swapped = list(values)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        wrong, how = swapped, "two components swapped"
    else:
        i = draw(st.integers(0, len(values) - 1))
        wrong = list(values)
        wrong[i] = change_one_digit(values[i], draw)
        how = "one component's digit"
    return Case("tuple", gold, same, _tuple([element(v, draw) for v in wrong], draw(st.integers(0, 5))), how)


SET_SEPARATORS = [", ", "; ", ",\\ ", " , ", ";"]


def _set(items: list[str], sep: str, wrap: int) -> str:
    inner = sep.join(items)
    return [inner, "\\{" + inner + "\\}", "\\left\\{ " + inner + " \\right\\}"][wrap % 3]


@st.composite
def set_case(draw: Draw) -> Case:
    values = draw(st.lists(ELEMENTS, min_size=2, max_size=4, unique=True))
    gold = ", ".join(gold_number(v, 2) for v in sorted(values))
    order = draw(st.permutations(values))
    rendered = [element(v, draw) for v in order]
    same = _set(rendered, draw(st.sampled_from(SET_SEPARATORS)), draw(st.integers(0, 2)))
    how = draw(st.sampled_from(["dropped element", "extra element", "one element's digit"]))
    wrong_values = list(order)
    if how == "dropped element":
        wrong_values.pop(draw(st.integers(0, len(values) - 1)))
    elif how == "extra element":
        extra = draw(ELEMENTS)
        assume(extra not in values)
        wrong_values.insert(draw(st.integers(0, len(values))), extra)
    else:
        i = draw(st.integers(0, len(values) - 1))
        wrong_values[i] = change_one_digit(values[i], draw)
        assume(wrong_values[i] not in values)
    wrong = _set([element(v, draw) for v in wrong_values], draw(st.sampled_from(SET_SEPARATORS)),
                 draw(st.integers(0, 2)))
    return Case("set", gold, same, wrong, how, parts=tuple(rendered))


@st.composite
def tuple_set_case(draw: Draw) -> Case:
    pairs = draw(st.lists(st.tuples(st.integers(-9, 9), st.integers(-9, 9)), min_size=2, max_size=3,
                          unique=True))
    assume(any(a != b for a, b in pairs))

    def pair(p: tuple[int, int], style: int) -> str:
        return _tuple([str(p[0]), str(p[1])], style)

    gold = ", ".join(pair(p, 1) for p in pairs)
    order = draw(st.permutations(pairs))
    rendered = [pair(p, draw(st.integers(0, 5))) for p in order]
    same = _set(rendered, draw(st.sampled_from([", ", "; ", ","])), draw(st.integers(0, 2)))
    if draw(st.booleans()):
        wrong_pairs = list(order)
        wrong_pairs.pop(draw(st.integers(0, len(pairs) - 1)))
        how = "dropped pair"
    else:
        i = draw(st.sampled_from([i for i, (a, b) in enumerate(order) if a != b]))
        wrong_pairs = list(order)
        wrong_pairs[i] = (order[i][1], order[i][0])
        assume(wrong_pairs[i] not in pairs)
        how = "one pair's components swapped"
    wrong = _set([pair(p, 1) for p in wrong_pairs], ", ", draw(st.integers(0, 2)))
    return Case("tuple_set", gold, same, wrong, how, parts=tuple(rendered))


INF = "\\infty"


@dataclass(frozen=True)
class Interval:
    lo: Fraction | None  # None: -infinity
    hi: Fraction | None  # None: +infinity
    lo_closed: bool
    hi_closed: bool


def _interval(iv: Interval, draw: Draw | None) -> str:
    def end(q: Fraction | None, neg: bool) -> str:
        if q is None:
            return ("-" if neg else "") + (draw(st.sampled_from([INF, "\u221e"])) if draw else INF)
        return element(q, draw) if draw else gold_number(q, 2)

    left = "[" if iv.lo_closed else "("
    right = "]" if iv.hi_closed else ")"
    inner = f"{end(iv.lo, True)}, {end(iv.hi, False)}"
    if draw and draw(st.booleans()):
        return f"\\left{left} {inner} \\right{right}"
    return left + inner + right


def _union(ivs: list[Interval], draw: Draw | None) -> str:
    cup = draw(st.sampled_from([" \\cup ", "\\cup", " \u222a "])) if draw else " \\cup "
    return cup.join(_interval(iv, draw) for iv in ivs)


@st.composite
def interval_case(draw: Draw) -> Case:
    k = draw(st.integers(1, 3))
    ends = sorted(draw(st.lists(ELEMENTS, min_size=2 * k, max_size=2 * k, unique=True)))
    lo_inf, hi_inf = draw(st.booleans()), draw(st.booleans())
    ivs = []
    for i in range(k):
        lo = None if (i == 0 and lo_inf) else ends[2 * i]
        hi = None if (i == k - 1 and hi_inf) else ends[2 * i + 1]
        ivs.append(Interval(lo, hi, lo is not None and draw(st.booleans()),
                            hi is not None and draw(st.booleans())))
    gold = _union(ivs, None)
    same = _union(list(draw(st.permutations(ivs))), draw)
    finite = [(i, side) for i, iv in enumerate(ivs) for side in ("lo", "hi")
              if getattr(iv, side) is not None]
    assume(finite)
    i, side = draw(st.sampled_from(finite))
    how = draw(st.sampled_from(["openness", "endpoint digit", "endpoint to infinity", "dropped interval"]))
    iv = ivs[i]
    if how == "openness":
        new = Interval(iv.lo, iv.hi, not iv.lo_closed if side == "lo" else iv.lo_closed,
                       not iv.hi_closed if side == "hi" else iv.hi_closed)
    elif how == "endpoint digit":
        q = change_one_digit(getattr(iv, side), draw)
        lo, hi = (q, iv.hi) if side == "lo" else (iv.lo, q)
        assume((lo is None or hi is None or lo < hi) and q not in ends)
        new = Interval(lo, hi, iv.lo_closed, iv.hi_closed)
    elif how == "endpoint to infinity":  # (2, 9) -> (2, \infty)
        new = Interval(None, iv.hi, False, iv.hi_closed) if side == "lo" else Interval(iv.lo, None,
                                                                                        iv.lo_closed, False)
    else:
        assume(k > 1)
        new = None
    wrong_ivs = [new if j == i else other for j, other in enumerate(ivs)]
    wrong = _union([w for w in wrong_ivs if w is not None], None)
    assume(wrong != gold)
    return Case("interval", gold, same, wrong, how)


# Relations: op names and their spellings.
SPELL = {"<": ["<", "\\lt"], "<=": ["\\le", "\\leq", "\u2264", "\\leqslant"],
         ">": [">", "\\gt"], ">=": ["\\ge", "\\geq", "\u2265", "\\geqslant"]}
FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
STRICTNESS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
VARIABLES = ["x", "y", "t", "a", "n", "g(x)"]


def _relation(var: str, op: str, c: Fraction, form: str, draw: Draw | None) -> str:
    def spell(o: str) -> str:
        return draw(st.sampled_from(SPELL[o])) if draw else SPELL[o][0]

    def num(q: Fraction) -> str:
        return element(q, draw) if draw else gold_number(q, 2)

    if form == "direct":
        return f"{var} {spell(op)} {num(c)}"
    if form == "flipped":
        return f"{num(c)} {spell(FLIP[op])} {var}"
    if form == "negated":  # x >= 6  <=>  -x <= -6
        return f"-{var} {spell(FLIP[op])} {num(-c)}"
    closed = op in ("<=", ">=")
    if op in (">", ">="):
        return f"{'[' if closed else '('}{num(c)}, {INF})"
    return f"(-{INF}, {num(c)}{']' if closed else ')'}"


REL_FORMS = ["direct", "flipped", "negated", "interval"]


@st.composite
def relation_case(draw: Draw) -> Case:
    var, op, c = draw(st.sampled_from(VARIABLES)), draw(st.sampled_from(list(SPELL))), draw(ELEMENTS)
    gold = _relation(var, op, c, draw(st.sampled_from(["direct", "interval"])), None)
    same = _relation(var, op, c, draw(st.sampled_from(REL_FORMS)), draw)
    how = draw(st.sampled_from(["direction", "strictness", "bound digit"]))
    op2, c2 = op, c
    if how == "direction":  # x >= 6 -> x <= 6, or its complement x < 6
        op2 = draw(st.sampled_from([FLIP[op], STRICTNESS[FLIP[op]]]))
    elif how == "strictness":
        op2 = STRICTNESS[op]
    else:
        c2 = change_one_digit(c, draw)
    wrong = _relation(var, op2, c2, draw(st.sampled_from(REL_FORMS)), draw)
    return Case("relation", gold, same, wrong, how)


@st.composite
def chain_case(draw: Draw) -> Case:
    """a < v <= b and its interval (a, b]."""
    var = draw(st.sampled_from(VARIABLES))
    a, b = sorted(draw(st.lists(ELEMENTS, min_size=2, max_size=2, unique=True)))
    lo_c, hi_c = draw(st.booleans()), draw(st.booleans())

    def render(lo: Fraction, hi: Fraction, lc: bool, hc: bool, form: int, d: Draw | None) -> str:
        num = (lambda q: element(q, d)) if d else (lambda q: gold_number(q, 2))
        le, lt = (d(st.sampled_from(SPELL["<="])) if d else "\\le"), "<"
        ge, gt = (d(st.sampled_from(SPELL[">="])) if d else "\\ge"), ">"
        if form == 0:
            return f"{num(lo)} {le if lc else lt} {var} {le if hc else lt} {num(hi)}"
        if form == 1:
            return f"{num(hi)} {ge if hc else gt} {var} {ge if lc else gt} {num(lo)}"
        return f"{'[' if lc else '('}{num(lo)}, {num(hi)}{']' if hc else ')'}"

    gold = render(a, b, lo_c, hi_c, draw(st.sampled_from([0, 2])), None)
    same = render(a, b, lo_c, hi_c, draw(st.integers(0, 2)), draw)
    if draw(st.booleans()):
        flip_lo = draw(st.booleans())
        wrong = render(a, b, lo_c ^ flip_lo, hi_c ^ (not flip_lo), draw(st.integers(0, 2)), draw)
        how = "one end's openness"
    else:
        b2 = change_one_digit(b, draw)
        assume(b2 > a)
        wrong, how = render(a, b2, lo_c, hi_c, draw(st.integers(0, 2)), draw), "upper bound digit"
    return Case("chain", gold, same, wrong, how)


@st.composite
def pm_case(draw: Draw) -> Case:
    """a ± c√b (or ± n) and its two-element set."""
    radical = draw(st.booleans())
    a = draw(st.integers(-9, 9)) if radical else 0  # integer tails only as \pm n (a = 2 \pm 9 is no gold)
    b = draw(st.sampled_from(SQUAREFREE))
    c = Fraction(draw(st.integers(1, 9)))
    tail = _times_sqrt(c, b, 0) if radical else str(c.numerator)
    head = str(a) if a else ""
    pm = draw(st.sampled_from(["\\pm", "\u00b1"]))
    gold = f"{head} \\pm {tail}".strip()
    plus, minus = (f"{head} + {tail}" if a else tail), f"{head} - {tail}" if a else f"-{tail}"
    branches = [plus, minus]
    order = draw(st.permutations(branches))
    form = draw(st.integers(0, 2))
    same = f"{head} {pm} {tail}".strip() if form == 0 else _set(list(order), draw(st.sampled_from(
        SET_SEPARATORS)), form - 1)
    if draw(st.booleans()):
        wrong, how = draw(st.sampled_from(branches)), "only one branch"
    else:
        a2 = a + draw(st.sampled_from([-2, -1, 1, 2]))
        wrong, how = f"{a2 if a2 else ''} \\pm {tail}".strip(), "centre changed"
    return Case("pm", gold, same, wrong, how, parts=tuple(order))


def _matrix(rows: list[list[Fraction]], env: int, draw: Draw | None) -> str:
    cells = [" & ".join(element(v, draw) if draw else gold_number(v, 2) for v in row) for row in rows]
    body = " \\\\ ".join(cells)
    if draw and draw(st.booleans()):
        body += " \\\\"  # trailing row separator
    cols = "c" * len(rows[0])
    return [
        f"\\begin{{pmatrix}} {body} \\end{{pmatrix}}",
        f"\\begin{{bmatrix}} {body} \\end{{bmatrix}}",
        f"\\left[ \\begin{{array}}{{{cols}}} {body} \\end{{array}} \\right]",
        f"\\left( \\begin{{array}}{{{cols}}} {body} \\end{{array}} \\right)",
        f"\\left(\\begin{{matrix}} {body} \\end{{matrix}}\\right)",
    ][env]


@st.composite
def matrix_case(draw: Draw) -> Case:
    r, c = draw(st.sampled_from([(2, 2), (2, 2), (3, 3), (2, 3), (3, 2), (2, 1), (3, 1)]))
    cell = st.one_of(st.integers(-20, 20).map(Fraction), st.builds(Fraction, st.integers(-9, 9),
                                                                     st.integers(2, 5)))
    rows = [[draw(cell) for _ in range(c)] for _ in range(r)]
    transposed = [list(col) for col in zip(*rows)]
    gold = _matrix(rows, 0, None)
    same = _matrix(rows, draw(st.integers(0, 4)), draw)
    if r == c and transposed != rows and draw(st.booleans()):
        wrong_rows, how = transposed, "transposed"
    elif r != c and draw(st.booleans()):
        wrong_rows, how = transposed, "transposed (shape)"
    else:
        i, j = draw(st.integers(0, r - 1)), draw(st.integers(0, c - 1))
        wrong_rows = [list(row) for row in rows]
        wrong_rows[i][j] = change_one_digit(rows[i][j], draw)
        how = "one entry's digit"
    return Case("matrix", gold, same, _matrix(wrong_rows, draw(st.integers(0, 4)), draw), how)


LETTERS = "ABCDE"
WORDS = ["even", "odd", "neither", "Monday", "Tuesday", "Saturday", "Sunday", "circle", "parabola",
         "ellipse", "hyperbola", "Devon", "Evelyn", "north", "yes", "no"]


@st.composite
def text_case(draw: Draw) -> Case:
    if draw(st.booleans()):
        letter = draw(st.sampled_from(LETTERS))
        other = draw(st.sampled_from([x for x in LETTERS if x != letter]))
        forms = ["\\text{(@)}", "@", "(@)", "\\text{@}", "\\textbf{(@)}", "\\mathrm{(@)}"]
        return Case("text", "\\text{(@)}".replace("@", letter), draw(st.sampled_from(forms)).replace("@", letter),
                    draw(st.sampled_from(forms)).replace("@", other), "another choice")
    word = draw(st.sampled_from(WORDS))
    other = draw(st.sampled_from([w for w in WORDS if w.lower() != word.lower()]))
    case = draw(st.sampled_from([str.lower, str.upper, str.capitalize, lambda s: s]))
    forms = ["\\text{@}", "@", "\\textbf{@}", "\\mathrm{@}", "\\text{ @ }"]
    return Case("text", "\\text{@}".replace("@", word), draw(st.sampled_from(forms)).replace("@", case(word)),
                draw(st.sampled_from(forms)).replace("@", other), "another word")


@st.composite
def percent_case(draw: Draw) -> Case:
    q = draw(st.one_of(st.integers(1, 999).map(Fraction), st.builds(lambda n: Fraction(n, 10),
                                                                       st.integers(1, 999))))
    n = terminating_decimal(q)
    wrong = terminating_decimal(change_one_digit(q, draw))
    forms = ["%s\\%%", "%s", "%s \\%%", "%s\\text{ percent}", "%s\\,\\%%"]
    return Case("percent", f"{n}\\%", draw(st.sampled_from(forms)) % n, draw(st.sampled_from(forms)) % wrong,
                "one digit changed")


@st.composite
def infinity_case(draw: Draw) -> Case:
    neg = draw(st.booleans())
    forms = ["\\infty", "\u221e", "+\\infty"] if not neg else ["-\\infty", "-\u221e", "\u2212\\infty"]
    other = ["-\\infty", "-\u221e", "\u2212\\infty"] if not neg else ["\\infty", "\u221e", "+\\infty"]
    return Case("infinity", ("-" if neg else "") + INF, draw(st.sampled_from(forms)),
                draw(st.sampled_from(other)), "sign of infinity")


KINDS: dict[str, st.SearchStrategy[Case]] = {
    "number": number_case(), "radical": radical_case(), "pi": pi_case(), "polynomial": polynomial_case(),
    "rational": rational_case(), "equation": line_case(), "complex": complex_case(), "tuple": tuple_case(),
    "set": set_case(), "tuple_set": tuple_set_case(), "interval": interval_case(),
    "relation": relation_case(), "chain": chain_case(), "pm": pm_case(), "matrix": matrix_case(),
    "text": text_case(), "percent": percent_case(), "infinity": infinity_case(),
}
MULTI_VALUED = ("set", "tuple_set", "pm")
SINGLE_VALUED = [k for k in KINDS if k not in MULTI_VALUED]
ALL_CASES = st.one_of(*KINDS.values())


# --------------------------------------------------------------------------------------------------------
# Responses
# --------------------------------------------------------------------------------------------------------

REASONING = [
    "We first simplify the expression. Multiplying both sides by 2 gives 2x + 6 = 14, so we proceed.\n\n",
    "Let me think step by step.\nThe constraint gives $3a - 1 = 8$, hence $a = 3$. Then we substitute.\n",
    "Consider the cases $n = 1$ and $n = 2$ separately; both lead to the same conclusion.\n\n",
    "",
    "**Step 1.** Set up the equation $y = 4x - 7$.\n**Step 2.** Solve it for the requested quantity.\n\n",
]


def say(answer: str) -> str:
    """The answer as it appears in running text: bare when it is a plain number, else in $...$."""
    plain = answer.replace("-", "").replace(".", "").replace("/", "")
    return answer if plain.isdigit() else f"${answer}$"


def boxed(answer: str, reasoning: str) -> str:
    return f"{reasoning}Therefore, the answer is $\\boxed{{{answer}}}$."


def check(response: str, gold: str, expect: bool, why: str, allowed_wrong: tuple[str, ...] = ("incorrect",)
          ) -> None:
    """Score and assert the contract's verdict, showing response, gold and Score on failure."""
    s = math.score(response, gold, config=CONFIG)
    ok = s.status == "correct" if expect else s.status in allowed_wrong
    verdict = "correct" if expect else "/".join(allowed_wrong)
    assert ok, f"{why}: expected {verdict}\n  response: {response!r}\n  gold:     {gold!r}\n  score:    {s}"


# --------------------------------------------------------------------------------------------------------
# Equivalent rewrites score correct; perturbations never do
# --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(KINDS))
@settings(PROPS)
@given(data=st.data())
def test_equivalent_rewrite_scores_correct(kind: str, data: st.DataObject) -> None:
    case = data.draw(KINDS[kind])
    reasoning = data.draw(st.sampled_from(REASONING))
    check(boxed(case.same, reasoning), case.gold, True, f"{kind}: an equivalent rendering")


@pytest.mark.parametrize("kind", list(KINDS))
@settings(PROPS)
@given(data=st.data())
def test_perturbation_scores_incorrect(kind: str, data: st.DataObject) -> None:
    case = data.draw(KINDS[kind])
    reasoning = data.draw(st.sampled_from(REASONING))
    check(boxed(case.wrong, reasoning), case.gold, False, f"{kind}: perturbed ({case.wrong_how})")


@pytest.mark.parametrize("kind", list(KINDS))
@settings(PROPS)
@given(data=st.data())
def test_equivalent_is_symmetric_and_reflexive(kind: str, data: st.DataObject) -> None:
    case = data.draw(KINDS[kind])
    for text in (case.gold, case.same, case.wrong):
        assert math.equivalent(text, text), f"{kind}: not reflexive on {text!r}"
    for a, b in ((case.gold, case.same), (case.gold, case.wrong), (case.same, case.wrong)):
        ab, ba = math.equivalent(a, b), math.equivalent(b, a)
        assert ab == ba, f"{kind}: not symmetric: equivalent({a!r}, {b!r}) = {ab}, reversed {ba}"


@pytest.mark.parametrize("kind", list(KINDS))
@settings(PROPS)
@given(data=st.data())
def test_equivalent_agrees_with_the_contract(kind: str, data: st.DataObject) -> None:
    """``equivalent(gold, answer)`` (used for majority voting) gives the contract's verdict."""
    case = data.draw(KINDS[kind])
    assert math.equivalent(case.gold, case.same), f"{kind}: {case.gold!r} vs rendering {case.same!r}"
    assert not math.equivalent(case.gold, case.wrong), (
        f"{kind}: {case.gold!r} vs perturbed {case.wrong!r} ({case.wrong_how})")


# --------------------------------------------------------------------------------------------------------
# Where the final answer is: the same gold text in the ways models state it
# --------------------------------------------------------------------------------------------------------

DEBRIS = ["<|im_end|>\n<|im_start|>user\nThanks! Now what is 7 + 5?<|im_end|>\n<|im_start|>assistant\n",
          "</s>", "<|im_end|>", "<|endoftext|>Human: next question, 3 * 4?", "<|eot_id|><|start_header_id|>user"]


def _closing(kind: str, answer: str) -> str:
    subject = {"interval": "the domain of $f$", "relation": "the solution set", "chain": "the solution set",
               "set": "the solutions", "tuple_set": "the solutions", "pm": "the roots",
               "matrix": "the matrix $\\mathbf{M}$", "tuple": "the ordered pair", "text": "the answer",
               "equation": "the equation of the line", "polynomial": "the polynomial $p(x)$",
               "rational": "$f(x)$", "percent": "the percentage", "complex": "the value of $z$",
               "infinity": "the limit"}.get(kind, "the smallest possible $k$")
    verb = "are" if kind in MULTI_VALUED else "is"
    return f"{subject[0].upper()}{subject[1:]} {verb} {say(answer)}."


ANSWER_FORMS: dict[str, Callable[[Case, str, Draw], str]] = {
    "fbox": lambda c, r, d: f"{r}So the result is $\\fbox{{{c.gold}}}$.",
    "display_boxed": lambda c, r, d: f"{r}Hence\n\\[\n\\boxed{{{c.gold}}}\n\\]",
    "final_answer_line": lambda c, r, d: f"{r}Final Answer: The final answer is ${c.gold}$. I hope it is correct.",
    "the_final_answer_is": lambda c, r, d: f"{r}The final answer is ${c.gold}$.",
    "bold_answer": lambda c, r, d: f"{r}**Answer:** ${c.gold}$",
    "answer_colon": lambda c, r, d: f"{r}Answer: ${c.gold}$",
    "inline_only": lambda c, r, d: f"${c.gold}$",
    "display_at_end": lambda c, r, d: f"{r}Putting it together,\n\\[ {c.gold} \\]",
    "double_dollar_at_end": lambda c, r, d: f"{r}$$\n{c.gold}\n$$",
    "closing_sentence": lambda c, r, d: f"{r}{_closing(c.kind, c.gold)}",
    "box_then_debris": lambda c, r, d: f"{r}The answer is $\\boxed{{{c.gold}}}$.{d(st.sampled_from(DEBRIS))}",
    "final_then_debris": lambda c, r, d: f"{r}Final Answer: ${c.gold}${d(st.sampled_from(DEBRIS))}",
    "thinking_box_overridden": lambda c, r, d: (
        f"<think>\nMaybe it is $\\boxed{{{c.wrong}}}$? No, I made a sign error.\n</think>\n"
        f"{r}So the answer is $\\boxed{{{c.gold}}}$."),
}


@pytest.mark.parametrize("form", list(ANSWER_FORMS))
@settings(PROPS)
@given(data=st.data())
def test_answer_stated_in_any_form_scores_correct(form: str, data: st.DataObject) -> None:
    case = data.draw(ALL_CASES)
    reasoning = data.draw(st.sampled_from(REASONING))
    response = ANSWER_FORMS[form](case, reasoning, data.draw)
    check(response, case.gold, True, f"{form} ({case.kind})")


@settings(PROPS)
@given(case=st.one_of(number_case(), radical_case(), pi_case()), data=st.data())
def test_value_in_a_closing_sentence_not_the_variable(case: Case, data: st.DataObject) -> None:
    """"The smallest $k$ is 12.": the value stated, never the variable or the figure's name."""
    template = data.draw(st.sampled_from([
        "The smallest $k$ is {a}.", "Final Answer: The area of $PQRS$ is {a}.", "Thus $AB$ equals {a}.",
        "So the value of $x$ is {a}.", "Therefore the length of $\\overline{CD}$ is {a} units.",
        "Hence the probability that $A$ occurs is {a}.",
    ]))
    answer = case.same if data.draw(st.booleans()) else case.gold
    response = data.draw(st.sampled_from(REASONING)) + template.replace("{a}", say(answer))
    check(response, case.gold, True, "value in a closing sentence")


LABELS = ["x", "k", "n", "AB", "|PQ|", "t", "m\\angle B"]


@settings(PROPS)
@given(q=NUMBERS, data=st.data())
def test_labelled_number_compares_the_value(q: Fraction, data: st.DataObject) -> None:
    """``x = 5``, ``k=5``, a chained ``x = 20 + 22 = 42``: compare the value, not the label."""
    gold = gold_number(q, data.draw(st.integers(0, 2)))
    same = data.draw(st.sampled_from(number_renderings(q)))
    name = data.draw(st.sampled_from(LABELS))
    eq = data.draw(st.sampled_from([" = ", "="]))
    chain = ""
    if q.denominator == 1 and data.draw(st.booleans()):
        left = data.draw(st.integers(-50, 50))
        right = q.numerator - left
        chain = f"{left} {'-' if right < 0 else '+'} {abs(right)}{eq}"
    check(boxed(f"{name}{eq}{chain}{same}", ""), gold, True, "labelled value")
    wrong = change_one_digit(q, data.draw)
    check(boxed(f"{name}{eq}{plain_number(wrong)}", ""), gold, False, "labelled wrong value")


@settings(PROPS)
@given(case=tuple_case(), data=st.data())
def test_labelled_tuple_compares_the_value(case: Case, data: st.DataObject) -> None:
    """``(p,q)=(3,2)``."""
    n = case.gold.count(",") + 1
    label = "(" + ",".join("pqrs"[:n]) + ")" + data.draw(st.sampled_from(["=", " = "]))
    check(boxed(label + case.same, ""), case.gold, True, "labelled tuple")
    check(boxed(label + case.wrong, ""), case.gold, False, f"labelled tuple ({case.wrong_how})")


@settings(PROPS)
@given(q=NUMBERS, data=st.data())
def test_number_with_units_and_decorations(q: Fraction, data: st.DataObject) -> None:
    """Units, degree signs, ``\\$`` and thousands separators are ignored."""
    gold = gold_number(q, 0)
    text = data.draw(st.sampled_from(number_renderings(q)))
    if q.denominator == 1 and abs(q) >= 1000 and data.draw(st.booleans()):
        sep = data.draw(st.sampled_from([",", "{,}", ",\\!", "\\,"]))
        text = ("-" if q < 0 else "") + f"{abs(q.numerator):,}".replace(",", sep)
    decorations = ["{} \\text{{ cm}}", "{}\\text{{ dollars}}", "{} \\text{{ m}}^2", "{}\\mbox{{ inches}}",
                   "{}\\ \\text{{square units}}"]
    if "frac" not in text:
        decorations += ["{}^\\circ", "{}^{{\\circ}}"]
    if q >= 0:
        decorations += ["\\${}", "\\$ {}"]
    decorated = data.draw(st.sampled_from(decorations)).format(text)
    check(boxed(decorated, ""), gold, True, "decorated number")


# --------------------------------------------------------------------------------------------------------
# Several boxes, hedges, and answers that must not be read
# --------------------------------------------------------------------------------------------------------


@settings(PROPS)
@given(case=st.one_of(set_case(), tuple_set_case(), pm_case()), data=st.data())
def test_several_boxes_form_a_multivalued_answer(case: Case, data: st.DataObject) -> None:
    joiner = data.draw(st.sampled_from([" and ", ", ", "$ and $", "$, $"]))
    boxes = joiner.join(f"\\boxed{{{p}}}" for p in case.parts)
    check(f"The solutions are ${boxes}$.", case.gold, True, f"one box per element ({case.kind})")
    dropped = joiner.join(f"\\boxed{{{p}}}" for p in case.parts[:-1])
    check(f"The solutions are ${dropped}$.", case.gold, False, f"a box missing ({case.kind})")


@pytest.mark.parametrize("kind", SINGLE_VALUED)
@settings(PROPS)
@given(data=st.data())
def test_hedge_is_incorrect(kind: str, data: st.DataObject) -> None:
    """Two different answers for a single-valued gold, whichever comes first."""
    case = data.draw(KINDS[kind])
    a, b = (case.gold, case.wrong) if data.draw(st.booleans()) else (case.wrong, case.gold)
    response = data.draw(st.sampled_from([
        f"The answer is $\\boxed{{{a}}}$ or $\\boxed{{{b}}}$.",
        f"It could be $\\boxed{{{a}}}$, or maybe $\\boxed{{{b}}}$.",
        f"$\\boxed{{{a} \\text{{ or }} {b}}}$",
        f"Final Answer: ${a}$ or ${b}$",
    ]))
    check(response, case.gold, False, f"hedge ({kind})")


@settings(PROPS)
@given(gold_q=NUMBERS, numerator=st.integers(-99, 99), data=st.data())
def test_division_by_zero_equals_nothing(gold_q: Fraction, numerator: int, data: st.DataObject) -> None:
    gold = data.draw(st.sampled_from([gold_number(gold_q, 0), INF, "-" + INF, "0"]))
    undefined = data.draw(st.sampled_from([
        _braces("frac", str(numerator), "0"), f"{numerator}/0", _braces("dfrac", str(numerator), "0"),
        "\\frac{0}{0}", f"\\frac{{{numerator}}}{{1-1}}",
    ]))
    check(boxed(undefined, ""), gold, False, "division by zero", ("incorrect", "no_answer"))
    assert not math.equivalent(undefined, gold), f"equivalent({undefined!r}, {gold!r}) is True"
    assert not math.equivalent(gold, undefined), f"equivalent({gold!r}, {undefined!r}) is True"
    # nothing, not even itself, alone or inside a tuple or set
    same = data.draw(st.sampled_from([undefined, f"({numerator}, {undefined})", f"\\{{{undefined}, 2\\}}"]))
    check(boxed(same, ""), same, False, "undefined value against itself", ("incorrect", "no_answer"))
    assert not math.equivalent(same, same), f"equivalent({same!r}, itself) is True"


@st.composite
def irrational_gold(draw: Draw) -> tuple[str, float]:
    """A radical or multiple-of-pi gold and its float value."""
    c = draw(st.builds(Fraction, st.integers(-30, 30).filter(bool), st.integers(1, 9)))
    if draw(st.booleans()):
        b = draw(st.sampled_from(SQUAREFREE))
        return _times_sqrt(c, b, 0), float(c) * pymath.sqrt(b)
    return _times_pi(c, 0), float(c) * pymath.pi


@settings(PROPS)
@given(gold=irrational_gold(), digits=st.integers(2, 8), data=st.data())
def test_approximation_is_not_the_exact_value(gold: tuple[str, float], digits: int, data: st.DataObject
                                              ) -> None:
    """``3.14`` is not ``\\pi``; ``1.414`` is not ``\\sqrt{2}`` (short decimals: the contract's clear case)."""
    text, exact = gold
    approx = f"{exact:.{digits}g}"
    assume("e" not in approx)
    approx = data.draw(st.sampled_from([approx, "\\approx " + approx]))
    check(boxed(approx, ""), text, False, "decimal approximation of an irrational gold")


def _irrational_golds() -> list[tuple[str, float]]:
    """Every gold `irrational_gold` can draw."""
    cs = sorted({Fraction(n, d) for n in range(-30, 31) if n for d in range(1, 10)})
    return [(_times_sqrt(c, b, 0), float(c) * pymath.sqrt(b)) for c in cs for b in SQUAREFREE] + [
        (_times_pi(c, 0), float(c) * pymath.pi) for c in cs]


def test_short_decimals_within_rel_tol_by_chance_are_not_the_exact_value() -> None:
    """Rounded to 8 significant digits or fewer, some values land within ``rel_tol`` (1e-9) of the irrational
    they round (``9.20212`` for ``19\\sqrt{19}/9``): still a short approximation. Every such case of the
    `irrational_gold` domain, found by search rather than written down (hypothesis met one; there are 444)."""
    chance = [(text, approx) for text, exact in _irrational_golds() for digits in range(2, 9)
              if "e" not in (approx := f"{exact:.{digits}g}") and abs(float(approx) - exact) <= 1e-9 * abs(exact)]
    assert len(chance) == 444  # the search itself still covers the domain
    wrong = [(approx, text) for text, approx in chance if math.score(boxed(approx, ""), text).correct]
    assert not wrong, f"{len(wrong)} of {len(chance)} short decimals scored correct, e.g. {wrong[:3]}"


@settings(PROPS)
@given(gold=irrational_gold(), digits=st.integers(12, 15))
def test_long_decimal_of_an_irrational_is_its_value_only_with_rel_tol(gold: tuple[str, float], digits: int) -> None:
    """A decimal is the rational it writes: by default it never equals an irrational gold (equality is proved);
    with ``rel_tol=1e-9`` one written finer than that, correctly rounded, is accepted."""
    text, exact = gold
    approx = f"{exact:.{digits}g}"
    assume("e" not in approx and "." in approx)
    # %g drops trailing zeros: keep the decimals written finer than rel_tol of the value (the rule's premise)
    assume(10.0 ** -len(approx.split(".")[1]) <= 1e-9 * abs(exact))
    check(boxed(approx, ""), text, False, "long decimal of an irrational gold, default rel_tol 0")
    s = math.score(boxed(approx, ""), text, config=math.Config(rel_tol=1e-9))
    assert s.status == "correct", (approx, text, s)


@settings(PROPS)
@given(q=st.one_of(fractions_, small_ints), digits=st.integers(1, 4))
def test_rounded_repeating_decimal_is_not_the_fraction(q: Fraction, digits: int) -> None:
    """``0.33`` vs ``\\frac{1}{3}``: a non-terminating fraction never equals a short decimal."""
    assume(terminating_decimal(q) is None)
    approx = f"{float(q):.{digits}f}"
    check(boxed(approx, ""), gold_number(q, 2), False, "rounded repeating decimal")


@settings(PROPS)
@given(case=st.one_of(*(KINDS[k] for k in SINGLE_VALUED)), data=st.data())
def test_earlier_answer_does_not_count(case: Case, data: st.DataObject) -> None:
    """A correct value only in the reasoning or a thinking block, or before a truncated or empty last box."""
    gold, wrong = case.gold, case.wrong
    response = data.draw(st.sampled_from([
        f"<think>\nI get $\\boxed{{{gold}}}$.\n</think>\nOn reflection the answer is $\\boxed{{{wrong}}}$.",
        f"First attempt: $\\boxed{{{gold}}}$. Checking again, the final answer is $\\boxed{{{wrong}}}$.",
    ]))
    check(response, gold, False, f"correct value only earlier ({case.kind})")
    truncated = data.draw(st.sampled_from([
        f"So far $\\boxed{{{gold}}}$. Rechecking, the answer is $\\boxed{{",
        f"Candidate: $\\boxed{{{gold}}}$. Final: $\\boxed{{{gold[: len(gold) // 2]}",
        f"We get $\\boxed{{{gold}}}$, so the answer is $\\boxed{{}}$.",
    ]))
    check(truncated, gold, False, f"empty or unclosed last box ({case.kind})", ("no_answer", "incorrect"))


@settings(PROPS)
@given(case=ALL_CASES)
def test_gold_scores_itself(case: Case) -> None:
    check(f"$\\boxed{{{case.gold}}}$", case.gold, True, f"gold against itself ({case.kind})")
