"""`verifiers.hub`: which names mean the Hugging Face hub and which a local path ("no such folder")."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifiers.hub import is_hub_name, missing_local


@pytest.mark.parametrize("name", ["Qwen/Qwen2.5-0.5B-Instruct", "openai/gsm8k", "HuggingFaceH4/MATH-500",
                                  "google-research-datasets/mbpp"])
def test_org_name_without_a_local_folder_is_the_hub(name: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert is_hub_name(name) and missing_local(name, "--model") is None


@pytest.mark.parametrize("name", ["./no/such/dir", "../x", "/abs/path", "~/models/x", "a/b/c", "x",
                                  "data/gsm8k.jsonl", "org/set.parquet", "org/set.json", "org/"])
def test_path_shapes_are_local(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert not is_hub_name(name)
    assert missing_local(name, "--data", "file or folder") == f"no such file or folder: {name} (--data)"


def test_org_name_under_an_existing_folder_is_local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert is_hub_name("data/gsm8k")  # no data/ folder here: a hub dataset
    (tmp_path / "data").mkdir()
    # data/ exists: data/gsm8k is a folder the user has not made yet, not a hub dataset
    assert not is_hub_name("data/gsm8k")
    assert missing_local("data/gsm8k", "--data") == "no such folder: data/gsm8k (--data)"
    (tmp_path / "data" / "gsm8k").mkdir()
    assert not is_hub_name("data/gsm8k") and missing_local("data/gsm8k", "--data") is None
    # a file named like an org does not make its "subfolder" local
    (tmp_path / "Qwen").write_text("")
    assert is_hub_name("Qwen/Qwen2.5-0.5B-Instruct")
