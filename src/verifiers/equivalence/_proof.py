"""Proofs of equality by canonical form: both expressions as rational functions over Q in "atoms".

An expression tree (``verifiers.answers._latex_expr``) is rewritten, in exact rational arithmetic, as a
quotient ``p / q`` of polynomials whose indeterminates are atoms: variables, ``\\pi``, ``e``, ``i``, roots of
primes, and every other sub-expression that is not a rational operation (``\\sin(x)``, ``\\lfloor x/2\\rfloor``,
``e^{x}``, ``\\ln 3``), named by the canonical form of its argument. Some atoms satisfy a relation that is
applied as a reduction: ``i^2 = -1``, ``\\sqrt[n]{p}^n = p``, ``\\sqrt[n]{f}^n = f``.

Identities applied while rewriting (each a theorem, true wherever both sides have values):

- sums, products and integrals in closed form (`verifiers.equivalence._calculus`); one without a closed form is
  an atom named by its bounds and its body's canonical form (the same integrand gives the same integral);
- factorials and the gamma function share one atom per argument up to an integer shift: ``(f + c)!`` is
  ``f! (f+1) ... (f+c)`` and ``(f - c)! = f! / (f (f-1) ... (f-c+1))`` (``c <= MAX_SHIFT``), ``\\Gamma(z) = (z-1)!``,
  ``n!`` of a natural constant is its value, ``\\Gamma(k + 1/2)`` is a rational multiple of ``\\sqrt{\\pi}``;
- ``\\sin(ku)``, ``\\cos(ku)``, ``\\tan(ku)`` for an integer ``k`` (the gcd of the argument's integer coefficients, up to
  ``MAX_MULTIPLE``) are polynomials in ``\\sin u`` and ``\\cos u`` (the addition formulas), with ``\\sin^2 u = 1 - \\cos^2 u``
  applied as a reduction: double angles and the Pythagorean identity are proved without the CAS;
- ``\\arccos f = \\pi/2 - \\arcsin f`` (principal values, every argument); ``\\arcsin`` and ``\\arctan`` at the
  standard arguments (``0``, ``\\pm 1/2``, ``\\pm\\sqrt{2}/2``, ``\\pm\\sqrt{3}/2``, ``\\pm 1``; ``\\pm\\sqrt{3}``,
  ``\\pm\\sqrt{3}/3``) are the rational multiples of ``\\pi`` of the table.

The rule, and why it is a proof: ``p1/q1 = p2/q2`` is proved when ``p1 q2 - p2 q1`` is the zero polynomial
after the reductions. Each reduction is a ring homomorphism to a quotient ring through which evaluation at
any point factors, so the values satisfy ``p1 q2 = p2 q1`` wherever the atoms have values; where both
denominators are non-zero the two expressions are then equal. Atoms are never assumed independent for a
"different" verdict: a form that does not cancel proves nothing (``\\sin^2 x + \\cos^2 x`` vs ``1`` is left to
the CAS). Work is bounded (``MAX_TERMS`` terms, ``MAX_POWER``): beyond it the proof is refused, never guessed.
"""

from __future__ import annotations

import functools
import math as _m
from fractions import Fraction

from verifiers.answers._latex_expr import Node, parse_expr
from verifiers.equivalence._calculus import closed_form

MAX_TERMS = 3_000
MAX_POWER = 256
MAX_STEPS = 5_000
MAX_COEFF_BITS = 20_000
MAX_SHIFT = 64  # (n+c)! with |c| up to this shares n!'s atom
MAX_MULTIPLE = 12  # sin(k u), cos(k u) are expanded in sin u, cos u for |k| up to this
MAX_FACTORIAL = 1_000  # n! of a constant natural n up to this is its value
_SMALL_PRIMES = tuple(p for p in range(2, 1000) if all(p % d for d in range(2, int(p**0.5) + 1)))

Mono = tuple[tuple[str, int], ...]
Poly = dict[Mono, Fraction]



def _accumulate(poly: Poly, monomial: Mono, coefficient: Fraction) -> None:
    """Add ``coefficient`` to ``monomial``'s term of ``poly`` in place, dropping a term that cancels."""
    v = poly.get(monomial, Fraction(0)) + coefficient
    if v:
        poly[monomial] = v
    else:
        poly.pop(monomial, None)

class Refused(Exception):
    """No canonical form within the budget (or an operation outside the rules)."""


def proves_equal(a: Node, b: Node) -> bool:
    """Whether ``a`` and ``b`` are equal by canonical form (``False``: not proved, which proves nothing)."""
    try:
        c = _Canon()
        na, da = c.rat(closed_form(a))
        nb, db = c.rat(closed_form(b))
        return not c.sub(c.mul(na, db), c.mul(nb, da))
    except (Refused, RecursionError, ZeroDivisionError, OverflowError, ValueError):
        return False


def proves_proportional(a: Node, b: Node, ratio: Fraction) -> bool:
    """Whether ``a = ratio * b`` identically (equations ``a = 0`` and ``b = 0`` then have the same solutions)."""
    return proves_equal(a, ("mul", ("num", ratio, False), b))


class _Canon:
    def __init__(self) -> None:
        self.reductions: dict[str, tuple[int, Poly]] = {"i": (2, {(): Fraction(-1)})}
        self.memo: dict[Node, tuple[Poly, Poly]] = {}  # each sub-tree once: nested roots name their arguments
        self.steps = 0

    def rat(self, node: Node) -> tuple[Poly, Poly]:
        done = self.memo.get(node)
        if done is None:
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise Refused("too many steps")
            done = self.memo[node] = self._rat(node)
        return done

    # ---------------------------------------------------------------- polynomial arithmetic

    def add(self, p: Poly, q: Poly, sign: int = 1) -> Poly:
        out = dict(p)
        for m, c in q.items():
            _accumulate(out, m, sign * c)
        if len(out) > MAX_TERMS:
            raise Refused("too many terms")
        return out

    def sub(self, p: Poly, q: Poly) -> Poly:
        return self.add(p, q, -1)

    def mul(self, p: Poly, q: Poly) -> Poly:
        self.steps += len(p) * len(q)
        if len(p) * len(q) > 8 * MAX_TERMS or self.steps > 50 * MAX_STEPS:
            raise Refused("product too large")
        out: Poly = {}
        for m1, c1 in p.items():
            for m2, c2 in q.items():
                for m, c in self._reduce(_mono_mul(m1, m2), c1 * c2).items():
                    _accumulate(out, m, c)
        if len(out) > MAX_TERMS:
            raise Refused("too many terms")
        for c in out.values():
            if c.numerator.bit_length() + c.denominator.bit_length() > MAX_COEFF_BITS:
                raise Refused("coefficients too large")
        return out

    def _reduce(self, m: Mono, c: Fraction) -> Poly:
        """The monomial ``c * m`` with every reducible atom's exponent below its index."""
        for k, (atom, e) in enumerate(m):
            red = self.reductions.get(atom)
            if red is not None and e >= red[0]:
                n, value = red
                rest = m[:k] + (((atom, e - n),) if e > n else ()) + m[k + 1:]
                out: Poly = {}
                for vm, vc in value.items():
                    for rm, rc in self._reduce(_mono_mul(rest, vm), c * vc).items():
                        out[rm] = out.get(rm, Fraction(0)) + rc
                return {x: y for x, y in out.items() if y}
        return {m: c}

    def power(self, p: Poly, n: int) -> Poly:
        if n > MAX_POWER:
            raise Refused("power too large")
        out: Poly = {(): Fraction(1)}
        base = p
        while n:
            if n & 1:
                out = self.mul(out, base)
            n >>= 1
            if n:
                base = self.mul(base, base)
        return out

    # ---------------------------------------------------------------- trees to rational functions

    def _rat(self, node: Node) -> tuple[Poly, Poly]:
        kind = node[0]
        one: Poly = {(): Fraction(1)}
        if kind == "num":
            return ({(): node[1]} if node[1] else {}), one
        if kind == "sym":
            return {(("s:" + node[1], 1),): Fraction(1)}, one
        if kind == "const":
            if node[1] == "inf":
                raise Refused("infinity")
            return {((node[1], 1),): Fraction(1)}, one
        if kind in ("add", "sub"):
            (n1, d1), (n2, d2) = self.rat(node[1]), self.rat(node[2])
            if d1 == d2:
                return self.add(n1, n2, 1 if kind == "add" else -1), d1
            return self.add(self.mul(n1, d2), self.mul(n2, d1), 1 if kind == "add" else -1), self.mul(d1, d2)
        if kind == "neg":
            n1, d1 = self.rat(node[1])
            return {m: -c for m, c in n1.items()}, d1
        if kind == "mul":
            (n1, d1), (n2, d2) = self.rat(node[1]), self.rat(node[2])
            return self.mul(n1, n2), self.mul(d1, d2)
        if kind == "div":
            (n1, d1), (n2, d2) = self.rat(node[1]), self.rat(node[2])
            if not n2:
                raise Refused("division by zero")
            return self.mul(n1, d2), self.mul(d1, n2)
        if kind == "pow":
            e = _rational_constant(node[2])
            if e is not None and e.denominator == 1:
                n1, d1 = self.rat(node[1])
                k = abs(e.numerator)
                if e < 0 and not n1:
                    raise Refused("zero to a negative power")
                pn, pd = self.power(n1, k), self.power(d1, k)
                return (pd, pn) if e < 0 else (pn, pd)
            base = _rational_constant(node[1])
            if e is not None and abs(e.numerator) > MAX_POWER:
                raise Refused("power too large")
            if e is not None and base is not None and base > 0:  # 8^{2/3}, 2^{1/2}
                return self._rational_root(base ** e.numerator if e > 0 else 1 / base ** -e.numerator,
                                           e.denominator)
            if e is not None:  # f^{p/q} = (f^{1/q})^p, the root of the base as an atom
                root = self.rat(("root", node[1], ("num", Fraction(e.denominator), False)))
                k = abs(e.numerator)
                pn, pd = self.power(root[0], k), self.power(root[1], k)
                return (pd, pn) if e < 0 else (pn, pd)
            if node[1] == ("const", "e") or (base is not None and base > 0):
                split = self._exponential(node)
                if split is not None:
                    return split
            return self._atom("pow", node)
        if kind == "root":
            index = _rational_constant(node[2])
            if index is None or index.denominator != 1 or not 2 <= index <= 64:
                raise Refused("root index")
            n = int(index)
            radicand = _rational_constant(node[1])
            if radicand is not None:
                if radicand < 0:
                    if n % 2 == 0:
                        raise Refused("even root of a negative number")
                    num, den = self._rational_root(-radicand, n)
                    return {m: -c for m, c in num.items()}, den
                return self._rational_root(radicand, n)
            key = f"root{n}({self.key(node[1])})"
            rn, rd = self.rat(node[1])
            if rd == one:  # sqrt(f)^2 = f for a polynomial f
                self.reductions[key] = (n, rn)
            return {((key, 1),): Fraction(1)}, one
        if kind == "binom":
            lower = _rational_constant(node[2])
            if lower is not None and lower.denominator == 1 and 0 <= lower <= 64:
                n1, d1 = self.rat(node[1])
                num, den = one, one
                for j in range(int(lower)):  # n (n-1) ... (n-k+1) / k!
                    num = self.mul(num, self.sub(n1, self.mul({(): Fraction(j)}, d1)))
                    den = self.mul(den, self.mul({(): Fraction(j + 1)}, d1))
                return num, den
            return self._atom("binom", node)
        if kind == "fn" and node[1] == "ln" or kind == "log":
            split = self._logarithm(node)
            if split is not None:
                return split
        if kind == "fact":
            return self._factorial(node[1], 0)
        if kind == "fn" and node[1] == "gamma":
            return self._factorial(node[2], -1)
        if kind == "fn" and node[1] == "arccos":  # principal values: arccos z = pi/2 - arcsin z for every z
            return self.rat(("sub", ("div", ("const", "pi"), ("num", Fraction(2), False)), ("fn", "arcsin", node[2])))
        if kind == "fn" and node[1] in _SPECIAL:
            known = self._special(node[1], node[2])
            if known is not None:
                return known
        if kind == "fn" and node[1] in ("sin", "cos", "tan"):
            trig = self._trig(node[1], node[2])
            if trig is not None:
                return trig
        if kind in ("fn", "log"):
            return self._atom(kind, node)
        if kind in ("sum", "prod", "int"):  # no closed form: one atom per (bounds, canonical body)
            ends = ",".join("-" if x is None else self.key(x) for x in node[2:4])
            return {((f"{kind}[{node[1]}]({ends},{self.key(node[4])})", 1),): Fraction(1)}, {(): Fraction(1)}
        raise Refused(kind)

    def _trig(self, name: str, arg: Node) -> tuple[Poly, Poly] | None:
        """``\\sin``, ``\\cos``, ``\\tan`` of ``k u`` (``u`` the argument over the gcd ``k <= MAX_MULTIPLE`` of its integer
        coefficients) as polynomials in the atoms ``\\sin u`` and ``\\cos u`` with ``\\sin^2 u = 1 - \\cos^2 u`` applied
        (``\\tan = \\sin/\\cos``); ``None`` for an argument that is not an integer polynomial."""
        num, den = self.rat(arg)
        if den != {(): Fraction(1)} or not num or any(c.denominator != 1 for c in num.values()):
            return None
        k = 0
        for c in num.values():
            k = _m.gcd(k, int(c))
        lead = num[min(num)]
        k = k if lead > 0 else -k  # u has a positive leading coefficient: sin(-x) and sin(x) share one atom
        if abs(k) > MAX_MULTIPLE:
            return None
        u = {m: c / k for m, c in num.items()}
        base = _poly_key(u, Fraction(1))
        s_key, c_key = f"sin[{base}]", f"cos[{base}]"
        one: Poly = {(): Fraction(1)}
        self.reductions[s_key] = (2, {(): Fraction(1), ((c_key, 2),): Fraction(-1)})  # sin^2 u = 1 - cos^2 u
        sin_u: Poly = {((s_key, 1),): Fraction(1)}
        cos_u: Poly = {((c_key, 1),): Fraction(1)}
        sin_k: Poly = {}  # sin(0 u)
        cos_k: Poly = one  # cos(0 u)
        for _ in range(abs(k)):  # sin((j+1)u) = sin(ju)cos u + cos(ju) sin u; cos((j+1)u) = cos(ju)cos u - sin(ju) sin u
            sin_k, cos_k = (self.add(self.mul(sin_k, cos_u), self.mul(cos_k, sin_u)),
                            self.sub(self.mul(cos_k, cos_u), self.mul(sin_k, sin_u)))
        if k < 0:
            sin_k = {m: -c for m, c in sin_k.items()}
        if name == "sin":
            return sin_k, one
        if name == "cos":
            return cos_k, one
        if not cos_k:
            raise Refused("tan at a pole")
        return sin_k, cos_k

    def _factorial(self, arg: Node, shift: int) -> tuple[Poly, Poly]:
        """``(arg + shift)!`` (``shift = -1``: ``\\Gamma(arg)``): the value of a natural constant, else the atom
        of the argument without its constant term times (or over) the factors of the shift."""
        one: Poly = {(): Fraction(1)}
        num, den = self.rat(arg)
        if set(den) == {()}:  # a constant denominator: divide it out (1/2 is num 1 over den 2)
            num, den = {m: v / den[()] for m, v in num.items()}, one
        c = num.get((), Fraction(0)) + shift
        if den != one or c.denominator != 1 or abs(c) > MAX_SHIFT:
            half = self._gamma_half(num, den, shift)
            if half is not None:
                return half
            key = self.key(("add", arg, ("num", Fraction(shift), False)))
            return {((f"fact({key})", 1),): Fraction(1)}, one
        base = {m: v for m, v in num.items() if m}
        n = int(c)
        if not base:
            if n < 0:
                raise Refused("factorial of a negative integer")
            if n > MAX_FACTORIAL:
                raise Refused("factorial too large")
            return {(): Fraction(_m.factorial(n))}, one
        atom: Poly = {((f"fact({_poly_key(base, Fraction(1))})", 1),): Fraction(1)}
        factors = one
        for j in range(1, n + 1) if n > 0 else range(n + 1, 1):
            factors = self.mul(factors, self.add(base, {(): Fraction(j)}))
        return (self.mul(atom, factors), one) if n >= 0 else (atom, factors)

    def _gamma_half(self, num: Poly, den: Poly, shift: int) -> tuple[Poly, Poly] | None:
        """``(k - 1/2)!`` = ``\\Gamma(k + 1/2)``, a rational multiple of ``\\sqrt{\\pi}``; ``None`` for other arguments."""
        one: Poly = {(): Fraction(1)}
        if den != one or set(num) - {()}:
            return None
        z = num.get((), Fraction(0)) + shift + 1  # the gamma function's argument
        if z.denominator != 2 or abs(z) > MAX_SHIFT:
            return None
        k = int(z - Fraction(1, 2))  # Gamma(k + 1/2)
        coeff = Fraction(_m.factorial(2 * k), 4**k * _m.factorial(k)) if k >= 0 else \
            Fraction((-4) ** -k * _m.factorial(-k), _m.factorial(-2 * k))
        root, _ = self.rat(("root", ("const", "pi"), ("num", Fraction(2), False)))
        return {m: coeff * v for m, v in root.items()}, one

    def _special(self, name: str, arg: Node) -> tuple[Poly, Poly] | None:
        """``\\arcsin`` or ``\\arctan`` at a standard argument (or its negative): its value, else ``None``."""
        target = self.key(arg)
        for tree, value in _special_table(name):
            for sign in (1, -1):
                if self.key(tree if sign > 0 else ("neg", tree)) == target:
                    return self.rat(value if sign > 0 else ("neg", value))
        return None

    def _exponential(self, node: Node) -> tuple[Poly, Poly] | None:
        """``b^{f}`` (``b = e`` or a positive rational) with ``f`` a polynomial of integer coefficients, as the
        product of ``(b^{m})^{c}`` over its terms ``c m`` (true for every real or complex ``f``): ``e^{5x}e^{3x}``
        and ``e^{8x}`` then share one form. ``None`` for any other exponent."""
        num, den = self.rat(node[2])
        if den != {(): Fraction(1)} or any(c.denominator != 1 for c in num.values()):
            return None
        out: tuple[Poly, Poly] = ({(): Fraction(1)}, {(): Fraction(1)})
        base_key = self.key(node[1])
        for m, c in sorted(num.items()):
            k = abs(c.numerator)
            if not m:
                factor = self.rat(("pow", node[1], ("num", Fraction(k), False)))
            else:
                key = f"pow({base_key},{_poly_key({m: Fraction(1)}, Fraction(1))})"
                factor = self.power({((key, 1),): Fraction(1)}, k), {(): Fraction(1)}
            if c < 0:
                factor = factor[1], factor[0]
            out = self.mul(out[0], factor[0]), self.mul(out[1], factor[1])
        return out

    def _logarithm(self, node: Node) -> tuple[Poly, Poly] | None:
        """``\\ln(c f)`` with ``c`` a positive rational: ``\\sum e_p \\ln p + \\ln f`` over the primes of ``c`` (the
        same real domain on both sides: ``c f > 0`` exactly where ``f > 0``); ``\\log_b x = \\ln x / \\ln b``.
        ``None`` when no rule applies."""
        if node[0] == "log":
            if node[1] is None:
                return None
            (n1, d1), (n2, d2) = self._ln(node[2]), self._ln(node[1])
            if not n2:
                return None
            return self.mul(n1, d2), self.mul(d1, n2)
        return self._ln(node[2])

    def _ln(self, arg: Node) -> tuple[Poly, Poly]:
        num, den = self.rat(arg)
        one: Poly = {(): Fraction(1)}
        if den == one and len(num) == 1:
            (m, c), = num.items()
            if c > 0 and c != 1:
                out: Poly = {}
                for p, e in _factor(c):
                    out = self.add(out, {((f"ln:{p}", 1),): Fraction(e)})
                if m:
                    rest = self._ln_atom({m: Fraction(1)}, one)
                    out = self.add(out, rest)
                return out, one
            if c == 1 and not m:
                return {}, one
        return self._ln_atom(num, den), one

    def _ln_atom(self, num: Poly, den: Poly) -> Poly:
        lead = den[min(den)] if den else Fraction(1)
        return {((f"ln({_poly_key(num, lead)}/{_poly_key(den, lead)})", 1),): Fraction(1)}

    def _rational_root(self, r: Fraction, n: int) -> tuple[Poly, Poly]:
        """``r^{1/n}`` (``r > 0``) as a rational times a product of roots of primes (trial division only)."""
        if r == 0:
            return {}, {(): Fraction(1)}
        m = r.numerator * r.denominator ** (n - 1)  # r^{1/n} = (a b^{n-1})^{1/n} / b
        coeff = Fraction(1, r.denominator)
        if m.bit_length() > 4096:
            raise Refused("radicand too large")
        mono: list[tuple[str, int]] = []
        for p in _SMALL_PRIMES:
            if m == 1:
                break
            k = 0
            while m % p == 0:
                m //= p
                k += 1
            if k:
                coeff *= p ** (k // n)
                if k % n:
                    mono.append((f"root{n}:{p}", k % n))
                    self.reductions[f"root{n}:{p}"] = (n, {(): Fraction(p)})
        if m > 1:
            whole = _int_root(m, n)
            if whole is not None:
                coeff *= whole
            else:
                key = f"root{n}:{m}"  # an unfactored cofactor: still sound, only less canonical
                mono.append((key, 1))
                self.reductions[key] = (n, {(): Fraction(m)})
        return {tuple(sorted(mono)): coeff}, {(): Fraction(1)}

    def _atom(self, kind: str, node: Node) -> tuple[Poly, Poly]:
        if kind == "fn":
            key = f"{node[1]}({self.key(node[2])})"
        elif kind == "log":
            key = f"log({self.key(node[1])},{self.key(node[2])})"
        elif kind == "fact":
            key = f"fact({self.key(node[1])})"
        else:
            key = f"{kind}({self.key(node[1])},{self.key(node[2])})"
        return {((key, 1),): Fraction(1)}, {(): Fraction(1)}

    def key(self, node: Node) -> str:
        """A canonical name for a sub-expression: its reduced rational function, numerator over denominator
        scaled so that the denominator's leading coefficient is 1."""
        num, den = self.rat(node)
        lead = den[min(den)] if den else Fraction(1)
        return f"{_poly_key(num, lead)}/{_poly_key(den, lead)}"


_SPECIAL = {
    "arcsin": (("0", "0"), ("\\frac{1}{2}", "\\frac{\\pi}{6}"), ("\\frac{\\sqrt{2}}{2}", "\\frac{\\pi}{4}"),
               ("\\frac{\\sqrt{3}}{2}", "\\frac{\\pi}{3}"), ("1", "\\frac{\\pi}{2}")),
    "arctan": (("0", "0"), ("1", "\\frac{\\pi}{4}"), ("\\sqrt{3}", "\\frac{\\pi}{3}"),
               ("\\frac{\\sqrt{3}}{3}", "\\frac{\\pi}{6}")),
}


@functools.lru_cache(maxsize=4)
def _special_table(name: str) -> tuple[tuple[Node, Node], ...]:
    return tuple((parse_expr(arg), parse_expr(value)) for arg, value in _SPECIAL[name])


def _poly_key(p: Poly, scale: Fraction) -> str:
    return "+".join(f"{c / scale}*{'.'.join(f'{a}^{e}' for a, e in m)}" for m, c in sorted(p.items()))


def _factor(c: Fraction) -> list[tuple[int, int]]:
    """``c > 0`` as ``[(p, e)]`` with ``c = prod p^e`` (trial division; an unfactored cofactor kept whole)."""
    out: list[tuple[int, int]] = []
    for part, sign in ((c.numerator, 1), (c.denominator, -1)):
        if part.bit_length() > 4096:
            raise Refused("too large to factor")
        for p in _SMALL_PRIMES:
            k = 0
            while part % p == 0:
                part //= p
                k += 1
            if k:
                out.append((p, sign * k))
        if part > 1:
            out.append((part, sign))
    return out


def _mono_mul(a: Mono, b: Mono) -> Mono:
    if not a:
        return b
    if not b:
        return a
    d = dict(a)
    for atom, e in b:
        d[atom] = d.get(atom, 0) + e
    return tuple(sorted((k, v) for k, v in d.items() if v))


def _rational_constant(node: Node) -> Fraction | None:
    """The value of a small constant rational tree (``2``, ``-\\frac{1}{2}``), else ``None``."""
    kind = node[0]
    if kind == "num":
        return node[1]  # type: ignore[no-any-return]
    if kind == "neg":
        v = _rational_constant(node[1])
        return None if v is None else -v
    if kind == "div":
        a, b = _rational_constant(node[1]), _rational_constant(node[2])
        return None if a is None or b is None or b == 0 else a / b
    if kind in ("add", "sub", "mul"):
        a, b = _rational_constant(node[1]), _rational_constant(node[2])
        if a is None or b is None:
            return None
        return a + b if kind == "add" else a - b if kind == "sub" else a * b
    if kind == "pow":  # 2^{3} as an exponent (x^{2^{3}})
        a, b = _rational_constant(node[1]), _rational_constant(node[2])
        if a is None or b is None or b.denominator != 1 or abs(b) > 64 or (a == 0 and b < 0):
            return None
        if max(a.numerator.bit_length(), a.denominator.bit_length()) * abs(b) > 256:
            return None  # small values only: an exponent such as 2^{3}, never 2^{64} (its power would be huge)
        return a ** int(b)
    return None


def _int_root(x: int, n: int) -> int | None:
    r = round(x ** (1.0 / n)) if x.bit_length() < 1000 else None
    if r is None:
        return None
    for c in (r - 1, r, r + 1):
        if c > 0 and c**n == x:
            return c
    return None
