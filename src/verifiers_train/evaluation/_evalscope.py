"""``--reference evalscope``: run EvalScope's GSM8K on the same model and problems, for an independent number.

EvalScope is not a dependency: it pins ``datasets<=4.8.4`` and ``math-verify[antlr4_13_2]`` (antlr4 4.13),
while verl 0.9.1's hydra/omegaconf need antlr4 4.9.3. Install it in its own virtual environment and
point ``VERIFIERS_EVALSCOPE_PYTHON`` at that interpreter; it runs in a subprocess.

What is shared with our run: the merged model folder, the exact problems (written as a local
GSM8K-layout dataset, so no hub access), the prompt template (EvalScope's ``prompt_template``, 0-shot),
the sampling settings and ``n`` (EvalScope ``repeats``). What is EvalScope's own: its transformers
generation loop (``eval_type=llm_ckpt``, whatever our ``--backend``) and its answer extraction and
comparison (Math-Verify based), which is the point of the cross-check.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from verifiers.datasets import Problem, load_problems
from verifiers.errors import ConfigError

PYTHON_ENV = "VERIFIERS_EVALSCOPE_PYTHON"
# Datasets EvalScope's `gsm8k` benchmark can judge (answers after ####).
SUPPORTED = ("gsm8k", "arith")
# Seconds before a hung EvalScope subprocess is stopped.
TIMEOUT_S = 6 * 3600

_SCRIPT = """
import json, sys
from evalscope import TaskConfig, run_task
spec = json.loads(sys.argv[1])
report = run_task(TaskConfig(**spec))["gsm8k"]
metric = report.metrics[0]
print("EVALSCOPE_RESULT " + json.dumps({"accuracy": metric.score, "num": metric.num}))
"""


def evalscope_python() -> str:
    """Interpreter that has EvalScope (``$VERIFIERS_EVALSCOPE_PYTHON``, else this one)."""
    return os.environ.get(PYTHON_ENV) or sys.executable


def write_dataset(problems: Sequence[Problem], folder: str | os.PathLike[str]) -> Path:
    """Write problems as a local dataset EvalScope's ``gsm8k`` loads offline (config ``main``, split ``test``)."""
    root = Path(folder)
    (root / "main").mkdir(parents=True, exist_ok=True)
    with (root / "main" / "test.jsonl").open("w", encoding="utf-8") as f:
        for p in problems:
            f.write(json.dumps({"question": p.question, "answer": f"{p.solution.rpartition('####')[0]}#### {p.gold}"})
                    + "\n")
    # datasets reads a local folder's configs from the README front matter; EvalScope asks for "main"
    (root / "README.md").write_text("---\nconfigs:\n- config_name: main\n  data_files:\n  - split: test\n"
                                    "    path: main/test.jsonl\n---\n", encoding="utf-8")
    return root


def task_spec(model_path: str, data_dir: Path, work_dir: Path, *, prompt_template: str, system_prompt: str | None,
              n: int, temperature: float, top_p: float, max_tokens: int, limit: int, seed: int,
              dtype: str = "auto") -> dict[str, Any]:
    """EvalScope ``TaskConfig`` fields for our run's settings."""
    gen: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature, "do_sample": temperature > 0}
    if temperature > 0:
        gen["top_p"] = top_p
    args: dict[str, Any] = {"local_path": str(data_dir), "few_shot_num": 0, "prompt_template": prompt_template}
    if system_prompt:
        args["system_prompt"] = system_prompt
    return {"model": model_path, "eval_type": "llm_ckpt", "datasets": ["gsm8k"], "dataset_args": {"gsm8k": args},
            # EvalScope loads checkpoints in float16 unless told; "auto" keeps the checkpoint's dtype like ours
            "model_args": {"precision": dtype},
            "generation_config": gen, "repeats": n, "limit": limit, "seed": seed, "work_dir": str(work_dir),
            "no_timestamp": True}


def run_evalscope(spec: dict[str, Any], *, python: str | None = None, log: Path | None = None) -> dict[str, Any]:
    """Run EvalScope in a subprocess; returns ``{"accuracy", "num", "seconds"}``.

    Raises:
        ConfigError: EvalScope is not installed for the interpreter, or it failed (with its last log lines).
    """
    python = python or evalscope_python()
    probe = subprocess.run([python, "-c", "import evalscope; print(evalscope.__version__)"], capture_output=True,
                           text=True, check=False)
    if probe.returncode != 0:
        raise ConfigError(f"EvalScope is not installed for {python}. It conflicts with verl's pins, so install it in "
                          "its own venv (python -m venv --system-site-packages ~/evalscope-venv && "
                          "~/evalscope-venv/bin/pip install evalscope) and set "
                          f"{PYTHON_ENV}=~/evalscope-venv/bin/python")
    # everything it needs is local; a private datasets cache, since `datasets` may otherwise reuse a stale
    # cached copy of an earlier folder with the same name
    env = os.environ | {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
                        "HF_DATASETS_CACHE": str(Path(spec["work_dir"]) / "datasets-cache")}
    t0 = time.perf_counter()
    proc = subprocess.run([python, "-c", _SCRIPT, json.dumps(spec)], capture_output=True, text=True, env=env,
                          timeout=TIMEOUT_S, check=False)
    if log is not None:
        log.write_text(proc.stdout + "\n--- stderr ---\n" + proc.stderr, encoding="utf-8")
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("EVALSCOPE_RESULT ")]
    if proc.returncode != 0 or not lines:
        tail = "\n".join((proc.stderr or proc.stdout).splitlines()[-15:])
        raise ConfigError(f"EvalScope failed (exit {proc.returncode}); full log in {log}:\n{tail}")
    result = json.loads(lines[-1].split(" ", 1)[1])
    return {"accuracy": float(result["accuracy"]), "num": int(result["num"]), "seconds": time.perf_counter() - t0,
            "version": probe.stdout.strip()}


def run_reference(run_dir: str | os.PathLike[str], cfg: Any) -> dict[str, Any]:
    """Cross-check a finished run with EvalScope; adds ``reference`` to its ``metrics.json`` and returns them.

    Args:
        run_dir: the run folder written by `run_checkpoint`.
        cfg: the run's `EvalConfig`.
    """
    from verifiers_train.evaluation._rundir import RunDir
    from verifiers_train.templates import get_template

    if cfg.dataset not in SUPPORTED:
        raise ConfigError(f"--reference evalscope compares GSM8K-style answers; it supports {', '.join(SUPPORTED)}, "
                          f"not {cfg.dataset}")
    run = RunDir(run_dir)
    config, metrics = run.read_config(), run.read_metrics()
    problems = load_problems(cfg.dataset, cfg.data, split=cfg.split, limit=cfg.limit)
    folder = run.path / "evalscope"
    data_dir = write_dataset(problems, folder / "data")
    template = get_template(config["template"])
    spec = task_spec(config["model_path"], data_dir, folder / "work", prompt_template=template.user,
                     system_prompt=cfg.system_prompt if cfg.system_prompt is not None else template.system,
                     n=cfg.n, temperature=cfg.temperature, top_p=cfg.top_p, max_tokens=cfg.max_tokens,
                     limit=len(problems), seed=cfg.seed, dtype=cfg.dtype)
    result = run_evalscope(spec, log=folder / "evalscope.log")
    reference = {"name": "evalscope", **result, "ours": metrics.get("accuracy"),
                 "difference": metrics.get("accuracy", 0.0) - result["accuracy"],
                 "accuracy_display": f"{100 * result['accuracy']:.2f}% (ours {100 * metrics.get('accuracy', 0):.2f}%, "
                                     f"{result['num']} samples, EvalScope {result['version']})"}
    (folder / "reference.json").write_text(json.dumps(reference | {"task": spec}, indent=2) + "\n")
    metrics["reference"] = reference
    run.write_metrics(metrics)
    if (run.path / "report.html").is_file():
        from verifiers_train.evaluation._report import write_report

        write_report(run.path, config, metrics, run.read_samples(repair=False))
    return metrics
