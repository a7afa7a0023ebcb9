"""`report`: plots and warning signs from a run's metrics (ours parsed from the console, or verl's file logger)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from verifiers.errors import DataError
from verifiers_train.cli import main
from verifiers_train.report import build_report, check_flags, series
from verifiers_train.verl_log import (
    MetricsWriter,
    keep_earlier_metrics,
    parse_line,
    read_metrics,
    read_run_metrics,
    validation_key,
)

ACC = "val-core/arith/acc/mean@1"


def _healthy(steps: int = 30) -> list[dict]:
    rows = []
    for s in range(1, steps + 1):
        rows.append({"step": s, "critic/score/mean": 0.2 + 0.02 * s, "actor/kl_loss": 0.001 + 0.0002 * s,
                     "actor/entropy": 1.2 - 0.01 * s, "response_length/mean": 40 + 0.1 * s,
                     "actor/pg_loss": 0.05 * (-1) ** s, "critic/vf_loss": 2.0 / s})
        if s % 5 == 0:
            rows.append({"step": s, ACC: 0.2 + 0.015 * s})
    return rows


def _write(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _status(rows: list[dict]) -> dict[str, str]:
    return {f.name: f.status for f in check_flags(read_rows(rows))}


def read_rows(rows: list[dict]) -> list[dict]:
    merged: dict[int, dict] = {}
    for r in rows:
        merged.setdefault(r["step"], {}).update(r)
    return [merged[s] for s in sorted(merged)]


def test_healthy_run_raises_no_warning() -> None:
    assert _status(_healthy()) == {"kl": "ok", "actor_loss": "ok", "critic_loss": "ok", "entropy": "ok",
                                   "length_hacking": "ok", "accuracy_flat": "ok"}


@pytest.mark.parametrize(("name", "mutate"), [
    ("kl", lambda r: r.update({"actor/kl_loss": 3.0}) if r.get("step") == 20 and "actor/kl_loss" in r else None),
    ("kl", lambda r: r.update({"actor/kl_loss": 0.5}) if r.get("step") == 12 and "actor/kl_loss" in r else None),
    ("actor_loss", lambda r: r.update({"actor/pg_loss": math.nan}) if r.get("step") == 7 and "actor/pg_loss" in r
     else None),
    ("actor_loss", lambda r: r.update({"actor/pg_loss": 42.0}) if r.get("step") == 9 and "actor/pg_loss" in r
     else None),
    ("critic_loss", lambda r: r.update({"critic/vf_loss": 1.0 + 0.1 * r["step"]}) if "critic/vf_loss" in r else None),
    ("entropy", lambda r: r.update({"actor/entropy": 1.2 * 0.8 ** r["step"]}) if "actor/entropy" in r else None),
    ("accuracy_flat", lambda r: r.update({ACC: 0.31}) if ACC in r else None),
])
def test_each_warning_sign_fires(name: str, mutate: object) -> None:
    rows = _healthy()
    for r in rows:
        mutate(r)  # type: ignore[operator]
    status = _status(rows)
    assert status[name] == "warn"
    assert sum(v == "warn" for v in status.values()) <= 2  # a single fault does not light up everything


def test_length_hacking_reward_and_length_up_accuracy_flat() -> None:
    rows = _healthy()
    for r in rows:
        if "response_length/mean" in r:
            r["response_length/mean"] = 40 + 5 * r["step"]
        if ACC in r:
            r[ACC] = 0.3
    status = _status(rows)
    assert status["length_hacking"] == "warn" and status["accuracy_flat"] == "warn"


def test_missing_metrics_are_not_applicable_not_ok() -> None:
    status = _status([{"step": s, "critic/score/mean": 0.1} for s in range(1, 5)])
    assert status["critic_loss"] == "n/a" and status["kl"] == "n/a" and status["accuracy_flat"] == "n/a"


@pytest.mark.slow
def test_report_writes_pngs_html_flags_from_console_metrics(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    run.mkdir()
    with MetricsWriter(run / "metrics.jsonl") as w:
        for r in read_rows(_healthy()):
            w.feed("(TaskRunner pid=3) step:{} - ".format(r["step"])
                   + " - ".join(f"{k}:{v}" for k, v in r.items() if k != "step") + "\n")
        w.feed("unrelated line\n")
    assert main(["report", str(run)]) == 0
    out = capsys.readouterr().out
    assert "kl" in out and "wrote" in out
    rep = run / "report"
    assert (rep / "report.html").read_text().count("<tr class='ok'>") == 6
    pngs = sorted(p.name for p in rep.glob("*.png"))
    assert "overview.png" in pngs and len(pngs) == 11 and all((rep / p).stat().st_size > 1000 for p in pngs)
    assert {f["name"] for f in json.loads((rep / "flags.json").read_text())} >= {"kl", "entropy"}


@pytest.mark.slow
def test_verl_file_logger_is_preferred_and_strict_exit(tmp_path: Path) -> None:
    run = tmp_path / "run"
    rows = _healthy()
    for r in rows:
        if "actor/entropy" in r:
            r["actor/entropy"] = 0.01
    _write(run / "verl_metrics.jsonl", [{"step": r["step"], "data": {k: v for k, v in r.items() if k != "step"}}
                                        for r in rows])
    _write(run / "metrics.jsonl", _healthy())
    report = build_report(run)
    assert report.source.name == "verl_metrics.jsonl"
    assert {f.name: f.status for f in report.flags}["entropy"] == "warn"
    assert main(["report", str(run), "--strict"]) == 1


def test_resumed_run_parts_are_joined_later_launch_wins(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert keep_earlier_metrics(run) is None  # nothing to keep yet
    first = [{"step": s, "data": {"critic/score/mean": 0.1, "actor/entropy": 1.0}} for s in range(4)]
    _write(run / "verl_metrics.jsonl", first)
    assert keep_earlier_metrics(run) == run / "verl_metrics.1.jsonl" and not (run / "verl_metrics.jsonl").exists()
    second = [{"step": s, "data": {"critic/score/mean": 0.5}} for s in range(2, 6)]  # resumed from step 2
    _write(run / "verl_metrics.jsonl", second)
    rows, files = read_run_metrics(run)
    assert [f.name for f in files] == ["verl_metrics.1.jsonl", "verl_metrics.jsonl"]
    assert [r["step"] for r in rows] == list(range(6))
    assert rows[1]["critic/score/mean"] == 0.1 and rows[3]["critic/score/mean"] == 0.5
    assert rows[3]["actor/entropy"] == 1.0  # kept from the first launch where the second logged nothing
    assert build_report(run).steps == 6
    assert keep_earlier_metrics(run) == run / "verl_metrics.2.jsonl"  # a third launch numbers on


def test_no_metrics_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no metrics"):
        build_report(tmp_path)


def test_validation_key_is_the_mean_not_best_or_majority_of_n() -> None:
    """verl's val-core columns for n > 1 are mean@N, maj@N/mean and best@N/mean; the last two sort first."""
    row = {"step": 2, "val-core/arith/acc/best@4/mean": 0.9, "val-core/arith/acc/maj@4/mean": 0.7,
           "val-core/arith/acc/mean@4": 0.5, "val-aux/arith/reward/mean@4": 0.5}
    assert validation_key([row]) == "val-core/arith/acc/mean@4"
    assert validation_key([{"step": 2, "val-core/arith/reward/best@4/mean": 1.0,
                            "val-core/arith/reward/mean@4": 0.4}]) == "val-core/arith/reward/mean@4"
    assert validation_key([{"step": 1, "critic/score/mean": 0.2}]) is None


def test_parse_line_handles_verl_formats() -> None:
    row = parse_line("(TaskRunner pid=9) step:4 - a/b:1 - c:np.float32(0.25) - d:nan - e:True - f:text")
    assert row is not None and row["step"] == 4 and row["a/b"] == 1.0 and row["c"] == 0.25
    assert math.isnan(row["d"]) and row["e"] == 1.0 and "f" not in row
    assert parse_line("Training Progress: step:3 of 10") is None


def test_read_metrics_skips_a_truncated_last_line(tmp_path: Path) -> None:
    p = tmp_path / "m.jsonl"
    p.write_text('{"step": 1, "x": 1.0}\n{"step": 2, "x": "nan"}\n{"step": 3, "x"')
    rows = read_metrics(p)
    assert [r["step"] for r in rows] == [1, 2] and math.isnan(rows[1]["x"])


_KEY = st.from_regex(r"[a-z][a-z_]{0,8}(/[a-z@0-9_]{1,8}){0,3}", fullmatch=True)


@settings(max_examples=examples(60), deadline=None)
@given(step=st.integers(0, 10**6),
       metrics=st.dictionaries(_KEY, st.one_of(st.floats(allow_nan=False, width=64), st.integers(-10**9, 10**9)),
                               min_size=1, max_size=8),
       prefix=st.sampled_from(["", "(TaskRunner pid=12) ", "(TaskRunnerV1 pid=3, ip=10.0.0.1) "]))
def test_parse_line_inverts_verls_console_logger(step: int, metrics: dict, prefix: str) -> None:
    """Whatever verl's own `concat_dict_to_str` prints, we read back exactly (ints, floats, inf)."""
    from verl.utils.logger.aggregate_logger import concat_dict_to_str

    row = parse_line(prefix + concat_dict_to_str(metrics, step=step))
    assert row == {"step": step, **{k: float(v) for k, v in metrics.items()}}


# ---------------------------------------------------------------- plots, on verl's own recorded output
GPU_EVALS = Path(__file__).resolve().parents[2] / "evals" / "gpu"


def _real_run(tmp_path: Path, archive: str, member: str) -> Path:
    """Unpack one run's ``verl_metrics.jsonl`` from a recorded H200 run (real verl 0.9.1 output)."""
    import tarfile

    with tarfile.open(GPU_EVALS / archive) as tar:
        data = tar.extractfile(f"{member}/verl_metrics.jsonl")
        assert data is not None
        run = tmp_path / member
        _write(run / "verl_metrics.jsonl", [json.loads(line) for line in data.read().splitlines() if line.strip()])
    return run


def _axes_by_title(fig: object) -> dict[str, object]:
    """The visible titled axes (a twin axis has no title of its own)."""
    return {ax.get_title(): ax for ax in fig.axes if ax.get_visible() and ax.get_title()}  # type: ignore[attr-defined]


def test_ppo_losses_get_their_own_axes_fitted_to_each(tmp_path: Path) -> None:
    from verifiers_train.report import overview_figure

    rows = read_run_metrics(_real_run(tmp_path, "h200_run5/ppo_b128_40.tar.gz", "ppo"))[0]
    axes = _axes_by_title(overview_figure(rows))
    for title, key in (("actor loss (pg_loss)", "actor/pg_loss"), ("critic loss (vf_loss)", "critic/vf_loss")):
        ax = axes[title]
        lines = ax.get_lines()  # type: ignore[attr-defined]
        assert [line.get_label() for line in lines] == [key]
        _, ys = series(rows, key)
        assert list(lines[0].get_ydata()) == ys and len(ys) >= 40
        lo, hi = ax.get_ylim()  # type: ignore[attr-defined]
        span = max(ys) - min(ys)
        # the axis hugs this loss alone: the other loss (10-1000x larger) would stretch it
        assert lo <= min(ys) and hi >= max(ys) and hi - lo < 1.5 * span


def test_explained_variance_grad_norm_and_step_time_are_plotted(tmp_path: Path) -> None:
    from verifiers_train.report import overview_figure, panel_keys

    rows = read_run_metrics(_real_run(tmp_path, "h200_run5/ppo_b128_40.tar.gz", "ppo"))[0]
    keys = panel_keys(rows)
    assert keys["explained variance (critic)"] == ["critic/vf_explained_var"]
    assert keys["grad norm"] == ["actor/grad_norm", "critic/grad_norm"]
    assert keys["step time (s)"] == ["timing_s/step", "timing_s/gen", "timing_s/update_actor"]
    axes = _axes_by_title(overview_figure(rows))
    for title in ("explained variance (critic)", "grad norm", "step time (s)"):
        for line in axes[title].get_lines():  # type: ignore[attr-defined]
            assert list(line.get_ydata()) == series(rows, line.get_label().split(" = ")[0])[1]
    assert len(axes) == len(keys)  # one axes per panel; the grid's spare cells are hidden


def test_a_series_repeating_another_is_drawn_once_and_named_twice(tmp_path: Path) -> None:
    """verl logs perf/time_per_step = timing_s/step and, without a KL penalty, rewards = score."""
    from verifiers_train.report import overview_figure, panel_keys

    rows = read_run_metrics(_real_run(tmp_path, "h200_run5/ppo_b128_40.tar.gz", "ppo"))[0]
    assert series(rows, "perf/time_per_step") == series(rows, "timing_s/step")
    assert panel_keys(rows)["reward / accuracy (train)"] == ["critic/score/mean"]
    labels = [line.get_label() for line in _axes_by_title(overview_figure(rows))["step time (s)"].get_lines()]
    assert labels[0] == "timing_s/step = perf/time_per_step"


def test_a_much_smaller_signed_series_gets_a_right_axis(tmp_path: Path) -> None:
    """actor/ppo_kl (~1e-5, sometimes negative) beside actor/kl_loss (~1e-2): a log axis would drop it."""
    from verifiers_train.report import overview_figure

    rows = read_run_metrics(_real_run(tmp_path, "h200_run5/ppo_b128_40.tar.gz", "ppo"))[0]
    assert min(series(rows, "actor/ppo_kl")[1]) < 0
    fig = overview_figure(rows)
    kl = _axes_by_title(fig)["KL"]
    assert kl.get_yscale() == "linear"  # type: ignore[attr-defined]
    assert [line.get_label() for line in kl.get_lines()] == ["actor/kl_loss"]  # type: ignore[attr-defined]
    twins = [ax for ax in fig.axes if ax is not kl and ax.bbox.bounds == kl.bbox.bounds]  # type: ignore[attr-defined]
    assert [line.get_label() for ax in twins for line in ax.get_lines()] == ["actor/ppo_kl (right axis)"]
    ys = series(rows, "actor/ppo_kl")[1]
    lo, hi = twins[0].get_ylim()
    assert lo <= min(ys) and hi >= max(ys) and hi - lo < 1.5 * (max(ys) - min(ys))


def test_grpo_has_no_critic_panels_and_says_why(tmp_path: Path) -> None:
    from verifiers_train.report import overview_figure, panel_keys

    rows = read_run_metrics(_real_run(tmp_path, "h200_run4/grpo_b128_80.tar.gz", "grpo"))[0]
    keys = panel_keys(rows)
    assert keys["critic loss (vf_loss)"] == [] and keys["explained variance (critic)"] == []
    assert keys["grad norm"] == ["actor/grad_norm"] and keys["actor loss (pg_loss)"] == ["actor/pg_loss"]
    axes = _axes_by_title(overview_figure(rows))
    notes = [t.get_text() for t in axes["critic loss (vf_loss)"].texts]  # type: ignore[attr-defined]
    assert notes == ["not logged (GRPO has no critic)"]


def test_series_of_different_magnitude_share_a_log_axis() -> None:
    from verifiers_train.report import overview_figure

    rows = [{"step": s, "actor/grad_norm": 0.01 * s, "critic/grad_norm": 5.0 * s} for s in range(1, 6)]
    assert _axes_by_title(overview_figure(rows))["grad norm"].get_yscale() == "log"  # type: ignore[attr-defined]
    rows = [{"step": s, "actor/grad_norm": 0.5 * s, "critic/grad_norm": 1.0 * s} for s in range(1, 6)]
    assert _axes_by_title(overview_figure(rows))["grad norm"].get_yscale() == "linear"  # type: ignore[attr-defined]


@pytest.mark.slow
def test_report_on_a_real_ppo_run_writes_every_panel(tmp_path: Path) -> None:
    report = build_report(_real_run(tmp_path, "h200_run5/ppo_b128_40.tar.gz", "ppo"))
    names = {p.name for p in report.pngs}
    assert {"overview.png", "actor_loss_pg_loss.png", "critic_loss_vf_loss.png", "explained_variance_critic.png",
            "grad_norm.png", "step_time_s.png"} <= names
    assert "critic/vf_explained_var" in report.summary and "timing_s/step" in report.summary
