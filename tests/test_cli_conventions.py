"""One convention across `verifiers`, `verifiers-train` and `verifiers-eval`, checked on every subcommand.

Task selection ``--task`` (``--dataset`` a hidden alias), input ``--data``, output ``-o/--out``, scoring
parallelism ``--workers``, ``--json`` where results are printed, ``--version``, ``PROG COMMAND: error:
MESSAGE`` (one line, no usage block) with exit 2 for bad input, and one line (no traceback) on Ctrl-C.
``--help`` is plain text, shows every default and marks required flags; no flag is read from a prefix, and a
mistyped flag or choice names the closest one. Paths that are not what is expected, and inputs without rows,
are one line each. The subcommands are read off the parsers (nested ones too), so a new one is checked as
soon as it is registered.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import verifiers.cli as verifiers_cli
import verifiers_train.cli as train_cli
import verifiers_train.evaluation.cli as eval_cli
from verifiers import __version__, tasks
from verifiers.cli_common import (
    MAX_ERROR_CHARS,
    CliParser,
    DefaultsFormatter,
    add_task,
    doc_summary,
    hidden_alias,
    one_line,
    plain_text,
    run_command,
    show_default,
)
from verifiers.errors import ConfigError, DataError, one_of
from verifiers.paths import input_file, input_folder, os_error_message

TOOLS: dict[str, tuple[Callable[[], argparse.ArgumentParser], Callable[..., int]]] = {
    "verifiers": (verifiers_cli.build_parser, verifiers_cli.main),
    "verifiers-train": (train_cli.build_parser, train_cli.main),
    "verifiers-eval": (eval_cli.build_parser, eval_cli.main),
}
OLD_NAMES = {"--dataset", "--source", "--test-source", "--output", "--score-workers"}
# verl actor counts in `run`: other things than the scorer's parallelism, so other names.
VERL_WORKERS = {"--reward-workers", "--agent-workers", "--dataloader-workers"}


PARSERS = {tool: build() for tool, (build, _) in TOOLS.items()}


def _children(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def _walk(parser: argparse.ArgumentParser, path: str = "") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser under ``parser`` as ``("data fetch", parser)``, at any depth, itself first (path "")."""
    yield path, parser
    for name, child in _children(parser):
        yield from _walk(child, f"{path} {name}".strip())


def _subcommands() -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    """The commands that run something: parsers without subcommands of their own, at any depth."""
    for tool, parser in PARSERS.items():
        for path, sub in _walk(parser):
            if path and not any(True for _ in _children(sub)):
                yield tool, path, sub


SUBCOMMANDS = list(_subcommands())
EVERY_PARSER = [(tool, path, sub) for tool, parser in PARSERS.items() for path, sub in _walk(parser)]
EVERY_PARSER_IDS = [f"{tool} {path}".strip() for tool, path, _ in EVERY_PARSER]
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
                yield (tool, name, "choice", [*name.split(), flag, "no-such-choice"],
                       "invalid choice" if a.type is None else flag)
            if a.type is not None and _refuses(a.type, NOT_A_NUMBER):
                yield tool, name, "type", [*name.split(), flag, NOT_A_NUMBER], f"{flag}: "
        if any(a.required for a in sub._actions):
            yield tool, name, "required", name.split(), "required"


BAD_ARGUMENTS = list(_bad_arguments())


def _visible(sub: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in sub._actions if a.option_strings and a.help != argparse.SUPPRESS]


def _aliases(sub: argparse.ArgumentParser) -> dict[str, str]:
    """Hidden old flag -> the flag it stands for."""
    assert isinstance(sub, CliParser)
    return sub.aliases


def _takes_value(action: argparse.Action) -> bool:
    """A flag with a value to default (not a plain switch; ``--x/--no-x`` counts: unset is a third state)."""
    return bool(action.option_strings) and (action.nargs != 0 or isinstance(action, argparse.BooleanOptionalAction))


def _minimal_argv(name: str, sub: argparse.ArgumentParser) -> list[str]:
    """``name``'s words and a value for each of its required arguments: a command line that parses."""
    argv = name.split()
    for a in sub._actions:
        if not a.required or isinstance(a, argparse._SubParsersAction):
            continue
        value = str(next(iter(a.choices))) if a.choices else "x"
        argv += [a.option_strings[-1], value] if a.option_strings else [value]
    return argv


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
    """Every flag that takes a value says its default, also one left unset (None) to be filled in later
    (the task's, the preset's, verl's, all), or says it is required."""
    assert issubclass(sub.formatter_class, DefaultsFormatter)
    formatter = sub.formatter_class(prog=sub.prog)
    for action in _visible(sub):
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        if not _takes_value(action) and any(action.default is v for v in (None, False)):
            continue  # a switch, off unless given
        said = formatter._get_help_string(action) or ""
        assert ("(required)" if action.required else "default") in said, (action.option_strings, said)
    sub.format_help()  # every help string formats (a stray % would raise here)


@pytest.mark.parametrize(("tool", "name", "sub"), SUBCOMMANDS, ids=IDS)
def test_required_flags_are_marked(tool: str, name: str, sub: argparse.ArgumentParser) -> None:
    """A required flag is outside brackets in the usage line and says ``(required)`` in its help; argparse
    itself refuses the command without it (so also when a hidden alias would have given it)."""
    usage = " ".join(sub.format_usage().split())
    help_text = " ".join(sub.format_help().split())
    for action in _visible(sub):
        flag = action.option_strings[0]
        if action.required:
            assert f"[{flag}" not in usage and f" {flag}" in usage, (flag, usage)
            assert re.search(rf"{re.escape(action.option_strings[-1])}\b[^\n]*?\(required\)", help_text), flag
        else:
            assert f"[{flag}" in usage, (flag, usage)
    if "--task" in sub._option_string_actions and name not in {"run", "tiny-model"}:
        assert sub._option_string_actions["--task"].required, "--task is required where a task must be named"


def test_a_default_filled_in_later_is_said_by_its_source() -> None:
    """``--timeout`` & co. are None (the scorer's Config fills them): --help says each task's value, read off
    the Config classes, so a changed Config default changes the help."""
    sub = dict(_children(PARSERS["verifiers"]))["score"]
    formatter = sub.formatter_class(prog=sub.prog)
    for flag in ("--timeout", "--rel-tol", "--max-chars", "--mode"):
        said = formatter._expand_help(sub._option_string_actions[flag])
        field = flag[2:].replace("-", "_")
        for task in tasks.names():
            config = tasks.get(task).scorer().Config
            default = {f.name: f.default for f in dataclasses.fields(config)}.get(field, dataclasses.MISSING)
            if default is not dataclasses.MISSING:
                assert f"{default} (" in said and task in said or said.endswith(f"(default: {default})"), (
                    flag, task, said)
    assert "10.0 (mbpp" in formatter._expand_help(sub._option_string_actions["--timeout"])  # seconds of CPU


def test_show_default_is_called_only_for_help() -> None:
    calls: list[int] = []
    parser = CliParser(prog="tool")
    show_default(parser.add_argument("--x", type=int, help="the x"), lambda: calls.append(1) or "5% of y")
    assert parser.parse_args([]).x is None and not calls
    assert "the x (default: 5% of y)" in " ".join(parser.format_help().split()) and calls


@pytest.mark.parametrize(("tool", "path", "parser"), EVERY_PARSER, ids=EVERY_PARSER_IDS)
def test_help_is_plain_text(tool: str, path: str, parser: argparse.ArgumentParser) -> None:
    """No docstring markup in any --help (descriptions, flag help, the subcommand list): nothing is left for
    `plain_text` to remove, and no RST literal (double backquotes) remains."""
    text = parser.format_help()
    assert plain_text(text) == text
    assert not re.search(r"(?<!`)``(?!`)", text), text
    assert not re.search(r":[a-z]+:`", text), text


@pytest.mark.parametrize(("tool", "path", "parser"), EVERY_PARSER, ids=EVERY_PARSER_IDS)
def test_descriptions_are_whole_sentences(tool: str, path: str, parser: argparse.ArgumentParser) -> None:
    """A description (a tool's comes from its module docstring) is never cut mid-sentence."""
    first = (parser.description or "").split("\n\n")[0].strip()
    if first:
        assert first[-1] in ".!?:)", first[-80:]
    if not path:
        module = sys.modules[TOOLS[tool][0].__module__]
        assert parser.description == doc_summary(module.__doc__)


def test_plain_text_drops_markup_and_keeps_the_rest() -> None:
    assert plain_text("``verifiers-eval``: rescore (``score``), :func:`load`, `x`, *bad row*, **b**") == (
        "verifiers-eval: rescore (score), load, x, bad row, b")
    assert plain_text("Examples::\n\n    x") == "Examples:\n\n    x"
    for kept in ("2 * 3 * 4", "*.jsonl and *.json", "a*b", "a ```python block", "it's", "x:: y"):
        assert plain_text(kept) == kept
    assert doc_summary("First line\ngoes on.\n\nSecond paragraph.") == "First line goes on."


@pytest.mark.parametrize(("tool", "path", "parser"), EVERY_PARSER, ids=EVERY_PARSER_IDS)
def test_no_flag_is_read_from_a_prefix(tool: str, path: str, parser: argparse.ArgumentParser) -> None:
    assert isinstance(parser, CliParser) and parser.allow_abbrev is False


@pytest.mark.parametrize(("tool", "name", "sub"), SUBCOMMANDS, ids=IDS)
def test_prefixes_and_typos_name_the_closest_flag(tool: str, name: str, sub: argparse.ArgumentParser,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """For every visible long flag: a prefix of it (``--ta``) and a transposition (``--taks``) are refused
    in one line that suggests the flag, whatever other argument is missing."""
    assert isinstance(sub, CliParser)
    flags = set(sub.visible_flags())
    for flag in sorted(f for f in flags if f.startswith("--") and len(f) > 5):
        for wrong in (flag[:-1], flag[:-2] + flag[-1] + flag[-2]):
            if wrong in flags or wrong in sub.aliases:
                continue
            with pytest.raises(SystemExit) as exit_info:
                run_command(PARSERS[tool], [*name.split(), wrong, "1"], before=_must_not_run)
            assert exit_info.value.code == 2
            err = capsys.readouterr().err
            assert re.fullmatch(rf"{tool} {name}: error: [^\n]+\n", err), err
            suggested = re.search(r"\(did you mean (\S+)\?\)", err)
            assert suggested and suggested.group(1) in flags, (wrong, err)
            if wrong == flag[:-1]:  # a prefix names its own flag unless another is as close
                assert suggested.group(1).startswith(wrong), (wrong, err)


def _must_not_run(ns: argparse.Namespace) -> None:
    raise AssertionError(f"parsed, so the command would run: {ns}")


def _choice_actions() -> Iterator[tuple[str, str, str, list[str]]]:
    """(tool, command, flag, argv before the value) for every flag with choices, and each tool's command."""
    for tool, name, sub in SUBCOMMANDS:
        for a in _visible(sub):
            if a.choices is not None and a.nargs != 0 and len(str(next(iter(a.choices)))) > 1:
                yield tool, name, a.option_strings[-1], [*name.split(), a.option_strings[-1]]
    for tool in TOOLS:
        yield tool, "", "command", []


CHOICES = list(_choice_actions())


@pytest.mark.parametrize(("tool", "name", "flag", "argv"), CHOICES,
                         ids=[f"{t} {n} {f}" for t, n, f, _ in CHOICES])
def test_a_mistyped_choice_names_the_closest(tool: str, name: str, flag: str, argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    parser = PARSERS[tool]
    for path, sub in _walk(parser):
        if path == name:
            break
    action = sub._option_string_actions[flag] if flag.startswith("-") else next(
        a for a in sub._actions if isinstance(a, argparse._SubParsersAction))
    choices = [str(c) for c in action.choices]
    wrong = choices[0] + "x"
    with pytest.raises(SystemExit) as exit_info:
        parser.parse_known_args([*argv, wrong])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert (f"invalid choice: {wrong!r} (did you mean {choices[0]!r}? choose from "
            f"{', '.join(map(repr, choices))})" in err), err


@pytest.mark.parametrize(("tool", "name", "sub"), SUBCOMMANDS, ids=IDS)
def test_flag_names(tool: str, name: str, sub: argparse.ArgumentParser) -> None:
    visible = {s for a in _visible(sub) for s in a.option_strings}
    hidden = _aliases(sub)
    assert not visible & OLD_NAMES, "old names are hidden aliases only"
    assert not [a for a in _visible(sub) if a.help == argparse.SUPPRESS], "hidden flags go through hidden_alias"
    if "--dataset" in hidden:  # the old task flag still works, as an alias of --task
        assert hidden["--dataset"] == "--task"
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
        for flag in set(_aliases(sub)) & OLD_NAMES:
            homes.setdefault(flag, set()).add((tool, name))
    with_task = {(tool, name) for tool, name, sub in SUBCOMMANDS if "--task" in sub._option_string_actions}
    assert homes == {
        "--dataset": with_task,
        "--source": {("verifiers-train", "prepare")}, "--test-source": {("verifiers-train", "prepare")},
        "--output": {("verifiers", "score"), ("verifiers", "validate")},
        "--score-workers": {("verifiers-eval", "checkpoint"), ("verifiers-eval", "score")},
    }


ALIASES = [(tool, name, alias, flag) for tool, name, sub in SUBCOMMANDS for alias, flag in _aliases(sub).items()]


@pytest.mark.parametrize(("tool", "name", "alias", "flag"), ALIASES, ids=[f"{t} {n} {a}" for t, n, a, _ in ALIASES])
def test_a_hidden_alias_parses_as_its_flag(tool: str, name: str, alias: str, flag: str) -> None:
    """``--dataset gsm8k`` and ``--dataset=gsm8k`` are ``--task gsm8k``, also where --task is required."""
    sub = next(s for t, n, s in SUBCOMMANDS if (t, n) == (tool, name))
    action = sub._option_string_actions[flag]
    value = str(next(iter(action.choices))) if action.choices else "7"
    base = [a for a in _minimal_argv(name, sub)]
    if flag in base:  # a required flag: given only by its alias
        i = base.index(flag)
        del base[i:i + 2]
    got = [PARSERS[tool].parse_known_args(base + given)[0] for given in
           ([flag, value], [alias, value], [f"{alias}={value}"])]
    assert getattr(got[0], action.dest) == getattr(got[1], action.dest) == getattr(got[2], action.dest) is not None
    assert alias not in " ".join(sub.format_help().split()), "a hidden alias stays out of --help"


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
    name = " ".join(argv[:len(name.split())])
    assert re.fullmatch(rf"{tool} {name}: error: [^\n]+ \(see {tool} {name} --help\)\n", captured.err), captured.err
    assert names in captured.err and not captured.out


@pytest.mark.parametrize(("tool", "name", "sub"), SUBCOMMANDS, ids=IDS)
def test_argparse_errors_use_the_shared_format(tool: str, name: str, sub: argparse.ArgumentParser,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        TOOLS[tool][1]([*name.split(), "--no-such-flag"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err  # the unknown flag is named first, also when a required argument is missing
    assert re.fullmatch(rf"{tool} {name}: error: unrecognized arguments: --no-such-flag[^\n]* "
                        rf"\(see {tool} {name} --help\)\n", err), err


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


# Commands whose positional ``file`` is a file of rows (read by `verifiers.rows.read_rows`), read off the parsers.
ROW_FILE_COMMANDS = [(tool, name) for tool, name, sub in SUBCOMMANDS
                     if any(a.dest == "file" and not a.option_strings for a in sub._actions)]


def _rows_argv(name: str, path: str, out: Path) -> list[str]:
    return [*name.split(), path, "--task", "gsm8k", "--out", str(out)]


def test_row_file_commands_are_found() -> None:
    assert {("verifiers", "score"), ("verifiers-eval", "score")} <= set(ROW_FILE_COMMANDS)


@pytest.mark.parametrize(("tool", "name"), ROW_FILE_COMMANDS, ids=[f"{t} {n}" for t, n in ROW_FILE_COMMANDS])
@pytest.mark.parametrize("case", ["missing", "directory", "empty", "blank lines", "empty stdin", "all rows bad"])
def test_a_path_that_is_not_a_file_of_rows_is_one_line(tool: str, name: str, case: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``no such file``, ``is a directory`` and ``no rows in`` (an empty input is bad input: exit 2, as for
    `verifiers validate` and prepare), one line each, and nothing written."""
    out = tmp_path / "out"
    path = {"missing": tmp_path / "nope.jsonl", "directory": tmp_path / "folder.jsonl",
            "empty": tmp_path / "empty.jsonl", "blank lines": tmp_path / "blank.jsonl",
            "all rows bad": tmp_path / "bad.jsonl"}.get(case)
    if case == "directory":
        path.mkdir()  # type: ignore[union-attr]
    elif case in ("empty", "blank lines"):
        path.write_text("" if case == "empty" else "\n  \n\n", encoding="utf-8")  # type: ignore[union-attr]
    elif case == "all rows bad":  # with --skip-bad-rows: nothing left to score is no result either
        path.write_text('[1]\n{"response": 4, "gold": "4"}\n', encoding="utf-8")  # type: ignore[union-attr]
    if case == "empty stdin":
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    arg = "-" if path is None else str(path)
    assert TOOLS[tool][1](_rows_argv(name, arg, out) + ["--skip-bad-rows"] * (case == "all rows bad")) == 2
    err = capsys.readouterr().err
    said = {"all rows bad": "none of its 2 rows can be scored; first: row 1: ","missing": f"no such file: {path}", "directory": f"is a directory: {path}",
            "empty": f"no rows in {path}", "blank lines": f"no rows in {path}", "empty stdin": "no rows in stdin"}
    assert re.fullmatch(rf"{tool} {name}: error: [^\n]*{re.escape(said[case])}[^\n]*\n", err), err
    assert not out.exists()


def test_an_os_error_names_its_path_in_the_same_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An output path that is a directory: the OSError is worded as the checks are, not ``[Errno 21] ...``."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"response": "#### 4", "gold": "4"}\n', encoding="utf-8")
    assert TOOLS["verifiers"][1](["score", "--task", "gsm8k", str(rows), "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"verifiers score: error: is a directory: {tmp_path}\n"


def test_os_error_message() -> None:
    import errno

    assert os_error_message(FileNotFoundError(errno.ENOENT, "No such file", "/x")) == "no such file or directory: /x"
    assert os_error_message(PermissionError(errno.EACCES, "denied", "/x")) == "permission denied: /x"
    assert os_error_message(OSError("no path here")) == "no path here"


def test_input_file_and_folder(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    assert input_file(tmp_path / "f") == tmp_path / "f" and input_folder(tmp_path) == tmp_path
    with pytest.raises(DataError, match=f"^is a directory: {tmp_path} "):
        input_file(tmp_path)
    with pytest.raises(DataError, match="^no such file: "):
        input_file(tmp_path / "g")
    with pytest.raises(DataError, match="^not a directory: .* \\(expected a run folder\\)"):
        input_folder(tmp_path / "f", "run folder")
    with pytest.raises(DataError, match="^no such run folder: "):
        input_folder(tmp_path / "g", "run folder")


def test_a_new_nested_subcommand_gets_every_convention(capsys: pytest.CaptureFixture[str]) -> None:
    """A subcommand registered the plain argparse way (no formatter, no cli_parser, nested two deep, as
    ``verifiers data fetch``) gets the conventions from `CliParser` alone."""
    tool = CliParser(prog="tool")
    data = tool.add_subparsers(dest="command", required=True).add_parser("data", help="data")
    fetch = data.add_subparsers(dest="action", required=True).add_parser("fetch", help="fetch ``it``")
    add_task(fetch, ["gsm8k", "math"])
    hidden_alias(fetch, "--old-task", "task")
    fetch.add_argument("--out", default=None, help="where")
    fetch.set_defaults(func=lambda ns: 0)
    assert all(isinstance(p, CliParser) and not p.allow_abbrev and issubclass(p.formatter_class, DefaultsFormatter)
               for p in (data, fetch))
    assert "fetch it" in data.format_help()
    assert "--task {gsm8k,math} which task (scorer and dataset) (required)" in " ".join(fetch.format_help().split())
    ns, _ = tool.parse_known_args(["data", "fetch", "--old-task=math"])
    assert ns.task == "math" and ns.cli_parser is fetch
    for argv, said in ((["data", "fetch", "--taks", "math"], "unrecognized arguments: --taks (did you mean --task?)"),
                       (["data", "fetch", "--ta", "math"], "unrecognized arguments: --ta (did you mean --task?)"),
                       (["data", "fetch", "--task", "mat"], "invalid choice: 'mat' (did you mean 'math'?"),
                       (["data", "fetch"], "the following arguments are required: --task"),
                       (["data", "ftech"], "invalid choice: 'ftech' (did you mean 'fetch'?")):
        with pytest.raises(SystemExit) as exit_info:
            run_command(tool, argv, before=_must_not_run)
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        prog = "tool data" if argv[1] == "ftech" else "tool data fetch"
        assert err.startswith(f"{prog}: error: ") and said in err and err.count("\n") == 1, err
    assert run_command(tool, ["data", "fetch", "--task", "gsm8k", "--out", "x"]) == 0


def test_parse_args_suggests_too(capsys: pytest.CaptureFixture[str]) -> None:
    """A command line parsed with plain ``parse_args`` (``python -m verifiers_train.tiny``) gets the same."""
    parser = CliParser(prog="tool")
    sub = parser.add_subparsers(dest="command").add_parser("go")
    sub.add_argument("--limit", type=int, default=None, help="at most N (default: all)")
    assert parser.parse_args(["go", "--limit", "3"]).limit == 3
    with pytest.raises(SystemExit):
        parser.parse_args(["go", "--limt", "3"])
    assert capsys.readouterr().err == ("tool go: error: unrecognized arguments: --limt (did you mean --limit?) 3 "
                                       "(see tool go --help)\n")


def test_a_name_checked_after_parsing_names_the_closest_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Free-text flags checked by the command (`verifiers.errors.one_of`: presets, templates) suggest as
    argparse choices do."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"response": "#### 4", "gold": "4"}\n', encoding="utf-8")
    argv = ["score", str(rows), "--task", "gsm8k", "--preset", "boook", "-o", str(tmp_path / "out")]
    assert TOOLS["verifiers-eval"][1](argv) == 2
    assert capsys.readouterr().err == ("verifiers-eval score: error: unknown preset 'boook'; did you mean 'book'? "
                                       "choose one of accuracy, book, grail\n")
    with pytest.raises(ConfigError, match=r"^unknown colour 'zzz'; choose one of red, green$"):
        one_of("zzz", ["red", "green"], "colour")
