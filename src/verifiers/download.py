"""Download one URL to one file: resumable, verified, atomic. Standard library only (``urllib``).

The bytes go to ``DEST.part`` first. A later call continues that file with an HTTP ``Range`` request (a
server that ignores the range sends the whole file, which then replaces the part), checks the size and
sha256 when they are known, and only then renames the part to ``DEST`` (`os.replace`): an interrupted
download never leaves a half file under the final name.

Example:
    >>> download("https://example.org/x.jsonl", Path("x.jsonl"), sha256="ab12...")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol
from urllib.parse import urlsplit

from verifiers.errors import DataError

__all__ = ["CONNECT_TIMEOUT", "DEFAULT_TIMEOUT", "ChecksumError", "DownloadError", "LineProgress", "Progress", "download",
           "make_progress", "part_path", "sha256_of"]

DEFAULT_TIMEOUT = 20.0
CONNECT_TIMEOUT = 5.0  # a host that drops packets is reported after this long, not after the read timeout
_CHUNK = 1 << 16
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")
_UNSATISFIABLE = re.compile(r"bytes \*/(\d+)")


class DownloadError(DataError):
    """A source could not be read (unreachable, HTTP error, cut short); the message names the URL."""


class ChecksumError(DownloadError):
    """The bytes read do not have the pinned size or sha256; nothing was written under the final name."""


class Progress(Protocol):
    """What `download` reports to: one file at a time."""

    def start(self, label: str, total: int | None, done: int) -> None:
        """A file begins (``done`` bytes already there from an earlier run)."""

    def advance(self, n: int) -> None:
        """``n`` more bytes arrived."""

    def finish(self, note: str) -> None:
        """The file is complete (or failed); ``note`` says how."""


@dataclass
class LineProgress:
    """Plain progress lines on a stream: one when a file starts, one every ``every`` seconds, one at the end."""

    stream: IO[str] | None = None
    every: float = 5.0
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        self._label, self._total, self._done, self._last = "", None, 0, 0.0
        self._total_known: int | None = None

    def _say(self, text: str) -> None:
        print(text, file=self.stream or sys.stderr, flush=True)

    def start(self, label: str, total: int | None, done: int) -> None:
        """Print what starts, its size and how much an earlier run left."""
        self._label, self._total_known, self._done, self._last = label, total, done, self.clock()
        size = f" ({_mb(total)})" if total else ""
        again = f", continuing at {_mb(done)}" if done else ""
        self._say(f"{label}{size}{again}")

    def advance(self, n: int) -> None:
        """Count ``n`` bytes; print a line when ``every`` seconds have passed."""
        self._done += n
        now = self.clock()
        if now - self._last >= self.every:
            self._last = now
            of = f"/{_mb(self._total_known)}" if self._total_known else ""
            self._say(f"  {self._label}: {_mb(self._done)}{of}")

    def finish(self, note: str) -> None:
        """Print how the file ended."""
        self._say(f"  {self._label}: {note}")


class _RichProgress:
    """A rich bar per file on stderr (only on a terminal, only when rich is installed)."""

    def __init__(self) -> None:
        import rich.console
        import rich.progress

        self._rich = rich.progress
        self._console = rich.console.Console(stderr=True)
        self._bar: rich.progress.Progress | None = None
        self._task: rich.progress.TaskID | None = None

    def start(self, label: str, total: int | None, done: int) -> None:
        """A new bar for ``label``."""
        p = self._rich
        self._bar = p.Progress(p.TextColumn("{task.description}"), p.BarColumn(), p.DownloadColumn(),
                               p.TransferSpeedColumn(), p.TimeRemainingColumn(), console=self._console)
        self._task = self._bar.add_task(label, total=total, completed=done)
        self._bar.start()

    def advance(self, n: int) -> None:
        """Move the bar."""
        if self._bar is not None and self._task is not None:
            self._bar.advance(self._task, n)

    def finish(self, note: str) -> None:
        """Stop the bar (it stays on screen) and say how the file ended."""
        if self._bar is not None:
            self._bar.stop()
            self._bar.console.print(f"  {note}")
            self._bar = None


def make_progress(mode: str = "auto") -> Progress:
    """``auto``: a rich bar on a terminal (stderr) when rich is installed, else plain lines; ``lines``: lines."""
    if mode == "auto" and sys.stderr.isatty():
        try:
            return _RichProgress()
        except ImportError:
            pass
    return LineProgress()


def _mb(n: int | None) -> str:
    return "?" if n is None else f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n / 1e3:.1f} kB"


def sha256_of(path: Path) -> str:
    """The sha256 of a file, hex."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def part_path(dest: Path) -> Path:
    """Where the bytes of ``dest`` gather until they are complete and verified."""
    return dest.with_name(dest.name + ".part")


def _user_agent() -> str:
    import verifiers

    return f"verifiers/{verifiers.__version__} (data fetch; python-urllib)"


def _probe(url: str, timeout: float) -> None:
    """Fail fast (one TCP connect, to the proxy if one is configured) when ``url``'s host cannot be reached."""
    parts = urlsplit(url)
    proxy = urllib.request.getproxies().get(parts.scheme)
    if proxy and not urllib.request.proxy_bypass(parts.hostname or ""):
        parts = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    host, port = parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)
    try:
        socket.create_connection((host, port), timeout=min(timeout, CONNECT_TIMEOUT)).close()
    except OSError as e:
        raise DownloadError(f"{url}: cannot connect to {host}:{port} ({_reason(e)})") from None


def _open(url: str, start: int, timeout: float) -> tuple[object, int, int | None]:
    """(response, offset the body starts at, total size or None); offset 0 means the whole file."""
    headers = {"User-Agent": _user_agent()}
    if start:
        headers["Range"] = f"bytes={start}-"
    request = urllib.request.Request(url, headers=headers)
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as e:
        if e.code == 416 and start:  # asked past the end: the part may already be whole
            m = _UNSATISFIABLE.fullmatch(e.headers.get("Content-Range", "") or "")
            e.close()
            if m and int(m.group(1)) == start:
                return None, start, start
            return _open(url, 0, timeout)
        raise DownloadError(f"{url}: HTTP {e.code} {e.reason}") from None
    except urllib.error.URLError as e:
        raise DownloadError(f"{url}: {_reason(e.reason)}") from None
    except (TimeoutError, OSError) as e:
        raise DownloadError(f"{url}: {_reason(e)}") from None
    if response.status == 206:
        m = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", "") or "")
        if not m or int(m.group(1)) != start:
            response.close()
            return _open(url, 0, timeout)  # a range we did not ask for: start over
        return response, start, None if m.group(3) == "*" else int(m.group(3))
    length = response.headers.get("Content-Length")
    return response, 0, int(length) if length and length.isdigit() else None


def _reason(e: object) -> str:
    if isinstance(e, TimeoutError) or "timed out" in str(e):
        return "timed out"
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__


def download(url: str, dest: Path, *, sha256: str | None = None, size: int | None = None,
             timeout: float = DEFAULT_TIMEOUT, progress: Progress | None = None, label: str | None = None) -> Path:
    """Fetch ``url`` into ``dest`` (resuming ``dest.part``), verify it, then rename it into place.

    Args:
        url: an ``http(s)://`` URL.
        dest: the final path; its folder is created.
        sha256: the expected hex digest, or ``None`` when unknown (then only the size is checked).
        size: the expected size in bytes, or ``None``.
        timeout: seconds to wait for a connection or for the next bytes.
        progress: where to report (default: plain lines on stderr).
        label: the name shown in progress (default: ``dest``'s name).

    Raises:
        DownloadError: the source cannot be read (one line naming ``url``).
        ChecksumError: the bytes have another size or sha256 (nothing is left under ``dest``).
    """
    progress = progress or LineProgress()
    part = part_path(dest)
    resumed = part.is_file() and part.stat().st_size > 0
    try:
        _fill(url, part, size, timeout, progress, label or dest.name)
        _verify(url, part, sha256, size)
    except ChecksumError:
        part.unlink(missing_ok=True)
        if not resumed:
            raise
        # the part came from an earlier run (perhaps of an older file): once more from the start
        _fill(url, part, size, timeout, progress, label or dest.name)
        try:
            _verify(url, part, sha256, size)
        except ChecksumError:
            part.unlink(missing_ok=True)
            raise
    os.replace(part, dest)
    return dest


def _fill(url: str, part: Path, size: int | None, timeout: float, progress: Progress, label: str) -> None:
    """Append the missing bytes of ``url`` to ``part`` (or rewrite it when the server sends the whole file)."""
    have = part.stat().st_size if part.is_file() else 0
    if size is not None and have > size:
        part.unlink()
        have = 0
    if size is not None and have == size:
        return
    _probe(url, timeout)
    response, offset, total = _open(url, have, timeout)
    if response is None:  # already whole
        return
    progress.start(label, total if total is not None else size, offset)
    got = 0
    try:
        part.parent.mkdir(parents=True, exist_ok=True)
        with response, part.open("ab" if offset else "wb") as out:  # type: ignore[attr-defined]
            while True:
                try:
                    block = response.read1(_CHUNK)  # type: ignore[attr-defined]  # what has arrived
                except (TimeoutError, OSError) as e:
                    raise DownloadError(f"{url}: {_reason(e)} after {offset + got} bytes "
                                        "(run again to continue)") from None
                if not block:
                    break
                out.write(block)
                got += len(block)
                progress.advance(len(block))
    except BaseException:
        progress.finish("stopped")
        raise
    if total is not None and offset + got < total:
        progress.finish("cut short")
        raise DownloadError(f"{url}: connection closed after {offset + got} of {total} bytes (run again to continue)")
    progress.finish(f"{_mb(offset + got)} " + (f"(continued from {_mb(offset)})" if offset else "downloaded"))


def _verify(url: str, part: Path, sha256: str | None, size: int | None) -> None:
    n = part.stat().st_size
    if size is not None and n != size:
        raise ChecksumError(f"{url}: {n} bytes, expected {size}; refused (nothing written)")
    if sha256 is not None:
        digest = sha256_of(part)
        if digest != sha256:
            raise ChecksumError(f"{url}: sha256 {digest[:12]}... does not match the pinned {sha256[:12]}...; "
                                "refused (nothing written)")
