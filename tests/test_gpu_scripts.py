"""The GPU scripts' stages: every stage a script's usage line or the docs name is defined in the script.

A stage that is documented (``bash evals/gpu/realsize.sh verltests``) but missing fails on the GPU host only, after
the bundle is unpacked and device time is spent; here it fails in CI.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ("realsize.sh", "gpu_e2e.sh", "code_rl.sh")
DOCS = (ROOT / "README.md", ROOT / "evals" / "gpu" / "README.md")


def _defined(script: str) -> set[str]:
    return set(re.findall(r"^stage_(\w+)\(\)", (ROOT / "evals" / "gpu" / script).read_text(), re.MULTILINE))


def _usage(script: str) -> set[str]:
    """Stage names listed after ``stages:`` in the script's header comment (which may wrap onto more lines)."""
    text = (ROOT / "evals" / "gpu" / script).read_text()
    header = text[text.index("stages:"):].split("\n# Environment")[0]
    header = re.sub(r"\(.*?\)", "", header.replace("stages:", ""))  # "(default: ...)" names no new stage
    return set(re.findall(r"[a-z_]+", header))


def _code(markdown: str) -> list[str]:
    """Inline code spans and the lines of fenced blocks: where the docs show a command to run."""
    fenced = re.findall(r"^```[^\n]*\n(.*?)^```", markdown, re.MULTILINE | re.DOTALL)
    return re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", markdown, flags=re.MULTILINE | re.DOTALL)) + fenced


def _documented(script: str) -> set[str]:
    names: set[str] = set()
    for doc in DOCS:
        for code in _code(doc.read_text()):
            for run in re.findall(re.escape(script) + r"((?: [a-z][a-z0-9_]*)+)", code):
                names.update(run.split())
    return names


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_named_stage_exists(script: str) -> None:
    defined = _defined(script)
    assert defined, f"no stage_* functions found in {script}"
    assert _usage(script) <= defined, f"{script}'s usage names stages it lacks: {_usage(script) - defined}"
    documented = _documented(script)
    assert documented <= defined, f"the docs run {script} stages it lacks: {documented - defined}"
