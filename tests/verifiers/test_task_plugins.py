"""Task plug-ins reach other processes: an installed package's ``verifiers.tasks`` entry point, or a module in
``VERIFIERS_TASKS``, is seen by the CLIs and the verl reward started fresh, as users and verl's workers run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).parents[2] / "src")
# The plug-in looks a built-in task up while it is being imported (the registry re-enters its loading).
PLUGIN = '''from verifiers import tasks
SPEC = tasks.TaskSpec("mine", tasks.get("gsm8k").scorer, ("me/mine",), tasks.answer_row, scorer_name="gsm8k",
                      template="verl", local_files={"test": "mine/test.jsonl"}, splits={"test": "test"})
'''


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder on PYTHONPATH holding an "installed" plug-in package (module + dist-info with the entry point)."""
    site = tmp_path / "site"
    (site / "mine_plugin-0.1.dist-info").mkdir(parents=True)
    (site / "mine_tasks.py").write_text(PLUGIN)
    (site / "env_tasks.py").write_text(PLUGIN.replace('"mine"', '"envtask"').replace("me/mine", "me/envtask")
                                       .replace("SPEC = ", "tasks.register(").rstrip() + ")\n")
    (site / "mine_plugin-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: mine-plugin\n"
                                                                 "Version: 0.1\n")
    (site / "mine_plugin-0.1.dist-info" / "entry_points.txt").write_text("[verifiers.tasks]\nmine = mine_tasks:SPEC\n")
    data = tmp_path / "data" / "mine"
    data.mkdir(parents=True)
    rows = [{"question": f"What is {a} + 4?", "answer": f"{a} + 4 = {a + 4}\n#### {a + 4}"} for a in range(5)]
    (data / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "responses.jsonl").write_text(json.dumps({"response": "so #### 7", "gold": "7"}) + "\n"
                                              + json.dumps({"response": "#### 8", "gold": "7"}) + "\n")
    return site


def _run(site: Path, *args: str, tasks_env: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "VERIFIERS_TASKS"}
    env |= {"PYTHONPATH": os.pathsep.join([str(site), SRC]), "VERIFIERS_DATA_DIR": str(site.parent / "data")}
    if tasks_env is not None:
        env["VERIFIERS_TASKS"] = tasks_env
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=site.parent,
                          timeout=300, check=False)


def test_an_installed_plugin_reaches_every_cli_and_the_verl_reward(site: Path) -> None:
    out = _run(site, "-m", "verifiers.cli", "score", "--task", "mine", "responses.jsonl", "-o", "scored.jsonl")
    assert out.returncode == 0, out.stderr
    rows = (site.parent / "scored.jsonl").read_text().splitlines()
    assert [json.loads(r)["score"]["correct"] for r in rows] == [True, False]
    out = _run(site, "-m", "verifiers_train.cli", "prepare", "--task", "mine", "--out", "parquet", "--json")
    assert out.returncode == 0, out.stderr
    import pyarrow.parquet as pq

    table = pq.read_table(site.parent / "parquet" / "test.parquet").to_pylist()
    assert len(table) == 5 and {r["data_source"] for r in table} == {"me/mine"}
    assert "mine" in _run(site, "-m", "verifiers_train.evaluation.cli", "checkpoint", "--help").stdout
    reward = ("from verifiers_train.reward import compute_score; "
              "print(compute_score('me/mine', '#### 7', '7')['acc'], compute_score('me/mine', '#### 6', '7')['acc'])")
    out = _run(site, "-c", reward)
    assert out.returncode == 0 and out.stdout.split() == ["1.0", "0.0"], out.stderr


def test_a_module_named_in_the_environment_registers_its_tasks(site: Path) -> None:
    out = _run(site, "-m", "verifiers.cli", "score", "--task", "envtask", "responses.jsonl", "-o", "s.jsonl",
               tasks_env="env_tasks")
    assert out.returncode == 0, out.stderr
    assert _run(site, "-m", "verifiers.cli", "score", "--task", "envtask", "responses.jsonl").returncode == 2


def test_a_broken_plugin_is_one_warning_and_the_built_in_tasks_still_work(site: Path) -> None:
    out = _run(site, "-m", "verifiers.cli", "score", "--task", "gsm8k", "responses.jsonl", "-o", "g.jsonl",
               tasks_env="no_such_module, env_tasks")
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines() == [("verifiers: task plug-in no_such_module failed to load "
                                        "(ModuleNotFoundError: No module named 'no_such_module'); its tasks are "
                                        "unavailable")]
    out = _run(site, "-m", "verifiers.cli", "score", "--task", "nope", "responses.jsonl", tasks_env="no_such_module")
    assert out.returncode == 2 and "invalid choice: 'nope'" in out.stderr.splitlines()[-1]
    assert "'mine'" in out.stderr.splitlines()[-1]  # the installed plug-in's task is still offered



def test_a_plugin_cannot_take_over_a_built_in_task(site: Path) -> None:
    (site / "greedy_tasks.py").write_text("from verifiers import tasks\n"
                                          "tasks.register(tasks.TaskSpec('gsm8k', tasks.get('math').scorer, "
                                          "('openai/gsm8k',), tasks.math_row))\n")
    out = _run(site, "-c", "from verifiers import tasks; print(tasks.get('gsm8k').scorer().__name__)",
               tasks_env="greedy_tasks")
    assert out.stdout.split() == ["verifiers.gsm8k"], out.stderr  # the built-in task is still the one used
    assert out.stderr.splitlines() == [("verifiers: task plug-in greedy_tasks failed to load (ConfigError: cannot "
                                        "register task 'gsm8k': task 'gsm8k' is already registered (pass replace=True "
                                        "to replace it)); its tasks are unavailable")]


def test_a_code_plugin_task_needs_the_sandbox_as_mbpp_does(tmp_path: Path) -> None:
    """`tasks.sandbox_problem` goes by the task's reference (tests) or ability (code), not by its name: a plug-in
    code task is checked."""
    code = ('from verifiers import tasks\n'
            'tasks.register(tasks.TaskSpec("mycode", tasks.get("mbpp").scorer, ("me/mycode",), tasks.mbpp_row,\n'
            '                              scorer_name="mbpp", reference=tasks.TESTS))\n'
            '# a code task whose reference is not assert tests (a stdin/stdout task, say): its ability says it runs code\n'
            'tasks.register(tasks.TaskSpec("mystdio", tasks.get("mbpp").scorer, ("me/mystdio",), tasks.mbpp_row,\n'
            '                              scorer_name="mbpp", ability="code"))\n'
            'for name in ("me/mycode", "mbpp", "gsm8k", "no-such-task", "me/mystdio"):\n'
            '    print(tasks.sandbox_problem(name))\n')
    env = os.environ | {"PYTHONPATH": SRC, "PATH": str(tmp_path / "empty-bin")}  # no bwrap to be found
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=True)
    mine, mbpp, gsm8k, unknown, stdio = out.stdout.splitlines()
    assert stdio.startswith("task mystdio runs programs in the sandbox, which cannot start here: bubblewrap")
    assert mine.startswith("task mycode runs programs in the sandbox, which cannot start here: bubblewrap")
    assert mbpp.startswith("task mbpp runs programs in the sandbox, which cannot start here: bubblewrap")
    assert (gsm8k, unknown) == ("None", "None")
