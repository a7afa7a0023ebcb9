"""GPU test suite: real vLLM (and real verl in test_verl.py). Skipped where CUDA is absent.

Where CUDA is present the components are required: a missing vLLM fails these tests instead of skipping
them. Run on a GPU host with the offline bundle unpacked (evals/gpu/README.md, "GPU test suite")::

    python -m pytest -q tests/gpu
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _cuda():
        return
    skip = pytest.mark.skip(reason="no CUDA device: the GPU suite runs on a GPU host (evals/gpu/README.md)")
    for item in items:
        if "tests/gpu/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def gpu_tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny arith model trained on the GPU (partly right, so scores vary)."""
    from verifiers_train.tiny import build_tiny_model

    info = build_tiny_model(tmp_path_factory.mktemp("tiny") / "model", dataset="arith", size="test", steps=300,
                            batch_size=32, lr=1e-2, device="cuda", log=None)
    return info.path


@pytest.fixture(scope="session")
def engine(gpu_tiny_model: Path) -> Iterator[Any]:
    """One vLLM engine for the session (engine start is the slow part)."""
    from verifiers_train.evaluation._vllm import VLLMBackend

    backend = VLLMBackend(str(gpu_tiny_model), tensor_parallel_size=1, gpu_memory_utilization=0.25,
                          enforce_eager=True, seed=0)
    yield backend
    backend.close()
