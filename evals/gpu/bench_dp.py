"""Data-parallel evaluation vs one engine: same settings, same run, samples compared one by one.

Runs `verifiers-eval checkpoint` twice as a user would (fresh processes): one vLLM engine on GPU 0, then
``--data-parallel N`` (N engines as Ray actors, one GPU each). Reports generation throughput (generated
tokens / generation seconds), wall time after the engines are up, engine start, and how many samples are
identical between the two runs.

    python evals/gpu/bench_dp.py MODEL --data DATA/gsm8k/test.jsonl --dataset gsm8k --dp 2 --out OUT

``--batch-invariant`` passes the flag to both runs. With ``--flag-cost-gpu G`` a default-kernel engine runs the
same single-engine evaluation on GPU G at the same time as the batch-invariant one on GPU 0 (fresh processes,
a card each), which gives the flag's throughput cost under the same host load.
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

from compare_samples import compare, load  # this folder: python puts a script's folder on sys.path


def start(model: str, args: argparse.Namespace, out: Path, dp: int, *, gpu: str = "0",
          invariant: bool = False) -> tuple[subprocess.Popen[bytes], float]:
    """Launch one `verifiers-eval checkpoint` (``gpu``: the single engine's card); returns it and its start time."""
    cmd = [sys.executable, "-m", "verifiers_train.evaluation.cli", "checkpoint", model, "--task", args.dataset,
           "--data", args.data, "--backend", "vllm", "--n", str(args.n), "--temperature", "1.0", "--max-tokens",
           str(args.max_tokens), "--limit", str(args.limit), "--out", str(out), "--quiet", "--no-report",
           "--tensor-parallel-size", "1", "--data-parallel", str(dp)] + (["--batch-invariant"] if invariant else [])
    env = dict(os.environ)
    if dp == 1:
        env["CUDA_VISIBLE_DEVICES"] = gpu
    with (out.parent / f"{out.name}.log").open("w") as log:
        return subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT), time.perf_counter()


def finish(proc: subprocess.Popen[bytes], t0: float, out: Path, dp: int) -> dict[str, Any]:
    """Wait for a launched run; its timing and accuracy from ``metrics.json``."""
    if proc.wait() != 0:
        raise SystemExit(f"{out.name} failed (exit {proc.returncode}): see {out.parent / f'{out.name}.log'}")
    wall = time.perf_counter() - t0
    metrics = json.loads((out / "metrics.json").read_text())
    t = metrics["timing"]
    return {"dp": dp, "wall_s": round(wall, 2), "load_s": round(t["load_s"], 2), "generate_s": round(t["generate_s"], 2),
            "after_load_s": round(t["last_session_s"] - t["load_s"], 2), "tokens": int(t["generated_tokens"]),
            "tokens_per_s": round(t["generated_tokens"] / t["generate_s"], 1), "accuracy": metrics["accuracy"]}


def run(model: str, args: argparse.Namespace, out: Path, dp: int) -> dict[str, Any]:
    return finish(*start(model, args, out, dp, invariant=args.batch_invariant), out, dp)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--data", required=True)
    ap.add_argument("--dataset", default="gsm8k")
    ap.add_argument("--dp", type=int, default=2)
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=512)
    ap.add_argument("--limit", type=int, default=500)
    ap.add_argument("--batch-invariant", action="store_true", help="both runs with --batch-invariant")
    ap.add_argument("--flag-cost-gpu", help="with --batch-invariant: a default engine on this GPU at the same time")
    ap.add_argument("--wave", type=int, help="compare_samples.py --wave: the single engine's max_num_seqs")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {}
    if args.flag_cost_gpu is not None:
        default = start(args.model, args, args.out / "single_default", 1, gpu=args.flag_cost_gpu)
    single = run(args.model, args, args.out / "single", 1)
    print(json.dumps(single), flush=True)
    if args.flag_cost_gpu is not None:
        base = finish(*default, args.out / "single_default", 1)
        print(json.dumps(base), flush=True)
        record["default_kernels_concurrent"] = base
        record["flag_throughput_ratio"] = round(single["tokens_per_s"] / base["tokens_per_s"], 3)
        record["identical_to_default_kernels"] = compare(load(args.out / "single"),
                                                         load(args.out / "single_default"), None)["identical"]
    dp = run(args.model, args, args.out / f"dp{args.dp}", args.dp)
    print(json.dumps(dp), flush=True)
    where = compare(load(args.out / "single"), load(args.out / f"dp{args.dp}"), args.wave)
    record |= {"batch_invariant": args.batch_invariant, "single": single, "data_parallel": dp,
              "samples": where["samples"], "identical_samples": where["identical"], "differences": where,
              "throughput_ratio": round(dp["tokens_per_s"] / single["tokens_per_s"], 3),
              "after_load_ratio": round(single["after_load_s"] / dp["after_load_s"], 3),
              "wall_ratio": round(single["wall_s"] / dp["wall_s"], 3)}
    (args.out / "bench_dp.json").write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
