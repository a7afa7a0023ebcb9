"""verl's per-row log-prob fallback vs the chunked patch (`verifiers-train patch-verl`), same process.

    python evals/gpu/bench_logprobs.py [--device cuda] [--tokens 100000] [--vocab 704]

Times forward + backward of both on (tokens, vocab) bf16 logits, the shape verl's FSDP engine passes
without remove-padding, and checks that values and gradients agree exactly. The patch is
`verifiers-train patch-verl` (src/verifiers_train/verl_patch.py).
"""

from __future__ import annotations

import argparse
import json
import time

import torch
import torch.nn.functional as F

from verifiers_train.verl_patch import chunked_logprobs


def upstream_v2(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """verl 0.9.1 ``logprobs_from_logits_v2``, verbatim logic: one row at a time."""
    if logits.dtype in [torch.float32, torch.float64]:
        logits_labels = torch.gather(logits, dim=-1, index=labels.unsqueeze(-1)).squeeze(-1)
        logsumexp_values = torch.stack([torch.logsumexp(logit, dim=-1) for logit in logits])
        return logits_labels - logsumexp_values
    rows = []
    for row_logits, row_labels in zip(logits, labels, strict=True):
        row = F.log_softmax(row_logits, dim=-1)
        rows.append(row.gather(dim=-1, index=row_labels.unsqueeze(-1)).squeeze(-1))
    return torch.stack(rows)


def timed(fn, logits, labels, device, repeats):
    best, out, grad = float("inf"), None, None
    for _ in range(repeats):
        x = logits.detach().clone().requires_grad_(True)
        if device == "cuda":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        out = fn(x, labels)
        (grad,) = torch.autograd.grad(out.float().sum(), x)
        if device == "cuda":
            torch.cuda.synchronize()
        best = min(best, time.perf_counter() - t0)
    return best, out, grad


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--tokens", type=int, default=100_000, help="tokens in one batch (~1,024 samples here)")
    ap.add_argument("--vocab", type=int, default=704)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    torch.manual_seed(0)
    logits = torch.randn(args.tokens, args.vocab, dtype=torch.bfloat16, device=args.device)
    labels = torch.randint(0, args.vocab, (args.tokens,), device=args.device)
    t_up, out_up, g_up = timed(upstream_v2, logits, labels, args.device, args.repeats)
    t_new, out_new, g_new = timed(chunked_logprobs(), logits, labels, args.device, args.repeats)
    row = {
        "device": torch.cuda.get_device_name() if args.device == "cuda" else "cpu",
        "tokens": args.tokens, "vocab": args.vocab, "dtype": "bfloat16",
        "upstream_s": round(t_up, 4), "chunked_s": round(t_new, 4), "speedup": round(t_up / t_new, 1),
        "values_equal": bool(torch.equal(out_up, out_new)), "grads_equal": bool(torch.equal(g_up, g_new)),
    }
    print(json.dumps(row))


if __name__ == "__main__":
    main()
