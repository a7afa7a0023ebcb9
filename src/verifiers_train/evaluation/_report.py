"""Reports: ``report.html`` + PNG plots for one run, and a side-by-side comparison of several runs.

Plots go to ``plots/*.png`` next to the HTML (matplotlib, Agg backend, no display needed). Every model
output shown in the HTML is escaped.
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from verifiers.errors import DataError
from verifiers.paths import input_folder
from verifiers_train.evaluation._metrics import accuracy_by, paired_difference
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.plots import bar_chart, fitted_range, have_matplotlib, integer_bins, pyplot, save_figure

# Example samples shown per status in the run report.
EXAMPLES_PER_STATUS = 3
# Characters of a response shown in an example; the full text is in samples.jsonl.
EXAMPLE_CHARS = 1500
# The run report's charts, in plots/.
PLOTS = ("pass_at_k.png", "status.png", "response_tokens.png", "accuracy_by_level.png")


def write_report(run_dir: str | os.PathLike[str], config: Mapping[str, Any], metrics: Mapping[str, Any],
                 samples: Sequence[Mapping[str, Any]]) -> Path:
    """Write ``report.html`` and ``plots/*.png`` for one run; returns the HTML path."""
    run = Path(run_dir)
    plots = run / "plots"
    plots.mkdir(exist_ok=True)
    drawn: list[Path | str | None] = []
    for name in PLOTS:  # a chart not drawn this time (now one bar, say) must not linger from an earlier report
        (plots / name).unlink(missing_ok=True)
    if have_matplotlib():
        drawn = [_plot_k_curves(metrics, plots / "pass_at_k.png"), _plot_status(metrics, plots / "status.png"),
                 _plot_lengths(samples, plots / "response_tokens.png")]
        if metrics.get("by_level"):
            drawn.append(_plot_levels(metrics["by_level"], plots / "accuracy_by_level.png"))
    images = [d for d in drawn if isinstance(d, Path)]
    notes = [d for d in drawn if isinstance(d, str)]  # a chart of one bar, said in words instead
    rows = summary_rows(metrics)
    body = [f"<h1>verifiers-eval: {_e(str(config.get('model')))} on {_e(str(config.get('dataset')))}</h1>",
            "<h2>Settings</h2>", _table([(k, config.get(k)) for k in (
                "model", "model_path", "dataset", "data", "split", "template", "preset", "backend", "n",
                "temperature", "top_p", "max_tokens", "limit", "seed", "problems")]),
            "<h2>Metrics</h2>", _table(rows),
            "<h2>Plots</h2>" if have_matplotlib() else "<p>(no plots: matplotlib is not installed)</p>"]
    body += [f'<img src="plots/{_e(p.name)}" alt="{_e(p.stem)}" style="max-width:48%">' for p in images]
    body += [f"<p>{_e(n)}</p>" for n in notes]
    body.append("<h2>Examples</h2>")
    for status in ("correct", "incorrect", "no_answer", "timeout", "error"):
        for s in [x for x in samples if x.get("status") == status][:EXAMPLES_PER_STATUS]:
            body.append(f"<h3>{_e(status)}: {_e(str(s.get('problem_id')))} #{s.get('sample_index')}</h3>"
                        f"<p>gold <code>{_e(str(s.get('gold')))}</code>, extracted "
                        f"<code>{_e(str(s.get('extracted')))}</code></p>"
                        f"<pre>{_e(str(s.get('prompt', ''))[-EXAMPLE_CHARS:])}</pre>"
                        f"<pre style='background:#eef'>{_e(str(s.get('response', ''))[:EXAMPLE_CHARS])}</pre>")
    out = run / "report.html"
    out.write_text(_page("verifiers-eval report", body), encoding="utf-8")
    return out


def summary_rows(metrics: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Metric name/value pairs, formatted for tables (shared by the HTML report and `compare`)."""
    lo, hi = metrics.get("accuracy_ci95", [float("nan")] * 2)
    rows: list[tuple[str, Any]] = [
        ("problems x n", f"{metrics.get('problems')} x {metrics.get('n')}"),
        ("accuracy (mean pass@1)", f"{_pct(metrics.get('accuracy'))} [{_pct(lo)}, {_pct(hi)}] 95% CI"),
    ]
    rows += [(f"pass@{k}", _pct(v)) for k, v in metrics.get("pass_at_k", {}).items()]
    rows += [(f"maj@{k}", _pct(v)) for k, v in metrics.get("maj_at_k", {}).items()]
    rows += [("format compliance", _pct(metrics.get("format_compliance"))),
             ("mean response tokens", _num(metrics.get("mean_response_tokens"))),
             ("truncated (hit max tokens)", metrics.get("truncated"))]
    rows += [(f"status: {k}", v) for k, v in metrics.get("status_counts", {}).items()]
    tp = metrics.get("throughput") or {}
    if tp:
        rows += [("prompts/s", _num(tp.get("prompts_per_s"))), ("generated tokens/s", _num(tp.get("tokens_per_s")))]
    rows += [(f"accuracy level {k}", _pct(v)) for k, v in (metrics.get("by_level") or {}).items()]
    ref = metrics.get("reference")
    if ref:
        rows.append((f"{ref.get('name')} reference accuracy", ref.get("accuracy_display", _pct(ref.get("accuracy")))))
    return rows


def load_run(run_dir: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(config, metrics)`` of a finished run folder.

    Raises:
        DataError: the folder has no ``metrics.json`` (not a run, or it never finished a first pass).
    """
    run = input_folder(run_dir, "run folder")
    if not (run / "metrics.json").is_file():
        raise DataError(f"{run} has no metrics.json: not a verifiers-eval run folder (or it was killed before "
                        "its first summary; rerun it with --resume)")
    config = json.loads((run / "config.json").read_text()) if (run / "config.json").is_file() else {}
    return config, json.loads((run / "metrics.json").read_text())


def write_compare(run_dirs: Sequence[str | os.PathLike[str]], out_dir: str | os.PathLike[str],
                  labels: Sequence[str] | None = None) -> tuple[list[str], list[list[str]]]:
    """Compare runs: writes ``compare.html``, ``compare.md`` and ``compare.png`` in ``out_dir``.

    Returns:
        ``(header, rows)`` of the comparison table (one column per run).
    """
    runs = [load_run(d) for d in run_dirs]
    names = list(labels) if labels else _labels(run_dirs)
    tables = [dict(summary_rows(m)) for _, m in runs]
    keys = list(dict.fromkeys(k for t in tables for k in t))
    header = ["metric", *names]
    rows = [[k, *[str(t.get(k, "")) for t in tables]] for k in keys]
    diffs = paired_differences(run_dirs)
    rows.insert(2, [f"accuracy change vs {names[0]} (paired 95% CI)", *_paired_cells(diffs)])
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    md = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + ["| " + " | ".join(r) + " |" for r in rows]
    (out / "compare.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    if have_matplotlib():
        save_figure(compare_figure(names, [m for _, m in runs], diffs), out / "compare.png")
    table = "<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) + "</tr>" + "".join(
        "<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows) + "</table>"
    chart = '<img src="compare.png" alt="compare" style="max-width:100%">' if (out / "compare.png").is_file() else ""
    (out / "compare.html").write_text(_page("verifiers-eval compare", [
        "<h1>verifiers-eval compare</h1>", chart, table]), encoding="utf-8")
    return header, rows


def paired_differences(run_dirs: Sequence[str | os.PathLike[str]]) -> list[dict[str, Any] | None]:
    """Per run: its accuracy minus the first run's, paired over shared problems (from ``samples.jsonl``).

    Returns:
        One entry per run: ``None`` for the first (the baseline) and for a run sharing no problem with it,
        else `paired_difference`'s ``{"difference", "ci95", "problems"}`` (fractions, not points).
    """
    acc = [accuracy_by(RunDir(d).read_samples(repair=False), "problem_id") for d in run_dirs]
    return [None] + [paired_difference(acc[0], other) if acc[0] and other else None for other in acc[1:]]


def _paired_cells(diffs: Sequence[Mapping[str, Any] | None]) -> list[str]:
    cells = ["(baseline)"]
    for d in diffs[1:]:
        if d is None:
            cells.append("n/a (no shared problems in samples.jsonl)")
            continue
        lo, hi = d["ci95"]
        cells.append(f"{100 * d['difference']:+.2f} pts [{100 * lo:+.2f}, {100 * hi:+.2f}] "
                     f"over {d['problems']} problems")
    return cells


def _labels(run_dirs: Sequence[str | os.PathLike[str]]) -> list[str]:
    names = [Path(d).name or str(d) for d in run_dirs]
    return names if len(set(names)) == len(names) else [str(d) for d in run_dirs]


def _plot_k_curves(metrics: Mapping[str, Any], path: Path) -> Path | str | None:
    """pass@k and maj@k over k; a text line when there is one k (n = 1: a chart of one point)."""
    if not metrics.get("pass_at_k"):
        return None
    if len(metrics["pass_at_k"]) == 1:
        (k, v), = metrics["pass_at_k"].items()
        return f"pass@k: one sample per problem, so only pass@{k} = {_pct(v)} (--n 8 --temperature 0.6 draws a curve)"
    fig, ax = pyplot().subplots(figsize=(5, 3.5))
    _k_curves(ax, [("pass@k", metrics["pass_at_k"]), ("maj@k", metrics.get("maj_at_k") or {})], "%",
              "pass@k and maj@k")
    ax.legend()
    return save_figure(fig, path)


def _k_curves(ax: Any, curves: Sequence[tuple[str, Mapping[str, float]]], ylabel: str, title: str) -> bool:
    """Plot ``{k: fraction}`` curves in percent on a log2 k axis fitted to the data; False if all are empty."""
    values: list[float] = []
    ks: set[int] = set()
    for label, curve in curves:
        if curve:
            values += [100 * v for v in curve.values()]
            ks |= {int(k) for k in curve}
            ax.plot([int(k) for k in curve], [100 * v for v in curve.values()], marker="o", label=label)
    ax.set_xscale("log", base=2)
    if ks:
        ax.set_xticks(sorted(ks), [str(k) for k in sorted(ks)])  # 1, 2, 4, 8 rather than 2^0 ... 2^3
    ax.set_xlabel("k")
    ax.set_ylabel(ylabel)
    ax.set_ylim(*value_axis_limits(values, values))
    ax.set_title(title)
    ax.grid(alpha=0.3)
    return bool(values)


def _plot_status(metrics: Mapping[str, Any], path: Path) -> Path | str | None:
    """Samples per status, each bar labelled with its count and share; a text line when there is one status."""
    counts = {k: v for k, v in (metrics.get("status_counts") or {}).items() if v}
    if not counts:
        return None
    total = sum(counts.values())
    if len(counts) == 1:
        (status, n), = counts.items()
        return f"samples by status: all {n:,} {status}"
    return bar_chart(list(counts), list(counts.values()), path, title=f"samples by status ({total:,})",
                     ylabel="samples", label=lambda v: f"{v:,.0f} ({_share(v / total)})")


def _share(fraction: float) -> str:
    """A share in percent with enough digits that a small one is not shown as 0%."""
    pct = 100 * fraction
    return f"{pct:.0f}%" if pct >= 10 or pct == 0 else f"{pct:.2g}%"


def _plot_lengths(samples: Sequence[Mapping[str, Any]], path: Path) -> Path | str | None:
    """Response tokens, correct and not, stacked; x fitted to the data (`fitted_range`), outliers counted."""
    ok = [int(s["response_tokens"]) for s in samples if s.get("correct") and s.get("response_tokens") is not None]
    bad = [int(s["response_tokens"]) for s in samples if not s.get("correct") and s.get("response_tokens") is not None]
    every = ok + bad
    if not every:
        return None
    if len(set(every)) == 1:
        return f"response length: all {len(every):,} responses have {every[0]:,} tokens"
    lo, hi = fitted_range(every)
    below, above = sum(v < lo for v in every), sum(v > hi for v in every)
    fig, ax = pyplot().subplots(figsize=(5, 3.5))
    ax.hist([[v for v in ok if lo <= v <= hi], [v for v in bad if lo <= v <= hi]], bins=integer_bins(lo, hi),
            label=["correct", "not correct"], stacked=True)
    ax.set_xlabel("response tokens")
    ax.set_ylabel("samples")
    ax.set_title("response length")
    hidden = [f"{below:,} shorter (min {min(every):,})" if below else "",
              f"{above:,} longer (max {max(every):,})" if above else ""]
    if below or above:
        ax.text(0.98, 0.70, "not shown:\n" + "\n".join(h for h in hidden if h), transform=ax.transAxes,
                ha="right", va="top", fontsize=8, color="#555")
    ax.legend()
    return save_figure(fig, path)


def _plot_levels(by_level: Mapping[str, float], path: Path) -> Path | str | None:
    """Accuracy per difficulty level, each bar labelled; a text line for a single level."""
    if len(by_level) == 1:
        (level, acc), = by_level.items()
        return f"accuracy by level: every problem is level {level} ({_pct(acc)})"
    heights = [100 * v for v in by_level.values()]
    top = value_axis_limits(heights, heights)[1]  # bars start at 0: their length is the value
    return bar_chart([f"level {k}" for k in by_level], heights, path, title="accuracy by difficulty level",
                     ylabel="accuracy %", label=lambda v: f"{v:.1f}%", color="#55a868",
                     top=min(100.0, max(top, max(heights) * 1.12)))


def value_axis_limits(lows: Sequence[float], highs: Sequence[float], *, floor: float = 0.0, ceil: float = 100.0,
                      pad: float = 0.15, min_span: float = 2.0) -> tuple[float, float]:
    """Y-axis limits that fit the data (lowest low to highest high) with ``pad`` of the span either side.

    Kept inside ``[floor, ceil]`` (a percentage cannot leave 0-100) and at least ``min_span`` wide, so a few
    points of difference fill the plot instead of lying flat on a fixed 0-100 axis. NaNs are ignored.
    """
    finite = [v for v in (*lows, *highs) if math.isfinite(v)]
    if not finite:
        return floor, ceil
    lo, hi = min(finite), max(finite)
    if hi - lo < min_span:
        mid = (lo + hi) / 2
        lo, hi = mid - min_span / 2, mid + min_span / 2
    margin = pad * (hi - lo)
    lo, hi = max(floor, lo - margin), min(ceil, hi + margin)
    return (lo, hi) if hi > lo else (floor, ceil)


def compare_figure(names: Sequence[str], metrics: Sequence[Mapping[str, Any]],
                   diffs: Sequence[Mapping[str, Any] | None]) -> Any:
    """The ``compare.png`` figure: accuracy with 95% CIs, each run's paired change vs the first, pass@k.

    All y-axes are fitted to the data (`value_axis_limits`); the change panel has a zero line, so a change
    whose CI excludes 0 is visible at a glance.
    """
    fig, (ax1, ax2, ax3) = pyplot().subplots(1, 3, figsize=(15, 4.2))
    x = list(range(len(names)))
    acc = [100 * float(m.get("accuracy", math.nan)) for m in metrics]
    ci = [[100 * float(v) for v in m.get("accuracy_ci95", [math.nan, math.nan])] for m in metrics]
    ax1.errorbar(x, acc, yerr=[[a - c[0] for a, c in zip(acc, ci, strict=True)],
                               [c[1] - a for a, c in zip(acc, ci, strict=True)]],
                 fmt="o", capsize=5, color="#4c72b0", markersize=7)
    for xi, a in zip(x, acc, strict=True):
        ax1.annotate(f"{a:.1f}%", (xi, a), textcoords="offset points", xytext=(8, 0), va="center", fontsize=8)
    ax1.set_xticks(x, names, rotation=20, ha="right")
    ax1.set_xlim(-0.5, len(names) - 0.5)
    ax1.set_ylabel("accuracy % (95% CI)")
    ax1.set_ylim(*value_axis_limits([c[0] for c in ci] + acc, [c[1] for c in ci] + acc))
    ax1.set_title("accuracy (mean pass@1)")
    ax1.grid(axis="y", alpha=0.3)

    shown = [(name, d) for name, d in zip(names, diffs, strict=True) if d is not None]
    ax2.axhline(0, color="gray", linewidth=1)
    if shown:
        mid = [100 * float(d["difference"]) for _, d in shown]
        lo = [100 * float(d["ci95"][0]) for _, d in shown]
        hi = [100 * float(d["ci95"][1]) for _, d in shown]
        xs = list(range(len(shown)))
        colors = ["#55a868" if lo_ > 0 else "#c44e52" if hi_ < 0 else "#8c8c8c" for lo_, hi_ in zip(lo, hi, strict=True)]
        for xi, m_, lo_, hi_, c in zip(xs, mid, lo, hi, colors, strict=True):
            ax2.errorbar([xi], [m_], yerr=[[m_ - lo_], [hi_ - m_]], fmt="o", capsize=5, color=c, markersize=7)
            ax2.annotate(f"{m_:+.2f} [{lo_:+.2f}, {hi_:+.2f}]", (xi, m_), textcoords="offset points", xytext=(8, 0),
                         va="center", fontsize=8)
        ax2.set_xticks(xs, [n for n, _ in shown], rotation=20, ha="right")
        ax2.set_xlim(-0.5, len(shown) - 0.5 + 0.6)  # room for the labels right of the points
        ax2.set_ylim(*value_axis_limits([*lo, 0.0], [*hi, 0.0], floor=-100.0, min_span=1.0))
        ax2.set_xlabel("green: CI above 0, red: CI below 0, gray: CI includes 0", fontsize=8, color="gray")
    else:
        ax2.text(0.5, 0.5, "no paired change (one run, or no shared problems)", ha="center", va="center",
                 transform=ax2.transAxes, color="gray")
        ax2.set_xticks([])
    ax2.set_ylabel(f"change vs {names[0]} (points, paired 95% CI)")
    ax2.set_title(f"paired accuracy change vs {names[0]}")
    ax2.grid(axis="y", alpha=0.3)

    if _k_curves(ax3, [(name, m.get("pass_at_k") or {}) for name, m in zip(names, metrics, strict=True)],
                 "pass@k %", "pass@k"):
        ax3.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _table(rows: Sequence[tuple[str, Any]]) -> str:
    return "<table>" + "".join(f"<tr><th>{_e(str(k))}</th><td>{_e(str(v))}</td></tr>" for k, v in rows) + "</table>"


def _page(title: str, body: Sequence[str]) -> str:
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}pre{white-space:pre-wrap;"
             "background:#f6f6f6;padding:6px}")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{_e(title)}</title><style>{style}</style>"
            "</head><body>" + "\n".join(body) + "</body></html>\n")


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _pct(v: Any) -> str:
    return "n/a" if v is None or math.isnan(float(v)) else f"{100 * float(v):.2f}%"


def _num(v: Any) -> str:
    return "n/a" if v is None else f"{float(v):,.1f}"
