"""Test-shape planning in the trusted parent: split each assert into parent-side logic and program-side "leaves".

Names in a test resolve in one of three places:

* **parent names** — builtins (`_pure.PARENT_BUILTINS`), the modules of `PARENT_MODULES`, and what the
  set-up code binds in the parent (`_setup.setup_scope`: its imports of those modules, star-imports
  expanded, and its closed statements). They resolve in this process to pristine objects.
* **loop names** — the targets of a test's comprehensions (and of the lambdas of ``map``/``filter``).
* **program names** — everything else: the program's functions and classes, and what program-side set-up
  code builds with them (MBPP's trees of the program's ``Node`` class). They exist only in the sandbox.

A sub-expression that uses parent names only is *closed*: it is evaluated here, once, when the test is
planned (``set((4, 5))``, ``math.sqrt(2)``); if it raises, it stays an error; if it is a one-shot iterator
it is evaluated afresh for every judgement. Comparisons, ``and``/``or``/``not``, arithmetic, displays,
subscripts, the functions of `_pure.FUNCS` and the pure methods of `_pure.METHODS` run here on decoded
plain data. Comprehensions (and ``map``/``filter`` over a lambda or a program function) over closed
iterables are unrolled here: each item's program calls are their own leaves, with the item's values as
inputs; over a program value they loop here, and may then not call the program per item.

What remains are *leaves*, the only part that runs in the sandbox. A leaf is the program's own answer:
a call, attribute or subscript rooted at a program name (``f(x)``, ``obj.area()``, ``f(1)[0]``, a bare
program value ``nums``), whose arguments are inputs (closed ones travel as values). Program code never
receives test data that decides a comparison: a method of a builtin type (``r.find("quick")``,
``r.difference({2, 3})``, ``w.startswith("a")``) is the judge's, on plain data only (a program object there
fails the test); a judge function over a program name (``sum(nums)``, ``sorted(data)``) fetches the name's
value and applies the function here. A name the test reads is the program's object (its methods and
subscripts are calls into it: ``cache.get(1)``) only when `name_roles` says so; a name bound to what a
program function returned (``words = split_words("a b")``) is a value like ``split_words("a b")`` itself,
and one whose kind is not settled is refused for these shapes. A leaf never holds a comparison or a test value outside a program
call's arguments, and is never rooted at a name the set-up code binds beside the program: a test that would
need one (``operator.eq(f(1), 42)`` with an operator the judge does not evaluate, ``check(f)`` with ``check``
defined by set-up code, ``f(1) == expected`` with ``expected`` computed beside the program,
``isinstance(s, Stack)`` with the program's class) is refused as an unsupported test shape, never evaluated
there.

Only one kind of judge call reaches the sandbox, and with no test value: a one-argument judge builtin
(``str(obj)``, ``len(root)``) or a comprehension that only projects a program value's items
(``[str(p) for p in bag.items]``), applied there when the value is a program object (`Leaf.wrap`).

Cached plans are shared by every program that runs the same tests, so a judgement never changes one: a
plan whose evaluation could run test code that keeps state (a set-up function, a test lambda that calls
anything but the judge's pure functions, a value that is not plain data) is planned afresh for each
program (`TestPlan.private`), and each program's judgement has one work budget across its tests
(`_pure.MAX_JUDGE_STEPS`).

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
import io
import itertools
import numbers
import re
import tokenize
import types
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from verifiers.sandbox._leaves import JudgeBudget, Leaf, Node, Roles, TestPlan, bind, fresh
from verifiers.sandbox._protocol import ValueRejected, encode_value
from verifiers.sandbox._pure import (
    BINOPS,
    CLOSED_GUARDS,
    FUNC_KEYS,
    FUNCS,
    HIGHER_ORDER,
    IMMUTABLE_TYPES,
    INTROSPECTION,
    METHOD_NAMES,
    PARENT_BUILTINS,
    PARENT_MODULES,
    PLAIN_CONTAINERS,
    TEST_ONLY_ARGS,
    WRAPPABLE,
    is_pure_callable,
    parent_builtins,
    parent_module,
)
from verifiers.sandbox._setup import (
    EMPTY_SCOPE,
    SetupScope,
    is_dunder,
    is_iterator,
    member_usage,
    parse_python,
    setup_scope,
    usage_key,
)

_BUILTIN_NAMES = frozenset(dir(builtins))
MAX_TEST_CHARS = 100_000
MAX_UNROLLED_ITEMS = 10_000  # comprehension items one test may unroll
MAX_LEAVES_PER_TEST = 10_000
# Program code `program_class` tokenizes at most (beyond: the kind is unsettled): a few ms of parent CPU.
MAX_CLASS_SCAN_CHARS = 8_000
MAX_CLASS_SCAN_TOKENS = 600
UNSUPPORTED = "unsupported test shape"


def _def_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"^(?:async\s+)?def\s+{re.escape(name)}\s*\(", re.MULTILINE)


def entry_points(code: str, candidates: Iterable[str]) -> frozenset[str]:
    """Which ``candidates`` (builtin names tests call as their subject) the program defines at top level.

    A lexical check (``def NAME(`` at the start of a line): the parent never parses untrusted code.
    """
    return frozenset(name for name in candidates if _def_pattern(name).search(code))


def name_roles(code: str, tests: tuple[str, ...], setup_code: str) -> Roles:
    """Which program names the tests name as the program's OBJECTS, and which are of unsettled kind.

    A test that names a program value (``s.pop()``, ``words.count("a")``, ``grid[1][1]``) means either a
    call into the program's object (its class answers) or a builtin type's method or subscript on a value
    a program function returned (the judge answers, on plain data; a program object there fails). Decided
    per name, first from the trusted dataset, then from the program's code:

    1. the set-up code or a test reads a member of it (or of anything made by the same call) that no plain
       value has (``s.push(1)``, ``root.left``): an object;
    2. the tests use the results of the program name that made it as plain data (``split_words("a") ==
       ["a"]``, ``assert words == [...]``): a value (a function task: its honest answer is never a class);
    3. it was made by ``C(...)`` and the program's code settles ``C`` as a plain top-level class
       (`program_class`): an object; a class the code does not settle (decorated, rebound, built
       dynamically): unsettled, refused; anything else (a ``def``, a lambda): a value;
    4. a set-up name bound otherwise (``n = t.find(3)``, ``xs = [Node(1)]``): unsettled; a program global
       the test names: a value.

    Returns:
        ``(objects, unsettled)``; every other program name is a value.
    """
    plan = _dataset_roles(tests, setup_code)
    if not plan[2]:
        return plan[0], plan[1]  # the cached sets themselves (their hashes are kept: plan_test's cache key)
    objects = set(plan[0])
    unsettled = set(plan[1])
    for name, callee in plan[2]:
        kind = program_class(code, callee) if code else "none"
        if kind == "class":
            objects.add(name)
        elif kind == "unsettled":
            unsettled.add(name)
    return frozenset(objects), frozenset(unsettled)


@functools.lru_cache(maxsize=4096)
def _dataset_roles(tests: tuple[str, ...], setup_code: str) -> tuple[frozenset[str], frozenset[str],
                                                                        tuple[tuple[str, str], ...]]:
    """The part of `name_roles` the dataset decides: ``(objects, unsettled, (name, callee) pairs for the
    program's code to decide)``, over the names the tests apply a builtin type's method or a subscript to."""
    scope = setup_scope(setup_code) if setup_code else EMPTY_SCOPE
    objects_used, data_used = set(scope.objects_used), set(scope.data_used)
    names: set[str] = set()
    for t in tests:
        try:
            tree = parse_python(t.strip()) if len(t) <= MAX_TEST_CHARS else None
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            tree = None
        if tree is None:
            continue
        objs, data = member_usage(tree, scope.made_by)
        objects_used |= objs
        data_used |= data
        for n in ast.walk(tree):
            if isinstance(n, ast.Subscript):
                m = n.value
            elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in METHOD_NAMES:
                m = n.func.value
            else:
                continue
            while isinstance(m, (ast.Attribute, ast.Subscript)):
                m = m.value
            if isinstance(m, ast.Name):
                names.add(m.id)
    objects: set[str] = set()
    unsettled: set[str] = set()
    by_code: list[tuple[str, str]] = []
    for name in sorted(names):
        key = usage_key(ast.Name(name, ast.Load()), scope.made_by)
        callee = scope.made_by.get(name)
        if key in objects_used:
            objects.add(name)
        elif callee is not None and callee not in data_used:
            by_code.append((name, callee))
        elif callee is None and name in scope.made_by:
            unsettled.add(name)
    return frozenset(objects), frozenset(unsettled), tuple(by_code)


# Names through which code can rebind a module's globals without a binding statement the tokens show.
_DYNAMIC_NAMES = frozenset({"globals", "vars", "locals", "exec", "eval", "setattr", "delattr",
                            "__dict__", "modules", "__builtins__", "builtins", "__import__", "importlib", "global"})
_BINDING_KEYWORDS = frozenset({"import", "from", "del", "case", "nonlocal"})


@functools.lru_cache(maxsize=4096)
def program_class(code: str, name: str) -> str:
    """What the program's code binds ``name`` to at module level, read from its tokens (the parent never
    parses untrusted code): ``"class"`` when exactly one undecorated top-level ``class name`` statement
    binds it and nothing else can (no other binding of the name, no ``globals()``/``exec``/``setattr``/
    ``sys.modules``/``global``/star import anywhere); ``"unsettled"`` when a ``class name`` statement
    exists but that does not hold, or the code is too long to tokenize here (`MAX_CLASS_SCAN_CHARS`,
    `MAX_CLASS_SCAN_TOKENS`: tokenizing costs the parent ~5 us a token, and an unterminated string grows
    quadratically in its length);
    ``"none"`` when the code has no such statement (a ``def``, a lambda)."""
    if not re.search(rf"\bclass\s+{re.escape(name)}\b", code):
        return "none"
    if len(code) > MAX_CLASS_SCAN_CHARS:
        return "unsettled"
    try:
        tokens = list(itertools.islice(tokenize.generate_tokens(io.StringIO(code).readline),
                                       MAX_CLASS_SCAN_TOKENS + 1))
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError):
        return "unsettled"
    if len(tokens) > MAX_CLASS_SCAN_TOKENS:
        return "unsettled"
    classes = 0
    level = 0
    line: list[tokenize.TokenInfo] = []
    line_level = 0
    decorated = False
    for tok in tokens:
        if tok.type == tokenize.INDENT:
            level += 1
            continue
        if tok.type == tokenize.DEDENT:
            level -= 1
            continue
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.ENCODING):
            continue
        if tok.type not in (tokenize.NEWLINE, tokenize.ENDMARKER):
            if not line:
                line_level = level
            line.append(tok)
            continue
        if not line:
            continue
        words = [t.string for t in line if t.type in (tokenize.NAME, tokenize.OP)]
        if _DYNAMIC_NAMES & set(words) or (words[0] in ("import", "from") and "*" in words):
            return "unsettled"
        if name in words:
            if words[:2] == ["class", name]:
                if line_level != 0 or decorated or words.count(name) != 1:
                    return "unsettled"
                classes += 1
            elif _binds(line, name):
                return "unsettled"
        if line_level == 0:
            decorated = words[0] == "@"
        line = []
    return "class" if classes == 1 else "unsettled"


def _binds(line: list[tokenize.TokenInfo], name: str) -> bool:
    """Whether one logical line (not a ``class name`` header) may bind ``name``: an assignment or loop
    target, ``as``, ``:=``, ``def``/``class`` of that name, an import, ``del`` or ``case`` mentioning it
    (conservative: a local binding counts too)."""
    toks = [t for t in line if t.type in (tokenize.NAME, tokenize.OP, tokenize.NUMBER, tokenize.STRING)]
    words = [t.string for t in toks]
    if words[0] in _BINDING_KEYWORDS or (words[0] in ("def", "class", "async") and name in words[:3]):
        return True
    depth = 0
    last_assign = -1  # the last `=` (or augmented assignment) outside brackets: targets come before it
    in_for = False
    for i, w in enumerate(words):
        if w in "([{" and toks[i].type == tokenize.OP:
            depth += 1
        elif w in ")]}" and toks[i].type == tokenize.OP:
            depth -= 1
        elif depth == 0 and toks[i].type == tokenize.OP and w.endswith("=") and w not in ("==", "<=", ">=", "!="):
            last_assign = i
        elif depth == 0 and toks[i].type == tokenize.OP and w == ":" and i == 1 and words[0] == name:
            return True  # `name: T = ...`
        if w == "for":
            in_for = True
        elif w == "in":
            in_for = False
        if w == name and toks[i].type == tokenize.NAME:
            after = words[i + 1] if i + 1 < len(words) else ""
            before = words[i - 1] if i else ""
            if before == "as" or after == ":=" or in_for:
                return True
    for i in range(last_assign):
        if words[i] == name and toks[i].type == tokenize.NAME and (words[i + 1] not in ("(", ".", "[")):
            return True
    return False


@functools.lru_cache(maxsize=65536)  # RL scores the same tests many times; plans are immutable
def plan_test(source: str, first_index: int = 0, entries: frozenset[str] = frozenset(),
              setup_code: str = "", roles: Roles | None = None) -> TestPlan:
    """Parse one ``assert`` statement into a `TestPlan` (leaf indices start at ``first_index``).

    Args:
        source: the assert statement.
        first_index: index of its first leaf (leaves of all tests of a program share one numbering).
        entries: builtin names the program defines as its entry point (see `entry_points`).
        setup_code: the test's set-up code (see `_setup.setup_scope`).
        roles: which program names are the program's objects (see `name_roles`); None: decided from this
            test and the set-up code alone, with no program code (no name is then a program class).

    Example:
        >>> p = plan_test("assert f(1) == (4, 5)")
        >>> [(leaf.name, leaf.values) for leaf in p.leaves]
        [('f', ([1], []))]
    """
    return _plan(source, first_index, entries, setup_code, roles)


def _plan(source: str, first_index: int, entries: frozenset[str], setup_code: str,
          roles: Roles | None = None) -> TestPlan:
    """`plan_test` without its cache (a private plan is made anew for every program)."""
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
    if roles is None:
        roles = name_roles("", (source,), setup_code)
    planner = _Planner(source, first_index, setup_scope(setup_code) if setup_code else EMPTY_SCOPE, test, roles)
    candidate = planner.entry_candidate(test)
    if candidate in entries:
        planner.set_entry(planner.subject(test))
    try:
        tree = planner.plan(test, truth=True)
    except RecursionError:
        return TestPlan(source, None, (), "test nested too deeply")
    except _Refused as exc:
        return TestPlan(source, None, (), f"{UNSUPPORTED}: {exc}"[:300])
    return TestPlan(source, tree, tuple(planner.leaves), entry_candidate=candidate, private=planner.private,
                    key=(source, first_index, entries, setup_code, roles))


class _Refused(Exception):
    """The test needs the program's process to evaluate one of its own values or comparisons."""


class _NotShippable(Exception):
    pass


_CONST, _VAR = "const", "var"


class _Planner:
    def __init__(self, source: str, first: int, scope: SetupScope, test: ast.expr | None = None,
                 roles: Roles = (frozenset(), frozenset())) -> None:
        self.source = source
        self.objects, self.unsettled = roles
        self.first = first
        self.env = scope.fresh_env()  # this plan's own: evaluating it never changes another plan's values
        self.modules: dict[str, Any] = {}  # this plan's private `random`
        self.foreign = scope.foreign
        self.refused = scope.refused
        self.functions = scope.functions
        shadowed = scope.program | scope.foreign | frozenset(scope.refused)
        self.parent_names = (PARENT_BUILTINS | PARENT_MODULES | frozenset(self.env)) - shadowed
        self.data_names: set[str] = set()  # set-up data the program may have changed in place, read here
        if test is not None:
            self.parent_names -= self.program_side_here(test, scope)
        self.private = False  # set when its evaluation may run stateful test code (see `TestPlan.private`)
        self.scope: dict[str, tuple[str, Any]] = {}  # loop names: (_CONST, value) unrolled, (_VAR, None) looped
        self.leaves: list[Leaf] = []
        self.entry_node: ast.expr | None = None
        self.unrolled = 0
        self._free: dict[int, frozenset[str]] = {}  # per node: its free names (each node analysed once)
        self._special: dict[int, bool] = {}  # per node: holds the entry call or a side effect
        self._keep: list[ast.AST] = []  # nodes made while planning: their ids key the memos above

    def program_side_here(self, test: ast.expr, scope: SetupScope) -> set[str]:
        """Parent names that are the program's in this test.

        * A module name called like a function (``copy(xs)``): a module is not callable, so it is the
          program's function of that name (unless the set-up code imported it).
        * Set-up data handed to code beside the program (`SetupScope.shared`), when the test reads no other
          program name: it checks what the program did to that data in place (``sort_in_place(lst)`` in
          the set-up code, ``assert lst == [1, 2, 3]``). Wherever the test also calls the program, the data
          is the test's own: the parent's pristine copy, whatever the program did to its copy.
        """
        out = {n.func.id for n in ast.walk(test) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id in PARENT_MODULES and n.func.id not in self.env}
        free = _free_names(test)
        touched = free & scope.shared
        if touched and all(x in self.parent_names and x not in out for x in free - touched):
            out |= touched
            self.data_names |= touched
        return out

    def set_entry(self, node: ast.expr) -> None:
        """Make ``node`` (the test's subject) the program's entry-point call."""
        self.entry_node = node
        self._special.clear()

    # ---------------------------------------------------------------- classification
    def kind(self, name: str) -> str:
        """``const``/``var`` (a loop name), ``parent`` or ``program``."""
        bound = self.scope.get(name)
        if bound is not None:
            return bound[0]
        return "parent" if name in self.parent_names else "program"

    def closed(self, n: ast.AST) -> bool:
        """Its free names are parent names or unrolled loop names only (and it holds no entry-point call)."""
        return not self.special(n) and all(self.kind(x) in ("parent", _CONST) for x in self.free(n))

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
        """The test's subject: the left side of a comparison, else the test; in the shape expected-output
        tests compile a tolerance to (`_expected`: ``all(COND for out in [CALL])``), ``CALL``, so an entry
        point named like a builtin (``sum``) is the program's there as in ``assert sum(1, 2) == 3``."""
        s = test.left if isinstance(test, ast.Compare) else test
        if (isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id == "all" and len(s.args) == 1
                and not s.keywords and isinstance(g := s.args[0], ast.GeneratorExp) and len(g.generators) == 1
                and isinstance(it := g.generators[0].iter, ast.List) and len(it.elts) == 1):
            return it.elts[0]
        return s

    def entry_candidate(self, test: ast.expr) -> str | None:
        """The builtin called at the root of the test's subject when the test names nothing else."""
        if not self.closed(test):
            return None
        s = self.subject(test)
        if isinstance(s, ast.Call) and isinstance(s.func, ast.Name) and s.func.id in _BUILTIN_NAMES:
            return s.func.id
        return None

    def func_name(self, n: ast.expr) -> str | None:
        """Key in `_pure.FUNCS` of a call's function when it is a parent name (``set``, ``math.isclose``)."""
        if not isinstance(n, ast.Call) or n is self.entry_node:
            return None
        f = n.func
        if isinstance(f, ast.Name) and self.kind(f.id) == "parent":
            if f.id in self.env:  # `from math import isclose` in the set-up code
                return FUNC_KEYS.get(id(self.env[f.id]))
            return f.id
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and self.kind(f.value.id) == "parent":
            mod = self.env.get(f.value.id)
            if mod is None and f.value.id in PARENT_MODULES:
                return f"{f.value.id}.{f.attr}"
            if type(mod) is type(importlib):
                return f"{mod.__name__}.{f.attr}"
        return None

    def names_module(self, n: ast.expr) -> bool:
        """``n`` is a parent name bound to a module (``math``, ``import re as regex``)."""
        if not isinstance(n, ast.Name) or self.kind(n.id) != "parent":
            return False
        return type(self.env.get(n.id)) is type(importlib) or (n.id in PARENT_MODULES and n.id not in self.env)

    def setup_function(self, n: ast.expr) -> Any:
        """The function or class a closed set-up statement defined, when ``n`` calls one by name."""
        if isinstance(n, ast.Call) and n is not self.entry_node and isinstance(n.func, ast.Name) and \
                self.kind(n.func.id) == "parent":
            fn = self.env.get(n.func.id)
            if callable(fn) and getattr(fn, "__module__", None) == "__setup__":
                return fn
        return None

    def root_name(self, n: ast.expr) -> str | None:
        """The name a call/attribute/subscript chain starts from (``f`` of ``f(1).x[0]``)."""
        while True:
            if n is self.entry_node:
                return None
            if isinstance(n, ast.Call):
                n = n.func
            elif isinstance(n, (ast.Attribute, ast.Subscript)):
                n = n.value
            else:
                return n.id if isinstance(n, ast.Name) else None

    def program_rooted(self, n: ast.expr) -> bool:
        """A call/attribute/subscript chain rooted at the program's own name (or its entry-point call)."""
        m = n
        while isinstance(m, (ast.Call, ast.Attribute, ast.Subscript)):
            if m is self.entry_node:
                return True
            m = m.func if isinstance(m, ast.Call) else m.value
        return isinstance(m, ast.Name) and self.kind(m.id) == "program" and m.id not in self.foreign

    # ---------------------------------------------------------------- planning
    def plan(self, n: ast.expr, truth: bool = False) -> Node:
        """Plan ``n``; ``truth``: only its truthiness matters (``assert f(x)``, ``not f(x)``, ``a and b``)."""
        if self.closed(n):
            return self.closed_node(n)
        if isinstance(n, ast.Name) and self.kind(n.id) == _VAR:
            return ("var", n.id)
        if isinstance(n, ast.Compare):
            left = self.plan(n.left)
            rest = tuple((type(op), self.plan(c)) for op, c in zip(n.ops, n.comparators))
            for (a, (op, b)) in zip((left, *(c for _, c in rest)), rest):
                for x, y in ((a, b), (b, a)):
                    if op is ast.Eq and x[0] == "lit" and y[0] != "lit" and not _equalable(x[1]):
                        raise _Refused(f"an expected {type(x[1]).__name__} value, which no program value can "
                                       "equal (program values come back as plain data)")
                if op in (ast.Is, ast.IsNot) and not (_singleton(a) or _singleton(b)):
                    raise _Refused("`is`/`is not` between values the judge only sees as decoded copies (only "
                                   "`is None`/`True`/`False`/`...` or a builtin class are judged)")
            return ("cmp", left, rest)
        if isinstance(n, ast.BoolOp):
            return ("and" if isinstance(n.op, ast.And) else "or", tuple(self.plan(v, truth) for v in n.values))
        if isinstance(n, ast.UnaryOp):
            kind = {ast.Not: "not", ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "inv"}[type(n.op)]
            return (kind, self.plan(n.operand, truth=kind == "not"))
        if isinstance(n, ast.BinOp) and type(n.op) in BINOPS:
            return ("bin", type(n.op), self.plan(n.left), self.plan(n.right))
        if isinstance(n, ast.IfExp):
            return ("if", self.plan(n.test, True), self.plan(n.body, truth), self.plan(n.orelse, truth))
        if isinstance(n, (ast.Tuple, ast.List, ast.Set)):
            items = tuple(("star", self.plan(e.value)) if isinstance(e, ast.Starred) else self.plan(e) for e in n.elts)
            return ({ast.Tuple: "tuple", ast.List: "list", ast.Set: "set"}[type(n)], items)
        if isinstance(n, ast.Dict):
            return ("dict", tuple(("dstar", self.plan(v)) if k is None else (self.plan(k), self.plan(v))
                                  for k, v in zip(n.keys, n.values)))
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self.comprehension(n)
        if isinstance(n, ast.Call):
            self.identity_call(n)
            rewritten = self.map_filter(n)
            if rewritten is not None:
                return self.plan(rewritten, truth)
            node = self.parent_call(n)
            if node is not None:
                return node
        if isinstance(n, ast.Subscript) and not self.named_object(n.value):
            # Evaluated here on the decoded value (``f(1)[0]``, ``counts("a b")["a"]``): a returned object's
            # ``__getitem__`` is not handed the test's key; only an object the test names keeps its own.
            return ("sub", self.plan(n.value), self.plan(n.slice))
        if isinstance(n, ast.Slice):
            parts = [self.plan(p) if p is not None else ("lit", None) for p in (n.lower, n.upper, n.step)]
            return ("slice", *parts)
        return self.leaf(n, truth)

    def identity_call(self, n: ast.Call) -> None:
        """Refuse ``id(v)``/``operator.is_(a, b)`` over program values: the parent holds decoded copies,
        whose identities say nothing about the program's objects (a copy and the original compare alike)."""
        name = self.func_name(n)
        if name == "id" or (name is None and isinstance(n.func, ast.Name) and n.func.id == "id"
                            and self.kind("id") == "parent"):
            raise _Refused(f"id() of a program value in {_snippet(n)} (the judge only sees decoded copies)")
        if name in ("operator.is_", "operator.is_not") and not any(
                isinstance(a, ast.Constant) and _singleton(("lit", a.value)) for a in n.args):
            raise _Refused(f"{name}() between program values in {_snippet(n)} (the judge only sees decoded "
                           "copies)")

    def closed_node(self, n: ast.expr) -> Node:
        try:
            return ("lit", ast.literal_eval(n))  # fast path for pure literals (never iterators)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        try:
            code, env = self.compile_closed(n)
            value = eval(code, env)
        except Exception as exc:  # noqa: BLE001  (the real assert would raise here too)
            return ("err", f"raised {type(exc).__name__}: {exc}"[:300])
        if is_iterator(value):  # consumed by a judgement: every judgement gets its own
            if not (all(_shareable(v) for k, v in env.items() if k != "__builtins__") and _calls_pure(n, env)):
                self.private = True
            return ("fresh", code, env)
        if not _shareable(value) and not (isinstance(n, ast.Lambda) and _pure_lambda(n, env)):
            self.private = True
        return ("lit", value)

    def parent_call(self, n: ast.Call) -> Node | None:
        """A call the parent evaluates: a judge function or a closed set-up function over data, or a pure
        method of a builtin type; None when ``n`` is something else."""
        name = self.func_name(n)
        fn = FUNCS.get(name) if name is not None else self.setup_function(n)
        if fn is not None and self.data_args(n, name):
            args = tuple(self.plan(a) for a in n.args)
            kw = tuple((k.arg, self.plan(k.value)) for k in n.keywords)
            if name in TEST_ONLY_ARGS and (len(args) <= TEST_ONLY_ARGS[name] or args[TEST_ONLY_ARGS[name]][0] != "lit"):
                raise _Refused(f"{name}() with a pattern that is not the test's own")
            if name in WRAPPABLE:
                self.wrap_leaf(n, args, kw)
            if name is None:
                if not self.pure_function(fn, set()):
                    self.private = True  # set-up code that may keep state between calls
                return ("pcall", fn, args, kw)
            return ("call", name, args, kw)
        f = n.func
        if (isinstance(f, ast.Attribute) and f.attr in METHOD_NAMES and _plain_args(n) and name is None
                and not self.names_module(f.value) and not self.object_method(n)):
            # A method of a builtin type on a value a call returns (or an item of one): the test means that
            # type's method, so it is evaluated here on the decoded receiver. A program object in its place
            # is not asked to answer it (that would hand the test's values to the program's code to decide
            # the comparison): the test fails.
            receiver = self.plan(f.value)
            args = tuple(self.plan(a) for a in n.args)
            kw = tuple((k.arg, self.plan(k.value)) for k in n.keywords)
            return ("meth", receiver, f.attr, args, kw)
        return None

    def map_filter(self, n: ast.Call) -> ast.expr | None:
        """``map``/``filter`` over a callable that is not closed, as the equivalent generator expression
        (``map(lambda x: f(x) == 5, [1])`` is ``(f(x) == 5 for x in [1])``), so it unrolls or loops here."""
        f = n.func
        if not (isinstance(f, ast.Name) and f.id in ("map", "filter") and self.kind(f.id) == "parent"
                and n is not self.entry_node and _plain_args(n) and not n.keywords and len(n.args) >= 2):
            return None
        fn, iters = n.args[0], n.args[1:]
        if self.closed(fn) or (f.id == "filter" and len(iters) != 1):
            return None
        if isinstance(fn, ast.Lambda):
            a = fn.args
            params = [p.arg for p in a.args]
            if a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg or a.defaults or len(params) != len(iters):
                raise _Refused(f"{f.id}() over a lambda whose parameters do not match its iterables")
            body = fn.body
        else:
            params = [f"__{f.id}_arg{i}__" for i in range(len(iters))]
            body = ast.Call(fn, [ast.Name(p, ast.Load()) for p in params], [])
        target: ast.expr = ast.Name(params[0], ast.Store()) if len(params) == 1 else ast.Tuple(
            [ast.Name(p, ast.Store()) for p in params], ast.Store())
        source = iters[0] if len(iters) == 1 else ast.Call(ast.Name("zip", ast.Load()), list(iters), [])
        if f.id == "map":
            out: ast.expr = ast.GeneratorExp(body, [ast.comprehension(target, source, [], 0)])
        else:
            out = ast.GeneratorExp(ast.Name(params[0], ast.Load()), [ast.comprehension(target, source, [body], 0)])
        ast.fix_missing_locations(ast.copy_location(out, n))
        self._keep.append(out)
        return out

    def comprehension(self, n: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> Node:
        kind = {ast.ListComp: "list", ast.SetComp: "set", ast.GeneratorExp: "gen", ast.DictComp: "dict"}[type(n)]
        saved = dict(self.scope)
        try:
            clause = self.clause(n, 0)
        finally:
            self.scope = saved
        return ("comp", kind, clause, self.wrap_comprehension(n, clause))

    def pure_function(self, fn: Any, seen: set[int]) -> bool:
        """The set-up code's function ``fn`` keeps no state: no defaults, decorators, ``global`` or nested
        definitions; it changes no object (no item or attribute targets, no ``del``); it calls only the
        judge's pure functions, builtin types' pure methods and other such set-up functions; every global
        it reads is shareable (`_shareable`). Then a cached plan may call it in every judgement."""
        if not isinstance(fn, types.FunctionType):
            return False
        st = self.functions.get(fn.__name__)
        if st is None or st.lineno != fn.__code__.co_firstlineno:
            return False
        if st.decorator_list or st.args.defaults or any(d is not None for d in st.args.kw_defaults):
            return False
        if id(fn) in seen:
            return True  # recursion: pure if the rest is
        seen.add(id(fn))
        g = fn.__globals__

        def resolve(name: str) -> Any:
            return g[name] if name in g else _PARENT_BUILTINS.get(name)

        def pure_value(v: Any) -> bool:
            if isinstance(v, types.FunctionType) and v.__module__ == "__setup__":
                return self.pure_function(v, seen)
            return v is not None and _shareable(v)

        a = st.args
        local = {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)} | {
            x.arg for x in (a.vararg, a.kwarg) if x is not None}
        body = [n for stmt in st.body for n in ast.walk(stmt)]
        local |= {n.id for n in body if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        for n in body:
            if isinstance(n, (ast.Global, ast.Nonlocal, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                              ast.Lambda, ast.Delete)):
                return False
            if isinstance(n, (ast.Subscript, ast.Attribute)) and not isinstance(n.ctx, ast.Load):
                return False
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in local and \
                    not pure_value(resolve(n.id)):
                return False
            if isinstance(n, ast.Call):
                f = n.func
                if isinstance(f, ast.Name):
                    v = None if f.id in local else resolve(f.id)
                    if not (is_pure_callable(v) or (isinstance(v, types.FunctionType) and pure_value(v))):
                        return False
                elif isinstance(f, ast.Attribute):
                    mod = resolve(f.value.id) if isinstance(f.value, ast.Name) and f.value.id not in local else None
                    if f.attr not in METHOD_NAMES and not (
                            type(mod) is types.ModuleType and is_pure_callable(getattr(mod, f.attr, None))):
                        return False
                else:
                    return False
        return True

    def object_method(self, n: ast.Call) -> bool:
        """``n`` calls a method of an object the test names (`named_object`: ``cache.get(1)``,
        ``s.items.count(3)``, ``root.left.find(2)``), not of a value a call returns: a call into the program's
        own class, as ``s.pop()`` is: its arguments are inputs, its result is compared here."""
        return isinstance(n.func, ast.Attribute) and self.named_object(n.func.value)

    def named_object(self, m: ast.expr) -> bool:
        """``m`` is a program object's name followed by attributes and subscripts only (no call): an object
        the program or the set-up code made and the test names, whose own methods answer for it (see
        `name_roles`: ``s = Stack()``, not ``words = split_words(...)``). Raises `_Refused` for a name
        whose kind neither the dataset nor the program's code settles."""
        root = self.named_root(m)
        if root is not None and root in self.unsettled:
            raise _Refused(f"'{root}' is a program value whose kind (the program's object, or a value one of "
                           "its functions returned) neither the tests nor the program's code settle: a builtin "
                           f"type's method or a subscript on {_snippet(m)} could be answered by the program")
        return root is not None and root in self.objects

    def named_root(self, m: ast.expr) -> str | None:
        """The program name ``m`` starts from when it is one followed by attributes and subscripts only, and
        the program's (its global, or a set-up program value), not the test's data (`data_names`)."""
        while isinstance(m, (ast.Attribute, ast.Subscript)):
            m = m.value
        if isinstance(m, ast.Name) and self.kind(m.id) == "program" and m.id not in self.foreign and \
                m.id not in self.data_names:
            return m.id
        return None

    def wrap_comprehension(self, n: Any, clause: Node) -> int | None:
        """A comprehension that only projects the items of one program value through one-argument judge
        builtins (``str(p) for p in bag.items``, ``(len(p), str(p)) for p in xs``; no condition, no test
        value, no method): when that value is not plain data (program objects), the child evaluates it on
        that value (`Leaf.wrap`), the program's own answer as for ``str(obj)``. Returns the leaf."""
        if len(n.generators) != 1 or clause[0] != "for_var" or clause[2][0] != "leaf":
            return None
        gen = n.generators[0]
        if gen.ifs:
            return None
        loop = frozenset(_pattern_names(_pattern(gen.target)))
        parts = (n.key, n.value) if isinstance(n, ast.DictComp) else (n.elt,)
        if not all(self.projection(p, loop) for p in parts):
            return None
        inner = [ast.comprehension(gen.target, ast.Name("__leafvalue__", ast.Load()), [], 0)]
        if isinstance(n, ast.DictComp):
            whole: ast.expr = ast.DictComp(n.key, n.value, inner)
        else:
            whole = (ast.SetComp if isinstance(n, ast.SetComp) else ast.ListComp)(n.elt, inner)
        k = clause[2][1]
        pos = next(j for j, leaf in enumerate(self.leaves) if leaf.index == k)
        old = self.leaves[pos]
        if old.wrap is not None:
            return None
        self.leaves[pos] = replace(old, wrap=ast.unparse(ast.fix_missing_locations(whole)))
        return k

    def projection(self, n: ast.expr, loop: frozenset[str]) -> bool:
        """``n`` reads only loop names, through one-argument judge builtins and tuple/list displays: no
        test value, no comparison, no method."""
        if isinstance(n, ast.Name):
            return n.id in loop
        if isinstance(n, (ast.Tuple, ast.List)):
            return all(self.projection(e, loop) for e in n.elts)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and len(n.args) == 1 and not n.keywords:
            return n.func.id in WRAPPABLE and self.kind(n.func.id) == "parent" and n.func.id not in self.env and \
                self.projection(n.args[0], loop)
        return False

    def clause(self, n: Any, i: int) -> Node:
        """The comprehension's ``i``-th ``for`` and what follows it: unrolled over a closed iterable (each
        item's loop names bound to constants), a loop here over a program value otherwise."""
        if i == len(n.generators):
            if isinstance(n, ast.DictComp):
                return ("elt2", self.plan(n.key), self.plan(n.value))
            return ("elt", self.plan(n.elt))
        gen = n.generators[i]
        if gen.is_async:
            raise _Refused("async comprehension")
        pattern = _pattern(gen.target)
        if self.closed(gen.iter):
            node = self.closed_node(gen.iter)
            if node[0] == "err":
                return ("raise", node[1])
            subs = []
            try:
                items = iter(fresh(node))
            except TypeError as exc:
                return ("raise", f"raised TypeError: {exc}"[:300])
            for item in items:
                self.unrolled += 1
                if self.unrolled > MAX_UNROLLED_ITEMS:
                    raise _Refused(f"comprehensions unroll to more than {MAX_UNROLLED_ITEMS} items")
                saved = dict(self.scope)
                try:
                    bound: dict[str, Any] = {}
                    bind(pattern, item, bound)
                except (TypeError, ValueError) as exc:
                    self.scope = saved
                    subs.append(("raise", f"raised {type(exc).__name__}: {exc}"[:300]))
                    break
                self.scope.update({k: (_CONST, v) for k, v in bound.items()})
                sub = self.if_clause(n, i, 0)
                self.scope = saved
                if sub is not None:
                    subs.append(sub)
            return ("for_lit", tuple(subs))
        it = self.plan(gen.iter)
        saved = dict(self.scope)
        self.scope.update({k: (_VAR, None) for k in _pattern_names(pattern)})
        sub = self.if_clause(n, i, 0)
        self.scope = saved
        return ("for_var", pattern, it, sub if sub is not None else ("for_lit", ()))

    def if_clause(self, n: Any, i: int, j: int) -> Node | None:
        """The ``j``-th condition of generator ``i`` and what follows; None: a closed condition is false."""
        ifs = n.generators[i].ifs
        if j == len(ifs):
            return self.clause(n, i + 1)
        cond = ifs[j]
        if self.closed(cond):
            node = self.closed_node(cond)
            if node[0] == "err":
                return ("raise", node[1])
            if not fresh(node):
                return None
            return self.if_clause(n, i, j + 1)
        rest = self.if_clause(n, i, j + 1)
        return ("if", self.plan(cond, True), rest if rest is not None else ("for_lit", ()))

    def wrap_leaf(self, call: ast.Call, args: tuple[Node, ...],
                  kw: tuple[tuple[str | None, Node], ...]) -> None:
        """Give a one-argument judge builtin call's program argument its `Leaf.wrap` (``str(__leafvalue__)``).

        One argument only: any other argument is test data (``math.isclose(f(1), 2.5)``), and test data
        never goes to the sandbox.
        """
        if len(args) != 1 or kw or args[0][0] != "leaf":
            return
        func = ast.Name(ast.unparse(call.func), ast.Load())  # the function's name as written (``math.floor``)
        wrapped = ast.Call(func, [ast.Name("__leafvalue__", ast.Load())], [])
        pos = next(j for j, leaf in enumerate(self.leaves) if leaf.index == args[0][1])
        self.leaves[pos] = replace(self.leaves[pos], wrap=ast.unparse(wrapped))

    def data_args(self, n: ast.Call, name: str | None) -> bool:
        """Whether the parent can apply a judge function (``name``) or a set-up function (``name`` None) to
        these arguments: no ``*``/``**``; every callable argument (a lambda, a ``key=``, what a
        higher-order function calls) is test code, not the program's. A bare program name is a value the
        parent fetches (``sum(nums)``), except as a set-up function's argument (the program's function
        or object would reach test code: ``check(f)``). Raises `_Refused` for introspection of the program's
        classes or objects (``isinstance(s, Stack)``, ``callable(f)``)."""
        if not _plain_args(n):
            return False
        fn_args: list[ast.expr] = [a for a in n.args if isinstance(a, ast.Lambda)]
        fn_args += [k.value for k in n.keywords if k.arg == "key" or isinstance(k.value, ast.Lambda)]
        if name in HIGHER_ORDER and n.args:
            fn_args.append(n.args[0])
        if not all(self.closed(a) for a in fn_args):
            return False
        values = [*n.args, *(k.value for k in n.keywords)]
        if name is None:
            return not any(isinstance(a, ast.Name) and self.kind(a.id) == "program" for a in values)
        if name in INTROSPECTION and name != "type":  # type(f(1)) of plain data is the parent's to say
            asked = values[1:] if name == "isinstance" else values
            open_ = next((a for a in asked if not self.closed(a)), None)
            if open_ is not None:
                raise _Refused(f"{name}() of the program's {_snippet(open_)}: only the program's own process "
                               "could answer it")
        return True

    def compile_closed(self, n: ast.expr) -> tuple[Any, dict[str, Any]]:
        """Code and namespace of a closed sub-expression (trusted test code over pristine objects)."""
        env: dict[str, Any] = {"__builtins__": _PARENT_BUILTINS}
        for name in self.free(n):
            bound = self.scope.get(name)
            if bound is not None:
                env[name] = bound[1]
            elif name in self.env:
                env[name] = self.env[name]
            elif name in PARENT_MODULES:
                env[name] = parent_module(name, self.modules)
        if any(isinstance(x, ast.BinOp) and type(x.op) in CLOSED_GUARDS for x in ast.walk(n)):
            n = _Guarded().visit(_copy(n))
            env.update({name: fn for name, fn in CLOSED_GUARDS.values()})
        return compile(ast.fix_missing_locations(ast.Expression(n)), "<test>", "eval"), env

    def eval_closed(self, n: ast.expr) -> Any:
        """Evaluate a closed sub-expression here."""
        try:
            return ast.literal_eval(n)  # fast path for pure literals
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        code, env = self.compile_closed(n)
        return eval(code, env)

    def leaf(self, n: ast.expr, truth: bool) -> Node:
        """``n`` as a program-side leaf; `_Refused` unless it is the program's own answer (see the module doc)."""
        if len(self.leaves) >= MAX_LEAVES_PER_TEST:
            raise _Refused(f"more than {MAX_LEAVES_PER_TEST} program calls in one test")
        loop = next((x for x in self.free(n) if self.kind(x) == _VAR), None)
        if loop is not None:
            raise _Refused(f"a program call per item of a program value (loop name '{loop}') in {_snippet(n)}")
        refused = next((x for x in sorted(self.free(n)) if x in self.refused), None)
        if refused is not None:
            raise _Refused(f"'{refused}': {self.refused[refused]}")
        root = self.root_name(n)
        if root is not None and root in self.foreign:
            raise _Refused(f"'{root}' is bound by the set-up code beside the program (a module the judge does "
                           "not evaluate, or a value computed with one or by a statement it cannot run): the "
                           "test would take its own value from the program's process")
        why = self.test_data(n)
        if why is not None:
            raise _Refused(f"{why} would be evaluated beside the program in {_snippet(n)}")
        k = self.first + len(self.leaves)
        call = self.direct_call(n)
        if call is not None:
            name, args, kw = call
            src = ast.get_source_segment(self.source, n) or ast.unparse(n)  # informative only
            self.leaves.append(Leaf(k, src, truth, name, (args, kw)))
            return ("leaf", k)
        values: list[Any] = []
        copy = _copy(n)
        self._keep.append(copy)
        rewritten = _Shipper(self, values).visit(copy)
        ast.fix_missing_locations(rewritten)
        self.leaves.append(Leaf(k, ast.unparse(rewritten), truth, None, tuple(values)))
        return ("leaf", k)

    def test_data(self, n: ast.AST) -> str | None:
        """What in ``n``, outside the inputs of program calls, is the test's own (a value, a comparison,
        a loop name over program values, a refused set-up name); None if nothing."""
        if isinstance(n, ast.Call) and (n is self.entry_node or self.program_rooted(n.func)):
            f = n.func
            if isinstance(f, ast.Attribute) and (n.args or n.keywords) and (
                    is_dunder(f.attr) or (f.attr in METHOD_NAMES and not self.object_method(n))):
                # The test means a builtin type's method on a returned value (or a comparison, ``__eq__``):
                # its arguments are the test's values, never the program's inputs.
                return f"test values handed to .{f.attr}() of a program value"
            return self.test_data(n.func)  # its arguments are the program's inputs
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in INTROSPECTION and \
                self.kind(n.func.id) == "parent":
            return f"{n.func.id}() of the program's values (only the program's own process could answer it)"
        if isinstance(n, ast.Subscript) and self.program_rooted(n.value):
            return self.test_data(n.value)
        if isinstance(n, ast.Call) and self.setup_function(n) is not None:
            return f"the set-up code's function '{ast.unparse(n.func)}' (test code)"
        if isinstance(n, ast.Name):
            kind = self.kind(n.id)
            if kind == _VAR:
                return f"a program call per item of a program value (loop name '{n.id}')"
            if kind in ("parent", _CONST) and self.is_data(n):
                return f"the test value '{n.id}'"
            return None
        if isinstance(n, ast.Constant):
            return "a test value"
        if isinstance(n, (ast.Compare, ast.BoolOp, ast.IfExp, ast.Lambda, ast.ListComp, ast.SetComp,
                          ast.GeneratorExp, ast.DictComp)) or (isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not)):
            return f"a {type(n).__name__.lower()} of the test"
        if isinstance(n, ast.expr) and self.closed(n) and self.is_data(n):
            return "a test value"
        for c in ast.iter_child_nodes(n):
            why = self.test_data(c)
            if why is not None:
                return why
        return None

    def is_data(self, n: ast.expr) -> bool:
        """Whether a closed expression's value is data (it would travel as a value), not a function,
        class or module named by the leaf."""
        try:
            encode_value(self.eval_closed(n))
        except Exception:  # noqa: BLE001  (ValueRejected: a function, class, module or other object)
            return False
        return True

    def direct_call(self, n: ast.expr) -> tuple[str, list[Any], list[list[Any]]] | None:
        """``name(closed args...)`` with shippable arguments: the child calls it without compiling."""
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and _plain_args(n)):
            return None
        if self.kind(n.func.id) != "program" and n is not self.entry_node:
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


class _Guarded(ast.NodeTransformer):
    """``a * b``, ``a ** b``, ``a << b`` as calls of `_pure.CLOSED_GUARDS` (bounded results)."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        guard = CLOSED_GUARDS.get(type(node.op))
        if guard is None:
            return node
        return ast.copy_location(ast.Call(ast.Name(guard[0], ast.Load()), [node.left, node.right], []), node)


class _Shipper(ast.NodeTransformer):
    """Replace maximal closed plain-data sub-expressions of a leaf by ``__leafargs__[i]``."""

    def __init__(self, planner: _Planner, values: list[Any]) -> None:
        self.planner = planner
        self.values = values

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.expr) and not isinstance(node, (ast.Constant, ast.Name)) or (
                isinstance(node, ast.Name) and self.planner.kind(node.id) in ("parent", _CONST)):
            try:
                enc = self.planner.shippable(node)
            except _NotShippable:
                return super().generic_visit(node)
            self.values.append(enc)
            return ast.Subscript(ast.Name("__leafargs__", ast.Load()), ast.Constant(len(self.values) - 1), ast.Load())
        return super().generic_visit(node)


_NO_NAMES: frozenset[str] = frozenset()
_PARENT_BUILTINS = parent_builtins()


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
        return _free_names(n.body, bound | params).union(
            *(_free_names(d, bound) for d in (*a.defaults, *a.kw_defaults) if d is not None))
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


def _pattern(target: ast.expr) -> Any:
    """A loop target as a binding pattern: a name, or ``("unpack", (patterns...), starred index or -1)``."""
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, (ast.Tuple, ast.List)):
        star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), -1)
        subs = tuple(_pattern(e.value if isinstance(e, ast.Starred) else e) for e in target.elts)
        return ("unpack", subs, star)
    raise _Refused("a comprehension target that is not a name or a tuple of names")


def _pattern_names(p: Any) -> list[str]:
    return [p] if isinstance(p, str) else [x for s in p[1] for x in _pattern_names(s)]



def _snippet(n: ast.AST) -> str:
    text = ast.unparse(n)
    return f"`{text[:80]}{'...' if len(text) > 80 else ''}`"


def _copy(n: ast.expr) -> ast.expr:
    return ast.parse(ast.unparse(n), mode="eval").body


def _plain_args(n: ast.Call) -> bool:
    return not any(isinstance(a, ast.Starred) for a in n.args) and all(k.arg for k in n.keywords)


def _singleton(node: Node) -> bool:
    """A literal None, True, False, Ellipsis or class plan node: identity with one is the same for a
    decoded copy as for the program's value (decoding keeps exact builtin types: ``type(f(1)) is list``)."""
    return node[0] == "lit" and (any(node[1] is v for v in (None, True, False, Ellipsis)) or type(node[1]) is type)


def _equalable(v: Any) -> bool:
    """Whether a program value (plain data) can equal ``v``: data, numbers, or objects of the test's own
    classes (their ``__eq__`` is the test's)."""
    return v is None or isinstance(v, (numbers.Number, str, bytes, list, tuple, dict, set, frozenset)) or \
        getattr(type(v), "__module__", None) == "__setup__"


def _shareable(v: Any) -> bool:
    """Whether a cached plan may hand ``v`` to every judgement: immutable values, the judge's pure
    functions, classes the set-up code did not define, and builtin containers of those (the judge never
    mutates a container). Not: set-up functions and objects, ``defaultdict`` (a lookup inserts), lambdas."""
    stack = [v]
    seen: set[int] = set()
    while stack:
        x = stack.pop()
        t = type(x)
        if t in IMMUTABLE_TYPES or is_pure_callable(x):
            continue
        if t in PLAIN_CONTAINERS:
            if id(x) not in seen:
                seen.add(id(x))
                stack.extend(x.items() if isinstance(x, dict) else x)
            continue
        if isinstance(x, type) and x.__module__ != "__setup__":
            continue
        return False
    return True


def _pure_lambda(n: ast.Lambda, env: dict[str, Any]) -> bool:
    """A test lambda that keeps no state: no default values, and it calls only the judge's pure functions
    and builtin types' pure methods (``lambda t: t[1]``, ``lambda s: s.lower()``; not ``acc.append``)."""
    a = n.args
    return not (a.defaults or any(d is not None for d in a.kw_defaults)) and _calls_pure(n.body, env)


def _calls_pure(n: ast.AST, env: dict[str, Any]) -> bool:
    """Every call in ``n`` is of a pure function or method (names resolved in ``env``, a closed
    expression's namespace); calling anything else, or a local name, may mutate what it reaches."""
    builtins_ = env.get("__builtins__", _PARENT_BUILTINS)
    for c in ast.walk(n):
        if not isinstance(c, ast.Call):
            continue
        f = c.func
        if isinstance(f, ast.Name):
            fn = env[f.id] if f.id in env else builtins_.get(f.id)
            if fn is None or not is_pure_callable(fn):
                return False
        elif isinstance(f, ast.Attribute):
            if f.attr in METHOD_NAMES:
                continue
            mod = env.get(f.value.id) if isinstance(f.value, ast.Name) else None
            if type(mod) is not type(importlib) or not is_pure_callable(getattr(mod, f.attr, None)):
                return False
        else:
            return False
    return True


def replan(plan: TestPlan) -> TestPlan:
    """A private plan made anew from its key (`TestPlan.private`: a cached one is never evaluated)."""
    return _plan(*plan.key)


def plan_tests(code: str, tests: list[str], setup_code: str) -> list[TestPlan]:
    """Plan every test of one program (leaf indices numbered across tests, entry points resolved): this
    program's plans, sharing one judge work budget; private ones planned afresh for it."""
    plans: list[TestPlan] = []
    first = 0
    budget = JudgeBudget()
    roles = name_roles(code, tuple(tests), setup_code)
    for t in tests:
        entries: frozenset[str] = frozenset()
        p = plan_test(t, first, entries, setup_code, roles)
        if p.entry_candidate is not None:
            entries = entry_points(code, [p.entry_candidate])
            if entries:
                p = plan_test(t, first, entries, setup_code, roles)
        if p.private:
            p = _plan(t, first, entries, setup_code, roles)
        plans.append(p.for_program(budget))
        first += len(p.leaves)
    return plans
