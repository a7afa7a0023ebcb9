"""Attack suite: hostile programs from ``tests/cases/attacks/*.case`` run in the real bubblewrap sandbox.

Each case file starts with ``# covers:``, ``# test:`` (repeatable) and ``# expect:`` header lines:
``fail`` (not passed, no test passed), ``pass`` (benign control) or ``status:a,b`` (not passed and one
of these statuses). Every case must finish in bounded time, leave the pool usable and leave no trace on
the host (no marker file, nothing reached the host's TCP/UDP/unix listeners, no secret leaked).
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from verifiers.errors import SandboxError
from verifiers.sandbox import CodePool

CASE_DIR = Path(__file__).resolve().parents[1] / "cases" / "attacks"
CASES = sorted(CASE_DIR.glob("*.case"))
TIME_BOUND_S = 20.0  # generous: the per-program limit is 2 s, the parent's hard kill 2 s later


@dataclass
class Case:
    covers: str
    tests: list[str]
    expect: str
    code: str


def load_case(path: Path) -> Case:
    covers, tests, expect, body = "", [], "", []
    for line in path.read_text().splitlines():
        if line.startswith("# covers: "):
            covers = line[len("# covers: "):]
        elif line.startswith("# test: "):
            tests.append(line[len("# test: "):])
        elif line.startswith("# expect: "):
            expect = line[len("# expect: "):]
        else:
            body.append(line)
    assert covers and expect, f"{path.name}: missing header"
    return Case(covers, tests, expect, "\n".join(body) + "\n")


@dataclass
class Host:
    marker: str
    secret: str
    tcp: socket.socket
    udp: socket.socket
    unix: socket.socket
    unix_path: str


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("host")
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(8)
    tcp.setblocking(False)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    unix_path = str(tmp / "host.sock")
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(unix_path)
    unix.listen(8)
    unix.setblocking(False)
    secret = "VERIFIERS_ATTACK_SECRET_" + uuid.uuid4().hex[:8]
    os.environ[secret] = "s3cr3t"
    h = Host(str(Path("/tmp") / f"verifiers_pwned_{uuid.uuid4().hex}"), secret, tcp, udp, unix, unix_path)
    yield h
    del os.environ[secret]
    for s in (tcp, udp, unix):
        s.close()


@pytest.fixture(scope="module")
def pool(host: Host):
    try:
        p = CodePool(workers=2, timeout_s=2.0, memory_mb=256).start()
    except SandboxError as exc:  # CI installs bubblewrap; a dev box without it skips loudly
        pytest.skip(f"bubblewrap sandbox unavailable: {exc}")
    yield p
    p.close()


def _nothing_reached(host: Host) -> None:
    for srv in (host.tcp, host.unix):
        with pytest.raises(BlockingIOError):
            srv.accept()
    with pytest.raises(BlockingIOError):
        host.udp.recvfrom(100)
    assert not os.path.exists(host.marker)


def test_suite_is_large_enough() -> None:
    assert len(CASES) >= 40
    assert sum(load_case(p).expect == "pass" for p in CASES) >= 2  # benign controls exist


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_attack(path: Path, pool: CodePool, host: Host) -> None:
    case = load_case(path)
    code = (case.code.replace("__HOST_MARKER__", host.marker).replace("__SECRET_NAME__", host.secret)
            .replace("__TCP_PORT__", str(host.tcp.getsockname()[1]))
            .replace("__UDP_PORT__", str(host.udp.getsockname()[1]))
            .replace("__UNIX_PATH__", host.unix_path))
    t0 = time.monotonic()
    r = pool.run(code, case.tests)
    elapsed = time.monotonic() - t0
    assert elapsed < TIME_BOUND_S, f"{path.stem} took {elapsed:.1f}s"
    if case.expect == "pass":
        assert r.passed, r
        assert r.tests_passed == r.tests_total == len(case.tests)
    else:
        assert not r.passed, f"attack {path.stem} ({case.covers}) was judged a pass: {r}"
        assert r.tests_passed == 0, r
        if case.expect.startswith("status:"):
            assert r.status in case.expect[len("status:"):].split(","), r
    assert len(r.stdout) <= pool.max_output_bytes and len(r.stderr) <= pool.max_output_bytes
    _nothing_reached(host)
    # The pool is still healthy afterwards (a killed or stopped worker has been replaced).
    assert pool.run("def g(x):\n    return x + 1\n", ["assert g(1) == 2"]).passed
