"""Expected-output tests (EvalPlus style): inputs and expected outputs of a function, compiled to asserts.

A test is ``(inputs, expected)`` for an entry point ``f``: the program must compute ``f(*inputs)``, and the
parent decides whether that value is the expected one. `expected_output_tests` compiles each pair into one
ordinary assert statement that the assert judge (`_judge` plans it, `_evaluate` decides it) already splits,
so its guarantees carry over unchanged: the program computes only the leaf ``f(*inputs)`` (inputs travel as
values); the expected value, the tolerance and every comparison stay in the trusted parent and never reach
the program; the answer comes back as decoded plain data, so an object with a lying ``__eq__`` is not a
value the judge accepts (the test fails); any exception while comparing is a failed test.

The comparison is EvalPlus's (``evalplus/evalplus``, ``evalplus/eval/__init__.py``: ``is_floats`` and
``unsafe_execute``): ``out == exp`` passes; else, when ``atol`` is non-zero, or is zero and ``exp`` is a float
or a flat list/tuple of floats (``is_floats``: the tolerance is then ``1e-6``), ``np.testing.assert_allclose(out,
exp, atol=atol)`` decides (``rtol=1e-7``, NaN equal to NaN). Here that rule is compiled per expected value:
each number ``e`` of ``exp`` becomes ``abs(o - e) <= atol + 1e-07 * abs(e)`` (the same float expression
numpy evaluates), a NaN becomes ``o != o``, an infinity an equality, a list or tuple an ``isinstance(o, (list,
tuple))`` and length check (numpy compares lists and tuples alike), anything else ``==``. Differences from
numpy, on purpose: no broadcasting (``[3.0]`` is not close to ``3.0``), and no numpy types (the program's
answer must be plain data). EvalPlus's special oracles for three problems (``find_zero``, ``are_equivalent``,
``sum_div``) are not reproduced: give such a problem a check function instead.
"""

from __future__ import annotations

import keyword
import math
from collections.abc import Sequence
from typing import Any

from verifiers.errors import ConfigError
from verifiers.sandbox._judge import MAX_TEST_CHARS

RTOL = 1e-07  # numpy.testing.assert_allclose's default, which EvalPlus keeps
FLOAT_ATOL = 1e-6  # EvalPlus's tolerance for float outputs when none is given
MAX_DEPTH = 50  # nesting of one input or output value
PLAIN = "None, bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset"


def is_floats(x: Any) -> bool:
    """EvalPlus's ``is_floats``: a float, or a list/tuple whose items are all floats (an empty one too)."""
    if isinstance(x, float):
        return True
    if isinstance(x, (list, tuple)):
        return all(isinstance(i, float) for i in x)
    return False


def literal(value: Any, where: str, depth: int = 0) -> str:
    """Python source that evaluates, in the judge, to a value equal to ``value`` of the same types.

    Raises:
        ConfigError: ``value`` is not plain data (``where`` names it in the message) or nests too deeply.
    """
    if depth > MAX_DEPTH:
        raise ConfigError(f"{where} nests deeper than {MAX_DEPTH} levels")
    t = type(value)
    if value is None or t in (bool, int, str, bytes):
        return repr(value)
    if t is float:
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if t is complex:
        return f"complex({literal(value.real, where, depth + 1)}, {literal(value.imag, where, depth + 1)})"
    if t in (list, tuple):
        items = [literal(v, where, depth + 1) for v in value]
        if t is list:
            return f"[{', '.join(items)}]"
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if t is dict:
        return "{" + ", ".join(f"{literal(k, where, depth + 1)}: {literal(v, where, depth + 1)}"
                               for k, v in value.items()) + "}"
    if t in (set, frozenset):
        items = sorted(literal(v, where, depth + 1) for v in value)
        inner = f"{{{', '.join(items)}}}" if items else ""
        return f"frozenset({inner})" if t is frozenset else (inner or "set()")
    raise ConfigError(f"{where} holds a {t.__name__}; inputs and outputs must be plain data ({PLAIN})")


def _close(path: str, exp: Any, atol: float, where: str, depth: int = 0) -> str:
    """The condition, over the program's value at ``path``, of numpy's ``allclose`` with ``exp`` (see the
    module doc); ``==`` for what numpy would not compare as numbers."""
    if depth > MAX_DEPTH:
        raise ConfigError(f"{where} nests deeper than {MAX_DEPTH} levels")
    t = type(exp)
    if t in (bool, int, float, complex):
        if t is float and math.isnan(exp) or t is complex and (math.isnan(exp.real) or math.isnan(exp.imag)):
            return f"{path} != {path}"  # NaN: equal_nan, as numpy's assert_allclose
        if t is float and math.isinf(exp) or t is complex and (math.isinf(exp.real) or math.isinf(exp.imag)):
            return f"{path} == {literal(exp, where)}"
        tol = atol + RTOL * abs(exp)
        return f"abs({path} - {literal(exp, where)}) <= {tol!r}"
    if t in (list, tuple):
        parts = [f"isinstance({path}, (list, tuple))", f"len({path}) == {len(exp)}"]
        parts += [_close(f"{path}[{i}]", e, atol, where, depth + 1) for i, e in enumerate(exp)]
        return " and ".join(parts)
    return f"{path} == {literal(exp, where)}"


def expected_output_tests(entry_point: str, inputs: Sequence[Sequence[Any]], outputs: Sequence[Any],
                          atol: float = 0.0) -> list[str]:
    """One assert statement per ``(inputs[i], outputs[i])``: ``entry_point(*inputs[i])`` must give ``outputs[i]``.

    Exact (``assert f(1, 2) == 3``) unless EvalPlus's float rule applies to that output (``atol`` non-zero,
    or the output is a float or a flat list/tuple of floats): then the program's value is bound once and
    compared within the tolerance in the parent (``assert all(abs(out - 0.5) <= 1.05e-06 for out in
    [f(1, 2)])``). See the module doc for the rule and its source.

    Args:
        entry_point: the function the program defines (a Python identifier).
        inputs: one argument list per test (a list or tuple of positional arguments, plain data).
        outputs: the expected value per test (plain data), as many as ``inputs``.
        atol: EvalPlus's absolute tolerance (0: exact, except for float outputs, which get ``1e-6``).

    Raises:
        ConfigError: one line saying what is wrong with the arguments (also: a test longer than the judge's
            `_judge.MAX_TEST_CHARS`).

    Example:
        >>> expected_output_tests("add", [[1, 2]], [3])
        ['assert add(1, 2) == 3']
    """
    if not isinstance(entry_point, str) or not entry_point.isidentifier() or keyword.iskeyword(entry_point):
        raise ConfigError(f"entry_point must be a Python identifier, got {entry_point!r}"[:200])
    for name, seq in (("inputs", inputs), ("outputs", outputs)):
        if isinstance(seq, (str, bytes, dict)) or not isinstance(seq, Sequence):
            raise ConfigError(f"{name} must be a list, got {type(seq).__name__}")
    if len(inputs) != len(outputs):
        raise ConfigError(f"inputs and outputs differ in length ({len(inputs)} vs {len(outputs)})")
    if not inputs:
        raise ConfigError("no tests: inputs and outputs are empty")
    if isinstance(atol, bool) or not isinstance(atol, (int, float)) or not math.isfinite(atol) or atol < 0:
        raise ConfigError(f"atol must be a finite number >= 0, got {atol!r}"[:200])
    tests = []
    for i, (args, exp) in enumerate(zip(inputs, outputs)):
        if type(args) not in (list, tuple):
            raise ConfigError(f"inputs[{i}] must be a list of arguments, got {type(args).__name__}")
        call = f"{entry_point}({', '.join(literal(a, f'inputs[{i}]') for a in args)})"
        tol = float(atol) if atol or not is_floats(exp) else FLOAT_ATOL
        if tol == 0:
            tests.append(f"assert {call} == {literal(exp, f'outputs[{i}]')}")
        else:
            var = "out" if entry_point != "out" else "out_"
            tests.append(f"assert all({_close(var, exp, tol, f'outputs[{i}]')} for {var} in [{call}])")
        if len(tests[-1]) > MAX_TEST_CHARS:
            raise ConfigError(f"inputs[{i}] and outputs[{i}] make a test longer than the judge's {MAX_TEST_CHARS} "
                              "characters")
    return tests
