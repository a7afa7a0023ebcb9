"""The caller's side of the three scorers: golds of every numeric type, configs as objects or mappings, and
the same type guards everywhere. Only a response's *content* never raises; the caller's mistakes do, at once."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verifiers import gsm8k, math, mbpp
from verifiers.errors import ConfigError
from verifiers.rewards._inputs import gold_text

ANSWER_SCORERS = [gsm8k, math]


@pytest.mark.parametrize("scorer", ANSWER_SCORERS, ids=["gsm8k", "math"])
@pytest.mark.parametrize(("response", "gold"), [
    ("#### 4 \\boxed{4}", 4), ("#### 0.1 \\boxed{0.1}", 0.1), ("#### 0.75 \\boxed{0.75}", Fraction(3, 4)),
    ("#### 2.5 \\boxed{2.5}", Decimal("2.50")), ("#### -7 \\boxed{-7}", -7), ("#### 1000000 \\boxed{1000000}", 1e6),
    ("#### 0.0000001 \\boxed{0.0000001}", 1e-7), ("#### 12 \\boxed{12}", Decimal("1.2E+1")),
])
def test_numeric_golds_score(scorer: Any, response: str, gold: object) -> None:
    text = response.split(" \\boxed")[0] if scorer is gsm8k else "\\boxed" + response.split(" \\boxed")[1]
    s = scorer.score(text, gold)
    assert s.status == "correct", s
    assert scorer.score_batch([text], [gold])[0].status == "correct"


@pytest.mark.parametrize(("response", "gold", "correct"), [
    (r"\boxed{\frac{1}{3}}", Fraction(1, 3), True), (r"\boxed{0.333}", Fraction(1, 3), False),
    (r"\boxed{-\frac{2}{7}}", Fraction(-2, 7), True), (r"\boxed{3}", 3.0, True), (r"\boxed{0.30000000000000004}", 0.3, False),
])
def test_math_numeric_golds_are_exact(response: str, gold: object, correct: bool) -> None:
    assert math.score(response, gold).correct is correct


def test_gsm8k_fraction_gold_without_a_finite_decimal() -> None:
    assert gsm8k.score("#### 1/3", Fraction(1, 3)).correct
    assert not gsm8k.score("#### 0.33", Fraction(1, 3)).correct


@given(st.integers(min_value=-10**30, max_value=10**30))
def test_any_int_gold(n: int) -> None:
    assert gsm8k.score(f"#### {n}", n).correct
    assert not gsm8k.score(f"#### {n + 1}", n).correct


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15))
def test_a_float_gold_is_the_decimal_it_prints_as(x: float) -> None:
    text = gold_text(x)
    assert Decimal(text) == Decimal(repr(x))  # the decimal written, exactly
    assert "e" not in text.lower()
    assert gsm8k.score(f"#### {text}", x).correct


@given(st.fractions(max_denominator=10**6))
def test_fraction_golds_round_trip(q: Fraction) -> None:
    text = gold_text(q, latex=True)
    assert math.score(f"\\boxed{{{text}}}", q).correct
    assert not math.score(f"\\boxed{{{gold_text(q + Fraction(1, 10**9), latex=True)}}}", q).correct


@pytest.mark.parametrize("scorer", ANSWER_SCORERS, ids=["gsm8k", "math"])
@pytest.mark.parametrize("gold", [None, True, [1], {"a": 1}, b"4", object(), 3 + 4j])
def test_bad_gold_types_raise_type_error(scorer: Any, gold: object) -> None:
    with pytest.raises(TypeError, match="gold"):
        scorer.score("#### 4 \\boxed{4}", gold)
    with pytest.raises(TypeError, match="gold"):
        scorer.score_batch(["#### 4 \\boxed{4}"], [gold])


@pytest.mark.parametrize("scorer", ANSWER_SCORERS, ids=["gsm8k", "math"])
@pytest.mark.parametrize("gold", [float("nan"), float("inf"), Decimal("NaN"), Decimal("-Infinity")])
def test_non_finite_golds_raise_value_error(scorer: Any, gold: object) -> None:
    with pytest.raises(ValueError, match="finite"):
        scorer.score("#### 4", gold)


def _mbpp_score(response: Any, *, config: Any = None) -> Any:
    return mbpp.score(response, ["assert True"], config=config)


SCORE_CALLS: list[tuple[str, Callable[..., Any]]] = [
    ("gsm8k", lambda r, config=None: gsm8k.score(r, "4", config=config)),
    ("math", lambda r, config=None: math.score(r, "4", config=config)),
    ("mbpp", _mbpp_score),
]


@pytest.mark.parametrize(("name", "call"), SCORE_CALLS, ids=[n for n, _ in SCORE_CALLS])
@pytest.mark.parametrize("response", [None, b"#### 4", 4, ["#### 4"]])
def test_non_str_responses_raise_type_error(name: str, call: Callable[..., Any], response: object) -> None:
    with pytest.raises(TypeError, match="response must be a str"):
        call(response)


@pytest.mark.parametrize(("name", "call"), SCORE_CALLS, ids=[n for n, _ in SCORE_CALLS])
@pytest.mark.parametrize("config", [{"preset": "nope"}, {"no_such_field": 1}, {"timeout": -1}, "book", 3,
                                    {"preset": "accuracy", "timeout": "soon"}])
def test_bad_configs_raise_config_error(name: str, call: Callable[..., Any], config: object) -> None:
    with pytest.raises(ConfigError):
        call("#### 4", config=config)


@pytest.mark.parametrize(("scorer", "other"), [(gsm8k, math), (math, gsm8k)], ids=["gsm8k", "math"])
def test_another_scorers_config_is_refused(scorer: Any, other: Any) -> None:
    with pytest.raises(ConfigError, match="mapping of its fields"):
        scorer.score("#### 4", "4", config=other.Config())


@pytest.mark.parametrize("scorer", ANSWER_SCORERS, ids=["gsm8k", "math"])
def test_config_as_a_mapping(scorer: Any) -> None:
    as_mapping = scorer.score("Step one.\nStep two.\nSo \\boxed{2}.", "2", config={"preset": "book"})
    as_object = scorer.score("Step one.\nStep two.\nSo \\boxed{2}.", "2", config=scorer.Config(preset="book"))
    assert as_mapping == as_object and as_mapping.status == "correct" and as_mapping.reward < 1.0


@pytest.mark.parametrize("scorer", ANSWER_SCORERS, ids=["gsm8k", "math"])
def test_batch_arguments(scorer: Any) -> None:
    responses = ["#### 1 \\boxed{1}", "#### 2 \\boxed{2}"]
    from_generators = scorer.score_batch((r for r in responses), iter([1, 2]))
    assert [s.correct for s in from_generators] == [True, True]
    for bad_responses, bad_golds in (("#### 1", ["1"]), (["#### 1"], "1"), (None, ["1"]), (["#### 1"], None),
                                     (["#### 1"], 1)):
        with pytest.raises(TypeError, match="sequence"):
            scorer.score_batch(bad_responses, bad_golds)
    with pytest.raises(TypeError, match="response must be a str"):
        scorer.score_batch(["#### 1", None], ["1", "1"])
    with pytest.raises(ConfigError):
        scorer.score_batch(responses, ["1"])


def test_mbpp_batch_arguments() -> None:
    code = "```python\ndef add(a, b):\n    return a + b\n```"
    tests = ["assert add(1, 2) == 3"]
    assert [s.correct for s in mbpp.score_batch((c for c in [code]), iter([tests]))] == [True]
    with pytest.raises(TypeError, match="bare string"):
        mbpp.score(code, "assert add(1, 2) == 3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sequence"):
        mbpp.score_batch(code, [tests])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sequence"):
        mbpp.score_batch([code], None)  # type: ignore[arg-type]
    assert mbpp.score(code, tests, config={"timeout": 5.0}).correct


def test_response_content_never_raises() -> None:
    for text in ("", "\x00" * 10, "\\boxed{" * 500, "#### " + "9" * 100_000, "\ud800"):
        for s in (gsm8k.score(text, "4"), math.score(text, "4")):
            assert s.status in ("incorrect", "no_answer", "error", "timeout")
