"""Fixed batches (the default): the batches an engine sees do not depend on where a run was resumed.

The backend here stands for an engine whose numerics depend on the batch (vLLM in bfloat16 at real size,
evals/gpu/README.md R6.2/R8.3): a sample's text is a function of its seed *and* of every request in the call
that drew it. Without fixed batches a resumed run draws other batches, so other samples; with them, the same.
The data-parallel side (each batch whole on one Ray replica) is in test_data_parallel.py, and on GPUs with
real vLLM in tests/gpu.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from verifiers.errors import ConfigError
from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._backend_factory import BACKENDS, register_backend
from verifiers_train.evaluation._backends import Completion, GenerationRequest, SamplingConfig
from verifiers_train.evaluation._run import fixed_batch_problems
from verifiers_train.evaluation._rundir import RunDir


class BatchSensitive:
    """Samples that change with the batch they were drawn in; records every call's (problem, samples) list."""

    name = "batchy"
    calls: ClassVar[list[list[tuple[int, tuple[int, ...]]]]] = []

    def __init__(self, model: str, **options: Any) -> None:
        pass

    def render(self, messages: list[dict[str, str]]) -> tuple[str, tuple[int, ...]]:
        text = messages[-1]["content"]
        return text, tuple(text.encode()[:8])

    def generate(self, requests: Sequence[GenerationRequest], sampling: SamplingConfig) -> list[Completion]:
        batch = [(r.problem_index, r.sample_indices) for r in requests]
        BatchSensitive.calls.append(batch)
        salt = hashlib.sha256(repr(batch).encode()).hexdigest()[:6]
        return [Completion(r.problem_index, j, r.base_seed + j, f"batch {salt} #### {(r.base_seed + j) % 10}", 4,
                           "stop") for r in requests for j in r.sample_indices]

    def close(self) -> None:
        pass


@pytest.fixture
def batchy() -> Any:
    register_backend("batchy", BatchSensitive)
    BatchSensitive.calls = []
    yield BatchSensitive
    BACKENDS.pop("batchy")


def _cfg(data: Path, out: Path, **kw: Any) -> EvalConfig:
    base: dict[str, Any] = {"model": "some/model", "dataset": "arith", "data": str(data), "out": str(out),
                            "backend": "batchy", "limit": 10, "n": 3, "temperature": 1.0, "chunk_problems": 4,
                            "progress": False, "report": False}
    return EvalConfig(**(base | kw))


def _responses(run: Path) -> dict[tuple[str, int], str]:
    return {(s["problem_id"], s["sample_index"]): s["response"] for s in RunDir(run).read_samples()}


def _resume_after(rows: int, data: Path, whole: Path, part: Path, **kw: Any) -> Any:
    """A copy of run ``whole`` cut after ``rows`` samples (a run killed mid-batch), resumed."""
    saved = RunDir(whole)
    cut = RunDir(part)
    cut.start(saved.read_config(), resume=False)
    cut.append_samples(saved.read_samples()[:rows])
    return run_checkpoint(_cfg(data, part, resume=True, **kw))


def test_a_run_resumed_mid_batch_draws_the_samples_of_one_pass(batchy: Any, tiny_data: Path, tmp_path: Path) -> None:
    run_checkpoint(_cfg(tiny_data, tmp_path / "whole"))
    assert batchy.calls == [[(i, (0, 1, 2)) for i in range(s, min(s + 4, 10))] for s in (0, 4, 8)]
    batchy.calls.clear()
    resumed = _resume_after(17, tiny_data, tmp_path / "whole", tmp_path / "part")
    # problems 4-7 had 5 of their 12 samples: the batch is drawn again in full, only the 25 missing are written
    assert batchy.calls == [[(i, (0, 1, 2)) for i in range(4, 8)], [(8, (0, 1, 2)), (9, (0, 1, 2))]]
    assert resumed.generated == 30 - 17
    rows = RunDir(tmp_path / "part").read_samples()
    assert len(rows) == len({(r["problem_id"], r["sample_index"]) for r in rows}) == 30  # none written twice
    assert _responses(tmp_path / "part") == _responses(tmp_path / "whole")
    assert json.loads((tmp_path / "part" / "config.json").read_text())["fixed_batch_problems"] == 4


def test_without_fixed_batches_the_resumed_samples_differ(batchy: Any, tiny_data: Path, tmp_path: Path) -> None:
    # the control: this backend does change samples with their batch, so the test above can fail
    run_checkpoint(_cfg(tiny_data, tmp_path / "whole", fixed_batches=False))
    _resume_after(17, tiny_data, tmp_path / "whole", tmp_path / "part", fixed_batches=False)
    whole, part = _responses(tmp_path / "whole"), _responses(tmp_path / "part")
    assert whole.keys() == part.keys()
    assert sum(whole[k] != part[k] for k in whole) == 30 - 17


def test_a_fixed_batch_run_resumes_only_with_its_batches(batchy: Any, tiny_data: Path, tmp_path: Path) -> None:
    run_checkpoint(_cfg(tiny_data, tmp_path / "run", limit=10))
    RunDir(tmp_path / "run").samples_path.write_text(
        "".join(line + "\n" for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()[:5]))
    with pytest.raises(ConfigError, match=r"fixed batches of 4 problems.*resume with --chunk-problems 4 \(or"):
        run_checkpoint(_cfg(tiny_data, tmp_path / "run", resume=True, chunk_problems=5))
    with pytest.raises(ConfigError, match="resume with --chunk-problems 4 without --no-fixed-batches"):
        run_checkpoint(_cfg(tiny_data, tmp_path / "run", resume=True, fixed_batches=False))
    # when n changed, the default batch size did too: the message names n, the setting to restore
    with pytest.raises(ConfigError, match="n: run has 3, now 2"):
        run_checkpoint(_cfg(tiny_data, tmp_path / "run", resume=True, n=2, chunk_problems=None))
    # the engine count is not part of it (data parallel draws the same batches: test_data_parallel.py)
    assert run_checkpoint(_cfg(tiny_data, tmp_path / "run", resume=True)).generated == 25


def test_a_run_drawn_in_chunks_resumes_with_chunks(batchy: Any, tiny_data: Path, tmp_path: Path) -> None:
    # e.g. a run folder written before fixed batches were the default (its config has no fixed_batch_problems)
    run_checkpoint(_cfg(tiny_data, tmp_path / "run", fixed_batches=False, limit=4))
    run = RunDir(tmp_path / "run")
    config = run.read_config()
    del config["fixed_batch_problems"]
    run.config_path.write_text(json.dumps(config))
    run.samples_path.write_text("".join(line + "\n" for line in run.samples_path.read_text().splitlines()[:3]))
    with pytest.raises(ConfigError, match=r"drawn in chunks .*add --no-fixed-batches \(or"):
        run_checkpoint(_cfg(tiny_data, tmp_path / "run", resume=True, limit=4))
    assert run_checkpoint(_cfg(tiny_data, tmp_path / "run", resume=True, limit=4, fixed_batches=False)).generated == 9


def test_batch_size_follows_the_settings_not_the_engines() -> None:
    def size(**kw: Any) -> int | None:
        return fixed_batch_problems(EvalConfig(model="m", dataset="gsm8k", temperature=1.0, **kw))

    assert size(fixed_batches=False) is None
    assert size(backend="vllm", n=4) == 256  # 1024 samples: one wave of vLLM's max_num_seqs
    assert size(backend="vllm", n=4, data_parallel=8) == 256
    assert size(backend="vllm", n=2048) == 1
    assert size(backend="hf", n=1) == 8
    assert size(backend="vllm", n=4, chunk_problems=10) == 10


def test_the_flag_from_the_command_line(batchy: Any, tiny_data: Path, tmp_path: Path) -> None:
    from verifiers_train.evaluation.cli import main

    out = tmp_path / "cli"
    assert main(["checkpoint", "some/model", "--task", "arith", "--data", str(tiny_data), "--backend", "batchy",
                 "--limit", "5", "--n", "2", "--temperature", "1", "--chunk-problems", "2",
                 "--quiet", "--no-report", "--out", str(out)]) == 0
    assert [len(call) for call in batchy.calls] == [2, 2, 1]
    assert json.loads((out / "config.json").read_text())["fixed_batches"] is True
    batchy.calls.clear()
    assert main(["checkpoint", "some/model", "--task", "arith", "--data", str(tiny_data), "--backend", "batchy",
                 "--limit", "5", "--n", "2", "--temperature", "1", "--no-fixed-batches", "--chunk-problems", "2",
                 "--quiet", "--no-report", "--out", str(tmp_path / "chunks")]) == 0
    assert json.loads((tmp_path / "chunks" / "config.json").read_text())["fixed_batch_problems"] is None


def test_a_run_with_no_sample_yet_resumes_with_any_batches(batchy: Any, tiny_data: Path, tmp_path: Path) -> None:
    run_checkpoint(_cfg(tiny_data, tmp_path / "run", limit=4))
    RunDir(tmp_path / "run").samples_path.write_text("")  # killed before its first batch was written
    assert run_checkpoint(_cfg(tiny_data, tmp_path / "run", resume=True, limit=4, fixed_batches=False)).generated == 12


def test_a_resume_with_other_engine_settings_says_so(batchy: Any, tiny_data: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    run_checkpoint(_cfg(tiny_data, tmp_path / "run", limit=8, backend_options={"tensor_parallel_size": 2}))
    run = RunDir(tmp_path / "run")
    run.samples_path.write_text("".join(line + "\n" for line in run.samples_path.read_text().splitlines()[:5]))
    capsys.readouterr()
    run_checkpoint(_cfg(tiny_data, tmp_path / "run", limit=8, resume=True, backend_options={"tensor_parallel_size": 1}))
    err = capsys.readouterr().err
    assert "note: resuming" in err and "tensor_parallel_size: 2 -> 1" in err and err.count("\n") == 1


def test_a_borrowed_data_parallel_backend_still_gets_whole_batches(batchy: Any, tiny_data: Path, tmp_path: Path) -> None:
    from verifiers_train.evaluation._backend_factory import reuse_backend

    class Replicas(BatchSensitive):
        """Stands for `DataParallelBackend`: ``generate`` splits a call in two, ``generate_each`` keeps batches."""

        def generate_each(self, batches: Any, sampling: SamplingConfig) -> Any:
            return ((b, BatchSensitive.generate(self, b, sampling)) for b in batches)

        def generate(self, requests: Sequence[GenerationRequest], sampling: SamplingConfig) -> list[Completion]:
            half = len(requests) // 2
            return super().generate(requests[:half], sampling) + super().generate(requests[half:], sampling)

    BatchSensitive.calls = []
    run_checkpoint(_cfg(tiny_data, tmp_path / "run"), backend_factory=reuse_backend(Replicas("m")))
    assert [[i for i, _ in call] for call in BatchSensitive.calls] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
