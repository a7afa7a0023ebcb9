"""Build a tiny Qwen2-architecture chat model (a few MB) that partly solves a dataset, with no downloads.

Used by the tests (a CPU model in seconds) and by the GPU end-to-end check, where no pretrained weights
can be fetched: a byte-level BPE tokenizer is trained with `tokenizers` on the dataset's prompts and
solutions, a small `Qwen2ForCausalLM` is initialised, and a brief SFT on the chat-formatted solutions
teaches it to answer ``... #### N`` and get some answers right, so RL has a non-zero, varying reward.

Pitfall handled here: transformers 5 reloads a saved qwen2 fast tokenizer as ``Qwen2Tokenizer``, whose
pre-tokenizer splits digits one by one, unlike the in-memory tokenizer it was trained as. The model is
trained on the tokenizer *as reloaded by AutoTokenizer* (what vLLM and verl use), so its accuracy
survives the round trip.

Example:
    >>> info = build_tiny_model("tiny-model", size="test", steps=200)   # doctest: +SKIP
    >>> info.greedy_accuracy
    0.4

Command line::

    python -m verifiers_train.tiny --out tiny-model [--size small] [--steps 800]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from verifiers.datasets import Problem, load_problems
from verifiers.errors import ConfigError

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
# Qwen's ChatML layout, without the default system prompt (tiny models only ever see this form).
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@dataclass(frozen=True)
class TinySize:
    """Architecture of a tiny model.

    Attributes:
        hidden: hidden size; ``hidden / heads`` is the head dim (64 suits vLLM's FlashAttention).
        layers: decoder layers.
        heads: attention heads.
        kv_heads: key/value heads (grouped-query attention as in Qwen2).
        intermediate: MLP width.
        vocab: BPE vocabulary size to train (the model's embedding is padded to a multiple of 64).
    """

    hidden: int
    layers: int
    heads: int
    kv_heads: int
    intermediate: int
    vocab: int


SIZES: dict[str, TinySize] = {
    # ~2M parameters: the GPU smoke-test model (trains in a few minutes on CPU, seconds on a GPU).
    "small": TinySize(hidden=256, layers=2, heads=4, kv_heads=2, intermediate=512, vocab=1000),
    # ~0.2M parameters: CPU tests, trains in seconds.
    "test": TinySize(hidden=64, layers=2, heads=4, kv_heads=2, intermediate=192, vocab=400),
}


@dataclass(frozen=True)
class TinyModelInfo:
    """What `build_tiny_model` made."""

    path: Path
    parameters: int
    vocab_size: int
    steps: int
    final_loss: float
    greedy_accuracy: float  # on the held-out problems, judged by the dataset's scorer
    seconds: float


def build_tiny_model(out_dir: str | Path, *, dataset: str = "arith", data: str | None = None,
                     problems: Sequence[Problem] | None = None, template: str | None = None,
                     size: str | TinySize = "small", steps: int = 800, batch_size: int = 32, lr: float = 3e-3,
                     train_problems: int = 4000, eval_problems: int = 32, seed: int = 0,
                     device: str | None = None, threads: int | None = None, log: Any = print) -> TinyModelInfo:
    """Train a tokenizer and a tiny Qwen2 model on a dataset's solutions; save both with save_pretrained.

    Args:
        out_dir: folder for ``config.json``, ``model.safetensors``, tokenizer files, ``generation_config.json``.
        dataset: dataset whose train split (``solution`` field) is the SFT data; ``arith`` by default.
        data: local file for the dataset (see `load_problems`); ``arith`` needs none.
        problems: use these problems instead of loading ``dataset`` (the last ``eval_problems`` are held out).
        template: prompt template, default the task's ``template``, so evaluation prompts match.
        size: a `SIZES` key or a `TinySize`.
        steps: optimizer steps.
        batch_size: sequences per step.
        lr: peak learning rate (one-cycle schedule).
        train_problems: problems loaded for training when ``problems`` is not given.
        eval_problems: held-out problems for the greedy accuracy check.
        seed: seeds data order and initialisation.
        device: ``cuda`` or ``cpu``; default CUDA when available.
        threads: CPU threads for torch (1 is fastest on a busy shared machine); default torch's choice.
        log: ``print``-like callable for progress lines (``None`` to stay quiet).

    Returns:
        A `TinyModelInfo`; ``greedy_accuracy`` says how much the model already solves.

    Raises:
        ConfigError: unknown size or template, or too few problems.
    """
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    from verifiers import tasks
    from verifiers_train.templates import build_messages

    t0 = time.perf_counter()
    if threads:
        torch.set_num_threads(threads)
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    arch = SIZES.get(size) if isinstance(size, str) else size
    if arch is None:
        raise ConfigError(f"unknown tiny model size {size!r}; choose one of {', '.join(SIZES)}")
    template = template or tasks.get(dataset).template
    if problems is None:
        problems = load_problems(dataset, data, split="train", limit=train_problems + eval_problems)
    problems = [p for p in problems if p.solution]
    if len(problems) <= eval_problems + batch_size:
        raise ConfigError(f"need more than {eval_problems + batch_size} problems with solutions, got {len(problems)}")
    train, held_out = problems[:-eval_problems], problems[-eval_problems:]
    say = log or (lambda *_: None)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    torch.manual_seed(seed)

    chats = [(build_messages(p, template), p.solution) for p in problems]
    tok = _train_tokenizer(out, chats, arch.vocab)
    vocab = -(-len(tok) // 64) * 64  # pad the embedding to a multiple of 64
    cfg = Qwen2Config(
        vocab_size=vocab, hidden_size=arch.hidden, intermediate_size=arch.intermediate,
        num_hidden_layers=arch.layers, num_attention_heads=arch.heads, num_key_value_heads=arch.kv_heads,
        max_position_embeddings=1024, tie_word_embeddings=False,
        bos_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
    )
    model: Any = Qwen2ForCausalLM(cfg)
    model = model.to(device)
    params = sum(p.numel() for p in model.parameters())
    say(f"tiny model: {params / 1e6:.2f}M parameters, vocab {len(tok)} (padded {vocab}), {len(train)} SFT problems")

    def encode(messages: list[dict[str, str]], solution: str) -> tuple[list[int], list[int]]:
        prompt = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        p_ids = tok(prompt, add_special_tokens=False)["input_ids"]
        a_ids = tok(solution + "<|im_end|>", add_special_tokens=False)["input_ids"]
        return p_ids + a_ids, [-100] * len(p_ids) + a_ids  # loss on the answer only

    encoded = [encode(m, s) for m, s in chats[: len(train)]]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1))
    model.train()
    loss_value = float("nan")
    for step in range(steps):
        batch = rng.sample(encoded, min(batch_size, len(encoded)))
        width = max(len(x) for x, _ in batch)
        ids = torch.full((len(batch), width), tok.pad_token_id)
        labels = torch.full((len(batch), width), -100)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for i, (x, y) in enumerate(batch):
            ids[i, : len(x)] = torch.tensor(x)
            labels[i, : len(y)] = torch.tensor(y)
            mask[i, : len(x)] = 1
        loss = model(input_ids=ids.to(device), attention_mask=mask.to(device), labels=labels.to(device)).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        loss_value = float(loss.item())
        if step % 100 == 0 or step == steps - 1:
            say(f"step {step} loss {loss_value:.3f}")

    model.eval()
    accuracy = _greedy_accuracy(model, tok, dataset, template, held_out)
    say(f"greedy accuracy on {len(held_out)} held-out problems: {accuracy:.1%}")
    model.to("cpu").save_pretrained(out, safe_serialization=True)
    GenerationConfig(eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
                     bos_token_id=tok.pad_token_id, do_sample=True, temperature=1.0).save_pretrained(out)
    info = TinyModelInfo(out, params, len(tok), steps, loss_value, accuracy, time.perf_counter() - t0)
    (out / "tiny_model_info.json").write_text(json.dumps(asdict(info) | {"path": str(out), "dataset": dataset,
                                                                         "template": template}, indent=2) + "\n")
    return info


def _train_tokenizer(out: Path, chats: Sequence[tuple[list[dict[str, str]], str]], vocab_size: int) -> Any:
    """Train a byte-level BPE on the chats, save it, and return it as AutoTokenizer reloads it."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import AutoTokenizer, PreTrainedTokenizerFast, Qwen2Config

    bpe = Tokenizer(models.BPE(unk_token=None))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    corpus = ["\n".join(m["content"] for m in msgs) + "\n" + sol for msgs, sol in chats]
    bpe.train_from_iterator(corpus, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   bos_token=None, unk_token=None, additional_special_tokens=["<|im_start|>"])
    fast.chat_template = CHAT_TEMPLATE
    fast.model_max_length = 1024
    fast.save_pretrained(out)
    # AutoTokenizer needs the model type to pick the tokenizer class; the real config overwrites this.
    Qwen2Config(vocab_size=-(-len(fast) // 64) * 64).save_pretrained(out)
    return AutoTokenizer.from_pretrained(out)


def _greedy_accuracy(model: Any, tok: Any, dataset: str, template: str, problems: Sequence[Problem]) -> float:
    """Share of problems the dataset's own scorer marks correct under greedy decoding (64 new tokens)."""
    import torch

    from verifiers_train.evaluation._scoring import job_for, score_jobs
    from verifiers_train.templates import build_messages

    if not problems:
        return float("nan")
    responses = []
    for p in problems:
        prompt = tok.apply_chat_template(build_messages(p, template), add_generation_prompt=True, tokenize=False)
        x = tok(prompt, add_special_tokens=False, return_tensors="pt").to(model.device)
        with torch.inference_mode():
            y = model.generate(**x, max_new_tokens=64, do_sample=False, eos_token_id=tok.eos_token_id,
                               pad_token_id=tok.pad_token_id)
        responses.append(tok.decode(y[0, x["input_ids"].shape[1] :], skip_special_tokens=True))
    scores = score_jobs(dataset, "accuracy", template, [job_for(p, r, dataset) for p, r in zip(problems, responses,
                                                                                                strict=True)])
    return sum(bool(s["correct"]) for s in scores) / len(problems)


def _add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--out", required=True, help="output model folder")
    ap.add_argument("--dataset", default="arith", help="dataset whose train solutions are the SFT data")
    ap.add_argument("--data", default=None, help="local data file (not needed for arith)")
    ap.add_argument("--template", default=None, help="prompt template (default: the dataset's)")
    ap.add_argument("--size", default="small", choices=sorted(SIZES), help="architecture preset")
    ap.add_argument("--steps", type=int, default=800, help="SFT optimizer steps")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--train-problems", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default=None, help="cuda or cpu (default: cuda when available)")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads for torch")


def _run(args: argparse.Namespace) -> int:
    info = build_tiny_model(args.out, dataset=args.dataset, data=args.data, template=args.template,
                            size=args.size, steps=args.steps, batch_size=args.batch_size, lr=args.lr,
                            train_problems=args.train_problems, seed=args.seed, device=args.device,
                            threads=args.threads)
    print(json.dumps(asdict(info) | {"path": str(info.path)}, indent=2))
    return 0


def register(sub: Any) -> None:
    """Add ``verifiers-train tiny-model`` to a ``verifiers-train`` subparsers object."""
    p = sub.add_parser("tiny-model", help="build a tiny Qwen2 model + tokenizer, SFT-trained to partial accuracy",
                       description=(__doc__ or "").split("\n")[0])
    _add_arguments(p)
    p.set_defaults(func=_run)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m verifiers_train.tiny``: build a tiny model and print where it went and how good it is."""
    ap = argparse.ArgumentParser(prog="python -m verifiers_train.tiny", description=(__doc__ or "").split("\n")[0])
    _add_arguments(ap)
    return _run(ap.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
