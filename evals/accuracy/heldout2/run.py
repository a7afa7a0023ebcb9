"""Measure verifiers and Math-Verify on the held-out set 2 (measure-only: do not tune a scorer on it).

    /work/main/.venv/bin/python evals/accuracy/heldout2/run.py [--show] [--scorer verifiers|math_verify|both]
                                                            [--task math|gsm8k]

Prints, per task and per class, agreement with the hand labels, false accepts (labelled incorrect,
scored correct) and false rejects (labelled correct, scored incorrect). --show lists every disagreement
with gold, response tail, label, verdict, status and the extracted answer.
"""
import argparse
import collections
import importlib
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases.jsonl"


def load_cases():
    if not CASES.exists():
        subprocess.run([sys.executable, str(HERE / "build.py")], check=True)
    with open(CASES, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _import_verifiers(task):
    try:
        return importlib.import_module(f"verifiers.{task}")
    except ImportError:
        sys.path.insert(0, str(HERE.parents[2] / "src"))
        return importlib.import_module(f"verifiers.{task}")


def _extracted(score):
    for name in ("extracted", "prediction", "pred", "answer", "parsed"):
        v = getattr(score, name, None)
        if v is not None:
            return str(v)
    return ""


def run_verifiers(cases):
    mods = {}
    out = []
    for c in cases:
        mod = mods.get(c["task"]) or mods.setdefault(c["task"], _import_verifiers(c["task"]))
        try:
            s = mod.score(c["response"], c["gold"])
            out.append((bool(s.correct), str(getattr(s, "status", "")), _extracted(s)))
        except Exception as e:  # noqa: BLE001 - the API promises never to raise; record it if it does
            out.append((False, f"raised {type(e).__name__}", str(e)[:80]))
    return out


def run_math_verify(cases):
    from math_verify import parse, verify
    out = []
    for c in cases:
        gold = c["gold"]
        try:
            g = parse(gold if "\\boxed" in gold else f"${gold}$")
            p = parse(c["response"])
            ok = bool(verify(g, p))
            out.append((ok, "correct" if ok else ("no_answer" if not p else "incorrect"), str(p)))
        except Exception as e:  # noqa: BLE001 - a baseline that raises is recorded, not fatal
            out.append((False, f"raised {type(e).__name__}", str(e)[:80]))
    return out


def _stats(pairs):
    n = len(pairs)
    agree = sum(1 for exp, got in pairs if exp == got)
    fa = sum(1 for exp, got in pairs if not exp and got)
    fr = sum(1 for exp, got in pairs if exp and not got)
    return n, agree, fa, fr


def _fmt(st):
    n, agree, fa, fr = st
    return f"{agree:3d}/{n:<3d} {100.0 * agree / n:5.1f}%  FA {fa:2d}  FR {fr:2d}"


def report(cases, results):
    names = list(results)
    print("\n== per task ==")
    print(f"{'task':8s} {'n':>4s} {'exp_ok':>6s}  " + "  ".join(f"{nm:^32s}" for nm in names))
    for task in ("math", "gsm8k", "all"):
        idx = [i for i, c in enumerate(cases) if task == "all" or c["task"] == task]
        if not idx:
            continue
        cols = []
        for nm in names:
            cols.append(_fmt(_stats([(cases[i]["expected"], results[nm][i][0]) for i in idx])))
        n_ok = sum(cases[i]["expected"] for i in idx)
        print(f"{task:8s} {len(idx):4d} {n_ok:6d}  " + "  ".join(f"{c:32s}" for c in cols))

    print("\n== per class (task/class) ==")
    groups = collections.defaultdict(list)
    for i, c in enumerate(cases):
        groups[f"{c['task']}/{c['class']}"].append(i)
    print(f"{'class':28s} {'n':>3s} {'ok':>3s}  " + "  ".join(f"{nm:^32s}" for nm in names))
    for key in sorted(groups):
        idx = groups[key]
        cols = [_fmt(_stats([(cases[i]["expected"], results[nm][i][0]) for i in idx])) for nm in names]
        n_ok = sum(cases[i]["expected"] for i in idx)
        print(f"{key:28s} {len(idx):3d} {n_ok:3d}  " + "  ".join(f"{c:32s}" for c in cols))


def show(cases, results):
    for nm, res in results.items():
        dis = [i for i, c in enumerate(cases) if c["expected"] != res[i][0]]
        print(f"\n== {nm}: {len(dis)} disagreements ==")
        for i in dis:
            c = cases[i]
            ok, status, extracted = res[i]
            tail = c["response"][-160:].replace("\n", "\\n")
            kind = "FALSE ACCEPT" if ok else "FALSE REJECT"
            print(f"- {c['id']} [{c['class']}] {kind}: label={c['expected']} verdict={ok} status={status}")
            print(f"    gold:      {c['gold']!r}")
            print(f"    extracted: {extracted[:160]!r}")
            print(f"    why:       {c['why']}")
            print(f"    tail:      ...{tail}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", action="store_true", help="list every disagreement")
    ap.add_argument("--scorer", choices=("verifiers", "math_verify", "both"), default="both")
    ap.add_argument("--task", choices=("math", "gsm8k"))
    args = ap.parse_args()

    cases = load_cases()
    if args.task:
        cases = [c for c in cases if c["task"] == args.task]
    results = {}
    if args.scorer in ("verifiers", "both"):
        t = time.perf_counter()
        results["verifiers"] = run_verifiers(cases)
        print(f"verifiers: {len(cases)} cases in {time.perf_counter() - t:.1f} s")
    if args.scorer in ("math_verify", "both"):
        t = time.perf_counter()
        results["math_verify"] = run_math_verify(cases)
        print(f"math_verify: {len(cases)} cases in {time.perf_counter() - t:.1f} s")
    report(cases, results)
    if args.show:
        show(cases, results)


if __name__ == "__main__":
    main()
