"""matplotlib without a display, shared by the training report and the evaluation reports."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

__all__ = ["have_matplotlib", "pyplot", "save_figure"]


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
