"""Throughput of stdin/stdout tests in `CodePool` against a subprocess-per-program baseline, in one run.

(a) ``CodePool.map``-style: problems submitted with `CodePool.submit_stdio`, full isolation (bubblewrap,
    a pristine zygote forking each test's run into its own pid namespace, seccomp, rlimits), the output
    compared in the parent;
(b) baseline: ``subprocess.run([python, "-c", code], input=..., capture_output=True)`` per test, token
    comparison in the parent, no isolation, a thread pool of the same width;
(c) MBPP (the 973 reference solutions other than mbpp/123, assert tests) through the pool, to check the
    assert path keeps its speed.

Passes are interleaved (a, b, c, a, b, c, ...), the median of each is kept. The machine may be shared:
the 1-minute load average before and after is recorded with the figures.

    python evals/sandbox/bench_stdio.py --data-dir ../shared/data --workers 2 --passes 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_throughput import _sandbox_cpu

from verifiers.datasets import load_problems
from verifiers.sandbox import CodePool, StdioTest

HERE = Path(__file__).resolve().parent
PROGRAM = "print(sum(map(int, input().split())))\n"


def make_tests(problems: int, per_problem: int) -> list[list[StdioTest]]:
    """Trivial a+b tests: ``problems`` problems of ``per_problem`` tests each."""
    return [[StdioTest(f"{p} {t}\n", f"{p + t}\n") for t in range(per_problem)] for p in range(problems)]


def _cpu() -> float:
    """CPU seconds of this process, its reaped children (the baseline) and the live sandboxes (the pool)."""
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ch.ru_utime + ch.ru_stime + _sandbox_cpu()


def pool_stdio(pool: CodePool, suites: list[list[StdioTest]]) -> tuple[float, int, int]:
    """Seconds, tests passed, tests run."""
    t0 = time.perf_counter()
    futs = [pool.submit_stdio(PROGRAM, tests) for tests in suites]
    res = [f.result() for f in futs]
    return time.perf_counter() - t0, sum(r.tests_passed for r in res), sum(r.tests_total for r in res)


def subprocess_stdio(suites: list[list[StdioTest]], workers: int) -> tuple[float, int, int]:
    def one(t: StdioTest) -> bool:
        r = subprocess.run([sys.executable, "-c", PROGRAM], input=t.input.encode(), capture_output=True,
                           timeout=30, check=False)
        return r.returncode == 0 and r.stdout.split() == t.output.encode().split()

    flat = [t for s in suites for t in s]
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as ex:
        ok = sum(ex.map(one, flat))
    return time.perf_counter() - t0, ok, len(flat)


def pool_mbpp(pool: CodePool, problems: list[Any]) -> tuple[float, int, int]:
    items = [{"code": p.solution, "tests": list(p.tests), "setup_code": p.setup_code} for p in problems]
    t0 = time.perf_counter()
    res = pool.map(items)
    return time.perf_counter() - t0, sum(r.passed for r in res), len(res)


def subprocess_mbpp(problems: list[Any], workers: int) -> tuple[float, int, int]:
    """The baseline for (c): ``python -c`` per program (solution, set-up code, its asserts), exit code read."""
    def one(p: Any) -> bool:
        code = "\n".join([p.solution, p.setup_code or "", *p.tests])
        return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60,
                              check=False).returncode == 0

    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as ex:
        ok = sum(ex.map(one, problems))
    return time.perf_counter() - t0, ok, len(problems)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--problems", type=int, default=200)
    ap.add_argument("--tests-per-problem", type=int, default=10)
    ap.add_argument("--baseline-tests", type=int, default=400, help="tests per baseline pass (it is slow)")
    ap.add_argument("--baseline-mbpp", type=int, default=200, help="MBPP programs per baseline pass")
    ap.add_argument("--out", default=str(HERE / "results_stdio"))
    args = ap.parse_args()

    suites = make_tests(args.problems, args.tests_per_problem)
    base_suites = make_tests(args.baseline_tests // 10, 10)
    # Without mbpp/123 (~2.5 s of CPU alone: on 2 cores it bounds the wall time of the whole set), as the
    # per-program overhead row of results.md.
    mbpp = [p for p in load_problems("mbpp", Path(args.data_dir) / "mbpp" / "mbpp.jsonl", split="all")
            if p.id != "mbpp/123"]
    load0 = os.getloadavg()
    base_mbpp = mbpp[:args.baseline_mbpp]
    runs: dict[str, list[dict[str, float]]] = {"pool_stdio": [], "subprocess_stdio": [], "pool_mbpp": [],
                                               "subprocess_mbpp": []}
    # No sandbox is recycled during the run: a replaced sandbox's CPU would leave /proc uncounted.
    with CodePool(workers=args.workers, timeout_s=30.0, recycle_after=10**9) as pool:
        pool.run_stdio(PROGRAM, make_tests(20, 1)[0] * 20)  # warm
        pool.map([{"code": "def f():\n    return 1\n", "tests": ["assert f() == 1"]}] * 20)
        for i in range(args.passes):
            for name, fn in (("pool_stdio", lambda: pool_stdio(pool, suites)),
                             ("subprocess_stdio", lambda: subprocess_stdio(base_suites, args.workers)),
                             ("pool_mbpp", lambda: pool_mbpp(pool, mbpp)),
                             ("subprocess_mbpp", lambda: subprocess_mbpp(base_mbpp, args.workers))):
                la, c0 = os.getloadavg()[0], _cpu()
                secs, ok, n = fn()
                cpu_ms = (_cpu() - c0) / n * 1000
                runs[name].append({"seconds": secs, "passed": ok, "total": n, "per_s": n / secs, "load1": la,
                                   "cpu_ms": cpu_ms})
                print(f"pass {i + 1} {name}: {n} in {secs:.2f} s = {n / secs:,.0f}/s, {cpu_ms:.2f} ms CPU each "
                      f"({ok}/{n} passed, load {la:.1f})", flush=True)
        limits = pool.limits_in_force
    load1 = os.getloadavg()
    med = {k: statistics.median(r["per_s"] for r in v) for k, v in runs.items()}
    cpu = {k: statistics.median(r["cpu_ms"] for r in v) for k, v in runs.items()}
    out = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"), "host": platform.node(),
        "cpus": os.cpu_count(), "python": platform.python_version(), "workers": args.workers,
        "passes": args.passes, "program": PROGRAM.strip(), "problems": args.problems,
        "tests_per_problem": args.tests_per_problem, "baseline_tests": len(base_suites) * 10,
        "baseline_mbpp": len(base_mbpp), "affinity": sorted(os.sched_getaffinity(0)),
        "loadavg_before": load0, "loadavg_after": load1, "limits_in_force": limits,
        "median_per_s": med, "median_cpu_ms": cpu, "runs": runs,
    }
    Path(args.out + ".json").write_text(json.dumps(out, indent=1) + "\n")
    md = [
        "# stdin/stdout throughput (`evals/sandbox/bench_stdio.py`)", "",
        (f"{out['date']}, {os.cpu_count()} CPUs, {args.workers} workers, Python {out['python']}; "
        f"load average (1/5/15 min) before {' / '.join(f'{x:.1f}' for x in load0)}, after "
        f"{' / '.join(f'{x:.1f}' for x in load1)}: a SHARED, noisy machine unless those are near 0; "
        f"CPUs this process may use: {len(out['affinity'])}."),
        f"Limits: {limits}.", "",
        (f"Program: `{PROGRAM.strip()}`; pool: {args.problems} problems x {args.tests_per_problem} tests per pass; "
        f"baseline: {len(base_suites) * 10} tests per pass. Median of {args.passes} interleaved passes."), "",
        ("| runner | median tests/s | passes (tests/s) | CPU ms each (median) | 2 cores / CPU ms "
        "(/s) | passed |"), "|---|---|---|---|---|---|",
    ]
    labels = {"pool_stdio": "CodePool.submit_stdio (full isolation)",
              "subprocess_stdio": "subprocess.run per test (no isolation)",
              "pool_mbpp": "CodePool.map, 973 MBPP reference programs, without mbpp/123 (programs/s)",
              "subprocess_mbpp": (f"subprocess.run per MBPP program, the first {len(base_mbpp)} of those (programs/s; "
                                  "no isolation, exit code)")}
    for k, v in runs.items():
        per_pass = ", ".join(f"{r['per_s']:,.0f}" for r in v)
        md.append(f"| {labels[k]} | {med[k]:,.0f} | {per_pass} | {cpu[k]:.2f} | {2000 / cpu[k]:,.0f} | "
                  f"{v[-1]['passed']}/{v[-1]['total']} |")
    md += ["", (f"Pool vs subprocess on stdin/stdout tests: {med['pool_stdio'] / med['subprocess_stdio']:.1f}x by "
           f"median rate, {cpu['subprocess_stdio'] / cpu['pool_stdio']:.1f}x by CPU per test; on MBPP programs "
           f"{med['pool_mbpp'] / med['subprocess_mbpp']:.1f}x by median rate. CPU: this process, its "
           "reaped children and every sandbox process (from /proc); CPU per test grows with contention on a loaded host, so the 2-cores figure is no bound there."),
           f"Regenerate: `python evals/sandbox/bench_stdio.py --data-dir ../shared/data --passes {args.passes}`."]
    Path(args.out + ".md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
