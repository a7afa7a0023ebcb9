"""matplotlib without a display, shared by the training report and the evaluation reports.

Conventions every chart here keeps: each bar carries its value (a bar of 2 among 1,600 is readable),
a chart of one bar is not drawn (callers show the value as text), and a histogram's x range is fitted to
the data (`fitted_range`), not to a configured maximum.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["bar_chart", "fitted_range", "have_matplotlib", "integer_bins", "pyplot", "save_figure"]


def have_matplotlib() -> bool:
    """Whether plots can be drawn: a bare GPU host may lack matplotlib, and the numbers matter more."""
    return importlib.util.find_spec("matplotlib") is not None


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend: training and GPU hosts have no display."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path) -> Path:
    """Lay ``fig`` out, write it to ``path`` as a 100-dpi PNG and close it; returns ``path``."""
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    pyplot().close(fig)
    return path


def bar_chart(labels: Sequence[str], values: Sequence[float], path: Path, *, title: str, ylabel: str = "",
              label: Callable[[float], str] = lambda v: f"{v:,g}", color: str = "#4c72b0",
              top: float | None = None) -> Path | None:
    """Bars from 0, each labelled with ``label(value)``; ``None`` (nothing written) for fewer than two bars.

    Args:
        labels: one category name per bar.
        values: the bar heights.
        path: where the PNG goes.
        title: the chart's title.
        ylabel: the value axis label.
        label: the text written above each bar.
        color: the bars' color.
        top: the y-axis top (default: the highest bar plus room for its label).
    """
    if len(labels) != len(values):
        raise ValueError(f"{len(labels)} labels for {len(values)} values")
    if len(labels) < 2:
        return None
    fig, ax = pyplot().subplots(figsize=(5, 3.5))
    bars = ax.bar(list(labels), list(values), color=color)
    ax.bar_label(bars, labels=[label(v) for v in values], padding=2, fontsize=9)
    highest = max((v for v in values if math.isfinite(v)), default=0.0)
    ax.set_ylim(0, top if top is not None else (highest * 1.15 or 1.0))
    ax.set_title(title)
    if ylabel:
        ax.set_ylabel(ylabel)
    if len(labels) > 3 or max(len(x) for x in labels) > 10:
        ax.tick_params(axis="x", rotation=30)
    return save_figure(fig, path)


def fitted_range(values: Sequence[float], *, tail: float = 0.02, readable: float = 40.0) -> tuple[float, float]:
    """An x range for a histogram of ``values``: their min to max, unless a few outliers stretch it.

    The central part runs from the ``tail`` to the ``1 - tail`` quantile (2nd to 98th percentile). A side
    whose outliers reach further beyond it than the central part is wide ends at the last value within that
    distance, so one 1,024-token response does not squeeze the bulk into a corner; a range no wider than ``readable`` is
    kept whole. Callers say how many values fall outside.

    Raises:
        ValueError: no finite value.
    """
    data = sorted(v for v in values if math.isfinite(v))
    if not data:
        raise ValueError("no finite values to fit a range to")
    lo, hi = data[0], data[-1]
    if hi - lo <= readable:
        return lo, hi
    k = int(tail * (len(data) - 1))
    p_lo, p_hi = data[k], data[len(data) - 1 - k]
    central = max(p_hi - p_lo, 1.0)
    # the range ends at the last value within one central width of the quantile: the natural tail stays
    return (min(v for v in data if v >= p_lo - central), max(v for v in data if v <= p_hi + central))


def integer_bins(lo: float, hi: float, max_bins: int = 40) -> list[float]:
    """Bin edges for integer data in ``[lo, hi]``: whole-number widths centred on the integers (no empty
    slivers between counts, as 30 bins over 20 distinct values would leave)."""
    first, last = math.floor(lo), math.ceil(hi)
    width = max(1, math.ceil((last - first + 1) / max_bins))
    edges = [first - 0.5 + i * width for i in range((last - first) // width + 2)]
    return edges
