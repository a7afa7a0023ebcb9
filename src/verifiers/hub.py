"""Whether a name given for a model or a dataset means the Hugging Face hub or a local path.

The rule, in order:

1. anything that exists here is local;
2. a hub name is exactly ``org/name`` (one ``/``, starting with a letter or digit), so ``./x``, ``../x``,
   ``/x``, ``~/x``, ``a/b/c`` and Windows paths are local;
3. ``org/name.jsonl`` / ``.json`` / ``.parquet`` is a local data file (no hub repository is named so);
4. ``org/name`` whose ``org`` is a folder here (``data/gsm8k`` with a ``data/`` folder) is local: that
   folder is what the user meant, and a typo in ``name`` should say "no such folder", not "the hub cannot be
   reached". Write ``./org/name`` to force a local path, or run elsewhere to force the hub.

Everything else that has the ``org/name`` shape is a hub name.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["LOCAL_DATA_SUFFIXES", "is_hub_name", "missing_local"]

_HUB_NAME = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
LOCAL_DATA_SUFFIXES = (".jsonl", ".json", ".parquet")


def is_hub_name(source: str) -> bool:
    """Whether ``source`` would be read from the Hugging Face hub (see the module's rule)."""
    if not _HUB_NAME.match(source) or source.endswith(LOCAL_DATA_SUFFIXES):
        return False
    path = Path(source).expanduser()
    return not path.exists() and not path.parent.is_dir()


def missing_local(source: str, what: str, kind: str = "folder") -> str | None:
    """``"no such KIND: SOURCE (WHAT)"`` when ``source`` is a local path that does not exist, else ``None``.

    Args:
        source: the value given (a path or a hub name).
        what: the flag or argument it came from, for the message (``--model``).
        kind: what was expected there: ``"folder"``, ``"file"`` or ``"file or folder"``.
    """
    if is_hub_name(source) or Path(source).expanduser().exists():
        return None
    return f"no such {kind}: {source} ({what})"
