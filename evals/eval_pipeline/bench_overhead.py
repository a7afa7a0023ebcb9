"""Overhead of `verifiers-eval checkpoint` over raw generation of the same prompts, in one process.

The backend (model load, vLLM engine start) is built once and shared, so both timings cover the same
work: raw = one generate call over every prompt (``vllm.LLM.generate`` for ``--backend vllm``, the HF
backend's decoding loop for ``hf``); ours = the whole `run_checkpoint` (load problems, render prompts,
generate in chunks, score in the background, append samples.jsonl, metrics, report). Raw and ours
alternate ``--repeats`` times; the table reports the best of each and their ratio (target <= 1.15x).

    python evals/eval_pipeline/bench_overhead.py MODEL --dataset arith --backend vllm --n 8 --limit 500
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers.datasets import load_problems
from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._backend_factory import make_backend, reuse_backend
from verifiers_train.evaluation._backends import GenerationRequest, SamplingConfig, base_seed
from verifiers_train.templates import build_messages


def raw_generate(backend: Any, requests: list[GenerationRequest], sampling: SamplingConfig) -> int:
    """Generate every request with the plainest call; returns generated tokens."""
    if backend.name == "vllm":
        from vllm import SamplingParams

        params = [SamplingParams(n=sampling.n, temperature=sampling.temperature, top_p=sampling.top_p,
                                 max_tokens=sampling.max_tokens, seed=r.base_seed) for r in requests]
        outs = backend.llm.generate([{"prompt_token_ids": list(r.prompt_ids)} for r in requests], params,
                                    use_tqdm=False)
        return sum(len(c.token_ids) for o in outs for c in o.outputs)
    return sum(c.response_tokens for c in backend.generate(requests, sampling))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--dataset", default="arith")
    ap.add_argument("--data")
    ap.add_argument("--backend", default="hf", choices=("hf", "vllm"))
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--top-p", type=float, default=1.0)
    ap.add_argument("--max-tokens", type=int, default=64)
    ap.add_argument("--limit", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--chunk-problems", type=int, default=None)
    ap.add_argument("--out", default=str(Path(__file__).parent))
    args = ap.parse_args()

    t0 = time.perf_counter()
    backend = make_backend(args.backend, args.model)
    load_s = time.perf_counter() - t0
    sampling = SamplingConfig(args.n, args.temperature, args.top_p, args.max_tokens)
    template = tasks.get(args.dataset).template
    problems = load_problems(args.dataset, args.data, limit=args.limit)
    requests = []
    for i, p in enumerate(problems):
        text, ids = backend.render(build_messages(p, template))
        requests.append(GenerationRequest(i, text, ids, tuple(range(args.n)), base_seed(0, p.id)))

    raw_times, our_times, tokens, accuracy = [], [], 0, None
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        tokens = raw_generate(backend, requests, sampling)
        raw_times.append(time.perf_counter() - t0)
        run_dir = Path(tempfile.mkdtemp(prefix="bench-eval-"))
        cfg = EvalConfig(model=args.model, dataset=args.dataset, data=args.data, backend=args.backend, n=args.n,
                         temperature=args.temperature, top_p=args.top_p, max_tokens=args.max_tokens,
                         limit=args.limit, out=str(run_dir / "run"), chunk_problems=args.chunk_problems,
                         progress=False)
        t0 = time.perf_counter()
        result = run_checkpoint(cfg, backend_factory=reuse_backend(backend))
        our_times.append(time.perf_counter() - t0)
        accuracy = result.metrics["accuracy"]
        shutil.rmtree(run_dir)
    backend.close()

    raw, ours = min(raw_times), min(our_times)
    record = {
        "model": args.model, "backend": args.backend, "dataset": args.dataset, "problems": len(problems),
        "n": args.n, "max_tokens": args.max_tokens, "temperature": args.temperature, "repeats": args.repeats,
        "load_s": round(load_s, 2), "raw_s": [round(t, 3) for t in raw_times], "ours_s": [round(t, 3) for t in our_times],
        "ratio": round(ours / raw, 3), "generated_tokens": tokens, "raw_tokens_per_s": round(tokens / raw, 1),
        "accuracy": accuracy, "machine": platform.node(), "python": platform.python_version(),
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"results_{args.backend}.json").write_text(json.dumps(record, indent=2) + "\n")
    md = ("| backend | problems x n | raw generate (s) | verifiers-eval (s) | ratio | raw tok/s | accuracy |\n"
          "|---|---|---|---|---|---|---|\n"
          f"| {args.backend} | {len(problems)} x {args.n} | {raw:.2f} | {ours:.2f} | {ours / raw:.3f}x | "
          f"{tokens / raw:,.0f} | {100 * (accuracy or 0):.1f}% |\n")
    (out / f"results_{args.backend}.md").write_text(md)
    print(md)
    print(json.dumps(record))


if __name__ == "__main__":
    main()
