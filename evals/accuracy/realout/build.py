"""Regenerate the real-output corpus under ``evals/accuracy/realout/data/`` (git-ignored) from pinned upstreams.

Usage::

    python evals/accuracy/realout/build.py [--mirrors /work/.mirror] [--list]

Each source is a public repository that commits model outputs for GSM8K or MATH with the problem's gold
answer. Files are read at the pinned commit with ``git show`` from a bare git dir or clone (the ``fetch``
tool leaves them under ``/work/.mirror/<owner>+<name>/repo``; ``git clone`` works as well, then pass
``--repo OWNER/NAME=PATH``). Nothing upstream is committed here: only this code, the labels
(``labels/labels.jsonl``: id, sha256 of the response, label, how it was reached) and the README.

The selection is deterministic (fixed files, the first N problems of each file where stated), so the ids
``<source>/<model>/<item>`` and the response hashes in ``labels/`` stay valid. ``build.py`` fails if a
labelled id is missing or its response hash changed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the peer suites' helpers (evals/accuracy/peer)
from peer.sources import last_box

DATA = HERE / "data"
LABELS = HERE / "labels" / "labels.jsonl"


@dataclass(frozen=True)
class Source:
    """One upstream repository, pinned, and the reader that turns its files into rows."""

    name: str
    repo: str
    commit: str
    licence: str
    about: str
    read: Callable[[Callable[[str], str]], Iterator[dict[str, Any]]]


def sha(text: str) -> str:
    """sha256 of the response text (UTF-8), first 16 hex digits: ties a label to the exact response."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def gsm8k_gold(solution: str) -> str:
    """The number after the last ``####`` (GSM8K reference solution), thousands separators removed."""
    return solution.rsplit("####", 1)[1].strip().replace(",", "")


def _row(model: str, item: str, task: str, gold: str, response: str, upstream: bool | None, **extra: Any) -> dict:
    return {
        "model": model,
        "item": item,
        "task": task,
        "gold": gold,
        "response": response,
        "upstream_verdict": upstream,
        **extra,
    }


# ---------------------------------------------------------------- openai/grade-school-math (MIT)
GSM_OPENAI_FILE = "grade_school_math/data/example_model_solutions.jsonl"
GSM_OPENAI_N = 300


def read_gsm_openai(show: Callable[[str], str]) -> Iterator[dict[str, Any]]:
    """GPT-3 6B/175B solutions (fine-tuned and verifier-selected) on GSM8K test, first 300 problems.

    The reference ends ``A: <number>`` in this file (not ``####``); the gold is that number.
    ``is_correct`` is OpenAI's stored verdict.
    """
    for n, line in enumerate(show(GSM_OPENAI_FILE).splitlines()[:GSM_OPENAI_N]):
        rec = json.loads(line)
        gold = rec["ground_truth"].rsplit("A:", 1)[1].strip().replace(",", "")
        for model in ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification"):
            sol = rec[model]
            yield _row(model, str(n), "gsm8k", gold, sol["solution"], bool(sol["is_correct"]), file=GSM_OPENAI_FILE)


# ---------------------------------------------------------------- Tebmer/Rereading-LLM-Reasoning (Apache-2.0)
REREAD_FILES = {
    "text-davinci-003": "results/gsm_topp1.0_temp0.0_majority1_20230828_141934.jsonl",
    "gpt-3.5-turbo": "results/gsm_topp1.0_temp0.0_majority1_20230828_1157.jsonl",
    "gpt-4o-mini-2024-07-18": (
        "results/gsm_gpt-4o-mini-2024-07-18_topp1.0_temp0.0_majority1_readtimes1_20240926_221724.jsonl"
    ),
}
REREAD_N = 300


def read_reread(show: Callable[[str], str]) -> Iterator[dict[str, Any]]:
    """Zero-shot GSM8K test answers (the paper's baseline runs, read once), 'vanilla' and 'cot' prompts.

    First 300 lines of each file; ``score`` is the authors' stored verdict.
    """
    for model, file in REREAD_FILES.items():
        for line in show(file).splitlines()[:REREAD_N]:
            rec = json.loads(line)
            for prompt in ("vanilla", "cot"):
                out = rec[prompt]
                yield _row(
                    f"{model}:{prompt}",
                    str(rec["id"]),
                    "gsm8k",
                    str(rec["target"]).replace(",", ""),
                    out["generation"][0],
                    bool(out["score"]),
                    file=file,
                )


# ---------------------------------------------------------------- thaotnguyen/thinking-llms-interp (no licence)
HYBRID_FILES = (
    "hybrid/results/benchmark_results_llama-3.1-8b_gsm8k.json",
    "hybrid/results/benchmark_results_qwen2.5-32b-on-deepseek-r1-distill-qwen-32b_gsm8k.json",
    "hybrid/results/benchmark_results_qwen2.5-32b_gsm8k.json",
    "hybrid/results/benchmark_results_qwen2.5-math-1.5b_gsm8k.json",
    "hybrid/results/benchmark_results_qwen2.5-14b_math500.json",
    "hybrid/results/benchmark_results_qwen2.5-32b_math500.json",
)
HYBRID_OTHERS_N = 100


def read_hybrid(show: Callable[[str], str]) -> Iterator[dict[str, Any]]:
    """Reasoning-model traces (DeepSeek-R1-Distill Llama-8B / Qwen-1.5B / Qwen-14B / Qwen-32B, QwQ-32B).

    Every ``thinking_model`` answer (the chat template opened ``<think>``, so the trace ends with
    ``</think>`` and the answer, or is cut off), plus the ``base_model`` and ``hybrid_model`` answers of the
    first 100 problems of each file. No per-item verdict is stored upstream.
    """
    for file in HYBRID_FILES:
        doc = json.loads(show(file))
        meta = doc["metadata"]
        task = "math" if "math500" in file else "gsm8k"
        for n, t in enumerate(doc["tasks"]):
            gold = gsm8k_gold(t["correct_answer"]) if task == "gsm8k" else t["correct_answer"]
            for role in ("thinking_model", "base_model", "hybrid_model"):
                if role != "thinking_model" and n >= HYBRID_OTHERS_N:
                    continue
                text = t["model_answers"].get(role)
                if not isinstance(text, str):
                    continue
                model = meta["base_model"] if role == "base_model" else meta["thinking_model"]
                if role == "hybrid_model":
                    model = f"hybrid({meta['base_model']}+{meta['thinking_model']})"
                tag = Path(file).stem.removeprefix("benchmark_results_")
                yield _row(f"{tag}:{role}", str(n), task, gold, text, None, file=file, model_name=model)


# ---------------------------------------------------------------- donglinkang2021/cs336-assignment5-alignment
CS336_FILES = {
    "qwen2.5-math-1.5b:math500": ("outputs/qwen2.5-math-1.5b/math500_hf/results.jsonl", "math", 500),
    "qwen2.5-math-1.5b-inst:math500": ("outputs/qwen2.5-math-1.5b-inst/math500_hf/results.jsonl", "math", 500),
    "qwen2.5-math-1.5b:gsm8k": ("outputs/qwen2.5-math-1.5b/gsm8k_local/results.jsonl", "gsm8k", 300),
}


def read_cs336(show: Callable[[str], str]) -> Iterator[dict[str, Any]]:
    """Qwen2.5-Math-1.5B (base and instruct) with the R1-Zero prompt (the prompt ends ``Assistant: <think>``).

    MATH-500 (all 500) and GSM8K test (first 300). Gold: the last box of the reference solution (MATH),
    the number after ``####`` (GSM8K). The stored ``answer_reward`` needs the ``</think> <answer>`` format
    as well, so it is kept for reference (``upstream_format_verdict``) but is not a verdict on the answer.
    """
    for model, (file, task, limit) in CS336_FILES.items():
        for n, line in enumerate(show(file).splitlines()[:limit]):
            rec = json.loads(line)
            gt = rec["ground_truth"]
            gold = gsm8k_gold(gt) if task == "gsm8k" else last_box(gt)
            if gold is None:
                continue
            metrics = rec.get("metrics")
            reward = None
            if isinstance(metrics, str):
                m = re.search(r"'answer_reward':\s*([0-9.]+)", metrics)
                reward = bool(float(m.group(1))) if m else None
            yield _row(model, str(n), task, gold, rec["response"], None, file=file, upstream_format_verdict=reward)


SOURCES = (
    Source(
        "gsm-openai",
        "openai/grade-school-math",
        "3101c7d5072418e28b9008a6636bde82a006892c",
        "MIT",
        "GPT-3 6B/175B GSM8K test solutions (the GSM8K paper's example_model_solutions.jsonl)",
        read_gsm_openai,
    ),
    Source(
        "reread",
        "Tebmer/Rereading-LLM-Reasoning",
        "0dbad50be663c2ea8c46334c2f9a086980d3e318",
        "Apache-2.0",
        "text-davinci-003, gpt-3.5-turbo, gpt-4o-mini zero-shot GSM8K answers (Re2 paper's baseline logs)",
        read_reread,
    ),
    Source(
        "hybrid",
        "thaotnguyen/thinking-llms-interp",
        "501921e28720cd12361fe6f4a0eeec5fe4214f03",
        "none stated (no licence file): uncommitted dev data only",
        "R1-distill / QwQ reasoning traces and base / steered-base answers on GSM8K and MATH-500",
        read_hybrid,
    ),
    Source(
        "cs336",
        "donglinkang2021/cs336-assignment5-alignment",
        "1474a43693c419f2a19f517ae08bde9c1460d731",
        "none stated (no licence file): uncommitted dev data only",
        "Qwen2.5-Math-1.5B base/instruct, R1-Zero prompt, MATH-500 and GSM8K",
        read_cs336,
    ),
)


def git_reader(git_dir: Path, commit: str) -> Callable[[str], str]:
    def show(path: str) -> str:
        try:
            return subprocess.run(
                ["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"],
                capture_output=True,
                check=True,
            ).stdout.decode("utf-8")
        except subprocess.CalledProcessError as e:
            raise SystemExit(f"build: {git_dir}: git show {commit[:12]}:{path}: {e.stderr.decode()[:200]}") from None

    return show


def _git_dir(path: Path) -> Path:
    out = subprocess.run(["git", "-C", str(path), "rev-parse", "--absolute-git-dir"], capture_output=True, text=True)  # noqa: PLW1510
    if out.returncode:
        raise SystemExit(f"build: {path} is not a git repository")
    return Path(out.stdout.strip())


def build(mirrors: Path, overrides: dict[str, Path]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for s in SOURCES:
        path = overrides.get(s.repo) or mirrors / s.repo.replace("/", "+") / "repo"
        if not path.exists():
            print(f"build: {s.name}: {path} missing (fetch {s.repo} or pass --repo {s.repo}=PATH); skipped",
                  file=sys.stderr)
            continue
        show = git_reader(_git_dir(path), s.commit)
        n0 = len(rows)
        for r in s.read(show):
            rid = f"{s.name}/{r['model']}/{r['item']}"
            rows.append({
                "id": rid,
                "source": s.name,
                "repo": s.repo,
                "commit": s.commit,
                "licence": s.licence,
                **r,
                "think": "</think>" in r["response"] or "<think>" in r["response"],
                # the chat template opened <think> (the thinking models' answers); the cs336 base models' R1-Zero
                # prompt ends with "<think>" too, but they often ignore the format and answer in plain text,
                # which the labels read as ordinary text
                "prompt_opens_think": s.name == "hybrid" and r["model"].endswith(":thinking_model"),
                "sha": sha(r["response"]),
            })
        print(f"{s.name}: {len(rows) - n0} responses from {s.repo}@{s.commit[:12]}")
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        raise SystemExit("build: duplicate ids")
    return rows


def check_labels(rows: list[dict[str, Any]]) -> None:
    if not LABELS.exists():
        return
    by_id = {r["id"]: r for r in rows}
    bad = 0
    for line in LABELS.read_text(encoding="utf-8").splitlines():
        lab = json.loads(line)
        r = by_id.get(lab["id"])
        if r is None or r["sha"] != lab["sha"]:
            bad += 1
    if bad:
        raise SystemExit(f"build: {bad} labelled ids are missing or their response changed (hash mismatch)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--repo", action="append", default=[], help="OWNER/NAME=PATH of a clone or git dir")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    if args.list:
        for s in SOURCES:
            print(f"{s.name:11s} github.com/{s.repo}@{s.commit[:12]}  ({s.licence})\n{'':11s} {s.about}")
        return 0
    overrides = {}
    for spec in args.repo:
        name, _, p = spec.partition("=")
        if not p:
            print(f"build: --repo wants OWNER/NAME=PATH, got {spec!r}", file=sys.stderr)
            return 2
        overrides[name] = Path(p)
    rows = build(args.mirrors, overrides)
    check_labels(rows)
    DATA.mkdir(exist_ok=True)
    with open(DATA / "corpus.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    n_think = sum(r["think"] for r in rows)
    print(f"{len(rows)} responses ({n_think} with a think block) -> {DATA / 'corpus.jsonl'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
