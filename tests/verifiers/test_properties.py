"""Property tests: formatting never changes a number's verdict; nothing raises on arbitrary text."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from verifiers import gsm8k, math
from verifiers.answers._normalize import normalize
from verifiers.answers._numbers import format_number, parse_number

FORMATS = [
    "{:,}", "${:,}", "{}.", "{}.00", "**{}**", "\\boxed{{{}}}", "$\\boxed{{{:,}}}$", "{} dollars", "#### {}",
]


def _render(n: int, fmt: str) -> str:
    return fmt.format(n)


@given(st.integers(-10**12, 10**12), st.sampled_from(FORMATS))
def test_gsm8k_formatting_keeps_the_verdict(n: int, fmt: str) -> None:
    response = "Some work.\n" + _render(n, fmt)
    assert gsm8k.score(response, str(n)).correct
    assert not gsm8k.score(response, str(n + 1)).correct


@given(st.integers(-10**9, 10**9), st.sampled_from(["{}", "{:,}", "{}.", "\\text{{{}}}", "{}.00"]))
def test_math_formatting_keeps_the_verdict(n: int, fmt: str) -> None:
    response = "\\boxed{" + _render(n, fmt) + "}"
    assert math.score(response, str(n)).correct
    assert not math.score(response, str(n + 1)).correct


@given(st.integers(-10**6, 10**6), st.integers(0, 6).map(lambda k: 2**k * 5 ** (6 - k)))
def test_fraction_and_decimal_agree(num: int, den: int) -> None:
    value = Fraction(num, den)  # a terminating decimal
    decimal = format_number(value)
    frac = f"\\frac{{{value.numerator}}}{{{value.denominator}}}" if value.denominator != 1 else str(value)
    assert math.score(f"\\boxed{{{decimal}}}", frac).correct
    assert math.equivalent(decimal, frac)
    assert gsm8k.equivalent(decimal, f"{value.numerator}/{value.denominator}")


@given(st.fractions(max_denominator=10**6))
def test_format_number_round_trips(value: Fraction) -> None:
    assert parse_number(format_number(value)) == value


@given(st.integers(0, 10**15))
def test_thousands_separators(n: int) -> None:
    for sep in (",", "\\,", "{,}"):
        text = f"{n:,}".replace(",", sep)
        assert parse_number(text) == n
        assert normalize(text) == str(n) or math.equivalent(text, str(n))


_FAST = math.Config(timeout=0.3)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300), st.text(max_size=40))
def test_never_raises_on_arbitrary_text(response: str, gold: str) -> None:
    for s in (gsm8k.score(response, gold), math.score(response, gold, config=_FAST)):
        assert s.status in ("correct", "incorrect", "no_answer", "gold_unparseable", "timeout")
        assert 0.0 <= s.reward <= 1.0


_LATEXISH = st.text(alphabet="\\{}()[]^_$#0123456789.,+-*/=x boxedfracsqrtpi", max_size=120)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_LATEXISH, _LATEXISH)
def test_never_raises_on_latex_like_text(response: str, gold: str) -> None:
    s = math.score(response, gold, config=_FAST)
    assert s.status != "error", s.explanation
    assert isinstance(math.equivalent(response, gold), bool)
    assert isinstance(gsm8k.equivalent(response, gold), bool)
