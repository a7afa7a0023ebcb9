"""Issue 16 for `verifiers-train run`: environment names, trainer choice, Hydra's output folder, pre-flight,
pausing and resuming, data sources checked against the scorers, `status`, and the reward's unknown sources."""

from __future__ import annotations

import importlib.util
import json
import logging
import signal
import sys
import time
from pathlib import Path

import pytest

import verifiers_train.reward as reward_module
import verifiers_train.run as run_module
from verifiers.errors import ConfigError, DataError
from verifiers_train.cli import main
from verifiers_train.options import env_names, environment, resolve
from verifiers_train.prepare import prepare
from verifiers_train.run import PreflightError, RunPlan, launch, plan, preflight
from verifiers_train.verl_check import compose
from verifiers_train.verl_log import run_summary


def _base(tmp_path: Path, tiny_model: Path, **kw: object) -> dict:
    return {"algo": "grpo", "dataset": "arith", "model": str(tiny_model), "out": str(tmp_path / "run"),
            "batch_size": 8, "mini_batch_size": 4, **kw}


# ------------------------------------------------------------------ environment
def test_prefixed_names_for_every_option_bare_names_only_for_grail_and_verl_scripts() -> None:
    env = {"VERIFIERS_GPUS": "2", "VERIFIERS_EPOCHS": "3", "LR": "1e-4", "MODEL_PATH": "org/model",
           "TRAIN_BATCH_SIZE": "32", "PPO_MINI_BATCH_SIZE": "16", "ROLLOUT_GPU_MEM_UTIL": "0.4", "WARMUP_STEPS": "5",
           # generic names collide with users' shells and schedulers: never read
           "OUT": "/elsewhere", "DATA": "/elsewhere", "EPOCHS": "99", "CONFIG": "/no/such.json", "GPUS": "8"}
    o, origin = resolve({}, env=env)
    assert (o.gpus, o.epochs, o.lr, o.model, o.batch_size, o.mini_batch_size) == (2, 3, 1e-4, "org/model", 32, 16)
    assert o.gpu_memory_utilization == 0.4 and o.warmup_steps == 5
    assert o.out is None and o.data is None and origin["gpus"] == "env VERIFIERS_GPUS" and origin["lr"] == "env LR"
    # the prefixed name wins over a bare one
    o, origin = resolve({}, env={"LR": "1e-4", "VERIFIERS_LR": "3e-6"})
    assert o.lr == 3e-6 and origin["lr"] == "env VERIFIERS_LR"


def test_environment_values_are_announced_in_one_line_and_recorded(tmp_path: Path, tiny_model_dir: Path) -> None:
    env = {"LR": "1e-4", "VERIFIERS_TOP_K": "5", "GRAD_ACCUM": "4", "TEMPERATURE": "0.7"}
    p = plan(_base(tmp_path, tiny_model_dir, temperature="0.9"), env=env)
    line = p.env_line()
    assert line is not None and "\n" not in line
    assert "LR=1e-4 -> lr" in line and "VERIFIERS_TOP_K=5 -> top_k" in line and "GRAD_ACCUM=4 (ignored)" in line
    assert "not used (a flag or a prefixed name won): TEMPERATURE" in line  # the flag won
    assert any("GRAD_ACCUM is set but ignored" in w for w in p.warnings)
    p.save()
    saved = json.loads((p.run_dir / "run_config.json").read_text())
    assert saved["environment"] == env and saved["origin"]["lr"] == "env LR"
    assert environment({"PATH": "/bin", "OUT": "x"}) == {}
    # the preset and config file named in the environment are announced as used too
    p = plan(_base(tmp_path, tiny_model_dir, out=str(tmp_path / "p")), env={"VERIFIERS_PRESET": "tiny"})
    assert p.origin["preset"] == "env VERIFIERS_PRESET" and p.env_line() == (
        "from the environment: VERIFIERS_PRESET=tiny -> preset")


def test_the_dry_run_announces_environment_values(tmp_path: Path, tiny_model_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LR", "2e-5")
    monkeypatch.setenv("OUT", str(tmp_path / "not-this"))
    out = tmp_path / "dry"
    assert main(["run", "--task", "arith", "--model", str(tiny_model_dir), "--preset", "tiny", "--out", str(out),
                 "--dry-run", "--no-check-verl"]) == 0
    assert "from the environment: LR=2e-5 -> lr" in capsys.readouterr().out
    assert not (tmp_path / "not-this").exists()


def test_the_task_is_read_from_verifiers_task_and_from_its_old_name(tmp_path: Path, tiny_model_dir: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # the flag is --task, so its variable is VERIFIERS_TASK; VERIFIERS_DATASET (the field's name) still works
    o, origin = resolve({}, env={"VERIFIERS_TASK": "math"})
    assert o.dataset == "math" and origin["dataset"] == "env VERIFIERS_TASK"
    o, origin = resolve({}, env={"VERIFIERS_DATASET": "mbpp", "DATASET": "math"})
    assert o.dataset == "mbpp" and origin["dataset"] == "env VERIFIERS_DATASET"
    o, origin = resolve({}, env={"VERIFIERS_TASK": "math", "VERIFIERS_DATASET": "mbpp"})
    assert o.dataset == "math" and origin["dataset"] == "env VERIFIERS_TASK"  # the new name wins
    assert env_names("dataset") == ("VERIFIERS_TASK", "VERIFIERS_DATASET", "DATASET")
    assert environment({"VERIFIERS_TASK": "math", "VERIFIERS_DATASET": "mbpp"}) == {
        "VERIFIERS_TASK": "math", "VERIFIERS_DATASET": "mbpp"}
    monkeypatch.setenv("VERIFIERS_TASK", "math")
    out = tmp_path / "dry"
    assert main(["run", "--model", str(tiny_model_dir), "--preset", "tiny", "--out", str(out), "--dry-run",
                 "--no-check-verl"]) == 0
    assert "from the environment: VERIFIERS_TASK=math -> dataset" in capsys.readouterr().out
    saved = json.loads((out / "run_config.json").read_text())
    assert saved["options"]["dataset"] == "math" and saved["origin"]["dataset"] == "env VERIFIERS_TASK"
    assert saved["environment"] == {"VERIFIERS_TASK": "math"}
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "[VERIFIERS_TASK, VERIFIERS_DATASET, DATASET]" in " ".join(capsys.readouterr().out.split())


def test_user_facing_suggestions_name_the_task_flag(tmp_path: Path, tiny_model_dir: Path) -> None:
    with pytest.raises(DataError, match=r"verifiers-train prepare --task arith --out "):
        plan(_base(tmp_path, tiny_model_dir, data=str(tmp_path / "nodata")), env={})
    data = tmp_path / "data"
    prepare("arith", data, limit=5, echo=None)
    with pytest.raises(DataError, match=r"prepared for task 'arith', not 'gsm8k'; pass the matching --task "):
        plan(_base(tmp_path, tiny_model_dir, dataset="gsm8k", data=str(data)), env={})


# ------------------------------------------------------------------ trainer, Hydra output
@pytest.mark.parametrize(("trainer", "use_v1"), [(None, False), ("v0", False), ("v1", True)])
def test_trainer_choice_and_hydra_output_in_the_run_folder(tmp_path: Path, tiny_model_dir: Path, trainer: str | None,
                                                           use_v1: bool) -> None:
    values = _base(tmp_path, tiny_model_dir) | ({"trainer": trainer} if trainer else {})
    p = plan(values, env={})
    assert f"trainer.use_v1={str(use_v1).lower()}" in p.overrides
    assert f"hydra.run.dir={tmp_path / 'run' / 'hydra'}" in p.overrides
    assert compose(p.argv[3:]).trainer.use_v1 is use_v1
    with pytest.raises(ConfigError, match="unknown trainer 'v2'"):
        plan(_base(tmp_path, tiny_model_dir, trainer="v2"), env={})


# ------------------------------------------------------------------ pre-flight
def test_preflight_names_every_missing_piece(tmp_path: Path, tiny_model_dir: Path) -> None:
    p = plan(_base(tmp_path, tiny_model_dir, trainer="v1", gpus=2, batch_size=8, mini_batch_size=4), env={})
    with pytest.raises(ConfigError) as info:
        preflight(p, gpu_count=lambda: 0, find=lambda name: name == "verl")
    msg = str(info.value)
    assert "\n" not in msg and "vLLM is not importable" in msg and "needs transfer_queue" in msg
    assert "--gpus 2 but 0 GPU(s) visible" in msg
    preflight(p, gpu_count=lambda: 2, find=lambda name: True)  # everything there: passes
    v0 = plan(_base(tmp_path, tiny_model_dir), env={})
    preflight(v0, gpu_count=lambda: 1, find=lambda name: name != "transfer_queue")  # v0 does not need it


def test_preflight_names_an_unreachable_hub_model(tmp_path: Path, tiny_model_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    p = plan(_base(tmp_path, tiny_model_dir, model="Qwen/Qwen2.5-0.5B-Instruct"), env={})
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    with pytest.raises(ConfigError, match=r"model 'Qwen/Qwen2.5-0.5B-Instruct' comes from the Hugging Face hub, "
                                          r"which cannot be reached \(http://127.0.0.1:9"):
        preflight(p, gpu_count=lambda: 1, find=lambda name: True)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # offline mode: verl reads the cache; nothing to probe
    preflight(p, gpu_count=lambda: 1, find=lambda name: True)


def test_run_on_this_cpu_machine_stops_before_launching(tmp_path: Path, tiny_model_dir: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cpu"
    monkeypatch.setattr(run_module, "_cuda_devices", lambda: 0)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "vllm" else object())
    assert main(["run", "--task", "arith", "--model", str(tiny_model_dir), "--preset", "tiny", "--out",
                 str(out)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    # the reasons come first (nothing of the plan is printed), one per line, each with its fix
    assert captured.out == "" and lines[0] == ("verifiers-train run: error: cannot start verl here "
                                               "(--no-preflight skips this check):")
    assert len(lines) == 3 and lines[1].startswith("  - vLLM is not importable") and "pip install" in lines[1]
    assert lines[2].startswith("  - --gpus 1 but 0 GPU(s) visible")
    assert not out.exists()


def test_preflight_error_keeps_a_one_line_message_for_library_callers() -> None:
    e = PreflightError(["a is missing (install a)", "b is missing"])
    assert isinstance(e, ConfigError) and "\n" not in str(e)
    assert str(e) == "cannot start verl here (--no-preflight skips this check): a is missing (install a); b is missing"
    assert e.lines() == ["cannot start verl here (--no-preflight skips this check):", "  - a is missing (install a)",
                         "  - b is missing"]


# ------------------------------------------------------------------ the README's flow: dry run, then run
_ONE_STEP = "print('(TaskRunner pid=7) step:1 - critic/score/mean:0.5 - timing_s/step:0.05', flush=True)\n"


def test_a_dry_run_does_not_claim_its_folder(tmp_path: Path, tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    fake = tmp_path / "verl.py"
    fake.write_text(_ONE_STEP)
    monkeypatch.setattr(RunPlan, "argv", property(lambda self: [sys.executable, str(fake)]))
    out = tmp_path / "runs" / "grpo"
    common = ["run", "--preset", "grpo-baseline", "--task", "arith", "--model", str(tiny_model_dir), "--out", str(out)]
    assert main([*common, "--dry-run", "--no-check-verl"]) == 0
    assert not run_module.launched(out)
    # the README's next line: the same run for real, with --save-freq and --max-seconds added
    assert main([*common, "--save-freq", "50", "--max-seconds", "3000", "--no-preflight"]) == 0
    assert run_module.launched(out) and "holds a different run" not in capsys.readouterr().err
    assert json.loads((out / "run_config.json").read_text())["options"]["save_freq"] == 50
    # once launched, the folder is that run's: other settings are refused, the same settings resume
    assert main([*common, "--save-freq", "10", "--no-preflight"]) == 2
    assert "holds a different run" in capsys.readouterr().err
    assert main([*common, "--save-freq", "50", "--no-preflight"]) == 0


def test_a_launch_drops_the_verl_config_of_an_earlier_other_dry_run(tmp_path: Path, tiny_model_dir: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "verl.py"
    fake.write_text(_ONE_STEP)
    monkeypatch.setattr(RunPlan, "argv", property(lambda self: [sys.executable, str(fake)]))
    dry = plan(_base(tmp_path, tiny_model_dir), env={})
    dry.save()
    (dry.run_dir / "verl_config.yaml").write_text("a: 1\n")
    same = plan(_base(tmp_path, tiny_model_dir), env={})
    assert launch(same, echo=lambda _: None) == 0
    assert (same.run_dir / "verl_config.yaml").is_file()  # the same settings: it still describes the run
    other_dir = tmp_path / "other"
    dry = plan(_base(tmp_path, tiny_model_dir, out=str(other_dir)), env={})
    dry.save()
    (other_dir / "verl_config.yaml").write_text("a: 1\n")
    assert launch(plan(_base(tmp_path, tiny_model_dir, out=str(other_dir), lr=3e-6), env={}),
                  echo=lambda _: None) == 0
    assert not (other_dir / "verl_config.yaml").exists()


# ------------------------------------------------------------------ pause, stop, resume
_FOREVER = r"""
import signal, sys, time
step = 0
while True:
    print(f"(TaskRunner pid=7) step:{step} - critic/score/mean:0.5 - timing_s/step:0.05", flush=True)
    step += 1
    time.sleep(0.05)
"""


@pytest.mark.slow
def test_max_seconds_pauses_cleanly_and_the_same_plan_resumes(tmp_path: Path, tiny_model_dir: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "forever.py"
    fake.write_text(_FOREVER)
    monkeypatch.setattr(RunPlan, "argv", property(lambda self: [sys.executable, str(fake)]))
    p = plan(_base(tmp_path, tiny_model_dir, save_freq=2), env={})
    said: list[str] = []
    assert launch(p, echo=said.append, max_seconds=1.0) == 0
    assert any(m.startswith("paused after") and "resumes from step 0" in m for m in said), said
    assert "paused after 1 s (--max-seconds)" in (p.run_dir / "train.log").read_text()
    # a checkpoint as verl writes it: the next launch of the same plan says it resumes from there
    step = p.run_dir / "checkpoints" / "global_step_4" / "actor"
    (step / "huggingface").mkdir(parents=True)
    (step / "fsdp_config.json").write_text("{}")
    (step / "model_world_size_1_rank_0.pt").write_bytes(b"")
    (step / "huggingface" / "config.json").write_text("{}")
    (p.run_dir / "checkpoints" / "latest_checkpointed_iteration.txt").write_text("4")
    said.clear()
    assert launch(plan(_base(tmp_path, tiny_model_dir, save_freq=2), env={}), echo=said.append, max_seconds=0.5) == 0
    assert any("resuming from the checkpoint of step 4" in m for m in said)
    assert any("the same command resumes from the checkpoint of step 4" in m for m in said)


def test_a_verl_that_ignores_sigint_is_still_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    fake = tmp_path / "stubborn.py"
    fake.write_text("import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nprint('ready', flush=True)\n"
                    "time.sleep(60)\n")
    monkeypatch.setattr(run_module, "_STOP_GRACE", (0.5, 5.0))
    proc = subprocess.Popen([sys.executable, str(fake)], stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    start = time.monotonic()
    assert run_module._stop(proc) == -signal.SIGTERM
    assert time.monotonic() - start < 30


def test_ctrl_c_during_a_run_names_the_command_that_resumes(tmp_path: Path, tiny_model_dir: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(*_a: object, **_k: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(run_module, "launch", interrupted)
    argv = ["run", "--task", "arith", "--model", str(tiny_model_dir), "--out", str(tmp_path / "r"), "--no-preflight"]
    monkeypatch.setattr(sys, "argv", ["verifiers-train", *argv])
    assert main(argv) == 130
    err = capsys.readouterr().err.strip()
    assert err.startswith("verifiers-train run: interrupted; resume with: verifiers-train run --task arith")
    assert "Traceback" not in err


# ------------------------------------------------------------------ data sources vs scorers
def test_unknown_data_sources_are_refused_before_launch(tmp_path: Path, tiny_model_dir: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    prepare("arith", data, limit=20, data_source="my/renamed-set", echo=None)
    with pytest.raises(DataError, match=r"no scorer for data_source 'my/renamed-set' \(train.parquet and "
                                        r"test.parquet\); known: gsm8k, .*reward_kwargs.task="):
        plan(_base(tmp_path, tiny_model_dir, data=str(data)), env={})
    forced = ["+reward.custom_reward_function.reward_kwargs.task=gsm8k"]
    assert plan(_base(tmp_path, tiny_model_dir, data=str(data)), extra_overrides=forced, env={})
    assert main(["run", "--task", "arith", "--model", str(tiny_model_dir), "--data", str(data), "--out",
                 str(tmp_path / "r"), "--dry-run", "--no-check-verl"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "verifiers-train run: error:" in err and "my/renamed-set" in err


def test_the_reward_says_once_per_unknown_source_what_to_do(caplog: pytest.LogCaptureFixture,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reward_module, "_unknown_sources", set())
    with caplog.at_level(logging.ERROR, logger="verifiers_train.reward"):
        for _ in range(50):
            assert reward_module.compute_score("nope/set", "#### 4", "4")["error"] == 1.0
        reward_module.compute_score("other/set", "#### 4", "4")
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2 and "'nope/set'" in messages[0] and "'other/set'" in messages[1]
    assert "reward_kwargs.task=" in messages[0] and "scores 0 with error=1" in messages[0]
    # the documented way out: task= forces a scorer whatever the data_source
    assert reward_module.compute_score("nope/set", "#### 4", "4", task="gsm8k")["acc"] == 1.0


# ------------------------------------------------------------------ status (what the GPU scripts poll)
def test_status_reads_the_run_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    run.mkdir()
    rows = [{"step": 0, "val-core/arith/acc/mean@1": 0.184},
            *({"step": s, "critic/score/mean": 0.1 * s, "timing_s/step": 11.5} for s in range(1, 7)),
            {"step": 6, "val-core/arith/acc/mean@1": 0.21}]
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (run / "train.log").write_text("x\nRuntimeError: No CUDA GPUs are available\n")
    summary = run_summary(run, last=2)
    assert summary["validation"] == [[0, 0.184], [6, 0.21]] and summary["checkpoint_step"] is None
    assert [s["step"] for s in summary["steps"]] == [5, 6] and summary["steps"][-1]["step_s"] == 11.5
    assert len(summary["failures"]) == 1 and "no_gpu" in summary["failures"][0]
    assert main(["status", str(run)]) == 0
    out = capsys.readouterr().out
    assert "validation: 0:0.184 6:0.21" in out and "step 6  reward 0.6  step_s 11.5" in out
    assert main(["status", str(run), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["last_step"] == 6
    assert main(["status", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err == f"verifiers-train status: error: no such run folder: {tmp_path / 'nope'}\n"


@pytest.mark.slow
def test_run_json_keeps_stdout_for_one_object(tmp_path: Path, tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    fake = tmp_path / "forever.py"
    fake.write_text(_FOREVER)
    monkeypatch.setattr(RunPlan, "argv", property(lambda self: [sys.executable, str(fake)]))
    assert main(["run", "--task", "arith", "--model", str(tiny_model_dir), "--out", str(tmp_path / "r"),
                 "--batch-size", "8", "--mini-batch-size", "4", "--no-preflight", "--max-seconds", "1",
                 "--json"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)  # verl's lines and the progress went to stderr
    assert summary["exit_code"] == 0 and summary["last_step"] >= 1 and "step:0" in captured.err


@pytest.mark.slow
def test_real_ctrl_c_stops_verl_and_prints_the_resume_command(tmp_path: Path, tiny_model_dir: Path) -> None:
    import os
    import subprocess

    fake = tmp_path / "forever.py"
    fake.write_text(_FOREVER)
    wrapper = tmp_path / "cli.py"  # the CLI, with verl replaced by the endless fake (a process of its own)
    wrapper.write_text("import sys\nfrom verifiers_train.run import RunPlan\nfrom verifiers_train.cli import main\n"
                       f"RunPlan.argv = property(lambda self: [sys.executable, {str(fake)!r}])\n"
                       "sys.argv[0] = 'verifiers-train'\nsys.exit(main())\n")
    out = tmp_path / "r"
    argv = ["run", "--task", "arith", "--model", str(tiny_model_dir), "--out", str(out), "--batch-size", "8",
            "--mini-batch-size", "4", "--no-preflight"]
    proc = subprocess.Popen([sys.executable, str(wrapper), *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)})
    log = out / "train.log"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and "step:2" not in (
            log.read_text() if log.is_file() else ""):
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("verifiers-train run: interrupted; resume with: verifiers-train run "
                                                   "--task arith")
    assert "interrupted; stopping verl" in log.read_text()
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    assert str(fake) not in ps  # verl (here its stand-in) was stopped, not orphaned


def test_prepare_json_and_the_old_flag_names_still_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "data"
    assert main(["prepare", "--dataset", "arith", "-o", str(out), "--limit", "12", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rows"] == {"train": 12, "test": 12} and result["out"] == str(out.resolve())
    assert (out / "train.parquet").is_file()


def test_preflight_starts_the_sandbox_when_the_reward_runs_programs(tmp_path: Path, tiny_model_dir: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A code task (reference = tests) needs a working sandbox on the launching node; other tasks do not."""
    everything = {"gpu_count": lambda: 1, "find": lambda name: True}
    mbpp_run = plan(_base(tmp_path, tiny_model_dir, dataset="mbpp"), env={})
    forced = plan(_base(tmp_path, tiny_model_dir),
                  extra_overrides=["+reward.custom_reward_function.reward_kwargs.task=mbpp"], env={})
    arith_run = plan(_base(tmp_path, tiny_model_dir), env={})
    preflight(mbpp_run, **everything)  # the real sandbox starts on this machine (CI installs bubblewrap)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))  # no bwrap to be found
    for p in (mbpp_run, forced):
        with pytest.raises(ConfigError) as info:
            preflight(p, **everything)
        msg = str(info.value)
        assert "\n" not in msg and "task mbpp runs programs in the sandbox, which cannot start here" in msg
        assert "apt-get install bubblewrap" in msg and "--no-preflight" in msg
    preflight(arith_run, **everything)  # no programs run: no sandbox needed


# ------------------------------------------------------------------ missing local paths are "no such folder"
@pytest.mark.parametrize(("flags", "expected"), [
    (["--model", "./no/such/dir"], "no such folder: ./no/such/dir (--model)"),
    (["--model", "data/nosuch"], "no such folder: data/nosuch (--model)"),  # data/ exists here: a local path
    (["--data", "data/missing"], "no such folder: data/missing (--data); make it with `verifiers-train prepare"),
    (["--algo", "ppo", "--critic-model", "../no/critic"], "no such folder: ../no/critic (--critic-model"),
])
def test_a_missing_local_path_is_no_such_folder_not_the_hub(
        tmp_path: Path, tiny_model_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        flags: list[str], expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # the hub is never asked about a local path
    argv = ["run", "--task", "arith", "--model", str(tiny_model_dir), *flags, "--dry-run", "--no-check-verl"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"verifiers-train run: error: {expected}") and err.count("\n") == 1
    assert "Hugging Face" not in err


def test_prepare_says_no_such_folder_for_missing_local_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    for flags, expected in ((["--data", "data/missing"], "no such file or folder: data/missing (--data)"),
                            (["--test-data", "./t.jsonl"], "no such file or folder: ./t.jsonl (--test-data)"),
                            (["--tokenizer", "./no/tok"], "no such folder: ./no/tok (--tokenizer)")):
        assert main(["prepare", "--task", "gsm8k", "-o", "out", *flags]) == 2
        assert capsys.readouterr().err == f"verifiers-train prepare: error: {expected}\n"
    # an org/name with no such local org folder is still a hub name: the unreachable hub is named as such
    assert main(["prepare", "--task", "gsm8k", "-o", "out", "--data", "someorg/someset"]) == 2
    err = capsys.readouterr().err
    assert "'someorg/someset' is not a local path, so it comes from the Hugging Face hub" in err
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ a train set smaller than one batch
def test_a_train_set_smaller_than_one_batch_is_refused_before_launch(tmp_path: Path, tiny_model_dir: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    prepare("arith", data, limit=6, echo=None)
    import pyarrow.parquet as pq
    rows = pq.ParquetFile(data / "train.parquet").metadata.num_rows
    assert 0 < rows < 8
    with pytest.raises(ConfigError, match=rf"has {rows} rows, fewer than --batch-size 8: .*--batch-size {rows} or less"):
        plan(_base(tmp_path, tiny_model_dir, data=str(data)), env={})
    assert plan(_base(tmp_path, tiny_model_dir, data=str(data), batch_size=rows, mini_batch_size=1), env={})
    assert main(["run", "--task", "arith", "--model", str(tiny_model_dir), "--data", str(data), "--out",
                 str(tmp_path / "r"), "--batch-size", "8", "--mini-batch-size", "4", "--dry-run",
                 "--no-check-verl"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "verifiers-train run: error:" in err and "fewer than --batch-size 8" in err
