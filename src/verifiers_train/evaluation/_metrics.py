"""Evaluation metrics: accuracy with a bootstrap CI, unbiased pass@k, equivalence-aware maj@k, counts.

All functions take plain sample dicts (the rows of ``samples.jsonl``) so a run can be rescored or
re-summarized without a model. Per problem, ``n`` samples are drawn; ``c`` of them are correct.

Example:
    >>> round(pass_at_k(n=4, c=1, k=2), 3)
    0.5
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from verifiers import STATUSES

# Bootstrap resamples for the accuracy CI; 2000 keeps the 2.5/97.5 percentiles stable to ~0.1 point.
BOOTSTRAP_ITERATIONS = 2000
CI_LEVEL = 0.95
# maj@k is an expectation over k-subsets of a problem's n samples: enumerate them exactly while there are
# at most this many, otherwise average this many random subsets (seeded, so metrics are reproducible).
MAX_EXACT_SUBSETS = 5000
MONTE_CARLO_SUBSETS = 2000

Equivalence = Callable[[str, str], bool]


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021): chance that a random k-subset of n samples holds a correct one.

    Args:
        n: samples drawn for the problem.
        c: how many of them are correct.
        k: subset size, ``1 <= k <= n``.

    Returns:
        ``1 - C(n-c, k) / C(n, k)``, computed as a product so large n does not overflow.
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def k_values(n: int) -> list[int]:
    """Powers of two up to ``n`` (1, 2, 4, ...), the k reported for pass@k and maj@k."""
    return [2**i for i in range(max(n, 0).bit_length())]


def cluster_answers(answers: Sequence[str | None], equivalent: Equivalence | None) -> list[int]:
    """Label answers so that mathematically equivalent ones share a label; ``None`` answers get ``-1``.

    Each answer joins the first earlier group whose representative it is equivalent to (exact string
    matches short-circuit), so ``0.5``, ``1/2`` and ``\\frac{1}{2}`` vote together. Equivalence checks
    are cached per distinct string pair; a checker that raises counts as "not equivalent".

    Args:
        answers: extracted answers of one problem's samples, in sample order.
        equivalent: ``f(a, b) -> bool`` on two extracted answers; ``None`` means exact string match.

    Returns:
        A label per answer; labels are 0, 1, ... in order of first appearance.
    """
    reps: list[str] = []
    by_string: dict[str, int] = {}
    labels: list[int] = []
    for ans in answers:
        if ans is None:
            labels.append(-1)
            continue
        label = by_string.get(ans)
        if label is None:
            label = next((i for i, rep in enumerate(reps)
                          if equivalent is not None and _safe_equivalent(equivalent, rep, ans)), None)
            if label is None:
                label = len(reps)
                reps.append(ans)
            by_string[ans] = label
        labels.append(label)
    return labels


def majority_at_k(labels: Sequence[int], correct: Sequence[bool], k: int, *, seed: int = 0) -> float:
    """Expected majority-vote accuracy over k-subsets of one problem's samples.

    Within a subset the answer group with the most votes wins; samples without an answer (label -1) do
    not vote, and a subset where nobody answered scores 0. A tie between t groups scores (correct groups
    among them) / t, the expectation under a random tie-break. A group is correct if any member is.

    Args:
        labels: group label per sample from `cluster_answers`.
        correct: whether each sample was scored correct.
        k: subset size, ``1 <= k <= len(labels)``.
        seed: seed for the Monte Carlo estimate used when there are more than ``MAX_EXACT_SUBSETS`` subsets.

    Returns:
        maj@k in [0, 1].
    """
    n = len(labels)
    if len(correct) != n or not 1 <= k <= n:
        raise ValueError(f"need len(correct) == len(labels) and 1 <= k <= n, got n={n}, k={k}")
    good = {lab for lab, ok in zip(labels, correct, strict=True) if ok and lab >= 0}
    if not good:
        return 0.0
    if math.comb(n, k) <= MAX_EXACT_SUBSETS:
        subsets: Iterable[Sequence[int]] = itertools.combinations(range(n), k)
        count = math.comb(n, k)
    else:
        rng = random.Random(seed)
        subsets = (rng.sample(range(n), k) for _ in range(MONTE_CARLO_SUBSETS))
        count = MONTE_CARLO_SUBSETS
    total = 0.0
    for subset in subsets:
        votes = Counter(labels[i] for i in subset if labels[i] >= 0)
        if not votes:
            continue
        top = max(votes.values())
        winners = [lab for lab, v in votes.items() if v == top]
        total += sum(lab in good for lab in winners) / len(winners)
    return total / count


def bootstrap_ci(values: Sequence[float], *, iterations: int = BOOTSTRAP_ITERATIONS, level: float = CI_LEVEL,
                 seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean of ``values`` (one value per problem)."""
    if not values:
        return (float("nan"), float("nan"))
    import numpy as np

    rng = np.random.default_rng(seed)
    arr = np.asarray(values, dtype=float)
    means = arr[rng.integers(0, len(arr), size=(iterations, len(arr)))].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, 1 - (1 - level) / 2])
    return (float(lo), float(hi))


def paired_difference(base: Mapping[str, float], other: Mapping[str, float], *, seed: int = 0
                      ) -> dict[str, Any] | None:
    """``other - base`` accuracy over the problems both runs scored, with a paired bootstrap CI.

    Resampling problems (not runs) keeps each problem's two scores together, so the interval reflects the
    change, not how hard the problems are: much tighter than comparing the two runs' own CIs.

    Returns:
        ``{"difference", "ci95": [lo, hi], "problems"}``, or ``None`` when no problem is in both.
    """
    common = sorted(set(base) & set(other))
    if not common:
        return None
    diffs = [other[p] - base[p] for p in common]
    lo, hi = bootstrap_ci(diffs, seed=seed)
    return {"difference": _mean(diffs), "ci95": [lo, hi], "problems": len(common)}


def format_ok(sample: Mapping[str, Any]) -> bool:
    """Whether a sample follows the expected answer format.

    The sample's ``format_ok`` (set at scoring time from the prompt template: ``####`` answer, ``\\boxed{}``,
    ``<SOLUTION>`` block, python code block) when present, else whether an answer could be extracted.
    """
    if "format_ok" in sample:
        return bool(sample["format_ok"])
    return sample.get("extracted") is not None


def compute_metrics(samples: Iterable[Mapping[str, Any]], *, equivalent: Equivalence | None = None,
                    timing: Mapping[str, float] | None = None, seed: int = 0) -> dict[str, Any]:
    """Summarize scored samples into the ``metrics.json`` dictionary.

    Args:
        samples: rows with ``problem_id``, ``sample_index``, ``correct``, ``status``, ``extracted``,
            ``parts`` and ``response_tokens``.
        equivalent: answer equivalence for maj@k voting (``None``: no maj@k, e.g. for code).
        timing: ``generate_s`` (wall seconds spent generating), ``prompts`` and ``generated_tokens``
            produced in that time; gives the throughput entries.
        seed: seed of the bootstrap and Monte Carlo estimates.

    Returns:
        A JSON-ready dict; see the README "Metrics" section for each key.
    """
    by_problem: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for s in samples:
        by_problem[str(s["problem_id"])].append(s)
    groups = [sorted(v, key=lambda s: int(s["sample_index"])) for v in by_problem.values()]
    all_samples = [s for g in groups for s in g]
    if not groups:
        return {"problems": 0, "samples": 0}
    min_n = min(len(g) for g in groups)
    per_problem_acc = [sum(bool(s["correct"]) for s in g) / len(g) for g in groups]
    lo, hi = bootstrap_ci(per_problem_acc, seed=seed)
    ks = k_values(min_n)
    metrics: dict[str, Any] = {
        "problems": len(groups),
        "samples": len(all_samples),
        "n": min_n if min_n == max(len(g) for g in groups) else [min_n, max(len(g) for g in groups)],
        "accuracy": _mean(per_problem_acc),
        "accuracy_ci95": [lo, hi],
        "pass_at_k": {str(k): _mean([pass_at_k(len(g), sum(bool(s["correct"]) for s in g), k) for g in groups])
                      for k in ks},
    }
    if equivalent is not None:
        labels = [cluster_answers([s.get("extracted") for s in g], equivalent) for g in groups]
        metrics["maj_at_k"] = {
            str(k): _mean([majority_at_k(lab, [bool(s["correct"]) for s in g], k, seed=seed + i)
                           for i, (lab, g) in enumerate(zip(labels, groups, strict=True))])
            for k in ks}
    counts = Counter(str(s["status"]) for s in all_samples)
    metrics["status_counts"] = {st: counts.get(st, 0) for st in STATUSES}
    metrics["format_compliance"] = _mean([float(format_ok(s)) for s in all_samples])
    metrics["mean_reward"] = _mean([float(s.get("reward", 0.0)) for s in all_samples])
    lengths = [int(s["response_tokens"]) for s in all_samples if s.get("response_tokens") is not None]
    metrics["mean_response_tokens"] = _mean(lengths) if lengths else None
    metrics["truncated"] = sum(s.get("finish_reason") == "length" for s in all_samples)
    if timing:
        gen_s = float(timing.get("generate_s", 0.0))
        metrics["throughput"] = {
            "generate_s": gen_s,
            "prompts": int(timing.get("prompts", 0)),
            "generated_tokens": int(timing.get("generated_tokens", 0)),
            "prompts_per_s": timing.get("prompts", 0) / gen_s if gen_s > 0 else None,
            "tokens_per_s": timing.get("generated_tokens", 0) / gen_s if gen_s > 0 else None,
        }
    return metrics


def accuracy_by(samples: Iterable[Mapping[str, Any]], key: str) -> dict[str, float]:
    """Share of correct samples per value of ``key`` (``level``, ``problem_id``), for samples that have it."""
    groups: dict[str, list[bool]] = {}
    for s in samples:
        if key in s:
            groups.setdefault(str(s[key]), []).append(bool(s["correct"]))
    return {k: sum(v) / len(v) for k, v in sorted(groups.items())}


def _mean(values: Sequence[float]) -> float:
    return float(sum(values) / len(values)) if values else float("nan")


def _safe_equivalent(equivalent: Equivalence, a: str, b: str) -> bool:
    try:
        return bool(equivalent(a, b))
    except Exception:  # noqa: BLE001 - a checker crash on odd model output must not abort the whole summary
        return False
