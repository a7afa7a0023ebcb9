"""The task registry: every registered task reaches every consumer, and a task added through the registry alone
works in ``verifiers score``, ``verifiers-train prepare``, ``verifiers-eval checkpoint`` and the verl reward."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import pytest

from verifiers import tasks
from verifiers.errors import ConfigError


def _choices(parser: argparse.ArgumentParser, command: str, flag: str) -> tuple[str, ...]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in sub.choices[command]._actions if flag in a.option_strings)
    return tuple(action.choices or ())


def _consumers_see(name: str) -> None:
    from verifiers import cli as verifiers_cli
    from verifiers_train import cli as train_cli
    from verifiers_train.evaluation import cli as eval_cli
    from verifiers_train.evaluation._scoring import scorer_config, vote_equivalence
    from verifiers_train.reward import result_keys, task_for
    from verifiers_train.trl_rewards import reward_funcs

    spec = tasks.get(name)
    assert name in _choices(verifiers_cli.build_parser(), "score", "--task")
    assert name in _choices(verifiers_cli.build_parser(), "validate", "--task")
    assert name in _choices(train_cli.build_parser(), "prepare", "--task")
    assert name in _choices(eval_cli.build_parser(), "checkpoint", "--task")
    assert name in _choices(eval_cli.build_parser(), "score", "--task")
    for source in (name, *spec.data_sources):
        assert task_for(source) == spec.scorer_name and tasks.for_data_source(source) is not None
    assert any(k.startswith("part_") for k in result_keys())
    assert reward_funcs(name) and scorer_config(name, "accuracy") is not None
    assert (vote_equivalence(name) is None) is (not spec.reference.votes)


@pytest.mark.parametrize("name", tasks.names())
def test_every_task_is_visible_to_every_consumer(name: str) -> None:
    _consumers_see(name)


def test_unknown_names() -> None:
    with pytest.raises(ConfigError, match="gsm8k, math"):
        tasks.get("nope")
    assert tasks.for_data_source("codecontests") is None
    assert tasks.for_data_source("HuggingFaceH4/MATH-500").name == "math500"
    assert tasks.for_data_source("my-mbpp-plus") is None  # only exact names (ignoring case) mean a task


def test_register_refuses_to_take_over_a_task_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tasks, "_REGISTRY", dict(tasks._REGISTRY))
    gsm8k, mine = tasks.get("gsm8k"), tasks.TaskSpec("mine", tasks.get("math").scorer, ("me/mine",), tasks.math_row)
    assert tasks.register(mine) is mine and tasks.register(mine) is mine  # the same spec again: nothing changes
    for clash, why in ((dataclasses.replace(gsm8k, scorer=mine.scorer), "task 'gsm8k' is already registered"),
                       (dataclasses.replace(mine, name="mine2"), "data_source 'me/mine' is task 'mine'"),
                       (dataclasses.replace(mine, name="other", data_sources=("OPENAI/gsm8k",)), "is task 'gsm8k'")):
        with pytest.raises(ConfigError, match=why):
            tasks.register(clash)
    assert tasks.get("gsm8k") is gsm8k and tasks.for_data_source("openai/gsm8k") is gsm8k
    replaced = tasks.register(dataclasses.replace(gsm8k, template="boxed"), replace=True)
    assert tasks.get("gsm8k") is replaced


@pytest.fixture
def sums(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A throwaway task, ``sums``, defined only through the registry; its data under VERIFIERS_DATA_DIR."""
    data = tmp_path / "data"
    (data / "sums").mkdir(parents=True)
    rows = [{"question": f"Ann has {a} pens and gets {b} more. How many pens does Ann have now?",
             "answer": f"Ann has {a} + {b} = {a + b} pens.\n#### {a + b}"} for a in range(1, 4) for b in range(1, 4)]
    (data / "sums" / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    monkeypatch.setenv("VERIFIERS_DATA_DIR", str(data))
    monkeypatch.setattr(tasks, "_REGISTRY", dict(tasks._REGISTRY))  # the task is gone after the test
    tasks.register(tasks.TaskSpec("sums", tasks.get("gsm8k").scorer, ("test/sums",), tasks.answer_row,
                                  scorer_name="gsm8k", template="verl", local_files={"test": "sums/test.jsonl"},
                                  splits={"test": "test"}))
    return tmp_path


def test_a_task_added_through_the_registry_works_everywhere(sums: Path, tiny_model: Path) -> None:
    import pyarrow.parquet as pq

    from verifiers import cli as verifiers_cli
    from verifiers_train import cli as train_cli
    from verifiers_train.evaluation import cli as eval_cli
    from verifiers_train.reward import compute_score

    _consumers_see("sums")
    # verifiers score
    scored = sums / "responses.jsonl"
    scored.write_text(json.dumps({"response": "3 + 4 = 7\n#### 7", "gold": "7"}) + "\n"
                      + json.dumps({"response": "#### 8", "gold": "7"}) + "\n")
    assert verifiers_cli.main(["score", "--task", "sums", str(scored), "-o", str(sums / "out.jsonl")]) == 0
    verdicts = [json.loads(line)["score"]["correct"] for line in (sums / "out.jsonl").read_text().splitlines()]
    assert verdicts == [True, False]
    assert verifiers_cli.main(["validate", "--task", "sums"]) == 0  # every gold self-verifies
    # verifiers-train prepare: verl parquet with the task's data_source and ground truth
    assert train_cli.main(["prepare", "--dataset", "sums", "--out", str(sums / "parquet")]) == 0
    rows = pq.read_table(sums / "parquet" / "test.parquet").to_pylist()
    assert len(rows) == 9 and {r["data_source"] for r in rows} == {"test/sums"}
    # the verl reward, on the rows prepare wrote
    row = rows[0]
    gold = row["reward_model"]["ground_truth"]
    assert compute_score(row["data_source"], f"so #### {gold}", gold, row["extra_info"])["acc"] == 1.0
    assert compute_score(row["data_source"], "#### 1000", gold, row["extra_info"])["acc"] == 0.0
    # verifiers-eval checkpoint with the HF backend on the tiny model
    out = sums / "eval"
    assert eval_cli.main(["checkpoint", str(tiny_model), "--dataset", "sums", "--backend", "hf", "--limit", "4",
                          "--max-tokens", "24", "--out", str(out), "--no-report", "--quiet"]) == 0
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 4 and all(s["status"] in ("correct", "incorrect", "no_answer") for s in samples)
    assert json.loads((out / "config.json").read_text())["template"] == "verl"
