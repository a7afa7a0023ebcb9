"""Generation backends by name: ``hf``, ``vllm`` and ``openai`` are registered here; `register_backend` adds others.

Kept apart from `_backends` (the protocol and helpers every backend imports) so that no backend module
imports its own factory; `_data_parallel` builds its replicas with `make_backend`. Each entry imports its
module only when used, so ``--backend hf`` never imports vLLM.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from verifiers.errors import one_of
from verifiers_train.evaluation._backends import Backend


def _hf(model: str, **options: Any) -> Backend:
    from verifiers_train.evaluation._hf import HFBackend

    return HFBackend(model, **options)


def _vllm(model: str, **options: Any) -> Backend:
    from verifiers_train.evaluation._vllm import VLLMBackend

    return VLLMBackend(model, **options)


def _openai(model: str, **options: Any) -> Backend:
    from verifiers_train.evaluation._openai import OpenAIBackend

    return OpenAIBackend(model, **options)


# name -> factory(model, **options); the CLI's --backend choices are these keys
BACKENDS: dict[str, Callable[..., Backend]] = {"hf": _hf, "vllm": _vllm, "openai": _openai}


def register_backend(name: str, factory: Callable[..., Backend]) -> None:
    """Make ``--backend NAME`` build ``factory(model, **options)`` (a class with the `Backend` methods works)."""
    BACKENDS[name] = factory


def make_backend(name: str, model: str, **options: Any) -> Backend:
    """Build backend ``name`` for ``model``; ``options`` go to its constructor."""
    return BACKENDS[one_of(name, BACKENDS, "backend")](model, **options)


def reuse_backend(backend: Backend) -> Callable[..., Backend]:
    """A factory that hands ``backend`` (already built) to `run_checkpoint` and leaves it open afterwards.

    Several runs in one process can then share one engine: ``run_checkpoint(cfg,
    backend_factory=reuse_backend(engine))``; the caller closes ``engine`` when done.
    """

    class _Borrowed:
        name = backend.name

        def render(self, messages: list[dict[str, str]] | str) -> tuple[str, tuple[int, ...]]:
            return backend.render(messages)

        def generate(self, requests: Any, sampling: Any) -> Any:
            return backend.generate(requests, sampling)

        def __getattr__(self, name: str) -> Any:
            """What else the backend offers, e.g. a data-parallel backend's ``generate_each`` (whole batches)."""
            return getattr(backend, name)

        def close(self) -> None:
            """The owner closes the backend, not the run that borrowed it."""

    return lambda *args, **kwargs: _Borrowed()
