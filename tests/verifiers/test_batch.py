"""score_batch: the same results as a loop over score in every mode, and the mode follows what it measures."""

from __future__ import annotations

import pytest

import verifiers.rewards._batch as batch
from verifiers import ConfigError, Score, gsm8k, math
from verifiers.equivalence._cas_pool import pool

GSM = (["9 * 2 = 18\n#### 18", "#### 17", "The answer is 1,000.", "no number"] * 40,
       ["18", "18", "1000", "3"] * 40)
# Mixed MATH items: in-process verdicts and ones that may need the CAS (trig and exponential identities).
MATH = (["\\boxed{\\frac{1}{2}}", "\\boxed{0.4}", "no", "\\boxed{\\sin(2x)}", "\\boxed{e^{3x}e^{x}}",
         "\\boxed{2\\sin x\\cos x+1}"] * 12,
        ["0.5", "0.5", "1", "2\\sin x\\cos x", "e^{4x}", "\\sin(2x)"] * 12)
CFG = math.Config(timeout=30.0)  # a loaded machine must not turn a CAS check into a timeout here


@pytest.fixture(scope="module", autouse=True)
def _warm_pool() -> None:
    assert math.warm_up(), "symbolic workers did not start"


@pytest.mark.parametrize("workers", [None, 1, 2, 5])
def test_math_batch_equals_the_loop(workers: int | None) -> None:
    loop = [math.score(r, g, config=CFG) for r, g in zip(*MATH)]
    assert math.score_batch(*MATH, workers=workers, config=CFG) == loop


@pytest.mark.parametrize("workers", [None, 1, 2])
def test_gsm8k_batch_equals_the_loop(workers: int | None) -> None:
    loop = [gsm8k.score(r, g) for r, g in zip(*GSM)]
    assert gsm8k.score_batch(*GSM, workers=workers) == loop


def test_every_mode_gives_the_loop_results(monkeypatch: pytest.MonkeyPatch) -> None:
    loop = [math.score(r, g, config=CFG) for r, g in zip(*MATH)]
    monkeypatch.setattr(batch, "MEASURE_S", 0.0)  # judge after every item:
    monkeypatch.setattr(batch, "CAS_SHARE", 0.0)  # helper threads from the first item on,
    monkeypatch.setattr(batch, "CAS_SHARE_STOP", -1.0)  # to the end,
    monkeypatch.setattr(batch, "free_cpus", lambda ours: 64.0)  # however busy the machine is
    assert math.score_batch(*MATH, workers=3, config=CFG) == loop
    monkeypatch.setattr(batch, "PROCESS_MIN_ITEM_S", 0.0)  # processes right after the first check
    monkeypatch.setattr(batch, "PROCESS_MIN_REST_S", 0.0)
    monkeypatch.setattr(batch, "PROCESS_MEASURE_S", 0.0)
    gsm_loop = [gsm8k.score(r, g) for r, g in zip(*GSM)]
    assert gsm8k.score_batch(*GSM, workers=2) == gsm_loop


def _modes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record when a batch starts helper threads or hands items to processes."""
    used: list[str] = []
    start_helpers, processes = batch.Batch.start_helpers, batch.score_in_processes

    def spy_helpers(self: batch.Batch, count: int) -> None:
        used.append("threads")
        start_helpers(self, count)

    def spy_processes(*a: object) -> None:
        used.append("processes")
        processes(*a)  # type: ignore[arg-type]

    monkeypatch.setattr(batch.Batch, "start_helpers", spy_helpers)
    monkeypatch.setattr(batch, "score_in_processes", spy_processes)
    return used


def _cas_score(response: str, gold: str, *, config: object = None) -> Score:
    """A scorer that is one real CAS round trip (what a CAS-bound MATH item costs)."""
    status, result = pool().call("equal", (gold, response, 1e-9), 30.0)
    ok = status == "ok" and bool(result)
    status_ = "correct" if ok else "incorrect"
    return Score(float(ok), ok, status_, response, {"correctness": float(ok)}, status)


@pytest.mark.parametrize(("free", "modes"), [(2.0, {"threads"}), (0.5, set())])
def test_cas_bound_items_go_to_threads_while_cpus_are_free(monkeypatch: pytest.MonkeyPatch, free: float,
                                                          modes: set[str]) -> None:
    used = _modes(monkeypatch)
    monkeypatch.setattr(batch, "free_cpus", lambda ours: free)  # as the load average would say
    # distinct checks (a repeated one would come from sympy's cache in microseconds)
    monkeypatch.setattr(batch, "MEASURE_S", 0.0)  # judge after every item, however fast this machine is
    items = [f"x^2+{2 * k}x+{k * k}" for k in range(1, 41)]
    golds = [f"(x+{k})^2" for k in range(1, 41)]
    assert all(s.correct for s in batch.run_batch("math", _cas_score, items, golds, workers=None, config=None))
    assert set(used) == modes


def test_cheap_items_stay_in_this_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Items that never wait for the CAS never start threads or processes, however long the batch runs:
    the decision is judged after every item here (no timing window), with every CPU reported free."""
    used = _modes(monkeypatch)
    monkeypatch.setattr(batch, "MEASURE_S", 0.0)
    monkeypatch.setattr(batch, "CLOCK_EVERY", 1)
    monkeypatch.setattr(batch, "free_cpus", lambda ours: 64.0)
    gsm = (GSM[0] * 20, GSM[1] * 20)
    assert gsm8k.score_batch(*gsm, workers=4) == [gsm8k.score(r, g) for r, g in zip(*gsm)]
    # answered in this process (exact rationals and text): no CAS time at all
    in_process = (["\\boxed{\\frac{1}{2}}", "\\boxed{0.4}", "no", "\\boxed{x+1}", "\\boxed{(1, 2)}"] * 15,
                  ["0.5", "0.5", "1", "1+x", "(1,2)"] * 15)
    math_loop = [math.score(r, g, config=CFG) for r, g in zip(*in_process)]
    assert math.score_batch(*in_process, workers=4, config=CFG) == math_loop
    assert used == []


def test_bad_arguments_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="2 golds"):
        math.score_batch(["a"], ["1", "2"])
    with pytest.raises(ConfigError, match="workers"):
        gsm8k.score_batch(["a"], ["1"], workers=0)
    with pytest.raises(ConfigError, match="task"):
        batch.run_batch("mbpp", math.score, ["a"], ["1"], workers=None, config=None)


def test_empty_batch() -> None:
    assert math.score_batch([], []) == [] and gsm8k.score_batch([], [], workers=2) == []
