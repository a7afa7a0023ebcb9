"""The parent-side judge: what stays in the parent, what goes to the sandbox, budgets, and a differential
property test: for honest programs the judge's verdict per test equals plain Python's."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from verifiers.sandbox import CodePool
from verifiers.sandbox._evaluate import judge
from verifiers.sandbox._judge import plan_test, plan_tests
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
          "operator.add({}, {})", "list(filter(lambda v: v, {}))", "dict((k, v) for k, v in {}.items())",
          # round 3: builtin-type methods with arguments, introspection of plain values, parent modules
          "str({}).find('1')", "{}.index(0)", "set({}).difference({1})", "isinstance({}, list)", "type({}) is int",
          "json.loads(json.dumps({}))", "copy.deepcopy({})", "sorted(str(v) for v in {})"]
_EXPECTED = ["0", "1", "1.25", "'11'", "[0, 1]", "(1, 2)", "{'0': 0}", "{0, 1}", "True", "None", "[]",
             "set()", "8", "[[0, (0, '0')]]", "len([1, 2, 3])", "sorted([2, 1])", "math.sqrt(4)", "(2, 3)"]
_OPS = ["==", "!=", "<", "in", "not in", ">="]


@st.composite
def _case(draw: st.DrawFn) -> tuple[str, list[str]]:
    kind = draw(st.sampled_from(sorted(_VALUES)))
    code = f"import copy\nimport json\nimport math\nimport operator\ndef f(x):\n    return {_VALUES[kind]}\n"
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



@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
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
    ("assert f(1) == getcwd()", "from os import getcwd", "bound by the set-up code beside the program"),
    ("assert f(1) == date(2020, 1, 2)", "from datetime import date", "no program value can equal"),
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


# ------------------------------------------------------------------------------ red team round 3 (issue 14)
# R1: program code never receives test data that decides a comparison.

_R1_SHAPES = [  # each hides 987654 (or "qx987654") in a builtin-type method's arguments or in a predicate
    "assert f('the quick fox').find('qx987654') != -1",
    "assert f('abc').count('qx987654') == 1",
    "assert f(1).index(987654) == 0",
    "assert not f(10).difference({987654, 3})",
    "assert f(10).symmetric_difference({987654}) == set()",
    "assert f({}).get(987654) == 1",
    "assert any(w.startswith('qx987654') for w in f(['a']))",
    "assert all(w.isupper() and w != 'qx987654' for w in f('ab cd'))",
    "assert sorted(w.lower() for w in f(1) if w != 'qx987654') == []",
    "assert f('a b')['qx987654']",
    "assert f('a b')[987654:] == []",
]


@pytest.mark.parametrize("test", _R1_SHAPES)
def test_builtin_methods_of_returned_values_never_reach_the_program(test: str) -> None:
    p = plan_test(test)
    assert p.tree is not None, p.error
    for leaf in p.leaves:
        wire = json.dumps(leaf.wire())
        assert leaf.name == "f" and "987654" not in wire and wire.endswith("[]]"), leaf
        assert leaf.wrap is None, leaf  # nothing of the test is ever evaluated beside the program
    # A program object in place of the plain value fails the test (the child reports it as not plain data).
    errors = {leaf.index: "returned an unsupported value (R is not plain data)" for leaf in p.leaves}
    assert judge(p, {}, errors)[0] is False


def test_only_projections_and_one_argument_builtins_wrap_a_program_object() -> None:
    p = plan_test("assert sorted(str(q) for q in f(1)) == ['a'] and len(g(2)) == 2 and "
                  "{str(q): len(q) for q in h(3)} == {} and [(q, str(q)) for q in k(4)] == []")
    assert [leaf.wrap for leaf in p.leaves] == ["[str(q) for q in __leafvalue__]", "len(__leafvalue__)",
                                                "{str(q): len(q) for q in __leafvalue__}",
                                                "[(q, str(q)) for q in __leafvalue__]"]
    for shape in ("assert [str(q) + 'x' for q in f(1)] == ['ax']", "assert [q for q in f(1) if str(q)] == []",
                  "assert [q.lower() for q in f(1)] == ['a']", "assert [q == 'a' for q in f(1)] == [True]",
                  "assert [str(q, 'x') for q in f(1)] == []", "assert [max(q, 2) for q in f(1)] == [2]",
                  "assert sorted(f(1), key=len) == []", "assert math.isclose(f(1), 2.5)"):
        p = plan_test(shape)
        assert p.tree is not None and all(leaf.wrap is None for leaf in p.leaves), shape


def test_methods_of_objects_the_test_names_are_calls_into_the_program() -> None:
    setup = "cache = Cache()\ns = Stack()\ns.push(1)\nroot = Node(1)"
    code = "class Cache:\n    pass\nclass Stack:\n    pass\nclass Node:\n    pass\n"
    for test, source in (("assert cache.get(1) == 'one'", "cache.get(1)"), ("assert s.pop() == 1", "s.pop()"),
                         ("assert root.left.count(2) == 0", "root.left.count(2)"),
                         ("assert root.left.val == 2", "root.left.val")):
        p = plan_tests(code, [test], setup)[0]
        assert [leaf.source for leaf in p.leaves] == [source], test
    for test in ("assert f(1).__eq__(5)", "assert f('a').find(*['q']) == 0", "assert cache.__contains__(1)"):
        p = plan_tests(code, [test], setup)[0]
        assert p.tree is None and "handed to" in (p.error or ""), (test, p.error)


# R2: judge functions over program-side names are applied here, on the name's value.

def test_judge_functions_over_program_names_fetch_the_value() -> None:
    p = plan_tests("", ["assert acc.total() == sum(vals) + len(vals)"], "vals = make_list()\nacc = Account(vals)")[0]
    assert sorted(leaf.source for leaf in p.leaves) == ["acc.total()", "vals", "vals"]
    values = {leaf.index: (6 if leaf.source == "acc.total()" else [1, 2]) for leaf in p.leaves}
    assert judge(p, values, {}) == (False, "assertion failed (got 6, [1, 2])")
    values = {leaf.index: (5 if leaf.source == "acc.total()" else [1, 2]) for leaf in p.leaves}
    assert judge(p, values, {})[0] is True


@pytest.mark.parametrize(("test", "setup"), [
    ("assert isinstance(s, Stack)", "s = object()"),
    ("assert isinstance(make_point(1, 2), Point)", ""),
    ("assert isinstance(f(1), (int, Point))", ""),
    ("assert issubclass(Square, Shape)", ""),
    ("assert callable(solve)", ""),
    ("assert type(f(1)).__name__ == 'int'", ""),
])
def test_introspection_of_program_classes_and_objects_is_refused(test: str, setup: str) -> None:
    p = plan_tests("", [test], setup)[0]
    assert p.tree is None and (p.error or "").startswith("unsupported test shape"), (test, p.error)
    assert "process could answer" in (p.error or "")


def test_introspection_of_plain_data_stays_in_the_parent() -> None:
    p = plan_test("assert isinstance(f(1), int) and type(f(2)) is list")
    assert _names(p) == ["f", "f"] and all(leaf.wrap is None for leaf in p.leaves)
    assert judge(p, {p.leaves[0].index: 1, p.leaves[1].index: [1]}, {})[0] is True
    assert judge(p, {p.leaves[0].index: "1", p.leaves[1].index: [1]}, {})[0] is False


def test_set_up_data_handed_to_the_program_stays_pristine_for_the_test() -> None:
    setup = "nums = [4, 1, 3]\nacc = Account(nums)\nprint(nums)"
    scope = setup_scope(setup)
    assert scope.env["nums"] == [4, 1, 3] and scope.shared == {"nums"} and scope.program == {"acc"}
    p = plan_tests("", ["assert acc.balance() == sum(nums)"], setup)[0]
    assert [leaf.source for leaf in p.leaves] == ["acc.balance()"] and p.tree[2][0][1] == ("lit", 8)
    # A test that reads no other program name checks what the program did to the data in place.
    p = plan_tests("", ["assert lst == [1, 3, 4] and lst.count(3) == 1"], "lst = [4, 1, 3]\nsort_in_place(lst)")[0]
    assert [leaf.source for leaf in p.leaves] == ["lst", "lst"]
    assert judge(p, {p.leaves[0].index: [1, 3, 4], p.leaves[1].index: [1, 3, 4]}, {})[0] is True
    assert judge(p, {p.leaves[0].index: [4, 1, 3], p.leaves[1].index: [4, 1, 3]}, {})[0] is False


def test_random_set_up_data_is_drawn_in_the_parent() -> None:
    import random

    setup = "import random\nrandom.seed(0)\ndata = [random.randint(0, 100) for _ in range(20)]"
    state = random.getstate()
    p = plan_tests("", ["assert my_sort(data) == sorted(data)"], setup)[0]
    assert random.getstate() == state  # the process's generator is untouched
    random.seed(0)
    expected = [random.randint(0, 100) for _ in range(20)]
    assert p.leaves[0].values == ([expected], []) and p.tree[2][0][1] == ("lit", sorted(expected))


# R3: what set-up code computes beside the program is never a test's own value.

def test_set_up_values_are_tainted_by_what_computes_them() -> None:
    setup = ("import json, copy, os\nfrom datetime import date\nbase = [3, 1, 2]\n"
             "a = json.loads('[[1, 2]]')\nb = copy.deepcopy(base)\nb.sort()\nc = date(2020, 1, 2).isoformat()\n"
             "print(a, b, c)\nassert b\n"  # read-only statements taint nothing
             "d = os.getcwd()\ne = [d, 1]\nwith open('x') as fh:\n    g = fh.read()\n"
             "h = [1]\nh.append(f(0))\nk = [2]\nk.append(len(d))\nr = Node(1)\n")
    scope = setup_scope(setup)
    assert scope.env["a"] == [[1, 2]] and scope.env["b"] == [1, 2, 3] and scope.env["c"] == "2020-01-02"
    assert scope.foreign == {"os", "d", "e", "fh", "g", "k"} and scope.program == {"r"}
    assert "beside the program" in scope.refused["h"]  # `h.append(f(0))`: not a program call's own result
    for name in ("d", "e", "g", "k"):
        p = plan_tests("", [f"assert f(1) == {name}", f"assert sorted({name}) == f(2)"], setup)
        assert all(q.tree is None and "beside the program" in (q.error or "") for q in p), name
    p = plan_tests("", ["assert f(d) == 1"], setup)[0]  # a foreign value may still be the program's input
    assert [leaf.source for leaf in p.leaves] == ["f(d)"]


# R5: a judgement never changes what another judgement reads.

def _judge_many(test: str, setup: str, rounds: list[Any]) -> list[bool]:
    out = []
    for value in rounds:
        p = plan_tests("", [test], setup)[0]
        out.append(judge(p, {leaf.index: value for leaf in p.leaves}, {})[0])
    return out


@pytest.mark.parametrize(("test", "setup", "right", "wrong"), [
    ("assert all_found(f(12), [1, 2, 3])", ("def all_found(found, expected):\n    for v in found:\n"
                                             "        expected.remove(v)\n    return not expected"), [1, 2, 3], []),
    ("assert functools.reduce(lambda acc, x: acc.append(x) or acc, f(6), []).count(4) == 1", "import functools",
     [4], [5]),
    ("assert remember(f(1))", "seen = []\ndef remember(v):\n    seen.append(v)\n    return 4 in seen", 4, 5),
    ("assert f(1) == expected.pop()", "expected = [3, 2]", 2, 3),
    ("assert all(f(1) != x for x in stash.pop())", "stash = [[1], [2]]", 3, 2),
    ("assert f(1) == Box(2)", ("class Box:\n    n = []\n    def __init__(self, v):\n        self.v = v\n"
                               "    def __eq__(self, o):\n        Box.n.append(o)\n"
                               "        return o == self.v and len(Box.n) == 1"), 2, 3),
])
def test_a_judgement_never_changes_what_later_ones_read(test: str, setup: str, right: Any, wrong: Any) -> None:
    rounds = [wrong, right, right, wrong, right, wrong]
    expected = [False, True, True, False, True, False]
    assert _judge_many(test, setup, rounds) == expected
    plan_test.cache_clear()  # and from cold caches, in another order
    assert _judge_many(test, setup, rounds[::-1]) == expected[::-1]
    scope = setup_scope(setup)
    fresh = setup_scope.__wrapped__(setup)  # type: ignore[attr-defined]
    assert {k: v for k, v in scope.env.items() if not callable(v)} == {k: v for k, v in fresh.env.items() if not callable(v)}


def test_pure_checks_stay_cached_and_stateful_ones_are_planned_per_program() -> None:
    setup = ("import math\ndef approx(a, b):\n    return abs(a - b) <= 1e-9 * max(1, abs(b))\n"
             "def near_all(xs, ys):\n    return len(xs) == len(ys) and all(approx(x, y) for x, y in zip(xs, ys))\n"
             "seen = []\ndef logged(v):\n    seen.append(v)\n    return v\n")
    for test, private in (("assert approx(f(1), math.pi)", False), ("assert near_all(f(1), [1.0, 2.0])", False),
                          ("assert sorted(f(1), key=lambda t: t[1]) == []", False),
                          ("assert logged(f(1)) == 1", True),
                          ("assert max(f(1), key=lambda t: seen.append(t) or 0) == 1", True)):
        assert plan_test(test, 0, frozenset(), setup).private is private, test
        p1, p2 = plan_tests("", [test], setup)[0], plan_tests("", [test], setup)[0]
        assert (p1.tree is p2.tree) is not private, test  # private plans are each program's own
    cached = plan_test("assert logged(f(1)) == 1", 0, frozenset(), setup)
    for _ in range(3):  # judging the cached private plan itself plans a copy: the cached one never runs
        assert judge(cached, {0: 1}, {}) == (True, "") and judge(cached, {0: 2}, {})[0] is False


# R6: one judge work budget per program.

def test_judge_work_is_bounded_per_program() -> None:
    from verifiers.sandbox._pure import MAX_JUDGE_STEPS

    tests = ["assert all(isinstance(x, int) and x >= 0 for x in f(1))", "assert f(2) == 1"]
    p1, p2 = plan_tests("", tests, "")
    values = {p1.leaves[0].index: [0] * 500_000, p2.leaves[0].index: 1}
    ok, why = judge(p1, values, {})
    assert not ok and "judge work budget exceeded" in why and str(MAX_JUDGE_STEPS) in why
    ok, why = judge(p2, values, {})  # the same program's next test: not judged at all
    assert not ok and why.startswith("not judged")
    # Quadratic shapes: the operand sizes are charged per loop item.
    p = plan_test("assert all(x in f(1) for x in f(2))")
    big = list(range(50_000))
    assert "budget" in judge(p, {p.leaves[0].index: big, p.leaves[1].index: big}, {})[1]


@pytest.mark.parametrize(("test", "value"), [
    ("assert all(0 <= x < 5_000 for x in f(1))", list(range(5_000))),
    ("assert sorted(f(1)) == list(range(50_000))", list(range(50_000))[::-1]),
    ("assert all(f(i) == i * i for i in range(2_000))", None),
    ("assert sum(len(w) for w in f(1)) == 15_000", ["abc"] * 5_000),
    ("assert all(v in {1, 2, 3} for v in f(1))", [1, 2, 3] * 1_000),
])
def test_honest_shapes_fit_the_budget_with_a_wide_margin(test: str, value: Any) -> None:
    from verifiers.sandbox._pure import MAX_JUDGE_STEPS

    p = plan_tests("", [test], "")[0]
    values = {leaf.index: (value if value is not None else i * i) for i, leaf in enumerate(p.leaves)}
    assert judge(p, values, {}) == (True, "")
    assert p.budget is not None and MAX_JUDGE_STEPS - p.budget.left < MAX_JUDGE_STEPS // 2, test


# R1, round 3 follow-up: what a NAMED program value is (the program's object, or a value a function returned).

_SPLIT = "words = split_words('a b a')"


@pytest.mark.parametrize(("code", "kind"), [
    ("class C:\n    def get(self, k): return 1\n", "class"),
    (("class C:\n    def m(self): return C(1)\nclass D(C): pass\nxs = [C(v) for v in range(3)]\n"
      "import re\np = re.compile('a')\nassert isinstance(xs[0], C)\n"), "class"),
    ("def C(x): return x\n", "none"),
    ("C = lambda s: 1\n", "none"),
    ("@dataclass\nclass C:\n    x: int\n", "unsettled"),
    ("X = '''\nclass C:\n'''\ndef C(s): return 1\n", "unsettled"),  # a class statement only inside a string
    ("X = '''\nclass C:\n'''\n", "unsettled"),
    ("class C: pass\nC = f\n", "unsettled"),
    ("class C: pass\nif True:\n    C = f\n", "unsettled"),
    ("class C: pass\nglobals()['C'] = f\n", "unsettled"),
    ("class C: pass\nimport sys\nsetattr(sys.modules[__name__], 'C', f)\n", "unsettled"),
    ("class C: pass\nfor C in [1]: pass\n", "unsettled"),
    ("class C: pass\nimport os as C\n", "unsettled"),
    ("class C: pass\n(a, C) = 1, 2\n", "unsettled"),
    ("class C: pass\n[C := 1]\n", "unsettled"),
    ("class C: pass\ndef g():\n    global C\n    C = 1\n", "unsettled"),
    ("class C: pass\nfrom m import *\n", "unsettled"),
    ("def f():\n    class C: pass\n    return C\n", "unsettled"),
    ("class C: pass\nclass C: pass\n", "unsettled"),
])
def test_program_classes_are_read_from_the_programs_tokens(code: str, kind: str) -> None:
    from verifiers.sandbox._judge import program_class

    assert program_class(code, "C") == kind


def test_a_name_bound_to_what_a_program_function_returns_is_a_value() -> None:
    from verifiers.sandbox._judge import name_roles

    def roles(code: str, tests: list[str], setup: str) -> tuple[set[str], set[str]]:
        objects, unsettled = name_roles(code, tuple(tests), setup)
        return set(objects), set(unsettled)

    # 1. members no plain value has, read anywhere by the dataset: an object, whatever made it.
    assert roles("def build(v): pass", ["assert root.count(2) == 1"], "root = build([1])\nroot.left = None") == (
        {"root"}, set())
    # 2. the tests use the function's results as data: a value, even when the program makes it a class.
    dodge = "class split_words:\n    def count(self, x): return 2\n"
    assert roles(dodge, ["assert words.count('a') == 2", "assert split_words('x') == ['x']"], _SPLIT) == (set(), set())
    assert roles(dodge, ["assert words.count('a') == 2", "assert words == ['a', 'b', 'a']"], _SPLIT) == (set(), set())
    # 3. otherwise the program's code: a def (or lambda) makes a value, a settled class an object, an
    # unsettled class is refused. A plain class of the function's name with nothing else in the dataset is
    # indistinguishable from an honest class task (`cache = Cache(); cache.get(1)`): an object (`name_roles`).
    assert roles("def split_words(s): return s.split()", ["assert words.count('a') == 2"], _SPLIT) == (set(), set())
    assert roles(dodge, ["assert words.count('a') == 2"], _SPLIT) == ({"words"}, set())
    assert roles("@dataclass\n" + dodge, ["assert words.count('a') == 2"], _SPLIT) == (set(), {"words"})
    # 4. a set-up name bound otherwise is unsettled; a program global the test names is a value.
    assert roles("", ["assert n.count(3) == 1 and xs[0] == 1 and g.get(1) == 2"],
                 "t = Tree()\nn = t.find(3)\nxs = [Node(1)]") == (set(), {"n", "xs"})


def test_methods_and_subscripts_of_returned_values_named_by_set_up_are_the_judges() -> None:
    code = "def split_words(s):\n    return s.split()\n"
    p = plan_tests(code, ["assert words.count('qx987654') == 2 and words[987654] == 'a'"], _SPLIT)[0]
    assert p.tree is not None and [leaf.source for leaf in p.leaves] == ["words", "words"]
    for leaf in p.leaves:
        assert "987654" not in json.dumps(leaf.wire()) and leaf.wrap is None
    errors = {leaf.index: "returned an unsupported value (R is not plain data)" for leaf in p.leaves}
    assert judge(p, {}, errors)[0] is False
    assert judge(p, {leaf.index: ["a"] * 987655 for leaf in p.leaves}, {})[0] is False
    p = plan_tests("@fake\nclass split_words:\n    pass\n", ["assert words.count('a') == 2"], _SPLIT)[0]
    assert p.tree is None and "unsupported test shape" in (p.error or "") and "settle" in (p.error or "")
    # The same test with the name made by the program's class: a call into its object.
    p = plan_tests("class Counter:\n    pass\n", ["assert c.count('a') == 2"], "c = Counter()")[0]
    assert [leaf.source for leaf in p.leaves] == ["c.count('a')"]


# Round 4: identity, set-up statements that judge beside the program, what the child receives, judge time.

@pytest.mark.parametrize("test", [
    "assert clone_list(lst) is not lst", "assert new_bucket() is not new_bucket()",
    "assert deep_copy(grid)[0] is not grid[0]", "assert id(deep_copy(grid)) != id(grid)",
    "assert all(a is not b for a in f(1) for b in f(2))", "assert operator.is_(f(1), f(2))",
])
def test_identity_of_program_values_is_refused(test: str) -> None:
    p = plan_tests("", [test], "import operator\nlst = [1, 2, 3]\ngrid = [[1, 2], [3, 4]]\n")[0]
    assert p.tree is None and (p.error or "").startswith("unsupported test shape"), p.error


@pytest.mark.parametrize(("test", "value", "passed"), [
    ("assert f(1) is None", None, True), ("assert f(1) is not None", [], True), ("assert f(1) is True", 1, False),
    ("assert type(f(1)) is list", [1], True), ("assert operator.is_(f(1), None)", None, True),
])
def test_identity_with_a_singleton_or_a_class_is_judged(test: str, value: Any, passed: bool) -> None:
    p = plan_tests("", [test], "import operator")[0]
    assert judge(p, {p.leaves[0].index: value}, {})[0] is passed


@pytest.mark.parametrize(("setup", "name"), [
    ("ok = factorial(5) == 120", "ok"), ("checks = all(is_even(n) == (n % 2 == 0) for n in range(20))", "checks"),
    ("res = sorted(unique([3, 1, 3, 2])) == [1, 2, 3]", "res"), ("n = len(f(3))", "n"), ("m = f(1) + 1", "m"),
    ("h = [1]\nh.append(f(0))", "h"), ("if f(1):\n    flag = 1", "flag"),
])
def test_set_up_that_computes_beside_the_program_is_refused(setup: str, name: str) -> None:
    assert "beside the program" in setup_scope(setup).refused[name]
    p = plan_tests("", [f"assert {name}"], setup)[0]
    assert p.tree is None and "unsupported test shape" in (p.error or "") and "beside the program" in p.error


def test_set_up_that_only_runs_the_program_binds_program_values() -> None:
    setup = ("nums = [1, 2]\nacc = Account(nums)\nacc.deposit(5)\nroot = Node(1)\nroot.left = Node(2, Node(3))\n"
             "xs = [Node(4), root]\nv = acc.balance()\nw: int = f(k=nums)\n")
    scope = setup_scope(setup)
    assert not scope.refused and {"acc", "root", "xs", "v", "w"} <= scope.program


def test_the_child_gets_no_closed_data_only_tests_read() -> None:
    from verifiers.sandbox._setup import child_setup

    setup = ("import math\ncases = [(3, 6), (10, 3628800)]\nexpected = {'listen': 'silent'}\ndata = [5, 3, 1]\n"
             "want = [1, 3, 5]\nmy_sort(data)\nbase = [2]\nmore = base + [3]\nacc = Account(more)\n"
             "def helper(x):\n    return x + 1\nok = f(5) == 120\n")
    child = child_setup(setup)
    assert child == ("import math\ndata = [5, 3, 1]\nmy_sort(data)\nbase = [2]\nmore = base + [3]\n"
                     "acc = Account(more)\ndef helper(x):\n    return x + 1\n")
    assert child_setup("") == "" and child_setup("x = (") == "x = ("  # unparsable: the sandbox reports it


def test_set_up_functions_run_under_the_programs_step_budget() -> None:
    from verifiers.sandbox._judge import JudgeBudget

    setup = ("def is_prime(n):\n    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))\n"
             "def swallow(n):\n    try:\n        return sum(1 for _ in range(n)) >= 0\n    except Exception:\n"
             "        return True\n")
    for test, value, passed in (("assert is_prime(f(1))", 101, True), ("assert is_prime(f(1))", 99999999999973, False),
                                ("assert swallow(f(1))", 10, True), ("assert swallow(f(1))", 10 ** 9, False)):
        p = plan_tests("", [test], setup)[0].for_program(JudgeBudget())
        ok, why = judge(p, {p.leaves[0].index: value}, {})
        assert ok is passed and (passed or "budget" in why), (test, value, why)
    assert sys.gettrace() is None or sys.gettrace().__name__ != "on_call"  # the trace is removed afterwards


def test_regular_expressions_on_program_values_are_bounded_in_time() -> None:
    p = plan_tests("", ["assert re.match(r'(a|aa)+$', f(1))"], "import re")[0]
    ok, why = judge(p, {p.leaves[0].index: "a" * 40 + "b"}, {})
    assert not ok and "regular expression ran longer" in why
    for test, value in (("assert re.match(r'(\\d+)-(\\d+)', f(1)).groups() == ('12', '34')", "12-34"),
                        ("assert re.findall(r'[A-Z]+', f(1), re.I) == ['ab', 'CD']", "ab CD"),
                        ("assert re.compile(r'x+').sub('y', f(1)) == 'ayb'", "axxb"),
                        ("assert re.sub('A', 'b', f(1), flags=re.IGNORECASE) == 'bbb'", "aaa"),
                        ("assert re.search(r'\\w+', f(1), re.ASCII).group() == 'ab'", "ab\u00e9")):
        p = plan_tests("", [test], "import re")[0]
        assert judge(p, {p.leaves[0].index: value}, {}) == (True, ""), test


def test_program_class_bounds_the_code_it_tokenizes() -> None:
    from verifiers.sandbox._judge import MAX_CLASS_SCAN_CHARS, program_class

    head = "class Words(list):\n    pass\n"
    assert program_class(head, "Words") == "class"
    assert program_class(head + "x = (" + "1," * 1000 + ")\n", "Words") == "unsettled"  # too many tokens
    assert program_class(head + "#" * MAX_CLASS_SCAN_CHARS, "Words") == "unsettled"  # too long
