"""EvalPlus's HumanEval+ and MBPP+ as expected-output problems for the sandbox judge.

A row (``HumanEvalPlus.jsonl.gz`` of github.com/evalplus/humanevalplus_release, ``MbppPlus.jsonl.gz`` of
github.com/evalplus/mbppplus_release, Apache-2.0) gives ``task_id``, ``prompt``, ``entry_point``,
``canonical_solution``, ``base_input`` and ``plus_input`` (argument lists) and ``atol``. EvalPlus computes the
expected outputs by running ``prompt + canonical_solution`` on every input (``evaluate.py``,
``get_groundtruth``); so does `expected_outputs` here, but **in the sandbox** (the reference is dataset code,
untrusted to this process like any program): one stdin/stdout run (`REFERENCE_DRIVER`) calls the reference
on the inputs and prints each result as tagged JSON, which this process parses under a size and node
budget; a run cut short (output cap, CPU limit) is resumed at the first missing input. Outputs are cached
per (reference, entry point, inputs) in this process. A row may also carry the outputs itself
(``base_output``/``plus_output``, same length as the inputs): they are used as given.

A response is then judged by `verifiers.sandbox.expected_output_tests` (the program computes only
``entry_point(*inputs)``; outputs and tolerance stay in this process): exact, or EvalPlus's float rule with
the row's ``atol``. An input the judge cannot decide (its expected output is not plain data, an int too long
to print, over the judge's size limits, or its test longer than the judge takes; the reference raises on it
or alone exceeds the CPU or memory limit) is left out and listed (`ProblemTests.skipped`). A problem with
many tests runs as several programs (`run_program`), each with a CPU limit of at least `TIME_FACTOR` times
the reference's CPU on its inputs.

EvalPlus's special comparisons reproduced: HumanEval+'s ``find_zero`` is judged by its oracle (the answer is
a root: ``abs(poly(xs, out)) <= atol``, `POLY_ORACLE` evaluated in this process); MBPP+'s inputs get back the
tuples/sets/complex numbers JSON lost, per task (`mbpp_plus_inputs`, after EvalPlus's
``mbpp_deserialize_inputs``); its set-valued tasks compare ``set(out) == set(exp)`` and its "not None" tasks
whether a value was returned (`MBPP_SET_OUTPUT`, `MBPP_NOT_NONE`). Not reproduced: MBPP+'s bespoke oracles
(``are_equivalent``, ``sum_div``, ``surface_Area``, ``digit_distance_nums``): those problems compare with
the reference's outputs and are flagged in `EvalPlusProblem.special_oracle`.

Example:
    >>> p = evalplus_row({"task_id": "T/0", "entry_point": "add", "prompt": "def add(a, b):\\n",
    ...                   "canonical_solution": "    return a + b\\n", "base_input": [[1, 2]],
    ...                   "plus_input": [[3, 4]], "atol": 0})
    >>> (p.entry_point, p.inputs(plus=False), p.inputs())
    ('add', ((1, 2),), ((1, 2), (3, 4)))
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from verifiers.errors import ConfigError, DataError
from verifiers.humaneval import program
from verifiers.mbpp import extract_code
from verifiers.sandbox._expected import expected_output_tests, literal
from verifiers.sandbox._protocol import (
    MAX_VALUE_NODES,
    ProtocolError,
    ValueRejected,
    decode_value,
    encode_value,
    loads_untrusted,
)
from verifiers.sandbox._result import MAX_CHILD_FRAME_BYTES, ExecutionResult, TestOutcome
from verifiers.sandbox._stdio import run_output

if TYPE_CHECKING:
    from verifiers.sandbox import CodePool

__all__ = ["MBPP_NOT_NONE", "MBPP_SET_OUTPUT", "SPECIAL_ORACLES", "Converted", "EvalPlusProblem", "ProblemTests",
           "ReferenceRun", "Unjudgeable", "evalplus_row", "expected_outputs", "expected_run", "load_evalplus",
           "mbpp_plus_inputs", "problem_tests", "program_tests", "reference_outputs", "reference_run",
           "response_program", "run_program", "run_response"]

Compare = Literal["exact", "set", "not_none", "poly_root"]

# MBPP+ entry points EvalPlus compares specially (``evalplus/eval/_special_oracle.py``).
MBPP_SET_OUTPUT = frozenset({"similar_elements", "find_char_long", "common_in_nested_lists", "extract_singly",
                             "larg_nnum", "intersection_array", "find_dissimilar", "Diff"})
MBPP_NOT_NONE = frozenset({"check_str", "text_match_three", "text_starta_endb"})
# Entry points whose EvalPlus oracle is bespoke code (not reproduced; compared with the reference's outputs).
SPECIAL_ORACLES = frozenset({"are_equivalent", "sum_div", "surface_Area", "digit_distance_nums"})  # MBPP+
# HumanEval+'s find_zero: the answer must be a root of the polynomial (EvalPlus's ``_poly`` oracle): the
# judge evaluates this set-up function in this process, on the program's answer.
POLY_ORACLE = ("import math\n\n\ndef evalplus_poly(xs, x):\n"
               "    return sum(c * math.pow(x, i) for i, c in enumerate(xs))\n")
MAX_TEST_CHUNK = 250  # tests per sandboxed program: a problem with more runs as several programs (see run_program)
CHUNK_NODES = MAX_VALUE_NODES // 3  # expected-output values per program (the program's answers must fit the budget)
CHUNK_CHARS = 2_000_000  # test source per program (its inputs travel in one request frame)
TIME_FACTOR = 4.0  # a program's CPU limit: at least this times the reference's CPU on its inputs (EvalPlus's
# ``gt_time_limit_factor``), so a correct solution as fast as the reference is not timed out
MAX_REFERENCE_LIMITS = 3  # inputs on which the reference alone exceeds the CPU/memory limit: more is a DataError
CACHE_PROBLEMS = 2048  # problems whose reference outputs this process keeps
MAX_ROW_INPUTS = 100_000

# What runs in the sandbox to compute a reference's outputs: the reference, then this (``{entry}`` and
# ``{cap}`` filled in). It reads the argument lists (tagged JSON, see `verifiers.sandbox._protocol`) on
# stdin, calls the entry point on each, and prints one line per input: ``["v", value, cpu, base]`` (tagged;
# ``base``: the builtin type a value of a subclass, e.g. a ``Counter``, was converted to, else ""),
# ``["e", "Type: message", cpu]`` (raised) or ``["x", why, cpu]`` (a value it cannot send: not plain data, an
# int too long for ``str``, more than the output cap alone); ``cpu``: the call's CPU seconds. It stops
# before its output would pass ``cap`` bytes (the caller resumes from the first missing input). The
# reference's own prints are discarded. ``not_none``: each result is reported as whether it is not None (a
# bool as itself), as EvalPlus records MBPP+'s "not None" tasks.
REFERENCE_DRIVER = '''

def __evalplus_reference_driver(entry, cap, not_none):
    import json, sys, time
    tags = {{"t": tuple, "s": set, "z": frozenset}}

    def dec(t):
        if type(t) is list:
            return [dec(x) for x in t]
        if type(t) is not dict:
            return t
        ((tag, body),) = t.items()
        if tag == "d":
            return {{dec(k): dec(v) for k, v in body}}
        if tag == "b":
            return bytes.fromhex(body)
        if tag == "c":
            return complex(body[0], body[1])
        return tags[tag](dec(x) for x in body)

    def enc(v, depth=0):
        if depth > 100:
            raise TypeError("nested deeper than 100 levels")
        tv = type(v)
        if v is None or tv in (bool, int, float, str):
            return v
        if tv is list:
            return [enc(x, depth + 1) for x in v]
        if tv in (tuple, set, frozenset):
            return {{"t" if tv is tuple else "s" if tv is set else "z": [enc(x, depth + 1) for x in v]}}
        if tv is dict:
            return {{"d": [[enc(k, depth + 1), enc(x, depth + 1)] for k, x in v.items()]}}
        if tv is bytes:
            return {{"b": v.hex()}}
        if tv is complex:
            return {{"c": [v.real, v.imag]}}
        raise TypeError("returned a " + tv.__name__ + ", not plain data")

    class Sink:
        def write(self, s):
            return len(s)

        def flush(self):
            pass

    plain = (type(None), bool, int, float, str, list, tuple, set, frozenset, dict, bytes, complex)
    fn = globals()[entry]
    out, written = sys.stdout, 0
    for args in json.loads(sys.stdin.buffer.read()):
        sys.stdout = Sink()
        args = dec(args)
        t0 = time.process_time()
        try:
            r = fn(*args)
        except BaseException as e:
            line = json.dumps(["e", (type(e).__name__ + ": " + str(e))[:300], time.process_time() - t0])
        else:
            cpu, base = time.process_time() - t0, ""
            try:
                if not_none and type(r) is not bool:
                    r = r is not None
                if type(r) not in plain:
                    b = next((b for b in plain[2:] if isinstance(r, b)), None)
                    if b is not None:
                        r, base = b(r), b.__name__
                line = json.dumps(["v", enc(r), cpu, base])
            except BaseException as e:  # not plain data; an int too long for str(); too deep
                line = json.dumps(["x", (type(e).__name__ + ": " + str(e))[:200], cpu])
        finally:
            sys.stdout = out
        if len(line) + 1 > cap:
            line = json.dumps(["x", "an output of " + str(len(line)) + " bytes, over the output cap", cpu])
        if written + len(line) + 1 > cap:
            break
        out.write(line + "\\n")
        out.flush()
        written += len(line) + 1


__evalplus_reference_driver({entry!r}, {cap}, {not_none!r})
'''

Args = tuple[Any, ...]


@dataclass(frozen=True)
class Unjudgeable:
    """An expected output the judge cannot compare a program's answer with (not plain data, an int too long
    to print, a value over the judge's size limits): its input is left out of the problem's tests."""

    reason: str


@dataclass(frozen=True)
class Converted:
    """The reference returned an instance of a subclass of a builtin type (a ``Counter``, a numpy float):
    ``value`` is it converted to ``builtin``; the program's answer is compared through the same conversion
    (``dict(f(x)) == {...}``; the judge applies it to a program object in the sandbox)."""

    value: Any
    builtin: str


@dataclass(frozen=True)
class ReferenceRun:
    """A reference's results over inputs: each output (a value, `Converted` or `Unjudgeable`) and the
    CPU seconds its call took (as the reference measured it in the sandbox)."""

    outputs: tuple[Any, ...]
    cpu: tuple[float, ...]


@dataclass(frozen=True)
class ProblemTests:
    """A problem's judge tests: one assert per kept input; ``skipped``: input index -> why it is left out."""

    tests: tuple[str, ...]
    kept: tuple[int, ...]
    skipped: Mapping[int, str]
    nodes: tuple[int, ...] = ()  # size of each kept test's expected output (values), for chunking
    cpu: tuple[float, ...] = ()  # the reference's CPU seconds on each kept test's input (0: unknown)
    setup_code: str = ""  # what the tests read beside the program (`POLY_ORACLE`), evaluated in the parent


@dataclass(frozen=True)
class EvalPlusProblem:
    """One EvalPlus problem: the function to write, its base and plus inputs, and how outputs compare.

    Attributes:
        task_id: ``HumanEval/0``, ``Mbpp/2``.
        entry_point: the function a response must define.
        prompt: what the model is shown (HumanEval+: a signature and docstring a response may complete).
        reference: code defining ``entry_point`` that computes the expected outputs (``prompt +
            canonical_solution``).
        base_inputs, plus_inputs: argument lists (the original tests' inputs; EvalPlus's added ones).
        atol: EvalPlus's absolute tolerance (0: exact, floats get 1e-6; see `expected_output_tests`).
        compare: ``exact`` (EvalPlus's default rule), ``set`` (``set(out) == set(exp)``), ``not_none``
            (MBPP+: whether a value other than None was returned; a bool is compared as itself) or
            ``poly_root`` (HumanEval+ ``find_zero``: ``abs(poly(xs, out)) <= atol``).
        base_outputs, plus_outputs: expected outputs given in the row, or None (computed from ``reference``).
        special_oracle: the name of EvalPlus's bespoke oracle for this problem, not reproduced here ("" if none).
    """

    task_id: str
    entry_point: str
    prompt: str
    reference: str
    base_inputs: tuple[Args, ...]
    plus_inputs: tuple[Args, ...] = ()
    atol: float = 0.0
    compare: Compare = "exact"
    base_outputs: tuple[Any, ...] | None = None
    plus_outputs: tuple[Any, ...] | None = None
    special_oracle: str = ""

    def inputs(self, plus: bool = True) -> tuple[Args, ...]:
        """The base inputs, then (``plus``) the plus inputs."""
        return self.base_inputs + self.plus_inputs if plus else self.base_inputs


# ------------------------------------------------------------------------------------------- reading rows
def _args_list(raw: Any, field: str, where: str) -> tuple[Args, ...]:
    if raw == {}:  # MbppPlus v0.2.0 Mbpp/793: plus_input is {} (no plus inputs)
        return ()
    if not isinstance(raw, list):
        raise DataError(f"{where}: '{field}' must be a list of argument lists, got {type(raw).__name__}")
    if len(raw) > MAX_ROW_INPUTS:
        raise DataError(f"{where}: '{field}' has {len(raw)} inputs (at most {MAX_ROW_INPUTS})")
    for i, args in enumerate(raw):
        if not isinstance(args, (list, tuple)):
            raise DataError(f"{where}: {field}[{i}] must be a list of arguments, got {type(args).__name__}")
    return tuple(tuple(a) for a in raw)


def _tuples(v: Any) -> Any:
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v


def _each_tuple(items: Any) -> Any:
    return [tuple(x) for x in items]


# How MBPP+ rebuilds the arguments JSON cannot carry, per task number (after EvalPlus's
# ``evalplus/data/mbpp.py``, ``mbpp_deserialize_inputs``; MbppPlus v0.2.0): each rule maps one argument list.
_MBPP_ARG_RULES: list[tuple[frozenset[int], Callable[[list[Any]], list[Any]]]] = [
    (frozenset({2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616, 630, 726,
                740, 744, 809}), lambda a: _each_tuple(a)),  # every argument a tuple
    (frozenset({63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780}),
     lambda a: [_each_tuple(x) for x in a]),  # every argument a list of tuples
    (frozenset({75, 413, 444, 753}), lambda a: [_each_tuple(a[0]), *a[1:2]]),  # a list of tuples, then one value
    (frozenset({106, 750}), lambda a: [a[0], tuple(a[1])]),
    # a list of sets (an empty member is {}: EvalPlus's own quirk, kept so the expected outputs are its own)
    (frozenset({115}), lambda a: [[set(x) if isinstance(x, list) and x else {} for x in a[0]]]),
    (frozenset({124}), lambda a: [float(a[0]), complex(a[1])]),
    (frozenset({250, 405, 446, 617, 720, 763, 808}), lambda a: [tuple(a[0]), *a[1:2]]),
    (frozenset({259, 401, 445}), lambda a: [tuple(tuple(y) for y in x) for x in a]),  # tuples of tuples
    (frozenset({278}), lambda a: [tuple(tuple(x) if isinstance(x, list) else x for x in a[0])]),
    (frozenset({307}), lambda a: [tuple(a[0]), a[1], a[2]]),
    (frozenset({722}), lambda a: [{k: tuple(v) for k, v in a[0].items()}, *a[1:]]),
    (frozenset({252}), lambda a: [complex(a[0])]),
    (frozenset({580, 615, 791}), lambda a: [_tuples(x) for x in a]),  # every list, at any depth, a tuple
]


def mbpp_plus_inputs(task_id: str, inputs: Sequence[Sequence[Any]]) -> tuple[Args, ...]:
    """MBPP+ argument lists with the types JSON lost rebuilt (tuples, sets, complex numbers), by task number.

    Raises:
        DataError: an argument list does not have the shape its task's rule expects.
    """
    m = re.fullmatch(r"Mbpp/(\d+)", task_id)
    rule = next((f for ids, f in _MBPP_ARG_RULES if m and int(m.group(1)) in ids), None)
    if rule is None:
        return tuple(tuple(a) for a in inputs)
    try:
        return tuple(tuple(rule(list(a))) for a in inputs)
    except (TypeError, ValueError, IndexError, KeyError, AttributeError) as e:
        raise DataError(f"{task_id}: an input does not have the shape MBPP+ stores for this task ({e})") from None


def _atol(value: Any, where: str) -> float:
    if isinstance(value, bool):
        raise DataError(f"{where}: 'atol' must be a number, got {value!r}")
    try:
        atol = float(value)
    except (TypeError, ValueError):
        raise DataError(f"{where}: 'atol' must be a number, got {str(value)[:40]!r}") from None
    if not (math.isfinite(atol) and atol >= 0):
        raise DataError(f"{where}: 'atol' must be a finite number >= 0, got {value!r}")
    return atol


def _outputs(row: Mapping[str, Any], field: str, n: int, where: str) -> tuple[Any, ...] | None:
    if field not in row:
        return None
    out = row[field]
    if not isinstance(out, list) or len(out) != n:
        raise DataError(f"{where}: '{field}' must be a list of {n} outputs (one per input)")
    return tuple(out)


def evalplus_row(row: Mapping[str, Any], where: str = "row") -> EvalPlusProblem:
    """One EvalPlus row (HumanEval+ or MBPP+, told apart by its ``task_id``) as an `EvalPlusProblem`.

    Raises:
        DataError: one line naming ``where`` and what is wrong (a missing or mistyped field, inputs that are
            not argument lists, a bad ``atol``, outputs of the wrong length).
    """
    if not isinstance(row, Mapping):
        raise DataError(f"{where}: a row must be a JSON object, got {type(row).__name__}")
    missing = [k for k in ("task_id", "entry_point", "prompt", "canonical_solution") if not isinstance(row.get(k), str)]
    if missing or "base_input" not in row:
        raise DataError(f"{where}: not an EvalPlus row: no string field(s) {missing or ['base_input']}"
                        f" (fields: {sorted(map(str, row))[:12]})")
    task_id, entry = str(row["task_id"]), str(row["entry_point"])
    where = f"{where} ({task_id})"
    if not entry.isidentifier():
        raise DataError(f"{where}: 'entry_point' {entry[:40]!r} is not a Python identifier")
    base = _args_list(row["base_input"], "base_input", where)
    plus = _args_list(row.get("plus_input", []), "plus_input", where)
    if not base and not plus:
        raise DataError(f"{where}: no inputs ('base_input' and 'plus_input' are empty)")
    mbpp = task_id.startswith("Mbpp/")
    if mbpp:
        base, plus = mbpp_plus_inputs(task_id, base), mbpp_plus_inputs(task_id, plus)
    compare: Compare = ("set" if entry in MBPP_SET_OUTPUT else "not_none" if entry in MBPP_NOT_NONE
                        else "exact") if mbpp else "poly_root" if entry == "find_zero" else "exact"
    special = entry if mbpp and entry in SPECIAL_ORACLES else ""
    return EvalPlusProblem(task_id, entry, str(row["prompt"]), str(row["prompt"]) + str(row["canonical_solution"]),
                           base, plus, _atol(row.get("atol", 0), where), compare,
                           _outputs(row, "base_output", len(base), where),
                           _outputs(row, "plus_output", len(plus), where), special)


def _lines(path: Path) -> Iterator[str]:
    opener: Any = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        yield from f


def load_evalplus(path: str | Path) -> list[EvalPlusProblem]:
    """Every row of an EvalPlus JSON-lines file (``.jsonl``, or ``.jsonl.gz``) as `EvalPlusProblem` s.

    Raises:
        DataError: one line: the file is missing or unreadable, a line is not JSON, a row is malformed.
    """
    p = Path(path)
    if not p.is_file():
        raise DataError(f"{p}: no such file (HumanEval+/MBPP+ data: see evals/sandbox/EVALPLUS_SOURCE.md)")
    out: list[EvalPlusProblem] = []
    try:
        for i, line in enumerate(_lines(p)):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise DataError(f"{p.name} line {i + 1}: not JSON ({e.msg})") from None
            out.append(evalplus_row(row, f"{p.name} line {i + 1}"))
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise DataError(f"{p}: cannot read ({type(e).__name__}: {e})") from None
    if not out:
        raise DataError(f"{p}: no rows")
    return out


# -------------------------------------------------------------------------------- reference outputs
class _Cache:
    """Reference runs by (reference, entry point, inputs), least recently used dropped."""

    def __init__(self, size: int) -> None:
        self.size, self.lock, self.data = size, threading.Lock(), OrderedDict[bytes, ReferenceRun]()

    @staticmethod
    def key(*parts: Any) -> bytes:
        return hashlib.sha256(json.dumps(parts).encode()).digest()

    def get(self, key: bytes) -> ReferenceRun | None:
        with self.lock:
            if key in self.data:
                self.data.move_to_end(key)
                return self.data[key]
            return None

    def put(self, key: bytes, value: ReferenceRun) -> None:
        with self.lock:
            self.data[key] = value
            while len(self.data) > self.size:
                self.data.popitem(last=False)


_CACHE = _Cache(CACHE_PROBLEMS)


def reference_run(pool: CodePool, reference: str, entry_point: str, inputs: Sequence[Sequence[Any]], *,
                  timeout_s: float | None = None, not_none: bool = False) -> ReferenceRun:
    """What ``reference`` (code defining ``entry_point``) returns for each argument list, and the CPU each
    call took, computed in the sandbox of ``pool`` (as a stdin/stdout program, `REFERENCE_DRIVER`) and cached
    in this process.

    Each run computes as many outputs as fit in the pool's ``max_stdio_output_bytes`` and its CPU limit
    (``timeout_s``, default the pool's); the next run resumes at the first missing input. An output the judge
    could not compare a program's answer with, or an input on which the reference raises or alone exceeds the
    CPU or memory limit, comes back as `Unjudgeable` (with why). ``not_none``: each output is whether the
    reference returned something other than None (a bool: itself).

    Raises:
        ConfigError: ``entry_point`` is not an identifier, or an input is not plain data.
        DataError: the reference does not compile or run (no output at all), or exceeds the limits alone on
            more than `MAX_REFERENCE_LIMITS` inputs.
    """
    if not entry_point.isidentifier():
        raise ConfigError(f"entry_point must be a Python identifier, got {entry_point[:40]!r}")
    try:
        wire = [encode_value(list(a)) for a in inputs]
    except ValueRejected as e:
        raise ConfigError(f"reference inputs must be plain data: {e}") from None
    key = _Cache.key(reference, entry_point, bool(not_none), wire)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    cap = int(pool.max_stdio_output_bytes)
    code = reference + REFERENCE_DRIVER.format(entry=entry_point, cap=cap, not_none=bool(not_none))
    timeout = float(timeout_s) if timeout_s is not None else float(pool.timeout_s)
    outputs: list[Any] = []
    cpu: list[float] = []
    limited = 0
    while len(outputs) < len(wire):
        start = len(outputs)
        rec = pool.submit_run(code, json.dumps(wire[start:]).encode(), timeout).result()
        got = _parse_reference_lines(run_output(rec).decode("utf-8", "surrogateescape"), entry_point, start)
        claimed = sum(c for _, c in got)  # the driver's split of the run's CPU; its total is the sandbox's
        scale = min(1.0, rec.cpu_s / claimed) if claimed > 0 else 0.0
        outputs += [o for o, _ in got]
        cpu += [c * scale for _, c in got]
        if got:
            continue
        if rec.status in ("timeout", "memory") and limited < MAX_REFERENCE_LIMITS:
            limited += 1  # this input alone is over the limit: left out, the rest still computed
            outputs.append(Unjudgeable(f"the reference exceeded the {rec.status} limit on this input alone"))
            cpu.append(timeout)
            continue
        why = f"{rec.status}: {rec.detail}" if not rec.passed else f"the pool's max_stdio_output_bytes={cap} is too small"
        raise DataError(f"the reference {entry_point} gave no output for input {start} ({why[:200]})")
    result = ReferenceRun(tuple(outputs), tuple(cpu))
    _CACHE.put(key, result)
    return result


def reference_outputs(pool: CodePool, reference: str, entry_point: str, inputs: Sequence[Sequence[Any]], *,
                      timeout_s: float | None = None, not_none: bool = False) -> tuple[Any, ...]:
    """`reference_run`'s outputs."""
    return reference_run(pool, reference, entry_point, inputs, timeout_s=timeout_s, not_none=not_none).outputs


def _cpu(x: Any) -> float:
    return min(float(x), 1e6) if type(x) in (int, float) and math.isfinite(x) and x > 0 else 0.0


def _parse_reference_lines(stdout: str, entry_point: str, start: int) -> list[tuple[Any, float]]:
    """The (output, CPU seconds) pairs in a driver run's stdout (complete lines only). An output is a value,
    `Converted`, or `Unjudgeable` when the judge cannot compare a program's answer with it: the reference
    raised, the driver could not send the value, or it is over the judge's per-value limits (which a
    program's answer must fit too). `DataError` for a malformed line."""
    out: list[tuple[Any, float]] = []
    for line in stdout.split("\n")[:-1]:  # the last piece is empty or a cut line
        i = start + len(out)
        raw = line.encode("utf-8", "surrogateescape")
        try:
            fr = loads_untrusted(raw)
            if type(fr) is not list or not 3 <= len(fr) <= 4 or fr[0] not in ("v", "e", "x") or (
                    fr[0] == "v") != (len(fr) == 4):
                raise ProtocolError("not a driver line")
        except ProtocolError as e:
            raise DataError(f"the reference {entry_point}'s output for input {i} is unreadable ({e})") from None
        cpu = _cpu(fr[2])
        if fr[0] == "e":
            out.append((Unjudgeable(f"the reference raised {str(fr[1])[:200]}"), cpu))
        elif fr[0] == "x":
            out.append((Unjudgeable(str(fr[1])[:200]), cpu))
        elif len(raw) > MAX_CHILD_FRAME_BYTES:
            out.append((Unjudgeable(f"an output of {len(raw)} bytes, over the judge's {MAX_CHILD_FRAME_BYTES}"), cpu))
        else:
            try:
                value = decode_value(fr[1], [CHUNK_NODES])
            except ValueRejected as e:
                out.append((Unjudgeable(f"an output the judge cannot take ({e})"), cpu))
                continue
            base = fr[3] if fr[3] in _CONVERSIONS else ""
            out.append((Converted(value, base) if base else value, cpu))
    return out


_CONVERSIONS = frozenset({"int", "float", "str", "list", "tuple", "set", "frozenset", "dict", "bytes", "complex"})


def _reference_part(problem: EvalPlusProblem, pool: CodePool, given: tuple[Any, ...] | None,
                    inputs: tuple[Args, ...], timeout_s: float | None) -> ReferenceRun:
    if given is not None or not inputs:
        out = given[:len(inputs)] if given is not None else ()
        return ReferenceRun(out, (0.0,) * len(out))
    return reference_run(pool, problem.reference, problem.entry_point, inputs, timeout_s=timeout_s,
                         not_none=problem.compare == "not_none")


def expected_run(problem: EvalPlusProblem, pool: CodePool, *, plus: bool = True,
                 timeout_s: float | None = None) -> ReferenceRun:
    """The problem's expected outputs for `EvalPlusProblem.inputs` (``plus``) and the reference's CPU on
    each: the row's outputs (CPU unknown: 0), or its reference's (`reference_run`, cached)."""
    base = _reference_part(problem, pool, problem.base_outputs, problem.base_inputs, timeout_s)
    extra = _reference_part(problem, pool, problem.plus_outputs, problem.plus_inputs if plus else (), timeout_s)
    return ReferenceRun(base.outputs + extra.outputs, base.cpu + extra.cpu)


def expected_outputs(problem: EvalPlusProblem, pool: CodePool, *, plus: bool = True,
                     timeout_s: float | None = None) -> tuple[Any, ...]:
    """`expected_run`'s outputs."""
    return expected_run(problem, pool, plus=plus, timeout_s=timeout_s).outputs


# ------------------------------------------------------------------------------------- judging programs
def _nodes(v: Any) -> int:
    if isinstance(v, (list, tuple, set, frozenset)):
        return 1 + sum(_nodes(x) for x in v)
    if isinstance(v, dict):
        return 1 + sum(_nodes(k) + _nodes(x) + 1 for k, x in v.items())
    return 1


def _one_test(problem: EvalPlusProblem, i: int, args: Args, exp: Any) -> str:
    call = f"{problem.entry_point}({', '.join(literal(a, f'inputs[{i}]') for a in args)})"
    if problem.compare == "exact":
        if not isinstance(exp, Converted):
            return expected_output_tests(problem.entry_point, [args], [exp], problem.atol)[0]
        # the program's answer goes through the same conversion: `expected_output_tests`'s one call of the
        # entry point (its first occurrence, the test's only one) becomes ``builtin(call)``
        test = expected_output_tests(problem.entry_point, [args], [exp.value], problem.atol)[0]
        at = test.index(call)
        return f"{test[:at]}{exp.builtin}({call}){test[at + len(call):]}"
    exp = exp.value if isinstance(exp, Converted) else exp
    if problem.compare == "set":
        try:
            return f"assert set({call}) == {literal(set(exp), f'outputs[{i}]')}"
        except TypeError:  # unhashable members: no set to compare with (EvalPlus's set() would raise too)
            return f"assert {call} == {literal(exp, f'outputs[{i}]')}"
    if problem.compare == "poly_root":  # the answer is a root (the reference's output is not needed)
        return f"assert abs(evalplus_poly({literal(args[0], f'inputs[{i}]')}, {call})) <= {problem.atol or 1e-6!r}"
    # not_none: True/False for itself, any other value as "not None" (repr: a match object too)
    return f"assert (repr({call}) not in ('None', 'False')) == {bool(exp)!r}"


def program_tests(problem: EvalPlusProblem, outputs: Sequence[Any], *, plus: bool = True,
                  cpu: Sequence[float] = ()) -> ProblemTests:
    """The judge tests of ``problem`` given its expected ``outputs`` (for ``problem.inputs(plus)``; ``cpu``:
    the reference's CPU seconds per input, if known): one assert per input, `expected_output_tests`'s (exact
    or EvalPlus's float rule; a `Converted` output through its conversion), or the MBPP+ set / not-None
    comparisons. An input whose output is `Unjudgeable`, or whose test the judge refuses (longer than
    `_judge.MAX_TEST_CHARS`), is left out and listed in ``skipped`` with why."""
    inputs = problem.inputs(plus)
    if len(outputs) != len(inputs):
        raise ConfigError(f"{problem.task_id}: {len(outputs)} outputs for {len(inputs)} inputs")
    costs = list(cpu) + [0.0] * (len(inputs) - len(cpu))
    tests: list[str] = []
    kept: list[int] = []
    nodes: list[int] = []
    skipped: dict[int, str] = {}
    for i, (args, exp) in enumerate(zip(inputs, outputs)):
        if isinstance(exp, Unjudgeable):
            skipped[i] = exp.reason
            continue
        try:
            tests.append(_one_test(problem, i, args, exp))
        except ConfigError as e:
            skipped[i] = str(e).replace("inputs[0] and outputs[0]", "the input and output")[:200]
            continue
        kept.append(i)
        nodes.append(_nodes(exp.value if isinstance(exp, Converted) else exp))
    return ProblemTests(tuple(tests), tuple(kept), skipped, tuple(nodes), tuple(costs[i] for i in kept),
                        POLY_ORACLE if problem.compare == "poly_root" else "")


def _chunks(t: ProblemTests, chunk: int) -> Iterator[tuple[list[str], float]]:
    """The tests in programs of at most ``chunk`` tests, `CHUNK_NODES` expected values and `CHUNK_CHARS`,
    each with the reference's CPU seconds on its inputs."""
    part: list[str] = []
    nodes = chars = 0
    cpu = 0.0
    for test, n, c in zip(t.tests, t.nodes, t.cpu or (0.0,) * len(t.tests)):
        if part and (len(part) >= chunk or nodes + n > CHUNK_NODES or chars + len(test) > CHUNK_CHARS):
            yield part, cpu
            part, nodes, chars, cpu = [], 0, 0, 0.0
        part.append(test)
        nodes, chars, cpu = nodes + n, chars + len(test), cpu + c
    if part:
        yield part, cpu


def response_program(response: str, problem: EvalPlusProblem) -> str | None:
    """The program to run for a model ``response``: its code (a tagged or fenced block, or plain code), or a
    bare continuation of the prompt; when the prompt defines the entry point (HumanEval+), a completion of it
    or a restated function, as for HumanEval (`verifiers.humaneval.program`). None when no code is found."""
    code, _ = extract_code(response)
    defines = re.search(rf"^\s*def\s+{re.escape(problem.entry_point)}\s*\(", problem.prompt, re.MULTILINE)
    if code is None:
        first = next((ln for ln in response.splitlines() if ln.strip()), "")
        if not (defines and first[:1].isspace()):
            return None
        code = response.strip("\n")
    return program(code, problem.prompt, problem.entry_point) if defines else code


def _merge(parts: list[ExecutionResult]) -> ExecutionResult:
    """One result for a problem run as several programs: passed when all passed; the first failure's
    status and detail; tests, output and time summed in order."""
    bad = next((r for r in parts if not r.passed), None)
    per: tuple[TestOutcome, ...] = tuple(t for r in parts for t in r.per_test)
    return ExecutionResult(bad is None, bad.status if bad else "passed", sum(r.tests_passed for r in parts),
                           sum(r.tests_total for r in parts), per, "".join(r.stdout for r in parts)[:8192],
                           "".join(r.stderr for r in parts)[:8192], sum(r.duration_s for r in parts),
                           bad.detail if bad else "", sum(r.cpu_s for r in parts))


def problem_tests(problem: EvalPlusProblem, pool: CodePool, *, plus: bool = True,
                  timeout_s: float | None = None) -> ProblemTests:
    """`program_tests` over `expected_run` (computed in ``pool`` once, then cached)."""
    ran = expected_run(problem, pool, plus=plus, timeout_s=timeout_s)
    return program_tests(problem, ran.outputs, plus=plus, cpu=ran.cpu)


def run_program(code: str, problem: EvalPlusProblem, pool: CodePool, *, plus: bool = True,
                timeout_s: float | None = None, chunk: int = MAX_TEST_CHUNK) -> ExecutionResult:
    """Judge ``code`` on the problem's base (and ``plus``) inputs in ``pool``'s sandboxes (the inputs
    `problem_tests` keeps; none kept: status ``no_tests``, never a pass).

    A problem with more tests than one program takes (``chunk`` tests, `CHUNK_NODES` expected values,
    `CHUNK_CHARS` of test source) runs as several programs, merged into one result. Each program's CPU
    limit is ``timeout_s`` (default the pool's) or `TIME_FACTOR` times the reference's CPU on its inputs,
    whichever is larger.

    Raises:
        DataError: the expected outputs cannot be computed (see `reference_run`).
    """
    t = problem_tests(problem, pool, plus=plus, timeout_s=timeout_s)
    floor = float(timeout_s) if timeout_s is not None else float(pool.timeout_s)
    futs: list[Future[ExecutionResult]] = [pool.submit(code, part, t.setup_code, max(floor, TIME_FACTOR * cpu))
                                           for part, cpu in _chunks(t, max(1, chunk))]
    if not futs:
        return pool.submit(code, [], "", timeout_s).result()
    parts = [f.result() for f in futs]
    return parts[0] if len(parts) == 1 else _merge(parts)


def run_response(response: str, problem: EvalPlusProblem, pool: CodePool, *, plus: bool = True,
                 timeout_s: float | None = None) -> ExecutionResult:
    """`response_program` of a model ``response``, judged by `run_program` (no code found: every test
    ``not_run``, status ``syntax_error``)."""
    code = response_program(response, problem)
    if code is None:
        n = len(problem.inputs(plus))
        return ExecutionResult(False, "syntax_error", 0, n, detail="no code found in the response")
    return run_program(code, problem, pool, plus=plus, timeout_s=timeout_s)
