"""Known verl failures are recognised in a run's log and explained when verl exits non-zero."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from verifiers_train.failures import KNOWN_FAILURES, FailureDetector
from verifiers_train.run import RunPlan, launch, plan

# One real log line per known failure (from our GPU runs, or the text the raising library writes).
SAMPLES = {
    "vllm_shared_gpu": "(vLLMHttpServer pid=5166) (Worker pid=5313) ERROR 11-26 07:17:40 [multiproc_executor.py:1000] "
                       "AssertionError: Error in memory profiling. Initial free memory 94.23 GiB, current free "
                       "memory 135.59 GiB.",
    "cuda_oom": "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity",
    "no_flash_attn": "ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following "
                     "error: the package for FlashAttention2 doesn't seem to be installed.",
    "host_oom": "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
    "critic_value_head": "ValueError: model(/root/e2e/tiny) is not a value head model, please install trl to make it "
                         "valid",
    "too_few_gpus": "ValueError: Total available GPUs 1 is less than total desired GPUs 2",
    # issue 16: what a user meets first (Python's, torch's, Hydra's, transformers' and our reward's own text)
    "no_transfer_queue": "(TaskRunner pid=412) ModuleNotFoundError: No module named 'transfer_queue'",
    "no_vllm": "ModuleNotFoundError: No module named 'vllm'",
    "no_gpu": "RuntimeError: No CUDA GPUs are available",
    "hydra_bad_key": "Could not override 'trainer.totl'.",
    "hub_unreachable": "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't "
                       "find them in the cached files.",
    "unknown_data_source": "ERROR:verifiers_train.reward:verifiers reward: no verifiers scorer for data_source 'foo'; "
                           "known: gsm8k, openai/gsm8k",
}


def test_every_known_failure_has_a_sample_line() -> None:
    assert sorted(SAMPLES) == sorted(f.name for f in KNOWN_FAILURES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_sample_is_recognised_as_its_failure_only(name: str) -> None:
    assert [f.name for f in KNOWN_FAILURES if f.pattern.search(SAMPLES[name])] == [name]
    detector = FailureDetector()
    detector.feed(SAMPLES[name])
    assert [f.name for f in detector.found] == [name]
    assert "fix:" in detector.found[0].message()


def test_a_critic_that_cannot_load_points_to_patch_verl() -> None:
    detector = FailureDetector()  # verl's traceback: the flash-attn error first, then the value-head one
    for name in ("no_flash_attn", "critic_value_head"):
        detector.feed(SAMPLES[name])
    assert all("verifiers-train patch-verl" in f.message() for f in detector.found)


def test_ordinary_lines_and_repeats() -> None:
    detector = FailureDetector()
    for line in ("(TaskRunner pid=7) step:3 - val-aux/arith/error/mean@1:np.float64(0.0)",
                 "WARNING Failed to import from vllm._moe_C_stable_libtorch: ModuleNotFoundError", ""):
        detector.feed(line)
    assert detector.found == []
    for _ in range(3):  # Ray repeats the same error through every actor: reported once
        detector.feed(SAMPLES["cuda_oom"])
    detector.feed(SAMPLES["too_few_gpus"])
    assert [f.name for f in detector.found] == ["cuda_oom", "too_few_gpus"]


_FAILING_VERL = f"""
import sys
print("(TaskRunner pid=7) starting", flush=True)
print({SAMPLES["vllm_shared_gpu"]!r}, flush=True)
print("RuntimeError: Engine core initialization failed. See root cause above.", flush=True)
sys.exit(1)
"""


@pytest.mark.slow
@pytest.mark.parametrize("exit_ok", [False, True])
def test_launch_explains_a_known_failure_when_verl_fails(tmp_path: Path, tiny_model_dir: Path,
                                                          monkeypatch: pytest.MonkeyPatch, exit_ok: bool) -> None:
    fake = tmp_path / "fake_verl.py"
    fake.write_text(_FAILING_VERL.replace("sys.exit(1)", "sys.exit(0)") if exit_ok else _FAILING_VERL)
    monkeypatch.setattr(RunPlan, "argv", property(lambda self: [sys.executable, str(fake)]))
    said: list[str] = []
    p = plan({"algo": "grpo", "dataset": "arith", "model": str(tiny_model_dir), "preset": "tiny",
              "out": str(tmp_path / "run"), "max_prompt_length": 200}, env={})
    assert launch(p, echo=said.append) == (0 if exit_ok else 1)
    hints = [m for m in said if m.startswith("known failure (vllm_shared_gpu)")]
    assert len(hints) == (0 if exit_ok else 1)  # a run that succeeded is not second-guessed
    if not exit_ok:
        assert "one verl job per GPU" in hints[0] and said[-1] == hints[0]
