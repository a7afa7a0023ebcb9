"""HumanEval: its ``check(candidate)`` test code turned into flat asserts the sandbox judge decides in the parent.

A HumanEval row's ``test`` is module text defining ``check(candidate)``: asserts over calls of ``candidate``,
often inside loops over inputs, with expected values computed by helper functions (the prompt's
``encode_cyclic``, ``poly``), seeded or unseeded ``random`` inputs, float tolerances and a ``METADATA`` dict.
Exec-based harnesses run it beside the program, where the program can redefine ``check``, patch ``__eq__`` or
read expected values from the frame. Here it never reaches the program:

`compile_check` runs ``check`` in this (trusted) process on the dataset's code only, with ``candidate`` a
symbol: every statement that does not involve ``candidate`` runs normally (loops, ``random`` with a fixed
seed, helper calls), and each ``assert`` is *recorded* instead of evaluated, its sub-expressions that do not
involve ``candidate`` replaced by their values as literals, ``candidate`` by the entry point's name. A name
bound to an expression over ``candidate`` (``solution = candidate(xs)``) is recorded as that expression.
The result is a list of ordinary assert statements (``assert find_zero([1, 2]) ...``) for the judge, which
splits them as it splits MBPP's: the program computes only ``entry_point(args)``; every comparison, tolerance
and helper call (the set-up code's pristine copy of ``poly``) is evaluated in the parent.

A ``check`` whose control flow depends on the program's answers (``if candidate(x): ...``) cannot be
unrolled: `compile_check` raises `CheckShapeError` (no HumanEval test has that shape).

`program` assembles what runs: a response that restates the entry point's ``def`` runs after the prompt
(the prompt's imports and helpers stay available); one that only continues the prompt (the body, as
HumanEval's completion models emit) is appended to it, indented if it was written at column 0.
"""

from __future__ import annotations

import ast
import builtins
import json
import math
import random
import re
import types
from collections.abc import Mapping
from typing import Any

from verifiers._problem import CodeTests, Problem
from verifiers.errors import DataError
from verifiers.sandbox._pure import parent_builtins

__all__ = ["CheckShapeError", "compile_check", "humaneval_row", "program"]

MAX_LITERAL_CHARS = 20_000  # a value larger than this stays an expression of the set-up code's names
SEED = 0  # ``random`` in check code: seeded, so a problem's tests are the same in every process


class CheckShapeError(ValueError):
    """``check`` cannot be unrolled into flat asserts (its control flow reads the program's answers)."""


class _Symbol:
    """A value computed from ``candidate``: only its expression is known. Any operation on it is refused."""

    __slots__ = ("node",)

    def __init__(self, node: ast.expr) -> None:
        self.node = node

    def _refuse(self, *_: Any, **__: Any) -> Any:
        raise CheckShapeError(f"check code uses the program's answer {ast.unparse(self.node)[:80]!r} "
                              "outside an assert")


for _dunder in ("__bool__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__iter__", "__len__",
                "__getitem__", "__contains__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                "__truediv__", "__floordiv__", "__mod__", "__pow__", "__neg__", "__abs__", "__hash__", "__call__",
                "__index__", "__int__", "__float__", "__str__", "__format__"):
    setattr(_Symbol, _dunder, _Symbol._refuse)
_Symbol.__getattr__ = _Symbol._refuse  # type: ignore[attr-defined]


def _literal(value: Any, depth: int = 0) -> str | None:
    """Python source that evaluates to ``value`` (plain data only), or None."""
    t = type(value)
    if depth > 20:
        return None
    if value is None or t in (bool, int, str, bytes):
        return repr(value)
    if t is float:
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if t in (list, tuple, set, frozenset):
        items = [_literal(v, depth + 1) for v in value]
        if any(i is None for i in items):
            return None
        body = ", ".join(items)  # type: ignore[arg-type]
        if t is list:
            return f"[{body}]"
        if t is tuple:
            return f"({body},)" if len(items) == 1 else f"({body})"
        inner = f"{{{body}}}" if items else ""
        return f"{t.__name__}({inner})" if t is frozenset or not items else inner
    if t is dict:
        pairs = [(_literal(k, depth + 1), _literal(v, depth + 1)) for k, v in value.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    return None


def _seeded_random(seed: int) -> types.ModuleType:
    """A ``random`` module whose functions draw from one private generator seeded with ``seed``."""
    mod = types.ModuleType("random")
    mod.__dict__.update({k: v for k, v in vars(random).items() if not k.startswith("__")})
    gen = random.Random(seed)
    for name in dir(gen):
        if not name.startswith("_") and callable(getattr(gen, name)) and hasattr(random, name):
            setattr(mod, name, getattr(gen, name))
    return mod


def _check_builtins(seed: int) -> dict[str, Any]:
    """The builtins dataset code runs over here: the judge's restricted ones (no files, no imports but
    `PARENT_MODULES`, no ``exec``), ``print`` a no-op, ``random`` seeded."""
    seeded = _seeded_random(seed)
    env = parent_builtins()
    restricted = env["__import__"]

    def imp(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        return seeded if name == "random" and level == 0 else restricted(name, globals, locals, fromlist, level)

    env["__import__"] = imp
    env["print"] = lambda *a, **k: None
    return env


def _bound_names(node: ast.AST) -> set[str]:
    """Names bound inside ``node`` by comprehensions and lambdas (never substituted)."""
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.comprehension):
            out |= {t.id for t in ast.walk(n.target) if isinstance(t, ast.Name)}
        elif isinstance(n, ast.Lambda):
            out |= {a.arg for a in (*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs)}
            out |= {a.arg for a in (n.args.vararg, n.args.kwarg) if a is not None}
        elif isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
    return out


class _Recorder:
    """Turns ``check``'s asserts into flat assert source, as ``check`` runs in the parent."""

    def __init__(self, candidate: str, entry_point: str, module_ns: dict[str, Any]) -> None:
        self.candidate, self.entry_point, self.ns = candidate, entry_point, module_ns
        self.asserts: list[str] = []
        self.needed: set[str] = set()  # module-level names the recorded asserts still read
        self.nodes: list[ast.expr] = []

    def _symbolic(self, node: ast.AST, env: Mapping[str, Any], bound: set[str]) -> bool:
        return any(isinstance(n, ast.Name) and n.id not in bound and isinstance(env.get(n.id, self.ns.get(n.id)), _Symbol)
                   for n in ast.walk(node))

    def _rewrite(self, node: ast.expr, env: dict[str, Any], bound: set[str]) -> ast.expr:
        """``node`` with its program-free parts as literals and ``candidate`` as the entry point."""
        if not self._symbolic(node, env, bound) and not bound & _names(node):
            try:
                value = eval(compile(ast.Expression(node), "<check>", "eval"), {**self.ns, **env})
            except Exception:  # noqa: BLE001 - left for the judge to evaluate (and fail) as written
                value = _NO_VALUE
            lit = _literal(value) if value is not _NO_VALUE else None
            if lit is not None and len(lit) <= MAX_LITERAL_CHARS:
                return ast.parse(lit, mode="eval").body
        if isinstance(node, ast.Name) and node.id not in bound:
            value = env.get(node.id, _NO_VALUE)
            if isinstance(value, _Symbol):
                return _copy(value.node)
            if value is not _NO_VALUE and not isinstance(value, types.ModuleType):
                raise CheckShapeError(f"check's local {node.id!r} ({type(value).__name__}) is not plain data")
            if value is not _NO_VALUE:  # a module imported inside check: imported by the set-up code
                self.needed.add(node.id)
                self.ns.setdefault(node.id, value)
            elif node.id in self.ns and not hasattr(builtins, node.id):
                self.needed.add(node.id)
            return node
        inner = bound | (_bound_names(node) if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                                                                  ast.GeneratorExp)) else set())
        for fname, old in ast.iter_fields(node):
            if isinstance(old, list):
                setattr(node, fname, [self._rewrite(v, env, inner) if isinstance(v, ast.expr) else
                                      self._sub(v, env, inner) for v in old])
            elif isinstance(old, ast.expr):
                setattr(node, fname, self._rewrite(old, env, inner))
            elif isinstance(old, ast.AST):
                setattr(node, fname, self._sub(old, env, inner))
        return node

    def _sub(self, node: ast.AST, env: dict[str, Any], bound: set[str]) -> ast.AST:
        for fname, old in ast.iter_fields(node):
            if isinstance(old, list):
                setattr(node, fname, [self._rewrite(v, env, bound) if isinstance(v, ast.expr) else
                                      self._sub(v, env, bound) if isinstance(v, ast.AST) else v for v in old])
            elif isinstance(old, ast.expr):
                setattr(node, fname, self._rewrite(old, env, bound))
            elif isinstance(old, ast.AST):
                setattr(node, fname, self._sub(old, env, bound))
        return node

    def record(self, index: int, env: dict[str, Any]) -> None:
        node = _copy(self.nodes[index])
        if not self._symbolic(node, env, set()) and self._holds(node, env):
            return  # holds whatever the program does (``assert True``): no test, no credit for nothing
        self.asserts.append(f"assert {ast.unparse(self._rewrite(node, dict(env), set()))}")

    def _holds(self, node: ast.expr, env: dict[str, Any]) -> bool:
        """Whether a program-free assert test is true (False when it reaches the program after all)."""
        try:
            return bool(eval(compile(ast.Expression(_copy(node)), "<check>", "eval"), {**self.ns, **env}))
        except Exception:  # noqa: BLE001 - it reads the program (a closure over candidate): keep the test
            return False

    def value(self, index: int, env: dict[str, Any]) -> Any:
        node = _copy(self.nodes[index])
        if self._symbolic(node, env, set()):
            return _Symbol(self._rewrite(node, dict(env), set()))
        return eval(compile(ast.Expression(node), "<check>", "eval"), {**self.ns, **env})


_NO_VALUE = object()


def _copy(node: ast.expr) -> ast.expr:
    return ast.parse(ast.unparse(node), mode="eval").body


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


class _Instrument(ast.NodeTransformer):
    """``assert T`` -> ``__record__(i, __locals__())``; ``x = E`` -> ``x = __value__(j, __locals__())``."""

    def __init__(self, recorder: _Recorder) -> None:
        self.recorder = recorder
        self.top: ast.FunctionDef | None = None

    def _slot(self, node: ast.expr) -> ast.Constant:
        self.recorder.nodes.append(node)
        return ast.Constant(len(self.recorder.nodes) - 1)

    def _call(self, fn: str, node: ast.expr) -> ast.Call:
        return ast.Call(ast.Name(fn, ast.Load()),
                        [self._slot(node), ast.Call(ast.Name("__locals__", ast.Load()), [], [])], [])

    def visit_Assert(self, node: ast.Assert) -> ast.stmt:
        return ast.copy_location(ast.Expr(self._call("__record__", node.test)), node)

    def visit_Assign(self, node: ast.Assign) -> ast.stmt:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            node.value = self._call("__value__", node.value)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        if self.top is None:  # check itself
            self.top = node
            self.generic_visit(node)
        return node  # a helper nested in check runs as written (on plain data)

    def visit_Expr(self, node: ast.Expr) -> ast.stmt:
        # a bare call of the program (``candidate(x)``): it must not raise; recorded as an assert that holds
        # whatever the call returns, so only an exception in the program fails it
        if any(isinstance(n, ast.Name) and n.id == self.recorder.candidate for n in ast.walk(node.value)):
            test = ast.BoolOp(ast.Or(), [ast.Compare(node.value, [ast.Is()], [ast.Constant(None)]),
                                         ast.Constant(True)])
            return ast.copy_location(ast.Expr(self._call("__record__", test)), node)
        return node


def _check_def(module: ast.Module) -> ast.FunctionDef:
    found = [s for s in module.body if isinstance(s, ast.FunctionDef) and s.name == "check"]
    if not found or not found[-1].args.args:
        raise CheckShapeError("test code defines no check(candidate) function")
    return found[-1]


def compile_check(test: str, prompt: str, entry_point: str, *, seed: int = SEED) -> CodeTests:
    """HumanEval ``test`` code as flat asserts over ``entry_point`` plus the set-up code they read.

    Runs the dataset's code (the prompt's helpers, the test module, ``check``) in this process: dataset code,
    never the program's, over the judge's restricted builtins (no files, ``exec`` or imports beyond the
    judge's modules), as MBPP's closed set-up statements run.

    Raises:
        CheckShapeError: the test code defines no ``check``, or its control flow reads the program's answers.
    """
    try:
        test_mod, prompt_mod = ast.parse(test), ast.parse(prompt)
    except SyntaxError as e:
        raise CheckShapeError(f"test or prompt code does not parse: {e}") from None
    check = _check_def(test_mod)
    candidate = check.args.args[0].arg
    ns: dict[str, Any] = {"__builtins__": _check_builtins(seed), "__name__": "humaneval_check"}
    rest = ast.Module([s for s in test_mod.body if s is not check], [])
    recorder = _Recorder(candidate, entry_point, ns)
    instrumented = ast.fix_missing_locations(ast.Module([_Instrument(recorder).visit(_copy_module(check))], []))
    try:
        exec(compile(prompt_mod, "<prompt>", "exec"), ns)  # noqa: S102 - the dataset's prompt
        ns.pop(entry_point, None)
        exec(compile(rest, "<test>", "exec"), ns)  # noqa: S102 - the dataset's test module
        module_names = set(ns)
        ns["__record__"], ns["__value__"], ns["__locals__"] = recorder.record, recorder.value, builtins.locals
        exec(compile(instrumented, "<check>", "exec"), ns)  # noqa: S102
        ns["check"](_Symbol(ast.Name(entry_point, ast.Load())))
    except CheckShapeError:
        raise
    except Exception as e:  # noqa: BLE001 - the dataset's code failed while unrolling
        raise CheckShapeError(f"check code raised while unrolling it: {type(e).__name__}: {e}") from None
    needed = recorder.needed
    setup = _setup_code(prompt_mod, rest, entry_point, needed, ns, module_names)
    return CodeTests(tuple(recorder.asserts), setup, prompt=prompt, entry_point=entry_point)


def _copy_module(node: ast.FunctionDef) -> ast.FunctionDef:
    return ast.parse(ast.unparse(node)).body[0]  # type: ignore[return-value]


def _setup_code(prompt: ast.Module, test: ast.Module, entry_point: str, needed: set[str], ns: dict[str, Any],
                module_names: set[str]) -> str:
    """The set-up code the recorded asserts need: imports, and the helper functions of prompt and test."""
    if not needed:
        return ""
    lines: list[str] = []
    for mod in (prompt, test):
        lines += [ast.unparse(s) for s in mod.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    for name in sorted(needed - module_names):  # modules imported inside check
        value = ns[name]
        lines.append(f"import {value.__name__}" + (f" as {name}" if name != value.__name__ else ""))
    if any(not isinstance(ns.get(n), types.ModuleType) for n in needed):
        for mod in (prompt, test):
            lines += [ast.unparse(s) for s in mod.body
                      if isinstance(s, ast.FunctionDef) and s.name not in (entry_point, "check")]
    return "\n".join(dict.fromkeys(lines))


_DEF = re.compile(r"^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(", re.MULTILINE)


def program(code: str, prompt: str, entry_point: str) -> str:
    """What runs for a response's ``code``: the prompt then the code (a whole restated function), or the
    prompt continued by the code (a body only: indented by four spaces if it starts at column 0)."""
    if entry_point in _DEF.findall(code):
        return f"{prompt.rstrip()}\n\n\n{code}"
    lines = code.strip("\n").splitlines()
    first = next((ln for ln in lines if ln.strip()), "")
    if first and not first[0].isspace():
        lines = [("    " + ln) if ln.strip() else ln for ln in lines]
    return f"{prompt.rstrip()}\n" + "\n".join(lines) + "\n"


def humaneval_row(task: str, split: str, i: int, row: Mapping[str, Any]) -> Problem:
    """A HumanEval row: ``prompt``, ``canonical_solution``, ``test`` (``check(candidate)``), ``entry_point``."""
    where = f"{task} row {i}"
    missing = [k for k in ("prompt", "test", "entry_point") if not isinstance(row.get(k), str)]
    if missing:
        raise DataError(f"{where}: row has no string field(s) {missing}; it has {sorted(row)}")
    prompt, entry = str(row["prompt"]), str(row["entry_point"])
    try:
        tests = compile_check(str(row["test"]), prompt, entry)
    except CheckShapeError as e:
        raise DataError(f"{where} ({row.get('task_id', '')}): {e}") from None
    task_id = str(row.get("task_id") or f"{task}/{i}")
    solution = prompt + str(row.get("canonical_solution") or "")
    meta = {"task_id": task_id, "prompt": prompt, "entry_point": entry}
    return Problem(task_id, prompt, "", solution, tests.tests, tests.setup_code, meta)


def encode_reference(tests: CodeTests) -> str:
    """The JSON verl carries as ``ground_truth``."""
    return json.dumps({"tests": list(tests.tests), "setup_code": tests.setup_code, "prompt": tests.prompt,
                       "entry_point": tests.entry_point})
