"""``verifiers-train run``: build, check and launch ``python -m verl.trainer.main_ppo`` (verl 0.9.1).

`plan` turns `RunOptions` into the exact Hydra overrides (0.9.1 keys: ``reward.custom_reward_function``,
``actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu``, ``critic.fsdp.*``, ...), after checking
what verl would only reject minutes into a run: batch divisibility, GPUs vs tensor parallelism,
micro-batch sizes, model/data paths, the critic for PPO, reward kwargs. `launch` runs it and keeps a run
directory::

    RUN_DIR/command.sh          the exact command (re-runnable)
    RUN_DIR/run_config.json     resolved options, where each came from, the overrides
    RUN_DIR/train.log           verl's full output
    RUN_DIR/metrics.jsonl       one JSON object per step, parsed from verl's console logger
    RUN_DIR/verl_metrics.jsonl  verl's own file logger (full precision), when the ``file`` logger is on; a
                                resumed run's earlier launches are kept as verl_metrics.1.jsonl, ...
    RUN_DIR/checkpoints/        trainer.default_local_dir
    RUN_DIR/validation/         validation generations (trainer.validation_data_dir)
    RUN_DIR/hydra/              Hydra's own output (hydra.run.dir; nothing is left in the working directory)

Before launching, `preflight` checks what a machine without GPUs or with a partial install would only
report minutes later through Ray (GPUs visible, vLLM and the chosen trainer's imports), `check_overrides`
checks extra Hydra keys against verl's config (suggesting the closest real key), and
`check_data_sources` checks that every ``data_source`` of the prepared parquet has a scorer.
``launch(p, max_seconds=S)`` pauses the run cleanly after S seconds; launching the same plan again
resumes from the last checkpoint (verl's ``trainer.resume_mode=auto``).

Example:
    >>> p = plan({"algo": "grpo", "dataset": "arith", "model": "Qwen/Qwen2.5-0.5B-Instruct"})  # doctest: +SKIP
    >>> print(p.shell())                                                                    # doctest: +SKIP
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers.cli_common import hub_unreachable, is_hub_name, missing_local
from verifiers.errors import ConfigError, DataError, one_of
from verifiers_train.failures import FailureDetector
from verifiers_train.merge import latest_step
from verifiers_train.options import ALGOS, IGNORED_ENV, TRAINERS, RunOptions, environment, resolve
from verifiers_train.prepare import prepare, read_meta, rl_splits, splits_text
from verifiers_train.verl_log import CONSOLE_METRICS, VERL_METRICS, MetricsWriter, keep_earlier_metrics
from verifiers_train.verl_patch import needs_patch

__all__ = ["REWARD_PATH", "PreflightError", "RunPlan", "build_overrides", "check_data_sources", "check_options",
           "check_overrides", "check_train_rows", "launch", "launched", "plan", "preflight", "same_run", "verl_keys"]

REWARD_PATH = "pkg://verifiers_train.reward"
REWARD_NAME = "compute_score"
KNOWN_LOGGERS = ("console", "file", "wandb", "tensorboard", "mlflow", "swanlab", "vemlp_wandb", "clearml",
                 "trackio")
LOSS_AGG_MODES = ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm")
_SAFE_VALUE = re.compile(r"^[\w./:@+~-]+$")
# After a pause or Ctrl-C: seconds verl gets to stop after SIGINT, then after SIGTERM, before SIGKILL.
_STOP_GRACE = (30.0, 10.0)


@dataclass
class RunPlan:
    """A checked run: options, where each came from, paths, and the verl command."""

    options: RunOptions
    origin: dict[str, str]
    run_dir: Path
    data_dir: Path
    needs_prepare: bool
    overrides: list[str]
    extra_overrides: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    environment: dict[str, str] = field(default_factory=dict)

    @property
    def argv(self) -> list[str]:
        """The command as an argument list."""
        return [sys.executable, "-m", "verl.trainer.main_ppo", *self.overrides, *self.extra_overrides]

    def shell(self) -> str:
        """The command as one shell line, one override per line."""
        args = [shlex.quote(a) for a in [*self.overrides, *self.extra_overrides]]
        return " \\\n  ".join(["python3 -m verl.trainer.main_ppo", *args])

    def env(self) -> dict[str, str]:
        """Environment variables the run needs on top of the caller's."""
        return {"VERL_FILE_LOGGER_PATH": str(self.run_dir / VERL_METRICS), "PYTHONUNBUFFERED": "1"}

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON description, as saved in ``run_config.json``."""
        return {"options": asdict(self.options), "origin": self.origin, "run_dir": str(self.run_dir),
                "data_dir": str(self.data_dir), "needs_prepare": self.needs_prepare,
                "overrides": self.overrides, "extra_overrides": self.extra_overrides,
                "env": self.env(), "warnings": self.warnings, "environment": self.environment}

    def env_line(self) -> str | None:
        """One line naming every run option taken from the environment (``None`` when there is none)."""
        used = {o.removeprefix("env "): name for name, o in self.origin.items() if o.startswith("env ")}
        parts = [f"{var}={self.environment[var]} -> {used[var]}" for var in self.environment if var in used]
        parts += [f"{var}={self.environment[var]} (ignored)" for var in self.environment if var in IGNORED_ENV]
        shadowed = [var for var in self.environment if var not in used and var not in IGNORED_ENV]
        if shadowed:
            parts.append("not used (a flag or a prefixed name won): " + ", ".join(shadowed))
        return "from the environment: " + "; ".join(parts) if parts else None

    def save(self) -> None:
        """Write ``command.sh`` and ``run_config.json`` into the run directory."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env().items())
        (self.run_dir / "command.sh").write_text(f"#!/usr/bin/env bash\nset -euo pipefail\n{env} \\\n"
                                                 f"{self.shell()}\n", encoding="utf-8")
        (self.run_dir / "run_config.json").write_text(json.dumps(self.to_json(), indent=2) + "\n",
                                                      encoding="utf-8")


def hydra_value(value: Any) -> str:
    """Render a Python value as a Hydra override value (quoted when the grammar needs it)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(hydra_value(v) for v in value) + "]"
    text = str(value)
    if _SAFE_VALUE.match(text):
        return text
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _check_model(path: str | None, what: str) -> None:
    if not path:
        raise ConfigError(f"no {what}: pass --model PATH_OR_NAME (or MODEL=..., or a --preset that names one)")
    if missing := missing_local(path, what):
        raise DataError(missing)
    if not is_hub_name(path):
        p = Path(path).expanduser()
        if not p.is_dir():
            raise DataError(f"{what} {path!r} is a file; pass a Hugging Face model folder or a hub name (org/name)")
        if not (p / "config.json").is_file():
            raise DataError(f"{what} {path!r} has no config.json; point at a Hugging Face model folder")


def check_options(o: RunOptions) -> list[str]:
    """Raise `ConfigError`/`DataError` for a run verl would reject; return warnings for dubious ones."""
    warnings: list[str] = []
    one_of(o.algo, ALGOS, "algo")
    tasks.get(o.dataset, DataError, "dataset")
    positive = ("gpus", "nodes", "tp", "batch_size", "mini_batch_size", "micro_batch_size",
                "log_prob_micro_batch_size", "max_prompt_length", "max_response_length", "epochs", "rollouts")
    for name in positive:
        if o.algo_default(name) <= 0:  # rollouts: its per-algorithm default when unset
            raise ConfigError(f"{name} must be positive, got {o.algo_default(name)}")
    n = o.algo_default("rollouts")
    if o.algo == "grpo" and n < 2:
        raise ConfigError(f"grpo needs rollouts >= 2 (advantages are relative within a group); got {n}")
    total = o.gpus * o.nodes
    if o.tp > o.gpus:
        raise ConfigError(f"tensor parallel size {o.tp} needs at least {o.tp} GPUs per node, but --gpus is "
                          f"{o.gpus}; lower --tp or raise --gpus")
    if total % o.tp:
        raise ConfigError(f"{total} GPUs cannot be split into vLLM replicas of tensor parallel size {o.tp}; "
                          "make --gpus x --nodes a multiple of --tp")
    if not 0 < o.gpu_memory_utilization <= 1:
        raise ConfigError(f"gpu_memory_utilization must be in (0, 1], got {o.gpu_memory_utilization}")
    if o.mini_batch_size > o.batch_size:
        raise ConfigError(f"mini_batch_size {o.mini_batch_size} > batch_size {o.batch_size}: a PPO update cannot "
                          "use more prompts than a step collects; lower --mini-batch-size")
    if o.batch_size % o.mini_batch_size:
        warnings.append(f"batch_size {o.batch_size} is not a multiple of mini_batch_size {o.mini_batch_size}; "
                        "verl pads the last mini-batch")
    real = o.batch_size * n
    if real % total:
        raise ConfigError(f"batch_size x rollouts = {o.batch_size} x {n} = {real} sequences per step cannot be "
                          f"split evenly over {total} GPUs; make it a multiple of {total}")
    mini_seqs = o.mini_batch_size * n
    if mini_seqs % total:
        raise ConfigError(f"mini_batch_size x rollouts = {mini_seqs} sequences per update cannot be split over "
                          f"{total} GPUs; make it a multiple of {total}")
    if not o.dynamic_bsz:
        per_gpu = mini_seqs // total
        if per_gpu % o.micro_batch_size:
            raise ConfigError(f"each GPU gets {per_gpu} sequences per update (mini_batch_size x rollouts / GPUs), "
                              f"not a multiple of micro_batch_size {o.micro_batch_size}; pick a divisor of {per_gpu}")
        step_per_gpu = real // total
        if step_per_gpu % o.log_prob_micro_batch_size:
            raise ConfigError(f"each GPU computes log-probs for {step_per_gpu} sequences per step, not a multiple "
                              f"of log_prob_micro_batch_size {o.log_prob_micro_batch_size}; pick a divisor of "
                              f"{step_per_gpu}")
    else:
        need = o.max_prompt_length + o.max_response_length
        if o.max_tokens_per_gpu is not None and o.max_tokens_per_gpu < need:
            raise ConfigError(f"max_tokens_per_gpu {o.max_tokens_per_gpu} is below one full sequence "
                              f"(prompt {o.max_prompt_length} + response {o.max_response_length} = {need})")
    for name in ("clip_low", "clip_high"):
        if not 0 < getattr(o, name) < 1:
            raise ConfigError(f"{name} must be in (0, 1), got {getattr(o, name)}")
    one_of(o.loss_agg_mode, LOSS_AGG_MODES, "loss_agg_mode")
    bad_loggers = [x for x in _loggers(o.logger) if x not in KNOWN_LOGGERS]
    if bad_loggers:
        raise ConfigError(f"unknown logger(s) {bad_loggers}; verl knows {', '.join(KNOWN_LOGGERS)}")
    _check_model(o.model, "--model")
    if o.algo == "ppo":
        _check_model(o.algo_default("critic_model"), "--critic-model; ppo needs a value model")
    elif o.critic_model:
        warnings.append("critic_model is ignored for grpo (no critic)")
    if o.nodes > 1 and not (os.environ.get("RAY_ADDRESS") or Path("/tmp/ray/ray_current_cluster").exists()):
        warnings.append(f"--nodes {o.nodes} needs a running Ray cluster (`ray start --head` here, "
                        "`ray start --address HEAD:6379` on the others); none was found from this node")
    one_of(o.trainer, TRAINERS, "trainer")
    if o.kl_in_reward and o.algo_default("kl_loss"):
        warnings.append("KL both in the reward and as a loss; usually pick one")
    from verifiers_train.reward import check_reward_kwargs, task_for

    check_reward_kwargs((task_for(o.dataset) or "gsm8k",), **_reward_kwargs(o))
    return warnings


def _loggers(spec: str) -> list[str]:
    return [x.strip() for x in spec.split(",") if x.strip()]


def _reward_kwargs(o: RunOptions) -> dict[str, Any]:
    return {k: v for k, v in (("preset", o.reward_preset), ("tags", o.reward_tags)) if v is not None}


def build_overrides(o: RunOptions, data_dir: Path, run_dir: Path) -> list[str]:
    """The Hydra overrides for ``verl.trainer.main_ppo`` (0.9.1 key names)."""
    n = o.algo_default("rollouts")
    kl_loss = o.algo_default("kl_loss")
    max_tokens = o.max_tokens_per_gpu or 2 * (o.max_prompt_length + o.max_response_length)
    save = ["model", "optimizer", "extra"] + (["hf_model"] if o.save_hf else [])
    # A value of None leaves the key out: verl keeps its own default.
    kv: list[tuple[str, Any]] = [
        ("algorithm.adv_estimator", "grpo" if o.algo == "grpo" else "gae"),
        ("algorithm.use_kl_in_reward", o.kl_in_reward),
        ("algorithm.kl_ctrl.kl_coef", o.kl_coef),
        ("data.train_files", str(data_dir / "train.parquet")),
        ("data.val_files", str(data_dir / "test.parquet")),
        ("data.train_batch_size", o.batch_size),
        ("data.max_prompt_length", o.max_prompt_length),
        ("data.max_response_length", o.max_response_length),
        ("data.filter_overlong_prompts", True),
        ("data.truncation", "error"),
        ("actor_rollout_ref.model.path", o.model),
        ("actor_rollout_ref.model.use_remove_padding", o.remove_padding),
        ("actor_rollout_ref.model.enable_gradient_checkpointing", o.gradient_checkpointing),
        ("actor_rollout_ref.actor.optim.lr", o.lr),
        ("actor_rollout_ref.actor.optim.lr_warmup_steps", o.warmup_steps),
        ("actor_rollout_ref.actor.ppo_mini_batch_size", o.mini_batch_size),
        ("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", o.micro_batch_size),
        ("actor_rollout_ref.actor.use_dynamic_bsz", o.dynamic_bsz),
        ("actor_rollout_ref.actor.use_kl_loss", kl_loss),
        ("actor_rollout_ref.actor.kl_loss_coef", o.kl_coef),
        ("actor_rollout_ref.actor.kl_loss_type", o.kl_loss_type),
        ("actor_rollout_ref.actor.clip_ratio_low", o.clip_low),
        ("actor_rollout_ref.actor.clip_ratio_high", o.clip_high),
        ("actor_rollout_ref.actor.loss_agg_mode", o.loss_agg_mode),
        ("actor_rollout_ref.actor.entropy_coeff", o.entropy_coeff),
        ("actor_rollout_ref.actor.fsdp_config.param_offload", o.param_offload),
        ("actor_rollout_ref.actor.fsdp_config.optimizer_offload", o.optimizer_offload),
        ("actor_rollout_ref.actor.use_torch_compile", o.torch_compile),
        ("actor_rollout_ref.actor.fsdp_config.use_torch_compile", o.torch_compile),
        ("actor_rollout_ref.actor.checkpoint.save_contents", save),
        ("actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu", o.log_prob_micro_batch_size),
        ("actor_rollout_ref.ref.fsdp_config.param_offload", o.param_offload),
        ("actor_rollout_ref.ref.fsdp_config.use_torch_compile", o.torch_compile),
        ("actor_rollout_ref.rollout.name", "vllm"),
        ("actor_rollout_ref.rollout.n", n),
        ("actor_rollout_ref.rollout.tensor_model_parallel_size", o.tp),
        ("actor_rollout_ref.rollout.gpu_memory_utilization", o.gpu_memory_utilization),
        ("actor_rollout_ref.rollout.temperature", o.temperature),
        ("actor_rollout_ref.rollout.top_p", o.top_p),
        ("actor_rollout_ref.rollout.top_k", o.top_k),
        ("actor_rollout_ref.rollout.enforce_eager", o.enforce_eager),
        ("actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu", o.log_prob_micro_batch_size),
        ("actor_rollout_ref.actor.ppo_max_token_len_per_gpu", max_tokens if o.dynamic_bsz else None),
        ("actor_rollout_ref.model.lora_rank", o.lora_rank if o.lora_rank > 0 else None),
        ("actor_rollout_ref.model.lora_alpha", o.lora_alpha if o.lora_rank > 0 else None),
        ("actor_rollout_ref.rollout.agent.num_workers", o.agent_workers),
        ("data.dataloader_num_workers", o.dataloader_workers),
    ]
    if o.algo == "ppo":
        kv += [
            ("critic.model.path", o.algo_default("critic_model")),
            ("critic.optim.lr", o.critic_lr),
            ("critic.ppo_micro_batch_size_per_gpu", o.micro_batch_size),
            ("critic.use_dynamic_bsz", o.dynamic_bsz),
            ("critic.model.use_remove_padding", o.remove_padding),
            ("critic.model.enable_gradient_checkpointing", o.gradient_checkpointing),
            ("critic.fsdp.param_offload", o.param_offload),
            ("critic.fsdp.optimizer_offload", o.optimizer_offload),
            ("critic.fsdp.use_torch_compile", o.torch_compile),
            ("critic.ppo_max_token_len_per_gpu", max_tokens * 2 if o.dynamic_bsz else None),
        ]
    kv += [
        ("reward.custom_reward_function.path", REWARD_PATH),
        ("reward.custom_reward_function.name", REWARD_NAME),
        ("reward.num_workers", o.reward_workers),
        ("trainer.logger", _loggers(o.logger)),
        ("trainer.project_name", o.project),
        ("trainer.experiment_name", o.experiment),
        ("trainer.n_gpus_per_node", o.gpus),
        ("trainer.nnodes", o.nodes),
        # verl stops at the end of the last epoch even before total_training_steps: with a step count,
        # allow as many epochs as steps (each epoch has at least one) so the step count decides.
        ("trainer.total_epochs", o.epochs if o.total_steps is None else max(o.epochs, o.total_steps)),
        ("trainer.save_freq", o.save_freq),
        ("trainer.test_freq", o.test_freq),
        ("trainer.val_before_train", o.val_before_train),
        ("trainer.critic_warmup", 0),
        ("trainer.default_local_dir", str(run_dir / "checkpoints")),
        ("trainer.validation_data_dir", str(run_dir / "validation")),
        # v0 (main_ppo_v0's TaskRunner) is what the recorded GPU runs used; v1 also needs transfer_queue
        ("trainer.use_v1", o.trainer == "v1"),
        ("trainer.resume_mode", "auto"),
        ("trainer.total_training_steps", o.total_steps),
    ]
    out = [f"{k}={hydra_value(v)}" for k, v in kv if v is not None]
    # Hydra's own output (config copies, main_ppo.log) goes into the run folder, not ./outputs/DATE/TIME
    out.append(f"hydra.run.dir={hydra_value(str(run_dir / 'hydra'))}")
    # Keys outside verl's schema need a leading "+" (the composed config is in struct mode).
    if o.attn_implementation:
        out.append(f"+actor_rollout_ref.model.override_config.attn_implementation={o.attn_implementation}")
        if o.algo == "ppo":
            out.append(f"+critic.model.override_config.attn_implementation={o.attn_implementation}")
    for key, value in _reward_kwargs(o).items():
        out.append(f"+reward.custom_reward_function.reward_kwargs.{key}={hydra_value(value)}")
    if "file" in _loggers(o.logger):
        # verl's file logger reads this variable in the TaskRunner actor; through Ray's runtime_env it
        # reaches that actor on whichever node of an existing cluster it lands.
        out.append("+ray_kwargs.ray_init.runtime_env.env_vars.VERL_FILE_LOGGER_PATH="
                   + hydra_value(str(run_dir / VERL_METRICS)))
    return out


def plan(values: Mapping[str, Any] | None = None, *, extra_overrides: Sequence[str] = (),
         env: Mapping[str, str] | None = None) -> RunPlan:
    """Resolve options, check them, and build the verl command; touches no files.

    Args:
        values: option values by keyword (see `RunOptions`); flags from the CLI land here.
        extra_overrides: raw Hydra overrides appended last (they win over everything).
        env: environment to read option variables from (default ``os.environ``).

    Raises:
        ConfigError / DataError: the first problem found, with how to fix it.
    """
    o, origin = resolve(values, env=env)
    env_values = environment(env)
    if o.model and not o.experiment:
        o.experiment = f"{o.algo}-{o.dataset}-{Path(o.model.rstrip('/')).name}"
        origin["experiment"] = "derived"
    warnings = check_options(o)
    run_dir = Path(o.out or Path("runs") / str(o.experiment)).expanduser().resolve()
    data_dir = Path(o.data).expanduser().resolve() if o.data else run_dir / "data"
    if o.data and not data_dir.exists():
        raise DataError(f"no such folder: {o.data} (--data); make it with {_prepare_command(o.dataset, o.data)}, "
                        "or omit --data to prepare into the run directory")
    missing = [f for f in ("train.parquet", "test.parquet") if not (data_dir / f).is_file()]
    if missing and o.data:
        raise DataError(f"--data {o.data} lacks {', '.join(missing)}; make it with "
                        f"{_prepare_command(o.dataset, o.data)}, or omit --data to prepare into the run directory")
    splits = rl_splits(o.dataset)
    if missing and splits != dict(tasks.get(o.dataset).splits):
        warnings.append(f"{o.dataset} has no train split: the data prepared into the run directory trains on "
                        f"{splits['train']} and validates on {splits['test']} (prepare it yourself for other splits)")
    if not missing:
        meta = read_meta(data_dir)
        if meta and meta.get("dataset") not in (None, o.dataset):
            raise DataError(f"{data_dir} was prepared for task {meta['dataset']!r}, not {o.dataset!r}; "
                            "pass the matching --task or another --data")
        if meta and (warning := _prompt_length_warning(meta, o.max_prompt_length)):
            warnings.append(warning)
        check_data_sources(data_dir, extra_overrides)
        check_train_rows(data_dir, o.batch_size)
    for extra in extra_overrides:
        if "=" not in extra.lstrip("+~"):
            raise ConfigError(f"extra override {extra!r} is not KEY=VALUE (Hydra syntax)")
    check_overrides(extra_overrides)
    warnings += [f"{var} is set but ignored: {why}" for var, why in IGNORED_ENV.items() if var in env_values]
    overrides = build_overrides(o, data_dir, run_dir)
    plugins = (os.environ if env is None else env).get(tasks.PLUGIN_ENV)
    if plugins:  # the reward workers import the same task plug-ins, on whichever node they run
        overrides.append(f"+ray_kwargs.ray_init.runtime_env.env_vars.{tasks.PLUGIN_ENV}={hydra_value(plugins)}")
    return RunPlan(o, origin, run_dir, data_dir, bool(missing), overrides, list(extra_overrides), warnings,
                   env_values)


def _prepare_command(task: str, out: str) -> str:
    """The ``verifiers-train prepare`` command that makes a run's data folder for ``task`` (quoted for a shell)."""
    splits = rl_splits(task)
    flag = "" if splits == dict(tasks.get(task).splits) else f" --splits {shlex.quote(splits_text(splits))}"
    return f"`verifiers-train prepare --task {task} --out {shlex.quote(out)}{flag}`"


def _prompt_length_warning(meta: Mapping[str, Any], allowed: int) -> str | None:
    """A warning when prepared prompts may be longer than the run allows (verl would drop them), else None.

    ``prepare`` records the longest kept prompt per split; data from before that records only its filter.
    """
    longest = meta.get("longest_prompt")
    if isinstance(longest, dict) and longest:
        top = max(int(v) for v in longest.values())
        if top <= allowed:
            return None
        return (f"the prepared prompts reach {top} tokens ({meta.get('length_measure', 'as measured')}) but the run "
                f"allows {allowed}; verl drops the longer prompts (prepare with --max-prompt-length {allowed}, "
                "or raise --max-prompt-length)")
    limit = int(meta.get("max_prompt_length", 0))
    if limit > allowed:
        return (f"data was filtered at {limit} prompt tokens but the run allows {allowed}; verl drops the "
                "longer prompts")
    return None


@lru_cache(maxsize=1)
def verl_keys() -> frozenset[str]:
    """Every key of verl's composed ``ppo_trainer`` config, dotted (``trainer.total_training_steps``).

    Empty when verl (or Hydra) is not installed: then no key can be checked here.
    """
    if importlib.util.find_spec("verl") is None or importlib.util.find_spec("hydra") is None:
        return frozenset()
    from omegaconf import OmegaConf

    from verifiers_train.verl_check import compose

    def walk(node: Any, prefix: str) -> Iterator[str]:
        for k, v in node.items() if isinstance(node, dict) else ():
            yield f"{prefix}{k}"
            yield from walk(v, f"{prefix}{k}.")

    return frozenset(walk(OmegaConf.to_container(compose([]), resolve=False), ""))


def _split_override(text: str) -> tuple[str, str]:
    """``(prefix, key)`` of a Hydra override: prefix ``""``, ``+``, ``++`` or ``~``."""
    key = text.split("=", 1)[0]
    prefix = "++" if key.startswith("++") else key[:1] if key[:1] in "+~" else ""
    return prefix, key[len(prefix):]


def check_overrides(overrides: Iterable[str], keys: frozenset[str] | None = None) -> None:
    """Check extra Hydra overrides against verl's config keys, suggesting the closest real key.

    ``KEY=V`` must name an existing key. ``+KEY=V`` adds a new key, so a key one typo away from an existing
    sibling (``+trainer.total_training_step``) is refused instead of being silently added; ``++KEY=V``
    adds or sets without this check. ``hydra.*`` keys are Hydra's own.

    Raises:
        ConfigError: an unknown key, or a ``+`` key that looks like a typo, with the closest real key.
    """
    keys = verl_keys() if keys is None else keys
    if not keys:
        return
    for text in overrides:
        prefix, key = _split_override(text)
        if key.startswith("hydra.") or prefix == "++":
            continue
        parent, _, leaf = key.rpartition(".")
        siblings = {k.rpartition(".")[2]: k for k in keys if k.rpartition(".")[0] == parent}
        if prefix == "" and key not in keys:
            # a typo in the last part (compared among its siblings), else anywhere in the key
            near = difflib.get_close_matches(leaf, list(siblings), n=1, cutoff=0.6)
            close = [siblings[near[0]]] if near else difflib.get_close_matches(key, keys, n=1, cutoff=0.85)
            hint = f"did you mean {close[0]}={text.split('=', 1)[1]}? " if close else ""
            raise ConfigError(f"verl has no config key {key!r}; {hint}(+KEY=VALUE adds a key verl does not "
                              "define, which verl then ignores unless something reads it)")
        if prefix == "+" and key in keys:
            raise ConfigError(f"{key!r} already exists in verl's config; drop the leading + to set it")
        if prefix == "+":
            near = difflib.get_close_matches(leaf, list(siblings), n=1, cutoff=0.8)
            if near:
                raise ConfigError(f"{text!r} adds a new key next to the existing {siblings[near[0]]!r}: a typo? "
                                  f"Fix the name, or write ++{key}=... to add it anyway")


def _known_sources() -> list[str]:
    """Every ``data_source`` value the reward dispatches: task names and their registered sources."""
    return list(dict.fromkeys(s for n in tasks.names() for s in (n, *tasks.get(n).data_sources)))


def _forced_task(overrides: Iterable[str]) -> str | None:
    for text in overrides:
        prefix, key = _split_override(text)
        if key == "reward.custom_reward_function.reward_kwargs.task" and prefix != "~":
            return text.split("=", 1)[1]
    return None


def check_data_sources(data_dir: Path, extra_overrides: Sequence[str] = ()) -> None:
    """Raise `DataError` when the prepared parquet holds ``data_source`` values no scorer knows.

    verl would score every such row 0 (``error=1``): a renamed dataset would train on zero reward. A run
    that forces a scorer (``+reward.custom_reward_function.reward_kwargs.task=NAME``) is not checked.
    """
    if _forced_task(extra_overrides):
        return
    try:
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - pyarrow comes with the train extra
        return
    unknown: dict[str, list[str]] = {}
    for name in ("train.parquet", "test.parquet"):
        path = data_dir / name
        if not path.is_file():
            continue
        try:
            column = pq.read_table(path, columns=["data_source"]).column("data_source").to_pylist()
        except (KeyError, OSError, ValueError) as e:
            raise DataError(f"{path} has no readable data_source column ({e}); prepare it with "
                            "`verifiers-train prepare`") from e
        for source in sorted({str(v) for v in column}):
            if tasks.for_data_source(source) is None:
                unknown.setdefault(source, []).append(name)
    if unknown:
        where = ", ".join(f"{s!r} ({' and '.join(f)})" for s, f in unknown.items())
        raise DataError(f"{data_dir}: no scorer for data_source {where}; known: {', '.join(_known_sources())}. "
                        "Prepare the data with --data-source set to a known name, or force a scorer with "
                        "`-- +reward.custom_reward_function.reward_kwargs.task=gsm8k|math|mbpp`")


def check_train_rows(data_dir: Path, batch_size: int) -> None:
    """Raise `ConfigError` when ``train.parquet`` holds fewer rows than one batch.

    verl's train loader drops the last partial batch, so such a run stops at once with "Train dataloader is
    empty" after Ray and the engines have started; a small task (code_stdio's committed 16 problems) hits this.
    """
    try:
        import pyarrow.parquet as pq
    except ImportError:  # pragma: no cover - pyarrow comes with the train extra
        return
    path = data_dir / "train.parquet"
    try:
        rows = pq.ParquetFile(path).metadata.num_rows
    except (OSError, ValueError):
        return  # missing or unreadable: check_data_sources and verl say so
    if rows < batch_size:
        raise ConfigError(f"{path} has {rows} rows, fewer than --batch-size {batch_size}: verl drops the last "
                          f"partial batch, so no step would run; use --batch-size {rows} or less (and a "
                          "--mini-batch-size that divides it)")


def preflight(p: RunPlan, *, gpu_count: Callable[[], int] | None = None,
              find: Callable[[str], bool] | None = None) -> None:
    """Check that this machine can start the run: verl, vLLM, the trainer's imports, enough GPUs, and the
    code sandbox when the reward runs programs (a task whose reference is tests, such as MBPP).

    What verl would report only after starting Ray (``ModuleNotFoundError: transfer_queue`` from the v1
    trainer, no GPU for its workers, a hub model without network) is found here in seconds. Without a
    working sandbox every code sample would score 0 with ``error=1`` for the whole run; that is refused here
    (for this node: on a multi-node cluster every node running reward workers needs bubblewrap too).

    Raises:
        PreflightError: every missing piece and how to get it (``problems``, one reason each).
    """
    def _found(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            return False

    find = find or _found
    problems: list[str] = []
    if not find("verl"):
        problems.append("verl is not installed (pip install 'verl[vllm]==0.9.1')")
    if not find("vllm"):
        problems.append("vLLM is not importable (verl's rollout; pip install 'verl[vllm]==0.9.1')")
    o = p.options
    if o.trainer == "v1" and not find("transfer_queue"):
        problems.append("--trainer v1 needs transfer_queue (pip install TransferQueue), or use --trainer v0")
    hub_models = [m for m in dict.fromkeys([o.model, o.algo_default("critic_model") if o.algo == "ppo" else None])
                  if m and is_hub_name(str(m))]
    reason = hub_unreachable() if hub_models else None
    if reason:
        problems.append(f"model {', '.join(map(repr, hub_models))} comes from the Hugging Face hub, which cannot be "
                        f"reached ({reason}): pass a local model folder, or set HF_HUB_OFFLINE=1 with a cached copy")
    visible = (gpu_count or _cuda_devices)()
    if visible < o.gpus:
        cvd = os.environ.get("CUDA_VISIBLE_DEVICES")
        problems.append(f"--gpus {o.gpus} but {visible} GPU(s) visible"
                        + (f" (CUDA_VISIBLE_DEVICES={cvd})" if cvd is not None else "")
                        + "; `--dry-run` checks a run on a machine without GPUs")
    if sandbox := tasks.sandbox_problem(_forced_task(p.extra_overrides) or o.dataset):
        problems.append(sandbox)
    if problems:
        raise PreflightError(problems)


class PreflightError(ConfigError):
    """This machine cannot start the run: ``problems`` holds one reason (with its fix) per missing piece."""

    HEADER = "cannot start verl here (--no-preflight skips this check)"

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(f"{self.HEADER}: " + "; ".join(self.problems))

    def lines(self) -> list[str]:
        """The header, then one line per reason."""
        return [f"{self.HEADER}:", *(f"  - {problem}" for problem in self.problems)]


def _cuda_devices() -> int:
    """GPUs torch can see (0 without torch or CUDA)."""
    try:
        import torch

        return int(torch.cuda.device_count())
    except Exception:  # noqa: BLE001 - no torch, or a broken driver: "no GPU" for this check
        return 0


def launched(run_dir: Path) -> bool:
    """Whether a run was ever launched into ``run_dir`` (it has ``train.log`` or ``checkpoints/``).

    A dry run writes only ``command.sh``, ``run_config.json`` and ``verl_config.yaml``: it claims nothing.
    """
    return (run_dir / "train.log").exists() or (run_dir / "checkpoints").exists()


def same_run(run_dir: Path, p: RunPlan) -> bool:
    """Whether ``p`` may use ``run_dir``: no run was launched there (at most a dry run, which it replaces),
    or the launched run has the same overrides (so launching resumes it)."""
    cfg = run_dir / "run_config.json"
    if not launched(run_dir) or not cfg.is_file():
        return True
    old = json.loads(cfg.read_text(encoding="utf-8"))
    return bool(old.get("overrides") == p.overrides and old.get("extra_overrides") == p.extra_overrides)


def launch(p: RunPlan, *, echo: Callable[[str], None] = print, max_seconds: float | None = None) -> int:
    """Prepare data if needed, save the run directory, run verl, and record log and metrics.

    Args:
        p: the plan.
        echo: where progress lines go.
        max_seconds: pause the run after this many seconds: verl is stopped as by Ctrl-C and the run
            keeps its last checkpoint (every ``save_freq`` steps); launching the same plan again resumes.

    Returns:
        verl's exit code (0 on success, and 0 when paused by ``max_seconds``).

    Raises:
        ConfigError: the run directory holds a different run (resuming it would mix two runs).
        DataError: the prepared data has ``data_source`` values no scorer knows.
        KeyboardInterrupt: after verl was stopped, so the caller can say how to resume.
    """
    if not same_run(p.run_dir, p):
        raise ConfigError(f"{p.run_dir} holds a run with different settings; use a new --out (or --experiment) "
                          "or delete that folder. Same settings resume from its checkpoints.")
    _drop_stale_dry_run(p)
    line = p.env_line()
    if line:
        echo(line)
    if p.needs_prepare:
        echo(f"preparing {p.options.dataset} into {p.data_dir}")
        local_model = p.options.model if p.options.model and Path(p.options.model).expanduser().is_dir() else None
        prepare(p.options.dataset, p.data_dir, splits=rl_splits(p.options.dataset), template=p.options.template,
                max_prompt_length=p.options.max_prompt_length, tokenizer=local_model, echo=echo)
        check_data_sources(p.data_dir, p.extra_overrides)
        check_train_rows(p.data_dir, p.options.batch_size)
    p.save()
    if needs_patch():
        echo("warning: verl 0.9.1 without flash-attn computes log-probs one token at a time and cannot load a PPO "
             "critic; `verifiers-train patch-verl` fixes both, with the same values (README, patch-verl)")
    step = latest_step(p.run_dir)
    if step is not None:
        echo(f"resuming from the checkpoint of step {step} in {p.run_dir / 'checkpoints'}")
    if max_seconds is not None and p.options.save_freq <= 0:
        echo(f"warning: --max-seconds {max_seconds:g} without --save-freq: a paused run keeps no checkpoint and "
             "starts again from step 0")
    kept = keep_earlier_metrics(p.run_dir)  # verl's file logger would truncate it on resume
    if kept:
        echo(f"resuming: earlier metrics kept as {kept.name}")
    env = {**os.environ, **p.env()}
    log_path = p.run_dir / "train.log"
    echo(f"run dir {p.run_dir}; log {log_path}")
    failures = FailureDetector()
    paused = threading.Event()
    interrupted = False
    start = time.monotonic()
    with open(log_path, "a", encoding="utf-8") as log, MetricsWriter(p.run_dir / CONSOLE_METRICS) as metrics:
        # its own session: Ctrl-C reaches only us, and we stop verl with its Ray processes as one group
        proc = subprocess.Popen(p.argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                bufsize=1, errors="replace", start_new_session=True)
        assert proc.stdout is not None
        timer = None
        if max_seconds is not None:
            def pause() -> None:
                paused.set()
                _stop(proc)

            timer = threading.Timer(max_seconds, pause)
            timer.daemon = True
            timer.start()
        try:
            for out_line in proc.stdout:
                log.write(out_line)
                sys.stdout.write(out_line)
                metrics.feed(out_line)
                failures.feed(out_line)
            code = proc.wait()
        except KeyboardInterrupt:
            interrupted = True
            log.write("\n[verifiers-train] interrupted; stopping verl\n")
            code = _stop(proc)
        finally:
            if timer is not None:
                timer.cancel()
        if paused.is_set():
            log.write(f"\n[verifiers-train] paused after {max_seconds:g} s (--max-seconds)\n")
    try:
        _final_report(p, code, echo)
    finally:
        if paused.is_set() or interrupted:
            step = latest_step(p.run_dir)
            where = f"the checkpoint of step {step}" if step is not None else "step 0 (no checkpoint was saved)"
            what = f"paused after {time.monotonic() - start:.0f} s" if paused.is_set() else "interrupted"
            echo(f"{what}; the same command resumes from {where}")
        elif code != 0:
            for failure in failures.found:
                echo(failure.message())
    if interrupted:
        raise KeyboardInterrupt
    return 0 if paused.is_set() else code


def _drop_stale_dry_run(p: RunPlan) -> None:
    """Remove a dry run's ``verl_config.yaml`` that another plan wrote (the launch replaces its config)."""
    cfg = p.run_dir / "run_config.json"
    if launched(p.run_dir) or not cfg.is_file():
        return
    old = json.loads(cfg.read_text(encoding="utf-8"))
    if old.get("overrides") != p.overrides or old.get("extra_overrides") != p.extra_overrides:
        (p.run_dir / "verl_config.yaml").unlink(missing_ok=True)


def _stop(proc: subprocess.Popen[str]) -> int:
    """Stop verl and its Ray processes: SIGINT (a clean shutdown), then SIGTERM, then SIGKILL."""
    for sig, grace in ((signal.SIGINT, _STOP_GRACE[0]), (signal.SIGTERM, _STOP_GRACE[1]), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            break
        try:
            return proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
    return proc.wait()


def _final_report(p: RunPlan, code: int, echo: Callable[[str], None]) -> None:
    """Write the run report (curves + warning signs) when the run logged any metrics."""
    from verifiers_train.report import build_report

    try:
        report = build_report(p.run_dir)
    except DataError:
        echo(f"verl exited with code {code} before logging any metrics; see {p.run_dir / 'train.log'}")
        return
    warned = [f.name for f in report.flags if f.status == "warn"]
    echo(f"verl exited with code {code}; report {report.html}"
         + (f"; warning signs: {', '.join(warned)}" if warned else "; no warning signs"))
