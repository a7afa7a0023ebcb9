"""Checkpoint evaluation: vLLM/HF generation, core-scorer scoring, pass@k, equivalence-aware maj@k, reports.

The command line is ``verifiers-eval`` (see `verifiers_train.evaluation.cli`); the same run from Python::

    from verifiers_train.evaluation import EvalConfig, run_checkpoint
    result = run_checkpoint(EvalConfig(model="tiny-model", dataset="arith", n=8, temperature=1.0, limit=64))
    result.metrics["accuracy"], result.metrics["pass_at_k"]["8"]
"""

from verifiers_train.evaluation._backends import SamplingConfig
from verifiers_train.evaluation._metrics import (
    cluster_answers,
    compute_metrics,
    majority_at_k,
    pass_at_k,
)
from verifiers_train.evaluation._report import write_compare
from verifiers_train.evaluation._rescore import score_file
from verifiers_train.evaluation._run import EvalConfig, RunResult, run_checkpoint

__all__ = [
    "EvalConfig",
    "RunResult",
    "SamplingConfig",
    "cluster_answers",
    "compute_metrics",
    "majority_at_k",
    "pass_at_k",
    "run_checkpoint",
    "score_file",
    "write_compare",
]
