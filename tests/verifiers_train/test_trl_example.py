"""examples/trl_grpo_gsm8k.py: a real TRL GRPOTrainer run (tiny model, CPU) whose rewards are our GSM8K scorer's parts."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

from verifiers import gsm8k

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "trl_grpo_gsm8k.py"
# the example's reward functions: one per weighted part of the book preset, named gsm8k_<part>
PARTS = {f"gsm8k_{part}": weight for part, weight in gsm8k.Config(preset="book").resolved_weights}


@pytest.mark.slow
def test_grpo_trainer_runs_two_steps_and_logs_each_reward_part(
        data_dir: Path, unavailable: Callable[[str, str], NoReturn], tmp_path: Path) -> None:
    if importlib.util.find_spec("trl") is None:
        unavailable("trl", "trl is not installed (pip install -e '.[trl]')")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, str(EXAMPLE), "--out", str(tmp_path / "run"), "--steps", "2",
                           "--data", str(data_dir / "gsm8k" / "train.jsonl")],
                          capture_output=True, text=True, timeout=900, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["steps"] == 2 and [row["step"] for row in summary["log"]] == [1, 2]
    assert len(PARTS) == 3
    for row in summary["log"]:
        means = {name: row[f"rewards/{name}/mean"] for name in PARTS}  # TRL called each part function and logged it
        assert all(0.0 <= means[name] <= weight + 1e-6 for name, weight in PARTS.items()), means
        assert row["reward"] == pytest.approx(sum(means.values()), abs=1e-5)  # nothing else made up the reward
    assert (tmp_path / "run" / "tiny-model" / "config.json").is_file()


def test_without_data_the_example_says_so(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, str(EXAMPLE), "--out", str(tmp_path / "run"),
                           "--data", str(tmp_path / "missing.jsonl")],
                          capture_output=True, text=True, timeout=300, env=env, check=False)
    if "'trl' extra" in done.stderr:  # without trl that is what it says first
        assert done.returncode == 2
        return
    assert done.returncode == 2 and "no GSM8K file at" in done.stderr.strip().splitlines()[-1]
    assert not (tmp_path / "run").exists()
