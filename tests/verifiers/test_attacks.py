"""Attack suite: hostile programs from ``tests/cases/attacks/*.case`` run in the real bubblewrap sandbox.

Each case file starts with header lines, then the program:

    # class: 1..6 (the classes of issue #14), A1..C4 and R1..R7 (the red teams' classes after it), seccomp, limit,
    #        host or control
    # covers: one line
    # test: an assert (repeatable; none: the program has no tests)
    # setup: a line of test set-up code (optional, repeatable)
    # expect: the exact ExecutionResult.status (``passed`` for controls and probes that must pass)
    # detail: TEXT           why it did not pass: in the detail of the first test that failed (else, when no
    #                        test ran, the result's detail); required unless ``expect: passed``, so a case
    #                        fails for its own reason, never for any other (an import error, a crash)
    # last-detail: TEXT      (optional) in the detail of the last test (budgets that later tests exhaust)
    # parent-cpu-s: S        (optional) CPU seconds this process may spend while the case runs: for cases
    #                        whose goal is to burn the parent's CPU (a bound 10x above what it costs, far
    #                        below what the attack cost before; CPU time, so machine load does not matter)
    # pool: untouched        (optional) no sandbox may be killed, recycled or fail while it runs
    # sibling-before: NAME   (optional) siblings/NAME.py, with the same tests, runs just before it
    # sibling-after: NAME    (optional) ... queued just after it (both on the same sandbox, pipelined)
    # needs: cgroup          (optional) skipped where the pool has no cgroup: the case needs max_procs
    #                        tasks or most of memory_mb in one process (without one they are split)
    # timeout: S             (optional) the program's time limit instead of the pool's 2 s (for cases whose
    #                        expected outcome is not a timeout but whose work takes the kernel a while)

``__MARKER__`` is replaced by a fresh random string per run (in the program, its siblings and tests).
A case that does not expect ``passed`` must pass no test. Every case must finish in bounded time, leave
no trace on the host (no marker file, nothing reached the host's TCP/UDP/unix listeners) and leave the
pool able to run an honest program that starts threads and writes to ``/tmp``.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import pytest

from verifiers.errors import SandboxError
from verifiers.sandbox import CodePool, _local

Unavailable = Callable[[str, str], NoReturn]  # tests/conftest.py's `unavailable` fixture

CASE_DIR = Path(__file__).resolve().parents[1] / "cases" / "attacks"
CASES = sorted(CASE_DIR.glob("*.case"))
POOL_TIMEOUT_S = 2.0  # the per-program CPU limit of the attack pools


def time_bound(timeout: float | None) -> float:
    """Wall seconds a case may take: its program's wall backstop at this host's load (`_local.wall_backstop`),
    the parent's hard kill after it, and 10 s of slack for the judging and a busy machine."""
    return _local.wall_backstop(timeout or POOL_TIMEOUT_S, _local.load_scale()) + _local.KILL_GRACE_S + 10.0
ISSUE_CLASSES = ("1", "2", "3", "4", "5", "6")
# The red team's classes after issue #14: reward hacks in the judge (A), parent cost (B), isolation (C).
RED_TEAM_CLASSES = ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3", "C4")
# Round 3 (r3_*.case): R1 methods of program values applied to test data, R2 judge builtins over program-side
# names, R3 expected values computed beside the program, R5 cached values shared and mutated across
# judgements, R6 parent CPU per program, R7 kernel buffers outside RLIMIT_AS (sockets, grown pipes).
ROUND3_CLASSES = ("R1", "R2", "R3", "R5", "R6", "R7")
CLASSES = {*ISSUE_CLASSES, *RED_TEAM_CLASSES, *ROUND3_CLASSES, "seccomp", "limit", "host", "control"}
STATUSES = {"passed", "failed", "timeout", "memory", "syntax_error", "runtime_error", "crashed", "no_tests"}
POOL_EVENTS = ("workers_started", "recycled", "hard_kills", "anomalies", "violations")
HEALTH = ("import threading, os\n"
          "def g(x):\n"
          "    box = []\n"
          "    ts = [threading.Thread(target=box.append, args=(i,)) for i in range(8)]\n"
          "    for t in ts: t.start()\n"
          "    for t in ts: t.join()\n"
          "    open('/tmp/health.txt', 'w').write('ok')\n"
          "    return x + len(box) + len(os.listdir('/tmp'))\n")


@dataclass
class Case:
    klass: str
    covers: str
    tests: list[str]
    expect: str
    code: str
    setup: str = ""
    untouched: bool = False
    siblings: dict[str, str] = field(default_factory=dict)
    needs: str = ""
    detail: str = ""
    last_detail: str = ""
    parent_cpu: float = 0.0
    timeout: float | None = None


def load_case(path: Path) -> Case:
    head: dict[str, list[str]] = {}
    body = []
    for line in path.read_text().splitlines():
        if line.startswith("# ") and ": " in line and not body:
            key, _, value = line[2:].partition(": ")
            head.setdefault(key, []).append(value)
        else:
            body.append(line)
    for key in ("class", "covers", "expect"):
        assert len(head.get(key, [])) == 1, f"{path.name}: needs exactly one '# {key}:' line"
    case = Case(head["class"][0], head["covers"][0], head.get("test", []), head["expect"][0], "\n".join(body) + "\n",
                "\n".join(head.get("setup", [])), head.get("pool") == ["untouched"],
                {k: head[k][0] for k in ("sibling-before", "sibling-after") if k in head}, (head.get("needs") or [""])[0],
                (head.get("detail") or [""])[0], (head.get("last-detail") or [""])[0],
                float((head.get("parent-cpu-s") or ["0"])[0]),
                float(head["timeout"][0]) if "timeout" in head else None)
    assert case.klass in CLASSES, f"{path.name}: unknown class {case.klass!r}"
    assert case.expect in STATUSES, f"{path.name}: expect must be one exact status, got {case.expect!r}"
    assert case.detail or case.expect == "passed", f"{path.name}: needs a '# detail:' line (why it fails)"
    return case


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


def _start(unavailable: Unavailable, **kw: object) -> CodePool:
    try:
        return CodePool(timeout_s=POOL_TIMEOUT_S, memory_mb=256, **kw).start()  # type: ignore[arg-type]
    except SandboxError as exc:  # a dev box without it skips loudly; CI (VERIFIERS_REQUIRE=bwrap) fails
        unavailable("bwrap", f"bubblewrap sandbox unavailable: {exc}")


@pytest.fixture(scope="module")
def pool(unavailable: Unavailable):
    p = _start(unavailable, workers=2)
    yield p
    p.close()


@pytest.fixture(scope="module")
def single_pool(unavailable: Unavailable):
    """One sandbox, so a case and its siblings share a zygote and are in flight together."""
    p = _start(unavailable, workers=1, pipeline=8)
    yield p
    p.close()


def _nothing_reached(host: Host) -> None:
    for srv in (host.tcp, host.unix):
        with pytest.raises(BlockingIOError):
            srv.accept()
    with pytest.raises(BlockingIOError):
        host.udp.recvfrom(100)
    assert not os.path.exists(host.marker)


def test_suite_covers_every_class() -> None:
    cases = [load_case(p) for p in CASES]
    per_class = Counter(c.klass for c in cases)
    for klass in ISSUE_CLASSES:
        assert per_class[klass] >= 3, f"class {klass} has {per_class[klass]} variants"
    for klass in (*RED_TEAM_CLASSES, *ROUND3_CLASSES):
        assert per_class[klass] >= 2, f"class {klass} has {per_class[klass]} variants"
    assert per_class["control"] >= 3 and per_class["seccomp"] >= 13 and per_class["limit"] >= 8
    assert len(cases) >= 100


def _fill(text: str, host: Host, marker: str) -> str:
    return (text.replace("__HOST_MARKER__", host.marker).replace("__SECRET_NAME__", host.secret)
            .replace("__TCP_PORT__", str(host.tcp.getsockname()[1]))
            .replace("__UDP_PORT__", str(host.udp.getsockname()[1]))
            .replace("__UNIX_PATH__", host.unix_path).replace("__MARKER__", marker))


def _brief(r: object) -> str:
    """A result without its (possibly huge) output, for failure messages."""
    return repr(r)[:600]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_attack(path: Path, pool: CodePool, single_pool: CodePool, host: Host,
                unavailable: Unavailable) -> None:
    case = load_case(path)
    p = single_pool if case.siblings else pool
    if case.needs == "cgroup" and not p.cgroup_in_force:
        unavailable("cgroup", f"no cgroup here ({p.limits_in_force}); without one, processes share memory_mb "
                              "through split rlimits, fewer of them")
    marker = "MK" + uuid.uuid4().hex
    tests = [_fill(t, host, marker) for t in case.tests]
    code, setup = _fill(case.code, host, marker), _fill(case.setup, host, marker)
    before = {k: p.stats[k] for k in POOL_EVENTS}
    t0, cpu0 = time.monotonic(), time.process_time()
    futs = []
    if "sibling-before" in case.siblings:
        futs.append(p.submit(_fill((CASE_DIR / "siblings" / f"{case.siblings['sibling-before']}.py").read_text(),
                                   host, marker), tests, setup))
    fut = p.submit(code, tests, setup, case.timeout)
    if "sibling-after" in case.siblings:
        futs.append(p.submit(_fill((CASE_DIR / "siblings" / f"{case.siblings['sibling-after']}.py").read_text(),
                                   host, marker), tests, setup))
    r = fut.result()
    cpu = time.process_time() - cpu0
    for f in futs:
        assert f.result().passed, f"{path.stem}: an honest sibling failed: {_brief(f.result())}"
    elapsed = time.monotonic() - t0
    assert elapsed < time_bound(case.timeout), f"{path.stem} took {elapsed:.1f}s"
    assert r.status == case.expect, f"{path.stem} ({case.covers}): expected {case.expect}, got {_brief(r)}"
    if case.parent_cpu:
        assert cpu < case.parent_cpu, f"{path.stem}: the parent spent {cpu:.2f} s of CPU"
    if case.detail:
        first = next((t.detail for t in r.per_test if t.status not in ("passed", "not_run")), r.detail)
        assert case.detail in first, f"{path.stem}: {case.detail!r} not in {first!r}"
    if case.last_detail:
        last = r.per_test[-1].detail
        assert case.last_detail in last, f"{path.stem}: {case.last_detail!r} not in {last!r}"
    if case.expect == "passed":
        assert r.tests_passed == r.tests_total == len(case.tests)
    else:
        assert r.tests_passed == 0, _brief(r)
    assert len(r.stdout) <= p.max_output_bytes and len(r.stderr) <= p.max_output_bytes
    _nothing_reached(host)
    # The pool is still healthy afterwards: threads, a fresh /tmp, the right answer.
    health = p.run(HEALTH, ["assert g(1) == 10"])
    assert health.passed, _brief(health)
    if case.untouched:
        after = {k: p.stats[k] for k in POOL_EVENTS}
        assert after == before, f"{path.stem} disturbed the pool: {before} -> {after}"
