"""stdin/stdout datasets: the ``code_stdio`` row schema, and the public schemas read into it.

The row schema (JSONL, one problem a line; ``docs/code-tasks.md``)::

    {"id": "sum-two", "question": "Read two integers, print their sum.",
     "tests": [{"input": "1 2\\n", "output": "3\\n"}, ...],
     "checker": null, "float_tol": null, "time_limit_s": null, "memory_mb": null,
     "solutions": ["a, b = map(int, input().split())\\nprint(a + b)"], "wrong_solutions": ["print(0)"]}

``tests`` is required (at least one); ``checker`` is trusted Python defining ``check(input, expected, output)
-> bool`` (multi-answer problems), run sandboxed; ``float_tol`` compares numeric tokens with that tolerance;
``solutions`` (reference programs, the first is what ``verifiers validate`` checks) and ``wrong_solutions``
are optional.

`stdio_row` also reads the public schemas as they are published, detected by their columns (the hub is not
reachable from the team's machines: the field names below were checked against the loaders in the
projects' own repositories):

- APPS / TACO (``codeparrot/apps``, ``BAAI/TACO``): ``question``, ``input_output`` (JSON text with ``inputs`` and
  ``outputs`` lists; with ``fn_name`` the problem is call-based, not stdin/stdout: refused with a line saying
  so), ``solutions`` (JSON text list).
- CodeContests (``deepmind/code_contests``): ``description``, ``public_tests``/``private_tests``/
  ``generated_tests`` (``{"input": [...], "output": [...]}``), ``solutions``/``incorrect_solutions``
  (``{"language": [...], "solution": [...]}``, Python 3 = language 3), ``time_limit`` (``{"seconds",
  "nanos"}``).
- LiveCodeBench ``code_generation_lite``: ``question_content``, ``public_test_cases`` (JSON text list of
  ``{"input", "output", "testtype"}``), ``private_test_cases`` (JSON text, or base64 of zlib-compressed pickled
  JSON text: unpickled with no globals allowed, so only plain strings load), ``metadata``; ``functional``
  tests (LeetCode-style) are not stdin/stdout: refused.

`convert` turns rows of any of these into schema rows, listing the rows it had to leave out.
"""

from __future__ import annotations

import base64
import io
import json
import math
import pickle
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from verifiers._problem import MAX_STDIO_TESTS, Problem, StdioTests
from verifiers.errors import DataError

__all__ = ["CODECONTESTS_PYTHON3", "builtin_rows", "convert", "schema_of", "stdio_row"]

CODECONTESTS_PYTHON3 = 3  # deepmind/code_contests Language enum: 0 unknown, 1 python (2), 2 cpp, 3 python3, 4 java
_BUILTIN = Path(__file__).parent / "data" / "code_stdio.jsonl"
MAX_PRIVATE_BYTES = 256 * 1024 * 1024  # a decompressed LiveCodeBench private-test blob


def schema_of(row: Mapping[str, Any]) -> str:
    """Which schema a row has: ``verifiers``, ``apps``, ``codecontests`` or ``livecodebench``.

    Raises:
        DataError: none of them.
    """
    if "tests" in row:
        return "verifiers"
    if "input_output" in row:
        return "apps"
    if "public_tests" in row:
        return "codecontests"
    if "public_test_cases" in row:
        return "livecodebench"
    raise DataError(f"not a stdin/stdout problem row: it has none of 'tests' (this schema), 'input_output' "
                    f"(APPS/TACO), 'public_tests' (CodeContests), 'public_test_cases' (LiveCodeBench); "
                    f"it has {sorted(row)[:12]}")


def _json_field(row: Mapping[str, Any], name: str) -> Any:
    value = row.get(name)
    if isinstance(value, str):
        try:
            return json.loads(value) if value.strip() else None
        except json.JSONDecodeError:
            raise DataError(f"{name!r} is text but not JSON") from None
    return value


def _texts(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise DataError(f"{what} must be a list of strings")
    return value


def _pairs(inputs: Any, outputs: Any, what: str) -> list[tuple[str, str]]:
    ins, outs = _texts(inputs, f"{what} inputs"), _texts(outputs, f"{what} outputs")
    if len(ins) != len(outs):
        raise DataError(f"{what}: {len(ins)} inputs but {len(outs)} outputs")
    return list(zip(ins, outs))


def _apps(row: Mapping[str, Any]) -> dict[str, Any]:
    io_ = _json_field(row, "input_output")
    if not isinstance(io_, Mapping):
        raise DataError("'input_output' must be a JSON object with 'inputs' and 'outputs'")
    if io_.get("fn_name"):
        raise DataError(f"call-based problem (fn_name={io_['fn_name']!r}): its tests call a function, they are "
                        "not stdin/stdout")
    sols = _json_field(row, "solutions") or []
    return {"id": str(row.get("problem_id", row.get("id", ""))), "question": str(row.get("question", "")),
            "tests": [{"input": i, "output": o} for i, o in _pairs(io_.get("inputs"), io_.get("outputs"), "input_output")],
            "solutions": _texts(sols, "'solutions'")}


def _cc_solutions(value: Any) -> list[str]:
    if not isinstance(value, Mapping):
        return []
    langs, sols = value.get("language") or [], value.get("solution") or []
    return [s for lang, s in zip(langs, sols) if lang == CODECONTESTS_PYTHON3 and isinstance(s, str)]


def _codecontests(row: Mapping[str, Any]) -> dict[str, Any]:
    tests = []
    for name in ("public_tests", "private_tests", "generated_tests"):
        group = row.get(name) or {}
        if not isinstance(group, Mapping):
            raise DataError(f"{name!r} must be an object with 'input' and 'output' lists")
        tests += _pairs(group.get("input", []), group.get("output", []), name)
    limit = row.get("time_limit") or {}
    seconds = None
    if isinstance(limit, Mapping) and (limit.get("seconds") or limit.get("nanos")):
        seconds = float(limit.get("seconds") or 0) + float(limit.get("nanos") or 0) / 1e9
    mem = row.get("memory_limit_bytes")
    return {"id": str(row.get("name", row.get("id", ""))), "question": str(row.get("description", "")),
            "tests": [{"input": i, "output": o} for i, o in tests], "time_limit_s": seconds,
            "memory_mb": int(mem) // (1 << 20) if isinstance(mem, int) and mem > 0 else None,
            "solutions": _cc_solutions(row.get("solutions")),
            "wrong_solutions": _cc_solutions(row.get("incorrect_solutions"))}


class _NoGlobals(pickle.Unpickler):
    """Unpickles plain data only: any class or function reference is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refused to load {module}.{name}")


def _at_most(n: int, what: str) -> None:
    if n > MAX_STDIO_TESTS:
        raise DataError(f"{n:,} {what}, more than the {MAX_STDIO_TESTS:,} a stdin/stdout problem may have (every test "
                        "runs; trim the row)")


def _lcb_cases(value: Any, name: str) -> list[Any]:
    if isinstance(value, list) or value is None:
        return value or []
    if not isinstance(value, str):
        raise DataError(f"{name!r} must be JSON text or a list")
    try:
        return json.loads(value) if value.strip() else []
    except json.JSONDecodeError:
        pass
    try:  # LiveCodeBench's release: base64(zlib(pickle(json text)))
        raw = zlib.decompressobj().decompress(base64.b64decode(value.encode("ascii")), MAX_PRIVATE_BYTES)
        text = _NoGlobals(io.BytesIO(raw)).load()
    except (ValueError, zlib.error, pickle.UnpicklingError, EOFError, UnicodeError, TypeError) as e:
        raise DataError(f"{name!r} is neither JSON nor LiveCodeBench's compressed form ({type(e).__name__})") from None
    if not isinstance(text, str):
        raise DataError(f"{name!r} does not hold a list of test cases")
    _at_most(text.count('"input"'), f"{name!r} cases")  # each case has an "input" key: a bound before parsing
    try:
        cases = json.loads(text)
    except ValueError:
        raise DataError(f"{name!r} is neither JSON nor LiveCodeBench's compressed form (JSONDecodeError)") from None
    if not isinstance(cases, list):
        raise DataError(f"{name!r} does not hold a list of test cases")
    return cases


def _livecodebench(row: Mapping[str, Any]) -> dict[str, Any]:
    cases = (_lcb_cases(row.get("public_test_cases"), "public_test_cases")
             + _lcb_cases(row.get("private_test_cases"), "private_test_cases"))
    tests = []
    for c in cases:
        if not isinstance(c, Mapping) or not isinstance(c.get("input"), str) or not isinstance(c.get("output"), str):
            raise DataError("a LiveCodeBench test case must be {'input', 'output', 'testtype'} with text values")
        if c.get("testtype", "stdin") != "stdin":
            raise DataError(f"a {c.get('testtype')!r} test (LeetCode-style function call) is not stdin/stdout")
        tests.append({"input": c["input"], "output": c["output"]})
    return {"id": str(row.get("question_id", row.get("id", ""))), "question": str(row.get("question_content", "")),
            "tests": tests}


_READERS = {"apps": _apps, "codecontests": _codecontests, "livecodebench": _livecodebench}


def _checked(row: Mapping[str, Any]) -> dict[str, Any]:
    """A schema row, validated: one `DataError` naming the first wrong field."""
    tests = row.get("tests")
    if not isinstance(tests, list) or not tests:
        raise DataError("'tests' must be a non-empty list of {'input', 'output'} objects")
    _at_most(len(tests), "tests")
    for k, t in enumerate(tests):
        if not isinstance(t, Mapping) or not isinstance(t.get("input"), str) or not isinstance(t.get("output"), str):
            raise DataError(f"'tests'[{k}] must be an object with text 'input' and 'output'")
    for name in ("float_tol", "time_limit_s"):
        v = row.get(name)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v < math.inf):
            raise DataError(f"{name!r} must be a non-negative number, got {v!r}")
    mem = row.get("memory_mb")
    if mem is not None and (isinstance(mem, bool) or not isinstance(mem, int) or mem <= 0):
        raise DataError(f"'memory_mb' must be a positive integer, got {mem!r}")
    if row.get("checker") is not None and not isinstance(row.get("checker"), str):
        raise DataError("'checker' must be Python source text")
    for name in ("solutions", "wrong_solutions"):
        _texts(row.get(name) or [], repr(name))
    return dict(row)


def stdio_row(task: str, split: str, i: int, row: Mapping[str, Any]) -> Problem:
    """One problem from a row of any supported schema (see the module doc).

    Raises:
        DataError: ``TASK row I (SCHEMA): what is wrong``.
    """
    schema = "?"
    try:
        schema = schema_of(row)
        ours = _checked(row if schema == "verifiers" else _READERS[schema](row))
    except DataError as e:
        raise DataError(f"{task} row {i} ({schema}): {e}") from None
    ref = StdioTests(tuple((t["input"], t["output"]) for t in ours["tests"]), ours.get("checker") or "",
                     ours.get("float_tol"), ours.get("time_limit_s"))
    solutions = list(ours.get("solutions") or [])
    meta: dict[str, Any] = {"stdio": ref.to_json(), "schema": schema}
    if ours.get("wrong_solutions"):
        meta["wrong_solutions"] = list(ours["wrong_solutions"])
    if ours.get("memory_mb"):
        meta["memory_mb"] = ours["memory_mb"]
    pid = str(ours.get("id") or f"{task}/{split}/{i}")
    return Problem(pid, str(ours.get("question", "")), "", solutions[0] if solutions else "", meta=meta)


def convert(records: Iterable[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows of any supported schema (``verifiers.datasets.read_records(path)``) as schema rows, and one line
    for each row left out (and why).

    Example:
        >>> rows, skipped = convert(read_records("apps_test.jsonl"))                      # doctest: +SKIP
    """
    rows, skipped = [], []
    for i, row in enumerate(records):
        try:
            p = stdio_row("code_stdio", "file", i, row)
        except DataError as e:
            skipped.append(str(e))
            continue
        rows.append({"id": p.id, "question": p.question, **p.meta["stdio"],
                     "solutions": [p.solution] if p.solution else [],
                     "wrong_solutions": list(p.meta.get("wrong_solutions", []))})
    return rows, skipped


def builtin_rows(split: str, limit: int | None = None) -> list[dict[str, Any]]:
    """The committed problem set (``verifiers/data/code_stdio.jsonl``): ``split`` ``train``, ``test`` or ``all``."""
    rows = [json.loads(line) for line in _BUILTIN.read_text(encoding="utf-8").splitlines() if line.strip()]
    picked = [r for r in rows if split == "all" or r.get("split", "test") == split]
    return picked[:limit] if limit is not None else picked
