"""Per-step metrics from a verl run: parse its console logger lines, read them back as a table.

verl's console logger prints one line per step (``step:3 - actor/pg_loss:0.01 - critic/score/mean:0.4``),
possibly behind a Ray prefix (``(TaskRunner pid=12) step:3 - ...``); numpy scalars may print as
``np.float64(0.5)``. verl's ``file`` logger writes ``{"step": N, "data": {...}}`` lines instead; both
formats are read by `read_metrics`. verl's file logger truncates its file when a run resumes, so the
launcher moves the earlier file aside (`keep_earlier_metrics`) and `read_run_metrics` joins the parts.

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

__all__ = ["CONSOLE_METRICS", "VERL_METRICS", "MetricsWriter", "keep_earlier_metrics", "parse_line", "read_metrics",
           "read_run_metrics", "run_summary", "validation_key"]

VERL_METRICS = "verl_metrics.jsonl"  # verl's file logger, full precision (VERL_FILE_LOGGER_PATH)
CONSOLE_METRICS = "metrics.jsonl"  # parsed from the console by `MetricsWriter`, appended across launches

_STEP = re.compile(r"(?:^|[\s)\]])step:(\d+)((?: - [^\s:][^:]*:[^ ]+)+)\s*$")
_NUMPY = re.compile(r"^np\.\w+\((.*)\)$")
_VALIDATION = (re.compile(r"^val-core/.+/acc/mean@\d+$"), re.compile(r"^val-core/.+/reward/mean@\d+$"))


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


def _earlier_parts(run_dir: Path) -> list[tuple[int, Path]]:
    """``(1, verl_metrics.1.jsonl)``, ``(2, verl_metrics.2.jsonl)``, ... in launch order."""
    stem, ext = VERL_METRICS.split(".", 1)
    return sorted((int(m.group(1)), f) for f in run_dir.glob(f"{stem}.*.{ext}")
                  if (m := re.fullmatch(rf"{re.escape(stem)}\.(\d+)\.{re.escape(ext)}", f.name)))


def keep_earlier_metrics(run_dir: str | os.PathLike[str]) -> Path | None:
    """Before a run is launched again (resumed): move its non-empty verl metrics file aside.

    Returns:
        The new name (``verl_metrics.K.jsonl``), or ``None`` when there was nothing to keep.
    """
    root = Path(run_dir)
    current = root / VERL_METRICS
    if not current.is_file() or current.stat().st_size == 0:
        return None
    parts = _earlier_parts(root)
    k = parts[-1][0] + 1 if parts else 1
    stem, ext = VERL_METRICS.split(".", 1)
    return current.rename(root / f"{stem}.{k}.{ext}")


def read_run_metrics(run_dir: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], list[Path]]:
    """All steps of a run directory, resumed launches joined (a later launch's values win for a step).

    Reads verl's file-logger parts (`keep_earlier_metrics`) when there are any, else the parsed console
    file ``metrics.jsonl``.

    Returns:
        (rows sorted by step, the files read); no rows when the run has not logged a step yet.
    """
    root = Path(run_dir)
    candidates = [f for _, f in _earlier_parts(root)] + [root / VERL_METRICS]
    files = [f for f in candidates if f.is_file() and f.stat().st_size > 0]
    if not files and (root / CONSOLE_METRICS).is_file():
        files = [root / CONSOLE_METRICS]
    by_step: dict[int, dict[str, Any]] = {}
    for f in files:
        for row in read_metrics(f):
            by_step[row["step"]] = by_step.get(row["step"], {}) | row
    return [by_step[s] for s in sorted(by_step)], files


def validation_key(rows: list[dict[str, Any]]) -> str | None:
    """The validation-accuracy column of verl's metrics (``val-core/<source>/acc/mean@N``, else the validation
    reward's ``mean@N``), or ``None`` when the run has not validated yet.

    verl's other ``val-core`` columns for N > 1 (``best@N/mean``, ``maj@N/mean``) sort first but are not
    the mean.
    """
    keys = sorted({k for r in rows for k in r})
    return next((k for pattern in _VALIDATION for k in keys if pattern.match(k)), None)


def run_summary(run_dir: str | os.PathLike[str], last: int = 4) -> dict[str, Any]:
    """Where a run stands, from its run directory: what ``verifiers-train status`` prints.

    Returns:
        ``run_dir``, ``checkpoint_step`` (last complete checkpoint, ``None`` if none), ``last_step``,
        ``validation`` ([step, value] of `validation_key`), ``steps`` (the last ``last`` training steps:
        step, reward ``critic/score/mean``, ``step_s`` ``timing_s/step``), ``failures`` (known failures
        seen in ``train.log``).
    """
    from verifiers_train.failures import FailureDetector
    from verifiers_train.merge import latest_step

    root = Path(run_dir)
    rows, _ = read_run_metrics(root)
    key = validation_key(rows)
    validation = [[r["step"], r[key]] for r in rows if key and isinstance(r.get(key), float)]
    steps = [{"step": r["step"], "reward": r.get("critic/score/mean"), "step_s": r.get("timing_s/step")}
             for r in rows if "critic/score/mean" in r][-last:] if last > 0 else []
    detector = FailureDetector()
    log = root / "train.log"
    if log.is_file():
        with open(log, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                detector.feed(line)
    return {"run_dir": str(root), "checkpoint_step": latest_step(root),
            "last_step": rows[-1]["step"] if rows else None, "validation_key": key, "validation": validation,
            "steps": steps, "failures": [f.message() for f in detector.found]}
