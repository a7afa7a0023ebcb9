"""``verifiers-train report``: training curves (PNG + HTML) and the PPO playbook's warning signs.

Reads ``RUN_DIR/verl_metrics.jsonl`` (verl's file logger, full precision; the parts of a resumed run joined)
or else ``RUN_DIR/metrics.jsonl`` (parsed console output), plots one panel per quantity against the step
(`PANELS`: reward/accuracy, validation score, KL, entropy, response length, actor loss, critic loss, the
critic's explained variance, gradient norms, step time; each on its own axis, so a small loss is not
flattened by a large one), and flags:

- KL exploding (above `KL_LIMIT`) or jumping (one step > `KL_JUMP_FACTOR` x the median so far);
- actor loss NaN/inf or above `ACTOR_LOSS_LIMIT` in magnitude;
- critic loss not decreasing (last third's mean not below the first third's);
- entropy collapsing (below `ENTROPY_FLOOR`, or below `ENTROPY_COLLAPSE_RATIO` of its start);
- length hacking (response length and reward both up by `LENGTH_RISE`/`REWARD_RISE` while accuracy is flat);
- accuracy flat (validation accuracy moves less than `FLAT_ACC` over the run).

Example:
    >>> report = build_report("runs/grpo-arith")          # doctest: +SKIP
    >>> [f.name for f in report.flags if f.status == "warn"]  # doctest: +SKIP
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
import re
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from verifiers.errors import DataError
from verifiers_train.plots import pyplot, save_figure
from verifiers_train.verl_log import CONSOLE_METRICS, read_metrics, read_run_metrics, validation_key

__all__ = ["PANELS", "Flag", "Report", "build_report", "check_flags", "overview_figure", "panel_keys", "series",
           "validation_key"]

# Warning thresholds (named so a reader can tune them; values follow common PPO/GRPO practice).
KL_LIMIT = 1.0  # nats/token: far beyond the ~0.001-0.1 of a healthy KL-regularized run
KL_JUMP_FACTOR = 10.0
KL_JUMP_FLOOR = 0.01  # ignore "jumps" among values this small
ACTOR_LOSS_LIMIT = 10.0
ENTROPY_FLOOR = 0.05
ENTROPY_COLLAPSE_RATIO = 0.1
LENGTH_RISE = 0.2  # +20% mean response length, first third vs last third
REWARD_RISE = 0.05
FLAT_ACC = 0.01
MIN_POINTS = 3

# Panels: title -> regexes of metric keys (first matches are plotted, up to `MAX_SERIES` per panel). Keys are
# the ones verl 0.9.1 logs (`verl/trainer/ppo/metric_utils.py`, the actor/critic workers); the recorded runs
# under evals/gpu/h200_run* have every one of them.
PANELS: dict[str, tuple[str, ...]] = {
    "reward / accuracy (train)": (r"^critic/score/mean$", r"^critic/rewards/mean$", r"^(train|reward)[^@]*/acc(/mean)?$"),
    "validation": (r"^val-core/.+/(acc|reward)/mean@\d+$",),
    "KL": (r"^actor/kl_loss$", r"^actor/ppo_kl$", r"^actor/reward_kl_penalty$"),
    "entropy": (r"^actor/entropy$",),
    "response length": (r"^response_length/mean$", r"^response_length/max$"),
    "actor loss (pg_loss)": (r"^actor/pg_loss$",),
    "critic loss (vf_loss)": (r"^critic/vf_loss$",),
    "explained variance (critic)": (r"^critic/vf_explained_var$",),
    "grad norm": (r"^actor/grad_norm$", r"^critic/grad_norm$"),
    "step time (s)": (r"^timing_s/step$", r"^perf/time_per_step$", r"^timing_s/gen$", r"^timing_s/update_actor$"),
}
MAX_SERIES = 4
# Shown in an empty panel: why a metric may be absent.
ABSENT_NOTE: dict[str, str] = {
    "critic loss (vf_loss)": "not logged (GRPO has no critic)",
    "explained variance (critic)": "not logged (GRPO has no critic)",
}
# A panel whose positive series differ by more than this factor in size gets a log axis (actor vs critic
# grad norm), so the smaller one is not drawn as a flat line.
LOG_AXIS_RATIO = 20.0
PANEL_COLUMNS = 5


@dataclass(frozen=True)
class Flag:
    """One warning sign: ``status`` is ``ok``, ``warn`` or ``n/a`` (metric absent or too few points)."""

    name: str
    status: str
    detail: str


@dataclass
class Report:
    """What `build_report` produced."""

    run_dir: Path
    source: Path
    steps: int
    flags: list[Flag]
    pngs: list[Path]
    html: Path
    summary: dict[str, Any]


def series(rows: list[dict[str, Any]], key: str) -> tuple[list[int], list[float]]:
    """Steps and values of one metric (rows without it are skipped)."""
    xs, ys = [], []
    for row in rows:
        v = row.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool):
            xs.append(int(row["step"]))
            ys.append(float(v))
    return xs, ys


def _first_key(rows: list[dict[str, Any]], patterns: tuple[str, ...]) -> str | None:
    keys = sorted({k for r in rows for k in r})
    return next((k for pat in patterns for k in keys if re.search(pat, k)), None)


def _thirds(ys: list[float]) -> tuple[float, float]:
    k = max(1, len(ys) // 3)
    return statistics.fmean(ys[:k]), statistics.fmean(ys[-k:])


def _finite(ys: list[float]) -> list[float]:
    return [y for y in ys if math.isfinite(y)]


def check_flags(rows: list[dict[str, Any]]) -> list[Flag]:
    """Evaluate the warning signs on metric rows (see the module docstring)."""
    flags: list[Flag] = []

    kl_key = _first_key(rows, PANELS["KL"])
    _, kl = series(rows, kl_key) if kl_key else ([], [])
    kl = _finite(kl)
    if len(kl) < MIN_POINTS:
        flags.append(Flag("kl", "n/a", "no KL metric logged" if not kl_key else f"only {len(kl)} points"))
    else:
        jumps = [i for i in range(2, len(kl))
                 if kl[i] > KL_JUMP_FLOOR and kl[i] > KL_JUMP_FACTOR * max(statistics.median(kl[:i]), 1e-12)]
        if max(kl) > KL_LIMIT:
            flags.append(Flag("kl", "warn", f"{kl_key} reached {max(kl):.3g} (> {KL_LIMIT}): KL exploding"))
        elif jumps:
            flags.append(Flag("kl", "warn", f"{kl_key} jumped to {kl[jumps[0]]:.3g} at point {jumps[0]} "
                                            f"(> {KL_JUMP_FACTOR:g}x the median before it)"))
        else:
            flags.append(Flag("kl", "ok", f"{kl_key} max {max(kl):.3g}"))

    _, pg = series(rows, "actor/pg_loss")
    if not pg:
        flags.append(Flag("actor_loss", "n/a", "actor/pg_loss not logged"))
    elif any(not math.isfinite(v) for v in pg):
        flags.append(Flag("actor_loss", "warn", "actor/pg_loss is NaN or inf"))
    elif max(abs(v) for v in pg) > ACTOR_LOSS_LIMIT:
        flags.append(Flag("actor_loss", "warn", f"|actor/pg_loss| reached {max(abs(v) for v in pg):.3g} "
                                                f"(> {ACTOR_LOSS_LIMIT:g})"))
    else:
        flags.append(Flag("actor_loss", "ok", f"|actor/pg_loss| <= {max(abs(v) for v in pg):.3g}"))

    vf = _finite(series(rows, "critic/vf_loss")[1])
    if len(vf) < 2 * MIN_POINTS:
        flags.append(Flag("critic_loss", "n/a", "critic/vf_loss not logged (grpo has no critic)" if not vf
                          else f"only {len(vf)} points"))
    else:
        first, last = _thirds(vf)
        status = "ok" if last < first else "warn"
        flags.append(Flag("critic_loss", status, f"critic/vf_loss {first:.3g} -> {last:.3g} (first vs last third)"
                          + ("" if status == "ok" else ": not decreasing")))

    ent = _finite(series(rows, "actor/entropy")[1])
    if len(ent) < MIN_POINTS:
        flags.append(Flag("entropy", "n/a", "actor/entropy not logged" if not ent else f"only {len(ent)} points"))
    elif ent[-1] < ENTROPY_FLOOR or ent[-1] < ENTROPY_COLLAPSE_RATIO * ent[0]:
        flags.append(Flag("entropy", "warn", f"actor/entropy fell {ent[0]:.3g} -> {ent[-1]:.3g}: collapsing"))
    else:
        flags.append(Flag("entropy", "ok", f"actor/entropy {ent[0]:.3g} -> {ent[-1]:.3g}"))

    acc_key = validation_key(rows)
    acc = _finite(series(rows, acc_key)[1]) if acc_key else []
    length = _finite(series(rows, "response_length/mean")[1])
    reward = _finite(series(rows, "critic/score/mean")[1])
    if len(length) < 2 * MIN_POINTS or len(reward) < 2 * MIN_POINTS or len(acc) < 2:
        flags.append(Flag("length_hacking", "n/a", "needs response length, reward and validation accuracy"))
    else:
        l0, l1 = _thirds(length)
        r0, r1 = _thirds(reward)
        acc_gain = acc[-1] - acc[0]
        hacking = l1 > (1 + LENGTH_RISE) * l0 and r1 - r0 > REWARD_RISE and acc_gain <= FLAT_ACC
        flags.append(Flag("length_hacking", "warn" if hacking else "ok",
                          f"length {l0:.1f} -> {l1:.1f}, reward {r0:.3f} -> {r1:.3f}, accuracy {acc[0]:.3f} -> "
                          f"{acc[-1]:.3f}" + (": reward rises with length, accuracy does not" if hacking else "")))

    if len(acc) < 2:
        flags.append(Flag("accuracy_flat", "n/a", "fewer than 2 validation points (set --test-freq)"))
    else:
        spread = max(acc) - min(acc)
        flags.append(Flag("accuracy_flat", "warn" if spread < FLAT_ACC else "ok",
                          f"{acc_key} ranged {min(acc):.3f}..{max(acc):.3f} over {len(acc)} validations"))
    return flags


def panel_keys(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The metric keys each panel plots (in pattern order, at most `MAX_SERIES`; empty when none is logged).

    A key whose values repeat an earlier key's (verl logs ``critic/rewards/mean`` = ``critic/score/mean`` when
    there is no KL penalty, ``perf/time_per_step`` = ``timing_s/step``) is left out: drawn on top, it would
    hide the first. `series_label` names both on the kept line.
    """
    all_keys = sorted({k for r in rows for k in r if k != "step"})
    panels: dict[str, list[str]] = {}
    for title, patterns in PANELS.items():
        keys = list(dict.fromkeys(k for pat in patterns for k in all_keys if re.search(pat, k)))
        kept: list[str] = []
        for key in keys:
            if not any(series(rows, key) == series(rows, k) for k in kept):
                kept.append(key)
        panels[title] = kept[:MAX_SERIES]
    return panels


def series_label(rows: list[dict[str, Any]], title: str, key: str) -> str:
    """``key``, plus `` = other`` for each key of the panel that `panel_keys` dropped as its duplicate."""
    same = [k for k in sorted({k for r in rows for k in r if k != "step"})
            if k != key and any(re.search(p, k) for p in PANELS[title]) and series(rows, k) == series(rows, key)]
    return " = ".join([key, *same])


def _magnitude(rows: list[dict[str, Any]], key: str) -> float:
    ys = [abs(y) for y in _finite(series(rows, key)[1])]
    return statistics.median(ys) if ys else 0.0


def _smaller_series(rows: list[dict[str, Any]], keys: list[str]) -> list[str]:
    """Keys whose series is more than `LOG_AXIS_RATIO` times smaller than the largest one (median sizes)."""
    sizes = {k: _magnitude(rows, k) for k in keys}
    top = max(sizes.values(), default=0.0)
    return [k for k in keys if top > 0 and sizes[k] * LOG_AXIS_RATIO < top]


def _draw_panel(ax: Any, rows: list[dict[str, Any]], title: str, keys: list[str]) -> None:
    """Plot a panel's series; series of very different size get a log axis (all positive) or a right axis."""
    ax.set_title(title)
    ax.set_xlabel("step")
    ax.grid(alpha=0.3)
    if not keys:
        ax.text(0.5, 0.5, ABSENT_NOTE.get(title, "not logged"), ha="center", va="center", transform=ax.transAxes,
                color="gray")
        ax.set_xticks([])
        ax.set_yticks([])
        return
    small = _smaller_series(rows, keys)
    positive = all(y > 0 for k in keys for y in _finite(series(rows, k)[1]))
    right = ax.twinx() if small and not positive else None
    handles = []
    for i, key in enumerate(keys):
        xs, ys = series(rows, key)
        target = right if right is not None and key in small else ax
        handles += target.plot(xs, ys, marker="." if len(xs) < 30 else None, color=f"C{i}",
                               label=series_label(rows, title, key) + (" (right axis)" if target is right else ""))
    if small and positive:
        ax.set_yscale("log")
    ax.legend(handles=handles, fontsize=8)


def overview_figure(rows: list[dict[str, Any]]) -> Any:
    """One matplotlib figure with every `PANELS` panel on its own axes (unused grid cells hidden)."""
    panels = panel_keys(rows)
    n_rows = math.ceil(len(panels) / PANEL_COLUMNS)
    fig, axes = pyplot().subplots(n_rows, PANEL_COLUMNS, figsize=(4.2 * PANEL_COLUMNS, 3.6 * n_rows), squeeze=False)
    for ax, (title, keys) in zip(axes.flat, panels.items(), strict=False):
        _draw_panel(ax, rows, title, keys)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def _plot(rows: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    pngs = [save_figure(overview_figure(rows), out_dir / "overview.png")]
    for title, keys in panel_keys(rows).items():
        single, sax = pyplot().subplots(figsize=(6, 4))
        _draw_panel(sax, rows, title, keys)
        name = re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_") + ".png"
        pngs.append(save_figure(single, out_dir / name))
    return pngs


def _html(report: Report) -> str:
    # one image per panel, embedded (the page stays a single file) and large enough to read its legend;
    # overview.png holds them all in one picture
    imgs = "".join(f'<img src="data:image/png;base64,{base64.b64encode(p.read_bytes()).decode("ascii")}" '
                   f'alt="{html.escape(p.stem)}">' for p in report.pngs[1:])
    rows = "".join(
        f"<tr class='{f.status.replace('/', '')}'><td>{html.escape(f.name)}</td><td>{f.status}</td>"
        f"<td>{html.escape(f.detail)}</td></tr>" for f in report.flags)
    summary = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(str(v))}</td></tr>"
                      for k, v in report.summary.items())
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>verl run report</title>
<style>body{{font-family:sans-serif;margin:2em}}td{{padding:2px 10px}}tr.warn{{background:#fdd}}
tr.ok{{background:#dfd}}tr.na{{color:#888}}table{{border-collapse:collapse}}
.curves{{display:flex;flex-wrap:wrap;gap:8px}}.curves img{{width:calc(33% - 8px);min-width:360px}}</style></head><body>
<h1>Run report: {html.escape(report.run_dir.name)}</h1>
<p>{report.steps} logged steps from <code>{html.escape(str(report.source))}</code></p>
<h2>Warning signs</h2><table><tr><th>check</th><th>status</th><th>detail</th></tr>{rows}</table>
<h2>Curves</h2><div class="curves">{imgs}</div>
<p>All panels in one picture: <code>overview.png</code></p>
<h2>Last values</h2><table>{summary}</table></body></html>
"""


def build_report(run_dir: str | os.PathLike[str], out: str | os.PathLike[str] | None = None) -> Report:
    """Plot a run's metrics and evaluate the warning signs; write PNGs, ``report.html``, ``flags.json``.

    Args:
        run_dir: a ``verifiers-train run`` directory (or any folder with ``metrics.jsonl``).
        out: where to write; default ``RUN_DIR/report``.

    Raises:
        DataError: no metrics file, or no metric rows in it.
    """
    root = Path(run_dir)
    if root.is_file():
        rows, source = read_metrics(root), root
        root = root.parent
    else:
        rows, files = read_run_metrics(root)
        source = files[-1] if files else root / CONSOLE_METRICS
    if not rows:
        raise DataError(f"no metrics in {root}: expected verl_metrics.jsonl or metrics.jsonl from "
                        "`verifiers-train run` (is the run still starting?)")
    out_dir = Path(out) if out else root / "report"
    out_dir.mkdir(parents=True, exist_ok=True)
    flags = check_flags(rows)
    pngs = _plot(rows, out_dir)
    last = rows[-1]
    summary = {k: last[k] for k in sorted(last) if k == "step" or any(
        re.search(p, k) for pats in PANELS.values() for p in pats)}
    report = Report(root, source, len(rows), flags, pngs, out_dir / "report.html", summary)
    report.html.write_text(_html(report), encoding="utf-8")
    (out_dir / "flags.json").write_text(json.dumps([asdict(f) for f in flags], indent=2) + "\n", encoding="utf-8")
    return report
