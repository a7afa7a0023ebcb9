"""Judging in the trusted parent: split each assert into parent-side logic and sandbox-side "leaves".

An assert such as ``assert set(f(x)) == set((4, 5))`` becomes a small expression tree evaluated here, in
the parent, over plain data: the expected side ``set((4, 5))`` is computed here (literals and a few pure
builtins on literals), and only ``set(f(x))`` (a *leaf*) is evaluated in the sandbox, its value coming
back as plain data. Comparisons, ``and``/``or``/``not``, arithmetic, ``abs``/``round`` and
``math.isclose`` run here, so the program never sees an expected value and never decides a verdict.

Leaves that use no program name (``sys.getsizeof((1, 2))``) are *independent*: the child evaluates them
before the program's own code runs, so the program cannot influence them.
"""

from __future__ import annotations

import ast
import builtins
import functools
import math
import operator
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Modules an independent leaf may name (imported fresh in the child before the program runs).
KNOWN_MODULES = frozenset({
    "math", "cmath", "sys", "re", "string", "collections", "itertools", "functools", "heapq", "bisect",
    "operator", "statistics", "decimal", "fractions",
})
_BUILTIN_NAMES = frozenset(dir(builtins))
# Bounds on what the parent evaluates itself (expected sides are trusted, leaf values are bounded, but a
# sequence repeat or a huge power could still allocate without limit).
MAX_REPEAT_LEN = 100_000
MAX_TEST_CHARS = 100_000


def _sorted(x: Any, reverse: bool = False) -> list[Any]:
    return sorted(x, reverse=reverse)


# Pure builtins the parent evaluates on closed (literal-only) arguments: ``set((4, 5))``.
_CLOSED_FUNCS: dict[str, Callable[..., Any]] = {
    "set": set, "frozenset": frozenset, "tuple": tuple, "list": list, "dict": dict, "sorted": _sorted,
    "len": len, "abs": abs, "round": round, "min": min, "max": max, "sum": sum, "bool": bool, "int": int,
    "float": float, "str": str, "complex": complex,
    "math.isclose": math.isclose, "math.sqrt": math.sqrt, "math.fabs": math.fabs,
}
# Functions the parent applies to leaf values too (numeric, no iteration of program objects needed).
_APPLIED_FUNCS = frozenset({"abs", "round", "math.isclose", "math.fabs"})
_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
}
_CMPOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}

Node = tuple[Any, ...]


@dataclass(frozen=True)
class Leaf:
    """A sub-expression evaluated inside the sandbox; ``independent`` leaves run before the program."""

    index: int
    source: str
    independent: bool
    modules: tuple[str, ...] = ()


@dataclass(frozen=True)
class TestPlan:
    """One parsed test: the parent-side tree over leaves, or why the test cannot be judged."""

    source: str
    tree: Node | None
    leaves: tuple[Leaf, ...]
    error: str | None = None


class _Unsafe(Exception):
    """Raised by the parent evaluator for an operation it refuses (unbounded repeat, unknown function)."""


def defined_names(code: str) -> frozenset[str]:
    """Builtin or module names a program rebinds (``def sum(a, b)``), so tests use the program's version.

    A cheap lexical scan (the parent never parses untrusted code with more than a regex): a name that
    merely *might* be rebound only moves that call into the sandbox, which is always sound.
    """
    found: set[str] = set()
    for groups in _DEFINE_RE.findall(code):  # "" for the alternatives that did not match
        found.update(groups)
    return frozenset(found & _SHADOWABLE)


# CPython 3.11's AST conversion keeps its recursion depth in shared state: two threads parsing at once
# can fail with "SystemError: AST constructor recursion depth mismatch" (seen in a Ray actor). Serialize.
_AST_LOCK = threading.Lock()


def parse_python(source: str) -> ast.Module:
    """``ast.parse`` that is safe to call from several threads at once."""
    with _AST_LOCK:
        return ast.parse(source)


# Possessive quantifiers: backtracking into a name or its spacing can never produce another match.
_DEFINE_RE = re.compile(
    r"(?:\b(?:def|class)\s++([A-Za-z_]\w*+))"
    r"|(?:\b([A-Za-z_]\w*+)\s*+(?::[^=\n]*+)?=(?!=))"
    r"|(?:\bas\s++([A-Za-z_]\w*+))"
    r"|(?:\bfor\s++([A-Za-z_]\w*+)\s+in\b)"
    r"|(?:\bglobal\s++([A-Za-z_]\w*+))"
)
_SHADOWABLE = _BUILTIN_NAMES | KNOWN_MODULES


@functools.lru_cache(maxsize=65536)  # RL scores the same tests many times; plans are immutable
def plan_test(source: str, first_index: int = 0, shadowed: frozenset[str] = frozenset()) -> TestPlan:
    """Parse one ``assert`` statement into a `TestPlan` (leaf indices start at ``first_index``).

    Args:
        source: the assert statement.
        first_index: index of its first leaf (leaves of all tests of a program share one numbering).
        shadowed: names the program rebinds (see `defined_names`); calls to them run in the sandbox.

    Example:
        >>> p = plan_test("assert f(1) == (4, 5)")
        >>> [leaf.source for leaf in p.leaves]
        ['f(1)']
    """
    if len(source) > MAX_TEST_CHARS:
        return TestPlan(source, None, (), f"test longer than {MAX_TEST_CHARS} characters")
    source = source.strip()
    try:
        mod = parse_python(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return TestPlan(source, None, (), f"test is not valid Python: {type(exc).__name__}")
    if len(mod.body) != 1 or not isinstance(mod.body[0], ast.Assert):
        return TestPlan(source, None, (), "test is not a single assert statement")
    leaves: list[Leaf] = []
    tree = _Planner(source, leaves, first_index, shadowed).plan(mod.body[0].test, truth=True)
    return TestPlan(source, tree, tuple(leaves))


class _Planner:
    def __init__(self, source: str, leaves: list[Leaf], first: int, shadowed: frozenset[str]) -> None:
        self.source = source
        self.leaves = leaves
        self.first = first
        self.shadowed = shadowed

    def plan(self, n: ast.expr, truth: bool = False) -> Node:
        """Plan ``n``; ``truth``: only its truthiness matters (``assert f(x)``, ``not f(x)``, ``a and b``)."""
        if _is_closed(n) and not self._uses_shadowed(n):
            try:
                return ("lit", _eval_closed(n))
            except Exception as exc:  # noqa: BLE001  (the real assert would raise here too)
                return ("err", f"expected side raised {type(exc).__name__}: {exc}"[:300])
        if isinstance(n, ast.Compare):
            return ("cmp", self.plan(n.left), tuple((type(op), self.plan(c)) for op, c in zip(n.ops, n.comparators)))
        if isinstance(n, ast.BoolOp):
            return ("and" if isinstance(n.op, ast.And) else "or", tuple(self.plan(v, truth) for v in n.values))
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return ("not", self.plan(n.operand, True))
        if isinstance(n, ast.UnaryOp) and type(n.op) in (ast.USub, ast.UAdd):
            return ({ast.USub: "neg", ast.UAdd: "pos"}[type(n.op)], self.plan(n.operand))
        if isinstance(n, ast.BinOp) and type(n.op) in _BINOPS:
            return ("bin", type(n.op), self.plan(n.left), self.plan(n.right))
        if isinstance(n, (ast.Tuple, ast.List, ast.Set)) and not any(isinstance(e, ast.Starred) for e in n.elts):
            return ({ast.Tuple: "tuple", ast.List: "list", ast.Set: "set"}[type(n)], tuple(self.plan(e) for e in n.elts))
        name = _func_name(n)
        if (name in _APPLIED_FUNCS and isinstance(n, ast.Call) and _plain_args(n)
                and name.split(".")[0] not in self.shadowed):
            kw = tuple((k.arg, self.plan(k.value)) for k in n.keywords)
            return ("call", name, tuple(self.plan(a) for a in n.args), kw)
        return self._leaf(n, truth)

    def _uses_shadowed(self, n: ast.expr) -> bool:
        return bool(self.shadowed) and any(isinstance(x, ast.Name) and x.id in self.shadowed for x in ast.walk(n))

    def _leaf(self, n: ast.expr, truth: bool = False) -> Node:
        names: set[str] = set()
        scoped = False
        for x in ast.walk(n):
            if isinstance(x, ast.Name):
                names.add(x.id)
            elif isinstance(x, (ast.Lambda, ast.comprehension, ast.NamedExpr)):
                scoped = True
        independent = not scoped and not (names & self.shadowed) and names <= (_BUILTIN_NAMES | KNOWN_MODULES)
        k = self.first + len(self.leaves)
        mods = tuple(sorted(names & KNOWN_MODULES)) if independent else ()
        src = ast.get_source_segment(self.source, n) or ast.unparse(n)
        if "\n" in src:  # a multi-line segment may carry indentation the eval parser rejects
            src = ast.unparse(n)
        if truth:  # the sandbox reports only the truth value (a re.Match is fine for `assert m(x)`)
            src = f"(True if ({src}) else False)"
        self.leaves.append(Leaf(k, src, independent, mods))
        return ("leaf", k)


def _func_name(n: ast.expr) -> str | None:
    if not isinstance(n, ast.Call):
        return None
    f = n.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        return f"{f.value.id}.{f.attr}"
    return None


def _plain_args(n: ast.Call) -> bool:
    return not any(isinstance(a, ast.Starred) for a in n.args) and all(k.arg for k in n.keywords)


def _is_closed(n: ast.AST) -> bool:
    """Whether ``n`` uses only literals, displays, arithmetic and `_CLOSED_FUNCS` (no program names)."""
    if isinstance(n, ast.Constant):
        return True
    if isinstance(n, (ast.Tuple, ast.List, ast.Set)):
        return all(_is_closed(e) for e in n.elts)
    if isinstance(n, ast.Dict):
        return all(k is not None and _is_closed(k) for k in n.keys) and all(_is_closed(v) for v in n.values)
    if isinstance(n, ast.UnaryOp):
        return _is_closed(n.operand)
    if isinstance(n, ast.BinOp):
        return type(n.op) in _BINOPS and _is_closed(n.left) and _is_closed(n.right)
    if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
        return f"{n.value.id}.{n.attr}" == "math.pi"
    if isinstance(n, ast.Call):
        name = _func_name(n)
        return (name in _CLOSED_FUNCS and _plain_args(n) and all(_is_closed(a) for a in n.args)
                and all(_is_closed(k.value) for k in n.keywords))
    return False


def _eval_closed(n: ast.AST) -> Any:
    try:
        return ast.literal_eval(n)  # fast path for pure literals
    except (ValueError, TypeError, SyntaxError):
        pass
    if isinstance(n, (ast.Tuple, ast.List, ast.Set)):
        items = [_eval_closed(e) for e in n.elts]
        return {ast.Tuple: tuple, ast.List: list, ast.Set: set}[type(n)](items)
    if isinstance(n, ast.Dict):
        return {_eval_closed(k): _eval_closed(v) for k, v in zip(n.keys, n.values) if k is not None}
    if isinstance(n, ast.UnaryOp):
        return _unary(type(n.op), _eval_closed(n.operand))
    if isinstance(n, ast.BinOp):
        return _binop(type(n.op), _eval_closed(n.left), _eval_closed(n.right))
    if isinstance(n, ast.Attribute):
        return math.pi
    if isinstance(n, ast.Call):
        fn = _CLOSED_FUNCS[_func_name(n) or ""]
        return fn(*[_eval_closed(a) for a in n.args], **{k.arg: _eval_closed(k.value) for k in n.keywords if k.arg})
    raise _Unsafe(f"cannot evaluate {type(n).__name__} in the parent")


def _unary(op: type, v: Any) -> Any:
    if op is ast.Not:
        return not v
    if type(v) not in (int, float, complex, bool):
        raise TypeError(f"bad operand type for unary op: {type(v).__name__}")
    return -v if op is ast.USub else (+v if op is ast.UAdd else ~v)


def _binop(op: type, a: Any, b: Any) -> Any:
    if op is ast.Mult:
        for seq, times in ((a, b), (b, a)):
            if (isinstance(seq, (str, bytes, list, tuple)) and type(times) is int
                    and len(seq) * max(times, 0) > MAX_REPEAT_LEN):
                raise _Unsafe("sequence repeat too large to evaluate in the parent")
    return _BINOPS[op](a, b)


class LeafError(Exception):
    """A leaf raised in the sandbox, or its value was missing or not plain data."""


def evaluate(tree: Node, values: dict[int, Any], errors: dict[int, str]) -> Any:
    """Evaluate a plan tree over decoded leaf values (raises `LeafError` for a failed or missing leaf)."""
    kind = tree[0]
    if kind == "lit":
        return tree[1]
    if kind == "leaf":
        k = tree[1]
        if k in values:
            return values[k]
        raise LeafError(errors.get(k, "not run"))
    if kind == "err":
        raise LeafError(tree[1])
    if kind == "cmp":
        left = evaluate(tree[1], values, errors)
        for op, node in tree[2]:
            right = evaluate(node, values, errors)
            if not _CMPOPS[op](left, right):
                return False
            left = right
        return True
    if kind == "and":
        result: Any = True
        for node in tree[1]:
            result = evaluate(node, values, errors)
            if not result:
                return result
        return result
    if kind == "or":
        result = False
        for node in tree[1]:
            result = evaluate(node, values, errors)
            if result:
                return result
        return result
    if kind == "not":
        return not evaluate(tree[1], values, errors)
    if kind in ("neg", "pos"):
        return _unary(ast.USub if kind == "neg" else ast.UAdd, evaluate(tree[1], values, errors))
    if kind == "bin":
        return _binop(tree[1], evaluate(tree[2], values, errors), evaluate(tree[3], values, errors))
    if kind in ("tuple", "list", "set"):
        items = [evaluate(x, values, errors) for x in tree[1]]
        return {"tuple": tuple, "list": list, "set": set}[kind](items)
    if kind == "call":
        args = [evaluate(a, values, errors) for a in tree[2]]
        kwargs = {k: evaluate(v, values, errors) for k, v in tree[3]}
        for v in (*args, *kwargs.values()):
            if tree[1] != "round" and type(v) not in (int, float, bool, complex):
                raise TypeError(f"{tree[1]}() got a {type(v).__name__}")
        return _CLOSED_FUNCS[tree[1]](*args, **kwargs)
    raise _Unsafe(f"unknown plan node {kind!r}")


def judge(plan: TestPlan, values: dict[int, Any], errors: dict[int, str]) -> tuple[bool, str]:
    """Decide one test in the parent: ``(passed, detail)``; any exception is a failed test, never a pass."""
    if plan.tree is None:
        return False, plan.error or "unsupported test"
    try:
        ok = bool(evaluate(plan.tree, values, errors))
    except LeafError as exc:
        return False, str(exc)[:300]
    except RecursionError:
        return False, "value too deeply nested to compare"
    except Exception as exc:  # noqa: BLE001  (any failure to compare is a failed test, never a crash)
        return False, f"{type(exc).__name__}: {exc}"[:300]
    if ok:
        return True, ""
    got = [repr(values[leaf.index])[:120] for leaf in plan.leaves if leaf.index in values][:2]
    return False, "assertion failed" + (f" (got {', '.join(got)})" if got else "")
