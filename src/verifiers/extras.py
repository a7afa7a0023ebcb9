"""Optional dependencies: a command that needs an extra says which, in one line, before it does anything.

The core install (``pip install .``) carries the scorers and the sandbox. The extras add the rest:

- ``eval``: rescoring saved generations, reports and plots (numpy, pyarrow, pandas, matplotlib, rich);
- ``train``: verl training and checkpoint generation (torch, verl, transformers, datasets, ray; includes ``eval``);
- ``trl``: the TRL ``GRPOTrainer`` reward functions and example (trl, torch, transformers).
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from verifiers.errors import VerifiersError

__all__ = ["MissingExtraError", "require", "require_installed"]


class MissingExtraError(VerifiersError, ImportError):
    """A module of an optional extra is not installed; the message names the extra and the pip command."""


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` or raise `MissingExtraError` naming ``extra``.

    Args:
        module: the importable name (``"pyarrow"``, ``"torch"``).
        extra: the extra that installs it (``"eval"``, ``"train"``, ``"trl"``).
        purpose: what needs it, for the message (``"verifiers-eval score"``).
    """
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise MissingExtraError(_message(module, extra, purpose)) from e


def require_installed(extra: str, purpose: str, *modules: str) -> None:
    """Fail fast, before a command writes anything, when one of ``modules`` of ``extra`` is not installed.

    Nothing is imported (a spec lookup): a command checks every module it will need up front, cheaply,
    and imports each where it is used.

    Raises:
        MissingExtraError: the first missing module, with the extra that installs it.
    """
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a parent package missing, or a broken half-import
            found = False
        if not found:
            raise MissingExtraError(_message(module, extra, purpose))


def _message(module: str, extra: str, purpose: str) -> str:
    return (f"{purpose} needs the '{extra}' extra ({module} is not installed): "
            f"pip install -e '.[{extra}]' in a clone of this project's repository (not pip install "
            f"'verifiers[{extra}]': the PyPI name 'verifiers' is another package)")
