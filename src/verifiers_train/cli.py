"""``verifiers-train``: prepare data, run verl, merge checkpoints, report on runs.

Exit status: 0 on success, 1 for ``report --strict`` with warning signs, 2 on bad input
(``verifiers-train COMMAND: error: MESSAGE``), 130 on Ctrl-C (the line printed says how to resume).

Subcommands register through `SUBCOMMANDS` (name -> registrar, or ``"module:function"`` imported on
demand), so adding one is a one-line edit::

    SUBCOMMANDS["tiny-model"] = "verifiers_train.tiny:register"

A registrar receives the ``add_subparsers()`` object, adds its parser and sets ``func`` (called with the
parsed namespace; returns an exit code).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from verifiers.cli_common import (
    EXIT_BAD_INPUT,
    CliParser,
    DefaultsFormatter,
    add_common,
    add_json,
    add_task,
    dataset_hub_name,
    doc_summary,
    emit_json,
    ensure_hub,
    hidden_alias,
    is_hub_name,
    missing_local,
    run_command,
)
from verifiers.errors import ConfigError, DataError
from verifiers.extras import require_installed
from verifiers_train.console import print_table, stderr_line

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

Registrar = Callable[[Any], None]


# ---------------------------------------------------------------- prepare
def _add_prepare(sub: Any) -> None:
    from verifiers import tasks
    from verifiers_train.options import DEFAULT_MAX_PROMPT_LENGTH
    from verifiers_train.templates import TEMPLATES

    p = sub.add_parser("prepare", help="write a dataset as verl parquet (train.parquet/test.parquet)",
                       description="Write a dataset as verl 0.9.1 parquet files. Templates: " + "; ".join(
                           f"{t.name}: {t.description}" for t in TEMPLATES.values()) + ".")
    add_task(p, tasks.names(), help="dataset to prepare (its data_source picks the reward's scorer)")
    p.add_argument("-o", "--out", required=True, help="output folder")
    p.add_argument("--data", help="local .jsonl/.json/.parquet file or folder, or a hub name "
                                  "(default: VERIFIERS_DATA_DIR, else the hub; arith is generated)")
    hidden_alias(p, "--source", "data")
    p.add_argument("--test-data", help="separate file, folder or hub name for the test split (e.g. MATH-500; "
                   "default: the test split of --data)")
    hidden_alias(p, "--test-source", "test_data")
    p.add_argument("--template", choices=sorted(TEMPLATES), help="prompt template (default per dataset)")
    p.add_argument("--system-prompt", help="replace the template's system prompt (default: the template's)")
    p.add_argument("--max-prompt-length", type=int, default=DEFAULT_MAX_PROMPT_LENGTH,
                   help="drop prompts longer than this many tokens (the same default as `run --max-prompt-length`)")
    p.add_argument("--tokenizer", help="tokenizer (model folder) to measure prompts; default: character estimate")
    p.add_argument("--limit", type=int, help="at most this many problems per split (default: all)")
    p.add_argument("--data-source", help="override the data_source column (default: the task's, e.g. "
                   "openai/gsm8k)")
    p.add_argument("--splits", help="output=source split pairs, e.g. 'train=train,test=test' or 'test=test'; a "
                                      "source split may be sliced as in `datasets`: 'train=test[:80%%],test=test[80%%:]' "
                                      "(default: the task's splits)")
    add_json(p, "the written files and counts")
    p.set_defaults(func=_cmd_prepare)


def _cmd_prepare(a: argparse.Namespace) -> int:
    hubs = [dataset_hub_name(a.task, a.data), a.test_data if a.test_data and is_hub_name(a.test_data) else None]
    require_installed("train", "writing verl parquet files", "pyarrow", *(["transformers"] if a.tokenizer else []),
                      *(["datasets"] if any(hubs) else []))
    from verifiers_train.prepare import prepare

    splits = None
    if a.splits:
        try:
            splits = dict(pair.split("=", 1) for pair in a.splits.split(","))
        except ValueError:
            raise ConfigError(f"--splits {a.splits!r}: expected OUT=SOURCE pairs separated by commas") from None
    for value, flag, kind in ((a.data, "--data", "file or folder"), (a.test_data, "--test-data", "file or folder"),
                              (a.tokenizer, "--tokenizer", "folder")):
        if value and (missing := missing_local(value, flag, kind)):
            raise DataError(missing)
    for hub in hubs:
        ensure_hub(hub, "dataset", "pass a local file or folder with --data, or set VERIFIERS_DATA_DIR")
    if a.tokenizer and is_hub_name(a.tokenizer):
        ensure_hub(a.tokenizer, "tokenizer", "pass a local model folder to --tokenizer, or omit it")
    echo = stderr_line if a.json else print
    meta = prepare(a.task, a.out, source=a.data, test_source=a.test_data, splits=splits, template=a.template,
                   system_prompt=a.system_prompt, max_prompt_length=a.max_prompt_length, tokenizer=a.tokenizer,
                   limit=a.limit, data_source=a.data_source, echo=echo)
    if a.json:
        emit_json({"out": str(Path(a.out).resolve()), **asdict(meta)})
    return 0


# ---------------------------------------------------------------- run
def _add_run(sub: Any) -> None:
    from verifiers_train.options import (
        RENAMED,
        TRAINERS,
        RunOptions,
        base_type,
        env_names,
        option_help,
        option_name,
    )
    from verifiers_train.presets import describe_presets

    p = sub.add_parser(
        "run", help="build, check and launch a verl PPO/GRPO run",
        description="Build `python -m verl.trainer.main_ppo` with verl 0.9.1 keys, check it, and run it.\n"
                    "Every option can also be set by its environment variable VERIFIERS_<NAME> (shown in\n"
                    "brackets, with the bare GRAIL/verl-script names still read); values taken from the\n"
                    "environment are announced before launch and recorded in RUN_DIR/run_config.json.\n"
                    "Precedence: default < --preset < --config < environment < flag < Hydra overrides after `--`.\n"
                    "The same command on the same --out resumes from the last checkpoint.\n\n"
                    "presets:\n  " + describe_presets().replace("\n", "\n  "),
        epilog="example: verifiers-train run --algo grpo --task arith --model ./tiny-model --preset tiny "
               "--dry-run -- trainer.total_training_steps=5")
    for f in fields(RunOptions):
        flags = ["--" + option_name(f.name).replace("_", "-")]
        if f.name == "out":
            flags = ["-o", "--out"]
        default = f"; default {f.default}" if f.default is not None and "default" not in option_help(f.name) else ""
        help_text = f"{option_help(f.name)}{default} [{', '.join(env_names(f.name))}]".replace("%", "%%")
        typ = base_type(f.name)
        if typ is bool:
            p.add_argument(*flags, dest=f.name, action=argparse.BooleanOptionalAction, default=None, help=help_text)
        elif f.name == "trainer":
            p.add_argument(*flags, dest=f.name, choices=TRAINERS, default=None, help=help_text)
        else:
            p.add_argument(*flags, dest=f.name, type=str, default=None, help=help_text,
                           metavar=typ.__name__.upper())
        if f.name in RENAMED:  # the field's name stays a hidden alias, so older commands still run
            hidden_alias(p, "--" + f.name.replace("_", "-"), f.name, type=str)
    p.add_argument("--dry-run", action="store_true", help="print and save the command and config; run nothing")
    p.add_argument("--check-verl", action=argparse.BooleanOptionalAction, default=None,
                   help="compose the config with verl's Hydra and run its validate_config first "
                        "(default: on for --dry-run)")
    p.add_argument("--preflight", action=argparse.BooleanOptionalAction, default=True,
                   help="before launching, check GPUs, vLLM and the trainer's imports on this machine")
    p.add_argument("--max-seconds", type=float, default=None,
                   help="pause the run cleanly after this many seconds (with --save-freq, the same command "
                        "resumes from the last checkpoint), so a long run fits several sessions (default: no limit)")
    add_json(p, "the plan (options, their origins, overrides, run folder)")
    p.set_defaults(func=_cmd_run)


def _cmd_run(a: argparse.Namespace) -> int:
    if not a.dry_run:  # launching: verl's trainer and what it imports
        require_installed("train", "launching verl", "verl", "torch", "transformers", "ray", "pyarrow")
    elif a.check_verl is not False:  # a dry run composes the config with verl's Hydra
        require_installed("train", "checking the config with verl (skip it: --no-check-verl)", "verl")
    from verifiers_train.options import RunOptions
    from verifiers_train.run import PreflightError, launch, plan, preflight, same_run

    values = {f.name: getattr(a, f.name) for f in fields(RunOptions)}
    p = plan(values, extra_overrides=a.extra_overrides)
    if a.max_seconds is not None and a.max_seconds <= 0:
        raise ConfigError(f"--max-seconds must be positive, got {a.max_seconds:g}")
    # every refusal comes before the plan is printed: the reason is the first thing on screen
    if not same_run(p.run_dir, p):
        # checked before anything is written: a refused run must leave the other run's folder as it was
        fix = "pass another --out to save this dry run" if a.dry_run else (
            "use a new --out (or --experiment) or delete that folder; same settings resume from its checkpoints")
        raise ConfigError(f"{p.run_dir} holds a different run; {fix}")
    if a.preflight and not a.dry_run:
        try:
            preflight(p)
        except PreflightError as e:  # one reason per line, each with its fix
            for text in e.lines():
                print(f"{a.cli_parser.prog}: error: {text}" if not text.startswith(" ") else text, file=sys.stderr)
            return EXIT_BAD_INPUT
    say = stderr_line if a.json else print
    _print_plan(p, sys.stderr if a.json else sys.stdout)
    line = p.env_line()
    if line and a.dry_run:
        say(line)
    check = a.check_verl if a.check_verl is not None else a.dry_run
    if check:
        from omegaconf import OmegaConf

        from verifiers_train.verl_check import compose, verl_validate

        models = [p.options.model] + ([p.options.algo_default("critic_model")] if p.options.algo == "ppo" else [])
        local = all(Path(str(m)).expanduser().is_dir() for m in models)
        if local or a.check_verl:
            for m in models:
                if is_hub_name(str(m)):
                    ensure_hub(str(m), "model", "pass a local model folder, or --no-check-verl")
            config = verl_validate(p.argv[3:])
            what = "Hydra composition + validate_config"
        else:
            # validate_config loads the model's HF config; for a hub name that means the network (minutes
            # of retries offline), so an implicit check stops at verl's composition.
            config = compose(p.argv[3:])
            what = "Hydra composition; validate_config skipped for a hub model, pass --check-verl to force it"
        p.run_dir.mkdir(parents=True, exist_ok=True)
        (p.run_dir / "verl_config.yaml").write_text(OmegaConf.to_yaml(config), encoding="utf-8")
        say(f"verl accepted the config ({what}); saved {p.run_dir}/verl_config.yaml")
    if a.dry_run:
        p.save()
        say(f"dry run: saved {p.run_dir}/command.sh and {p.run_dir}/run_config.json")
        if p.needs_prepare:
            say(f"(data would be prepared into {p.data_dir} at launch)")
        if a.json:
            emit_json(p.to_json())
        return 0
    if not a.json:
        return launch(p, max_seconds=a.max_seconds)
    from verifiers_train.verl_log import run_summary

    with contextlib.redirect_stdout(sys.stderr):  # verl's output too: stdout carries only the JSON
        code = launch(p, echo=say, max_seconds=a.max_seconds)
    emit_json({"exit_code": code, **run_summary(p.run_dir)})
    return code


def _print_plan(p: Any, file: Any) -> None:
    rows = [[name, value if isinstance(value, str) else json.dumps(value), p.origin.get(name, "default")]
            for name, value in vars(p.options).items()
            if p.origin.get(name, "default") != "default" or value is not None]
    print_table(["option", "value", "from"], rows, f"verifiers-train run -> {p.run_dir}", file)
    for w in p.warnings:
        print(f"warning: {w}", file=file)
    print(p.shell(), file=file)


# ---------------------------------------------------------------- merge
def _add_merge(sub: Any) -> None:
    p = sub.add_parser("merge", help="merge a verl FSDP checkpoint into a Hugging Face folder")
    p.add_argument("checkpoint", help="actor folder, global_step_N folder, checkpoint root or run dir")
    p.add_argument("-o", "--out", required=True, help="target folder for the HF model")
    p.add_argument("--component", default="actor", choices=("actor", "critic"), help="which model to merge")
    p.add_argument("--trust-remote-code", action="store_true", help="pass --trust-remote-code to verl's merger")
    p.add_argument("--dry-run", action="store_true", help="print the verl command only")
    add_json(p, "the merged folder")
    p.set_defaults(func=_cmd_merge)


def _cmd_merge(a: argparse.Namespace) -> int:
    if not a.dry_run:
        require_installed("train", "merging with verl's model merger", "verl", "torch")
    from verifiers_train.merge import find_checkpoint, merge

    echo = stderr_line if a.json else print
    out = merge(a.checkpoint, a.out, component=a.component, trust_remote_code=a.trust_remote_code,
                dry_run=a.dry_run, echo=echo)
    if a.json:
        emit_json({"checkpoint": str(find_checkpoint(a.checkpoint, a.component)), "out": str(out),
                   "dry_run": a.dry_run})
    return 0


# ---------------------------------------------------------------- report
def _add_report(sub: Any) -> None:
    p = sub.add_parser("report", help="plot a run's curves and flag warning signs (PNG + HTML)")
    p.add_argument("run_dir", help="run directory (or a metrics .jsonl file)")
    p.add_argument("-o", "--out", help="output folder (default RUN_DIR/report)")
    p.add_argument("--strict", action="store_true", help="exit 1 when any warning sign is raised")
    add_json(p, "the warning signs and written files")
    p.set_defaults(func=_cmd_report)


def _cmd_report(a: argparse.Namespace) -> int:
    require_installed("eval", "plotting a run", "matplotlib")
    from verifiers_train.report import build_report

    r = build_report(a.run_dir, a.out)
    human = sys.stderr if a.json else sys.stdout
    for f in r.flags:
        print(f"{f.status:>5}  {f.name:<15} {f.detail}", file=human)
    print(f"wrote {r.html} and {len(r.pngs)} PNGs", file=human)
    if a.json:
        emit_json({"html": str(r.html), "pngs": [str(x) for x in r.pngs],
                   "flags": [asdict(f) for f in r.flags]})
    return 1 if a.strict and any(f.status == "warn" for f in r.flags) else 0


# ---------------------------------------------------------------- status
def _add_status(sub: Any) -> None:
    p = sub.add_parser("status", help="where a run stands: last checkpoint, validation, last steps, failures")
    p.add_argument("run_dir", help="run directory of `verifiers-train run`")
    p.add_argument("--last", type=int, default=4, help="how many of the last training steps to show")
    add_json(p, "the run's state")
    p.set_defaults(func=_cmd_status)


def _cmd_status(a: argparse.Namespace) -> int:
    from verifiers_train.verl_log import run_summary

    if not Path(a.run_dir).is_dir():
        raise DataError(f"no such run folder: {a.run_dir}")
    summary = run_summary(a.run_dir, last=a.last)
    if a.json:
        emit_json(summary)
        return 0
    def said(value: Any) -> str:
        return "none yet" if value is None else str(value)

    print(f"run {summary['run_dir']}: last checkpoint step {said(summary['checkpoint_step'])}, "
          f"last logged step {said(summary['last_step'])}")
    print("validation: " + (" ".join(f"{s}:{v:.4g}" for s, v in summary["validation"]) or "none yet"))
    for row in summary["steps"]:
        print("  " + "  ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()))
    for failure in summary["failures"]:
        print(failure)
    return 0


SUBCOMMANDS: dict[str, Registrar | str] = {
    "prepare": _add_prepare,
    "run": _add_run,
    "status": _add_status,
    "merge": _add_merge,
    "report": _add_report,
    "tiny-model": "verifiers_train.tiny:register",
    "patch-verl": "verifiers_train.verl_patch:register",
}


def _registrar(entry: Registrar | str) -> Registrar:
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        return getattr(importlib.import_module(module), attr or "register")  # type: ignore[no-any-return]
    return entry


def build_parser() -> argparse.ArgumentParser:
    """The ``verifiers-train`` parser with every registered subcommand."""
    parser = CliParser(prog="verifiers-train", description=doc_summary(__doc__))
    add_common(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for entry in SUBCOMMANDS.values():
        _registrar(entry)(sub)
    for p in sub.choices.values():  # every subcommand, also those registered from other modules
        p.formatter_class = DefaultsFormatter
        if p.get_default("cli_parser") is None:
            p.set_defaults(cli_parser=p)
    return parser


def _resume_hint(ns: argparse.Namespace) -> str | None:
    """A run resumes by running the same command again (same settings, same --out)."""
    if ns.command != "run":
        return None
    return shlex.join(["verifiers-train", *sys.argv[1:]]) if sys.argv[1:2] == ["run"] else (
        "the same `verifiers-train run` command (same settings and --out)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (2 with one clear line for bad input)."""
    args = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in args:  # everything after `--` goes to verl/Hydra untouched
        i = args.index("--")
        args, extra = args[:i], args[i + 1:]
    parser = build_parser()

    def attach(ns: argparse.Namespace) -> None:
        ns.extra_overrides = extra
        if extra and ns.command != "run":
            ns.cli_parser.error("Hydra overrides after `--` are only for `run`")

    return run_command(parser, args, before=attach, resume_hint=_resume_hint)


if __name__ == "__main__":
    sys.exit(main())
