"""HumanEval+ / MBPP+ through the expected-output judge: canonical solutions and known-wrong variants.

Usage:
    python evals/sandbox/humanevalplus.py HumanEvalPlus.jsonl.gz [--humaneval HumanEval.jsonl]
        [--workers 2] [--timeout 20] [--limit N] [--out evals/sandbox/results_evalplus.json]

(the data: evals/sandbox/EVALPLUS_SOURCE.md; MbppPlus.jsonl.gz works the same way.)

For each problem: the expected outputs are computed by running the dataset's reference (``prompt +
canonical_solution``) in the sandbox (`verifiers.evalplus.expected_outputs`); then each response below is
judged twice, on the base inputs only and on base + plus inputs (EvalPlus's "base" and "plus" figures):

* the canonical solution as a model would write it (HumanEval+: the body, completing the prompt; MBPP+:
  the whole function in a fenced block): must pass;
* wrong variants: ``return None``; off-by-one (the first integer literal of the body + 1, else the first
  ``<``/``>`` turned into ``<=``/``>=``); with ``--humaneval``, the original HumanEval canonical solution
  (EvalPlus found several wrong). A variant passing base but failing plus is one the plus inputs caught. An
  off-by-one variant may be equivalent to the canonical solution (then it passes both, correctly).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from verifiers.errors import VerifiersError
from verifiers.evalplus import EvalPlusProblem, load_evalplus, problem_tests, run_response
from verifiers.sandbox import CodePool

PROG = "humanevalplus.py"


def _fail(msg: str) -> int:
    print(f"{PROG}: error: {' '.join(str(msg).split())[:400]}", file=sys.stderr)
    return 2


def _body(p: EvalPlusProblem) -> str:
    """The canonical solution as a response: the completion (HumanEval+) or the whole function (MBPP+)."""
    return p.reference[len(p.prompt):]


def _off_by_one(code: str, entry: str) -> str | None:
    head, sep, body = code.partition(f"def {entry}(")
    if sep:  # mutate after the signature line
        sig, nl, rest = body.partition("\n")
        head, body = head + sep + sig + nl, rest
    else:
        head, body = "", code
    m = re.search(r"(?<![\w.])(\d+)(?![\w.])", body)
    if m:
        return head + body[:m.start()] + str(int(m.group(1)) + 1) + body[m.end():]
    m = re.search(r" (<|>) ", body)
    return head + body[:m.start()] + f" {m.group(1)}= " + body[m.end():] if m else None


def _responses(p: EvalPlusProblem, original: dict[str, str]) -> dict[str, str]:
    mbpp = p.task_id.startswith("Mbpp/")
    canon = _body(p)
    wrap = (lambda c: f"```python\n{c}\n```") if mbpp else (lambda c: c)
    out = {"canonical": wrap(canon),
           "return None": wrap(f"def {p.entry_point}(*args):\n    return None\n") if mbpp else "    return None\n"}
    if (m := _off_by_one(canon, p.entry_point)) is not None:
        out["off by one"] = wrap(m)
    if p.task_id in original:
        out["original HumanEval canonical"] = original[p.task_id]
    return out


def _judge(p: EvalPlusProblem, pool: CodePool, original: dict[str, str], timeout: float) -> dict[str, Any]:
    rec: dict[str, Any] = {"task_id": p.task_id, "base_inputs": len(p.base_inputs), "plus_inputs": len(p.plus_inputs),
                           "special_oracle": p.special_oracle}
    try:
        tests = problem_tests(p, pool, plus=True, timeout_s=timeout)
    except VerifiersError as e:
        rec["reference_error"] = " ".join(str(e).split())[:300]
        return rec
    rec["inputs_left_out"] = {i: why for i, why in list(tests.skipped.items())[:3]}
    rec["n_left_out"] = len(tests.skipped)
    for name, response in _responses(p, original).items():
        row = {}
        for plus in (False, True):
            try:
                r = run_response(response, p, pool, plus=plus, timeout_s=timeout)
                row["plus" if plus else "base"] = (r.passed, r.status, " ".join(r.detail.split())[:160])
            except VerifiersError as e:
                row["plus" if plus else "base"] = (False, "error", " ".join(str(e).split())[:160])
        rec[name] = row
    return rec


def _summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    ok = [r for r in records if "reference_error" not in r]
    out: dict[str, Any] = {
        "problems": len(records),
        "base_inputs": sum(r["base_inputs"] for r in records),
        "plus_inputs": sum(r["plus_inputs"] for r in records),
        "references_computed": len(ok),
        "reference_errors": {r["task_id"]: r["reference_error"] for r in records if "reference_error" in r},
        "inputs_left_out": sum(r["n_left_out"] for r in ok),
        "problems_with_inputs_left_out": {r["task_id"]: f"{r['n_left_out']}: {next(iter(r['inputs_left_out'].values()))}"
                                          for r in ok if r["n_left_out"]},
    }
    names = list(dict.fromkeys(n for r in ok for n in r if isinstance(r[n], dict) and "base" in r[n]))
    for name in names:
        rows = [(r["task_id"], r[name]) for r in ok if name in r]
        base = sum(v["base"][0] for _, v in rows)
        plus = sum(v["plus"][0] for _, v in rows)
        out[name] = {
            "judged": len(rows), "pass_base": base, "pass_plus": plus,
            "pass_base_fail_plus": [t for t, v in rows if v["base"][0] and not v["plus"][0]],
            "statuses_plus": dict(Counter(v["plus"][1] for _, v in rows)),
        }
        if name == "canonical":
            out[name]["failing"] = {t: v for t, v in rows if not (v["base"][0] and v["plus"][0])}
        else:
            out[name]["passing_plus"] = [t for t, v in rows if v["plus"][0]]
    return out


def _markdown(s: dict[str, Any], args: argparse.Namespace, seconds: float) -> str:
    lines = [f"# {Path(args.data).name} through the expected-output judge", "",
             f"`python evals/sandbox/humanevalplus.py {Path(args.data).name}"
             + (" --humaneval HumanEval.jsonl" if args.humaneval else "")
             + f" --workers {args.workers} --timeout {args.timeout:g}`"
             + (f" (first {args.limit} problems)" if args.limit else "")
             + f"; {seconds:.0f} s on a shared 2-core VM (timings noisy).", "",
             (f"Problems {s['problems']}, base inputs {s['base_inputs']:,}, plus inputs {s['plus_inputs']:,}. "
              f"References computed in the sandbox: {s['references_computed']}/{s['problems']}. Inputs left out "
              f"(the judge cannot decide them): {s['inputs_left_out']} in {len(s['problems_with_inputs_left_out'])} "
              "problems (listed below)."), "",
             "| response | judged | pass on base inputs | pass on base + plus | passed base, failed plus |",
             "|---|---|---|---|---|"]
    for name, v in s.items():
        if isinstance(v, dict) and "judged" in v:
            lines.append(f"| {name} | {v['judged']} | {v['pass_base']} | {v['pass_plus']} | "
                         f"{len(v['pass_base_fail_plus'])} |")
    for name, v in s.items():
        if isinstance(v, dict) and "judged" in v and name != "canonical":
            lines += ["", (f"{name}: passed base, failed plus (caught by the plus inputs only): "
                      f"{', '.join(v['pass_base_fail_plus']) or 'none'}; passing both: "
                      f"{', '.join(v['passing_plus']) or 'none'}; statuses on base + plus: {v['statuses_plus']}")]
    if s["problems_with_inputs_left_out"]:
        lines += ["", "Inputs left out (count: first reason):",
                  *[f"- {t}: {e}" for t, e in s["problems_with_inputs_left_out"].items()]]
    if s["reference_errors"]:
        lines += ["", "Reference errors:", *[f"- {t}: {e}" for t, e in s["reference_errors"].items()]]
    fails = s.get("canonical", {}).get("failing", {})
    if fails:
        lines += ["", "Canonical solutions failing:", *[f"- {t}: {v}" for t, v in fails.items()]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("data", help="HumanEvalPlus.jsonl.gz or MbppPlus.jsonl.gz (EvalPlus release rows)")
    ap.add_argument("--humaneval", help="the original HumanEval.jsonl: also judge its canonical solutions")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20.0, help="CPU seconds per program (<= 250 tests each)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N problems")
    ap.add_argument("--max-output-mb", type=float, default=8.0,
                    help="the pool's output cap: the largest reference output of one input must fit")
    ap.add_argument("--out", help="write the JSON summary here (and a .md beside it)")
    args = ap.parse_args(argv)
    try:
        problems = load_evalplus(args.data)
        original: dict[str, str] = {}
        if args.humaneval:
            with open(args.humaneval, encoding="utf-8") as f:
                original = {r["task_id"]: r["canonical_solution"] for r in map(json.loads, filter(str.strip, f))}
    except (VerifiersError, OSError, ValueError, KeyError) as e:
        return _fail(e)
    if args.limit:
        problems = problems[:args.limit]
    print(f"{len(problems)} problems, {sum(len(p.base_inputs) for p in problems):,} base and "
          f"{sum(len(p.plus_inputs) for p in problems):,} plus inputs", file=sys.stderr, flush=True)
    t0 = time.time()
    records: list[dict[str, Any]] = []
    try:
        pool = CodePool(workers=args.workers, timeout_s=args.timeout,
                        max_stdio_output_bytes=min(int(args.max_output_mb * 2**20), (16 << 20) - 1))
        with pool, ThreadPoolExecutor(args.workers * 2) as ex:
            futs = [ex.submit(_judge, p, pool, original, args.timeout) for p in problems]
            for i, fut in enumerate(as_completed(futs)):
                fut.result()
                if (i + 1) % 10 == 0 or i + 1 == len(problems):
                    print(f"  {i + 1}/{len(problems)} problems, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
            records = [f.result() for f in futs]
    except VerifiersError as e:
        return _fail(e)
    seconds = time.time() - t0
    s = _summary(records)
    s["seconds"] = round(seconds, 1)
    print(_markdown(s, args, seconds))
    if args.out:
        out = Path(args.out)
        out.write_text(json.dumps({"data": Path(args.data).name, "summary": s, "problems": records}, indent=1) + "\n")
        out.with_suffix(".md").write_text(_markdown(s, args, seconds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
