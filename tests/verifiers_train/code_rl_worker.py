"""Score code rollouts as a verl run does: verl's RewardLoopManager and its reward-worker actors under Ray.

Usage: python code_rl_worker.py MODEL_DIR DATA_DIR RUN_DIR TASK OUT_JSON [TIMEOUT_S [ROWS]]

Plans the run `verifiers-train run --task TASK --data DATA_DIR --reward-workers 2` would launch (our reward, its
reward kwargs, ``timeout=TIMEOUT_S`` passed as a user would after ``--``) and composes verl's config from it.
A local Ray cluster (2 CPUs) then runs verl's own ``RewardLoopManager``, which starts the reward workers as Ray
actors (fresh processes, each starting its own sandbox pool) and scores a batch split between them, as the
trainer does. The batch holds, for the first ROWS (default 1) rows of DATA_DIR/test.parquet, the reference
solution and every hostile family of ``evals/gpu/hostile_code.py``, tokenized and decoded back by the workers.
Then the same samples go through `injected` (the GPU script's reward) from 16 threads of this process. verl's
validation metrics are computed from the workers' results with verl's ``process_validation_metrics``. OUT_JSON
gets every sample's result and the metrics.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _hostile() -> Any:
    spec = importlib.util.spec_from_file_location("hostile_code", ROOT / "evals" / "gpu" / "hostile_code.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def batch(tokenizer: Any, samples: list[dict[str, Any]]) -> Any:
    """A DataProto shaped like the agent loop's output: prompts, responses, attention mask, row metadata."""
    import numpy as np
    import torch
    from verl import DataProto

    ids = [tokenizer(s["response"], add_special_tokens=False)["input_ids"] for s in samples]
    prompt_len, resp_len = 4, max(len(i) for i in ids)
    pad = tokenizer.pad_token_id
    prompts = torch.full((len(samples), prompt_len), pad)
    responses = torch.full((len(samples), resp_len), pad)
    mask = torch.zeros((len(samples), prompt_len + resp_len), dtype=torch.long)
    for i, row_ids in enumerate(ids):
        responses[i, : len(row_ids)] = torch.tensor(row_ids)
        mask[i, :prompt_len] = 1
        mask[i, prompt_len : prompt_len + len(row_ids)] = 1
    return DataProto.from_dict(
        tensors={"prompts": prompts, "responses": responses, "attention_mask": mask},
        non_tensors={
            "data_source": np.array([s["row"]["data_source"] for s in samples], dtype=object),
            "reward_model": np.array([dict(s["row"]["reward_model"]) for s in samples], dtype=object),
            "extra_info": np.array([dict(s["row"]["extra_info"]) for s in samples], dtype=object),
        },
    )


def val_metrics(data_sources: list[str], infos: dict[str, list[Any]]) -> dict[str, float]:
    """verl 0.9.1's validation metrics: its ``process_validation_metrics``, named as
    ``RayPPOTrainer._val_metrics_update`` names them (its module imports rollout-server packages a CPU host lacks)."""
    from verl.trainer.ppo.metric_utils import process_validation_metrics

    out = {}
    for source, variables in process_validation_metrics(data_sources, list(range(len(data_sources))), infos).items():
        core = "acc" if "acc" in variables else "reward"
        for var, values in variables.items():
            n_max = max(int(name.split("@")[-1].split("/")[0]) for name in values)
            for name, value in values.items():
                is_core = var == core and name.startswith(("mean", "maj", "best")) and f"@{n_max}" in name
                out[f"{'val-core' if is_core else 'val-aux'}/{source}/{var}/{name}"] = float(value)
    return out


def main() -> None:
    model, data, run_dir, task, out = sys.argv[1:6]
    timeout = sys.argv[6] if len(sys.argv) > 6 else "2"
    n_rows = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    import pyarrow.parquet as pq
    import ray
    from verl.experimental.reward_loop.reward_loop import RewardLoopManager

    from verifiers.datasets import load_problems
    from verifiers_train.run import plan
    from verifiers_train.verl_check import compose

    hostile = _hostile()
    extra = [f"+reward.custom_reward_function.reward_kwargs.timeout={timeout}"]
    p = plan({"algo": "grpo", "dataset": task, "model": model, "data": data, "out": run_dir,
              "batch_size": 8, "mini_batch_size": 4, "reward_workers": 2}, extra_overrides=extra, env={})
    config = compose(p.argv[3:])
    rows = pq.read_table(Path(data) / "test.parquet").to_pylist()[:n_rows]
    # the reference solutions: the rows' problems, found by id in the task's own data (all of its splits)
    meta = json.loads((Path(data) / "prepare_meta.json").read_text())
    wanted = {r["extra_info"]["id"] for r in rows}
    solutions: dict[str, str] = {}
    for source in dict.fromkeys(str(s).split("[")[0] for s in meta["splits"].values()):
        for problem in load_problems(task, meta.get("test_source") or meta.get("source"), split=source):
            if problem.id in wanted:
                solutions[problem.id] = problem.solution
    samples = []
    for row in rows:
        gold = solutions[row["extra_info"]["id"]]
        samples.append({"row": row, "family": None, "response": f"```python\n{gold}\n```\n"})
        function = hostile.entry_point(row["data_source"], row["reward_model"]["ground_truth"], row["extra_info"])
        samples += [{"row": row, "family": f, "response": hostile.hostile_response(f, function)}
                    for f in hostile.FAMILIES]
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model)
    decoded_ok = [tok.decode(tok(s["response"], add_special_tokens=False)["input_ids"], skip_special_tokens=True)
                  == s["response"] for s in samples]  # the worker scores what it decodes: the program must survive
    data = batch(tok, samples)
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        manager = RewardLoopManager(config)
        start = time.monotonic()
        scored = manager.compute_rm_score(data)
        worker_s = time.monotonic() - start
        pids = sorted(set(ray.get([w.__ray_call__.remote(lambda _self: os.getpid())
                                   for w in manager.reward_loop_workers])))
    finally:
        ray.shutdown()
    keys = list(scored.meta_info["reward_extra_keys"])
    rewards = scored.batch["rm_scores"].sum(-1).tolist()
    infos = [{k: scored.non_tensor_batch[k][i] for k in keys} for i in range(len(samples))]
    infos = [{k: (v.item() if hasattr(v, "item") else v) for k, v in i.items()} for i in infos]
    outputs = [{"reward_score": r, "reward_extra_info": i} for r, i in zip(rewards, infos, strict=True)]
    extra_infos = {k: [i[k] for i in infos] for k in keys}
    extra_infos["reward"] = rewards
    metrics = val_metrics([s["row"]["data_source"] for s in samples], extra_infos)

    def threaded(s: dict[str, Any]) -> dict[str, Any]:
        r = s["row"]
        return hostile.injected(r["data_source"], s["response"], r["reward_model"]["ground_truth"],
                                dict(r["extra_info"]), share=0.0, timeout=float(timeout))

    start = time.monotonic()
    with ThreadPoolExecutor(16) as threads:
        direct = list(threads.map(threaded, samples))
    threads_s = time.monotonic() - start
    result = {
        "samples": [{"family": s["family"], "id": s["row"]["extra_info"]["id"], "reward": o["reward_score"],
                     "info": {k: v for k, v in o["reward_extra_info"].items() if k != "pred"},
                     "decoded_ok": ok, "threaded": {k: v for k, v in d.items() if k != "pred"}}
                    for s, o, d, ok in zip(samples, outputs, direct, decoded_ok, strict=True)],
        "keys": keys, "metrics": {k: float(v) for k, v in metrics.items()}, "worker_pids": pids,
        "driver_pid": os.getpid(),
        "worker_s": round(worker_s, 1), "threads_s": round(threads_s, 1),
    }
    Path(out).write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
