"""`verifiers-eval compare` plots on recorded GPU runs: y-axes fitted to the data, the paired change with its CI."""

from __future__ import annotations

import json
import math
import shutil
import tarfile
from pathlib import Path

import pytest

from verifiers_train.evaluation._report import (
    compare_figure,
    paired_differences,
    value_axis_limits,
    write_compare,
)

GPU_EVALS = Path(__file__).resolve().parents[3] / "evals" / "gpu"


@pytest.fixture(scope="module")
def base_and_grpo(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The H200 run 4 evaluations (500 arith problems x 8 samples, before and after GRPO), as run folders."""
    root = tmp_path_factory.mktemp("runs")
    with tarfile.open(GPU_EVALS / "h200_run4" / "grpo_b128_80.tar.gz") as tar:
        members = [m for m in tar.getmembers()
                   if m.name in ("eval_base/samples.jsonl", "eval_grpo/samples.jsonl", "eval_grpo/metrics.json")]
        tar.extractall(root, members=members, filter="data")
    shutil.copy(GPU_EVALS / "h200_run4" / "eval_base_metrics.json", root / "eval_base" / "metrics.json")
    return [root / "eval_base", root / "eval_grpo"]


def _metrics(run: Path) -> dict:
    return json.loads((run / "metrics.json").read_text())


def test_value_axis_limits_fit_the_data() -> None:
    assert value_axis_limits([10.0, 12.0], [14.0, 16.0]) == pytest.approx((9.1, 16.9))
    assert value_axis_limits([0.2], [3.0]) == (0.0, pytest.approx(3.42))  # never below the floor
    assert value_axis_limits([97.0], [99.8]) == (pytest.approx(96.58), 100.0)  # nor above the ceiling
    assert value_axis_limits([50.0], [50.0]) == pytest.approx((48.7, 51.3))  # a point still gets a span
    assert value_axis_limits([], []) == (0.0, 100.0) and value_axis_limits([math.nan], [math.nan]) == (0.0, 100.0)
    assert value_axis_limits([-3.0], [2.0], floor=-100.0) == pytest.approx((-3.75, 2.75))


def test_compare_chart_axes_fit_the_runs_and_show_the_paired_change(base_and_grpo: list[Path]) -> None:
    metrics = [_metrics(r) for r in base_and_grpo]
    diffs = paired_differences(base_and_grpo)
    assert diffs[0] is None and diffs[1] is not None and diffs[1]["problems"] == 500
    fig = compare_figure(["base", "grpo"], metrics, diffs)
    acc_ax, change_ax, pass_ax = fig.axes

    lo, hi = acc_ax.get_ylim()
    cis = [100 * v for m in metrics for v in m["accuracy_ci95"]]
    assert lo <= min(cis) and hi >= max(cis)
    assert hi - lo < 2 * (max(cis) - min(cis))  # fitted: ~11-22%, not 0-100%

    d_lo, d_hi = (100 * v for v in diffs[1]["ci95"])
    (bar,) = change_ax.containers  # one run against the baseline: one point with its CI
    segment = bar.lines[2][0].get_segments()[0]
    assert [y for _, y in segment] == pytest.approx([d_lo, d_hi])
    assert 0 < d_lo < 100 * diffs[1]["difference"] < d_hi  # recorded: +5.67 pts [+3.95, +7.48]
    zero = [line for line in change_ax.get_lines() if list(line.get_ydata()) == [0, 0]]
    assert zero and change_ax.get_ylim()[0] <= 0 < d_hi <= change_ax.get_ylim()[1]

    values = [100 * v for m in metrics for v in m["pass_at_k"].values()]
    p_lo, p_hi = pass_ax.get_ylim()
    assert p_lo <= min(values) and p_hi >= max(values) and (p_lo, p_hi) != (0, 100)


def test_one_run_alone_has_no_change_to_draw(base_and_grpo: list[Path]) -> None:
    fig = compare_figure(["grpo"], [_metrics(base_and_grpo[1])], [None])
    change_ax = fig.axes[1]
    assert not change_ax.containers and "no paired change" in change_ax.texts[0].get_text()


def test_write_compare_on_recorded_runs(base_and_grpo: list[Path], tmp_path: Path) -> None:
    _, rows = write_compare(base_and_grpo, tmp_path, labels=["base", "grpo"])
    change = next(r for r in rows if r[0].startswith("accuracy change"))
    assert change[2] == "+5.67 pts [+3.95, +7.48] over 500 problems"  # as recorded in evals/gpu/h200_run4
    assert (tmp_path / "compare.png").read_bytes()[:4] == b"\x89PNG"


# ------------------------------------------------------------------ the run report's charts
def test_bar_chart_labels_every_bar_and_draws_no_lone_bar(tmp_path: Path) -> None:
    from verifiers_train.plots import bar_chart

    said: list[float] = []

    def label(v: float) -> str:
        said.append(v)
        return f"{v:g}"

    path = bar_chart(["correct", "incorrect", "no_answer"], [640, 958, 2], tmp_path / "s.png", title="t",
                     label=label)
    assert path == tmp_path / "s.png" and path.read_bytes()[:4] == b"\x89PNG"
    assert said == [640, 958, 2]  # the 2 gets its label like the others
    assert bar_chart(["level 5"], [30.0], tmp_path / "one.png", title="t") is None
    assert not (tmp_path / "one.png").exists()
    with pytest.raises(ValueError, match="2 labels for 1 values"):
        bar_chart(["a", "b"], [1.0], tmp_path / "x.png", title="t")


def test_fitted_range_follows_the_data_not_a_configured_maximum() -> None:
    from verifiers_train.plots import fitted_range, integer_bins

    assert fitted_range([17, 18, 19, 25, 5]) == (5, 25)  # narrow: all of it
    bulk = [150 + i % 100 for i in range(990)] + [1024] * 10  # 1% truncated at max_tokens
    lo, hi = fitted_range(bulk)
    assert lo == 150 and hi < 300  # the truncated tail does not stretch the axis to 1,024
    assert fitted_range([3.0]) == (3.0, 3.0) and fitted_range([1, 2, math.nan]) == (1, 2)
    with pytest.raises(ValueError, match="no finite values"):
        fitted_range([math.nan])
    edges = integer_bins(17, 21)
    assert edges == [16.5, 17.5, 18.5, 19.5, 20.5, 21.5]  # one bin per integer, no empty slivers
    wide = integer_bins(0, 1000)
    assert len(wide) - 1 <= 40 and wide[1] - wide[0] == 26 and wide[0] < 0 and wide[-1] > 1000  # whole widths


def _samples(tokens: list[int], statuses: list[str]) -> list[dict]:
    return [{"response_tokens": t, "status": s, "correct": s == "correct", "problem_id": str(i), "sample_index": 0}
            for i, (t, s) in enumerate(zip(tokens, statuses, strict=True))]


def test_run_report_says_in_words_what_one_bar_would_show(tmp_path: Path) -> None:
    from verifiers_train.evaluation._report import write_report

    run = tmp_path / "run"
    run.mkdir()
    (run / "plots").mkdir()
    (run / "plots" / "accuracy_by_level.png").write_bytes(b"stale")  # from an earlier report of this folder
    metrics = {"status_counts": {"correct": 3, "incorrect": 0}, "by_level": {"5": 0.3}, "pass_at_k": {"1": 0.4}}
    html = write_report(run, {}, metrics, _samples([7, 7, 7], ["correct"] * 3)).read_text()
    assert "every problem is level 5 (30.00%)" in html and "all 3 correct" in html
    assert "only pass@1 = 40.00%" in html and "all 3 responses have 7 tokens" in html
    assert not list((run / "plots").iterdir())  # no lone-bar PNG, and the stale one is gone
    assert "matplotlib is not installed" not in html


def test_run_report_draws_counts_and_fitted_lengths(tmp_path: Path) -> None:
    from verifiers_train.evaluation._report import write_report

    run = tmp_path / "run"
    run.mkdir()
    tokens = [200 + i % 60 for i in range(1598)] + [1024, 1024]
    statuses = ["correct"] * 700 + ["incorrect"] * 898 + ["no_answer"] * 2
    metrics = {"status_counts": {"correct": 700, "incorrect": 898, "no_answer": 2},
               "by_level": {"1": 0.5, "2": 0.25}, "pass_at_k": {"1": 0.4, "2": 0.5}}
    html = write_report(run, {}, metrics, _samples(tokens, statuses)).read_text()
    for png in ("status.png", "response_tokens.png", "accuracy_by_level.png", "pass_at_k.png"):
        assert (run / "plots" / png).read_bytes()[:4] == b"\x89PNG" and f'src="plots/{png}"' in html
