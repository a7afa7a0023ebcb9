"""Which names a test's set-up code binds in the parent (the judge) and which only exist beside the program.

Set-up code is the dataset's (trusted), but it also runs in the sandbox after the program, in the
program's globals, where the program can rebind or patch anything it uses. So each top-level statement is
classified once:

* imports of `PARENT_MODULES` (``import json``, ``from math import isclose``, ``from math import *``) bind
  pristine objects of this process (``random``: a private generator, `_pure.private_random`);
* a *closed* statement (it reads only builtins and names already bound here: ``expected = [1, 2, 3]``,
  ``expected = json.loads(...)``, ``def approx(a, b): ...``) is executed here too, over restricted
  builtins, and what it binds resolves here;
* any other statement runs beside the program only. What it binds or changes (``x.append(...)``,
  ``x[0] = ...``) is *tainted* by what it reads:

  - a program name (the program's functions and classes, or a program value): *program values*
    (``root = Node(1)``): the program's own objects, used as its inputs or its answers;
  - otherwise (a foreign import, something computed from one, a builtin the judge does not run such as
    ``open``, a statement kind it does not execute): *foreign* names. A test may pass them to the program
    as inputs, never take its own value from them (the program could have patched what computed them);
  - functions and classes defined with such names (HumanEval's ``check(candidate)``): *refused*.

  What it merely reads (``acc = Account(nums)``, ``print(expected)``) stays a parent value: tests read the
  parent's pristine copy, which no program code ever held (`SetupScope.shared`).

Values here are a template: every planner takes `SetupScope.fresh_env`, which runs the closed statements
again, so no test's evaluation changes what another test or another program's judgement reads.

What a program value IS (the program's object, or a value one of its functions returned) is recorded too:
``made_by`` (``words = split_words("a b")``: made by calling ``split_words``) and `member_usage` (the dataset
reads a member no plain value has, ``s.push(1)``, ``root.left``: an object; or compares a call's result as
data, ``split_words("a") == ["a"]``: a function). `_judge.name_roles` decides from these.
"""

from __future__ import annotations

import ast
import builtins
import functools
import symtable
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from verifiers.sandbox._protocol import encode_value
from verifiers.sandbox._pure import (
    METHOD_NAMES,
    PARENT_BUILTINS,
    PARENT_MODULES,
    parent_builtins,
    parent_module,
)

# Statement kinds executed in the parent when closed; other kinds (`with`, `try`, `del`, `global`, imports
# inside blocks...) are left to the sandbox.
_EXECUTED = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.FunctionDef, ast.ClassDef, ast.Expr, ast.If, ast.For,
             ast.While, ast.Assert, ast.Pass)
_BUILTIN_NAMES = frozenset(dir(builtins))


@dataclass(frozen=True)
class SetupScope:
    """The judge's view of one set-up code.

    Attributes:
        env: names resolved in the parent and their values as the set-up code first built them (a
            template: planners use `fresh_env`).
        program: program values: what the set-up code binds or changes by running the program's code.
        foreign: names bound beside the program without the program's code (foreign imports and what is
            computed from them or by statements the judge cannot run): only inputs of program calls.
        refused: names a test may not use at all, with the reason.
        shared: parent data the set-up code hands to code beside the program (``acc = Account(nums)``).
            Tests read the parent's pristine copy, except a test that reads no other program name: it
            checks what the program did to them in place (``sort_in_place(lst)``; ``assert lst == [1, 2]``).
        steps: how `fresh_env` rebuilds ``env``: ``("import", statement)`` and ``("exec", code, names)``.
        functions: the closed ``def`` statements of the functions in ``env``, by name (what a call runs).
        made_by: for each program value, the program name whose call bound it (``s = Stack()``: ``Stack``),
            or None when its binding says nothing about what it is (``n = t.find(3)``, ``xs = [Node(1)]``).
        objects_used: keys (`member_usage`) the set-up code uses as program objects (``s.push(1)``).
        data_used: program names whose calls' results the set-up code uses as plain data.
        child_code: the statements the sandbox runs beside the program (`child_setup`).
    """

    env: dict[str, Any] = field(default_factory=dict)
    program: frozenset[str] = frozenset()
    foreign: frozenset[str] = frozenset()
    refused: dict[str, str] = field(default_factory=dict)
    shared: frozenset[str] = frozenset()
    steps: tuple[tuple[Any, ...], ...] = ()
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    made_by: dict[str, str | None] = field(default_factory=dict)
    objects_used: frozenset[str] = frozenset()
    data_used: frozenset[str] = frozenset()
    child_code: str = ""

    def fresh_env(self) -> dict[str, Any]:
        """``env`` built anew: the closed statements run again, a new private `random` (cheap when there
        are none: modules and their functions are shared, they hold no test data)."""
        if not self.steps or not any(s[0] == "exec" or _imports_random(s[1]) for s in self.steps):
            return dict(self.env)
        env: dict[str, Any] = {}
        modules: dict[str, Any] = {}
        for step in self.steps:
            if step[0] == "import":
                env.update((k, v) for k, v in _import(step[1], modules).items() if v is not _FOREIGN)
            else:
                _exec(step[1], env, step[2])
        return {k: env[k] for k in self.env if k in env}


EMPTY_SCOPE = SetupScope()
# CPython 3.11's AST conversion keeps its recursion depth in shared state: two threads parsing at once
# can fail with "SystemError: AST constructor recursion depth mismatch" (seen in a Ray actor). Serialize:
# every parse of the judge and the MBPP scorer goes through this one lock.
_AST_LOCK = threading.Lock()


def parse_python(source: str) -> ast.Module:
    """``ast.parse`` that is safe to call from several threads at once."""
    with _AST_LOCK:
        return ast.parse(source)


@functools.lru_cache(maxsize=4096)
def setup_scope(setup_code: str) -> SetupScope:
    """Classify ``setup_code``'s bindings (cached: RL scores the same set-up code many times).

    Set-up code that does not parse binds nothing here (the sandbox then reports its error).
    """
    if not setup_code.strip():
        return EMPTY_SCOPE
    try:
        mod = parse_python(setup_code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return EMPTY_SCOPE
    env: dict[str, Any] = {}
    program: set[str] = set()
    foreign: set[str] = set()
    refused: dict[str, str] = {}
    shared: set[str] = set()
    steps: list[tuple[Any, ...]] = []
    modules: dict[str, Any] = {}
    functions: dict[str, ast.FunctionDef] = {}
    made_by: dict[str, str | None] = {}
    objects_used: set[str] = set()
    data_used: set[str] = set()
    # For `child_setup`: each statement with what it reads and binds, and whether the child needs it
    # ("keep"), only when a kept statement reads what it binds ("data"), or never ("drop").
    plan: list[tuple[ast.stmt, set[str], set[str], str]] = []

    def rebind(name: str) -> None:
        made_by.pop(name, None)
        program.discard(name)
        foreign.discard(name)
        shared.discard(name)
        refused.pop(name, None)
        functions.pop(name, None)

    for st in mod.body:
        if isinstance(st, (ast.Import, ast.ImportFrom)):
            plan.append((st, set(), set(), "keep"))
            steps.append(("import", st))
            for name, value in _import(st, modules).items():
                rebind(name)
                if value is _FOREIGN:
                    env.pop(name, None)
                    foreign.add(name)
                else:
                    env[name] = value
            continue
        reads, writes = _names_of(st, setup_code)
        objs, data = member_usage(st, made_by)  # before the statement rebinds anything
        objects_used |= objs
        data_used |= data
        taken = program | foreign | set(refused)
        code = None
        if isinstance(st, _EXECUTED) and not reads & taken and reads - writes <= set(env) | PARENT_BUILTINS:
            code = _compile(st)
        if code is not None and _exec(code, env, writes):
            steps.append(("exec", code, frozenset(writes)))
            for name in writes:
                rebind(name)
                if is_iterator(env.get(name)):
                    del env[name]
                    refused[name] = "the set-up code binds it to a one-shot iterator"
            if isinstance(st, ast.FunctionDef):
                functions[st.name] = st
            plain = all(name in env and _plain_data(env[name]) for name in writes)
            plan.append((st, reads, writes, "data" if plain and not isinstance(st, _DEFINITIONS) else "keep"))
            continue
        # Runs beside the program only: what it binds or changes is tainted by what it reads.
        changed = {n for n in _changed_roots(st) if n in env and not _is_module(env[n])}
        unbound = reads - writes - set(env) - foreign - set(refused) - _BUILTIN_NAMES
        with_program = bool(reads & program or unbound)
        is_def = isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or (
            isinstance(st, ast.Assign) and isinstance(st.value, ast.Lambda))
        callee = _callee(st, env, program | foreign | set(refused))
        computed = with_program and not is_def and not _program_side(st, program | unbound)
        plan.append((st, reads, writes, "drop" if computed else "keep"))
        for name in writes | changed:
            origin = made_by.get(name) if name not in writes else callee if with_program else None
            rebind(name)
            env.pop(name, None)
            if is_def:
                refused[name] = ("the set-up code defines it with names the judge does not evaluate (its checks "
                                 "would run beside the program)")
            elif computed:
                refused[name] = ("set-up computes it beside the program (only what a program call or constructor "
                                 "returns, or a call on the program's objects, is a program value)")
            elif with_program:
                program.add(name)
                made_by[name] = origin
            elif reads & set(refused):
                refused[name] = "the set-up code computes it from a refused name"
            else:
                foreign.add(name)
        shared.update(r for r in reads - writes - changed if r in env and _is_data(env[r]))
    return SetupScope(env, frozenset(program), frozenset(foreign), refused, frozenset(shared), tuple(steps),
                      functions, made_by, frozenset(objects_used), frozenset(data_used), _child_code(plan))


def child_setup(setup_code: str) -> str:
    """The part of ``setup_code`` the sandbox runs after the program, in its globals.

    Imports, ``def``/``class`` statements, statements that run the program's code (`_program_side`) or
    that the judge leaves to the sandbox, and the closed statements those read (transitively). Closed
    plain data only tests read (expected answers) stays in the parent: the program can neither read it
    from its globals nor from the request. Set-up code that does not parse is returned whole (the sandbox
    reports its error).
    """
    if not setup_code.strip():
        return ""
    scope = setup_scope(setup_code)
    return setup_code if scope is EMPTY_SCOPE else scope.child_code


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _plain_data(v: Any) -> bool:
    """``v`` travels to the child as data (a leaf ships it by value, never by name)."""
    try:
        encode_value(v)
    except Exception:  # noqa: BLE001  (ValueRejected, or a structure too deep to encode)
        return False
    return True


def _child_code(plan: list[tuple[ast.stmt, set[str], set[str], str]]) -> str:
    """The kept statements of ``plan`` and the "data" statements they read (transitively), in order."""
    needed: set[str] = set()
    kept: list[ast.stmt] = []
    for st, reads, writes, how in reversed(plan):
        if how == "keep" or (how == "data" and writes & needed):
            kept.append(st)
            needed |= reads
    try:
        return "".join(ast.unparse(st) + "\n" for st in reversed(kept))
    except (ValueError, RecursionError):
        return ""


def _program_side(st: ast.stmt, names: set[str]) -> bool:
    """``st`` only runs the program's code: it binds what a program call (or an attribute or item of a
    program value) returns (``x = f(1)``, ``s = Stack()``, ``root.left = Node(2)``) or calls a program
    object (``s.push(1)``), over closed values and such names. Anything else reading program names
    (``ok = f(5) == 120``, ``checks = all(...)``) would compute a judgement beside the program."""

    def chain(e: ast.expr) -> bool:  # a program name, or a call/attribute/item of one
        if isinstance(e, ast.Name):
            return e.id in names
        if isinstance(e, ast.Attribute):
            return chain(e.value)
        if isinstance(e, ast.Subscript):
            return chain(e.value) and arg(e.slice)
        if isinstance(e, ast.Call):
            return chain(e.func) and all(arg(a) for a in e.args) and all(arg(k.value) for k in e.keywords)
        return False

    def arg(e: ast.expr) -> bool:  # closed, a program value, or a display of those
        if not any(isinstance(x, ast.Name) and x.id in names for x in ast.walk(e)):
            return True
        if isinstance(e, (ast.List, ast.Tuple, ast.Set)):
            return all(arg(x) for x in e.elts)
        if isinstance(e, ast.Dict):
            return all(k is None or arg(k) for k in e.keys) and all(arg(v) for v in e.values)
        if isinstance(e, ast.Starred):
            return arg(e.value)
        return chain(e)

    def target(t: ast.expr) -> bool:
        if isinstance(t, ast.Name):
            return True
        if isinstance(t, (ast.Tuple, ast.List)):
            return all(target(x) for x in t.elts)
        return isinstance(t, (ast.Attribute, ast.Subscript)) and chain(t)

    if isinstance(st, ast.Assign):
        return all(target(t) for t in st.targets) and arg(st.value)
    if isinstance(st, ast.AnnAssign):
        return st.value is not None and target(st.target) and arg(st.value)
    if isinstance(st, ast.Expr):
        return isinstance(st.value, ast.Call) and chain(st.value)
    return False


# Members of plain values (what a program value arriving as data can have): reading any other member of a
# value (``s.push``, ``root.left``) says the dataset means a program object.
PLAIN_MEMBERS = frozenset(m for t in (int, float, complex, bool, str, bytes, list, tuple, dict, set, frozenset,
                                      type(None)) for m in dir(t))
_DATA_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def usage_key(n: ast.expr, made_by: dict[str, str | None]) -> str | None:
    """What a use of ``n`` tells about: the program name whose call made it (``C`` for ``C(...)`` or for a
    name the set-up code bound to one), else the name itself; None when ``n`` is neither."""
    while isinstance(n, ast.Attribute):
        n = n.value
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
        return n.func.id
    if isinstance(n, ast.Name):
        return made_by.get(n.id) or n.id
    return None


def member_usage(tree: ast.AST, made_by: dict[str, str | None]) -> tuple[set[str], set[str]]:
    """How trusted code (set-up or tests) uses program values: ``(objects, data)``.

    ``objects``: keys (`usage_key`) whose values it reads a member of that no plain value has (``s.push``,
    ``root.left.val``): program objects. ``data``: program names whose calls' results it uses as plain data
    (compared, subscripted, given a builtin type's method or arithmetic: ``split_words("a b") == ["a", "b"]``),
    and those that made a name it compares with data (``assert words == ["a"]``): functions.
    """
    objects: set[str] = set()
    data: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and n.attr not in PLAIN_MEMBERS and not is_dunder(n.attr):
            key = usage_key(n.value, made_by)
            if key is not None:
                objects.add(key)
        operands: list[ast.expr] = []
        named = False  # a name the set-up code bound counts here too (not as a receiver: that is the question)
        if isinstance(n, ast.Compare):
            pairs = zip((n.left, *n.comparators), n.ops)
            operands = [x for x, op in pairs if isinstance(op, _DATA_COMPARISONS)]
            operands += [c for c, op in zip(n.comparators, n.ops) if isinstance(op, _DATA_COMPARISONS)]
            named = True
        elif isinstance(n, ast.BinOp):
            operands, named = [n.left, n.right], True
        elif isinstance(n, ast.Subscript):
            operands = [n.value]
        elif isinstance(n, ast.comprehension):
            operands = [n.iter]
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in METHOD_NAMES:
            operands = [n.func.value]
        for x in operands:
            if isinstance(x, ast.Call) and isinstance(x.func, ast.Name):
                data.add(x.func.id)
            elif named and isinstance(x, ast.Name) and (maker := made_by.get(x.id)):
                data.add(maker)
    return objects, data


def _callee(st: ast.stmt, env: dict[str, Any], taken: set[str]) -> str | None:
    """``C`` when ``st`` is ``name = C(...)`` with ``C`` a name of the program (not bound by the set-up code,
    not a builtin): what it binds is what calling the program's ``C`` returns."""
    if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
            and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Name)):
        return None
    c = st.value.func.id
    return None if c in env or c in taken or c in _BUILTIN_NAMES else c


def is_dunder(name: str) -> bool:
    """``__name__``-shaped: a special method or attribute."""
    return name.startswith("__") and name.endswith("__")


_FOREIGN = object()


def _import(st: ast.Import | ast.ImportFrom, modules: dict[str, Any]) -> dict[str, Any]:
    """What an import statement binds: the parent's object, or `_FOREIGN` (left to the sandbox).

    ``modules``: the private modules of one scope (its `random`), shared by all its imports.
    """
    bound: dict[str, Any] = {}
    names: list[str] = []
    if isinstance(st, ast.Import):
        for a in st.names:
            top = a.name.split(".")[0]
            names.append(a.asname or top)
            if top in PARENT_MODULES:
                try:
                    mod = parent_module(a.name, modules)
                    bound[names[-1]] = mod if a.asname else parent_module(top, modules)
                except ImportError:
                    pass
    elif st.level == 0 and st.module and st.module.split(".")[0] in PARENT_MODULES:
        try:
            mod = parent_module(st.module, modules)
        except ImportError:
            mod = None
        for a in st.names:
            if a.name == "*" and mod is not None:
                public = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
                bound.update({n: getattr(mod, n) for n in public if hasattr(mod, n)})
            elif a.name != "*":
                names.append(a.asname or a.name)
                if mod is not None and hasattr(mod, a.name):
                    bound[names[-1]] = getattr(mod, a.name)
    else:
        names = [a.asname or a.name for a in st.names if a.name != "*"]
    return {**{name: _FOREIGN for name in names}, **bound}


def _imports_random(st: ast.AST) -> bool:
    if isinstance(st, ast.Import):
        return any(a.name.split(".")[0] == "random" for a in st.names)
    return isinstance(st, ast.ImportFrom) and (st.module or "").split(".")[0] == "random"


def _names_of(st: ast.stmt, source: str) -> tuple[set[str], set[str]]:
    """``(reads, writes)``: global names the statement reads (nested scopes included) and binds."""
    try:
        table = symtable.symtable(ast.get_source_segment(source, st) or ast.unparse(st), "<setup>", "exec")
    except (SyntaxError, ValueError, RecursionError):
        return {"<unparsed>"}, set()
    reads: set[str] = set()
    writes: set[str] = set()
    for sym in table.get_symbols():
        if sym.is_referenced():
            reads.add(sym.get_name())
        if sym.is_assigned() or sym.is_imported():
            writes.add(sym.get_name())
    for t in _nested(table):
        for sym in t.get_symbols():
            if sym.is_global() and sym.is_referenced():
                reads.add(sym.get_name())
            if sym.is_declared_global():
                writes.add(sym.get_name())
                reads.add("<global statement>")  # never closed: it rebinds module names from inside
    if isinstance(st, (ast.FunctionDef, ast.ClassDef)):
        writes.add(st.name)
    if isinstance(st, ast.Delete):
        writes.update(t.id for t in st.targets if isinstance(t, ast.Name))
    return reads, writes


def _nested(table: symtable.SymbolTable) -> Iterator[symtable.SymbolTable]:
    for child in table.get_children():
        yield child
        yield from _nested(child)


def _changed_roots(st: ast.stmt) -> set[str]:
    """Names whose objects the statement may change in place: roots of item or attribute targets
    (``x[0] = 1``, ``x.a += 1``, ``del x[0]``) and receivers of methods that are not the builtin types'
    pure ones (``x.append(1)``; ``x.copy()`` changes nothing)."""
    out: set[str] = set()

    def targets(t: ast.expr) -> None:
        if isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                targets(e)
        elif isinstance(t, ast.Starred):
            targets(t.value)
        elif isinstance(t, (ast.Subscript, ast.Attribute)):
            root = _root(t)
            if root is not None:
                out.add(root)

    for n in ast.walk(st):
        if isinstance(n, (ast.Assign, ast.Delete)):
            for t in n.targets:
                targets(t)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            targets(n.target)
        elif isinstance(n, ast.withitem) and n.optional_vars is not None:
            targets(n.optional_vars)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr not in METHOD_NAMES:
            root = _root(n.func.value)
            if root is not None:
                out.add(root)
    return out


def _root(n: ast.expr) -> str | None:
    while isinstance(n, (ast.Attribute, ast.Subscript, ast.Call)):
        n = n.func if isinstance(n, ast.Call) else n.value
    return n.id if isinstance(n, ast.Name) else None


def _compile(st: ast.stmt) -> Any:
    try:
        return compile(ast.Module([st], []), "<setup>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _exec(code: Any, env: dict[str, Any], writes: set[str] | frozenset[str]) -> bool:
    """Execute one closed statement in the parent's set-up namespace; False if it raised (then the
    sandbox reports the same error, and what it binds is left to the sandbox)."""
    g: dict[str, Any] = {"__builtins__": parent_builtins(), "__name__": "__setup__", **env}
    try:
        exec(code, g)  # noqa: S102  (the dataset's closed set-up code)
    except Exception:  # noqa: BLE001
        return False
    for name in writes:
        if name in g:
            env[name] = g[name]
    return True


def is_iterator(v: Any) -> bool:
    """``v`` is its own iterator (a generator, ``map``, ``iter(...)``): a one-shot value."""
    try:
        return v is not None and iter(v) is v
    except TypeError:
        return False


def _is_module(v: Any) -> bool:
    return type(v) is type(functools)


def _is_data(v: Any) -> bool:
    """Not a module, function or class (those are names, not data a program could change)."""
    return not (_is_module(v) or callable(v))
