"""Score the peer suites with every selected scorer in one run: agreement, and this project's misses."""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from peer.classify import classify
from peer.contract import NOTES, case_key, contract_label
from peer.scorers import OURS, PEER_SCORERS, Verdict, is_bare, ours_bare_equivalent, run_one, unwrap

DATA = Path(__file__).resolve().parent / "data"
POLICIES = Path(__file__).resolve().parent / "policies.json"


def load_suites(names: list[str] | None, data: Path = DATA) -> tuple[dict[str, list[dict]], dict[str, dict]]:
    """Rows and manifests of the generated suites present under ``data`` (optionally only ``names``)."""
    from peer.sources import SOURCES

    order = {name: i for i, name in enumerate(SOURCES)}
    suites, manifests = {}, {}
    for path in sorted(data.glob("*.jsonl"), key=lambda p: (order.get(p.stem, len(order)), p.stem)):
        name = path.stem
        if names and name not in names:
            continue
        suites[name] = [
            json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        m = data / f"{name}.manifest.json"
        manifests[name] = json.loads(m.read_text(encoding="utf-8")) if m.exists() else {}
    return suites, manifests


def _stats() -> dict[str, Any]:
    return {
        "cases": 0,
        "agree": 0,
        "false_accepts": 0,
        "false_rejects": 0,
        "errors": 0,
        "agree_contract": 0,
        "false_accepts_contract": 0,
        "false_rejects_contract": 0,
        "seconds": 0.0,
    }


def _add(st: dict[str, Any], v: Verdict, label: bool, c_label: bool, seconds: float) -> None:
    st["cases"] += 1
    st["seconds"] += seconds
    st["agree"] += v.accepted == label
    st["false_accepts"] += v.accepted and not label
    st["false_rejects"] += (not v.accepted) and label
    st["errors"] += bool(v.error)
    st["agree_contract"] += v.accepted == c_label
    st["false_accepts_contract"] += v.accepted and not c_label
    st["false_rejects_contract"] += (not v.accepted) and c_label


def _finish(st: dict[str, Any]) -> dict[str, Any]:
    n = max(st["cases"], 1)
    st["accuracy"] = st["agree"] / n
    st["accuracy_contract"] = st["agree_contract"] / n
    st["seconds"] = round(st["seconds"], 3)
    return st


@dataclass
class PeerRun:
    """Everything one run measured on the peer suites."""

    scorers: list[str]
    suites: dict[str, dict[str, Any]] = field(default_factory=dict)  # suite -> summary and tables
    disagreements: list[dict[str, Any]] = field(default_factory=list)  # this project vs a label
    bare_inconsistent: list[dict[str, Any]] = field(
        default_factory=list
    )  # score() != equivalent() on bare pairs
    contract_rows: list[dict[str, Any]] = field(default_factory=list)  # rows the contract reads differently
    stale_notes: list[str] = field(default_factory=list)


def run_peer(suites: dict[str, list[dict]], manifests: dict[str, dict], scorers: list[str]) -> PeerRun:
    """Score every row of every suite with each of ``scorers`` (names from ``PEER_SCORERS``)."""
    out = PeerRun(scorers)
    if OURS in scorers:
        from verifiers import math

        math.warm_up()  # start the CAS workers before timing: the first symbolic check would pay it
    policies = json.loads(POLICIES.read_text(encoding="utf-8")) if POLICIES.exists() else {}
    seen_keys: set[str] = set()
    for suite, rows in suites.items():
        labels = []
        for r in rows:
            key = case_key(r["gold"], r["response"])
            seen_keys.add(key)
            c_label, note = contract_label(r["expected"], r["gold"], r["response"])
            labels.append((key, c_label, note))
        table: dict[str, dict[str, Any]] = {}
        per_file: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
        verdicts: dict[str, list[Verdict]] = {}
        for name in scorers:
            fn = PEER_SCORERS[name]
            st = _stats()
            files: dict[str, dict[str, Any]] = defaultdict(_stats)
            got = []
            for r, (_, c_label, _) in zip(rows, labels, strict=True):
                start = time.perf_counter()
                v = run_one(fn, r)
                spent = time.perf_counter() - start
                got.append(v)
                _add(st, v, r["expected"], c_label, spent)
                _add(files[r["file"]], v, r["expected"], c_label, spent)
            table[name] = _finish(st)
            for f, fst in files.items():
                per_file[f][name] = _finish(fst)
            verdicts[name] = got
            print(
                f"peer {suite:15s} {name:26s} {st['agree']}/{st['cases']} = {st['accuracy']:.1%}  "
                f"FA={st['false_accepts']} FR={st['false_rejects']} err={st['errors']} "
                f"(contract labels: {st['accuracy_contract']:.1%})  {st['seconds']}s",
                file=sys.stderr,
            )
        m = manifests.get(suite, {})
        out.suites[suite] = {
            "repo": m.get("repo", rows[0]["repo"] if rows else ""),
            "commit": m.get("commit", rows[0]["commit"] if rows else ""),
            "licence": m.get("licence", ""),
            "about": m.get("about", ""),
            "cases": len(rows),
            "true": sum(r["expected"] for r in rows),
            "contract_notes": sum(
                n is not None and n.contract_label != r["expected"]
                for r, (_, _, n) in zip(rows, labels, strict=True)
            ),
            "scorers": table,
            "files": dict(per_file),
        }
        for i, (r, (key, c_label, note)) in enumerate(zip(rows, labels, strict=True)):
            ours = verdicts.get(OURS, [None] * len(rows))[i]
            if note is not None and note.contract_label != r["expected"]:
                out.contract_rows.append(
                    {
                        "row": r,
                        "key": key,
                        "note": note,
                        "contract_label": c_label,
                        "verdicts": {n: verdicts[n][i].accepted for n in scorers},
                    }
                )
            if ours is None:
                continue
            if ours.accepted != r["expected"] or ours.accepted != c_label:
                diag = _diagnose(r, ours)
                label_for_class = r["expected"] if ours.accepted != r["expected"] else c_label
                cls = classify(r, ours.detail or {}, ours.accepted, label_for_class, diag)
                out.disagreements.append(
                    {
                        "row": r,
                        "key": key,
                        "accepted": ours.accepted,
                        "error": ours.error,
                        "detail": ours.detail or {},
                        "contract_label": c_label,
                        "note": note,
                        "diag": diag,
                        "cls": cls.cls,
                        "kind": cls.kind,
                        "why": cls.why,
                        "policy": policies.get(key, ""),
                        "others": {n: verdicts[n][i].accepted for n in scorers if n != OURS},
                    }
                )
            if r["compare"] == "extract" and is_bare(r["gold"]) and is_bare(r["response"]):
                eq = ours_bare_equivalent(r)
                if eq != ours.accepted:
                    out.bare_inconsistent.append(
                        {"row": r, "score": ours.accepted, "equivalent": eq, "detail": ours.detail or {}}
                    )
    if set(suites) >= {"math-verify", "hendrycks-math", "mario-eval"}:
        out.stale_notes = [f"{k} ({n.where})" for k, n in NOTES.items() if k not in seen_keys]
    return out


def _diagnose(row: dict[str, Any], ours: Verdict) -> dict[str, Any]:
    """Cheap checks that point at a mechanism: gold wrapper, symmetry, the gold against itself."""
    from verifiers import gsm8k, math

    module = gsm8k if row["task"] == "gsm8k" else math
    gold, resp = row["gold"], row["response"]
    diag: dict[str, Any] = {}
    if row["compare"] == "answers":
        diag["symmetric"] = math.equivalent(resp, gold) == ours.accepted
        diag["gold_self_ok"] = math.equivalent(gold, gold)
    else:
        if unwrap(gold) != gold.strip():
            diag["gold_unwrap_flips"] = module.score(resp, unwrap(gold)).correct != ours.accepted
        diag["gold_self_ok"] = module.score(gold, gold).correct
    return diag
