"""What the evaluator's seeds and resume design rely on, checked against real vLLM on a GPU.

- child ``i`` of an ``n``-sample request with seed ``s`` draws what a single request with seed ``s + i`` draws;
- a request's samples do not depend on the batch around it, its order, or how a request is split;
- a chunked, interrupted and resumed evaluation writes the samples of one uninterrupted pass;
- a data-parallel run (two engines as Ray actors) writes the samples of a single-engine run;
- with fixed batches (the default: each batch whole and alone on one engine, its prefix cache emptied first through
  vLLM's own ``reset_prefix_cache``), a data-parallel run and a run resumed mid-batch write the single-engine samples.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from verifiers.datasets import load_problems
from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._backend_factory import reuse_backend
from verifiers_train.evaluation._backends import GenerationRequest, SamplingConfig, base_seed
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.templates import build_messages

SAMPLING = SamplingConfig(n=4, temperature=1.0, top_p=1.0, max_tokens=48)


def _requests(engine: Any, count: int) -> list[GenerationRequest]:
    problems = load_problems("arith", None, split="test", limit=count)
    out = []
    for i, p in enumerate(problems):
        text, ids = engine.render(build_messages(p, "verl"))
        out.append(GenerationRequest(i, text, ids, tuple(range(SAMPLING.n)), base_seed(0, p.id)))
    return out


def _raw(engine: Any, prompts: list[tuple[int, ...]], seeds: list[int], n: int) -> list[list[tuple[int, ...]]]:
    from vllm import SamplingParams

    params = [SamplingParams(n=n, temperature=1.0, max_tokens=48, seed=s) for s in seeds]
    outs = engine.llm.generate([{"prompt_token_ids": list(p)} for p in prompts], params, use_tqdm=False)
    return [[tuple(c.token_ids) for c in sorted(o.outputs, key=lambda c: c.index)] for o in outs]


def test_child_i_of_a_seeded_request_is_the_request_seeded_plus_i(engine: Any) -> None:
    req = _requests(engine, 1)[0]
    together = _raw(engine, [req.prompt_ids], [req.base_seed], 4)[0]
    alone = [_raw(engine, [req.prompt_ids], [req.base_seed + i], 1)[0][0] for i in range(4)]
    assert together == alone
    assert len(set(together)) > 1  # sampling happened: the check is not vacuous


def test_samples_do_not_depend_on_batch_order_or_splitting(engine: Any) -> None:
    reqs = _requests(engine, 12)
    prompts, seeds = [r.prompt_ids for r in reqs], [r.base_seed for r in reqs]
    forward = _raw(engine, prompts, seeds, 4)
    backward = _raw(engine, prompts[::-1], seeds[::-1], 4)[::-1]
    halves = _raw(engine, prompts[:5], seeds[:5], 4) + _raw(engine, prompts[5:], seeds[5:], 4)
    assert forward == backward == halves
    # a request split into samples 0-1 and 2-3 (seeds s, s + 2) draws the same four samples
    split = [_raw(engine, [p], [s], 2)[0] + _raw(engine, [p], [s + 2], 2)[0] for p, s in zip(prompts, seeds, strict=True)]
    assert split == forward


def test_backend_generate_matches_raw_vllm(engine: Any) -> None:
    reqs = _requests(engine, 6)
    completions = engine.generate(reqs, SAMPLING)
    raw = _raw(engine, [r.prompt_ids for r in reqs], [r.base_seed for r in reqs], 4)
    texts = {(c.problem_index, c.sample_index): c.text for c in completions}
    for i, samples in enumerate(raw):
        for j, ids in enumerate(samples):
            assert texts[(i, j)] == engine.tokenizer.decode(ids, skip_special_tokens=True)


def _cfg(model: Path, out: Path, **kw: Any) -> EvalConfig:
    base: dict[str, Any] = {"model": str(model), "dataset": "arith", "backend": "vllm", "out": str(out), "limit": 40,
                            "n": 4, "temperature": 1.0, "max_tokens": 48, "progress": False, "report": False}
    return EvalConfig(**(base | kw))


def _samples(run: Path) -> dict[tuple[str, int], str]:
    return {(s["problem_id"], s["sample_index"]): s["response"] for s in RunDir(run).read_samples()}


def test_chunked_interrupted_and_resumed_runs_equal_one_pass(engine: Any, gpu_tiny_model: Path,
                                                             tmp_path: Path) -> None:
    # chunks of the pending samples (--no-fixed-batches), resumed with another chunk size
    one = run_checkpoint(_cfg(gpu_tiny_model, tmp_path / "one", fixed_batches=False),
                         backend_factory=reuse_backend(engine)).run_dir
    chunked = run_checkpoint(_cfg(gpu_tiny_model, tmp_path / "chunked", chunk_problems=7, fixed_batches=False),
                             backend_factory=reuse_backend(engine)).run_dir
    assert _samples(one) == _samples(chunked) and len(_samples(one)) == 160
    torn = tmp_path / "torn"
    shutil.copytree(one, torn)
    lines = (torn / "samples.jsonl").read_text().splitlines(keepends=True)
    (torn / "samples.jsonl").write_text("".join(lines[:53]) + lines[53][:40])  # a crash mid-append
    resumed = run_checkpoint(_cfg(gpu_tiny_model, torn, resume=True, chunk_problems=5, fixed_batches=False),
                             backend_factory=reuse_backend(engine))
    assert resumed.generated == 160 - 53
    assert _samples(torn) == _samples(one)


def test_data_parallel_run_equals_single_engine(engine: Any, gpu_tiny_model: Path, tmp_path: Path) -> None:
    import torch

    if torch.cuda.device_count() < 2:
        pytest.skip("data parallelism needs 2 GPUs (nvidia-h100-x2)")
    single = run_checkpoint(_cfg(gpu_tiny_model, tmp_path / "single"), backend_factory=reuse_backend(engine)).run_dir
    dp = run_checkpoint(_cfg(gpu_tiny_model, tmp_path / "dp", data_parallel=2,
                             backend_options={"gpu_memory_utilization": 0.25, "enforce_eager": True})).run_dir
    assert _samples(dp) == _samples(single)


def _cli_run(model: Path, out: Path, *extra: str) -> None:
    """`verifiers-eval checkpoint` in a fresh process, as a user runs it (its engine is its own)."""
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "verifiers_train.evaluation.cli", "checkpoint", str(model), "--task", "arith",
           "--backend", "vllm", "--limit", "40", "--n", "4", "--temperature", "1.0", "--max-tokens", "48",
           "--chunk-problems", "8", "--tensor-parallel-size", "1", "--gpu-memory-utilization", "0.12",
           "--enforce-eager", "--quiet", "--no-report", "--out", str(out), *extra]
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


def test_fixed_batch_runs_equal_across_engines_and_resume(gpu_tiny_model: Path, tmp_path: Path) -> None:
    # fixed batches are the default: each batch whole and alone in one engine (engine core in the run's process,
    # prefix cache emptied first); the one-engine runs are CLI processes, the shared fixture engine is not one
    import torch

    _cli_run(gpu_tiny_model, tmp_path / "single")
    single = _samples(tmp_path / "single")
    assert len(single) == 160
    torn = tmp_path / "torn"
    shutil.copytree(tmp_path / "single", torn)
    lines = (torn / "samples.jsonl").read_text().splitlines(keepends=True)
    (torn / "samples.jsonl").write_text("".join(lines[:45]) + lines[45][:30])  # mid-batch (batches of 32 samples)
    _cli_run(gpu_tiny_model, torn, "--resume")
    assert _samples(torn) == single
    if torch.cuda.device_count() < 2:
        pytest.skip("the data-parallel half needs 2 GPUs (nvidia-h100-x2)")
    dp = run_checkpoint(_cfg(gpu_tiny_model, tmp_path / "dp", data_parallel=2, chunk_problems=8,
                             backend_options={"gpu_memory_utilization": 0.12, "enforce_eager": True})).run_dir
    assert _samples(dp) == single
