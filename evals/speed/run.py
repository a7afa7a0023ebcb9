"""Speed benchmark: this project vs Math-Verify in one run, the CAS pool under load, score_batch vs a loop.

Sections (``--only`` picks some; all by default):

- ``single_core``: GSM8K test and MATH-500 solutions scored against their own golds, this process pinned
  to one CPU (``os.sched_setaffinity``), verdicts/s and p50/p99 latency, Math-Verify on the same items;
- ``cas_bound``: ``cas_bound.jsonl`` (random symbolic answers vs symbolic golds, ``make_cas_bound.py``),
  one verdict at a time: verdicts/s vs Math-Verify on the same rows, status counts, p50/p99/max latency,
  agreement with the labels;
- ``junk``: ``junk.jsonl`` (``make_junk.py``: integrals, factorials, gamma, binomials, inverse trig, subscripts,
  sums and nested superscripts against MATH test golds), measured like ``cas_bound``;
- ``batch``: ``score_batch`` (default workers and ``workers=2``) against a plain loop over ``score`` on the
  same items, median of interleaved runs (ratio > 1: ``score_batch`` is faster);
- ``concurrency``: 32 threads scoring 600 MATH answers (``workloads.concurrency_mix``) in a fresh process,
  cold (right after import) and warm: timeouts, worst latency vs timeout + 0.2 s;
- ``pathological``: inputs built to hang or blow up the CAS (``pathological.py``), one at a time and from
  32 threads in a fresh process: every call within timeout + 0.2 s;
- ``pool``: the CAS pool's start-up (a fresh interpreter importing sympy and the LaTeX parser, the
  template's warm start, a fork) and its counters.

Run: python evals/speed/run.py [--data ../shared/data] [--only cas_bound,concurrency] [--label TEXT]
     [--json results.json] [--baseline results.before.json] [--mv-limit 150]
Writes results.json and results.md next to this file (``--json`` elsewhere; ``results.md`` only for the
default JSON path). With ``--baseline``, results.md shows those numbers next to these.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import select
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import report
import timing
import workloads

HERE = Path(__file__).resolve().parent
SECTIONS = ("single_core", "cas_bound", "junk", "batch", "concurrency", "pathological", "pool")


def _math_verify() -> Callable[[str, str], bool]:
    from math_verify import parse, verify

    def run(response: str, gold: str) -> bool:
        try:
            return bool(verify(parse(gold if "\\boxed" in gold else f"${gold}$"), parse(response)))
        except BaseException as e:  # Math-Verify's own timeout derives from BaseException
            if isinstance(e, KeyboardInterrupt):
                raise
            return False

    return run


def single_core(data: Path, gsm8k_passes: int, mv_limit: int) -> dict:
    """Dataset solutions vs their golds, pinned to one CPU, this project and Math-Verify.

    GSM8K goes first, before ``verifiers.math`` is imported: that import starts the CAS pool, whose
    background warm-up would otherwise share the CPU with the GSM8K timing.
    """
    from verifiers import gsm8k

    work = workloads.datasets(data)
    allowed = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(allowed)})
    try:
        mv = _math_verify()
        out = {}
        for name, (responses, golds) in work.items():
            score: Callable[[str, str], object] = gsm8k.score
            if name == "math500":
                from verifiers import math

                math.warm_up()
                timing.quiet_cas_pool()
                score = math.score
            passes = gsm8k_passes if name == "gsm8k" else 3
            timing.sequential(score, responses, golds, 1)  # warm caches the way a training run would
            row = {"verifiers": timing.sequential(score, responses, golds, passes)}
            k = min(mv_limit, len(responses))
            row["math_verify"] = timing.sequential(mv, responses[:k], golds[:k], 1)
            ours, theirs = row["verifiers"]["verdicts_per_s"], row["math_verify"]["verdicts_per_s"]
            row["speedup"] = round(ours / theirs, 1)
            out[name] = row
            _log(name, row)
        return out
    finally:
        os.sched_setaffinity(0, allowed)


def cas_bound(mv_limit: int) -> dict:
    """The CAS-bound workload one verdict at a time: this project on every row, Math-Verify on the first."""
    rows, pairs = workloads.cas_bound()
    return _labelled("cas_bound", rows, pairs, mv_limit)


def junk(mv_limit: int) -> dict:
    """The symbolic-junk workload (``junk.jsonl``: ``\\int``, ``n!``, ``\\Gamma``, ``\\binom``, inverse trig,
    subscripts, sums, nested superscripts) one verdict at a time, like ``cas_bound``."""
    rows, pairs = workloads.junk()
    return _labelled("junk", rows, pairs, mv_limit)


def _labelled(name: str, rows: list[dict], pairs: workloads.Pairs, mv_limit: int) -> dict:
    """Labelled rows (``equal`` or wrong) one verdict at a time: this project on every row, Math-Verify on the
    first ``mv_limit``, and this project again on those, so the ratio compares like with like."""
    from verifiers import math

    responses, golds = pairs
    labels = [r["label"] for r in rows]
    math.warm_up()
    ours = timing.statuses(lambda r, g: math.score(r, g).status, responses, golds)
    statuses = ours.pop("_statuses")
    ours["agree_with_label"] = sum((s == "correct") == (lab == "equal") for s, lab in zip(statuses, labels))
    ours["wrong_scored_correct"] = sum(s == "correct" and lab != "equal" for s, lab in zip(statuses, labels))
    ours["timeouts"] = statuses.count("timeout")
    k = min(mv_limit, len(rows))
    mv_fn = _math_verify()
    mv = timing.statuses(lambda r, g: "correct" if mv_fn(r, g) else "incorrect", responses[:k], golds[:k])
    mv_statuses = mv.pop("_statuses")
    mv["agree_with_label"] = sum((s == "correct") == (lab == "equal") for s, lab in zip(mv_statuses, labels))
    mv["wrong_scored_correct"] = sum(s == "correct" and lab != "equal" for s, lab in zip(mv_statuses, labels))
    same = timing.statuses(lambda r, g: math.score(r, g).status, responses[:k], golds[:k])
    same.pop("_statuses")
    out = {"rows": len(rows), "verifiers": ours, "math_verify": mv, "verifiers_first_k": same,
           "speedup": round(same["verdicts_per_s"] / mv["verdicts_per_s"], 2)}
    _log(name, out)
    return out


def batch(data: Path, cas_rows: int) -> dict:
    """``score_batch`` vs a loop over ``score`` (which keeps its results too), same items, interleaved.

    CAS-bound runs each get the rows with freshly renamed variables (``workloads.renamed``): otherwise a
    later run finds its checks in the CAS workers' caches and looks faster than it is. ``score_batch``
    starts helper threads for CAS-bound items only while the load average leaves CPUs free; a last row
    shows what the threads do when that check is skipped (so on a busy machine both are on record).
    """
    import verifiers.rewards._batch as batch_module
    from verifiers import gsm8k, math

    work = workloads.datasets(data)
    _, cas = workloads.cas_bound()
    cas = cas[0][:cas_rows], cas[1][:cas_rows]
    items: dict[str, tuple[Any, Callable[[int], workloads.Pairs], int]] = {
        "gsm8k_x4": (gsm8k, lambda run: (work["gsm8k"][0] * 4, work["gsm8k"][1] * 4), 25),
        "math500_x4": (math, lambda run: (work["math500"][0] * 4, work["math500"][1] * 4), 25),
        "cas_bound": (math, lambda run: workloads.renamed(cas, run), 5)}
    math.warm_up()
    out: dict = {}

    def statuses(scores: Any) -> Counter[str]:
        return Counter(s.status for s in scores)

    def compare(module: Any, pairs: Callable[[int], workloads.Pairs], reps: int, offset: int,
                workers: int | None) -> dict:
        def loop(run: int) -> list:
            r, g = pairs(offset + run)
            return [module.score(a, b) for a, b in zip(r, g)]

        def batched(run: int) -> list:
            r, g = pairs(offset + run)
            return module.score_batch(r, g, workers=workers)

        return timing.ratio(loop, batched, reps, statuses)

    for name, (module, pairs, reps) in items.items():
        rs, gs = pairs(0)
        row: dict = {"items": len(rs)}
        for offset, workers in ((100, None), (200, 2)):
            module.score_batch(rs[:600], gs[:600], workers=workers)  # start whatever it uses
            row[f"workers_{workers}"] = compare(module, pairs, reps, offset, workers)
        out[name] = row
        _log("batch", name, row)
    real = batch_module.free_cpus
    batch_module.free_cpus = lambda ours: float(os.cpu_count() or 1)  # as if no other process were running
    try:
        out["cas_bound_threads_regardless_of_load"] = {
            "items": len(cas[0]), "workers_None": compare(math, items["cas_bound"][1], 5, 300, None)}
    finally:
        batch_module.free_cpus = real
    _log("batch", "cas_bound_threads_regardless_of_load", out["cas_bound_threads_regardless_of_load"])
    return out


def _fresh(args: list[str], limit: float = 300) -> dict:
    """Run ``concurrency.py`` in a new process; its JSON line, or why there is none (e.g. it hung)."""
    cmd = [sys.executable, str(HERE / "concurrency.py"), *args]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"hung: no result within {limit:.0f} s (killed)"}
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"error": f"exit {done.returncode}: {done.stderr.strip()[-500:]}"}


def concurrency(data: Path, threads: int) -> dict:
    """The 600-answer MATH mix from ``threads`` threads in a fresh process, cold and warm."""
    out = {"cold": _fresh(["--workload", "mix", "--threads", str(threads), "--data", str(data)]),
           "warm": _fresh(["--workload", "mix", "--threads", str(threads), "--data", str(data), "--warm"])}
    _log("concurrency", out)
    return out


def _one_by_one(timeout: float, hung_after: float) -> list[dict]:
    """Each pathological case in a child process, one at a time; a case silent for ``hung_after`` seconds
    past its timeout is recorded as hung, its child killed, and the next case goes on in a new child."""
    import pathological as cases

    total, rows, start = len(cases.cases()), [], 0
    while start < total:
        child = subprocess.Popen([sys.executable, str(HERE / "pathological.py"), "--start", str(start),
                                  "--timeout", str(timeout)], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        limit = 120.0  # the first case also waits for math.warm_up()
        while start < total:
            ready, _, _ = select.select([child.stdout], [], [], limit)
            line = child.stdout.readline() if ready else ""
            if not line:
                name = cases.cases()[start][0]
                rows.append({"index": start, "case": name, "status": "hung" if not ready else "crashed",
                             "ms": round(limit * 1e3, 1)})
                start += 1
                break
            rows.append(json.loads(line))
            start = rows[-1]["index"] + 1
            limit = timeout + hung_after
        child.kill()
        child.wait()
    return rows


def pathological(threads: int, timeout: float) -> dict:
    """Each pathological input once (one at a time), then all of them from ``threads`` threads at once;
    both in fresh processes, so a hang is reported instead of stalling the benchmark."""
    rows = _one_by_one(timeout, hung_after=30.0)
    worst = max(rows, key=lambda r: r["ms"])
    out = {"timeout_s": timeout, "sequential": rows,
           "sequential_over_bound": sum(r["ms"] > (timeout + 0.2) * 1e3 for r in rows),
           "sequential_worst": worst,
           # an input that hangs on its own would stall every thread: measure the others without it
           "skipped_in_threads": [r["case"] for r in rows if r["status"] in ("hung", "crashed")]}
    skip = ",".join(str(r["index"]) for r in rows if r["status"] in ("hung", "crashed"))
    for mode in ("cold", "warm"):
        flags = ["--workload", "pathological", "--threads", str(threads), "--timeout", str(timeout),
                 "--skip", skip]
        out[f"threads_{mode}"] = _fresh(flags + (["--warm"] if mode == "warm" else []), limit=120)
    _log("pathological", {k: v for k, v in out.items() if k != "sequential"})
    return out


def pool() -> dict:
    """Start-up costs of CAS workers: a fresh interpreter's imports, the template's warm start, a fork."""
    probe = ("import time; t = time.perf_counter(); import sympy; t1 = time.perf_counter(); "
             "import latex2sympy2_extended; t2 = time.perf_counter(); from verifiers.equivalence import _cas; "
             "t3 = time.perf_counter(); print(t1 - t, t2 - t1, t3 - t2)")
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        sympy_s, l2s_s, rest_s = map(float, done.stdout.split())
        runs.append({"wall_s": round(wall, 3), "import_sympy_s": round(sympy_s, 3),
                     "import_latex2sympy2_extended_s": round(l2s_s, 3), "import_rest_s": round(rest_s, 3)})
    out: dict = {"fresh_interpreter": runs}
    from verifiers.equivalence._cas_pool import WorkerPool

    try:
        p = WorkerPool(size=1, max_size=1)
    except TypeError:  # the pool before issue 13 had no max_size
        p = WorkerPool(size=1)
    start = time.perf_counter()
    ok = p.warm_up()
    out["template_ready_s"] = round(time.perf_counter() - start, 3)
    time.sleep(3)  # the template warms up more families while idle; measure replacements after that
    kills = []
    for _ in range(5):  # a runaway job is killed; the next call waits for its forked replacement
        p.call("equal", ("(x+1)^{100000}", "(x+2)^{100000}", 1e-9), 0.2)
        t = time.perf_counter()
        status, _ = p.call("equal", ("x^2-1", "(x-1)(x+1)", 1e-9), 5.0)
        kills.append({"status": status, "next_call_ms": round((time.perf_counter() - t) * 1e3, 1)})
    out["after_kill"] = kills
    out["ready"] = ok
    if hasattr(p, "stats"):
        out["stats"] = p.stats()
    if hasattr(p, "close"):
        p.close()
    _log("pool", out)
    return out


def _log(*parts: object) -> None:
    print(*(json.dumps(p) if isinstance(p, dict) else p for p in parts), file=sys.stderr, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=workloads.DEFAULT_DATA)
    ap.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated sections of {SECTIONS}")
    ap.add_argument("--gsm8k-passes", type=int, default=20)
    ap.add_argument("--mv-limit", type=int, default=150, help="CAS-bound rows Math-Verify scores (and 500 "
                    "dataset items in single_core)")
    ap.add_argument("--cas-batch-rows", type=int, default=150)
    ap.add_argument("--threads", type=int, default=32)
    ap.add_argument("--timeout", type=float, default=1.0, help="Config.timeout for the pathological inputs")
    ap.add_argument("--label", default="", help="what code this measures (e.g. a commit)")
    ap.add_argument("--json", type=Path, default=HERE / "results.json")
    ap.add_argument("--baseline", type=Path, help="an earlier results JSON to show next to this run")
    ap.add_argument("--merge", action="store_true", help="keep the other sections already in --json")
    args = ap.parse_args()
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(only) - set(SECTIONS)
    if unknown:
        ap.error(f"unknown sections {sorted(unknown)}; choose from {SECTIONS}")

    out: dict = json.loads(args.json.read_text(encoding="utf-8")) if args.merge and args.json.exists() else {}
    out.update({"label": args.label or out.get("label", ""),
                "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                            "loadavg_start": os.getloadavg()}})
    runs: dict[str, Callable[[], dict]] = {
        "single_core": lambda: single_core(args.data, args.gsm8k_passes, 500),
        "cas_bound": lambda: cas_bound(args.mv_limit),
        "junk": lambda: junk(args.mv_limit),
        "batch": lambda: batch(args.data, args.cas_batch_rows),
        "concurrency": lambda: concurrency(args.data, args.threads),
        "pathological": lambda: pathological(args.threads, args.timeout),
        "pool": pool}
    for name in SECTIONS:
        if name in only:
            load = os.getloadavg()[0]
            out[name] = runs[name]()
            out[name]["loadavg_1min"] = [round(load, 2), round(os.getloadavg()[0], 2)]  # at start, at end
            out["machine"]["loadavg_end"] = os.getloadavg()
            # written after every section: a later hang loses nothing
            args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    if args.json.resolve() == (HERE / "results.json").resolve():
        baseline = json.loads(args.baseline.read_text(encoding="utf-8")) if args.baseline else None
        (HERE / "results.md").write_text(report.markdown(out, baseline), encoding="utf-8")
        print((HERE / "results.md").read_text(encoding="utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
