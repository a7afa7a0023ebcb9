"""Replay the round-26 red-team cases (cases.jsonl) against the installed `verifiers` package.

Usage:  PYTHONPATH=src python evals/sandbox/redteam26/run.py [--only ID,ID] [--class CLASS] [--json OUT]

Each case names a task (plain assert tests, a HumanEval row or a fairness scenario), a program and the
verdict a correct sandbox gives (``expected_verdict``):

* ``fail``  - a hostile program must not pass (attack succeeds if ``passed``),
* ``pass``  - an honest program must pass (the case "succeeds", i.e. finds a bug, if it does not),
* ``reward<=X`` - the task's score must not exceed X (HumanEval/grail),
* ``bounded`` - the program may do what it likes, but what the host measures (``task.bounds``: CPU
  seconds of the sandbox's processes, their peak resident memory, honest programs' latency) must stay
  within the bounds. Host measurements sample /proc every 20 ms (a lower bound; noisy on a shared host).

Programs are submitted the way trainers do: from several threads at once (``--threads``), each case in
its own pool unless it shares the default options. Prints one line per case and per-class counts.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import resource
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("VERIFIERS_DATA_DIR", "/work/shared/data"))


class HostSampler:
    """Samples this process's descendants (the pool's sandboxes and every program process) from /proc."""

    def __init__(self, period: float = 0.02) -> None:
        self.period = period
        self.cpu: dict[int, float] = {}  # pid -> max utime+stime seen (s)
        self.peak_rss = 0
        self._stop = threading.Event()
        self._tick = os.sysconf("SC_CLK_TCK")
        self._page = os.sysconf("SC_PAGE_SIZE")
        self.baseline: set[int] = set()
        self._t = threading.Thread(target=self._loop, daemon=True)

    def _scan(self) -> tuple[dict[int, float], int]:
        me = os.getpid()
        parents: dict[int, int] = {}
        stat: dict[int, tuple[float, int]] = {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/stat") as f:
                    s = f.read()
            except OSError:
                continue
            rest = s[s.rindex(")") + 2:].split()
            pid = int(d)
            parents[pid] = int(rest[1])
            stat[pid] = ((int(rest[11]) + int(rest[12])) / self._tick, int(rest[21]) * self._page)
        out: dict[int, float] = {}
        rss = 0
        for pid, (cpu, r) in stat.items():
            p, hops = pid, 0
            while p > 1 and hops < 64:
                p = parents.get(p, 0)
                hops += 1
                if p == me:
                    out[pid] = cpu
                    rss += r
                    break
        return out, rss

    def _loop(self) -> None:
        while not self._stop.is_set():
            cpu, rss = self._scan()
            for pid, c in cpu.items():
                if pid not in self.baseline:
                    self.cpu[pid] = max(self.cpu.get(pid, 0.0), c)
            self.peak_rss = max(self.peak_rss, rss)
            time.sleep(self.period)

    def __enter__(self) -> HostSampler:  # noqa: PYI034 - a plain context manager
        cpu, rss = self._scan()
        self.baseline = set(cpu)  # the pool's long-lived processes (zygotes, bwrap): not charged
        self.base_rss = rss
        self._t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._t.join()

    @property
    def cpu_s(self) -> float:
        return sum(self.cpu.values())

    @property
    def peak_mb(self) -> float:
        return max(0, self.peak_rss - self.base_rss) / 2**20


def humaneval_tests(task_id: str) -> Any:
    from verifiers.humaneval import compile_check
    for line in (DATA / "humaneval" / "HumanEval.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["task_id"] == task_id:
            return compile_check(row["test"], row["prompt"], row["entry_point"])
    raise KeyError(task_id)


def run_case(case: dict[str, Any], threads: int) -> dict[str, Any]:
    from verifiers import mbpp
    from verifiers.sandbox import CodePool

    task = case["task"]
    kind = task.get("kind", "tests")
    pool_opts = dict(task.get("pool", {}))
    timeout = float(task.get("timeout_s", pool_opts.get("timeout_s", 5.0)))
    pool_opts.setdefault("timeout_s", timeout)
    pool_opts.setdefault("workers", 2)
    out: dict[str, Any] = {"id": case["id"], "class": case["class"]}
    t0 = time.monotonic()
    sampling = bool(task.get("sample", True))  # off: the parent's own CPU is measured (the sampler costs some)
    with CodePool(**pool_opts) as pool, (HostSampler() if sampling else contextlib.nullcontext()) as hs:
        out["limits"] = pool.limits_in_force
        if kind == "tests":
            copies = int(task.get("copies", 1))
            pool.run("def warm():\n    return 1\n", ["assert warm() == 1"])
            ru0 = resource.getrusage(resource.RUSAGE_SELF)
            with ThreadPoolExecutor(max(1, min(threads, copies))) as ex:
                futs = [ex.submit(pool.run, case["program"], task["tests"], task.get("setup_code", ""), timeout)
                        for _ in range(copies)]
                results = [f.result() for f in futs]
            ru1 = resource.getrusage(resource.RUSAGE_SELF)
            if not sampling:
                out["parent_cpu_ms_per_program"] = round(1000 * ((ru1.ru_utime - ru0.ru_utime) +
                                                                (ru1.ru_stime - ru0.ru_stime)) / copies, 1)
            r = results[0]
            out.update(status=r.status, passed=all(x.passed for x in results), passed_any=any(x.passed for x in results), cpu_s=r.cpu_s,
                       wall_s=round(r.duration_s, 2), detail=r.detail[:300],
                       statuses=dict(collections.Counter(x.status for x in results)))
        elif kind == "humaneval":
            tests = humaneval_tests(task["task_id"])
            cfg = mbpp.Config(preset=task.get("preset", "accuracy"), timeout=timeout)
            s = mbpp.score(case["program"], tests, config=cfg, pool=pool)
            out.update(status=s.status, passed=s.correct, reward=s.reward, detail=s.explanation[:300])
        elif kind == "fairness":
            # hostile programs first, then honest ones, all from threads at once (as a trainer's batch)
            honest = task["honest_program"]
            lat: list[float] = []

            def timed(code: str, tests: list[str]) -> Any:
                t = time.monotonic()
                r = pool.run(code, tests, "", timeout)
                lat.append(time.monotonic() - t)
                return r

            with ThreadPoolExecutor(threads) as ex:
                hostile = [ex.submit(pool.run, case["program"], task["tests"], "", timeout)
                           for _ in range(int(task.get("hostile", 1)))]
                time.sleep(0.2)
                hs_ = [ex.submit(timed, honest, task["honest_tests"]) for _ in range(int(task.get("honest", 10)))]
                hres = [f.result() for f in hs_]
                [f.result() for f in hostile]
            out.update(status="honest " + ",".join(sorted({r.status for r in hres})),
                       passed=all(r.passed for r in hres), honest_latency_max_s=round(max(lat), 2),
                       honest_latency_median_s=round(sorted(lat)[len(lat) // 2], 2))
        elif kind == "mbpp_batch":
            # a trainer's batch: MBPP reference solutions (fenced, as a policy writes them) with hostile
            # programs mixed in, scored by score_batch from several threads at once
            rows = [json.loads(x) for x in (DATA / "mbpp" / "mbpp.jsonl").read_text().splitlines()]
            rows = rows[: int(task.get("honest", 32))]
            hostile_at = set(range(0, len(rows), max(1, len(rows) // int(task.get("hostile", 2)))))
            resp, tests, setups, honest_idx = [], [], [], []
            for i, row in enumerate(rows):
                if i in hostile_at:
                    resp.append("```python\n" + case["program"] + "\n```")
                else:
                    honest_idx.append(len(resp))
                    resp.append("```python\n" + row["code"] + "\n```")
                tests.append(row["test_list"])
                setups.append(row.get("test_setup_code", ""))
            cfg = mbpp.Config(timeout=timeout)
            chunks = [list(range(k, len(resp), threads)) for k in range(threads)]
            scores: dict[int, Any] = {}

            def part(ix: list[int]) -> None:
                got = mbpp.score_batch([resp[i] for i in ix], [tests[i] for i in ix], [setups[i] for i in ix],
                                       config=cfg, pool=pool)
                scores.update(zip(ix, got))

            t = time.monotonic()
            with ThreadPoolExecutor(threads) as ex:
                list(ex.map(part, chunks))
            honest_ok = sum(scores[i].correct for i in honest_idx)
            hostile_ok = sum(scores[i].correct for i in range(len(resp)) if i not in honest_idx)
            out.update(status=f"honest {honest_ok}/{len(honest_idx)} correct, hostile {hostile_ok} correct",
                       passed=honest_ok == len(honest_idx) and hostile_ok == 0,
                       batch_wall_s=round(time.monotonic() - t, 2),
                       honest_latency_max_s=round(time.monotonic() - t, 2))
        else:
            raise ValueError(f"unknown task kind {kind}")
    if hs is not None:
        out["host_cpu_s"] = round(hs.cpu_s, 2)
        out["host_peak_mb"] = round(hs.peak_mb, 1)
    out["elapsed_s"] = round(time.monotonic() - t0, 2)
    out["succeeded"] = attack_succeeded(case, out)
    return out


def attack_succeeded(case: dict[str, Any], out: dict[str, Any]) -> bool:
    """Whether the case found a problem (a hostile program rewarded, an honest one failed, a bound broken)."""
    ev = case["expected_verdict"]
    if ev == "fail":  # any copy rewarded is a success for the attacker
        return bool(out.get("passed_any", out.get("passed")))
    if ev == "pass":
        return not out.get("passed")
    if ev.startswith("reward<="):
        return float(out.get("reward", 0.0)) > float(ev.split("=", 1)[1]) + 1e-9
    if ev == "bounded":
        b = case["task"].get("bounds", {})
        return any([
            "host_cpu_s" in b and out["host_cpu_s"] > b["host_cpu_s"],
            "host_peak_mb" in b and out["host_peak_mb"] > b["host_peak_mb"],
            "parent_cpu_ms_per_program" in b and out["parent_cpu_ms_per_program"] > b["parent_cpu_ms_per_program"],
            "honest_latency_max_s" in b and out.get("honest_latency_max_s", 0) > b["honest_latency_max_s"],
            "reported_cpu_s_min" in b and out.get("cpu_s", 0) < b["reported_cpu_s_min"],
        ])
    raise ValueError(f"unknown expected_verdict {ev}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=str(HERE / "cases.jsonl"))
    ap.add_argument("--only", default="")
    ap.add_argument("--class", dest="klass", default="")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    cases = [json.loads(x) for x in Path(args.cases).read_text().splitlines() if x.strip()]
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in keep]
    if args.klass:
        cases = [c for c in cases if c["class"] == args.klass]
    results = []
    for c in cases:
        try:
            r = run_case(c, args.threads)
        except Exception as e:  # noqa: BLE001 - a harness error is reported, not fatal
            r = {"id": c["id"], "class": c["class"], "status": f"HARNESS ERROR {type(e).__name__}: {e}",
                 "succeeded": False}
        results.append(r)
        flag = "SUCCEEDED" if r["succeeded"] else "held"
        extra = {k: r[k] for k in ("status", "reward", "cpu_s", "wall_s", "host_cpu_s", "host_peak_mb",
                                   "honest_latency_max_s", "batch_wall_s", "parent_cpu_ms_per_program", "statuses") if k in r}
        print(f"[{flag:9}] {c['class']:15} {c['id']:34} {json.dumps(extra)}", flush=True)
        if r.get("detail"):
            print(f"            detail: {r['detail'][:200]}", flush=True)
    print("\nper class: attempted / succeeded (found a problem)")
    by = collections.defaultdict(lambda: [0, 0])
    for r in results:
        by[r["class"]][0] += 1
        by[r["class"]][1] += bool(r["succeeded"])
    for k, (n, s) in sorted(by.items()):
        print(f"  {k:15} {n:3} / {s}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
