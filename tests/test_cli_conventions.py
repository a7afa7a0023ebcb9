"""One convention across `verifiers`, `verifiers-train` and `verifiers-eval`, checked on every subcommand.

Task selection ``--task`` (``--dataset`` a hidden alias), input ``--data``, output ``-o/--out``, scoring
parallelism ``--workers``, ``--json`` where results are printed, defaults in ``--help``, ``--version``,
``PROG COMMAND: error: MESSAGE`` (one line, no usage block) with exit 2 for bad input, and one line (no
traceback) on Ctrl-C.
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
from verifiers.cli_common import MAX_ERROR_CHARS, CliParser, DefaultsFormatter, one_line

TOOLS: dict[str, tuple[Callable[[], argparse.ArgumentParser], Callable[..., int]]] = {
    "verifiers": (verifiers_cli.build_parser, verifiers_cli.main),
    "verifiers-train": (train_cli.build_parser, train_cli.main),
    "verifiers-eval": (eval_cli.build_parser, eval_cli.main),
}
OLD_NAMES = {"--dataset", "--source", "--test-source", "--output", "--score-workers"}
# verl actor counts in `run`: other things than the scorer's parallelism, so other names.
VERL_WORKERS = {"--reward-workers", "--agent-workers", "--dataloader-workers"}


PARSERS = {tool: build() for tool, (build, _) in TOOLS.items()}


def _leaves(parser: argparse.ArgumentParser, prefix: str = "") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """(name, parser) of every command that runs; a group's (``verifiers data``) are named ``data fetch``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                groups = [a for a in sub._actions if isinstance(a, argparse._SubParsersAction)]
                yield from _leaves(sub, f"{prefix}{name} ") if groups else [(f"{prefix}{name}", sub)]


def _subcommands() -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    for tool, parser in PARSERS.items():
        for name, sub in _leaves(parser):
            yield tool, name, sub


SUBCOMMANDS = list(_subcommands())
IDS = [f"{tool} {name}" for tool, name, _ in SUBCOMMANDS]
NOT_A_NUMBER = "not-a-number"


def _refuses(kind: Callable[[str], Any], text: str) -> bool:
    try:
        kind(text)
    except (TypeError, ValueError, argparse.ArgumentTypeError):
        return True
    return False


def _bad_arguments() -> Iterator[tuple[str, str, str, list[str], str]]:
    """(tool, command, kind, argv, a word the error names) for every flag with choices or a numeric type,
    and for every command that has a required argument, read off the parsers."""
    for tool, name, sub in SUBCOMMANDS:
        for a in sub._actions:
            if not a.option_strings or a.nargs == 0:
                continue
            flag = a.option_strings[-1]
            if a.choices is not None:
                yield tool, name, "choice", [*name.split(), flag, "no-such-choice"], "invalid choice" if a.type is None else flag
            if a.type is not None and _refuses(a.type, NOT_A_NUMBER):
                yield tool, name, "type", [*name.split(), flag, NOT_A_NUMBER], f"{flag}: "
        if any(a.required for a in sub._actions) or sub.get_default("required_task_dest"):
            yield tool, name, "required", name.split(), "required"


BAD_ARGUMENTS = list(_bad_arguments())


def _visible(sub: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in sub._actions if a.option_strings and a.help != argparse.SUPPRESS]


def _hidden(sub: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in sub._actions if a.option_strings and a.help == argparse.SUPPRESS]


def test_every_subcommand_is_walked() -> None:
    names = {(tool, name) for tool, name, _ in SUBCOMMANDS}
    assert {("verifiers", "score"), ("verifiers", "validate"), ("verifiers-eval", "checkpoint"),
            ("verifiers-eval", "score"), ("verifiers-eval", "compare"), ("verifiers-train", "prepare"),
            ("verifiers-train", "run"), ("verifiers-train", "status"), ("verifiers-train", "merge"),
            ("verifiers-train", "report"), ("verifiers", "data fetch")} <= names


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
        if any(action.default is v for v in (None, False, argparse.SUPPRESS)) or isinstance(action, argparse._HelpAction):
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


def test_old_names_work_exactly_where_the_readme_says() -> None:
    """README 'CLI conventions' lists where each old name still works; no more, no fewer."""
    homes: dict[str, set[tuple[str, str]]] = {}
    for tool, name, sub in SUBCOMMANDS:
        for flag in {s for a in _hidden(sub) for s in a.option_strings} & OLD_NAMES:
            homes.setdefault(flag, set()).add((tool, name))
    with_task = {(tool, name) for tool, name, sub in SUBCOMMANDS if "--task" in sub._option_string_actions}
    assert homes == {
        "--dataset": with_task,
        "--source": {("verifiers-train", "prepare")}, "--test-source": {("verifiers-train", "prepare")},
        "--output": {("verifiers", "score"), ("verifiers", "validate")},
        "--score-workers": {("verifiers-eval", "checkpoint"), ("verifiers-eval", "score")},
    }


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_every_parser_prints_one_line_errors(tool: str) -> None:
    """Subparsers take their parent's class, also those registered from other modules."""
    assert isinstance(PARSERS[tool], CliParser)
    assert all(isinstance(sub, CliParser) for t, _, sub in SUBCOMMANDS if t == tool)


def test_bad_arguments_cover_every_tool_and_kind() -> None:
    assert {(tool, kind) for tool, _, kind, _, _ in BAD_ARGUMENTS} == {
        (tool, kind) for tool in TOOLS for kind in ("choice", "type", "required")}


@pytest.mark.parametrize(("tool", "name", "kind", "argv", "names"), BAD_ARGUMENTS,
                         ids=[f"{t} {' '.join(argv)}" for t, _, _, argv, _ in BAD_ARGUMENTS])
def test_argparse_errors_are_one_line(tool: str, name: str, kind: str, argv: list[str], names: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        TOOLS[tool][1](argv)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert re.fullmatch(rf"{tool} {name}: error: [^\n]+ \(see {tool} {name} --help\)\n", captured.err), captured.err
    assert names in captured.err and not captured.out


@pytest.mark.parametrize(("tool", "name", "sub"), SUBCOMMANDS, ids=IDS)
def test_argparse_errors_use_the_shared_format(tool: str, name: str, sub: argparse.ArgumentParser,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        TOOLS[tool][1]([*name.split(), "--no-such-flag"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err  # a command with a required argument names that first
    assert re.fullmatch(rf"{tool} {name}: error: [^\n]+ \(see {tool} {name} --help\)\n", err), err


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


def test_a_multi_line_error_is_printed_as_one_line(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def unreadable(*_a: Any, **_k: Any) -> Any:  # the shape of transformers' OSErrors: a paragraph
        raise OSError("Can't load tokenizer for '/m'.\n\n  Make sure that:\n- '/m' is a correct model identifier\n")

    monkeypatch.setattr(importlib.import_module("verifiers_train.report"), "build_report", unreadable)
    assert TOOLS["verifiers-train"][1](["report", "/tmp/r"]) == 2
    assert capsys.readouterr().err == ("verifiers-train report: error: Can't load tokenizer for '/m'. Make sure that: "
                                       "- '/m' is a correct model identifier\n")


def test_a_very_long_error_keeps_its_start_and_end() -> None:
    text = "what failed: " + "x" * 5000 + " how to fix it"
    line = one_line(text)
    assert line.startswith("what failed: ") and line.endswith(" how to fix it")
    assert len(line) < MAX_ERROR_CHARS + 50 and "characters cut" in line
    assert one_line("short\nenough") == "short enough"
