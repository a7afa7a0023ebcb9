"""`verifiers_train.tiny`: the saved model and tokenizer reload as vLLM/verl load them, bad sizes fail clearly,
the smoke preset learns its slice, progress shows total and ETA, and a killed build leaves no half-written model."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verifiers.errors import ConfigError
from verifiers_train import tiny
from verifiers_train.tiny import (
    EASY_ARITH_MAX,
    INFO_FILE,
    TinySize,
    build_tiny_model,
    easy_arith_rows,
    main,
    resolve_size,
)

SRC = Path(tiny.__file__).resolve().parents[1]


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
    assert set(tiny.PRESETS) == {"small", "test", "smoke"}
    with pytest.raises(ConfigError, match="unknown tiny model size 'huge'"):
        resolve_size("huge", "cpu")
    assert not list(tmp_path.iterdir())  # a refused build leaves nothing behind


def test_auto_size_is_small_on_cuda_and_smoke_on_a_cpu() -> None:
    assert resolve_size("auto", "cuda") == "small" and resolve_size("auto", "cuda:1") == "small"
    assert resolve_size("auto", "cpu") == "smoke" and resolve_size("test", "cuda") == "test"


@pytest.mark.slow
def test_command_line_prints_json_on_stdout_and_progress_on_stderr(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path / "m"), "--size", "test", "--steps", "2", "--train-problems", "60",
                 "--threads", "1"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["path"] == str(tmp_path / "m") and (tmp_path / "m" / "model.safetensors").is_file()
    assert "SFT 2/2 (100%)" in err and "ETA" in err  # not a TTY: plain lines


def test_smoke_slice_is_arith_level_one_with_one_digit_numbers() -> None:
    from verifiers import arith

    train, test = easy_arith_rows(300, "train"), easy_arith_rows(50, "test")
    assert len(train) == 300 and len(test) == 50
    assert not {r["question"] for r in train} & {r["question"] for r in test}
    for r in train + test:
        numbers = [int(x) for x in re.findall(r"\d+", r["question"])]
        assert r["level"] == 1 and max(numbers) <= EASY_ARITH_MAX
        a, b = numbers
        assert int(r["answer"].rsplit("####", 1)[1]) == (a + b if "more" in r["question"] else a - b)
    assert all(arith.split_of(r["question"]) == "test" for r in test)


@pytest.mark.slow
def test_smoke_preset_reaches_non_zero_accuracy_and_ships_its_data(tmp_path: Path) -> None:
    """The CPU smoke path as a user runs it (defaults; ~20 s of CPU): a model that answers some problems."""
    from verifiers.datasets import load_problems

    lines: list[str] = []
    info = build_tiny_model(tmp_path / "m", device="cpu", log=lines.append)
    assert info.steps == tiny.PRESETS["smoke"].steps and 0.0 < info.greedy_accuracy < 1.0, info
    saved = json.loads((tmp_path / "m" / INFO_FILE).read_text())
    assert saved["size"] == "smoke" and saved["data"] == str(tmp_path / "m" / "data")
    assert len(load_problems("arith", saved["data"], split="test")) == tiny.EASY_ARITH_TEST
    assert "smoke (auto: cpu)" in lines[0] and any("ETA" in x for x in lines)


# ---------------------------------------------------------------- atomic output
_SLOW_BUILD = ["--size", "test", "--steps", "100000", "--train-problems", "80", "--threads", "1",
               "--progress", "lines"]


def _start_build(out: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen([sys.executable, "-m", "verifiers_train.tiny", "--out", str(out), *_SLOW_BUILD, *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _wait_until_training(proc: subprocess.Popen[str], folder: Path) -> None:
    """Block until the build reports its model, just before training (tokenizer and config are written)."""
    assert proc.stderr is not None
    deadline = time.monotonic() + 240
    for line in proc.stderr:
        if "M parameters" in line:
            time.sleep(0.5)  # a few steps in
            break
        assert time.monotonic() < deadline, "the build never started training"
    partials = list(folder.glob(".*partial-*"))
    assert len(partials) == 1 and (partials[0] / "tokenizer.json").is_file()  # mid-run, half-written


def _snapshot(model: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in model.iterdir() if p.is_file()}


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_build_leaves_no_model_or_the_previous_one(tmp_path: Path, how: signal.Signals) -> None:
    out = tmp_path / "model"
    proc = _start_build(out)
    _wait_until_training(proc, tmp_path)
    proc.send_signal(how)
    proc.wait(60)
    assert not out.exists()  # nothing half-written under the target's name
    if how == signal.SIGTERM:  # unwound: the partial folder is gone too
        assert proc.returncode == 128 + signal.SIGTERM and not list(tmp_path.glob(".*partial-*"))

    build_tiny_model(out, size=TinySize(32, 1, 2, 1, 64, 300), steps=3, batch_size=8, train_problems=60,
                     eval_problems=4, threads=1, log=None)
    assert not list(tmp_path.glob(".*partial-*"))  # the next build cleared what the SIGKILL left
    before = _snapshot(out)
    assert INFO_FILE in before and "model.safetensors" in before

    proc = _start_build(out)
    _wait_until_training(proc, tmp_path)
    proc.send_signal(how)
    proc.wait(60)
    assert _snapshot(out) == before  # still the previous complete model


def test_a_previous_model_is_replaced_and_other_folders_are_refused(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    small = {"size": TinySize(32, 1, 2, 1, 64, 300), "steps": 2, "batch_size": 8, "train_problems": 60,
             "eval_problems": 4, "threads": 1, "log": None}
    out = tmp_path / "m"
    build_tiny_model(out, seed=1, **small)  # type: ignore[arg-type]
    first = _snapshot(out)
    build_tiny_model(out, seed=2, **small)  # type: ignore[arg-type]  # atomic exchange
    second = _snapshot(out)
    assert second["model.safetensors"] != first["model.safetensors"]
    monkeypatch.setattr(tiny, "_exchange", lambda a, b: False)  # a filesystem without RENAME_EXCHANGE
    build_tiny_model(out, seed=1, **small)  # type: ignore[arg-type]
    assert _snapshot(out)["model.safetensors"] == first["model.safetensors"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]  # no partial or set-aside folder left

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(ConfigError, match="not a tiny model folder"):
        build_tiny_model(mine, **small)  # type: ignore[arg-type]
    assert (mine / "notes.txt").read_text() == "keep me"
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match="not a folder"):
        build_tiny_model(tmp_path / "file", **small)  # type: ignore[arg-type]


def test_a_model_set_aside_by_a_killed_swap_is_restored(tmp_path: Path) -> None:
    """Killed between the fallback's two renames: the next build puts the previous model back first."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    aside = tmp_path / f".m.old-{int(dead.stdout)}-1"
    aside.mkdir()
    (aside / INFO_FILE).write_text("{}")
    tiny._clean_stale(tmp_path / "m")
    assert (tmp_path / "m" / INFO_FILE).is_file() and not aside.exists()
    live = tmp_path / f".m.partial-{os.getpid()}-x"  # a build still running (this process) is left alone
    live.mkdir()
    tiny._clean_stale(tmp_path / "m")
    assert live.exists()


def test_registers_as_a_verifiers_train_subcommand() -> None:
    import argparse

    from verifiers_train.tiny import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    ns = parser.parse_args(["tiny-model", "--out", "m", "--size", "test", "--steps", "5"])
    assert ns.command == "tiny-model" and ns.steps == 5 and ns.size == "test" and callable(ns.func)
