"""Make ``labels/labels.jsonl``: agreement of every available verdict, else the hand adjudication.

    /work/main/.venv/bin/python evals/accuracy/realout/label.py [--pending]

Verdicts: verifiers and Math-Verify (``data/verdicts.jsonl``, from ``score_all.py``) and the upstream's own
stored verdict where the file has one. Where all agree, that is the label (``how: agreement``). Where they
disagree, the label is the hand adjudication in ``labels/adjudications.jsonl`` (``how: hand``, with a
one-line reason), keyed by id and the response hash. ``--pending`` lists the disagreements still to be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ADJ = HERE / "labels" / "adjudications.jsonl"
OUT = HERE / "labels" / "labels.jsonl"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pending", action="store_true", help="write data/pending.jsonl with the unadjudicated cases")
    args = ap.parse_args(argv)
    rows = {(d := json.loads(x))["id"]: d for x in (HERE / "data" / "corpus.jsonl").read_text().splitlines()}
    verdicts = [json.loads(x) for x in (HERE / "data" / "verdicts.jsonl").read_text().splitlines()]
    adj = {}
    if ADJ.exists():
        adj = {(d := json.loads(x))["id"]: d for x in ADJ.read_text().splitlines() if x.strip()}
    labels, pending, stale = [], [], 0
    for v in verdicts:
        r = rows[v["id"]]
        votes = {"verifiers": v["verifiers"][0], "math_verify": v["math_verify"][0]}
        if r.get("upstream_verdict") is not None:
            votes["upstream"] = r["upstream_verdict"]
        a = adj.get(r["id"])
        if a is not None and a["sha"] != r["sha"]:
            stale += 1
            a = None
        unanimous = len(set(votes.values())) == 1
        if unanimous and (a is None or bool(a["label"]) == next(iter(votes.values()))):
            labels.append({"id": r["id"], "sha": r["sha"], "label": next(iter(votes.values())),
                           "how": "agreement", "voters": sorted(votes), **({"class": a["class"]} if a else {})})
        elif a is not None:
            labels.append({"id": r["id"], "sha": r["sha"], "label": bool(a["label"]), "how": "hand",
                           "votes": votes, "class": a.get("class", ""), "by": a.get("by", ""), "reason": a["reason"]})
        else:
            pending.append({**r, "votes": votes, "v": v["verifiers"], "mv": v["math_verify"]})
    OUT.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in labels), encoding="utf-8")
    print(f"{len(labels)} labelled ({sum(x['how'] == 'hand' for x in labels)} by hand), {len(pending)} pending,"
          f" {stale} stale adjudications -> {OUT}")
    if args.pending:
        with open(HERE / "data" / "pending.jsonl", "w", encoding="utf-8") as f:
            f.writelines(json.dumps(p, ensure_ascii=False) + "\n" for p in pending)
    return 0


if __name__ == "__main__":
    sys.exit(main())
