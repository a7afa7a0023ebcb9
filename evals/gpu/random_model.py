"""A randomly initialised model with a real configuration (Qwen2.5-0.5B or -1.5B) and a tokenizer made here.

Throughput and overhead do not need trained weights, only the real shapes: hidden size, layers, heads,
KV heads, MLP width and the full 151,936-token vocabulary (the LM head is a quarter of a 0.5B model's
compute). No weights can be downloaded, so the configuration values are copied from the models'
published ``config.json`` and the weights are drawn with the model's own initialiser (std 0.02).

The tokenizer is a byte-level BPE trained on the local datasets' text, padded with extra merges to exactly
the model's vocabulary, so every id the random model samples decodes. It is saved and reloaded with
``AutoTokenizer`` (what vLLM and the evaluator load), and the chat template is Qwen's ChatML. A random
model rarely samples its end-of-sequence token, so responses run to ``max_tokens``: lengths are set by
the benchmark, not by chance.

    python evals/gpu/random_model.py --config qwen2.5-0.5b --data-dir DATA --out /root/rs/qwen05
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

# From the models' config.json on the hub (Qwen/Qwen2.5-0.5B-Instruct, Qwen/Qwen2.5-1.5B-Instruct).
CONFIGS: dict[str, dict[str, Any]] = {
    "qwen2.5-0.5b": {"hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
                     "num_attention_heads": 14, "num_key_value_heads": 2},
    "qwen2.5-1.5b": {"hidden_size": 1536, "intermediate_size": 8960, "num_hidden_layers": 28,
                     "num_attention_heads": 12, "num_key_value_heads": 2},
}
COMMON = {"vocab_size": 151936, "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rms_norm_eps": 1e-6,
          "tie_word_embeddings": True, "hidden_act": "silu", "use_sliding_window": False, "max_window_layers": 21,
          "attention_dropout": 0.0, "initializer_range": 0.02}
SPECIAL = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
CHAT_TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
                 "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def corpus(data_dir: Path) -> list[str]:
    """Texts of the local GSM8K and MBPP files (questions, solutions, code)."""
    texts: list[str] = []
    for path in (data_dir / "gsm8k" / "test.jsonl", data_dir / "mbpp" / "mbpp.jsonl"):
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                texts.append("\n".join(str(v) for v in row.values() if isinstance(v, str)))
    if not texts:
        raise SystemExit(f"no gsm8k/test.jsonl or mbpp/mbpp.jsonl under {data_dir}")
    return texts


def build_tokenizer(out: Path, texts: list[str], vocab_size: int) -> Any:
    """Byte-level BPE of exactly ``vocab_size`` tokens (trained, then padded with merges), as reloaded."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import AutoTokenizer, PreTrainedTokenizerFast, Qwen2Config

    bpe = Tokenizer(models.BPE(unk_token=None))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    bpe.train_from_iterator(texts, trainer=trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=list(SPECIAL), initial_alphabet=alphabet, show_progress=False))
    spec = json.loads(bpe.to_str())
    vocab: dict[str, int] = spec["model"]["vocab"]
    merges: list[Any] = spec["model"]["merges"]
    as_pair = (lambda a, b: [a, b]) if merges and isinstance(merges[0], list) else (lambda a, b: f"{a} {b}")
    base = sorted(alphabet)
    width = list(base)
    while len(vocab) < vocab_size:  # pad: merges of existing tokens with one more byte, shortest first
        longer = []
        for left in width:
            for ch in base:
                tok = left + ch
                if tok in vocab:
                    continue
                vocab[tok] = len(vocab)
                merges.append(as_pair(left, ch))
                longer.append(tok)
                if len(vocab) == vocab_size:
                    break
            if len(vocab) == vocab_size:
                break
        width = longer
    bpe = Tokenizer.from_str(json.dumps(spec))
    fast = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   bos_token=None, unk_token=None, additional_special_tokens=["<|im_start|>"])
    fast.chat_template = CHAT_TEMPLATE
    fast.model_max_length = 32768
    fast.save_pretrained(out)
    Qwen2Config(vocab_size=vocab_size).save_pretrained(out)  # AutoTokenizer picks the class from the model type
    tok = AutoTokenizer.from_pretrained(out)
    assert len(tok) == vocab_size, (len(tok), vocab_size)
    return tok


def build(name: str, data_dir: Path, out: Path, seed: int = 0) -> dict[str, Any]:
    """Write a random ``name`` model (bfloat16 safetensors) and its tokenizer to ``out``."""
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    t0 = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    tok = build_tokenizer(out, corpus(data_dir), COMMON["vocab_size"])
    ids = {t: tok.convert_tokens_to_ids(t) for t in SPECIAL}
    config = Qwen2Config(**COMMON, **CONFIGS[name], bos_token_id=ids["<|endoftext|>"],
                         eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"], torch_dtype="bfloat16")
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(out, safe_serialization=True)
    config.save_pretrained(out)
    GenerationConfig(eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"],
                     bos_token_id=ids["<|endoftext|>"]).save_pretrained(out)
    info = {"config": name, "parameters": sum(p.numel() for p in model.parameters()), "vocab": len(tok),
            "build_s": round(time.perf_counter() - t0, 1), "path": str(out)}
    (out / "random_model_info.json").write_text(json.dumps(info, indent=2) + "\n")
    return info


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", choices=sorted(CONFIGS), default="qwen2.5-0.5b")
    ap.add_argument("--data-dir", type=Path, required=True, help="folder with gsm8k/test.jsonl and/or mbpp/mbpp.jsonl")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(json.dumps(build(args.config, args.data_dir, args.out, args.seed)))


if __name__ == "__main__":
    main()
