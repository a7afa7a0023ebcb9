"""Data-parallel evaluation vs one engine: same settings, same run, samples compared one by one.

Runs `verifiers-eval checkpoint` twice as a user would (fresh processes): one vLLM engine on GPU 0, then
``--data-parallel N`` (N engines as Ray actors, one GPU each). Reports generation throughput (generated
tokens / generation seconds), wall time after the engines are up, engine start, and how many samples are
identical between the two runs.

    python evals/gpu/bench_dp.py MODEL --data DATA/gsm8k/test.jsonl --dataset gsm8k --dp 2 --out OUT
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def run(model: str, args: argparse.Namespace, out: Path, dp: int) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "verifiers_train.evaluation.cli", "checkpoint", model, "--task", args.dataset,
           "--data", args.data, "--backend", "vllm", "--n", str(args.n), "--temperature", "1.0", "--max-tokens",
           str(args.max_tokens), "--limit", str(args.limit), "--out", str(out), "--quiet", "--no-report",
           "--tensor-parallel-size", "1", "--data-parallel", str(dp)]
    env = dict(os.environ)
    if dp == 1:
        env["CUDA_VISIBLE_DEVICES"] = env.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0]
    t0 = time.perf_counter()
    with (out.parent / f"{out.name}.log").open("w") as log:
        subprocess.run(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, check=True)
    wall = time.perf_counter() - t0
    metrics = json.loads((out / "metrics.json").read_text())
    t = metrics["timing"]
    return {"dp": dp, "wall_s": round(wall, 2), "load_s": round(t["load_s"], 2), "generate_s": round(t["generate_s"], 2),
            "after_load_s": round(t["last_session_s"] - t["load_s"], 2), "tokens": int(t["generated_tokens"]),
            "tokens_per_s": round(t["generated_tokens"] / t["generate_s"], 1), "accuracy": metrics["accuracy"]}


def samples(run_dir: Path) -> dict[tuple[str, int], str]:
    out = {}
    for line in (run_dir / "samples.jsonl").read_text(encoding="utf-8").split("\n"):  # not splitlines: U+2028
        if not line:
            continue
        s = json.loads(line)
        out[(s["problem_id"], s["sample_index"])] = s["response"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--data", required=True)
    ap.add_argument("--dataset", default="gsm8k")
    ap.add_argument("--dp", type=int, default=2)
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--limit", type=int, default=500)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    single = run(args.model, args, args.out / "single", 1)
    print(json.dumps(single), flush=True)
    dp = run(args.model, args, args.out / f"dp{args.dp}", args.dp)
    print(json.dumps(dp), flush=True)
    a, b = samples(args.out / "single"), samples(args.out / f"dp{args.dp}")
    same = sum(a[k] == b.get(k) for k in a)
    record = {"single": single, "data_parallel": dp, "samples": len(a), "identical_samples": same,
              "throughput_ratio": round(dp["tokens_per_s"] / single["tokens_per_s"], 3),
              "after_load_ratio": round(single["after_load_s"] / dp["after_load_s"], 3),
              "wall_ratio": round(single["wall_s"] / dp["wall_s"], 3)}
    (args.out / "bench_dp.json").write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
