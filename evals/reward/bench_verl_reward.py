"""Reward cost inside verl's own reward path, on the CPU, in one run.

Both workloads go through ``RewardLoopWorker.compute_score_batch`` (what each verl reward actor runs:
one asyncio task per sample, a sync reward in the event loop's thread pool), built from the config
``verifiers-train run`` composes:

1. GSM8K: our ``compute_score`` vs verl's built-in ``openai/gsm8k`` scorer (no custom function), on
   dataset solutions and wrong variants: the per-sample reward overhead of switching to this project.
2. MBPP: our ``compute_score`` per sample (naive manager) vs one ``mbpp.score_batch`` call over the same
   programs. ``score_batch`` is what a batching reward manager would do at best, so the ratio bounds what
   such a manager could gain.

Run: python evals/reward/bench_verl_reward.py [--data ../shared/data] [--gsm8k 512] [--mbpp 96] [--reps 3]
Writes results.md and results.json next to this file.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests" / "verifiers_train"))  # the tiny tokenizer fixture builder
DEFAULT_DATA = Path(os.environ.get("VERIFIERS_DATA_DIR", ROOT.parent / "shared" / "data"))


def _worker(model: Path, custom: bool, tmp: Path) -> object:
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    from verifiers_train.run import plan
    from verifiers_train.verl_check import compose

    p = plan({"algo": "grpo", "dataset": "gsm8k", "model": str(model), "out": str(tmp / "run"),
              "batch_size": 8, "mini_batch_size": 4}, env={})
    overrides = p.overrides if custom else [o for o in p.overrides if not o.startswith("reward.custom_reward")]
    return RewardLoopWorker(compose(overrides))


def _batch(tokenizer: object, samples: list[tuple[str, str, str, str]]) -> object:
    import torch
    from verl import DataProto

    enc = [tokenizer(text, add_special_tokens=False)["input_ids"] for _, text, _, _ in samples]  # type: ignore[operator]
    resp_len = max(len(e) for e in enc)
    pad = tokenizer.pad_token_id  # type: ignore[attr-defined]
    n = len(samples)
    responses = torch.full((n, resp_len), pad)
    mask = torch.zeros((n, 1 + resp_len), dtype=torch.long)
    for i, ids in enumerate(enc):
        responses[i, : len(ids)] = torch.tensor(ids)
        mask[i, : 1 + len(ids)] = 1
    return DataProto.from_dict(
        tensors={"prompts": torch.full((n, 1), pad), "responses": responses, "attention_mask": mask},
        non_tensors={
            "data_source": np.array([s for s, _, _, _ in samples], dtype=object),
            "reward_model": np.array([{"style": "rule", "ground_truth": g} for _, _, g, _ in samples], dtype=object),
            "extra_info": np.array([{"setup_code": st, "index": i} for i, (_, _, _, st) in enumerate(samples)],
                                   dtype=object),
        })


def _time_pair(a: object, b: object, reps: int) -> tuple[float, object, float, object]:
    """Median times of ``a`` and ``b``, interleaved with alternating order (ab, ba, ab, ...) so machine
    drift and first-of-pair effects hit both alike."""
    times: dict[int, list[float]] = {0: [], 1: []}
    outs: dict[int, object] = {}
    for rep in range(reps):
        for i in ((0, 1) if rep % 2 == 0 else (1, 0)):
            t = time.perf_counter()
            outs[i] = (a, b)[i]()  # type: ignore[operator]
            times[i].append(time.perf_counter() - t)
    return statistics.median(times[0]), outs[0], statistics.median(times[1]), outs[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--gsm8k", type=int, default=512)
    ap.add_argument("--mbpp", type=int, default=96)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from conftest import make_tiny_model_dir

    from verifiers import mbpp
    from verifiers.datasets import load_problems

    tmp = Path(tempfile.mkdtemp(prefix="bench-reward-"))
    model = make_tiny_model_dir(tmp / "tiny")
    results: dict[str, object] = {"machine": f"{platform.node()} {os.cpu_count()} CPUs (shared by several "
                                             "engineers while measured)", "python": sys.version.split()[0]}

    # 1. GSM8K: ours vs verl's built-in scorer, same worker path.
    probs = load_problems("gsm8k", args.data / "gsm8k" / "test.jsonl", limit=args.gsm8k // 2)
    samples = []
    for p in probs:
        samples.append(("openai/gsm8k", p.solution, p.gold.replace(",", ""), ""))
        samples.append(("openai/gsm8k", p.solution.rsplit("####", 1)[0] + "#### 7", p.gold.replace(",", ""), ""))
    ours, builtin = _worker(model, True, tmp), _worker(model, False, tmp)
    data = _batch(ours.input_tokenizer, samples)  # type: ignore[attr-defined]

    def run(worker: object) -> list[dict]:
        return worker.loop.run_until_complete(worker.compute_score_batch(data))  # type: ignore[attr-defined]

    run(ours), run(builtin)  # warm-up: imports, caches
    t_ours, out_ours, t_builtin, out_builtin = _time_pair(lambda: run(ours), lambda: run(builtin), args.reps)
    acc_ours = statistics.fmean(o["reward_extra_info"]["acc"] for o in out_ours)  # type: ignore[union-attr]
    acc_builtin = statistics.fmean(float(o["reward_score"]) for o in out_builtin)  # type: ignore[union-attr]
    results["gsm8k"] = {"samples": len(samples), "ours_s": t_ours, "verl_builtin_s": t_builtin,
                        "ratio": t_ours / t_builtin, "ours_us_per_sample": 1e6 * t_ours / len(samples),
                        "builtin_us_per_sample": 1e6 * t_builtin / len(samples),
                        "ours_mean_acc": acc_ours, "builtin_mean_acc": acc_builtin}

    # 2. MBPP: naive per-sample path vs one score_batch over the same programs.
    tasks = load_problems("mbpp", args.data / "mbpp" / "mbpp.jsonl", split="test", limit=args.mbpp // 2)
    msamples = []
    for p in tasks:
        gt = json.dumps(list(p.tests))
        msamples.append(("mbpp", f"```python\n{p.solution}\n```", gt, p.setup_code))
        msamples.append(("mbpp", "```python\ndef f():\n    return None\n```", gt, p.setup_code))
    mdata = _batch(ours.input_tokenizer, msamples)  # type: ignore[attr-defined]

    def run_mbpp() -> list[dict]:
        return ours.loop.run_until_complete(ours.compute_score_batch(mdata))  # type: ignore[attr-defined]

    def direct() -> list[object]:
        return mbpp.score_batch([r for _, r, _, _ in msamples], [json.loads(g) for _, _, g, _ in msamples],
                                [s for _, _, _, s in msamples])

    direct()  # starts the sandbox pool
    t_naive, out_naive, t_direct, out_direct = _time_pair(run_mbpp, direct, args.reps)
    results["mbpp"] = {"samples": len(msamples), "naive_manager_s": t_naive, "score_batch_s": t_direct,
                       "ratio": t_naive / t_direct,
                       "naive_acc": statistics.fmean(o["reward_extra_info"]["acc"] for o in out_naive),  # type: ignore[union-attr]
                       "direct_acc": statistics.fmean(float(s.correct) for s in out_direct)}  # type: ignore[union-attr]

    (HERE / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    g, m = results["gsm8k"], results["mbpp"]
    command = f"python evals/reward/bench_verl_reward.py --gsm8k {args.gsm8k} --mbpp {args.mbpp} --reps {args.reps}"
    gsm_row = (f"| GSM8K through `RewardLoopWorker` | {g['samples']} | {g['ours_s']:.3f} s "  # type: ignore[index]
               f"({g['ours_us_per_sample']:.0f} us/sample) | verl built-in {g['verl_builtin_s']:.3f} s "  # type: ignore[index]
               f"({g['builtin_us_per_sample']:.0f} us/sample) | {g['ratio']:.2f}x | "  # type: ignore[index]
               f"acc ours {g['ours_mean_acc']:.3f}, built-in {g['builtin_mean_acc']:.3f} |")  # type: ignore[index]
    mbpp_row = (f"| MBPP, naive manager vs one `score_batch` | {m['samples']} | {m['naive_manager_s']:.3f} s | "  # type: ignore[index]
                f"{m['score_batch_s']:.3f} s | {m['ratio']:.2f}x | acc {m['naive_acc']:.3f} vs "  # type: ignore[index]
                f"{m['direct_acc']:.3f} |")  # type: ignore[index]
    md = ["# Reward cost in verl's reward path (CPU)", "",
          f"Machine: {results['machine']}. Median of {args.reps} interleaved runs (alternating order). Command: `{command}`", "",
          "| workload | samples | this project | baseline | ratio | note |", "|---|---|---|---|---|---|",
          gsm_row, mbpp_row, ""]
    (HERE / "results.md").write_text("\n".join(md))
    print("\n".join(md))


if __name__ == "__main__":
    main()
