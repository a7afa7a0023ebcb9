"""Run options for ``verifiers-train run``: one name per option across flag, keyword and env variable.

``batch_size`` is ``--batch-size`` on the command line, ``batch_size=`` in Python and
``VERIFIERS_BATCH_SIZE`` in the environment. An option whose flag is named differently from its field
(`RENAMED`: ``dataset`` is ``--task``) takes the flag's name in the environment (``VERIFIERS_TASK``); the
field's name (``VERIFIERS_DATASET``) is still read, after it. Every option has its ``VERIFIERS_``-prefixed
variable; generic names like ``DATA``, ``OUT`` or ``EPOCHS`` are not read (they collide with users' shells and
schedulers). The only bare names read are the ones users of the seed scripts configure runs with
(`BARE_ENV`): the GRAIL names (``DATASET``, ``MODEL``, ``BATCH_SIZE``, ``LR``, ``TOTAL_STEPS``,
``ROLLOUTS``, ``CLIP_LOW``, ``CLIP_HIGH``, ``TEMPERATURE``, ``TOP_P``, ``TOP_K``, ``WARMUP_STEPS``;
``GRAD_ACCUM`` has no verl counterpart and is reported as ignored) and the verl-script names
(``MODEL_PATH``, ``TRAIN_BATCH_SIZE``, ``PPO_MINI_BATCH_SIZE``, ``ROLLOUT_GPU_MEM_UTIL``). The prefixed
name wins over a bare one. Precedence, lowest first: option default, preset, run config file
(``--config``), environment, flag/keyword. `resolve` records where each value came from;
``verifiers-train run`` announces every value taken from the environment in one line before launch and
records them in ``run_config.json``.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints

from verifiers.errors import ConfigError
from verifiers_train.presets import get_preset

# One limit for `run` and `prepare`: data prepared with the defaults is never cut again by the run's filter.
DEFAULT_MAX_PROMPT_LENGTH = 512

__all__ = [
    "ALGOS",
    "BARE_ENV",
    "ENV_PREFIX",
    "IGNORED_ENV",
    "RENAMED",
    "TRAINERS",
    "RunOptions",
    "env_name",
    "env_names",
    "environment",
    "option_help",
    "option_name",
    "read_config_file",
    "resolve",
]

ALGOS = ("grpo", "ppo")
TRAINERS = ("v0", "v1")
ENV_PREFIX = "VERIFIERS_"
# Bare environment names still read, by option: the GRAIL seed scripts' names and verl's example scripts'.
BARE_ENV: dict[str, tuple[str, ...]] = {
    "dataset": ("DATASET",), "model": ("MODEL", "MODEL_PATH"), "batch_size": ("BATCH_SIZE", "TRAIN_BATCH_SIZE"),
    "mini_batch_size": ("PPO_MINI_BATCH_SIZE",), "lr": ("LR",), "warmup_steps": ("WARMUP_STEPS",),
    "total_steps": ("TOTAL_STEPS",), "rollouts": ("ROLLOUTS",), "clip_low": ("CLIP_LOW",),
    "clip_high": ("CLIP_HIGH",), "temperature": ("TEMPERATURE",), "top_p": ("TOP_P",), "top_k": ("TOP_K",),
    "gpu_memory_utilization": ("ROLLOUT_GPU_MEM_UTIL",),
}
# Options whose user-facing name (flag and environment variable) differs from the field's: field -> name.
RENAMED: dict[str, str] = {"dataset": "task"}
# GRAIL names with no verl counterpart: announced as ignored rather than silently dropped.
IGNORED_ENV: dict[str, str] = {
    "GRAD_ACCUM": "verl accumulates mini_batch_size x rollouts / (micro_batch_size x GPUs) micro-batches; set "
                  "--mini-batch-size and --micro-batch-size instead",
}


def _opt(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass
class RunOptions:
    """Every knob of a verl run; see `option_help` for each one's meaning."""

    algo: str = _opt("grpo", "grpo (group-relative advantages, no critic) or ppo (GAE with a critic)")
    dataset: str = _opt("gsm8k", "task: a registered task (gsm8k, math, math500, mbpp, humaneval, arith, ...); picks data, template "
                                 "and scorer")
    trainer: str = _opt("v0", "verl trainer: v0 (main_ppo_v0, the one the recorded GPU runs used; "
                              "trainer.use_v1=false) or v1 (verl's default; needs transfer_queue)")
    model: str | None = _opt(None, "actor model: local HF folder or hub name; default: the "
                                        "preset's (required without one)")
    preset: str | None = _opt(None, "named configuration from verifiers_train.presets; "
                                         "default: none")
    config: str | None = _opt(None, "JSON/YAML run file of options (a saved run_config.json works); "
                                    "flags and environment override it; default: none")
    data: str | None = _opt(None, "folder with train.parquet/test.parquet; default RUN_DIR/data, "
                                  "prepared automatically when missing")
    out: str | None = _opt(None, "run directory; default runs/EXPERIMENT")
    template: str | None = _opt(None, "prompt template used when data is prepared "
                                           "automatically; default: the task's")
    gpus: int = _opt(1, "GPUs per node (trainer.n_gpus_per_node)")
    nodes: int = _opt(1, "nodes of an existing Ray cluster (trainer.nnodes)")
    tp: int = _opt(1, "vLLM rollout tensor-parallel size")
    batch_size: int = _opt(64, "prompts per training step (data.train_batch_size)")
    mini_batch_size: int = _opt(32, "prompts per PPO update (actor.ppo_mini_batch_size)")
    micro_batch_size: int = _opt(4, "sequences per GPU per forward/backward (actor/critic)")
    log_prob_micro_batch_size: int = _opt(8, "sequences per GPU when computing log-probs (rollout/ref)")
    lr: float = _opt(1e-6, "actor learning rate")
    warmup_steps: int | None = _opt(None, "linear learning-rate warm-up steps (actor optim.lr_warmup_steps); "
                                          "default: verl's (none)")
    critic_lr: float = _opt(1e-5, "critic learning rate (ppo)")
    critic_model: str | None = _opt(None, "critic model (ppo); default: the actor model")
    rollouts: int | None = _opt(None, "responses per prompt (rollout.n); default 8 for grpo, 1 for ppo")
    temperature: float = _opt(1.0, "rollout sampling temperature")
    top_p: float = _opt(1.0, "rollout nucleus sampling")
    top_k: int = _opt(-1, "rollout top-k (-1: off)")
    max_prompt_length: int = _opt(DEFAULT_MAX_PROMPT_LENGTH, "prompt token limit (longer prompts are filtered)")
    max_response_length: int = _opt(512, "response token limit")
    gpu_memory_utilization: float = _opt(0.5, "fraction of GPU memory vLLM may take")
    enforce_eager: bool = _opt(False, "vLLM eager mode (no CUDA graphs): slower, starts faster")
    kl_loss: bool | None = _opt(None, "KL to the reference model as a loss term; default on for grpo")
    kl_coef: float = _opt(0.001, "KL coefficient (loss or reward penalty)")
    kl_loss_type: str = _opt("low_var_kl", "KL estimator for the loss (kl, abs, mse, low_var_kl)")
    kl_in_reward: bool = _opt(False, "KL as a reward penalty (algorithm.use_kl_in_reward)")
    clip_low: float = _opt(0.2, "PPO clip ratio below 1 (clip_ratio_low)")
    clip_high: float = _opt(0.2, "PPO clip ratio above 1 (clip_ratio_high; DAPO uses 0.28)")
    loss_agg_mode: str = _opt("token-mean", "loss aggregation (token-mean, seq-mean-token-sum, "
                                            "seq-mean-token-mean, seq-mean-token-sum-norm)")
    entropy_coeff: float = _opt(0.0, "entropy bonus coefficient")
    dynamic_bsz: bool = _opt(False, "pack micro-batches by token count instead of sequence count")
    max_tokens_per_gpu: int | None = _opt(None, "token budget per GPU with dynamic_bsz; default "
                                                "2 x (prompt + response)")
    param_offload: bool = _opt(False, "offload FSDP parameters to CPU (actor, ref, critic)")
    optimizer_offload: bool = _opt(False, "offload optimizer state to CPU (actor, critic)")
    gradient_checkpointing: bool = _opt(True, "activation checkpointing (actor, critic)")
    lora_rank: int = _opt(0, "LoRA rank; 0 trains all weights")
    lora_alpha: int = _opt(16, "LoRA alpha")
    epochs: int = _opt(15, "passes over the training data")
    total_steps: int | None = _opt(None, "stop after this many steps (overrides epochs); "
                                             "default: epochs decide")
    save_freq: int = _opt(-1, "save a checkpoint every N steps (-1: never)")
    save_hf: bool = _opt(False, "also write HF weights in each checkpoint (no merge needed)")
    test_freq: int = _opt(10, "validate every N steps (-1: never)")
    val_before_train: bool = _opt(True, "validate once before the first step")
    logger: str = _opt("console,file", "comma-separated trainer loggers (console, file, wandb, tensorboard, "
                                       "...); file writes RUN_DIR/verl_metrics.jsonl")
    project: str = _opt("verifiers", "trainer.project_name")
    experiment: str | None = _opt(None, "trainer.experiment_name; default ALGO-DATASET-MODELNAME")
    attn_implementation: str | None = _opt(None, "HF attention implementation (sdpa where flash-attn is "
                                                 "missing); default: verl's")
    remove_padding: bool = _opt(True, "verl's padding-free path (needs flash-attn; off with sdpa)")
    torch_compile: bool = _opt(True, "torch.compile in actor/ref/critic")
    reward_preset: str | None = _opt(None, "scorer preset passed as reward kwarg (accuracy, book, "
                                                   "grail); default: the scorer's (accuracy)")
    reward_tags: str | None = _opt(None, "format tags passed as reward kwarg (grail, think); "
                                                 "default: the scorer's")
    reward_workers: int | None = _opt(None, "reward worker actors (reward.num_workers); verl default 8")
    agent_workers: int | None = _opt(None, "rollout agent-loop workers (rollout.agent.num_workers); "
                                                    "default: verl's")
    dataloader_workers: int | None = _opt(None, "data.dataloader_num_workers; default: verl's")

    def algo_default(self, name: str) -> Any:
        """Value of an option whose default depends on the algorithm (rollouts, kl_loss, critic_model)."""
        value = getattr(self, name)
        if value is not None:
            return value
        if name == "rollouts":
            return 8 if self.algo == "grpo" else 1
        if name == "kl_loss":
            return self.algo == "grpo"
        if name == "critic_model":
            return self.model
        return None


_FIELDS = {f.name: f for f in dataclasses.fields(RunOptions)}
_TYPES = get_type_hints(RunOptions)


def option_name(option: str) -> str:
    """The option's user-facing name, its flag's without the dashes (``task`` for the field ``dataset``)."""
    return RENAMED.get(option, option)


def env_name(option: str) -> str:
    """The environment variable for an option: ``VERIFIERS_`` + its name upper-cased (``VERIFIERS_TOP_P``,
    ``VERIFIERS_TASK`` for ``dataset``)."""
    return ENV_PREFIX + option_name(option).upper()


def env_names(option: str) -> tuple[str, ...]:
    """Every environment variable read for an option, the winning one first (a renamed field's old name next)."""
    old = (ENV_PREFIX + option.upper(),) if option in RENAMED else ()
    return (env_name(option), *old, *BARE_ENV.get(option, ()))


def environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The run-option variables set (non-empty) in ``env``, prefixed and bare, by variable name."""
    env = os.environ if env is None else env
    names = [n for option in _FIELDS for n in env_names(option)] + list(IGNORED_ENV)
    return {n: env[n] for n in names if env.get(n)}


def option_help(option: str) -> str:
    """The help text of an option."""
    return str(_FIELDS[option].metadata.get("help", ""))


def base_type(option: str) -> type:
    """The option's value type (``int`` for ``int | None``)."""
    hint = _TYPES[option]
    if get_origin(hint) is not None:
        args = [a for a in get_args(hint) if a is not type(None)]
        hint = args[0]
    return hint  # type: ignore[no-any-return]


def parse_value(option: str, raw: Any) -> Any:
    """Convert a raw (string) value to the option's type; raise `ConfigError` naming the option."""
    if raw is None:
        return None
    typ = base_type(option)
    if isinstance(raw, typ) and not (typ is int and isinstance(raw, bool)):
        return raw
    text = str(raw).strip()
    if text.lower() in ("none", "null", "") and _FIELDS[option].default is None:
        return None
    try:
        if typ is bool:
            low = text.lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError(text)
        if typ is int:
            return int(text)
        if typ is float:
            return float(text)
        return text
    except ValueError:
        raise ConfigError(f"{option} ({' / '.join(env_names(option))} / --{option_name(option).replace('_', '-')}) expects "
                          f"{typ.__name__}, got {raw!r}") from None


def read_config_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Option values from a JSON or YAML run file (a saved ``run_config.json`` works: its ``options``).

    Raises:
        ConfigError: missing or unreadable file, or not a mapping of option names.
    """
    p = Path(path).expanduser()
    if not p.is_file():
        raise ConfigError(f"no such run config file: {p}")
    text = p.read_text(encoding="utf-8")
    try:
        if p.suffix.lower() in (".yaml", ".yml"):
            import yaml

            data = yaml.safe_load(text)
        else:
            data = json.loads(text)
    except Exception as e:  # any parse error is the same user mistake
        raise ConfigError(f"{p}: not valid {'YAML' if p.suffix.lower() in ('.yaml', '.yml') else 'JSON'} "
                          f"({e})") from e
    if isinstance(data, dict) and isinstance(data.get("options"), dict):
        data = data["options"]
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: expected a mapping of run options, got {type(data).__name__}")
    return {k: v for k, v in data.items() if k != "config"}


def resolve(values: Mapping[str, Any] | None = None, *, env: Mapping[str, str] | None = None,
            preset: str | None = None) -> tuple[RunOptions, dict[str, str]]:
    """Combine default < preset < config file < environment < ``values``; return options and origins.

    Args:
        values: explicit settings (flags or keywords); ``None`` entries count as unset. ``config``
            names a JSON/YAML run file whose values sit between the preset and the environment.
        env: environment to read (default ``os.environ``); only the names of `env_names` are read.
        preset: preset name; ``values["preset"]``, the config file or ``VERIFIERS_PRESET`` also select it.

    Raises:
        ConfigError: unknown option, unknown preset, bad config file, or a value of the wrong type.
    """
    values_in = values
    values = {k: v for k, v in (values or {}).items() if v is not None}
    env = os.environ if env is None else env
    config_path = values.pop("config", None) or env.get(env_name("config")) or None
    from_file = read_config_file(config_path) if config_path else {}
    unknown = sorted((set(values) | set(from_file)) - set(_FIELDS))
    if unknown:
        raise ConfigError(f"unknown run options {unknown}; see `verifiers-train run --help`")
    chosen: dict[str, Any] = {"config": str(config_path)} if config_path else {}
    origin: dict[str, str] = {name: "default" for name in _FIELDS}
    if config_path:
        origin["config"] = "flag/keyword" if "config" in (values_in or {}) else f"env {env_name('config')}"
    preset_from, preset = next(((where, name) for where, name in (
        ("flag/keyword", values.get("preset") or preset), (f"env {env_name('preset')}", env.get(env_name("preset"))),
        (f"file {config_path}", from_file.get("preset"))) if name), (None, None))
    if preset:
        for name, value in get_preset(preset).items():
            chosen[name], origin[name] = value, f"preset {preset}"
        chosen["preset"], origin["preset"] = preset, str(preset_from)
    for name, value in from_file.items():
        if name != "preset" and value is not None:
            chosen[name], origin[name] = parse_value(name, value), f"file {config_path}"
    for name in _FIELDS:
        if name in ("preset", "config"):
            continue
        var = next((n for n in env_names(name) if env.get(n)), None)
        if var is not None:
            chosen[name], origin[name] = parse_value(name, env[var]), f"env {var}"
    for name, value in values.items():
        if name != "preset":
            chosen[name], origin[name] = parse_value(name, value), "flag"
    return RunOptions(**chosen), origin
