"""Reproduce the draw of golds used by rows.py (prints it; writes nothing).

    /work/main/.venv/bin/python evals/accuracy/heldout2/sample.py [DATA_DIR]

MATH: every test answer is put in one rough kind by the regexes below, then a fixed number per kind is
drawn with random.Random(20240917) (kinds in sorted order, indices sorted before sampling). Three more
non-symmetric matrix golds were drawn with random.Random(20240918) so that transposition can be tested.
GSM8K: 60 line numbers drawn with random.Random(20240917).
rows.py uses 148 of the 149 MATH golds drawn (test/intermediate_algebra/1020.json was left out: its
gold lists one of the three values the problem asks for) and all 60 GSM8K golds.
"""
import json
import random
import re
import sys
from pathlib import Path

DATA = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[4] / "shared" / "data"
ALLOC = {"integer": 20, "fraction": 11, "radical": 10, "expression": 10, "tuple": 10, "pi": 7, "decimal": 5, "set": 9, "degree": 5,
             "matrix": 8, "other": 4, "interval": 9, "text": 5, "complex": 6, "equation": 5, "choice": 4, "base": 5, "money": 3,
             "percent": 4, "pm": 3, "time": 2, "inequality": 1}


def kind(s):
    if "matrix" in s:
        return "matrix"
    if "\\$" in s:
        return "money"
    if re.search(r"\\text\{\s*\(?[A-E]\)?\s*\}$|^\(?[A-E]\)?$", s):
        return "choice"
    if "\\infty" in s or re.match(r"^[\[\(].*,.*[\]\)]$", s) and ("\\cup" in s):
        return "interval"
    if re.search(r"\\le(?!ft)|\\ge|<|>|\\leq|\\geq", s):
        return "inequality"
    if re.search(r"_\{?\d+\}?$", s) and re.match(r"^[0-9A-F]+_", s):
        return "base"
    if "\\%" in s or "%" in s:
        return "percent"
    if re.match(r"^\d{1,2}:\d\d", s) or "a.m." in s or "p.m." in s:
        return "time"
    if "\\pm" in s:
        return "pm"
    if "=" in s:
        return "equation"
    if re.match(r"^\\text\{[A-Za-z ,]+\}$", s) or re.match(r"^[A-Za-z]{3,}$", s):
        return "text"
    if re.match(r"^\\left\(|^\(", s) and "," in s:
        return "tuple"
    if re.match(r"^[\[\(].*,.*[\]\)]$", s):
        return "interval"
    if "," in s and not re.match(r"^\d{1,3}(,\d{3})+$", s.replace("{,}", ",").replace("\\!", "")):
        return "set"
    if re.search(r"(?<![a-z\\])i(?![a-z])", s) and "\\pi" not in s:
        return "complex"
    if "\\pi" in s:
        return "pi"
    if "\\sqrt" in s:
        return "radical"
    if "^\\circ" in s or "\\circ" in s:
        return "degree"
    if re.search(r"[a-z]", re.sub(r"\\[a-z]+", "", s)):
        return "expression"
    if "\\frac" in s or "/" in s:
        return "fraction"
    if "." in s:
        return "decimal"
    if re.match(r"^-?[\d,{}\\!]+$", s):
        return "integer"
    return "other"


def symmetric(a):
    body = re.sub(r"\\begin\{pmatrix\}|\\end\{pmatrix\}", "", a)
    m = [[x.strip() for x in r.split("&")] for r in body.split("\\\\")]
    try:
        return all(m[i][j] == m[j][i] for i in range(len(m)) for j in range(len(m)))
    except IndexError:
        return True


def main():
    rows = [json.loads(line) for line in (DATA / "math" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    kinds = {}
    for i, r in enumerate(rows):
        kinds.setdefault(kind(r["answer"]), []).append(i)
    rng = random.Random(20240917)
    for k in sorted(ALLOC):
        idx = sorted(kinds[k])
        for i in rng.sample(idx, min(ALLOC[k], len(idx))):
            print("math", k, rows[i]["unique_id"], rows[i]["answer"], sep="\t")
    cand = [i for i in sorted(kinds["matrix"]) if "&" in rows[i]["answer"] and not symmetric(rows[i]["answer"])]
    for i in random.Random(20240918).sample(cand, 3):
        print("math", "matrix-nonsym", rows[i]["unique_id"], rows[i]["answer"], sep="\t")
    gsm = [json.loads(line) for line in (DATA / "gsm8k" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    for i in sorted(random.Random(20240917).sample(range(len(gsm)), 60)):
        print("gsm8k", i, gsm[i]["answer"].split("####")[-1].strip(), sep="\t")


if __name__ == "__main__":
    main()
