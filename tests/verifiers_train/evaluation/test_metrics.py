"""pass@k, equivalence-aware maj@k and the metrics summary, checked against brute-force enumeration."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from verifiers_train.evaluation import _metrics
from verifiers_train.evaluation._metrics import (
    bootstrap_ci,
    cluster_answers,
    compute_metrics,
    k_values,
    majority_at_k,
    pass_at_k,
)


@given(st.integers(1, 10).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_pass_at_k_equals_the_share_of_k_subsets_holding_a_correct_sample(nck: tuple[int, int, int]) -> None:
    n, c, k = nck
    items = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(items, k))
    brute = sum(any(s) for s in subsets) / len(subsets)
    assert pass_at_k(n, c, k) == pytest.approx(brute, abs=1e-12)


def test_pass_at_k_stays_finite_for_large_n_and_rejects_bad_arguments() -> None:
    assert pass_at_k(1000, 1, 1) == pytest.approx(0.001)
    assert pass_at_k(1000, 0, 500) == 0.0
    assert pass_at_k(1000, 600, 500) == 1.0
    with pytest.raises(ValueError):
        pass_at_k(4, 5, 1)
    with pytest.raises(ValueError):
        pass_at_k(4, 1, 5)


def test_k_values_are_powers_of_two_up_to_n() -> None:
    assert k_values(1) == [1]
    assert k_values(8) == [1, 2, 4, 8]
    assert k_values(12) == [1, 2, 4, 8]


def _render(value: Fraction, style: int) -> str:
    """Different spellings of the same number."""
    if style == 0 or value.denominator == 1:
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if style == 1:
        return f"\\frac{{{value.numerator}}}{{{value.denominator}}}"
    return f"{value.numerator}/{value.denominator}"


def _fraction_equivalent(a: str, b: str) -> bool:
    def parse(s: str) -> Fraction:
        if s.startswith("\\frac{"):
            num, den = s[len("\\frac{") : -1].split("}{")
            return Fraction(int(num), int(den))
        return Fraction(s)

    return parse(a) == parse(b)


def _brute_majority(values: list[Fraction | None], gold: Fraction, k: int) -> float:
    """maj@k by enumerating every k-subset and voting on exact values (independent of the code under test)."""
    total = 0.0
    subsets = list(itertools.combinations(range(len(values)), k))
    for subset in subsets:
        votes = Counter(values[i] for i in subset if values[i] is not None)
        if not votes:
            continue
        top = max(votes.values())
        winners = [v for v, c in votes.items() if c == top]
        total += sum(v == gold for v in winners) / len(winners)
    return total / len(subsets)


answers = st.lists(st.one_of(st.none(), st.tuples(st.sampled_from([Fraction(1, 2), Fraction(3), Fraction(-2, 3),
                                                                   Fraction(5, 4)]), st.integers(0, 2))),
                   min_size=1, max_size=8)


@settings(max_examples=examples(150), deadline=None)
@given(answers, st.data())
def test_majority_vote_groups_equivalent_spellings_and_matches_brute_force(
        drawn: list[tuple[Fraction, int] | None], data: st.DataObject) -> None:
    gold = Fraction(1, 2)
    values = [None if d is None else d[0] for d in drawn]
    strings = [None if d is None else _render(*d) for d in drawn]
    labels = cluster_answers(strings, _fraction_equivalent)
    # same label <=> same value, whatever the spelling
    for i, j in itertools.combinations(range(len(values)), 2):
        if values[i] is not None and values[j] is not None:
            assert (labels[i] == labels[j]) == (values[i] == values[j])
    correct = [v == gold for v in values]
    k = data.draw(st.integers(1, len(values)))
    assert majority_at_k(labels, correct, k) == pytest.approx(_brute_majority(values, gold, k), abs=1e-12)


def test_majority_vote_with_the_real_math_equivalence() -> None:
    from verifiers import math as vmath

    strings = ["0.5", "\\frac{1}{2}", "1/2", "3", "3"]
    labels = cluster_answers(strings, vmath.equivalent)
    assert labels[0] == labels[1] == labels[2] != labels[3] == labels[4]
    # 3 votes for one half against 2 for three: one half wins every 5-sample vote
    assert majority_at_k(labels, [True, True, True, False, False], 5) == 1.0
    # exact string voting would split the halves three ways and let "3" win
    naive = cluster_answers(strings, None)
    assert majority_at_k(naive, [True, True, True, False, False], 5) == 0.0


def test_majority_ties_are_split_and_abstentions_do_not_vote() -> None:
    assert majority_at_k([0, 1], [True, False], 2) == 0.5
    assert majority_at_k([-1, -1, 0], [False, False, True], 3) == 1.0
    assert majority_at_k([-1, -1], [False, False], 1) == 0.0


def test_majority_monte_carlo_estimate_is_close_to_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    labels = [0, 0, 0, 1, 1, 2, 2, 2, -1, 1]
    correct = [lab == 1 for lab in labels]
    exact = majority_at_k(labels, correct, 5)
    monkeypatch.setattr(_metrics, "MAX_EXACT_SUBSETS", 10)
    estimate = majority_at_k(labels, correct, 5, seed=3)
    assert estimate == pytest.approx(exact, abs=0.04)
    assert majority_at_k(labels, correct, 5, seed=3) == estimate  # seeded: reproducible


def test_a_raising_equivalence_counts_as_different() -> None:
    def boom(a: str, b: str) -> bool:
        raise RuntimeError("checker crashed")

    assert cluster_answers(["1", "2", "1"], boom) == [0, 1, 0]


def test_bootstrap_ci_brackets_the_mean_and_is_reproducible() -> None:
    values = [0.0, 1.0, 0.5, 0.25, 1.0, 0.0, 0.75]
    lo, hi = bootstrap_ci(values, seed=1)
    mean = sum(values) / len(values)
    assert lo < mean < hi
    assert (lo, hi) == bootstrap_ci(values, seed=1)
    assert bootstrap_ci([1.0, 1.0, 1.0]) == (1.0, 1.0)


def _sample(pid: str, j: int, correct: bool, extracted: str | None, tokens: int = 10) -> dict[str, object]:
    status = "correct" if correct else ("no_answer" if extracted is None else "incorrect")
    return {"problem_id": pid, "sample_index": j, "correct": correct, "status": status, "extracted": extracted,
            "parts": {"correctness": float(correct)}, "reward": float(correct), "response_tokens": tokens,
            "format_ok": extracted is not None, "finish_reason": "stop"}


def test_compute_metrics_on_a_hand_checked_run() -> None:
    samples = [
        _sample("a", 0, True, "5"), _sample("a", 1, False, "6"), _sample("a", 2, True, "5.0"), _sample("a", 3, False, None),
        _sample("b", 3, False, "1"), _sample("b", 0, False, "2"), _sample("b", 1, False, "2"), _sample("b", 2, False, None, 30),
    ]
    m = compute_metrics(samples, equivalent=lambda x, y: float(x) == float(y), timing={
        "generate_s": 2.0, "prompts": 2, "generated_tokens": 100})
    assert m["problems"] == 2 and m["samples"] == 8 and m["n"] == 4
    assert m["accuracy"] == pytest.approx((0.5 + 0.0) / 2)
    assert m["pass_at_k"]["1"] == pytest.approx(0.25)
    assert m["pass_at_k"]["4"] == pytest.approx(0.5)
    assert m["pass_at_k"]["2"] == pytest.approx((1 - math.comb(2, 2) / math.comb(4, 2)) / 2)
    # problem a: "5" and "5.0" vote together (2 of 3 answers) -> maj@4 is 1 there; problem b never correct
    assert m["maj_at_k"]["4"] == pytest.approx(0.5)
    assert m["maj_at_k"]["1"] == pytest.approx(m["pass_at_k"]["1"])
    assert m["status_counts"]["correct"] == 2 and m["status_counts"]["no_answer"] == 2
    assert m["status_counts"]["incorrect"] == 4
    assert m["format_compliance"] == pytest.approx(6 / 8)
    assert m["mean_response_tokens"] == pytest.approx((7 * 10 + 30) / 8)
    assert m["throughput"]["tokens_per_s"] == pytest.approx(50.0)
    assert m["throughput"]["prompts_per_s"] == pytest.approx(1.0)


def test_accuracy_by_problem_groups_samples() -> None:
    rows = [{"problem_id": "a", "correct": True}, {"problem_id": "a", "correct": False},
            {"problem_id": 7, "correct": True}]
    assert _metrics.accuracy_by(rows, "problem_id") == {"a": 0.5, "7": 1.0}


def test_paired_difference_uses_shared_problems_only() -> None:
    base = {"p1": 0.0, "p2": 0.5, "only_base": 1.0}
    other = {"p1": 0.25, "p2": 0.75, "only_other": 0.0}
    d = _metrics.paired_difference(base, other)
    assert d is not None and d["problems"] == 2
    assert d["difference"] == pytest.approx(0.25) and d["ci95"] == pytest.approx([0.25, 0.25])
    assert _metrics.paired_difference({"x": 1.0}, {"y": 1.0}) is None
    same = _metrics.paired_difference(base, base)
    assert same is not None and same["difference"] == 0 and same["ci95"] == [0.0, 0.0]


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=20, max_size=80),
       st.lists(st.booleans(), min_size=80, max_size=80))
def test_paired_interval_holds_the_change(base_scores: list[float], lift: list[bool]) -> None:
    base = {str(i): v for i, v in enumerate(base_scores)}
    other = {k: min(1.0, v + 0.25 * lift[int(k)]) for k, v in base.items()}  # no problem gets worse
    d = _metrics.paired_difference(base, other)
    assert d is not None and d["problems"] == len(base)
    lo, hi = d["ci95"]
    assert 0 <= lo <= d["difference"] <= hi <= 0.25


def test_paired_interval_is_much_tighter_than_the_runs_own() -> None:
    import random

    rng = random.Random(0)  # 500 problems of mixed difficulty; the second run solves a few more samples
    base = {str(i): rng.choice([0.0, 0.125, 0.25, 0.5, 0.875]) for i in range(500)}
    other = {k: min(1.0, v + 0.125 * (rng.random() < 0.3)) for k, v in base.items()}
    d = _metrics.paired_difference(base, other)
    assert d is not None
    b_lo, b_hi = _metrics.bootstrap_ci(list(base.values()))
    o_lo, _ = _metrics.bootstrap_ci(list(other.values()))
    assert o_lo < b_hi  # the runs' own intervals overlap ...
    assert d["ci95"][0] > 0  # ... while the paired interval excludes no change
    assert d["ci95"][1] - d["ci95"][0] < (b_hi - b_lo) / 3
