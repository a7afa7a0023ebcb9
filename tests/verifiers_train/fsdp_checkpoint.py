"""Write a real verl-layout FSDP2 checkpoint on CPU (gloo), for the merge test.

Usage: python fsdp_checkpoint.py MODEL_DIR OUT_ACTOR_DIR WORLD_SIZE

Each rank shards a tiny model with ``fully_shard`` over a 1-D ("fsdp",) CPU mesh and saves its
``model.state_dict()`` (DTensors) as ``model_world_size_W_rank_R.pt``, plus ``fsdp_config.json`` and
``huggingface/`` (config + tokenizer) as verl's FSDPCheckpointManager does. The unsharded initial
weights go to ``OUT_ACTOR_DIR/../reference.pt`` for comparison.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile


def _rank(rank: int, world: int, src: str, out: str, init: str) -> None:
    import torch
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=world)
    mesh = init_device_mesh("cpu", (world,), mesh_dim_names=("fsdp",))
    torch.manual_seed(0)  # same initial weights on every rank, as after loading a checkpoint
    cfg = AutoConfig.from_pretrained(src)
    model = AutoModelForCausalLM.from_config(cfg)
    reference = {k: v.detach().clone() for k, v in model.state_dict().items()}
    for layer in model.model.layers:
        fully_shard(layer, mesh=mesh)
    fully_shard(model, mesh=mesh)
    torch.save(model.state_dict(), os.path.join(out, f"model_world_size_{world}_rank_{rank}.pt"))
    if rank == 0:
        with open(os.path.join(out, "fsdp_config.json"), "w") as f:
            json.dump({"FSDP_version": 2, "world_size": world}, f)
        cfg.save_pretrained(os.path.join(out, "huggingface"))
        AutoTokenizer.from_pretrained(src).save_pretrained(os.path.join(out, "huggingface"))
        torch.save(reference, os.path.join(out, "..", "reference.pt"))
    dist.barrier()
    dist.destroy_process_group()


def main() -> None:
    import torch.multiprocessing as mp

    src, out, world = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(os.path.join(out, "huggingface"), exist_ok=True)
    init = "file://" + tempfile.mktemp(prefix="fsdp-init-")
    mp.spawn(_rank, args=(world, src, out, init), nprocs=world, join=True)


if __name__ == "__main__":
    main()
