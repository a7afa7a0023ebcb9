"""Score the real-output corpus with verifiers and Math-Verify against the committed labels.

    /work/main/.venv/bin/python evals/accuracy/realout/run.py [--scorer verifiers|math_verify|both]
                                                             [--show N] [--write-disagreements]

Needs ``data/corpus.jsonl`` (``build.py`` writes it from the pinned upstreams) and ``labels/labels.jsonl``.
Prints, per source/task and for thinking traces, agreement with the labels, false positives (labelled
incorrect, scored correct) and false negatives. ``--write-disagreements`` writes
``labels/verifiers_disagreements.jsonl``: every case where verifiers differs from the label (id, sha,
label, verdict, status, extracted answer), so the scorer can be re-checked after a change.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "data" / "corpus.jsonl"
LABELS = HERE / "labels" / "labels.jsonl"
DISAGREE = HERE / "labels" / "verifiers_disagreements.jsonl"


def load() -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    if not CORPUS.exists():
        raise SystemExit(f"run: {CORPUS} missing: run build.py first")
    rows = [json.loads(x) for x in CORPUS.read_text(encoding="utf-8").splitlines()]
    labels = {}
    if LABELS.exists():
        labels = {(d := json.loads(x))["id"]: d for x in LABELS.read_text(encoding="utf-8").splitlines()}
    return rows, labels


def _import_verifiers(task: str) -> Any:
    try:
        return importlib.import_module(f"verifiers.{task}")
    except ImportError:
        sys.path.insert(0, str(HERE.parents[2] / "src"))
        return importlib.import_module(f"verifiers.{task}")


def _extracted(score: Any) -> str:
    for name in ("extracted", "prediction", "pred", "answer", "parsed"):
        v = getattr(score, name, None)
        if v is not None:
            return str(v)
    return ""


def score_verifiers(row: dict[str, Any]) -> tuple[bool, str, str]:
    mod = _import_verifiers(row["task"])
    try:
        config = None
        if row.get("prompt_opens_think"):  # the caller's knowledge of its prompt: see the contract, rule 8
            from verifiers import Tags

            config = mod.Config(tags=Tags(prompt_opens_thinking=True))
        s = mod.score(row["response"], row["gold"], config=config)
        return bool(s.correct), str(getattr(s, "status", "")), _extracted(s)
    except Exception as e:  # noqa: BLE001 - the API promises never to raise; record it if it does
        return False, f"raised {type(e).__name__}", str(e)[:80]


def score_math_verify(row: dict[str, Any]) -> tuple[bool, str, str]:
    from math_verify import parse, verify

    gold = row["gold"]
    try:
        g = parse(gold if "\\boxed" in gold else f"${gold}$")
        p = parse(row["response"])
        ok = bool(verify(g, p))
        return ok, "correct" if ok else ("no_answer" if not p else "incorrect"), str(p)[:200]
    except Exception as e:  # noqa: BLE001 - a baseline that raises is recorded, not fatal
        return False, f"raised {type(e).__name__}", str(e)[:80]


SCORERS = {"verifiers": score_verifiers, "math_verify": score_math_verify}


def run(rows: list[dict[str, Any]], names: list[str]) -> dict[str, list[tuple[bool, str, str]]]:
    out: dict[str, list[tuple[bool, str, str]]] = {}
    for nm in names:
        t = time.perf_counter()
        res = []
        for i, r in enumerate(rows):
            res.append(SCORERS[nm](r))
            if (i + 1) % 1000 == 0:
                print(f"  {nm}: {i + 1}/{len(rows)}", file=sys.stderr)
        out[nm] = res
        print(f"{nm}: {len(rows)} responses in {time.perf_counter() - t:.1f} s")
    return out


def _fmt(pairs: list[tuple[bool, bool]]) -> str:
    n = len(pairs)
    agree = sum(e == g for e, g in pairs)
    fp = sum(g and not e for e, g in pairs)
    fn = sum(e and not g for e, g in pairs)
    return f"{agree:5d}/{n:<5d} {100.0 * agree / max(n, 1):6.2f}%  FP {fp:3d}  FN {fn:3d}"


def report(rows: list[dict[str, Any]], labels: dict[str, dict[str, Any]], results: dict) -> None:
    idx = [i for i, r in enumerate(rows) if r["id"] in labels]
    groups: dict[str, list[int]] = collections.defaultdict(list)
    for i in idx:
        r = rows[i]
        groups[f"{r['source']}/{r['task']}"].append(i)
        if r["think"]:
            groups[f"(think) {r['task']}"].append(i)
        groups[f"(all) {r['task']}"].append(i)
        groups["(all)"].append(i)
    names = list(results)
    print(f"\n{'group':24s} {'n':>5s} {'ok':>5s}  " + "  ".join(f"{nm:^36s}" for nm in names))
    for key in sorted(groups, key=lambda k: (k.startswith("("), k)):
        ii = groups[key]
        cols = [_fmt([(labels[rows[i]["id"]]["label"], results[nm][i][0]) for i in ii]) for nm in names]
        n_ok = sum(labels[rows[i]["id"]]["label"] for i in ii)
        print(f"{key:24s} {len(ii):5d} {n_ok:5d}  " + "  ".join(f"{c:36s}" for c in cols))
    if len(idx) < len(rows):
        print(f"\n{len(rows) - len(idx)} responses have no label yet")


def disagreements(rows, labels, res) -> list[dict[str, Any]]:
    out = []
    for r, (ok, status, ext) in zip(rows, res):
        lab = labels.get(r["id"])
        if lab is None or lab["label"] == ok:
            continue
        out.append({
            "id": r["id"], "sha": r["sha"], "task": r["task"], "label": lab["label"], "verdict": ok,
            "kind": "FP" if ok else "FN", "status": status, "extracted": ext[:120], "gold": r["gold"],
            "how": lab["how"], "reason": lab.get("reason", ""),
        })
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scorer", choices=("verifiers", "math_verify", "both"), default="both")
    ap.add_argument("--show", type=int, default=0, help="print up to N disagreements per scorer")
    ap.add_argument("--write-disagreements", action="store_true")
    args = ap.parse_args(argv)
    rows, labels = load()
    names = ["verifiers", "math_verify"] if args.scorer == "both" else [args.scorer]
    results = run(rows, names)
    report(rows, labels, results)
    for nm in names:
        dis = disagreements(rows, labels, results[nm])
        if args.show:
            print(f"\n== {nm}: {len(dis)} disagreements ==")
            for d in dis[: args.show]:
                r = next(x for x in rows if x["id"] == d["id"])
                tail = r["response"][-200:].replace("\n", "\\n")
                print(f"- {d['id']} {d['kind']} label={d['label']} status={d['status']} gold={d['gold']!r}")
                print(f"    extracted: {d['extracted']!r}\n    reason: {d['reason']}\n    tail: ...{tail}")
        if nm == "verifiers" and args.write_disagreements:
            DISAGREE.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in dis), encoding="utf-8")
            print(f"wrote {len(dis)} verifiers disagreements -> {DISAGREE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
