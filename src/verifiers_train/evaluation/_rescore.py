"""`verifiers-eval score`: rescore saved generations (no model), e.g. with another preset or a fixed scorer.

Input rows need a ``response``. The reference comes from the row (``gold``, or ``tests`` for MBPP) or,
when the row only has a ``problem_id``, from the dataset loaded with ``--data``. A run's own
``samples.jsonl`` works as input, so a run can be rescored into a new folder. Rows are read and checked
under the same policy as ``verifiers score`` (`verifiers.rows`: stdin, BOM, bad UTF-8, non-string responses,
``skip_bad_rows``).
"""

from __future__ import annotations

import os
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers.datasets import Problem, load_problems
from verifiers.errors import ConfigError, DataError
from verifiers.rows import STDIN, BadRow, gold_of, read_rows, response_of, tests_of
from verifiers.tasks import Reference
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.evaluation._samples import GENERATION_KEYS, finish_run
from verifiers_train.evaluation._scoring import ScoreJob, score_jobs


def score_file(path: str | os.PathLike[str], dataset: str, *, data: str | None = None, split: str = "test",
               preset: str = "accuracy", template: str | None = None, out: str | None = None,
               workers: int | None = None, overwrite: bool = False, report: bool = True,
               skip_bad_rows: bool = False) -> tuple[Path, dict[str, Any]]:
    """Score every response in a JSONL/JSON/parquet file and write a run folder.

    Args:
        path: file of rows with ``response`` and ``gold``/``tests`` or ``problem_id``; ``-`` reads stdin.
        dataset: which scorer to use (and which dataset ``problem_id`` refers to).
        data: dataset file used to look up ``problem_id`` rows.
        split: dataset split for the lookup.
        preset: scorer preset.
        template: template the responses were prompted with (for format compliance); default the dataset's.
        out: output run folder; default ``<file stem>-scored`` next to the file.
        workers: the scorer's ``score_batch`` parallelism (``None`` or 0: its own choice).
        overwrite: replace the files of an existing output folder instead of refusing.
        report: also write ``report.html`` and plots.
        skip_bad_rows: score the other rows when some break the input policy (counted in the metrics as
            ``skipped_bad_rows``) instead of stopping at the first.

    Returns:
        ``(run folder, metrics)``.

    Raises:
        DataError: unreadable file, a bad row (unless skipped), or a reference that cannot be found.
    """
    spec = tasks.get(dataset, what="dataset")
    if not out and str(path) == STDIN:  # checked before reading: stdin cannot be read twice
        raise ConfigError("reading stdin needs --out RUN_DIR (the folder for samples.jsonl and metrics.json)")
    numbered, bad = read_rows(path)
    template = template or spec.template
    rows: list[tuple[int, dict[str, Any]]] = []
    for n, r in numbered:
        try:
            response_of(r)
            if "tests" in r and not spec.reference.votes:
                tests_of(r)
            elif "gold" in r:
                gold_of(r)
        except DataError as e:
            bad.append(BadRow(n, str(e)))
            continue
        rows.append((n, r))
    bad.sort(key=lambda b: b.row)
    if bad and not skip_bad_rows:
        raise DataError(f"{path} {bad[0]}; fix the input, or pass --skip-bad-rows to score the other rows")
    if not rows:
        raise DataError(f"{path}: none of its {len(bad)} rows can be scored; first: {bad[0]}")
    problems: dict[str, Problem] = {}
    if any("gold" not in r and "tests" not in r for _, r in rows):
        problems = {p.id: p for p in load_problems(dataset, data, split=split)}
    samples, jobs = [], []
    counters: dict[str, int] = defaultdict(int)
    for n, r in rows:
        pid = str(r.get("problem_id", f"row{n - 1}"))
        sample_index = int(r["sample_index"]) if "sample_index" in r else counters[pid]
        counters[pid] += 1
        problem = problems.get(pid)
        reference: Reference
        if "gold" in r or "tests" in r:
            gold = gold_of(r) if "gold" in r else ""  # an answer task's reference; a code task's is its tests
            value = gold if spec.reference.votes else (tests_of(r) if "tests" in r else [])
            reference = spec.reference.decode(value, str(r.get("setup_code") or ""))
        elif problem is not None:
            gold, reference = problem.gold, spec.reference.of(problem)
        else:
            raise DataError(f"{path} row {n}: no 'gold'/'tests' and problem_id {pid!r} is not in {dataset} "
                            f"({data or 'default source'}, split {split}); pass the right --data")
        sample = {k: r[k] for k in GENERATION_KEYS if k in r} | {"problem_id": pid, "sample_index": sample_index, "gold": gold}
        if problem is not None and "level" in problem.meta:
            sample.setdefault("level", problem.meta["level"])
        samples.append(sample)
        jobs.append(ScoreJob(r["response"], reference))
    for s, sc in zip(samples, score_jobs(dataset, preset, template, jobs, workers or None), strict=True):
        s.update(sc)
    run = RunDir(out or Path(path).with_name(Path(path).stem + "-scored"))
    if run.exists() and not overwrite:
        raise ConfigError(f"{run.path} already holds a run; pass --overwrite to replace it, or choose another --out")
    if overwrite:
        for f in (run.samples_path, run.metrics_path, run.config_path):
            f.unlink(missing_ok=True)  # rescoring replaces the scores wholesale; nothing to keep
    source = STDIN if str(path) == STDIN else str(Path(path).resolve())
    config = {"mode": "score", "source": source, "dataset": dataset, "data": data,
              "split": split, "preset": preset, "template": template, "model": rows[0][1].get("model", "n/a")}
    skipped = {"skipped_bad_rows": len(bad)} | ({"first_bad_row": str(bad[0])} if bad else {})
    created = not run.path.exists()
    try:
        run.start(config, resume=False)
        run.append_samples(samples)
        return run.path, finish_run(run, config, samples, dataset, report=report, extra=skipped)
    except BaseException:  # also Ctrl-C: a folder this call made and did not finish would block the rerun
        if created:
            shutil.rmtree(run.path, ignore_errors=True)
        raise
