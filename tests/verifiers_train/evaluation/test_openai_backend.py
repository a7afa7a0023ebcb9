"""``--backend openai`` end to end against a real server process (openai_server.py serving a tiny model).

The server generates with the HF backend and honours ``seed`` as vLLM does, so a served run must write the
samples a local ``--backend hf`` run of the same model writes; retries, a 4xx failing fast, concurrency,
resume after Ctrl-C and after a server outage are checked against it too. The tests that need the server are
marked slow: starting it (a process that imports torch and loads the model) takes tens of seconds here.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.evaluation.cli import main

SERVER = Path(__file__).with_name("openai_server.py")
NAME = "tiny-served"
LIMIT, N = 6, 2


class Server:
    def __init__(self, url: str) -> None:
        self.url = url
        self.root = url.removesuffix("/v1")

    def admin(self, what: str, **body: Any) -> None:
        httpx.post(f"{self.root}/admin/{what}", json=body, timeout=10).raise_for_status()

    def stats(self) -> dict[str, int]:
        return dict(httpx.get(f"{self.root}/admin/stats", timeout=10).json())


@pytest.fixture(scope="module")
def random_model(tiny_model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny config and tokenizer with seeded random weights (no training: the server starts at once)."""
    import shutil

    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    out = tmp_path_factory.mktemp("served") / "model"
    shutil.copytree(tiny_model_dir, out)
    torch.manual_seed(0)
    AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(out)).save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def server(random_model: Path) -> Iterator[Server]:
    env = os.environ | {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, str(SERVER), str(random_model), "--name", NAME], env=env,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # blocks until the model is loaded and the port is bound
        assert line.startswith("PORT "), f"server did not start: {line!r}"
        yield Server(f"http://127.0.0.1:{int(line.split()[1])}/v1")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(autouse=True)
def _healthy(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test starts and ends with a server that fails nothing and answers at once."""
    if "server" not in request.fixturenames:
        yield
        return
    srv: Server = request.getfixturevalue("server")
    srv.admin("fail", count=0)
    srv.admin("delay", seconds=0)
    srv.admin("reset")
    yield
    srv.admin("fail", count=0)
    srv.admin("delay", seconds=0)
    srv.admin("models")


def _argv(server: Server, data: Path, out: Path, *extra: str) -> list[str]:
    return ["checkpoint", "--backend", "openai", "--base-url", server.url, "--task", "arith", "--data", str(data),
            "--limit", str(LIMIT), "--n", str(N), "--temperature", "1.0", "--max-tokens", "12", "--out", str(out),
            "--quiet", "--no-report", "--retry-wait", "0.05", *extra]


def _responses(run: Path) -> dict[tuple[str, int], tuple[Any, ...]]:
    return {(s["problem_id"], s["sample_index"]): (s["seed"], s["response"], s["response_tokens"], s["finish_reason"])
            for s in RunDir(run).read_samples(repair=False)}


@pytest.fixture(scope="module")
def local_run(random_model: Path, tiny_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same evaluation with the HF backend in this process: what every served run must write."""
    out = tmp_path_factory.mktemp("runs") / "local"
    run_checkpoint(EvalConfig(model=str(random_model), dataset="arith", data=str(tiny_data), limit=LIMIT, n=N,
                              temperature=1.0, max_tokens=12, out=str(out), progress=False, report=False))
    return out


@pytest.mark.slow
def test_a_served_run_writes_the_local_backends_samples_and_metrics(server: Server, tiny_data: Path,
                                                                    local_run: Path, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "served"
    assert main(_argv(server, tiny_data, out, "--json", "--api-key", "sk-secret")) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["run_dir"] == str(out) and printed["complete"] is True
    assert _responses(out) == _responses(local_run)  # same texts, seeds, token counts (from usage), reasons
    assert len(_responses(out)) == LIMIT * N
    metrics = json.loads((out / "metrics.json").read_text())
    local = json.loads((local_run / "metrics.json").read_text())
    assert metrics["accuracy"] == local["accuracy"] and metrics["pass_at_k"] == local["pass_at_k"]
    config = (out / "config.json").read_text()
    saved = json.loads(config)
    assert saved["model"] == NAME and saved["backend"] == "openai"  # the name came from /v1/models
    assert saved["backend_options"]["base_url"] == server.url and saved["fixed_batch_problems"] is None
    assert "sk-secret" not in config and "api_key" not in saved
    prompt = RunDir(out).read_samples()[0]["prompt"]
    assert prompt.startswith("<|user|>\n") and "Let's think step by step" in prompt


@pytest.mark.slow
def test_requests_run_concurrently_up_to_the_flag(server: Server, tiny_data: Path, tmp_path: Path) -> None:
    server.admin("delay", seconds=0.3)
    before = server.stats()["answered"]
    assert main(_argv(server, tiny_data, tmp_path / "c", "--concurrency", "3", "--chunk-problems", "2")) == 0
    stats = server.stats()
    assert stats["answered"] - before == LIMIT * N  # one request per sample (n=1 each)
    assert stats["peak_in_flight"] == 3


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["503", "429", "drop"])
def test_failed_requests_are_retried(mode: str, server: Server, tiny_data: Path, local_run: Path,
                                     tmp_path: Path) -> None:
    server.admin("fail", count=3, mode=mode)
    failed = server.stats()["failed"]
    assert main(_argv(server, tiny_data, tmp_path / mode, "--concurrency", "2")) == 0
    assert server.stats()["failed"] - failed == 3
    assert _responses(tmp_path / mode) == _responses(local_run)


@pytest.mark.slow
def test_a_4xx_fails_fast_with_one_line(server: Server, tiny_data: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    server.admin("fail", count=1, mode="400")
    failed = server.stats()["failed"]
    assert main(_argv(server, tiny_data, tmp_path / "bad", "--concurrency", "1", "--retry-wait", "5")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "HTTP 400" in err[0] and err[0].startswith("verifiers-eval checkpoint: error: ")
    assert server.stats()["failed"] - failed == 1  # not retried
    # an unknown model is the server's 404, with its message
    assert main(_argv(server, tiny_data, tmp_path / "nope")[:1] + ["no-such-model"]
                + _argv(server, tiny_data, tmp_path / "nope")[1:]) == 2
    assert "HTTP 404: The model `no-such-model` does not exist." in capsys.readouterr().err


@pytest.mark.slow
def test_the_model_name_when_the_server_lists_several_or_none(server: Server, tiny_data: Path, local_run: Path,
                                                              tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    server.admin("models", extra=["other"])
    assert main(_argv(server, tiny_data, tmp_path / "two")) == 2
    assert f"lists 2 models (other, {NAME}); pass the one to evaluate as MODEL" in capsys.readouterr().err
    assert not (tmp_path / "two").exists()
    server.admin("models", hide=True)  # no /v1/models at all: a given name is used as is
    assert main(_argv(server, tiny_data, tmp_path / "named")[:1] + [NAME]
                + _argv(server, tiny_data, tmp_path / "named")[1:]) == 0
    assert _responses(tmp_path / "named") == _responses(local_run)
    assert main(_argv(server, tiny_data, tmp_path / "unnamed")) == 2
    assert "HTTP 404" in capsys.readouterr().err


@pytest.mark.slow
def test_a_server_outage_stops_the_run_and_resume_completes_it(server: Server, tiny_data: Path, local_run: Path,
                                                               tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "outage"
    # two problems' samples are answered, then every request fails
    server.admin("fail", count=10_000, mode="503", after=2 * N)
    assert main(_argv(server, tiny_data, out, "--max-retries", "2", "--concurrency", "1", "--chunk-problems", "1")) == 2
    err = capsys.readouterr().err
    assert "failed after 3 attempts (last: HTTP 503" in err and "--resume" in err
    assert len(RunDir(out).read_samples()) == 2 * N
    server.admin("fail", count=0)
    assert main(_argv(server, tiny_data, out, "--resume")) == 0
    assert _responses(out) == _responses(local_run)


@pytest.mark.slow
def test_ctrl_c_then_the_printed_resume_command(server: Server, tiny_data: Path, local_run: Path,
                                                tmp_path: Path) -> None:
    out = tmp_path / "interrupted"
    server.admin("delay", seconds=0.2)
    cmd = [sys.executable, "-m", "verifiers_train.evaluation.cli",
           *_argv(server, tiny_data, out, "--concurrency", "1", "--chunk-problems", "1")]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    samples = out / "samples.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if samples.is_file() and samples.read_bytes().count(b"\n") >= N:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before the test could interrupt it"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    kept = len(RunDir(out).read_samples(repair=False))
    assert N <= kept < LIMIT * N
    hint = err.strip().splitlines()[-1].split("resume with: verifiers-eval ", 1)[1]
    server.admin("delay", seconds=0)
    assert main(shlex.split(hint)) == 0
    assert _responses(out) == _responses(local_run)


@pytest.mark.slow
def test_a_plain_text_few_shot_template_goes_to_completions(server: Server, random_model: Path, tiny_data: Path,
                                                            tmp_path: Path) -> None:
    served, local = tmp_path / "served", tmp_path / "local"
    assert main(_argv(server, tiny_data, served, "--prompt-template", "gsm8k-8shot-cot", "--limit", "2")) == 0
    run_checkpoint(EvalConfig(model=str(random_model), dataset="arith", data=str(tiny_data), limit=2, n=N,
                              temperature=1.0, max_tokens=12, out=str(local), progress=False, report=False,
                              template="gsm8k-8shot-cot"))
    assert _responses(served) == _responses(local)
    rows = RunDir(served).read_samples()
    assert rows[0]["prompt"].startswith("Q: There are 15 trees in the grove.") and rows[0]["prompt"].endswith("\nA:")
    assert rows[0]["prompt"] == RunDir(local).read_samples()[0]["prompt"]  # the text itself, no chat template


def test_openai_flags_and_refusals_are_one_line(tmp_path: Path, tiny_data: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    base = ["checkpoint", "--task", "arith", "--data", str(tiny_data), "--out", str(tmp_path / "x")]
    cases = [
        (["m", "--backend", "openai"], "--backend openai needs --base-url"),
        (["m", "--base-url", "http://127.0.0.1:9/v1"], "--base-url is an openai setting"),
        (["m", "--concurrency", "2"], "--concurrency is an openai setting"),
        (["m", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--data-parallel", "2"],
         "--data-parallel does not apply to --backend openai"),
        (["m", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--dtype", "bfloat16"],
         "--dtype does not apply to --backend openai"),
        (["m", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--reference", "evalscope"],
         "--reference runs EvalScope on a local model"),
        (["m", "--backend", "openai", "--base-url", "localhost:8000"], "--base-url must be an http(s) URL"),
        (["m", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--concurrency", "0"],
         "--concurrency must be at least 1"),
        (["m", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--max-retries", "0"],
         "failed after 1 attempts (last: ConnectError"),
        (["--backend", "hf"], "MODEL is required with --backend hf"),
        (["m", "--template", "gsm8k-9shot"], "invalid choice: 'gsm8k-9shot'"),
        (["m", "--template", "gsm8k-8shot-cot", "--system-prompt", "Be brief."],
         "plain-text prompt with no system message"),
    ]
    for extra, message in cases:
        try:
            code = main(base + extra)
        except SystemExit as e:  # argparse's own refusals (an unknown choice)
            code = int(str(e.code))
        assert code == 2, extra
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], (extra, err)
    assert not (tmp_path / "x").exists()


def test_bare_host_urls_get_v1() -> None:
    from verifiers_train.evaluation._openai import api_root

    assert api_root("http://h:8000") == api_root("http://h:8000/") == "http://h:8000/v1"
    assert api_root("https://h/api/v1/") == "https://h/api/v1"


def test_the_resume_hint_never_prints_the_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse
    import sys

    from verifiers_train.evaluation import cli

    for given in (["--api-key", "sk-secret"], ["--api-key=sk-secret"]):
        monkeypatch.setattr(sys, "argv", ["verifiers-eval", "checkpoint", "served", "--task", "gsm8k",
                                          "--backend", "openai", *given, "--out", "o"])
        args = argparse.Namespace(command="checkpoint", out="o", model="served", task="gsm8k")
        hint = cli._resume_hint(args)
        assert hint is not None and "sk-secret" not in hint and "--api-key" not in hint and "--resume" in hint
