"""Evaluate a normalized numeric LaTeX answer in-process, exactly when possible, within fixed budgets.

Handles numbers, ``+ - * / ^``, ``\\cdot``, ``\\times``, ``\\div``, ``\\frac``, ``\\sqrt`` (also ``\\sqrt[n]``),
``\\pi``, parentheses/braces and implicit products (``2\\sqrt{3}``, ``3\\pi``). Values are ``Fraction``
(exact) or ``float`` (after ``\\pi`` or an irrational root). Anything else raises ``NotArithmetic``, and
the caller falls back to the symbolic worker; a letter raises ``HasSymbols``.

Budgets keep hostile input cheap: exact powers stop at ``MAX_POWER_BITS`` bits, nesting at ``MAX_DEPTH``.
"""

from __future__ import annotations

import math as _m
import re
from fractions import Fraction

MAX_DEPTH = 60
MAX_POWER_BITS = 20_000
MAX_CHARS = 600

Value = Fraction | float


class NotArithmetic(Exception):
    """The text uses something this evaluator does not do (functions, huge powers, odd syntax)."""


class HasSymbols(NotArithmetic):
    """The text contains a variable, so it is not a plain number."""


_TOKEN = re.compile(r"\s*(\d+\.?\d*|\.\d+|\\[a-zA-Z]+|[a-zA-Z]|\S)")
_COMMANDS_OK = frozenset({"\\frac", "\\sqrt", "\\pi", "\\cdot", "\\times", "\\div"})


def evaluate(text: str) -> Value:
    """The value of ``text``.

    Raises:
        NotArithmetic: unsupported syntax or over budget (``HasSymbols`` if a variable appears).
    """
    if len(text) > MAX_CHARS:
        raise NotArithmetic("too long")
    tokens = _TOKEN.findall(text)
    parser = _Parser(tokens)
    value = parser.expr(0)
    if parser.i != len(tokens):
        raise NotArithmetic(f"unexpected {tokens[parser.i]!r}")
    return value


class _Parser:
    __slots__ = ("i", "t")

    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.i = 0

    def peek(self) -> str:
        return self.t[self.i] if self.i < len(self.t) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if not tok or (expected is not None and tok != expected):
            raise NotArithmetic(f"expected {expected!r}, got {tok!r}")
        self.i += 1
        return tok

    def expr(self, depth: int) -> Value:
        if depth > MAX_DEPTH:
            raise NotArithmetic("nested too deeply")
        value = self.term(depth)
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.term(depth)
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self, depth: int) -> Value:
        value = self.unary(depth)
        while True:
            tok = self.peek()
            if tok in ("*", "\\cdot", "\\times"):
                self.take()
                value = value * self.unary(depth)
            elif tok in ("/", "\\div"):
                self.take()
                rhs = self.unary(depth)
                if rhs == 0:
                    raise NotArithmetic("division by zero")
                value = value / rhs
            elif tok and (tok[0].isdigit() or tok in ("(", "\\frac", "\\sqrt", "\\pi", "{", ".")
                          or tok[0].isalpha()):
                value = value * self.power(depth)  # implicit product: 2\sqrt{3}, 3\pi
            else:
                return value

    def unary(self, depth: int) -> Value:
        tok = self.peek()
        if tok == "-":
            self.take()
            return -self.unary(depth)
        if tok == "+":
            self.take()
            return self.unary(depth)
        return self.power(depth)

    def power(self, depth: int) -> Value:
        base = self.atom(depth)
        if self.peek() != "^":
            return base
        self.take()
        if self.peek() == "-":  # 2^-3
            self.take()
            exponent = -self.atom(depth + 1) if self.peek() != "{" else -self.group(depth + 1)
        else:
            exponent = self.power(depth + 1) if self.peek() != "{" else self.group(depth + 1)
        return _pow(base, exponent)

    def group(self, depth: int) -> Value:
        self.take("{")
        value = self.expr(depth + 1)
        self.take("}")
        return value

    def atom(self, depth: int) -> Value:
        if depth > MAX_DEPTH:
            raise NotArithmetic("nested too deeply")
        tok = self.take()
        if tok[0].isdigit() or tok[0] == ".":
            return _number(tok)
        if tok in ("(", "{"):
            value = self.expr(depth + 1)
            self.take(")" if tok == "(" else "}")
            return value
        if tok == "\\frac":
            num = self.group(depth + 1)
            den = self.group(depth + 1)
            if den == 0:
                raise NotArithmetic("division by zero")
            return num / den
        if tok == "\\sqrt":
            index: Value = Fraction(2)
            if self.peek() == "[":
                self.take()
                index = self.expr(depth + 1)
                self.take("]")
            radicand = self.group(depth + 1) if self.peek() == "{" else self.atom(depth + 1)
            return _root(radicand, index)
        if tok == "\\pi":
            return _m.pi
        if tok in ("e", "i"):  # Euler's number / the imaginary unit: constants, left to the CAS
            raise NotArithmetic(tok)
        if tok[0].isalpha():
            raise HasSymbols(tok)
        if tok.startswith("\\") and tok not in _COMMANDS_OK:
            raise NotArithmetic(f"unsupported command {tok}")
        raise NotArithmetic(f"unexpected {tok!r}")


def _number(tok: str) -> Fraction:
    whole, _, frac = tok.partition(".")
    if len(tok) > 200:
        raise NotArithmetic("number too long")
    return Fraction(int((whole or "0") + frac), 10 ** len(frac))


def _pow(base: Value, exponent: Value) -> Value:
    if isinstance(exponent, Fraction) and exponent.denominator == 1 and isinstance(base, Fraction):
        e = exponent.numerator
        if base == 0 and e < 0:
            raise NotArithmetic("zero to a negative power")
        bits = max(abs(base.numerator).bit_length(), base.denominator.bit_length())
        if bits * abs(e) > MAX_POWER_BITS:
            raise NotArithmetic("power too large to evaluate exactly")
        return base**e
    if isinstance(exponent, Fraction) and isinstance(base, Fraction) and base >= 0:
        root = _exact_root(base, exponent.denominator)
        if root is not None:
            return _pow(root, Fraction(exponent.numerator))
    try:
        fb, fe = float(base), float(exponent)
        if fb < 0 and not fe.is_integer():
            raise NotArithmetic("complex power")
        result = fb**fe
    except (OverflowError, ZeroDivisionError) as err:
        raise NotArithmetic(str(err)) from err
    if not isinstance(result, float) or _m.isinf(result) or _m.isnan(result):
        raise NotArithmetic("power out of float range")
    return result


def _exact_root(value: Fraction, n: int) -> Fraction | None:
    """The exact ``n``-th root of a non-negative rational, or ``None`` if it is irrational."""
    if n > 64 or value < 0:
        return None
    num = _int_root(value.numerator, n)
    den = _int_root(value.denominator, n)
    return None if num is None or den is None else Fraction(num, den)


def _int_root(x: int, n: int) -> int | None:
    if x < 2:
        return x
    if x.bit_length() > 4096:
        return None
    r = round(x ** (1.0 / n)) if x.bit_length() < 1000 else _newton_root(x, n)
    for cand in (r - 1, r, r + 1):
        if cand >= 0 and cand**n == x:
            return cand
    return None


def _newton_root(x: int, n: int) -> int:
    r = 1 << ((x.bit_length() + n - 1) // n)
    while True:
        s = ((n - 1) * r + x // r ** (n - 1)) // n
        if s >= r:
            return r
        r = s


def _root(radicand: Value, index: Value) -> Value:
    if not (isinstance(index, Fraction) and index.denominator == 1 and 2 <= index <= 64):
        raise NotArithmetic("unsupported root index")
    n = int(index)
    if isinstance(radicand, Fraction):
        exact = _exact_root(abs(radicand), n)
        if exact is not None and (radicand >= 0 or n % 2 == 1):
            return exact if radicand >= 0 else -exact
    r = float(radicand)
    if r < 0:
        if n % 2 == 0:
            raise NotArithmetic("even root of a negative number")
        return -((-r) ** (1.0 / n))
    return r ** (1.0 / n)


def close(a: Value, b: Value, rel_tol: float) -> bool:
    """Exact equality for two rationals, else relative closeness (so ``2^{-70}`` and ``2^{-71}`` differ)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a == b
    try:
        x, y = float(a), float(b)
    except OverflowError:  # a rational beyond float range never equals a float-sized value
        return False
    if x == y:
        return True
    return abs(x - y) <= rel_tol * max(abs(x), abs(y))
