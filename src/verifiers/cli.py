"""The ``verifiers`` console script: rescore a JSONL of responses, check that dataset golds self-verify, fetch data.

Examples::

    verifiers score --task gsm8k rollouts.jsonl                 # writes rollouts.scored.jsonl
    verifiers score --task math out.jsonl --response-field completion --gold-field answer --workers 2
    cat rollouts.jsonl | verifiers score --task gsm8k - --skip-bad-rows --json > scored.jsonl
    verifiers validate --task gsm8k --data ../shared/data/gsm8k/test.jsonl
    verifiers validate --task math --data ../shared/data/math/test.jsonl --out failures.jsonl
    verifiers data fetch --task all --out data                  # the datasets, pinned by sha256

Exit status: 0 on success, 1 when ``validate`` finds fewer self-verifying golds than ``--min-rate``,
2 on bad arguments or unreadable data (``verifiers COMMAND: error: MESSAGE``), 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from verifiers import tasks
from verifiers.cli_common import (
    CliParser,
    DefaultsFormatter,
    add_common,
    add_json,
    add_task,
    bounded,
    dataset_hub_name,
    doc_summary,
    emit_json,
    ensure_hub,
    hidden_alias,
    run_command,
    show_default,
)
from verifiers.errors import ConfigError, DataError
from verifiers.rewards._score import STATUSES, Score
from verifiers.tasks import FunctionTests, Reference, Scorer, StdioReference, TestsReference

_CHUNK = 512


def _config(task: str, args: argparse.Namespace) -> tuple[Scorer, Any]:
    scorer = tasks.get(task).scorer()
    names = {f.name for f in dataclasses.fields(scorer.Config) if f.init}
    kwargs: dict[str, Any] = {"preset": args.preset}
    for flag in ("mode", "timeout", "rel_tol", "max_chars"):
        value = getattr(args, flag)
        if value is None:
            continue
        if flag not in names:
            raise ConfigError(f"--{flag.replace('_', '-')} does not apply to {task}'s scorer")
        kwargs[flag] = value
    try:
        return scorer, scorer.Config(**kwargs)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"{task}: {e}") from e


def _progress(total: int, label: str) -> tuple[Callable[[int], None], Callable[[], None]]:
    """(advance, close) for a progress bar on stderr; plain no-ops without rich or a terminal."""
    try:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    except ImportError:
        return (lambda n: None), (lambda: None)
    progress = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), transient=True, disable=not sys.stderr.isatty())
    task_id = progress.add_task(label, total=total)
    progress.start()
    return (lambda n: progress.advance(task_id, n)), progress.stop


def _score_all(scorer: Scorer, config: Any, responses: list[str], refs: Sequence[Reference], workers: int | None,
               label: str) -> Iterator[Score]:
    advance, close = _progress(len(responses), label)
    try:
        for i in range(0, len(responses), _CHUNK):
            chunk = scorer.score_batch(responses[i:i + _CHUNK], refs[i:i + _CHUNK], workers=workers, config=config)
            advance(len(chunk))
            yield from chunk
    finally:
        close()


def _summary(title: str, counts: Counter[str], total: int, seconds: float, file: IO[str] | None = None) -> None:
    correct = counts.get("correct", 0)
    rate = correct / total if total else 0.0
    rows = [(s, counts.get(s, 0)) for s in STATUSES if counts.get(s, 0)]
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(f"{title}: {correct}/{total} correct ({rate:.2%}) in {seconds:.1f}s", file=file)
        for status, n in rows:
            print(f"  {status:<17} {n}", file=file)
        return
    console = Console(file=file)
    console.print(f"[bold]{title}[/bold]: {correct}/{total} correct ({rate:.2%}) in {seconds:.1f}s")
    table = Table()
    table.add_column("status")
    table.add_column("count", justify="right")
    table.add_column("share", justify="right")
    for status, n in rows:
        table.add_row(status, str(n), f"{n / total:.2%}")
    console.print(table)


def _function_tests_of(row: dict[str, Any], field: str) -> Any:
    """A function task's reference in a row: ``field`` (a tests object or its JSON), else the row's own
    HumanEval fields ``test``, ``prompt`` and ``entry_point``."""
    if field in row:
        value = row[field]
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                raise DataError(f"{field!r} is a string but not JSON") from None
        if not isinstance(value, dict):
            raise DataError(f"{field!r} must be an object {{'tests', 'prompt', 'entry_point'}}")
        return value
    if all(isinstance(row.get(k), str) for k in ("test", "prompt", "entry_point")):
        return {k: row[k] for k in ("test", "prompt", "entry_point")}
    raise DataError(f"row has no {field!r} field, nor HumanEval's 'test', 'prompt' and 'entry_point'")


def cmd_score(args: argparse.Namespace) -> int:
    """Rescore ``{response, gold}`` rows (``{response, tests}`` for mbpp) and write one result per row."""
    from verifiers.rows import STDIN, BadRow, field_value, gold_of, read_rows, response_of, tests_of

    scorer, config = _config(args.task, args)
    codec = tasks.get(args.task).reference
    code = isinstance(codec, TestsReference)  # the reference is tests (MBPP), not an answer
    gold_field = args.gold_field or ("tests" if code else "gold")
    name = "stdin" if args.file == STDIN else Path(args.file).name
    rows, bad = read_rows(args.file)
    kept: list[dict[str, Any]] = []
    responses: list[str] = []
    refs: list[Reference] = []
    for n, row in rows:
        try:
            response = response_of(row, args.response_field)
            if isinstance(codec, FunctionTests):  # HumanEval: a tests object, or the row's own check code
                value: Any = _function_tests_of(row, gold_field)
            elif isinstance(codec, StdioReference):  # stdin/stdout tests: the codec reads every shape
                value = field_value(row, gold_field)
                if isinstance(value, list):  # the tests alone: the row's own checker, tolerance and limit apply
                    value = {"tests": value, **{k: row[k] for k in codec.row_options if row.get(k) is not None}}
            else:
                value = tests_of(row, gold_field) if code else gold_of(row, gold_field)
            ref = codec.decode(value, str(row.get("setup_code") or ""))
        except DataError as e:
            bad.append(BadRow(n, str(e)))
            continue
        kept.append(row)
        responses.append(response)
        refs.append(ref)
    bad.sort(key=lambda b: b.row)
    if bad and not args.skip_bad_rows:
        more = f" (and {len(bad) - 1} more bad rows)" if len(bad) > 1 else ""
        raise DataError(f"{name} {bad[0]}{more}; fix the input, or pass --skip-bad-rows to score the other rows")
    if not kept:  # as `verifiers-eval score`: nothing to score is bad input, not "0/0 correct"
        raise DataError(f"{name}: none of its {len(bad)} rows can be scored; first: {bad[0]}")
    to_stdout = args.out == STDIN or (args.out is None and args.file == STDIN)
    if to_stdout and args.json:
        raise ConfigError("--json prints a summary on stdout, where the scored rows would go; pass -o FILE")
    out_path = None if to_stdout else Path(args.out or Path(args.file).with_suffix(".scored.jsonl"))
    start = time.monotonic()
    counts: Counter[str] = Counter()
    out = sys.stdout if out_path is None else out_path.open("w", encoding="utf-8")
    try:
        scores = _score_all(scorer, config, responses, refs, args.workers, "scoring")
        for row, s in zip(kept, scores):
            counts[s.status] += 1
            out.write(json.dumps({**row, "score": s.to_dict()}, ensure_ascii=False) + "\n")
    finally:
        if out_path is not None:
            out.close()
    seconds = time.monotonic() - start
    human = sys.stderr if (args.json or out_path is None) else sys.stdout
    _summary(f"{args.task} {name}", counts, len(kept), seconds, human)
    if bad:
        print(f"skipped {len(bad)} bad row(s); first: {bad[0]}", file=human)
    if out_path is not None:
        print(f"wrote {out_path}", file=human)
    if args.json:
        emit_json({"task": args.task, "file": args.file, "out": str(out_path or STDIN), "scored": len(kept),
                   "skipped_bad_rows": len(bad), "correct": counts.get("correct", 0),
                   "accuracy": counts.get("correct", 0) / len(kept) if kept else None,
                   "status_counts": dict(counts), "seconds": round(seconds, 3)})
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    """Score every dataset solution against its own gold; list the golds that do not self-verify."""
    from verifiers.datasets import load_problems

    dataset = args.task
    if args.task == "math" and args.data and "500" in Path(args.data).name:
        dataset = "math500"
    spec = tasks.get(dataset)
    scorer, config = _config(args.task, args)  # bad scorer settings fail before the dataset is read
    ensure_hub(dataset_hub_name(dataset, args.data), "dataset",
               "pass a local file or folder with --data, or set VERIFIERS_DATA_DIR")
    problems = load_problems(dataset, args.data, split=args.split, limit=args.limit)
    if not problems:
        raise DataError(f"no {dataset} problems in {args.data or 'the ' + args.split + ' split'}; nothing to validate")
    start = time.monotonic()
    scores = list(_score_all(scorer, config, [p.solution for p in problems], [spec.reference.of(p) for p in problems],
                             args.workers, "validating"))
    seconds = time.monotonic() - start
    human = sys.stderr if args.json else sys.stdout
    counts: Counter[str] = Counter(s.status for s in scores)
    _summary(f"{args.task} golds self-verifying", counts, len(problems), seconds, human)
    failures = [(p, s) for p, s in zip(problems, scores) if not s.correct]
    for p, s in failures[: args.show]:
        print(f"  {p.id}: gold {p.gold!r} -> {s.status}, extracted {s.extracted!r}: {s.explanation}", file=human)
    if len(failures) > args.show:
        print(f"  ... and {len(failures) - args.show} more (use --out to write them all)", file=human)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            for p, s in failures:
                out.write(json.dumps({"id": p.id, "gold": p.gold, "solution_tail": p.solution[-300:],
                                      "score": s.to_dict()}, ensure_ascii=False) + "\n")
        print(f"wrote {len(failures)} failures to {args.out}", file=human)
    rate = counts.get("correct", 0) / len(problems) if problems else 0.0
    min_rate = spec.min_self_verify if args.min_rate is None else args.min_rate
    ok = rate >= min_rate
    if args.json:
        emit_json({"task": args.task, "problems": len(problems), "self_verifying": counts.get("correct", 0),
                   "rate": rate, "min_rate": min_rate, "ok": ok, "status_counts": dict(counts),
                   "failures": [p.id for p, _ in failures], "seconds": round(seconds, 3)})
    if not ok:
        print(f"FAIL: {rate:.2%} of golds self-verify, below --min-rate {min_rate:.2%}", file=human)
        return 1
    print(f"OK: {rate:.2%} of golds self-verify (>= {min_rate:.2%})", file=human)
    return 0


def cmd_data_fetch(args: argparse.Namespace) -> int:
    """Fetch the dataset files of ``--task`` into ``--out``, verified against their pinned sha256."""
    from verifiers.data_fetch import default_out, fetch
    from verifiers.download import make_progress

    out = Path(args.out) if args.out else default_out()
    human = sys.stderr if args.json else sys.stdout
    start = time.monotonic()
    results = fetch([args.task], out, timeout=args.timeout, progress=make_progress(), force=args.force,
                    log=lambda line: print(line, file=human, flush=True))
    seconds = time.monotonic() - start
    fetched = sum(r.status == "fetched" for r in results)
    print(f"{out}: {fetched} file(s) fetched, {len(results) - fetched} already there, all verified; use it with: "
          f"export VERIFIERS_DATA_DIR={out.resolve()}", file=human)
    if args.json:
        emit_json({"task": args.task, "out": str(out), "fetched": fetched, "present": len(results) - fetched,
                   "files": [r.to_dict() for r in results], "seconds": round(seconds, 3)})
    return 0


def _add_data_parser(sub: Any) -> None:
    from verifiers.data_fetch import BASES, CATALOG, TASKS

    d = sub.add_parser("data", help="fetch the datasets into the folder VERIFIERS_DATA_DIR expects",
                       formatter_class=DefaultsFormatter,
                       description="The dataset files: fetch downloads them (verifiers data fetch --help).")
    d.set_defaults(cli_parser=d)
    actions = d.add_subparsers(dest="data_command", required=True, metavar="{fetch}")
    layout = ", ".join(f.path for files in CATALOG.values() for f in files)
    bases = "; ".join(f"{var} (default {url})" for var, url in BASES.values())
    f = actions.add_parser(
        "fetch", help="download the dataset files, verified against pinned sha256 digests",
        formatter_class=DefaultsFormatter,
        description=textwrap.fill(
            "Download the files VERIFIERS_DATA_DIR expects (" + layout + ") from their public origins (the "
            "original repositories and the Hugging Face hub), each checked against its pinned size and sha256 "
            "before it is renamed into place. A file already there and verified is kept; an interrupted "
            "download continues where it stopped when run again.", 100),
        epilog=textwrap.fill("Base URLs, to use a mirror: " + bases + ".", 100))
    add_task(f, TASKS, help="which dataset's files (all: every one)")
    f.add_argument("-o", "--out", default=None,
                   help="the data folder to write (default: $VERIFIERS_DATA_DIR if set, else ./data)")
    f.add_argument("--timeout", type=bounded(float, at_least=0.1), default=20.0,
                   help="seconds to wait for a connection or for the next bytes")
    f.add_argument("--force", action="store_true",
                   help="replace a file that is there but differs from the pinned one (default: refuse)")
    add_json(f, "what was fetched")
    f.set_defaults(func=cmd_data_fetch, cli_parser=f)


def _presets() -> tuple[str, ...]:
    """Every preset some task's scorer offers (``accuracy`` first)."""
    names = {p for t in tasks.names() for p in tasks.get(t).scorer().Config.presets}
    return ("accuracy", *sorted(names - {"accuracy"}))


def _preset_help() -> str:
    """``gsm8k: accuracy, book, grail; ...`` for the presets' help."""
    by_scorer: dict[str, str] = {}
    for t in tasks.names():
        spec = tasks.get(t)
        by_scorer.setdefault(spec.scorer_name or t, ", ".join(spec.scorer().Config.presets))
    return "; ".join(f"{k}: {v}" for k, v in by_scorer.items())


def _config_defaults(field: str) -> str:
    """``field``'s default in each task's scorer Config: ``1.0 (gsm8k, math); 5.0 (mbpp)``."""
    by_value: dict[str, list[str]] = {}
    for name in tasks.names():
        config = tasks.get(name).scorer().Config
        default = {f.name: f.default for f in dataclasses.fields(config)}.get(field, dataclasses.MISSING)
        if default is not dataclasses.MISSING:
            by_value.setdefault(str(default), []).append(name)
    if len(by_value) == 1 and len(next(iter(by_value.values()))) == len(tasks.names()):
        return next(iter(by_value))
    return "the task's: " + "; ".join(f"{value} ({', '.join(names)})" for value, names in by_value.items())


def _add_scoring_options(p: argparse.ArgumentParser) -> None:
    add_task(p, tasks.names(), help="which task's scorer to use")
    p.add_argument("--preset", default="accuracy", choices=_presets(),
                   help="reward weights (Config.preset; each task's scorer has its own: " + _preset_help() + ")")
    # None: the task's scorer's Config default, said in --help from the Config classes themselves
    said = {
        "mode": p.add_argument("--mode", default=None, choices=("flexible", "strict"),
                               help="Config.mode for gsm8k/math"),
        "timeout": p.add_argument("--timeout", type=float, default=None,
                                  help="seconds per symbolic check, or of CPU per program for code tasks (Config.timeout)"),
        "rel_tol": p.add_argument("--rel-tol", type=float, default=None, help="Config.rel_tol (gsm8k/math)"),
        "max_chars": p.add_argument("--max-chars", type=int, default=None,
                                    help="Config.max_chars: a longer response is cut to its last N characters"),
    }
    for field, action in said.items():
        show_default(action, functools.partial(_config_defaults, field))
    # --timeout, --rel-tol and --max-chars are checked by the scorer's Config, before any input is read;
    # --workers is checked here, as score_batch would refuse it only after the output was opened.
    p.add_argument("--workers", type=bounded(int, at_least=1), default=None,
                   help="score_batch parallelism: 1 = this thread only; N = at most N MATH threads or GSM8K "
                        "processes (GSM8K uses processes only when an item costs over 300 us); default: MATH "
                        "adds threads while the CAS is the bottleneck and CPUs are free; mbpp uses the "
                        "sandbox pool")
    add_json(p)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for docs and tests)."""
    parser = CliParser(prog="verifiers", description=doc_summary(__doc__))
    add_common(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="rescore a JSONL of {response, gold} rows", formatter_class=DefaultsFormatter,
                       description="Rescore rows of model responses. Input policy (also `verifiers-eval score`): "
                                   + rows_policy())
    p.add_argument("file", help="a .jsonl/.json/.parquet file of rows, or - for JSONL on stdin")
    p.add_argument("--response-field", default="response", help="field holding the model output (a string)")
    p.add_argument("--gold-field", default=None,
                   help="field holding the reference: a string or number (default gold; mbpp: tests, a list "
                        "of asserts or its JSON)")
    p.add_argument("-o", "--out", default=None,
                   help="results JSONL, - for stdout (default: FILE.scored.jsonl; stdout when FILE is -)")
    hidden_alias(p, "--output", "out")
    p.add_argument("--skip-bad-rows", action="store_true",
                   help="score the other rows when some cannot be read or break the input policy, and "
                        "report how many were skipped (default: the first bad row stops with its number)")
    _add_scoring_options(p)
    p.set_defaults(func=cmd_score, cli_parser=p)
    v = sub.add_parser("validate", help="check that every dataset gold solution scores correct",
                       formatter_class=DefaultsFormatter)
    v.add_argument("--data", default=None,
                   help="dataset file or folder (default: VERIFIERS_DATA_DIR, else the hub)")
    v.add_argument("--split", default="test", help="split to load when --data is a folder or hub name")
    v.add_argument("--limit", type=bounded(int, at_least=1), default=None, help="only the first N problems (default: all)")
    v.add_argument("--min-rate", type=bounded(float, at_least=0.0, at_most=1.0), default=None,
                   help="fail below this self-verify rate (default: the task's min_self_verify, 1.0 for gsm8k, "
                        "0.995 for math)")
    v.add_argument("--show", type=bounded(int, at_least=0), default=30, help="failures to print")
    v.add_argument("-o", "--out", default=None, help="write every failure to this JSONL (default: "
                   "none written; --show prints the first ones)")
    hidden_alias(v, "--output", "out")
    _add_scoring_options(v)
    v.set_defaults(func=cmd_validate, cli_parser=v)
    _add_data_parser(sub)
    return parser


def rows_policy() -> str:
    """The input policy of `verifiers.rows`, as one paragraph for ``--help``."""
    import verifiers.rows

    doc = (verifiers.rows.__doc__ or "").split("\n\n")[1]
    return " ".join(line.strip().lstrip("- ") for line in doc.splitlines())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``verifiers`` console script."""
    return run_command(build_parser(), sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
