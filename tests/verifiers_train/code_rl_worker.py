"""Score code rollouts as a verl run's reward worker does, in a fresh process (as Ray starts one).

Usage: python code_rl_worker.py MODEL_DIR DATA_DIR RUN_DIR TASK OUT_JSON [TIMEOUT_S [ROWS]]

Plans the run `verifiers-train run --task TASK --data DATA_DIR` would launch (our reward, its reward kwargs,
``timeout=TIMEOUT_S`` passed as a user would after ``--``), composes verl's config from it and builds verl's
own ``RewardLoopWorker``. The batch holds, for the first ROWS (default 1) rows of DATA_DIR/test.parquet, the reference solution
and every hostile family of ``evals/gpu/hostile_code.py``, tokenized and decoded back by the worker. The
worker scores them all at once (its event loop's thread pool, as in a run); then the same samples go through
`injected` (the GPU script's reward) from 16 threads. verl's validation metrics are computed from the
worker's results by verl's own ``_val_metrics_update``. OUT_JSON gets every sample's result and the metrics.
"""

from __future__ import annotations

import importlib.util
import json
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
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    from verifiers.datasets import load_problems
    from verifiers_train.run import plan
    from verifiers_train.verl_check import compose

    hostile = _hostile()
    extra = [f"+reward.custom_reward_function.reward_kwargs.timeout={timeout}"]
    p = plan({"algo": "grpo", "dataset": task, "model": model, "data": data, "out": run_dir,
              "batch_size": 8, "mini_batch_size": 4}, extra_overrides=extra, env={})
    worker = RewardLoopWorker(compose(p.argv[3:]))
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
    tok = worker.input_tokenizer
    decoded_ok = [tok.decode(tok(s["response"], add_special_tokens=False)["input_ids"], skip_special_tokens=True)
                  == s["response"] for s in samples]  # the worker scores what it decodes: the program must survive
    data = batch(tok, samples)
    start = time.monotonic()
    outputs = worker.loop.run_until_complete(worker.compute_score_batch(data))
    worker_s = time.monotonic() - start
    infos = [o["reward_extra_info"] for o in outputs]
    keys = list(infos[0])
    extra_infos = {k: [i[k] for i in infos] for k in keys}
    extra_infos["reward"] = [o["reward_score"] for o in outputs]
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
        "keys": keys, "metrics": {k: float(v) for k, v in metrics.items()},
        "worker_s": round(worker_s, 1), "threads_s": round(threads_s, 1),
    }
    Path(out).write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
