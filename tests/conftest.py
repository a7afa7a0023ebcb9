"""Shared fixtures: the real datasets live outside the repo (../shared/data), never committed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

_DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """Folder with gsm8k/, math/ and mbpp/ (VERIFIERS_DATA_DIR or ../shared/data); skips if absent."""
    path = Path(os.environ.get("VERIFIERS_DATA_DIR", _DEFAULT))
    if not (path / "gsm8k" / "test.jsonl").is_file():
        pytest.skip(f"datasets not found at {path}; set VERIFIERS_DATA_DIR")
    return path
