"""One input policy for rescoring rows of model responses (``verifiers score``, ``verifiers-eval score``).

- The file name ``-`` reads JSONL from standard input; files may be ``.jsonl``, ``.json`` (a list of
  objects) or ``.parquet``. A UTF-8 byte-order mark is dropped. An input without rows (an empty file,
  nothing on stdin) is refused, as bad input, with ``no rows in FILE``.
- A JSONL line that is not valid UTF-8 or not a JSON object is a *bad row*, as is a row whose response or
  reference breaks the policy below. By default the first bad row stops the command with one line naming
  it; ``--skip-bad-rows`` scores the others and reports how many were skipped.
- A response must be a string: a JSON list or number is not what a model wrote (``["#### 4"]`` is a
  bad row, never the text ``"['#### 4']"``). A gold may be a string or a number (JSON golds are often
  numbers); MBPP tests are a list of assert strings or that list JSON-encoded (as prepared parquet holds it).

Example:
    >>> response_of({"response": "#### 4"}, "response")
    '#### 4'
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from verifiers.errors import DataError
from verifiers.paths import input_file

__all__ = ["STDIN", "BadRow", "gold_of", "read_rows", "response_of", "tests_of"]

STDIN = "-"


@dataclass(frozen=True)
class BadRow:
    """A row that cannot be scored: its 1-based number in the input and why."""

    row: int
    reason: str

    def __str__(self) -> str:
        return f"row {self.row}: {self.reason}"


def _jsonl(lines: Iterable[bytes]) -> tuple[list[tuple[int, dict[str, Any]]], list[BadRow]]:
    rows: list[tuple[int, dict[str, Any]]] = []
    bad: list[BadRow] = []
    for n, raw in enumerate(lines, 1):
        if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]  # a byte-order mark some editors (and PowerShell) write
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad.append(BadRow(n, f"not valid UTF-8 (byte {e.start}: {raw[e.start:e.start + 1]!r})"))
            continue
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            bad.append(BadRow(n, f"not valid JSON ({e.msg} at column {e.colno})"))
            continue
        if not isinstance(obj, dict):
            bad.append(BadRow(n, f"a JSON {type(obj).__name__}, not an object"))
            continue
        rows.append((n, obj))
    return rows, bad


def read_rows(source: str | os.PathLike[str], stdin: BinaryIO | None = None
              ) -> tuple[list[tuple[int, dict[str, Any]]], list[BadRow]]:
    """Rows of a file (or ``-``: standard input, JSONL) as ``(row number, object)``, and the bad rows.

    Raises:
        DataError: the file is missing or a directory, holds no rows, or is a ``.json``/``.parquet`` file
            that cannot be read as a whole.
    """
    if str(source) == STDIN:
        return _some_rows(_jsonl((stdin or sys.stdin.buffer).read().splitlines()), "stdin")
    path = input_file(source)
    if path.suffix.lower() not in (".json", ".parquet"):
        return _some_rows(_jsonl(path.read_bytes().splitlines()), str(path))
    from verifiers.datasets import read_records

    records = read_records(path)  # read as a whole: an unreadable file is one error, not bad rows
    rows: list[tuple[int, dict[str, Any]]] = []
    bad: list[BadRow] = []
    for n, obj in enumerate(records, 1):
        if isinstance(obj, dict):
            rows.append((n, obj))
        else:
            bad.append(BadRow(n, f"a {type(obj).__name__}, not an object"))
    return _some_rows((rows, bad), str(path))


def _some_rows(read: tuple[list[tuple[int, dict[str, Any]]], list[BadRow]], name: str
               ) -> tuple[list[tuple[int, dict[str, Any]]], list[BadRow]]:
    """``read`` unless it holds no rows at all, good or bad (an empty file is a mistake upstream)."""
    if not read[0] and not read[1]:
        raise DataError(f"no rows in {name}")
    return read


def _field(row: Mapping[str, Any], field: str, flag: str) -> Any:
    """``row[field]``; a `DataError` naming the row's fields and ``flag`` when it has no such field."""
    if field not in row:
        raise DataError(f"no {field!r} field (the row has {sorted(row)}); pick the field with {flag}")
    return row[field]


def response_of(row: Mapping[str, Any], field: str = "response") -> str:
    """The response text of a row.

    Raises:
        DataError: the field is missing or not a string (a list or number is not model output).
    """
    value = _field(row, field, "--response-field")
    if not isinstance(value, str):
        raise DataError(f"{field!r} is a JSON {type(value).__name__}, not a string; responses must be the "
                        "text the model wrote")
    return value


def gold_of(row: Mapping[str, Any], field: str = "gold") -> str:
    """The reference answer of a row: a string, or a number written as text.

    Raises:
        DataError: the field is missing or neither a string nor a number.
    """
    value = _field(row, field, "--gold-field")
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise DataError(f"{field!r} is a JSON {type(value).__name__}; a gold must be a string or a number")


def field_value(row: Mapping[str, Any], field: str, flag: str = "--gold-field") -> Any:
    """``row[field]`` as stored (a reference the task's codec decodes: stdin/stdout tests).

    Raises:
        DataError: the row has no such field (the message lists its fields and names ``flag``).
    """
    return _field(row, field, flag)


def tests_of(row: Mapping[str, Any], field: str = "tests") -> list[str]:
    """MBPP tests of a row: a list of assert strings, or that list JSON-encoded.

    Raises:
        DataError: the field is missing or not a list of strings.
    """
    value = _field(row, field, "--gold-field")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise DataError(f"{field!r} is a string but not a JSON list of assert statements") from None
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise DataError(f"{field!r} must be a list of assert strings, got {type(value).__name__}")
    return value
