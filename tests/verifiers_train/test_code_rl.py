"""Code RL end to end on a CPU, for every registered code task (HumanEval, MBPP, and any code task registered
later): ``prepare`` -> ``run --dry-run`` (verl's own composition and validation) -> our reward inside verl's
reward worker with hostile programs in the rollouts -> ``merge`` of a real FSDP checkpoint -> ``verifiers-eval
checkpoint``. verl's rollout needs vLLM and a GPU, so the training steps themselves run in
``evals/gpu/code_rl.sh``; everything around them runs here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import pytest

from verifiers import tasks
from verifiers.errors import ConfigError, DataError
from verifiers_train.cli import main
from verifiers_train.prepare import prepare, rl_splits, split_slice, splits_text

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CODE_TASKS = [n for n in tasks.names() if tasks.get(n).ability == "code"]
Unavailable = Callable[[str, str], NoReturn]


def _marker_files() -> set[Path]:
    import hostile_code  # evals/gpu is on sys.path: the same families the GPU script injects

    return {p for d in (Path("/tmp"), Path.home(), Path.cwd()) for p in d.glob(f"{hostile_code.MARKER}*")}


@pytest.fixture(autouse=True, scope="module")
def _hostile_module() -> Iterator[None]:
    sys.path.insert(0, str(ROOT / "evals" / "gpu"))
    yield
    sys.path.remove(str(ROOT / "evals" / "gpu"))


# ---------------------------------------------------------------- splits for a task without a train split
@pytest.mark.parametrize(("text", "size", "split", "rows"), [
    ("test", 10, "test", range(10)),
    ("test[:80%]", 164, "test", range(131)),          # round(131.2)
    ("test[80%:]", 164, "test", range(131, 164)),     # the complement: no problem in both
    ("train[10:20]", 50, "train", range(10, 20)),
    ("test[:100%]", 7, "test", range(7)),
    ("test[5:]", 3, "test", range(3, 3)),             # past the end: empty, as a list slice
])
def test_split_slices_as_datasets_writes_them(text: str, size: int, split: str, rows: range) -> None:
    name, cut = split_slice(text)
    assert name == split
    assert (list(range(size))[cut(size)] if cut else list(range(size))) == list(rows)


@pytest.mark.parametrize("text", ["test[", "test[:80%", "[:5]", "test[a:b]", "test[:150%]", "test[1:2:3]", ""])
def test_bad_split_slices_are_one_clear_error(text: str) -> None:
    with pytest.raises(ConfigError, match="source split"):
        split_slice(text)


def test_a_task_without_a_train_split_is_cut_80_20_for_rl() -> None:
    assert rl_splits("gsm8k") == {"train": "train", "test": "test"}
    assert rl_splits("humaneval") == {"train": "test[:80%]", "test": "test[80%:]"}
    assert splits_text(rl_splits("humaneval")) == "train=test[:80%],test=test[80%:]"
    with pytest.raises(DataError, match="unknown dataset"):
        rl_splits("no-such-task")


def test_prepare_writes_disjoint_sliced_splits(tmp_path: Path, data_dir: Path) -> None:
    r = prepare("humaneval", tmp_path / "he", splits=rl_splits("humaneval"), max_prompt_length=4096, echo=None)
    import pyarrow.parquet as pq

    ids = {s: [row["id"] for row in pq.read_table(f).column("extra_info").to_pylist()] for s, f in r.files.items()}
    assert len(ids["train"]) + len(ids["test"]) == 164 and not set(ids["train"]) & set(ids["test"])
    assert r.overlap == 0 and r.meta["splits"] == {"train": "test[:80%]", "test": "test[80%:]"}
    limited = prepare("humaneval", tmp_path / "lim", splits={"test": "test[100:]"}, limit=5, echo=None)
    assert limited.rows == {"test": 5}
    with pytest.raises(DataError, match="has no problems"):
        prepare("humaneval", tmp_path / "none", splits={"test": "test[200:]"}, echo=None)


def test_run_names_the_prepare_command_that_makes_a_train_split(tmp_path: Path, tiny_model_dir: Path,
                                                                 data_dir: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    prepare("humaneval", tmp_path / "he", max_prompt_length=4096, echo=None)  # the task's own splits: test only
    assert main(["run", "--task", "humaneval", "--data", str(tmp_path / "he"), "--model", str(tiny_model_dir),
                 "--out", str(tmp_path / "run"), "--dry-run", "--no-check-verl"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "lacks train.parquet" in err[0]
    assert "--splits 'train=test[:80%],test=test[80%:]'" in err[0]


# ---------------------------------------------------------------- the flow, per code task
SMALL_BATCH = {"code_stdio": ["--batch-size", "8", "--mini-batch-size", "8"]}  # the README's: 11 train rows
@pytest.fixture(scope="module", params=CODE_TASKS)
def prepared(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, data_dir: Path,
             tiny_model_dir: Path) -> tuple[str, Path]:
    """``verifiers-train prepare`` as the README types it for the task (its train split, or the 80/20 cut)."""
    task = request.param
    out = tmp_path_factory.mktemp(f"data-{task}")
    assert main(["prepare", "--task", task, "--out", str(out), "--splits", splits_text(rl_splits(task)),
                 "--tokenizer", str(tiny_model_dir), "--max-prompt-length", "1024", "--limit", "40"]) == 0
    return task, out


def test_verls_dataset_reads_the_code_task_parquet(prepared: tuple[str, Path], tiny_model_dir: Path,
                                                   tmp_path: Path) -> None:
    """verl's RLHFDataset, with the data config the run composes, keeps every prepared row, and the ground truth it
    hands the reward decodes to the task's tests."""
    import pyarrow.parquet as pq
    from transformers import AutoTokenizer
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from verifiers_train.run import plan
    from verifiers_train.verl_check import compose

    task, data = prepared
    p = plan({"algo": "grpo", "dataset": task, "model": str(tiny_model_dir), "data": str(data),
              "out": str(tmp_path / "run"), "max_prompt_length": 1024, "batch_size": 8, "mini_batch_size": 4}, env={})
    config = compose(p.overrides + [f"+data.cache_dir={tmp_path / 'cache'}"])
    for split in ("train", "test"):
        ds = RLHFDataset(data_files=[str(data / f"{split}.parquet")], tokenizer=AutoTokenizer.from_pretrained(
            tiny_model_dir), config=config.data)
        assert len(ds) == pq.read_metadata(data / f"{split}.parquet").num_rows > 0
    item = ds[0]
    assert item["data_source"] == tasks.get(task).data_sources[0]
    reference = tasks.get(task).reference.decode(item["reward_model"]["ground_truth"],
                                                 item["extra_info"]["setup_code"])
    assert getattr(reference, "tests", reference)  # what the sandbox will run


@pytest.mark.slow
def test_hostile_rollouts_score_zero_in_verls_reward_worker(prepared: tuple[str, Path], tiny_model_dir: Path,
                                                            tmp_path: Path, unavailable: Unavailable) -> None:
    """Every hostile family scores 0 (run in the sandbox, not dropped as no_answer), the reference solution 1,
    in verl's RewardLoopManager with two reward-worker actors under Ray (fresh processes, a pool each) and again
    from 16 threads at once; nothing hangs, nothing is written on the host, and verl's validation metrics carry
    the code task's reward parts and status flags."""
    import importlib.util

    from verifiers.sandbox import check

    if importlib.util.find_spec("ray") is None:
        unavailable("ray", "ray is not installed (verl's reward workers are Ray actors)")
    if reason := check():
        unavailable("bwrap", f"bubblewrap sandbox unavailable: {reason}")
    task, data = prepared
    before = _marker_files()
    out = tmp_path / "worker.json"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": os.pathsep.join(filter(None, (
        str(ROOT / "src"), os.environ.get("PYTHONPATH"))))}
    proc = subprocess.run([sys.executable, str(HERE / "code_rl_worker.py"), str(tiny_model_dir), str(data),
                           str(tmp_path / "run"), task, str(out), "1"], check=False, env=env, capture_output=True,
                          text=True,
                          timeout=900)  # a hang, not a speed: under MAX_LOAD_SCALE every backstop fits many times
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    samples = result["samples"]
    honest = [s for s in samples if s["family"] is None]
    hostile = [s for s in samples if s["family"] is not None]
    assert honest and len(hostile) >= 14 and all(s["decoded_ok"] for s in samples)
    assert len(result["worker_pids"]) == 2 and result["driver_pid"] not in result["worker_pids"]
    for s in honest:
        assert s["reward"] == 1.0 and s["info"]["acc"] == 1.0 and s["threaded"]["acc"] == 1.0, s
    for s in hostile:
        assert s["reward"] == 0.0 and s["info"]["acc"] == 0.0, s
        assert s["threaded"]["score"] == 0.0 and s["threaded"]["acc"] == 0.0, s
        assert s["info"]["no_answer"] == 0.0 and s["info"]["error"] == 0.0, s  # it ran, and the sandbox held
    assert any(s["info"]["timeout"] == 1.0 for s in hostile)
    assert all(list(s["info"]) == list(samples[0]["info"]) for s in samples)  # one key set per batch
    source = tasks.get(task).data_sources[0]
    metrics = result["metrics"]
    assert metrics[f"val-core/{source}/acc/mean@1"] == pytest.approx(len(honest) / len(samples))
    for key in ("score", "timeout", "error", "no_answer"):
        assert f"val-aux/{source}/{key}/mean@1" in metrics
    parts = [k for k in result["keys"] if k.startswith("part_")]
    assert parts and all(f"val-aux/{source}/{p}/mean@1" in metrics for p in parts)  # e.g. pass fraction
    assert _marker_files() == before


@pytest.mark.slow
def test_prepare_dry_run_merge_checkpoint(prepared: tuple[str, Path], tiny_model_dir: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str], unavailable: Unavailable) -> None:
    """The README's code RL commands, with a real verl FSDP checkpoint in the run folder in place of the
    GPU training steps."""
    task, data = prepared
    run = tmp_path / "runs" / task
    assert main(["run", "--algo", "grpo", "--task", task, "--data", str(data), "--model", str(tiny_model_dir),
                 "--preset", "tiny", "--out", str(run), "--max-prompt-length", "1024", "--max-response-length", "256",
                 *SMALL_BATCH.get(task, []), "--dry-run", "--", "+reward.custom_reward_function.reward_kwargs.timeout=5"]) == 0
    said = capsys.readouterr().out
    assert "verl accepted the config" in said
    command = (run / "command.sh").read_text()
    assert "reward.custom_reward_function.path=pkg://verifiers_train.reward" in command
    assert "+reward.custom_reward_function.reward_kwargs.timeout=5" in command
    config = (run / "verl_config.yaml").read_text()
    assert str(data / "train.parquet") in config and str(data / "test.parquet") in config

    actor = run / "checkpoints" / "global_step_2" / "actor"
    subprocess.run([sys.executable, str(HERE / "fsdp_checkpoint.py"), str(tiny_model_dir), str(actor), "2"],
                   check=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}, capture_output=True, timeout=300)
    (run / "checkpoints" / "latest_checkpointed_iteration.txt").write_text("2")
    hf = tmp_path / "models" / task
    assert main(["merge", str(run), "--out", str(hf)]) == 0
    capsys.readouterr()

    from verifiers.sandbox import check
    from verifiers_train.evaluation.cli import main as eval_main

    if reason := check():
        unavailable("bwrap", f"bubblewrap sandbox unavailable: {reason}")
    out = tmp_path / "eval"
    assert eval_main(["checkpoint", str(hf), "--task", task, "--backend", "hf", "--limit", "2", "--max-tokens", "24",
                      "--out", str(out), "--json", "--quiet"]) == 0
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["problems"] == 2 and sum(metrics["status_counts"].values()) == metrics["samples"] == 2


# ---------------------------------------------------------------- the GPU script's reward and summary
@pytest.mark.slow
def test_the_gpu_scripts_injecting_reward_runs_in_verls_worker(tmp_path: Path, tiny_model_dir: Path, data_dir: Path,
                                                               unavailable: Unavailable) -> None:
    """`evals/gpu/code_rl.sh`'s reward overrides, composed by our launcher and loaded by verl's RewardLoopWorker
    from the file path: every response replaced (share 1) scores 0 and is logged with its family; the summary
    tabulates the families and fails the run that logged no verl step."""
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker

    from verifiers.sandbox import check
    from verifiers_train.run import plan
    from verifiers_train.verl_check import compose

    if reason := check():
        unavailable("bwrap", f"bubblewrap sandbox unavailable: {reason}")
    sys.path.insert(0, str(HERE))
    import code_rl_worker

    sys.path.remove(str(HERE))
    data = tmp_path / "data"
    prepare("humaneval", data, splits=rl_splits("humaneval"), max_prompt_length=4096, limit=3, echo=None)
    run, log = tmp_path / "run", tmp_path / "run" / "reward_samples.jsonl"
    overrides = [f"reward.custom_reward_function.path={ROOT / 'evals' / 'gpu' / 'hostile_code.py'}",
                 "reward.custom_reward_function.name=injected", "+reward.custom_reward_function.reward_kwargs.share=1.0",
                 f"+reward.custom_reward_function.reward_kwargs.sample_log={log}",
                 "+reward.custom_reward_function.reward_kwargs.timeout=1"]
    p = plan({"algo": "grpo", "dataset": "humaneval", "model": str(tiny_model_dir), "data": str(data), "out": str(run),
              "batch_size": 2, "mini_batch_size": 2}, extra_overrides=overrides, env={})
    worker = RewardLoopWorker(compose(p.argv[3:]))
    import pyarrow.parquet as pq

    rows = pq.read_table(data / "test.parquet").to_pylist()
    samples = [{"row": r, "response": f"```python\ndef f{i}():\n    return {i}\n```"} for i, r in enumerate(rows)]
    outputs = worker.loop.run_until_complete(worker.compute_score_batch(code_rl_worker.batch(worker.input_tokenizer,
                                                                                             samples)))
    assert [o["reward_score"] for o in outputs] == [0.0] * len(rows)
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(logged) == len(rows) and all(r["family"] and r["no_answer"] == 0.0 for r in logged)
    summary = subprocess.run([sys.executable, str(ROOT / "evals" / "gpu" / "code_rl_summary.py"), str(run), "--task",
                              "humaneval", "--json", str(tmp_path / "s.json")], capture_output=True, text=True,
                             check=False, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, timeout=120)
    assert summary.returncode == 1 and "verl logged no training step" in summary.stdout
    s = json.loads((tmp_path / "s.json").read_text())
    assert sum(t["samples"] for t in s["families"].values()) == len(rows)
    # with verl's per-step and validation rows (its file logger's shape) the same run passes
    (run / "verl_metrics.jsonl").write_text("\n".join(json.dumps(r) for r in (
        {"step": 0, "data": {"val-core/openai/openai_humaneval/acc/mean@1": 0.0, "val-core/openai/gsm8k/acc/mean@1": 1}},
        {"step": 1, "data": {"critic/score/mean": 0.0, "timing_s/step": 3.0, "timing_s/reward": 1.0}})) + "\n")
    summary = subprocess.run([sys.executable, str(ROOT / "evals" / "gpu" / "code_rl_summary.py"), str(run), "--task",
                              "humaneval"], capture_output=True, text=True, check=False,
                             env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, timeout=120)
    assert summary.returncode == 0, summary.stdout
    assert "val-core/openai/openai_humaneval/acc/mean@1" in summary.stdout and "gsm8k" not in summary.stdout


# ---------------------------------------------------------------- the README's Code RL commands
def _code_rl_commands() -> list[list[str]]:
    """The ``verifiers-train``/``verifiers-eval`` commands of the README's "Code RL" subsection, continuations joined."""
    import re
    import shlex

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("### Code RL"):]
    part = part[: part.index("\n## ")]
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", part, flags=re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip().startswith(("verifiers-train ", "verifiers-eval ")):
                commands.append(shlex.split(line, comments=True))
    return commands


def test_readme_code_rl_commands_parse_and_cut_humaneval_as_rl_splits_says() -> None:
    from verifiers_train.cli import build_parser
    from verifiers_train.evaluation.cli import build_parser as eval_parser

    commands = _code_rl_commands()
    tasks_shown = {c[c.index("--task") + 1] for c in commands if "--task" in c}
    assert {"humaneval", "mbpp", "code_stdio"} <= tasks_shown
    for c in commands:
        if "code_stdio" in c and "code_stdio" not in tasks.names():
            continue  # documented ahead of the task (issue 26 item 3): argparse would refuse the task name
        args = c[1:]
        extra = args[args.index("--") + 1:] if "--" in args else []
        args = args[: args.index("--")] if "--" in args else args
        (build_parser() if c[0] == "verifiers-train" else eval_parser()).parse_args(args)
        assert all("=" in e for e in extra), c
    prepare_humaneval = next(c for c in commands if c[1] == "prepare" and "humaneval" in c)
    assert prepare_humaneval[prepare_humaneval.index("--splits") + 1] == splits_text(rl_splits("humaneval"))


@pytest.mark.slow
def test_tiny_model_builds_on_a_test_only_task(tmp_path: Path, data_dir: Path) -> None:
    """`tiny-model --task humaneval` SFT-trains on the cut a run trains on (it used to stop: no 'train' split)."""
    assert main(["tiny-model", "--task", "humaneval", "--size", "smoke", "--steps", "2", "--out", str(tmp_path / "m"),
                 "--progress", "lines"]) == 0
    info = json.loads((tmp_path / "m" / "tiny_model_info.json").read_text())
    assert info["dataset"] == "humaneval" and info["steps"] == 2 and (tmp_path / "m" / "config.json").is_file()
