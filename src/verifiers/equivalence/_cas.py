"""Symbolic equivalence with sympy. Runs only inside worker processes (``verifiers.equivalence._cas_pool``).

This is the fallback behind the in-process comparison (``verifiers.equivalence._expr_eval``): it sees only
answers the in-process parser cannot read (``\\sum``, ``\\int``, matrix arithmetic, ``\\begin{cases}``...) and
expressions that agree numerically but are not rational functions (to confirm equality). Parsing uses
``latex2sympy2_extended`` (Math-Verify's LaTeX parser) because it covers far more LaTeX than the in-process
parser, which is kept small on purpose (bounded, no sympy import); sympy's own LaTeX parser is the fallback.
Nothing here has its own timeout: the worker is killed if it overruns. Infinities equal only themselves and
an undefined value (``zoo``, ``nan``) equals nothing: a relative-tolerance test would accept them.
"""

from __future__ import annotations

import random
import re

import sympy
from sympy import Basic, Eq, Expr, MatrixBase, Rel

try:
    from latex2sympy2_extended import latex2sympy as _latex2sympy
except ImportError:  # pragma: no cover - depends on the install
    _latex2sympy = None



_CONSTANTS = {sympy.Symbol("i"): sympy.I, sympy.Symbol("e"): sympy.E}


def parse(text: str) -> Basic:
    """Parse a normalized LaTeX answer into a sympy object (``i`` and ``e`` read as constants)."""
    if _latex2sympy is not None:
        expr = _latex2sympy(text)
    else:  # pragma: no cover
        from sympy.parsing.latex import parse_latex

        expr = parse_latex(text)
    if isinstance(expr, Basic) and expr.free_symbols & _CONSTANTS.keys():
        expr = expr.subs(_CONSTANTS)
    return expr


def equal(gold: str, answer: str, rel_tol: float) -> bool:
    """Whether two normalized answers are proved mathematically equal (worker-side)."""
    return objects_equal(parse(exact_decimals(gold)), parse(exact_decimals(answer)), rel_tol)


def objects_equal(g: Basic, a: Basic, rel_tol: float) -> bool:
    """Equality of two parsed answers: expressions, equations, relations, matrices and sets."""
    g, a = _evaluated(g), _evaluated(a)
    if g == a:
        return True
    if _undefined(g) or _undefined(a):
        return False  # an undefined value (zoo, nan) equals nothing
    if isinstance(g, Rel) or isinstance(a, Rel):
        if type(g) is not type(a):
            return False
        dg, da = g.lhs - g.rhs, a.lhs - a.rhs  # type: ignore[union-attr]
        if isinstance(g, Eq):  # equations match up to a non-zero constant factor
            ratio = sympy.simplify(dg / da) if da != 0 else None
            if ratio is not None and ratio.is_number and ratio != 0:
                return True
            return _proportional(dg, da) or _expr_equal(dg, da, rel_tol)
        return _expr_equal(dg, da, rel_tol)
    if isinstance(g, MatrixBase) or isinstance(a, MatrixBase):
        if not (isinstance(g, MatrixBase) and isinstance(a, MatrixBase)) or g.shape != a.shape:
            return False
        return all(_expr_equal(x, y, rel_tol) for x, y in zip(g, a))
    if isinstance(g, sympy.Set) or isinstance(a, sympy.Set):
        if not (isinstance(g, sympy.Set) and isinstance(a, sympy.Set)):
            return False
        return bool(sympy.simplify(sympy.Eq(g, a)) is sympy.true) or g.symmetric_difference(a) == sympy.S.EmptySet
    if isinstance(g, Expr) and isinstance(a, Expr):
        return _expr_equal(g, a, rel_tol)
    return False


def _proportional(f: Expr, h: Expr) -> bool:
    """``f = r h`` exactly, ``r`` the exact (non-zero) ratio at one rational point: proved by the exact zero test."""
    point = {v: sympy.Rational(7919 + 31 * k, 113 + 17 * k) for k, v in enumerate(sorted(h.free_symbols, key=str))}
    hv = sympy.simplify(h.subs(point))
    if hv == 0 or not hv.is_number:
        return False
    r = sympy.simplify(f.subs(point) / hv)
    return bool(r != 0 and r.is_number and sympy.simplify(sympy.expand(f - r * h)) == 0)


def _evaluated(x: Basic) -> Basic:
    """Matrix arithmetic carried out (``A + B``, ``AB``), so it compares as the matrix it equals."""
    if isinstance(x, sympy.MatrixExpr) and not isinstance(x, MatrixBase):
        try:
            return x.doit()
        except Exception:  # noqa: BLE001 - shapes that do not fit: leave it unevaluated (never equal)
            return x
    return x


def _undefined(x: Basic) -> bool:
    return isinstance(x, Basic) and (x.has(sympy.zoo) or x.has(sympy.nan))


def _non_finite(x: Expr) -> bool:
    return bool(x.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan))


def _expr_equal(g: Expr, a: Expr, rel_tol: float) -> bool:
    """Equal only by an exact argument: the difference is zero after sympy's exact simplification (variables
    read as real), or, for an algebraic constant, its minimal polynomial is ``x``. Numbers are used only to
    stop early when the two sides clearly differ; agreement of numbers proves nothing (``rel_tol`` is unused:
    decimals reach the CAS as exact rationals, see `exact_decimals`)."""
    if _non_finite(g) or _non_finite(a):
        # |a - b| <= tol * max(|a|, |b|) holds whenever a side is infinite: infinities equal only themselves
        return not _undefined(g) and g == a
    diff = g - a
    if diff == 0:
        return True
    if diff.is_Rational:  # sympy already cancelled it exactly: 10^{10^{10}} + 1 - 10^{10^{10}} = 1
        return False
    real = {s: sympy.Symbol(s.name, real=True) for s in diff.free_symbols if isinstance(s, sympy.Symbol)}
    if real:
        diff = diff.xreplace(real)
    if _clearly_nonzero(diff):
        return False
    if sympy.simplify(diff) == 0:
        return True
    if not diff.free_symbols and not diff.has(sympy.Float):
        try:
            x = sympy.Dummy("x")
            return bool(sympy.minimal_polynomial(diff, x) == x)
        except (NotImplementedError, ValueError, sympy.polys.polyerrors.PolynomialError):
            return False
    return False


def _clearly_nonzero(diff: Expr) -> bool:
    """A quick look, never a proof of equality: the difference evaluates to a non-zero number with its
    digits certain (sympy raises the working precision until they are; ``strict``), at a rational point when
    it has variables. Used only to skip the exact test for answers that are plainly different."""
    rng = random.Random(0)
    point = {s: sympy.Rational(rng.randint(1, 997), rng.randint(1, 97)) for s in diff.free_symbols}
    try:
        v = diff.subs(point).evalf(15, strict=True, maxn=4000)
    except Exception:  # noqa: BLE001 - no certain digits (a true zero, or too costly): no shortcut
        return False
    return bool(v.is_number and not _non_finite(v) and v != 0)


_DECIMAL = re.compile(r"(?<![\\\w.])(\d*)\.(\d+)(?![\d.])")


def exact_decimals(text: str) -> str:
    """Every decimal in a LaTeX answer as the exact rational it writes (``12.00000001`` ->
    ``(\\frac{1200000001}{100000000})``), so a decimal inside ``\\int`` or ``\\lim`` is compared exactly."""
    def repl(m: re.Match[str]) -> str:
        whole, frac = m.group(1) or "0", m.group(2)
        return f"(\\frac{{{int(whole + frac)}}}{{{10 ** len(frac)}}})"
    return _DECIMAL.sub(repl, text)
