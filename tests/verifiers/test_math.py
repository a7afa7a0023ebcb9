"""MATH scorer: published failures of other scorers, deadlines off the main thread, presets, real golds."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from verifiers import ConfigError, math
from verifiers.equivalence._cas_pool import pool

CASES_DIR = Path(__file__).resolve().parents[1] / "cases"


def load_cases(name: str) -> list:
    """``tests/cases/<name>`` rows as ``pytest.param(row, id=row["id"])``."""
    rows = json.loads((CASES_DIR / name).read_text(encoding="utf-8"))
    return [pytest.param(row, id=row["id"]) for row in rows]


# A CAS job that runs for minutes: expanding a huge power in a difference.
HANG_GOLD = "(x^2-1)^{5000}"  # equal, but only an expansion of two 5,001-term polynomials proves it
HANG_RESPONSE = "\\boxed{(x+1)^{5000}(x-1)^{5000}}"
# The README's promise: every call returns within its timeout + 0.2 s. Measured on the shared 2-core VM at
# load average 6-7 (other jobs and two busy loops): worst overrun 56 ms; evals/speed measures it at scale.
SLACK = 0.2
# The MATH test solutions that do not self-verify, each boxing several different answers while the gold keeps
# one (the README's 4,990/5,000; the table in evals/accuracy/README.md, "Golds that do not self-verify").
MATH_TEST_HEDGES = frozenset(f"test/{name}.json" for name in (
    "algebra/1878", "intermediate_algebra/1020", "intermediate_algebra/1855", "intermediate_algebra/2089",
    "intermediate_algebra/225", "intermediate_algebra/25", "intermediate_algebra/702", "prealgebra/177",
    "precalculus/1227", "precalculus/679"))


@pytest.fixture(scope="module", autouse=True)
def _warm_pool() -> None:
    assert math.warm_up(), "symbolic workers did not start"


@pytest.mark.parametrize("case", load_cases("math_cases.json"))
def test_case_table(case: dict) -> None:
    s = math.score(case["response"], case["gold"])
    assert s.status == case["status"], s.explanation
    assert s.correct == (case["status"] == "correct")


@pytest.mark.parametrize(("response", "gold", "status"), [
    ("\\boxed{2^{2^{2^{2^{2^{2}}}}}}", "2^{2^{2^{2^{2^{3}}}}}", "incorrect"),   # decided in-process
    ("\\boxed{" + "(" * 300 + "x" + ")" * 300 + "}", "x+1", "timeout"),        # the CAS runs for minutes
    ("\\boxed{" + "\\frac{1}{" * 200 + "2" + "}" * 200 + "}", "3", "incorrect"),  # over max answer length
    ("\\boxed{" + "x^{" * 150 + "2" + "}" * 150 + "}", "y", "timeout"),
    ("\\boxed{10^{10^{10}}+1}", "10^{10^{10}}", "incorrect"),
    ("\\boxed{9^{9^{9^{9}}}}", "9^{9^{9^{8}}}", "timeout"),
])
def test_pathological_inputs_never_hang(response: str, gold: str, status: str) -> None:
    cfg = math.Config(timeout=0.5)
    start = time.monotonic()
    s = math.score(response, gold, config=cfg)
    took = time.monotonic() - start
    assert took < cfg.timeout + SLACK
    # A verdict decided in-process may only become a timeout when the whole budget was really spent (load).
    assert s.status == status or (s.status == "timeout" and took >= cfg.timeout), (s.status, took,
                                                                                 s.explanation)


def test_timeout_is_a_status_and_the_pool_recovers() -> None:
    cfg = math.Config(timeout=0.3)
    start = time.monotonic()
    s = math.score(HANG_RESPONSE, HANG_GOLD, config=cfg)
    assert time.monotonic() - start < cfg.timeout + SLACK
    assert (s.status, s.correct, s.reward) == ("timeout", False, 0.0)
    assert s.extracted == "(x+1)^{5000}(x-1)^{5000}"
    # the killed worker was replaced: symbolic checks keep working once a worker is ready
    assert math.warm_up(30)
    assert math.score("\\boxed{x^2+2x+1}", "(x+1)^2").correct


def test_deadline_holds_in_threads() -> None:
    cfg = math.Config(timeout=0.4)

    def run(_: int) -> tuple[float, str]:
        t = time.monotonic()
        s = math.score(HANG_RESPONSE, HANG_GOLD, config=cfg)
        return time.monotonic() - t, s.status

    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(run, range(4)))
    assert all(status == "timeout" for _, status in results)
    assert max(elapsed for elapsed, _ in results) < cfg.timeout + SLACK
    assert math.warm_up(30)


def test_book_and_grail_presets() -> None:
    book = math.score("We compute.\nThus $\\boxed{5}$.", "5", config=math.Config(preset="book"))
    assert book.reward == pytest.approx(0.75 + 0.25 * 0.5)
    tags = "<start_working_out>2+3<end_working_out><SOLUTION>5</SOLUTION>"
    grail = math.score(tags, "5", config=math.Config(preset="grail"))
    assert grail.parts == {"answer_format": 1.0, "thinking": 1.0, "no_trailing": 1.0, "correctness": 1.0}
    assert grail.reward == pytest.approx(1.0)
    wrong = math.score(tags.replace(">5<", ">6<"), "5", config=math.Config(preset="grail"))
    assert wrong.reward == pytest.approx(0.3)
    trailing = math.score("<SOLUTION>5</SOLUTION>" + " blah" * 20, "5", config=math.Config(preset="grail"))
    assert trailing.parts["answer_format"] == 0.5 and trailing.parts["no_trailing"] == 0.0


def test_strict_mode() -> None:
    assert math.score("so it is 5", "5").correct
    assert math.score("so it is 5", "5", config=math.Config(mode="strict")).status == "no_answer"


@pytest.mark.parametrize("kwargs", [{"preset": "x"}, {"timeout": -1}, {"markers": ("boxd",)},
                                    {"weights": {"correctness": "high"}}])
def test_bad_config(kwargs: dict) -> None:
    with pytest.raises(ConfigError):
        math.Config(**kwargs)


@pytest.mark.parametrize(("a", "b", "same"), [
    ("\\frac{1}{2}", "0.5", True), ("0.\\overline{3}", "\\frac13", True), ("x=5", "5", True),
    ("(1,2]", "[1,2]", False), ("2^{-70}", "2^{-71}", False), ("\\text{Evelyn}", "Evelyn", True),
    ("x^2-1", "(x-1)(x+1)", True), ("", "", False), ("\\boxed{", "}", False)])
def test_equivalent(a: str, b: str, same: bool) -> None:
    assert math.equivalent(a, b) is same


def test_score_batch_matches_score() -> None:
    responses = ["\\boxed{\\frac{1}{2}}", "\\boxed{0.4}", "no", "\\boxed{x^2+2x+1}"] * 80
    golds = ["0.5", "0.5", "1", "(x+1)^2"] * 80
    cfg = math.Config(timeout=10.0)  # a loaded CI machine must not turn a CAS check into a timeout here
    one = [math.score(r, g, config=cfg) for r, g in zip(responses, golds)]
    assert math.score_batch(responses, golds, config=cfg) == one
    assert math.score_batch(responses, golds, workers=2, config=cfg) == one


def test_pool_reports_unknown_function_as_error() -> None:
    status, message = pool().call("no_such_function", (), 5.0)
    assert status == "error" and "AttributeError" in message


def test_math500_golds_self_verify(data_dir) -> None:
    from verifiers.datasets import load_problems

    problems = load_problems("math500", data_dir / "math" / "math500.jsonl")
    bad = [p.id for p in problems if not math.score(p.solution, p.gold).correct]
    assert bad == []  # README: MATH-500 500/500


def test_math_test_golds_self_verify(data_dir) -> None:
    from verifiers.datasets import load_problems

    problems = load_problems("math", data_dir / "math" / "test.jsonl")
    assert len(problems) == 5000
    scores = {p.id: math.score(p.solution, p.gold) for p in problems}
    bad = {i for i, s in scores.items() if not s.correct}
    assert bad == MATH_TEST_HEDGES  # README: 4,990/5,000, the 10 exceptions box several answers
    assert all(scores[i].status == "incorrect" and "hedged" in scores[i].explanation for i in bad)


def test_broken_workers_are_reported_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from verifiers.equivalence._cas_pool import WorkerPool

    monkeypatch.setattr(sys, "executable", "/bin/false")  # every worker exits at once
    broken = WorkerPool(size=1)
    start = time.monotonic()
    status, _ = broken.call("equal", ("x", "y", 1e-9), 1.0)
    assert status == "unavailable"
    assert time.monotonic() - start < 5
    import verifiers.math as math_module

    monkeypatch.setattr(math_module, "pool", lambda: broken)
    s = math.score("\\boxed{\\lim_{x \\to 0} \\frac{\\sin x}{x}}", "1")  # only the CAS reads \\lim
    assert s.status == "error" and "unavailable" in s.explanation  # never a silent "incorrect"
    assert math.score("\\boxed{0.5}", "\\frac12").correct  # fast paths still work


@pytest.mark.parametrize("response, gold, correct", [
    # a final statement cut off mid-formula states nothing: the box before it stands
    ("Hence the final answer is \\(\\boxed{12}\\).\n\nAlternatively, ... so the final answer is \\(\\", "12", True),
    ("The final answer is \\(\\boxed{8}\\).\nThe final answer is \\(\\boxed", "8", True),
    ("The final answer is \\(\\boxed{8}\\).\nThe final answer is \\(\\boxed", "9", False),
    ("The final answer is \\(\\boxed{8}\\).\nWait, no. The final answer is \\(\\boxed{9}\\).", "8", False),
])
def test_a_statement_cut_off_mid_formula_commits_nothing(response: str, gold: str, correct: bool) -> None:
    assert math.score(response, gold).correct is correct


@pytest.mark.parametrize("response, gold, correct", [
    # an answer block holding a derivation answers with its conclusion
    ("<answer>We have $2y + 3 = 11$.\nSubtracting: $2y = 8$.\nDividing both sides by $2$:\n$y = 4$</answer>", "4", True),
    ("<answer>$$(a+5)/2=6$$\n$$\\Rightarrow a+5=12$$\n$$\\Rightarrow a=7$$</answer>", "7", True),
    ("<answer>g(3) = 2(3)^2 - 1\n  18 - 1\n  17</answer>", "17", True),
    ("<answer>So 2 + 1/y = 5/y. Multiplying by y gives 2y + 1 = 5. Therefore, y = 2.</answer>", "2", True),
    ("<answer>$$(a+5)/2=6$$\n$$\\Rightarrow a+5=12$$\n$$\\Rightarrow a=7$$</answer>", "12", False),
    ("<answer>We have $2y + 3 = 11$.\nSo $y = 4$ or $y = 5$.</answer>", "4", False),
])
def test_an_answer_block_holding_a_derivation(response: str, gold: str, correct: bool) -> None:
    assert math.score(response, gold).correct is correct


@pytest.mark.parametrize("response, gold, correct", [
    ("\\boxed{1011_{10}}", "1011", True),           # a base-10 subscript is the number itself
    ("\\boxed{2301}", "2301_{4}", True),             # the digits of the numeral asked for in base 4
    ("\\boxed{2301_4}", "2301_{4}", True),
    ("\\boxed{2302}", "2301_{4}", False),
    ("\\boxed{2301_4}", "177", False),              # a numeral in another base is not its value restated
    ("\\boxed{177}", "2301_4", False),
    ("\\boxed{x_4}", "2301_{4}", False),
])
def test_numerals_with_a_base_subscript(response: str, gold: str, correct: bool) -> None:
    assert math.score(response, gold).correct is correct


@pytest.mark.parametrize("response, gold, correct", [
    # "<" and ">" of broken markup around an answer are not inequality signs
    ("So the total is 42.</think>\nanswer> 42 </answer>", "42", True),
    ("The area is $\\boxed{50}$ square units.```)); noise>```", "50", True),
    ("The answer is x > 42.", "42", False),
])
def test_markup_angle_brackets_are_not_comparisons(response: str, gold: str, correct: bool) -> None:
    assert math.score(response, gold).correct is correct


def test_an_undefined_answer_equals_nothing_not_even_itself() -> None:
    # the same cached parse on both sides takes compare_answers' identity shortcut: it must still refuse
    from verifiers.answers._normalize import normalize
    from verifiers.answers._typed import parse_answer
    from verifiers.equivalence._compare import compare_answers

    for text, verdict in (("\\frac{3}{0}", "different"), ("0^0", "different"), ("\\frac{1}{2}", "equal"),
                          ("(1, \\frac{2}{0})", "different"), ("\\{1, 2\\}", "equal")):
        typed = parse_answer(normalize(text))
        assert typed is not None
        for _ in range(2):  # the second time from the memo
            assert compare_answers(typed, typed, rel_tol=0.0, deadline=1e18, symbolic=None) == verdict, text
    assert math.score("\\boxed{\\frac{3}{0}}", "\\frac{3}{0}").correct is False


def test_config_derived_fields_follow_the_weights() -> None:
    cfg = math.Config(weights=(("correctness", 0.5), ("correctness", -1.0)), mode="strict")
    assert dict(cfg.weight_map) == {"correctness": -1.0} and cfg.part_names == frozenset({"correctness"})
    assert cfg.correctness_rewards == (0.0, -1.0)  # 0 + -1.0 * 0.0 is 0.0, as the weighted sum gives
    assert cfg.active_markers == ("answer_tag", "boxed", "final_answer", "hash")  # no fallback when strict
    assert math.score("\\boxed{5}", "5", config=cfg).reward == -1.0
    assert math.score("\\boxed{5}", "6", config=cfg).reward == 0.0
    assert math.Config(preset="book").part_names == frozenset({"correctness", "reasoning", "marker"})
    assert math.Config() == math.Config(preset="accuracy") and hash(math.Config()) == hash(math.Config())


def test_score_checks_its_status_and_gets_its_own_parts() -> None:
    from verifiers.rewards._score import Score

    a, b = Score(0.0, False, "no_answer"), Score(0.0, False, "no_answer")
    assert a.parts == {} and a.parts is not b.parts and a.extracted is None and a.explanation == ""
    assert Score(1.0, True, status="correct", explanation="x") == Score(1.0, True, "correct", None, {}, "x")
    with pytest.raises(ValueError, match="unknown status"):
        Score(0.0, False, "wrong")  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        a.reward = 1.0  # type: ignore[misc]
