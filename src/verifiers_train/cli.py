"""``verifiers-train``: prepare data, run verl, merge checkpoints, report on runs.

Subcommands register through `SUBCOMMANDS` (name -> registrar, or ``"module:function"`` imported on
demand), so adding one is a one-line edit::

    SUBCOMMANDS["tiny-model"] = "verifiers_train.tiny:register"

A registrar receives the ``add_subparsers()`` object, adds its parser and sets ``func`` (called with the
parsed namespace; returns an exit code).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from verifiers.errors import VerifiersError

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

Registrar = Callable[[Any], None]


# ---------------------------------------------------------------- prepare
def _add_prepare(sub: Any) -> None:
    from verifiers import tasks
    from verifiers_train.prepare import DEFAULT_MAX_PROMPT_LENGTH
    from verifiers_train.templates import TEMPLATES

    p = sub.add_parser("prepare", help="write a dataset as verl parquet (train.parquet/test.parquet)",
                       description="Write a dataset as verl 0.9.1 parquet files. Templates: " + "; ".join(
                           f"{t.name}: {t.description}" for t in TEMPLATES.values()))
    p.add_argument("--dataset", required=True, choices=tasks.names())
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--source", help="local .jsonl/.json/.parquet file or folder, or a hub name "
                                    "(default: VERIFIERS_DATA_DIR, else the hub; arith is generated)")
    p.add_argument("--test-source", help="separate source for the test split (e.g. MATH-500)")
    p.add_argument("--template", choices=sorted(TEMPLATES), help="prompt template (default per dataset)")
    p.add_argument("--system-prompt", help="replace the template's system prompt")
    p.add_argument("--max-prompt-length", type=int, default=DEFAULT_MAX_PROMPT_LENGTH,
                   help="drop prompts longer than this many tokens")
    p.add_argument("--tokenizer", help="tokenizer (model folder) to measure prompts; default: character estimate")
    p.add_argument("--limit", type=int, help="at most this many problems per split")
    p.add_argument("--data-source", help="override the data_source column")
    p.add_argument("--splits", help="output=source split pairs, e.g. 'train=train,test=test' or 'test=test'")
    p.set_defaults(func=_cmd_prepare)


def _cmd_prepare(a: argparse.Namespace) -> int:
    from verifiers.errors import ConfigError
    from verifiers_train.prepare import prepare

    splits = None
    if a.splits:
        try:
            splits = dict(pair.split("=", 1) for pair in a.splits.split(","))
        except ValueError:
            raise ConfigError(f"--splits {a.splits!r}: expected OUT=SOURCE pairs separated by commas") from None
    prepare(a.dataset, a.out, source=a.source, test_source=a.test_source, splits=splits, template=a.template,
            system_prompt=a.system_prompt, max_prompt_length=a.max_prompt_length, tokenizer=a.tokenizer,
            limit=a.limit, data_source=a.data_source)
    return 0


# ---------------------------------------------------------------- run
def _add_run(sub: Any) -> None:
    from verifiers_train.options import RunOptions, base_type, env_name, option_help
    from verifiers_train.presets import describe_presets

    p = sub.add_parser(
        "run", help="build, check and launch a verl PPO/GRPO run",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Build `python -m verl.trainer.main_ppo` with verl 0.9.1 keys, check it, and run it.\n"
                    "Every option can also be set by its environment variable (shown in brackets);\n"
                    "precedence: default < --preset < environment < flag < Hydra overrides after `--`.\n\n"
                    "presets:\n  " + describe_presets().replace("\n", "\n  "),
        epilog="example: verifiers-train run --algo grpo --dataset arith --model ./tiny-model --preset tiny "
               "--dry-run -- trainer.total_training_steps=5")
    for f in fields(RunOptions):
        flag = "--" + f.name.replace("_", "-")
        help_text = f"{option_help(f.name)} [{env_name(f.name)}]"
        typ = base_type(f.name)
        if typ is bool:
            p.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction, default=None, help=help_text)
        else:
            p.add_argument(flag, dest=f.name, type=str, default=None, help=help_text,
                           metavar=typ.__name__.upper())
    p.add_argument("--dry-run", action="store_true", help="print and save the command and config; run nothing")
    p.add_argument("--check-verl", action=argparse.BooleanOptionalAction, default=None,
                   help="compose the config with verl's Hydra and run its validate_config first "
                        "(default: on for --dry-run)")
    p.set_defaults(func=_cmd_run)


def _cmd_run(a: argparse.Namespace) -> int:
    from verifiers_train.options import RunOptions
    from verifiers_train.run import launch, plan

    values = {f.name: getattr(a, f.name) for f in fields(RunOptions)}
    p = plan(values, extra_overrides=a.extra_overrides)
    _print_plan(p)
    check = a.check_verl if a.check_verl is not None else a.dry_run
    if check:
        from omegaconf import OmegaConf

        from verifiers_train.verl_check import compose, verl_validate

        models = [p.options.model] + ([p.options.algo_default("critic_model")] if p.options.algo == "ppo" else [])
        local = all(Path(str(m)).expanduser().is_dir() for m in models)
        if local or a.check_verl:
            config = verl_validate(p.argv[3:])
            what = "Hydra composition + validate_config"
        else:
            # validate_config loads the model's HF config; for a hub name that means the network (minutes
            # of retries offline), so an implicit check stops at verl's composition.
            config = compose(p.argv[3:])
            what = "Hydra composition; validate_config skipped for a hub model, pass --check-verl to force it"
        p.run_dir.mkdir(parents=True, exist_ok=True)
        (p.run_dir / "verl_config.yaml").write_text(OmegaConf.to_yaml(config), encoding="utf-8")
        print(f"verl accepted the config ({what}); saved {p.run_dir}/verl_config.yaml")
    if a.dry_run:
        from verifiers_train.run import same_run

        if not same_run(p.run_dir, p):
            from verifiers.errors import ConfigError

            raise ConfigError(f"{p.run_dir} holds a different run; pass another --out to save this dry run")
        p.save()
        print(f"dry run: saved {p.run_dir}/command.sh and {p.run_dir}/run_config.json")
        if p.needs_prepare:
            print(f"(data would be prepared into {p.data_dir} at launch)")
        return 0
    return launch(p)


def _print_plan(p: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(stderr=False)
    table = Table(title=f"verifiers-train run -> {p.run_dir}", show_lines=False)
    for col in ("option", "value", "from"):
        table.add_column(col)
    for name, value in vars(p.options).items():
        origin = p.origin.get(name, "default")
        if origin != "default" or value is not None:
            table.add_row(name, json.dumps(value) if not isinstance(value, str) else value, origin)
    console.print(table)
    for w in p.warnings:
        console.print(f"[yellow]warning:[/yellow] {w}")
    print(p.shell())


# ---------------------------------------------------------------- merge
def _add_merge(sub: Any) -> None:
    p = sub.add_parser("merge", help="merge a verl FSDP checkpoint into a Hugging Face folder")
    p.add_argument("checkpoint", help="actor folder, global_step_N folder, checkpoint root or run dir")
    p.add_argument("--out", required=True, help="target folder for the HF model")
    p.add_argument("--component", default="actor", choices=("actor", "critic"))
    p.add_argument("--trust-remote-code", action="store_true")
    p.add_argument("--dry-run", action="store_true", help="print the verl command only")
    p.set_defaults(func=_cmd_merge)


def _cmd_merge(a: argparse.Namespace) -> int:
    from verifiers_train.merge import merge

    merge(a.checkpoint, a.out, component=a.component, trust_remote_code=a.trust_remote_code, dry_run=a.dry_run)
    return 0


# ---------------------------------------------------------------- report
def _add_report(sub: Any) -> None:
    p = sub.add_parser("report", help="plot a run's curves and flag warning signs (PNG + HTML)")
    p.add_argument("run_dir", help="run directory (or a metrics .jsonl file)")
    p.add_argument("--out", help="output folder (default RUN_DIR/report)")
    p.add_argument("--strict", action="store_true", help="exit 1 when any warning sign is raised")
    p.set_defaults(func=_cmd_report)


def _cmd_report(a: argparse.Namespace) -> int:
    from verifiers_train.report import build_report

    r = build_report(a.run_dir, a.out)
    for f in r.flags:
        print(f"{f.status:>5}  {f.name:<15} {f.detail}")
    print(f"wrote {r.html} and {len(r.pngs)} PNGs")
    return 1 if a.strict and any(f.status == "warn" for f in r.flags) else 0


SUBCOMMANDS: dict[str, Registrar | str] = {
    "prepare": _add_prepare,
    "run": _add_run,
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
    parser = argparse.ArgumentParser(prog="verifiers-train", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for entry in SUBCOMMANDS.values():
        _registrar(entry)(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (2 with one clear line for bad input)."""
    args = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in args:  # everything after `--` goes to verl/Hydra untouched
        i = args.index("--")
        args, extra = args[:i], args[i + 1:]
    parser = build_parser()
    ns = parser.parse_args(args)
    ns.extra_overrides = extra
    if extra and ns.command != "run":
        parser.error("Hydra overrides after `--` are only for `run`")
    try:
        return int(ns.func(ns))
    except VerifiersError as e:
        print(f"verifiers-train {ns.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
