"""HumanEval: check(candidate) unrolled into flat asserts decided in the parent; both response shapes extracted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifiers import mbpp, tasks
from verifiers.errors import DataError
from verifiers.humaneval import CheckShapeError, compile_check, humaneval_row, program
from verifiers.sandbox import CodePool
from verifiers.sandbox._judge import plan_tests

PROMPT = '''from typing import List


def shift(xs: List[int], k: int) -> List[int]:
    """Add k to every item."""
'''
BODY = "    return [x + k for x in xs]\n"
TEST = '''
METADATA = {'author': 'me', 'dataset': 'test'}


def expected(xs, k):
    return [x + k for x in xs]


def check(candidate):
    import math
    import random
    assert candidate([1, 2], 1) == [2, 3], "simple"
    for n in range(3):
        xs = [random.randint(0, 9) for _ in range(4)]
        assert candidate(xs, n) == expected(xs, n)
    out = candidate([0], 0)
    assert len(out) == 1
    assert abs(sum(candidate([1], 2)) - 3.0) < 1e-6
    assert math.isclose(candidate([1], 1)[0], 2)
    candidate([], 5)
'''
ROW = {"task_id": "T/0", "prompt": PROMPT, "canonical_solution": BODY, "test": TEST, "entry_point": "shift"}


def test_check_unrolls_into_flat_asserts() -> None:
    t = compile_check(TEST, PROMPT, "shift")
    assert t.tests[0] == "assert shift([1, 2], 1) == [2, 3]"
    loop = t.tests[1:4]
    assert all(a.startswith("assert shift([") and "expected" not in a for a in loop)  # helper evaluated here
    assert "assert len(shift([0], 0)) == 1" in t.tests  # a name bound to a program call is that call
    assert any("abs(sum(shift([1], 2)) - 3.0) < 1e-06" in a for a in t.tests)
    assert any(a.startswith("assert math.isclose(shift([1], 1)[0], 2)") for a in t.tests)
    assert t.tests[-1] == "assert shift([], 5) is None or True"  # a bare call: only an exception fails it
    assert "import math" in t.setup_code and "METADATA" not in t.setup_code
    assert (t.prompt, t.entry_point) == (PROMPT, "shift")
    assert compile_check(TEST, PROMPT, "shift") == t  # random is seeded: the same tests in every process


def test_helpers_the_program_answer_reaches_run_in_the_parent() -> None:
    prompt = "def enc(s):\n    return s[::-1]\n\n\ndef dec(s):\n    '''Undo enc.'''\n"
    test = "def check(candidate):\n    for w in ['ab', 'xyz']:\n        assert enc(candidate(w)) == w\n"
    t = compile_check(test, prompt, "dec")
    assert t.tests == ("assert enc(dec('ab')) == 'ab'", "assert enc(dec('xyz')) == 'xyz'")
    assert "def enc(s)" in t.setup_code and "def dec" not in t.setup_code


def test_no_expected_value_reaches_the_program() -> None:
    t = compile_check("def check(c):\n    assert c(3) == 987654\n    assert c(4) != [55555]\n", "", "f")
    plans = plan_tests("def f(x): return x", list(t.tests), t.setup_code)
    assert all(p.error is None for p in plans)
    inputs = [v for p in plans for leaf in p.leaves for v in leaf.values]
    assert "987654" not in repr(inputs) and "55555" not in repr(inputs)
    assert [leaf.name for p in plans for leaf in p.leaves] == ["f", "f"]


@pytest.mark.parametrize("test", [
    "def check(candidate):\n    if candidate(1):\n        assert True\n",
    "def check(candidate):\n    for x in candidate(3):\n        assert x\n",
    "def helper(candidate):\n    assert candidate(1)\n",
    "def check(candidate):\n    raise ValueError('broken')\n",
    "def check(candidate:\n",
])
def test_unsupported_check_shapes_are_refused(test: str) -> None:
    with pytest.raises(CheckShapeError):
        compile_check(test, "", "f")


def test_program_assembly() -> None:
    assert program("def shift(xs, k):\n    return xs", PROMPT, "shift").startswith(PROMPT.rstrip())
    assert program(BODY, PROMPT, "shift") == PROMPT.rstrip() + "\n" + BODY
    assert program("return [x + k for x in xs]", PROMPT, "shift").endswith("\n    return [x + k for x in xs]\n")


def test_rows_registry_and_codec() -> None:
    spec = tasks.get("humaneval")
    assert tasks.for_data_source("openai/openai_humaneval") is spec and spec.scorer() is mbpp
    problem = humaneval_row("humaneval", "test", 0, ROW)
    assert problem.id == "T/0" and problem.solution == PROMPT + BODY and problem.tests
    ref = spec.reference.of(problem)
    assert spec.reference.decode(spec.reference.encode(problem)) == ref
    raw = spec.reference.decode(json.dumps({k: ROW[k] for k in ("test", "prompt", "entry_point")}))
    assert raw == ref
    with pytest.raises(DataError, match="no string field"):
        humaneval_row("humaneval", "test", 3, {"prompt": PROMPT})
    with pytest.raises(DataError, match="check"):
        humaneval_row("humaneval", "test", 3, {**ROW, "test": "x = 1"})
    with pytest.raises(DataError):
        tasks.function_tests({"tests": "assert f()", "prompt": "", "entry_point": "f"})


def test_scoring_both_response_shapes(pool: CodePool) -> None:
    ref = tasks.get("humaneval").reference.of(humaneval_row("humaneval", "test", 0, ROW))
    responses = {
        "completion": (BODY, True),
        "fenced whole function": (f"Sure:\n```python\n{PROMPT}{BODY}```", True),
        "restated without imports": ("```python\ndef shift(xs, k):\n    return [x + k for x in xs]\n```", True),
        "fenced body at column 0": ("```python\nreturn [x + k for x in xs]\n```", True),
        "wrong": ("```python\ndef shift(xs, k):\n    return xs\n```", False),
        "always-equal object": (("```python\nclass A:\n    def __eq__(self, o):\n        return True\n"
                                 "def shift(xs, k):\n    return A()\n```"), False),
        "redefines check": ("```python\ndef check(c):\n    pass\ndef shift(xs, k):\n    return xs\n```", False),
        "prose": ("I cannot do that.", False),
    }
    scores = mbpp.score_batch([r for r, _ in responses.values()], [ref] * len(responses), pool=pool)
    got = {name: s.correct for name, s in zip(responses, scores)}
    assert got == {name: ok for name, (_, ok) in responses.items()}
    assert scores[-1].status == "no_answer"


@pytest.mark.slow
def test_all_canonical_solutions_pass(data_dir: Path, pool: CodePool) -> None:
    from verifiers.datasets import load_problems

    path = data_dir / "humaneval" / "HumanEval.jsonl"
    if not path.is_file():
        pytest.skip(f"no {path}")
    problems = load_problems("humaneval", path)
    assert len(problems) == 164
    spec = tasks.get("humaneval")
    refs = [spec.reference.of(p) for p in problems]
    scores = mbpp.score_batch([p.solution for p in problems], refs, pool=pool)
    assert [(p.id, s.explanation) for p, s in zip(problems, scores) if not s.correct] == []
    bodies = [p.solution[len(p.question):] for p in problems]  # completions, and another problem's body
    assert all(s.correct for s in mbpp.score_batch(bodies, refs, pool=pool))
    swapped = mbpp.score_batch(bodies[1:] + bodies[:1], refs, pool=pool)
    assert not any(s.correct for s in swapped)


def test_cli_score_reads_humaneval_rows(tmp_path: Path, pool: CodePool) -> None:
    from verifiers.cli import main

    src = tmp_path / "rows.jsonl"
    rows = [{**ROW, "response": BODY}, {**ROW, "response": "    return xs\n"},
            {"response": BODY, "tests": json.dumps({"tests": ["assert shift([1], 1) == [2]"], "prompt": PROMPT,
                                                    "entry_point": "shift"})}]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["score", "--task", "humaneval", str(src), "-o", str(tmp_path / "out.jsonl")]) == 0
    out = [json.loads(line)["score"]["status"] for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert out == ["correct", "incorrect", "correct"]
    (tmp_path / "bad.jsonl").write_text(json.dumps({"response": BODY, "tests": [1]}) + "\n")
    assert main(["score", "--task", "humaneval", str(tmp_path / "bad.jsonl")]) == 2


@pytest.mark.parametrize("code", ["import os", "open('/etc/hostname')", "exec('x = 1')"])
def test_dataset_code_runs_over_restricted_builtins(code: str) -> None:
    with pytest.raises(CheckShapeError, match="raised while unrolling"):
        compile_check(f"def check(candidate):\n    {code}\n    assert candidate(1)\n", "", "f")
    with pytest.raises(CheckShapeError, match="raised while unrolling"):
        compile_check("def check(candidate):\n    assert candidate(1)\n", code, "f")


def test_asserts_without_the_program_are_not_tests(pool: CodePool) -> None:
    """Red team 26 `he66-grail-*`: ``assert True`` in check paid grail's partial credit to any program."""
    test = ("def check(candidate):\n    assert True\n    assert candidate([1], 1) == [2]\n    assert True, 'x'\n"
            "    assert 1 + 1 == 2\n    f = lambda: candidate([0], 0)\n    assert f() == [0]\n")
    t = compile_check(test, PROMPT, "shift")
    assert t.tests[0] == "assert shift([1], 1) == [2]" and len(t.tests) == 2  # the closure is kept
    ref = tasks.get("humaneval").reference.of(humaneval_row("humaneval", "test", 0, {**ROW, "test": test}))
    broken = "<think>ok</think><SOLUTION>\n```python\ndef shift(xs:\n    return\n```\n</SOLUTION>"
    s = mbpp.score(broken, ref, config=mbpp.Config(preset="grail"), pool=pool)
    assert s.parts["correctness"] == 0.0 and "0/2 tests passed" in s.explanation, s


OWN_POLY = '''```python
import math

def poly(xs, x, scale=1.0):
    """The polynomial at x (times scale)."""
    return scale * sum(c * math.pow(x, i) for i, c in enumerate(xs))

def find_zero(xs):
    begin, end = -1.0, 1.0
    while poly(xs, begin, 1.0) * poly(xs, end, 1.0) > 0:
        begin *= 2.0
        end *= 2.0
    while end - begin > 1e-10:
        center = (begin + end) / 2.0
        if poly(xs, center, 1.0) * poly(xs, begin, 1.0) > 0:
            begin = center
        else:
            end = center
    return begin
```'''


def test_set_up_code_does_not_replace_the_programs_own_names(data_dir: Path, pool: CodePool) -> None:
    """Red team 26 `he32-own-poly-clobbered-by-setup`: the prompt's `poly` replaced the program's own."""
    path = data_dir / "humaneval" / "HumanEval.jsonl"
    if not path.exists():
        pytest.skip("HumanEval data not available")
    row = [json.loads(line) for line in path.read_text().splitlines()][32]
    ref = tasks.get("humaneval").reference.of(humaneval_row("humaneval", "test", 32, row))
    s = mbpp.score(OWN_POLY, ref, pool=pool)
    assert s.correct, s.explanation
    # The parent still judges with the pristine `poly`: a program's `poly` that always returns 0 gains nothing.
    cheat = "```python\ndef poly(xs, x):\n    return 0.0\ndef find_zero(xs):\n    return 123.0\n```"
    assert not mbpp.score(cheat, ref, pool=pool).correct
