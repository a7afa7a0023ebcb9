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
