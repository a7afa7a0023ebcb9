"""The conventions shared by ``verifiers``, ``verifiers-train`` and ``verifiers-eval``.

- task selection is ``--task`` (``--dataset`` is kept as a hidden alias, so older commands still run);
  input is ``--data`` (a file or a folder), output ``-o/--out``, scoring parallelism ``--workers``;
- bad input: one line ``PROG: error: MESSAGE`` on stderr and exit 2 (argparse's own format);
- ``--version`` on every tool, ``--json`` on every command that prints results, defaults in ``--help``;
- Ctrl-C: one line saying how to resume, exit 130, no traceback;
- a hub name is checked before use: an unreachable hub fails in seconds with one line, not after a
  minute of retries (``HF_HUB_OFFLINE=1`` is left to the libraries, which then read only their cache).

``tests/test_cli_conventions.py`` walks every subcommand of the three tools to keep them so.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit

from verifiers.errors import DataError, VerifiersError
from verifiers.hub import is_hub_name, missing_local

__all__ = ["CliParser", "DefaultsFormatter", "add_common", "add_json", "add_task", "bounded", "dataset_hub_name",
           "emit_json", "ensure_hub", "hidden_alias", "hub_unreachable", "is_hub_name", "missing_local", "one_line",
           "run_command", "version_string"]

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
HUB_PROBE_SECONDS = 3.0
_TRUE = ("1", "true", "yes", "on")
# An error line longer than this is cut in the middle: its start says what failed, its end often the fix.
MAX_ERROR_CHARS = 600
_Number = TypeVar("_Number", int, float)


def one_line(message: str, limit: int | None = MAX_ERROR_CHARS) -> str:
    """``message`` as one line: its lines stripped and joined with spaces, cut in the middle past ``limit``."""
    text = " ".join(part.strip() for part in message.splitlines() if part.strip())
    if limit is None or len(text) <= limit:
        return text
    cut = f" [... {len(text) - limit} characters cut ...] "
    head, tail = (limit * 3) // 4, limit // 4
    return text[:head].rstrip() + cut + text[len(text) - tail:].lstrip()


class CliParser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` whose errors are one line on stderr and exit 2, without the usage block.

    ``PROG: error: MESSAGE (see PROG --help)``. `add_subparsers` makes subparsers of the parent's class, so
    a tool built on this class gets it on every subcommand, registered anywhere.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line (not cut: it names the valid choices) and exit 2."""
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
    """Help with each option's default appended (``(default: 8)``) unless unset, off, or already said."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        help_text = action.help or ""
        default = action.default
        # identity, not ==: a default of 0 or 0.0 (--temperature, --seed) is a value to show, not "off"
        if (help_text == argparse.SUPPRESS or "default" in help_text or default is None or default is False
                or default is argparse.SUPPRESS or not action.option_strings):
            return action.help
        return f"{help_text} (default: %(default)s)"


def version_string(prog: str) -> str:
    """``PROG X.Y.Z`` with the installed version of this package."""
    import verifiers

    return f"{prog} {verifiers.__version__}"


def add_common(parser: argparse.ArgumentParser) -> None:
    """``--version`` and the defaults-showing help on a top-level parser."""
    parser.formatter_class = DefaultsFormatter
    parser.add_argument("--version", action="version", version=version_string(parser.prog))


def hidden_alias(parser: argparse.ArgumentParser, flag: str, dest: str, **kwargs: Any) -> None:
    """An old flag name kept working but not shown in ``--help``."""
    parser.add_argument(flag, dest=dest, help=argparse.SUPPRESS, default=argparse.SUPPRESS, **kwargs)


def add_task(parser: argparse.ArgumentParser, choices: Sequence[str], *, required: bool = True,
             help: str = "which task (scorer and dataset)", dest: str = "task") -> None:
    """``--task`` (with the hidden alias ``--dataset``); `run_command` enforces ``required``."""
    parser.add_argument("--task", dest=dest, choices=choices, default=None, help=help, metavar="{" +
                        ",".join(choices) + "}")
    hidden_alias(parser, "--dataset", dest, choices=choices)
    if required:
        parser.set_defaults(required_task_dest=dest)


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
        parser: the tool's parser; every subparser sets ``func`` and ``cli_parser`` (itself) as defaults.
        argv: the arguments (without the program name).
        before: called with the namespace before ``func`` (e.g. to attach extra arguments).
        resume_hint: the command that resumes an interrupted run, or ``None`` when rerunning is the way.

    Returns:
        The exit code: the command's, 2 for bad input, 130 when interrupted.
    """
    ns, rest = parser.parse_known_args(list(argv))
    sub: argparse.ArgumentParser = getattr(ns, "cli_parser", parser)
    if rest:  # reported by the subcommand, as its other errors are (argparse would name the top parser)
        sub.error(f"unrecognized arguments: {' '.join(rest)}")
    dest = getattr(ns, "required_task_dest", None)
    if dest and getattr(ns, dest, None) is None:
        sub.error("the following arguments are required: --task")
    try:
        if before is not None:
            before(ns)
        return int(ns.func(ns))
    except (VerifiersError, OSError) as e:  # unreadable or unwritable paths are bad input too
        # one line also when the message is a library's (transformers' are paragraphs)
        print(f"{sub.prog}: error: {one_line(str(e))}", file=sys.stderr)
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
