"""The speed benchmark's workloads: (response, gold) lists, built the same way in every process.

- ``datasets``: GSM8K test and MATH-500 solutions scored against their own golds (the tidy case);
- ``cas_bound``: ``cas_bound.jsonl`` (see ``make_cas_bound.py``), random symbolic answers vs symbolic golds;
- ``junk``: ``junk.jsonl`` (see ``make_junk.py``), integrals, factorials, sums, ... against MATH test golds;
- ``concurrency_mix``: 600 MATH answers to 200 MATH test golds with a variable, three per gold: the dataset
  solution (equal) and two symbolic junk answers, shuffled with a fixed seed;
- ``pathological``: inputs built to make a scorer hang, blow up memory or recurse (``pathological.py``).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = Path(os.environ.get("VERIFIERS_DATA_DIR", HERE.parents[2] / "shared" / "data"))
CAS_BOUND = HERE / "cas_bound.jsonl"
JUNK = HERE / "junk.jsonl"

Pairs = tuple[list[str], list[str]]


def datasets(data: Path) -> dict[str, Pairs]:
    """GSM8K test and MATH-500: each dataset solution as the response, its own gold as the gold."""
    from verifiers.datasets import load_problems

    gsm = load_problems("gsm8k", data / "gsm8k" / "test.jsonl")
    m500 = load_problems("math500", data / "math" / "math500.jsonl")
    return {"gsm8k": ([p.solution for p in gsm], [p.gold for p in gsm]),
            "math500": ([p.solution for p in m500], [p.gold for p in m500])}


def cas_bound() -> tuple[list[dict], Pairs]:
    """The rows of ``cas_bound.jsonl`` and their (responses, golds)."""
    rows = [json.loads(line) for line in CAS_BOUND.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows, ([r["response"] for r in rows], [r["gold"] for r in rows])


def junk() -> tuple[list[dict], Pairs]:
    """The rows of ``junk.jsonl`` (see ``make_junk.py``) and their (responses, golds)."""
    rows = [json.loads(line) for line in JUNK.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows, ([r["response"] for r in rows], [r["gold"] for r in rows])


_RENAMES = list(itertools.permutations("abcfghjkmpqrstuvwz", 3))  # no e, i (constants), d, o or x, y, n


def renamed(pairs: Pairs, run: int) -> Pairs:
    """The CAS-bound pairs with their variables x, y, n renamed for ``run`` (0: unchanged): the same work,
    new expressions, so no cache of a scorer or of sympy carries over from one timed run to the next."""
    if run == 0:
        return pairs
    letters = dict(zip("xyn", _RENAMES[(run - 1) % len(_RENAMES)]))

    def rename(text: str) -> str:
        head, dollar, math = text.partition("$")  # prose before the first $ stays as written
        if not dollar:
            head, math = "", text
        out, i = [head + dollar], 0
        while i < len(math):
            m = _COMMAND.match(math, i) or _ENVIRONMENT.match(math, i)
            if m:  # a command or an environment name: never renamed
                out.append(m.group())
                i = m.end()
                continue
            out.append(letters.get(math[i], math[i]))
            i += 1
        return "".join(out)

    return [rename(r) for r in pairs[0]], [rename(g) for g in pairs[1]]


_ENVIRONMENT = re.compile(r"\{[a-z]*matrix\}")
_COMMAND = re.compile(r"\\[a-zA-Z]+")  # a LaTeX command name: its letters are not variables


def _has_variable(gold: str) -> bool:
    """A letter outside LaTeX commands and ``\\text{}`` (``6x-5``, ``y = 2x + 3``, ``6 - 5i``)."""
    return re.search(r"[a-zA-Z]", _COMMAND.sub("", gold)) is not None and "\\text" not in gold


def concurrency_mix(data: Path, golds_n: int = 200, per_gold: int = 3,
                    seed: int = 32) -> tuple[list[str], Pairs]:
    """``golds_n * per_gold`` MATH answers, as GRPO samples them: ``per_gold`` responses per gold, the first
    the dataset solution (equal to the gold), the others symbolic junk.

    Golds are MATH test golds with a variable (``6x-5``, ``y = 2x + 3``, a matrix of expressions): junk
    against them needs the CAS, which is the load this workload is for. Shuffled with a fixed seed.
    Returns the labels (``equal``/``junk``) and the (responses, golds).
    """
    from make_cas_bound import EXPRESSIONS

    from verifiers.datasets import load_problems

    rng = random.Random(seed)
    problems = [p for p in load_problems("math", data / "math" / "test.jsonl") if _has_variable(p.gold)]
    labels, responses, golds = [], [], []
    for p in rng.sample(problems, golds_n):
        for k in range(per_gold):
            if k == 0:
                labels.append("equal")
                responses.append(p.solution)
            else:
                g, e, wrong = rng.choice(EXPRESSIONS)(rng)
                labels.append("junk")
                responses.append(f"Thus the answer is $\\boxed{{{rng.choice([g, e, *wrong])}}}$.")
            golds.append(p.gold)
    order = list(range(len(golds)))
    rng.shuffle(order)
    return [labels[i] for i in order], ([responses[i] for i in order], [golds[i] for i in order])
