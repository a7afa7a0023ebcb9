"""Render the speed benchmark's JSON as results.md: the acceptance targets first, then each section."""

from __future__ import annotations

from typing import Any

BOUND = "every call ≤ timeout + 0.2 s"


def _get(d: dict | None, *path: str) -> Any:
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def _fmt(v: Any, spec: str = "") -> str:
    if v is None:
        return "–"
    if isinstance(v, float) and not spec:
        spec = ",.1f" if abs(v) >= 100 else ".3g"
    return format(v, spec) if spec else str(v)


def _rows(section: dict) -> list[tuple[str, dict]]:
    """A section's workloads (its other keys, such as the load average, are not rows)."""
    return [(k, v) for k, v in section.items() if isinstance(v, dict)]


def _load(section: dict) -> str:
    load = section.get("loadavg_1min")
    return f" (load average {load[0]:.1f} → {load[1]:.1f})" if load else ""


def _statuses(d: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items()))


def _targets(r: dict) -> list[tuple[str, str, str]]:
    """(target, measured, met?) rows for one run."""
    rows: list[tuple[str, str, str]] = []

    def add(target: str, value: Any, ok: bool | None) -> None:
        rows.append((target, _fmt(value), "–" if ok is None else ("yes" if ok else "**no**")))

    m500 = _get(r, "single_core", "math500", "speedup")
    add("MATH-500 ≥ 50x Math-Verify (one core)", f"{m500}x" if m500 else None,
        None if m500 is None else m500 >= 50)
    gsm = _get(r, "single_core", "gsm8k", "verifiers")
    if gsm:
        shown = f"{gsm['verdicts_per_s']:,.0f}/s (best pass {gsm['best_pass_per_s']:,.0f}/s)"
        add("GSM8K ≥ 150,000 verdicts/s (one core)", shown, gsm["verdicts_per_s"] >= 150_000)
    cas = _get(r, "cas_bound")
    if cas:
        timeouts = cas["verifiers"]["statuses"].get("timeout", 0)
        add("CAS-bound ≥ 10x Math-Verify, no timeouts", f"{cas['speedup']}x, {timeouts} timeouts",
            cas["speedup"] >= 10 and timeouts == 0)
    for mode in ("cold", "warm"):
        c = _get(r, "concurrency", mode)
        if c and "error" not in c:
            bound_ms = (c["timeout_s"] + 0.2) * 1e3
            add(f"32 threads, 600 MATH answers, {mode}: ≤ 1% timeout, {BOUND}",
                f"{c['timeout_rate']:.1%} timeout, worst {c['max_ms']:,.0f} ms",
                c["timeout_rate"] <= 0.01 and c["max_ms"] <= bound_ms)
    p = _get(r, "pathological")
    if p:
        bound_ms = (p["timeout_s"] + 0.2) * 1e3
        worst = p["sequential_worst"]
        add(f"pathological inputs, sequential: {BOUND}", f"worst {worst['ms']:,.0f} ms ({worst['case']})",
            worst["ms"] <= bound_ms)
        for mode in ("threads_cold", "threads_warm"):
            t = p.get(mode) or {}
            target = f"pathological inputs, 32 threads ({mode[8:]}): {BOUND}"
            if "max_ms" in t:
                add(target, f"worst {t['max_ms']:,.0f} ms", t["max_ms"] <= bound_ms)
            elif "error" in t:
                add(target, t["error"], False)
    for name, row in _rows(_get(r, "batch") or {}):
        if name.endswith("regardless_of_load"):
            continue
        for w in ("workers_None", "workers_2"):
            s, fastest = row[w]["speedup"], row[w].get("speedup_min")
            need = "> 1 (faster)" if name == "cas_bound" else "≥ 1"
            ok = s > 1.0 if need.startswith(">") else s >= 0.97  # within the noise of interleaved medians
            shown = f"{s:.2f}x" + (f" (fastest runs {fastest:.2f}x)" if fastest is not None else "")
            add(f"score_batch / loop, {name}, {w.replace('_', '=')}: {need}", shown, ok)
    return rows


def markdown(r: dict, baseline: dict | None = None) -> str:
    """The whole results.md text for run ``r`` (and ``baseline`` beside it, when given)."""
    m = r["machine"]
    lines = ["# Speed benchmark results", "",
             (f"Run: `python evals/speed/run.py` ({r.get('label') or 'this tree'}). Python {m['python']}, "
              f"{m['cpus']} CPUs, load average {m['loadavg_start'][0]:.2f} at start and "
              f"{m['loadavg_end'][0]:.2f} at end (a shared machine: other jobs inflate every number)."), ""]
    if baseline:
        bm = baseline["machine"]
        lines += [(f"Baseline: {baseline.get('label') or 'earlier run'}, load average "
                   f"{bm['loadavg_start'][0]:.2f} → {bm['loadavg_end'][0]:.2f}."), ""]
    before = {t: (v, ok) for t, v, ok in _targets(baseline)} if baseline else {}
    head = "| target | this run | met |" + (" baseline | met |" if baseline else "")
    lines += ["## Acceptance targets", "", head, "|---|---|---|" + ("---|---|" if baseline else "")]
    for target, value, ok in _targets(r):
        row = f"| {target} | {value} | {ok} |"
        if baseline:
            bv, bok = before.get(target, ("–", "–"))
            row += f" {bv} | {bok} |"
        lines.append(row)
    lines += _single_core(r) + _cas_bound(r) + _batch(r) + _concurrency(r) + _pathological(r) + _pool(r)
    return "\n".join(lines) + "\n"


def _single_core(r: dict) -> list[str]:
    sc = r.get("single_core")
    if not sc:
        return []
    out = ["", f"## One core: dataset solutions as responses{_load(sc)}", "",
           ("| workload | scorer | verdicts | verdicts/s (wall) | verdicts/CPU-s | best pass /s | "
            "p50 µs | p99 µs |"), "|---|---|---:|---:|---:|---:|---:|---:|"]
    for name, row in _rows(sc):
        for who in ("verifiers", "math_verify"):
            x = row[who]
            out.append(f"| {name} | {who} | {x['verdicts']} | {x['verdicts_per_s']:,.0f} | "
                       f"{x['verdicts_per_cpu_s']:,.0f} | {x['best_pass_per_s']:,.0f} | {x['p50_us']} | "
                       f"{x['p99_us']} |")
        out.append(f"| {name} | **speed-up (wall)** | | **{row['speedup']}x** | | | | |")
    return out


def _cas_bound(r: dict) -> list[str]:
    c = r.get("cas_bound")
    if not c:
        return []
    out = ["", (f"## CAS-bound: {c['rows']} random symbolic answers vs symbolic golds "
                f"(`cas_bound.jsonl`){_load(c)}"), "",
           ("One verdict at a time. Math-Verify scores the first rows only (it is slow); the speed-up "
            "compares both on those same rows."), "",
           "| scorer | rows | verdicts/s | statuses | agree with label | p50 ms | p99 ms | max ms |",
           "|---|---:|---:|---|---:|---:|---:|---:|"]
    for who, label in (("verifiers", "verifiers, all rows"), ("verifiers_first_k", "verifiers, same rows"),
                       ("math_verify", "Math-Verify")):
        x = c[who]
        out.append(f"| {label} | {x['verdicts']} | {x['verdicts_per_s']:,.1f} | {_statuses(x['statuses'])} | "
                   f"{_fmt(x.get('agree_with_label'))} | {_fmt(x['p50_ms'])} | {_fmt(x['p99_ms'])} | "
                   f"{_fmt(x['max_ms'])} |")
    out += ["", (f"Speed-up on the same rows: **{c['speedup']}x**. Wrong answers scored correct by this "
                 f"project: {c['verifiers'].get('wrong_scored_correct')}.")]
    return out


def _ratio_cells(x: dict | None) -> str:
    if not x:
        return "– | – | –"
    return (f"{x['baseline_s']} | {x['candidate_s']} | {x['speedup']:.2f}x "
            f"({_fmt(x.get('speedup_min'), '.2f')}x)")


def _batch(r: dict) -> list[str]:
    b = r.get("batch")
    if not b:
        return []
    out = ["", f"## score_batch vs a loop over score (same items, interleaved runs){_load(b)}", "",
           ("Ratio > 1: `score_batch` is faster. Median of the runs, and in brackets the ratio of the "
            "fastest runs (the undisturbed cost on a shared machine). CAS-bound runs each get the rows with "
            "freshly renamed variables, so no run finds its checks in a cache."), "",
           ("| workload | items | runs | loop s | score_batch s (default) | ratio | loop s | "
            "score_batch s (workers=2) | ratio |"), "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    notes = []
    for name, row in _rows(b):
        d, w = row["workers_None"], row.get("workers_2")
        out.append(f"| {name} | {row['items']} | {d['reps']} | {_ratio_cells(d)} | {_ratio_cells(w)} |")
        for label, x in (("default", d), ("workers=2", w)):
            loop_t = (x or {}).get("baseline_statuses", {}).get("timeout", 0)
            batch_t = (x or {}).get("candidate_statuses", {}).get("timeout", 0)
            if loop_t or batch_t:
                notes.append(f"{name}, {label}: timeouts over all runs: loop {loop_t}, "
                             f"score_batch {batch_t}.")
    if "cas_bound_threads_regardless_of_load" in b:
        notes.append("`cas_bound_threads_regardless_of_load`: `score_batch` with its load check skipped "
                     "(helper threads whenever the CAS share is high, however busy the CPUs are).")
    return out + ([""] + notes if notes else [])


def _concurrency(r: dict) -> list[str]:
    c = r.get("concurrency")
    if not c:
        return []
    out = ["", ("## 32 threads, 600 MATH answers (200 golds with a variable; per gold its solution and two "
                f"symbolic junk answers), fresh process{_load(c)}"), "",
           ("| pool | seconds | verdicts/s | statuses | timeout rate | junk timeouts | p50 ms | p99 ms | "
            "max ms | calls > timeout + 0.2 s |"), "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    for mode in ("cold", "warm"):
        x = c.get(mode) or {}
        if "error" in x or not x:
            out.append(f"| {mode} | {x.get('error', 'not run')} | | | | | | | | |")
            continue
        out.append(f"| {mode} | {x['seconds']} | {x['verdicts_per_s']:,.1f} | {_statuses(x['statuses'])} | "
                   f"{x['timeout_rate']:.1%} | {x.get('junk_timeouts')} | {x['p50_ms']} | {x['p99_ms']} | "
                   f"{x['max_ms']} | {x['over_bound']} |")
    pools = [f"{mode}: {c[mode]['pool']}" for mode in ("cold", "warm") if "pool" in (c.get(mode) or {})]
    if pools:
        out += ["", "CAS pool counters at the end of each run: " + "; ".join(pools) + "."]
    return out


def _pathological(r: dict) -> list[str]:
    p = r.get("pathological")
    if not p:
        return []
    out = ["", f"## Pathological inputs, `timeout={p['timeout_s']}`{_load(p)}", "", "One at a time:", "",
           "| input | status | ms |", "|---|---|---:|"]
    out += [f"| {x['case']} | {x['status']} | {x['ms']:,.1f} |" for x in p["sequential"]]
    skipped = ", ".join(x["case"] for x in p["sequential"] if x["status"] in ("hung", "crashed"))
    out += ["", "From 32 threads at once (a fresh process; each input once"
            + (f"; without the inputs that hung one at a time: {skipped}" if skipped else "") + "):", "",
            "| pool | calls | statuses | p50 ms | max ms | calls > timeout + 0.2 s |",
            "|---|---:|---|---:|---:|---:|"]
    for mode in ("threads_cold", "threads_warm"):
        x = p.get(mode) or {}
        if "max_ms" in x:
            out.append(f"| {mode[8:]} | {x['calls']} | {_statuses(x['statuses'])} | {x['p50_ms']} | "
                       f"{x['max_ms']} | {x['over_bound']} |")
        elif "error" in x:
            out.append(f"| {mode[8:]} | {x['error']} | | | | |")
    return out


def _pool(r: dict) -> list[str]:
    p = r.get("pool")
    if not p:
        return []
    out = ["", f"## CAS worker start-up{_load(p)}", "",
           "| fresh interpreter | wall s | import sympy s | import latex2sympy2_extended s | rest s |",
           "|---|---:|---:|---:|---:|"]
    out += [f"| run {i + 1} | {x['wall_s']} | {x['import_sympy_s']} | "
            f"{x['import_latex2sympy2_extended_s']} | {x['import_rest_s']} |"
            for i, x in enumerate(p["fresh_interpreter"])]
    kills = ", ".join(f"{k['next_call_ms']}" for k in p["after_kill"])
    out += ["", (f"A new pool was ready (one warm worker) after {p['template_ready_s']} s. After a runaway "
                 f"job is killed, the next call (a polynomial identity) took {kills} ms, replacement "
                 "included.")]
    stats = p.get("stats") or {}
    if stats:
        out.append(f"Pool counters: {stats.get('forks'):.0f} forks, mean fork "
                   f"{stats.get('fork_ms_mean', 0):.1f} ms, template start "
                   f"{stats.get('template_start_s')} s, {stats.get('killed'):.0f} killed.")
    return out
