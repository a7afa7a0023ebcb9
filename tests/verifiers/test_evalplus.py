"""`verifiers.evalplus`: EvalPlus rows (HumanEval+ / MBPP+ shaped, built here) read, their expected outputs
computed by the reference in the sandbox, and responses judged on base and plus inputs."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import pytest

from verifiers import evalplus
from verifiers.errors import DataError
from verifiers.evalplus import (
    Converted,
    EvalPlusProblem,
    Unjudgeable,
    evalplus_row,
    expected_outputs,
    load_evalplus,
    mbpp_plus_inputs,
    problem_tests,
    program_tests,
    reference_outputs,
    reference_run,
    response_program,
    run_program,
    run_response,
)
from verifiers.sandbox import CodePool


def he_row(**kw: Any) -> dict[str, Any]:
    """A HumanEval+-shaped row (the fields of HumanEvalPlus.jsonl.gz v0.1.10)."""
    row = {"task_id": "HumanEval/900", "entry_point": "add",
           "prompt": 'def add(a: int, b: int) -> int:\n    """Add two numbers."""\n',
           "canonical_solution": "    return a + b\n", "test": "def check(candidate):\n    pass\n",
           "contract": "", "base_input": [[1, 2], [3, 4]], "plus_input": [[10**6, -5], [0, 0]], "atol": 0}
    row.update(kw)
    return row


def mbpp_row(**kw: Any) -> dict[str, Any]:
    """An MBPP+-shaped row (the fields of MbppPlus.jsonl.gz v0.2.0): the prompt is a docstring only."""
    row = {"task_id": "Mbpp/9000", "entry_point": "double", "prompt": '"""\nWrite a function to double x.\n"""\n',
           "canonical_solution": "\ndef double(x):\n  return 2 * x\n", "contract": "", "assertion": "",
           "base_input": [[1], [2]], "plus_input": [[-7], [10**30]], "atol": 0}
    row.update(kw)
    return row


# ------------------------------------------------------------------------------------------- rows
def test_humaneval_plus_row() -> None:
    p = evalplus_row(he_row(atol="1e-06"))
    assert (p.task_id, p.entry_point, p.compare, p.special_oracle) == ("HumanEval/900", "add", "exact", "")
    assert p.reference == he_row()["prompt"] + "    return a + b\n"
    assert p.inputs(plus=False) == ((1, 2), (3, 4)) and p.inputs() == ((1, 2), (3, 4), (10**6, -5), (0, 0))
    assert p.atol == 1e-6 and p.base_outputs is None
    fz = evalplus_row(he_row(entry_point="find_zero"))
    assert (fz.compare, fz.special_oracle) == ("poly_root", "")  # its oracle is reproduced


def test_mbpp_plus_row_rebuilds_tuples_sets_and_complex() -> None:
    p = evalplus_row(mbpp_row(task_id="Mbpp/2", entry_point="similar_elements",
                              base_input=[[[3, 4, 5], [5, 7, 4]]], plus_input={}))  # MbppPlus v0.2.0 Mbpp/793's {}
    assert p.base_inputs == (((3, 4, 5), (5, 7, 4)),) and p.plus_inputs == () and p.compare == "set"
    assert mbpp_plus_inputs("Mbpp/124", [["1.5", "(1+2j)"]]) == ((1.5, 1 + 2j),)
    assert mbpp_plus_inputs("Mbpp/63", [[[[1, 2], [3, 4]]]]) == (([(1, 2), (3, 4)],),)
    assert mbpp_plus_inputs("Mbpp/115", [[[[1], []]]]) == (([{1}, {}],),)
    assert mbpp_plus_inputs("Mbpp/580", [[[1, [2, [3]]]]]) == (((1, (2, (3,))),),)
    assert mbpp_plus_inputs("Mbpp/1", [[[1, 2]]]) == (([1, 2],),)  # no rule: as stored
    assert evalplus_row(mbpp_row(entry_point="check_str")).compare == "not_none"
    assert evalplus_row(mbpp_row(entry_point="sum_div")).special_oracle == "sum_div"
    with pytest.raises(DataError, match="Mbpp/124"):
        mbpp_plus_inputs("Mbpp/124", [["x"]])


def test_row_outputs_are_used_as_given() -> None:
    p = evalplus_row(he_row(base_output=[3, 7], plus_output=[999995, 0]))
    assert (p.base_outputs, p.plus_outputs) == ((3, 7), (999995, 0))


@pytest.mark.parametrize(("change", "message"), [
    ({"entry_point": None}, "not an EvalPlus row"),
    ({"base_input": "1, 2"}, "'base_input' must be a list"),
    ({"plus_input": [[1], 2]}, r"plus_input\[1\] must be a list of arguments"),
    ({"atol": "tight"}, "'atol' must be a number"),
    ({"atol": -1}, "'atol' must be a finite number >= 0"),
    ({"atol": True}, "'atol' must be a number"),
    ({"entry_point": "not valid"}, "not a Python identifier"),
    ({"base_input": [], "plus_input": []}, "no inputs"),
    ({"base_output": [3]}, "'base_output' must be a list of 2 outputs"),
])
def test_malformed_rows_are_one_line_data_errors(change: dict[str, Any], message: str) -> None:
    row = {k: v for k, v in {**he_row(), **change}.items() if v is not None}
    with pytest.raises(DataError, match=message) as e:
        evalplus_row(row, "rows.jsonl line 3")
    assert "\n" not in str(e.value) and "rows.jsonl line 3" in str(e.value)
    with pytest.raises(DataError, match="must be a JSON object"):
        evalplus_row([1, 2])  # type: ignore[arg-type]


def test_load_jsonl_and_gz(tmp_path: Path) -> None:
    text = json.dumps(he_row()) + "\n\n" + json.dumps(mbpp_row()) + "\n"
    (tmp_path / "a.jsonl").write_text(text)
    with gzip.open(tmp_path / "a.jsonl.gz", "wt") as f:
        f.write(text)
    for name in ("a.jsonl", "a.jsonl.gz"):
        assert [p.task_id for p in load_evalplus(tmp_path / name)] == ["HumanEval/900", "Mbpp/9000"]


def test_load_bad_files(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such file"):
        load_evalplus(tmp_path / "missing.jsonl.gz")
    (tmp_path / "bad.jsonl").write_text(json.dumps(he_row()) + "\n{not json\n")
    with pytest.raises(DataError, match="bad.jsonl line 2: not JSON"):
        load_evalplus(tmp_path / "bad.jsonl")
    (tmp_path / "row.jsonl").write_text(json.dumps(he_row(atol="x")) + "\n")
    with pytest.raises(DataError, match=r"row.jsonl line 1 \(HumanEval/900\): 'atol'"):
        load_evalplus(tmp_path / "row.jsonl")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(DataError, match="no rows"):
        load_evalplus(tmp_path / "empty.jsonl")
    gz = gzip.compress(((json.dumps(he_row()) + "\n") * 50).encode())
    (tmp_path / "cut.jsonl.gz").write_bytes(gz[: len(gz) // 2])
    with pytest.raises(DataError, match="cannot read"):
        load_evalplus(tmp_path / "cut.jsonl.gz")


# -------------------------------------------------------------------------------------- responses
def test_response_programs() -> None:
    he, mb = evalplus_row(he_row()), evalplus_row(mbpp_row())
    completion = response_program("    return a + b\n", he)
    assert completion is not None and completion.startswith("def add(a: int, b: int)")
    restated = response_program("```python\ndef add(a, b):\n    return b + a\n```", he)
    assert restated is not None and "return b + a" in restated and restated.startswith("def add(a: int")
    assert response_program("```python\ndef double(x):\n    return x + x\n```", mb) == (
        "def double(x):\n    return x + x")
    assert response_program("I don't know.", he) is None
    assert response_program("    return 1\n", mb) is None  # no signature in an MBPP+ prompt to complete


def test_set_and_not_none_tests_compile_to_asserts() -> None:
    p = evalplus_row(mbpp_row(task_id="Mbpp/2", entry_point="similar_elements", base_input=[[[1, 2], [2, 3]]],
                              plus_input=[]))
    assert program_tests(p, [(2,)]).tests == ("assert set(similar_elements((1, 2), (2, 3))) == {2}",)
    q = evalplus_row(mbpp_row(entry_point="check_str", base_input=[["annie"]], plus_input=[]))
    assert program_tests(q, [True]).tests == ("assert (repr(check_str('annie')) not in ('None', 'False')) == True",)


def test_unjudgeable_outputs_and_oversize_tests_are_left_out_and_listed() -> None:
    p = EvalPlusProblem("T/9", "f", "", "", ((1,), ("a" * 200_000,), (3,)))
    t = program_tests(p, [1, 2, Unjudgeable("returned a object, not plain data")])
    assert t.tests == ("assert f(1) == 1",) and t.kept == (0,)
    assert set(t.skipped) == {1, 2} and "longer than the judge's" in t.skipped[1]
    assert t.skipped[2] == "returned a object, not plain data"
    with pytest.raises(Exception, match="2 outputs for 3 inputs"):
        program_tests(p, [1, 2])


# ------------------------------------------------------------------------------ in the sandbox
def test_reference_outputs_computed_in_the_sandbox_and_cached(pool: CodePool) -> None:
    ref = "import sys\ndef f(x):\n    print('noise', x)\n    return (x, [x * 0.5], {'k': {x}})\n"
    out = reference_outputs(pool, ref, "f", [[1], [2]])
    assert out == ((1, [0.5], {"k": {1}}), (2, [1.0], {"k": {2}}))
    assert type(out[0]) is tuple and type(out[0][2]["k"]) is set  # types survive the trip
    assert reference_outputs(pool, ref, "f", [[1], [2]]) is out  # cached: not run again


@pytest.fixture(scope="module")
def small_pool(pool: CodePool):
    """A pool whose stdin/stdout runs (the reference driver's) may print 8 KiB."""
    with CodePool(workers=1, timeout_s=5.0, max_stdio_output_bytes=8192) as p:
        yield p


def test_reference_outputs_resume_past_the_output_cap(small_pool: CodePool) -> None:
    ref = "def f(i):\n    return str(i) * 400\n"  # ~1 KB per output; the pool's cap is 8 KiB
    inputs = [[i] for i in range(40)]
    assert small_pool.max_stdio_output_bytes < 40 * 400
    assert reference_outputs(small_pool, ref, "f", inputs) == tuple(str(i) * 400 for i in range(40))


def test_reference_failures(pool: CodePool) -> None:
    # an input the reference raises on, or alone runs out of CPU on, is left out (listed); the rest computed
    out = reference_outputs(pool, "def f(x):\n    return 1 / x\n", "f", [[1], [0], [2]])
    assert out[0] == 1.0 and out[2] == 0.5 and isinstance(out[1], Unjudgeable)
    assert out[1].reason.startswith("the reference raised ZeroDivisionError")
    with pytest.raises(DataError, match="syntax_error"):
        reference_outputs(pool, "def f(x) return x\n", "f", [[1]])
    with pytest.raises(DataError, match="runtime_error"):
        reference_outputs(pool, "def g(x):\n    return x\n", "f", [[1]])  # no entry point


@pytest.mark.slow
def test_reference_over_the_cpu_limit(pool: CodePool) -> None:
    spin = "def f(x):\n    while x:\n        pass\n    return x\n"
    out = reference_outputs(pool, spin, "f", [[0], [1], [0]], timeout_s=0.3)
    assert out[0] == 0 == out[2] and "timeout limit on this input alone" in out[1].reason  # type: ignore[union-attr]
    with pytest.raises(DataError, match=r"no output for input 3 \(timeout"):  # a reference that is just broken
        reference_outputs(pool, spin, "f", [[1]] * 5, timeout_s=0.3)


def test_builtin_subclasses_compare_through_their_builtin(pool: CodePool) -> None:
    # MBPP+ Mbpp/88 returns a collections.Counter; EvalPlus's == compares it with a dict
    ref = "import collections\ndef freq(xs):\n    return collections.Counter(xs)\n"
    p = EvalPlusProblem("T/5", "freq", "", ref, ((["a", "b", "a"],),))
    (out,) = expected_outputs(p, pool)
    assert out == Converted({"a": 2, "b": 1}, "dict")
    assert problem_tests(p, pool).tests == ("assert dict(freq(['a', 'b', 'a'])) == {'a': 2, 'b': 1}",)
    assert run_program(ref, p, pool).passed  # the program's own Counter, converted in the sandbox
    assert run_program("def freq(xs):\n    return {x: xs.count(x) for x in xs}\n", p, pool).passed
    assert not run_program("def freq(xs):\n    return {x: 1 for x in xs}\n", p, pool).passed


def test_cpu_limit_follows_the_reference(pool: CodePool, monkeypatch: pytest.MonkeyPatch) -> None:
    slow = "def f(x):\n    n = 0\n    for i in range(x):\n        n += i\n    return n\n"
    p = EvalPlusProblem("T/6", "f", "", slow, tuple((1_500_000 + i,) for i in range(4)))
    t = problem_tests(p, pool)
    assert len(t.cpu) == 4 and all(c > 0.01 for c in t.cpu)
    r = run_program(slow, p, pool, timeout_s=0.05)  # the floor is too small; 4x the reference's CPU is not
    assert r.passed, r.detail
    monkeypatch.setattr(evalplus, "TIME_FACTOR", 0.0)
    assert run_program(slow, p, pool, timeout_s=0.05).status == "timeout"


def test_outputs_the_judge_cannot_take_come_back_unjudgeable(small_pool: CodePool) -> None:
    pool = small_pool
    ref = ("def f(x):\n    if x == 1:\n        return 'y' * 20000\n    if x == 2:\n        return object()\n"
           "    if x == 3:\n        return 10 ** 5000\n    if x == 4:\n        return list(range(60000))\n"
           "    return x\n")
    out = reference_outputs(pool, ref, "f", [[0], [1], [2], [3], [4], [5]])
    assert out[0] == 0 and out[5] == 5
    assert all(isinstance(o, Unjudgeable) for o in out[1:5])
    assert "over the output cap" in out[1].reason and "object" in out[2].reason  # type: ignore[union-attr]
    assert "Exceeds the limit" in out[3].reason  # type: ignore[union-attr]
    p = EvalPlusProblem("T/8", "f", "", ref, ((0,), (1,), (2,), (3,), (4,), (5,)))
    assert problem_tests(p, pool).kept == (0, 5)
    r = run_program("def f(x):\n    return x\n", p, pool)
    assert (r.passed, r.tests_total) == (True, 2)


def test_canonical_passes_and_wrong_answers_fail(pool: CodePool) -> None:
    p = evalplus_row(he_row())
    assert expected_outputs(p, pool) == (3, 7, 999995, 0)
    r = run_response("    return a + b\n", p, pool)
    assert (r.passed, r.tests_passed, r.tests_total) == (True, 4, 4)
    # right on the small base inputs, wrong on a plus input: only the plus figure rejects it
    wrong = "    return a + b if abs(a) < 1000 else 0\n"
    assert run_response(wrong, p, pool, plus=False).passed
    r = run_response(wrong, p, pool)
    assert (r.passed, r.tests_passed, r.status) == (False, 3, "failed")
    assert run_response("no code here", p, pool).status == "syntax_error"


def test_mbpp_plus_end_to_end(pool: CodePool) -> None:
    p = evalplus_row(mbpp_row())
    assert run_response("```python\ndef double(x):\n    return x * 2\n```", p, pool).passed
    assert not run_response("```python\ndef double(x):\n    return x + 2\n```", p, pool).passed
    s = evalplus_row(mbpp_row(task_id="Mbpp/2", entry_point="similar_elements",
                              canonical_solution="def similar_elements(a, b):\n  return tuple(set(a) & set(b))\n",
                              base_input=[[[3, 4, 5, 6], [5, 7, 4, 10]]], plus_input=[[[1, 2], [3]]]))
    assert s.base_inputs == (((3, 4, 5, 6), (5, 7, 4, 10)),)
    assert run_response("```python\ndef similar_elements(a, b):\n  return sorted(x for x in a if x in b)\n```",
                        s, pool).passed  # any order: compared as sets
    assert not run_response("```python\ndef similar_elements(a, b):\n  return a\n```", s, pool).passed
    n = evalplus_row(mbpp_row(entry_point="check_str", canonical_solution=(
        "import re\ndef check_str(s):\n  return re.search('^[aeiou]', s)\n"), base_input=[["annie"], ["dawood"]],
        plus_input=[]))
    assert expected_outputs(n, pool) == (True, False)  # a match object recorded as "not None"
    assert run_response("```python\nimport re\ndef check_str(s):\n  return re.search('^[aeiou]', s)\n```",
                        n, pool).passed  # the program's match object is fine too
    assert run_response("```python\ndef check_str(s):\n  return s[0] in 'aeiou'\n```", n, pool).passed
    assert not run_response("```python\ndef check_str(s):\n  return None\n```", n, pool).passed


def test_find_zero_is_judged_by_its_oracle(pool: CodePool) -> None:
    # HumanEval+ find_zero: any root passes (EvalPlus's _poly oracle), not only the reference's
    prompt = "import math\n\n\ndef poly(xs, x):\n    return sum(c * math.pow(x, i) for i, c in enumerate(xs))\n\n\n" \
             "def find_zero(xs):\n"
    canonical = "    lo, hi = 0.0, 10.0\n    for _ in range(100):\n        mid = (lo + hi) / 2\n" \
                "        if poly(xs, lo) * poly(xs, mid) <= 0:\n            hi = mid\n        else:\n" \
                "            lo = mid\n    return lo\n"
    p = evalplus_row(he_row(entry_point="find_zero", prompt=prompt, canonical_solution=canonical,
                            base_input=[[[-2, 0, 1]]], plus_input=[[[-9, 0, 1]]], atol=1e-4))
    t = problem_tests(p, pool)
    assert t.tests[0] == "assert abs(evalplus_poly([-2, 0, 1], find_zero([-2, 0, 1]))) <= 0.0001" and t.setup_code
    assert run_response(canonical, p, pool).passed
    assert run_response("    return -math.sqrt(-xs[0])\n", p, pool).passed  # the other root
    assert not run_response("    return 1.0\n", p, pool).passed
    # the program's own poly (the prompt's, or a lying one) is not what judges it
    assert not run_response("def poly(xs, x):\n    return 0\n\n\ndef find_zero(xs):\n    return 1.0\n", p,
                            pool).passed


def test_float_atol_nan_and_sequences(pool: CodePool) -> None:
    def judged(reference: str, program: str, atol: float = 0.0, inputs: Any = ((1,),)) -> bool:
        p = EvalPlusProblem("T/1", "f", "", f"def f(x):\n    return {reference}\n", tuple(inputs), atol=atol)
        return run_program(f"def f(x):\n    return {program}\n", p, pool).passed
    assert judged("x / 3", "x / 3 + 5e-7")  # float output: EvalPlus's default 1e-6
    assert not judged("x / 3", "x / 3 + 5e-6")
    assert judged("x / 3", "x / 3 + 5e-5", atol=1e-4) and not judged("x / 3", "x / 3 + 5e-4", atol=1e-4)
    assert judged("float('nan')", "float('nan')") and not judged("float('nan')", "0.0")
    assert judged("(1, 2)", "(1, 2)") and not judged("(1, 2)", "[1, 2]")  # exact: a tuple is not a list
    assert judged("(0.5, 1.5)", "[0.5, 1.5]")  # floats: compared as numbers (numpy treats both as arrays)
    assert not judged("[0.5, 1.5]", "[0.5]")
    assert math.isnan(reference_outputs(pool, "def f(x):\n    return float('nan')\n", "f", [[1]])[0])


def test_many_tests_run_in_chunks(pool: CodePool) -> None:
    p = EvalPlusProblem("T/2", "f", "", "def f(x):\n    return x * x\n", tuple((i,) for i in range(7)))
    r = run_program("def f(x):\n    return x * x\n", p, pool, chunk=3)
    assert (r.passed, r.tests_passed, r.tests_total, len(r.per_test)) == (True, 7, 7, 7)
    r = run_program("def f(x):\n    return x * x if x < 6 else -1\n", p, pool, chunk=3)
    assert (r.passed, r.tests_passed, r.status) == (False, 6, "failed")
    assert [t.status for t in r.per_test][-1] == "failed"


@pytest.mark.slow
def test_chunks_keep_each_program_within_the_value_budget(pool: CodePool, monkeypatch: pytest.MonkeyPatch) -> None:
    # 8 outputs of 20,001 values each: 160k values, over the 150k one program may return
    n = 8
    p = EvalPlusProblem("T/4", "f", "", "", tuple((i,) for i in range(n)),
                        base_outputs=tuple([i] * 20000 for i in range(n)))
    code = "def f(x):\n    return [x] * 20000\n"
    r = run_program(code, p, pool)
    assert (r.passed, r.tests_passed) == (True, n), r.detail
    monkeypatch.setattr(evalplus, "CHUNK_NODES", 10**9)  # one program for all: the budget fails it
    r = run_program(code, p, pool)
    assert not r.passed and "value" in r.detail


def test_big_inputs_are_left_out_clearly(pool: CodePool) -> None:
    p = EvalPlusProblem("T/3", "f", "", "def f(x):\n    return len(x)\n", (("a" * 200_000,),))
    assert "longer than the judge's" in problem_tests(p, pool).skipped[0]
    r = run_program("def f(x):\n    return len(x)\n", p, pool)
    assert (r.passed, r.status) == (False, "no_tests")  # nothing left to judge: never a pass


def test_an_entry_point_named_like_a_builtin_is_the_programs(pool: CodePool) -> None:
    # MBPP+ Mbpp/126 names its function `sum` and returns floats: the float form `all(... for out in [sum(..)])`
    # must call the program's `sum`, as the plain form `assert sum(10, 15) == 6` does
    ref = "def sum(a, b):\n    return float(a + b)\n"
    p = EvalPlusProblem("Mbpp/9126", "sum", "", ref, ((10, 15), (1, 2)))
    assert problem_tests(p, pool).tests[0].startswith("assert all(")
    assert run_program(ref, p, pool).passed
    assert not run_program("def sum(a, b):\n    return float(a - b)\n", p, pool).passed


def test_a_reference_cannot_inflate_the_cpu_limit(pool: CodePool) -> None:
    # the driver's per-call CPU comes from the reference's process: a clock it rigs is scaled back to the
    # total the sandbox measured for the run
    ref = ("import itertools, time\n_t = itertools.count(0, 1000.0)\ntime.process_time = lambda: next(_t)\n"
           "def f(x):\n    return x\n")
    run = reference_run(pool, ref, "f", [[1], [2], [3]])
    assert run.outputs == (1, 2, 3)
    assert sum(run.cpu) < 5.0, run.cpu
