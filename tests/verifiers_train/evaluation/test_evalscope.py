"""`--reference evalscope`: the offline dataset layout and task spec, and (where EvalScope is installed) a real run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

from verifiers.datasets import load_problems
from verifiers.errors import ConfigError
from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._evalscope import (
    PYTHON_ENV,
    run_evalscope,
    run_reference,
    task_spec,
    write_dataset,
)


def _has_evalscope(python: str) -> bool:
    return subprocess.run([python, "-c", "import evalscope"], capture_output=True, check=False).returncode == 0


def test_dataset_is_written_in_the_layout_evalscope_reads_offline(tiny_data: Path, tmp_path: Path) -> None:
    problems = load_problems("arith", tiny_data)
    root = write_dataset(problems[:3], tmp_path / "es")
    rows = [json.loads(line) for line in (root / "main" / "test.jsonl").read_text().splitlines()]
    assert [r["question"] for r in rows] == [p.question for p in problems[:3]]
    assert all(r["answer"].rsplit("####", 1)[1].strip() == p.gold for r, p in zip(rows, problems, strict=False))
    assert "config_name: main" in (root / "README.md").read_text()
    spec = task_spec("/m", root, tmp_path / "w", prompt_template="{question} ####", system_prompt=None, n=4,
                     temperature=0.0, top_p=0.9, max_tokens=32, limit=3, seed=1)
    assert spec["eval_type"] == "llm_ckpt" and spec["repeats"] == 4 and spec["generation_config"]["do_sample"] is False
    assert spec["dataset_args"]["gsm8k"] == {"local_path": str(root), "few_shot_num": 0,
                                             "prompt_template": "{question} ####"}


def test_missing_evalscope_says_how_to_install_it(tmp_path: Path) -> None:
    if _has_evalscope(sys.executable):
        pytest.skip("EvalScope is importable here")
    with pytest.raises(ConfigError, match=f"EvalScope is not installed .*{PYTHON_ENV}"):
        run_evalscope({}, python=sys.executable)


def test_reference_refuses_datasets_it_cannot_judge(tmp_path: Path) -> None:
    cfg = EvalConfig(model="m", dataset="mbpp")
    with pytest.raises(ConfigError, match="supports gsm8k, arith, not mbpp"):
        run_reference(tmp_path, cfg)


@pytest.mark.slow
def test_evalscope_and_our_number_side_by_side(tiny_model: Path, tiny_data: Path, tmp_path: Path,
                                                unavailable: Callable[[str, str], NoReturn]) -> None:
    python = os.environ.get(PYTHON_ENV, sys.executable)
    if not _has_evalscope(python):
        unavailable("evalscope", f"EvalScope not installed (set {PYTHON_ENV} to an interpreter that has it)")
    cfg = EvalConfig(model=str(tiny_model), dataset="arith", data=str(tiny_data), limit=8, max_tokens=32,
                     out=str(tmp_path / "run"), progress=False)
    result = run_checkpoint(cfg)
    metrics = run_reference(result.run_dir, cfg)
    ref = metrics["reference"]
    assert ref["num"] == 8 and 0.0 <= ref["accuracy"] <= 1.0
    # same model, prompts and greedy decoding: EvalScope's extraction may differ, but not by much on "#### N"
    assert abs(ref["accuracy"] - metrics["accuracy"]) <= 0.25
    assert "evalscope reference accuracy" in (result.run_dir / "report.html").read_text()
