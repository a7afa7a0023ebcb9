"""`verifiers_train.tiny`: the saved model and tokenizer reload as vLLM/verl load them, and bad sizes fail clearly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifiers.errors import ConfigError
from verifiers_train.tiny import SIZES, TinySize, build_tiny_model, main


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("tiny") / "model"
    # arith with no data file: generated problems, the same path the GPU check uses
    info = build_tiny_model(out, dataset="arith", size=TinySize(32, 1, 2, 1, 64, 300), steps=20, batch_size=8,
                            train_problems=120, eval_problems=4, threads=1, log=None)
    return out, info


def test_files_are_saved_and_reload_with_autotokenizer(built: tuple[Path, object]) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    out, info = built
    for name in ("config.json", "model.safetensors", "generation_config.json", "tokenizer_config.json",
                 "tiny_model_info.json"):
        assert (out / name).is_file(), name
    config = json.loads((out / "config.json").read_text())
    assert config["model_type"] == "qwen2" and config["architectures"] == ["Qwen2ForCausalLM"]
    assert config["vocab_size"] % 64 == 0
    tok = AutoTokenizer.from_pretrained(out)
    assert len(tok) <= config["vocab_size"]
    assert tok.eos_token == "<|im_end|>" and tok.pad_token == "<|endoftext|>"
    assert json.loads((out / "generation_config.json").read_text())["eos_token_id"] == tok.eos_token_id
    prompt = tok.apply_chat_template([{"role": "user", "content": "Tom has 3 pens."}], add_generation_prompt=True,
                                     tokenize=False)
    assert prompt.endswith("<|im_start|>assistant\n")
    model = AutoModelForCausalLM.from_pretrained(out)
    assert sum(p.numel() for p in model.parameters()) == info.parameters  # type: ignore[attr-defined]
    assert info.steps == 20 and info.final_loss < 10  # type: ignore[attr-defined]


def test_model_is_trained_on_the_tokenizer_as_reloaded(built: tuple[Path, object]) -> None:
    """The reloaded tokenizer is what training used: encoding a solution round-trips through it."""
    from transformers import AutoTokenizer

    out, _ = built
    tok = AutoTokenizer.from_pretrained(out)
    text = "Tom has 12 + 30 = 42 pens.\n#### 42"
    assert tok.decode(tok(text, add_special_tokens=False)["input_ids"]) == text


def test_unknown_size_and_too_little_data_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown tiny model size 'huge'"):
        build_tiny_model(tmp_path / "m", size="huge", log=None)
    with pytest.raises(ConfigError, match="need more than"):
        build_tiny_model(tmp_path / "m", problems=[], size="test", log=None)
    assert set(SIZES) == {"small", "test"}


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path / "m"), "--size", "test", "--steps", "2", "--train-problems", "60",
                 "--threads", "1"]) == 0
    printed = capsys.readouterr().out
    assert '"greedy_accuracy"' in printed and (tmp_path / "m" / "model.safetensors").is_file()


def test_registers_as_a_verifiers_train_subcommand() -> None:
    import argparse

    from verifiers_train.tiny import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    ns = parser.parse_args(["tiny-model", "--out", "m", "--size", "test", "--steps", "5"])
    assert ns.command == "tiny-model" and ns.steps == 5 and ns.size == "test" and callable(ns.func)
