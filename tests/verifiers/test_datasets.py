import json

import pytest

from verifiers import DataError, Score
from verifiers.datasets import gsm8k_final_answer, last_boxed, load_problems, read_records


def test_score_rejects_unknown_status():
    with pytest.raises(ValueError):
        Score(0.0, False, "maybe")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dataset", "split", "count"),
    [("gsm8k", "train", 7473), ("gsm8k", "test", 1319), ("math", "test", 5000), ("math500", "test", 500),
     ("mbpp", "test", 500), ("mbpp", "train", 374), ("mbpp", "all", 974)],
)
def test_load_shared_data(data_dir, monkeypatch, dataset, split, count):
    monkeypatch.setenv("VERIFIERS_DATA_DIR", str(data_dir))
    problems = load_problems(dataset, split=split)
    assert len(problems) == count
    assert all(p.question for p in problems)
    if dataset == "mbpp":
        assert all(p.tests for p in problems)
    else:
        assert all(p.gold for p in problems)


def test_load_explicit_file_and_limit(data_dir):
    problems = load_problems("gsm8k", data_dir / "gsm8k" / "test.jsonl", limit=3)
    assert [p.gold for p in problems] == ["18", "3", "70000"]
    sanitized = load_problems("mbpp", data_dir / "mbpp" / "sanitized-mbpp.json")
    assert len(sanitized) == 427


def test_parquet_roundtrip(tmp_path, unavailable):
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        unavailable("pyarrow", f"pyarrow is not installed: {exc}")

    pq.write_table(pa.table({"question": ["q"], "answer": ["x\n#### 1,000"]}), tmp_path / "test.parquet")
    (p,) = load_problems("gsm8k", tmp_path)
    assert p.gold == "1,000"


def test_bad_input_errors(tmp_path):
    with pytest.raises(DataError, match="unknown dataset"):
        load_problems("gsm9k")
    with pytest.raises(DataError, match="no such file"):
        load_problems("gsm8k", tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "q"}\n')
    with pytest.raises(DataError, match="none of the fields"):
        load_problems("gsm8k", bad)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    with pytest.raises(DataError, match="broken.jsonl:1"):
        read_records(broken)
    (tmp_path / "x.json").write_text(json.dumps({"a": 1}))
    with pytest.raises(DataError, match="JSON list"):
        read_records(tmp_path / "x.json")


def test_answer_helpers():
    assert gsm8k_final_answer("a\n#### 18") == "18"
    assert gsm8k_final_answer("no marker") == ""
    assert last_boxed(r"\boxed{1} then \boxed{\frac{1}{2}}") == r"\frac{1}{2}"
    assert last_boxed(r"\boxed{1} then \boxed{2") is None
    assert last_boxed("nothing") is None
