"""The parent-side judge: what stays in the parent, what goes to the sandbox, budgets, and a differential
property test: for honest programs the judge's verdict per test equals plain Python's."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifiers.errors import SandboxError
from verifiers.sandbox import CodePool
from verifiers.sandbox._judge import judge, plan_test, plan_tests
from verifiers.sandbox._setup import setup_scope


def _names(plan: object) -> list[str | None]:
    return [leaf.name for leaf in plan.leaves]  # type: ignore[attr-defined]


def test_closed_sides_and_comparisons_stay_in_the_parent() -> None:
    p = plan_test("assert sorted(f(1)) == sorted([3, 1, 2]) and len(f(2)) == len('abc')")
    assert _names(p) == ["f", "f"]  # only the program's calls run in the sandbox
    assert p.tree[0] == "and" and p.tree[1][0][2][0][1] == ("lit", [1, 2, 3])
    p = plan_test("assert math.isclose(f(1), math.sqrt(2), rel_tol=1e-3)")
    assert _names(p) == ["f"] and p.tree[0] == "call" and p.tree[1] == "math.isclose"
    p = plan_test("assert f(1) == [x * 2 for x in range(3)]")  # a comprehension binds x locally: still closed
    assert p.tree[2][0][1] == ("lit", [0, 2, 4])


def test_an_expected_side_that_raises_stays_an_error() -> None:
    p = plan_test("assert f(1) == int('seven')")
    assert p.tree[2][0][1][0] == "err"
    ok, why = judge(p, {p.leaves[0].index: 7}, {})
    assert not ok and "ValueError" in why


def test_names_the_program_defines_do_not_move_tests_into_the_sandbox() -> None:
    code = "def set(*a):\n    return 0\ndef sorted(x):\n    return x\ndef f(x):\n    return [x]\n"
    for t in ("assert set(f(1)) == set([4, 5])", "assert sorted(f(1)) == sorted([2, 1])"):
        p = plan_tests(code, [t], "")[0]
        assert _names(p) == ["f"], t
    # A builtin name is the program's entry point only as the subject of a test that calls nothing else.
    p = plan_tests("def sum(a, b):\n    return a\n", ["assert sum(1, 2) == sum([1])"], "")[0]
    assert _names(p) == ["sum"] and p.tree[2][0][1] == ("lit", 1)
    assert _names(plan_tests("sum = lambda a, b: a\n", ["assert sum(1, 2) == 1"], "")[0]) == []


def test_set_up_imports_resolve_in_the_parent_and_other_set_up_names_in_the_sandbox() -> None:
    import math

    setup = "import math\nfrom math import isclose as near\nimport os\nroot = Node(1)"
    scope = setup_scope(setup)
    assert scope.env == {"math": math, "near": math.isclose} and scope.program == {"root"}
    assert scope.foreign == {"os"}
    p = plan_tests("", ["assert near(depth(root), 1.0)"], setup)[0]
    assert p.tree[1] == "math.isclose" and [leaf.source for leaf in p.leaves] == ["depth(root)"]


def test_leaves_carry_closed_inputs_as_values() -> None:
    p = plan_test("assert f([1, 2], key=(3, 'a')) == 0")
    assert p.leaves[0].values == ([[1, 2]], [["key", {"t": [3, "a"]}]])
    p = plan_test("assert f(x=g(2), y=[1, 2][0]) == 0")  # a nested program call: an expression leaf
    assert p.leaves[0].name is None and p.leaves[0].values == (1,)


def test_parent_work_on_program_values_is_bounded() -> None:
    from verifiers.sandbox._protocol import MAX_SAME_HASH

    for test, value in (("assert f(1) * 10 ** 9 == 0", [1]), ("assert 2 ** f(1) == 0", 10 ** 7),
                        ("assert math.factorial(f(1)) == 0", 10 ** 6), ("assert set(f(1)) == set()",
                                                                         [k * (2 ** 61 - 1) for k in range(MAX_SAME_HASH * 4)]),
                        ("assert round(f(1), -10 ** 9) == 0", 5)):
        p = plan_test(test)
        ok, why = judge(p, {p.leaves[0].index: value}, {})
        assert not ok and ("too large" in why or "hash" in why), (test, why)


# ------------------------------------------------------------------------------------------- differential

_VALUES = {
    "int": "x * 3 - 1", "neg": "-x", "float": "x / 4", "str": "str(x) * 2", "list": "list(range(x))",
    "tuple": "(x, x + 1)", "dict": "{str(i): i for i in range(x)}", "set": "set(range(x % 4))",
    "nested": "[[i, (i, str(i))] for i in range(x)]", "bool": "x % 2 == 0", "none": "None",
}
_WRAPS = ["{}", "len({})", "sorted({})", "set({})", "str({})", "list({})", "tuple({})", "sum({})", "abs({})",
          "max({})", "min({})", "bool({})", "math.isclose({}, 1.25)", "round({}, 1)", "{}[0]", "{}[1:]",
          "{} * 2", "{} + {}",
          # evaluated in the judge since the red team's round: comprehensions and generators (unrolled over
          # closed iterables, looped over program values), map/filter over lambdas, pure methods, modules
          "[v for v in {}]", "sum(1 for _ in {})", "list(map(lambda v: v, {}))", "[{} for _ in range(2)]",
          "all(v == v for v in {})", "{}.count(1)", "str({}).upper()", "str({}).startswith('1')",
          "operator.add({}, {})", "list(filter(lambda v: v, {}))", "dict((k, v) for k, v in {}.items())"]
_EXPECTED = ["0", "1", "1.25", "'11'", "[0, 1]", "(1, 2)", "{'0': 0}", "{0, 1}", "True", "None", "[]",
             "set()", "8", "[[0, (0, '0')]]", "len([1, 2, 3])", "sorted([2, 1])", "math.sqrt(4)", "(2, 3)"]
_OPS = ["==", "!=", "<", "in", "not in", ">="]


@st.composite
def _case(draw: st.DrawFn) -> tuple[str, list[str]]:
    kind = draw(st.sampled_from(sorted(_VALUES)))
    code = f"import math\nimport operator\ndef f(x):\n    return {_VALUES[kind]}\n"
    tests = []
    for _ in range(draw(st.integers(1, 3))):
        arg = draw(st.integers(0, 5))
        wrap = draw(st.sampled_from(_WRAPS)).replace("{}", f"f({arg})")
        test = f"assert {wrap} {draw(st.sampled_from(_OPS))} {draw(st.sampled_from(_EXPECTED))}"
        if draw(st.booleans()):
            test = f"assert not ({test[7:]})" if draw(st.booleans()) else f"{test} or f({arg}) == f({arg})"
        if draw(st.integers(0, 4)) == 0:  # a program call per closed item, inside any()/all()
            test = f"assert {draw(st.sampled_from(['all', 'any']))}(f(i) {draw(st.sampled_from(_OPS))} " \
                   f"{draw(st.sampled_from(_EXPECTED))} for i in range({arg}))"
        tests.append(test)
    return code, tests


_PLAIN = """
import json, sys
code, tests = json.loads(sys.stdin.read())
out = []
for t in tests:
    g = {"__name__": "__main__"}
    try:
        exec(code, g)
        exec(t, g)
        out.append(True)
    except BaseException:
        out.append(False)
print(json.dumps(out))
"""


def _plain_python(code: str, tests: list[str]) -> list[bool]:
    """Each test's verdict in a fresh interpreter: exec the program, then the assert, in one namespace."""
    proc = subprocess.run([sys.executable, "-I", "-c", _PLAIN], input=json.dumps([code, tests]), text=True,
                          capture_output=True, timeout=60, check=True)
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def pool():
    try:
        p = CodePool(workers=2, timeout_s=5.0).start()
    except SandboxError as exc:
        pytest.skip(f"bubblewrap sandbox unavailable: {exc}")
    yield p
    p.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_case())
def test_verdicts_match_plain_python(pool: CodePool, case: tuple[str, list[str]]) -> None:
    code, tests = case
    r = pool.run(code, tests)
    got = [t.status == "passed" for t in r.per_test]
    assert got == _plain_python(code, tests), (code, tests, r.per_test)


# ------------------------------------------------------------------------------ red team round (issue 14)

_SECRET_SHAPES = [  # each hides 987654 as an expected value or a comparison operand
    "assert all(f(x) == y for x, y in [(1, 987654), (3, 987654)])",
    "assert sum(f(x) == 987654 for x in [1, 2]) == 2",
    "assert list(map(lambda x: f(x) == 987654, [1])) == [True]",
    "assert list(filter(lambda x: f(x) == 987654, [1, 2])) == [2]",
    "assert [f(1) == 987654][0]",
    "assert f('abc').startswith('987654')",
    "assert f([3, 1]).issubset({987654})",
    "assert re.fullmatch(r'987654', f(1))",
    "assert cmath.isclose(f(1), 987654 + 4j)",
    "assert operator.eq(f(1), 987654)",
    "assert f(1).count(5) == 987654",
    "assert {k: f(k) for k in (1, 2)} == {1: 987654}",
]


@pytest.mark.parametrize("test", _SECRET_SHAPES)
def test_no_comparison_or_expected_value_reaches_a_leaf(test: str) -> None:
    p = plan_test(test)
    assert p.tree is not None, p.error
    for leaf in p.leaves:
        assert leaf.name == "f" and "987654" not in json.dumps(leaf.wire()), leaf
        assert "==" not in leaf.source and "lambda" not in leaf.source


@pytest.mark.parametrize(("test", "setup", "why"), [
    ("assert check(f)", "def check(candidate):\n    return candidate(1) == 2", "set-up code's function"),
    ("assert f(1) == date(2020, 1, 2)", "from datetime import date", "imported by the set-up code"),
    ("assert all(f(x) > 0 for x in g(3))", "", "per item of a program value"),
    ("assert getattr(f(1), 'x') == 2", "", "test value"),
    ("assert re.match(f(1), 'aaa')", "", "pattern"),
    ("assert f(1) == next(it)", "it = iter([1, 2])", "one-shot iterator"),
])
def test_shapes_that_would_judge_beside_the_program_are_refused(test: str, setup: str, why: str) -> None:
    p = plan_tests("", [test], setup)[0]
    assert p.tree is None and p.error is not None and p.error.startswith("unsupported test shape") and why in p.error


def test_one_shot_iterators_are_fresh_for_every_judgement() -> None:
    p = plan_test("assert f(5) not in (i * i for i in range(10))")
    for _ in range(3):  # the same cached plan judges many programs
        assert judge(p, {p.leaves[0].index: 4}, {})[0] is False
        assert judge(p, {p.leaves[0].index: 101}, {})[0] is True


def test_set_up_code_binds_in_the_parent_what_it_can() -> None:
    import math

    setup = ("from math import *\nexpected = [1, 2, 3]\nexpected.append(4)\n"
             "def approx(a, b):\n    return abs(a - b) < 1e-9\nroot = Node(1)\ndef run():\n    return f(1)\n")
    scope = setup_scope(setup)
    assert scope.env["sqrt"] is math.sqrt and scope.env["expected"] == [1, 2, 3, 4] and callable(scope.env["approx"])
    assert scope.program == {"root"} and "run" in scope.refused
    p = plan_tests("", ["assert f(16) == sqrt(16) and f(0) == expected and approx(f(1), 1.0)"],
                   "from math import *\nexpected = [1, 2, 3]\ndef approx(a, b):\n    return abs(a - b) < 1e-9\n")[0]
    assert [leaf.name for leaf in p.leaves] == ["f", "f", "f"]
    assert setup_scope(setup) is scope  # cached: RL scores the same set-up code many times
