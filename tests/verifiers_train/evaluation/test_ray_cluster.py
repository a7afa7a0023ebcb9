"""`verifiers-eval checkpoint --ray-address auto`: the engines go to an existing Ray cluster (`ray start`).

The cluster is a real one started with Ray's own CLI, as a user starts it on a node; the evaluation runs in a
fresh process, as a user runs it, and its samples must equal a one-engine run of the same settings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._rundir import RunDir

pytest.importorskip("ray")
# `ray stop --force` stops every Ray instance on the host: under -n N no other Ray test runs meanwhile
pytestmark = [pytest.mark.mutex("ray")]
SRC = str(Path(__file__).resolve().parents[3] / "src")


def _env() -> dict[str, str]:
    return os.environ | {"PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH", "")) if p),
                         "RAY_USAGE_STATS_ENABLED": "0"}


@pytest.fixture()
def ray_cluster(tmp_path: Path) -> Iterator[None]:
    ray = [sys.executable, "-m", "ray.scripts.scripts"]
    subprocess.run([*ray, "start", "--head", "--num-cpus", "2", "--num-gpus", "0", "--include-dashboard=false",
                    "--disable-usage-stats"], env=_env(), check=True, capture_output=True, timeout=180)
    try:
        yield
    finally:
        subprocess.run([*ray, "stop", "--force"], env=_env(), check=False, capture_output=True, timeout=120)


def _key(samples: list[dict[str, Any]]) -> dict[tuple[str, int], str]:
    return {(s["problem_id"], s["sample_index"]): s["response"] for s in samples}


@pytest.mark.slow
def test_engines_run_on_an_existing_cluster_and_write_the_one_engine_samples(
        ray_cluster: None, tiny_model: Path, tiny_data: Path, tmp_path: Path) -> None:
    common = ["--dataset", "arith", "--data", str(tiny_data), "--backend", "hf", "--n", "3", "--temperature", "1.0",
              "--max-tokens", "16", "--limit", "6", "--quiet", "--no-report"]
    proc = subprocess.run([sys.executable, "-m", "verifiers_train.evaluation.cli", "checkpoint", str(tiny_model),
                           *common, "--data-parallel", "2", "--ray-address", "auto", "--out", str(tmp_path / "cluster")],
                          env=_env(), capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    one = run_checkpoint(EvalConfig(model=str(tiny_model), dataset="arith", data=str(tiny_data), n=3, temperature=1.0,
                                    max_tokens=16, limit=6, out=str(tmp_path / "one"), progress=False, report=False))
    assert _key(RunDir(tmp_path / "cluster").read_samples()) == _key(RunDir(one.run_dir).read_samples())
    config = json.loads((tmp_path / "cluster" / "config.json").read_text())
    assert config["data_parallel"] == 2 and config["ray_address"] == "auto"
