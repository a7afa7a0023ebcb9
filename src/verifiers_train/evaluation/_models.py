"""Resolve the MODEL argument: an HF model directory, a hub name, or a verl checkpoint merged to HF first.

A verl FSDP checkpoint (``global_step_N`` or ``global_step_N/actor``) is merged once into a cache
directory keyed by the checkpoint's path and contents, and reused by later evaluations.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

from verifiers.cli_common import is_hub_name
from verifiers.errors import ConfigError

# Where merged verl checkpoints go unless --merge-dir is given.
CACHE_ENV = "VERIFIERS_CACHE"
_SHARD = re.compile(r"model_world_size_\d+_rank_\d+\.pt")
_WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt")
_EDGE_BYTES = 1 << 16  # fingerprint reads this much from each end of a weight file, not the whole file


def default_cache_dir() -> Path:
    """``$VERIFIERS_CACHE`` or ``~/.cache/verifiers``."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "verifiers")


def verl_actor_dir(path: Path) -> Path | None:
    """The actor shard folder if ``path`` is a verl checkpoint (actor, step, root or run dir), else ``None``."""
    if not any(_SHARD.fullmatch(p.name) for p in _walk2(path)) and not any(
            (c / "latest_checkpointed_iteration.txt").is_file() for c in (path, path / "checkpoints")):
        return None
    from verifiers_train.merge import find_checkpoint

    return find_checkpoint(path, "actor")


def _walk2(path: Path) -> list[Path]:
    """Files in ``path`` and its direct subfolders (enough to spot ``global_step_N/actor`` shards)."""
    return [q for p in path.iterdir() for q in (p.iterdir() if p.is_dir() else [p])]


def resolve_model(model: str, *, merge_dir: str | os.PathLike[str] | None = None) -> str:
    """Turn MODEL into something `from_pretrained`/vLLM can load.

    Args:
        model: HF model directory, hub name (``org/name``) or verl checkpoint dir.
        merge_dir: where to put a merged verl checkpoint; default ``<cache>/merged/<key>``.

    Returns:
        A local directory path, or the hub name unchanged.

    Raises:
        ConfigError: the path does not exist, or is a folder that is neither an HF model nor a verl checkpoint.
    """
    path = Path(model).expanduser()
    if path.is_dir():
        has_weights = any(p.suffix in (".safetensors", ".bin") for p in path.iterdir())
        if path.name == "huggingface" and not has_weights and verl_actor_dir(path.parent) is not None:
            path = path.parent  # verl's actor/huggingface holds the config and tokenizer, not the weights
        elif (path / "config.json").is_file():
            return str(path.resolve())
        actor = verl_actor_dir(path)
        if actor is not None:  # includes actor/huggingface, redirected above
            return str(_merge(actor, merge_dir))
        raise ConfigError(f"{model} is a folder but holds neither an HF model (config.json) nor a verl "
                          "checkpoint (fsdp_config.json + model_world_size_*_rank_0.pt); point MODEL at one of those")
    if path.exists():
        raise ConfigError(f"{model} is a file; MODEL must be a model directory, a verl checkpoint dir or a hub name")
    if is_hub_name(model):
        return model
    raise ConfigError(f"no such folder: {model} (MODEL)")


def model_fingerprint(model: str) -> str:
    """Short hash of a local model's config and weight files (size plus first/last bytes); hub names hash as is."""
    h = hashlib.sha256()
    path = Path(model)
    if not path.is_dir():
        h.update(model.encode())
        return h.hexdigest()[:16]
    cfg = path / "config.json"
    if cfg.is_file():
        h.update(cfg.read_bytes())
    for f in sorted(p for p in path.iterdir() if p.suffix in _WEIGHT_SUFFIXES and p.is_file()):
        size = f.stat().st_size
        h.update(f"{f.name}:{size}".encode())
        with f.open("rb") as fh:
            h.update(fh.read(_EDGE_BYTES))
            if size > _EDGE_BYTES:
                fh.seek(max(size - _EDGE_BYTES, _EDGE_BYTES))
                h.update(fh.read())
    return h.hexdigest()[:16]


def _merge(actor: Path, merge_dir: str | os.PathLike[str] | None) -> Path:
    key = hashlib.sha256(f"{actor.resolve()}:{_checkpoint_stamp(actor)}".encode()).hexdigest()[:16]
    out = Path(merge_dir) if merge_dir else default_cache_dir() / "merged" / f"{actor.parent.name}-{key}"
    marker = out / ".merged-from.json"
    if marker.is_file() and (out / "config.json").is_file():
        return out  # merged before, from the same checkpoint contents
    from verifiers_train.merge import merge

    out.mkdir(parents=True, exist_ok=True)
    merge(actor, out, echo=lambda line: print(f"[merge] {line}", file=sys.stderr))
    if not (out / "config.json").is_file():
        raise ConfigError(f"merging {actor} into {out} produced no config.json; see the merge log above")
    marker.write_text(json.dumps({"checkpoint": str(actor.resolve()), "key": key}) + "\n")
    return out


def _checkpoint_stamp(actor: Path) -> str:
    return ",".join(f"{p.name}:{p.stat().st_size}:{int(p.stat().st_mtime)}" for p in sorted(actor.iterdir())
                    if p.is_file())
