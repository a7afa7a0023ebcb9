"""Do a request's samples depend on the batch around it? Real vLLM, one engine, with and without batch invariance.

Generates the same seeded requests (GSM8K prompts, n samples each) three ways in one engine: all in one
batch, in the reverse order, and in four separate batches; counts responses identical to the one-batch
run. Run it twice, in fresh processes, without and with ``--invariant`` (sets ``VLLM_BATCH_INVARIANT=1``
before vLLM is imported) to see whether vLLM's batch-invariant mode makes real-size sampling independent of
batch composition, and what it costs in throughput.

    python evals/gpu/batch_invariance.py MODEL --data gsm8k/test.jsonl [--invariant] --out result.json
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--data", required=True)
    ap.add_argument("--prompts", type=int, default=128)
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=256)
    ap.add_argument("--invariant", action="store_true")
    ap.add_argument("--gpu-memory-utilization", type=float, default=0.8)
    ap.add_argument("--no-prefix-caching", action="store_true",
                    help="every pass computes its prompts afresh (with caching, passes after the first reuse the "
                         "first pass's prompt KV, so only decoding is compared)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    if args.invariant:
        os.environ["VLLM_BATCH_INVARIANT"] = "1"
    os.environ.setdefault("VLLM_USE_FLASHINFER_SAMPLER", "0")
    from transformers import AutoTokenizer
    from vllm import LLM, SamplingParams

    tok = AutoTokenizer.from_pretrained(args.model)
    rows = [json.loads(line) for line in Path(args.data).read_text(encoding="utf-8").split("\n") if line][: args.prompts]
    # render to text, then tokenize: apply_chat_template(tokenize=True) returns a BatchEncoding in transformers 5
    texts = [tok.apply_chat_template([{"role": "user", "content": r["question"]}], add_generation_prompt=True,
                                     tokenize=False) for r in rows]
    prompts = [list(tok(t, add_special_tokens=False)["input_ids"]) for t in texts]
    t0 = time.perf_counter()
    llm = LLM(model=args.model, seed=0, gpu_memory_utilization=args.gpu_memory_utilization,
              enable_prefix_caching=not args.no_prefix_caching)
    load = time.perf_counter() - t0

    def gen(order: list[int]) -> dict[int, list[tuple[int, ...]]]:
        params = [SamplingParams(n=args.n, temperature=1.0, max_tokens=args.max_tokens, seed=1000 + i) for i in order]
        outs = llm.generate([{"prompt_token_ids": prompts[i]} for i in order], params, use_tqdm=False)
        return {i: [tuple(c.token_ids) for c in sorted(o.outputs, key=lambda c: c.index)] for i, o in zip(order, outs)}

    idx = list(range(len(prompts)))
    gen(idx[:8])  # warm-up
    t0 = time.perf_counter()
    one = gen(idx)
    seconds = time.perf_counter() - t0
    tokens = sum(len(s) for v in one.values() for s in v)
    rev = gen(idx[::-1])
    quarters: dict[int, list[tuple[int, ...]]] = {}
    for q in range(4):
        quarters |= gen(idx[q::4])
    total = len(prompts) * args.n

    def same(other: dict[int, list[tuple[int, ...]]]) -> int:
        return sum(a == b for i in idx for a, b in zip(one[i], other[i], strict=True))

    record = {"invariant": args.invariant, "prefix_caching": not args.no_prefix_caching, "prompts": len(prompts), "n": args.n, "max_tokens": args.max_tokens,
              "load_s": round(load, 1), "one_batch_s": round(seconds, 2), "tokens": tokens,
              "tokens_per_s": round(tokens / seconds, 1), "samples": total,
              "identical_reversed": same(rev), "identical_four_batches": same(quarters)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
