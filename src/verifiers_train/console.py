"""Terminal output shared by ``verifiers-train`` and ``verifiers-eval``: progress of long loops, tables.

Progress is a rich bar on a terminal when rich is installed, else plain lines with done/total, elapsed
time and ETA (a log file or a pipe cannot show a redrawn bar). Tables are rich tables, or aligned plain
text on a host without rich (the bare GPU image).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from verifiers.errors import ConfigError

__all__ = ["PROGRESS_MODES", "choose_progress", "format_eta", "print_table", "progress", "stderr_line"]

PROGRESS_MODES = ("auto", "bar", "lines")
# Plain progress lines: about ten per loop, and at least one every this many seconds.
LINE_SECONDS = 15


def stderr_line(line: str) -> None:
    """Print a progress line on stderr, so stdout carries only the results (JSON) for scripts."""
    print(line, file=sys.stderr, flush=True)


def choose_progress(mode: str, log: Callable[[str], Any] | None) -> str:
    """``bar``, ``lines`` or ``off`` for a requested mode (one of `PROGRESS_MODES`) and the current terminal.

    ``auto`` is a bar only when rich is installed, ``log`` prints to the terminal and stderr is one.
    """
    if mode not in PROGRESS_MODES:
        raise ConfigError(f"progress must be auto, bar or lines, not {mode!r}")
    if log is None:
        return "off"
    if mode == "auto":
        # a log file or a pipe gets plain lines: a redrawn bar there is unreadable
        rich_ok = importlib.util.find_spec("rich") is not None
        return "bar" if rich_ok and log in (print, stderr_line) and sys.stderr.isatty() else "lines"
    return mode


def format_eta(seconds: float) -> str:
    """``42 s``, ``3 min 05 s`` or ``1 h 02 min``."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


@contextmanager
def progress(mode: str, label: str, total: int, say: Callable[[str], Any], *,
             done: int = 0) -> Iterator[Callable[[int, str], None]]:
    """Yield ``advance(units, detail)`` for a loop over ``total`` units; shows done/total, elapsed and ETA.

    Args:
        mode: ``bar`` (rich, on stderr), ``lines`` (through ``say``) or ``off`` (see `choose_progress`).
        label: what the loop is (``SFT``, ``eval``).
        total: units of the whole loop.
        say: where plain lines go.
        done: units finished before this session (a resumed run); the ETA's rate counts only new ones.
    """
    if mode == "bar":
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[detail]}"))
        with Progress(*columns, console=Console(stderr=True)) as bar:
            task = bar.add_task(label, total=total, completed=done, detail="")
            yield lambda units, detail: bar.update(task, advance=units, detail=detail)
        return
    if mode == "off":
        yield lambda units, detail: None
        return
    start = last_line = time.perf_counter()
    first = done
    every = max(1, total // 10)

    def advance(units: int, detail: str) -> None:
        nonlocal done, last_line
        before, done = done, done + units
        now = time.perf_counter()
        if before // every == done // every and done != total and now - last_line < LINE_SECONDS:
            return
        last_line = now
        elapsed = now - start
        eta = elapsed / max(done - first, 1) * (total - done)
        say(f"{label} {done}/{total} ({done / total:.0%}) {detail}, {format_eta(elapsed)} elapsed, "
            f"ETA {format_eta(eta)}")

    yield advance


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], title: str,
                file: TextIO | None = None) -> None:
    """A titled table on ``file`` (default stdout): rich's, or aligned plain text without rich."""
    file = file or sys.stdout
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # bare GPU host: plain text
        print(title, file=file)
        for r in [header, *rows]:
            print("  ".join(f"{c:<28}" for c in r), file=file)
        return
    table = Table(*header, title=title)
    for r in rows:
        table.add_row(*r)
    Console(file=file).print(table)
