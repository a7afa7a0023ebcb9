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

import sympy
from sympy import Basic, Eq, Expr, MatrixBase, Rel

try:
    from latex2sympy2_extended import latex2sympy as _latex2sympy
except ImportError:  # pragma: no cover - depends on the install
    _latex2sympy = None

_SAMPLES = 6  # random points for expressions in variables
# Two exact expressions (no decimals) must agree to this relative precision, evaluated at _DIGITS digits
# (pi + e^{-200} is not pi); the configured rel_tol applies only when a side holds a decimal approximation.
_DIGITS = 320
EXACT_REL_TOL = sympy.Float("1e-300", 320)


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
    """Whether two normalized answers are mathematically equal (worker-side)."""
    return objects_equal(parse(gold), parse(answer), rel_tol)


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
            return ratio is not None and ratio.is_number and ratio != 0 or _expr_equal(dg, da, rel_tol)
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
    if _non_finite(g) or _non_finite(a):
        # |a - b| <= tol * max(|a|, |b|) holds whenever a side is infinite: infinities equal only themselves
        return not _undefined(g) and g == a
    diff = g - a
    if diff == 0:
        return True
    if diff.is_Rational:  # sympy already cancelled it exactly: 10^{10^{10}} + 1 - 10^{10^{10}} = 1
        return False
    free = diff.free_symbols
    if not free:
        decimal = g.has(sympy.Float) or a.has(sympy.Float)
        digits = 50 if decimal else _DIGITS
        vg, va = sympy.N(g, digits), sympy.N(a, digits)
        if not (vg.is_number and va.is_number) or _non_finite(vg) or _non_finite(va):
            return False
        tol = rel_tol if decimal else EXACT_REL_TOL
        scale = max(abs(vg), abs(va))
        return bool(abs(vg - va) <= tol * scale) if scale != 0 else True
    if sympy.simplify(diff) == 0:
        return True
    # Expressions in variables: agree at random points of both signs and several scales (rational points
    # avoid branch-cut ties), to 50 digits; rel_tol only when a side holds a decimal approximation. As in the
    # in-process check, a point outside a side's real domain (log of a negative) is skipped, never decides.
    rng = random.Random(0)
    symbols = sorted(free, key=str)
    tol = rel_tol if (g.has(sympy.Float) or a.has(sympy.Float)) else EXACT_REL_TOL
    real = not (g.has(sympy.I) or a.has(sympy.I))
    agreed = 0
    for k in range(4 * _SAMPLES):
        point = {s: sympy.Rational(rng.choice((-1, 1)) * rng.randint(1, 997) * 10 ** (k % 3 * 2), rng.randint(1, 97))
                 for s in symbols}
        vg, va = sympy.N(g.subs(point), _DIGITS), sympy.N(a.subs(point), _DIGITS)
        if not (vg.is_number and va.is_number) or _non_finite(vg) or _non_finite(va):
            continue
        if real and (sympy.im(vg) != 0 or sympy.im(va) != 0):
            continue
        scale = max(abs(vg), abs(va), sympy.Float(1e-30))
        if abs(vg - va) > tol * scale:
            return False
        agreed += 1
        if agreed >= _SAMPLES:
            return True
    return False
