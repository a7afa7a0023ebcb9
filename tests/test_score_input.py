"""One input policy for rescoring in `verifiers score` and `verifiers-eval score` (`verifiers.rows`)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import verifiers.cli as verifiers_cli
import verifiers_train.evaluation.cli as eval_cli
from verifiers import rows as policy
from verifiers.errors import DataError
from verifiers.rows import gold_of, read_rows, response_of

GOOD = {"response": "2 + 2 = 4\n#### 4", "gold": "4"}
LIST_RESPONSE = {"response": ["#### 4"], "gold": "4"}  # would score correct if stringified


def _jsonl(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _dump(row: dict[str, Any]) -> bytes:
    return json.dumps(row).encode()


def test_policy_functions() -> None:
    assert response_of(GOOD) == GOOD["response"]
    with pytest.raises(DataError, match="'response' is a JSON list, not a string"):
        response_of(LIST_RESPONSE)
    with pytest.raises(DataError, match="no 'completion' field.*--response-field"):
        response_of(GOOD, "completion")
    assert gold_of({"gold": 18}) == "18" and gold_of({"gold": 2.5}) == "2.5"
    with pytest.raises(DataError, match="a gold must be a string or a number"):
        gold_of({"gold": True})
    asserts = ["assert f(1) == 2"]
    assert policy.tests_of({"tests": asserts}) == asserts == policy.tests_of({"tests": json.dumps(asserts)})
    with pytest.raises(DataError, match="list of assert strings"):
        policy.tests_of({"tests": [1, 2]})


def test_bom_bad_utf8_bad_json_and_non_objects_are_bad_rows(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "r.jsonl", [b"\xef\xbb\xbf" + _dump(GOOD), b"\xff\xfe{}", b"{not json", b"[1]",
                                         b"", _dump(GOOD)])
    rows, bad = read_rows(path)
    assert [n for n, _ in rows] == [1, 6]  # the BOM is dropped, the row read
    assert [(b.row, b.reason.split(" (")[0]) for b in bad] == [(2, "not valid UTF-8"), (3, "not valid JSON"),
                                                               (4, "a JSON list, not an object")]
    json_file = tmp_path / "r.json"
    json_file.write_bytes(b"\xef\xbb\xbf" + json.dumps([GOOD, 3]).encode())
    rows, bad = read_rows(json_file)
    assert [n for n, _ in rows] == [1] and bad[0].row == 2


def test_both_clis_refuse_the_same_row_for_the_same_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _jsonl(tmp_path / "r.jsonl", [_dump(GOOD), _dump(LIST_RESPONSE)])
    assert verifiers_cli.main(["score", "--task", "gsm8k", str(path)]) == 2
    first = capsys.readouterr().err
    assert eval_cli.main(["score", str(path), "--task", "gsm8k", "--out", str(tmp_path / "o"), "--no-report"]) == 2
    second = capsys.readouterr().err
    for err, prog in ((first, "verifiers score"), (second, "verifiers-eval score")):
        assert err.startswith(f"{prog}: error: ") and "row 2: 'response' is a JSON list, not a string" in err
        assert "--skip-bad-rows" in err


def test_skip_bad_rows_scores_the_rest_and_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _jsonl(tmp_path / "r.jsonl", [_dump(GOOD), _dump(LIST_RESPONSE), b"\xff", _dump({**GOOD, "gold": 5})])
    out = tmp_path / "scored.jsonl"
    assert verifiers_cli.main(["score", "--task", "gsm8k", str(path), "-o", str(out), "--skip-bad-rows",
                               "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["scored"] == 2 and summary["skipped_bad_rows"] == 2 and summary["correct"] == 1
    assert [json.loads(line)["score"]["status"] for line in out.read_text().splitlines()] == ["correct", "incorrect"]
    run = tmp_path / "run"
    assert eval_cli.main(["score", str(path), "--task", "gsm8k", "--out", str(run), "--skip-bad-rows",
                          "--no-report", "--json"]) == 0
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["skipped_bad_rows"] == 2 and metrics["samples"] == 2
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["skipped_bad_rows"] == 2


def test_stdin_in_and_stdout_out(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = b"\xef\xbb\xbf" + _dump(GOOD) + b"\n" + _dump({**GOOD, "gold": "5"}) + b"\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert verifiers_cli.main(["score", "--task", "gsm8k", "-"]) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert [r["score"]["correct"] for r in rows] == [True, False]
    assert "1/2 correct" in captured.err  # the summary goes to stderr when stdout carries the rows
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert verifiers_cli.main(["score", "--task", "gsm8k", "-", "--json"]) == 2  # two things for one stdout
    assert "pass -o FILE" in capsys.readouterr().err


def test_eval_score_reads_stdin_into_a_run_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_dump(GOOD) + b"\n")))
    assert eval_cli.main(["score", "-", "--task", "gsm8k", "--out", str(tmp_path / "run"), "--no-report"]) == 0
    assert json.loads((tmp_path / "run" / "metrics.json").read_text())["accuracy"] == 1.0


def test_verifiers_score_supports_mbpp(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = "```python\ndef add(a, b):\n    return a + b\n```"
    tests = ["assert add(1, 2) == 3"]
    path = _jsonl(tmp_path / "m.jsonl", [_dump({"response": code, "tests": tests}),
                                         _dump({"response": code.replace("a + b", "a - b"),
                                                "tests": json.dumps(tests)})])
    assert verifiers_cli.main(["score", "--task", "mbpp", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["correct"] == 1
    scored = [json.loads(line) for line in (tmp_path / "m.scored.jsonl").read_text().splitlines()]
    assert [s["score"]["correct"] for s in scored] == [True, False]
