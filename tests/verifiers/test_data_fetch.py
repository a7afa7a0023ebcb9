"""``verifiers data fetch``, offline: a loopback HTTP server plays the hub and the raw origins.

The server serves files at the same paths as the real origins (``/openai/grade-school-math/<commit>/...``,
``/datasets/HuggingFaceH4/MATH-500/resolve/main/test.jsonl``, ...), honours ``Range`` (or ignores it, as some
servers do), can redirect (as the hub does to its CDN) and can stall mid-file. Small fixture files stand in
for the datasets, with the catalog's pins replaced by theirs; where the shared datasets are present, the real
catalog is fetched whole from them and must reproduce every pinned sha256.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import io
import json
import os
import re
import socket
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from verifiers import cli, data_fetch
from verifiers.data_fetch import BASES, CATALOG, DataFile, default_out, fetch, math_test_from_archive
from verifiers.download import DownloadError, LineProgress, download, part_path
from verifiers.errors import DataError

SRC = str(Path(__file__).resolve().parents[2] / "src")


class Origin(ThreadingHTTPServer):
    """A loopback file server: ``files`` by URL path, a log of (path, Range), optional stall and redirects."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.files: dict[str, bytes] = {}
        self.redirects: dict[str, str] = {}
        self.requests: list[tuple[str, str | None]] = []
        self.ranges = True
        self.stall_after: int | None = None  # send this many bytes of a body, then hang
        self.release = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: Origin

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        srv, path = self.server, self.path.split("?")[0]
        srv.requests.append((path, self.headers.get("Range")))
        if path in srv.redirects:
            self.send_response(302)
            self.send_header("Location", srv.redirects[path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = srv.files.get(path)
        if body is None:
            self.send_error(404, "Not Found")
            return
        start = 0
        m = re.fullmatch(r"bytes=(\d+)-", self.headers.get("Range") or "")
        if m and srv.ranges:
            start = int(m.group(1))
            if start >= len(body):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(body)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(body) - start))
        self.end_headers()
        rest = body[start:]
        if srv.stall_after is not None:
            self.wfile.write(rest[:srv.stall_after])
            self.wfile.flush()
            srv.release.wait(30)
            return
        self.wfile.write(rest)


@pytest.fixture
def origin(monkeypatch: pytest.MonkeyPatch) -> Iterator[Origin]:
    """A started server; every base URL of the catalog points at it."""
    srv = Origin()
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    for var, _ in BASES.values():
        monkeypatch.setenv(var, srv.url)
    yield srv
    srv.release.set()
    srv.shutdown()
    srv.server_close()


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def _jsonl(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def _path(url_path: str) -> str:
    return "/" + url_path


def _math_tar(problems: list[tuple[str, dict[str, Any]]], root: str = "MATH") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for uid, rec in problems:
            data = json.dumps(rec, indent=4).encode()
            info = tarfile.TarInfo(f"{root}/{uid}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        junk = b"not a problem"
        for name in (f"{root}/train/algebra/1.json", f"{root}/test/algebra/._2.json", f"{root}/README.txt"):
            info = tarfile.TarInfo(name)
            info.size = len(junk)
            tar.addfile(info, io.BytesIO(junk))
    return buf.getvalue()


GSM8K = {split: _jsonl([{"question": f"{split} q{i}? caf\u00e9", "answer": f"step <<1+1=2>>\n#### {i}"}
                        for i in range(3)]) for split in ("train", "test")}
MATH500 = [{"problem": "What is $1+1$?", "solution": "It is $\\boxed{2}$.", "answer": "2", "subject": "Algebra",
            "level": 1, "unique_id": "test/algebra/10.json"}]
MATH_RELEASE = [  # (unique_id, the release's record)
    ("test/algebra/10.json", {"problem": "What is $1+1$?", "level": "Level 1", "type": "Algebra",
                              "solution": "It is $\\boxed{2}$."}),
    ("test/algebra/2.json", {"problem": "Halve 1.", "level": "Level 2", "type": "Algebra",
                             "solution": "We get $\\boxed{ \\frac{1}{2}}$, not \\boxed{3}... so \\fbox{\\frac{1}{2} }"}),
    ("test/prealgebra/177.json", {"problem": "Boxes.", "level": "Level 3", "type": "Prealgebra",
                                  "solution": "With $\\boxed{n}$ as the operator, $\\boxed{12}$ is not boxed."}),
]
MBPP = _jsonl([{"text": "Add.", "code": "def add(a, b):\r\n    return a + b", "task_id": 1, "test_setup_code": "",
                "test_list": ["assert add(1, 2) == 3"], "challenge_test_list": []}])
SANITIZED = [{"source_file": "x", "task_id": 2, "prompt": "Add.", "code": "def add(a, b): return a + b",
              "test_imports": [], "test_list": ["assert add(1, 2) == 3"]}]
HUMANEVAL = _jsonl([{"task_id": "HumanEval/0", "prompt": "def f():\n", "canonical_solution": "    return 1\n",
                     "test": "def check(candidate):\n    assert candidate() == 1\n", "entry_point": "f"}])
HUMANEVAL_GZ = gzip.compress(HUMANEVAL, mtime=0)


def _expected_math_test() -> bytes:
    return math_test_from_archive(MATH_RELEASE, MATH500)


def _pin(f: DataFile, content: bytes, source_pins: dict[int, bytes] | None = None) -> DataFile:
    """``f`` with its pins replaced by ``content``'s (and a source's input pins by the given bytes')."""
    sources = tuple(dataclasses.replace(s, sha256=_sha(source_pins[i]), size=len(source_pins[i]))
                    if source_pins and i in source_pins else s for i, s in enumerate(f.sources))
    return dataclasses.replace(f, sha256=_sha(content), size=len(content), sources=sources)


def _by_path(task: str) -> dict[str, DataFile]:
    return {f.path: f for f in CATALOG[task]}


def tiny_catalog() -> dict[str, tuple[DataFile, ...]]:
    """The real catalog (paths, sources, builds) with the pins of the small fixture files."""
    math = _by_path("math")
    return {
        "gsm8k": tuple(_pin(f, GSM8K[f.path.split("/")[1].split(".")[0]]) for f in CATALOG["gsm8k"]),
        "math": (_pin(math["math/math500.jsonl"], _jsonl(MATH500)),
                 _pin(math["math/test.jsonl"], _expected_math_test())),
        "mbpp": (_pin(_by_path("mbpp")["mbpp/mbpp.jsonl"], MBPP),
                 _pin(_by_path("mbpp")["mbpp/sanitized-mbpp.json"], json.dumps(SANITIZED).encode())),
        "humaneval": (_pin(CATALOG["humaneval"][0], HUMANEVAL, {0: HUMANEVAL_GZ}),),
    }


def serve_primary(origin: Origin, catalog: dict[str, tuple[DataFile, ...]]) -> dict[str, bytes]:
    """Put each file's first source on the server; the content each final file must have."""
    expected = {}
    for files in catalog.values():
        for f in files:
            src = f.sources[0]
            if f.path == "gsm8k/train.jsonl":
                body = GSM8K["train"]
            elif f.path == "gsm8k/test.jsonl":
                body = GSM8K["test"]
            elif f.path == "math/math500.jsonl":
                body = _jsonl(MATH500)
            elif f.path == "math/test.jsonl":
                body = _math_tar([(u, r) for u, r in MATH_RELEASE])
            elif f.path == "mbpp/mbpp.jsonl":
                body = MBPP
            elif f.path == "mbpp/sanitized-mbpp.json":
                body = json.dumps(SANITIZED).encode()
            else:
                body = HUMANEVAL_GZ
            origin.files[_path(src.path)] = body
            expected[f.path] = body if src.build is None else b""
    expected["math/test.jsonl"] = _expected_math_test()
    expected["humaneval/HumanEval.jsonl"] = HUMANEVAL
    return expected


def _quiet() -> LineProgress:
    return LineProgress(stream=io.StringIO())


def _leftovers(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.name.endswith(".part") or ".downloads" in
                  p.parts)


# --- layout and content -------------------------------------------------------------------------------------------

def test_all_writes_the_layout_the_loader_reads(origin: Origin, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = tiny_catalog()
    expected = serve_primary(origin, catalog)
    out = tmp_path / "data"
    results = fetch(["all"], out, catalog=catalog, progress=_quiet())
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(expected)
    for rel, content in expected.items():
        assert (out / rel).read_bytes() == content, rel
    assert {r.status for r in results} == {"fetched"} and not _leftovers(out)
    assert json.loads((out / "mbpp/sanitized-mbpp.json").read_text()) == SANITIZED
    # the loader reads this folder as VERIFIERS_DATA_DIR
    from verifiers.datasets import load_problems

    monkeypatch.setenv("VERIFIERS_DATA_DIR", str(out))
    assert [p.gold for p in load_problems("gsm8k")] == ["0", "1", "2"]
    math = load_problems("math")
    assert [(p.id, p.gold) for p in math] == [("test/algebra/10.json", "2"), ("test/algebra/2.json", "\\frac{1}{2} "),
                                              ("test/prealgebra/177.json", "6")]
    assert load_problems("math500")[0].gold == "2" and load_problems("mbpp", split="prompt")[0].tests


def test_math_test_is_rebuilt_in_the_release_order_with_math500_answers() -> None:
    rows = [json.loads(line) for line in _expected_math_test().decode().splitlines()]
    assert [r["unique_id"] for r in rows] == ["test/algebra/10.json", "test/algebra/2.json",
                                              "test/prealgebra/177.json"]  # file names sorted as strings
    assert list(rows[0]) == ["problem", "solution", "answer", "subject", "level", "unique_id"]
    assert [r["answer"] for r in rows] == ["2", "\\frac{1}{2} ", "6"]  # MATH-500's; last box, unstripped; fixed
    assert [r["level"] for r in rows] == [1, 2, 3]
    with pytest.raises(DataError, match="test/algebra/9.json"):
        math_test_from_archive([("test/algebra/9.json", {"problem": "p", "level": "Level 1", "type": "Algebra",
                                                         "solution": "unclosed \\boxed{1"})], [])
    with pytest.raises(DataError, match="level"):
        math_test_from_archive([("test/algebra/9.json", {"problem": "p", "level": "Level ?", "type": "Algebra",
                                                         "solution": "\\boxed{1}"})], [])


def test_a_second_run_keeps_verified_files(origin: Origin, tmp_path: Path) -> None:
    catalog = tiny_catalog()
    serve_primary(origin, catalog)
    fetch(["gsm8k"], tmp_path, catalog=catalog, progress=_quiet())
    origin.requests.clear()
    results = fetch(["gsm8k"], tmp_path, catalog=catalog, progress=_quiet())
    assert [r.status for r in results] == ["present", "present"] and origin.requests == []


def test_hub_redirects_are_followed(origin: Origin, tmp_path: Path) -> None:
    catalog = tiny_catalog()
    serve_primary(origin, catalog)
    hub_path = _path(catalog["math"][0].sources[0].path)
    origin.files["/cdn/blob"] = origin.files.pop(hub_path)
    origin.redirects[hub_path] = origin.url + "/cdn/blob"
    fetch(["math"], tmp_path, catalog=catalog, progress=_quiet())
    assert (tmp_path / "math/math500.jsonl").read_bytes() == _jsonl(MATH500)


# --- fallbacks ----------------------------------------------------------------------------------------------------

def test_gsm8k_falls_back_to_the_hub_parquet(origin: Origin, tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    catalog = tiny_catalog()
    for f in catalog["gsm8k"]:
        split = f.path.split("/")[1].split(".")[0]
        rows = [json.loads(line) for line in GSM8K[split].decode().splitlines()]
        buf = io.BytesIO()
        pq.write_table(pa.Table.from_pylist([{"answer": r["answer"], "question": r["question"]} for r in rows]), buf)
        origin.files[_path(f.sources[1].path)] = buf.getvalue()  # the raw origin has nothing: 404
    results = fetch(["gsm8k"], tmp_path, catalog=catalog, progress=_quiet())
    for r in results:
        assert r.how == "rebuilt from the hub's parquet" and "HTTP 404" in r.failed_sources[0]
        assert (tmp_path / r.path).read_bytes() == GSM8K[r.path.split("/")[1].split(".")[0]]
    assert not _leftovers(tmp_path)


def test_without_pyarrow_the_parquet_fallback_names_the_extra_and_keeps_its_input(
        origin: Origin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import verifiers.extras

    real = verifiers.extras.importlib.import_module

    def no_pyarrow(name: str) -> Any:
        if name.startswith("pyarrow"):
            raise ImportError(f"No module named {name!r}")
        return real(name)

    monkeypatch.setattr(verifiers.extras.importlib, "import_module", no_pyarrow)
    catalog = tiny_catalog()
    test = _by_path("gsm8k")["gsm8k/test.jsonl"]
    origin.files[_path(test.sources[1].path)] = b"PAR1 a parquet file"
    with pytest.raises(DataError, match=r"gsm8k/test.jsonl: .*HTTP 404.*needs the 'eval' extra") as e:
        fetch(["gsm8k"], tmp_path, catalog={"gsm8k": (catalog["gsm8k"][1],)}, progress=_quiet())
    assert "pip install -e '.[eval]'" in str(e.value)
    assert (tmp_path / ".downloads" / "gsm8k-test-00000-of-00001.parquet").read_bytes() == b"PAR1 a parquet file"


def test_mbpp_sanitized_falls_back_to_the_pretty_printed_mirror(origin: Origin, tmp_path: Path) -> None:
    catalog = tiny_catalog()
    serve_primary(origin, catalog)
    sanitized = _by_path("mbpp")["mbpp/sanitized-mbpp.json"]
    del origin.files[_path(sanitized.sources[0].path)]
    origin.files[_path(sanitized.sources[1].path)] = json.dumps(SANITIZED, indent=2).encode()
    fetch(["mbpp"], tmp_path, catalog=catalog, progress=_quiet())
    assert (tmp_path / "mbpp/sanitized-mbpp.json").read_bytes() == json.dumps(SANITIZED).encode()


# --- refusals -----------------------------------------------------------------------------------------------------

def test_checksum_mismatch_is_refused_and_writes_nothing(origin: Origin, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    catalog = tiny_catalog()
    serve_primary(origin, catalog)
    origin.files[_path(catalog["mbpp"][0].sources[0].path)] = MBPP.replace(b"Add.", b"Sub.")
    with pytest.raises(DataError, match=r"could not fetch mbpp/mbpp.jsonl: .*sha256 .*refused") as e:
        fetch(["mbpp"], tmp_path, catalog=catalog, progress=_quiet())
    assert "127.0.0.1" in str(e.value) and "\n" not in str(e.value)
    assert not (tmp_path / "mbpp/mbpp.jsonl").exists() and not _leftovers(tmp_path)
    # a rebuilt file is held to its pin too
    catalog = tiny_catalog()
    origin.files[_path(catalog["math"][1].sources[0].path)] = _math_tar(MATH_RELEASE[:2])
    with pytest.raises(DataError, match=r"math/test.jsonl: .*rebuilt from a copy of the MATH release's files, "
                                        r"the file has sha256.*MATH.tar: HTTP 404"):
        fetch(["math"], tmp_path, catalog=catalog, progress=_quiet())
    assert not (tmp_path / "math/test.jsonl").exists() and not _leftovers(tmp_path)


def test_the_cli_refuses_a_mismatch_in_one_line(origin: Origin, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    origin.files[_path(CATALOG["humaneval"][0].sources[0].path)] = gzip.compress(b"{}\n")  # not the pinned file
    assert cli.main(["data", "fetch", "--task", "humaneval", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert re.fullmatch(r"verifiers data fetch: error: could not fetch humaneval/HumanEval.jsonl: "
                        r"http://127\.0\.0\.1:\d+/openai/human-eval/.*\.gz: .*refused.*", err), err
    assert not (tmp_path / "humaneval/HumanEval.jsonl").exists()


def test_unreachable_and_missing_sources_fail_in_seconds_naming_the_url(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    for var, _ in BASES.values():
        monkeypatch.setenv(var, dead)
    start = time.monotonic()
    with pytest.raises(DataError) as e:
        fetch(["gsm8k"], tmp_path, progress=_quiet())
    assert time.monotonic() - start < 5
    message = str(e.value)
    assert message.startswith("could not fetch gsm8k/train.jsonl: ") and "\n" not in message
    assert f"{dead}/openai/grade-school-math/" in message and f"{dead}/datasets/openai/gsm8k/" in message
    assert "cannot connect to 127.0.0.1:" in message
    assert not tmp_path.joinpath("gsm8k").exists()  # nothing created for a failed fetch


def test_a_stalled_source_times_out(origin: Origin, tmp_path: Path) -> None:
    origin.files["/f"] = b"x" * 1000
    origin.stall_after = 10
    start = time.monotonic()
    with pytest.raises(DownloadError, match=r"/f: timed out after 10 bytes \(run again to continue\)"):
        download(origin.url + "/f", tmp_path / "f", timeout=0.5, progress=_quiet())
    assert time.monotonic() - start < 5
    assert not (tmp_path / "f").exists() and part_path(tmp_path / "f").read_bytes() == b"x" * 10


def test_a_different_file_already_there_needs_force(origin: Origin, tmp_path: Path) -> None:
    catalog = tiny_catalog()
    serve_primary(origin, catalog)
    (tmp_path / "humaneval").mkdir()
    (tmp_path / "humaneval/HumanEval.jsonl").write_text("mine\n")
    with pytest.raises(DataError, match="is there but is not the pinned file .*--force"):
        fetch(["humaneval"], tmp_path, catalog=catalog, progress=_quiet())
    assert (tmp_path / "humaneval/HumanEval.jsonl").read_text() == "mine\n"
    fetch(["humaneval"], tmp_path, catalog=catalog, progress=_quiet(), force=True)
    assert (tmp_path / "humaneval/HumanEval.jsonl").read_bytes() == HUMANEVAL


def test_an_unwritable_out_is_one_line(origin: Origin, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalog = tiny_catalog()
    serve_primary(origin, catalog)
    (tmp_path / "file").write_text("")
    assert cli.main(["data", "fetch", "--task", "humaneval", "--out", str(tmp_path / "file")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("verifiers data fetch: error: not a directory: ")  # cli_common's path wording


def test_unknown_task(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="unknown task 'squad'; choose one of gsm8k, math, mbpp, humaneval, all"):
        fetch(["squad"], tmp_path)


# --- resume and atomicity -----------------------------------------------------------------------------------------

def test_a_partial_download_continues_with_a_range(origin: Origin, tmp_path: Path) -> None:
    body = bytes(range(256)) * 40
    origin.files["/f.bin"] = body
    part_path(tmp_path / "f.bin").write_bytes(body[:4000])
    out = io.StringIO()
    download(origin.url + "/f.bin", tmp_path / "f.bin", sha256=_sha(body), size=len(body),
             progress=LineProgress(stream=out))
    assert (tmp_path / "f.bin").read_bytes() == body and not part_path(tmp_path / "f.bin").exists()
    assert origin.requests == [("/f.bin", "bytes=4000-")]
    assert "continuing at 4.0 kB" in out.getvalue() and "(continued from 4.0 kB)" in out.getvalue()


def test_a_server_without_ranges_restarts_the_file(origin: Origin, tmp_path: Path) -> None:
    body = b"abc" * 1000
    origin.files["/f"] = body
    origin.ranges = False
    part_path(tmp_path / "f").write_bytes(body[:100])
    download(origin.url + "/f", tmp_path / "f", sha256=_sha(body), progress=_quiet())
    assert (tmp_path / "f").read_bytes() == body


def test_a_stale_partial_is_dropped_and_fetched_again(origin: Origin, tmp_path: Path) -> None:
    body = b"new content " * 100
    origin.files["/f"] = body
    part_path(tmp_path / "f").write_bytes(b"OLD content " * 10)  # from an older version of the file
    download(origin.url + "/f", tmp_path / "f", sha256=_sha(body), size=len(body), progress=_quiet())
    assert (tmp_path / "f").read_bytes() == body
    assert [r for _, r in origin.requests] == ["bytes=120-", None]


def test_a_complete_partial_is_renamed_without_downloading(origin: Origin, tmp_path: Path) -> None:
    body = b"whole"
    origin.files["/f"] = body
    part_path(tmp_path / "f").write_bytes(body)
    download(origin.url + "/f", tmp_path / "f", sha256=_sha(body), progress=_quiet())  # size unknown: asks
    assert (tmp_path / "f").read_bytes() == body and origin.requests == [("/f", "bytes=5-")]


def test_a_killed_download_leaves_no_file_under_the_final_name_and_resumes(origin: Origin, tmp_path: Path) -> None:
    body = os.urandom(300_000)
    origin.files["/big.bin"] = body
    origin.stall_after = 100_000
    dest = tmp_path / "big.bin"
    code = ("import sys; from pathlib import Path; from verifiers.download import download; "
            "download(sys.argv[1], Path(sys.argv[2]), sha256=sys.argv[3], size=int(sys.argv[4]))")
    proc = subprocess.Popen([sys.executable, "-c", code, origin.url + "/big.bin", str(dest), _sha(body),
                             str(len(body))], env={**os.environ, "PYTHONPATH": SRC}, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (part_path(dest).is_file()
                                               and part_path(dest).stat().st_size >= 100_000):
        time.sleep(0.05)
    proc.kill()
    proc.wait(10)
    assert not dest.exists() and part_path(dest).stat().st_size == 100_000
    origin.stall_after = None
    origin.requests.clear()
    download(origin.url + "/big.bin", dest, sha256=_sha(body), size=len(body), progress=_quiet())
    assert dest.read_bytes() == body and origin.requests == [("/big.bin", "bytes=100000-")]


def test_ctrl_c_in_the_cli_keeps_the_part_and_the_rerun_continues(origin: Origin, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    body = os.urandom(200_000) + b"\n"
    he = CATALOG["humaneval"][0]
    monkeypatch.setitem(CATALOG, "humaneval", (_pin(he, body, {0: gzip.compress(body, mtime=0)}),))
    origin.files[_path(he.sources[0].path)] = gzip.compress(body, mtime=0)
    real_advance = LineProgress.advance

    def interrupt(self: LineProgress, n: int) -> None:
        real_advance(self, n)
        raise KeyboardInterrupt

    monkeypatch.setattr(LineProgress, "advance", interrupt)
    argv = ["data", "fetch", "--task", "humaneval", "--out", str(tmp_path)]
    assert cli.main(argv) == 130
    err = capsys.readouterr().err
    assert "verifiers data fetch: interrupted; nothing was lost, run the same command again" in err
    assert "Traceback" not in err and not (tmp_path / "humaneval/HumanEval.jsonl").exists()
    kept = next((tmp_path / ".downloads").glob("*.part")).stat().st_size
    assert kept > 0
    monkeypatch.setattr(LineProgress, "advance", real_advance)
    origin.requests.clear()
    assert cli.main(argv) == 0
    assert (tmp_path / "humaneval/HumanEval.jsonl").read_bytes() == body and not _leftovers(tmp_path)
    assert origin.requests == [(_path(he.sources[0].path), f"bytes={kept}-")]


def test_a_rebuilt_files_input_resumes_too(origin: Origin, tmp_path: Path) -> None:
    catalog = tiny_catalog()
    serve_primary(origin, catalog)
    gz_path = _path(catalog["humaneval"][0].sources[0].path)
    part = tmp_path / ".downloads" / ("humaneval-" + gz_path.rsplit("/", 1)[1] + ".part")
    part.parent.mkdir()
    part.write_bytes(HUMANEVAL_GZ[:20])
    fetch(["humaneval"], tmp_path, catalog=catalog, progress=_quiet())
    assert (tmp_path / "humaneval/HumanEval.jsonl").read_bytes() == HUMANEVAL
    assert origin.requests == [(gz_path, "bytes=20-")] and not _leftovers(tmp_path)


# --- the command --------------------------------------------------------------------------------------------------

def test_a_missing_file_under_verifiers_data_dir_says_how_to_fetch_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from verifiers.datasets import load_problems

    monkeypatch.setenv("VERIFIERS_DATA_DIR", str(tmp_path))
    with pytest.raises(DataError, match=re.escape(f"`verifiers data fetch --task math --out {tmp_path}` writes it")):
        load_problems("math500")
    assert data_fetch.fetch_task("gsm8k-hard/test.jsonl") is None


def test_the_core_install_is_enough() -> None:
    code = ("import sys, verifiers.cli, verifiers.data_fetch; "
            "print(sorted(m for m in ('pyarrow', 'rich', 'datasets', 'torch', 'requests') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": SRC}, capture_output=True,
                         text=True, check=True, timeout=60)
    assert run.stdout.strip() == "[]"


def test_the_rich_bar(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rich")
    from verifiers.download import _RichProgress

    bar = _RichProgress()
    bar.start("gsm8k/test.jsonl", 1000, 200)
    bar.advance(800)
    bar.finish("1.0 kB (continued from 0.2 kB)")
    captured = capsys.readouterr()
    assert "continued from 0.2 kB" in captured.err and not captured.out


def test_default_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VERIFIERS_DATA_DIR", raising=False)
    assert default_out() == Path("data")
    monkeypatch.setenv("VERIFIERS_DATA_DIR", "/srv/d")
    assert default_out() == Path("/srv/d")


def test_cli_json_and_default_out(origin: Origin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    catalog = tiny_catalog()
    serve_primary(origin, catalog)
    monkeypatch.setattr(data_fetch, "CATALOG", catalog)
    monkeypatch.setenv("VERIFIERS_DATA_DIR", str(tmp_path / "d"))
    assert cli.main(["data", "fetch", "--task", "gsm8k", "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["out"] == str(tmp_path / "d") and report["fetched"] == 2 and report["present"] == 0
    assert [f["path"] for f in report["files"]] == ["gsm8k/train.jsonl", "gsm8k/test.jsonl"]
    assert report["files"][0]["sha256"] == _sha(GSM8K["train"]) and report["files"][0]["url"].startswith(origin.url)
    assert "gsm8k/train.jsonl" in captured.err and "export VERIFIERS_DATA_DIR=" in captured.err
    assert cli.main(["data", "fetch", "--task", "gsm8k", "--out", str(tmp_path / "d")]) == 0
    assert "0 file(s) fetched, 2 already there" in capsys.readouterr().out


def test_cli_data_without_an_action_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["data"])
    assert e.value.code == 2
    assert re.fullmatch(r"verifiers data: error: [^\n]*required: \{fetch\} \(see verifiers data --help\)\n",
                        capsys.readouterr().err)


def test_cli_bad_task_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["data", "fetch", "--task", "squad"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("verifiers data fetch: error: argument --task: invalid choice: 'squad'") and err.count("\n") == 1


# --- the real catalog, served from the shared datasets ------------------------------------------------------------

def _real_origin(origin: Origin, data_dir: Path, unavailable: Any) -> None:
    """Serve every real source from the shared files: byte copies as they are, the MATH release rebuilt."""
    need = [f.path for files in CATALOG.values() for f in files]
    missing = [p for p in need if not (data_dir / p).is_file()]
    if missing:
        unavailable("data", f"{data_dir} lacks {', '.join(missing)}")
    for files in CATALOG.values():
        for f in files:
            content = (data_dir / f.path).read_bytes()
            if f.path == "math/test.jsonl":
                rows = [json.loads(line) for line in content.decode().splitlines()]
                content = _math_tar([(r["unique_id"], {"problem": r["problem"], "level": f"Level {r['level']}",
                                                       "type": r["subject"], "solution": r["solution"]})
                                     for r in rows])
            elif f.path == "humaneval/HumanEval.jsonl":
                content = gzip.compress(content, mtime=0)
            origin.files[_path(f.sources[0].path)] = content


def test_the_real_catalog_reproduces_every_pinned_file(origin: Origin, data_dir: Path, tmp_path: Path,
                                                       unavailable: Any, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    _real_origin(origin, data_dir, unavailable)
    # HumanEval's .gz is pinned to the bytes of openai/human-eval's; ours is a recompression of the same content
    he = CATALOG["humaneval"][0]
    monkeypatch.setitem(CATALOG, "humaneval", (dataclasses.replace(
        he, sources=(dataclasses.replace(he.sources[0], sha256=None, size=None),)),))
    out = tmp_path / "fetched"
    assert cli.main(["data", "fetch", "--task", "all", "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["fetched"] == 7
    for files in CATALOG.values():
        for f in files:
            assert hashlib.sha256((out / f.path).read_bytes()).hexdigest() == f.sha256, f.path
    assert not _leftovers(out)
    # the fetched folder is a VERIFIERS_DATA_DIR the rest of the package reads
    env = {**os.environ, "PYTHONPATH": SRC, "VERIFIERS_DATA_DIR": str(out)}
    run = subprocess.run([sys.executable, "-m", "verifiers.cli", "validate", "--task", "gsm8k", "--limit", "5",
                          "--json"], check=False, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["self_verifying"] == 5
