"""Framed channel between the trusted parent and sandboxed programs: length-prefixed frames, never pickle.

A frame is a 4-byte big-endian length followed by that many bytes. What a program sends back is UTF-8
JSON, parsed by the parent with budgets; what the parent sends a program (its request: code, set-up,
leaves) is ``marshal`` data, which only the program's own child reads (it is the parent's, so it is
trusted there, and ``marshal`` costs a fresh child half the page faults of ``json``). Values travel as a
small tagged tree (see `decode_value`): test inputs from the parent to a program, results back. Results
are rebuilt in the parent into exact builtin types only, under one node budget per program.
"""

from __future__ import annotations

import itertools
import json
import marshal
import struct
from collections.abc import Callable
from typing import Any

# Hostile-input budgets (bytes, nodes, nesting) for everything that flows back from a sandbox.
MAX_FRAME_BYTES = 8 * 1024 * 1024  # the parent's own frames (a request may carry a large test input)
# For all values of one program together, in the child's encoder and the parent's decoder alike: the parent's
# work judging one program stays ~0.1 s of CPU whatever it returns (red team 26: 1M nodes held the dispatcher
# ~1 s; 250k still cost ~0.5 s on a loaded 2-core VM). Larger values fail their test ("value too large").
MAX_VALUE_NODES = 150_000
MAX_VALUE_DEPTH = 100
# Sets/dicts whose members share one hash this often are rejected: crafted collisions (ints that are
# multiples of 2**61 - 1 all hash to 0) would make building them in the parent quadratic.
MAX_SAME_HASH = 32

_HEADER = struct.Struct(">I")
# Containers a value tree carries as ``{tag: [items]}`` (see `decode_value`), and their tags by type.
_CONTAINERS: dict[str, Callable[[list[Any]], Any]] = {"t": tuple, "s": set, "z": frozenset}
_TAGS = {t: tag for tag, t in _CONTAINERS.items()}


class ProtocolError(Exception):
    """A frame or value from a worker is malformed or over budget (the worker is then discarded)."""


def encode_frame(payload: bytes) -> bytes:
    """Prefix ``payload`` with its length."""
    if len(payload) > MAX_FRAME_BYTES:
        raise ProtocolError(f"frame of {len(payload)} bytes exceeds MAX_FRAME_BYTES={MAX_FRAME_BYTES}")
    return _HEADER.pack(len(payload)) + payload


def encode_request(code: str, setup: str, leaves: list[list[Any]]) -> bytes:
    """The frame a program's child reads first: its code, set-up code and leaves (marshal; see above)."""
    return encode_frame(marshal.dumps((code, setup, leaves)))


def split_frames(blob: bytes, max_frame: int) -> tuple[list[bytes], str]:
    """Split back-to-back frames: ``(frames, tail)``, tail ``"clean"``, ``"truncated"`` (the writer died
    mid-frame: not the program's fault) or ``"oversize"`` (a length over ``max_frame``: a violation)."""
    out: list[bytes] = []
    i = 0
    while i + 4 <= len(blob):
        (n,) = _HEADER.unpack_from(blob, i)
        if n > max_frame:
            return out, "oversize"
        if i + 4 + n > len(blob):
            return out, "truncated"
        out.append(blob[i + 4 : i + 4 + n])
        i += 4 + n
    return out, "clean" if i == len(blob) else "truncated"


_DECODE = json.JSONDecoder().decode


def loads_untrusted(data: bytes) -> Any:
    """UTF-8 JSON from a worker/child; any failure (bad UTF-8, deep nesting, huge ints) -> ProtocolError.

    ``json.loads`` minus its per-call encoding sniffing and keyword handling (frames are always UTF-8).
    """
    try:
        return _DECODE(data.decode("utf-8"))
    except (ValueError, RecursionError, MemoryError) as exc:  # JSONDecodeError, UnicodeDecodeError are ValueError
        raise ProtocolError(f"malformed JSON frame: {type(exc).__name__}") from None


class ValueRejected(Exception):
    """An untrusted value tree is not plain data (unknown tag, unhashable set member, over budget)."""


def decode_value(tree: Any, budget: list[int] | None = None) -> Any:
    """Rebuild a plain value from the child's tagged JSON tree.

    Encoding: JSON null/bool/int/float/str/array are None/bool/int/float/str/list; objects carry one tag:
    ``{"t": [...]}`` tuple, ``{"s": [...]}`` set, ``{"z": [...]}`` frozenset, ``{"d": [[k, v], ...]}`` dict,
    ``{"b": "hex"}`` bytes, ``{"c": [re, im]}`` complex, ``{"x": "TypeName"}`` an unsupported value (rejected).

    Args:
        tree: the decoded JSON.
        budget: ``[nodes left]``, shared by every value of one program (default: a fresh MAX_VALUE_NODES).

    Raises:
        ValueRejected: anything else, or more nodes than the budget / MAX_VALUE_DEPTH levels.
    """
    return _decode(tree, 0, budget if budget is not None else [MAX_VALUE_NODES])


def _decode(t: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueRejected("the program's values exceed the node budget")
    if depth > MAX_VALUE_DEPTH:
        raise ValueRejected(f"value nested deeper than {MAX_VALUE_DEPTH}")
    tt = type(t)
    if t is None or tt is bool or tt is int or tt is float or tt is str:
        return t
    if tt is list:
        return [_decode(x, depth + 1, budget) for x in t]
    if tt is not dict or len(t) != 1:
        raise ValueRejected(f"unexpected JSON node {tt.__name__}")
    ((tag, body),) = t.items()
    if tag == "x":
        raise ValueRejected(f"returned a non-plain value of type {str(body)[:80]}")
    if tag == "b" and type(body) is str:
        try:
            return bytes.fromhex(body)
        except ValueError:
            raise ValueRejected("bad bytes encoding") from None
    if tag == "c" and type(body) is list and len(body) == 2 and all(type(x) in (int, float) for x in body):
        return complex(body[0], body[1])
    if type(body) is not list:
        raise ValueRejected(f"bad body for tag {tag!r}")
    items = [_decode(x, depth + 1, budget) for x in body]
    if tag in ("s", "z", "d") and len(items) > MAX_SAME_HASH:
        check_hash_flood([p[0] if tag == "d" and type(p) is list and p else p for p in items])
    try:
        if tag in _CONTAINERS:
            return _CONTAINERS[tag](items)
        if tag == "d":
            if not all(type(p) is list and len(p) == 2 for p in items):
                raise ValueRejected("bad dict encoding")
            return {k: v for k, v in items}
    except TypeError as exc:  # unhashable member
        raise ValueRejected(f"bad container: {exc}") from None
    raise ValueRejected(f"unknown tag {tag!r}")


def check_hash_flood(keys: list[Any]) -> None:
    """Raise `ValueRejected` if more than MAX_SAME_HASH of ``keys`` share one hash, or one is unhashable.

    An unhashable member is a rejection too, never a reason to skip the check: the build would hash every
    member before it (a flood) and only then fail on it.
    """
    try:
        hashes = sorted(hash(k) for k in keys)
    except TypeError:
        raise ValueRejected("an unhashable set member or dict key") from None
    run = 1
    for a, b in itertools.pairwise(hashes):
        run = run + 1 if a == b else 1
        if run > MAX_SAME_HASH:
            raise ValueRejected("too many set/dict members with the same hash (hash flooding)")


def encode_value(v: Any) -> Any:
    """The tagged tree of a plain value (exact builtin types); `ValueRejected` for anything else."""
    tv = type(v)
    if v is None or tv in (bool, int, float, str):
        return v
    if tv is list:
        return [encode_value(x) for x in v]
    tag = _TAGS.get(tv)
    if tag is not None:
        return {tag: [encode_value(x) for x in v]}
    if tv is dict:
        return {"d": [[encode_value(k), encode_value(x)] for k, x in v.items()]}
    if tv is bytes:
        return {"b": v.hex()}
    if tv is complex:
        return {"c": [v.real, v.imag]}
    raise ValueRejected(f"{tv.__name__} is not plain data")
