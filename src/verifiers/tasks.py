"""The task registry: every fact about a dataset and its scorer, in one `TaskSpec` per task.

`verifiers.datasets`, the three CLIs, ``prepare``, the verl reward, the TRL adapter and ``verifiers-eval`` all
read it, so a new task is one `register` call::

    from verifiers import tasks
    tasks.register(tasks.TaskSpec("gsm8k-hard", tasks.get("gsm8k").scorer, ("me/gsm8k-hard",),
                                  tasks.answer_row, local_files={"test": "gsm8k-hard/test.jsonl"}))

Other processes (the CLIs, verl's reward workers) find such a module as a plug-in: an installed package's
``verifiers.tasks`` entry point (a module that registers on import, or a `TaskSpec`), or a module named in
``VERIFIERS_TASKS`` (comma-separated). Plug-ins load on the first lookup, after the built-in tasks.

Example:
    >>> get("arith").template, for_data_source("openai/gsm8k").name
    ('verl', 'gsm8k')
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import json
import logging
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from verifiers._problem import CodeTests, Problem, StdioTests, gsm8k_final_answer, last_boxed
from verifiers.errors import ConfigError, DataError, VerifiersError, one_of
from verifiers.rewards._config import BaseConfig
from verifiers.rewards._score import Score

__all__ = ["ANSWER", "FUNCTION_TESTS", "PLUGIN_ENV", "PLUGIN_GROUP", "STDIO_TESTS", "TESTS", "CodeTests", "FunctionTests",
           "Reference", "ReferenceCodec", "Scorer", "StdioReference", "StdioTests",
           "TaskSpec", "TestsReference", "answer_row", "for_data_source", "function_tests", "get", "math_row", "mbpp_row", "names",
           "register", "sandbox_problem"]


Reference = str | CodeTests | StdioTests  # a gold answer, or the tests a program must pass


class Scorer(Protocol):
    """What every task's scorer offers (the modules `verifiers.gsm8k`, `verifiers.math`, `verifiers.mbpp`)."""

    @property
    def Config(self) -> type[BaseConfig]:
        """The scorer's frozen settings class."""
        ...

    def score(self, response: str, reference: Any, /, *, config: Any = None) -> Score:
        """Score one response against its reference; never raises for model output."""
        ...

    def score_batch(self, responses: Sequence[str], references: Sequence[Any], /, *, workers: int | None = None,
                    config: Any = None) -> list[Score]:
        """Score many responses; results in input order."""
        ...


@dataclass(frozen=True)
class ReferenceCodec:
    """How a task's reference is read from a `Problem` and travels through verl and TRL datasets.

    This base is a gold answer string (GSM8K, MATH); `TestsReference` is MBPP's assert statements.

    Attributes:
        columns: dataset columns holding the reference (TRL), first present wins.
        votes: references are answers that majority voting can group by equivalence.
    """

    columns: tuple[str, ...] = ("ground_truth", "answer", "gold", "solution")
    votes: bool = True

    def of(self, problem: Problem) -> Reference:
        """The reference of ``problem``."""
        return problem.gold

    def encode(self, problem: Problem) -> str:
        """verl's ``reward_model.ground_truth`` string (one column type for every row)."""
        return problem.gold

    def decode(self, value: Any, setup_code: str = "") -> Reference:
        """The reference back from a ``ground_truth`` value (and the row's set-up code)."""
        return str(value)


@dataclass(frozen=True)
class TestsReference(ReferenceCodec):
    """Assert statements plus set-up code (MBPP); verl carries the tests JSON-encoded."""

    columns: tuple[str, ...] = ("tests", "test_list", "ground_truth")
    votes: bool = False

    def of(self, problem: Problem) -> CodeTests:
        return CodeTests(tuple(problem.tests), problem.setup_code)

    def encode(self, problem: Problem) -> str:
        return json.dumps(list(problem.tests))

    def decode(self, value: Any, setup_code: str = "") -> CodeTests:
        if isinstance(value, CodeTests):
            return value
        if isinstance(value, str):
            decoded = json.loads(value)
            value = decoded if isinstance(decoded, list | dict) else [decoded]
        if isinstance(value, dict):
            return function_tests(value, setup_code)
        return CodeTests(tuple(str(t) for t in value), str(setup_code or ""))


@dataclass(frozen=True)
class FunctionTests(TestsReference):
    """Tests of a function-completion task (HumanEval): the asserts, set-up code, prompt and entry point.

    verl carries them as one JSON object (``{"tests", "setup_code", "prompt", "entry_point"}``); a row of the
    dataset's own shape (``{"test", "prompt", "entry_point"}``, ``check(candidate)`` code) is compiled.
    """

    columns: tuple[str, ...] = ("tests", "ground_truth", "test")

    def of(self, problem: Problem) -> CodeTests:
        return CodeTests(tuple(problem.tests), problem.setup_code, str(problem.meta.get("prompt", "")),
                         str(problem.meta.get("entry_point", "")))

    def encode(self, problem: Problem) -> str:
        t = self.of(problem)
        return json.dumps({"tests": list(t.tests), "setup_code": t.setup_code, "prompt": t.prompt,
                           "entry_point": t.entry_point})


@dataclass(frozen=True)
class StdioReference(TestsReference):
    """Tests of a stdin/stdout task (`verifiers.code_stdio`): inputs, expected outputs, checker, tolerance.

    verl carries them as one JSON object (the row schema's ``tests``/``checker``/``float_tol``/``time_limit_s``).
    """

    columns: tuple[str, ...] = ("tests", "ground_truth")
    row_options: tuple[str, ...] = ("checker", "float_tol", "time_limit_s")  # beside ``tests`` in a row

    def of(self, problem: Problem) -> StdioTests:  # type: ignore[override]
        from verifiers.code_stdio import reference

        return reference(problem.meta.get("stdio") or {"tests": []})

    def encode(self, problem: Problem) -> str:
        return json.dumps(self.of(problem).to_json())

    def decode(self, value: Any, setup_code: str = "") -> StdioTests:  # type: ignore[override]
        from verifiers.code_stdio import reference

        try:
            return reference(value)
        except TypeError as e:
            raise DataError(str(e)) from None


def function_tests(value: Mapping[str, Any], setup_code: str = "") -> CodeTests:
    """`CodeTests` from ``{"tests", "setup_code"?, "prompt", "entry_point"}`` or a HumanEval row's
    ``{"test", "prompt", "entry_point"}`` (its ``check(candidate)`` compiled, `verifiers.humaneval`).

    Raises:
        DataError: neither shape, or a ``check`` that cannot be compiled.
    """
    from verifiers.humaneval import CheckShapeError, compile_check

    prompt, entry = value.get("prompt", ""), value.get("entry_point", "")
    if not isinstance(prompt, str) or not isinstance(entry, str):
        raise DataError("function tests: 'prompt' and 'entry_point' must be strings")
    if isinstance(value.get("test"), str) and "tests" not in value:
        if not entry:
            raise DataError("function tests: a 'test' (check code) needs its 'entry_point'")
        try:
            return compile_check(value["test"], prompt, entry)
        except CheckShapeError as e:
            raise DataError(f"function tests: {e}") from None
    tests = value.get("tests")
    if not isinstance(tests, list) or not all(isinstance(t, str) for t in tests):
        raise DataError("function tests: expected {'tests': [assert strings], 'prompt', 'entry_point'} "
                        "or a HumanEval row's {'test', 'prompt', 'entry_point'}")
    return CodeTests(tuple(tests), str(value.get("setup_code") or setup_code or ""), prompt, entry)


ANSWER = ReferenceCodec()
TESTS = TestsReference()
FUNCTION_TESTS = FunctionTests()
STDIO_TESTS = StdioReference()
RowReader = Callable[[str, str, int, Mapping[str, Any]], Problem]  # (task, split, index, row) -> Problem


@dataclass(frozen=True)
class TaskSpec:
    """One task: its scorer, where its data lives, how rows become problems and prompts.

    Attributes:
        name: registry key (``--dataset``/``--task`` value).
        scorer: returns the scorer (imported on first call, so ``import verifiers.tasks`` stays light).
        data_sources: verl ``data_source`` strings that mean this task; the first is what ``prepare`` writes.
        read_row: turns one source row into a `Problem` (see `answer_row`, `math_row`, `mbpp_row`).
        scorer_name: the scorer's name; tasks sharing a scorer share its ``Config`` and reward parts.
        reference: how the reference is read and encoded (`ANSWER` or `TESTS`).
        local_files: split -> file under ``VERIFIERS_DATA_DIR``.
        hub: ``(hub name, config)`` used when no local source is given.
        generate: ``(split, limit) -> rows`` for a synthetic task (used when no source is given).
        select: ``(problems, split) -> problems`` when one file holds several splits (MBPP's task ids).
        template: default prompt template (`verifiers_train.templates`).
        ability: verl's ``ability`` column.
        splits: output split -> source split that ``prepare`` writes by default.
        min_self_verify: share of gold solutions that must score correct (``verifiers validate``).
    """

    name: str
    scorer: Callable[[], Scorer]
    data_sources: tuple[str, ...]
    read_row: RowReader
    scorer_name: str = ""
    reference: ReferenceCodec = ANSWER
    local_files: Mapping[str, str] = field(default_factory=dict)
    hub: tuple[str, str | None] | None = None
    generate: Callable[[str, int | None], list[dict[str, Any]]] | None = None
    select: Callable[[list[Problem], str], list[Problem]] | None = None
    template: str = "plain"
    ability: str = "math"
    splits: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({"train": "train", "test": "test"}))
    min_self_verify: float = 1.0

    def __post_init__(self) -> None:
        if not self.scorer_name:
            object.__setattr__(self, "scorer_name", self.name)


_REGISTRY: dict[str, TaskSpec] = {}
PLUGIN_GROUP = "verifiers.tasks"
PLUGIN_ENV = "VERIFIERS_TASKS"
_plugins_lock = threading.RLock()  # re-entrant: a plug-in may look tasks up while it is being imported
_plugins_state = ""  # "" not loaded, "loading", "loaded"
logger = logging.getLogger(__name__)


def _load_plugins() -> None:
    """Import the task plug-ins once per process; a plug-in that fails is named in one warning and skipped."""
    global _plugins_state
    if _plugins_state == "loaded":
        return
    with _plugins_lock:
        if _plugins_state:
            return
        _plugins_state = "loading"
        found: list[tuple[str, Callable[[], Any]]] = [
            (ep.value, ep.load) for ep in importlib.metadata.entry_points(group=PLUGIN_GROUP)]
        for module in filter(None, (m.strip() for m in os.environ.get(PLUGIN_ENV, "").split(","))):
            found.append((module, functools.partial(importlib.import_module, module)))
        for name, load in found:
            try:
                loaded = load()
                if isinstance(loaded, TaskSpec):
                    register(loaded)
            except Exception as e:  # noqa: BLE001 - a broken plug-in must not take the built-in tasks with it
                logger.warning("verifiers: task plug-in %s failed to load (%s: %s); its tasks are unavailable",
                               name, type(e).__name__, e)
        _plugins_state = "loaded"


def register(spec: TaskSpec, *, replace: bool = False) -> TaskSpec:
    """Add a task; every consumer sees it from then on. Returns ``spec``.

    Registering the same spec again changes nothing. Another task of that name, or a ``data_source`` another
    task already claims, is refused (`ConfigError`) unless ``replace`` is set: a plug-in must not take over a
    built-in task or another plug-in's by accident.
    """
    if not spec.name or not spec.data_sources:
        raise ConfigError(f"a task needs a name and at least one data_source, got {spec.name!r}")
    old = _REGISTRY.get(spec.name)
    if old == spec:
        return spec
    claimed = {s.lower(): t.name for t in _REGISTRY.values() if t.name != spec.name for s in (t.name, *t.data_sources)}
    clash = [f"data_source {s!r} is task {claimed[s.lower()]!r}'s" for s in (spec.name, *spec.data_sources)
             if s.lower() in claimed]
    if old is not None:
        clash.insert(0, f"task {spec.name!r} is already registered")
    if clash and not replace:
        raise ConfigError(f"cannot register task {spec.name!r}: {'; '.join(clash)} (pass replace=True to replace it)")
    _REGISTRY[spec.name] = spec
    return spec


def names() -> tuple[str, ...]:
    """Registered task names, in registration order (built-in tasks, then plug-ins)."""
    _load_plugins()
    return tuple(_REGISTRY)


def get(name: str, error: type[VerifiersError] = ConfigError, what: str = "task") -> TaskSpec:
    """The task called ``name``; otherwise ``error`` saying ``unknown {what}`` and listing the known names."""
    _load_plugins()
    return _REGISTRY[one_of(name, _REGISTRY, what, error)]


def for_data_source(source: str) -> TaskSpec | None:
    """The task a verl ``data_source`` (or a task name) means, or ``None``.

    Names match exactly, ignoring case. A source that only contains a task name (``me/gsm8k-hard``,
    ``me/mathvista-mc``) means nothing: guessing would score a task whose plug-in failed to load with another
    task's scorer, silently.
    """
    _load_plugins()
    low = source.lower()
    for spec in _REGISTRY.values():
        if low == spec.name.lower() or low in (s.lower() for s in spec.data_sources):
            return spec
    return None


def sandbox_problem(task: str) -> str | None:
    """Why ``task``'s reward cannot run on this host, or ``None``.

    Only a task whose reference is tests or whose ability is ``code`` (MBPP, HumanEval, a code plug-in) runs
    programs; for it the sandbox is started and one program run (`verifiers.sandbox.check`), so a missing
    bubblewrap is found before any generation.
    """
    spec = for_data_source(task)
    if spec is None or not (isinstance(spec.reference, TestsReference) or spec.ability == "code"):
        return None
    from verifiers.sandbox import check

    reason = check()
    return f"task {spec.name} runs programs in the sandbox, which cannot start here: {reason}" if reason else None


# ------------------------------------------------------------------ reading rows
def field_of(row: Mapping[str, Any], keys: tuple[str, ...], where: str) -> Any:
    """The first of ``keys`` present (and not None) in ``row``; `DataError` naming them otherwise."""
    for k in keys:
        if k in row and row[k] is not None:
            return row[k]
    raise DataError(f"{where}: row has none of the fields {keys}; it has {sorted(row)}")


def answer_row(task: str, split: str, i: int, row: Mapping[str, Any]) -> Problem:
    """A GSM8K-style row: ``question`` and a worked ``answer`` ending in ``#### N``."""
    where = f"{task} row {i}"
    question = field_of(row, ("question", "problem"), where)
    solution = str(field_of(row, ("answer", "solution"), where))
    meta = {"level": row["level"]} if "level" in row else {}
    return Problem(f"{task}/{split}/{i}", str(question), gsm8k_final_answer(solution), solution, meta=meta)


def math_row(task: str, split: str, i: int, row: Mapping[str, Any]) -> Problem:
    """A MATH-style row: ``problem``, ``solution`` and ``answer`` (else the solution's last box)."""
    where = f"{task} row {i}"
    question = field_of(row, ("problem", "question"), where)
    solution = str(field_of(row, ("solution",), where))
    gold = row.get("answer") or last_boxed(solution) or ""
    meta = {k: row[k] for k in ("subject", "type", "level") if k in row}
    pid = str(row.get("unique_id") or f"{task}/{split}/{i}")
    return Problem(pid, str(question), str(gold), solution, meta=meta)


def mbpp_row(task: str, split: str, i: int, row: Mapping[str, Any]) -> Problem:
    """An MBPP row: ``text``, ``test_list`` (a list or its JSON), set-up code, reference ``code``."""
    where = f"{task} row {i}"
    question = field_of(row, ("text", "prompt", "question"), where)
    tests = field_of(row, ("test_list",), where)
    if isinstance(tests, str):
        tests = json.loads(tests)
    setup = row.get("test_setup_code") or "\n".join(row.get("test_imports") or [])
    task_id = row.get("task_id", i)
    meta: dict[str, Any] = {"task_id": task_id}
    if row.get("challenge_test_list"):
        meta["challenge_tests"] = list(row["challenge_test_list"])
    return Problem(f"{task}/{task_id}", str(question), "", str(row.get("code", "")), tuple(tests), str(setup), meta)


# The original MBPP split is by task id.
MBPP_SPLITS = {"prompt": range(1, 11), "test": range(11, 511), "validation": range(511, 601),
               "train": range(601, 975)}


def mbpp_split(problems: list[Problem], split: str) -> list[Problem]:
    """The problems of ``split`` when ``problems`` is the whole of MBPP (974 task ids) in one file."""
    whole = len(problems) > 600 and all("task_id" in p.meta for p in problems[:5])
    if split not in MBPP_SPLITS or not whole:
        return problems
    return [p for p in problems if int(p.meta.get("task_id", -1)) in MBPP_SPLITS[split]]


# ------------------------------------------------------------------ the built-in tasks
def _gsm8k() -> Scorer:
    from verifiers import gsm8k

    return gsm8k


def _math() -> Scorer:
    from verifiers import math

    return math


def _mbpp() -> Scorer:
    from verifiers import mbpp

    return mbpp


def _humaneval_row(task: str, split: str, i: int, row: Mapping[str, Any]) -> Problem:
    from verifiers.humaneval import humaneval_row

    return humaneval_row(task, split, i, row)


def _code_stdio() -> Scorer:
    from verifiers import code_stdio

    return code_stdio


def _stdio_row(task: str, split: str, i: int, row: Mapping[str, Any]) -> Problem:
    from verifiers.stdio_data import stdio_row

    return stdio_row(task, split, i, row)


def _stdio_builtin(split: str, limit: int | None) -> list[dict[str, Any]]:
    from verifiers.stdio_data import builtin_rows

    return builtin_rows(split, limit)


def _arith_rows(split: str, limit: int | None) -> list[dict[str, Any]]:
    from verifiers import arith

    return arith.generate(limit if limit is not None else arith.DEFAULT_SIZES.get(split, 500), split=split)


# GSM8K and MATH keep verl's own data_source names first, so verl's built-in scorer can be swapped in.
register(TaskSpec("gsm8k", _gsm8k, ("openai/gsm8k", "gsm8k"), answer_row, template="verl",
                  local_files={"train": "gsm8k/train.jsonl", "test": "gsm8k/test.jsonl"},
                  hub=("openai/gsm8k", "main")))
register(TaskSpec("math", _math, ("DigitalLearningGmbH/MATH-lighteval", "math", "lighteval/MATH"), math_row,
                  template="boxed", local_files={"test": "math/test.jsonl"},
                  hub=("DigitalLearningGmbH/MATH-lighteval", "default"), min_self_verify=0.995))
register(TaskSpec("math500", _math, ("HuggingFaceH4/MATH-500", "math500"), math_row, scorer_name="math",
                  template="boxed", local_files={"test": "math/math500.jsonl"}, hub=("HuggingFaceH4/MATH-500", None),
                  splits={"test": "test"}, min_self_verify=0.995))
register(TaskSpec("mbpp", _mbpp, ("mbpp", "google-research-datasets/mbpp", "Muennighoff/mbpp"), mbpp_row,
                  reference=TESTS, template="mbpp", ability="code", select=mbpp_split,
                  local_files=dict.fromkeys(("train", "test", "validation", "prompt", "all"), "mbpp/mbpp.jsonl"),
                  hub=("google-research-datasets/mbpp", "full")))
register(TaskSpec("humaneval", _mbpp, ("openai/openai_humaneval", "humaneval", "openai_humaneval"), _humaneval_row,
                  scorer_name="mbpp", reference=FUNCTION_TESTS, template="humaneval", ability="code",
                  local_files=dict.fromkeys(("test", "all"), "humaneval/HumanEval.jsonl"),
                  hub=("openai/openai_humaneval", None), splits={"test": "test"}))
register(TaskSpec("arith", _gsm8k, ("arith",), answer_row, scorer_name="gsm8k", template="verl",
                  generate=_arith_rows))
register(TaskSpec("code_stdio", _code_stdio, ("code_stdio", "codeparrot/apps", "BAAI/TACO", "deepmind/code_contests",
                                              "livecodebench/code_generation_lite"), _stdio_row,
                  reference=STDIO_TESTS, template="code_stdio", ability="code", generate=_stdio_builtin,
                  splits={"train": "train", "test": "test"}))
