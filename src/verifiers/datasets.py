"""Load GSM8K, MATH, MATH-500 and MBPP as `Problem` records, from local files or hub names.

Local files (``.jsonl``, ``.json``, ``.parquet``) are read without extra dependencies except pyarrow for
parquet; hub names go through ``datasets`` (needs network). ``VERIFIERS_DATA_DIR`` may point at a folder
laid out as ``gsm8k/{train,test}.jsonl``, ``math/{test,math500}.jsonl``, ``mbpp/mbpp.jsonl``.

Example:
    >>> problems = load_problems("gsm8k", "data/gsm8k/test.jsonl")   # doctest: +SKIP
    >>> problems[0].gold
    '18'
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers._problem import Problem, gsm8k_final_answer, last_boxed
from verifiers.errors import DataError
from verifiers.extras import require
from verifiers.hub import is_hub_name
from verifiers.paths import input_file

__all__ = ["Problem", "gsm8k_final_answer", "last_boxed", "load_problems", "read_records"]


def load_problems(dataset: str, source: str | os.PathLike[str] | None = None, *, split: str = "test",
                  limit: int | None = None) -> list[Problem]:
    """Load a dataset's problems.

    Args:
        dataset: a task name (`verifiers.tasks.names`).
        source: a local ``.jsonl``/``.json``/``.parquet`` file, a folder holding ``{split}.*``, or a hub
            name. ``None`` means ``VERIFIERS_DATA_DIR`` if set, else the default hub name.
        split: split to load (``train``/``test``; MBPP also ``validation``, ``prompt``, ``all``).
        limit: keep only the first ``limit`` problems.

    Raises:
        DataError: unknown dataset, missing file, or rows without the fields the dataset needs.
    """
    spec = tasks.get(dataset, DataError, "dataset")
    if spec.generate is not None and source is None:  # synthetic: generated, no file needed
        rows: Iterable[Any] = spec.generate(split, limit)
    else:
        rows = _read_source(spec, source, split)
    problems = []
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise DataError(f"{dataset} row {i}: expected an object, got {type(row).__name__}")
        problems.append(spec.read_row(dataset, split, i, row))
    if spec.select is not None:
        problems = spec.select(problems, split)
    if limit is not None:
        problems = problems[: max(0, limit)]
    return problems


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read a ``.jsonl``, ``.json`` (list of objects) or ``.parquet`` file into dicts (a UTF-8 BOM is dropped)."""
    p = input_file(path)
    suffix = p.suffix.lower()
    if suffix == ".parquet":
        require("pyarrow", "eval", f"reading {p.name}")
        import pyarrow.parquet as pq

        return pq.read_table(p).to_pylist()
    try:
        text = p.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise DataError(f"{p}: not valid UTF-8 at byte {e.start}") from None
    if suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise DataError(f"{p}: not valid JSON ({e.msg}, line {e.lineno})") from None
        if isinstance(data, dict):
            data = next((v for v in data.values() if isinstance(v, list)), None)
        if not isinstance(data, list):
            raise DataError(f"{p}: expected a JSON list of objects")
        return data
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise DataError(f"{p}:{n}: not valid JSON ({e.msg})") from e
    return rows


def _read_source(spec: tasks.TaskSpec, source: str | os.PathLike[str] | None, split: str) -> Iterable[dict]:
    if source is None:
        data_dir = os.environ.get("VERIFIERS_DATA_DIR")
        if data_dir:
            rel = spec.local_files.get(split)
            if rel is None:
                raise DataError(f"{spec.name} has no {split!r} split in VERIFIERS_DATA_DIR={data_dir}")
            path = Path(data_dir) / rel
            if not path.exists() and (fetchable := _fetch_task(rel)):
                raise DataError(f"no such file: {path} (VERIFIERS_DATA_DIR={data_dir}); "
                                f"`verifiers data fetch --task {fetchable} --out {data_dir}` writes it")
            return read_records(path)
        if spec.hub is None:
            raise DataError(f"{spec.name} has no hub source; pass a local file or set VERIFIERS_DATA_DIR")
        return _read_hub(*spec.hub, split)
    path = Path(source)
    if path.is_file():
        return read_records(path)
    if path.is_dir():
        for suffix in (".jsonl", ".json", ".parquet"):
            candidate = path / f"{split}{suffix}"
            if candidate.is_file():
                return read_records(candidate)
        rel = spec.local_files.get(split)
        if rel and (path / Path(rel).name).is_file():
            return read_records(path / Path(rel).name)
        raise DataError(f"{path} holds no {split}.jsonl/.json/.parquet")
    if not is_hub_name(str(source)):
        raise DataError(f"no such file or folder: {source}")
    hub_name, hub_config = spec.hub or ("", None)
    return _read_hub(str(source), hub_config if str(source) == hub_name else None, split)


def _fetch_task(rel: str) -> str | None:
    from verifiers.data_fetch import fetch_task  # here: urllib and tarfile only when a file is missing

    return fetch_task(rel)


def _read_hub(name: str, config: str | None, split: str) -> list[dict]:
    try:
        import datasets
    except ImportError as e:
        raise DataError(f"loading {name!r} from the hub needs `datasets` (pip install datasets), "
                        "or pass a local .jsonl/.parquet file") from e
    try:
        ds = datasets.load_dataset(name, config, split=split)
    except Exception as e:  # network errors, unknown names: one clear message
        raise DataError(f"could not load {name!r} split {split!r} from the hub ({type(e).__name__}: {e}); "
                        "pass a local file instead") from e
    return [dict(r) for r in ds]
