"""Write a dataset as verl 0.9.1 parquet files (``train.parquet`` / ``test.parquet``).

Row schema (what verl's ``RLHFDataset`` and reward managers read)::

    data_source   str      picks the scorer in `verifiers_train.reward.compute_score`
    prompt        list     chat messages from the template registry (`verifiers_train.templates`)
    ability       str      "math" or "code"
    reward_model  struct   {style: "rule", ground_truth: str}   (MBPP: JSON-encoded list of asserts)
    extra_info    struct   {split, index, id, question, setup_code, level}

Every file shares one column type per key (verl concatenates files and fails on mixed types), which is
why MBPP's tests are JSON-encoded and every ``extra_info`` key is present in every row.

Example:
    >>> result = prepare("arith", "data/arith", limit=100)          # doctest: +SKIP
    >>> result.files["train"].name
    'train.parquet'
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers.datasets import Problem, load_problems
from verifiers.errors import ConfigError, DataError
from verifiers_train import console
from verifiers_train.options import DEFAULT_MAX_PROMPT_LENGTH
from verifiers_train.templates import build_messages, check_template

__all__ = ["PrepareResult", "prepare", "prompt_length_fn", "read_meta", "rl_splits", "split_slice", "splits_text", "to_row"]

# Without a tokenizer, prompt tokens are estimated from characters. English BPE averages ~4 chars per
# token; 3 over-estimates on purpose so a kept prompt is very unlikely to be too long for verl.
CHARS_PER_TOKEN_ESTIMATE = 3.0
# Per-message chat-template overhead in tokens (role markers, separators), for the estimate.
TEMPLATE_TOKENS_PER_MESSAGE = 6
META_FILE = "prepare_meta.json"
# A source split with an optional slice, as the `datasets` library writes it: ``test``, ``test[:80%]``, ``test[10:50]``.
_SLICE = re.compile(r"(?P<split>[^\[\]]+?)(?:\[(?P<start>\d+%?)?:(?P<stop>\d+%?)?\])?")


def split_slice(text: str) -> tuple[str, Callable[[int], slice] | None]:
    """A source split and its slice (``None`` for the whole split), from ``test``, ``test[:80%]`` or ``test[10:50]``.

    The bounds are problem counts or percentages of the split (rounded to the nearest problem), as in
    ``datasets.load_dataset(split=...)``; the slice is a function of the split's size.

    Raises:
        ConfigError: not of that shape, or a percentage above 100.
    """
    m = _SLICE.fullmatch(text.strip())
    if m is None or not m.group("split").strip():
        raise ConfigError(f"source split {text!r}: expected NAME, NAME[START:STOP] or NAME[START%:STOP%] "
                          "(e.g. test[:80%])")
    bounds = (m.group("start"), m.group("stop"))
    if "[" not in text:
        return m.group("split").strip(), None
    for b in bounds:
        if b and b.endswith("%") and int(b[:-1]) > 100:
            raise ConfigError(f"source split {text!r}: a percentage above 100")

    def at(bound: str | None, size: int) -> int | None:
        if not bound:
            return None
        return round(size * int(bound[:-1]) / 100) if bound.endswith("%") else int(bound)

    return m.group("split").strip(), lambda size: slice(at(bounds[0], size), at(bounds[1], size))


@dataclass(frozen=True)
class PrepareResult:
    """What `prepare` wrote.

    Attributes:
        files: split name -> parquet path.
        rows: split name -> rows written.
        overlong: split name -> prompts dropped for exceeding ``max_prompt_length``.
        overlap: test questions removed from train (same question text in both).
        length_measure: how prompt length was measured (tokenizer name or the character estimate).
    """

    files: dict[str, Path]
    rows: dict[str, int]
    overlong: dict[str, int]
    overlap: int
    length_measure: str
    meta: dict[str, Any] = field(default_factory=dict)


def prompt_length_fn(tokenizer: str | None) -> tuple[Callable[[list[dict[str, str]]], int], str]:
    """A function measuring a chat prompt's length in tokens, and a label saying how it measures.

    Args:
        tokenizer: a local tokenizer/model folder or hub name; ``None`` for the character estimate.
    """
    if tokenizer is None:
        def estimate(messages: list[dict[str, str]]) -> int:
            chars = sum(len(m["content"]) for m in messages)
            return math.ceil(chars / CHARS_PER_TOKEN_ESTIMATE) + TEMPLATE_TOKENS_PER_MESSAGE * len(messages)

        return estimate, f"character estimate (chars/{CHARS_PER_TOKEN_ESTIMATE:g} + template overhead)"
    try:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(tokenizer)
    except Exception as e:  # missing folder, no network for a hub name, broken files
        raise ConfigError(f"could not load tokenizer {tokenizer!r} ({type(e).__name__}: {e}); pass a local "
                          "model folder, or omit --tokenizer to use the character estimate") from e

    def count(messages: list[dict[str, str]]) -> int:
        if getattr(tok, "chat_template", None):
            ids: Any = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
            if hasattr(ids, "keys"):  # transformers 5 may return a BatchEncoding
                ids = ids["input_ids"]
            return len(ids)
        return len(tok("\n".join(m["content"] for m in messages), add_special_tokens=True)["input_ids"])

    return count, f"tokenizer {tokenizer}"


def rl_splits(dataset: str) -> dict[str, str]:
    """The splits a training run needs (``train`` and ``test``) for ``dataset``: the task's own when it has a
    train split, else its one split cut 80/20 (``train=test[:80%]``, ``test=test[80%:]``): HumanEval, say, is a
    test set only, so a run on it trains on 80% of its problems and validates on the other 20%."""
    splits = dict(tasks.get(dataset, DataError, "dataset").splits)
    if "train" in splits and "test" in splits:
        return splits
    source = splits.get("test") or next(iter(splits.values()))
    return {"train": f"{source}[:80%]", "test": f"{source}[80%:]"}


def splits_text(splits: dict[str, str]) -> str:
    """``splits`` as ``prepare --splits`` takes it: ``train=test[:80%],test=test[80%:]``."""
    return ",".join(f"{k}={v}" for k, v in splits.items())


def to_row(problem: Problem, dataset: str, split: str, index: int, messages: list[dict[str, str]],
           data_source: str) -> dict[str, Any]:
    """One verl parquet row for ``problem``."""
    spec = tasks.get(dataset)
    return {
        "data_source": data_source,
        "prompt": messages,
        "ability": spec.ability,
        "reward_model": {"style": "rule", "ground_truth": spec.reference.encode(problem)},
        "extra_info": {
            "split": split,
            "index": index,
            "id": problem.id,
            "question": problem.question,
            "setup_code": problem.setup_code,
            "level": str(problem.meta.get("level", "")),
        },
    }


def prepare(dataset: str, out: str | os.PathLike[str], *, source: str | None = None,
            test_source: str | None = None, splits: dict[str, str] | None = None,
            template: str | None = None, system_prompt: str | None = None,
            max_prompt_length: int = DEFAULT_MAX_PROMPT_LENGTH, tokenizer: str | None = None,
            limit: int | None = None, data_source: str | None = None,
            echo: Callable[[str], None] | None = print) -> PrepareResult:
    """Load a dataset and write verl parquet files into ``out``.

    Args:
        dataset: a task name (`verifiers.tasks.names`).
        out: output folder (created).
        source: local file/folder or hub name (see `load_problems`); ``None``: ``VERIFIERS_DATA_DIR`` or hub.
        test_source: a separate source for the test split (e.g. ``math500.jsonl`` next to MATH's train).
        splits: output split -> source split, optionally sliced (``test[:80%]``, see `split_slice`); default
            the task's ``splits``.
        template: prompt template name; default the task's ``template``.
        system_prompt: replaces the template's system prompt.
        max_prompt_length: prompts longer than this many tokens are dropped (and counted).
        tokenizer: tokenizer to measure prompts with; ``None`` uses a conservative character estimate.
        limit: keep at most this many problems per split (before filtering).
        data_source: overrides the ``data_source`` column (default the task's first ``data_sources``).
        echo: where progress lines go; ``None`` for silence.

    Returns:
        A `PrepareResult` with paths and counts.

    Raises:
        DataError: unknown dataset, missing source, or a split that ends up empty.
        ConfigError: unknown template, bad tokenizer, non-positive ``max_prompt_length``.
    """
    spec = tasks.get(dataset, DataError, "dataset")
    if max_prompt_length <= 0:
        raise ConfigError(f"max_prompt_length must be positive, got {max_prompt_length}")
    template = template or spec.template
    check_template(template, system_prompt, chat_only=True)  # fail on a bad name before loading anything
    splits = dict(splits or spec.splits)
    source_name = data_source or spec.data_sources[0]
    measure, measure_label = prompt_length_fn(tokenizer)
    say = echo or (lambda _msg: None)

    loaded: dict[str, list[Problem]] = {}
    sliced = {name: split_slice(text) for name, text in splits.items()}  # a bad slice fails before loading
    for name, (src_split, cut) in sliced.items():
        src = test_source if (name == "test" and test_source is not None) else source
        problems = load_problems(dataset, src, split=src_split, limit=None if cut else limit)
        if cut is not None:
            problems = problems[cut(len(problems))]
            problems = problems if limit is None else problems[: max(0, limit)]
        loaded[name] = problems
        if not loaded[name]:
            raise DataError(f"{dataset} split {splits[name]!r} from {src or 'the default source'} has no problems")

    overlap = 0
    if "train" in loaded and "test" in loaded:
        # Same question in train and test would inflate validation; drop it from train.
        test_questions = {p.question.strip() for p in loaded["test"]}
        kept = [p for p in loaded["train"] if p.question.strip() not in test_questions]
        overlap = len(loaded["train"]) - len(kept)
        loaded["train"] = kept
        if overlap:
            say(f"train: removed {overlap} problems whose question also appears in test")

    built: dict[str, list[dict[str, Any]]] = {}
    overlong: dict[str, int] = {}
    longest: dict[str, int] = {}  # the longest kept prompt per split, as measured
    for name, problems in loaded.items():
        rows = []
        dropped = 0
        longest[name] = 0
        # a tokenizer takes a while on a large split; the character estimate is instant
        mode = console.choose_progress("auto", echo) if tokenizer and len(problems) >= 500 else "off"
        with console.progress(mode, f"{name}: measuring prompts", len(problems), say) as advance:
            for index, problem in enumerate(problems):
                advance(1, "")
                messages = build_messages(problem, template, system_prompt)
                length = measure(messages)
                if length > max_prompt_length:
                    dropped += 1
                    continue
                longest[name] = max(longest[name], length)
                rows.append(to_row(problem, dataset, name, index, messages, source_name))
        if not rows:
            raise DataError(_empty_split(name, overlap if name == "train" else 0, dropped, max_prompt_length,
                                         measure_label))
        built[name], overlong[name] = rows, dropped

    # every split is checked before the first file is written: a refused prepare leaves ``out`` as it was
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, Path] = {}
    rows_written: dict[str, int] = {}
    for name, rows in built.items():
        path = out_dir / f"{name}.parquet"
        _write_parquet(rows, path)
        files[name], rows_written[name] = path, len(rows)
        say(f"{name}: wrote {len(rows)} rows to {path}; dropped {overlong[name]} prompts longer than "
            f"{max_prompt_length} tokens ({measure_label})")

    meta = {"dataset": dataset, "data_source": source_name, "template": template,
            "system_prompt": system_prompt, "max_prompt_length": max_prompt_length,
            "length_measure": measure_label, "source": source, "test_source": test_source,
            "splits": splits, "rows": rows_written, "overlong": overlong, "longest_prompt": longest,
            "overlap_removed": overlap,
            "limit": limit}
    (out_dir / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return PrepareResult(files, rows_written, overlong, overlap, measure_label, meta)


def _empty_split(name: str, overlap: int, overlong: int, max_prompt_length: int, measure_label: str) -> str:
    """Why split ``name`` has no rows left (train/test overlap, prompt length, or both) and how to fix it."""
    causes, fixes = [], []
    if overlap:
        causes.append(f"{overlap} problem(s) removed because their question also appears in test")
        fixes.append("give train a source that differs from the test one (--data / --test-data / --splits)")
    if overlong:
        causes.append(f"{overlong} prompt(s) longer than max_prompt_length={max_prompt_length} ({measure_label})")
        fixes.append("raise --max-prompt-length")
    if not causes:  # an empty source is refused when loaded; this covers other callers
        causes.append("its source has no problems")
        fixes.append("check --data and --splits")
    return f"the {name} split is empty: {' and '.join(causes)}; {', or '.join(fixes)}"


def read_meta(data_dir: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The metadata `prepare` left in ``data_dir``, or ``None`` if it was not made by `prepare`."""
    path = Path(data_dir) / META_FILE
    if not path.is_file():
        return None
    return dict(json.loads(path.read_text(encoding="utf-8")))


def _write_parquet(rows: list[dict[str, Any]], path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    tmp = path.with_suffix(".parquet.tmp")
    pq.write_table(pa.Table.from_pylist(rows), tmp)
    tmp.replace(path)  # never leave a half-written file where verl would read it
