"""``verifiers data fetch``: the files ``VERIFIERS_DATA_DIR`` expects, from their public origins, pinned by sha256.

Every file has one or more sources, tried in order; each must give exactly the pinned bytes (size and
sha256), so a fetched folder is the one the tests and the README's numbers were made with:

- ``gsm8k/{train,test}.jsonl``: byte copies from ``openai/grade-school-math``; else rebuilt from the hub's
  ``openai/gsm8k`` parquet (one ``json.dumps`` line per row, needs pyarrow).
- ``math/math500.jsonl``: the hub's ``HuggingFaceH4/MATH-500`` ``test.jsonl``; else ``openai/prm800k``'s
  ``math_splits/test.jsonl`` (Git LFS).
- ``math/test.jsonl``: rebuilt from the original MATH release's per-problem files as ``math/SOURCE.md`` of
  the shared data describes: one line per test problem, MATH-500's answer where it has one, else the last
  ``\\boxed{}`` of the solution (one answer set by hand). The files come from the GitHub archive of
  ``aiwaves-cn/agents`` (an unmodified copy of the release, the one the pinned file was built from); else
  from the release itself (``MATH.tar``, Hendrycks et al.).
- ``mbpp/mbpp.jsonl`` and ``mbpp/sanitized-mbpp.json``: ``google-research/google-research``'s ``mbpp/``;
  else an unmodified mirror (its pretty-printed ``sanitized-mbpp.json`` is written back compact).
- ``humaneval/HumanEval.jsonl``: ``openai/human-eval``'s ``data/HumanEval.jsonl.gz``, decompressed.

Each origin's base URL can be changed with an environment variable (`BASES`), e.g. for a mirror or a test
server: ``HF_ENDPOINT``, ``VERIFIERS_GITHUB_RAW_URL``, ``VERIFIERS_GITHUB_MEDIA_URL``,
``VERIFIERS_GITHUB_ARCHIVE_URL``, ``VERIFIERS_MATH_ARCHIVE_URL``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import tarfile
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verifiers.download import (
    DEFAULT_TIMEOUT,
    ChecksumError,
    LineProgress,
    Progress,
    download,
    part_path,
    sha256_of,
)
from verifiers.errors import DataError, VerifiersError
from verifiers.extras import MissingExtraError, require

__all__ = ["BASES", "CATALOG", "TASKS", "DataFile", "Fetched", "Source", "base_url", "default_out", "fetch", "fetch_task",
           "math_test_from_archive"]

# origin -> (environment variable, default base URL)
BASES: dict[str, tuple[str, str]] = {
    "hub": ("HF_ENDPOINT", "https://huggingface.co"),
    "github": ("VERIFIERS_GITHUB_RAW_URL", "https://raw.githubusercontent.com"),
    "github-lfs": ("VERIFIERS_GITHUB_MEDIA_URL", "https://media.githubusercontent.com/media"),
    "github-archive": ("VERIFIERS_GITHUB_ARCHIVE_URL", "https://codeload.github.com"),
    "math-archive": ("VERIFIERS_MATH_ARCHIVE_URL", "https://people.eecs.berkeley.edu/~hendrycks"),
}
_DOWNLOADS = ".downloads"  # inputs of rebuilt files, under the output folder until the file is built


def base_url(origin: str) -> str:
    """The base URL of ``origin`` (a key of `BASES`): its environment variable, else the public default."""
    var, default = BASES[origin]
    return (os.environ.get(var) or default).rstrip("/")


Build = Callable[[Path, Path], bytes]


@dataclass(frozen=True)
class Source:
    """One place a file can come from.

    Attributes:
        origin: a key of `BASES`.
        path: the rest of the URL after the base.
        build: ``None`` when the bytes are the file; else ``build(downloaded, out_dir)`` returns the file's bytes.
        sha256: the pinned digest of the downloaded bytes when they are a build's input (else unchecked
            until the built file is checked).
        size: their size in bytes, when known.
        how: what the source is, for ``--json`` and the summary.
    """

    origin: str
    path: str
    build: Build | None = None
    sha256: str | None = None
    size: int | None = None
    how: str = "byte copy"

    def url(self) -> str:
        """The full URL, with the base read from the environment now."""
        return f"{base_url(self.origin)}/{self.path}"


@dataclass(frozen=True)
class DataFile:
    """A file of the data folder: its path under the folder, pinned sha256 and size, and its sources in order."""

    path: str
    sha256: str
    size: int
    sources: tuple[Source, ...]


@dataclass
class Fetched:
    """What `fetch` did for one file."""

    path: str
    status: str  # "fetched" or "present"
    bytes: int
    sha256: str
    url: str | None = None
    how: str | None = None
    seconds: float = 0.0
    failed_sources: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return dict(self.__dict__)


# --- builds: from a downloaded input to the file's exact bytes ---------------------------------------------------

def _gunzip(src: Path, out_dir: Path) -> bytes:
    try:
        return gzip.decompress(src.read_bytes())
    except (OSError, EOFError, zlib.error) as e:
        raise DataError(f"{src.name}: not a gzip file ({e})") from None


def _compact_json(src: Path, out_dir: Path) -> bytes:
    try:
        return json.dumps(json.loads(src.read_bytes())).encode()
    except ValueError as e:
        raise DataError(f"{src.name}: not valid JSON ({e})") from None


def _parquet_lines(*columns: str) -> Build:
    def build(src: Path, out_dir: Path) -> bytes:
        pq = require("pyarrow.parquet", "eval", "rebuilding a file from the hub's parquet")
        try:
            rows = pq.read_table(src, columns=list(columns)).to_pylist()
        except (ValueError, OSError, KeyError) as e:  # pyarrow's errors for a bad file or a missing column
            raise DataError(f"{src.name}: {type(e).__name__}: {e}") from None
        return "".join(json.dumps({c: r[c] for c in columns}) + "\n" for r in rows).encode()

    return build


# The one MATH test answer not taken from the last box (math/SOURCE.md): that solution uses \boxed{n} as the
# problem's own operator and says it does not box its final answer, 6.
MATH_ANSWER_FIXES = {"test/prealgebra/177.json": "6"}
_MATH_MEMBER = re.compile(r"(?:^|/)test/([a-z_]+)/(\d+\.json)$")
_LEVEL = re.compile(r"Level (\d)")


def _last_box(text: str) -> str | None:
    """Content of the last ``\\boxed{...}`` or ``\\fbox{...}``, braces matched, unstripped; ``None`` if none."""
    start = max(text.rfind("\\boxed{"), text.rfind("\\fbox{"))
    if start < 0:
        return None
    i = text.index("{", start) + 1
    depth, j = 1, i
    while j < len(text):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i:j]
        j += 1
    return None


def math_test_from_archive(problems: Iterable[tuple[str, dict[str, Any]]], math500: Sequence[dict[str, Any]]) -> bytes:
    """``math/test.jsonl``'s bytes from the MATH release's test problems and MATH-500's rows.

    Args:
        problems: ``(unique_id, record)`` pairs, ``unique_id`` like ``test/algebra/1.json`` and the record the
            release's JSON (``problem``, ``level`` "Level N", ``type``, ``solution``); any order.
        math500: the rows of ``math500.jsonl``, whose ``answer`` is used for their problems.
    """
    answers = {r["unique_id"]: r["answer"] for r in math500}
    lines = []
    for uid, rec in sorted(problems, key=lambda p: tuple(p[0].split("/")[1:])):
        level = _LEVEL.fullmatch(str(rec.get("level", "")))
        answer = answers.get(uid) or MATH_ANSWER_FIXES.get(uid) or _last_box(str(rec.get("solution", "")))
        if level is None or answer is None or not all(k in rec for k in ("problem", "type", "solution")):
            raise DataError(f"MATH {uid}: not a complete test record (level {rec.get('level')!r}, boxed answer "
                            f"{'found' if answer is not None else 'missing'})")
        lines.append(json.dumps({"problem": rec["problem"], "solution": rec["solution"], "answer": answer,
                                 "subject": rec["type"], "level": int(level.group(1)), "unique_id": uid}) + "\n")
    return "".join(lines).encode()


def _math_archive(src: Path, out_dir: Path) -> bytes:
    math500_path = out_dir / "math" / "math500.jsonl"
    if not math500_path.is_file():
        raise DataError(f"rebuilding math/test.jsonl needs {math500_path} (fetched first with --task math)")
    math500 = [json.loads(line) for line in math500_path.read_text(encoding="utf-8").splitlines() if line]
    problems = []
    try:
        with tarfile.open(src, "r:*") as tar:
            for member in tar:
                m = _MATH_MEMBER.search(member.name)
                if not m or not member.isfile() or m.group(2).startswith("._"):
                    continue
                f = tar.extractfile(member)
                if f is not None:
                    problems.append((f"test/{m.group(1)}/{m.group(2)}", json.loads(f.read().decode("utf-8"))))
    except (tarfile.TarError, OSError, EOFError, ValueError) as e:
        raise DataError(f"{src.name}: not the MATH archive ({type(e).__name__}: {e})") from None
    if not problems:  # the count and content are checked by the built file's sha256
        raise DataError(f"{src.name}: no test/<subject>/<n>.json problems; not the MATH archive")
    return math_test_from_archive(problems, math500)


# --- the catalog -------------------------------------------------------------------------------------------------

_GSM8K = "openai/grade-school-math/3101c7d5072418e28b9008a6636bde82a006892c/grade_school_math/data"
_MBPP = "google-research/google-research/30adf0ec5f35f9609c2f1d896005e184195d9146/mbpp"
_MBPP_MIRROR = "patdfb/TPC-EES/7036e20c0ff3e9bcc2de60545dadd8c705599ecf/mbpp"
_PRM800K = "openai/prm800k/7ecc794703b2877f63226f2477a49b34f9b25163/prm800k/math_splits"
_AGENTS = "e8c4e3c2d19739d3dff59e577d1c97090cc15f59"  # aiwaves-cn/agents: src/agents/datasets/data/math/
_HUMANEVAL = "openai/human-eval/6d43fb980f9fee3c892a914eda09951f772ad10d/data"


def _gsm8k(split: str, sha256: str, size: int) -> DataFile:
    return DataFile(f"gsm8k/{split}.jsonl", sha256, size, (
        Source("github", f"{_GSM8K}/{split}.jsonl"),
        Source("hub", f"datasets/openai/gsm8k/resolve/main/main/{split}-00000-of-00001.parquet",
               _parquet_lines("question", "answer"), how="rebuilt from the hub's parquet")))


CATALOG: dict[str, tuple[DataFile, ...]] = {
    "gsm8k": (
        _gsm8k("train", "17f347dc51477c50d4efb83959dbb7c56297aba886e5544ee2aaed3024813465", 4166206),
        _gsm8k("test", "3730d312f6e3440559ace48831e51066acaca737f6eabec99bccb9e4b3c39d14", 749738),
    ),
    "math": (  # math500 first: the rebuilt test.jsonl takes its answers
        DataFile("math/math500.jsonl", "35dc41080a3680858b27fa7e0533d2d547825316fc5dafe5d316f4ccc5a06132", 446564, (
            Source("hub", "datasets/HuggingFaceH4/MATH-500/resolve/main/test.jsonl"),
            Source("github-lfs", f"{_PRM800K}/test.jsonl"))),
        DataFile("math/test.jsonl", "87113244466dd1b8b8d0073d9b8d927a5b18e1678155773703504010129cf327", 4376894, (
            # an unmodified copy of the release's files, checked to rebuild the pinned bytes; then the release
            Source("github-archive", f"aiwaves-cn/agents/tar.gz/{_AGENTS}", _math_archive,
                   how="rebuilt from a copy of the MATH release's files"),
            Source("math-archive", "MATH.tar", _math_archive, how="rebuilt from the MATH release"))),
    ),
    "mbpp": (
        DataFile("mbpp/mbpp.jsonl", "ccf64ceae9c5403bf50a044cb6d505bfd2a2963ee58338ba268fd65beab92a9f", 563743, (
            Source("github", f"{_MBPP}/mbpp.jsonl"),
            Source("github", f"{_MBPP_MIRROR}/mbpp.jsonl", how="byte copy (mirror)"))),
        DataFile("mbpp/sanitized-mbpp.json", "ca95deaa9a01ef0a6f439f88bcf0dd3db3563d22f22aad6cae04ebb9a8d8c8e9", 255053, (
            Source("github", f"{_MBPP}/sanitized-mbpp.json"),
            Source("github", f"{_MBPP_MIRROR}/sanitized-mbpp.json", _compact_json,
                   how="rebuilt compact from a mirror"))),
    ),
    "humaneval": (
        DataFile("humaneval/HumanEval.jsonl", "1d49078ba3e2b196b9344535bef34a43021f038fad9561d6ee7c53450609a6a2",
                 214438, (
                     Source("github", f"{_HUMANEVAL}/HumanEval.jsonl.gz", _gunzip,
                            "b796127e635a67f93fb35c04f4cb03cf06f38c8072ee7cee8833d7bee06979ef", 44877,
                            how="decompressed"),)),
    ),
}
TASKS = (*CATALOG, "all")


def fetch_task(path: str) -> str | None:
    """The ``--task`` of `fetch` that writes ``path`` (``math/test.jsonl`` -> ``math``), or ``None``."""
    return next((name for name, files in CATALOG.items() if any(f.path == path for f in files)), None)


def default_out() -> Path:
    """``$VERIFIERS_DATA_DIR`` if set, else ``./data``."""
    return Path(os.environ.get("VERIFIERS_DATA_DIR") or "data")


def fetch(tasks: Sequence[str], out: Path, *, catalog: dict[str, tuple[DataFile, ...]] | None = None,
          timeout: float = DEFAULT_TIMEOUT, progress: Progress | None = None, force: bool = False,
          log: Callable[[str], None] | None = None) -> list[Fetched]:
    """Fetch the files of ``tasks`` (``all``: every task) into ``out``; a file already there and verified is kept.

    Args:
        tasks: names from `TASKS`.
        out: the data folder (created).
        catalog: the files and their sources (default `CATALOG`).
        timeout: seconds to wait for a connection or the next bytes.
        progress: download progress (default: plain lines on stderr).
        force: replace a file that is there but is not the pinned one (else that is an error).
        log: where one line per file goes (default: nowhere).

    Raises:
        DataError: an unknown task, a file there that differs (without ``force``), or a file none of whose
            sources could be read and verified (one line naming each URL tried).
    """
    catalog = CATALOG if catalog is None else catalog
    names: list[str] = []
    for t in tasks:
        if t != "all" and t not in catalog:
            raise DataError(f"unknown task {t!r}; choose one of {', '.join([*catalog, 'all'])}")
        names += [n for n in (catalog if t == "all" else [t]) if n not in names]
    progress = progress or LineProgress()
    say = log or (lambda _s: None)
    done = []
    try:
        for name in names:
            for f in catalog[name]:
                result = _fetch_file(f, out, timeout, progress, force)
                say(f"{f.path}: {'already there, verified' if result.status == 'present' else result.how} "
                    f"({result.bytes:,} bytes)")
                done.append(result)
    finally:
        downloads = out / _DOWNLOADS
        if downloads.is_dir() and not any(downloads.iterdir()):
            downloads.rmdir()
    return done


def _fetch_file(f: DataFile, out: Path, timeout: float, progress: Progress, force: bool) -> Fetched:
    dest = out / f.path
    if dest.is_file():
        digest = sha256_of(dest)
        if digest == f.sha256:
            return Fetched(f.path, "present", dest.stat().st_size, digest)
        if not force:
            raise DataError(f"{dest} is there but is not the pinned file (sha256 {digest[:12]}..., expected "
                            f"{f.sha256[:12]}...); pass --force to replace it")
    elif dest.exists():
        raise DataError(f"{dest} is there and is not a file")
    failed: list[str] = []
    for source in f.sources:
        url = source.url()
        start = time.monotonic()
        try:
            if source.build is None:
                download(url, dest, sha256=f.sha256, size=f.size, timeout=timeout, progress=progress, label=f.path)
            else:
                _build(source, url, dest, out, f, timeout, progress)
        except VerifiersError as e:  # a local OSError (disk full, no permission) stops here, as it should
            failed.append(str(e) if url in str(e) else f"{url}: {e}")
            continue
        return Fetched(f.path, "fetched", f.size, f.sha256, url, source.how, round(time.monotonic() - start, 3),
                       failed)
    raise DataError(f"could not fetch {f.path}: " + "; ".join(failed))


def _build(source: Source, url: str, dest: Path, out: Path, f: DataFile, timeout: float, progress: Progress) -> None:
    """Download ``source``'s input, build the file from it, verify and rename it into place."""
    stem = dest.parent.name + "-" + url.rsplit("/", 1)[-1]
    src = out / _DOWNLOADS / stem
    if not src.is_file():
        download(url, src, sha256=source.sha256, size=source.size, timeout=timeout, progress=progress,
                 label=f"{f.path} <- {stem.split('-', 1)[1]}")
    try:
        data = source.build(src, out)  # type: ignore[misc]
    except MissingExtraError:
        raise  # the input is fine: kept for the run after the extra is installed
    except VerifiersError:
        src.unlink(missing_ok=True)  # a bad input is fetched again next time
        raise
    digest = hashlib.sha256(data).hexdigest()
    if len(data) != f.size or digest != f.sha256:
        src.unlink(missing_ok=True)
        raise ChecksumError(f"{url}: {source.how}, the file has sha256 {digest[:12]}... ({len(data)} bytes), not "
                            f"the pinned {f.sha256[:12]}... ({f.size} bytes); refused (nothing written)")
    part = part_path(dest)
    part.parent.mkdir(parents=True, exist_ok=True)
    part.write_bytes(data)
    os.replace(part, dest)
    src.unlink(missing_ok=True)
