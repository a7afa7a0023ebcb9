"""Read files of an upstream project at one commit, from a git checkout, a bare git dir or a plain copy."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path


class UpstreamError(Exception):
    """The upstream path or commit cannot be read (one line, for the command-line message)."""


@dataclass(frozen=True)
class Upstream:
    """An upstream project pinned at ``commit`` (a full sha when the path is a git repository)."""

    path: Path
    commit: str
    git_dir: Path | None

    @classmethod
    def open(cls, path: str | Path, commit: str | None) -> Upstream:
        """Pin ``path`` at ``commit`` (default ``HEAD``); a plain copy needs ``commit`` (attribution)."""
        p = Path(path).resolve()
        if not p.exists():
            raise UpstreamError(f"{p} does not exist")
        git_dir = _git_dir(p)
        if git_dir is None:
            if not commit:
                raise UpstreamError(f"{p} is not a git repository: pass --commit to say which commit it is")
            return cls(p, commit, None)
        sha = _git(git_dir, "rev-parse", "--verify", f"{commit or 'HEAD'}^{{commit}}").strip()
        return cls(p, sha, git_dir)

    def read(self, relpath: str) -> str:
        """The text of ``relpath`` at the pinned commit."""
        if self.git_dir is not None:
            return _git(self.git_dir, "show", f"{self.commit}:{relpath}")
        f = self.path / relpath
        if not f.is_file():
            raise UpstreamError(f"{relpath} not found under {self.path}")
        return f.read_text(encoding="utf-8")


def _git_dir(p: Path) -> Path | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(p), "rev-parse", "--absolute-git-dir"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    return Path(out)


def _git(git_dir: Path, *args: str) -> str:
    try:
        return subprocess.run(
            ["git", f"--git-dir={git_dir}", *args],
            capture_output=True,
            text=True,
            check=True,
            encoding="utf-8",
        ).stdout
    except subprocess.CalledProcessError as e:
        raise UpstreamError(f"git {' '.join(args)}: {e.stderr.strip()[:200]}") from None
