"""stdin/stdout programs in the pool: `CodePool.submit_stdio`/`run_stdio`, output compared in the parent."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NoReturn

import pytest

from verifiers.errors import ConfigError, SandboxError
from verifiers.sandbox import CodePool, OutputMatch, StdioTest, run_stdio
from verifiers.sandbox._stdio import compare_output

Unavailable = Callable[[str, str], NoReturn]  # tests/conftest.py's `unavailable` fixture

ADD = "print(sum(map(int, input().split())))\n"
CAP = 1 << 16


@pytest.fixture(scope="module")
def pool(unavailable: Unavailable):
    try:
        p = CodePool(workers=2, timeout_s=3.0, max_stdio_output_bytes=CAP).start()
    except SandboxError as exc:
        unavailable("bwrap", f"bubblewrap sandbox unavailable: {exc}")
    yield p
    p.close()


def T(inp: str, out: str) -> StdioTest:
    return StdioTest(inp, out)


# ------------------------------------------------------------------------------------- normal use
def test_passes_and_fails_per_test(pool: CodePool) -> None:
    r = pool.run_stdio(ADD, [T("1 2\n", "3\n"), T("5 5", "11"), T("-1 1\n", "0")])
    assert (r.passed, r.status, r.tests_passed, r.tests_total) == (False, "failed", 2, 3)
    assert [t.status for t in r.per_test] == ["passed", "failed", "passed"]
    assert r.per_test[1].test == "test 2 (stdin 3 bytes)"
    assert r.per_test[1].detail == "wrong answer: line 1 token 1 differs (expected '11', got '10')"
    assert r.pass_rate == pytest.approx(2 / 3)
    assert r.detail.startswith("test 2 (stdin 3 bytes): wrong answer")
    ok = pool.run_stdio(ADD, [T("1 2\n", "3\n"), T("5 5", "10")])
    assert (ok.passed, ok.status, ok.tests_passed, ok.pass_rate) == (True, "passed", 2, 1.0)


@pytest.mark.parametrize("code", [
    "import sys\nprint(len(sys.stdin.read().split()))",
    "print(len(open(0).read().split()))",
    "import sys\nprint(len(sys.stdin.buffer.read().split()))",
    ("import sys\nn = 0\nwhile True:\n    line = sys.stdin.readline()\n    if not line:\n        break\n"
    "    n += len(line.split())\nprint(n)"),
    "import sys\nprint(sum(len(line.split()) for line in sys.stdin))",
    "n = int(input())\nprint(n * 0 + 1 + len(input().split()) + len(input().split()))",
])
def test_every_way_of_reading_stdin(pool: CodePool, code: str) -> None:
    r = pool.run_stdio(code, [T("3\na b c\nd e", "6"), T("1\n\nx\n", "2\n")])
    assert r.passed, r


def test_large_input_and_output(pool: CodePool) -> None:
    inp = " ".join(str(i) for i in range(150_000))  # ~1 MB, no trailing newline
    assert len(inp) > 900_000
    r = pool.run_stdio("import sys\nv = list(map(int, sys.stdin.read().split()))\nprint(len(v), sum(v))",
                       [T(inp, f"150000 {sum(range(150_000))}")])
    assert r.passed, r.detail
    big = "\n".join(str(i) for i in range(10_000))  # ~49 KB, under the pool's 64 KiB cap
    r = pool.run_stdio("for i in range(int(input())):\n    print(i)", [T("10000", big)])
    assert r.passed, r.detail


def test_runs_as_main_and_exits_normally(pool: CodePool) -> None:
    main = "def solve():\n    print(int(input()) * 2)\n\nif __name__ == '__main__':\n    solve()\n"
    assert pool.run_stdio(main, [T("21", "42")]).passed
    for end in ("sys.exit(0)", "sys.exit()", "exit()", "quit()", "exit(0)", "raise SystemExit"):
        r = pool.run_stdio(f"import sys\nprint('done', end='')\n{end}\nprint('never')", [T("", "done")])
        assert r.passed, (end, r)


def test_nonzero_exit_and_exceptions_are_runtime_errors(pool: CodePool) -> None:
    r = pool.run_stdio("import sys\nprint(3)\nsys.exit(1)", [T("", "3")])
    assert (r.status, r.per_test[0].status, r.per_test[0].detail) == ("runtime_error", "error",
                                                                      "runtime error: exit status 1")
    r = pool.run_stdio("import sys\nsys.exit('bad input')", [T("", "")])
    assert r.per_test[0].detail == "runtime error: SystemExit: bad input"
    r = pool.run_stdio("print(1)\nraise ValueError('nope')", [T("", "1")])
    assert r.status == "runtime_error" and r.per_test[0].detail == "runtime error: ValueError: nope"
    r = pool.run_stdio("input()\ninput()", [T("only one line", "")])  # EOF
    assert r.per_test[0].detail.startswith("runtime error: EOFError")
    r = pool.run_stdio("import os\nprint(1, flush=True)\nos._exit(4)", [T("", "1")])
    assert r.per_test[0].detail == "runtime error: exit status 4"
    r = pool.run_stdio("def f(:\n", [T("", ""), T("", "")])
    assert r.status == "syntax_error" and r.tests_passed == 0
    assert r.per_test[0].detail.startswith("syntax error: SyntaxError")


def test_stderr_does_not_count(pool: CodePool) -> None:
    r = pool.run_stdio("import sys\nprint('noise', file=sys.stderr)\nprint(7)", [T("", "7")])
    assert r.passed


# ------------------------------------------------------------------------------------- comparison
def test_whitespace_float_tolerance_and_hostile_outputs(pool: CodePool) -> None:
    crlf = "import sys\nsys.stdout.write('1 2\\r\\n3\\r\\n\\r\\n   ')"
    assert pool.run_stdio(crlf, [T("", "1 2\n3\n")]).passed
    third = "print(1 / 3)"
    assert not pool.run_stdio(third, [T("", "0.333333")]).passed
    assert pool.run_stdio(third, [T("", "0.333333")], match=OutputMatch(float_tol=1e-6)).passed
    assert not pool.run_stdio(third, [T("", "0.3333")], match=OutputMatch(float_tol=1e-6)).passed
    assert pool.run_stdio("print('h\u00e9llo \u4e16\u754c')", [T("", "h\u00e9llo  \u4e16\u754c\n")]).passed
    r = pool.run_stdio("import sys\nsys.stdout.write('1\\x00')", [T("", "1")])
    assert r.status == "failed"
    r = pool.run_stdio("import sys\nsys.stdout.buffer.write(b'\\xff')", [T("", "\u00ff")])
    assert r.status == "failed"
    r = pool.run_stdio("print('9' * 60000)", [T("", "8" * 60000)], match=OutputMatch(float_tol=0.5))
    assert r.status == "failed" and len(r.per_test[0].detail) < 200, r.per_test[0].detail


def test_compare_output_details() -> None:
    assert compare_output("1 2\n3", b"1\n2 3\n\n") is None
    assert compare_output("1 2\n3", b"1 2\n4") == "wrong answer: line 2 token 1 differs (expected '3', got '4')"
    assert compare_output("1 2 3", b"1 2") == "wrong answer: output ends after 2 tokens, expected 3"
    assert compare_output("1", b"1\n2\n") == "wrong answer: extra output from line 2 token 1 (expected 1 tokens)"
    # read a piece at a time: a difference far into a large output is still placed exactly
    many = "\n".join(" ".join(str(i * 10 + j) for j in range(10)) for i in range(20_000))
    bad = many.replace("123456", "999999").encode()
    assert compare_output(many, many.encode()) is None
    assert compare_output(many, bad) == "wrong answer: line 12346 token 7 differs (expected '123456', got '999999')"
    assert compare_output(many, many.encode() + b" 1") == \
        "wrong answer: extra output from line 20000 token 11 (expected 200000 tokens)"
    assert compare_output("1", b"9" * (1 << 20)).endswith("got '999999999999999999999999...')")
    assert compare_output("", b"") is None
    assert compare_output("1000000", b"1000001", 1e-6) is None  # relative above 1
    assert compare_output("0.5", b"0.5000001", 1e-6) is None  # absolute below 1
    assert compare_output("0.5", b"0.500002", 1e-6) is not None
    assert compare_output("nan", b"nan", 1e-6) is None  # equal tokens
    assert compare_output("inf", b"1e999", 1e-6) is not None
    assert compare_output("1000", b"1_000", 1e-6) is not None  # only plain decimal numbers are numbers
    assert compare_output("1", b"1" + b"0" * 10_000, 1e-6) is not None


# ------------------------------------------------------------------------------------- checker
CHECKER = ("def check(input, expected, output):\n"
           "    a, b = map(int, input.split())\n"
           "    x, y = map(int, output.split())\n"
           "    return x + y == a + b and x >= 0 and y >= 0\n")


def test_checker_true_false_and_failures(pool: CodePool) -> None:
    split = "a, b = map(int, input().split())\nprint(b, a)"  # any split of a + b is accepted
    m = OutputMatch(checker=CHECKER)
    r = pool.run_stdio(split, [T("1 4", "1 4"), T("2 3", "5 0")], match=m)
    assert r.passed, r
    r = pool.run_stdio("print(-1, 6)", [T("1 4", "1 4")], match=m)
    assert (r.status, r.per_test[0].status) == ("failed", "failed")
    assert r.per_test[0].detail == "wrong answer: the checker rejected the output"
    r = pool.run_stdio("print('x')", [T("1 4", "1 4")], match=m)  # the checker raises on this output
    assert r.per_test[0].status == "error" and "checker failed (not the program)" in r.per_test[0].detail
    r = pool.run_stdio("import sys\nsys.exit(2)", [T("1 4", "1 4")], match=m)  # the program's own failure
    assert r.per_test[0].detail == "runtime error: exit status 2"


def test_checker_with_large_data_and_its_own_prints(pool: CodePool) -> None:
    inp = " ".join(str(i) for i in range(150_000))  # ~1 MB each: input and expected
    chatty = ("def check(input, expected, output):\n    print('checking', len(output))\n"
              "    return int(output) == len(input.split()) == len(expected.split())\n")
    r = pool.run_stdio("import sys\nprint(len(sys.stdin.read().split()))", [T(inp, inp), T("1 2", "1 2 3")],
                       match=OutputMatch(checker=chatty))
    assert [t.status for t in r.per_test] == ["passed", "failed"], r.per_test
    r = pool.run_stdio("print(1)", [T("", "1")], match=OutputMatch(checker="def check(i, e, o):\n    return True\n"
                                                                          "import os\nos.write(1, b'11')\n"))
    assert r.per_test[0].status == "error" and "no verdict" in r.per_test[0].detail
    r = pool.run_stdio("print(1)", [T("", "1")], match=OutputMatch(checker="def chek(i, e, o):\n    return True\n"))
    assert r.per_test[0].status == "error" and "NameError" in r.per_test[0].detail


@pytest.mark.slow
def test_a_checker_that_never_ends_is_an_error(pool: CodePool) -> None:
    r = pool.run_stdio("print(1)", [T("", "1")], match=OutputMatch(checker="def check(i, e, o):\n    while True: pass\n"))
    assert r.per_test[0].status == "error" and "checker failed" in r.per_test[0].detail
    assert "timeout" in r.per_test[0].detail


# ------------------------------------------------------------------------------------- limits
def test_output_flood_is_stopped(pool: CodePool) -> None:
    t0 = time.monotonic()
    r = pool.run_stdio("while True:\n    print('x' * 1000)", [T("", "x")])
    assert time.monotonic() - t0 < 10
    assert r.status == "runtime_error" and r.per_test[0].detail.startswith("output limit exceeded")
    r = pool.run_stdio("import os\nwhile True:\n    os.write(1, b'y' * 4096)", [T("", "y")])
    assert r.per_test[0].detail.startswith("output limit exceeded")
    assert len(r.stdout) <= CAP


def test_a_correct_long_answer_passes_the_function_tasks_diagnostic_cap(pool: CodePool) -> None:
    """What a stdin/stdout program prints is its answer: ``max_output_bytes`` (a function task's diagnostics, 8 KiB
    by default) does not cut it; ``max_stdio_output_bytes`` does (redteam27 finding 1)."""
    big = " ".join(["1"] * 20_000)  # 40 kB, over the default 8 KiB diagnostic cap, under CAP
    code = "import sys\nn = int(input())\nsys.stdout.write(' '.join(['1'] * n))\n"
    assert pool.max_output_bytes == 8192 and pool.run_stdio(code, [T("20000\n", big)]).passed
    r = pool.run_stdio(code, [T(f"{CAP}\n", "1")])
    assert r.per_test[0].detail.startswith("output limit exceeded") and f"more than {CAP} bytes" in r.per_test[0].detail


@pytest.mark.parametrize("bad", [0, 16 << 20, -1])
def test_a_bad_stdio_output_cap_is_a_config_error(bad: int) -> None:
    with pytest.raises(ConfigError, match="max_stdio_output_bytes must be between 1 and"):
        CodePool(workers=1, max_stdio_output_bytes=bad)


def test_cpu_limit_wall_backstop_and_memory(pool: CodePool) -> None:
    r = pool.run_stdio("while True:\n    pass", [T("", "")], timeout_s=0.5)
    assert (r.status, r.per_test[0].status) == ("timeout", "error") and r.per_test[0].detail.startswith("timeout")
    r = pool.run_stdio("import time\ntime.sleep(60)", [T("", "")], timeout_s=0.3)
    assert r.status == "timeout" and "wall-time" in r.per_test[0].detail
    r = pool.run_stdio("x = bytearray(2 << 30)\nprint(len(x))", [T("", "1")])
    assert r.status == "memory" and r.per_test[0].status == "error"


def test_stop_on_failure_and_total_timeout(pool: CodePool) -> None:
    tests = [T("1 1", "2"), T("1 1", "3"), T("2 2", "4")]
    r = pool.run_stdio(ADD, tests, stop_on_failure=True)
    assert [t.status for t in r.per_test] == ["passed", "failed", "not_run"]
    assert r.status == "failed" and r.tests_passed == 1
    r = pool.run_stdio(ADD, tests)
    assert [t.status for t in r.per_test] == ["passed", "failed", "passed"]
    busy = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\nprint(1)"
    r = pool.run_stdio(busy, [T("", "1")] * 6, timeout_s=2.0, total_timeout_s=0.7)
    assert r.status == "timeout", r
    statuses = [t.status for t in r.per_test]
    assert statuses[:2] == ["passed", "passed"] and statuses[-1] == "not_run"
    assert r.cpu_s < 1.5
    assert any("total time limit" in t.detail for t in r.per_test)


def test_a_program_that_sleeps_stops_its_problem_after_one_backstop(pool: CodePool) -> None:
    """Sequential tests (a problem CPU budget, no stop at failures): a run that slept past its wall-time backstop
    leaves the rest not_run, so a sleeper holds a sandbox for one backstop, not one per test (redteam27b F2)."""
    sleeper = "import time\ninput()\ntime.sleep(1000)"
    t0 = time.monotonic()
    r = pool.run_stdio(sleeper, [T("1", "1")] * 6, timeout_s=0.3, total_timeout_s=5.0)
    took = time.monotonic() - t0
    assert [t.status for t in r.per_test] == ["error"] + ["not_run"] * 5
    assert r.per_test[0].detail.startswith("timeout (wall-time backstop")
    assert all("slept past the wall-time backstop" in t.detail for t in r.per_test[1:])
    assert took < 6 * 1.9 * 0.5, took  # one backstop (3 x 0.3 + 1 s, load-stretched), far from six
    # a CPU timeout is not sleeping: the next tests still run (partial credit stays per test)
    slow_first = "n = int(input())\nwhile n == 1:\n    pass\nprint(n)"
    r = pool.run_stdio(slow_first, [T("1", "1"), T("2", "2"), T("3", "3")], timeout_s=0.3, total_timeout_s=5.0)
    assert [t.status for t in r.per_test] == ["error", "passed", "passed"]


def test_a_problem_keeps_the_output_of_the_run_it_shows_only(pool: CodePool) -> None:
    """A program printing a lot on every test: the parent keeps the shown run's output, not every test's
    (redteam27b F4: 48 tests x 8 MiB grew the scoring process by 816 MB)."""
    import tracemalloc

    flood = "import sys\ninput()\nsys.stdout.write('7' * 60000)"  # under CAP, wrong on every test
    tests = [T("1", "1")] * 40
    tracemalloc.start()
    try:
        r = pool.run_stdio(flood, tests, total_timeout_s=30.0)  # sequential: one run at a time
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.tests_passed == 0 and len(r.stdout) == 60000
    assert peak < 40 * 60000, peak  # every test's output kept would be at least 2.4 MB


def test_no_tests_and_bad_input(pool: CodePool) -> None:
    r = pool.run_stdio(ADD, [])
    assert (r.status, r.passed, r.tests_total) == ("no_tests", False, 0)
    bad: list[tuple[object, object, dict[str, object]]] = [
        (1, [T("", "")], {}), (ADD, "1 2", {}), (ADD, [{"input": "", "output": ""}], {}),
        (ADD, [StdioTest(1, "")], {}),  # type: ignore[arg-type]
        (ADD, [T("", "")], {"match": {"float_tol": 1e-6}}),
        (ADD, [T("", "")], {"match": OutputMatch(float_tol=-1)}),
        (ADD, [T("", "")], {"match": OutputMatch(float_tol=float("nan"))}),
        (ADD, [T("", "")], {"match": OutputMatch(checker=b"x")}),  # type: ignore[arg-type]
        (ADD, [T("", "")], {"timeout_s": 0}), (ADD, [T("", "")], {"total_timeout_s": -1}),
        (ADD, [T("", "")], {"stop_on_failure": "yes"}),
    ]
    for code, tests, kw in bad:
        with pytest.raises(ConfigError):
            pool.submit_stdio(code, tests, **kw)  # type: ignore[arg-type]


def test_many_problems_at_once_keep_their_results(pool: CodePool) -> None:
    futs = [pool.submit_stdio(ADD, [T(f"{i} {j}", str(i + j + (i == 7))) for j in range(5)]) for i in range(40)]
    res = [f.result() for f in futs]
    assert [r.tests_passed for r in res] == [0 if i == 7 else 5 for i in range(40)]


def test_module_function_with_pool(pool: CodePool) -> None:
    assert run_stdio(ADD, [T("2 2", "4")], pool=pool).passed


# ------------------------------------------------------------------------------------- hostile programs
SNOOP = r"""
import gc, os, sys
MARK = "".join(map(chr, [69, 88, 80, 69, 67, 84, 69, 68, 45, 55, 100, 49, 102]))  # no constant holds it
found = []
data = sys.stdin.read()
if MARK in data:
    found.append("stdin")
# every str/bytes held by a container the collector tracks, or by a module (the program's own MARK aside)
for o in gc.get_objects() + [vars(m) for m in list(sys.modules.values())]:
    items = o.values() if type(o) is dict else o if type(o) in (list, tuple, set, frozenset) else ()
    for x in items:
        if x is not MARK and ((type(x) is str and MARK in x) or (type(x) is bytes and MARK.encode() in x)):
            found.append("memory")
for fd in range(64):
    try:
        os.set_blocking(fd, False)
    except OSError:
        pass
    try:
        os.lseek(fd, 0, 0)
    except OSError:
        pass
    try:
        blob = os.read(fd, 1 << 20)
    except OSError:
        continue
    if MARK.encode() in blob:
        found.append(f"fd {fd}")
for root in ("/tmp", "/dev/shm", "/", "/dev"):
    try:
        for name in os.listdir(root):
            p = os.path.join(root, name)
            if os.path.isfile(p):
                try:
                    if MARK.encode() in open(p, "rb").read(1 << 20):
                        found.append(p)
                except OSError:
                    pass
    except OSError:
        pass
print(" ".join(found) or "nothing")
"""


def test_expected_output_is_nowhere_in_the_sandbox(pool: CodePool) -> None:
    mark = "EXPECTED-" + "7d1f"
    r = pool.run_stdio(SNOOP, [T("some input\n", mark), T("", mark + " stdin")])
    assert r.tests_passed == 0
    assert [t.detail for t in r.per_test] == [(f"wrong answer: line 1 token 1 differs (expected {mark!r}, got "
                                              "'nothing')")] * 2
    r = pool.run_stdio(SNOOP, [T("", mark)], match=OutputMatch(checker="def check(i, e, o):\n    return e == o\n"))
    assert r.per_test[0].status == "failed"


def test_forged_verdict_frames_do_not_help(pool: CodePool) -> None:
    # A program writes the child's own "ok" frame on the channel, then fails: a protocol violation.
    forge = "import os, struct\nf = b'[\"ok\"]'\nos.write(3, struct.pack('>I', len(f)) + f)\nraise SystemExit(1)"
    r = pool.run_stdio(forge, [T("", "")])
    assert r.status == "runtime_error" and "protocol violation" in r.per_test[0].detail
    # ... or writes it and leaves without output: its (empty) output is what is judged.
    forge0 = "import os, struct\nf = b'[\"ok\"]'\nos.write(3, struct.pack('>I', len(f)) + f)\nos._exit(0)"
    assert pool.run_stdio(forge0, [T("", "42")]).status == "failed"
    # the pool still serves honest programs
    assert pool.run_stdio(ADD, [T("1 1", "2")]).passed


def test_a_program_too_long_is_not_run(pool: CodePool) -> None:
    r = pool.run_stdio("#" * 1_000_001, [T("", "")])
    assert r.status == "runtime_error" and r.per_test[0].status == "not_run"


def test_process_isolation_runs_stdio_too(pool: CodePool) -> None:
    with CodePool(workers=1, isolation="process", timeout_s=3.0) as p:
        r = p.run_stdio(ADD + "import sys\nsys.exit(0)\n", [T("1 2", "3"), T("2 2", "5")])
        assert [t.status for t in r.per_test] == ["passed", "failed"]


@pytest.mark.slow
@pytest.mark.mutex("ray")  # under -n N: test_ray_cluster.py's `ray stop --force` would kill it
def test_ray_backend_runs_stdio(pool: CodePool, unavailable: Unavailable) -> None:
    try:
        import ray
    except ImportError as exc:
        unavailable("ray", f"ray is not installed: {exc}")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with CodePool(workers=2, backend="ray") as p:
            r = p.run_stdio(ADD, [T("1 2", "3"), T("2 2", "5"), T("4 4", "8")])
            assert [t.status for t in r.per_test] == ["passed", "failed", "passed"]
            r = p.run_stdio("print(1)", [T("", "1")], match=OutputMatch(checker="def check(i, e, o):\n    return o.strip() == e\n"))
            assert r.passed
    finally:
        ray.shutdown()
