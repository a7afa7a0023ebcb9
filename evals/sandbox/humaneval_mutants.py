"""HumanEval judge check: canonical solutions in three response shapes pass, mutants fail.

Usage: python evals/sandbox/humaneval_mutants.py /path/to/HumanEval.jsonl
Mutants per problem: the body replaced by ``return None``; off-by-one (the first integer literal of the
body + 1, else the first ``<``/``>`` turned into ``<=``/``>=``); the next problem's canonical body. A mutant
that still passes is printed (it may be equivalent to the canonical solution).
"""

from __future__ import annotations

import re
import sys
from collections import Counter

from verifiers import mbpp, tasks
from verifiers.datasets import load_problems


def _off_by_one(body: str) -> str | None:
    m = re.search(r"(?<![\w.])(\d+)(?![\w.])", body)
    if m:
        return body[:m.start()] + str(int(m.group(1)) + 1) + body[m.end():]
    m = re.search(r" (<|>) ", body)
    return body[:m.start()] + f" {m.group(1)}= " + body[m.end():] if m else None


def main(path: str) -> int:
    problems = load_problems("humaneval", path)
    spec = tasks.get("humaneval")
    refs = [spec.reference.of(p) for p in problems]
    bodies = [p.solution[len(p.question):] for p in problems]
    shapes = {
        "whole function (plain)": [p.solution for p in problems],
        "whole function (fenced)": [f"Here it is:\n```python\n{p.solution}\n```\n" for p in problems],
        "body only (completion)": bodies,
    }
    for name, responses in shapes.items():
        scores = mbpp.score_batch(responses, refs)
        bad = [p.id for p, s in zip(problems, scores) if not s.correct]
        print(f"canonical, {name}: {len(problems) - len(bad)}/{len(problems)} pass", bad[:10])
    kinds: dict[str, list[tuple[int, str]]] = {"return None": [], "off by one": [], "other problem's body": []}
    for i, b in enumerate(bodies):
        kinds["return None"].append((i, "    return None\n"))
        if (m := _off_by_one(b)) is not None:
            kinds["off by one"].append((i, m))
        kinds["other problem's body"].append((i, bodies[(i + 1) % len(bodies)]))
    total, rejected = 0, 0
    for kind, items in kinds.items():
        scores = mbpp.score_batch([m for _, m in items], [refs[i] for i, _ in items])
        statuses = Counter(s.status for s in scores)
        survivors = [problems[i].id for (i, _), s in zip(items, scores) if s.correct]
        total += len(items)
        rejected += len(items) - len(survivors)
        print(f"mutants, {kind}: {len(items) - len(survivors)}/{len(items)} rejected {dict(statuses)}; "
              f"passing: {survivors}")
    print(f"mutants rejected in all: {rejected}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
