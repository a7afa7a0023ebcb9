"""`verifiers-eval score`: rescore saved generations (no model), e.g. with another preset or a fixed scorer.

Input rows need a ``response``. The reference comes from the row (``gold``, or ``tests`` for MBPP) or,
when the row only has a ``problem_id``, from the dataset loaded with ``--data``. A run's own
``samples.jsonl`` works as input, so a run can be rescored into a new folder.
"""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers.datasets import Problem, load_problems, read_records
from verifiers.errors import ConfigError, DataError
from verifiers.tasks import Reference
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.evaluation._samples import GENERATION_KEYS, finish_run
from verifiers_train.evaluation._scoring import BackgroundScorer, ScoreJob


def score_file(path: str | os.PathLike[str], dataset: str, *, data: str | None = None, split: str = "test",
               preset: str = "accuracy", template: str | None = None, out: str | None = None,
               workers: int | None = None, overwrite: bool = False, report: bool = True) -> tuple[Path, dict[str, Any]]:
    """Score every response in a JSONL/JSON/parquet file and write a run folder.

    Args:
        path: file of rows with ``response`` and ``gold``/``tests`` or ``problem_id``.
        dataset: which scorer to use (and which dataset ``problem_id`` refers to).
        data: dataset file used to look up ``problem_id`` rows.
        split: dataset split for the lookup.
        preset: scorer preset.
        template: template the responses were prompted with (for format compliance); default the dataset's.
        out: output run folder; default ``<file stem>-scored`` next to the file.
        workers: the scorer's ``score_batch`` parallelism (``None`` or 0: its own choice).
        overwrite: replace the files of an existing output folder instead of refusing.
        report: also write ``report.html`` and plots.

    Returns:
        ``(run folder, metrics)``.

    Raises:
        DataError: unreadable file, a row without ``response``, or a reference that cannot be found.
    """
    if dataset not in tasks.names():
        raise ConfigError(f"unknown dataset {dataset!r}; choose one of {', '.join(tasks.names())}")
    spec = tasks.get(dataset)
    rows = read_records(path)
    if not rows:
        raise DataError(f"{path} holds no rows")
    template = template or spec.template
    for i, r in enumerate(rows):
        if not isinstance(r, dict) or not isinstance(r.get("response"), str):
            raise DataError(f"{path} row {i + 1}: no 'response' string; each row needs the model output")
    problems: dict[str, Problem] = {}
    if any("gold" not in r and "tests" not in r for r in rows):
        problems = {p.id: p for p in load_problems(dataset, data, split=split)}
    samples, jobs = [], []
    counters: dict[str, int] = defaultdict(int)
    for i, r in enumerate(rows):
        pid = str(r.get("problem_id", f"row{i}"))
        sample_index = int(r["sample_index"]) if "sample_index" in r else counters[pid]
        counters[pid] += 1
        problem = problems.get(pid)
        reference: Reference
        if "gold" in r or "tests" in r:
            gold = str(r.get("gold", ""))  # an answer task's reference; a code task's is its tests
            value = gold if spec.reference.votes else r.get("tests") or ()
            reference = spec.reference.decode(value, str(r.get("setup_code", "")))
        elif problem is not None:
            gold, reference = problem.gold, spec.reference.of(problem)
        else:
            raise DataError(f"{path} row {i + 1}: no 'gold'/'tests' and problem_id {pid!r} is not in {dataset} "
                            f"({data or 'default source'}, split {split}); pass the right --data")
        sample = {k: r[k] for k in GENERATION_KEYS if k in r} | {"problem_id": pid, "sample_index": sample_index, "gold": gold}
        if problem is not None and "level" in problem.meta:
            sample.setdefault("level", problem.meta["level"])
        samples.append(sample)
        jobs.append(ScoreJob(r["response"], reference))
    scorer = BackgroundScorer(dataset, preset, template, workers or None)
    try:
        scores = scorer.submit(jobs).result()
    finally:
        scorer.close()
    for s, sc in zip(samples, scores, strict=True):
        s.update(sc)
    run = RunDir(out or Path(path).with_name(Path(path).stem + "-scored"))
    if run.exists() and not overwrite:
        raise ConfigError(f"{run.path} already holds a run; pass --overwrite to replace it, or choose another --out")
    if overwrite:
        for f in (run.samples_path, run.metrics_path, run.config_path):
            f.unlink(missing_ok=True)  # rescoring replaces the scores wholesale; nothing to keep
    config = {"mode": "score", "source": str(Path(path).resolve()), "dataset": dataset, "data": data,
              "split": split, "preset": preset, "template": template, "model": rows[0].get("model", "n/a")}
    run.start(config, resume=False)
    run.append_samples(samples)
    return run.path, finish_run(run, config, samples, dataset, report=report)
