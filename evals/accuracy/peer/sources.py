"""The peer suites: where each comes from, how its cases are read, and the row every suite is written as.

Row (one JSON line in ``data/<suite>.jsonl``)::

    {"suite", "id", "task": "math"|"gsm8k", "compare": "extract"|"answers", "repo", "commit", "file",
     "test", "line", "assert_line", "gold", "response", "expected": bool, "mv_config": {...}, "licence"}

``compare`` says what the upstream check compares: ``extract`` when it finds the answer in free text on
both sides (Math-Verify's ``parse`` + ``verify``; this project's ``score(response, gold)``), ``answers``
when it compares two already-extracted answers (``is_equiv(a, b)``, ``math_equal(a, b)``; this project's
``equivalent(a, b)``). ``gold`` is the first (reference) argument of the upstream check, ``response`` the
second. ``expected`` is the upstream label, unchanged.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import PurePosixPath
from typing import Any

from peer.upstream import Upstream
from peer.upstream_tests import Case, Checker, calls_in_def, checker_from_def, extract


@dataclass(frozen=True)
class Source:
    """One peer suite: its upstream repository, licence and the function that reads its cases."""

    suite: str
    repo: str
    licence: str
    about: str
    build: Callable[[Upstream], tuple[list[dict[str, Any]], dict[str, Any]]]


@dataclass(frozen=True)
class Where:
    """Where a label was stated upstream."""

    repo: str
    licence: str
    file: str
    test: str
    line: int
    assert_line: int
    marks: tuple[str, ...] = ()

    @classmethod
    def of(cls, repo: str, licence: str, file: str, case: Case) -> Where:
        return cls(repo, licence, file, case.test, case.line, case.assert_line, case.marks)


def _row(
    suite: str,
    up: Upstream,
    where: Where,
    *,
    task: str,
    compare: str,
    gold: Any,
    response: Any,
    expected: bool,
    mv_config: dict[str, Any],
) -> dict[str, Any]:
    return {
        "suite": suite,
        "id": "",
        "task": task,
        "compare": compare,
        "repo": where.repo,
        "commit": up.commit,
        "file": where.file,
        "test": where.test,
        "line": where.line,
        "assert_line": where.assert_line,
        "gold": gold,
        "response": response,
        "expected": expected,
        "mv_config": mv_config,
        "marks": list(where.marks),
        "licence": where.licence,
    }


def _number_ids(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stable ids ``<suite>/<file stem>:<line>`` (``.2``, ``.3`` for further cases on the same line)."""
    seen: dict[str, int] = {}
    for r in rows:
        base = f"{r['suite']}/{r.pop('id_stem', None) or PurePosixPath(r['file']).stem}:{r['line']}"
        seen[base] = seen.get(base, 0) + 1
        r["id"] = base if seen[base] == 1 else f"{base}.{seen[base]}"
    return rows


def _manifest(rows: list[dict[str, Any]], skipped: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    per_file: dict[str, int] = {}
    for r in rows:
        per_file[r["file"]] = per_file.get(r["file"], 0) + 1
    return {
        "cases": len(rows),
        "true": sum(r["expected"] for r in rows),
        "false": sum(not r["expected"] for r in rows),
        "per_file": per_file,
        "skipped": skipped,
        **extra,
    }


# ------------------------------------------------------------------------------------------- Math-Verify
MV_REPO = "huggingface/Math-Verify"
MV_LICENCE = (
    "Apache-2.0 (repository LICENCE; test_all.py also carries an MIT header, (c) 2024 The HuggingFace Team)"
)
MV_FILES = (
    "tests/test_all.py",
    "tests/test_numina_cases.py",
    "tests/test_open_thoughts.py",
    "tests/test_boxed.py",
    "tests/test_yujianll.py",
)
MV_HELPER = "compare_strings"


def _imports_helper(tree: ast.Module, name: str) -> bool:
    return any(isinstance(n, ast.ImportFrom) and any(a.name == name for a in n.names) for n in tree.body)


def _defines(tree: ast.Module, name: str) -> bool:
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body)


def build_math_verify(up: Upstream) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Math-Verify's own tests: ``compare_strings(gold, pred, ...) == expected`` and ``verify(parse, parse)``.

    ``compare_strings`` (defined in ``tests/test_all.py``, imported by the other files) parses both sides
    with ``LatexExtractionConfig(boxed_match_priority=0)`` and/or ``ExprExtractionConfig()`` per its
    ``match_types`` and calls ``verify(float_rounding=precision, strict, allow_set_relation_comp)``; the
    extraction configs are read from its body, its defaults from its signature. ``test_yujianll.py`` calls
    ``verify(parse(gold), parse(pred))`` with the library defaults, read from ``src/math_verify/grader.py``.
    """
    helper_tree = ast.parse(up.read("tests/test_all.py"))
    helper_configs = {
        "latex": calls_in_def(helper_tree, MV_HELPER, "LatexExtractionConfig"),
        "expr": calls_in_def(helper_tree, MV_HELPER, "ExprExtractionConfig"),
    }
    verify = checker_from_def(
        ast.parse(up.read("src/math_verify/grader.py")), "verify", nested=("gold", "target")
    )
    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for file in MV_FILES:
        source = up.read(file)
        tree = ast.parse(source)
        checkers: dict[str, Checker] = {"verify": verify}
        if _defines(tree, MV_HELPER):
            checkers[MV_HELPER] = checker_from_def(tree, MV_HELPER)
            configs = {
                "latex": calls_in_def(tree, MV_HELPER, "LatexExtractionConfig"),
                "expr": calls_in_def(tree, MV_HELPER, "ExprExtractionConfig"),
            }
        elif _imports_helper(tree, MV_HELPER):
            checkers[MV_HELPER] = checker_from_def(helper_tree, MV_HELPER)
            configs = helper_configs
        else:
            configs = {}
        found = extract(source, checkers)
        skipped += [{"file": file, **s} for s in found.skipped]
        for case in found.cases:
            c = case.check
            if c.checker == MV_HELPER:
                mv = {
                    "call": MV_HELPER,
                    "match_types": list(c.arg("match_types")),
                    "latex_config": configs["latex"][0] if configs.get("latex") else {},
                    "expr_config": configs["expr"][0] if configs.get("expr") else {},
                    "float_rounding": c.arg("precision"),
                    "strict": c.arg("strict"),
                    "allow_set_relation_comp": c.arg("allow_set_relation_comp"),
                }
                gold, response = c.arg("gold"), c.arg("pred")
            else:
                mv = {
                    "call": "verify",
                    "parse": "library default extraction",
                    **{k: v for k, v in c.args if k not in ("gold", "target")},
                }
                gold, response = c.arg("gold"), c.arg("target")
            rows.append(
                _row(
                    "math-verify",
                    up,
                    Where.of(MV_REPO, MV_LICENCE, file, case),
                    task="math",
                    compare="extract",
                    gold=gold,
                    response=response,
                    expected=case.expected,
                    mv_config=mv,
                )
            )
    return _number_ids(rows), _manifest(rows, skipped, helper_extraction=helper_configs)


# ------------------------------------------------------------------------------------------- answer pairs
_WRAP = {"call": "wrap", "how": "verify(parse(gold), parse(response)), each wrapped in $...$ unless boxed"}


def _answer_pairs(
    suite: str, repo: str, licence: str, file: str, checkers: dict[str, Checker], first: str, second: str
) -> Callable[[Upstream], tuple[list[dict[str, Any]], dict[str, Any]]]:
    """A suite of bare-answer pairs: every ``checker(first, second)`` labelled by an assert in ``file``."""

    def build(up: Upstream) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        found = extract(up.read(file), checkers)
        rows, skipped = [], [{"file": file, **s} for s in found.skipped]
        for case in found.cases:
            a, b = case.check.arg(first), case.check.arg(second)
            if a is None or b is None or not all(isinstance(v, (str, int, float)) for v in (a, b)):
                skipped.append(
                    {
                        "file": file,
                        "test": case.test,
                        "line": case.line,
                        "why": f"not two answers: {a!r}, {b!r}",
                    }
                )
                continue
            # non-str literals (5, 5.0, 5 / 2) are passed through str() by the upstream graders too
            rows.append(
                _row(
                    suite,
                    up,
                    Where.of(repo, licence, file, case),
                    task="math",
                    compare="answers",
                    gold=str(a),
                    response=str(b),
                    expected=case.expected,
                    mv_config=_WRAP,
                )
            )
        return _number_ids(rows), _manifest(rows, skipped)

    return build


_HENDRYCKS_FILE = "modeling/math_equivalence_test.py"
_NEMO_FILE = "tests/test_math_equal.py"
_MARIO_FILE = "math_evaluation/tests/test_is_equiv.py"
_PAIR = ("a", "b")
_MARIO_CHECKERS = {
    n: Checker(n, ("a", "b", "verbose"))
    for n in ("is_equiv", "_test_is_equiv", "_test_is_not_equiv", "are_equal_under_sympy")
}


# --------------------------------------------------------------------------------------- ToRA GSM8K outputs
TORA_REPO = "microsoft/ToRA"
TORA_FILES = (
    "src/outputs/llm-agents/tora-70b-v1.0/gsm8k/test_tora_-1_seed0_t0.0_s0_e1319.jsonl",
    "src/outputs/llm-agents/tora-code-34b-v1.0/gsm8k/test_tora_-1_seed0_t0.0_s0_e1319.jsonl",
)
_NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)$")


def _as_number(text: str) -> Fraction | None:
    t = re.sub(r"\\text\{[^{}]*\}|\\[$%,!]|[$,\s]|\\\s", "", text or "")
    return Fraction(t) if _NUMBER.match(t) else None


def last_box(text: str) -> str | None:
    """The content of the last ``\\boxed{...}`` (balanced braces), or ``None``."""
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth, i = 0, start + len("\\boxed")
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1 : j]
    return None


def build_tora_gsm8k(up: Upstream) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """ToRA-70B and ToRA-Code-34B greedy outputs on GSM8K test (1,319 each), labelled by two readings.

    Label = (number in the last ``\\boxed{}`` of the output == gold); kept only where ToRA's own stored
    prediction (``pred[0]``, its extractor) gives the same verdict, so the label does not rest on one
    extraction rule. Rows where the two readings differ, or neither is a number, are left out and counted.
    """
    rows, skipped, own_correct, total = [], [], 0, 0
    for file in TORA_FILES:
        model = file.split("/")[3]
        for n, line in enumerate(up.read(file).splitlines(), start=1):
            if not line.strip():
                continue
            rec = json.loads(line)
            total += 1
            response, gold = rec["code"][0], str(rec["gt"])
            g = _as_number(gold)
            own = _as_number(str(rec["pred"][0])) if rec.get("pred") else None
            own_ok = own is not None and g is not None and own == g
            own_correct += own_ok
            box = last_box(response)
            boxed = _as_number(box) if box is not None else None
            if g is None or boxed is None:
                skipped.append({"file": file, "line": n, "why": "gold or last box is not a number"})
                continue
            if (boxed == g) != own_ok:
                skipped.append({"file": file, "line": n, "why": "last box and ToRA's pred disagree"})
                continue
            where = Where(TORA_REPO, "MIT", file, f"{model} idx {rec['idx']}", n, n)
            rows.append(
                {
                    **_row(
                        "tora-gsm8k",
                        up,
                        where,
                        task="gsm8k",
                        compare="extract",
                        gold=gold,
                        response=response,
                        expected=boxed == g,
                        mv_config=_WRAP,
                    ),
                    "id_stem": model,
                }
            )
    return _number_ids(rows), _manifest(
        rows, skipped, outputs=total, tora_own_accuracy=round(own_correct / max(total, 1), 4)
    )


SOURCES: dict[str, Source] = {
    s.suite: s
    for s in (
        Source(
            "math-verify",
            MV_REPO,
            MV_LICENCE,
            "Math-Verify's own regression tests (tests/test_all.py, test_numina_cases.py, "
            "test_open_thoughts.py, test_boxed.py, test_yujianll.py)",
            build_math_verify,
        ),
        Source(
            "hendrycks-math",
            "hendrycks/math",
            "MIT",
            "the MATH benchmark's is_equiv unit tests (modeling/math_equivalence_test.py)",
            _answer_pairs(
                "hendrycks-math",
                "hendrycks/math",
                "MIT",
                _HENDRYCKS_FILE,
                {"is_equiv": Checker("is_equiv", ("a", "b", "verbose"))},
                *_PAIR,
            ),
        ),
        Source(
            "nemo-skills",
            "NVIDIA/NeMo-Skills",
            "Apache-2.0",
            "NeMo-Skills' math_equal tests (tests/test_math_equal.py; each pair asserted in both orders)",
            _answer_pairs(
                "nemo-skills",
                "NVIDIA/NeMo-Skills",
                "Apache-2.0",
                _NEMO_FILE,
                {"math_equal": Checker("math_equal", ("a", "b", "take_modulo"))},
                *_PAIR,
            ),
        ),
        Source(
            "mario-eval",
            "MARIO-Math-Reasoning/MARIO_EVAL",
            "no licence file at the repository root (latex2sympy/ is MIT); only an uncommitted dev set",
            "MARIO_EVAL's is_equiv unit tests (math_evaluation/tests/test_is_equiv.py)",
            _answer_pairs(
                "mario-eval",
                "MARIO-Math-Reasoning/MARIO_EVAL",
                "none stated",
                _MARIO_FILE,
                _MARIO_CHECKERS,
                *_PAIR,
            ),
        ),
        Source(
            "tora-gsm8k",
            TORA_REPO,
            "MIT",
            "ToRA-70B and ToRA-Code-34B GSM8K test outputs (real model outputs; label derived, see "
            "build_tora_gsm8k)",
            build_tora_gsm8k,
        ),
    )
}
