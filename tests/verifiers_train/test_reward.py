"""`compute_score` for verl: dispatch, stable keys, never raising, reward kwargs, and verl's own loader."""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from verifiers.errors import ConfigError
from verifiers_train.reward import CORE_KEYS, check_reward_kwargs, compute_score, result_keys, task_for

SAMPLES = [
    ("openai/gsm8k", "She has 3 + 15 = 18.\n#### 18", "18", None, 1.0),
    ("gsm8k", "The answer is 17.", "18", None, 0.0),
    ("arith", "Tom has 5 - 2 = 3 pens.\n#### 3", "3", None, 1.0),
    ("DigitalLearningGmbH/MATH-lighteval", "So $x = \\boxed{\\frac{1}{2}}$.", "\\frac{1}{2}", None, 1.0),
    ("HuggingFaceH4/MATH-500", "\\boxed{3}", "4", None, 0.0),
]


@pytest.mark.parametrize(("source", "response", "gold", "extra", "acc"), SAMPLES)
def test_dispatch_and_verdicts(source: str, response: str, gold: str, extra: dict | None, acc: float) -> None:
    r = compute_score(source, response, gold, extra)
    assert r["acc"] == acc and r["score"] == acc and r["error"] == 0.0
    assert set(r) == set(result_keys())


def test_pred_is_the_extracted_answer() -> None:
    assert compute_score("openai/gsm8k", "... #### 18", "18")["pred"] == "18"
    r = compute_score("openai/gsm8k", "I do not know", "18")
    assert r["pred"] == "" and r["no_answer"] == 1.0 and r["acc"] == 0.0


def test_mbpp_runs_the_json_encoded_tests() -> None:
    tests = json.dumps(["assert add(1, 2) == 3", "assert add(-1, 1) == 0"])
    good = compute_score("mbpp", "```python\ndef add(a, b):\n    return a + b\n```", tests, {"setup_code": ""})
    bad = compute_score("mbpp", "```python\ndef add(a, b):\n    return a - b\n```", tests, {"setup_code": ""})
    assert good["acc"] == 1.0 and good["score"] > bad["score"] and bad["acc"] == 0.0
    assert set(good) == set(bad) == set(result_keys())


def test_same_keys_for_every_sample_and_source() -> None:
    """verl builds one numpy array per key from the first sample's keys: every result must match."""
    results = [compute_score(s, r, g, e) for s, r, g, e, _ in SAMPLES]
    results.append(compute_score("mbpp", "not code", json.dumps(["assert f() == 1"])))
    results.append(compute_score("no-such-source", "x", "1"))
    keys = list(results[0])
    assert keys[: len(CORE_KEYS)] == list(CORE_KEYS)
    assert all(list(r) == keys for r in results)
    arrays = {k: np.array([r[k] for r in results]) for k in keys}  # what verl does
    assert arrays["score"].dtype.kind == "f" and arrays["pred"].dtype.kind == "U"


@pytest.mark.parametrize(("source", "response", "gold", "extra"), [
    ("no-such-source", "#### 18", "18", None),
    ("mbpp", "def f(): return 1", "this is not json", {}),
    ("openai/gsm8k", None, "18", None),
    ("mbpp", "x", json.dumps(["assert True"]), {"setup_code": None}),
])
def test_never_raises_flags_and_logs(source: str, response: object, gold: str, extra: dict | None,
                                     caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("verifiers_train.reward._unknown_sources", set())  # reported once per process
    with caplog.at_level(logging.ERROR, logger="verifiers_train.reward"):
        r = compute_score(source, response, gold, extra)  # type: ignore[arg-type]
    assert r["score"] == 0.0 and r["acc"] == 0.0
    if r["error"] == 1.0:  # an unknown data source is a configuration problem: said once, with the fix
        assert ("verifiers reward failed" if source != "no-such-source" else "no verifiers scorer") in caplog.text


def test_extra_info_is_not_modified() -> None:
    extra = {"setup_code": "", "split": "test", "index": 3}
    before = dict(extra)
    compute_score("mbpp", "def f():\n    return 1", json.dumps(["assert f() == 1"]), extra)
    assert extra == before


def test_reward_kwargs_select_preset_and_parts() -> None:
    response = "First, 3 + 15 = 18.\nSo the answer is 18.\n#### 18"
    plain = compute_score("openai/gsm8k", response, "18")
    book = compute_score("openai/gsm8k", response, "18", preset="book")
    assert "part_reasoning" in book and "part_reasoning" not in plain
    # README: book = 0.75 x correctness + 0.25 x format, format = reasoning 0.3 + answer marker 0.2
    assert plain["score"] == 1.0
    assert (book["part_correctness"], book["part_reasoning"], book["part_marker"]) == (1.0, 1.0, 1.0)
    assert book["score"] == pytest.approx(0.75 + 0.25 * (0.3 + 0.2))
    bare = compute_score("openai/gsm8k", "#### 18", "18", preset="book")  # no reasoning: the marker only
    assert (bare["part_reasoning"], bare["part_marker"]) == (0.0, 1.0)
    assert bare["score"] == pytest.approx(0.75 + 0.25 * 0.2)
    weighted = compute_score("openai/gsm8k", response, "18", weights={"correctness": 0.5})
    assert weighted["score"] == pytest.approx(0.5)
    # verl adds these itself; they must not be mistaken for scorer settings
    assert compute_score("openai/gsm8k", response, "18", reward_router_address=None)["acc"] == 1.0


def test_bad_reward_kwargs_fail_fast_at_check_but_never_in_compute() -> None:
    with pytest.raises(ConfigError, match="unknown reward kwargs"):
        check_reward_kwargs(("gsm8k",), presett="book")
    with pytest.raises(ConfigError, match="unknown preset"):
        check_reward_kwargs(("gsm8k",), preset="bok")
    r = compute_score("openai/gsm8k", "#### 18", "18", preset="bok")
    assert r["error"] == 1.0 and r["score"] == 0.0


def test_task_for_names() -> None:
    assert task_for("openai/gsm8k") == "gsm8k" and task_for("arith") == "gsm8k"
    assert task_for("lighteval/MATH") == "math" and task_for("OpenAI/GSM8K") == "gsm8k"  # case does not matter
    # a name inside another source means nothing: a plug-in task that failed to load must not get a built-in's
    # scorer (me/gsm8k-hard), nor an unrelated dataset one whose name contains a task (me/mathvista-mc)
    for source in ("codecontests", "my-mbpp-plus", "me/gsm8k-hard", "me/mathvista-mc"):
        assert task_for(source) is None
        r = compute_score(source, "The answer is (B). #### 18", "18")
        assert r["error"] == 1.0 and r["score"] == 0.0


def test_thread_safe_like_verls_executor() -> None:
    """verl runs a sync reward in the event loop's thread pool; results must not depend on that."""
    args = [(s, r, g, e) for s, r, g, e, _ in SAMPLES] * 40
    serial = [compute_score(*a) for a in args]
    with ThreadPoolExecutor(8) as pool:
        threaded = list(pool.map(lambda a: compute_score(*a), args))
    assert threaded == serial


def _batch(tokenizer: object, samples: list[tuple[str, str, str]]) -> object:
    """A DataProto shaped like the agent loop's output: prompts, responses, attention mask, metadata."""
    import torch
    from verl import DataProto

    prompt_len, resp_len = 4, 48
    pad = tokenizer.pad_token_id  # type: ignore[attr-defined]
    prompts = torch.full((len(samples), prompt_len), pad)
    responses = torch.full((len(samples), resp_len), pad)
    mask = torch.zeros((len(samples), prompt_len + resp_len), dtype=torch.long)
    for i, (_, text, _) in enumerate(samples):
        ids = tokenizer(text, add_special_tokens=False)["input_ids"][:resp_len]  # type: ignore[operator]
        responses[i, : len(ids)] = torch.tensor(ids)
        mask[i, :prompt_len] = 1
        mask[i, prompt_len : prompt_len + len(ids)] = 1
    return DataProto.from_dict(
        tensors={"prompts": prompts, "responses": responses, "attention_mask": mask},
        non_tensors={
            "data_source": np.array([s for s, _, _ in samples], dtype=object),
            "reward_model": np.array([{"style": "rule", "ground_truth": g} for _, _, g in samples], dtype=object),
            "extra_info": np.array([{"split": "test", "index": i} for i in range(len(samples))], dtype=object),
        },
    )


def test_verls_loader_loads_and_scores_through_pkg_path(tmp_path: Path, tiny_model_dir: Path) -> None:
    """verl's RewardLoopWorker (what each reward actor runs) loads `pkg://verifiers_train.reward`
    from the config our launcher composes, with reward kwargs, and scores a batch."""
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker
    from verl.experimental.reward_loop.reward_manager.naive import NaiveRewardManager

    from verifiers_train.run import plan
    from verifiers_train.verl_check import compose

    p = plan({"algo": "grpo", "dataset": "gsm8k", "model": str(tiny_model_dir), "out": str(tmp_path / "run"),
              "batch_size": 8, "mini_batch_size": 4, "reward_preset": "book"}, env={})
    assert "reward.custom_reward_function.path=pkg://verifiers_train.reward" in p.overrides
    config = compose(p.overrides)
    worker = RewardLoopWorker(config)
    assert isinstance(worker.reward_manager, NaiveRewardManager)
    samples = [("openai/gsm8k", "3 + 15 = 18\n#### 18", "18"), ("openai/gsm8k", "#### 17", "18"),
               ("arith", "5 - 2 = 3\n#### 3", "3"), ("HuggingFaceH4/MATH-500", "\\boxed{4}", "4")]
    data = _batch(worker.input_tokenizer, samples)
    outputs = worker.loop.run_until_complete(worker.compute_score_batch(data))
    scores = [o["reward_score"] for o in outputs]
    infos = [o["reward_extra_info"] for o in outputs]
    assert [i["acc"] for i in infos] == [1.0, 0.0, 1.0, 1.0]
    assert scores[0] > scores[1] and "part_reasoning" in infos[0]  # the book preset reached the scorer
    keys = list(infos[0])
    assert all(list(i) == keys for i in infos)
    rm = NaiveRewardManager.assemble_rm_scores(data, scores)  # verl's own placement on the last token
    assert rm.sum().item() == pytest.approx(sum(scores))


def test_a_row_reports_only_its_own_scorers_parts() -> None:
    gsm = compute_score("openai/gsm8k", "#### 18", "18")
    code = compute_score("mbpp", "```python\ndef f():\n    return 1\n```", json.dumps(["assert f() == 1"]))
    assert gsm["part_correctness"] == 1.0 and gsm["part_all_passed"] is None  # MBPP's part: not this row's
    assert code["part_all_passed"] == 1.0
    wrong = compute_score("openai/gsm8k", "#### 17", "18")
    assert wrong["part_correctness"] == 0.0 and wrong["part_all_passed"] is None  # its own part: a real 0
    # a row no scorer knows has no parts of its own; a scorer that fails scores its weighted parts 0
    unknown = compute_score("no-such-source", "x", "1")
    assert unknown["error"] == 1.0 and all(v is None for k, v in unknown.items() if k.startswith("part_"))
    failed = compute_score("mbpp", "x", "this is not json")
    assert failed["error"] == 1.0 and failed["part_all_passed"] == 0.0
    failed = compute_score("openai/gsm8k", None, "18")  # type: ignore[arg-type]
    assert failed["part_correctness"] == 0.0 and failed["part_all_passed"] is None


def test_verls_validation_metrics_of_a_mixed_batch_mean_the_right_thing() -> None:
    """verl's own per-data_source aggregation: MBPP's part is averaged over MBPP rows only, and a GSM8K
    source reports no MBPP part (it used to report ``part_all_passed`` 0.0 for every GSM8K row)."""
    from verl.trainer.ppo.metric_utils import process_validation_metrics

    rows = [("openai/gsm8k", "#### 18", "18"), ("openai/gsm8k", "#### 17", "18"),
            ("mbpp", "```python\ndef f():\n    return 1\n```", json.dumps(["assert f() == 1"])),
            ("mbpp", "```python\ndef f():\n    return 2\n```", json.dumps(["assert f() == 1"])),
            ("mbpp", "```python\ndef f():\n    return 1\n```", json.dumps(["assert f() == 1"]))]
    results = [compute_score(*r) for r in rows]
    infos = {k: np.array([r[k] for r in results]) for k in results[0]}  # what verl's agent loop builds
    metrics = process_validation_metrics([r[0] for r in rows], list(range(len(rows))),
                                         {k: list(v) for k, v in infos.items()})
    assert "part_all_passed" not in metrics["openai/gsm8k"]
    assert metrics["openai/gsm8k"]["part_correctness"]["mean@1"] == 0.5  # its own part is there
    assert metrics["mbpp"]["part_all_passed"]["mean@1"] == pytest.approx(2 / 3)  # over the MBPP rows only


def test_none_parts_travel_through_verls_batches() -> None:
    """verl's v0 trainer keeps reward_extra_info as numpy arrays in a DataProto: concat and union keep None."""
    import torch
    from verl.protocol import DataProto

    rows = [("openai/gsm8k", "#### 18", "18"),
            ("mbpp", "```python\ndef f():\n    return 1\n```", json.dumps(["assert f() == 1"]))] * 2
    infos = [compute_score(*r) for r in rows]

    def proto(keys: list[str]) -> DataProto:
        return DataProto.from_dict(tensors={"x": torch.zeros(4, 2)},
                                   non_tensors={k: np.array([i[k] for i in infos]) for k in keys})

    batch = proto(list(infos[0]))
    joined = DataProto.concat([batch[:2], batch[2:]])
    assert joined.non_tensor_batch["part_all_passed"].tolist() == [None, 1.0, None, 1.0]
    assert joined.non_tensor_batch["score"].dtype.kind == "f"  # the core keys stay float arrays
    parts = [k for k in infos[0] if k.startswith("part_")]
    # union checks that a key both hold is equal, element by element for object arrays: None == None
    assert proto(parts).union(proto(parts)).non_tensor_batch["part_all_passed"].tolist() == [None, 1.0, None, 1.0]
