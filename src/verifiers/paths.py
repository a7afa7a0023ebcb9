"""One wording for a path that is not what a command expects: ``no such file``, ``is a directory``, ...

`input_file` and `input_folder` check an input before it is opened; `os_error_message` words an `OSError`
raised anywhere else (an output path that is a directory, a folder without permission) the same way.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from verifiers.errors import DataError

__all__ = ["input_file", "input_folder", "os_error_message"]

_WORDS = {errno.ENOENT: "no such file or directory", errno.EISDIR: "is a directory",
          errno.ENOTDIR: "not a directory", errno.EACCES: "permission denied", errno.EPERM: "permission denied",
          errno.EEXIST: "already exists", errno.ENOSPC: "no space left on the device",
          errno.EROFS: "read-only file system"}


def input_file(path: str | os.PathLike[str]) -> Path:
    """``path`` as a `Path` when it is a readable file.

    Raises:
        DataError: ``no such file: PATH``, or ``is a directory: PATH (expected a file)``.
    """
    p = Path(path)
    if p.is_dir():
        raise DataError(f"is a directory: {p} (expected a file)")
    if not p.exists():
        raise DataError(f"no such file: {p}")
    return p


def input_folder(path: str | os.PathLike[str], what: str = "folder") -> Path:
    """``path`` as a `Path` when it is a directory (``what`` names it in the message: ``run folder``).

    Raises:
        DataError: ``no such WHAT: PATH``, or ``not a directory: PATH (expected a WHAT)``.
    """
    p = Path(path)
    if p.is_dir():
        return p
    if p.exists():
        raise DataError(f"not a directory: {p} (expected a {what})")
    raise DataError(f"no such {what}: {p}")


def os_error_message(e: OSError) -> str:
    """``is a directory: PATH`` and the like for an error naming a path; else the error's own text."""
    words = _WORDS.get(e.errno or 0)
    if words is None or e.filename is None:
        return str(e)
    second = f" -> {os.fsdecode(e.filename2)}" if e.filename2 is not None else ""
    return f"{words}: {os.fsdecode(e.filename)}{second}"
