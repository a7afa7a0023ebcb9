"""Scoring through the core scorers: MATH with equivalence-aware voting, MBPP through the sandbox, format checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifiers_train.evaluation import score_file
from verifiers_train.evaluation._scoring import ScoreJob, format_ok, score_jobs


@pytest.mark.parametrize(("template", "response", "expected"), [
    ("verl", "3 + 4 = 7\n#### 7", True),
    ("verl", "the answer is 7", False),
    ("boxed", "so \\boxed{7}", True),
    ("boxed", "#### 7", False),
    ("grail", "<start_working_out>x<end_working_out><SOLUTION>7</SOLUTION>", True),
    ("grail", "<SOLUTION></SOLUTION>", False),
    ("mbpp", "```python\ndef f():\n    return 1\n```", True),
    ("mbpp", "def f():\n    return 1", False),
])
def test_format_compliance_follows_the_template(template: str, response: str, expected: bool) -> None:
    assert format_ok(template, response, None) is expected


def test_plain_template_counts_any_extracted_answer() -> None:
    assert format_ok("plain", "7", "7") and not format_ok("plain", "hmm", None)


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_math_votes_group_equivalent_boxed_answers(tmp_path: Path) -> None:
    rows = [{"problem_id": "p", "response": r, "gold": "\\frac{1}{2}"}
            for r in ("\\boxed{0.5}", "\\boxed{1/2}", "\\boxed{3}", "\\boxed{3}", "\\boxed{\\frac12}")]
    rows += [{"problem_id": "q", "response": r, "gold": "4"} for r in ("\\boxed{5}", "no idea", "\\boxed{5}",
                                                                       "\\boxed{4}", "\\boxed{5}")]
    _, m = score_file(_write(tmp_path / "math.jsonl", rows), "math", report=False)
    assert m["n"] == 5 and m["status_counts"]["correct"] == 4
    # p: the three spellings of 1/2 vote together, so over 4-sample subsets they win 2 and tie 3 -> 0.7
    # (exact-string voting would give "3" the win); q: "5" always wins -> 0
    assert m["maj_at_k"]["4"] == pytest.approx((0.7 + 0.0) / 2)
    assert m["maj_at_k"]["1"] == pytest.approx(m["pass_at_k"]["1"])
    assert m["format_compliance"] == pytest.approx(9 / 10)


def test_math_majority_of_all_samples_is_exact(tmp_path: Path) -> None:
    rows = [{"problem_id": "p", "sample_index": i, "response": r, "gold": "\\frac{1}{2}"}
            for i, r in enumerate(("\\boxed{0.5}", "\\boxed{1/2}", "\\boxed{3}", "\\boxed{3}"))]
    rows.append({"problem_id": "p", "sample_index": 4, "response": "\\boxed{\\frac12}", "gold": "\\frac{1}{2}"})
    _, m = score_file(_write(tmp_path / "m.jsonl", rows), "math", report=False, out=str(tmp_path / "o"))
    # maj@4 over the five 4-sample subsets (each drops one sample), ties scored 1/2
    subsets = [[a for j, a in enumerate(["h", "h", "t", "t", "h"]) if j != drop] for drop in range(5)]
    expected = sum(1.0 if s.count("h") > s.count("t") else 0.5 if s.count("h") == s.count("t") else 0.0
                   for s in subsets) / 5
    assert m["maj_at_k"]["4"] == pytest.approx(expected)


def test_mbpp_runs_the_tests_in_the_sandbox(tmp_path: Path) -> None:
    tests = ["assert add(1, 2) == 3", "assert add(0, 0) == 0"]
    rows = [{"response": "```python\ndef add(a, b):\n    return a + b\n```", "tests": tests},
            {"response": "```python\ndef add(a, b):\n    return a - b\n```", "tests": tests},
            {"response": "I cannot write code.", "tests": tests}]
    _, m = score_file(_write(tmp_path / "mbpp.jsonl", rows), "mbpp", report=False)
    assert m["status_counts"]["correct"] == 1 and m["status_counts"]["incorrect"] == 1
    assert m["status_counts"]["no_answer"] == 1
    assert "maj_at_k" not in m  # no answers to vote on for code


def test_a_scorer_crash_is_recorded_on_the_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    from verifiers import gsm8k

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("scorer bug")

    monkeypatch.setattr(gsm8k, "score", boom)
    (row,) = score_jobs("gsm8k", "accuracy", "verl", [ScoreJob("#### 3", "3")])
    assert row["status"] == "error" and "scorer bug" in row["explanation"] and row["correct"] is False


def test_worker_processes_score_like_the_background_thread(tmp_path: Path) -> None:
    rows = [{"problem_id": f"p{i % 3}", "response": f"\\boxed{{{r}}}", "gold": "\\frac{1}{2}"}
            for i, r in enumerate(["0.5", "1/2", "3", "\\frac12", "2/4", "x", "0.50"])]
    data = _write(tmp_path / "m.jsonl", rows)
    _, threaded = score_file(data, "math", report=False, out=str(tmp_path / "t"))
    _, spawned = score_file(data, "math", report=False, out=str(tmp_path / "p"), workers=2)
    assert spawned["status_counts"] == threaded["status_counts"] and spawned["status_counts"]["correct"] == 5
    t_rows = (tmp_path / "t" / "samples.jsonl").read_text().splitlines()
    p_rows = (tmp_path / "p" / "samples.jsonl").read_text().splitlines()
    assert [json.loads(r)["extracted"] for r in t_rows] == [json.loads(r)["extracted"] for r in p_rows]


def test_a_failed_rescore_leaves_no_folder_in_the_way_of_the_rerun(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from verifiers_train.evaluation import _rescore

    data = _write(tmp_path / "g.jsonl", [{"response": "#### 18", "gold": "18"}, {"response": "#### 2", "gold": "18"}])

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(_rescore, "finish_run", disk_full)  # fails after samples.jsonl was written
    with pytest.raises(OSError, match="No space"):
        score_file(data, "gsm8k", out=str(tmp_path / "o"), report=False)
    assert not (tmp_path / "o").exists()
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "notes.txt").write_text("mine")
    with pytest.raises(OSError, match="No space"):
        score_file(data, "gsm8k", out=str(keep), report=False)
    assert (keep / "notes.txt").read_text() == "mine"  # a folder it did not create is not removed
    monkeypatch.undo()
    _, metrics = score_file(data, "gsm8k", out=str(tmp_path / "o"), report=False)  # the same command again
    assert metrics["accuracy"] == 0.5
