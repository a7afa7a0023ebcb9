"""`report`: plots and warning signs from a run's metrics (ours parsed from the console, or verl's file logger)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifiers.errors import DataError
from verifiers_train.cli import main
from verifiers_train.metrics import (
    MetricsWriter,
    keep_earlier_metrics,
    parse_line,
    read_metrics,
    read_run_metrics,
)
from verifiers_train.report import build_report, check_flags

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
    assert "overview.png" in pngs and len(pngs) == 7 and all((rep / p).stat().st_size > 1000 for p in pngs)
    assert {f["name"] for f in json.loads((rep / "flags.json").read_text())} >= {"kl", "entropy"}


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


@settings(max_examples=60, deadline=None)
@given(step=st.integers(0, 10**6),
       metrics=st.dictionaries(_KEY, st.one_of(st.floats(allow_nan=False, width=64), st.integers(-10**9, 10**9)),
                               min_size=1, max_size=8),
       prefix=st.sampled_from(["", "(TaskRunner pid=12) ", "(TaskRunnerV1 pid=3, ip=10.0.0.1) "]))
def test_parse_line_inverts_verls_console_logger(step: int, metrics: dict, prefix: str) -> None:
    """Whatever verl's own `concat_dict_to_str` prints, we read back exactly (ints, floats, inf)."""
    from verl.utils.logger.aggregate_logger import concat_dict_to_str

    row = parse_line(prefix + concat_dict_to_str(metrics, step=step))
    assert row == {"step": step, **{k: float(v) for k, v in metrics.items()}}
