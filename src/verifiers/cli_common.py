"""The conventions shared by ``verifiers``, ``verifiers-train`` and ``verifiers-eval``.

- task selection is ``--task`` (``--dataset`` is kept as a hidden alias, so older commands still run);
  input is ``--data`` (a file or a folder), output ``-o/--out``, scoring parallelism ``--workers``;
- bad input: one line ``PROG: error: MESSAGE`` on stderr and exit 2 (argparse's own format); a mistyped
  flag or choice names the closest one (``did you mean --task?``), and no flag is taken from a prefix;
- ``--version`` on every tool, ``--json`` on every command that prints results; ``--help`` shows every
  default, marks required flags, and is plain text (docstring markup such as double backquotes is dropped);
- a path that is not what is expected says so: ``no such file: PATH``, ``is a directory: PATH``;
- Ctrl-C: one line saying how to resume, exit 130, no traceback;
- a hub name is checked before use: an unreachable hub fails in seconds with one line, not after a
  minute of retries (``HF_HUB_OFFLINE=1`` is left to the libraries, which then read only their cache).

``tests/test_cli_conventions.py`` walks every subcommand of the three tools to keep them so.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit

from verifiers.errors import DataError, VerifiersError
from verifiers.hub import is_hub_name, missing_local
from verifiers.paths import os_error_message

__all__ = ["CliParser", "DefaultsFormatter", "add_common", "add_json", "add_task", "bounded", "dataset_hub_name",
           "doc_summary", "emit_json", "ensure_hub", "hidden_alias", "hub_unreachable", "is_hub_name", "missing_local",
           "one_line", "plain_text", "run_command", "show_default", "version_string"]

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
HUB_PROBE_SECONDS = 3.0
_TRUE = ("1", "true", "yes", "on")
# An error line longer than this is cut in the middle: its start says what failed, its end often the fix.
MAX_ERROR_CHARS = 600
_Number = TypeVar("_Number", int, float)
# reStructuredText/Markdown markup that docstrings carry into help text, and its plain-text replacement
_MARKUP = [
    (re.compile(r":[a-z]+(?::[a-z]+)?:`([^`\n]+)`"), r"\1"),  # Sphinx roles: :func:`name`
    (re.compile(r"``([^`\n]+)``"), r"\1"),  # inline literal
    (re.compile(r"(?<![\w`])`([^`\n]+)`(?![\w`])"), r"\1"),  # interpreted text, Markdown code
    (re.compile(r"(?<![\w*])\*\*(\S(?:[^*\n]*\S)?)\*\*(?![\w*])"), r"\1"),  # strong
    (re.compile(r"(?<![\w*])\*(\S(?:[^*\n]*?\S)?)\*(?![\w*])"), r"\1"),  # emphasis
    (re.compile(r"(?<=\S)::$", re.MULTILINE), ":"),  # "Examples::" before a literal block
]
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


def one_line(message: str, limit: int | None = MAX_ERROR_CHARS) -> str:
    """``message`` as one line: its lines stripped and joined with spaces, cut in the middle past ``limit``."""
    text = " ".join(part.strip() for part in message.splitlines() if part.strip())
    if limit is None or len(text) <= limit:
        return text
    cut = f" [... {len(text) - limit} characters cut ...] "
    head, tail = (limit * 3) // 4, limit // 4
    return text[:head].rstrip() + cut + text[len(text) - tail:].lstrip()


def plain_text(text: str) -> str:
    """``text`` without docstring markup: ``x`` (double backquotes), `x`, *x*, **x**, :role:`x` become x."""
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return text


def doc_summary(doc: str | None) -> str:
    """The first paragraph of a docstring as one line (a tool's ``--help`` description), never cut mid-sentence."""
    paragraph = (doc or "").strip().split("\n\n")[0]
    return " ".join(line.strip() for line in paragraph.splitlines())


def _closest(word: str, candidates: Sequence[str]) -> str | None:
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


class CliParser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` with the shared conventions; `add_subparsers` makes subparsers of the
    parent's class, so every subcommand of a tool built on it has them, wherever it is registered.

    - errors are one line ``PROG: error: MESSAGE (see PROG --help)`` and exit 2, without the usage block;
    - no abbreviations (``--ta`` is not ``--task``); an unknown flag or choice names the closest one;
    - help comes from `DefaultsFormatter` unless another formatter is passed;
    - `hidden_alias` names work as their flag (also for ``required``), unseen in ``--help``;
    - the namespace's ``cli_parser`` is the innermost parser that parsed it (the one to report errors).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        kwargs.setdefault("formatter_class", DefaultsFormatter)
        super().__init__(*args, **kwargs)
        self.aliases: dict[str, str] = {}  # hidden old flag -> the flag it stands for
        self._parsed_args: list[str] = []

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        """`argparse.ArgumentParser.parse_known_args` with hidden aliases replaced by their flags."""
        given = list(sys.argv[1:] if args is None else args)
        end = given.index("--") if "--" in given else len(given)
        self._parsed_args = [self._canonical(a) for a in given[:end]] + given[end:]
        ns, rest = super().parse_known_args(self._parsed_args, namespace)
        if getattr(ns, "cli_parser", None) is None:  # a subcommand's parser ran first and set itself
            ns.cli_parser = self
        return ns, rest

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """`parse_known_args`; arguments left over are refused by the innermost parser, with suggestions."""
        ns, rest = self.parse_known_args(args, namespace)
        if rest:
            sub = ns.cli_parser if isinstance(ns.cli_parser, CliParser) else self
            sub.error(sub.unrecognized(rest))
        return ns

    def _canonical(self, arg: str) -> str:
        flag, eq, value = arg.partition("=")
        return self.aliases[flag] + eq + value if flag in self.aliases else arg

    def visible_flags(self) -> list[str]:
        """The option strings shown in ``--help`` (what a suggestion may name)."""
        return [s for a in self._actions if a.help != argparse.SUPPRESS for s in a.option_strings]

    def unknown_flags(self, args: Sequence[str]) -> list[str]:
        """The flags in ``args`` that this parser does not know (``--taks``, ``--taks=x``); values are skipped."""
        unknown = []
        for arg in args:
            if arg == "--":
                break
            if not arg.startswith("-") or arg == "-" or _NEGATIVE_NUMBER.match(arg):
                continue
            flag = arg.partition("=")[0] if arg.startswith("--") else arg
            known = flag in self._option_string_actions or (
                not arg.startswith("--") and arg[:2] in self._option_string_actions)  # -oFILE
            if not known:
                unknown.append(arg)
        return unknown

    def unrecognized(self, args: Sequence[str]) -> str:
        """``unrecognized arguments: --taks (did you mean --task?)``: the message for arguments left over."""
        flags = self.visible_flags()
        said = []
        for arg in args:
            close = _closest(arg.partition("=")[0], flags) if arg.startswith("-") else None
            said.append(f"{arg} (did you mean {close}?)" if close else arg)
        return f"unrecognized arguments: {' '.join(said)}"

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """Refuse a value outside ``action.choices``, naming the closest choice."""
        choices = action.choices
        if choices is None or value in choices:  # type: ignore[operator]
            return
        names = [str(c) for c in choices]  # type: ignore[union-attr]
        close = _closest(str(value), names)
        hint = f"did you mean {close!r}? " if close else ""
        raise argparse.ArgumentError(action, f"invalid choice: {value!r} ({hint}choose from "
                                             f"{', '.join(map(repr, names))})")

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line (not cut: it names the valid choices) and exit 2.

        An unknown flag among this parser's arguments is named first, with the closest known flag: it is
        usually why another error happened (``--taks gsm8k``: ``--task`` is missing, ``gsm8k`` a stray value).
        """
        has_subcommands = any(isinstance(a, argparse._SubParsersAction) for a in self._actions)
        unknown = [] if has_subcommands else self.unknown_flags(self._parsed_args)
        if unknown and not message.startswith("unrecognized arguments:"):
            message = self.unrecognized(unknown)
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {one_line(message, None)} (see {self.prog} --help)\n")


def bounded(kind: type[_Number], *, at_least: _Number | None = None,
            at_most: _Number | None = None) -> Callable[[str], _Number]:
    """An argparse ``type``: the text as ``kind``, refused with one line outside ``[at_least, at_most]`` (or NaN)."""
    noun = "an integer" if kind is int else "a number"
    if at_least is not None and at_most is not None:
        noun += f" in [{at_least}, {at_most}]"
    elif at_least is not None:
        noun += f" >= {at_least}"
    elif at_most is not None:
        noun += f" <= {at_most}"

    def parse(text: str) -> _Number:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {noun}, got {text!r}") from None
        # written so that NaN, which compares false with everything, is refused too
        if not ((at_least is None or value >= at_least) and (at_most is None or value <= at_most)):
            raise argparse.ArgumentTypeError(f"must be {noun}, got {text}")
        return value

    parse.__name__ = kind.__name__
    return parse


class DefaultsFormatter(argparse.RawDescriptionHelpFormatter):
    """Plain-text help: each option's default appended (``(default: 8)``) unless unset, off, or already said;
    ``(required)`` after a required flag's help; docstring markup dropped (`plain_text`)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        help_text = action.help or ""
        if help_text == argparse.SUPPRESS:
            return action.help
        if action.required and action.option_strings:
            return f"{help_text} (required)"
        describe = getattr(action, "describe_default", None)
        if describe is not None:  # a default filled in later (None here): said by the command, at help time
            return f"{help_text} (default: {describe().replace('%', '%%')})"
        default = action.default
        # identity, not ==: a default of 0 or 0.0 (--temperature, --seed) is a value to show, not "off"
        if ("default" in help_text or default is None or default is False
                or default is argparse.SUPPRESS or not action.option_strings):
            return action.help
        return f"{help_text} (default: %(default)s)"

    def _expand_help(self, action: argparse.Action) -> str:
        return plain_text(super()._expand_help(action))

    def _format_text(self, text: str) -> str:
        return super()._format_text(plain_text(text))


def show_default(action: argparse.Action, describe: Callable[[], str]) -> argparse.Action:
    """Show ``describe()`` as ``action``'s default in ``--help``: for a flag whose default (``None`` in the
    parser) is filled in later, e.g. from the task's scorer; called only when help is printed."""
    action.describe_default = describe  # type: ignore[attr-defined]
    return action


def version_string(prog: str) -> str:
    """``PROG X.Y.Z`` with the installed version of this package."""
    import verifiers

    return f"{prog} {verifiers.__version__}"


def add_common(parser: argparse.ArgumentParser) -> None:
    """``--version`` and the defaults-showing help on a top-level parser."""
    parser.formatter_class = DefaultsFormatter
    parser.add_argument("--version", action="version", version=version_string(parser.prog))


def hidden_alias(parser: argparse.ArgumentParser, flag: str, dest: str, **kwargs: Any) -> None:
    """An old flag name kept working but not shown in ``--help``: on a `CliParser`, ``flag`` is read as the
    visible flag of ``dest`` (added before it), with that flag's type, choices and ``required``; ``kwargs``
    apply only to a plain `argparse.ArgumentParser`, where the alias is a hidden argument of its own.

    Raises:
        ValueError: no visible flag stores into ``dest`` yet.
    """
    if not isinstance(parser, CliParser):
        parser.add_argument(flag, dest=dest, help=argparse.SUPPRESS, default=argparse.SUPPRESS, **kwargs)
        return
    current = [a for a in parser._actions if a.dest == dest and a.option_strings and a.help != argparse.SUPPRESS]
    if not current:
        raise ValueError(f"hidden_alias {flag}: add the flag that stores into {dest!r} first")
    parser.aliases[flag] = current[0].option_strings[-1]


def add_task(parser: argparse.ArgumentParser, choices: Sequence[str], *, required: bool = True,
             help: str = "which task (scorer and dataset)", dest: str = "task") -> None:
    """``--task`` (with the hidden alias ``--dataset``)."""
    parser.add_argument("--task", dest=dest, choices=choices, default=None, required=required, help=help,
                        metavar="{" + ",".join(choices) + "}")
    hidden_alias(parser, "--dataset", dest, choices=choices)


def add_json(parser: argparse.ArgumentParser, what: str = "the results") -> None:
    """``--json``: print ``what`` as one JSON object on stdout (and the human summary on stderr)."""
    parser.add_argument("--json", action="store_true", help=f"print {what} as one JSON object on stdout")


def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout (paths and other objects as strings)."""
    print(json.dumps(obj, default=str, ensure_ascii=False))


def run_command(parser: argparse.ArgumentParser, argv: Sequence[str], *,
                before: Callable[[argparse.Namespace], None] | None = None,
                resume_hint: Callable[[argparse.Namespace], str | None] | None = None) -> int:
    """Parse ``argv`` and call the subcommand's ``func`` under the shared error and Ctrl-C conventions.

    Args:
        parser: the tool's parser (a `CliParser`); every subcommand's parser sets ``func`` as a default.
        argv: the arguments (without the program name).
        before: called with the namespace before ``func`` (e.g. to attach extra arguments).
        resume_hint: the command that resumes an interrupted run, or ``None`` when rerunning is the way.

    Returns:
        The exit code: the command's, 2 for bad input, 130 when interrupted.
    """
    ns, rest = parser.parse_known_args(list(argv))
    sub: argparse.ArgumentParser = getattr(ns, "cli_parser", parser)
    if rest:  # reported by the subcommand, as its other errors are (argparse would name the top parser)
        sub.error(sub.unrecognized(rest) if isinstance(sub, CliParser) else f"unrecognized arguments: "
                  f"{' '.join(rest)}")
    try:
        if before is not None:
            before(ns)
        return int(ns.func(ns))
    except (VerifiersError, OSError) as e:  # unreadable or unwritable paths are bad input too
        # one line also when the message is a library's (transformers' are paragraphs)
        text = os_error_message(e) if isinstance(e, OSError) and not isinstance(e, VerifiersError) else str(e)
        print(f"{sub.prog}: error: {one_line(text)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        hint = resume_hint(ns) if resume_hint else None
        print(f"\n{sub.prog}: interrupted" + (f"; resume with: {hint}" if hint else "; nothing was lost, "
                                               "run the same command again"), file=sys.stderr)
        return EXIT_INTERRUPTED


def dataset_hub_name(dataset: str, source: str | None) -> str | None:
    """The hub name a dataset load would contact, or ``None`` when it reads local files (or generates)."""
    from verifiers import tasks

    if source is None:
        if dataset not in tasks.names() or os.environ.get("VERIFIERS_DATA_DIR"):
            return None
        hub = tasks.get(dataset).hub  # None for a generated task (arith)
        return hub[0] if hub else None
    return source if is_hub_name(source) else None


def hub_unreachable(timeout: float = HUB_PROBE_SECONDS) -> str | None:
    """Why the hub cannot be reached now (one TCP connect), or ``None`` when it can or offline mode is on.

    With ``HF_HUB_OFFLINE`` set the libraries read only their cache and fail at once on a miss, so there is
    nothing to probe. A configured HTTPS/HTTP proxy is probed instead of the endpoint.
    """
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in _TRUE:
        return None
    endpoint = os.environ.get("HF_ENDPOINT") or "https://huggingface.co"
    url = urlsplit(endpoint)
    proxy = (os.environ.get(f"{url.scheme.upper()}_PROXY") or os.environ.get(f"{url.scheme}_proxy")
             if url.scheme in ("http", "https") else None)
    target = urlsplit(proxy) if proxy else url
    host = target.hostname or ""
    port = target.port or (443 if target.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except OSError as e:
        via = f" via proxy {target.hostname}:{port}" if proxy else ""
        return f"{endpoint}{via}: {e.strerror or type(e).__name__}"


def ensure_hub(name: str | None, what: str, fix: str) -> None:
    """Fail fast when ``name`` must come from a hub that cannot be reached (``None``: nothing comes from it).

    Raises:
        DataError: one line naming the unreachable endpoint, what needed it, and ``fix``.
    """
    reason = hub_unreachable() if name else None
    if reason:
        raise DataError(f"{what} {name!r} is not a local path, so it comes from the Hugging Face hub, which cannot be "
                        f"reached ({reason}); {fix}, or set HF_HUB_OFFLINE=1 to use a cached copy")
