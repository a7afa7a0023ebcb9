"""`evals/gpu/gpu_e2e.sh pack` / `unpack`: move the latest checkpoint of a run to another machine in parts."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "evals" / "gpu" / "gpu_e2e.sh"


def _stage(stage: str, work: Path, out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    # PYTHON=false: these stages are shell only (the script's verl patch step just logs that it could not run)
    return subprocess.run(["bash", str(SCRIPT), stage], check=False, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "W": str(work), "OUT": str(out), "PYTHON": "false", **env})


def test_pack_then_unpack_from_scattered_parts_restores_the_latest_checkpoint(tmp_path: Path) -> None:
    run = tmp_path / "w" / "grpo"
    (run / "checkpoints" / "global_step_10" / "actor").mkdir(parents=True)
    (run / "checkpoints" / "global_step_10" / "actor" / "old.pt").write_bytes(b"old")
    latest = run / "checkpoints" / "global_step_20" / "actor" / "model.pt"
    latest.parent.mkdir(parents=True)
    latest.write_bytes(os.urandom(300_000))
    (run / "checkpoints" / "latest_checkpointed_iteration.txt").write_text("20")
    for name in ("run_config.json", "command.sh", "verl_metrics.1.jsonl", "verl_metrics.jsonl"):
        (run / name).write_text(name)
    (tmp_path / "w" / "tiny").mkdir()  # the base model the run resumes from travels too (no data_verl here)
    (tmp_path / "w" / "tiny" / "model.safetensors").write_bytes(b"weights")

    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "grpo_step10.tgz.part-aa").write_bytes(b"stale")  # an earlier pack's parts
    packed = _stage("pack", tmp_path / "w", tmp_path / "out", PART_SIZE="100K")
    assert packed.returncode == 0, packed.stderr
    parts = sorted((tmp_path / "out").glob("grpo_step20.tgz.part-*"))
    assert len(parts) >= 3 and all(p.stat().st_size <= 100 * 1024 for p in parts)
    parts += sorted((tmp_path / "out").glob("base.tgz.part-*"))
    assert not list((tmp_path / "out").glob("ppo_*"))  # no PPO run, nothing packed for it
    assert not (tmp_path / "out" / "grpo_step10.tgz.part-aa").exists()  # only the latest checkpoint's parts

    carried = [tmp_path / f"call{i}" for i in range(3)]  # parts arrive with different calls, out of order
    for i, part in enumerate(parts):
        dest = carried[(2 - i) % 3]
        dest.mkdir(exist_ok=True)
        shutil.copy(part, dest)
    shutil.copy(parts[0], carried[1])  # one part carried twice
    restored = _stage("unpack", tmp_path / "w2", tmp_path / "out2", PARTS=" ".join(str(d) for d in carried))
    assert restored.returncode == 0, restored.stderr
    new = tmp_path / "w2" / "grpo"
    assert (new / "checkpoints" / "global_step_20" / "actor" / "model.pt").read_bytes() == latest.read_bytes()
    assert (new / "checkpoints" / "latest_checkpointed_iteration.txt").read_text() == "20"
    assert (new / "verl_metrics.1.jsonl").read_text() == "verl_metrics.1.jsonl"
    assert not (new / "checkpoints" / "global_step_10").exists()  # only the latest step travels
    assert (tmp_path / "w2" / "tiny" / "model.safetensors").read_bytes() == b"weights"


def test_unpack_without_parts_says_what_to_set(tmp_path: Path) -> None:
    result = _stage("unpack", tmp_path / "w", tmp_path / "out")
    assert result.returncode != 0 and "PARTS" in result.stderr
    (tmp_path / "empty").mkdir()
    result = _stage("unpack", tmp_path / "w", tmp_path / "out", PARTS=str(tmp_path / "empty"))
    assert result.returncode != 0 and "no *.part-* files" in result.stderr
