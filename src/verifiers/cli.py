"""The ``verifiers`` console script: rescore a JSONL of responses, or check that dataset golds self-verify.

Examples::

    verifiers score --task gsm8k rollouts.jsonl                 # writes rollouts.scored.jsonl
    verifiers score --task math out.jsonl --response-field completion --gold-field answer --workers 2
    verifiers validate --task gsm8k --data ../shared/data/gsm8k/test.jsonl
    verifiers validate --task math --data ../shared/data/math/test.jsonl --output failures.jsonl

Exit status: 0 on success, 1 when ``validate`` finds fewer self-verifying golds than ``--min-rate``,
2 on bad arguments or unreadable data (the message says what to fix).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers._score import STATUSES, Score
from verifiers.errors import VerifiersError
from verifiers.tasks import Reference, Scorer

_CHUNK = 512


def _config(task: str, args: argparse.Namespace) -> tuple[Scorer, Any]:
    scorer = tasks.get(task).scorer()
    names = {f.name for f in dataclasses.fields(scorer.Config)}
    kwargs: dict[str, Any] = {"preset": args.preset, "mode": args.mode}
    if args.timeout is not None:
        kwargs["timeout"] = args.timeout
    if args.rel_tol is not None:
        kwargs["rel_tol"] = args.rel_tol
    if args.max_chars is not None:
        kwargs["max_chars"] = args.max_chars
    unknown = sorted(k for k in kwargs if k not in names and not (k == "mode" and kwargs[k] == "flexible"))
    if unknown:
        raise VerifiersError(f"{task}'s scorer has no option {', '.join(unknown)}")
    return scorer, scorer.Config(**{k: v for k, v in kwargs.items() if k in names})


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


def _score_all(scorer: Scorer, config: Any, responses: list[str], golds: Sequence[Reference], workers: int | None,
               label: str) -> Iterator[Score]:
    advance, close = _progress(len(responses), label)
    try:
        for i in range(0, len(responses), _CHUNK):
            chunk = scorer.score_batch(responses[i:i + _CHUNK], golds[i:i + _CHUNK], workers=workers,
                                       config=config)
            advance(len(chunk))
            yield from chunk
    finally:
        close()


def _summary(title: str, counts: Counter[str], total: int, seconds: float) -> None:
    correct = counts.get("correct", 0)
    rate = correct / total if total else 0.0
    rows = [(s, counts.get(s, 0)) for s in STATUSES if counts.get(s, 0)]
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(f"{title}: {correct}/{total} correct ({rate:.2%}) in {seconds:.1f}s")
        for status, n in rows:
            print(f"  {status:<17} {n}")
        return
    console = Console()
    console.print(f"[bold]{title}[/bold]: {correct}/{total} correct ({rate:.2%}) in {seconds:.1f}s")
    table = Table()
    table.add_column("status")
    table.add_column("count", justify="right")
    table.add_column("share", justify="right")
    for status, n in rows:
        table.add_row(status, str(n), f"{n / total:.2%}")
    console.print(table)


def cmd_score(args: argparse.Namespace) -> int:
    """Rescore ``{response, gold}`` rows and write one result per row."""
    from verifiers.datasets import read_records

    scorer, config = _config(args.task, args)
    codec = tasks.get(args.task).reference
    rows = read_records(args.file)
    responses: list[str] = []
    golds: list[Reference] = []
    for n, row in enumerate(rows, 1):
        if not isinstance(row, dict) or args.response_field not in row or args.gold_field not in row:
            keys = sorted(row) if isinstance(row, dict) else type(row).__name__
            raise VerifiersError(f"{args.file} row {n} lacks {args.response_field!r}/{args.gold_field!r} "
                                 f"(it has {keys}); pick fields with --response-field/--gold-field")
        responses.append(str(row[args.response_field]))
        golds.append(codec.decode(row[args.gold_field], str(row.get("setup_code") or "")))
    out_path = Path(args.output) if args.output else Path(args.file).with_suffix(".scored.jsonl")
    start = time.monotonic()
    counts: Counter[str] = Counter()
    with out_path.open("w", encoding="utf-8") as out:
        for row, s in zip(rows, _score_all(scorer, config, responses, golds, args.workers, "scoring")):
            counts[s.status] += 1
            out.write(json.dumps({**row, "score": s.to_dict()}, ensure_ascii=False) + "\n")
    _summary(f"{args.task} {Path(args.file).name}", counts, len(rows), time.monotonic() - start)
    print(f"wrote {out_path}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    """Score every dataset solution against its own gold; list the golds that do not self-verify."""
    from verifiers.datasets import load_problems

    dataset = args.task
    if args.task == "math" and args.data and "500" in Path(args.data).name:
        dataset = "math500"
    spec = tasks.get(dataset)
    problems = load_problems(dataset, args.data, split=args.split, limit=args.limit)
    scorer, config = _config(args.task, args)
    start = time.monotonic()
    scores = list(_score_all(scorer, config, [p.solution for p in problems], [spec.reference.of(p) for p in problems],
                             args.workers, "validating"))
    counts: Counter[str] = Counter(s.status for s in scores)
    _summary(f"{args.task} golds self-verifying", counts, len(problems), time.monotonic() - start)
    failures = [(p, s) for p, s in zip(problems, scores) if not s.correct]
    for p, s in failures[: args.show]:
        print(f"  {p.id}: gold {p.gold!r} -> {s.status}, extracted {s.extracted!r}: {s.explanation}")
    if len(failures) > args.show:
        print(f"  ... and {len(failures) - args.show} more (use --output to write them all)")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            for p, s in failures:
                out.write(json.dumps({"id": p.id, "gold": p.gold, "solution_tail": p.solution[-300:],
                                      "score": s.to_dict()}, ensure_ascii=False) + "\n")
        print(f"wrote {len(failures)} failures to {args.output}")
    rate = counts.get("correct", 0) / len(problems) if problems else 0.0
    min_rate = spec.min_self_verify if args.min_rate is None else args.min_rate
    if rate < min_rate:
        print(f"FAIL: {rate:.2%} of golds self-verify, below --min-rate {min_rate:.2%}")
        return 1
    print(f"OK: {rate:.2%} of golds self-verify (>= {min_rate:.2%})")
    return 0


def _add_scoring_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--task", required=True, choices=tasks.names(), help="which task's scorer to use")
    p.add_argument("--preset", default="accuracy", choices=("accuracy", "book", "grail"),
                   help="reward weights (Config.preset)")
    p.add_argument("--mode", default="flexible", choices=("flexible", "strict"), help="Config.mode")
    p.add_argument("--timeout", type=float, default=None, help="seconds per symbolic check (Config.timeout)")
    p.add_argument("--rel-tol", type=float, default=None, help="Config.rel_tol")
    p.add_argument("--max-chars", type=int, default=None, help="Config.max_chars")
    p.add_argument("--workers", type=int, default=None,
                   help="score_batch parallelism: 1 = this thread only; N = at most N MATH threads or GSM8K "
                        "processes (GSM8K uses processes only when an item costs over 300 us); default: MATH "
                        "adds threads while the CAS is the bottleneck and CPUs are free")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for docs and tests)."""
    parser = argparse.ArgumentParser(prog="verifiers", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="rescore a JSONL of {response, gold} rows")
    p.add_argument("file", help="a .jsonl/.json/.parquet file of rows")
    p.add_argument("--response-field", default="response", help="field holding the model output")
    p.add_argument("--gold-field", default="gold", help="field holding the reference answer")
    p.add_argument("--output", "-o", default=None, help="results JSONL (default FILE.scored.jsonl)")
    _add_scoring_options(p)
    p.set_defaults(func=cmd_score)
    v = sub.add_parser("validate", help="check that every dataset gold solution scores correct")
    v.add_argument("--data", default=None,
                   help="dataset file or folder (default: VERIFIERS_DATA_DIR, else the hub)")
    v.add_argument("--split", default="test", help="split to load when --data is a folder or hub name")
    v.add_argument("--limit", type=int, default=None, help="only the first N problems")
    v.add_argument("--min-rate", type=float, default=None,
                   help="fail below this self-verify rate (default 1.0 for gsm8k, 0.995 for math)")
    v.add_argument("--show", type=int, default=30, help="failures to print")
    v.add_argument("--output", "-o", default=None, help="write every failure to this JSONL")
    _add_scoring_options(v)
    v.set_defaults(func=cmd_validate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``verifiers`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except VerifiersError as e:
        print(f"verifiers {args.command}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"verifiers {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
