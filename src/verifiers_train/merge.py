"""``verifiers-train merge``: turn a verl FSDP checkpoint into a Hugging Face model folder.

Wraps verl 0.9.1's own merger (``python -m verl.model_merger merge --backend fsdp --local_dir ACTOR_DIR
--target_dir OUT``) after finding the right folder. Accepted inputs, most specific first:

- an actor (or critic) folder: ``.../global_step_N/actor`` (holds ``fsdp_config.json``,
  ``model_world_size_W_rank_R.pt`` and ``huggingface/``);
- a step folder ``.../global_step_N`` (its ``actor/`` or ``critic/``);
- a checkpoint root with ``latest_checkpointed_iteration.txt`` (the latest step);
- a run directory of ``verifiers-train run`` (its ``checkpoints/``).

Example:
    >>> merge("runs/grpo-arith/checkpoints/global_step_40", "merged/")   # doctest: +SKIP
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from verifiers.errors import ConfigError, DataError, one_of

__all__ = ["find_checkpoint", "latest_step", "merge", "merge_command"]

COMPONENTS = ("actor", "critic")
_LATEST = "latest_checkpointed_iteration.txt"


def _is_fsdp_dir(path: Path) -> bool:
    return (path / "fsdp_config.json").is_file() and any(path.glob("model_world_size_*_rank_0.pt"))


def find_checkpoint(path: str | os.PathLike[str], component: str = "actor") -> Path:
    """The FSDP shard folder of ``component`` inside ``path`` (see the module docstring for accepted inputs).

    Raises:
        DataError: ``path`` is missing or holds no verl FSDP checkpoint, with what was looked for.
        ConfigError: unknown component.
    """
    one_of(component, COMPONENTS, "component")
    root = Path(path).expanduser()
    if not root.exists():
        raise DataError(f"no such checkpoint folder: {root}")
    candidates = [root, root / component]
    for base in (root, root / "checkpoints"):
        latest = base / _LATEST
        if latest.is_file():
            step = latest.read_text(encoding="utf-8").strip()
            candidates.append(base / f"global_step_{step}" / component)
    for cand in candidates:
        if _is_fsdp_dir(cand):
            if not (cand / "huggingface" / "config.json").is_file():
                raise DataError(f"{cand} has FSDP shards but no huggingface/config.json (verl saves the HF config "
                                "and tokenizer there); the checkpoint is incomplete")
            return cand
    steps = sorted(root.glob("global_step_*")) + sorted((root / "checkpoints").glob("global_step_*"))
    hint = f"; it has {', '.join(p.name for p in steps[-3:])}: pass one of those" if steps else ""
    raise DataError(f"{root} is not a verl FSDP checkpoint: expected fsdp_config.json and "
                    f"model_world_size_*_rank_0.pt in it or in {component}/, or {_LATEST}{hint}")


def latest_step(run_dir: str | os.PathLike[str]) -> int | None:
    """The step of a run directory's last complete checkpoint (the one a relaunch resumes from), or ``None``."""
    try:
        actor = find_checkpoint(Path(run_dir) / "checkpoints")
    except (DataError, ConfigError):
        return None
    m = re.fullmatch(r"global_step_(\d+)", actor.parent.name)
    return int(m.group(1)) if m else None


def merge_command(local_dir: str | os.PathLike[str], target_dir: str | os.PathLike[str], *,
                  backend: str = "fsdp", trust_remote_code: bool = False) -> list[str]:
    """The ``python -m verl.model_merger merge`` argument list (verl 0.9.1 flag names)."""
    cmd = [sys.executable, "-m", "verl.model_merger", "merge", "--backend", backend,
           "--local_dir", str(local_dir), "--target_dir", str(target_dir)]
    if trust_remote_code:
        cmd.append("--trust-remote-code")
    return cmd


def merge(checkpoint: str | os.PathLike[str], out: str | os.PathLike[str], *, component: str = "actor",
          trust_remote_code: bool = False, dry_run: bool = False,
          echo: Callable[[str], None] = print) -> Path:
    """Merge a verl FSDP checkpoint into a Hugging Face folder ``out``; return ``out``.

    Args:
        checkpoint: actor folder, step folder, checkpoint root or run directory.
        out: target folder for ``config.json``, weights and tokenizer.
        component: ``actor`` (the policy) or ``critic``.
        trust_remote_code: pass ``--trust-remote-code`` for custom architectures.
        dry_run: print the command, run nothing.

    Raises:
        DataError: no checkpoint found, or verl's merger failed or wrote no weights.
    """
    local_dir = find_checkpoint(checkpoint, component)
    target = Path(out).expanduser().resolve()
    cmd = merge_command(local_dir.resolve(), target, trust_remote_code=trust_remote_code)
    echo(" ".join(cmd))
    if dry_run:
        return target
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                            check=False)
    if result.returncode != 0:
        tail = "\n".join(result.stdout.splitlines()[-20:])
        raise DataError(f"verl's model merger failed (exit {result.returncode}) on {local_dir}:\n{tail}")
    weights = list(target.glob("*.safetensors")) + list(target.glob("*.bin"))
    if not (target / "config.json").is_file() or not weights:
        raise DataError(f"verl's merger exited 0 but {target} lacks config.json or weights")
    echo(f"merged {local_dir} -> {target} ({len(weights)} weight file(s))")
    return target
