"""End to end on CPU: tiny model -> HF backend -> scoring -> metrics/report files, resume, seeds, errors."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from verifiers.errors import ConfigError, DataError, SandboxError
from verifiers_train.evaluation import EvalConfig, run_checkpoint, score_file
from verifiers_train.evaluation._backend_factory import make_backend
from verifiers_train.evaluation._backends import GenerationRequest, SamplingConfig
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.evaluation.cli import main

SAMPLING = {"n": 4, "temperature": 1.0, "max_tokens": 24}


def _cfg(model: Path, data: Path, out: Path, **kw: Any) -> EvalConfig:
    base: dict[str, Any] = {"model": str(model), "dataset": "arith", "data": str(data), "out": str(out),
                            "limit": 8, "progress": False, **SAMPLING}
    return EvalConfig(**(base | kw))


def _by_key(samples: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    return {(s["problem_id"], s["sample_index"]): s for s in samples}


@pytest.fixture(scope="module")
def full_run(tiny_model: Path, tiny_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One uninterrupted run that the other tests compare against."""
    out = tmp_path_factory.mktemp("runs") / "full"
    run_checkpoint(_cfg(tiny_model, tiny_data, out))
    return out


def test_a_run_writes_samples_metrics_config_and_report(full_run: Path) -> None:
    samples = RunDir(full_run).read_samples()
    assert len(samples) == 8 * 4 and len(_by_key(samples)) == 32
    first = samples[0]
    for key in ("prompt", "response", "extracted", "status", "parts", "seed", "correct", "response_tokens"):
        assert key in first
    assert "<|im_start|>assistant" in first["prompt"]
    metrics = json.loads((full_run / "metrics.json").read_text())
    assert metrics["complete"] is True and metrics["problems"] == 8 and metrics["n"] == 4
    assert 0.0 < metrics["accuracy"] < 1.0  # the tiny model is partly right
    assert metrics["accuracy"] == pytest.approx(sum(s["correct"] for s in samples) / len(samples))
    assert metrics["pass_at_k"]["4"] >= metrics["pass_at_k"]["2"] >= metrics["pass_at_k"]["1"]
    assert metrics["maj_at_k"]["1"] == pytest.approx(metrics["pass_at_k"]["1"])
    lo, hi = metrics["accuracy_ci95"]
    assert lo <= metrics["accuracy"] <= hi
    assert metrics["throughput"]["tokens_per_s"] > 0 and metrics["mean_response_tokens"] > 0
    assert sum(metrics["status_counts"].values()) == 32
    config = json.loads((full_run / "config.json").read_text())
    assert config["template"] == "verl" and config["n"] == 4 and len(config["model_fingerprint"]) == 16
    html = (full_run / "report.html").read_text()
    assert "pass@4" in html and "maj@4" in html and 'src="plots/pass_at_k.png"' in html
    for png in ("pass_at_k.png", "status.png", "response_tokens.png"):
        assert (full_run / "plots" / png).read_bytes()[:4] == b"\x89PNG"


def test_resume_after_a_torn_write_loses_and_duplicates_nothing(full_run: Path, tiny_model: Path,
                                                                tiny_data: Path, tmp_path: Path) -> None:
    crashed = tmp_path / "crashed"
    shutil.copytree(full_run, crashed)
    lines = (crashed / "samples.jsonl").read_text().splitlines(keepends=True)
    # 10 complete rows, then half of the 11th: what a kill during an append leaves behind
    (crashed / "samples.jsonl").write_text("".join(lines[:10]) + lines[10][: len(lines[10]) // 2])
    (crashed / "metrics.json").unlink()
    result = run_checkpoint(_cfg(tiny_model, tiny_data, crashed, resume=True))
    assert result.generated == 32 - 10
    resumed = RunDir(crashed).read_samples()
    assert len((crashed / "samples.jsonl").read_text().splitlines()) == 32  # no duplicate rows on disk
    full = _by_key(RunDir(full_run).read_samples())
    assert {k: (s["response"], s["seed"], s["correct"]) for k, s in _by_key(resumed).items()} == {
        k: (s["response"], s["seed"], s["correct"]) for k, s in full.items()}
    assert result.metrics["accuracy"] == pytest.approx(json.loads((full_run / "metrics.json").read_text())["accuracy"])


@pytest.mark.parametrize("fixed", [True, False], ids=["fixed-batches", "chunks"])
def test_resume_after_a_crash_mid_run(fixed: bool, full_run: Path, tiny_model: Path, tiny_data: Path,
                                      tmp_path: Path) -> None:
    calls = {"n": 0}

    def crashing_factory(name: str, model: str, **kw: Any) -> Any:
        backend = make_backend(name, model, **kw)
        generate = backend.generate

        def generate_then_die(requests: Any, sampling: Any) -> Any:
            calls["n"] += 1
            if calls["n"] == 3:
                raise KeyboardInterrupt  # the user pressed ^C during the third chunk
            return generate(requests, sampling)

        backend.generate = generate_then_die  # type: ignore[method-assign]
        return backend

    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run_checkpoint(_cfg(tiny_model, tiny_data, out, chunk_problems=2, fixed_batches=fixed),
                       backend_factory=crashing_factory)
    partial = RunDir(out).read_samples()
    assert len(partial) == 2 * 2 * 4  # the two finished chunks were scored and saved
    # fixed batches resume with their own size; chunks may change size (this backend's samples ignore the batch)
    result = run_checkpoint(_cfg(tiny_model, tiny_data, out, chunk_problems=2 if fixed else 3, fixed_batches=fixed,
                                 resume=True))
    assert result.generated == 32 - 16
    resumed = _by_key(RunDir(out).read_samples())
    full = _by_key(RunDir(full_run).read_samples())
    assert {k: s["response"] for k, s in resumed.items()} == {k: s["response"] for k, s in full.items()}
    assert result.metrics["timing"]["sessions"] == 1  # the crashed session never wrote metrics


# A run with several seconds of generation left after its first samples appear (100 synthetic arith problems, one a
# chunk; 8 problems left about 1.4 s), so a signal sent then lands mid-run even when the test process waits long to
# be scheduled; `_start_and_wait_for_samples` fails with its own message if the run ended first.
LONG = {"dataset": "arith", "limit": 100, "n": 4, "temperature": 1.0, "max_tokens": 24, "chunk_problems": 1}
LONG_SAMPLES = 400


def _long_cli(model: Path, out: Path) -> list[str]:
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in LONG.items() if k != "dataset"]
    return [sys.executable, "-m", "verifiers_train.evaluation.cli", "checkpoint", str(model), "--task", "arith",
            *flags, "--out", str(out), "--quiet", "--no-report"]


def _start_and_wait_for_samples(cmd: list[str], samples: Path, at_least: int, **popen: Any) -> subprocess.Popen[str]:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, text=True, env=os.environ | {"OMP_NUM_THREADS": "1"},
                            **popen)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if samples.is_file() and len(samples.read_bytes().splitlines()) >= at_least:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before the test could interrupt it"
    return proc


@pytest.fixture(scope="module")
def long_run(tiny_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The LONG run, uninterrupted: what an interrupted and resumed one must equal."""
    out = tmp_path_factory.mktemp("runs") / "long"
    run_checkpoint(EvalConfig(model=str(tiny_model), out=str(out), progress=False, **LONG))
    return out


@pytest.mark.slow
def test_resume_after_sigkill_of_the_cli(long_run: Path, tiny_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "killed"
    cmd = _long_cli(tiny_model, out)
    proc = _start_and_wait_for_samples(cmd, out / "samples.jsonl", 8, stderr=subprocess.DEVNULL)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    kept = len(RunDir(out).read_samples(repair=False))
    assert 8 <= kept < LONG_SAMPLES, "the CLI should have been killed mid-run"
    assert main(cmd[3:] + ["--resume"]) == 0
    resumed = _by_key(RunDir(out).read_samples())
    full = _by_key(RunDir(long_run).read_samples())
    assert {k: s["response"] for k, s in resumed.items()} == {k: s["response"] for k, s in full.items()}


@pytest.mark.slow
def test_ctrl_c_of_the_cli_prints_the_resume_command(tiny_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "interrupted"
    proc = _start_and_wait_for_samples(_long_cli(tiny_model, out), out / "samples.jsonl", 1, stderr=subprocess.PIPE)
    proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("verifiers-eval checkpoint: interrupted; resume with: verifiers-eval checkpoint ")
    assert last.endswith(f"--out {out} --quiet --no-report --resume")
    assert main([*shlex.split(last.split("resume with: verifiers-eval ", 1)[1])]) == 0  # the line works as given
    assert len(RunDir(out).read_samples()) == LONG_SAMPLES


def test_samples_do_not_depend_on_batch_order_or_grouping(tiny_model: Path) -> None:
    backend = make_backend("hf", str(tiny_model))
    sampling = SamplingConfig(n=4, temperature=1.0, max_tokens=24)
    prompts = [backend.render([{"role": "user", "content": f"Tom has {a} pens and gets 2 more. How many?"}])
               for a in (3, 5, 7)]
    reqs = [GenerationRequest(i, text, ids, (0, 1, 2, 3), 1000 * i) for i, (text, ids) in enumerate(prompts)]
    forward = {(c.problem_index, c.sample_index): c.text for c in backend.generate(reqs, sampling)}
    reordered = backend.generate(list(reversed(reqs)), sampling)
    assert {(c.problem_index, c.sample_index): c.text for c in reordered} == forward
    # samples 1 and 3 drawn alone (as a resume would) equal the same samples drawn with their siblings
    partial = [GenerationRequest(r.problem_index, r.prompt, r.prompt_ids, (3, 1), r.base_seed) for r in reqs]
    assert {(c.problem_index, c.sample_index): c.text for c in backend.generate(partial, sampling)} == {
        k: v for k, v in forward.items() if k[1] in (1, 3)}
    assert len(set(forward.values())) > 3  # temperature 1: samples differ from each other


def test_a_longer_run_repeats_the_shorter_runs_samples(full_run: Path, tiny_model: Path, tiny_data: Path,
                                                       tmp_path: Path) -> None:
    short = run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "short", limit=3, chunk_problems=1, report=False))
    full = _by_key(RunDir(full_run).read_samples())
    for key, s in _by_key(RunDir(short.run_dir).read_samples()).items():
        assert s["response"] == full[key]["response"]


def test_resume_refuses_mismatched_settings(full_run: Path, tiny_model: Path, tiny_data: Path,
                                            tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(full_run, run)
    with pytest.raises(ConfigError, match=r"temperature: run has 1\.0, now 0\.7"):
        run_checkpoint(_cfg(tiny_model, tiny_data, run, resume=True, temperature=0.7))
    with pytest.raises(ConfigError, match="already holds a run .32 samples.; pass --resume"):
        run_checkpoint(_cfg(tiny_model, tiny_data, run))
    assert len(RunDir(run).read_samples()) == 32  # refusing touched nothing
    # a run that died before its first sample (say the model failed to load) blocks nothing
    empty = tmp_path / "died-early"
    empty.mkdir()
    shutil.copy(run / "config.json", empty / "config.json")
    result = run_checkpoint(_cfg(tiny_model, tiny_data, empty, limit=2, n=1, report=False))
    assert result.generated == 2


def test_bad_inputs_give_one_clear_error_each(tiny_model: Path, tiny_data: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match=r"no such folder: .*nope \(MODEL\)"):
        run_checkpoint(_cfg(tmp_path / "nope", tiny_data, tmp_path / "a"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ConfigError, match="neither an HF model"):
        run_checkpoint(_cfg(empty, tiny_data, tmp_path / "b"))
    with pytest.raises(ConfigError, match="unknown dataset 'gsm9k'"):
        run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "c", dataset="gsm9k"))
    with pytest.raises(DataError, match="no such file"):
        run_checkpoint(_cfg(tiny_model, tmp_path / "missing.jsonl", tmp_path / "d"))
    with pytest.raises(ConfigError, match="unknown template 'chatty'"):
        run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "g", template="chatty"))
    with pytest.raises(ConfigError, match="unknown preset 'lenient'"):
        run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "h", preset="lenient"))
    with pytest.raises(ConfigError, match="--n must be at least 1"):
        run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "e", n=0))
    assert not any((tmp_path / d).exists() for d in "aegh")  # nothing half-created
    # the CLI turns them into one line on stderr and exit status 2
    assert main(["checkpoint", str(tmp_path / "nope"), "--dataset", "arith", "--out", str(tmp_path / "f")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("verifiers-eval checkpoint: error: no such folder: ") and "Traceback" not in err
    with pytest.raises(SystemExit):
        main(["checkpoint", str(tiny_model), "--dataset", "gsm9k"])
    assert "invalid choice: 'gsm9k'" in capsys.readouterr().err


def test_score_subcommand_rescores_a_runs_samples(full_run: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rescored"
    assert main(["score", str(full_run / "samples.jsonl"), "--dataset", "arith", "--out", str(out)]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == f"report: {out / 'report.html'}"  # said last
    metrics = json.loads((out / "metrics.json").read_text())
    original = json.loads((full_run / "metrics.json").read_text())
    assert metrics["accuracy"] == pytest.approx(original["accuracy"])
    assert metrics["pass_at_k"] == pytest.approx(original["pass_at_k"])
    assert (out / "report.html").is_file()
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps({"response": "so #### 1/2", "gold": "0.5"}) + "\n"
                     + json.dumps({"response": "no idea", "gold": "3"}) + "\n")
    path, m = score_file(plain, "gsm8k", report=False)
    assert path == tmp_path / "plain-scored"
    assert m["status_counts"]["no_answer"] == 1 and m["status_counts"]["correct"] == 1 and m["samples"] == 2
    assert main(["score", str(plain), "--dataset", "gsm8k"]) == 2  # output folder exists
    assert "pass --overwrite" in capsys.readouterr().err
    assert main(["score", str(plain), "--dataset", "gsm8k", "--overwrite", "--no-report"]) == 0
    assert "report:" not in capsys.readouterr().out  # none written, none named
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"text": "x"}) + "\n")
    with pytest.raises(DataError, match="row 1: no 'response' field"):
        score_file(bad, "gsm8k")


def test_compare_writes_a_table_and_plot(full_run: Path, tiny_model: Path, tiny_data: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    greedy = run_checkpoint(_cfg(tiny_model, tiny_data, tmp_path / "greedy", n=1, temperature=0.0, report=False))
    out = tmp_path / "cmp"
    assert main(["compare", str(full_run), str(greedy.run_dir), "--labels", "sampled,greedy", "--out", str(out)]) == 0
    md = (out / "compare.md").read_text()
    assert md.startswith("| metric | sampled | greedy |") and "pass@4" in md
    paired = next(line for line in md.splitlines() if line.startswith("| accuracy change vs sampled"))
    assert "(baseline)" in paired and " pts [" in paired and "problems" in paired
    assert (out / "compare.png").read_bytes()[:4] == b"\x89PNG"
    assert "greedy" in (out / "compare.html").read_text()
    assert "sampled" in capsys.readouterr().out
    assert main(["compare", str(tmp_path / "not-a-run")]) == 2


def test_tiny_model_accuracy_survives_save_and_reload(tiny_model: Path, tmp_path: Path) -> None:
    """The tiny model was trained on the tokenizer as AutoTokenizer reloads it, so its greedy accuracy
    measured in memory during the build equals what the HF backend measures from disk."""
    info = json.loads((tiny_model / "tiny_model_info.json").read_text())
    train_rows = (tiny_model.parent / "train.jsonl").read_text().splitlines()
    held_out = tmp_path / "held_out.jsonl"
    held_out.write_text("\n".join(train_rows[-32:]) + "\n")  # build_tiny_model holds out the last 32
    result = run_checkpoint(EvalConfig(model=str(tiny_model), dataset="arith", data=str(held_out), n=1,
                                       temperature=0.0, max_tokens=64, out=str(tmp_path / "run"), progress=False,
                                       report=False))
    assert result.metrics["accuracy"] == pytest.approx(info["greedy_accuracy"])
    assert 0.0 < info["greedy_accuracy"] < 1.0


def test_a_bare_host_without_rich_or_matplotlib_still_gets_numbers(tiny_model: Path, tiny_data: Path,
                                                                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from verifiers_train.evaluation import _report

    for name in ("rich", "rich.progress", "rich.console", "rich.table"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails, as on the bare GPU image
    monkeypatch.setattr(_report, "have_matplotlib", lambda: False)
    out = tmp_path / "bare"
    assert main(["checkpoint", str(tiny_model), "--dataset", "arith", "--data", str(tiny_data), "--limit", "2",
                 "--max-tokens", "8", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "eval 2/2 (100%)" in captured.err and "accuracy (mean pass@1)" in captured.out
    assert "no plots: matplotlib is not installed" in (out / "report.html").read_text()
    assert not list((out / "plots").glob("*.png"))


def test_an_mbpp_run_without_a_sandbox_stops_before_loading_or_writing(tiny_model: Path, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Programs are scored after generation; a host that cannot run them is refused before the model loads."""
    data = tmp_path / "mbpp.jsonl"
    data.write_text(json.dumps({"task_id": 11, "text": "Write a function f returning 1.", "code": "def f(): return 1",
                                "test_list": ["assert f() == 1"], "test_setup_code": ""}) + "\n")

    def no_model(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the model was loaded before the sandbox was checked")

    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))  # no bwrap to be found
    out = tmp_path / "run"
    with pytest.raises(SandboxError, match=r"task mbpp runs programs in the sandbox, which cannot start here: "
                                           r"bubblewrap \(`bwrap`\) is not installed"):
        run_checkpoint(_cfg(tiny_model, data, out, dataset="mbpp", limit=None), backend_factory=no_model)
    assert not out.exists()
