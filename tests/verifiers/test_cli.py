"""The ``verifiers`` console script: score and validate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifiers.cli import main


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_score_writes_per_row_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _write(tmp_path / "rollouts.jsonl", [
        {"response": "#### 18", "gold": "18", "id": 1},
        {"response": "#### 17", "gold": "18", "id": 2},
        {"response": "no idea", "gold": "18", "id": 3},
    ])
    assert main(["score", "--task", "gsm8k", str(src)]) == 0
    out = [json.loads(line) for line in (tmp_path / "rollouts.scored.jsonl").read_text().splitlines()]
    assert [r["score"]["status"] for r in out] == ["correct", "incorrect", "no_answer"]
    assert [r["id"] for r in out] == [1, 2, 3]  # rows are kept whole
    printed = capsys.readouterr().out
    assert "1/3" in printed and "no_answer" in printed


def test_score_custom_fields_and_preset(tmp_path: Path) -> None:
    src = _write(tmp_path / "r.jsonl", [{"completion": "Work.\nMore.\n\\boxed{\\frac12}", "answer": "0.5"}])
    dest = tmp_path / "out.jsonl"
    assert main(["score", "--task", "math", str(src), "--response-field", "completion", "--gold-field",
                 "answer", "--preset", "book", "-o", str(dest)]) == 0
    score = json.loads(dest.read_text())["score"]
    assert score["correct"] and score["reward"] == pytest.approx(0.875)


def test_score_missing_field_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _write(tmp_path / "r.jsonl", [{"text": "#### 1", "gold": "1"}])
    assert main(["score", "--task", "gsm8k", str(src)]) == 2
    assert "--response-field" in capsys.readouterr().err


def test_score_missing_file(tmp_path: Path) -> None:
    assert main(["score", "--task", "gsm8k", str(tmp_path / "nope.jsonl")]) == 2


def test_validate_gsm8k(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--task", "gsm8k", "--data", str(data_dir / "gsm8k" / "test.jsonl")]) == 0
    assert "100.00%" in capsys.readouterr().out


def test_validate_math500_and_failure_output(data_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "failures.jsonl"
    code = main(["validate", "--task", "math", "--data", str(data_dir / "math" / "math500.jsonl"), "-o", str(out)])
    assert code == 0 and out.exists()


def test_validate_fails_below_min_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _write(tmp_path / "test.jsonl", [
        {"question": "q", "answer": "so 2\n#### 2"}, {"question": "q", "answer": "it is four\n#### four"}])
    assert main(["validate", "--task", "gsm8k", "--data", str(src)]) == 1
    assert "gsm8k/test/1" in capsys.readouterr().out


def test_bad_preset_is_an_argparse_error() -> None:
    with pytest.raises(SystemExit):
        main(["score", "--task", "gsm8k", "x.jsonl", "--preset", "nope"])


@pytest.mark.parametrize("flags", [["--limit", "-3"], ["--limit", "0"], ["--min-rate", "1.5"], ["--min-rate", "-0.1"],
                                   ["--min-rate", "nan"], ["--show", "-1"], ["--workers", "0"]])
def test_validate_refuses_out_of_range_numbers(flags: list[str], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    src = _write(tmp_path / "test.jsonl", [{"question": "q", "answer": "so 2\n#### 2"}])
    with pytest.raises(SystemExit) as exit_info:
        main(["validate", "--task", "gsm8k", "--data", str(src), *flags])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"verifiers validate: error: argument {flags[0]}: must be ") and err.count("\n") == 1, err


def test_validate_of_no_problems_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "test.jsonl"
    src.write_text("", encoding="utf-8")
    assert main(["validate", "--task", "gsm8k", "--data", str(src)]) == 2
    assert capsys.readouterr().err == f"verifiers validate: error: no gsm8k problems in {src}; nothing to validate\n"


@pytest.mark.parametrize("flags", [["--workers", "0"], ["--timeout", "0"], ["--rel-tol", "-1"], ["--max-chars", "0"]])
def test_score_refuses_bad_numbers_before_touching_the_output(flags: list[str], tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    src = _write(tmp_path / "r.jsonl", [{"response": "#### 2", "gold": "2"}])
    dest = tmp_path / "out.jsonl"
    dest.write_text("earlier results\n", encoding="utf-8")
    try:
        code = main(["score", "--task", "gsm8k", str(src), "-o", str(dest), *flags])
    except SystemExit as e:  # refused by the parser
        code = e.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("verifiers score: error: ") and err.count("\n") == 1, err
    assert dest.read_text(encoding="utf-8") == "earlier results\n"
