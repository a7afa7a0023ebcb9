"""Data-parallel generation: N replicas of a backend, each a Ray actor owning its own GPU(s).

Why actors and not Ray Data's LLM processor: the run loop stays the one single-engine runs use (its
batches, per-sample seeds, ``samples.jsonl`` appends and ``--resume``), and each replica is the very
`VLLMBackend` a single-engine run builds. With fixed batches (the default, `generate_each`) every replica
computes whole batches a single engine would compute, so the samples are byte-identical to a single-engine
run's (0.5B on two H200s: 2,000/2,000, evals/gpu/README.md R9.2). With ``--no-fixed-batches`` each chunk is
split over the replicas (`generate`): same seeds, but at real size in bfloat16 not the same samples (R6.2).

Prompts are rendered in the driver with the model's tokenizer (as `VLLMBackend.render` does). A fixed batch
goes whole to the next free replica; a chunk's requests are split over the replicas by pending sample count,
longest prompts first, and generated concurrently. On a Ray cluster (``ray_address="auto"`` or
``RAY_ADDRESS``) the replicas land on any node with free GPUs; the model path must be readable there and this
package importable.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from verifiers.errors import ConfigError
from verifiers_train.evaluation._backend_factory import make_backend
from verifiers_train.evaluation._backends import (
    Completion,
    GenerationRequest,
    SamplingConfig,
    load_tokenizer,
    render_chat,
)

logger = logging.getLogger(__name__)


class ReplicaActor:
    """Ray actor body: one backend (``hf`` or ``vllm``) on the GPUs Ray gave this actor."""

    def __init__(self, backend: str, model: str, options: dict[str, Any]) -> None:
        self.backend = make_backend(backend, model, **options)

    def ready(self) -> str:
        """Where this replica runs (host and visible GPUs), once its engine is up."""
        return f"{os.uname().nodename} gpus={os.environ.get('CUDA_VISIBLE_DEVICES', '-')}"

    def generate(self, requests: list[GenerationRequest], sampling: SamplingConfig) -> list[Completion]:
        return self.backend.generate(requests, sampling)

    def close(self) -> None:
        self.backend.close()


def split_requests(requests: Sequence[GenerationRequest], parts: int) -> list[list[int]]:
    """Indices of ``requests`` for each of ``parts`` replicas, balancing the samples each must draw.

    Greedy longest-first: requests sorted by (samples, prompt length), each given to the least loaded
    replica. Deterministic, so a rerun splits the same way (not that samples depend on the split).
    """
    order = sorted(range(len(requests)),
                   key=lambda i: (-len(requests[i].sample_indices), -len(requests[i].prompt_ids), i))
    load = [0] * parts
    shards: list[list[int]] = [[] for _ in range(parts)]
    for i in order:
        k = min(range(parts), key=lambda p: (load[p], p))
        shards[k].append(i)
        load[k] += len(requests[i].sample_indices)
    return [sorted(s) for s in shards]


class DataParallelBackend:
    """``replicas`` copies of backend ``inner`` as Ray actors; `generate` splits each call over them.

    Args:
        inner: backend each replica runs (``vllm`` on GPUs; ``hf`` works too, e.g. on CPU).
        model: model directory (readable on every node) or hub name.
        replicas: number of replicas (data-parallel size).
        gpus_per_replica: GPUs Ray reserves for each replica (its tensor-parallel size for ``vllm``; a
            ``tensor_parallel_size`` option means the same); default 1 for ``vllm``, 0 for ``hf``.
        ray_address: an existing cluster (``auto``, ``ray://host:10001``); default ``RAY_ADDRESS`` or a
            local one started here.
        options: the inner backend's arguments (``dtype``, ``gpu_memory_utilization``, ``seed``...).
    """

    def __init__(self, inner: str, model: str, *, replicas: int, gpus_per_replica: int | None = None,
                 ray_address: str | None = None, **options: Any) -> None:
        if replicas < 1:
            raise ConfigError(f"--data-parallel must be at least 1, got {replicas}")
        try:
            import ray
        except ImportError as exc:
            raise ConfigError("--data-parallel needs Ray (pip install 'ray>=2.40')") from exc
        tp = options.pop("tensor_parallel_size", None)  # a replica's tensor-parallel size is its GPU count
        gpus = gpus_per_replica or tp or (1 if inner == "vllm" else 0)
        if inner == "vllm":
            options = {**options, "tensor_parallel_size": max(gpus, 1)}
        if inner == "hf" and gpus == 0:
            options = {**options, "device": options.get("device") or "cpu"}
        self.name = inner
        self._ray = ray
        if not ray.is_initialized():
            ray.init(address=ray_address or os.environ.get("RAY_ADDRESS") or None, ignore_reinit_error=True,
                     log_to_driver=True)
        free = ray.available_resources().get("GPU", 0.0)
        if gpus and free < gpus * replicas:
            raise ConfigError(f"--data-parallel {replicas} x {gpus} GPU(s) needs {gpus * replicas} GPUs; the Ray "
                              f"cluster has {free:g} free")
        self.tokenizer = load_tokenizer(model)
        actor: Any = ray.remote(num_gpus=gpus, num_cpus=1)(ReplicaActor)  # Ray's actor handles are untyped
        self._actors: list[Any] = [actor.remote(inner, model, options) for _ in range(replicas)]
        try:
            placement = ray.get([a.ready.remote() for a in self._actors])
        except Exception as exc:  # a replica that cannot build its engine: say which error, free the rest
            self.close()
            raise ConfigError(f"a data-parallel replica failed to start: {exc}") from exc
        logger.info("data parallel: %d %s replicas on %s", replicas, inner, "; ".join(placement))

    def render(self, messages: list[dict[str, str]] | str) -> tuple[str, tuple[int, ...]]:
        """Prompt text and ids after the chat template (the replicas' tokenizer, loaded here)."""
        return render_chat(self.tokenizer, messages)

    def generate(self, requests: Sequence[GenerationRequest], sampling: SamplingConfig) -> list[Completion]:
        """Split the requests over the replicas, generate concurrently, return completions in request order."""
        shards = [s for s in split_requests(requests, len(self._actors)) if s]
        refs = [a.generate.remote([requests[i] for i in shard], sampling)
                for a, shard in zip(self._actors, shards, strict=False)]
        order = {req.problem_index: i for i, req in enumerate(requests)}
        return sorted((c for part in self._ray.get(refs) for c in part),
                      key=lambda c: (order[c.problem_index], c.sample_index))

    def generate_each(self, batches: Iterable[list[GenerationRequest]], sampling: SamplingConfig
                      ) -> Iterator[tuple[list[GenerationRequest], list[Completion]]]:
        """Each batch whole on one replica, one batch per replica at a time; yields (batch, completions) in order.

        A replica takes the next batch as soon as it is free, so replicas stay busy when batches take unequal
        times; a batch's completions come back as that replica returns them (request order). Batches finished
        ahead of a slower one wait for it (at most two per replica are handed out ahead), so an interrupted run
        loses few finished batches.
        """
        todo = iter(batches)
        free = list(range(len(self._actors)))
        running: dict[Any, tuple[int, int, list[GenerationRequest]]] = {}  # ref -> (batch no., replica, batch)
        done: dict[int, tuple[list[GenerationRequest], list[Completion]]] = {}
        submitted = emitted = 0
        while True:  # closed early (^C, an error), the batches still running end with the actors in `close`
            while free and submitted - emitted < 2 * len(self._actors) and (batch := next(todo, None)) is not None:
                replica = free.pop(0)
                running[self._actors[replica].generate.remote(batch, sampling)] = (submitted, replica, batch)
                submitted += 1
            if not running:
                return
            ready, _ = self._ray.wait(list(running), num_returns=1)
            number, replica, batch = running.pop(ready[0])
            done[number] = (batch, self._ray.get(ready[0]))
            free.append(replica)
            while emitted in done:
                yield done.pop(emitted)
                emitted += 1

    def close(self) -> None:
        """Shut every replica's engine down and end the actors."""
        actors, self._actors = self._actors, []
        # a replica still generating (after ^C) closes when its batch ends: 60 s in all, not per replica, then kill
        closing = [a.close.remote() for a in actors]
        try:
            self._ray.wait(closing, num_returns=len(closing), timeout=60)
        except Exception:  # noqa: BLE001, S110 - a dead replica has nothing left to free
            pass
        for a in actors:
            self._ray.kill(a)

