"""Build one generation backend by name (``hf`` or ``vllm``) in this process.

Kept apart from `_backends` (the protocol and helpers every backend imports) so that no backend module
imports its own factory; `_data_parallel` builds its replicas with it.
"""

from __future__ import annotations

from typing import Any

from verifiers.errors import ConfigError
from verifiers_train.evaluation._backends import Backend

BACKENDS = ("hf", "vllm")


def make_backend(name: str, model: str, **options: Any) -> Backend:
    """Build backend ``name`` (``hf`` or ``vllm``) for ``model``; ``options`` go to its constructor."""
    if name == "hf":
        from verifiers_train.evaluation._hf import HFBackend

        return HFBackend(model, **options)
    if name == "vllm":
        from verifiers_train.evaluation._vllm import VLLMBackend

        return VLLMBackend(model, **options)
    raise ConfigError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
