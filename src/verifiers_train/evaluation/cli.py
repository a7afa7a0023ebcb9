"""``verifiers-eval``: evaluate checkpoints (``checkpoint``), rescore saved generations (``score``), and
compare runs (``compare``).

Examples::

    verifiers-eval checkpoint Qwen/Qwen2.5-0.5B-Instruct --task gsm8k --backend vllm --n 8 --temperature 0.6
    verifiers-eval checkpoint checkpoints/run/global_step_100/actor --task gsm8k --backend vllm
    verifiers-eval checkpoint --backend openai --base-url http://localhost:8000/v1 --task gsm8k
    verifiers-eval score eval_runs/base/samples.jsonl --task gsm8k --preset book
    verifiers-eval compare eval_runs/base eval_runs/step100 --out eval_runs/compare

Exit status: 0 on success, 2 on bad input (``verifiers-eval COMMAND: error: MESSAGE``), 130 on Ctrl-C
(the line printed says how to resume).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from verifiers.cli import rows_policy
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
    is_hub_name,
    run_command,
)
from verifiers.errors import ConfigError
from verifiers.extras import require_installed
from verifiers_train.console import print_table

# ``checkpoint``'s flags that only the vllm backend reads, with their defaults: set to anything else with
# another backend they would be dropped silently, so they are refused instead.
_VLLM_ONLY: dict[str, Any] = {"tensor_parallel_size": None, "gpu_memory_utilization": 0.85, "max_model_len": None,
                              "enforce_eager": False, "batch_invariant": False}

# ``checkpoint``'s flags that only the openai backend reads, with their defaults (refused with another backend).
_OPENAI_ONLY: dict[str, Any] = {"base_url": None, "concurrency": 8, "max_retries": 5, "retry_wait": 1.0,
                                "request_timeout": 600.0}

# score_batch parallelism: 0 or less is refused when parsed, as in `verifiers score` (0 passed unnoticed)
WORKERS = bounded(int, at_least=1)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (flags mirror `EvalConfig` fields: ``--max-tokens`` is ``max_tokens``)."""
    from verifiers import tasks
    from verifiers_train.evaluation._backend_factory import BACKENDS
    from verifiers_train.templates import TEMPLATES

    DATASETS = tasks.names()

    ap = CliParser(prog="verifiers-eval", description=doc_summary(__doc__))
    add_common(ap)
    sub = ap.add_subparsers(dest="command", required=True)

    ck = sub.add_parser("checkpoint", help="generate, score and summarize one model on one dataset",
                        formatter_class=DefaultsFormatter,
                        description="Generate, score and summarize one model on one task. --n > 1 needs "
                                    "--temperature > 0: greedy samples are identical, so pass@k = maj@k = pass@1.")
    ck.add_argument("model", nargs="?", help="HF model dir, hub name, or verl checkpoint (global_step_N[/actor]); "
                    "with --backend openai the served model's name (default: the only one the server lists)")
    add_task(ck, DATASETS, help="dataset to evaluate on (picks data, template and scorer)")
    ck.add_argument("--data", help="local data file or folder (default: VERIFIERS_DATA_DIR, the hub; arith: "
                                   "generated)")
    ck.add_argument("--split", default="test", help="dataset split")
    ck.add_argument("--template", choices=TEMPLATES, metavar="NAME",
                    help="prompt template (default: the dataset's, as in verifiers-train prepare): " + ", ".join(
                        f"{t.name} ({t.description})" for t in TEMPLATES.values()))
    hidden_alias(ck, "--prompt-template", "template", choices=TEMPLATES, metavar="NAME")
    ck.add_argument("--system-prompt", help="override the template's system prompt (default: the template's)")
    ck.add_argument("--preset", default="accuracy", help="scorer preset: accuracy, book, grail")
    ck.add_argument("--backend", default="hf", choices=BACKENDS,
                    help="vllm on GPUs, hf on CPU, openai: a served model (vllm serve, SGLang, TGI) at --base-url")
    ck.add_argument("--n", type=int, default=1, help="samples per problem (n > 1 needs --temperature > 0)")
    ck.add_argument("--temperature", type=float, default=0.0, help="sampling temperature; 0 = greedy")
    ck.add_argument("--top-p", type=float, default=1.0, help="nucleus sampling")
    ck.add_argument("--max-tokens", type=int, default=512, help="most new tokens per sample")
    ck.add_argument("--limit", type=int, help="only the first L problems (default: all)")
    ck.add_argument("--seed", type=int, default=0, help="run seed; per-sample seeds derive from it")
    ck.add_argument("--dtype", default="auto", help="auto, bfloat16, float16, float32")
    ck.add_argument("-o", "--out", help="run folder (default eval_runs/<model>-<dataset>-n<N>-t<T>-s<S>)")
    ck.add_argument("--resume", action="store_true", help="continue the run in --out (settings must match)")
    ck.add_argument("--chunk-problems", type=int, help="problems per batch (default: 1024 samples' worth with vllm, "
                    "8 with hf); with --no-fixed-batches, per generation call (vllm 1024, hf 8, times --data-parallel)")
    ck.add_argument("--fixed-batches", action=argparse.BooleanOptionalAction, default=True,
                    help="the same samples whatever --data-parallel and wherever a run was resumed (same GPU model and "
                         "software): fixed batches of problems, each generated whole and alone by one engine")
    ck.add_argument("--workers", type=WORKERS, help="score_batch parallelism (default: the scorer's choice)")
    hidden_alias(ck, "--score-workers", "workers", type=WORKERS)
    ck.add_argument("--merge-dir", help="where to merge a verl checkpoint (default under $VERIFIERS_CACHE)")
    ck.add_argument("--tensor-parallel-size", type=int, help="vllm: GPUs to shard over (default: all visible)")
    ck.add_argument("--gpu-memory-utilization", type=float, default=_VLLM_ONLY["gpu_memory_utilization"],
                    help="vllm: share of GPU memory")
    ck.add_argument("--max-model-len", type=int, help="vllm: context length cap (default: the model's)")
    ck.add_argument("--enforce-eager", action="store_true", help="vllm: no CUDA graphs (faster start)")
    ck.add_argument("--batch-invariant", action="store_true",
                    help="vllm: vLLM's batch-invariant kernels (VLLM_BATCH_INVARIANT=1, beta, Hopper or newer) in every "
                         "engine; identical samples across engines and resumes come from fixed batches, not from "
                         "these kernels (evals/gpu/README.md R8.3, R9)")
    ck.add_argument("--base-url", help="openai: the server's API root, e.g. http://localhost:8000/v1 (default: none; "
                                       "required with --backend openai)")
    ck.add_argument("--api-key",
                    help="openai: API key (default: $OPENAI_API_KEY; never saved in the run folder)")
    ck.add_argument("--concurrency", type=int, default=_OPENAI_ONLY["concurrency"],
                    help="openai: requests in flight at once")
    ck.add_argument("--max-retries", type=int, default=_OPENAI_ONLY["max_retries"],
                    help="openai: retries of a request after a connection error, timeout, 429 or 5xx")
    ck.add_argument("--retry-wait", type=float, default=_OPENAI_ONLY["retry_wait"],
                    help="openai: seconds before the first retry, doubled for each next one (at most 60)")
    ck.add_argument("--request-timeout", type=float, default=_OPENAI_ONLY["request_timeout"],
                    help="openai: seconds one request may take")
    ck.add_argument("--data-parallel", type=int, default=1, metavar="N",
                    help="N engines, each a Ray actor on its own --tensor-parallel-size GPUs (default 1: one engine "
                         "here); same seeds, run folder, resume and samples as one engine of that size")
    ck.add_argument("--ray-address", help="run the engines on an existing Ray cluster ('auto': this host's; "
                    "default: RAY_ADDRESS, else a local one started here)")
    ck.add_argument("--sandbox", choices=("local", "ray"),
                    help="mbpp: run programs on this host or in Ray sandbox actors (default: ray with "
                         "--data-parallel/--ray-address, else local)")
    ck.add_argument("--reference", choices=("evalscope",), help="also run EvalScope's GSM8K and show both numbers "
                    "(default: none)")
    ck.add_argument("--no-report", action="store_true", help="skip report.html and plots")
    ck.add_argument("--quiet", action="store_true", help="no progress bar")
    add_json(ck, "the run folder and its metrics")
    ck.set_defaults(func=_checkpoint, cli_parser=ck)

    sc = sub.add_parser("score", help="rescore saved generations (no model)", formatter_class=DefaultsFormatter,
                        description="Rescore saved generations. Input policy (shared with `verifiers score`): "
                                    + rows_policy())
    sc.add_argument("file", help="JSONL/JSON/parquet rows with 'response' and 'gold'/'tests' or 'problem_id'; "
                                 "- reads JSONL on stdin")
    add_task(sc, DATASETS, help="scorer to use (and the dataset problem_id rows refer to)")
    sc.add_argument("--data", help="dataset file or folder to look up problem_id rows (default: "
                                 "VERIFIERS_DATA_DIR, else the hub)")
    sc.add_argument("--split", default="test", help="dataset split for the problem_id lookup")
    sc.add_argument("--preset", default="accuracy", help="scorer preset: accuracy, book, grail")
    sc.add_argument("--template", help="template the responses were prompted with (format "
                                     "compliance; default: the task's)")
    sc.add_argument("-o", "--out", help="output run folder (default <file stem>-scored; needed for stdin)")
    sc.add_argument("--workers", type=WORKERS, help="score_batch parallelism (default: the scorer's choice)")
    hidden_alias(sc, "--score-workers", "workers", type=WORKERS)
    sc.add_argument("--skip-bad-rows", action="store_true",
                    help="score the other rows when some break the input policy, and report how many were skipped")
    sc.add_argument("--overwrite", action="store_true", help="replace an existing output folder")
    sc.add_argument("--no-report", action="store_true", help="skip report.html and plots")
    add_json(sc, "the run folder and its metrics")
    sc.set_defaults(func=_score, cli_parser=sc)

    cp = sub.add_parser("compare", help="table + plot of several runs (e.g. base vs RL steps)",
                        formatter_class=DefaultsFormatter)
    cp.add_argument("runs", nargs="+", help="run folders")
    cp.add_argument("--labels", help="comma-separated names for the runs (default: the folder names)")
    cp.add_argument("-o", "--out", default="eval_runs/compare", help="folder for compare.html/.md/.png")
    add_json(cp, "the comparison table")
    cp.set_defaults(func=_compare, cli_parser=cp)
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``verifiers-eval`` console script; returns the exit status."""
    return run_command(build_parser(), sys.argv[1:] if argv is None else argv, resume_hint=_resume_hint)


def _resume_hint(args: argparse.Namespace) -> str | None:
    """``checkpoint`` resumes with ``--resume`` in its run folder; the other commands just run again."""
    if args.command != "checkpoint":
        return None
    from verifiers_train.evaluation._run import default_out

    out = args.out or default_out(_config(args))
    argv = [a for a in sys.argv[1:] if a != "--resume"] if sys.argv[1:2] == ["checkpoint"] else [
        "checkpoint", args.model, "--task", args.task]
    argv = _without_secrets(argv)
    if args.out is None:
        argv += ["--out", out]
    return shlex.join(["verifiers-eval", *argv, "--resume"])


def _without_secrets(argv: list[str]) -> list[str]:
    """``argv`` with the value of ``--api-key`` left out: a resume hint is printed and may be logged (the key
    comes back from ``$OPENAI_API_KEY`` or a new ``--api-key``)."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "--api-key":
            skip = True
            continue
        if a.startswith("--api-key="):
            continue
        out.append(a)
    return out


def _config(args: argparse.Namespace) -> Any:
    """The `EvalConfig` of ``checkpoint``'s flags: each field's flag of the same name, but for these."""
    from verifiers_train.evaluation._run import EvalConfig

    for backend, only in (("vllm", _VLLM_ONLY), ("openai", _OPENAI_ONLY)):
        if args.backend != backend:
            for name, default in only.items():
                if getattr(args, name) != default:
                    raise ConfigError(f"--{name.replace('_', '-')} is {'an' if backend[0] in 'aeiou' else 'a'} "
                                      f"{backend} setting and --backend {args.backend} ignores it; pass --backend "
                                      f"{backend}, or drop the flag")
    if args.backend == "openai" and args.reference:
        raise ConfigError("--reference runs EvalScope on a local model; --backend openai has none: drop it")
    options = {"vllm": _VLLM_ONLY, "openai": _OPENAI_ONLY}.get(args.backend, {})
    other = {"dataset": args.task, "score_workers": args.workers, "report": not args.no_report,
             "progress": not args.quiet, "model": args.model or "",
             "api_key": args.api_key or os.environ.get("OPENAI_API_KEY"),
             "backend_options": {k: getattr(args, k) for k in options}}
    return EvalConfig(**{f.name: other[f.name] if f.name in other else getattr(args, f.name)
                         for f in dataclasses.fields(EvalConfig)})


def _checkpoint(args: argparse.Namespace) -> int:
    require_installed("train", "generating with a model", "numpy", "transformers",
                      *(["torch"] if args.backend == "hf" else []),
                      *(["datasets"] if dataset_hub_name(args.task, args.data) else []))
    from verifiers_train.evaluation._run import run_checkpoint

    cfg = _config(args)  # checks the sampling settings before anything loads
    if args.backend == "openai":
        from verifiers_train.evaluation._openai import check_options

        if args.base_url is None:
            raise ConfigError("--backend openai needs --base-url (e.g. http://localhost:8000/v1)")
        check_options(**cfg.backend_options)
        if not args.model:  # named now, so that the default --out and the resume hint name it too
            from verifiers_train.evaluation._openai import served_model

            args.model = served_model(args.base_url, None, cfg.api_key, max_retries=args.max_retries,
                                      retry_wait=args.retry_wait)[0]
            cfg = _config(args)
    elif not args.model:
        raise ConfigError(f"MODEL is required with --backend {args.backend} (a model folder, hub name or "
                          "verl checkpoint)")
    elif is_hub_name(args.model):
        ensure_hub(args.model, "model", "pass a local model folder")
    ensure_hub(dataset_hub_name(args.task, args.data), "dataset",
               "pass a local file or folder with --data, or set VERIFIERS_DATA_DIR")
    result = run_checkpoint(cfg)
    metrics = result.metrics
    if args.reference == "evalscope":
        from verifiers_train.evaluation._evalscope import run_reference

        metrics = run_reference(result.run_dir, cfg)
    _print_summary(result.run_dir, metrics, args.json, report=cfg.report)
    return 0


def _score(args: argparse.Namespace) -> int:
    require_installed("eval", "rescoring (metrics)", "numpy")
    from verifiers_train.evaluation._rescore import score_file

    if args.data:
        ensure_hub(dataset_hub_name(args.task, args.data), "dataset", "pass a local file or folder with --data")
    path, metrics = score_file(args.file, args.task, data=args.data, split=args.split, preset=args.preset,
                               template=args.template, out=args.out, workers=args.workers,
                               overwrite=args.overwrite, report=not args.no_report,
                               skip_bad_rows=args.skip_bad_rows)
    _print_summary(path, metrics, args.json, report=not args.no_report)
    return 0


def _compare(args: argparse.Namespace) -> int:
    require_installed("eval", "comparing runs", "numpy")
    from verifiers_train.evaluation._report import write_compare

    labels = args.labels.split(",") if args.labels else None
    if labels and len(labels) != len(args.runs):
        raise ConfigError(f"--labels has {len(labels)} names for {len(args.runs)} runs")
    header, rows = write_compare(args.runs, args.out, labels)
    print_table(header, rows, "verifiers-eval compare", sys.stderr if args.json else None)
    print(f"wrote {args.out}/compare.html, compare.md, compare.png", file=sys.stderr if args.json else sys.stdout)
    if args.json:
        emit_json({"out": args.out, "header": list(header), "rows": [list(r) for r in rows]})
    return 0


def _print_summary(run_dir: Any, metrics: dict[str, Any], as_json: bool, *, report: bool = False) -> None:
    """The metrics table, then the report's path when one was written (on stderr with ``--json``, which
    prints the run folder and metrics on stdout)."""
    from verifiers_train.evaluation._report import summary_rows

    print_table(["metric", "value"], [[k, str(v)] for k, v in summary_rows(metrics)], f"verifiers-eval: {run_dir}",
                sys.stderr if as_json else None)
    html = Path(run_dir) / "report.html"
    if report and html.is_file():
        print(f"report: {html}", file=sys.stderr if as_json else sys.stdout)
    if as_json:
        emit_json({"run_dir": str(run_dir), **metrics})


if __name__ == "__main__":
    raise SystemExit(main())
