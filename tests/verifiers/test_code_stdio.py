"""The code_stdio task: the scorer, its reference shapes, the row schema and the public schemas' loaders."""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from pathlib import Path

import pytest

from verifiers import code_stdio, datasets, tasks
from verifiers.errors import ConfigError, DataError
from verifiers.sandbox import CodePool
from verifiers.stdio_data import builtin_rows, convert, schema_of, stdio_row

ADD = code_stdio.StdioTests((("1 2\n", "3\n"), ("5 7\n", "12\n"), ("-4 4\n", "0\n")))
ADD_PROGRAM = "a, b = map(int, input().split())\nprint(a + b)\n"


def fenced(code: str) -> str:
    return f"Here is my program.\n```python\n{code}```\n"


# ---------------------------------------------------------------- the scorer
def test_a_correct_program_in_a_fence_scores_1(pool: CodePool) -> None:
    s = code_stdio.score(fenced(ADD_PROGRAM), ADD, pool=pool)
    assert (s.status, s.reward, s.parts["correctness"]) == ("correct", 1.0, 1.0)


def test_a_bare_expression_program_is_found(pool: CodePool) -> None:
    assert code_stdio.score("print(sum(map(int, input().split())))", ADD, pool=pool).correct


def test_code_inside_think_is_ignored_when_code_follows(pool: CodePool) -> None:
    response = f"<think>\n```python\nprint(0)\n```\n</think>\n{fenced(ADD_PROGRAM)}"
    assert code_stdio.score(response, ADD, pool=pool).correct


def test_a_wrong_answer_says_which_test_and_token(pool: CodePool) -> None:
    s = code_stdio.score(fenced("a, b = map(int, input().split())\nprint(a - b)\n"), ADD, pool=pool)
    assert s.status == "incorrect" and s.reward == 0.0
    assert "test 1" in s.explanation and "token" in s.explanation


def test_partial_credit_is_the_fraction_of_tests_passed(pool: CodePool) -> None:
    program = fenced("a, b = map(int, input().split())\nprint(a + b if a > 0 else 99)\n")
    accuracy = code_stdio.score(program, ADD, pool=pool)
    partial = code_stdio.score(program, ADD, config={"preset": "partial"}, pool=pool)
    assert accuracy.reward == 0.0
    assert partial.reward == pytest.approx(2 / 3) and partial.parts["correctness"] == pytest.approx(2 / 3)


def test_no_program_is_no_answer(pool: CodePool) -> None:
    assert code_stdio.score("I would add the two numbers.", ADD, pool=pool).status == "no_answer"


def test_an_infinite_loop_is_a_timeout_within_the_row_limit(pool: CodePool) -> None:
    ref = code_stdio.StdioTests((("1\n", "1\n"),), time_limit_s=0.5)
    s = code_stdio.score(fenced("while True:\n    pass\n"), ref, pool=pool)
    assert s.status == "timeout" and s.reward == 0.0


def test_float_tolerance_from_the_reference(pool: CodePool) -> None:
    ref = code_stdio.reference({"tests": [{"input": "", "output": "0.3333333\n"}], "float_tol": 1e-6})
    assert code_stdio.score(fenced("print(1/3)\n"), ref, pool=pool).correct
    assert not code_stdio.score(fenced("print(0.334)\n"), ref, pool=pool).correct


def test_a_checker_accepts_any_right_answer(pool: CodePool) -> None:
    checker = "def check(input, expected, output):\n    return sorted(output.split()) == sorted(expected.split())\n"
    ref = code_stdio.reference({"tests": [{"input": "", "output": "1 2\n"}], "checker": checker})
    assert code_stdio.score(fenced("print(2, 1)\n"), ref, pool=pool).correct
    assert not code_stdio.score(fenced("print(2, 2)\n"), ref, pool=pool).correct


@pytest.mark.parametrize("value", [
    {"tests": [{"input": "1 2\n", "output": "3\n"}]},
    json.dumps({"tests": [{"input": "1 2\n", "output": "3\n"}]}),
    [{"input": "1 2\n", "output": "3\n"}],
    [("1 2\n", "3\n")],
])
def test_reference_shapes(value: object) -> None:
    assert code_stdio.reference(value).tests == (("1 2\n", "3\n"),)


@pytest.mark.parametrize("value", [None, "not json", [{"input": 1, "output": "3"}], [("a",)], {"tests": "x"},
                                   {"tests": [], "float_tol": -1}, {"tests": [], "checker": 5}])
def test_bad_references_raise_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        code_stdio.score("print(1)", value)  # type: ignore[arg-type]


def test_bad_config_and_response_raise() -> None:
    with pytest.raises(ConfigError):
        code_stdio.score("print(1)", ADD, config={"timeout": -1})
    with pytest.raises(ConfigError):
        code_stdio.score("print(1)", ADD, config={"preset": "book"})
    with pytest.raises(TypeError):
        code_stdio.score(None, ADD)  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        code_stdio.score_batch(["print(1)"], [ADD, ADD])


def test_score_batch_keeps_the_order(pool: CodePool) -> None:
    responses = [fenced(ADD_PROGRAM), "no code here", fenced("print(3)\n")]
    assert [s.status for s in code_stdio.score_batch(responses, [ADD] * 3, pool=pool)] == ["correct", "no_answer", "incorrect"]


def test_the_expected_output_is_not_in_the_sandbox(pool: CodePool) -> None:
    secret = "expected-output-7f3a"
    ref = code_stdio.StdioTests((("", secret + "\n"),))
    probe = ("import os, sys\nfound = []\nfor root, dirs, files in os.walk('/'):\n"
             "    if root.startswith(('/proc', '/sys')):\n        continue\n    for f in files:\n"
             "        try:\n            if b'" + secret + "' in open(os.path.join(root, f), 'rb').read(1 << 20):\n"
             "                found.append(f)\n        except Exception:\n            pass\n"
             "print('" + secret + "' if found else 'none')\n")
    assert not code_stdio.score(fenced(probe), ref, pool=pool).correct


# ---------------------------------------------------------------- the task and its committed problems
def test_the_task_is_registered_with_its_codec() -> None:
    spec = tasks.get("code_stdio")
    assert spec.reference is tasks.STDIO_TESTS and spec.ability == "code"
    p = datasets.load_problems("code_stdio", split="train")[0]
    ref = spec.reference.of(p)
    assert spec.reference.decode(spec.reference.encode(p)) == ref and ref.tests


@pytest.mark.slow
def test_committed_references_pass_and_wrong_solutions_fail(pool: CodePool) -> None:
    problems = datasets.load_problems("code_stdio", split="all")
    assert len(problems) >= 15
    refs = [tasks.STDIO_TESTS.of(p) for p in problems]
    assert all(len(r.tests) >= 3 for r in refs)
    good = code_stdio.score_batch([p.solution for p in problems], refs, pool=pool)
    assert [p.id for p, s in zip(problems, good) if not s.correct] == []
    wrong = [(w, r) for p, r in zip(problems, refs) for w in p.meta["wrong_solutions"]]
    assert len(wrong) >= len(problems)
    bad = code_stdio.score_batch([w for w, _ in wrong], [r for _, r in wrong], pool=pool)
    assert [s.explanation for s in bad if s.correct] == []


def test_builtin_splits_partition_the_set() -> None:
    every = builtin_rows("all")
    assert {r["id"] for r in builtin_rows("train")} | {r["id"] for r in builtin_rows("test")} == {r["id"] for r in every}


# ---------------------------------------------------------------- rows and the public schemas
def test_our_schema_row() -> None:
    p = stdio_row("code_stdio", "test", 0, {"id": "x", "question": "Q", "tests": [{"input": "1\n", "output": "1\n"}],
                                            "float_tol": 1e-6, "solutions": ["print(input())"]})
    assert p.id == "x" and p.solution == "print(input())" and p.meta["stdio"]["float_tol"] == 1e-6


@pytest.mark.parametrize("row, words", [
    ({"tests": []}, "non-empty"),
    ({"tests": [{"input": "1"}]}, "'tests'[0]"),
    ({"tests": [{"input": "1", "output": "1"}], "float_tol": "tiny"}, "float_tol"),
    ({"tests": [{"input": "1", "output": "1"}], "memory_mb": 0}, "memory_mb"),
    ({"tests": [{"input": "1", "output": "1"}], "solutions": "print(1)"}, "solutions"),
    ({"question": "no tests at all"}, "none of 'tests'"),
])
def test_bad_rows_name_the_row_and_field(row: dict, words: str) -> None:
    with pytest.raises(DataError, match=r"code_stdio row 4 \(") as e:
        stdio_row("code_stdio", "test", 4, row)
    assert words in str(e.value)


def apps_row(fn_name: str | None = None) -> dict:
    io = {"inputs": ["1 2\n", "3 4\n"], "outputs": ["3\n", "7\n"]}
    if fn_name:
        io["fn_name"] = fn_name
    return {"problem_id": 17, "question": "Add.", "input_output": json.dumps(io),
            "solutions": json.dumps([ADD_PROGRAM]), "difficulty": "introductory", "starter_code": ""}


def test_apps_and_taco_rows() -> None:
    p = stdio_row("code_stdio", "test", 0, apps_row())
    assert schema_of(apps_row()) == "apps" and p.id == "17" and p.solution == ADD_PROGRAM
    assert p.meta["stdio"]["tests"][1] == {"input": "3 4\n", "output": "7\n"}
    with pytest.raises(DataError, match="call-based"):
        stdio_row("code_stdio", "test", 0, apps_row(fn_name="add"))


def test_codecontests_rows_keep_python3_solutions_and_the_time_limit() -> None:
    row = {"name": "1A. Theatre", "description": "...",
           "public_tests": {"input": ["6 6 4\n"], "output": ["4\n"]},
           "private_tests": {"input": ["1 1 1\n"], "output": ["1\n"]}, "generated_tests": {"input": [], "output": []},
           "solutions": {"language": [2, 3, 1], "solution": ["int main(){}", "print(4)", "print 4"]},
           "incorrect_solutions": {"language": [3], "solution": ["print(5)"]},
           "time_limit": {"seconds": 1, "nanos": 500000000}, "memory_limit_bytes": 256 * 1024 * 1024}
    p = stdio_row("code_stdio", "test", 0, row)
    assert p.solution == "print(4)" and p.meta["wrong_solutions"] == ["print(5)"]
    assert p.meta["stdio"]["time_limit_s"] == 1.5 and len(p.meta["stdio"]["tests"]) == 2 and p.meta["memory_mb"] == 256


def lcb_private(cases: list[dict]) -> str:
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(cases)))).decode()


def test_livecodebench_rows_with_compressed_private_tests() -> None:
    public = [{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}]
    private = [{"input": "5 5\n", "output": "10\n", "testtype": "stdin"}]
    row = {"question_id": "abc301_a", "question_content": "Add.", "public_test_cases": json.dumps(public),
           "private_test_cases": lcb_private(private), "metadata": "{}", "platform": "atcoder"}
    p = stdio_row("code_stdio", "test", 0, row)
    assert [t["output"] for t in p.meta["stdio"]["tests"]] == ["3\n", "10\n"]
    functional = {**row, "public_test_cases": json.dumps([{**public[0], "testtype": "functional"}])}
    with pytest.raises(DataError, match="functional"):
        stdio_row("code_stdio", "test", 0, functional)


@pytest.mark.parametrize("schema", ["verifiers", "livecodebench", "apps"])
def test_a_row_with_more_tests_than_a_problem_may_have_is_refused_by_every_reader(schema: str) -> None:
    """Every test runs, so a row past MAX_TESTS is refused when read; LiveCodeBench's compressed cases are counted
    before they are parsed (redteam27b F5: a 1 MB row decompressing to 5 M cases cost 1.9 GB)."""
    n = code_stdio.MAX_TESTS + 1
    cases = [{"input": f"{k}\n", "output": f"{k}\n", "testtype": "stdin"} for k in range(n)]
    row: dict[str, object] = {
        "verifiers": {"id": "x", "tests": [{"input": c["input"], "output": c["output"]} for c in cases]},
        "livecodebench": {"question_id": "x", "question_content": "", "public_test_cases": "[]",
                          "private_test_cases": lcb_private(cases)},
        "apps": {"problem_id": 1, "question": "", "input_output": json.dumps(
            {"inputs": [c["input"] for c in cases], "outputs": [c["output"] for c in cases]})},
    }[schema]
    with pytest.raises(DataError, match=f"{n:,} .*more than the {code_stdio.MAX_TESTS:,}"):
        stdio_row("code_stdio", "test", 0, row)  # type: ignore[arg-type]


def test_a_pickle_that_names_a_global_is_refused() -> None:
    class Evil:
        def __reduce__(self) -> tuple:
            return (print, ("pwned",))

    blob = base64.b64encode(zlib.compress(pickle.dumps(Evil()))).decode()
    row = {"question_id": "x", "question_content": "", "public_test_cases": "[]", "private_test_cases": blob}
    with pytest.raises(DataError, match="neither JSON nor"):
        stdio_row("code_stdio", "test", 0, row)


def test_load_rows_converts_a_mixed_file_and_says_what_it_left_out(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (apps_row(), apps_row(fn_name="f"), {"x": 1})) + "\n")
    rows, skipped = convert(datasets.read_records(path))
    assert len(rows) == 1 and rows[0]["tests"][0]["input"] == "1 2\n" and len(skipped) == 2
    assert "call-based" in skipped[0] and "none of 'tests'" in skipped[1]
    with pytest.raises(DataError, match=r"code_stdio row 1 \(apps\): call-based"):
        datasets.load_problems("code_stdio", path)  # a row it cannot read stops the load, naming it


def test_load_problems_reads_a_public_schema_file(tmp_path: Path, pool: CodePool) -> None:
    path = tmp_path / "apps.jsonl"
    path.write_text(json.dumps(apps_row()) + "\n")
    (p,) = datasets.load_problems("code_stdio", path)
    assert code_stdio.score(fenced(p.solution), tasks.STDIO_TESTS.of(p), pool=pool).correct


def test_the_task_pool_takes_a_contest_sized_output(pool: CodePool) -> None:
    del pool  # requested for its skip where the sandbox cannot start; the task's default pool is under test
    big = 3 * 10**5  # ~2 MB of output, far over a function task's 8 KiB diagnostic cap
    ref = code_stdio.StdioTests((("", "".join(f"{k}\n" for k in range(big))),))
    assert code_stdio.score(fenced(f"print('\\n'.join(map(str, range({big}))))\n"), ref).correct


def test_more_tests_than_the_task_runs_is_a_data_error_never_a_prefix() -> None:
    """A row with more than MAX_TESTS tests: scoring its first MAX_TESTS would pass a program failing only the rest
    (redteam27b F6), so the reference is refused."""
    many = [{"input": f"{k}\n", "output": f"{k}\n"} for k in range(code_stdio.MAX_TESTS + 1)]
    assert len(code_stdio.reference({"tests": many[:-1]}).tests) == code_stdio.MAX_TESTS
    with pytest.raises(DataError, match=f"more than {code_stdio.MAX_TESTS} tests"):
        code_stdio.reference({"tests": many})
    with pytest.raises(DataError, match="more than"):
        code_stdio.reference(code_stdio.StdioTests(tuple((t["input"], t["output"]) for t in many)))


def test_the_cli_reads_a_rows_checker_and_tolerance_beside_its_tests(tmp_path: Path, pool: CodePool,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Rows in the documented schema keep ``checker``/``float_tol`` beside ``tests`` (redteam27b F7)."""
    from verifiers.cli import main

    del pool  # for its skip where the sandbox cannot start
    checker = "def check(i, e, o):\n    return sorted(o.split()) == sorted(e.split())\n"
    rows = [{"response": fenced("print(1 / 3)\n"), "tests": [{"input": "", "output": "0.333333\n"}], "float_tol": 1e-4},
            {"response": fenced("print(2, 1)\n"), "tests": [{"input": "", "output": "1 2\n"}], "checker": checker},
            {"response": fenced("print(2, 1)\n"), "tests": [{"input": "", "output": "1 3\n"}], "checker": checker},
            {"response": fenced("print(1 / 3)\n"), "tests": [{"input": "", "output": "0.333333\n"}]}]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["score", "--task", "code_stdio", str(path), "-o", str(tmp_path / "out.jsonl")]) == 0
    scored = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["score"]["correct"] for r in scored] == [True, True, False, False], scored
