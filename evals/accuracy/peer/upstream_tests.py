"""Read labelled cases out of another project's Python test files by static analysis (never by running them).

A test file states its cases as data (``@pytest.mark.parametrize`` tables, local constants) and its labels as
asserts around a *checker* call (``assert compare(gold, pred) == expected``, ``self.assertFalse(is_equiv(a,
b))``, ``out = math_equal(a, b); assert out is True``). This module walks the module's ``ast``: it binds each
parameter row, follows simple local assignments, and evaluates only literals, names, subscripts,
arithmetic on literals and f-strings over a few pure ``math`` functions. A call to a declared checker becomes
a ``Check`` (its arguments bound to the checker's signature); an assert around a ``Check`` becomes a
``Case`` with a boolean label. Anything else is reported as skipped with the reason, never guessed.

Nothing from the upstream file is imported or executed.
"""

from __future__ import annotations

import ast
import itertools
import math
import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

_SAFE_MATH: dict[str, Callable[..., Any]] = {
    name: getattr(math, name)
    for name in ("sqrt", "pi", "e", "log", "exp", "sin", "cos", "tan")
    if callable(getattr(math, name))
}
_SAFE_MATH_CONST = {"pi": math.pi, "e": math.e}
_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}


class Unsupported(Exception):
    """An expression outside the small literal language this reader evaluates."""


@dataclass(frozen=True)
class Check:
    """A checker call with its arguments bound by name (``{"gold": ..., "pred": ..., "precision": 6}``)."""

    checker: str
    args: tuple[tuple[str, Any], ...]

    def arg(self, name: str, default: Any = None) -> Any:
        return dict(self.args).get(name, default)


@dataclass(frozen=True)
class Case:
    """One labelled check: the call, its expected truth value and where it was stated."""

    check: Check
    expected: bool
    test: str
    line: int  # line of the parameter row, or of the assert for a case written in the body
    assert_line: int
    marks: tuple[str, ...] = ()


@dataclass
class Extraction:
    cases: list[Case] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Checker:
    """How a checker is called: its parameter names in order and their defaults (literals only).

    ``passthrough`` names wrappers that return their argument's value unchanged (``int(verify(...))``).
    """

    name: str
    params: tuple[str, ...]
    defaults: tuple[tuple[str, Any], ...] = ()
    nested: tuple[str, ...] = ()  # argument names whose value is itself a call to unwrap (``parse(gold)``)


def checker_from_def(tree: ast.Module, name: str, nested: tuple[str, ...] = ()) -> Checker:
    """Build a ``Checker`` from a helper ``def`` in the same module: its parameters and literal defaults."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            args = node.args
            params = tuple(a.arg for a in args.posonlyargs + args.args)
            defaults = {}
            pairs = list(zip(params[len(params) - len(args.defaults) :], args.defaults, strict=True))
            pairs += [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
            params += tuple(a.arg for a in args.kwonlyargs)
            for a, d in pairs:
                if d is None:
                    continue  # keyword-only without a default
                try:
                    defaults[a] = _literal(d, {})
                except Unsupported:
                    defaults[a] = f"<default: {ast.unparse(d)}>"  # a non-literal default, recorded as text
            return Checker(name, params, tuple(sorted(defaults.items())), nested)
    raise LookupError(f"no top-level def {name!r}")


def calls_in_def(tree: ast.Module, func: str, callee: str) -> list[dict[str, Any]]:
    """Literal keyword arguments of every call to ``callee`` inside ``def func`` (e.g. extraction configs)."""
    found: list[dict[str, Any]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == func:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Call) and _callee_name(sub.func) == callee:
                    found.append({k.arg: _literal(k.value, {}) for k in sub.keywords if k.arg})
    return found


def extract(source: str, checkers: dict[str, Checker]) -> Extraction:
    """Every labelled case in ``source`` whose assert wraps one of ``checkers``; the rest listed skipped."""
    tree = ast.parse(source)
    out = Extraction()
    for func, owner in _test_functions(tree):
        name = f"{owner}.{func.name}" if owner else func.name
        try:
            rows = list(_parameter_rows(func))
        except Unsupported as e:
            out.skipped.append({"test": name, "line": func.lineno, "why": f"parameters: {e}"})
            continue
        for binding, row_line, marks in rows:
            _run_body(func.body, dict(binding), checkers, name, row_line, marks, out)
    return out


# ------------------------------------------------------------------------------------------ test discovery
def _test_functions(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef, str]]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            yield node, ""
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef) and sub.name.startswith("test"):
                    yield sub, node.name


def _callee_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _parameter_rows(func: ast.FunctionDef) -> Iterator[tuple[dict[str, Any], int | None, tuple[str, ...]]]:
    """One binding per parameter row (the cartesian product of stacked ``parametrize`` decorators)."""
    tables: list[list[tuple[dict[str, Any], int, tuple[str, ...]]]] = []
    for dec in func.decorator_list:
        if isinstance(dec, ast.Call) and _callee_name(dec.func) == "parametrize":
            names_node, rows_node = dec.args[0], dec.args[1]
            names = _literal(names_node, {})
            names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
            if not isinstance(rows_node, (ast.List, ast.Tuple)):
                raise Unsupported(f"line {dec.lineno}: parameter rows are not a literal list")
            table = []
            for row in rows_node.elts:
                marks: tuple[str, ...] = ()
                if isinstance(row, ast.Call) and _callee_name(row.func) == "param":
                    marks = tuple(ast.unparse(k.value) for k in row.keywords if k.arg == "marks")
                    row_vals = tuple(_literal(a, {}) for a in row.args)
                else:
                    row_vals = _literal(row, {})
                    if len(names) == 1:
                        row_vals = (row_vals,)
                if len(row_vals) != len(names):
                    raise Unsupported(
                        f"line {row.lineno}: row has {len(row_vals)} values for {len(names)} names"
                    )
                table.append((dict(zip(names, row_vals, strict=True)), row.lineno, marks))
            tables.append(table)
    if not tables:
        yield {}, None, ()
        return
    for combo in itertools.product(*tables):
        binding: dict[str, Any] = {}
        for b, _, _ in combo:
            binding.update(b)
        yield binding, combo[-1][1], tuple(m for _, _, ms in combo for m in ms)


# ------------------------------------------------------------------------------------------ body walking
def _run_body(
    body: list[ast.stmt],
    env: dict[str, Any],
    checkers: dict[str, Checker],
    test: str,
    row_line: int | None,
    marks: tuple[str, ...],
    out: Extraction,
    nodes: dict[str, ast.expr] | None = None,
) -> None:
    nodes = {} if nodes is None else nodes  # name -> the literal node it was bound from (for row lines)
    for stmt in body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # docstring
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            try:
                env[name] = _value(stmt.value, env, checkers)
                nodes[name] = stmt.value
            except Unsupported:
                env.pop(name, None)
                nodes.pop(name, None)
            continue
        if isinstance(stmt, ast.For) and not stmt.orelse:
            _run_loop(stmt, env, checkers, test, marks, out, nodes)
            continue
        label = _label_of(stmt, env, checkers)
        if label is None:
            if _mentions_checker(stmt, checkers):
                out.skipped.append(
                    {
                        "test": test,
                        "line": stmt.lineno,
                        "why": f"assert not understood: {ast.unparse(stmt)[:120]}",
                    }
                )
            elif isinstance(stmt, (ast.Assert, ast.Expr)):
                out.skipped.append(
                    {
                        "test": test,
                        "line": stmt.lineno,
                        "why": f"no declared checker: {ast.unparse(stmt)[:120]}",
                    }
                )
            continue
        if isinstance(label, str):
            out.skipped.append({"test": test, "line": stmt.lineno, "why": label})
            continue
        check, expected = label
        out.cases.append(Case(check, expected, test, row_line or stmt.lineno, stmt.lineno, marks))


def _run_loop(
    stmt: ast.For,
    env: dict[str, Any],
    checkers: dict[str, Checker],
    test: str,
    marks: tuple[str, ...],
    out: Extraction,
    nodes: dict[str, ast.expr],
) -> None:
    """``for a, b in PAIRS:`` over a literal list: one pass of the body per element, at its line."""
    try:
        items = _literal(stmt.iter, env)
    except Unsupported as e:
        out.skipped.append({"test": test, "line": stmt.lineno, "why": f"loop: {e}"})
        return
    source = nodes.get(stmt.iter.id) if isinstance(stmt.iter, ast.Name) else stmt.iter
    elts = source.elts if isinstance(source, (ast.List, ast.Tuple)) else [None] * len(items)
    for item, elt in zip(items, elts, strict=True):
        target = stmt.target
        if isinstance(target, ast.Name):
            env[target.id] = item
        elif (
            isinstance(target, ast.Tuple)
            and all(isinstance(t, ast.Name) for t in target.elts)
            and len(target.elts) == len(item)
        ):
            for t, v in zip(target.elts, item, strict=True):
                env[t.id] = v  # type: ignore[attr-defined]
        else:
            out.skipped.append({"test": test, "line": stmt.lineno, "why": "loop target not a name or tuple"})
            return
        _run_body(stmt.body, env, checkers, test, elt.lineno if elt is not None else None, marks, out, nodes)


def _mentions_checker(stmt: ast.stmt, checkers: dict[str, Checker]) -> bool:
    return any(isinstance(n, ast.Call) and _callee_name(n.func) in checkers for n in ast.walk(stmt))


def _label_of(
    stmt: ast.stmt, env: dict[str, Any], checkers: dict[str, Checker]
) -> tuple[Check, bool] | str | None:
    """``(check, expected)`` for an assert around a checker; a reason string when it cannot be read."""
    try:
        if isinstance(stmt, ast.Assert):
            return _truth(stmt.test, env, checkers, True)
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            name = _callee_name(call.func)
            if name in ("assertTrue", "assertFalse") and call.args:
                got = _value(call.args[0], env, checkers)
                if isinstance(got, Check):
                    return got, name == "assertTrue"
            if name in ("assertEqual", "assertIs") and len(call.args) >= 2:
                a, b = (_value(x, env, checkers) for x in call.args[:2])
                if isinstance(a, Check) and not isinstance(b, Check):
                    return a, bool(b)
                if isinstance(b, Check) and not isinstance(a, Check):
                    return b, bool(a)
    except Unsupported as e:
        return f"{e}" if _mentions_checker(stmt, checkers) else None
    return None


def _truth(
    node: ast.expr, env: dict[str, Any], checkers: dict[str, Checker], want: bool
) -> tuple[Check, bool] | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _truth(node.operand, env, checkers, not want)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left = _value(node.left, env, checkers)
        right = _value(node.comparators[0], env, checkers)
        op = node.ops[0]
        if isinstance(left, Check) == isinstance(right, Check):
            return None
        check, other = (left, right) if isinstance(left, Check) else (right, left)
        if isinstance(op, (ast.Eq, ast.Is)):
            return check, bool(other) == want
        if isinstance(op, (ast.NotEq, ast.IsNot)):
            return check, (not bool(other)) == want
        return None
    got = _value(node, env, checkers)
    if isinstance(got, Check):
        return got, want
    return None


# ------------------------------------------------------------------------------------------ evaluation
def _value(node: ast.expr, env: dict[str, Any], checkers: dict[str, Checker]) -> Any:
    """Evaluate ``node``: a checker call becomes a ``Check``; ``int()``/``bool()`` of a Check stays one."""
    if isinstance(node, ast.Call):
        name = _callee_name(node.func)
        if name in checkers:
            return _bind(checkers[name], node, env, checkers)
        if name in ("int", "bool", "float") and len(node.args) == 1 and not node.keywords:
            inner = _value(node.args[0], env, checkers)
            if isinstance(inner, Check):
                return inner
            return {"int": int, "bool": bool, "float": float}[name](inner)
    return _literal(node, env)


def _bind(checker: Checker, call: ast.Call, env: dict[str, Any], checkers: dict[str, Checker]) -> Check:
    bound = dict(checker.defaults)
    if len(call.args) > len(checker.params):
        raise Unsupported(f"{checker.name} called with {len(call.args)} positional arguments")
    for pname, arg in zip(checker.params, call.args, strict=False):
        bound[pname] = _arg_value(checker, pname, arg, env, checkers)
    for kw in call.keywords:
        if kw.arg is None:
            raise Unsupported(f"{checker.name}(**...)")
        bound[kw.arg] = _arg_value(checker, kw.arg, kw.value, env, checkers)
    return Check(checker.name, tuple(sorted(bound.items(), key=lambda kv: kv[0])))


def _arg_value(
    checker: Checker, pname: str, arg: ast.expr, env: dict[str, Any], checkers: dict[str, Checker]
) -> Any:
    if pname in checker.nested and isinstance(arg, ast.Call) and len(arg.args) == 1:
        return _literal(arg.args[0], env)  # ``parse(gold)`` -> the text given to parse
    return _literal(arg, env)


def _literal(node: ast.expr, env: dict[str, Any]) -> Any:
    """Literals, names bound in ``env``, subscripts, arithmetic on numbers, f-strings over safe math."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        vals = [_literal(e, env) for e in node.elts]
        return tuple(vals) if isinstance(node, ast.Tuple) else vals
    if isinstance(node, ast.Dict):
        return {
            _literal(k, env): _literal(v, env)
            for k, v in zip(node.keys, node.values, strict=True)
            if k is not None
        }
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        raise Unsupported(f"unbound name {node.id!r}")
    if isinstance(node, ast.Subscript):
        return _literal(node.value, env)[_literal(node.slice, env)]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _literal(node.operand, env)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a, b = _literal(node.left, env), _literal(node.right, env)
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
            return _BINOPS[type(node.op)](a, b)
        if isinstance(node.op, ast.Add) and isinstance(a, str) and isinstance(b, str):
            return a + b
    if isinstance(node, ast.JoinedStr):
        return "".join(_fstring_part(v, env) for v in node.values)
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "math"
        and node.attr in _SAFE_MATH_CONST
    ):
        return _SAFE_MATH_CONST[node.attr]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "math"
        and node.func.attr in _SAFE_MATH
        and not node.keywords
    ):
        return _SAFE_MATH[node.func.attr](*(_literal(a, env) for a in node.args))
    raise Unsupported(f"not a literal: {ast.unparse(node)[:80]}")


def _fstring_part(node: ast.expr, env: dict[str, Any]) -> str:
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.FormattedValue):
        value = _literal(node.value, env)
        spec = "".join(_fstring_part(v, env) for v in node.format_spec.values) if node.format_spec else ""
        conv = {-1: value, 115: str(value), 114: repr(value), 97: ascii(value)}[node.conversion]
        return format(conv, spec)
    raise Unsupported("f-string part")
