"""Hugging Face transformers backend: CPU (or one GPU) generation with a seeded generator per sample.

`transformers.generate` samples every row from one global RNG, so a sample's text would depend on what
else is in its batch. This backend runs its own decoding loop (with the KV cache) and draws each row's
tokens from that row's own `torch.Generator`, seeded with the sample's seed: a sample is the same
whatever order or grouping it is generated in.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from verifiers.errors import ConfigError, one_of
from verifiers_train.evaluation._backends import (
    Completion,
    GenerationRequest,
    SamplingConfig,
    cut_at_stop,
    load_tokenizer,
    render_chat,
    stop_token_ids,
)

_DTYPES = ("auto", "float32", "bfloat16", "float16")


class HFBackend:
    """Generate with a transformers causal LM, one problem (all its pending samples) per forward batch.

    Args:
        model: HF model directory or hub name.
        dtype: weights dtype; ``auto`` keeps float32 on CPU (bf16 matmuls are slow there) and the
            checkpoint's dtype on GPU.
        device: ``cpu``, ``cuda``...; default CUDA when available.
    """

    name = "hf"

    def __init__(self, model: str, *, dtype: str = "auto", device: str | None = None) -> None:
        import torch
        from transformers import AutoModelForCausalLM

        one_of(dtype, _DTYPES, "dtype")
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.tokenizer = load_tokenizer(model)
        torch_dtype: Any = (getattr(torch, dtype) if dtype != "auto"
                            else torch.float32 if self.device == "cpu" else "auto")
        self.model: Any
        try:
            self.model = AutoModelForCausalLM.from_pretrained(model, dtype=torch_dtype)
        except Exception as e:
            raise ConfigError(f"cannot load model weights from {model!r} ({type(e).__name__}: {e})") from e
        self.model = self.model.to(self.device).eval()
        self.stop_ids = stop_token_ids(self.tokenizer, model if os.path.isdir(model) else None)
        if not self.stop_ids:
            raise ConfigError(f"{model!r} defines no end-of-sequence token; set eos_token in its tokenizer")
        self.pad_id = int(self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None
                          else min(self.stop_ids))

    def render(self, messages: list[dict[str, str]] | str) -> tuple[str, tuple[int, ...]]:
        """Prompt text and ids after the chat template."""
        return render_chat(self.tokenizer, messages)

    def generate(self, requests: Sequence[GenerationRequest], sampling: SamplingConfig) -> list[Completion]:
        """Draw every requested sample, one problem per batch."""
        out: list[Completion] = []
        for req in requests:
            seeds = [req.base_seed + j for j in req.sample_indices]
            rows = self._decode(req.prompt_ids, seeds, sampling)
            for j, seed, (ids, reason) in zip(req.sample_indices, seeds, rows, strict=True):
                text_ids = ids[:-1] if ids and ids[-1] in self.stop_ids else ids
                text, cut = cut_at_stop(self.tokenizer.decode(text_ids, skip_special_tokens=True), sampling.stop)
                out.append(Completion(req.problem_index, j, seed, text, len(ids), "stop" if cut else reason))
        return out

    def _decode(self, prompt_ids: Sequence[int], seeds: list[int],
                sampling: SamplingConfig) -> list[tuple[list[int], str]]:
        import torch

        rows = len(seeds)
        gens = [torch.Generator(device=self.device).manual_seed(s) for s in seeds]
        generated: list[list[int]] = [[] for _ in range(rows)]
        done = [False] * rows
        cur = torch.tensor([list(prompt_ids)] * rows, dtype=torch.long, device=self.device)
        past = None
        with torch.inference_mode():
            for _ in range(sampling.max_tokens):
                res = self.model(input_ids=cur, past_key_values=past, use_cache=True)
                past = res.past_key_values
                logits = res.logits[:, -1, :].float()
                nxt = [self.pad_id] * rows
                for i in range(rows):
                    if done[i]:
                        continue  # finished rows keep feeding pad; their output is already complete
                    tok = _pick(logits[i], sampling, gens[i])
                    generated[i].append(tok)
                    nxt[i] = tok
                    done[i] = tok in self.stop_ids or self._hit_stop(generated[i], sampling.stop)
                if all(done):
                    break
                cur = torch.tensor(nxt, dtype=torch.long, device=self.device).unsqueeze(1)
        return [(g, "stop" if d else "length") for g, d in zip(generated, done, strict=True)]

    def _hit_stop(self, ids: list[int], stop: tuple[str, ...]) -> bool:
        """Whether a stop string ends the text so far (its last tokens decoded: enough for a short string)."""
        if not stop:
            return False
        tail = self.tokenizer.decode(ids[-(max(map(len, stop)) + 8):], skip_special_tokens=True)
        return any(s and s in tail for s in stop)

    def close(self) -> None:
        """Drop the model."""
        self.model = None


def _pick(logits: Any, sampling: SamplingConfig, gen: Any) -> int:
    """Greedy or temperature/top-p sampling of one token from one row's logits."""
    import torch

    if sampling.temperature == 0:
        return int(torch.argmax(logits))
    probs = torch.softmax(logits / sampling.temperature, dim=-1)
    if sampling.top_p < 1.0:
        sorted_p, order = torch.sort(probs, descending=True)
        # keep the smallest prefix whose mass reaches top_p (always at least the top token)
        keep = torch.cumsum(sorted_p, dim=-1) - sorted_p < sampling.top_p
        sorted_p = torch.where(keep, sorted_p, torch.zeros_like(sorted_p))
        choice = torch.multinomial(sorted_p / sorted_p.sum(), 1, generator=gen)
        return int(order[choice])
    return int(torch.multinomial(probs, 1, generator=gen))
