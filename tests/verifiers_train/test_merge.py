"""`merge`: finding verl's checkpoint folder, verl's merger arguments, and a real 2-rank FSDP2 merge on CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from verifiers.errors import ConfigError, DataError
from verifiers_train.cli import main
from verifiers_train.merge import find_checkpoint, merge_command

HERE = Path(__file__).parent


def _fake_actor(path: Path, world: int = 1) -> Path:
    (path / "huggingface").mkdir(parents=True)
    (path / "huggingface" / "config.json").write_text("{}")
    (path / "fsdp_config.json").write_text(json.dumps({"world_size": world}))
    for r in range(world):
        (path / f"model_world_size_{world}_rank_{r}.pt").write_bytes(b"")
    return path


def test_merge_command_uses_verls_flags() -> None:
    cmd = merge_command("/ck/actor", "/out", trust_remote_code=True)
    assert cmd[1:] == ["-m", "verl.model_merger", "merge", "--backend", "fsdp", "--local_dir", "/ck/actor",
                       "--target_dir", "/out", "--trust-remote-code"]


def test_merge_command_is_accepted_by_verls_own_parser() -> None:
    from verl.model_merger.base_model_merger import generate_config_from_args, parse_args

    argv = merge_command("/ck/actor", "/out")[3:]
    old = sys.argv
    sys.argv = ["verl.model_merger", *argv]
    try:
        config = generate_config_from_args(parse_args())
    finally:
        sys.argv = old
    assert (config.operation, config.backend, config.local_dir, config.target_dir) == ("merge", "fsdp",
                                                                                       "/ck/actor", "/out")
    assert config.hf_model_config_path == os.path.join("/ck/actor", "huggingface")


def test_find_checkpoint_accepts_actor_step_root_and_run_dir(tmp_path: Path) -> None:
    root = tmp_path / "run" / "checkpoints"
    old = _fake_actor(root / "global_step_2" / "actor")
    new = _fake_actor(root / "global_step_4" / "actor")
    _fake_actor(root / "global_step_4" / "critic")
    (root / "latest_checkpointed_iteration.txt").write_text("4\n")
    assert find_checkpoint(old) == old
    assert find_checkpoint(root / "global_step_2") == old
    assert find_checkpoint(root) == new
    assert find_checkpoint(tmp_path / "run") == new  # a verifiers-train run directory
    assert find_checkpoint(root / "global_step_4", "critic") == root / "global_step_4" / "critic"


@pytest.mark.parametrize(("setup", "error", "match"), [
    (lambda p: p.mkdir(), DataError, "is not a verl FSDP checkpoint"),
    (lambda p: None, DataError, "no such checkpoint folder"),
    (lambda p: (_fake_actor(p), (p / "huggingface" / "config.json").unlink()), DataError, "no huggingface/config"),
])
def test_not_a_checkpoint_is_one_clear_error(tmp_path: Path, setup: object, error: type, match: str) -> None:
    target = tmp_path / "ckpt"
    setup(target)  # type: ignore[operator]
    with pytest.raises(error, match=match):
        find_checkpoint(target)


def test_not_a_checkpoint_lists_the_steps_it_has(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "global_step_5").mkdir()
    assert main(["merge", str(tmp_path), "--out", str(tmp_path / "hf")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "global_step_5" in err[0]
    with pytest.raises(ConfigError):
        find_checkpoint(tmp_path, "reward")


@pytest.mark.slow
def test_real_fsdp2_checkpoint_merges_to_the_original_weights(tmp_path: Path, tiny_model_dir: Path) -> None:
    """Two gloo ranks shard a tiny Qwen2 with FSDP2 and save DTensor shards in verl's layout;
    `verifiers-train merge` (verl's merger underneath) must rebuild the unsharded weights."""
    import torch
    from safetensors.torch import load_file

    root = tmp_path / "checkpoints"
    actor = root / "global_step_3" / "actor"
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    subprocess.run([sys.executable, str(HERE / "fsdp_checkpoint.py"), str(tiny_model_dir), str(actor), "2"],
                   check=True, env=env, capture_output=True, timeout=300)
    (root / "latest_checkpointed_iteration.txt").write_text("3")
    assert main(["merge", str(root), "--out", str(tmp_path / "hf")]) == 0
    merged = load_file(tmp_path / "hf" / "model.safetensors")
    reference = torch.load(root / "global_step_3" / "reference.pt")
    assert set(merged) == set(reference)
    for key, value in reference.items():
        assert torch.equal(merged[key].float(), value.bfloat16().float()), key
    assert (tmp_path / "hf" / "config.json").is_file() and (tmp_path / "hf" / "tokenizer.json").is_file()
