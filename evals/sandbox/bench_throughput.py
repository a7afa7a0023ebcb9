"""Throughput benchmark: score all 974 MBPP reference solutions three ways, in one run.

(a) `verifiers.sandbox.CodePool` with full isolation (bubblewrap with a user namespace per sandbox, a
    pristine zygote forking each program into its own pid namespace with a fresh /tmp and no
    capabilities, rlimits, seccomp, a cgroup per sandbox where the host allows), judged in the parent;
(b) a subprocess-per-program baseline (``python -c program+tests``; pass = exit code 0);
(c) a human-eval-style runner (``multiprocessing.Manager`` + ``Process`` per program, ``exec`` in the
    child under a SIGALRM time limit, a thread pool driving it), as in openai/human-eval execution.py.

All three use the same number of parallel workers. Reports programs/s and asserts/s, how many reference
solutions pass, and writes ``results.md`` + ``results.json`` next to this file.

    python evals/sandbox/bench_throughput.py --data-dir ../shared/data --workers 2
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import io
import json
import multiprocessing
import os
import platform
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import Progress

from verifiers.datasets import load_problems
from verifiers.sandbox import CodePool

HERE = Path(__file__).resolve().parent
TIMEOUT_S = 30.0  # generous: one reference solution (task 123) needs seconds of CPU
console = Console()


def _program(p: Any) -> str:
    return f"{p.solution}\n{p.setup_code}\n" + "\n".join(p.tests) + "\n"


# ------------------------------------------------------------------------------------------ runners
_TICK = os.sysconf("SC_CLK_TCK")


def _sandbox_cpu() -> float:
    """CPU seconds of this process's live descendants (sandboxes, workers) and of the children they reaped.

    getrusage cannot see these: their parents inside bubblewrap's pid namespace are never reaped while the
    pool runs. /proc can: each live process's own time plus its reaped children's (fields 14-17 of stat).
    """
    kids: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(d)] = fields
            kids.setdefault(int(fields[1]), []).append(int(d))
    total, todo = 0, list(kids.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        total += sum(int(x) for x in stats[pid][11:15])  # utime stime cutime cstime
        todo += kids.get(pid, [])
    return total / _TICK


def run_pool(problems: list[Any], workers: int) -> list[bool]:
    t_start = time.perf_counter()
    with CodePool(workers=workers, timeout_s=TIMEOUT_S) as pool:
        run_pool.startup = time.perf_counter() - t_start  # type: ignore[attr-defined]
        run_pool.limits = getattr(pool, "limits_in_force", "")  # type: ignore[attr-defined]  # older pools lack it
        pool.map([{"code": "def f():\n    return 1\n", "tests": ["assert f() == 1"]}] * 20)  # warm
        s0, p0, t0 = _sandbox_cpu(), time.process_time(), time.perf_counter()
        results = pool.map([{"code": p.solution, "tests": list(p.tests), "setup_code": p.setup_code}
                            for p in problems])
        run_pool.elapsed = time.perf_counter() - t0  # type: ignore[attr-defined]
        run_pool.cpu = (time.process_time() - p0, _sandbox_cpu() - s0)  # type: ignore[attr-defined]
    return [r.passed for r in results]


def run_subprocess(problems: list[Any], workers: int) -> list[bool]:
    def one(p: Any) -> bool:
        try:
            r = subprocess.run([sys.executable, "-c", _program(p)], capture_output=True, timeout=TIMEOUT_S,
                               cwd=tempfile.gettempdir(), check=False)
        except subprocess.TimeoutExpired:
            return False
        return r.returncode == 0

    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as ex:
        out = list(ex.map(one, problems))
    run_subprocess.elapsed = time.perf_counter() - t0  # type: ignore[attr-defined]
    return out


@contextlib.contextmanager
def _time_limit(seconds: float):
    def handler(signum: int, frame: Any) -> None:
        raise TimeoutError("Timed out!")

    signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.signal(signal.SIGALRM, handler)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _unsafe_execute(program: str, timeout: float, result: Any) -> None:
    """human-eval's unsafe_execute: tempdir, swallowed IO, a few disabled functions, exec, SIGALRM."""
    with tempfile.TemporaryDirectory() as d:
        os.chdir(d)
        faulthandler.disable()
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                    _time_limit(timeout):
                exec(program, {})  # noqa: S102  (the baseline being measured)
            result.append("passed")
        except TimeoutError:
            result.append("timed out")
        except BaseException as e:  # noqa: BLE001  (as human-eval does)
            result.append(f"failed: {e}")


def _check_correctness(program: str) -> bool:
    manager = multiprocessing.Manager()
    result = manager.list()
    p = multiprocessing.Process(target=_unsafe_execute, args=(program, TIMEOUT_S, result))
    p.start()
    p.join(timeout=TIMEOUT_S + 1)
    if p.is_alive():
        p.kill()
    ok = len(result) > 0 and result[0] == "passed"
    manager.shutdown()
    return ok


def run_humaneval(problems: list[Any], workers: int) -> list[bool]:
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as ex:
        out = list(ex.map(lambda p: _check_correctness(_program(p)), problems))
    run_humaneval.elapsed = time.perf_counter() - t0  # type: ignore[attr-defined]
    return out


RUNNERS: dict[str, tuple[str, Callable[[list[Any], int], list[bool]]]] = {
    "pool": (("(a) verifiers CodePool: bwrap, userns per sandbox, pid ns + fresh /tmp per program, no caps, "
              "rlimits, seccomp, cgroup; judged in parent"), run_pool),
    "subprocess": ("(b) subprocess per program (`python -c`, exit code)", run_subprocess),
    "humaneval": ("(c) human-eval style (Manager + Process per program, exec + SIGALRM)", run_humaneval),
}


# --------------------------------------------------------------------------------------------- main
def _cpu() -> float:
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=os.environ.get("VERIFIERS_DATA_DIR", "../shared/data"))
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--runners", default="pool,subprocess,humaneval")
    ap.add_argument("--out", default=str(HERE))
    ap.add_argument("--repeat", type=int, default=7, help="passes of the (fast) pool runner; the median is kept")
    args = ap.parse_args(argv)
    problems = load_problems("mbpp", Path(args.data_dir) / "mbpp" / "mbpp.jsonl", split="all")
    n_asserts = sum(len(p.tests) for p in problems)
    long_tail = {p.id for p in problems if p.id == "mbpp/123"}  # ~2.5-3 s of CPU on its own
    rows = []
    load_before = os.getloadavg()
    names = args.runners.split(",")
    # Subset by subset, all runners back to back: the ratios compare runs minutes apart at most (this
    # shared VM's speed drifts by 10-20 % over minutes).
    for subset_name, subset in (("all 974", problems), ("973 (without mbpp/123)",
                                                          [p for p in problems if p.id not in long_tail])):
        for name in names:
            label, fn = RUNNERS[name]
            console.print(f"[bold]{label}[/] on {subset_name} ...")
            passes = []
            with Progress(transient=True, console=console) as prog:
                prog.add_task(name, total=None)
                for _ in range(args.repeat if name == "pool" else 1):
                    c0 = _cpu()
                    passed = fn(subset, args.workers)
                    # the pool's own accounting (parent + sandboxes via /proc); getrusage for the others
                    parent_s, sandbox_s = getattr(fn, "cpu", (_cpu() - c0, 0.0))
                    passes.append((fn.elapsed, parent_s + sandbox_s, parent_s))  # type: ignore[attr-defined]
            elapsed, cpu, parent_cpu = sorted(passes)[len(passes) // 2]
            asserts = sum(len(p.tests) for p in subset)
            row = {"runner": name, "label": label, "subset": subset_name, "programs": len(subset),
                   "asserts": asserts, "passed": sum(passed), "seconds": round(elapsed, 3),
                   "programs_per_s": round(len(subset) / elapsed, 1), "asserts_per_s": round(asserts / elapsed, 1),
                   "cpu_ms_per_program": round(cpu / len(subset) * 1000, 2),
                   "parent_cpu_ms_per_program": round(parent_cpu / len(subset) * 1000, 2),
                   "passes_seconds": [round(e, 3) for e, *_ in passes]}
            rows.append(row)
            console.print(row)
    rows.sort(key=lambda r: names.index(r["runner"]))  # stable: each runner's subsets stay in order
    write_report(rows, args.workers, n_asserts, load_before, Path(args.out))
    return 0


def _ceiling(rows: list[dict[str, Any]]) -> str:
    cpus = os.cpu_count() or 1
    r = next((r for r in rows if r["runner"] == "pool" and r["subset"].startswith("973")), None)
    return f"{cpus * 1000 / r['cpu_ms_per_program']:,.0f}" if r and r["cpu_ms_per_program"] else "n/a"


def write_report(rows: list[dict[str, Any]], workers: int, n_asserts: int, load: tuple[float, ...], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    meta = {"date": datetime.now(UTC).isoformat(timespec="seconds"), "workers": workers,
            "cpus": os.cpu_count(), "python": platform.python_version(), "kernel": platform.release(),
            "loadavg_at_start": [round(x, 2) for x in load], "loadavg_at_end": [round(x, 2) for x in os.getloadavg()],
            "asserts_total": n_asserts, "uid": os.geteuid(), "pool_limits": getattr(run_pool, "limits", "")}
    (out / "results.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    base = {r["subset"]: r for r in rows if r["runner"] == "subprocess"}
    lines = [
        "# Sandbox throughput: 974 MBPP reference solutions",
        "",
        (f"Run {meta['date']} on {meta['cpus']} CPUs, {workers} workers per runner, Python {meta['python']}, "
         f"kernel {meta['kernel']}, as uid {meta['uid']}; load average at start {meta['loadavg_at_start']}, "
         f"at end {meta['loadavg_at_end']} (shared machine). Pool memory bound: {meta['pool_limits']}."),
        "Regenerate: `python evals/sandbox/bench_throughput.py --data-dir ../shared/data`.",
        "",
        "| runner | programs | passed | wall s | programs/s | asserts/s | CPU ms/program | vs subprocess |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ref = base.get(r["subset"])
        speed = f"{r['programs_per_s'] / ref['programs_per_s']:.1f}x" if ref else "n/a"
        lines.append(f"| {r['label']} — {r['subset']} | {r['programs']} | {r['passed']} | {r['seconds']} | "
                     f"{r['programs_per_s']} | {r['asserts_per_s']} | {r['cpu_ms_per_program']} | {speed} |")
    lines += [
        "",
        "Notes:",
        "- (a) rows are the median of several passes (times of every pass in results.json); (b), (c) ran once.",
        "- `passed` for (b) and (c) trusts the exit code / the child's own asserts; (a) judges in the parent.",
        "- mbpp/123 (amicable numbers up to 9999) alone needs ~2.5 s of CPU, so on 2 cores it bounds the wall",
        "  time of the full set for every runner; the 973-program rows show the per-program overhead.",
        "- CPU ms/program: for (a) this process (parent: planning, dispatch, judging) plus every sandbox",
        "  process read from /proc (bubblewrap, the zygotes and the children they forked and reaped:",
        "  bubblewrap's pid namespace hides them from getrusage); for (b), (c) this process and its reaped",
        "  children. Kernel work deferred to RCU callbacks or kernel workers (namespace teardown) is in no",
        "  column: the programs/s columns include it.",
        (f"- (a) excludes the pool's one-time start ({getattr(run_pool, 'startup', 0.0):.2f} s for {workers} "
         "sandboxed workers): workers are long-lived and fork one child per program."),
        (f"- {os.cpu_count()} cores / (a)'s CPU ms/program bound (a)'s programs/s on this machine "
         f"(here ~{_ceiling(rows)}/s on the 973 programs)."),
    ]
    (out / "results.md").write_text("\n".join(lines) + "\n")
    console.print(f"wrote {out / 'results.md'}")


if __name__ == "__main__":
    sys.exit(main())
