"""vLLM offline backend: one `LLM` engine, tensor parallel over the visible GPUs, seeded parallel sampling.

Prompts are rendered with the model's own chat template by `AutoTokenizer` (as the HF backend does) and
passed as token ids, so both backends see identical inputs. vLLM is imported only when this backend is
built; it is not a dependency of the package.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Sequence
from typing import Any

from verifiers.errors import ConfigError
from verifiers_train.evaluation._backends import (
    Completion,
    GenerationRequest,
    SamplingConfig,
    contiguous_runs,
    load_tokenizer,
    render_chat,
)


def visible_gpu_count() -> int:
    """GPUs this process may use (``CUDA_VISIBLE_DEVICES`` if set, else what torch sees)."""
    env = os.environ.get("CUDA_VISIBLE_DEVICES")
    if env is not None:
        return len([d for d in env.split(",") if d.strip() and d.strip() != "-1"])
    try:
        import torch

        return torch.cuda.device_count()
    except ImportError:  # pragma: no cover - torch is always present with vLLM
        return 0


def pick_tensor_parallel(gpus: int, model_dir: str | None) -> int:
    """Largest power of two <= ``gpus`` that divides the model's attention heads (vLLM's requirement)."""
    heads = None
    if model_dir and os.path.isfile(os.path.join(model_dir, "config.json")):
        with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as f:
            heads = json.load(f).get("num_attention_heads")
    tp = 1
    while tp * 2 <= max(gpus, 1) and (heads is None or heads % (tp * 2) == 0):
        tp *= 2
    return tp


class VLLMBackend:
    """Generate with `vllm.LLM.generate`, all pending samples of a problem as one seeded request.

    Args:
        model: HF model directory or hub name.
        dtype: ``auto`` (the checkpoint's dtype), ``bfloat16``, ``float16`` or ``float32``.
        tensor_parallel_size: GPUs to shard over; default all visible ones (see `pick_tensor_parallel`).
        gpu_memory_utilization: share of GPU memory vLLM may take (weights + KV cache).
        max_model_len: context length cap; default the model's.
        enforce_eager: skip CUDA graph capture (faster start, slower decoding).
        seed: engine seed (per-request seeds decide the samples; this only covers unseeded paths).
        batch_invariant: vLLM's batch-invariant kernels (``VLLM_BATCH_INVARIANT=1``, beta, Hopper or newer).
            In one engine at up to 512 sequences a batch they remove most of a sample's dependence on its
            batch; with the old chunks a data-parallel run of a 0.5B model was still not byte-identical to one
            engine with them (evals/gpu/README.md R8.3, R8.4). Fixed batches (``isolate_batches``) are.
        isolate_batches: each `generate` call computed alone (``--fixed-batches``): the engine core runs in this
            process (``VLLM_ENABLE_V1_MULTIPROCESSING=0``), so every request of a call reaches the scheduler before
            its first step (in its own process the engine starts stepping on the requests that have arrived, which
            varies from run to run: evals/gpu/README.md R9; vLLM reseeds this process's global random state
            then), and the prefix cache is emptied before each call, so no call reuses prompt KV computed in
            another call's batch.
    """

    name = "vllm"

    def __init__(self, model: str, *, dtype: str = "auto", tensor_parallel_size: int | None = None,
                 gpu_memory_utilization: float = 0.85, max_model_len: int | None = None,
                 enforce_eager: bool = False, seed: int = 0, batch_invariant: bool = False,
                 isolate_batches: bool = False) -> None:
        if importlib.util.find_spec("vllm") is None:
            raise ConfigError("the vllm backend needs vLLM (pip install vllm, on a GPU machine); "
                              "use --backend hf on CPU")
        if importlib.util.find_spec("flashinfer") is None:
            # vLLM's top-p/top-k sampler imports flashinfer when this is on; without it the engine fails.
            os.environ.setdefault("VLLM_USE_FLASHINFER_SAMPLER", "0")
        if batch_invariant:  # read when the engine starts; its worker processes inherit it
            os.environ["VLLM_BATCH_INVARIANT"] = "1"
        if isolate_batches:
            os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] = "0"
        from vllm import LLM

        model_dir = model if os.path.isdir(model) else None
        self.tensor_parallel_size = tensor_parallel_size or pick_tensor_parallel(visible_gpu_count(), model_dir)
        self.tokenizer = load_tokenizer(model)
        self.isolate_batches = isolate_batches
        self.llm = LLM(model=model, dtype=dtype, tensor_parallel_size=self.tensor_parallel_size,
                       gpu_memory_utilization=gpu_memory_utilization, enforce_eager=enforce_eager, seed=seed,
                       **({"max_model_len": max_model_len} if max_model_len else {}))

    def render(self, messages: list[dict[str, str]] | str) -> tuple[str, tuple[int, ...]]:
        """Prompt text and ids after the chat template."""
        return render_chat(self.tokenizer, messages)

    def generate(self, requests: Sequence[GenerationRequest], sampling: SamplingConfig) -> list[Completion]:
        """One `LLM.generate` call over all requests; a contiguous run of samples is one ``n=m`` request."""
        from vllm import SamplingParams

        prompts: list[dict[str, Any]] = []
        params: list[Any] = []
        owners: list[tuple[GenerationRequest, int]] = []  # (request, first sample index of the run)
        for req in requests:
            for start, length in contiguous_runs(req.sample_indices):
                prompts.append({"prompt_token_ids": list(req.prompt_ids)})
                # child i of this request is seeded base_seed + start + i (vLLM parallel sampling)
                params.append(SamplingParams(n=length, temperature=sampling.temperature, top_p=sampling.top_p,
                                             max_tokens=sampling.max_tokens, seed=req.base_seed + start,
                                             stop=list(sampling.stop) or None))
                owners.append((req, start))
        if self.isolate_batches and not self.llm.reset_prefix_cache():
            raise RuntimeError("vLLM did not empty its prefix cache (requests still running)")
        outputs = self.llm.generate(prompts, params, use_tqdm=False)
        completions: list[Completion] = []
        for (req, start), out in zip(owners, outputs, strict=True):
            for child in sorted(out.outputs, key=lambda c: c.index):
                j = start + child.index
                completions.append(Completion(req.problem_index, j, req.base_seed + j, child.text,
                                              len(child.token_ids), _finish(child.finish_reason)))
        return completions

    def close(self) -> None:
        """Shut the engine down so its GPU memory and worker processes are released."""
        llm, self.llm = self.llm, None
        engine = getattr(llm, "llm_engine", None)
        shutdown = getattr(engine, "shutdown", None) or getattr(getattr(engine, "engine_core", None),
                                                                "shutdown", None)
        if callable(shutdown):
            shutdown()
        del llm


def _finish(reason: str | None) -> str:
    return "length" if reason == "length" else "stop"
