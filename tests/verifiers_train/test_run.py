"""`run`: option resolution, pre-flight checks, verl's own Hydra composition/validation, launch and run dir."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import verifiers_train.run as run_module
from verifiers.errors import ConfigError, DataError
from verifiers_train.cli import main
from verifiers_train.options import resolve
from verifiers_train.presets import PRESETS
from verifiers_train.run import RunPlan, hydra_value, launch, plan
from verifiers_train.verl_check import compose, verl_validate


def _base(tmp_path: Path, tiny_model: Path, **kw: object) -> dict:
    return {"algo": "grpo", "dataset": "arith", "model": str(tiny_model), "out": str(tmp_path / "run"),
            "batch_size": 8, "mini_batch_size": 4, **kw}


@pytest.mark.parametrize(("preset", "algo"), [(p, None) for p in PRESETS if p != "tiny"]
                         + [("tiny", "grpo"), ("tiny", "ppo")])
def test_every_preset_passes_verls_composition_and_validation(tmp_path: Path, tiny_model_dir: Path,
                                                              preset: str, algo: str | None) -> None:
    values = {"preset": preset, "dataset": "gsm8k", "model": str(tiny_model_dir), "out": str(tmp_path / "r")}
    if algo:
        values["algo"] = algo
    p = plan(values, env={})
    config = verl_validate(p.overrides)
    o = p.options
    assert config.algorithm.adv_estimator == ("grpo" if o.algo == "grpo" else "gae")
    assert config.data.train_batch_size == o.batch_size
    assert config.actor_rollout_ref.rollout.n == o.algo_default("rollouts")
    assert config.actor_rollout_ref.rollout.tensor_model_parallel_size == o.tp
    assert config.reward.custom_reward_function.path == "pkg://verifiers_train.reward"
    assert config.trainer.n_gpus_per_node == o.gpus
    if o.algo == "ppo":
        assert config.critic.model.path == str(tiny_model_dir)
        assert config.critic.optim.lr == o.critic_lr


@pytest.mark.slow
def test_seed_values_of_the_presets(tmp_path: Path, tiny_model_dir: Path) -> None:
    ppo = compose(plan({"preset": "ppo-0.5b", "model": str(tiny_model_dir), "out": str(tmp_path / "a")},
                       env={}).overrides)
    assert (ppo.data.train_batch_size, ppo.actor_rollout_ref.actor.ppo_mini_batch_size) == (128, 64)
    assert (ppo.data.max_prompt_length, ppo.data.max_response_length) == (512, 256)
    assert ppo.actor_rollout_ref.actor.optim.lr == 1e-6 and ppo.critic.optim.lr == 1e-5
    assert ppo.actor_rollout_ref.rollout.gpu_memory_utilization == 0.4 and ppo.trainer.total_epochs == 20
    grpo = compose(plan({"preset": "grpo-baseline", "model": str(tiny_model_dir), "out": str(tmp_path / "b")},
                        env={}).overrides)
    actor = grpo.actor_rollout_ref.actor
    assert grpo.actor_rollout_ref.rollout.n == 16 and actor.loss_agg_mode == "token-mean"
    assert (actor.clip_ratio_low, actor.clip_ratio_high) == (0.2, 0.28)
    minimal = compose(plan({"preset": "ppo-7b-minimal", "model": str(tiny_model_dir), "out": str(tmp_path / "c")},
                           env={}).overrides)
    assert minimal.actor_rollout_ref.actor.fsdp_config.param_offload and minimal.critic.fsdp.optimizer_offload
    assert minimal.actor_rollout_ref.rollout.n == 2 and minimal.actor_rollout_ref.actor.ppo_max_token_len_per_gpu == 8192
    rec = compose(plan({"preset": "ppo-7b-recommended", "model": str(tiny_model_dir), "out": str(tmp_path / "d")},
                       env={}).overrides)
    assert rec.actor_rollout_ref.rollout.tensor_model_parallel_size == 2 and rec.actor_rollout_ref.rollout.n == 5
    assert rec.actor_rollout_ref.actor.ppo_max_token_len_per_gpu == 12000


def test_a_step_count_is_not_cut_short_by_the_epoch_count(tmp_path: Path, tiny_model_dir: Path) -> None:
    # verl leaves its loop after total_epochs even when total_training_steps is not reached yet
    cfg = compose(plan(_base(tmp_path, tiny_model_dir, epochs=1, total_steps=60), env={}).overrides)
    assert cfg.trainer.total_training_steps == 60 and cfg.trainer.total_epochs >= 60
    cfg = compose(plan(_base(tmp_path, tiny_model_dir, epochs=3, out=str(tmp_path / "b")), env={}).overrides)
    assert cfg.trainer.total_epochs == 3 and cfg.trainer.total_training_steps is None


def test_precedence_default_preset_env_flag() -> None:
    o, origin = resolve({"lr": "3e-6"}, env={"BATCH_SIZE": "32", "LR": "1e-4", "ROLLOUTS": "4"},
                        preset="grpo-baseline")
    assert o.batch_size == 32 and origin["batch_size"] == "env BATCH_SIZE"
    assert o.lr == 3e-6 and origin["lr"] == "flag"
    assert o.rollouts == 4 and o.clip_high == 0.28 and origin["clip_high"] == "preset grpo-baseline"
    assert origin["temperature"] == "default"


def test_one_name_per_option_flag_keyword_env(tmp_path: Path, tiny_model_dir: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOP_P", "0.9")
    monkeypatch.setenv("CLIP_HIGH", "0.28")
    rc = main(["run", "--algo", "grpo", "--dataset", "arith", "--model", str(tiny_model_dir),
               "--out", str(tmp_path / "r"), "--batch-size", "8", "--mini-batch-size", "4", "--top-k", "20",
               "--no-remove-padding", "--dry-run", "--no-check-verl"])
    assert rc == 0
    cfg = json.loads((tmp_path / "r" / "run_config.json").read_text())
    assert cfg["options"]["top_p"] == 0.9 and cfg["origin"]["top_p"] == "env TOP_P"
    assert cfg["options"]["top_k"] == 20 and cfg["origin"]["top_k"] == "flag"
    assert "actor_rollout_ref.actor.clip_ratio_high=0.28" in cfg["overrides"]
    assert "actor_rollout_ref.model.use_remove_padding=false" in cfg["overrides"]


def test_cli_dry_run_prints_saves_and_checks_with_verl(tmp_path: Path, tiny_model_dir: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    rc = main(["run", "--preset", "tiny", "--algo", "ppo", "--dataset", "arith", "--model", str(tiny_model_dir),
               "--out", str(out), "--dry-run", "--", "trainer.total_training_steps=3"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "python3 -m verl.trainer.main_ppo" in printed and "verl accepted the config" in printed
    command = (out / "command.sh").read_text()
    assert "critic.model.path=" in command and command.rstrip().endswith("trainer.total_training_steps=3")
    assert "VERL_FILE_LOGGER_PATH=" in command
    assert "total_training_steps: 3" in (out / "verl_config.yaml").read_text()  # extra override won
    assert json.loads((out / "run_config.json").read_text())["needs_prepare"] is True
    assert not (out / "data").exists()  # a dry run prepares nothing


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_refused_run_writes_nothing_into_a_folder_holding_another_run(
        tmp_path: Path, tiny_model_dir: Path, capsys: pytest.CaptureFixture[str], dry_run: bool) -> None:
    out = tmp_path / "r"
    assert main(["run", "--preset", "grpo-baseline", "--task", "arith", "--model", str(tiny_model_dir),
                 "--out", str(out), "--dry-run"]) == 0
    (out / "train.log").write_text("step:1\n")  # that run was launched: the folder is its
    before = {f.name: f.read_bytes() for f in out.iterdir() if f.is_file()}
    assert "verl_config.yaml" in before
    capsys.readouterr()
    # another run into the same folder, checked by verl first (a dry run, or a launch with --check-verl)
    second = ["run", "--preset", "ppo-0.5b", "--task", "arith", "--model", str(tiny_model_dir), "--out", str(out),
              "--dry-run" if dry_run else "--check-verl", "--no-preflight"]
    assert main(second) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("verifiers-train run: error: ")
    assert "holds a different run" in lines[0] and "saved" not in captured.out + captured.err
    assert {f.name: f.read_bytes() for f in out.iterdir() if f.is_file()} == before


def test_extra_override_verl_does_not_know_is_rejected(tmp_path: Path, tiny_model_dir: Path) -> None:
    with pytest.raises(ConfigError, match="no config key 'trainer.no_such_key'"):
        plan(_base(tmp_path, tiny_model_dir), extra_overrides=["trainer.no_such_key=1"], env={})
    # verl's own composition rejects it too (what a hand-written command would meet)
    p = plan(_base(tmp_path, tiny_model_dir), env={})
    with pytest.raises(ConfigError, match="no_such_key"):
        verl_validate([*p.argv[3:], "trainer.no_such_key=1"])


@pytest.mark.parametrize(("override", "match"), [
    ("trainer.total_training_step=5", r"did you mean trainer\.total_training_steps=5\?"),
    ("actor_rollout_ref.actor.optim.lrr=1e-5", r"did you mean actor_rollout_ref\.actor\.optim\.lr=1e-5\?"),
    # a leading + must not silently add a typo next to the real key
    ("+trainer.total_training_step=5", r"next to the existing 'trainer\.total_training_steps': a typo\?.*\+\+"),
    ("+trainer.total_training_steps=5", "already exists in verl's config; drop the leading +"),
])
def test_a_bad_hydra_key_gets_the_closest_real_key(tmp_path: Path, tiny_model_dir: Path, override: str,
                                                   match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        plan(_base(tmp_path, tiny_model_dir), extra_overrides=[override], env={})


def test_new_keys_that_are_no_typo_pass(tmp_path: Path, tiny_model_dir: Path) -> None:
    extra = ["+reward.custom_reward_function.reward_kwargs.timing_log=/tmp/t.tsv",  # gpu_e2e's overhead stage
             "++trainer.total_training_step=5", "trainer.total_training_steps=5", "hydra.job.chdir=false"]
    assert plan(_base(tmp_path, tiny_model_dir), extra_overrides=extra, env={}).extra_overrides == extra


def test_paths_with_spaces_survive_hydra(tmp_path: Path, tiny_model_dir: Path) -> None:
    data = tmp_path / "my data"
    p = plan(_base(tmp_path, tiny_model_dir, data=None, out=str(tmp_path / "run dir")), env={})
    assert hydra_value(str(data)).startswith("'")
    assert compose(p.overrides).trainer.default_local_dir == str(tmp_path / "run dir" / "checkpoints")


@pytest.mark.parametrize(("change", "error", "match"), [
    ({"dataset": "gsm9k"}, DataError, "unknown dataset 'gsm9k'"),
    ({"model": "/nonexistent/model"}, DataError, r"^no such folder: /nonexistent/model \(--model\)$"),
    ({"data": "/nonexistent/data"}, DataError, r"^no such folder: /nonexistent/data \(--data\); make it with"),
    ({"mini_batch_size": 16}, ConfigError, "mini_batch_size 16 > batch_size 8"),
    ({"gpus": 3}, ConfigError, "cannot be split evenly over 3 GPUs"),
    ({"rollouts": 2, "micro_batch_size": 3}, ConfigError, "not a multiple of micro_batch_size 3"),
    ({"log_prob_micro_batch_size": 5}, ConfigError, "log_prob_micro_batch_size 5"),
    ({"tp": 2}, ConfigError, "tensor parallel size 2 needs at least 2 GPUs per node"),
    ({"gpus": 4, "tp": 3}, ConfigError, "replicas of tensor parallel size 3"),
    ({"rollouts": 1}, ConfigError, "grpo needs rollouts >= 2"),
    ({"algo": "ppo", "critic_model": "/nonexistent/critic"}, DataError,
     r"^no such folder: /nonexistent/critic \(--critic-model; ppo needs a value model\)$"),
    ({"algo": "dpo"}, ConfigError, "unknown algo 'dpo'"),
    ({"preset": "huge"}, ConfigError, "unknown preset 'huge'"),
    ({"batch_size": "eight"}, ConfigError, "batch_size .* expects int"),
    ({"logger": "console,wandbb"}, ConfigError, "unknown logger"),
    ({"reward_preset": "bok"}, ConfigError, "unknown preset 'bok'"),
])
def test_bad_input_gets_one_clear_error(tmp_path: Path, tiny_model_dir: Path, change: dict, error: type,
                                        match: str) -> None:
    with pytest.raises(error, match=match):
        plan({**_base(tmp_path, tiny_model_dir), **change}, env={})


def test_cli_bad_input_is_one_line_exit_2(tmp_path: Path, tiny_model_dir: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["run", "--dataset", "arith", "--model", str(tiny_model_dir), "--gpus", "1", "--tp", "4",
               "--out", str(tmp_path), "--dry-run"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "tensor parallel size 4" in err[0]


def test_verl_itself_agrees_our_impossible_batch_is_impossible(tmp_path: Path, tiny_model_dir: Path) -> None:
    """Our check fires where verl's own validate_config would (batch x n not divisible by GPUs)."""
    ok = plan(_base(tmp_path, tiny_model_dir, gpus=2), env={})
    bad = [o.replace("data.train_batch_size=8", "data.train_batch_size=7") for o in ok.overrides]
    with pytest.raises(ConfigError, match="divisible"):
        verl_validate(bad + ["actor_rollout_ref.actor.ppo_mini_batch_size=7", "actor_rollout_ref.rollout.n=1"])


@pytest.mark.mutex("ray")  # under -n N: a cluster another test starts would change the warning
def test_multi_node_without_ray_cluster_warns(tmp_path: Path, tiny_model_dir: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    p = plan(_base(tmp_path, tiny_model_dir, nodes=2), env={})
    assert "trainer.nnodes=2" in p.overrides
    if not Path("/tmp/ray/ray_current_cluster").exists():
        assert any("ray start --head" in w for w in p.warnings)


_FAKE_VERL = r"""
import json, os, sys
print("ray init kwargs: {}", flush=True)
log = open(os.environ["VERL_FILE_LOGGER_PATH"], "w")  # like verl's file logger: truncates on every launch
for step in (0, 1, 2):
    print(f"(TaskRunner pid=7) step:{step} - critic/score/mean:{0.1 * step} - actor/entropy:np.float64(1.5)"
          f" - response_length/mean:{30 + step}", flush=True)
    log.write(json.dumps({"step": step, "data": {"critic/score/mean": 0.1 * step}}) + "\n")
print("(TaskRunner pid=7) some other log line", flush=True)
sys.exit(3 if "--fail" in sys.argv else 0)
"""


@pytest.mark.slow
def test_launch_prepares_data_keeps_log_command_and_metrics(tmp_path: Path, tiny_model_dir: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "fake_verl.py"
    fake.write_text(_FAKE_VERL)
    monkeypatch.setattr(RunPlan, "argv", property(lambda self: [sys.executable, str(fake)]))
    p = plan(_base(tmp_path, tiny_model_dir, max_prompt_length=200), env={})
    assert p.needs_prepare
    assert launch(p, echo=lambda _m: None) == 0
    run = tmp_path / "run"
    assert (run / "data" / "train.parquet").is_file() and (run / "data" / "test.parquet").is_file()
    assert "step:2" in (run / "train.log").read_text()
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [0, 1, 2]
    assert rows[2]["critic/score/mean"] == pytest.approx(0.2) and rows[2]["actor/entropy"] == 1.5
    assert (run / "command.sh").is_file() and (run / "run_config.json").is_file()
    assert (run / "report" / "report.html").is_file()  # the report is written when verl exits
    # Same settings: resumes into the same folder. Different settings: refused, nothing lost.
    assert launch(plan(_base(tmp_path, tiny_model_dir, max_prompt_length=200), env={}), echo=lambda _m: None) == 0
    with pytest.raises(ConfigError, match="different settings"):
        launch(plan(_base(tmp_path, tiny_model_dir, max_prompt_length=200, lr=1e-3), env={}), echo=lambda _m: None)
    assert len((run / "metrics.jsonl").read_text().splitlines()) == 6
    # the second launch's verl file logger did not wipe the first launch's rows
    assert (run / "verl_metrics.1.jsonl").is_file() and (run / "verl_metrics.jsonl").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("unpatched", [True, False])
def test_launch_warns_when_verl_computes_logprobs_per_token(tmp_path: Path, tiny_model_dir: Path,
                                                            monkeypatch: pytest.MonkeyPatch, unpatched: bool) -> None:
    fake = tmp_path / "fake_verl.py"
    fake.write_text(_FAKE_VERL)
    monkeypatch.setattr(RunPlan, "argv", property(lambda self: [sys.executable, str(fake)]))
    monkeypatch.setattr(run_module, "needs_patch", lambda: unpatched)
    said: list[str] = []
    assert launch(plan(_base(tmp_path, tiny_model_dir, max_prompt_length=200), env={}), echo=said.append) == 0
    assert any("verifiers-train patch-verl" in m for m in said) is unpatched


def test_run_config_file_holds_a_run_and_flags_override_it(tmp_path: Path, tiny_model_dir: Path) -> None:
    first = plan(_base(tmp_path, tiny_model_dir, lr=3e-6), env={})
    first.save()
    again = plan({"config": str(first.run_dir / "run_config.json")}, env={})
    assert again.overrides == first.overrides  # a saved run re-plans to the exact same command
    (tmp_path / "run.yaml").write_text(f"preset: tiny\nmodel: {tiny_model_dir}\ndataset: arith\nlr: 2.0e-5\n"
                                       f"out: {tmp_path / 'y'}\n")
    o, origin = resolve({"config": str(tmp_path / "run.yaml"), "lr": "1e-4"}, env={"ROLLOUTS": "8"})
    assert o.batch_size == 16 and origin["batch_size"] == "preset tiny"
    assert o.dataset == "arith" and origin["dataset"].startswith("file ")
    assert o.rollouts == 8 and origin["rollouts"] == "env ROLLOUTS" and o.lr == 1e-4
    (tmp_path / "bad.json").write_text('{"batch_sise": 3}')
    with pytest.raises(ConfigError, match="unknown run options"):
        resolve({"config": str(tmp_path / "bad.json")}, env={})
    with pytest.raises(ConfigError, match="no such run config file"):
        resolve({"config": str(tmp_path / "missing.json")}, env={})


def test_task_plugin_modules_reach_the_ray_workers(tiny_model_dir: Path, tmp_path: Path) -> None:
    values = {"model": str(tiny_model_dir), "dataset": "gsm8k", "out": str(tmp_path / "run")}
    overrides = plan(values, env={"VERIFIERS_TASKS": "my_tasks"}).overrides
    assert "+ray_kwargs.ray_init.runtime_env.env_vars.VERIFIERS_TASKS=my_tasks" in overrides
    assert not any("VERIFIERS_TASKS" in o for o in plan(values, env={}).overrides)


def _readme_commands(*sections: str) -> list[list[str]]:
    """The shell commands of README's code blocks in ``sections`` (continuations joined, comments dropped)."""
    import re
    import shlex

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    commands = []
    for part in re.split(r"\n(?=## )", readme):
        if not part.startswith(tuple(f"## {s}" for s in sections)):
            continue
        for block in re.findall(r"```bash\n(.*?)```", part, flags=re.DOTALL):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.strip().removeprefix("# ")  # commented commands are documented too
                if line.startswith(("verifiers-train ", "verifiers-eval ")):
                    commands.append(shlex.split(line, comments=True))
    return commands


def test_readme_training_flow_uses_one_run_folder_per_run() -> None:
    commands = _readme_commands("Quick start", "Training with verl")
    runs = [c for c in commands if c[:2] == ["verifiers-train", "run"]]
    assert len(runs) >= 3
    outs = set()
    for c in runs:  # every documented run names its folder, so the later commands can name it too
        assert "--out" in c, c
        outs.add(c[c.index("--out") + 1])
    used = [c[2] for c in commands if c[:2] in (["verifiers-train", "status"], ["verifiers-train", "report"],
                                                 ["verifiers-train", "merge"], ["verifiers-eval", "checkpoint"])]
    assert used and all(u in outs for u in used if u.startswith("runs/")), (used, outs)


def test_data_folder_without_the_parquet_files_names_what_is_missing(tmp_path: Path, tiny_model_dir: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match=r"lacks train.parquet, test.parquet; make it with `verifiers-train prepare"):
        plan(_base(tmp_path, tiny_model_dir, data=str(tmp_path / "empty")), env={})
