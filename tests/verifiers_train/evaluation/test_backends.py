"""The vLLM backend against a stand-in `vllm` module (vLLM needs a GPU), model resolution and verl merging."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from verifiers.errors import ConfigError
from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._backend_factory import make_backend
from verifiers_train.evaluation._backends import (
    GenerationRequest,
    SamplingConfig,
    base_seed,
    contiguous_runs,
)
from verifiers_train.evaluation._models import resolve_model
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.evaluation._vllm import pick_tensor_parallel, visible_gpu_count


@dataclass
class FakeSamplingParams:
    """Mirror of the `vllm.SamplingParams` fields the backend sets."""

    n: int = 1
    temperature: float = 1.0
    top_p: float = 1.0
    max_tokens: int = 16
    seed: int | None = None
    stop: list[str] | None = None


@dataclass
class FakeCompletion:
    index: int
    text: str
    token_ids: list[int]
    finish_reason: str


@dataclass
class FakeRequestOutput:
    outputs: list[FakeCompletion]


@dataclass
class FakeLLM:
    """Emulates vLLM's parallel sampling: child i of a request with seed s is sampled with seed s + i."""

    kwargs: dict[str, Any]
    calls: list[tuple[list[Any], list[FakeSamplingParams]]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)

    def reset_prefix_cache(self) -> bool:
        self.events.append("reset")
        return True

    def generate(self, prompts: list[Any], params: list[FakeSamplingParams], use_tqdm: bool = True) -> list[Any]:
        assert isinstance(params, list) and len(prompts) == len(params) and use_tqdm is False
        self.calls.append((prompts, params))
        self.events.append("generate")
        outs = []
        for prompt, p in zip(prompts, params, strict=True):
            assert isinstance(prompt, dict) and prompt["prompt_token_ids"]
            children = [FakeCompletion(i, f"seed={p.seed + i} #### {(p.seed + i) % 7}", [1] * (3 + i),
                                       "length" if i == 0 else "stop") for i in range(p.n)]
            outs.append(FakeRequestOutput(list(reversed(children))))  # order must not matter
        return outs


@pytest.fixture
def fake_vllm(monkeypatch: pytest.MonkeyPatch) -> list[FakeLLM]:
    made: list[FakeLLM] = []
    mod = types.ModuleType("vllm")
    mod.__spec__ = types.SimpleNamespace(name="vllm")  # type: ignore[assignment]

    def llm(**kwargs: Any) -> FakeLLM:
        made.append(FakeLLM(kwargs))
        return made[-1]

    mod.LLM = llm  # type: ignore[attr-defined]
    mod.SamplingParams = FakeSamplingParams  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "vllm", mod)
    # vLLM present, flashinfer absent; every other module as it is (transformers asks find_spec what is installed
    # when first imported, here when the tiny model was built by another pytest-xdist worker)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *a: object() if name == "vllm" else
                        None if name == "flashinfer" else real_find_spec(name, *a))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1,2")
    for name in ("VLLM_USE_FLASHINFER_SAMPLER", "VLLM_BATCH_INVARIANT", "VLLM_ENABLE_V1_MULTIPROCESSING"):  # what the backend sets is undone after
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    return made


def test_vllm_backend_maps_parallel_samples_back_to_their_seeds(fake_vllm: list[FakeLLM], tiny_model: Path) -> None:
    import os

    backend = make_backend("vllm", str(tiny_model), dtype="bfloat16", seed=5)
    llm = fake_vllm[0]
    assert llm.kwargs["tensor_parallel_size"] == 2  # 3 visible GPUs, 4 heads -> largest power of two dividing
    assert llm.kwargs["dtype"] == "bfloat16" and llm.kwargs["model"] == str(tiny_model)
    assert os.environ["VLLM_USE_FLASHINFER_SAMPLER"] == "0"  # flashinfer is absent: keep vLLM's own sampler
    text, ids = backend.render([{"role": "user", "content": "hi"}])
    reqs = [GenerationRequest(0, text, ids, (0, 1, 2, 3), 100), GenerationRequest(1, text, ids, (1, 3, 4), 500)]
    out = backend.generate(reqs, SamplingConfig(n=5, temperature=0.8, top_p=0.9, max_tokens=7))
    _, params = llm.calls[0]
    # problem 0: one n=4 request; problem 1: runs [1], [3, 4] -> two requests
    assert [(p.n, p.seed) for p in params] == [(4, 100), (1, 501), (2, 503)]
    assert all(p.temperature == 0.8 and p.top_p == 0.9 and p.max_tokens == 7 for p in params)
    got = {(c.problem_index, c.sample_index): (c.seed, c.text, c.finish_reason) for c in out}
    assert set(got) == {(0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 3), (1, 4)}
    for (pi, j), (seed, text, _) in got.items():
        assert seed == (100 if pi == 0 else 500) + j and text.startswith(f"seed={seed} ")
    assert got[(0, 0)][2] == "length" and got[(0, 1)][2] == "stop"


def test_vllm_run_through_the_pipeline(fake_vllm: list[FakeLLM], tiny_model: Path, tiny_data: Path,
                                       tmp_path: Path) -> None:
    result = run_checkpoint(EvalConfig(model=str(tiny_model), dataset="arith", data=str(tiny_data), backend="vllm",
                                       n=4, temperature=1.0, limit=5, out=str(tmp_path / "run"), progress=False,
                                       report=False, backend_options={"tensor_parallel_size": 1}))
    assert fake_vllm[0].kwargs["tensor_parallel_size"] == 1 and fake_vllm[0].kwargs["seed"] == 0
    samples = RunDir(result.run_dir).read_samples()
    assert len(samples) == 20
    for s in samples:
        assert s["seed"] == base_seed(0, s["problem_id"]) + s["sample_index"]
        assert s["extracted"] == str(s["seed"] % 7)  # the scorer read the fake's "#### k"


def test_vllm_backend_without_vllm_says_how_to_fix(monkeypatch: pytest.MonkeyPatch, tiny_model: Path) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *a: None)
    with pytest.raises(ConfigError, match="needs vLLM .*use --backend hf"):
        make_backend("vllm", str(tiny_model))


def test_tensor_parallel_choice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"num_attention_heads": 14}))
    assert pick_tensor_parallel(8, str(tmp_path)) == 2  # 14 heads: 4 and 8 do not divide
    assert pick_tensor_parallel(0, str(tmp_path)) == 1
    assert pick_tensor_parallel(8, None) == 8
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    assert visible_gpu_count() == 0


def test_contiguous_runs() -> None:
    assert contiguous_runs([0, 1, 2, 5, 7, 8]) == [(0, 3), (5, 1), (7, 2)]
    assert contiguous_runs([]) == []


def test_base_seed_is_stable_and_distinct() -> None:
    assert base_seed(0, "gsm8k/test/0") == base_seed(0, "gsm8k/test/0")
    assert len({base_seed(s, f"p{i}") for s in range(3) for i in range(100)}) == 300
    assert all(0 <= base_seed(1, f"p{i}") < 2**31 - 2**20 for i in range(100))


def _fake_verl_checkpoint(root: Path, tiny_model: Path) -> Path:
    actor = root / "checkpoints" / "global_step_7" / "actor"
    (actor / "huggingface").mkdir(parents=True)
    (actor / "fsdp_config.json").write_text("{}")
    (actor / "model_world_size_1_rank_0.pt").write_bytes(b"shard")
    shutil.copy(tiny_model / "config.json", actor / "huggingface" / "config.json")
    (root / "checkpoints" / "latest_checkpointed_iteration.txt").write_text("7")
    return actor


def test_verl_checkpoints_are_merged_once_into_the_cache(tiny_model: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import verifiers_train.merge as merge_mod

    merged: list[tuple[Path, Path]] = []

    def fake_merge(checkpoint: Any, out: Any, **kw: Any) -> Path:
        merged.append((Path(checkpoint), Path(out)))
        shutil.copytree(tiny_model, out, dirs_exist_ok=True)  # what verl's merger would write
        return Path(out)

    monkeypatch.setattr(merge_mod, "merge", fake_merge)
    monkeypatch.setenv("VERIFIERS_CACHE", str(tmp_path / "cache"))
    actor = _fake_verl_checkpoint(tmp_path / "run", tiny_model)
    for given in (actor, actor.parent, tmp_path / "run", actor / "huggingface"):  # actor, step, run, hf config dir
        path = resolve_model(str(given))
        assert (Path(path) / "config.json").is_file() and Path(path).is_relative_to(tmp_path / "cache")
    assert len(merged) == 1 and merged[0][0] == actor  # later calls reuse the merged folder
    result = run_checkpoint(EvalConfig(model=str(actor), dataset="arith", data=str(tiny_model.parent / "train.jsonl"),
                                       split="train", limit=2, max_tokens=8, out=str(tmp_path / "ev"),
                                       progress=False, report=False))
    assert json.loads((result.run_dir / "config.json").read_text())["model_path"] == path
    assert len(RunDir(result.run_dir).read_samples()) == 2


def test_an_incomplete_verl_checkpoint_is_reported(tmp_path: Path) -> None:
    from verifiers.errors import DataError

    actor = tmp_path / "global_step_1" / "actor"
    actor.mkdir(parents=True)
    (actor / "fsdp_config.json").write_text("{}")
    (actor / "model_world_size_1_rank_0.pt").write_bytes(b"shard")
    with pytest.raises(DataError, match="no huggingface/config.json"):
        resolve_model(str(actor.parent))


def test_hub_names_pass_through_and_files_are_rejected(tmp_path: Path) -> None:
    assert resolve_model("Qwen/Qwen2.5-0.5B-Instruct") == "Qwen/Qwen2.5-0.5B-Instruct"
    f = tmp_path / "model.bin"
    f.write_bytes(b"x")
    with pytest.raises(ConfigError, match="is a file"):
        resolve_model(str(f))


class _FixedAnswer:
    """A backend plug-in that answers every prompt with the same text (plumbing only, no model)."""

    name = "fixed"

    def __init__(self, model: str, **options: Any) -> None:
        from verifiers_train.evaluation._backends import load_tokenizer

        self.tokenizer = load_tokenizer(model)

    def render(self, messages: list[dict[str, str]]) -> tuple[str, tuple[int, ...]]:
        from verifiers_train.evaluation._backends import render_chat

        return render_chat(self.tokenizer, messages)

    def generate(self, requests: Any, sampling: SamplingConfig) -> list[Any]:
        from verifiers_train.evaluation._backends import Completion

        return [Completion(r.problem_index, j, r.base_seed + j, "#### 7", 3, "stop")
                for r in requests for j in r.sample_indices]

    def close(self) -> None:
        pass


def test_a_registered_backend_is_chosen_by_name(tiny_model: Path, tiny_data: Path, tmp_path: Path) -> None:
    from verifiers_train.evaluation._backend_factory import BACKENDS, register_backend

    register_backend("fixed", _FixedAnswer)
    try:
        result = run_checkpoint(EvalConfig(model=str(tiny_model), dataset="arith", data=str(tiny_data), backend="fixed",
                                           limit=5, out=str(tmp_path / "run"), progress=False, report=False))
        samples = RunDir(result.run_dir).read_samples()
        assert [s["response"] for s in samples] == ["#### 7"] * 5
        assert {s["extracted"] for s in samples} == {"7"}
    finally:
        BACKENDS.pop("fixed")
    with pytest.raises(ConfigError, match="unknown backend 'fixed'"):
        make_backend("fixed", str(tiny_model))


def test_a_reused_backend_serves_two_runs_and_stays_open(tiny_model: Path, tiny_data: Path, tmp_path: Path) -> None:
    from verifiers_train.evaluation._backend_factory import reuse_backend

    backend = make_backend("hf", str(tiny_model))
    closed: list[bool] = []
    backend.close = lambda: closed.append(True)  # type: ignore[method-assign]
    runs = [run_checkpoint(EvalConfig(model=str(tiny_model), dataset="arith", data=str(tiny_data), limit=3, n=2,
                                      temperature=1.0, max_tokens=12, out=str(tmp_path / f"run{i}"), progress=False,
                                      report=False), backend_factory=reuse_backend(backend)) for i in range(2)]
    first, second = (RunDir(r.run_dir).read_samples() for r in runs)
    assert [s["response"] for s in first] == [s["response"] for s in second] and len(first) == 6
    assert not closed  # the runs borrowed it; its owner closes it


def test_batch_invariant_flag_reaches_the_engine_environment(fake_vllm: list[FakeLLM], tiny_model: Path,
                                                             tiny_data: Path, tmp_path: Path) -> None:
    import os

    from verifiers_train.evaluation.cli import main

    make_backend("vllm", str(tiny_model))
    assert "VLLM_BATCH_INVARIANT" not in os.environ  # off unless asked for
    assert main(["checkpoint", str(tiny_model), "--task", "arith", "--data", str(tiny_data), "--backend", "vllm",
                 "--limit", "2", "--batch-invariant", "--quiet", "--no-report", "--out", str(tmp_path / "run")]) == 0
    assert os.environ["VLLM_BATCH_INVARIANT"] == "1"  # set before the engine starts (its workers inherit it)
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert saved["backend_options"]["batch_invariant"] is True  # recorded with the run


def test_fixed_batches_run_each_batch_alone_in_the_engine(fake_vllm: list[FakeLLM], tiny_model: Path,
                                                         tiny_data: Path, tmp_path: Path) -> None:
    import os

    from verifiers_train.evaluation.cli import main

    args = ["checkpoint", str(tiny_model), "--task", "arith", "--data", str(tiny_data), "--backend", "vllm",
            "--limit", "5", "--chunk-problems", "2", "--quiet", "--no-report"]
    assert main([*args, "--no-fixed-batches", "--out", str(tmp_path / "chunks")]) == 0
    assert fake_vllm[-1].events == ["generate"] * 3  # the cache kept across calls
    assert "VLLM_ENABLE_V1_MULTIPROCESSING" not in os.environ
    assert main([*args, "--out", str(tmp_path / "fixed")]) == 0  # the default
    assert os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] == "0"  # every request queued before the first step
    assert fake_vllm[-1].events == ["reset", "generate"] * 3  # problems 0-1, 2-3, 4
    assert [len(prompts) for prompts, _ in fake_vllm[-1].calls] == [2, 2, 1]


@pytest.mark.parametrize("flag", [["--batch-invariant"], ["--enforce-eager"], ["--tensor-parallel-size", "2"],
                                  ["--gpu-memory-utilization", "0.5"], ["--max-model-len", "4096"]])
@pytest.mark.parametrize("backend", [[], ["--backend", "hf"]])  # hf is the default
def test_vllm_only_flags_are_refused_with_another_backend(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          flag: list[str], backend: list[str]) -> None:
    from verifiers_train.evaluation.cli import main

    out = tmp_path / "run"
    assert main(["checkpoint", str(tmp_path / "no-model"), "--task", "arith", *backend, *flag,
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"verifiers-eval checkpoint: error: {flag[0]} is a vllm setting")
    assert "--backend vllm" in err[0] and not out.exists()


def test_hf_keeps_data_parallel_and_default_valued_vllm_flags(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from verifiers_train.evaluation.cli import main

    # the vllm flags at their defaults pass the check; the error met next is --data-parallel's own range check
    assert main(["checkpoint", str(tmp_path / "no-model"), "--task", "arith", "--backend", "hf",
                 "--gpu-memory-utilization", "0.85", "--data-parallel", "0", "--out", str(tmp_path / "r")]) == 2
    assert "--data-parallel must be at least 1, got 0" in capsys.readouterr().err


def test_a_few_shot_templates_stop_strings_reach_vllm(fake_vllm: list[FakeLLM], tiny_model: Path, tiny_data: Path,
                                                     tmp_path: Path) -> None:
    run_checkpoint(EvalConfig(model=str(tiny_model), dataset="arith", data=str(tiny_data), backend="vllm", limit=2,
                              out=str(tmp_path / "run"), progress=False, report=False, template="gsm8k-8shot-cot"))
    prompts, params = fake_vllm[0].calls[0]
    assert all(p.stop == ["Q:", "</s>", "<|im_end|>"] for p in params)
    assert all(len(p["prompt_token_ids"]) > 200 for p in prompts)  # eight worked examples, as text
    run_checkpoint(EvalConfig(model=str(tiny_model), dataset="arith", data=str(tiny_data), backend="vllm", limit=2,
                              out=str(tmp_path / "plain"), progress=False, report=False))
    assert all(p.stop is None for p in fake_vllm[1].calls[0][1])
