"""Sandbox robustness: deadlines on the parent's clock, anomalies recycle, retries charged to the right job,
unique uids across processes, cgroup limits, user-namespace diagnosis, the seccomp flag, Python 3.12."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

from verifiers.errors import SandboxError
from verifiers.sandbox import CodePool, _cgroups, _isolation, _seccomp
from verifiers.sandbox import _local as _pool  # the local backend holds the dispatcher

Unavailable = Callable[[str, str], NoReturn]  # tests/conftest.py's `unavailable` fixture

OK = ("def f(x):\n    return x + 1\n", ["assert f(1) == 2"])
SRC = Path(__file__).resolve().parents[2] / "src"


def _with_src() -> str:
    """PYTHONPATH for a child interpreter of this version: the source tree first, then what this one has."""
    return os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)


@pytest.fixture(scope="module")
def sandbox_ok(unavailable: Unavailable) -> None:
    try:
        CodePool(workers=1).start().close()
    except SandboxError as exc:
        unavailable("bwrap", f"bubblewrap sandbox unavailable: {exc}")


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except (OSError, ValueError, IndexError):
                pass
    return out


def _zygote_pid(pool: CodePool) -> int:
    """The host pid of the (only) sandbox's zygote: bubblewrap's monitor -> the sandbox's init -> zygote."""
    level = [pool._sandboxes[0].proc.pid]
    while level:  # breadth first: the zygote is the first python below bubblewrap (its programs are deeper)
        pythons = [p for p in level if Path(f"/proc/{p}/comm").read_text().startswith("python")]
        if pythons:
            assert len(pythons) == 1, pythons
            return pythons[0]
        level = [c for p in level for c in _children(p)]
    raise AssertionError("no zygote found")


def _wait_running(pool: CodePool, fut: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sbs = list(pool._sandboxes)
        if sbs and sbs[0].ready and sbs[0].inflight and sbs[0].inflight[0].future is fut \
                and time.monotonic() - sbs[0].head_since > 0.3:
            return
        time.sleep(0.02)
    raise AssertionError("the job never started")


def test_deadline_holds_when_the_zygote_is_stopped(sandbox_ok: None) -> None:
    with CodePool(workers=1, timeout_s=0.5) as p:
        assert p.run(*OK).passed
        os.kill(_zygote_pid(p), signal.SIGSTOP)  # what a program could once do to its worker
        t0 = time.monotonic()
        r = p.run("def f(x):\n    return x + 1\n", ["assert f(1) == 2"])
        elapsed = time.monotonic() - t0
        bound = _pool.wall_backstop(0.5, _pool.load_scale()) + _pool.KILL_GRACE_S + 2.0  # the parent's own kill
        assert r.status == "timeout" and elapsed < bound, (r, elapsed)
        assert p.stats["hard_kills"] == 1
        assert p.run(*OK).passed  # a new sandbox took its place


def test_a_program_outliving_a_stopped_zygote_is_a_timeout(sandbox_ok: None) -> None:
    with CodePool(workers=1, timeout_s=0.5) as p:
        fut = p.submit("import time\ndef f(x):\n    time.sleep(1.0)\n    return x + 1\n", ["assert f(1) == 2"])
        time.sleep(0.2)
        os.kill(_zygote_pid(p), signal.SIGSTOP)  # it cannot kill the program at 0.5 s, nor report
        assert fut.result(timeout=_pool.wall_backstop(0.5, _pool.MAX_LOAD_SCALE) + 10).status == "timeout"
        assert p.run(*OK).passed


def test_retries_are_charged_only_to_the_running_job(sandbox_ok: None) -> None:
    # The sandbox dies three times, each while a slow program runs; programs queued behind it are
    # moved, not charged, so none of them comes back `crashed` (before issue #14: all of them did).
    with CodePool(workers=1, pipeline=8, timeout_s=20.0) as p:
        slow = "import time\ndef f():\n    time.sleep(5)\n    return 1\n"
        heads = [p.submit(slow, ["assert f() == 1"]) for _ in range(3)]
        queued = [p.submit(f"def f():\n    return {i}\n", [f"assert f() == {i}"]) for i in range(6)]
        for head in heads:
            _wait_running(p, head)
            os.killpg(p._sandboxes[0].proc.pid, signal.SIGKILL)
            assert head.result(timeout=20).status == "crashed"
        assert [f.result(timeout=30).passed for f in queued] == [True] * 6


def test_a_child_failing_before_its_program_runs_is_an_anomaly(sandbox_ok: None,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_pool, "TMPFS_INODES", 10 ** 30)  # every child's private /tmp mount now fails
    with CodePool(workers=1) as p:
        r = p.run(*OK)
        assert r.status == "crashed" and "failed before the program ran" in r.detail, r
        assert p.stats["anomalies"] == _pool.MAX_ATTEMPTS and p.stats["workers_started"] >= 1 + _pool.MAX_ATTEMPTS - 1


def test_a_protocol_violation_recycles_the_sandbox(sandbox_ok: None) -> None:
    forge = ("import os, struct\n"
             "def f(x):\n"
             "    os.write(3, struct.pack('>I', 5) + b'hello')\n"
             "    return x + 1\n")
    with CodePool(workers=1) as p:
        r = p.run(forge, ["assert f(1) == 2"])
        assert r.status == "runtime_error" and "protocol violation" in r.detail
        deadline = time.monotonic() + 10
        while p.stats["workers_started"] < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert p.stats["violations"] == 1 and p.stats["workers_started"] == 2
        assert p.run(*OK).passed


def test_two_pools_in_two_processes_lease_distinct_uids(sandbox_ok: None) -> None:
    if not _isolation.host_is_root():
        pytest.skip("uid leases are for pools run by root")
    script = ("import sys, time\nfrom verifiers.sandbox import CodePool\n"
              "p = CodePool(workers=2).start()\n"
              "print(' '.join(str(s.lease.uid) for s in p._sandboxes), flush=True)\n"
              "sys.stdin.read()\n")
    env = {**os.environ, "PYTHONPATH": _with_src()}
    procs = [subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
             for _ in range(2)]
    try:
        uids = [set(map(int, pr.stdout.readline().split())) for pr in procs]  # type: ignore[union-attr]
    finally:
        for pr in procs:
            pr.communicate(timeout=30)
    assert len(uids[0]) == len(uids[1]) == 2 and not uids[0] & uids[1]


def test_cgroup_bounds_a_sandbox_as_a_whole(sandbox_ok: None, unavailable: Unavailable) -> None:
    with CodePool(workers=1, memory_mb=128) as p:
        if not p.cgroup_in_force:
            unavailable("cgroup", f"no cgroup here: {p.limits_in_force}")
        dirs = p._sandboxes[0].cgroup.dirs  # type: ignore[union-attr]
        # Four processes of 100 MB each: every one is under RLIMIT_AS, together they are not.
        # Each child holds its 100 MB until the parent has forked all four (a pipe closes then), so they are
        # alive together whatever the scheduler does.
        hog = ("import os, time\n"
               "def f():\n"
               "    r, w = os.pipe()\n"
               "    pids = []\n"
               "    for _ in range(4):\n"
               "        pid = os.fork()\n"
               "        if pid == 0:\n"
               "            os.close(w)\n"
               "            b = bytearray(100 << 20)\n"
               "            for i in range(0, len(b), 4096):\n"
               "                b[i] = 1\n"
               "            os.read(r, 1)\n"
               "            os._exit(0)\n"
               "        pids.append(pid)\n"
               "    time.sleep(1.0)\n"
               "    os.close(w)\n"
               "    return [os.waitpid(x, 0)[1] for x in pids]\n")
        r = p.run(hog, ["assert f() == [0, 0, 0, 0]"], timeout_s=10)
        # The group's OOM killer takes some of them (SIGKILL: wait status 9, the others exit 0), or the
        # program itself (then the status is "memory"): which process the kernel picks is its choice.
        if r.status != "memory":
            got = re.fullmatch(r"assertion failed \(got \[(\d+), (\d+), (\d+), (\d+)\]\)",
                               r.per_test[0].detail)
            assert r.status == "failed" and got is not None, r
            codes = [int(c) for c in got.groups()]
            assert set(codes) <= {0, 9} and 9 in codes, r
        assert p.run(*OK).passed
    assert not any(d.exists() for d in dirs)  # removed with the pool


def test_each_sandbox_gets_one_cpu_share(sandbox_ok: None, unavailable: Unavailable) -> None:
    # Where a CPU controller is in force, every sandbox has the same weight and at most Limits.cpus CPUs, so
    # a program forking busy processes slows only its own sandbox (the fair share itself is measured in
    # evals/sandbox/cpu_fairness.py, not asserted on a shared machine).
    from verifiers.sandbox import _cgroups

    with CodePool(workers=2) as p:
        groups = [sb.cgroup for sb in p._sandboxes]
        if not p.cgroup_in_force or not p._spec.cgroups.cpu:  # type: ignore[union-attr]
            unavailable("cgroup", f"no CPU controller here: {p.limits_in_force}")
        for g in groups:
            assert g is not None
            if g.version == 1:
                cpu = g.dirs[2]
                assert (cpu / "cpu.shares").read_text().strip() == str(_cgroups.CPU_SHARES_V1)
                quota = int((cpu / "cpu.cfs_quota_us").read_text())
                assert quota == int((cpu / "cpu.cfs_period_us").read_text()) == _cgroups.CPU_PERIOD_US
            else:
                assert (g.dirs[0] / "cpu.max").read_text().split() == [str(_cgroups.CPU_PERIOD_US)] * 2
        assert p.run(*OK).passed


def _status(pid: int) -> dict[str, list[str]]:
    with open(f"/proc/{pid}/status") as f:
        return {k: v.split() for k, v in (line.split(":", 1) for line in f if ":" in line)}


def test_the_zygote_runs_as_the_programs_uid_with_two_capabilities(sandbox_ok: None) -> None:
    # Seen from the host: the zygote (and so every program it forks) runs as the sandbox's unprivileged uid:
    # a uid of the lease's own, not the leased uid that owns the namespace and runs bubblewrap (root), or the
    # user's own uid (a normal user's one mapped uid); it holds exactly CAP_SYS_ADMIN and CAP_SETPCAP,
    # none inheritable or ambient, and its bounding set is those two.
    with CodePool(workers=1) as p:
        sb = p._sandboxes[0]
        zygote = _zygote_pid(p)
        st = _status(zygote)
        with open(f"/proc/{zygote}/uid_map") as f:
            uid_map = [line.split() for line in f]
        with open(f"/proc/{zygote}/gid_map") as f:
            gid_map = [line.split() for line in f]
        inside = str(_isolation.SANDBOX_UID)
        if sb.lease is not None:
            outer = sb.lease.program_uid
            assert outer != sb.lease.uid
            assert uid_map == gid_map == [["0", str(sb.lease.uid), "1"], [inside, str(outer), "1"]]
            assert _status(sb.proc.pid)["Uid"] == [str(sb.lease.uid)] * 4  # bubblewrap's monitor: uid 0 inside
        else:
            outer = os.getuid()
            assert uid_map == [[inside, str(outer), "1"]] and gid_map == [[inside, str(os.getgid()), "1"]]
        assert st["Uid"] == [str(outer)] * 4
        assert st["Gid"] == [str(outer if sb.lease is not None else os.getgid())] * 4
        two = f"{(1 << 21) | (1 << 8):016x}"
        assert (st["CapEff"], st["CapPrm"], st["CapBnd"]) == ([two], [two], [two])
        assert st["CapInh"] == st["CapAmb"] == ["0" * 16]
        assert st["NoNewPrivs"] == ["1"]
        assert p.run(*OK).passed


def test_root_owned_namespaces_map_the_same_two_uids(sandbox_ok: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # Where the host forbids unprivileged user namespaces, root's launcher makes them itself (root owns
    # them): programs still run as the lease's program uid, uid 1000 inside.
    if not _isolation.host_is_root():
        pytest.skip("root's launcher only")
    real = _isolation.script_source

    def launcher_as_root(name: str) -> bytes:
        text = real(name)
        if name == "launcher":
            assert b"if _leased_owner_works(libc, uid):" in text
            text = text.replace(b"if _leased_owner_works(libc, uid):", b"if False:")
        return text

    monkeypatch.setattr(_isolation, "script_source", launcher_as_root)
    with CodePool(workers=1) as p:
        sb = p._sandboxes[0]
        assert sb.lease is not None
        fd = os.open(f"/proc/{sb.proc.pid}/ns/user", os.O_RDONLY)
        try:
            buf = bytearray(4)
            fcntl.ioctl(fd, 0xB704, buf)  # NS_GET_OWNER_UID
        finally:
            os.close(fd)
        assert struct.unpack("I", buf)[0] == 0
        assert _status(_zygote_pid(p))["Uid"] == [str(sb.lease.program_uid)] * 4
        r = p.run("import os\ndef ids():\n    return [os.getuid(), os.getgid()]\n"
                  "def root():\n    try:\n        os.setuid(0)\n    except OSError as e:\n        return e.errno\n",
                  [f"assert ids() == [{_isolation.SANDBOX_UID}, {_isolation.SANDBOX_GID}]", "assert root() == 1"])
        assert r.passed, r


def test_a_zygote_that_cannot_leave_uid_0_refuses_to_start(sandbox_ok: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # The programs' uid left unmapped (a broken map): the zygote says so and no program ever runs as uid 0.
    if not _isolation.host_is_root():
        pytest.skip("only root's zygotes leave uid 0 (a normal user's start as the programs' uid)")
    monkeypatch.setattr(_isolation, "id_maps", lambda outer, program_outer=None: [(0, outer)])
    with pytest.raises(SandboxError, match="could not become uid/gid 1000"):
        CodePool(workers=1).start().close()


def test_id_maps_name_one_uid_for_a_normal_user_and_two_for_root() -> None:
    assert _isolation.id_maps(1003) == [(_isolation.SANDBOX_UID, 1003)]
    assert _isolation.id_maps(1_900_000_000, 1_900_065_536) == [(0, 1_900_000_000),
                                                                (_isolation.SANDBOX_UID, 1_900_065_536)]
    assert _isolation.SANDBOX_UID not in (0, 65534)


def test_root_sandboxes_own_their_user_namespace(sandbox_ok: None) -> None:
    # As root, the leased uid owns each sandbox's user namespace, so the per-user kernel counts the kernel
    # charges to a namespace's owner (pending signals, ...) are that uid's, never root's.
    import fcntl
    import struct

    if not _isolation.host_is_root():
        pytest.skip("a normal user owns its sandboxes' namespaces itself")
    ns_get_owner_uid = 0xB704
    with CodePool(workers=2) as p:
        for sb in p._sandboxes:
            assert sb.lease is not None
            fd = os.open(f"/proc/{sb.proc.pid}/ns/user", os.O_RDONLY)
            try:
                buf = bytearray(4)
                fcntl.ioctl(fd, ns_get_owner_uid, buf)
            finally:
                os.close(fd)
            assert struct.unpack("I", buf)[0] == sb.lease.uid
        assert p.run(*OK).passed


def test_user_namespace_settings_are_diagnosed(tmp_path: Path) -> None:
    def sysctl(**values: str) -> str:
        d = tmp_path / str(len(list(tmp_path.iterdir())))
        for name, value in values.items():
            f = d / name.replace("__", "/")
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(value + "\n")
        return str(d)

    assert "max_user_namespaces=0" in _isolation.userns_diagnosis(True, sysctl(user__max_user_namespaces="0"))
    apparmor = sysctl(kernel__apparmor_restrict_unprivileged_userns="1")
    assert "AppArmor" in _isolation.userns_diagnosis(False, apparmor)
    assert _isolation.userns_diagnosis(True, apparmor) is None  # root makes its namespaces while privileged
    assert "unprivileged_userns_clone" in _isolation.userns_diagnosis(False, sysctl(kernel__unprivileged_userns_clone="0"))
    assert _isolation.userns_diagnosis(False, sysctl(user__max_user_namespaces="100")) is None


def test_disabled_user_namespaces_fail_loudly_with_the_fix(sandbox_ok: None,
                                                           unavailable: Unavailable) -> None:
    unshare = shutil.which("unshare")
    if unshare is None:
        unavailable("unshare", "needs util-linux unshare")
    # A user namespace of our own in which user.max_user_namespaces is 0: the pool must say so and stop.
    script = ("from verifiers.sandbox import CodePool\n"
              "try:\n    CodePool(workers=1).start()\nexcept Exception as e:\n    print(type(e).__name__, e)\n")
    cmd = f"echo 0 > /proc/sys/user/max_user_namespaces && exec {sys.executable} -c \"$0\""
    out = subprocess.run([unshare, "--user", "--map-root-user", "sh", "-c", cmd, script], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": _with_src()}, timeout=60, check=False)
    assert "SandboxError" in out.stdout and "user.max_user_namespaces=0" in out.stdout, out


def test_no_libseccomp_means_no_start_unless_asked(sandbox_ok: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise _seccomp.SeccompUnavailable("libseccomp is not installed (test); pass seccomp=False")

    _seccomp.sandbox_filter.cache_clear()
    monkeypatch.setattr(_seccomp, "_lib", missing)
    try:
        with pytest.raises(SandboxError, match="seccomp=False"):
            CodePool(workers=1).start()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with CodePool(workers=1, seccomp=False) as p:
                assert p.run(*OK).passed
        assert any("WITHOUT a syscall filter" in str(w.message) for w in caught)
    finally:
        monkeypatch.undo()
        _seccomp.sandbox_filter.cache_clear()


def test_python_312(sandbox_ok: None, unavailable: Unavailable) -> None:
    def is_312(path: str | None) -> bool:
        try:
            return bool(path) and subprocess.run([path, "-c", "import sys; assert sys.version_info[:2] == (3, 12)"],
                                                 capture_output=True, check=False).returncode == 0
        except OSError:
            return False

    candidates = ["/root/.pyenv/versions/3.12.1/bin/python3.12", "/usr/bin/python3.12", shutil.which("python3.12")]
    py = next((c for c in candidates if is_312(c)), None)
    if py is None:
        unavailable("python3.12", "no Python 3.12 here")
    # This interpreter's own path entries (its dependencies) only when it is 3.12 too: compiled modules
    # built for another version would shadow the 3.12 interpreter's own.
    path = _with_src() if sys.version_info[:2] == (3, 12) else str(SRC)
    env = {**os.environ, "PYTHONPATH": path}
    if subprocess.run([py, "-c", "import regex"], capture_output=True, check=False, env=env).returncode != 0:
        unavailable("python3.12",
                    f"{py} lacks the package's dependency `regex` (a compiled module: install it for 3.12)")
    script = ("from verifiers.sandbox import CodePool\n"
              "with CodePool(workers=2) as p:\n"
              "    rs = p.map([('import threading\\ndef f(x):\\n    t = threading.Thread(target=print)\\n"
              "    t.start(); t.join()\\n    return x + 1\\n', ['assert f(%d) == %d' % (i, i + 1)]) for i in range(20)])\n"
              "    print(sum(r.passed for r in rs), p._sandboxes[0].info['python'])\n")
    out = subprocess.run([py, "-c", script], capture_output=True, text=True, timeout=120, check=False, env=env)
    words = out.stdout.split()
    assert words[:1] == ["20"] and words[-1].startswith("3.12"), out


def test_split_limits_share_memory_between_processes() -> None:
    s = _cgroups.split_limits(512, 32)
    assert (s.procs, s.process_bytes) == (8, 64 << 20) and s.total_bytes == 512 << 20
    assert _cgroups.split_limits(4096, 32).procs == 32  # max_procs holds when memory allows it
    assert _cgroups.split_limits(4096, 32).total_bytes <= 4096 << 20
    assert _cgroups.split_limits(100, 32).procs == 2  # at least the program and one child
    assert _cgroups.split_limits(100, 32).total_bytes <= 100 << 20
    # Below 2 x 32 MB a child could not start: each process keeps 32 MB, the bound is then 64 MB.
    assert _cgroups.split_limits(32, 8).process_bytes == 32 << 20


# Eight children of 300 MB each (the 2.2 GB a program held as a normal user with memory_mb=512 before the
# split): each child holds its memory until all are forked, and reports whether it got it.
FORK_HOG = """
import os
def held(n, mb):
    r, w = os.pipe()
    pids = []
    for _ in range(n):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            os.close(w)
            try:
                b = b"x" * (mb << 20)
            except MemoryError:
                os._exit(1)
            os.read(r, 1)
            os._exit(0 if len(b) else 1)
        pids.append(pid)
    os.close(w)
    return sum(os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) == 0 for p in pids)
"""


def test_forked_children_stay_within_memory_mb_without_a_cgroup(sandbox_ok: None) -> None:
    with CodePool(workers=1, memory_mb=512, cgroup="off") as p:
        assert p.limits_in_force.startswith("split rlimit: 8 processes and threads x RLIMIT_AS 64 MB"), p.limits_in_force
        r = p.run(FORK_HOG, ["assert print(held(8, 300)) is None"], timeout_s=20)
        assert r.passed, r
        assert int(r.stdout) * 300 <= 512, r  # what the children held together stays within memory_mb
        # Children that fit in their share all get it: 7 x 40 MB (the program itself is the eighth task).
        r = p.run(FORK_HOG, ["assert held(7, 40) == 7"], timeout_s=20)
        assert r.passed, r


HONEST = {
    "multiprocessing.Pool(2)": (("import multiprocessing\ndef sq(x):\n    return x * x\n"
                                "def run():\n    with multiprocessing.Pool(2) as p:\n"
                                "        return sum(p.map(sq, range(100)))\n"), "assert run() == 328350"),
    "stdlib work": (("import collections, itertools, json, re\ndef run():\n"
                    "    c = collections.Counter(re.findall(r'\\w+', 'a b a c ' * 1000))\n"
                    "    perms = sorted(itertools.permutations(range(7)))\n"
                    "    big = [i * i for i in range(1_000_000)]\n"
                    "    return c['a'], len(perms), json.loads(json.dumps({'k': len(big)}))['k']\n"),
                    "assert run() == (2000, 5040, 1_000_000)"),
    "4 threads": (("from concurrent.futures import ThreadPoolExecutor\ndef run():\n"
                  "    with ThreadPoolExecutor(4) as ex:\n        return sum(ex.map(lambda x: x + 1, range(100)))\n"),
                  "assert run() == 5050"),
}


@pytest.mark.parametrize("name", list(HONEST))
def test_honest_programs_pass_under_split_limits(sandbox_ok: None, name: str) -> None:
    code, test = HONEST[name]
    with CodePool(workers=1, memory_mb=512, cgroup="off", timeout_s=10) as p:
        r = p.run(code, [test])
        assert r.passed, r


def test_limits_in_force_names_the_mechanism(sandbox_ok: None, tmp_path: Path) -> None:
    with CodePool(workers=1, memory_mb=256, cgroup="off") as p:
        assert p.limits_in_force.startswith("split rlimit: 4 processes and threads x RLIMIT_AS 64 MB = 256 MB")
        assert p.limits_in_force.endswith(f"programs run as uid {_isolation.SANDBOX_UID} of their own user "
                                          "namespace, no capabilities"), p.limits_in_force
        # The fifth task is refused: RLIMIT_NPROC is the split's process count.
        r = p.run("import threading, time\ndef n():\n    ts = []\n    try:\n        while len(ts) < 10:\n"
                  "            t = threading.Thread(target=time.sleep, args=(0.5,))\n            t.start()\n"
                  "            ts.append(t)\n    except RuntimeError:\n        pass\n    return len(ts)\n",
                  ["assert n() == 3"])
        assert r.passed, r
    with CodePool(workers=1, memory_mb=256, isolation="process") as p:
        assert p.limits_in_force.startswith("per-process rlimit: RLIMIT_AS 256 MB"), p.limits_in_force
        assert "uid" not in p.limits_in_force  # programs run as this process's own uid there
    with CodePool(workers=1, memory_mb=256) as p:
        assert p.limits_in_force.startswith("cgroup v" if p.cgroup_in_force else "split rlimit: ")
        assert p.limits_in_force.endswith(f"uid {_isolation.SANDBOX_UID} of their own user namespace, no capabilities")
