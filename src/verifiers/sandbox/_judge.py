"""Judging in the trusted parent: split each assert into parent-side logic and program-side "leaves".

Names in a test resolve in one of two places:

* **parent names** — builtins, the modules of `PARENT_MODULES`, and what the set-up code imports from
  them. They resolve in this process to pristine objects no program ever ran beside.
* **program names** — everything else: the program's functions and classes, and what non-import set-up
  code builds with them (MBPP's trees of the program's ``Node`` class). They exist only in the sandbox.

A sub-expression that uses parent names only is *closed*: it is evaluated here, once, when the test is
planned (``set((4, 5))``, ``sys.getsizeof((1, 2))``, ``math.sqrt(2)``); it never runs in the sandbox and,
if it raises, it stays an error. The comparison, ``and``/``or``/``not``, arithmetic and the functions of
`_PARENT_FUNCS` run here on decoded plain data (``set(f(x)) == ...``, ``math.isclose(f(1), 2.5)``).
What remains are *leaves*, the program's own calls (``f(x)``), the only part that runs in the sandbox;
their closed arguments travel to it as values. A leaf can also hold what the parent does not evaluate
on program values (a method of a program object, a call outside `_PARENT_FUNCS` over program values):
that only shapes the program's own side of a test, never an expected side or the comparison.

One exception keeps MBPP's task 126 meaningful: a test whose only call is a builtin name at the root of
its left-hand side (``assert sum(10, 15) == 6``) calls the program's function of that name when the
program defines it with a top-level ``def`` (`entry_points`). Only that position: every other use of the
name in the test is the builtin.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import math
import operator
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from verifiers.sandbox._protocol import MAX_SAME_HASH, ValueRejected, check_hash_flood, encode_value

# Modules whose names resolve in the parent (pure computation; no files, processes or environment).
PARENT_MODULES = frozenset({
    "math", "cmath", "sys", "re", "string", "collections", "itertools", "functools", "heapq", "bisect",
    "operator", "statistics", "decimal", "fractions",
})
_BUILTIN_NAMES = frozenset(dir(builtins))
MAX_TEST_CHARS = 100_000
# Bounds on parent work over program values (decoded values are already bounded in nodes and bytes).
MAX_REPEAT_LEN = 100_000
MAX_POW_BITS = 1_000_000
MAX_FACTORIAL_ARG = 5_000


class _Unsafe(Exception):
    """An operation the parent refuses on program values (unbounded result)."""


def _guard_int(n: Any, bound: int, what: str) -> None:
    if type(n) is int and abs(n) > bound:
        raise _Unsafe(f"{what} argument too large to evaluate in the judge")


def _pow(a: Any, b: Any, m: Any = None) -> Any:
    if m is None and type(a) is int and type(b) is int and b > 0 and a.bit_length() * b > MAX_POW_BITS:
        raise _Unsafe("power too large to evaluate in the judge")
    return pow(a, b) if m is None else pow(a, b, m)


def _factorial(n: Any) -> Any:
    _guard_int(n, MAX_FACTORIAL_ARG, "factorial")
    return math.factorial(n)


def _comb(n: Any, k: Any) -> Any:
    _guard_int(n, MAX_FACTORIAL_ARG, "comb")
    return math.comb(n, k)


def _perm(n: Any, k: Any = None) -> Any:
    _guard_int(n, MAX_FACTORIAL_ARG, "perm")
    return math.perm(n, k)


def _prod(xs: Any, start: Any = 1) -> Any:
    out = start
    for x in xs:
        out = out * x
        if type(out) is int and out.bit_length() > MAX_POW_BITS:
            raise _Unsafe("product too large to evaluate in the judge")
    return out


def _round(x: Any, ndigits: Any = None) -> Any:
    _guard_int(ndigits, 1000, "round")
    return round(x) if ndigits is None else round(x, ndigits)


def _hashing(ctor: Callable[..., Any]) -> Callable[..., Any]:
    """``ctor`` (set, frozenset, dict) refusing program values crafted to share one hash (quadratic build)."""
    def build(*args: Any, **kw: Any) -> Any:
        if args and isinstance(args[0], (list, tuple, set, frozenset, dict)) and len(args[0]) > MAX_SAME_HASH:
            items = args[0]
            keys = list(items) if not isinstance(items, list) or ctor is not dict else [
                p[0] if isinstance(p, (list, tuple)) and p else p for p in items]
            check_hash_flood(keys)
        return ctor(*args, **kw)
    return build


def _range(*args: Any) -> range:
    r = range(*args)
    if len(r) > MAX_REPEAT_LEN:
        raise _Unsafe("range too long to evaluate in the judge")
    return r


# Functions the parent applies to program values: bounded work on plain data, pristine objects.
_PARENT_FUNCS: dict[str, Callable[..., Any]] = {
    "abs": abs, "round": _round, "min": min, "max": max, "sum": sum, "len": len, "sorted": sorted,
    "set": _hashing(set), "frozenset": _hashing(frozenset), "list": list, "tuple": tuple, "dict": _hashing(dict),
    "bool": bool, "int": int,
    "float": float, "complex": complex, "str": str, "repr": repr, "any": any, "all": all, "divmod": divmod,
    "pow": _pow, "ord": ord, "chr": chr, "hex": hex, "oct": oct, "bin": bin, "isinstance": isinstance,
    "range": _range,
    **{f"math.{n}": getattr(math, n) for n in (
        "isclose", "sqrt", "floor", "ceil", "fabs", "trunc", "gcd", "lcm", "isqrt", "hypot", "log", "log2",
        "log10", "exp", "sin", "cos", "tan", "atan", "atan2", "degrees", "radians", "isnan", "isinf",
        "isfinite", "copysign", "fsum", "dist")},
    "math.pow": math.pow, "math.factorial": _factorial, "math.comb": _comb, "math.perm": _perm,
    "math.prod": _prod,
}
_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: _pow, ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
}
_CMPOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}

Node = tuple[Any, ...]


@dataclass(frozen=True)
class Leaf:
    """A program-side sub-expression: ``name(*args, **kw)`` (``name`` set) or ``source`` evaluated with
    ``__leafargs__`` bound to ``values`` (closed inputs, tagged-encoded); ``truth``: report only its truth.

    ``wrap``: the judge function call around it, with the leaf as ``__leafvalue__`` (``str(__leafvalue__)``):
    when the leaf's value is not plain data (a program object), the child evaluates that instead, on the
    same value, and its result stands for the whole call (still only the program's side of the test).
    """

    index: int
    source: str
    truth: bool
    name: str | None
    values: tuple[Any, ...]
    wrap: str | None = None

    def wire(self) -> list[Any]:
        """The leaf as the child reads it."""
        return [self.index, self.truth, self.name, self.source, list(self.values), self.wrap]


@dataclass(frozen=True)
class TestPlan:
    """One parsed test: the parent-side tree over leaves, or why the test cannot be judged."""

    source: str
    tree: Node | None
    leaves: tuple[Leaf, ...]
    error: str | None = None
    entry_candidate: str | None = None  # builtin name at the root of the left side of a program-free test


# CPython 3.11's AST conversion keeps its recursion depth in shared state: two threads parsing at once
# can fail with "SystemError: AST constructor recursion depth mismatch" (seen in a Ray actor). Serialize.
_AST_LOCK = threading.Lock()


def parse_python(source: str) -> ast.Module:
    """``ast.parse`` that is safe to call from several threads at once."""
    with _AST_LOCK:
        return ast.parse(source)


@functools.lru_cache(maxsize=4096)
def setup_bindings(setup_code: str) -> tuple[tuple[str, str, str | None], ...]:
    """``(name, module, attribute)`` for each name the set-up code imports from `PARENT_MODULES`.

    Those names resolve in the parent; everything else the set-up code binds is program-side. Set-up
    code that does not parse binds nothing here (the sandbox then reports its error).
    """
    if not setup_code.strip():
        return ()
    try:
        mod = parse_python(setup_code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    out: list[tuple[str, str, str | None]] = []
    for st in mod.body:
        if isinstance(st, ast.Import):
            for a in st.names:
                root = a.name.split(".")[0]
                if root in PARENT_MODULES and (a.asname is None or "." not in a.name):
                    out.append((a.asname or root, a.name if a.asname else root, None))
        elif isinstance(st, ast.ImportFrom) and st.level == 0 and st.module in PARENT_MODULES:
            for a in st.names:
                if a.name != "*":
                    out.append((a.asname or a.name, st.module, a.name))
    return tuple(out)


def _parent_env(bindings: tuple[tuple[str, str, str | None], ...]) -> dict[str, Any]:
    env: dict[str, Any] = {}
    for name, module, attr in bindings:
        try:
            mod = importlib.import_module(module)
            env[name] = getattr(mod, attr) if attr else mod
        except (ImportError, AttributeError):
            continue
    return env


_DEF_RE_CACHE: dict[str, re.Pattern[str]] = {}


def entry_points(code: str, candidates: Iterable[str]) -> frozenset[str]:
    """Which ``candidates`` (builtin names tests call as their subject) the program defines at top level.

    A lexical check (``def NAME(`` at the start of a line): the parent never parses untrusted code.
    """
    found = set()
    for name in candidates:
        pat = _DEF_RE_CACHE.get(name)
        if pat is None:
            pat = _DEF_RE_CACHE[name] = re.compile(rf"^(?:async\s+)?def\s+{re.escape(name)}\s*\(", re.MULTILINE)
        if pat.search(code):
            found.add(name)
    return frozenset(found)


@functools.lru_cache(maxsize=65536)  # RL scores the same tests many times; plans are immutable
def plan_test(source: str, first_index: int = 0, entries: frozenset[str] = frozenset(),
              bindings: tuple[tuple[str, str, str | None], ...] = ()) -> TestPlan:
    """Parse one ``assert`` statement into a `TestPlan` (leaf indices start at ``first_index``).

    Args:
        source: the assert statement.
        first_index: index of its first leaf (leaves of all tests of a program share one numbering).
        entries: builtin names the program defines as its entry point (see `entry_points`).
        bindings: names the set-up code imports (see `setup_bindings`).

    Example:
        >>> p = plan_test("assert f(1) == (4, 5)")
        >>> [(leaf.name, leaf.values) for leaf in p.leaves]
        [('f', ([1], []))]
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
    test = mod.body[0].test
    env = _parent_env(bindings)
    planner = _Planner(source, first_index, env)
    candidate = planner.entry_candidate(test)
    if candidate in entries:
        planner.set_entry(planner.subject(test))
    try:
        tree = planner.plan(test, truth=True)
    except RecursionError:
        return TestPlan(source, None, (), "test nested too deeply")
    return TestPlan(source, tree, tuple(planner.leaves), entry_candidate=candidate)


class _Planner:
    def __init__(self, source: str, first: int, env: dict[str, Any]) -> None:
        self.source = source
        self.first = first
        self.env = env
        self.parent_names = _BUILTIN_NAMES | PARENT_MODULES | frozenset(env)
        self.leaves: list[Leaf] = []
        self.entry_node: ast.expr | None = None
        self._free: dict[int, frozenset[str]] = {}  # per node: its free names (each node analysed once)
        self._special: dict[int, bool] = {}  # per node: holds the entry call or a side effect

    def set_entry(self, node: ast.expr) -> None:
        """Make ``node`` (the test's subject) the program's entry-point call."""
        self.entry_node = node
        self._special.clear()

    # ---------------------------------------------------------------- classification
    def closed(self, n: ast.AST) -> bool:
        """Its free names are parent names only (and it does not contain the program's entry-point call)."""
        return not self.special(n) and self.free(n) <= self.parent_names

    def free(self, n: ast.AST) -> frozenset[str]:
        """`_free_names` of ``n``, memoized bottom-up (scopes that bind names are analysed whole)."""
        if type(n) is ast.Constant:
            return _NO_NAMES
        got = self._free.get(id(n))
        if got is None:
            if isinstance(n, ast.Name):
                got = frozenset((n.id,))
            elif isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                got = frozenset(_free_names(n))
            else:
                got = _NO_NAMES.union(*(self.free(c) for c in _children(n)))
            self._free[id(n)] = got
        return got

    def special(self, n: ast.AST) -> bool:
        """``n`` is or holds the entry-point call, an assignment expression, ``await`` or ``yield``."""
        if type(n) is ast.Constant:
            return False
        got = self._special.get(id(n))
        if got is None:
            got = (n is self.entry_node or isinstance(n, (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom))
                   or any(self.special(c) for c in _children(n)))
            self._special[id(n)] = got
        return got

    @staticmethod
    def subject(test: ast.expr) -> ast.expr:
        return test.left if isinstance(test, ast.Compare) else test

    def entry_candidate(self, test: ast.expr) -> str | None:
        """The builtin called at the root of the test's subject when the test names nothing else."""
        if not self.closed(test):
            return None
        s = self.subject(test)
        if isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id in _BUILTIN_NAMES:
            return s.func.id
        return None

    def func_name(self, n: ast.expr) -> str | None:
        """Dotted name of a call's function when it is a parent name (``set``, ``math.isclose``)."""
        if not isinstance(n, ast.Call) or n is self.entry_node:
            return None
        f = n.func
        if isinstance(f, ast.Name) and f.id in self.parent_names:
            bound = self.env.get(f.id)
            if bound is not None:  # `from math import isclose` in the set-up code
                mod = getattr(bound, "__module__", None)
                return f"{mod}.{getattr(bound, '__name__', '')}" if mod else None
            return f.id if f.id in _BUILTIN_NAMES else None
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.parent_names:
            mod = self.env.get(f.value.id)
            base = getattr(mod, "__name__", f.value.id)
            return f"{base}.{f.attr}"
        return None

    # ---------------------------------------------------------------- planning
    def plan(self, n: ast.expr, truth: bool = False) -> Node:
        """Plan ``n``; ``truth``: only its truthiness matters (``assert f(x)``, ``not f(x)``, ``a and b``)."""
        if self.closed(n):
            try:
                return ("lit", self.eval_closed(n))
            except Exception as exc:  # noqa: BLE001  (the real assert would raise here too)
                return ("err", f"raised {type(exc).__name__}: {exc}"[:300])
        if isinstance(n, ast.Compare):
            return ("cmp", self.plan(n.left), tuple((type(op), self.plan(c)) for op, c in zip(n.ops, n.comparators)))
        if isinstance(n, ast.BoolOp):
            return ("and" if isinstance(n.op, ast.And) else "or", tuple(self.plan(v, truth) for v in n.values))
        if isinstance(n, ast.UnaryOp):
            kind = {ast.Not: "not", ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "inv"}[type(n.op)]
            return (kind, self.plan(n.operand, truth=kind == "not"))
        if isinstance(n, ast.BinOp) and type(n.op) in _BINOPS:
            return ("bin", type(n.op), self.plan(n.left), self.plan(n.right))
        if isinstance(n, ast.IfExp):
            return ("if", self.plan(n.test, True), self.plan(n.body, truth), self.plan(n.orelse, truth))
        if isinstance(n, (ast.Tuple, ast.List, ast.Set)) and not any(isinstance(e, ast.Starred) for e in n.elts):
            return ({ast.Tuple: "tuple", ast.List: "list", ast.Set: "set"}[type(n)], tuple(self.plan(e) for e in n.elts))
        if isinstance(n, ast.Dict) and all(k is not None for k in n.keys):
            return ("dict", tuple((self.plan(k), self.plan(v)) for k, v in zip(n.keys, n.values) if k is not None))
        name = self.func_name(n)
        if name in _PARENT_FUNCS and isinstance(n, ast.Call) and self.data_args(n):
            args = tuple(self.plan(_materialized(a)) for a in n.args)
            kw = tuple((k.arg, self.plan(_materialized(k.value))) for k in n.keywords)
            self.wrap_leaf(n, args, kw)
            return ("call", name, args, kw)
        if isinstance(n, ast.Subscript) and not self.leafy(n.value):
            return ("sub", self.plan(n.value), self.plan(n.slice))
        if isinstance(n, ast.Slice):
            parts = [self.plan(p) if p is not None else ("lit", None) for p in (n.lower, n.upper, n.step)]
            return ("slice", *parts)
        return self.leaf(n, truth)

    def wrap_leaf(self, call: ast.Call, args: tuple[Node, ...], kw: tuple[tuple[str, Node], ...]) -> None:
        """Give a one-argument judge call's program argument its `Leaf.wrap` (``str(__leafvalue__)``).

        One argument only: any other argument is test data (``math.isclose(f(1), 2.5)``), and test data
        never goes to the sandbox.
        """
        if len(args) != 1 or kw or args[0][0] != "leaf":
            return
        wrapped = ast.Call(ast.Name(_func_source(call), ast.Load()), [ast.Name("__leafvalue__", ast.Load())], [])
        pos = next(j for j, leaf in enumerate(self.leaves) if leaf.index == args[0][1])
        old = self.leaves[pos]
        self.leaves[pos] = Leaf(old.index, old.source, old.truth, old.name, old.values, ast.unparse(wrapped))

    def leafy(self, n: ast.expr) -> bool:
        """Whether `plan` would turn ``n`` itself into a leaf (so a subscript of it stays in the sandbox)."""
        if self.closed(n) or isinstance(n, (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Tuple, ast.List,
                                            ast.Set, ast.Dict)):
            return False
        if isinstance(n, ast.BinOp) and type(n.op) in _BINOPS:
            return False
        name = self.func_name(n)
        if name in _PARENT_FUNCS and isinstance(n, ast.Call) and self.data_args(n):
            return False
        return not (isinstance(n, ast.Subscript) and not self.leafy(n.value))

    def data_args(self, n: ast.Call) -> bool:
        """Whether the parent can apply a function to these arguments: no ``*``/``**``; no bare program name
        (a class, a function or an object, not data: ``isinstance(x, Point)``, ``len(root)``); every
        callable argument (a lambda, a ``key=``) is test code, not the program's."""
        if not _plain_args(n):
            return False
        values = [*n.args, *(k.value for k in n.keywords)]
        if any(isinstance(a, ast.Name) and a.id not in self.parent_names for a in values):
            return False
        fn_args = [a for a in n.args if isinstance(a, ast.Lambda)]
        fn_args += [k.value for k in n.keywords if k.arg == "key" or isinstance(k.value, ast.Lambda)]
        return all(self.closed(a) for a in fn_args)

    def eval_closed(self, n: ast.expr) -> Any:
        """Evaluate a closed sub-expression here (trusted test code over pristine builtins and modules)."""
        try:
            return ast.literal_eval(n)  # fast path for pure literals
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        env: dict[str, Any] = {"__builtins__": builtins}
        for x in ast.walk(n):
            if isinstance(x, ast.Name) and x.id in PARENT_MODULES and x.id not in self.env:
                env[x.id] = importlib.import_module(x.id)
        env.update(self.env)
        code = compile(ast.Expression(n), "<test>", "eval")
        return eval(code, env)

    def leaf(self, n: ast.expr, truth: bool) -> Node:
        k = self.first + len(self.leaves)
        if isinstance(n, ast.GeneratorExp):  # a generator object is not data: its items are
            n = ast.ListComp(n.elt, n.generators)
        call = self.direct_call(n)
        if call is not None:
            name, args, kw = call
            src = ast.get_source_segment(self.source, n) or ast.unparse(n)  # informative only
            self.leaves.append(Leaf(k, src, truth, name, (args, kw)))
            return ("leaf", k)
        values: list[Any] = []
        rewritten = _Shipper(self, values).visit(_copy(n))
        ast.fix_missing_locations(rewritten)
        self.leaves.append(Leaf(k, ast.unparse(rewritten), truth, None, tuple(values)))
        return ("leaf", k)

    def direct_call(self, n: ast.expr) -> tuple[str, list[Any], list[list[Any]]] | None:
        """``name(closed args...)`` with shippable arguments: the child calls it without compiling."""
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and _plain_args(n)):
            return None
        if n.func.id in self.parent_names and n is not self.entry_node:
            return None
        try:
            args = [self.shippable(a) for a in n.args]
            kw = [[k.arg, self.shippable(k.value)] for k in n.keywords]
        except _NotShippable:
            return None
        return n.func.id, args, kw

    def shippable(self, n: ast.expr) -> Any:
        """The encoded value of a closed, plain-data sub-expression; `_NotShippable` otherwise."""
        if not self.closed(n):
            raise _NotShippable
        try:
            return encode_value(self.eval_closed(n))
        except (ValueRejected, Exception) as exc:
            raise _NotShippable from exc


class _NotShippable(Exception):
    pass


class _Shipper(ast.NodeTransformer):
    """Replace maximal closed plain-data sub-expressions of a leaf by ``__leafargs__[i]``."""

    def __init__(self, planner: _Planner, values: list[Any]) -> None:
        self.planner = planner
        self.values = values

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.expr) and not isinstance(node, (ast.Constant, ast.Name)):
            try:
                enc = self.planner.shippable(node)
            except _NotShippable:
                return super().generic_visit(node)
            self.values.append(enc)
            return ast.Subscript(ast.Name("__leafargs__", ast.Load()), ast.Constant(len(self.values) - 1), ast.Load())
        return super().generic_visit(node)


_NO_NAMES: frozenset[str] = frozenset()


def _children(n: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes`` with fast paths for the shapes tests are made of (large literal displays)."""
    t = type(n)
    if t is ast.List or t is ast.Tuple or t is ast.Set:
        return n.elts  # type: ignore[attr-defined, no-any-return]
    if t is ast.Call:
        return [n.func, *n.args, *n.keywords]  # type: ignore[attr-defined]
    if t is ast.keyword:
        return [n.value]  # type: ignore[attr-defined]
    if t is ast.Compare:
        return [n.left, *n.comparators]  # type: ignore[attr-defined]
    return list(ast.iter_child_nodes(n))


def _free_names(n: ast.AST, bound: frozenset[str] = frozenset()) -> set[str]:
    """Names ``n`` reads from outside itself (comprehension targets and lambda parameters are local)."""
    if isinstance(n, ast.Name):
        return set() if n.id in bound else {n.id}
    if isinstance(n, ast.Lambda):
        a = n.args
        params = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)} | {
            p.arg for p in (a.vararg, a.kwarg) if p is not None}
        out = set().union(*(_free_names(d, bound) for d in (*a.defaults, *a.kw_defaults) if d is not None))
        return out | _free_names(n.body, bound | params)
    if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        out: set[str] = set()
        inner = bound
        for i, gen in enumerate(n.generators):
            out |= _free_names(gen.iter, bound if i == 0 else inner)  # the first iterable is read outside
            inner = inner | {x.id for x in ast.walk(gen.target) if isinstance(x, ast.Name)}
            for cond in gen.ifs:
                out |= _free_names(cond, inner)
        elts = (n.key, n.value) if isinstance(n, ast.DictComp) else (n.elt,)
        for e in elts:
            out |= _free_names(e, inner)
        return out
    out = set()
    for child in ast.iter_child_nodes(n):
        out |= _free_names(child, bound)
    return out


def _func_source(call: ast.Call) -> str:
    """The called function's name as written (``str``, ``math.floor``)."""
    return ast.unparse(call.func)


def _copy(n: ast.expr) -> ast.expr:
    return ast.parse(ast.unparse(n), mode="eval").body


def _materialized(n: ast.expr) -> ast.expr:
    return ast.ListComp(n.elt, n.generators) if isinstance(n, ast.GeneratorExp) else n


def _plain_args(n: ast.Call) -> bool:
    return not any(isinstance(a, ast.Starred) for a in n.args) and all(k.arg for k in n.keywords)


# ---------------------------------------------------------------------------------------- evaluation


class LeafError(Exception):
    """A leaf raised in the sandbox, or its value was missing or not plain data."""


@dataclass(frozen=True)
class Wrapped:
    """A leaf's `Leaf.wrap` result: the value of the judge call around it, computed program-side."""

    value: Any


def _binop(op: type, a: Any, b: Any) -> Any:
    if op is ast.Mult:
        for seq, times in ((a, b), (b, a)):
            if (isinstance(seq, (str, bytes, list, tuple)) and type(times) is int
                    and len(seq) * max(times, 0) > MAX_REPEAT_LEN):
                raise _Unsafe("sequence repeat too large to evaluate in the judge")
    elif op is ast.LShift and type(b) is int and b > MAX_POW_BITS:
        raise _Unsafe("shift too large to evaluate in the judge")
    elif op is ast.Mod and isinstance(a, (str, bytes)):
        raise _Unsafe("%-formatting of a program value is not evaluated in the judge")
    return _BINOPS[op](a, b)


def _unary(kind: str, v: Any) -> Any:
    if kind == "not":
        return not v
    if type(v) not in (int, float, complex, bool):
        raise TypeError(f"bad operand type for unary op: {type(v).__name__}")
    return -v if kind == "neg" else (+v if kind == "pos" else ~v)


def evaluate(tree: Node, values: dict[int, Any], errors: dict[int, str]) -> Any:
    """Evaluate a plan tree over decoded leaf values (raises `LeafError` for a failed or missing leaf)."""
    kind = tree[0]
    if kind == "lit":
        return tree[1]
    if kind == "leaf":
        k = tree[1]
        if k in values:
            if type(values[k]) is Wrapped:
                raise LeafError("returned a value that is not plain data")
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
    if kind in ("and", "or"):
        result: Any = kind == "and"
        for node in tree[1]:
            result = evaluate(node, values, errors)
            if bool(result) != (kind == "and"):
                return result
        return result
    if kind in ("not", "neg", "pos", "inv"):
        return _unary(kind, evaluate(tree[1], values, errors))
    if kind == "bin":
        return _binop(tree[1], evaluate(tree[2], values, errors), evaluate(tree[3], values, errors))
    if kind == "if":
        return evaluate(tree[2] if evaluate(tree[1], values, errors) else tree[3], values, errors)
    if kind in ("tuple", "list", "set"):
        items = [evaluate(x, values, errors) for x in tree[1]]
        if kind == "set" and len(items) > MAX_SAME_HASH:
            check_hash_flood(items)
        return {"tuple": tuple, "list": list, "set": set}[kind](items)
    if kind == "dict":
        pairs = [(evaluate(k, values, errors), evaluate(v, values, errors)) for k, v in tree[1]]
        if len(pairs) > MAX_SAME_HASH:
            check_hash_flood([k for k, _ in pairs])
        return dict(pairs)
    if kind == "call":
        for node in (*tree[2], *(v for _, v in tree[3])):
            if node[0] == "leaf" and type(values.get(node[1])) is Wrapped:
                return values[node[1]].value  # the program's object: the call was made on its side
        args = [evaluate(a, values, errors) for a in tree[2]]
        kwargs = {k: evaluate(v, values, errors) for k, v in tree[3]}
        return _PARENT_FUNCS[tree[1]](*args, **kwargs)
    if kind == "sub":
        return evaluate(tree[1], values, errors)[evaluate(tree[2], values, errors)]
    if kind == "slice":
        return slice(*(evaluate(p, values, errors) for p in tree[1:]))
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


def plan_tests(code: str, tests: list[str], setup_code: str) -> list[TestPlan]:
    """Plan every test of one program (leaf indices numbered across tests, entry points resolved)."""
    bindings = setup_bindings(setup_code)
    plans: list[TestPlan] = []
    first = 0
    for t in tests:
        p = plan_test(t, first, frozenset(), bindings)
        if p.entry_candidate is not None:
            entries = entry_points(code, [p.entry_candidate])
            if entries:
                p = plan_test(t, first, entries, bindings)
        plans.append(p)
        first += len(p.leaves)
    return plans
