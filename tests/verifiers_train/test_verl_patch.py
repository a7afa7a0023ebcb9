"""`verifiers-train patch-verl`: the patched verl gives upstream's values, loads the critic, and patching is safe."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from verifiers.errors import ConfigError
from verifiers_train import verl_patch
from verifiers_train.cli import main as train_main
from verifiers_train.verl_patch import CRITIC_ATTENTION, LOGPROBS, PATCHES

Unavailable = Callable[[str, str], NoReturn]  # tests/conftest.py's `unavailable` fixture


@pytest.fixture(autouse=True)
def _verl_installed(unavailable: Unavailable) -> None:
    if importlib.util.find_spec("verl") is None:
        unavailable("verl", "verl is not installed")


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def verl_copy(tmp_path: Path, unavailable: Unavailable) -> Path:
    """A verl folder holding copies of the installed verl's files that the patches edit (never the originals)."""
    root = tmp_path / "verl"
    for patch in PATCHES:
        (root / patch.path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(verl_patch.verl_root() / patch.path, root / patch.path)
    if any(verl_patch.is_patched(root).values()):
        unavailable("verl", "the installed verl is already patched: no upstream code to compare with "
                            "(reinstall verl==0.9.1)")
    return root


def test_logprobs_patch_replaces_only_the_fallback(verl_copy: Path) -> None:
    source = (verl_copy / LOGPROBS.path).read_text()
    patched = LOGPROBS.apply(source)
    assert not LOGPROBS.applied(source) and LOGPROBS.applied(patched)
    assert patched.count("def logprobs_from_logits_v2(") == 1
    head, tail = source.split("def logprobs_from_logits_v2(")
    assert patched.startswith(head)  # everything before the function is untouched
    rest = tail[tail.index("\ndef ") + 1:]
    assert patched.endswith(rest)  # and everything after it
    assert LOGPROBS.apply(patched) == patched  # idempotent


def test_patched_module_matches_upstream_values_and_gradients(verl_copy: Path, tmp_path: Path) -> None:
    upstream = _load(verl_copy / LOGPROBS.path, "verl_tf_upstream")
    patched_path = tmp_path / "patched_tf.py"
    patched_path.write_text(LOGPROBS.apply((verl_copy / LOGPROBS.path).read_text()))
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


@settings(max_examples=examples(40), deadline=None)
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


def _files(root: Path) -> dict[str, str]:
    return {patch.path: (root / patch.path).read_text() for patch in PATCHES}


def test_critic_patch_loads_the_critic_with_the_configured_attention(verl_copy: Path, tmp_path: Path,
                                                                     tiny_model_dir: Path) -> None:
    from transformers import AutoConfig, Qwen2ForCausalLM

    model_dir = tmp_path / "model"  # the tiny config with weights: what verl's critic loads
    shutil.copytree(tiny_model_dir, model_dir)
    Qwen2ForCausalLM(AutoConfig.from_pretrained(tiny_model_dir)).save_pretrained(model_dir)
    config = AutoConfig.from_pretrained(model_dir, attn_implementation="sdpa", num_labels=1)  # as verl builds it
    source = (verl_copy / CRITIC_ATTENTION.path).read_text()
    patched = CRITIC_ATTENTION.apply(source)
    assert patched.count("verifiers patch: configured attention") == 2  # its own load and trl's
    assert CRITIC_ATTENTION.applied(patched) and CRITIC_ATTENTION.apply(patched) == patched
    (tmp_path / "patched_model.py").write_text(patched)
    critic = _load(tmp_path / "patched_model.py", "verl_model_patched").load_valuehead_model(
        str(model_dir), torch.float32, config, False)
    assert type(critic).__name__ == "Qwen2ForTokenClassification"
    assert critic.config._attn_implementation == "sdpa" and critic.config.num_labels == 1
    if importlib.util.find_spec("flash_attn") is None:  # upstream cannot load it here: without trl it says
        # "not a value head model"; with trl 1.x (the trl extra) its value-head fallback import fails
        with pytest.raises((RuntimeError, ImportError), match="not a value head model|trl"):
            _load(verl_copy / CRITIC_ATTENTION.path, "verl_model_upstream").load_valuehead_model(
                str(model_dir), torch.float32, config, False)


def test_an_equivalent_edit_counts_as_patched(verl_copy: Path) -> None:
    # the GPU bundle's own sed edit of the same lines: nothing left for us to do
    source = (verl_copy / CRITIC_ATTENTION.path).read_text().replace(
        'attn_implementation="flash_attention_2",',
        'attn_implementation=getattr(model_config, "_attn_implementation", None) or "sdpa",')
    assert CRITIC_ATTENTION.applied(source) and CRITIC_ATTENTION.apply(source) == source


def test_unwritable_folder_is_a_clear_error(verl_copy: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    before = _files(verl_copy)

    def read_only(self: Path, *args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "write_text", read_only)  # root ignores chmod, so simulate the refusal
    assert train_main(["patch-verl", "--verl-dir", str(verl_copy)]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "Permission denied" in err
    assert _files(verl_copy) == before


def test_unrecognised_sources_are_refused() -> None:
    with pytest.raises(ConfigError, match="logprobs_from_logits_v2 not found"):
        LOGPROBS.apply("import torch\n\ndef something_else():\n    pass\n")
    with pytest.raises(ConfigError, match="load_valuehead_model's flash_attention_2 not found"):
        CRITIC_ATTENTION.apply("def load_valuehead_model(path):\n    return None\n")


def test_cli_check_patch_and_repatch(verl_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _files(verl_copy)
    assert train_main(["patch-verl", "--verl-dir", str(verl_copy), "--check"]) == 1
    assert capsys.readouterr().out.count("not patched") == 2
    assert train_main(["patch-verl", "--verl-dir", str(verl_copy)]) == 0
    out = capsys.readouterr().out
    assert "(logprobs): patched now" in out and "(critic-attention): patched now" in out
    once = _files(verl_copy)
    assert all(once[path] != before[path] for path in once)
    assert verl_patch.is_patched(verl_copy) == {"logprobs": True, "critic-attention": True}
    assert train_main(["patch-verl", "--verl-dir", str(verl_copy)]) == 0
    assert capsys.readouterr().out.count("already patched") == 2
    assert _files(verl_copy) == once
    assert train_main(["patch-verl", "--verl-dir", str(verl_copy), "--check"]) == 0


def test_cli_bad_folder_is_a_clear_error_and_writes_nothing(verl_copy: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert train_main(["patch-verl", "--verl-dir", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (verl_copy / CRITIC_ATTENTION.path).write_text("x = 1\n")  # one file not verl 0.9.1's
    before = _files(verl_copy)
    assert train_main(["patch-verl", "--verl-dir", str(verl_copy)]) == 2
    assert "not found" in capsys.readouterr().err
    assert _files(verl_copy) == before  # the good file was not patched either


def test_needs_patch_follows_flash_attn_and_the_files(verl_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verl_patch, "verl_root", lambda: verl_copy)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(verl_patch.importlib.util, "find_spec",
                        lambda name, *a: None if name == "flash_attn" else real_find_spec(name, *a))
    assert verl_patch.needs_patch()
    verl_patch.patch_verl(verl_copy)
    assert not verl_patch.needs_patch()
    logprobs = verl_copy / LOGPROBS.path
    logprobs.write_text(LOGPROBS.apply(logprobs.read_text()).replace("# verifiers patch: chunked rows", ""))
    assert verl_patch.needs_patch()  # one patch missing is enough
    monkeypatch.setattr(verl_patch.importlib.util, "find_spec", lambda name, *a: object())  # flash-attn present
    assert not verl_patch.needs_patch()
