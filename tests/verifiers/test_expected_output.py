"""Expected-output tests (EvalPlus style): compiled to asserts the judge splits; compared in the parent."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from verifiers.errors import ConfigError
from verifiers.sandbox import CodePool, expected_output_tests
from verifiers.sandbox._judge import plan_tests

ADD = "def f(a, b):\n    return a + b\n"


def test_exact_outputs_compile_to_plain_asserts() -> None:
    assert expected_output_tests("f", [[1, 2], ("a", "b")], [3, "ab"]) == [
        "assert f(1, 2) == 3", "assert f('a', 'b') == 'ab'"]


def test_the_expected_value_is_never_part_of_a_leaf() -> None:
    # what the child receives is the leaves: the call and its inputs, never the expected output
    for tests in (expected_output_tests("f", [[1, 2]], [987654321]),
                  expected_output_tests("f", [[0.25, 0.5]], [0.123456789]),
                  expected_output_tests("f", [[1, 2]], [[987654321.5, "secret"]], atol=1e-3)):
        plans = plan_tests(ADD, tests, "")
        assert all(p.error is None for p in plans), [p.error for p in plans]
        wire = repr([leaf.wire() for p in plans for leaf in p.leaves])
        assert "987654321" not in wire and "0.123456789" not in wire and "secret" not in wire
        assert [len(p.leaves) for p in plans] == [1]  # the program is called once per test


def test_exact_outputs(pool: CodePool) -> None:
    r = pool.run_expected_output(ADD, "f", [[1, 2], [3, 4]], [3, 7])
    assert (r.passed, r.tests_passed) == (True, 2)
    r = pool.run_expected_output("def f(a, b):\n    return a + b + (a == 3)\n", "f", [[1, 2], [3, 4]], [3, 7])
    assert (r.passed, r.tests_passed, r.per_test[1].status) == (False, 1, "failed")
    assert "got 8" in r.per_test[1].detail


def test_float_outputs_get_evalplus_tolerance(pool: CodePool) -> None:
    def run(ret: str, outputs: list[Any], atol: float = 0.0) -> bool:
        return pool.run_expected_output(f"def f(x):\n    return {ret}\n", "f", [[0]] * len(outputs), outputs,
                                        atol=atol).passed
    assert run("0.1 + 0.2", [0.3])  # float output: atol 1e-6 by default (is_floats)
    assert not run("0.3 + 2e-6", [0.3])
    assert run("0.3 + 2e-6", [0.3], atol=1e-5)
    assert run("1e9 + 50", [1e9])  # rtol 1e-7: 1e9 * 1e-7 = 100
    assert not run("1e9 + 150", [1e9])
    assert run("[0.5, 0.25 + 1e-8]", [[0.5, 0.25]])  # a flat list of floats
    assert not run("[0.5]", [[0.5, 0.25]])
    assert not run("0.5", [[0.5]])  # no broadcasting
    assert run("3", [3.0]) and not run("4", [3.0])
    assert not run("'0.3'", [0.3])  # a string is not close to a number
    assert run("float('inf')", [float("inf")]) and not run("float('-inf')", [float("inf")])
    assert not run("1e308", [float("inf")])


def test_nan(pool: CodePool) -> None:
    assert pool.run_expected_output("def f():\n    return float('nan')\n", "f", [[]], [math.nan]).passed
    assert pool.run_expected_output("def f():\n    return [1.0, float('nan')]\n", "f", [[]], [[1.0, math.nan]]).passed
    assert not pool.run_expected_output("def f():\n    return 0.0\n", "f", [[]], [math.nan]).passed
    assert not pool.run_expected_output("def f():\n    return float('nan')\n", "f", [[]], [0.0]).passed
    # an int output is compared exactly (not is_floats): NaN is not equal to it
    assert not pool.run_expected_output("def f():\n    return float('nan')\n", "f", [[]], [1]).passed


def test_nested_tuples_and_lists(pool: CodePool) -> None:
    tup = "def f():\n    return (1, (2, 3))\n"
    assert pool.run_expected_output(tup, "f", [[]], [(1, (2, 3))]).passed
    assert not pool.run_expected_output(tup, "f", [[]], [[1, [2, 3]]]).passed  # exact: a tuple is not a list
    assert not pool.run_expected_output(tup, "f", [[]], [(1, [2, 3])]).passed
    # under the float rule (numpy's allclose) lists and tuples compare alike, as in EvalPlus
    floats = "def f():\n    return (1.0, (2.0, 3.0))\n"
    assert pool.run_expected_output(floats, "f", [[]], [[1.0, [2.0, 3.0]]], atol=1e-9).passed
    assert not pool.run_expected_output(floats, "f", [[]], [[1.0, [2.0, 3.5]]], atol=1e-9).passed
    # inputs keep their types: the program sees a tuple where the test gives one
    r = pool.run_expected_output("def f(x, y):\n    return [type(x).__name__, type(y).__name__]\n", "f",
                                 [[(1, 2), {"a": {1, 2}}]], [["tuple", "dict"]])
    assert r.passed, r.detail


LIAR_METHODS = ("    def __eq__(self, other): return True\n"
                "    def __ne__(self, other): return False\n"
                "    def __sub__(self, other): return 0.0\n"
                "    def __abs__(self): return 0.0\n"
                "    def __len__(self): return 2\n"
                "    def __getitem__(self, i): return self\n"
                "    __hash__ = object.__hash__\n")


@pytest.mark.parametrize("output", [3, 0.5, [1.0, 2.0], "x"])
@pytest.mark.parametrize(("base", "detail"), [
    ("object", "unsupported value"),  # not plain data: the judge takes no such value
    ("float", "got 0.0"),  # a float subclass travels as the plain float it holds: its methods never run here
])
def test_an_object_with_a_lying_eq_fails(pool: CodePool, output: Any, base: str, detail: str) -> None:
    liar = f"class Liar({base}):\n{LIAR_METHODS}\ndef f():\n    return Liar({'0.0' if base == 'float' else ''})\n"
    r = pool.run_expected_output(liar, "f", [[]], [output], atol=1e-3 if output == "x" else 0.0)
    assert not r.passed and r.tests_passed == 0
    assert detail in r.per_test[0].detail, r.per_test[0]


@pytest.mark.parametrize(("args", "why"), [
    (("1f", [[1]], [1]), "entry_point must be a Python identifier"),
    (("class", [[1]], [1]), "entry_point must be a Python identifier"),
    (("f", [[1], [2]], [1]), "inputs and outputs differ in length (2 vs 1)"),
    (("f", [], []), "no tests"),
    (("f", "12", [1, 2]), "inputs must be a list, got str"),
    (("f", [1], [1]), "inputs[0] must be a list of arguments, got int"),
    (("f", [[object()]], [1]), "inputs[0] holds a object; inputs and outputs must be plain data"),
    (("f", [[1]], [Path("x")]), "outputs[0] holds a PosixPath"),
    (("f", [[1]], [1], -1.0), "atol must be a finite number >= 0, got -1.0"),
    (("f", [[1]], [1], math.nan), "atol must be a finite number >= 0"),
    (("f", [[1]], [1], True), "atol must be a finite number >= 0"),
])
def test_bad_arguments_say_what_is_wrong_in_one_line(args: tuple[Any, ...], why: str) -> None:
    with pytest.raises(ConfigError) as err:
        expected_output_tests(*args)
    assert why in str(err.value) and "\n" not in str(err.value)


def test_a_test_too_long_for_the_judge_is_refused_up_front() -> None:
    with pytest.raises(ConfigError, match=r"inputs\[1\] and outputs\[1\] make a test longer than"):
        expected_output_tests("f", [[1], ["x" * 200_000]], [1, 2])


def test_deep_nesting_is_refused() -> None:
    deep: Any = 1
    for _ in range(100):
        deep = [deep]
    with pytest.raises(ConfigError, match="nests deeper than"):
        expected_output_tests("f", [[deep]], [1])


def test_humaneval_canonical_solutions_as_expected_outputs(pool: CodePool, data_dir: Path) -> None:
    # three HumanEval problems, expected outputs computed here by their canonical solutions (trusted code)
    rows = {r["task_id"]: r for r in map(json.loads, (data_dir / "humaneval" / "HumanEval.jsonl").open())}
    cases = {
        "HumanEval/0": [[[1.0, 2.0, 3.0], 0.5], [[1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3], [[1.1, 2.2, 3.1], 0.05]],
        "HumanEval/2": [[3.5], [1.33], [123.456]],
        "HumanEval/4": [[[1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0, 4.0]], [[-1.5, 0.25, 7.0]]],
    }
    for task_id, inputs in cases.items():
        row = rows[task_id]
        solution = row["prompt"] + row["canonical_solution"]
        ns: dict[str, Any] = {}
        exec(solution, ns)  # noqa: S102 - the dataset's own reference solution
        outputs = [ns[row["entry_point"]](*inp) for inp in inputs]
        good = pool.run_expected_output(solution, row["entry_point"], inputs, outputs)
        assert good.passed and good.tests_passed == 3, (task_id, good.detail)
        wrong = solution + f"\n\n_right = {row['entry_point']}\n" + (
            f"def {row['entry_point']}(*a):\n    r = _right(*a)\n    return (not r) if isinstance(r, bool) else r + 1e-3\n")
        bad = pool.run_expected_output(wrong, row["entry_point"], inputs, outputs)
        assert bad.tests_passed == 0, (task_id, bad.per_test)
