"""Which names a test's set-up code binds in the parent (the judge) and which only exist beside the program.

Set-up code is the dataset's (trusted), but it also runs in the sandbox after the program, in the
program's globals, where the program can rebind anything it binds. So each top-level statement is
classified once:

* imports of `PARENT_MODULES` (``import math``, ``from math import isclose``, ``from math import *``) bind
  pristine objects of this process;
* a *closed* statement (it reads only builtins and names already bound here: ``expected = [1, 2, 3]``,
  ``def approx(a, b): ...``) is executed here too, over restricted builtins, and what it binds resolves here;
* anything else binds names that live beside the program: *program values* (``root = Node(1)``: built
  with the program's code, they are its objects), *foreign* names (imports of other modules: a test may
  pass ``date(2020, 1, 2)`` to the program as an input, but may not take its own expected value from the
  program's process) and *refused* names: functions and classes the set-up code defines with program
  names (HumanEval's ``check(candidate)``): their comparisons would run beside the program.

A closed statement that mutates (``expected.append(4)``) just runs here; a program-side statement that
reads a name bound here (``expected.append(f(0))``) makes that name program-side from then on.
"""

from __future__ import annotations

import ast
import functools
import importlib
import symtable
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from verifiers.sandbox._pure import PARENT_BUILTINS, PARENT_MODULES, parent_builtins

# Statement kinds executed in the parent when closed; other kinds (attribute or subscript targets,
# `global`, `with`, `try`, `del`...) are left to the sandbox.
_EXECUTED = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.FunctionDef, ast.ClassDef, ast.Expr, ast.If, ast.For)


@dataclass(frozen=True)
class SetupScope:
    """The judge's view of one set-up code.

    Attributes:
        env: names resolved in the parent and their values (modules, functions, closed values).
        program: program values the set-up code builds with the program's code.
        foreign: names it imports from modules the judge does not evaluate (only inputs of program calls).
        refused: names a test may not use at all, with the reason.
    """

    env: dict[str, Any] = field(default_factory=dict)
    program: frozenset[str] = frozenset()
    foreign: frozenset[str] = frozenset()
    refused: dict[str, str] = field(default_factory=dict)


EMPTY_SCOPE = SetupScope()


@functools.lru_cache(maxsize=4096)
def setup_scope(setup_code: str) -> SetupScope:
    """Classify ``setup_code``'s bindings (cached: RL scores the same set-up code many times).

    Set-up code that does not parse binds nothing here (the sandbox then reports its error).
    """
    if not setup_code.strip():
        return EMPTY_SCOPE
    from verifiers.sandbox._judge import parse_python  # one AST lock for the whole judge

    try:
        mod = parse_python(setup_code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return EMPTY_SCOPE
    env: dict[str, Any] = {}
    program: set[str] = set()
    foreign: set[str] = set()
    refused: dict[str, str] = {}
    for st in mod.body:
        if isinstance(st, (ast.Import, ast.ImportFrom)):
            for name, value in _import(st).items():
                program.discard(name)
                foreign.discard(name)
                refused.pop(name, None)
                if value is _FOREIGN:
                    env.pop(name, None)
                    foreign.add(name)
                else:
                    env[name] = value
            continue
        reads, writes = _names_of(st, setup_code)
        taken = program | foreign | set(refused)
        closed = isinstance(st, _EXECUTED) and not reads & taken and reads - writes <= set(env) | PARENT_BUILTINS
        if closed and _run_here(st, env, writes):
            for name in writes:
                program.discard(name)
                foreign.discard(name)
                refused.pop(name, None)
                if _is_iterator(env.get(name)):
                    del env[name]
                    refused[name] = "the set-up code binds it to a one-shot iterator"
            continue
        # Program-side: what it binds, and what bound-here data it may have changed, now live in the sandbox.
        for name in writes | {r for r in reads if r in env and not _is_module(env[r])}:
            env.pop(name, None)
            foreign.discard(name)
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)) or (
                    isinstance(st, ast.Assign) and isinstance(st.value, ast.Lambda)):
                refused[name] = "the set-up code defines it with program names (its checks would run beside the program)"
            else:
                program.add(name)
    return SetupScope(env, frozenset(program), frozenset(foreign), refused)


_FOREIGN = object()


def _import(st: ast.Import | ast.ImportFrom) -> dict[str, Any]:
    """What an import statement binds: the parent's object, or `_FOREIGN` (left to the sandbox)."""
    bound: dict[str, Any] = {}
    names: list[str] = []
    if isinstance(st, ast.Import):
        for a in st.names:
            names.append(a.asname or a.name.split(".")[0])
            if a.name.split(".")[0] in PARENT_MODULES:
                try:
                    mod = importlib.import_module(a.name)
                    bound[names[-1]] = mod if a.asname else importlib.import_module(a.name.split(".")[0])
                except ImportError:
                    pass
    elif st.level == 0 and st.module and st.module.split(".")[0] in PARENT_MODULES:
        try:
            mod = importlib.import_module(st.module)
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
    return reads, writes


def _nested(table: symtable.SymbolTable) -> Iterator[symtable.SymbolTable]:
    for child in table.get_children():
        yield child
        yield from _nested(child)


def _run_here(st: ast.stmt, env: dict[str, Any], writes: set[str]) -> bool:
    """Execute one closed statement in the parent's set-up namespace; False if it raised (then the
    sandbox reports the same error, and what it binds is left to the sandbox)."""
    g: dict[str, Any] = {"__builtins__": parent_builtins(), "__name__": "__setup__", **env}
    try:
        exec(compile(ast.Module([st], []), "<setup>", "exec"), g)  # noqa: S102  (the dataset's closed set-up code)
    except Exception:  # noqa: BLE001
        return False
    for name in writes:
        if name in g:
            env[name] = g[name]
    return True


def _is_iterator(v: Any) -> bool:
    try:
        return v is not None and iter(v) is v
    except TypeError:
        return False


def _is_module(v: Any) -> bool:
    return type(v) is type(importlib)
