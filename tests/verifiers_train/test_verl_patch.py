"""`verifiers-train patch-verl`: the chunked log-prob fallback gives verl's values, and patching is safe."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st

from verifiers.errors import ConfigError
from verifiers_train import verl_patch
from verifiers_train.cli import main as train_main

pytest.importorskip("verl")


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def verl_copy(tmp_path: Path) -> Path:
    """A copy of the installed verl's torch_functional.py (never the installed file itself)."""
    target = tmp_path / "torch_functional.py"
    shutil.copy(verl_patch.installed_file(), target)
    if verl_patch.is_patched(target):
        pytest.skip("the installed verl is already patched: no upstream function to compare with")
    return target


def test_patch_replaces_only_the_fallback(verl_copy: Path) -> None:
    source = verl_copy.read_text()
    patched = verl_patch.patch_source(source)
    assert verl_patch.MARKER not in source and verl_patch.MARKER in patched
    assert patched.count("def logprobs_from_logits_v2(") == 1
    head, tail = source.split("def logprobs_from_logits_v2(")
    assert patched.startswith(head)  # everything before the function is untouched
    rest = tail[tail.index("\ndef ") + 1:]
    assert patched.endswith(rest)  # and everything after it
    assert verl_patch.patch_source(patched) == patched  # idempotent


def test_patched_module_matches_upstream_values_and_gradients(verl_copy: Path, tmp_path: Path) -> None:
    upstream = _load(verl_copy, "verl_tf_upstream")
    patched_path = tmp_path / "patched_tf.py"
    patched_path.write_text(verl_patch.patch_source(verl_copy.read_text()))
    patched = _load(patched_path, "verl_tf_patched")
    patched.LOGPROB_CHUNK_NUMEL = 700  # several chunks even for these small inputs
    torch.manual_seed(0)
    for dtype in (torch.bfloat16, torch.float32):
        for shape in ((37, 50), (3, 11, 50), (1, 50)):
            logits = torch.randn(*shape, dtype=dtype)
            labels = torch.randint(0, shape[-1], shape[:-1])
            a_in, b_in = logits.clone().requires_grad_(True), logits.clone().requires_grad_(True)
            a = upstream.logprobs_from_logits_v2(a_in, labels)
            b = patched.logprobs_from_logits_v2(b_in, labels)
            assert torch.equal(a, b), (dtype, shape)
            (ga,) = torch.autograd.grad(a.float().sum(), a_in)
            (gb,) = torch.autograd.grad(b.float().sum(), b_in)
            assert torch.equal(ga, gb), (dtype, shape)


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 40), vocab=st.integers(2, 30), chunk=st.integers(1, 400),
       bf16=st.booleans())
def test_chunked_equals_log_softmax_for_any_chunking(rows: int, vocab: int, chunk: int, bf16: bool) -> None:
    dtype = torch.bfloat16 if bf16 else torch.float32
    gen = torch.Generator().manual_seed(rows * 1000 + vocab)
    logits = torch.randn(rows, vocab, generator=gen).to(dtype)
    labels = torch.randint(0, vocab, (rows,), generator=gen)
    got = verl_patch.chunked_logprobs(chunk)(logits, labels)
    want = F.log_softmax(logits.float(), dim=-1).gather(-1, labels[:, None]).squeeze(-1)
    assert got.shape == (rows,) and got.dtype == dtype
    assert torch.allclose(got.float(), want, atol=0.05 if bf16 else 1e-5)


def test_zero_rows_give_an_empty_result() -> None:
    for shape in ((0, 7), (0, 5, 7)):
        got = verl_patch.chunked_logprobs()(torch.zeros(shape, dtype=torch.bfloat16),
                                            torch.zeros(shape[:-1], dtype=torch.long))
        assert got.shape == shape[:-1] and got.dtype == torch.bfloat16


def test_unwritable_file_is_a_clear_error(verl_copy: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    before = verl_copy.read_text()

    def read_only(self: Path, *args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_text", read_only)  # root ignores chmod, so simulate the refusal
    assert train_main(["patch-verl", "--file", str(verl_copy)]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "Permission denied" in err
    assert verl_copy.read_text() == before


def test_unrecognised_source_is_refused() -> None:
    with pytest.raises(ConfigError, match="logprobs_from_logits_v2 not found"):
        verl_patch.patch_source("import torch\n\ndef something_else():\n    pass\n")


def test_cli_check_patch_and_repatch(verl_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = verl_copy.read_text()
    assert train_main(["patch-verl", "--file", str(verl_copy), "--check"]) == 1
    assert "not patched" in capsys.readouterr().out
    assert train_main(["patch-verl", "--file", str(verl_copy)]) == 0
    assert "patched now" in capsys.readouterr().out
    once = verl_copy.read_text()
    assert once != before and verl_patch.is_patched(verl_copy)
    assert train_main(["patch-verl", "--file", str(verl_copy)]) == 0
    assert "already patched" in capsys.readouterr().out
    assert verl_copy.read_text() == once
    assert train_main(["patch-verl", "--file", str(verl_copy), "--check"]) == 0


def test_cli_bad_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert train_main(["patch-verl", "--file", str(tmp_path / "missing.py")]) == 2
    assert "does not exist" in capsys.readouterr().err
    other = tmp_path / "other.py"
    other.write_text("x = 1\n")
    assert train_main(["patch-verl", "--file", str(other)]) == 2
    assert "not found" in capsys.readouterr().err
    assert other.read_text() == "x = 1\n"  # nothing written


def test_needs_patch_follows_flash_attn_and_the_file(verl_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verl_patch, "installed_file", lambda: verl_copy)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(verl_patch.importlib.util, "find_spec",
                        lambda name, *a: None if name == "flash_attn" else real_find_spec(name, *a))
    assert verl_patch.needs_patch()
    verl_patch.patch_file(verl_copy)
    assert not verl_patch.needs_patch()
    verl_copy.write_text(verl_copy.read_text().replace(verl_patch.MARKER, ""))
    monkeypatch.setattr(verl_patch.importlib.util, "find_spec", lambda name, *a: object())  # flash-attn present
    assert not verl_patch.needs_patch()
