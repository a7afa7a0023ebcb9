"""`prepare`: verl's parquet schema, filtering, sources, and verl's own RLHFDataset reading the result."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from verifiers.errors import ConfigError, DataError
from verifiers_train.cli import main
from verifiers_train.prepare import META_FILE, prepare, read_meta


def _rows(path: Path) -> list[dict]:
    return pq.read_table(path).to_pylist()


def test_arith_rows_have_verls_schema(tmp_path: Path) -> None:
    result = prepare("arith", tmp_path, limit=40, echo=None)
    assert set(result.files) == {"train", "test"}
    rows = _rows(result.files["train"])
    assert len(rows) == result.rows["train"] == 40
    row = rows[0]
    assert set(row) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}
    assert row["data_source"] == "arith" and row["ability"] == "math"
    assert row["prompt"][-1]["role"] == "user" and "####" in row["prompt"][-1]["content"]  # verl template
    assert row["reward_model"] == {"style": "rule", "ground_truth": row["reward_model"]["ground_truth"]}
    assert row["reward_model"]["ground_truth"].isdigit()
    assert set(row["extra_info"]) == {"split", "index", "id", "question", "setup_code", "level"}
    assert row["extra_info"]["split"] == "train" and row["extra_info"]["level"] == "1"
    meta = read_meta(tmp_path)
    assert meta is not None and meta["dataset"] == "arith" and meta["template"] == "verl"


def test_template_and_system_prompt_are_applied(tmp_path: Path) -> None:
    result = prepare("arith", tmp_path, limit=3, template="grail", system_prompt="Be brief.", echo=None)
    prompt = _rows(result.files["test"])[0]["prompt"]
    assert prompt[0] == {"role": "system", "content": "Be brief."} and prompt[1]["role"] == "user"


def test_gsm8k_gold_is_the_final_answer(tmp_path: Path, data_dir: Path) -> None:
    result = prepare("gsm8k", tmp_path, source=str(data_dir / "gsm8k"), limit=20, echo=None)
    first = json.loads((data_dir / "gsm8k" / "test.jsonl").read_text().splitlines()[0])
    row = _rows(result.files["test"])[0]
    assert row["data_source"] == "openai/gsm8k"
    assert row["reward_model"]["ground_truth"] == first["answer"].rsplit("####", 1)[1].strip().replace(",", "") \
        or row["reward_model"]["ground_truth"] == first["answer"].rsplit("####", 1)[1].strip()


def test_mbpp_tests_are_json_and_concatenate_with_gsm8k(tmp_path: Path, data_dir: Path) -> None:
    import datasets

    mbpp = prepare("mbpp", tmp_path / "mbpp", source=str(data_dir / "mbpp" / "mbpp.jsonl"), limit=10, echo=None)
    gsm = prepare("gsm8k", tmp_path / "gsm", source=str(data_dir / "gsm8k"), limit=10, echo=None)
    row = _rows(mbpp.files["test"])[0]
    tests = json.loads(row["reward_model"]["ground_truth"])
    assert isinstance(tests, list) and tests[0].startswith("assert")
    assert row["ability"] == "code" and "```python" in row["prompt"][-1]["content"]
    # verl concatenates files; same column types everywhere is what makes this work.
    merged = datasets.concatenate_datasets([
        datasets.load_dataset("parquet", data_files=str(p), split="train")
        for p in (mbpp.files["test"], gsm.files["test"])])
    assert len(merged) == mbpp.rows["test"] + gsm.rows["test"]


def test_overlong_prompts_are_dropped_and_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = prepare("arith", tmp_path, limit=200, max_prompt_length=60)
    out = capsys.readouterr().out
    assert 0 < result.overlong["train"] < 200
    assert result.rows["train"] + result.overlong["train"] == 200
    assert f"dropped {result.overlong['train']} prompts longer than 60 tokens (character estimate" in out


def test_tokenizer_measure_is_reported(tmp_path: Path, tiny_model_dir: Path) -> None:
    result = prepare("arith", tmp_path, limit=20, tokenizer=str(tiny_model_dir), echo=None)
    assert result.length_measure == f"tokenizer {tiny_model_dir}"


def test_every_prompt_too_long_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="raise --max-prompt-length"):
        prepare("arith", tmp_path, limit=5, max_prompt_length=3, echo=None)


def test_an_empty_split_names_its_real_cause(tmp_path: Path, data_dir: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    lines = (data_dir / "gsm8k" / "test.jsonl").read_text(encoding="utf-8").splitlines()
    test, train = tmp_path / "test.jsonl", tmp_path / "train.jsonl"
    test.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    # train is the test data: the overlap removal empties it, no prompt is too long
    train.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["prepare", "--task", "gsm8k", "--data", str(train), "--test-data", str(test),
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("verifiers-train prepare: error: the train split is empty: ")
    assert "3 problem(s) removed because their question also appears in test" in err[0]
    assert "--test-data" in err[0] and "max-prompt-length" not in err[0]
    assert not out.exists() or not any(out.iterdir())  # nothing written, test.parquet neither
    # both causes: one problem overlaps, the other two are too long
    train.write_text("\n".join(lines[2:5]) + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"1 problem\(s\) removed .* and 2 prompt\(s\) longer than "
                                        r"max_prompt_length=10 .*--test-data.*, or raise --max-prompt-length"):
        prepare("gsm8k", out, source=str(train), test_source=str(test), max_prompt_length=10, echo=None)


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"dataset": "gsm9k"}, DataError, "unknown dataset 'gsm9k'"),
    ({"dataset": "gsm8k", "source": "/nonexistent/train.jsonl"}, DataError, "no such file"),
    ({"dataset": "arith", "template": "nope"}, ConfigError, "unknown template 'nope'"),
    ({"dataset": "arith", "tokenizer": "/nonexistent-tokenizer"}, ConfigError, "could not load tokenizer"),
])
def test_bad_input_gets_one_clear_error(tmp_path: Path, kwargs: dict, error: type, match: str) -> None:
    dataset = kwargs.pop("dataset")
    with pytest.raises(error, match=match):
        prepare(dataset, tmp_path, echo=None, **kwargs)
    assert not (tmp_path / META_FILE).exists()  # nothing half-written


def test_cli_prepare_reports_errors_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prepare", "--dataset", "gsm8k", "--source", "/nonexistent/x.jsonl", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such file" in err[0]
    assert main(["prepare", "--dataset", "arith", "--limit", "5", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "train.parquet").is_file()


def test_verls_rlhf_dataset_reads_our_parquet(tmp_path: Path, tiny_model_dir: Path) -> None:
    """verl's own dataset class, with the data config our run would pass, keeps every row we wrote."""
    from transformers import AutoTokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from verifiers_train.run import plan
    from verifiers_train.verl_check import compose

    max_len = 120
    result = prepare("arith", tmp_path / "data", limit=60, tokenizer=str(tiny_model_dir),
                     max_prompt_length=max_len, echo=None)
    p = plan({"algo": "grpo", "dataset": "arith", "model": str(tiny_model_dir), "data": str(tmp_path / "data"),
              "out": str(tmp_path / "run"), "max_prompt_length": max_len, "batch_size": 8, "mini_batch_size": 4})
    config = compose(p.overrides + [f"+data.cache_dir={tmp_path / 'cache'}"])
    tok = AutoTokenizer.from_pretrained(tiny_model_dir)
    ds = RLHFDataset(data_files=[str(result.files["train"])], tokenizer=tok, config=config.data)
    assert len(ds) == result.rows["train"]  # verl's own overlong filter drops nothing more
    item = ds[0]
    assert item["raw_prompt"] == _rows(result.files["train"])[0]["prompt"]
    assert item["data_source"] == "arith" and item["reward_model"]["style"] == "rule"
    assert item["index"] == 0


# ------------------------------------------------------------------ prepare and run agree on prompt length
def test_prepare_and_run_share_one_default_prompt_limit() -> None:
    from verifiers_train.cli import build_parser
    from verifiers_train.options import RunOptions

    prepare_default = build_parser().parse_args(["prepare", "--task", "arith", "-o", "x"]).max_prompt_length
    assert prepare_default == RunOptions().max_prompt_length == 512


@pytest.mark.parametrize("preset", ["grpo-baseline", "ppo-0.5b", "ppo-7b-minimal", None])
def test_data_prepared_with_defaults_never_warns_about_prompt_length(tmp_path: Path, data_dir: Path,
                                                                     tiny_model_dir: Path, preset: str | None) -> None:
    from verifiers_train.run import plan

    data = tmp_path / "data"
    prepare("gsm8k", data, source=str(data_dir / "gsm8k"), limit=50, echo=None)
    values = {"dataset": "gsm8k", "data": str(data), "model": str(tiny_model_dir), "out": str(tmp_path / "run"),
              "preset": preset, "batch_size": 8, "mini_batch_size": 4, "micro_batch_size": 4,
              "log_prob_micro_batch_size": 4, "dynamic_bsz": False, "gpus": 1}
    p = plan(values, env={})
    assert not [w for w in p.warnings if "prompt" in w], p.warnings


def test_prompt_warning_follows_the_longest_prepared_prompt(tmp_path: Path, tiny_model_dir: Path) -> None:
    from verifiers_train.run import plan

    data = tmp_path / "data"
    result = prepare("arith", data, limit=30, max_prompt_length=4096, echo=None)
    longest = max(result.meta["longest_prompt"].values())
    assert 0 < longest <= 4096 and set(result.meta["longest_prompt"]) == {"train", "test"}
    base = {"dataset": "arith", "data": str(data), "model": str(tiny_model_dir), "out": str(tmp_path / "run"),
            "batch_size": 8, "mini_batch_size": 4}
    # filtered at 4,096 but every prompt is shorter than the run's limit: nothing is dropped, no warning
    assert not [w for w in plan({**base, "max_prompt_length": longest}, env={}).warnings if "prompt" in w]
    warned = [w for w in plan({**base, "max_prompt_length": longest - 1}, env={}).warnings if "prompt" in w]
    assert len(warned) == 1 and f"reach {longest} tokens" in warned[0] and f"allows {longest - 1}" in warned[0]
    # data prepared before the longest prompt was recorded: the filter is all there is to compare
    meta = json.loads((data / META_FILE).read_text())
    del meta["longest_prompt"]
    (data / META_FILE).write_text(json.dumps(meta))
    warned = [w for w in plan({**base, "max_prompt_length": 512}, env={}).warnings if "prompt" in w]
    assert warned == ["data was filtered at 4096 prompt tokens but the run allows 512; verl drops the longer prompts"]
