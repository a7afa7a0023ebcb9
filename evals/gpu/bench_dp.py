"""Data-parallel evaluation vs one engine: same settings, same run, samples compared one by one.

Runs `verifiers-eval checkpoint` twice as a user would (fresh processes): one vLLM engine on GPU 0, then
``--data-parallel N`` (N engines as Ray actors, one GPU each). Reports generation throughput (generated
tokens / generation seconds), wall time after the engines are up, engine start, and how many samples are
identical between the two runs.

    python evals/gpu/bench_dp.py MODEL --data DATA/gsm8k/test.jsonl --dataset gsm8k --dp 2 --out OUT

Both runs draw chunks of the pending samples (``--no-fixed-batches``, the setting of R6.2 and R8.3) unless
``--fixed-batches`` is given; ``--batch-invariant`` passes vLLM's kernels flag. With ``--baseline-gpu G`` the same
single-engine evaluation with neither (``--no-fixed-batches``) runs on GPU G at the same time as the tested one on
GPU 0 (fresh processes, a card each), which gives the tested flags' throughput cost under the same host load.
``--resume-at K`` then cuts a copy of the single-engine run after K samples (mid-line, as a crash would) and
resumes it in a fresh process.

Random weights almost never sample the end token, so every response runs to ``--max-tokens``. ``--stop-every K``
evaluates a view of the model whose ``generation_config.json`` also ends a response on every K-th token id (vLLM
stops on all of them): a response then ends with probability about 1/K a token, so lengths spread out as a
trained model's do, which is what batches that must drain (``--fixed-batches``) pay for.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from compare_samples import compare, load  # this folder: python puts a script's folder on sys.path


def stop_every_view(model: str, every: int, out: Path) -> str:
    """A folder that is ``model`` (its files linked) but whose generation config ends on every ``every``-th id."""
    view = out / f"model_stop{every}"
    view.mkdir(parents=True, exist_ok=True)
    for f in Path(model).iterdir():
        if f.name != "generation_config.json" and not (view / f.name).exists():
            (view / f.name).symlink_to(f.resolve())
    gen_file = Path(model) / "generation_config.json"
    gen = json.loads(gen_file.read_text()) if gen_file.is_file() else {}
    vocab = json.loads((Path(model) / "config.json").read_text())["vocab_size"]
    eos = gen.get("eos_token_id")
    eos = [eos] if isinstance(eos, int) else list(eos or [])
    gen["eos_token_id"] = eos + [i for i in range(every - 1, vocab, every) if i not in eos]
    (view / "generation_config.json").write_text(json.dumps(gen))
    return str(view)


def start(model: str, args: argparse.Namespace, out: Path, dp: int, *, gpu: str = "0",
          flags: bool = True, resume: bool = False) -> tuple[subprocess.Popen[bytes], float]:
    """Launch one `verifiers-eval checkpoint` (``gpu``: the single engine's card; ``flags``: with the flags under
    test); returns it and its start time."""
    cmd = [sys.executable, "-m", "verifiers_train.evaluation.cli", "checkpoint", model, "--task", args.dataset,
           "--data", args.data, "--backend", "vllm", "--n", str(args.n), "--temperature", "1.0", "--max-tokens",
           str(args.max_tokens), "--limit", str(args.limit), "--out", str(out), "--quiet", "--no-report",
           "--tensor-parallel-size", "1", "--data-parallel", str(dp)] + (tested_flags(args) if flags else
                                                                          ["--no-fixed-batches"])
    cmd += ["--resume"] if resume else []
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


def tested_flags(args: argparse.Namespace) -> list[str]:
    """Flags of the runs under test; without ``--fixed-batches`` they draw chunks (the setting of R6.2 and R8.3)."""
    return ["--batch-invariant"] * args.batch_invariant + ["--fixed-batches" if args.fixed_batches else
                                                           "--no-fixed-batches"]


def run(model: str, args: argparse.Namespace, out: Path, dp: int, resume: bool = False) -> dict[str, Any]:
    return finish(*start(model, args, out, dp, resume=resume), out, dp)


def resumed_copy(args: argparse.Namespace, model: str, cut: int) -> dict[str, Any]:
    """The single-engine run cut after ``cut`` samples and a torn half line, resumed on GPU 0; compared to it."""
    single, torn = args.out / "single", args.out / "single_resumed"
    shutil.rmtree(torn, ignore_errors=True)
    shutil.copytree(single, torn)
    lines = (torn / "samples.jsonl").read_text(encoding="utf-8").split("\n")
    (torn / "samples.jsonl").write_text("\n".join(lines[:cut]) + "\n" + lines[cut][: len(lines[cut]) // 2],
                                        encoding="utf-8")
    wall = run(model, args, torn, 1, resume=True)["wall_s"]  # its metrics add up both sessions: only the wall time
    return {"cut_after": cut, "wall_s": wall, "identical_to_single": compare(load(single), load(torn), None)["identical"]}


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
    ap.add_argument("--fixed-batches", action="store_true", help="both runs with fixed batches (the CLI's default)")
    ap.add_argument("--baseline-gpu", help="the single engine without the flags on this GPU at the same time")
    ap.add_argument("--resume-at", type=int, help="also resume a copy of the single run cut after this many samples")
    ap.add_argument("--stop-every", type=int, help="end responses on every K-th token id too (lengths spread out)")
    ap.add_argument("--wave", type=int, help="compare_samples.py --wave: the single engine's max_num_seqs")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    model = stop_every_view(args.model, args.stop_every, args.out) if args.stop_every else args.model
    record: dict[str, Any] = {"flags": tested_flags(args), "stop_every": args.stop_every}
    if args.baseline_gpu is not None:
        default = start(model, args, args.out / "single_default", 1, gpu=args.baseline_gpu, flags=False)
    single = run(model, args, args.out / "single", 1)
    print(json.dumps(single), flush=True)
    if args.baseline_gpu is not None:
        base = finish(*default, args.out / "single_default", 1)
        print(json.dumps(base), flush=True)
        record["without_flags_concurrent"] = base
        record["flags_throughput_ratio"] = round(single["tokens_per_s"] / base["tokens_per_s"], 3)
        record["flags_after_load_ratio"] = round(base["after_load_s"] / single["after_load_s"], 3)
        record["identical_without_flags"] = compare(load(args.out / "single"),
                                                    load(args.out / "single_default"), None)["identical"]
    dp = run(model, args, args.out / f"dp{args.dp}", args.dp)
    print(json.dumps(dp), flush=True)
    if args.resume_at is not None:
        record["resumed"] = resumed_copy(args, model, args.resume_at)
        print(json.dumps(record["resumed"]), flush=True)
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
