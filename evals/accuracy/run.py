"""Accuracy benchmark: this project vs Math-Verify, verl's built-in scorers and lm-eval's GSM8K regexes.

All scorers see the same labelled cases (``cases.jsonl``, built by ``build_cases.py``) in one run. A scorer
"accepts" a case when it would give full reward; accuracy is agreement with the human label ``expected``.
A timeout or scorer error counts as "not accepted" (that is what a trainer would see).

Run: python evals/accuracy/run.py            -> writes results.md and results.json next to this file
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases.jsonl"

# lm-evaluation-harness, lm_eval/tasks/gsm8k/gsm8k.yaml (metadata version 3.0), filter_list:
#   strict-match:     regex_pattern "#### (\-?[0-9\.\,]+)", then take_first (group_select 0: first match)
#   flexible-extract: regex_pattern "(-?[$0-9.,]{2,})|(-?[0-9]+)", group_select -1 (last match)
# exact_match with ignore_case and regexes_to_ignore [",", "\$", "(?s).*#### ", "\.$"] on both sides.
LM_EVAL_STRICT = re.compile(r"#### (\-?[0-9\.\,]+)")
LM_EVAL_FLEXIBLE = re.compile(r"(-?[$0-9.,]{2,})|(-?[0-9]+)")
LM_EVAL_IGNORE = [re.compile(r","), re.compile(r"\$"), re.compile(r"(?s).*#### "), re.compile(r"\.$")]


def _lm_eval_clean(s: str) -> str:
    for rx in LM_EVAL_IGNORE:
        s = rx.sub("", s)
    return s.strip().lower()


def _lm_eval(pattern: re.Pattern[str], group_select: int) -> Callable[[str, str], bool]:
    def score(response: str, gold: str) -> bool:
        matches = pattern.findall(response)
        if not matches:
            return False
        m = matches[group_select]
        if isinstance(m, tuple):
            m = next((x for x in m if x), "")
        return _lm_eval_clean(m.strip()) == _lm_eval_clean(gold)

    return score


def _ours(task: str) -> Callable[[str, str], bool]:
    from verifiers import gsm8k, math

    module = gsm8k if task == "gsm8k" else math
    return lambda r, g: module.score(r, g).correct


def _math_verify(response: str, gold: str) -> bool:
    from math_verify import parse, verify

    g = parse(gold if "\\boxed" in gold else f"${gold}$")
    return bool(verify(g, parse(response)))


def _verl_gsm8k(method: str) -> Callable[[str, str], bool]:
    from verl.utils.reward_score import gsm8k as verl_gsm8k

    return lambda r, g: verl_gsm8k.compute_score(r, g, method=method) == 1.0


def _verl_math(response: str, gold: str) -> bool:
    from verl.utils.reward_score import math_reward

    return math_reward.compute_score(response, gold) == 1.0


SCORERS: dict[str, dict[str, Callable[[str, str], bool]]] = {
    "gsm8k": {
        "verifiers (this project)": _ours("gsm8k"),
        "Math-Verify 0.9": _math_verify,
        "verl gsm8k (strict)": _verl_gsm8k("strict"),
        "verl gsm8k (flexible)": _verl_gsm8k("flexible"),
        "lm-eval strict-match": _lm_eval(LM_EVAL_STRICT, 0),
        "lm-eval flexible-extract": _lm_eval(LM_EVAL_FLEXIBLE, -1),
    },
    "math": {
        "verifiers (this project)": _ours("math"),
        "Math-Verify 0.9": _math_verify,
        "verl math_reward": _verl_math,
    },
}


def _run_one(fn: Callable[[str, str], bool], response: str, gold: str) -> tuple[bool, str]:
    try:
        return bool(fn(response, gold)), ""
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        return False, type(e).__name__


def main() -> int:
    cases = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line.strip()]
    results: dict[str, dict[str, dict]] = defaultdict(dict)
    misses: dict[str, list[str]] = defaultdict(list)
    by_category: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for task, scorers in SCORERS.items():
        rows = [c for c in cases if c["task"] == task]
        for name, fn in scorers.items():
            agree = fp = fn_ = errors = 0
            start = time.perf_counter()
            for c in rows:
                got, err = _run_one(fn, c["response"], c["gold"])
                errors += bool(err)
                ok = got == c["expected"]
                agree += ok
                fp += got and not c["expected"]
                fn_ += (not got) and c["expected"]
                cat = by_category[(task, c["category"], name)]
                cat[0] += ok
                cat[1] += 1
                if not ok and name.startswith("verifiers"):
                    misses[task].append(f"{c['id']} [{c['category']}] expected={c['expected']}: "
                                        f"{c['response'][:70]!r} vs gold {c['gold']!r}")
            results[task][name] = {"cases": len(rows), "agree": agree, "accuracy": agree / len(rows),
                                   "false_accepts": fp, "false_rejects": fn_, "errors": errors,
                                   "seconds": round(time.perf_counter() - start, 3)}
            print(f"{task:5s} {name:26s} {agree}/{len(rows)} = {agree / len(rows):.1%}  FA={fp} FR={fn_}",
                  file=sys.stderr)
    _write(cases, results, misses, by_category)
    return 0


def _write(cases: list[dict], results: dict, misses: dict, by_category: dict) -> None:
    (HERE / "results.json").write_text(json.dumps({"results": results, "misses": misses}, indent=2) + "\n")
    lines = ["# Accuracy benchmark results", "",
             (f"{len(cases)} hand-labelled cases (`cases.jsonl`; {sum(c['task'] == 'gsm8k' for c in cases)} "
              f"GSM8K, {sum(c['task'] == 'math' for c in cases)} MATH), all scorers in one run of "
              "`python evals/accuracy/run.py`."),
             ("FA = false accepts (rewarded a wrong answer), FR = false rejects (refused a right one). "
              "Timeouts and exceptions count as not accepted."), ""]
    for task, table in results.items():
        lines += [f"## {task.upper()}", "", "| scorer | agree | accuracy | FA | FR | errors | seconds |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for name, r in table.items():
            lines.append(f"| {name} | {r['agree']}/{r['cases']} | {r['accuracy']:.1%} | {r['false_accepts']} | "
                         f"{r['false_rejects']} | {r['errors']} | {r['seconds']} |")
        lines.append("")
        cats = sorted({c for (t, c, _) in by_category if t == task})
        names = list(table)
        lines += ["| category | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
        for cat in cats:
            cells = [f"{by_category[(task, cat, n)][0]}/{by_category[(task, cat, n)][1]}" for n in names]
            lines.append(f"| {cat} | " + " | ".join(cells) + " |")
        lines.append("")
        if misses.get(task):
            lines += [f"Cases this project gets wrong ({task}):", ""] + [f"- `{m}`" for m in misses[task]] + [""]
    (HERE / "results.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
