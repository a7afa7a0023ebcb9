"""Fixtures for the training extension: a tiny local model folder (config + tokenizer, no weights), no downloads."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may reach the hub: fail fast instead of retrying for minutes."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


def make_tiny_model_dir(path: Path) -> Path:
    """Write a Qwen2 config and a byte-level BPE chat tokenizer (trained on a few sentences) into ``path``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2Config

    from verifiers.arith import generate

    path.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE(unk_token=None))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    corpus = [r["question"] + "\n" + r["answer"] for r in generate(200, split="train")]
    tok.train_from_iterator(corpus, trainer=trainer)
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                     additional_special_tokens=["<|im_start|>"])
    hf_tok.chat_template = CHAT_TEMPLATE
    hf_tok.model_max_length = 1024
    hf_tok.save_pretrained(path)
    Qwen2Config(vocab_size=512, hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=1024,
                pad_token_id=hf_tok.pad_token_id, eos_token_id=hf_tok.eos_token_id,
                architectures=["Qwen2ForCausalLM"]).save_pretrained(path)
    return path


@pytest.fixture(scope="session")
def tiny_model_dir(build_once: Callable[[str, Callable[[Path], Path]], Path]) -> Path:
    """A local model folder verl's HFModelConfig and RLHFDataset accept (config.json + tokenizer), one per run."""
    def build(folder: Path) -> Path:
        old = {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
        os.environ.update({"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"})
        try:
            return make_tiny_model_dir(folder / "tiny-model")
        finally:
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    return build_once("tiny-model-dir", build)
