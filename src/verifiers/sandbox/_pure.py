"""What the judge may compute in the parent on a program's (decoded, plain) values: pure functions and
methods of builtin types and of the modules in `PARENT_MODULES`, each with a bound on its work.

Everything here runs on trusted, pristine objects of this process: a program's values arrive as exact
builtin types (`_protocol.decode_value`), so no program code runs. What is not listed is not evaluated
here, and the judge refuses a test that would need it on a program value (it never asks the sandbox to
evaluate a comparison or a test value instead). Bounds: results of at most `MAX_REPEAT_LEN` items or
`MAX_TEXT` characters, powers and factorials of bounded size, lazy results cut at `MAX_ITEMS` items,
regular expressions only over strings of at most `MAX_REGEX_INPUT` characters (the pattern is the
dataset's; the string may be the program's), hash floods refused (`_protocol.check_hash_flood`).
"""

from __future__ import annotations

import ast
import bisect
import builtins
import cmath
import collections
import datetime
import decimal
import fractions
import functools
import heapq
import importlib
import itertools
import json
import math
import operator
import random
import re
import statistics
import string
import sys
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import regex

from verifiers.sandbox._protocol import MAX_SAME_HASH, check_hash_flood

# Modules whose names resolve in the parent (pure computation; no files, processes or environment).
# `random` resolves to a private generator per set-up scope or test (`parent_module`), never the process's.
PARENT_MODULES = frozenset({
    "math", "cmath", "sys", "re", "string", "collections", "itertools", "functools", "heapq", "bisect",
    "operator", "statistics", "decimal", "fractions", "json", "copy", "datetime", "random", "typing",
    "textwrap",
})
# Builtins a test or closed set-up code may use in the parent; the rest (files, imports, eval, output,
# introspection of frames) are program-side names: a test that needs them runs them in the sandbox.
UNSAFE_BUILTINS = frozenset({
    "open", "exec", "eval", "compile", "input", "print", "breakpoint", "exit", "quit", "help", "globals",
    "locals", "vars", "memoryview", "copyright", "credits", "license", "__import__", "__loader__", "__spec__",
    "__build_class__", "setattr", "delattr",
})
PARENT_BUILTINS = frozenset(n for n in dir(builtins) if n not in UNSAFE_BUILTINS)

MAX_REPEAT_LEN = 100_000  # items of a repeated sequence or a range built from a program value
MAX_TEXT = 10_000_000  # characters of a string built from a program value
MAX_POW_BITS = 1_000_000
MAX_FACTORIAL_ARG = 5_000
MAX_ITEMS = 100_000  # items a lazy result (itertools, map, zip...) may yield in the judge
MAX_REGEX_INPUT = 10_000
MAX_REGEX_S = 0.05  # wall time one regular-expression call may take in the judge (`regex`'s own timeout)
# Judge work per PROGRAM, across all its tests: one step per plan node evaluated and per loop item, plus,
# inside loops over program values, the size of every operand (a loop multiplies the work of its body). A
# program that exceeds it fails its remaining tests. Measured: MBPP's reference programs (974 + 427
# sanitized + challenge tests) need at most 21 steps; a loop over a 5,000-item value with a two-sided
# comparison about 25,000; spending it all costs the parent ~0.1 s of CPU on this project's 2-core VM.
MAX_JUDGE_STEPS = 100_000


class Unsafe(Exception):
    """An operation the parent refuses on program values (its result or its work would be unbounded)."""


def private_random() -> types.ModuleType:
    """A stand-in for `random` whose functions draw from a generator of its own: seeding or drawing in one
    set-up scope or test never touches the process's generator, another test's, or another thread's."""
    rng = random.Random()
    mod = types.ModuleType("random", random.__doc__)
    for n in random.__all__:
        v = getattr(random, n)
        setattr(mod, n, getattr(rng, n) if getattr(v, "__self__", None) is random._inst else v)  # type: ignore[attr-defined]
    return mod


def parent_module(name: str, cache: dict[str, Any] | None = None) -> Any:
    """The parent's module ``name`` (dotted names too) of `PARENT_MODULES`; `random` is `private_random`,
    one per ``cache`` (a set-up scope or a test), so that ``random.seed(0)`` there seeds what it draws."""
    if name.split(".")[0] != "random":
        return importlib.import_module(name)
    if cache is None:
        return private_random()
    if "random" not in cache:
        cache["random"] = private_random()
    return cache["random"]


def _restricted_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
    if level != 0 or name.split(".")[0] not in PARENT_MODULES:
        raise ImportError(f"the judge imports only {', '.join(sorted(PARENT_MODULES))} (not {name!r})")
    if name.split(".")[0] == "random":
        return parent_module(name)
    return __import__(name, globals, locals, fromlist, level)


def parent_builtins() -> dict[str, Any]:
    """A fresh ``__builtins__`` for trusted test and set-up code run in the parent."""
    env = {n: getattr(builtins, n) for n in PARENT_BUILTINS}
    env["__build_class__"] = builtins.__build_class__  # closed `class` statements of set-up code
    env["__import__"] = _restricted_import
    return env


# ------------------------------------------------------------------------------------------------ guards


def guard_int(n: Any, bound: int, what: str) -> None:
    if type(n) is int and abs(n) > bound:
        raise Unsafe(f"{what} argument too large to evaluate in the judge")


def guarded_pow(a: Any, b: Any, m: Any = None) -> Any:
    if m is None and type(a) is int and type(b) is int and b > 0 and a.bit_length() * b > MAX_POW_BITS:
        raise Unsafe("power too large to evaluate in the judge")
    return pow(a, b) if m is None else pow(a, b, m)


def _repeat_guard(a: Any, b: Any) -> None:
    for seq, times in ((a, b), (b, a)):
        if isinstance(seq, (str, bytes, list, tuple)) and type(times) is int:
            limit = MAX_TEXT if isinstance(seq, (str, bytes)) else MAX_REPEAT_LEN
            if len(seq) * max(times, 0) > limit:
                raise Unsafe("sequence repeat too large to evaluate in the judge")


def guarded_mul(a: Any, b: Any) -> Any:
    _repeat_guard(a, b)
    return a * b


def guarded_lshift(a: Any, b: Any) -> Any:
    if type(b) is int and b > MAX_POW_BITS:
        raise Unsafe("shift too large to evaluate in the judge")
    return a << b


def guarded_mod(a: Any, b: Any) -> Any:
    if isinstance(a, (str, bytes)):
        raise Unsafe("%-formatting is not evaluated in the judge")
    return a % b


BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: guarded_mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: guarded_mod, ast.Pow: guarded_pow, ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.LShift: guarded_lshift, ast.RShift: operator.rshift,
}
CMPOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}


# Closed test expressions (the dataset's own, evaluated once when a test is planned) get looser bounds:
# they may be large, but never take the trainer's memory (``[0] * 10 ** 12`` fails that test instead).
MAX_CLOSED_ITEMS = 10_000_000
MAX_CLOSED_POW_BITS = 10_000_000


def _closed_mul(a: Any, b: Any) -> Any:
    for seq, times in ((a, b), (b, a)):
        if isinstance(seq, (str, bytes, list, tuple)) and type(times) is int and len(seq) * max(times, 0) > MAX_CLOSED_ITEMS:
            raise Unsafe("sequence repeat too large for the judge")
    return a * b


def _closed_pow(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b > 0 and a.bit_length() * b > MAX_CLOSED_POW_BITS:
        raise Unsafe("power too large for the judge")
    return a ** b


def _closed_lshift(a: Any, b: Any) -> Any:
    if type(b) is int and b > MAX_CLOSED_POW_BITS:
        raise Unsafe("shift too large for the judge")
    return a << b


# Names the judge's closed-expression compiler calls instead of ``*``, ``**`` and ``<<``.
CLOSED_GUARDS: dict[type, tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Mult: ("__judge_mul__", _closed_mul), ast.Pow: ("__judge_pow__", _closed_pow),
    ast.LShift: ("__judge_lshift__", _closed_lshift),
}


def capped(it: Iterable[Any]) -> Iterator[Any]:
    """``it``, refusing to yield more than `MAX_ITEMS` items (combinatorial or endless iterators)."""
    for n, x in enumerate(it):
        if n >= MAX_ITEMS:
            raise Unsafe(f"more than {MAX_ITEMS} items from a lazy result in the judge")
        yield x


def _lazy(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def call(*args: Any, **kw: Any) -> Any:
        return capped(fn(*args, **kw))
    return call


def materialize(xs: Any) -> list[Any]:
    """A list of ``xs``'s items, at most `MAX_ITEMS` of them for a lazy iterable."""
    if isinstance(xs, (list, tuple, set, frozenset, dict, str, bytes, range)):
        return list(xs)
    return list(capped(xs))


def _hashing(ctor: Callable[..., Any]) -> Callable[..., Any]:
    """``ctor`` (set, frozenset, dict, Counter...) refusing members crafted to share one hash (a quadratic build)."""
    def build(*args: Any, **kw: Any) -> Any:
        if args and not isinstance(args[0], (str, bytes, range)) and isinstance(args[0], Iterable):
            items = args[0]
            if isinstance(items, dict):
                keys = list(items)
            else:
                items = materialize(items)
                keys = [p[0] if ctor in _PAIRS and isinstance(p, (list, tuple)) and p else p for p in items]
            if len(keys) > MAX_SAME_HASH:
                check_hash_flood(keys)
            args = (items, *args[1:])
        return ctor(*args, **kw)
    return build


_PAIRS: set[Any] = {dict, collections.OrderedDict}


def _range(*args: Any) -> range:
    r = range(*args)
    if len(r) > MAX_REPEAT_LEN:
        raise Unsafe("range too long to evaluate in the judge")
    return r


def _factorial(n: Any) -> Any:
    guard_int(n, MAX_FACTORIAL_ARG, "factorial")
    return math.factorial(n)


def _comb(n: Any, k: Any) -> Any:
    guard_int(n, MAX_FACTORIAL_ARG, "comb")
    return math.comb(n, k)


def _perm(n: Any, k: Any = None) -> Any:
    guard_int(n, MAX_FACTORIAL_ARG, "perm")
    return math.perm(n, k)


def _prod(xs: Any, start: Any = 1) -> Any:
    out = start
    for x in capped(xs):
        out = guarded_mul(out, x)
        if type(out) is int and out.bit_length() > MAX_POW_BITS:
            raise Unsafe("product too large to evaluate in the judge")
    return out


def _sum(xs: Any, start: Any = 0) -> Any:
    if isinstance(start, (int, float, complex)):
        return sum(capped(xs), start)
    out, work = start, 0  # sequences: each step copies what was accumulated, so bound the total copying
    for x in capped(xs):
        out = out + x
        work += len(out) if hasattr(out, "__len__") else 1
        if work > MAX_TEXT:
            raise Unsafe("sum of sequences too large to evaluate in the judge")
    return out


def _round(x: Any, ndigits: Any = None) -> Any:
    guard_int(ndigits, 1000, "round")
    return round(x) if ndigits is None else round(x, ndigits)


def _format(value: Any, spec: Any = "") -> str:
    if type(spec) is str and re.search(r"\d{6,}", spec):
        raise Unsafe("format width too large to evaluate in the judge")
    return format(value, spec)


def _bytes(*args: Any) -> bytes:
    if args and type(args[0]) is int:
        guard_int(args[0], MAX_TEXT, "bytes")
    return bytes(*args)


# `re` flags as the `regex` module spells them (ASCII differs; DEBUG has no counterpart there).
_RE_FLAGS = {int(re.ASCII): int(regex.ASCII), **{int(f): int(f) for f in (
    re.IGNORECASE, re.LOCALE, re.MULTILINE, re.DOTALL, re.UNICODE, re.VERBOSE)}}
# Where each `re` function takes its flags positionally (the pattern is always the first argument).
_FLAGS_AT = {"match": 2, "fullmatch": 2, "search": 2, "findall": 2, "finditer": 2, "split": 3, "sub": 4, "subn": 4,
             "compile": 1}


def _regex_flags(flags: Any) -> int:
    if isinstance(flags, re.RegexFlag) or type(flags) is int:
        out = 0
        for bit in range(max(int(flags).bit_length(), 1)):
            if int(flags) >> bit & 1:
                if 1 << bit not in _RE_FLAGS:
                    raise Unsafe(f"regular-expression flag {1 << bit} is not evaluated by the judge")
                out |= _RE_FLAGS[1 << bit]
        return out
    raise TypeError(f"regular-expression flags must be int, not {type(flags).__name__}")


@functools.lru_cache(maxsize=1024)
def _bounded_pattern(pattern: str | bytes, flags: int) -> Any:
    return regex.compile(pattern, _regex_flags(flags) | regex.VERSION0)


def _as_bounded(p: Any) -> Any:
    """A `re.Pattern` as the `regex` module's (same pattern and flags, `re`-compatible VERSION0)."""
    return _bounded_pattern(p.pattern, p.flags) if type(p) is re.Pattern else p


def _check_inputs(args: Iterable[Any]) -> None:
    for a in args:
        if isinstance(a, (str, bytes)) and len(a) > MAX_REGEX_INPUT:
            raise Unsafe(f"a string of more than {MAX_REGEX_INPUT} characters under a regular expression")


def _timed(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    try:
        out = fn(*args, **kw, timeout=MAX_REGEX_S)
    except TimeoutError as exc:
        raise Unsafe(f"a regular expression ran longer than {MAX_REGEX_S} s on a program value") from exc
    if isinstance(out, Iterator):
        return capped(_timed_items(out))
    return out


def _timed_items(it: Iterator[Any]) -> Iterator[Any]:
    try:
        yield from it
    except TimeoutError as exc:
        raise Unsafe(f"a regular expression ran longer than {MAX_REGEX_S} s on a program value") from exc


def _regex(name: str) -> Callable[..., Any]:
    """``re.<name>`` evaluated by the `regex` module in its `re`-compatible mode, each call bounded in time
    (a test's pattern with nested quantifiers backtracks exponentially on a short program string)."""
    at = _FLAGS_AT.get(name)

    @functools.wraps(getattr(re, name))
    def call(*args: Any, **kw: Any) -> Any:
        _check_inputs((*args, *kw.values()))
        if name == "escape":
            return re.escape(*args, **kw)
        args_l = list(args)
        flags = kw.pop("flags", args_l.pop(at) if at is not None and len(args_l) > at else 0)
        if not args_l:
            raise TypeError(f"re.{name}() missing the pattern")
        p = args_l[0]
        if type(p) is re.Pattern or isinstance(p, regex.Pattern):
            if flags:
                raise ValueError("cannot process flags argument with a compiled pattern")
            args_l[0] = _as_bounded(p)
        elif isinstance(p, (str, bytes)):
            args_l[0] = _bounded_pattern(p, flags)
        if name == "compile":
            return args_l[0]
        return _timed(getattr(args_l[0], name), *args_l[1:], **kw)
    return call


def _regex_method(name: str) -> Callable[..., Any]:
    """``Pattern.<name>`` (of `re` or `regex`) evaluated by the `regex` module, bounded in time."""
    def call(p: Any, *args: Any, **kw: Any) -> Any:
        _check_inputs((*args, *kw.values()))
        return _timed(getattr(_as_bounded(p), name), *args, **kw)
    call.__name__ = name
    return call


def _deque(items: Any = (), maxlen: Any = None) -> collections.deque[Any]:
    return collections.deque(materialize(items), maxlen)


def _reduce(fn: Any, xs: Any, *init: Any) -> Any:
    return functools.reduce(fn, capped(xs), *init)


def _json_loads(s: Any) -> Any:
    if isinstance(s, (str, bytes)) and len(s) > MAX_TEXT:
        raise Unsafe("json.loads of a text too large to evaluate in the judge")
    return json.loads(s)


def _json_dumps(v: Any, **kw: Any) -> str:
    # No `indent` (its output grows with depth times width) and no `default` (a hook would run code).
    other = set(kw) - {"sort_keys", "separators", "ensure_ascii"}
    if other:
        raise Unsafe(f"json.dumps with {', '.join(sorted(other))} is not evaluated in the judge")
    out = json.dumps(v, **kw)
    if len(out) > MAX_TEXT:
        raise Unsafe("json.dumps result too large to evaluate in the judge")
    return out


def _operator_funcs() -> dict[str, Callable[..., Any]]:
    names = ["lt", "le", "eq", "ne", "ge", "gt", "not_", "truth", "is_", "is_not", "abs", "add", "and_",
             "floordiv", "index", "inv", "invert", "neg", "or_", "pos", "rshift", "sub", "truediv", "xor",
             "concat", "contains", "countOf", "indexOf", "getitem", "itemgetter", "attrgetter",
             "length_hint"]
    out: dict[str, Callable[..., Any]] = {n: getattr(operator, n) for n in names}
    out.update({"mul": guarded_mul, "pow": guarded_pow, "lshift": guarded_lshift, "mod": guarded_mod})
    return out


def _module_funcs() -> dict[str, Callable[..., Any]]:
    out: dict[str, Callable[..., Any]] = {}
    for mod in (math, cmath):
        out.update({f"{mod.__name__}.{n}": getattr(mod, n) for n in dir(mod)
                    if not n.startswith("_") and callable(getattr(mod, n))})
    out.update({"math.factorial": _factorial, "math.comb": _comb, "math.perm": _perm, "math.prod": _prod})
    out.update({f"operator.{n}": f for n, f in _operator_funcs().items()})
    for n in ("match", "fullmatch", "search", "findall", "finditer", "split", "sub", "subn", "escape", "compile"):
        out[f"re.{n}"] = _regex(n)
    out["string.capwords"] = string.capwords
    for n in ("mean", "fmean", "median", "median_low", "median_high", "mode", "multimode", "stdev", "pstdev",
              "variance", "pvariance", "geometric_mean", "harmonic_mean"):
        out[f"statistics.{n}"] = getattr(statistics, n)
    out.update({
        "fractions.Fraction": fractions.Fraction, "decimal.Decimal": decimal.Decimal,
        "collections.Counter": _hashing(collections.Counter), "collections.OrderedDict": _hashing(collections.OrderedDict),
        "collections.deque": _deque,
        "heapq.nlargest": lambda n, xs, key=None: heapq.nlargest(n, capped(xs), key),
        "heapq.nsmallest": lambda n, xs, key=None: heapq.nsmallest(n, capped(xs), key),
        "heapq.merge": _lazy(heapq.merge),
        "bisect.bisect": bisect.bisect, "bisect.bisect_left": bisect.bisect_left, "bisect.bisect_right": bisect.bisect_right,
        "functools.reduce": _reduce, "sys.getsizeof": sys.getsizeof,
        "json.loads": _json_loads, "json.dumps": _json_dumps,
    })
    for n in ("accumulate", "chain", "combinations", "combinations_with_replacement", "compress", "count", "cycle",
              "dropwhile", "filterfalse", "groupby", "islice", "pairwise", "permutations", "product", "repeat",
              "starmap", "takewhile", "zip_longest"):
        out[f"itertools.{n}"] = _lazy(getattr(itertools, n))
    return out


# Functions the parent applies to program values: bounded work on plain data, pristine objects.
FUNCS: dict[str, Callable[..., Any]] = {
    "abs": abs, "round": _round, "min": min, "max": max, "sum": _sum, "len": len, "sorted": sorted,
    "set": _hashing(set), "frozenset": _hashing(frozenset), "list": list, "tuple": tuple, "dict": _hashing(dict),
    "bool": bool, "int": int, "float": float, "complex": complex, "str": str, "repr": repr, "ascii": ascii,
    "any": any, "all": all, "divmod": divmod, "pow": guarded_pow, "ord": ord, "chr": chr, "hex": hex, "oct": oct,
    "bin": bin, "isinstance": isinstance, "issubclass": issubclass, "range": _range, "type": type,
    "reversed": reversed, "enumerate": _lazy(enumerate), "zip": _lazy(zip), "map": _lazy(map),
    "filter": _lazy(filter), "iter": iter, "next": next, "format": _format, "bytes": _bytes, "slice": slice,
    "hash": hash, "callable": callable,
    **_module_funcs(),
}
# Key in FUNCS of each original object (``from functools import reduce`` binds the C function of
# ``_functools``, whose ``__module__`` is not the module a test imported it from).
FUNC_KEYS: dict[int, str] = {}
for _key in FUNCS:
    _mod, _, _attr = _key.rpartition(".")
    _orig = getattr(sys.modules[_mod] if _mod else builtins, _attr, None)
    if _orig is not None:
        FUNC_KEYS.setdefault(id(_orig), _key)
# Of those, the ones a one-argument call may apply program-side to a program object (``str(obj)``): see
# `_judge.Leaf.wrap`. Only the builtin's name travels, never a test value: the result is a function of the
# program's own value alone, so the program gains nothing by answering it (it could return that answer).
WRAPPABLE = frozenset({"abs", "round", "min", "max", "sum", "len", "sorted", "set", "frozenset", "list", "tuple",
                       "dict", "bool", "int", "float", "complex", "str", "repr", "any", "all", "next", "iter",
                       "reversed"})
# Questions about what a program object IS (its class, whether it is callable): asked of a program class or
# object, only the program's own process could answer them, and it may lie (`__instancecheck__`, a rebound
# builtin). The judge answers them on plain data only and refuses them over the program's classes/objects.
INTROSPECTION = frozenset({"isinstance", "issubclass", "callable", "type"})
# Functions whose first argument is called by them (a program function there makes the call the program's).
HIGHER_ORDER = frozenset({"functools.reduce", "map", "filter", "itertools.starmap", "itertools.takewhile",
                          "itertools.dropwhile", "itertools.filterfalse"})
# Arguments that must be the test's own (closed) values: a regular expression's pattern.
TEST_ONLY_ARGS: dict[str, int] = {f"re.{n}": 0 for n in ("match", "fullmatch", "search", "findall", "finditer",
                                                          "split", "sub", "subn", "compile")}


# ------------------------------------------------------------------------------------------------ methods


def _str_join(sep: Any, items: Any) -> Any:
    items = materialize(items)
    if sum(len(x) for x in items if isinstance(x, (str, bytes))) + len(sep) * max(len(items) - 1, 0) > MAX_TEXT:
        raise Unsafe("join too large to evaluate in the judge")
    return type(sep).join(sep, items)


def _replace(s: Any, old: Any, new: Any, count: Any = -1) -> Any:
    if isinstance(old, (str, bytes)) and isinstance(new, (str, bytes)):
        hits = (len(s) + 1) if not old else s.count(old)
        if len(s) + hits * len(new) > MAX_TEXT:
            raise Unsafe("replace too large to evaluate in the judge")
    return type(s).replace(s, old, new, count)


def _width(method: str) -> Callable[..., Any]:
    def call(s: Any, width: Any, *rest: Any) -> Any:
        guard_int(width, MAX_TEXT, method)
        return getattr(type(s), method)(s, width, *rest)
    return call


def _expandtabs(s: Any, tabsize: Any = 8) -> Any:
    if type(tabsize) is int and len(s) * max(tabsize, 1) > MAX_TEXT:
        raise Unsafe("expandtabs too large to evaluate in the judge")
    return type(s).expandtabs(s, tabsize)


def _to_bytes(n: Any, length: Any = 1, *rest: Any, **kw: Any) -> Any:
    guard_int(length, MAX_TEXT, "to_bytes")
    return int.to_bytes(n, length, *rest, **kw)


_TEXT_METHODS = ["capitalize", "casefold", "count", "endswith", "find", "index", "isalnum", "isalpha",
                 "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable",
                 "isspace", "istitle", "isupper", "lower", "lstrip", "partition", "removeprefix",
                 "removesuffix", "rfind", "rindex", "rpartition", "rsplit", "rstrip", "split", "splitlines",
                 "startswith", "strip", "swapcase", "title", "upper", "translate", "encode", "decode",
                 "hex"]


def _methods_of(t: type, names: Iterable[str], special: dict[str, Callable[..., Any]] | None = None) -> dict[str, Callable[..., Any]]:
    out = {n: getattr(t, n) for n in names if hasattr(t, n)}
    out.update({n: f for n, f in (special or {}).items() if hasattr(t, n)})
    return out


_TEXT_SPECIAL: dict[str, Callable[..., Any]] = {
    "join": _str_join, "replace": _replace, "center": _width("center"), "ljust": _width("ljust"),
    "rjust": _width("rjust"), "zfill": _width("zfill"), "expandtabs": _expandtabs}
_SET_METHODS = ["issubset", "issuperset", "isdisjoint", "union", "intersection", "difference",
                "symmetric_difference", "copy"]
_MATCH_METHODS = ["group", "groups", "groupdict", "start", "end", "span", "expand"]
_PATTERN_METHODS = {n: _regex_method(n) for n in ("match", "fullmatch", "search", "findall", "finditer", "split",
                                                  "sub", "subn")}
# Pure (non-mutating) methods of exact builtin types, evaluated in the parent on program values.
METHODS: dict[type, dict[str, Callable[..., Any]]] = {
    str: _methods_of(str, _TEXT_METHODS, _TEXT_SPECIAL),
    bytes: _methods_of(bytes, _TEXT_METHODS, _TEXT_SPECIAL),
    list: _methods_of(list, ("count", "index", "copy")),
    tuple: _methods_of(tuple, ("count", "index")),
    dict: _methods_of(dict, ("get", "keys", "values", "items", "copy")),
    set: _methods_of(set, _SET_METHODS),
    frozenset: _methods_of(frozenset, _SET_METHODS),
    int: _methods_of(int, ("bit_length", "bit_count", "conjugate", "as_integer_ratio", "is_integer"),
                     {"to_bytes": _to_bytes}),
    bool: _methods_of(bool, ("bit_length", "bit_count", "conjugate", "as_integer_ratio"), {"to_bytes": _to_bytes}),
    float: _methods_of(float, ("is_integer", "hex", "as_integer_ratio", "conjugate")),
    complex: _methods_of(complex, ("conjugate",)),
    re.Pattern: _PATTERN_METHODS,
    regex.Pattern: _PATTERN_METHODS,
    re.Match: _methods_of(re.Match, _MATCH_METHODS),
    regex.Match: _methods_of(regex.Match, _MATCH_METHODS),
}
# A test that applies one of these to a value means the builtin type's method: the judge evaluates it here
# on plain data, and a program object in its place fails the test (it is never asked to answer it).
METHOD_NAMES = frozenset(n for table in METHODS.values() for n in table)

# Callables that may run inside a judgement on shared (cached) values: the judge's own functions and the
# builtins, module functions and methods they stand for. None mutates its arguments or keeps state.
# (FUNC_KEYS already holds the ids of the builtins and module functions FUNCS stands for.)
_PURE_CALLABLE_IDS = frozenset(
    [*map(id, FUNCS.values()), *(id(f) for table in METHODS.values() for f in table.values()), *FUNC_KEYS])


# Values of these types never change: a cached plan may hand the same one to every judgement.
IMMUTABLE_TYPES = frozenset({type(None), bool, int, float, complex, str, bytes, decimal.Decimal, fractions.Fraction,
                             range, slice, re.Pattern, regex.Pattern, datetime.date, datetime.datetime, datetime.time,
                             datetime.timedelta, datetime.timezone, types.ModuleType, type(Ellipsis)})
# Containers whose items a cached plan may share when they are shareable too (the judge never mutates one).
PLAIN_CONTAINERS = frozenset({list, tuple, dict, set, frozenset, collections.Counter, collections.OrderedDict,
                              collections.deque})


def is_pure_callable(v: Any) -> bool:
    """``v`` is one of the judge's pure functions or methods (or an ``operator.itemgetter``/``attrgetter``)."""
    return id(v) in _PURE_CALLABLE_IDS or type(v) in (operator.itemgetter, operator.attrgetter)


def call_method(receiver: Any, name: str, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """``receiver.name(*args, **kwargs)`` for a pure method of the receiver's exact builtin type."""
    table = METHODS.get(type(receiver))
    if table is None:
        raise TypeError(f"{type(receiver).__name__} value: .{name}() is not evaluated by the judge")
    fn = table.get(name)
    if fn is None:
        raise AttributeError(f"'{type(receiver).__name__}' object has no attribute '{name}' the judge evaluates")
    return fn(receiver, *args, **kwargs)
