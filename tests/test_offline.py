"""Offline: a hub name that cannot be reached fails in seconds with one clear line, in every tool."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")
# An endpoint nothing listens on (the discard port of this machine): every connection is refused at once.
UNREACHABLE = {"HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_OFFLINE": "", "TRANSFORMERS_OFFLINE": "",
               "VERIFIERS_DATA_DIR": ""}


def _run(module: str, *argv: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": SRC, **env}
    full = {k: v for k, v in full.items() if v != ""}
    return subprocess.run([sys.executable, "-m", module, *argv], check=False, capture_output=True, text=True,
                          timeout=300, env=full, cwd=cwd)


@pytest.mark.parametrize(("module", "argv", "what"), [
    ("verifiers.cli", ["validate", "--task", "gsm8k", "--limit", "3"], "dataset 'openai/gsm8k'"),
    ("verifiers_train.evaluation.cli", ["checkpoint", "Qwen/Qwen2.5-0.5B-Instruct", "--task", "arith", "--limit", "2"],
     "model 'Qwen/Qwen2.5-0.5B-Instruct'"),
    ("verifiers_train.cli", ["prepare", "--task", "gsm8k", "--out", "data"], "dataset 'openai/gsm8k'"),
])
def test_an_unreachable_hub_fails_fast_with_one_line(module: str, argv: list[str], what: str, tmp_path: Path) -> None:
    done = _run(module, *argv, env=UNREACHABLE, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert ": error: " in line and what in line and "cannot be reached (http://127.0.0.1:9" in line
    assert "HF_HUB_OFFLINE=1" in line and "Retry" not in done.stderr  # no retries were attempted


def test_hf_hub_offline_is_honoured_without_probing(tmp_path: Path) -> None:
    done = _run("verifiers.cli", "validate", "--task", "gsm8k", "--limit", "3",
                env={**UNREACHABLE, "HF_HUB_OFFLINE": "1"}, cwd=tmp_path)
    assert done.returncode == 2
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("verifiers validate: error: could not load 'openai/gsm8k'") and "cannot be reached" not in line
