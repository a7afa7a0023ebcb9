"""Write cases.jsonl from rows.py (deterministic: same rows.py -> byte-identical cases.jsonl).

    /work/main/.venv/bin/python evals/accuracy/heldout2/build.py

Every gold is checked against the dataset it was copied from (MATH `answer` by unique_id, GSM8K the number
after `####` by 0-based line number) when shared/data is reachable; a mismatch is an error.
"""
import json
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import rows

FIELDS = ("id", "task", "gold", "response", "expected", "class", "why")


def _data_dir():
    cands = []
    if os.environ.get("VERIFIERS_SHARED"):
        cands.append(Path(os.environ["VERIFIERS_SHARED"]) / "data")
    repo = HERE.parents[2]
    cands += [repo / "shared" / "data", repo.parent / "shared" / "data"]
    for c in cands:
        if (c / "math" / "test.jsonl").exists() and (c / "gsm8k" / "test.jsonl").exists():
            return c
    return None


def _strip_layout(text):
    # The triple-quoted layout in rows.py adds one leading and one trailing newline; drop exactly those.
    text = text.removeprefix("\n")
    text = text.removesuffix("\n")
    return text


def check_golds():
    data = _data_dir()
    if data is None:
        print("build: shared/data not found, golds not re-checked", file=sys.stderr)
        return
    math_by_id = {}
    with open(data / "math" / "test.jsonl", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            math_by_id[r["unique_id"]] = r["answer"]
    with open(data / "gsm8k" / "test.jsonl", encoding="utf-8") as f:
        gsm = [json.loads(line)["answer"].split("####")[-1].strip() for line in f]
    bad = []
    for r in rows.MATH:
        if math_by_id.get(r["src"]) != r["gold"]:
            bad.append(("math", r["src"], r["gold"], math_by_id.get(r["src"])))
    for r in rows.GSM8K:
        if gsm[r["src"]] != r["gold"]:
            bad.append(("gsm8k", r["src"], r["gold"], gsm[r["src"]]))
    if bad:
        for b in bad:
            print("gold mismatch:", b, file=sys.stderr)
        raise SystemExit(1)


def cases():
    out = []
    for task, lst in (("math", rows.MATH), ("gsm8k", rows.GSM8K)):
        for i, r in enumerate(lst, 1):
            assert isinstance(r["expected"], bool)
            assert r["cls"] and re.fullmatch(r"[a-z_]+", r["cls"]), r["cls"]
            assert r["why"] and "\n" not in r["why"]
            out.append({
                "id": f"h2-{task}-{i:03d}",
                "task": task,
                "gold": r["gold"],
                "response": _strip_layout(r["response"]),
                "expected": r["expected"],
                "class": r["cls"],
                "why": r["why"],
            })
    return out


def main():
    check_golds()
    cs = cases()
    path = HERE / "cases.jsonl"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.writelines(json.dumps({k: c[k] for k in FIELDS}, ensure_ascii=False) + "\n" for c in cs)
    for task in ("math", "gsm8k"):
        sub = [c for c in cs if c["task"] == task]
        print(f"{task}: {len(sub)} cases, {sum(not c['expected'] for c in sub)} expected incorrect")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
