"""Equality is proved, never sampled (issue 24 item 2): the canonical-form proof and the verdicts built on it."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifiers import math
from verifiers.answers._latex_expr import parse_expr
from verifiers.equivalence._proof import proves_equal

# ------------------------------------------------------------------------------ the proof itself


def _poly_text(coeffs: list[int], var: str) -> str:
    return "+".join(f"({c})*{var}^{{{k}}}" for k, c in enumerate(coeffs)) or "0"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=5), st.lists(st.integers(-9, 9), min_size=1, max_size=5))
def test_random_polynomial_products_are_proved_equal_to_their_expansion(p: list[int], q: list[int]) -> None:
    # (sum p_i x^i)(sum q_j x^j) against the expanded convolution: an identity checked exactly
    prod = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            prod[i + j] += a * b
    lhs = parse_expr(f"({_poly_text(p, 'x')})({_poly_text(q, 'x')})")
    rhs = parse_expr(_poly_text(prod, "x"))
    assert proves_equal(lhs, rhs)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=2, max_size=5), st.integers(1, 5))
def test_a_changed_coefficient_is_never_proved_equal(p: list[int], k: int) -> None:
    q = list(p)
    q[len(q) - 1] += k
    assert not proves_equal(parse_expr(_poly_text(p, "y")), parse_expr(_poly_text(q, "y")))


@pytest.mark.parametrize(("a", "b"), [
    ("\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}"),
    ("\\sqrt{12}", "2\\sqrt{3}"),
    ("(1+i)^2", "2i"),
    ("\\binom{n}{2}", "\\frac{n(n-1)}{2}"),
    ("\\frac{x^2-1}{x-1}", "x+1"),
    ("\\sin x+\\sin x", "2\\sin x"),
    ("\\sqrt[3]{16}", "2\\sqrt[3]{2}"),
    ("e^{5x}e^{3x}", "e^{8x}"),
    ("6\\sqrt{x}", "6x^{\\frac{1}{2}}"),
    ("\\ln 243", "5\\ln 3"),
    ("\\ln(7x)", "\\ln 7+\\ln x"),
    ("\\log_2 8", "3"),
])
def test_identities_proved_by_canonical_form(a: str, b: str) -> None:
    assert proves_equal(parse_expr(a), parse_expr(b))


@pytest.mark.parametrize(("a", "b"), [
    ("\\sqrt{x^2}", "x"),  # not an identity: atoms are never assumed to relate
    ("\\sin^2x+\\cos^2x", "2"),  # the Pythagorean identity is a reduction now (sin^2 = 1 - cos^2); 2 is wrong
    ("\\sin x\\cos y", "\\cos x\\sin y"),
    ("x+\\lfloor\\frac{x^2}{10^{30}}\\rfloor", "x"),
    ("\\ln(x^2)", "2\\ln x"),  # different real domains
    ("e^{x}", "e^{2x}"),
])
def test_canonical_form_never_claims_what_it_cannot_show(a: str, b: str) -> None:
    assert not proves_equal(parse_expr(a), parse_expr(b))


# ------------------------------------------------------------------------------ verdicts


@pytest.mark.parametrize("k", [30, 80, 150, 400, 1000])
def test_tails_far_below_the_working_precision_are_different(k: int) -> None:
    assert math.score(f"\\boxed{{3+10^{{-{k}}}}}", "3").status == "incorrect"
    assert math.score(f"\\boxed{{\\pi+10^{{-{k}}}}}", "\\pi").status == "incorrect"


@pytest.mark.parametrize("n", [40, 80, 200])
def test_factorial_tails_are_different_not_sampled_equal(n: int) -> None:
    r = math.score(f"\\boxed{{\\frac{{\\pi}}{{3}}\\cdot\\frac{{{n}!+1}}{{{n}!}}}}", "\\frac{\\pi}{3}")
    assert r.status == "incorrect"


@pytest.mark.parametrize(("response", "gold"), [
    ("x^2+\\max(0, x-10^{7})", "x^2"),
    ("2x+1+\\lfloor\\frac{x^2}{10^{30}}\\rfloor", "2x+1"),
    ("\\sin x+e^{x-10^{7}}", "\\sin x"),
    ("x+e^{-10^{10}x^2}", "x"),
    ("\\ln x+\\lfloor\\frac{x}{10^{9}}\\rfloor", "\\ln x"),
    ("\\lceil\\frac{x}{10^{12}}\\rceil+x", "x+1"),
])
def test_functions_equal_at_probe_points_only_are_never_correct(response: str, gold: str) -> None:
    assert math.score(f"\\boxed{{{response}}}", gold).status != "correct"


@pytest.mark.slow
@pytest.mark.parametrize("pairs", [50, 150])
def test_padding_cannot_buy_a_reward(pairs: int) -> None:
    rng = random.Random(pairs)
    pads = "".join(rng.choice(["+\\sin x-\\sin x", "+\\ln 3-\\ln 3", "+e^{x}-e^{x}"]) for _ in range(pairs))
    assert math.score(f"\\boxed{{x^2+1{pads}}}", "x^2").status in ("incorrect", "timeout")
    assert math.score(f"\\boxed{{\\sqrt{{2}}+10^{{-60}}{pads}}}", "\\sqrt{2}").status in ("incorrect", "timeout")


@pytest.mark.parametrize(("response", "gold"), [
    ("\\int_0^1 11.99999999\\,dx", "12"),
    ("\\int_0^1 x^{1.0000000001}\\,dx", "\\frac{1}{2}"),
])
def test_a_decimal_inside_a_construct_is_its_exact_value(response: str, gold: str) -> None:
    assert math.score(f"\\boxed{{{response}}}", gold).status != "correct"


def test_exact_decimals_still_equal() -> None:
    assert math.score("\\boxed{\\frac{1.5}{2}}", "\\frac{3}{4}").correct
    assert math.score("\\boxed{0.75}", "\\frac{3}{4}").correct
    assert Fraction(3, 4) == Fraction("0.75")


@pytest.mark.parametrize(("response", "gold", "want"), [
    ("y=2x+1", "2x-y+1=0", "correct"),  # proportional sides, proved with the exact ratio
    ("x^2+y^2=1", "2x^2+2y^2-2=0", "correct"),
    ("y=2x+1", "2x-y-1=0", "incorrect"),
    ("y=\\sin x", "y-\\sin x=0", "correct"),
])
def test_equations_are_proved_proportional(response: str, gold: str, want: str) -> None:
    assert math.score(f"\\boxed{{{response}}}", gold).status == want


def test_an_equation_with_an_irrational_ratio_is_proved_by_the_cas() -> None:
    from verifiers.equivalence import _cas

    assert _cas.equal("x=\\frac{y}{\\sqrt{2}}", "y=\\sqrt{2}x", 1e-9)
    assert not _cas.equal("x=\\frac{y}{\\sqrt{3}}", "y=\\sqrt{2}x", 1e-9)
    assert not _cas.equal("12", "\\int_0^1 11.99999999\\,dx", 1e-9)  # the decimal is exact in the CAS too
    assert not _cas.equal("x^2", "x^2+\\max(0, x-10^{7})", 1e-9)
    assert _cas.equal("\\sin^2 x", "1-\\cos^2 x", 1e-9)
