"""Installs: each extra's commands run with that extra alone; without it, one line naming it, exit 2, nothing written.

A core-only (or core + eval) install is built cheaply: a folder of links to exactly the distributions that
``pip install .`` (or ``.[eval]``) would bring, found from pyproject.toml's requirements and the installed
packages' metadata, and a ``python -I -S`` interpreter whose path holds only that folder and ``src``: torch,
pyarrow and the rest are absent there, not hidden.
"""

from __future__ import annotations

import importlib.metadata as md
import importlib.util
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from verifiers.extras import MissingExtraError, require, require_installed

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
# Runs a module as `python -m` would, with only the two folders given first on sys.path.
BOOT = ("import runpy, sys; sys.path[:0] = sys.argv[1:3]; module = sys.argv[3]; sys.argv = [module, *sys.argv[4:]]; "
        "runpy.run_module(module, run_name='__main__', alter_sys=True)")
TRAIN, EVAL = "verifiers_train.cli", "verifiers_train.evaluation.cli"


def _closure(requirements: list[str]) -> set[str]:
    """The distributions pip would install for ``requirements`` (this project's extras read from pyproject)."""
    seen: set[tuple[str, frozenset[str]]] = set()
    dists: set[str] = set()
    todo = [(Requirement(r), "") for r in requirements]
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(req.name)
        if (name, frozenset(req.extras)) in seen:
            continue
        seen.add((name, frozenset(req.extras)))
        if name == PROJECT["name"]:
            todo += [(Requirement(r), "") for r in PROJECT["dependencies"]]
            todo += [(Requirement(r), "") for e in req.extras for r in PROJECT["optional-dependencies"][e]]
            continue
        dists.add(name)
        for spec in md.distribution(name).requires or []:
            todo += [(Requirement(spec), e) for e in ("", *req.extras)]
    return dists


def _site(folder: Path, extras: tuple[str, ...]) -> Path:
    """A folder of links to the installed files of the install ``.[extras]``."""
    folder.mkdir()
    for name in sorted(_closure([f"{PROJECT['name']}[{','.join(extras)}]" if extras else PROJECT["name"]])):
        dist = md.distribution(name)
        for top in {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}:
            target = Path(str(dist.locate_file(top)))
            if top != "__pycache__" and not top.endswith(".pth") and target.exists() and not (folder / top).exists():
                (folder / top).symlink_to(target)
    return folder


@pytest.fixture(scope="module")
def core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(tmp_path_factory.mktemp("installs") / "core", ())


@pytest.fixture(scope="module")
def core_eval(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(tmp_path_factory.mktemp("installs") / "eval", ("eval",))


def _run(site: Path, module: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-S", "-c", BOOT, str(SRC), str(site), module, *argv],
                          cwd=cwd, capture_output=True, text=True, timeout=300, check=False)


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def _inputs(work: Path) -> None:
    """What the commands read: a model folder, a checkpoint-like folder, saved generations, two runs."""
    (work / "model").mkdir()
    (work / "model" / "config.json").write_text('{"model_type": "qwen2"}')
    (work / "samples.jsonl").write_text('{"response": "#### 18", "gold": "18"}\n{"response": "#### 2", "gold": "18"}\n')
    run = work / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_text("".join(json.dumps({"step": s, "critic/score/mean": 0.1 * s}) + "\n"
                                               for s in range(1, 6)))


# (tool, argv, the extra the line must name)
NEEDS_AN_EXTRA = [
    (TRAIN, ["prepare", "--task", "arith", "--out", "out"], "train"),
    (TRAIN, ["tiny-model", "--out", "out"], "train"),
    (TRAIN, ["run", "--algo", "grpo", "--task", "arith", "--model", "model", "--out", "out"], "train"),
    (TRAIN, ["run", "--algo", "grpo", "--task", "arith", "--model", "model", "--out", "out", "--dry-run"], "train"),
    (TRAIN, ["merge", "run", "--out", "out"], "train"),
    (TRAIN, ["report", "run", "--out", "out"], "eval"),
    (EVAL, ["checkpoint", "model", "--task", "arith", "--limit", "2", "--out", "out"], "train"),
    (EVAL, ["score", "samples.jsonl", "--task", "gsm8k", "--out", "out"], "eval"),
    (EVAL, ["compare", "run", "run", "--out", "out"], "eval"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("module", "argv", "extra"), NEEDS_AN_EXTRA, ids=lambda v: v if isinstance(v, str) else None)
def test_core_only_a_command_that_needs_an_extra_names_it_and_writes_nothing(
        core: Path, module: str, argv: list[str], extra: str, tmp_path: Path) -> None:
    _inputs(tmp_path)
    before = _files(tmp_path)
    done = _run(core, module, *argv, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    prog = "verifiers-train" if module == TRAIN else "verifiers-eval"
    assert line.startswith(f"{prog} {argv[0]}: error: ") and f"needs the '{extra}' extra (" in line
    assert f"pip install -e '.[{extra}]' in a clone" in line  # never the PyPI name: another package
    assert _files(tmp_path) == before  # no output folder, no partial file


def test_core_only_help_and_the_core_commands_work(core: Path, tmp_path: Path) -> None:
    """Every --help builds without an extra (heavy modules are imported by the commands that use them)."""
    _inputs(tmp_path)
    walk = ("import sys; sys.path[:0] = sys.argv[1:3]\n"
            "from verifiers_train.cli import build_parser as t\nfrom verifiers_train.evaluation.cli import build_parser as e\n"
            "from verifiers.cli import build_parser as v\n"
            "for build in (v, t, e):\n"
            "    p = build(); p.format_help()\n"
            "    sub = next(a for a in p._actions if a.__class__.__name__ == '_SubParsersAction')\n"
            "    [s.format_help() for s in sub.choices.values()]\n"
            "    print(p.prog, len(sub.choices))\n")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", walk, str(SRC), str(core)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["verifiers", "verifiers-train", "verifiers-eval"]
    scored = _run(core, "verifiers.cli", "score", "samples.jsonl", "--task", "gsm8k", cwd=tmp_path)
    assert scored.returncode == 0, scored.stderr
    assert "1/2 correct" in scored.stdout


@pytest.mark.slow
def test_eval_extra_rescoring_and_reports_work_without_torch(core: Path, core_eval: Path, tmp_path: Path) -> None:
    _inputs(tmp_path)
    score = ["score", "samples.jsonl", "--task", "gsm8k", "--out", "scored"]
    failed = _run(core, EVAL, *score, cwd=tmp_path)
    assert failed.returncode == 2 and not (tmp_path / "scored").exists()
    absent = subprocess.run([sys.executable, "-I", "-S", "-c", "import sys; sys.path[:0] = sys.argv[1:3]; import torch",
                             str(SRC), str(core_eval)], capture_output=True, text=True, timeout=60, check=False)
    assert absent.returncode != 0 and "No module named 'torch'" in absent.stderr
    # the same command again, now with the eval extra: nothing left by the failure is in its way
    done = _run(core_eval, EVAL, *score, "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["accuracy"] == 0.5
    assert (tmp_path / "scored" / "report.html").is_file() and list((tmp_path / "scored" / "plots").glob("*.png"))
    compared = _run(core_eval, EVAL, "compare", "scored", "scored", "--out", "cmp", cwd=tmp_path)
    assert compared.returncode == 0, compared.stderr
    assert (tmp_path / "cmp" / "compare.html").is_file()
    reported = _run(core_eval, TRAIN, "report", "run", cwd=tmp_path)
    assert reported.returncode == 0, reported.stderr
    assert (tmp_path / "run" / "report").is_dir()
    parquet = _run(core_eval, TRAIN, "prepare", "--task", "arith", "--out", "data", "--limit", "4", cwd=tmp_path)
    assert parquet.returncode == 0, parquet.stderr  # local and generated data need no more than eval
    tiny = _run(core_eval, TRAIN, "tiny-model", "--out", "tiny", cwd=tmp_path)
    assert tiny.returncode == 2 and "needs the 'train' extra (torch is not installed)" in tiny.stderr
    assert not (tmp_path / "tiny").exists()


def test_the_eval_extra_brings_no_torch() -> None:
    closure = _closure([f"{PROJECT['name']}[eval]"])
    assert {"numpy", "pandas", "pyarrow", "matplotlib", "rich"} <= closure
    assert not closure & {"torch", "transformers", "verl", "ray", "datasets", "trl"}
    assert {"torch", "verl", "pyarrow"} <= _closure([f"{PROJECT['name']}[train]"])


def test_the_trl_extra_brings_trl_and_no_verl(unavailable: Callable[[str, str], NoReturn]) -> None:
    if importlib.util.find_spec("trl") is None:
        unavailable("trl", "trl is not installed (pip install -e '.[trl]')")
    closure = _closure([f"{PROJECT['name']}[trl]"])
    assert {"trl", "torch", "transformers", "pyarrow"} <= closure and not closure & {"verl", "ray"}


# ---------------------------------------------------------------- verifiers.extras
def test_require_imports_or_names_the_extra() -> None:
    assert require("json", "eval", "x").dumps([]) == "[]"
    with pytest.raises(MissingExtraError, match=r"^rescoring needs the 'eval' extra \(no_such_mod_q is not "
                                                r"installed\): pip install -e '\.\[eval\]' in a clone"):
        require("no_such_mod_q", "eval", "rescoring")


def test_require_installed_finds_without_importing() -> None:
    sys.modules.pop("this", None)
    require_installed("eval", "x", "json", "this")  # `this` prints the Zen of Python when imported
    assert "this" not in sys.modules
    for missing in ("no_such_mod_q", "no_such_mod_q.sub"):  # a missing parent package too: the same error
        with pytest.raises(MissingExtraError, match=f"'train' extra \\({re.escape(missing)} is not installed"):
            require_installed("train", "x", "json", missing)
    assert issubclass(MissingExtraError, ImportError)


# ---------------------------------------------------------------- packaging metadata
def test_extras_are_spelled_so_older_pips_resolve_them() -> None:
    """pip before 23.3 matches extras by their exact name: `math-verify[antlr4_9_3]` was silently ignored."""
    reqs = [*PROJECT["dependencies"], *(r for rs in PROJECT["optional-dependencies"].values() for r in rs)]
    for spec in reqs:
        for extra in Requirement(spec).extras:
            assert extra == canonicalize_name(extra), spec
    for extra in PROJECT["optional-dependencies"]:
        assert extra == canonicalize_name(extra)
    antlr = next(Requirement(r) for r in PROJECT["dependencies"] if Requirement(r).name == "antlr4-python3-runtime")
    assert str(antlr.specifier) == "==4.9.3"  # what verl's omegaconf/hydra need; math-verify accepts it


def test_license_urls_classifiers_and_a_short_readme() -> None:
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in license_text and "Version 2.0, January 2004" in license_text
    assert "END OF TERMS AND CONDITIONS" in license_text and PROJECT["license"] == "Apache-2.0"
    assert PROJECT["classifiers"] and not any(c.startswith("License ::") for c in PROJECT["classifiers"])
    urls = PROJECT.get("urls", {})  # only real addresses: the project has no public one yet
    assert all(u.startswith("https://") for u in urls.values())
    readme = ROOT / PROJECT["readme"]["file"]
    text = readme.read_text(encoding="utf-8")
    assert len(text) < 5000
    targets = re.findall(r"\]\(([^)]+)\)", text) + re.findall(r"https?://\S+", text)
    assert all(re.match(r"https?://", t) for t in targets)  # no repository-relative link
    repo_links = [t for t in targets if "github.com" in t]
    assert all(any(t.startswith(u) for u in urls.values()) for t in repo_links)  # none to an invented home
