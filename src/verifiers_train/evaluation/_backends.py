"""Generation backends: vLLM offline for GPUs, Hugging Face transformers for CPU and tests, a served model
through the OpenAI-compatible API.

All take the same `GenerationRequest`s (a rendered prompt, the sample indices still to draw and their
seeds) and return `Completion`s, so the run loop does not care which one it drives. Seeds are per
sample: sample ``j`` of a problem uses ``base_seed + j``. vLLM's parallel sampling gives child ``i`` of
a request with ``SamplingParams(n=m, seed=s)`` the seed ``s + i``, so one vLLM request for samples
``j..j+m-1`` with seed ``base_seed + j`` draws with the seeds ``m`` single requests would use, in any
batch. The tokens also depend on the batch at real size in bfloat16 (evals/gpu/README.md R6.2), which is why
the run loop draws fixed batches.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from verifiers.errors import ConfigError

# Seeds stay below 2**31 minus room for `+ j`, since some samplers keep seeds in int32.
_SEED_SPACE = 2**31 - 2**20


@dataclass(frozen=True)
class SamplingConfig:
    """Sampling settings shared by every request of a run.

    Attributes:
        n: samples per problem.
        temperature: 0 means greedy decoding.
        top_p: nucleus sampling mass in (0, 1].
        max_tokens: most new tokens per sample.
        stop: strings that end a sample; the text is cut before the first one (the template's, e.g. few-shot
            ``Q:``); the finish reason is then ``stop``.
    """

    n: int = 1
    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 512
    stop: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ConfigError(f"--n must be at least 1, got {self.n}")
        if self.temperature < 0:
            raise ConfigError(f"--temperature must be >= 0, got {self.temperature}")
        if not 0 < self.top_p <= 1:
            raise ConfigError(f"--top-p must be in (0, 1], got {self.top_p}")
        if self.max_tokens < 1:
            raise ConfigError(f"--max-tokens must be at least 1, got {self.max_tokens}")


@dataclass(frozen=True)
class GenerationRequest:
    """Samples still to draw for one problem.

    Attributes:
        problem_index: position of the problem in the run's problem list.
        prompt: the prompt text after the chat template.
        prompt_ids: its token ids (what the model sees).
        sample_indices: which of the problem's ``n`` samples to draw, ascending.
        base_seed: seed of sample 0; sample ``j`` uses ``base_seed + j``.
        chat: the chat messages ``prompt`` was rendered from; ``None`` for a plain-text prompt (a backend that
            sends messages, not text, reads them here).
    """

    problem_index: int
    prompt: str
    prompt_ids: tuple[int, ...]
    sample_indices: tuple[int, ...]
    base_seed: int
    chat: tuple[dict[str, str], ...] | None = None


@dataclass(frozen=True)
class Completion:
    """One generated sample."""

    problem_index: int
    sample_index: int
    seed: int
    text: str
    response_tokens: int
    finish_reason: str  # "stop" (end of sequence) or "length" (hit max_tokens)


class Backend(Protocol):
    """What the run loop needs from a backend."""

    name: str

    def render(self, messages: list[dict[str, str]] | str) -> tuple[str, tuple[int, ...]]:
        """Prompt text and token ids for chat ``messages`` (with the generation prompt appended), or for a
        plain-text prompt (a ``completion`` template's, used as it is)."""
        ...

    def generate(self, requests: Sequence[GenerationRequest], sampling: SamplingConfig) -> list[Completion]:
        """Draw every requested sample; returns them in request order."""
        ...

    def close(self) -> None:
        """Free the model (GPU memory, engine processes)."""
        ...


def base_seed(run_seed: int, problem_id: str) -> int:
    """Seed of sample 0 of a problem, from the run seed and the problem id (stable across machines)."""
    digest = hashlib.sha256(f"{run_seed}:{problem_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % _SEED_SPACE


def contiguous_runs(indices: Sequence[int]) -> list[tuple[int, int]]:
    """Split ascending indices into ``(start, length)`` runs: ``[0, 1, 2, 5]`` -> ``[(0, 3), (5, 1)]``."""
    runs: list[tuple[int, int]] = []
    for i in indices:
        if runs and runs[-1][0] + runs[-1][1] == i:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((i, 1))
    return runs


def load_tokenizer(model: str) -> Any:
    """The tokenizer vLLM and verl would load for ``model`` (``AutoTokenizer``)."""
    from transformers import AutoTokenizer

    try:
        tok = AutoTokenizer.from_pretrained(model)
    except Exception as e:  # missing files, offline hub: one clear message instead of a deep trace
        raise ConfigError(f"cannot load a tokenizer from {model!r} ({type(e).__name__}: {e}); pass an HF model "
                          "directory, a verl checkpoint dir (global_step_N/actor) or a reachable hub name") from e
    if tok.pad_token_id is None:
        tok.pad_token = tok.eos_token
    return tok


def render_chat(tokenizer: Any, messages: list[dict[str, str]] | str) -> tuple[str, tuple[int, ...]]:
    """Apply the model's chat template; models without one get the message contents joined by blank lines.
    A string is a plain-text prompt: only tokenized."""
    if isinstance(messages, str):
        text = messages
    elif getattr(tokenizer, "chat_template", None):
        text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    else:
        text = "\n\n".join(m["content"] for m in messages) + "\n\n"
    ids = tokenizer(text, add_special_tokens=False)["input_ids"]
    return text, tuple(int(i) for i in ids)


def cut_at_stop(text: str, stop: Sequence[str]) -> tuple[str, bool]:
    """``text`` before the first of the ``stop`` strings, and whether one was found."""
    cut = min((i for i in (text.find(s) for s in stop if s) if i >= 0), default=-1)
    return (text[:cut], True) if cut >= 0 else (text, False)


def stop_token_ids(tokenizer: Any, model_dir: str | None) -> set[int]:
    """End-of-sequence ids from the tokenizer and the model's ``generation_config.json``."""
    ids = {int(tokenizer.eos_token_id)} if tokenizer.eos_token_id is not None else set()
    if model_dir and os.path.isfile(os.path.join(model_dir, "generation_config.json")):
        from transformers import GenerationConfig

        eos = GenerationConfig.from_pretrained(model_dir).eos_token_id
        ids.update([eos] if isinstance(eos, int) else (eos or []))
    return ids

