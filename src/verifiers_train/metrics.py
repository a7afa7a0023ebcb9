"""Per-step metrics from a verl run: parse its console logger lines, read them back as a table.

verl's console logger prints one line per step (``step:3 - actor/pg_loss:0.01 - critic/score/mean:0.4``),
possibly behind a Ray prefix (``(TaskRunner pid=12) step:3 - ...``); numpy scalars may print as
``np.float64(0.5)``. verl's ``file`` logger writes ``{"step": N, "data": {...}}`` lines instead; both
formats are read by `read_metrics`.

Example:
    >>> parse_line("(TaskRunner pid=1) step:2 - critic/score/mean:0.5 - actor/entropy:np.float64(1.25)")
    {'step': 2, 'critic/score/mean': 0.5, 'actor/entropy': 1.25}
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import IO, Any, Self

__all__ = ["MetricsWriter", "parse_line", "read_metrics"]

_STEP = re.compile(r"(?:^|[\s)\]])step:(\d+)((?: - [^\s:][^:]*:[^ ]+)+)\s*$")
_NUMPY = re.compile(r"^np\.\w+\((.*)\)$")


def _number(text: str) -> float | None:
    text = text.strip()
    m = _NUMPY.match(text)
    if m:
        text = m.group(1)
    if text in ("True", "False"):
        return 1.0 if text == "True" else 0.0
    try:
        return float(text)
    except ValueError:
        return None


def parse_line(line: str) -> dict[str, Any] | None:
    """The metrics of one verl console line, with ``step``; ``None`` if the line holds none."""
    m = _STEP.search(line.rstrip("\n"))
    if not m:
        return None
    out: dict[str, Any] = {"step": int(m.group(1))}
    for item in m.group(2).split(" - ")[1:]:
        key, sep, raw = item.rpartition(":")
        value = _number(raw) if sep else None
        if key and value is not None:
            out[key.strip()] = value
    return out if len(out) > 1 else None


class MetricsWriter:
    """Appends parsed metrics to a JSONL file as console lines arrive (one object per logged step)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fh: IO[str] | None = None
        self.rows = 0

    def __enter__(self) -> Self:
        self._fh = open(self.path, "a", encoding="utf-8")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._fh:
            self._fh.close()

    def feed(self, line: str) -> dict[str, Any] | None:
        """Parse one output line; write and return its metrics if it has any."""
        row = parse_line(line)
        if row is not None and self._fh is not None:
            # NaN/inf are kept as strings so the JSON stays standard and the report can still flag them.
            clean = {k: (str(v) if isinstance(v, float) and not math.isfinite(v) else v) for k, v in row.items()}
            self._fh.write(json.dumps(clean) + "\n")
            self._fh.flush()
            self.rows += 1
        return row


def _coerce(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return float(value)  # "nan", "inf" written by MetricsWriter
        except ValueError:
            return value
    return value


def read_metrics(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Rows (``step`` + metric columns) from a metrics JSONL, ours or verl's file logger, merged by step.

    Several lines for one step (e.g. validation logged apart from training) are merged into one row.
    Lines that are not JSON objects are skipped (a log cut off mid-line must not lose the rest).
    """
    by_step: dict[int, dict[str, Any]] = {}
    for line in Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(obj, dict) or "step" not in obj:
            continue
        data: dict[str, Any] = obj["data"] if isinstance(obj.get("data"), dict) else obj
        step = int(obj["step"])
        row = by_step.setdefault(step, {"step": step})
        for k, v in data.items():
            if k != "step":
                row[k] = _coerce(v)
    return [by_step[s] for s in sorted(by_step)]
