"""The run directory: ``config.json``, ``samples.jsonl`` (append-only), ``metrics.json``, report files.

Samples are appended and flushed to disk chunk by chunk, so a killed run keeps everything it scored.
A torn last line (killed mid-write) is cut off on resume; a sample written twice keeps its first copy.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from verifiers.errors import ConfigError, DataError

CONFIG_FILE = "config.json"
SAMPLES_FILE = "samples.jsonl"
METRICS_FILE = "metrics.json"
# Settings that decide what is generated and how it is judged: a resumed run must match them all.
IDENTITY_KEYS = ("model", "model_fingerprint", "dataset", "data", "data_fingerprint", "split", "template",
                 "system_prompt", "preset", "backend", "dtype", "n", "temperature", "top_p", "max_tokens",
                 "limit", "seed", "fixed_batch_problems")


class RunDir:
    """Files of one evaluation run.

    Args:
        path: the run folder (created if missing).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.config_path = self.path / CONFIG_FILE
        self.samples_path = self.path / SAMPLES_FILE
        self.metrics_path = self.path / METRICS_FILE

    def exists(self) -> bool:
        """Whether this folder already holds a run (a config or samples)."""
        return self.config_path.is_file() or self.samples_path.is_file()

    def start(self, config: Mapping[str, Any], *, resume: bool) -> None:
        """Create the run, or check that ``config`` matches the run being resumed.

        Raises:
            ConfigError: the folder holds a run and ``resume`` is off, or the settings differ from it.
        """
        n = len(self.read_samples(repair=False)) if self.samples_path.is_file() else 0
        if n and not resume:  # a folder whose run never produced a sample holds nothing to protect
            raise ConfigError(f"{self.path} already holds a run ({n} samples); pass --resume to continue it, "
                              "or choose another --out")
        if resume and n and self.config_path.is_file():
            old = self.read_config()
            diffs = [f"{k}: run has {old.get(k)!r}, now {config.get(k)!r}"
                     for k in IDENTITY_KEYS if old.get(k) != config.get(k)]
            if diffs:
                raise ConfigError(f"cannot resume {self.path}: settings differ from the saved run ("
                                  + "; ".join(diffs) + "). Use the original settings or a new --out")
        self.path.mkdir(parents=True, exist_ok=True)
        _write_json(self.config_path, config)

    def read_config(self) -> dict[str, Any]:
        """The saved ``config.json``."""
        return _read_json(self.config_path)

    def read_samples(self, *, repair: bool = True) -> list[dict[str, Any]]:
        """Saved samples, first copy of each ``(problem_id, sample_index)``.

        Args:
            repair: cut a torn last line off the file (a crash mid-append), so later appends stay valid.

        Raises:
            DataError: a line other than the last is not valid JSON (the file was edited or corrupted).
        """
        if not self.samples_path.is_file():
            return []
        raw = self.samples_path.read_bytes()
        cut = raw.rfind(b"\n") + 1  # every row ends with a newline; bytes after the last one are torn
        rows: list[dict[str, Any]] = []
        seen: set[tuple[str, int]] = set()
        for i, line in enumerate(raw[:cut].split(b"\n")[:-1]):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                key = (str(row["problem_id"]), int(row["sample_index"]))
            except (ValueError, KeyError, TypeError) as e:
                raise DataError(f"{self.samples_path}:{i + 1}: not a sample row ({type(e).__name__}: {e}); "
                                "fix or delete that line and resume") from e
            if key not in seen:
                seen.add(key)
                rows.append(row)
        if repair and cut < len(raw):
            with self.samples_path.open("r+b") as f:
                f.truncate(cut)
        return rows

    def append_samples(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Append rows and force them to disk (they survive a crash right after)."""
        data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        with self.samples_path.open("a", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    def write_metrics(self, metrics: Mapping[str, Any]) -> None:
        """Write ``metrics.json``."""
        _write_json(self.metrics_path, metrics)

    def read_metrics(self) -> dict[str, Any]:
        """The saved ``metrics.json`` (``{}`` if there is none yet)."""
        return _read_json(self.metrics_path) if self.metrics_path.is_file() else {}


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)  # atomic: a crash leaves the old file, never half a file


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DataError(f"cannot read {path} ({e})") from e
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected a JSON object")
    return data
