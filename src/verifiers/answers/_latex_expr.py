"""Parse one normalized LaTeX expression (no commas, relations or brackets of sets) into a small tree.

The tree is what `verifiers.equivalence._expr_eval` computes with: exactly with rationals where it can, else
with
high-precision floats, at random points when the expression has variables. Nodes are tuples:

    ("num", Fraction, is_decimal)   ("sym", name)   ("const", "pi" | "e" | "i" | "inf")
    ("add", a, b)  ("sub", a, b)  ("mul", a, b)  ("div", a, b)  ("pow", a, b)  ("neg", a)
    ("fn", name, a)  ("log", base, a)  ("root", a, n)  ("fact", a)  ("binom", n, k)
    ("sum" | "prod" | "int", var, low, high, body)  ("deriv", var, body)

``abs``, ``floor``, ``ceil`` and the gamma function (``\\Gamma(x)``) are ``fn`` nodes. Sums, products and
integrals bind their variable (``var``, a name): ``\\sum_{k=1}^{n} k^2``, ``\\prod_{j=1}^{5} j``,
``\\int_0^1 x^2\\,dx``; an indefinite integral ``\\int x\\,dx`` has ``low`` and ``high`` ``None``. ``\\frac{d}{dx} f``
is ``("deriv", "x", f)`` (the operand a term: ``\\frac{d}{dx} x^2 + 1`` adds 1 to the derivative). The grammar is the usual one for school algebra: implicit
products (``2\\sqrt{3}x``), ``\\frac``, ``\\sqrt[n]``, powers (``x^2``, ``2^{-3}``, ``\\sin^2 x``), functions with or
without parentheses (``\\sin 2x``, ``\\log_2 8``, ``\\ln(x)``), ``|x|``, ``n!``, ``\\binom{n}{k}``, mixed numbers
(``3\\frac{1}{4}`` is 13/4, as graders read it), sums, products and integrals. A double superscript
(``x^2^3``, not valid LaTeX) has two readings and raises `DoubleSuperscript` unless ``double`` picks one.
Anything else raises `Unsupported`, and the caller hands the
comparison to the CAS (``verifiers.equivalence._cas``), whose parser covers far more LaTeX.

Budgets keep hostile input cheap: at most ``MAX_TOKENS`` tokens and ``MAX_DEPTH`` levels of nesting.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

MAX_TOKENS = 4000
MAX_DEPTH = 250  # a 100-deep nested radical parses; deeper text goes to the CAS

Node = tuple[Any, ...]


class Unsupported(Exception):
    """The text is not an expression this parser reads (the CAS may still read it)."""


class Malformed(Unsupported):
    """Not an expression in any reading: a function, sum, integral or derivative with nothing to act on
    (``\\tan^{-1}``, ``\\sum_{k=1}^{n}``, ``\\frac{d}{dx}``). It equals nothing; no CAS needs to look."""


class DoubleSuperscript(Unsupported):
    """``a^b^c``: invalid LaTeX read either as ``(a^b)^c`` or as ``a^{b^c}`` (``parse_expr(double=...)``)."""


_TOKEN = re.compile(r"\s*(\d+(?:\.\d+)?|\.\d+|\\[a-zA-Z]+|\\[{}|]|[a-zA-Z]|\S)")

GREEK = frozenset({
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta", "iota",
    "kappa", "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "varphi", "chi", "psi",
    "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi", "Sigma", "Phi", "Psi", "Omega",
})
FUNCTIONS = frozenset({
    "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "arccot", "arcsec", "arccsc",
    "sinh", "cosh", "tanh", "coth", "ln", "log", "exp", "lg",
})
_INVERSE = {"sin": "arcsin", "cos": "arccos", "tan": "arctan", "cot": "arccot", "sec": "arcsec", "csc": "arccsc"}
_ACCENTS = frozenset({"overline", "bar", "vec", "hat", "tilde", "widehat", "overrightarrow"})
# Letters that name functions when a parenthesis follows: f(2) is the value of f at 2, not f times 2.
FUNCTION_LETTERS = frozenset("fghFGH")
_MULTIPLY = frozenset({"*", "\\cdot", "\\times"})
_DIVIDE = frozenset({"/", "\\div"})
# Tokens that may start a factor of an implicit product (``2x``, ``3\\pi``, ``x(y+1)``).
_FACTOR_START = frozenset({"(", "{", "\\frac", "\\sqrt", "\\pi", "\\infty", "\\binom", "\\dbinom", "\\tbinom",
                           "\\lfloor", "\\lceil", "\\lvert", "\\vert", "\\mid", "\\sum", "\\prod", "\\int"})
_BINDERS = {"\\sum": "sum", "\\prod": "prod", "\\int": "int"}
_NO_OPERAND = frozenset({"", ")", "}", "]", "&", "\\\\", "=", "<", ">", ",", "\\cdot", "\\times", "*", "/", "\\div",
                         "!"})  # what cannot start an operand
MAX_BOUND_NAME = 8
_ABS_BARS = frozenset({"|", "\\vert", "\\lvert", "\\rvert", "\\mid"})


def tokenize(text: str) -> list[str]:
    """The tokens of ``text`` (numbers, control words, single characters).

    Raises:
        Unsupported: more than ``MAX_TOKENS`` tokens.
    """
    tokens = _TOKEN.findall(text)
    if len(tokens) > MAX_TOKENS:
        raise Unsupported("expression too long")
    return tokens


def parse_expr(text: str, double: str | None = None) -> Node:
    """The tree of ``text``; ``double`` (``"left"`` or ``"right"``) reads a double superscript ``a^b^c`` as
    ``(a^b)^c`` or as ``a^{b^c}``.

    Raises:
        DoubleSuperscript: the text has a double superscript and ``double`` is ``None``.
        Unsupported: the text is not a single expression this parser understands.

    Example:
        >>> parse_expr("2x")
        ('mul', ('num', Fraction(2, 1), False), ('sym', 'x'))
    """
    tokens = tokenize(text)
    if not tokens:
        raise Unsupported("empty")
    p = _Parser(tokens, double)
    try:
        node = p.expr(0)
    except RecursionError:
        raise Unsupported("nested too deeply") from None
    if p.i != len(tokens):
        raise Unsupported(f"unexpected {tokens[p.i]!r}")
    return node


def subtrees(node: Node) -> Iterator[Node]:
    """``node`` and every node below it, depth first (no recursion: a deep tree cannot overflow the stack)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(x for x in n[1:] if isinstance(x, tuple))  # leaves (num, sym, const) hold no tuples


def free_symbols(node: Node) -> frozenset[str]:
    """Names of the free variables in ``node`` (a sum's or an integral's own variable is bound in its body)."""
    out: set[str] = set()
    stack: list[tuple[Node, frozenset[str]]] = [(node, frozenset())]
    while stack:
        n, bound = stack.pop()
        if n[0] == "sym":
            if n[1] not in bound:
                out.add(n[1])
        elif n[0] in ("sum", "prod", "int"):
            stack.extend((x, bound) for x in n[2:4] if x is not None)
            stack.append((n[4], bound | {n[1]}))
        else:
            stack.extend((x, bound) for x in n[1:] if isinstance(x, tuple))
    return frozenset(out)


def _is_derivative(num: Node, den: Node) -> bool:
    """``\\frac{d}{dx}``, ``\\frac{d^2}{dx^2}``: an operator, not d divided by d times x."""
    d = ("sym", "d")
    top = num == d or num[0] == "pow" and num[1] == d
    bottom = den[0] == "mul" and (den[1] == d or den[1][0] == "pow" and den[1][1] == d)
    return top and bottom


def _canonical(arg: Node, tokens: list[str]) -> str:
    """A name for a function's argument: its value if constant (f(2) = f(4/2)), else its tokens."""
    return str(arg[1]) if arg[0] == "num" else "".join(tokens)


def _num(tok: str) -> Node:
    whole, _, frac = tok.partition(".")
    return ("num", Fraction(int((whole or "0") + frac), 10 ** len(frac)), bool(frac))


class _Parser:
    __slots__ = ("abs_depth", "bound", "double", "i", "t")

    def __init__(self, tokens: list[str], double: str | None = None) -> None:
        self.t = tokens
        self.i = 0
        self.abs_depth = 0
        self.double = double
        self.bound: frozenset[str] = frozenset()  # a sum's index: i and e are the index there, not constants

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.t[j] if j < len(self.t) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if not tok or (expected is not None and tok != expected):
            raise Unsupported(f"expected {expected!r}, got {tok!r}")
        self.i += 1
        return tok

    # expr := term (('+' | '-') term)*
    def expr(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise Unsupported("nested too deeply")
        node = self.term(depth)
        while self.peek() in ("+", "-"):
            op = self.take()
            node = ("add" if op == "+" else "sub", node, self.term(depth))
        return node

    # term := sign term | power ((mul | div) unary | implicit factor)*   (-ab is -(ab))
    def term(self, depth: int, stop_at_function: bool = False) -> Node:
        tok = self.peek()
        if tok in ("-", "+"):
            self.take()
            if depth > MAX_DEPTH:
                raise Unsupported("nested too deeply")
            inner = self.term(depth + 1, stop_at_function)
            return ("neg", inner) if tok == "-" else inner
        node = self.power(depth)
        while True:
            tok = self.peek()
            if tok in _MULTIPLY:
                self.take()
                node = ("mul", node, self.unary(depth))
            elif tok in _DIVIDE:
                self.take()
                node = ("div", node, self.unary(depth))
            elif self._starts_factor(tok, stop_at_function):
                node = ("mul", node, self.power(depth))
            else:
                return node

    def _starts_factor(self, tok: str, stop_at_function: bool) -> bool:
        if not tok:
            return False
        if tok[0].isdigit() or tok[:1] == "." and len(tok) > 1 or (tok.isalpha() and len(tok) == 1):
            return True
        if tok in _ABS_BARS:
            return self.abs_depth == 0 and tok != "\\rvert"
        if tok.startswith("\\") and (tok[1:] in FUNCTIONS):
            return not stop_at_function
        return tok in _FACTOR_START or (tok.startswith("\\") and tok[1:] in GREEK)

    def unary(self, depth: int) -> Node:
        tok = self.peek()
        if tok == "-":
            self.take()
            return ("neg", self.unary(depth + 1))
        if tok == "+":
            self.take()
            return self.unary(depth + 1)
        return self.power(depth)

    # power := postfix ('^' exponent)?
    def power(self, depth: int) -> Node:
        base = self.postfix(depth)
        if self.peek() != "^":
            return base
        self.take()
        exponents = [self.exponent(depth + 1)]
        while self.peek() == "^":  # x^2^3: not valid LaTeX, two readings
            if self.double is None:
                raise DoubleSuperscript("double superscript")
            if len(exponents) > 8:
                raise Unsupported("superscripts")
            self.take()
            exponents.append(self.exponent(depth + 1))
        if self.double == "left":
            for e in exponents:
                base = ("pow", base, e)
            return base
        top = exponents[-1]
        for e in reversed(exponents[:-1]):
            top = ("pow", e, top)
        return ("pow", base, top)

    def exponent(self, depth: int) -> Node:
        tok = self.peek()
        if tok == "{":
            return self.group(depth)
        if tok in ("-", "+"):  # 2^-3
            self.take()
            inner = self.exponent(depth + 1)
            return ("neg", inner) if tok == "-" else inner
        return self.postfix(depth)

    def postfix(self, depth: int) -> Node:
        node = self.atom(depth)
        while self.peek() == "!":
            self.take()
            node = ("fact", node)
        return node

    def group(self, depth: int) -> Node:
        self.take("{")
        node = self.expr(depth + 1)
        self.take("}")
        return node

    def atom(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise Unsupported("nested too deeply")
        tok = self.take()
        c = tok[0]
        if c.isdigit() or c == "." and len(tok) > 1:
            node = _num(tok)
            if self.peek() == "\\frac" and not node[2] and self.t[self.i - 2: self.i - 1] != ["^"]:
                mixed = self._mixed_fraction(node[1])
                if mixed is not None:
                    return mixed
            return node
        if tok in ("(", "{", "["):
            node = self.expr(depth + 1)
            self.take({"(": ")", "{": "}", "[": "]"}[tok])
            return node
        if tok in _ABS_BARS:
            self.abs_depth += 1
            node = self.expr(depth + 1)
            self.abs_depth -= 1
            if self.peek() not in _ABS_BARS:
                raise Unsupported("unclosed |")
            self.take()
            return ("fn", "abs", node)
        if c.isalpha():
            return self._symbol(tok)
        if tok == "\\frac":
            num, den = self.group(depth + 1), self.group(depth + 1)
            if _is_derivative(num, den):
                if self.peek() in _NO_OPERAND:
                    raise Malformed("a derivative of nothing")
                if num != ("sym", "d") or den[2][0] != "sym" or self.peek() in ("+", "-"):
                    raise Unsupported("a derivative of higher order")
                return ("deriv", den[2][1], self.term(depth + 1, stop_at_function=True))
            return ("div", num, den)
        if tok == "\\sqrt":
            index: Node = ("num", Fraction(2), False)
            if self.peek() == "[":
                self.take()
                index = self.expr(depth + 1)
                self.take("]")
            radicand = self.group(depth + 1) if self.peek() == "{" else self.postfix(depth + 1)
            return ("root", radicand, index)
        if tok in ("\\binom", "\\dbinom", "\\tbinom"):
            return ("binom", self.group(depth + 1), self.group(depth + 1))
        if tok in _BINDERS:
            return self._binder(_BINDERS[tok], depth + 1)
        if tok in ("\\lfloor", "\\lceil"):
            node = self.expr(depth + 1)
            self.take("\\rfloor" if tok == "\\lfloor" else "\\rceil")
            return ("fn", tok[2:], node)
        if tok == "\\pi":
            return ("const", "pi")
        if tok == "\\infty":
            return ("const", "inf")
        name = tok[1:]
        if name == "Gamma" and self.peek() == "(":  # \\Gamma(x): the gamma function
            return ("fn", "gamma", self.atom(depth + 1))
        if name in GREEK:
            return self._symbol(name)
        if name in _ACCENTS and self.peek() == "{":  # \overline{CD}, \vec{v}: a name, like a letter
            return ("sym", f"{name}{{{self._braced_name(letters_only=True)}}}")
        if name in FUNCTIONS:
            return self._function(name, depth)
        raise Unsupported(f"unsupported {tok}")

    def _symbol(self, name: str) -> Node:
        if name in FUNCTION_LETTERS and self.peek() == "(":  # f(2), g(x): an unknown function's value
            start = self.i
            self.take("(")
            arg = self.expr(1)
            self.take(")")
            return ("sym", f"{name}({_canonical(arg, self.t[start + 1:self.i - 1])})")
        if self.peek() == "_":  # x_1, a_{n}, x_{12}
            self.take()
            sub = self._braced_name(letters_only=False) if self.peek() == "{" else self.take()
            name = f"{name}_{sub}"
        if name == "e" and name not in self.bound:
            return ("const", "e")
        if name == "i" and name not in self.bound:
            return ("const", "i")
        return ("sym", name)

    def _binder(self, kind: str, depth: int) -> Node:
        """``\\sum_{k=1}^{n} body``, ``\\prod_{k=1}^{n} body`` (the body a term: ``\\sum_k k^2 + 1`` adds 1 to the
        sum), ``\\int_a^b body\\,dx`` and ``\\int body\\,dx`` (the body runs to its differential ``dx``)."""
        low: Node | None = None
        high: Node | None = None
        var = ""
        if self.peek() == "_":
            self.take()
            if kind == "int":
                low = self.group(depth) if self.peek() == "{" else self.postfix(depth)
            else:
                self.take("{")
                var = self.take()
                if not (var.isalpha() and len(var) == 1):
                    raise Unsupported("the index of a sum is one letter")
                self.take("=")
                low = self.expr(depth)
                self.take("}")
        if self.peek() == "^":
            self.take()
            high = self.group(depth) if self.peek() == "{" else self.postfix(depth)
        if self.peek() in _NO_OPERAND:
            raise Malformed(f"a {kind} of nothing")
        if kind != "int":
            if low is None or high is None:
                raise Unsupported("a sum or product without both bounds")
            outer, self.bound = self.bound, self.bound | {var}
            try:
                return (kind, var, low, high, self.term(depth, stop_at_function=True))
            finally:
                self.bound = outer
        if (low is None) != (high is None):
            raise Unsupported("an integral with one bound")
        end = self._differential()
        if end < 0:  # no differential: \\int_0^1 x^2 integrates one factor in its one variable
            start = self.i
            try:
                factor = self.power(depth)
                names = free_symbols(factor)
            except Unsupported:  # \\int -3x: not one factor
                names = frozenset()
            if len(names) == 1:
                return ("int", next(iter(names)), low, high, factor)
            if low is not None:
                raise Unsupported("a definite integral without its differential, in no single variable")
            self.i = start  # \\int x y: an antiderivative in some variable, a family of functions all the same
            return ("int", "", None, None, self.term(depth, stop_at_function=True))
        body: Node = ("num", Fraction(1), False)  # \\int dx
        if end > self.i:
            inner = _Parser(self.t[self.i:end], self.double)
            inner.bound = self.bound | {self.t[end + 1]}
            body = inner.expr(depth)
            if inner.i != end - self.i:
                raise Unsupported(f"unexpected {inner.peek()!r} in an integral")
        var = self.t[end + 1]
        self.i = end + 2
        return ("int", var, low, high, body)

    def _differential(self) -> int:
        """Where the integral's ``d`` + variable is: the first one outside any brackets (``\\int x\\,dx``); -1 when
        there is none."""
        level = 0
        for j in range(self.i, len(self.t) - 1):
            tok = self.t[j]
            if tok in ("(", "{", "["):
                level += 1
            elif tok in (")", "}", "]"):
                level -= 1
                if level < 0:
                    break
            elif level == 0 and tok == "d" and self.t[j + 1].isalpha() and len(self.t[j + 1]) == 1:
                return j
        return -1

    def _braced_name(self, letters_only: bool) -> str:
        """The tokens of a short ``{...}`` group that is part of a name (a subscript, an accent's letters)."""
        self.take("{")
        parts: list[str] = []
        while self.peek() != "}":
            tok = self.take()
            if len(parts) > 8 or letters_only and not tok.isalpha():
                raise Unsupported("long name, or an accent over something other than letters")
            parts.append(tok)
        self.take("}")
        return "".join(parts)

    def _function(self, name: str, depth: int) -> Node:
        base: Node | None = None
        power: Node | None = None
        if name == "log" and self.peek() == "_":
            self.take()
            base = self.group(depth + 1) if self.peek() == "{" else self.postfix(depth + 1)
        if self.peek() == "^":
            self.take()
            power = self.exponent(depth + 1)
            if power == ("neg", ("num", Fraction(1), False)) and name in _INVERSE:  # \sin^{-1} x
                name, power = _INVERSE[name], None
        if self.peek() in _NO_OPERAND:
            raise Malformed(f"\\{name} of nothing")
        if self.peek() in ("(", "{"):
            arg = self.postfix(depth + 1)
        else:
            arg = self.term(depth + 1, stop_at_function=True)
        if name == "lg":
            base, name = ("num", Fraction(10), False), "log"
        node: Node = ("log", base, arg) if name == "log" and base is not None else ("fn", name, arg)
        return ("pow", node, power) if power is not None else node

    def _mixed_fraction(self, whole: Fraction) -> Node | None:
        """``3\\frac{1}{4}``: a whole number followed by a numeric fraction is a mixed number."""
        t = self.t
        j = self.i
        if (j + 7 <= len(t) and t[j + 1] == "{" and t[j + 2].isdigit() and t[j + 3] == "}" and t[j + 4] == "{"
                and t[j + 5].isdigit() and t[j + 6] == "}" and "." not in t[j + 2] + t[j + 5]):
            num, den = int(t[j + 2]), int(t[j + 5])
            if den == 0 or num >= den:
                return None
            self.i = j + 7
            return ("num", whole + Fraction(num, den), False)
        return None
