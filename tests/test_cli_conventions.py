"""One convention across `verifiers`, `verifiers-train` and `verifiers-eval`, checked on every subcommand.

Task selection ``--task`` (``--dataset`` a hidden alias), input ``--data``, output ``-o/--out``, scoring
parallelism ``--workers``, ``--json`` where results are printed, defaults in ``--help``, ``--version``,
``PROG: error: MESSAGE`` with exit 2 for bad input, and one line (no traceback) on Ctrl-C.
"""

from __future__ import annotations

import argparse
import importlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import verifiers.cli as verifiers_cli
import verifiers_train.cli as train_cli
import verifiers_train.evaluation.cli as eval_cli
from verifiers import __version__
from verifiers.cli_common import DefaultsFormatter

TOOLS: dict[str, tuple[Callable[[], argparse.ArgumentParser], Callable[..., int]]] = {
    "verifiers": (verifiers_cli.build_parser, verifiers_cli.main),
    "verifiers-train": (train_cli.build_parser, train_cli.main),
    "verifiers-eval": (eval_cli.build_parser, eval_cli.main),
}
OLD_NAMES = {"--dataset", "--source", "--test-source", "--output", "--score-workers"}
# verl actor counts in `run`: other things than the scorer's parallelism, so other names.
VERL_WORKERS = {"--reward-workers", "--agent-workers", "--dataloader-workers"}


def _subcommands() -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    for tool, (build, _) in TOOLS.items():
        parser = build()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield tool, name, sub


SUBCOMMANDS = list(_subcommands())
IDS = [f"{tool} {name}" for tool, name, _ in SUBCOMMANDS]


def _visible(sub: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in sub._actions if a.option_strings and a.help != argparse.SUPPRESS]


def _hidden(sub: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in sub._actions if a.option_strings and a.help == argparse.SUPPRESS]


def test_every_subcommand_is_walked() -> None:
    names = {(tool, name) for tool, name, _ in SUBCOMMANDS}
    assert {("verifiers", "score"), ("verifiers", "validate"), ("verifiers-eval", "checkpoint"),
            ("verifiers-eval", "score"), ("verifiers-eval", "compare"), ("verifiers-train", "prepare"),
            ("verifiers-train", "run"), ("verifiers-train", "status"), ("verifiers-train", "merge"),
            ("verifiers-train", "report")} <= names


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_version(tool: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        TOOLS[tool][1](["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"{tool} {__version__}"


@pytest.mark.parametrize(("tool", "name", "sub"), SUBCOMMANDS, ids=IDS)
def test_defaults_are_shown_in_help(tool: str, name: str, sub: argparse.ArgumentParser) -> None:
    assert issubclass(sub.formatter_class, DefaultsFormatter)
    formatter = sub.formatter_class(prog=sub.prog)
    for action in _visible(sub):
        if action.default in (None, False, argparse.SUPPRESS) or isinstance(action, argparse._HelpAction):
            continue
        assert "default" in (formatter._get_help_string(action) or ""), (action.option_strings, action.default)
    sub.format_help()  # every help string formats (a stray % would raise here)


@pytest.mark.parametrize(("tool", "name", "sub"), SUBCOMMANDS, ids=IDS)
def test_flag_names(tool: str, name: str, sub: argparse.ArgumentParser) -> None:
    visible = {s for a in _visible(sub) for s in a.option_strings}
    hidden = {s: a.dest for a in _hidden(sub) for s in a.option_strings}
    assert not visible & OLD_NAMES, "old names are hidden aliases only"
    if "--dataset" in hidden:  # the old task flag still works, as an alias of --task
        task = next(a for a in _visible(sub) if "--task" in a.option_strings)
        assert hidden["--dataset"] == task.dest
    if "--out" in visible:
        out = next(a for a in _visible(sub) if "--out" in a.option_strings)
        assert out.option_strings == ["-o", "--out"]
    workers = {s for s in visible if s.endswith("workers")}
    assert workers <= {"--workers"} | VERL_WORKERS
    assert "--json" in visible, "a command that prints results offers --json"


@pytest.mark.parametrize(("tool", "name", "sub"), SUBCOMMANDS, ids=IDS)
def test_argparse_errors_use_the_shared_format(tool: str, name: str, sub: argparse.ArgumentParser,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        TOOLS[tool][1]([name, "--no-such-flag"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith(f"{tool} {name}: error: ")


# One bad input per tool that gets past argparse and is refused by the command itself.
BAD_INPUT = {
    "verifiers": ["score", "--task", "gsm8k", "/no/such/file.jsonl"],
    "verifiers-train": ["merge", "/no/such/checkpoint", "--out", "/tmp/x"],
    "verifiers-eval": ["compare", "/no/such/run"],
}


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_bad_input_is_one_line_and_exit_2(tool: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert TOOLS[tool][1](BAD_INPUT[tool]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(rf"{tool} {BAD_INPUT[tool][0]}: error: [^\n]+\n", err), err


def _interrupt(*_a: Any, **_k: Any) -> Any:
    raise KeyboardInterrupt


@pytest.mark.parametrize(("tool", "argv", "target", "hint"), [
    ("verifiers", ["score", "--task", "gsm8k", "x.jsonl"], ("verifiers.rows", "read_rows"), "run the same"),
    ("verifiers-eval", ["checkpoint", "./m", "--task", "arith", "--out", "/tmp/r"],
     ("verifiers_train.evaluation._run", "run_checkpoint"), "--out /tmp/r --resume"),
    ("verifiers-train", ["report", "/tmp/r"], ("verifiers_train.report", "build_report"), "run the same"),
])
def test_ctrl_c_prints_one_line_with_how_to_resume(tool: str, argv: list[str], target: tuple[str, str], hint: str,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(importlib.import_module(target[0]), target[1], _interrupt)
    monkeypatch.setattr("sys.argv", [tool, *argv])
    assert TOOLS[tool][1](argv) == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert f"{tool} {argv[0]}: interrupted" in err and hint in err
