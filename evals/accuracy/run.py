"""Accuracy benchmark: this project vs Math-Verify, verl's built-in scorers and lm-eval's GSM8K regexes.

Two kinds of labelled cases, each scored by every scorer in one run:

* own: ``cases.jsonl`` (built by ``build_cases.py``), human labels ``expected``;
* peer: the suites generated under ``peer/data/`` by ``peer/build_peer.py`` from other projects' tests and
  outputs (Math-Verify's own tests, ...; see ``peer/README.md``), labels as the upstream gives them, plus
  the contract's reading where it differs (``peer/contract.py``). Every disagreement of this project is
  written by class to ``peer/disagreements.md``.

A scorer "accepts" a case when it would give full reward; accuracy is agreement with the label. A timeout
or scorer error counts as "not accepted" (that is what a trainer would see).

Run:
    python evals/accuracy/run.py                        # own + peer, all scorers -> results.md, results.json
    python evals/accuracy/run.py --only verifiers       # only this project (fast; other rows kept)
    python evals/accuracy/run.py --suite peer --failures 20   # peer suites; print the first 20 disagreements
    python evals/accuracy/run.py --suite hostile              # the blind hostile set (hostile/), ours vs Math-Verify

A run that covers only some suites or scorers updates those rows of ``results.json`` and keeps the others,
each row naming the run that measured it; ``results.md`` is rewritten from ``results.json``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CASES = HERE / "cases.jsonl"
OUT = HERE   # where results.md/results.json go; --out moves them (and disagreements.md) elsewhere

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
    def score(response: str, gold: str) -> bool:
        from verl.utils.reward_score import gsm8k as verl_gsm8k  # imported on first use: verl loads slowly

        return verl_gsm8k.compute_score(response, gold, method=method) == 1.0

    return score


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


ONLY = {"verifiers": "verifiers", "math-verify": "Math-Verify", "verl": "verl", "lm-eval": "lm-eval"}


def _selected(name: str, only: list[str] | None) -> bool:
    return not only or any(name.startswith(ONLY[o]) for o in only)


def _run_one(fn: Callable[[str, str], bool], response: str, gold: str) -> tuple[bool, str]:
    try:
        return bool(fn(response, gold)), ""
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        return False, type(e).__name__


def run_own(only: list[str] | None, run_id: str) -> dict[str, Any]:
    """Score ``cases.jsonl`` with the selected scorers: the JSON ``results``, ``misses``, ``by_category``."""
    cases = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line.strip()]
    results: dict[str, dict[str, dict]] = defaultdict(dict)
    misses: dict[str, list[str]] = defaultdict(list)
    by_category: dict[str, dict[str, dict[str, list[int]]]] = defaultdict(lambda: defaultdict(dict))
    for task, scorers in SCORERS.items():
        rows = [c for c in cases if c["task"] == task]
        for name, fn in scorers.items():
            if not _selected(name, only):
                continue
            agree = fp = fn_ = errors = 0
            start = time.perf_counter()
            for c in rows:
                got, err = _run_one(fn, c["response"], c["gold"])
                errors += bool(err)
                ok = got == c["expected"]
                agree += ok
                fp += got and not c["expected"]
                fn_ += (not got) and c["expected"]
                cat = by_category[task][c["category"]].setdefault(name, [0, 0])
                cat[0] += ok
                cat[1] += 1
                if not ok and name.startswith("verifiers"):
                    misses[task].append(f"{c['id']} [{c['category']}] expected={c['expected']}: "
                                        f"{c['response'][:70]!r} vs gold {c['gold']!r}")
            results[task][name] = {"cases": len(rows), "agree": agree, "accuracy": agree / len(rows),
                                   "false_accepts": fp, "false_rejects": fn_, "errors": errors,
                                   "seconds": round(time.perf_counter() - start, 3), "run": run_id}
            print(f"own  {task:5s} {name:26s} {agree}/{len(rows)} = {agree / len(rows):.1%}  "
                  f"FA={fp} FR={fn_}", file=sys.stderr)
    counts = {"total": len(cases), "gsm8k": sum(c["task"] == "gsm8k" for c in cases),
              "math": sum(c["task"] == "math" for c in cases)}
    ours_ran = _selected("verifiers", only)
    return {"results": results, "misses": misses if ours_ran else None, "by_category": by_category,
            "counts": counts}


# Labelled sets of whole responses beside the own cases: each row {"id", "task", "response", "gold", "label"
# (or "expected"), "class", "ambiguous"}; ambiguous rows are not scored. Sets missing here are skipped.
LABELLED = {"hostile": HERE / "hostile" / "cases.jsonl", "realout": HERE / "realout" / "data" / "corpus.jsonl"}
REALOUT_LABELS = HERE / "realout" / "labels" / "labels.jsonl"


def _labelled_rows(name: str, path: Path) -> list[dict[str, Any]]:
    """The scored rows of a labelled set: the hostile set carries its labels; the real-output corpus (rebuilt by
    ``realout/build.py``, git-ignored) takes them from ``realout/labels/`` (unlabelled rows are left out)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if name == "realout":
        labels = {r["id"]: r.get("label") for r in map(json.loads, REALOUT_LABELS.read_text("utf-8").splitlines())}
        rows = [dict(r, label=labels[r["id"]], **{"class": r["source"]}) for r in rows
                if labels.get(r["id"]) is not None]
    return [r for r in rows if not r.get("ambiguous")]


def _ours_with(task: str, row: dict[str, Any]) -> Callable[[str, str], bool]:
    """This project's scorer for ``row``: what the caller knows of its prompt goes in the config (a chat template
    that opened ``<think>``; the contract's rule 8)."""
    if not row.get("prompt_opens_think"):
        return SCORERS[task]["verifiers (this project)"]
    from verifiers import Tags, gsm8k, math

    module = gsm8k if task == "gsm8k" else math
    config = module.Config(tags=Tags(prompt_opens_thinking=True))
    return lambda r, g: module.score(r, g, config=config).correct


def run_labelled(name: str, path: Path, only: list[str] | None, run_id: str) -> dict[str, Any] | None:
    """Score one labelled set with the selected verifiers and Math-Verify scorers, per task and per class."""
    if not path.exists():
        print(f"{name}: {path.relative_to(ROOT)} not found (realout: run realout/build.py); skipped", file=sys.stderr)
        return None
    rows = _labelled_rows(name, path)
    out: dict[str, Any] = {"results": defaultdict(dict), "classes": defaultdict(dict), "false_accepts": {}}
    for task, scorers in SCORERS.items():
        mine = [r for r in rows if r["task"] == task]
        if not mine:
            continue
        for scorer in ("verifiers (this project)", "Math-Verify 0.9"):
            if not _selected(scorer, only):
                continue
            fn, agree, fa, fr, errors, accepted_wrong = scorers[scorer], 0, 0, 0, 0, []
            start = time.perf_counter()
            for r in mine:
                label = r.get("label", r.get("expected"))
                use = _ours_with(task, r) if scorer.startswith("verifiers") else fn
                got, err = _run_one(use, r["response"], str(r["gold"]))
                errors += bool(err)
                ok = got == label
                agree += ok
                fa += got and not label
                fr += (not got) and label
                if got and not label:
                    accepted_wrong.append(r["id"])
                cell = out["classes"][r.get("class", "")].setdefault(scorer, [0, 0])
                cell[0] += ok
                cell[1] += 1
            out["results"][task][scorer] = {"cases": len(mine), "agree": agree, "accuracy": agree / len(mine),
                                            "false_accepts": fa, "false_rejects": fr, "errors": errors,
                                            "seconds": round(time.perf_counter() - start, 3), "run": run_id}
            if scorer.startswith("verifiers"):
                out["false_accepts"][task] = accepted_wrong
            print(f"{name:5s} {task:5s} {scorer:26s} {agree}/{len(mine)} = {agree / len(mine):.1%}  "
                  f"FA={fa} FR={fr}", file=sys.stderr)
    return out


def run_peer_suites(only: list[str] | None, suites_wanted: list[str] | None, run_id: str,
                    failures: int, out: Path) -> dict[str, Any] | None:
    """Score the generated peer suites; write ``peer/disagreements.md`` when this project was scored."""
    from peer.evaluate import load_suites, run_peer
    from peer.report import write_disagreements
    from peer.scorers import OURS, PEER_SCORERS

    suites, manifests = load_suites(suites_wanted)
    if not suites:
        which = f" named {', '.join(suites_wanted)}" if suites_wanted else ""
        print(f"peer: no generated suites{which} under evals/accuracy/peer/data/ (run peer/build_peer.py; "
              "see peer/README.md); skipped", file=sys.stderr)
        return None
    names = [n for n in PEER_SCORERS if _selected(n, only)]
    run = run_peer(suites, manifests, names)
    for s in run.suites.values():
        for r in s["scorers"].values():
            r["run"] = run_id
        for per in s["files"].values():
            for r in per.values():
                r["run"] = run_id
    classes: dict[str, Any] | None = None
    if OURS in names:
        write_disagreements(run, _STAMP, out / "peer" / "disagreements.md" if out != HERE else None)
        upstream = [d for d in run.disagreements if d["accepted"] != d["row"]["expected"]]
        counts = Counter((d["cls"], d["row"]["suite"]) for d in upstream)
        from peer.classify import CLASSES

        rows = {c: {s: counts[(c, s)] for s in run.suites if counts[(c, s)]} for c in CLASSES}
        classes = {"suites": list(run.suites), "rows": {c: v for c, v in rows.items() if v}}
        for d in run.disagreements[:failures]:
            r = d["row"]
            print(f"[{d['cls']}] {r['id']} label={r['expected']} contract={d['contract_label']} "
                  f"ours={d['accepted']} ({d['detail'].get('status')}, "
                  f"{str(d['detail'].get('extracted'))[:40]!r})"
                  f"\n    gold={r['gold'][:100]!r}\n    resp={r['response'][-160:]!r}\n    why: {d['why']}")
    return {"suites": run.suites, "classes": classes}


_STAMP: dict[str, Any] = {}


def _stamp(verifiers_commit: str) -> dict[str, Any]:
    """When, and which ``verifiers`` ran: this checkout's ``src/`` (its HEAD, dirty or not) or another copy.

    For another copy (``PYTHONPATH=/tmp/baseline/src``, e.g. a ``git archive`` of an older commit) the commit
    is what ``--verifiers-commit`` says, since this checkout's HEAD says nothing about it.
    """
    import verifiers

    where = Path(verifiers.__file__).resolve().parent
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())   # the 2 cores are shared: timings depend on it
    stamp: dict[str, Any] = {"time": now, "verifiers": str(where), "commit": verifiers_commit, "load": load}
    if not where.is_relative_to(ROOT / "src"):
        return stamp
    try:
        git = ["git", "-C", str(ROOT)]
        stamp["commit"] = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True,
                                         check=True).stdout.strip()
        status = subprocess.run([*git, "status", "--porcelain", "src"], capture_output=True, text=True,
                                check=True).stdout
        stamp["src_dirty"] = bool(status.strip())
    except (subprocess.CalledProcessError, FileNotFoundError):
        pass
    return stamp


def _merge(old: dict[str, Any], new: dict[str, Any]) -> None:
    """Copy ``new`` into ``old`` two levels deep (task/suite, then scorer), keeping rows not measured now."""
    for key, table in new.items():
        dest = old.setdefault(key, {})
        for name, row in table.items():
            if isinstance(row, dict) and isinstance(dest.get(name), dict) and "cases" not in row:
                dest[name].update(row)
            else:
                dest[name] = row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Accuracy benchmark: own labelled cases and peer suites.")
    ap.add_argument("--suite", choices=("own", "peer", *LABELLED, "all"), default="all")
    ap.add_argument("--only", action="append", choices=sorted(ONLY),
                    help="score only these scorers (repeatable); other rows of results.json are kept")
    ap.add_argument("--peer-suites", default="",
                    help="comma-separated peer suite names (default: all generated)")
    ap.add_argument("--failures", type=int, default=0, metavar="N",
                    help="print the first N disagreements of this project on the peer suites")
    ap.add_argument("--verifiers-commit", default="",
                    help="the commit of a verifiers copy imported from outside this checkout (recorded)")
    ap.add_argument("--out", type=Path, default=OUT,
                    help="folder for results.md, results.json, peer/disagreements.md (default: here)")
    args = ap.parse_args(argv)
    out: Path = args.out.resolve()
    (out / "peer").mkdir(parents=True, exist_ok=True)
    results_json = out / "results.json"
    logging.getLogger("math_verify").setLevel(logging.ERROR)   # its timeout warnings are counted, not shown
    _STAMP.update(_stamp(args.verifiers_commit))
    run_id = _STAMP["time"]
    print(f"run {run_id}: verifiers from {_STAMP['verifiers']}, commit {_STAMP.get('commit', '')[:12]}"
          f"{' + uncommitted src/' if _STAMP.get('src_dirty') else ''}", file=sys.stderr)
    data = json.loads(results_json.read_text(encoding="utf-8")) if results_json.exists() else {}
    if "runs" not in data:   # results.json from before run stamps: its rows came from one full run
        data = {"results": data.get("results", {}), "misses": data.get("misses", {}), "runs": {}}
        for table in data["results"].values():
            for row in table.values():
                row.setdefault("run", "earlier")
    data["runs"][run_id] = dict(_STAMP)
    if args.suite in ("own", "all"):
        own = run_own(args.only, run_id)
        _merge(data.setdefault("results", {}), own["results"])
        if own["misses"] is not None:
            data["misses"] = own["misses"]
        for task, cats in own["by_category"].items():
            _merge(data.setdefault("by_category", {}).setdefault(task, {}), cats)
        data["own_counts"] = own["counts"]
    if args.suite in ("peer", "all"):
        wanted = [s for s in args.peer_suites.split(",") if s] or None
        peer = run_peer_suites(args.only, wanted, run_id, args.failures, out)
        if peer is not None:
            dest = data.setdefault("peer", {}).setdefault("suites", {})
            for suite, summary in peer["suites"].items():
                if suite in dest:
                    for key in ("scorers", "files"):
                        _merge({key: dest[suite].setdefault(key, {})}, {key: summary.pop(key)})
                    dest[suite].update(summary)
                else:
                    dest[suite] = summary
            if peer["classes"] is not None:
                data["peer"]["classes"] = peer["classes"]
    for name, path in LABELLED.items():
        if args.suite in (name, "all"):
            got = run_labelled(name, path, args.only, run_id)
            if got is not None:
                dest = data.setdefault("labelled", {}).setdefault(name, {})
                _merge(dest.setdefault("results", {}), got["results"])
                _merge(dest.setdefault("classes", {}), got["classes"])
                dest.setdefault("false_accepts", {}).update(got["false_accepts"])
    used = {r.get("run") for t in data.get("results", {}).values() for r in t.values()}
    for labelled in data.get("labelled", {}).values():
        used |= {r.get("run") for t in labelled.get("results", {}).values() for r in t.values()}
    for s in data.get("peer", {}).get("suites", {}).values():
        used |= {r.get("run") for r in s["scorers"].values()}
    data["runs"] = {k: v for k, v in data["runs"].items() if k in used}
    results_json.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    _write(data, out)
    return 0


def _write(data: dict[str, Any], out: Path) -> None:
    from peer.report import results_md_peer, stamp_line

    counts = data.get("own_counts", {"total": 362, "gsm8k": 177, "math": 185})
    results, misses = data.get("results", {}), data.get("misses", {})
    by_category = data.get("by_category", {})
    lines = ["# Accuracy benchmark results", "",
             (f"{counts['total']} hand-labelled cases (`cases.jsonl`; {counts['gsm8k']} GSM8K, "
              f"{counts['math']} MATH) and the peer suites below, all scorers in "
              "`python evals/accuracy/run.py`."),
             ("FA = false accepts (rewarded a wrong answer), FR = false rejects (refused a right one). "
              "Timeouts and exceptions count as not accepted. *run* names the run that measured the row "
              "(a partial run, e.g. `--only verifiers`, updates only its rows)."), ""]
    lines += [f"- run `{k}`: {stamp_line(v, with_time=False)}" for k, v in data.get("runs", {}).items()]
    lines.append("")
    for task, table in results.items():
        lines += [f"## {task.upper()}", "",
                  "| scorer | agree | accuracy | FA | FR | errors | seconds | run |",
                  "|---|---:|---:|---:|---:|---:|---:|---|"]
        for name, r in table.items():
            lines.append(f"| {name} | {r['agree']}/{r['cases']} | {r['accuracy']:.1%} | "
                         f"{r['false_accepts']} | {r['false_rejects']} | {r['errors']} | {r['seconds']} | "
                         f"{r.get('run', '')} |")
        lines.append("")
        cats = by_category.get(task, {})
        names = list(table)
        if cats:
            lines += ["| category | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
            for cat in sorted(cats):
                cells = [f"{cats[cat][n][0]}/{cats[cat][n][1]}" if n in cats[cat] else "" for n in names]
                lines.append(f"| {cat} | " + " | ".join(cells) + " |")
            lines.append("")
        if misses.get(task):
            lines += [f"Cases this project gets wrong ({task}):", ""]
            lines += [f"- `{m}`" for m in misses[task]] + [""]
    for name, labelled in data.get("labelled", {}).items():
        lines += [f"## Labelled set `{name}` ({LABELLED[name].parent.relative_to(HERE)}/; ambiguous rows left out)", "",
                  "| task | scorer | agree | accuracy | FA | FR | errors | seconds | run |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---|"]
        for task, table in labelled.get("results", {}).items():
            for scorer, r in table.items():
                lines.append(f"| {task} | {scorer} | {r['agree']}/{r['cases']} | {r['accuracy']:.1%} | "
                             f"{r['false_accepts']} | {r['false_rejects']} | {r['errors']} | {r['seconds']} | "
                             f"{r.get('run', '')} |")
        classes = labelled.get("classes", {})
        names = sorted({n for c in classes.values() for n in c})
        if classes:
            lines += ["", "| class | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
            for cls in sorted(classes):
                cells = [f"{classes[cls][n][0]}/{classes[cls][n][1]}" if n in classes[cls] else "" for n in names]
                lines.append(f"| {cls} | " + " | ".join(cells) + " |")
        for task, ids in labelled.get("false_accepts", {}).items():
            if ids:
                lines += ["", f"False accepts of this project ({task}): " + ", ".join(f"`{i}`" for i in ids)]
        lines.append("")
    lines += results_md_peer(data.get("peer", {}))
    (out / "results.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
