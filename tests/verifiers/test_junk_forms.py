"""Junk is cheap (issue 24 item 3): integrals, sums, products, factorials and gamma, binomials, inverse trig,
subscripted names and double superscripts are read and evaluated in-process, proved equal only by theorems
(closed forms, shift identities, tables), and proved different by exact values or rigorous enclosures."""

from __future__ import annotations

import time
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifiers import math
from verifiers.answers._latex_expr import DoubleSuperscript, Malformed, Unsupported, free_symbols, parse_expr
from verifiers.equivalence._calculus import closed_form, faulhaber, is_indefinite
from verifiers.equivalence._compare import compare
from verifiers.equivalence._enclose import NoEnclosure, differ, enclose
from verifiers.equivalence._expr_eval import Refused, Undefined, approx, constant_value, exact
from verifiers.equivalence._proof import proves_equal

# ------------------------------------------------------------------------------------------ parsing


@pytest.mark.parametrize(("text", "kind"), [
    ("\\int_0^1 x^2dx", "int"), ("\\int xdx", "int"), ("\\sum_{k=1}^{n} k^2", "sum"),
    ("\\prod_{j=1}^{5} j", "prod"), ("\\Gamma(n+1)", "fn"), ("\\dbinom{2x}{x}", "binom"),
    ("\\tbinom{n}{2}", "binom"), ("\\tan^{-1} x", "fn"),
])
def test_new_forms_parse(text: str, kind: str) -> None:
    assert parse_expr(text)[0] == kind


def test_binders_bind_their_variable() -> None:
    assert free_symbols(parse_expr("\\sum_{k=1}^{n} k x")) == {"n", "x"}
    assert free_symbols(parse_expr("\\int_0^{y} t^2dt")) == {"y"}
    assert free_symbols(parse_expr("\\int_0^1 (x+t)dt")) == {"x"}
    assert free_symbols(parse_expr("\\int xdx")) == frozenset()


def test_sum_body_is_a_term_and_integral_body_runs_to_its_differential() -> None:
    # \sum_k k^2 + 1 adds 1 to the sum; the integral's body is everything before dx
    assert parse_expr("\\sum_{k=1}^{n} k^2+1")[0] == "add"
    assert parse_expr("\\int_0^1 x^2+1dx")[4][0] == "add"


def test_gamma_is_a_function_only_with_parentheses() -> None:
    assert parse_expr("\\Gamma(5)") == ("fn", "gamma", ("num", Fraction(5), False))
    assert parse_expr("\\Gamma") == ("sym", "Gamma")


def test_subscripted_names_are_variables() -> None:
    assert free_symbols(parse_expr("a_{n+1}-a_n+x_1x_2")) == {"a_n+1", "a_n", "x_1", "x_2"}


def test_double_superscript_has_two_readings() -> None:
    with pytest.raises(DoubleSuperscript):
        parse_expr("x^2^3")
    left, right = parse_expr("x^2^3", double="left"), parse_expr("x^2^3", double="right")
    assert proves_equal(left, parse_expr("x^6"))
    assert proves_equal(right, parse_expr("x^8"))


def test_integral_without_differential_integrates_its_one_variable() -> None:
    assert proves_equal(parse_expr("\\int_0^1 x^2"), parse_expr("\\frac{1}{3}"))
    assert is_indefinite(parse_expr("\\int x"))
    assert proves_equal(parse_expr("\\int_0^1 xy"), parse_expr("\\frac{y}{2}"))  # one factor: (int_0^1 x) y
    assert is_indefinite(parse_expr("\\int xy"))
    with pytest.raises(Unsupported):
        parse_expr("\\int_0^1 (x+y)")  # which variable?


@pytest.mark.parametrize("text", ["\\tan^{-1}", "\\sin", "\\log", "\\sum_{k=1}^{n}", "\\frac{d}{dx}", "\\int",
                                  "(\\sin)", "\\cos^2"])
def test_operators_with_nothing_to_act_on_are_malformed(text: str) -> None:
    with pytest.raises(Malformed):
        parse_expr(text)
    assert compare("x", text, rel_tol=1e-9, deadline=time.monotonic() + 30, symbolic=_no_cas) == "different"


@pytest.mark.parametrize("text", [
    "\\int_0 xdx", "\\sum_{k=1} k", "\\sum_{12=1}^{n} k", "\\sum^{n} k", "\\int_0^1 (x dx",
])
def test_malformed_forms_are_unsupported(text: str) -> None:
    with pytest.raises(Unsupported):
        parse_expr(text)


# ---------------------------------------------------------------------------------------- closed forms


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 30))
def test_faulhaber_polynomials_match_the_sums(j: int, m: int) -> None:
    value = sum(c * m**i for i, c in enumerate(faulhaber(j)))
    assert value == sum(Fraction(k) ** j for k in range(1, m + 1))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=4), st.integers(-3, 3), st.integers(0, 15))
def test_polynomial_sum_closed_form_equals_term_by_term(coeffs: list[int], low: int, n: int) -> None:
    body = "+".join(f"({c})" + (f"k^{{{i}}}" if i else "") for i, c in enumerate(coeffs))
    tree = parse_expr(f"\\sum_{{k={low}}}^{{m}} ({body})")
    closed = closed_form(tree)
    assert "sum" not in {x[0] for x in _walk(closed)}
    point = {"m": Fraction(low - 1 + n)}
    direct = sum(sum(Fraction(c) * k**i for i, c in enumerate(coeffs)) for k in range(low, low + n))
    assert exact(closed, point) == direct == exact(tree, point)


def _walk(node: tuple) -> list[tuple]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(x for x in n[1:] if isinstance(x, tuple))
    return out


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=4), st.fractions(-3, 3, max_denominator=7),
       st.fractions(-3, 3, max_denominator=7))
def test_polynomial_integral_closed_form_is_the_antiderivative(coeffs: list[int], a: Fraction, b: Fraction) -> None:
    body = "+".join(f"({c})" + (f"t^{{{i}}}" if i else "") for i, c in enumerate(coeffs))
    tree = parse_expr(f"\\int_{{p}}^{{q}} ({body})dt")
    expected = sum(Fraction(c, i + 1) * (b ** (i + 1) - a ** (i + 1)) for i, c in enumerate(coeffs))
    assert exact(closed_form(tree), {"p": a, "q": b}) == expected


def test_reversed_sum_has_no_value_and_empty_sum_is_zero() -> None:
    assert exact(parse_expr("\\sum_{k=1}^{m} k"), {"m": Fraction(0)}) == 0
    with pytest.raises(Undefined):
        exact(parse_expr("\\sum_{k=1}^{m} k"), {"m": Fraction(-3)})
    with pytest.raises(Undefined):
        exact(parse_expr("\\sum_{k=1}^{m} k"), {"m": Fraction(5, 2)})


def test_indefinite_integral_is_no_value() -> None:
    assert is_indefinite(parse_expr("3\\int xdx"))
    assert not is_indefinite(parse_expr("\\int_0^1 xdx"))


def test_integral_without_closed_form_is_refused_numerically() -> None:
    with pytest.raises(Refused):
        approx(parse_expr("\\int_0^{\\pi}\\sin tdt"), {})
    assert constant_value(parse_expr("\\int_0^1 t^3dt")) == Fraction(1, 4)


def test_gamma_values() -> None:
    assert constant_value(parse_expr("\\Gamma(5)")) == 24
    with pytest.raises(Undefined):
        constant_value(parse_expr("\\Gamma(-2)"))
    with mpmath.workdps(80):
        assert abs(constant_value(parse_expr("\\Gamma(\\frac{1}{2})")) - mpmath.sqrt(mpmath.pi)) < 1e-60


@pytest.mark.parametrize(("a", "b"), [
    ("\\frac{2x}{1+x^4}", "\\frac{d}{dx}\\tan^{-1}(x^2)"), ("3x^2", "\\frac{d}{dx}x^3"),
    ("\\cos x", "\\frac{d}{dx}\\sin x"), ("x^2", "\\frac{d}{dx}\\int_0^x t^2dt"),
    ("\\sin x", "\\frac{d}{dx}\\int_0^x \\sin tdt"), ("2e^{2x}", "\\frac{d}{dx}e^{2x}"),
    ("\\frac{1}{x}", "\\frac{d}{dx}\\ln x"), ("-\\frac{1}{\\sqrt{1-x^2}}", "\\frac{d}{dx}\\arccos x"),
])
def test_derivatives_by_the_rules(a: str, b: str) -> None:
    assert proves_equal(parse_expr(a), parse_expr(b))


def test_derivative_operand_is_a_term_and_odd_forms_are_refused() -> None:
    assert parse_expr("\\frac{d}{dx}x^2+1")[0] == "add"
    with pytest.raises(Unsupported):
        parse_expr("\\frac{d^2}{dx^2}x^3")
    with pytest.raises(Unsupported):
        parse_expr("\\frac{d}{dx}")
    assert closed_form(parse_expr("\\frac{d}{dx}|x|"))[0] == "deriv"  # no rule: left alone
    with pytest.raises(Refused):
        approx(parse_expr("\\frac{d}{dx}|x|"), {"x": mpmath.mpf(2)})


# ------------------------------------------------------------------------------------------- proofs


@pytest.mark.parametrize(("a", "b"), [
    ("\\frac{n(n+1)}{2}", "\\sum_{k=1}^{n} k"),
    ("\\frac{n(n+1)(2n+1)}{6}", "\\sum_{k=1}^{n} k^2"),
    ("2^n", "\\sum_{k=0}^{n}\\binom{n}{k}"),
    ("(1+x)^n", "\\sum_{k=0}^{n}\\binom{n}{k}x^k"),
    ("n(n-1)", "\\frac{n!}{(n-2)!}"),
    ("n!", "\\Gamma(n+1)"),
    ("x\\Gamma(x)", "\\Gamma(x+1)"),
    ("\\sqrt{\\pi}", "\\Gamma(\\frac{1}{2})"),
    ("\\frac{3\\sqrt{\\pi}}{4}", "\\Gamma(\\frac{5}{2})"),
    ("24", "\\Gamma(5)"),
    ("x^8", "x^{2^{3}}"),
    ("\\frac{\\pi}{4}", "\\tan^{-1} 1"),
    ("-\\frac{\\pi}{3}", "\\arctan(-\\sqrt{3})"),
    ("\\frac{\\pi}{2}", "\\arcsin x+\\arccos x"),
    ("\\frac{\\pi}{3}", "\\arccos\\frac{1}{2}"),
    ("\\frac{x^3}{3}", "\\int_0^x t^2dt"),
    ("\\ln x", "\\int_1^{x}\\frac{1}{t}dt"),
    ("x+\\frac{1}{2}", "\\int_0^1 (x+t)dt"),
    ("120", "\\prod_{j=1}^{5} j"),
    ("a_{n+1}-a_n", "-a_n+a_{n+1}"),
])
def test_identities_of_the_new_forms_are_proved(a: str, b: str) -> None:
    assert proves_equal(parse_expr(a), parse_expr(b))


@pytest.mark.parametrize(("a", "b"), [
    ("n!", "\\Gamma(n)"), ("\\frac{\\pi}{3}", "\\arcsin\\frac{1}{2}"), ("\\frac{n(n-1)}{2}", "\\sum_{k=1}^{n} k"),
    ("x^6", "x^{2^{3}}"), ("\\frac{x^3}{3}", "\\int_0^x t^3dt"), ("3^n", "\\sum_{k=0}^{n}\\binom{n}{k}"),
    ("a_n", "a_{n+1}"), ("\\frac{\\pi}{4}", "\\arctan 2"),
])
def test_non_identities_are_never_proved(a: str, b: str) -> None:
    assert not proves_equal(parse_expr(a), parse_expr(b))


# ---------------------------------------------------------------------------------------- enclosures


def test_enclosure_contains_the_value_and_proves_differences() -> None:
    lo, hi = enclose(parse_expr("\\int_0^{\\pi}\\sin tdt"), {})
    assert lo < 2 < hi and hi - lo < 0.2
    assert differ(parse_expr("\\int_0^{\\pi}\\sin tdt"), parse_expr("2.5"), {})
    assert not differ(parse_expr("\\int_0^{\\pi}\\sin tdt"), parse_expr("2"), {})  # meeting proves nothing
    lo, hi = enclose(parse_expr("\\int_0^{x}e^{t}dt"), {"x": Fraction(1, 3)})
    assert lo < mpmath.exp(mpmath.mpf(1) / 3) - 1 < hi


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.fractions(-2, 2, max_denominator=9), st.fractions(0, 3, max_denominator=9))
def test_enclosures_of_known_integrals_contain_the_exact_value(k: int, a: Fraction, w: Fraction) -> None:
    b = a + w  # int_a^b cos(k t) dt = (sin(kb) - sin(ka)) / k
    tree = ("int", "t", ("num", a, False), ("num", b, False),
            ("fn", "cos", ("mul", ("num", Fraction(k), False), ("sym", "t"))))
    lo, hi = enclose(tree, {})
    mpmath.mp.prec = 200
    try:
        value = (mpmath.sin(k * mpmath.mpf(b.numerator) / b.denominator)
                 - mpmath.sin(k * mpmath.mpf(a.numerator) / a.denominator)) / k
    finally:
        mpmath.mp.prec = 53
    assert lo <= value <= hi


@pytest.mark.parametrize("text", ["\\int_{-1}^{1}\\frac{1}{t}dt", "\\int_0^2 \\tan tdt", "\\int_0^1 \\lfloor t\\rfloor dt",
                                  "\\int_0^1 \\sqrt{t}dt"])
def test_no_enclosure_where_the_interval_rules_do_not_apply(text: str) -> None:
    with pytest.raises(NoEnclosure):
        enclose(parse_expr(text), {})


# ----------------------------------------------------------------------------------------- verdicts


def _no_cas(gold: str, answer: str, rel_tol: float, deadline: float) -> bool | None:
    raise AssertionError(f"reached the CAS: {gold} vs {answer}")


@pytest.mark.parametrize(("gold", "answer"), [
    ("2x-5", "\\Gamma(x+3)+5(x+1)!"),
    ("\\frac{2}{3}\\pi", "5\\binom{x}{3}-5(3x)!"),
    ("\\sqrt{10}", "\\sum_{k=1}^{n} k^2-\\int_1^{x}\\frac{1}{t}dt"),
    ("8\\pi", "3\\int_{0}^{x} t^{2}dt+x_{2}"),
    ("2\\sqrt{13}", "\\int_0^{\\pi}\\sin tdt"),
    ("7p+4e", "3\\sum_{k=1}^{n} k-2\\int_0^{\\pi}\\sin tdt"),
    ("\\sin 3x", "\\frac{5\\Gamma(x+4)\\int_{0}^{x} t^{2}dt}{-\\int_0^{\\pi}\\sin tdt}"),
    ("x^2-5", "-\\Gamma(\\frac{1}{2})-\\sum_{k=1}^{n} k^2"),
    ("4\\sqrt{3}", "4\\sqrt{3}\\cdot\\frac{\\binom{5}{3}}{5}"),
    ("\\frac{x^2}{2}", "\\int xdx"),
    ("96\\pi", "x^2^4"),
    ("x^3+27", "\\frac{2x!}{(x-1)!}\\arctan 5"),
    ("36x\\sqrt{35x}", "\\tan^{-1} x\\int_0^1 x^3dx-\\sum_{k=0}^{n}\\binom{n}{k}"),
    ("5k", "2\\sum_{k=0}^{4} k^k-2\\frac{k!}{(k-1)!}"),  # 0^0 inside: no value anywhere
    ("3x^2", "\\frac{d}{dx}x^4"),
    ("x", "x^2^3+\\int x"),
    ("\\frac{n(n-1)}{2}", "\\int x"),
])
def test_junk_is_decided_in_process(gold: str, answer: str) -> None:
    # the CAS must not be needed: it raises if called
    assert compare(gold, answer, rel_tol=1e-9, deadline=time.monotonic() + 30, symbolic=_no_cas) == "different"


@pytest.mark.parametrize(("gold", "answer"), [
    ("\\frac{m(m+1)}{2}", "\\sum_{k=1}^{m} k"),
    ("r(r-1)", "\\frac{r!}{(r-2)!}"),
    ("49\\pi", "\\int_0^1 2tdt(49\\pi)"),
    ("3\\sqrt{3}", "3\\sqrt{3}\\cdot\\frac{2}{\\pi}(\\arcsin\\frac{1}{2}+\\arccos\\frac{1}{2})"),
    ("2x^2-2x+3", "2x^2-2x+3+\\int_{-1}^{1} t^3dt"),
    ("\\sqrt{21}", "(\\sqrt{21})^{2^{0}}"),
    ("2^m", "\\sum_{k=0}^{m}\\binom{m}{k}"),
    ("\\frac{2u}{1+u^4}", "\\frac{d}{du}\\tan^{-1}(u^2)"),
])
def test_equal_forms_are_proved_in_process(gold: str, answer: str) -> None:
    assert compare(gold, answer, rel_tol=1e-9, deadline=time.monotonic() + 30, symbolic=_no_cas) == "equal"


@pytest.mark.parametrize(("gold", "response", "status"), [
    ("\\frac{n(n+1)}{2}", "So $\\boxed{\\sum_{k=1}^{n} k}$.", "correct"),
    ("\\frac{\\pi}{4}", "$\\boxed{\\tan^{-1} 1}$", "correct"),
    ("2", "$\\boxed{\\int_0^{\\pi} \\sin t\\,dt}$", "not incorrect"),  # enclosures meet: only the CAS decides
    ("3", "$\\boxed{\\int_0^{\\pi} \\sin t\\,dt}$", "incorrect"),
    ("\\frac{x^2}{2}", "$\\boxed{\\int x\\,dx}$", "incorrect"),
    ("x^8", "$\\boxed{x^2^3}$", None),  # one reading is x^8: ambiguous, left to the CAS
    ("x^7", "$\\boxed{x^2^3}$", "incorrect"),
])
def test_scores(gold: str, response: str, status: str | None) -> None:
    s = math.score(response, gold, config=math.Config(timeout=5.0))
    if status == "not incorrect":  # never a wrong "incorrect" from enclosures (the CAS may run out of time)
        assert s.status in ("correct", "timeout")
    elif status is None:
        assert s.status in ("correct", "incorrect")
    else:
        assert s.status == status


# ------------------------------------------------------------------------------ properties: tiny tails

_ATOMS = ["n!", "(n+1)!", "\\Gamma(x+2)", "\\binom{n}{2}", "\\tan^{-1} x", "\\arcsin\\frac{1}{3}", "a_n",
          "x_{1}", "\\sum_{k=1}^{n} k^2", "\\int_0^1 (x+t)dt", "\\int_0^{x} \\cos tdt", "x^{2^{3}}", "\\Gamma(3)"]
_TAILS = ["10^{-80}", "\\frac{1}{100!}", "e^{-300}", "\\int_0^{10^{-30}} tdt", "\\frac{1}{\\binom{300}{150}}",
          "\\sum_{k=1}^{3}10^{-70k}", "10^{-70}\\tan^{-1} 1"]


@st.composite
def _junk(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.sampled_from(_ATOMS), min_size=1, max_size=3))
    coeffs = draw(st.lists(st.integers(1, 9), min_size=len(parts), max_size=len(parts)))
    ops = draw(st.lists(st.sampled_from(["+", "-", "\\cdot "]), min_size=len(parts) - 1, max_size=len(parts) - 1))
    out = f"{coeffs[0]}{parts[0]}"
    for op, c, p in zip(ops, coeffs[1:], parts[1:]):
        out += f"{op}{c}{p}"
    return out


@settings(max_examples=60, deadline=None)
@given(_junk(), st.sampled_from(_TAILS), st.sampled_from(["+", "-"]))
def test_junk_plus_a_tiny_tail_is_never_correct(expr: str, tail: str, sign: str) -> None:
    s = math.score(f"$\\boxed{{{expr}{sign}{tail}}}$", expr, config=math.Config(timeout=2.0))
    assert s.status != "correct", (expr, tail)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_ATOMS), min_size=2, max_size=3, unique=True), st.integers(1, 9))
def test_junk_equals_itself_in_another_order(parts: list[str], c: int) -> None:
    # a sum of atoms reversed is the same value, proved in-process (every atom has a canonical form)
    gold = f"{c}" + "+".join(parts)
    answer = "+".join(reversed(parts[1:])) + f"+{c}{parts[0]}"
    verdict = compare(gold, answer, rel_tol=1e-9, deadline=time.monotonic() + 30, symbolic=_no_cas)
    assert verdict == "equal", (gold, answer)


def test_bad_inputs_never_raise() -> None:
    for text in ["\\int", "\\sum", "\\sum_{k=1}^{10^{9}} k!", "\\prod_{k=1}^{10^{9}} k", "\\int_0^1 dx",
                 "\\Gamma()", "x^^2", "\\int_0^{10^{400}} e^{t}dt", "\\sum_{k=1}^{n}", "\\binom{n}",
                 "\\int_{\\int_0^1 tdt}^{2} \\sin tdt", "(" * 50 + "\\sum_{k=1}^{n} k" + ")" * 50]:
        s = math.score(f"$\\boxed{{{text}}}$", "\\frac{1}{2}", config=math.Config(timeout=1.0))
        assert not s.correct, text


@pytest.mark.parametrize(("gold", "answer", "status"), [
    ("2y_1", "$\\boxed{y_1+y_{1}}$", "correct"),  # a coefficient times a subscripted name, not a numeral
    ("3x_2", "$\\boxed{3x_{2}}$", "correct"),
    ("2y_1", "$\\boxed{2y_2}$", "incorrect"),
    ("4210_5", "$\\boxed{4210}$", "correct"),  # a base-5 numeral still answered by its digits
    ("2A_{16}", "$\\boxed{2A}$", "correct"),
])
def test_subscripts_versus_base_numerals(gold: str, answer: str, status: str) -> None:
    assert math.score(answer, gold).status == status


def test_a_sums_index_may_be_i_or_e() -> None:
    assert proves_equal(parse_expr("\\sum_{i=1}^{n} i"), parse_expr("\\frac{n(n+1)}{2}"))
    assert parse_expr("\\sum_{i=1}^{n} i+i")[2] == ("const", "i")  # outside the sum, i is the imaginary unit
    assert proves_equal(parse_expr("\\int_0^1 e^2de"), parse_expr("\\frac{1}{3}"))


@pytest.mark.parametrize("text", ["\\int\\cdot x", "\\sin/2", "\\sum_{k=1}^{n}\\cdot k"])
def test_an_operator_followed_by_a_binary_operator_is_malformed(text: str) -> None:
    with pytest.raises(Malformed):
        parse_expr(text)


def test_indefinite_integral_of_a_signed_term() -> None:
    assert is_indefinite(parse_expr("\\int-9x_1x_2"))
    assert is_indefinite(parse_expr("\\int+3x"))


def test_enclosures_of_quotient_functions_and_general_binomials() -> None:
    lo, hi = enclose(parse_expr("\\int_0^1 \\tan tdt"), {})
    assert lo < -mpmath.log(mpmath.cos(1)) < hi
    lo, hi = enclose(parse_expr("\\binom{x}{3}"), {"x": Fraction(5, 2)})
    assert lo <= mpmath.mpf(5) / 16 <= hi  # (5/2)(3/2)(1/2)/3!


def test_a_sums_bound_is_sampled_at_integers_even_after_its_closed_form() -> None:
    # the closed form of the sum is defined at every real n, the sum only at integers: points stay integers
    gold, answer = "-3(x+2)(x-1)", "\\binom{n}{k}-\\sum_{i=1}^ni/\\int_0^{\\pi}x\\sin xdx"
    assert compare(gold, answer, rel_tol=1e-9, deadline=time.monotonic() + 30, symbolic=_no_cas) == "different"


@pytest.mark.parametrize(("a", "b", "equal"), [
    ("\\cos(8x)", "\\cos^2(4x)-\\sin^2(4x)", True), ("\\sin(8x)", "2\\sin(4x)\\cos(4x)", True),
    ("1", "\\sin^2 x+\\cos^2 x", True), ("\\sin(-x)", "-\\sin x", True), ("\\sin(3x)", "3\\sin x-4\\sin^3 x", True),
    ("\\tan(2x)", "\\frac{2\\tan x}{1-\\tan^2 x}", True), ("\\sin(2x+2)", "2\\sin(x+1)\\cos(x+1)", True),
    ("\\sin(2x)", "2\\sin x", False), ("\\cos(2x)", "\\cos^2 x+\\sin^2 x", False),
    ("\\sin(x+1)", "\\sin x+\\sin 1", False), ("\\sin x", "\\cos x", False),
])
def test_multiple_angle_identities_by_canonical_form(a: str, b: str, equal: bool) -> None:
    assert proves_equal(parse_expr(a), parse_expr(b)) is equal
