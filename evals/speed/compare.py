"""Single-core speed of several source trees (and Math-Verify) in one run: fresh processes, interleaved rounds.

Each round starts one fresh process per source tree (``PYTHONPATH=TREE``, pinned to one CPU), in ABBA order
(the order is reversed every other round), plus one for Math-Verify; each process times the ``single_core``
workloads of ``run.py`` (GSM8K test before ``verifiers.math`` is imported, then MATH-500 after a warm pass)
and reports every pass's verdicts/s. The result is the median over all rounds' passes per tree, and each
tree's ratio to Math-Verify; on a shared machine only the same run's figures are comparable.

Run: python evals/speed/compare.py --src now=src --src landed=/tmp/landed/src [--rounds 6] [--cpu 1]
     [--gsm8k-passes 20] [--math-passes 3] [--no-math-verify] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATA = Path(os.environ.get("VERIFIERS_DATA_DIR", ROOT.parent / "shared" / "data"))


def _child(which: str, data: Path, gsm8k_passes: int, math_passes: int) -> dict:
    """In a fresh process: every pass's verdicts/s on GSM8K test and MATH-500 (``which``: ``verifiers`` or
    ``math_verify``)."""
    sys.path.insert(0, str(HERE))
    import timing
    import workloads

    work = workloads.datasets(data)
    out: dict[str, list[float]] = {}
    if which == "math_verify":
        import run

        mv = run._math_verify()
        for name, (responses, golds) in work.items():
            timing.sequential(mv, responses[:20], golds[:20], 1)
            out[name] = [timing.sequential(mv, responses, golds, 1)["verdicts_per_s"]]
        return out
    from verifiers import gsm8k

    timing.sequential(gsm8k.score, *work["gsm8k"], 1)  # warm, as run.py does
    out["gsm8k"] = [timing.sequential(gsm8k.score, *work["gsm8k"], 1)["verdicts_per_s"]
                    for _ in range(gsm8k_passes)]
    from verifiers import math

    math.warm_up()
    quiet = timing.quiet_cas_pool()  # older trees' warm_up returned before the template had finished warming up
    timing.sequential(math.score, *work["math500"], 1)
    out["math500"] = [timing.sequential(math.score, *work["math500"], 1)["verdicts_per_s"]
                      for _ in range(math_passes)]
    import verifiers

    out["module"] = verifiers.__file__  # type: ignore[assignment]
    out["quiet_wait_s"] = quiet  # type: ignore[assignment]
    return out


def _spawn(which: str, src: str | None, cpu: int, args: argparse.Namespace) -> dict:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    cmd = ["taskset", "-c", str(cpu), sys.executable, __file__, "--child", which, "--data", str(args.data),
           "--gsm8k-passes", str(args.gsm8k_passes), "--math-passes", str(args.math_passes)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"compare.py: error: {which} ({src}) failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", action="append", default=[], metavar="LABEL=DIR",
                    help="a source tree to time (a directory holding the verifiers package); repeatable")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)))
    ap.add_argument("--gsm8k-passes", type=int, default=20)
    ap.add_argument("--math-passes", type=int, default=3)
    ap.add_argument("--no-math-verify", action="store_true")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--child", choices=("verifiers", "math_verify"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(_child(args.child, args.data, args.gsm8k_passes, args.math_passes)))
        return
    srcs = [tuple(s.split("=", 1)) for s in args.src] or [("this", str(ROOT / "src"))]
    if any(len(s) != 2 or not Path(s[1], "verifiers").is_dir() for s in srcs):
        ap.error("--src takes LABEL=DIR, DIR holding the verifiers package")
    passes: dict[str, dict[str, list[float]]] = {label: {"gsm8k": [], "math500": []} for label, _ in srcs}
    waits: dict[str, list[float]] = {label: [] for label, _ in srcs}
    sides = [*srcs] + ([] if args.no_math_verify else [("math_verify", None)])
    passes.update({"math_verify": {"gsm8k": [], "math500": []}} if not args.no_math_verify else {})
    started = time.time()
    for r in range(args.rounds):
        for label, src in (sides if r % 2 == 0 else sides[::-1]):
            got = _spawn("math_verify" if src is None else "verifiers", src, args.cpu, args)
            for name in ("gsm8k", "math500"):
                passes[label][name].extend(got[name])
            if "quiet_wait_s" in got:
                waits[label].append(got["quiet_wait_s"])
            print(f"round {r + 1}/{args.rounds} {label}: gsm8k {statistics.median(got['gsm8k']):,.0f}/s, "
                  f"math500 {statistics.median(got['math500']):,.0f}/s", file=sys.stderr, flush=True)
    result: dict = {"rounds": args.rounds, "cpu": args.cpu, "loadavg_end": os.getloadavg(),
                    "seconds": round(time.time() - started, 1), "sources": dict(srcs), "median_per_s": {},
                    "passes": passes, "quiet_wait_s": waits}
    for label, by_name in passes.items():
        result["median_per_s"][label] = {name: round(statistics.median(v), 1) for name, v in by_name.items()}
    if not args.no_math_verify:
        mv = result["median_per_s"]["math_verify"]
        result["vs_math_verify"] = {label: {name: round(result["median_per_s"][label][name] / mv[name], 1)
                                            for name in mv} for label, _ in srcs}
    text = json.dumps(result, indent=1)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    summary = {k: result[k] for k in ("median_per_s", "vs_math_verify", "loadavg_end") if k in result}
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
