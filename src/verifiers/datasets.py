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
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verifiers._extract import boxes
from verifiers.errors import DataError

DATASETS = ("gsm8k", "math", "math500", "mbpp", "arith")  # arith: generated, see verifiers.arith

# Hub names used when no local source is given and VERIFIERS_DATA_DIR is unset.
HUB_SOURCES: dict[str, tuple[str, str | None]] = {
    "gsm8k": ("openai/gsm8k", "main"),
    "math": ("DigitalLearningGmbH/MATH-lighteval", "default"),
    "math500": ("HuggingFaceH4/MATH-500", None),
    "mbpp": ("google-research-datasets/mbpp", "full"),
}
# Files inside VERIFIERS_DATA_DIR, by (dataset, split).
_LOCAL_LAYOUT: dict[tuple[str, str], str] = {
    ("gsm8k", "train"): "gsm8k/train.jsonl",
    ("gsm8k", "test"): "gsm8k/test.jsonl",
    ("math", "test"): "math/test.jsonl",
    ("math500", "test"): "math/math500.jsonl",
    ("mbpp", "train"): "mbpp/mbpp.jsonl",
    ("mbpp", "test"): "mbpp/mbpp.jsonl",
    ("mbpp", "validation"): "mbpp/mbpp.jsonl",
    ("mbpp", "prompt"): "mbpp/mbpp.jsonl",
    ("mbpp", "all"): "mbpp/mbpp.jsonl",
}
# The original MBPP split is by task id.
_MBPP_SPLITS = {"prompt": range(1, 11), "test": range(11, 511), "validation": range(511, 601),
                "train": range(601, 975)}


@dataclass(frozen=True)
class Problem:
    """One dataset problem, normalized across datasets.

    Attributes:
        id: stable identifier (``gsm8k/test/0``, the MATH ``unique_id``, ``mbpp/11``).
        question: the problem text shown to the model.
        gold: the reference final answer (GSM8K: text after ``####``; MATH: final boxed answer;
            MBPP: empty, the tests are the reference).
        solution: the reference worked solution (MBPP: reference code).
        tests: MBPP assert statements; empty for math datasets.
        setup_code: MBPP test set-up code (imports), run before the tests.
        meta: extra fields kept from the source row (level, subject, ...).
    """

    id: str
    question: str
    gold: str
    solution: str = ""
    tests: tuple[str, ...] = ()
    setup_code: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)


def load_problems(dataset: str, source: str | os.PathLike[str] | None = None, *, split: str = "test",
                  limit: int | None = None) -> list[Problem]:
    """Load a dataset's problems.

    Args:
        dataset: one of ``DATASETS``.
        source: a local ``.jsonl``/``.json``/``.parquet`` file, a folder holding ``{split}.*``, or a hub
            name. ``None`` means ``VERIFIERS_DATA_DIR`` if set, else the default hub name.
        split: split to load (``train``/``test``; MBPP also ``validation``, ``prompt``, ``all``).
        limit: keep only the first ``limit`` problems.

    Raises:
        DataError: unknown dataset, missing file, or rows without the fields the dataset needs.
    """
    if dataset not in DATASETS:
        raise DataError(f"unknown dataset {dataset!r}; choose one of {', '.join(DATASETS)}")
    if dataset == "arith" and source is None:  # synthetic: generated, no file needed
        from verifiers import arith

        rows = arith.generate(limit if limit is not None else arith.DEFAULT_SIZES.get(split, 500), split=split)
    else:
        rows = _read_source(dataset, source, split)
    problems = [_to_problem(dataset, split, i, row) for i, row in enumerate(rows)]
    if dataset == "mbpp" and split in _MBPP_SPLITS and _looks_like_full_mbpp(problems):
        wanted = _MBPP_SPLITS[split]
        problems = [p for p in problems if int(p.meta.get("task_id", -1)) in wanted]
    if limit is not None:
        problems = problems[: max(0, limit)]
    return problems


def read_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read a ``.jsonl``, ``.json`` (list of objects) or ``.parquet`` file into dicts."""
    p = Path(path)
    if not p.is_file():
        raise DataError(f"no such file: {p}")
    suffix = p.suffix.lower()
    if suffix == ".parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError as e:  # pragma: no cover - depends on the install
            raise DataError("reading parquet needs pyarrow: pip install pyarrow") from e
        return pq.read_table(p).to_pylist()
    text = p.read_text(encoding="utf-8")
    if suffix == ".json":
        data = json.loads(text)
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


def gsm8k_final_answer(solution: str) -> str:
    """The text after the last ``####`` of a GSM8K solution (``""`` if there is none)."""
    _, sep, tail = solution.rpartition("####")
    return tail.strip() if sep else ""


def last_boxed(text: str) -> str | None:
    """Content of the last complete ``\\boxed{...}`` / ``\\fbox{...}`` in ``text``, or ``None``.

    An unclosed last box does not fall back to an earlier one (the scorers' own rule, `_extract.boxes`),
    and like the scorers it reads at most the first ``MAX_BOXES`` boxes of a text.
    """
    found, unclosed = boxes(text)
    return None if unclosed or not found else found[-1][0].strip()


def _read_source(dataset: str, source: str | os.PathLike[str] | None, split: str) -> Iterable[dict]:
    if source is None:
        data_dir = os.environ.get("VERIFIERS_DATA_DIR")
        if data_dir:
            rel = _LOCAL_LAYOUT.get((dataset, split))
            if rel is None:
                raise DataError(f"{dataset} has no {split!r} split in VERIFIERS_DATA_DIR={data_dir}")
            return read_records(Path(data_dir) / rel)
        name, config = HUB_SOURCES[dataset]
        return _read_hub(name, config, split)
    path = Path(source)
    if path.is_file():
        return read_records(path)
    if path.is_dir():
        for suffix in (".jsonl", ".json", ".parquet"):
            candidate = path / f"{split}{suffix}"
            if candidate.is_file():
                return read_records(candidate)
        rel = _LOCAL_LAYOUT.get((dataset, split))
        if rel and (path / Path(rel).name).is_file():
            return read_records(path / Path(rel).name)
        raise DataError(f"{path} holds no {split}.jsonl/.json/.parquet")
    if str(source).endswith((".jsonl", ".json", ".parquet")) or os.sep in str(source) and not _is_hub_name(str(source)):
        raise DataError(f"no such file: {source}")
    return _read_hub(str(source), HUB_SOURCES[dataset][1] if str(source) == HUB_SOURCES[dataset][0] else None, split)


def _is_hub_name(s: str) -> bool:
    return bool(re.fullmatch(r"[\w.-]+/[\w.-]+", s))


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


def _looks_like_full_mbpp(problems: list[Problem]) -> bool:
    return len(problems) > 600 and all("task_id" in p.meta for p in problems[:5])


def _require(row: Mapping[str, Any], keys: tuple[str, ...], where: str) -> list[Any]:
    for k in keys:
        if k in row and row[k] is not None:
            return [row[k]]
    raise DataError(f"{where}: row has none of the fields {keys}; it has {sorted(row)}")


def _to_problem(dataset: str, split: str, i: int, row: Mapping[str, Any]) -> Problem:
    where = f"{dataset} row {i}"
    if not isinstance(row, Mapping):
        raise DataError(f"{where}: expected an object, got {type(row).__name__}")
    if dataset in ("gsm8k", "arith"):
        (question,) = _require(row, ("question", "problem"), where)
        (solution,) = _require(row, ("answer", "solution"), where)
        gold = gsm8k_final_answer(str(solution))
        meta = {"level": row["level"]} if "level" in row else {}
        return Problem(f"{dataset}/{split}/{i}", str(question), gold, str(solution), meta=meta)
    if dataset in ("math", "math500"):
        (question,) = _require(row, ("problem", "question"), where)
        (solution,) = _require(row, ("solution",), where)
        gold = row.get("answer") or last_boxed(str(solution)) or ""
        meta = {k: row[k] for k in ("subject", "type", "level") if k in row}
        pid = str(row.get("unique_id") or f"{dataset}/{split}/{i}")
        return Problem(pid, str(question), str(gold), str(solution), meta=meta)
    (question,) = _require(row, ("text", "prompt", "question"), where)
    (tests,) = _require(row, ("test_list",), where)
    if isinstance(tests, str):
        tests = json.loads(tests)
    setup = row.get("test_setup_code") or "\n".join(row.get("test_imports") or [])
    task_id = row.get("task_id", i)
    meta = {"task_id": task_id}
    if row.get("challenge_test_list"):
        meta["challenge_tests"] = list(row["challenge_test_list"])
    return Problem(f"mbpp/{task_id}", str(question), "", str(row.get("code", "")), tuple(tests),
                   str(setup), meta)
