"""Agreement of verifiers and Math-Verify with the held-out labels (cases.jsonl; see README.md).

Prints, per scorer and task: agreement, false accepts (scored correct, label says wrong) and false rejects
(scored not correct, label says right); then the per-class counts and, with --show, every disagreement.
A timeout or exception counts as "not accepted", as a trainer would see it.

Run: python evals/accuracy/heldout/run_heldout.py [--show] [--only verifiers|math-verify]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

CASES = Path(__file__).resolve().parent / "cases.jsonl"


def verifiers_scorer(task: str) -> Callable[[str, str], bool]:
    from verifiers import gsm8k, math

    module = gsm8k if task == "gsm8k" else math
    return lambda response, gold: module.score(response, gold).correct


def math_verify_scorer(task: str) -> Callable[[str, str], bool]:
    from math_verify import parse, verify

    return lambda response, gold: bool(verify(parse(f"${gold}$"), parse(response)))


SCORERS = {"verifiers": verifiers_scorer, "math-verify": math_verify_scorer}


def accepts(scorer: Callable[[str, str], bool], case: dict) -> bool:
    try:
        return scorer(case["response"], case["gold"])
    except Exception:  # noqa: BLE001 - a crash is what a trainer would see: no reward
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print every disagreement")
    parser.add_argument("--only", choices=sorted(SCORERS))
    args = parser.parse_args()
    cases = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line.strip()]
    names = [args.only] if args.only else list(SCORERS)
    print(f"{len(cases)} cases: " + ", ".join(
        f"{t} {sum(c['task'] == t for c in cases)}" for t in ("math", "gsm8k")))
    per_class: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    wrong: dict[str, list[tuple[dict, bool]]] = defaultdict(list)
    print(f"\n{'scorer':12} {'task':6} {'agree':>14} {'false accepts':>14} {'false rejects':>14}")
    for name in names:
        for task in ("math", "gsm8k"):
            scorer = SCORERS[name](task)
            rows = [c for c in cases if c["task"] == task]
            fa = fr = 0
            for case in rows:
                got = accepts(scorer, case)
                per_class[f"{task}/{case['class']}"][name][0] += got == case["expected"]
                per_class[f"{task}/{case['class']}"][name][1] += 1
                if got != case["expected"]:
                    fa += got
                    fr += not got
                    wrong[name].append((case, got))
            agree = len(rows) - fa - fr
            print(f"{name:12} {task:6} {agree:5}/{len(rows)} {100 * agree / len(rows):5.1f}% {fa:14} {fr:14}")
    print("\nper class (agreeing/total):")
    print(f"{'class':32}" + "".join(f"{n:>14}" for n in names))
    for cls in sorted(per_class):
        print(f"{cls:32}" + "".join(f"{per_class[cls][n][0]:>8}/{per_class[cls][n][1]:<5}" for n in names))
    if args.show:
        for name in names:
            print(f"\n== {name}: {len(wrong[name])} disagreements")
            for case, got in wrong[name]:
                kind = "FALSE ACCEPT" if got else "false reject"
                print(f"- {case['id']} [{case['class']}] {kind}: gold {case['gold']!r}; {case['why']}")
                print("    " + case["response"].replace("\n", "\n    ")[-300:])


if __name__ == "__main__":
    main()
