"""Real verl on a GPU: a 2-step GRPO and a 2-step PPO (GAE critic) launch with our reward, merge, evaluate.

Each launch goes through `verifiers-train run` (verl's `main_ppo`, Ray, FSDP, vLLM rollouts) exactly as a
user runs it; the merged step-2 model is then evaluated with `verifiers-eval checkpoint --backend vllm`.
About 3 minutes a launch on one H100.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

TRAIN = [sys.executable, "-m", "verifiers_train.cli"]
EVAL = [sys.executable, "-m", "verifiers_train.evaluation.cli"]


def _run(cmd: list[str], log: Path, timeout: int) -> None:
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2] / "src"),
                                                       os.environ.get("PYTHONPATH", "")])}
    with log.open("w") as f:
        proc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, timeout=timeout, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd[:4])} failed; last lines:\n" + "".join(log.read_text().splitlines(
        keepends=True)[-40:])


@pytest.fixture(scope="module")
def arith_data(gpu_tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("data")
    _run([*TRAIN, "prepare", "--task", "arith", "--out", str(out), "--tokenizer", str(gpu_tiny_model)],
         out / "prepare.log", 300)
    return out


@pytest.mark.parametrize("algo", ["grpo", "ppo"])
def test_two_step_launch_with_our_reward_then_merge_and_evaluate(algo: str, gpu_tiny_model: Path, arith_data: Path,
                                                                 tmp_path: Path) -> None:
    run = tmp_path / algo
    _run([*TRAIN, "run", "--algo", algo, "--preset", "tiny", "--model", str(gpu_tiny_model), "--task", "arith",
          "--data", str(arith_data), "--out", str(run), "--total-steps", "2", "--save-freq", "2", "--test-freq", "-1",
          "--no-val-before-train"], tmp_path / "run.log", 900)
    metrics = [json.loads(line) for line in (run / "verl_metrics.jsonl").read_text().splitlines() if line.strip()]
    steps = [m["data"] for m in metrics if "critic/score/mean" in m.get("data", {})]  # verl's file logger rows
    assert len(steps) == 2
    assert all(0.0 <= m["critic/score/mean"] <= 1.0 for m in steps)  # our reward reached the trainer
    if algo == "ppo":
        assert any(k.startswith("critic/vf_loss") for k in steps[0])  # the critic trained
    merged = tmp_path / "merged"
    _run([*TRAIN, "merge", str(run), "--out", str(merged)], tmp_path / "merge.log", 600)
    assert (merged / "config.json").is_file()
    _run([*EVAL, "checkpoint", str(merged), "--task", "arith", "--backend", "vllm", "--limit", "50", "--n", "2",
          "--temperature", "1.0", "--max-tokens", "48", "--enforce-eager", "--gpu-memory-utilization", "0.3",
          "--out", str(tmp_path / "eval"), "--quiet", "--no-report"], tmp_path / "eval.log", 600)
    result = json.loads((tmp_path / "eval" / "metrics.json").read_text())
    assert result["complete"] is True and 0.0 <= result["accuracy"] <= 1.0
