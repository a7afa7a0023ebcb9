"""The README's "Results" rows that CI can re-measure on this machine, held to the numbers the README states.

* Scorer accuracy on the 362 labelled cases of ``evals/accuracy/cases.jsonl`` (GSM8K 177 / MATH 185):
  100% / 100%, and the committed table is what ``evals/accuracy/build_cases.py`` writes.
* Gold self-verification through the ``verifiers validate`` CLI: GSM8K train 7473/7473 and test 1319/1319,
  MATH-500 500/500, MATH test 4990/5000 with exactly the 10 exceptions listed in ``evals/accuracy/README.md``.

Marked ``results`` (a few seconds in all); deselect locally with ``-m "not results"``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from verifiers import gsm8k, math
from verifiers.cli import main

pytestmark = pytest.mark.results

ACCURACY = Path(__file__).resolve().parents[2] / "evals" / "accuracy"


def _documented_exceptions() -> set[str]:
    """The ids in evals/accuracy/README.md's table "Golds that do not self-verify" (``| test/... |`` rows)."""
    text = (ACCURACY / "README.md").read_text(encoding="utf-8")
    section = text.split("## Golds that do not self-verify", 1)[1].split("\n## ", 1)[0]
    return {f"{m}.json" for m in re.findall(r"^\| (test/[a-z_]+/\d+) \|", section, re.MULTILINE)}


def _cases() -> list[dict]:
    lines = (ACCURACY / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_accuracy_table_is_what_the_builder_writes(tmp_path: Path) -> None:
    builder = tmp_path / "build_cases.py"   # it writes cases.jsonl beside itself: run a copy, compare
    shutil.copy(ACCURACY / "build_cases.py", builder)
    subprocess.run([sys.executable, str(builder)], check=True, capture_output=True, timeout=120)
    assert (tmp_path / "cases.jsonl").read_text(encoding="utf-8") == (ACCURACY / "cases.jsonl").read_text(
        encoding="utf-8")


def test_accuracy_table_all_362_cases_agree_with_their_labels() -> None:
    # Warm, as evals/accuracy/run.py scores: a call's deadline covers the CAS workers' start-up (README), so a
    # cold first call that needs the CAS (math-217) can time out.
    assert math.warm_up(), "symbolic workers did not start"
    cases = _cases()
    assert Counter(c["task"] for c in cases) == {"gsm8k": 177, "math": 185}
    assert len({c["id"] for c in cases}) == 362
    scorers = {"gsm8k": gsm8k, "math": math}
    wrong = [(c["id"], c["expected"], s.status, s.explanation) for c in cases
             if (s := scorers[c["task"]].score(c["response"], c["gold"])).correct is not c["expected"]]
    assert wrong == []


@pytest.mark.parametrize(("task", "path", "total"), [
    ("gsm8k", "gsm8k/train.jsonl", 7473), ("gsm8k", "gsm8k/test.jsonl", 1319),
    ("math", "math/math500.jsonl", 500)])
def test_validate_every_gold_self_verifies(task: str, path: str, total: int, data_dir: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    failures = tmp_path / "failures.jsonl"
    code = main(["validate", "--task", task, "--data", str(data_dir / path), "-o", str(failures)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"{total}/{total} correct (100.00%)" in out
    assert failures.read_text() == ""


def test_validate_math_test_4990_of_5000(data_dir: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    failures = tmp_path / "failures.jsonl"
    data = data_dir / "math" / "test.jsonl"
    code = main(["validate", "--task", "math", "--data", str(data), "-o", str(failures)])
    out = capsys.readouterr().out
    assert code == 0, out   # 99.80% >= the CLI's MATH floor of 99.5%
    assert "4990/5000 correct (99.80%)" in out
    rows = [json.loads(line) for line in failures.read_text().splitlines()]
    documented = _documented_exceptions()
    assert len(documented) == 10
    assert {r["id"] for r in rows} == documented
    assert all(r["score"]["status"] == "incorrect" and "hedged" in r["score"]["explanation"] for r in rows)
