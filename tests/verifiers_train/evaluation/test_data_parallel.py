"""Data-parallel evaluation on a real local Ray cluster (CPU replicas of the HF backend).

The vLLM replicas are checked on GPUs by tests/gpu; here the plumbing is real: Ray actors, the split, the
gather, the run folder, resume across a single-engine and a data-parallel session.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from verifiers.errors import ConfigError
from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._backends import GenerationRequest
from verifiers_train.evaluation._data_parallel import split_requests
from verifiers_train.evaluation._rundir import RunDir

ray = pytest.importorskip("ray")
# a module-scoped local Ray instance: under -n N no other Ray test (test_ray_cluster.py's `ray stop --force`) runs
# while this module runs
pytestmark = [pytest.mark.mutex("ray")]

SAMPLING = {"n": 3, "temperature": 1.0, "max_tokens": 16}


def _cfg(model: Path, data: Path, out: Path, **kw: Any) -> EvalConfig:
    base: dict[str, Any] = {"model": str(model), "dataset": "arith", "data": str(data), "out": str(out),
                            "limit": 6, "progress": False, "report": False, **SAMPLING}
    return EvalConfig(**(base | kw))


def _key(samples: list[dict[str, Any]]) -> dict[tuple[str, int], tuple[str, int, float]]:
    return {(s["problem_id"], s["sample_index"]): (s["response"], s["seed"], s["reward"]) for s in samples}


@pytest.fixture(scope="module")
def local_ray() -> Any:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _request(i: int, samples: int, prompt_len: int) -> GenerationRequest:
    return GenerationRequest(i, "p", tuple(range(prompt_len)), tuple(range(samples)), i)


def test_split_balances_samples_and_keeps_every_request_once() -> None:
    reqs = [_request(i, s, p) for i, (s, p) in enumerate([(8, 10), (1, 10), (8, 12), (2, 5), (7, 30), (8, 1)])]
    for parts in (1, 2, 3, 7):
        shards = split_requests(reqs, parts)
        assert len(shards) == parts
        assert sorted(i for s in shards for i in s) == list(range(len(reqs)))
        assert all(s == sorted(s) for s in shards)
    two = split_requests(reqs, 2)
    loads = [sum(len(reqs[i].sample_indices) for i in s) for s in two]
    assert max(loads) - min(loads) <= 8  # no shard holds twice the other's work
    assert split_requests(reqs, 2) == two  # deterministic


@pytest.mark.slow
def test_data_parallel_run_writes_the_single_engine_samples_and_resumes_across_modes(
        local_ray: Any, tiny_model: Path, tiny_data: Path, tmp_path: Path) -> None:
    single = run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "single"))
    dp = run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "dp", data_parallel=2, chunk_problems=4))
    a, b = RunDir(single.run_dir).read_samples(), RunDir(dp.run_dir).read_samples()
    assert len(a) == len(b) == 6 * 3
    assert _key(a) == _key(b)
    assert dp.metrics["accuracy"] == single.metrics["accuracy"]
    config = json.loads((dp.run_dir / "config.json").read_text())
    assert config["data_parallel"] == 2
    # half the run on one engine, the rest data parallel: still the same samples
    mixed = tmp_path / "mixed"
    run_checkpoint(_cfg(tiny_model, tiny_data, mixed, limit=3))
    with pytest.raises(ConfigError):  # a different problem set is refused, whatever the engine count
        run_checkpoint(_cfg(tiny_model, tiny_data, mixed, resume=True, data_parallel=2))
    part = tmp_path / "part"
    rows = a[:7]
    run_dir = RunDir(part)
    run_dir.start(json.loads((single.run_dir / "config.json").read_text()), resume=False)
    run_dir.append_samples(rows)
    resumed = run_checkpoint(_cfg(tiny_model, tiny_data, part, resume=True, data_parallel=2))
    assert resumed.generated == 18 - 7
    assert _key(RunDir(part).read_samples()) == _key(a)


@pytest.mark.slow
def test_fixed_batches_on_replicas_write_the_single_engine_samples(
        local_ray: Any, tiny_model: Path, tiny_data: Path, tmp_path: Path) -> None:
    # each batch whole on one replica, three batches over two replicas, gathered back in order
    kw = {"fixed_batches": True, "chunk_problems": 2}
    single = run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "single", **kw))
    dp = run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "dp", data_parallel=2, **kw))
    a, b = RunDir(single.run_dir).read_samples(), RunDir(dp.run_dir).read_samples()
    assert [(s["problem_id"], s["sample_index"]) for s in a] == [(s["problem_id"], s["sample_index"]) for s in b]
    assert _key(a) == _key(b) and len(b) == 6 * 3
    assert dp.metrics["timing"]["prompts"] == 6


def test_bad_data_parallel_settings_fail_before_any_work(tiny_model: Path, tiny_data: Path, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="data-parallel"):
        run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "x", data_parallel=0))
    with pytest.raises(ConfigError, match="sandbox"):
        run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "y", sandbox="docker"))
