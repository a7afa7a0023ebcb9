"""``--backend openai`` against a real ``vllm serve`` on the GPU (skipped without CUDA, see conftest.py).

- a served run completes with the run folder, per-sample seeds and ``usage`` token counts of the other backends;
- vLLM honours ``seed``: the same request seeded alike draws the same text, seeded apart draws other texts;
- a run whose last samples were lost is resumed: only the missing samples are asked for, and (seeded) they are
  what the first pass drew, up to the batch dependence of GPU numerics (evals/gpu/README.md R6.2), which this
  test measures rather than assumes away.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

NAME = "tiny-vllm"
SETTINGS: dict[str, Any] = {"dataset": "arith", "limit": 32, "n": 4, "temperature": 1.0, "max_tokens": 48,
                            "progress": False, "report": False}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def served(gpu_tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``vllm serve`` of the tiny model on 127.0.0.1 (its OpenAI-compatible server); yields the API root."""
    port = _free_port()
    log = tmp_path_factory.mktemp("vllm-serve") / "serve.log"
    cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(gpu_tiny_model),
           "--served-model-name", NAME, "--host", "127.0.0.1", "--port", str(port), "--gpu-memory-utilization",
           "0.25", "--enforce-eager", "--seed", "0"]
    env = os.environ | {"VLLM_USE_FLASHINFER_SAMPLER": os.environ.get("VLLM_USE_FLASHINFER_SAMPLER", "0")}
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        import httpx

        deadline = time.monotonic() + 600
        while True:
            if proc.poll() is not None:
                pytest.fail(f"vllm serve exited ({proc.returncode}): {log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{url}/models", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"vllm serve did not answer in 600 s: {log.read_text()[-3000:]}")
            time.sleep(1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()


def _run(url: str, out: Path, **kw: Any) -> Any:
    from verifiers_train.evaluation import EvalConfig, run_checkpoint

    options = {"base_url": url, "concurrency": 16} | kw.pop("backend_options", {})
    return run_checkpoint(EvalConfig(model="", backend="openai", out=str(out), backend_options=options,
                                     **(SETTINGS | kw)))


def test_a_served_run_writes_the_run_folder(served: str, tmp_path: Path) -> None:
    from verifiers_train.evaluation._backends import base_seed

    result = _run(served, tmp_path / "run")
    rows = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert len(rows) == 32 * 4 and result.metrics["complete"] is True
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert config["model"] == NAME  # from /v1/models
    for r in rows:
        assert r["seed"] == base_seed(0, r["problem_id"]) + r["sample_index"]
        assert r["response_tokens"] >= 1 and r["finish_reason"] in ("stop", "length")
    assert 0 < result.metrics["accuracy"] <= 1  # the tiny model is partly right


def test_vllm_honours_the_seed(served: str) -> None:
    import httpx

    def ask(seed: int) -> str:
        body = {"model": NAME, "messages": [{"role": "user", "content": "Tom has 3 apples and gets 4 more."}],
                "max_tokens": 32, "temperature": 1.0, "seed": seed}
        answer = httpx.post(f"{served}/chat/completions", json=body, timeout=60).json()
        return str(answer["choices"][0]["message"]["content"])

    assert ask(7) == ask(7)
    assert len({ask(s) for s in range(8)}) > 1


def test_resume_asks_only_for_the_missing_samples(served: str, tmp_path: Path) -> None:
    full = tmp_path / "full"
    _run(served, full, backend_options={"concurrency": 1})
    cut = tmp_path / "cut"
    shutil.copytree(full, cut)
    lines = (cut / "samples.jsonl").read_text().splitlines(keepends=True)
    (cut / "samples.jsonl").write_text("".join(lines[: len(lines) // 2]))
    result = _run(served, cut, resume=True, backend_options={"concurrency": 1})
    assert result.generated == len(lines) - len(lines) // 2 and result.metrics["complete"] is True

    def by_key(run: Path) -> dict[tuple[str, int], str]:
        rows = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
        return {(r["problem_id"], r["sample_index"]): r["response"] for r in rows}

    a, b = by_key(full), by_key(cut)
    same = sum(a[k] == b[k] for k in a) / len(a)
    print(f"resumed run equal to one pass on {same:.1%} of samples")
    assert same >= 0.9, f"only {same:.1%} of the samples of a resumed run equal one pass's"
