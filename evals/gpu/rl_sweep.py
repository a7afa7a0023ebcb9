"""Minimal GRPO / PPO-GAE loop (torch + transformers only) to pick learning rates and batch size for the tiny model.

verl's start-up costs ~2.5 minutes per run, so a hyper-parameter sweep through it does not fit a device
session. This loop follows verl's defaults closely enough to rank settings: PPO clip 0.2 over mini-batches,
token-mean loss, low-variance KL loss (0.001) to the start model, AdamW (weight decay 0.01), grad-norm clip
1.0, temperature-1 sampling, greedy validation on the 500 arith test problems (what verl's
``val-core/arith/acc`` reports). Advantages:
- ``--algo grpo``: group-normalized rewards (std + 1e-6);
- ``--algo gae``: verl's GAE with gamma = lambda = 1 and a critic (the same model with a one-output token
  head, as verl loads it). The reward sits on the last response token, so A_t = R - V_t, whitened over the
  batch's response tokens. The critic is updated first, on the same mini-batches, with verl's clipped value
  loss (0.5 * max of the squared errors, clip 0.5).

    python evals/gpu/rl_sweep.py MODEL --out DIR --name lr3e-4 --lr 3e-4 --batch 128 --n 8 --mini 64
    python evals/gpu/rl_sweep.py MODEL --out DIR --name gae --algo gae --critic-lr 1e-4 --batch 128 --n 8

Writes ``DIR/NAME.jsonl``: one line per step (mean reward, entropy, seconds) and a ``val`` line every
``--val-every`` steps. Needs no verl, vLLM or Ray: it runs on the bare GPU image.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForTokenClassification, AutoTokenizer

from verifiers import gsm8k, tasks
from verifiers.datasets import load_problems
from verifiers_train.templates import build_messages


def _positions(mask: torch.Tensor) -> torch.Tensor:
    return (mask.cumsum(-1) - 1).clamp(min=0)


def _response_mask(resp: torch.Tensor, eos: int) -> torch.Tensor:
    """1 for response tokens up to and including the first EOS."""
    is_eos = (resp == eos).long()
    after = is_eos.cumsum(-1) - is_eos  # EOS tokens strictly before this position
    return (after == 0).float()


def _token_logp(model, ids: torch.Tensor, mask: torch.Tensor, start: int) -> tuple[torch.Tensor, torch.Tensor]:
    logits = model(input_ids=ids, attention_mask=mask, position_ids=_positions(mask)).logits[:, start - 1 : -1].float()
    logp_all = F.log_softmax(logits, -1)
    logp = logp_all.gather(-1, ids[:, start:].unsqueeze(-1)).squeeze(-1)
    entropy = -(logp_all.exp() * logp_all).sum(-1)
    return logp, entropy


def _values(critic, ids: torch.Tensor, mask: torch.Tensor, start: int, resp_mask: torch.Tensor) -> torch.Tensor:
    """V_t for each response token, from the prefix before it (verl: values[:, -len-1:-1]), 0 after the end."""
    out = critic(input_ids=ids, attention_mask=mask, position_ids=_positions(mask)).logits[:, start - 1 : -1, 0]
    return out.float() * resp_mask


def _whiten(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """verl's masked_whiten: zero mean, unit variance (unbiased) over the masked entries."""
    mean = (x * mask).sum() / mask.sum()
    var = (((x - mean) ** 2) * mask).sum() / (mask.sum() - 1)
    return (x - mean) * torch.rsqrt(var + 1e-8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--out", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--algo", choices=("grpo", "gae"), default="grpo")
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--critic-lr", type=float, default=1e-4, help="gae only")
    ap.add_argument("--batch", type=int, default=32, help="prompts per step")
    ap.add_argument("--n", type=int, default=8, help="samples per prompt")
    ap.add_argument("--mini", type=int, default=16, help="prompts per optimizer update")
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--kl", type=float, default=0.001)
    ap.add_argument("--val-every", type=int, default=10)
    ap.add_argument("--max-tokens", type=int, default=96)
    ap.add_argument("--budget-s", type=float, default=1e9, help="stop after this many seconds")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    t0 = time.perf_counter()
    torch.manual_seed(args.seed)
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    tok = AutoTokenizer.from_pretrained(args.model)
    tok.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(args.model).to(dev)
    ref = AutoModelForCausalLM.from_pretrained(args.model).to(dev).eval()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    critic = critic_opt = None
    if args.algo == "gae":
        # verl's critic: the model with a one-output token head and no dropout on it
        config = AutoConfig.from_pretrained(args.model, num_labels=1, classifier_dropout=0.0)
        critic = AutoModelForTokenClassification.from_pretrained(args.model, config=config).to(dev)
        critic_opt = torch.optim.AdamW(critic.parameters(), lr=args.critic_lr, weight_decay=0.01)
    template = tasks.get("arith").template
    train = load_problems("arith", None, split="train")
    test = load_problems("arith", None, split="test", limit=500)
    prompts = {p.id: tok.apply_chat_template(build_messages(p, template), add_generation_prompt=True, tokenize=False)
               for p in train + test}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / f"{args.name}.jsonl"
    rng = random.Random(args.seed)

    def write(row: dict) -> None:
        with open(log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(row | {"name": args.name, "t": round(time.perf_counter() - t0, 1)}) + "\n")

    def generate(problems, n: int, sample: bool):
        x = tok([prompts[p.id] for p in problems for _ in range(n)], return_tensors="pt", padding=True,
                add_special_tokens=False).to(dev)
        with torch.no_grad():
            y = model.generate(**x, max_new_tokens=args.max_tokens, do_sample=sample, temperature=1.0, top_k=None,
                               top_p=1.0, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
        start = x["input_ids"].shape[1]
        resp_mask = _response_mask(y[:, start:], tok.eos_token_id)
        mask = torch.cat([x["attention_mask"], resp_mask.long()], 1)
        texts = tok.batch_decode(y[:, start:] * resp_mask.long(), skip_special_tokens=True)
        return y, mask, resp_mask, start, texts

    def validate(step: int) -> None:
        model.eval()
        correct = 0
        for i in range(0, len(test), 250):
            chunk = test[i : i + 250]
            *_, texts = generate(chunk, 1, False)
            correct += sum(gsm8k.score(t, p.gold).correct for t, p in zip(texts, chunk, strict=True))
        write({"step": step, "val_acc": correct / len(test)})

    validate(0)
    for step in range(1, args.steps + 1):
        ts = time.perf_counter()
        batch = rng.sample(train, args.batch)
        model.eval()
        ids, mask, resp_mask, start, texts = generate(batch, args.n, True)
        golds = [p.gold for p in batch for _ in range(args.n)]
        reward = torch.tensor([float(gsm8k.score(t, g).correct) for t, g in zip(texts, golds, strict=True)], device=dev)
        if critic is None:
            group = reward.view(args.batch, args.n)
            adv = ((group - group.mean(1, keepdim=True)) / (group.std(1, keepdim=True) + 1e-6)).view(-1, 1)
        else:
            critic.eval()
            with torch.no_grad():
                old_values = _values(critic, ids, mask, start, resp_mask)
            returns = reward.view(-1, 1) * resp_mask  # gamma = lambda = 1: R at every response token
            adv = _whiten(returns - old_values, resp_mask)
        with torch.no_grad():
            old_logp, _ = _token_logp(model, ids, mask, start)
            ref_logp, _ = _token_logp(ref, ids, mask, start)
        model.train()
        rows = args.mini * args.n
        critic_losses: list[float] = []
        entropies: list[float] = []
        if critic is not None:
            critic.train()
            for i in range(0, ids.shape[0], rows):
                sl = slice(i, i + rows)
                m = resp_mask[sl]
                v = _values(critic, ids[sl], mask[sl], start, m)
                v_clipped = old_values[sl] + (v - old_values[sl]).clamp(-0.5, 0.5)
                vf = torch.max((v - returns[sl]) ** 2, (v_clipped - returns[sl]) ** 2)
                critic_loss = 0.5 * (vf * m).sum() / m.sum()
                critic_opt.zero_grad()
                critic_loss.backward()
                torch.nn.utils.clip_grad_norm_(critic.parameters(), 1.0)
                critic_opt.step()
                critic_losses.append(critic_loss.item())
        for i in range(0, ids.shape[0], rows):
            sl = slice(i, i + rows)
            logp, ent = _token_logp(model, ids[sl], mask[sl], start)
            m = resp_mask[sl]
            ratio = (logp - old_logp[sl]).exp()
            pg = -torch.min(ratio * adv[sl], ratio.clamp(0.8, 1.2) * adv[sl])
            d = ref_logp[sl] - logp  # low_var_kl (k3), clamped like verl
            kl = (d.exp() - d - 1).clamp(-10, 10)
            loss = ((pg + args.kl * kl) * m).sum() / m.sum()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            entropies.append(float((ent.detach() * m).sum() / m.sum()))
        write({"step": step, "reward": round(float(reward.mean()), 4), "entropy": round(sum(entropies) / len(entropies), 4),
               "resp_len": round(float(resp_mask.sum(1).mean()), 1), "step_s": round(time.perf_counter() - ts, 2)}
              | ({"critic_loss": round(sum(critic_losses) / len(critic_losses), 4)} if critic_losses else {}))
        if step % args.val_every == 0 or step == args.steps:
            validate(step)
        if time.perf_counter() - t0 > args.budget_s:
            if step % args.val_every:
                validate(step)
            break


if __name__ == "__main__":
    main()
