"""``verifiers-eval``: evaluate checkpoints (``checkpoint``), rescore saved generations (``score``), and
compare runs (``compare``).

Examples::

    verifiers-eval checkpoint Qwen/Qwen2.5-0.5B-Instruct --dataset gsm8k --backend vllm --n 8 --temperature 0.6
    verifiers-eval checkpoint checkpoints/run/global_step_100/actor --dataset gsm8k --backend vllm
    verifiers-eval score eval_runs/base/samples.jsonl --dataset gsm8k --preset book
    verifiers-eval compare eval_runs/base eval_runs/step100 --out eval_runs/compare
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from verifiers.errors import VerifiersError


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (flags mirror `EvalConfig` fields: ``--max-tokens`` is ``max_tokens``)."""
    from verifiers import tasks
    from verifiers_train.evaluation._backend_factory import BACKENDS

    ap = argparse.ArgumentParser(prog="verifiers-eval", description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)

    ck = sub.add_parser("checkpoint", help="generate, score and summarize one model on one dataset")
    ck.add_argument("model", help="HF model dir, hub name, or verl checkpoint (global_step_N[/actor])")
    ck.add_argument("--dataset", required=True, choices=tasks.names())
    ck.add_argument("--data", help="local data file/folder (default: VERIFIERS_DATA_DIR, the hub; arith: generated)")
    ck.add_argument("--split", default="test")
    ck.add_argument("--template", help="prompt template (default: the dataset's, as in verifiers-train prepare)")
    ck.add_argument("--system-prompt", help="override the template's system prompt")
    ck.add_argument("--preset", default="accuracy", help="scorer preset: accuracy, book, grail")
    ck.add_argument("--backend", default="hf", choices=BACKENDS, help="vllm on GPUs, hf on CPU")
    ck.add_argument("--n", type=int, default=1, help="samples per problem")
    ck.add_argument("--temperature", type=float, default=0.0, help="0 = greedy")
    ck.add_argument("--top-p", type=float, default=1.0)
    ck.add_argument("--max-tokens", type=int, default=512, help="most new tokens per sample")
    ck.add_argument("--limit", type=int, help="only the first L problems")
    ck.add_argument("--seed", type=int, default=0, help="run seed; per-sample seeds derive from it")
    ck.add_argument("--dtype", default="auto", help="auto, bfloat16, float16, float32")
    ck.add_argument("--out", help="run folder (default eval_runs/<model>-<dataset>-n<N>-t<T>-s<S>)")
    ck.add_argument("--resume", action="store_true", help="continue the run in --out (settings must match)")
    ck.add_argument("--chunk-problems", type=int, help="problems per generation call (default: vllm 1024, hf 8)")
    ck.add_argument("--score-workers", type=int, help="score_batch parallelism (default: the scorer's choice)")
    ck.add_argument("--merge-dir", help="where to merge a verl checkpoint (default under $VERIFIERS_CACHE)")
    ck.add_argument("--tensor-parallel-size", type=int, help="vllm: GPUs to shard over (default: all visible)")
    ck.add_argument("--gpu-memory-utilization", type=float, default=0.85, help="vllm: share of GPU memory")
    ck.add_argument("--max-model-len", type=int, help="vllm: context length cap")
    ck.add_argument("--enforce-eager", action="store_true", help="vllm: no CUDA graphs (faster start)")
    ck.add_argument("--data-parallel", type=int, default=1, metavar="N",
                    help="N engines, each a Ray actor on its own --tensor-parallel-size GPUs (default 1: one engine "
                         "here); same samples as one engine")
    ck.add_argument("--ray-address", help="run the engines on an existing Ray cluster ('auto': this host's)")
    ck.add_argument("--sandbox", choices=("local", "ray"),
                    help="mbpp: run programs on this host or in Ray sandbox actors (default: ray with "
                         "--data-parallel/--ray-address, else local)")
    ck.add_argument("--reference", choices=("evalscope",), help="also run EvalScope's GSM8K and show both numbers")
    ck.add_argument("--no-report", action="store_true", help="skip report.html and plots")
    ck.add_argument("--quiet", action="store_true", help="no progress bar")

    sc = sub.add_parser("score", help="rescore saved generations (no model)")
    sc.add_argument("file", help="JSONL/JSON/parquet rows with 'response' and 'gold'/'tests' or 'problem_id'")
    sc.add_argument("--dataset", required=True, choices=tasks.names())
    sc.add_argument("--data", help="dataset file to look up problem_id rows")
    sc.add_argument("--split", default="test")
    sc.add_argument("--preset", default="accuracy")
    sc.add_argument("--template", help="template the responses were prompted with (format compliance)")
    sc.add_argument("--out", help="output run folder (default <file stem>-scored)")
    sc.add_argument("--score-workers", type=int, default=0)
    sc.add_argument("--overwrite", action="store_true", help="replace an existing output folder")
    sc.add_argument("--no-report", action="store_true")

    cp = sub.add_parser("compare", help="table + plot of several runs (e.g. base vs RL steps)")
    cp.add_argument("runs", nargs="+", help="run folders")
    cp.add_argument("--labels", help="comma-separated names for the runs")
    cp.add_argument("--out", default="eval_runs/compare", help="folder for compare.html/.md/.png")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``verifiers-eval`` console script; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "checkpoint":
            return _checkpoint(args)
        if args.command == "score":
            return _score(args)
        return _compare(args)
    except VerifiersError as e:
        print(f"verifiers-eval: error: {e}", file=sys.stderr)
        return 2


def _checkpoint(args: argparse.Namespace) -> int:
    from verifiers_train.evaluation._run import EvalConfig, run_checkpoint

    options: dict[str, Any] = {}
    if args.backend == "vllm":
        options = {"tensor_parallel_size": args.tensor_parallel_size,
                   "gpu_memory_utilization": args.gpu_memory_utilization,
                   "max_model_len": args.max_model_len, "enforce_eager": args.enforce_eager}
    cfg = EvalConfig(model=args.model, dataset=args.dataset, data=args.data, split=args.split,
                     template=args.template, system_prompt=args.system_prompt, preset=args.preset,
                     backend=args.backend, n=args.n, temperature=args.temperature, top_p=args.top_p,
                     max_tokens=args.max_tokens, limit=args.limit, seed=args.seed, dtype=args.dtype, out=args.out,
                     resume=args.resume, chunk_problems=args.chunk_problems, score_workers=args.score_workers,
                     merge_dir=args.merge_dir, backend_options=options, data_parallel=args.data_parallel,
                     ray_address=args.ray_address, sandbox=args.sandbox, report=not args.no_report,
                     progress=not args.quiet)
    result = run_checkpoint(cfg)
    metrics = result.metrics
    if args.reference == "evalscope":
        from verifiers_train.evaluation._evalscope import run_reference

        metrics = run_reference(result.run_dir, cfg)
    _print_summary(result.run_dir, metrics)
    return 0


def _score(args: argparse.Namespace) -> int:
    from verifiers_train.evaluation._rescore import score_file

    path, metrics = score_file(args.file, args.dataset, data=args.data, split=args.split, preset=args.preset,
                               template=args.template, out=args.out, workers=args.score_workers,
                               overwrite=args.overwrite, report=not args.no_report)
    _print_summary(path, metrics)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from verifiers_train.evaluation._report import write_compare

    labels = args.labels.split(",") if args.labels else None
    if labels and len(labels) != len(args.runs):
        from verifiers.errors import ConfigError

        raise ConfigError(f"--labels has {len(labels)} names for {len(args.runs)} runs")
    header, rows = write_compare(args.runs, args.out, labels)
    _print_table(header, rows, "verifiers-eval compare")
    print(f"wrote {args.out}/compare.html, compare.md, compare.png")
    return 0


def _print_summary(run_dir: Any, metrics: dict[str, Any]) -> None:
    from verifiers_train.evaluation._report import summary_rows

    _print_table(["metric", "value"], [[k, str(v)] for k, v in summary_rows(metrics)], f"verifiers-eval: {run_dir}")
    print(json.dumps({"run_dir": str(run_dir), "accuracy": metrics.get("accuracy"),
                      "pass_at_k": metrics.get("pass_at_k"), "maj_at_k": metrics.get("maj_at_k")}))


def _print_table(header: Sequence[str], rows: Sequence[Sequence[str]], title: str) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # bare GPU host: plain text
        print(title)
        for r in [header, *rows]:
            print("  ".join(f"{c:<28}" for c in r))
        return
    table = Table(*header, title=title)
    for r in rows:
        table.add_row(*r)
    Console().print(table)


if __name__ == "__main__":
    raise SystemExit(main())
