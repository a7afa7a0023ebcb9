"""Framed channel between the trusted parent and sandbox workers: length-prefixed JSON, never pickle.

A frame is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON. Values produced by
untrusted code travel as a small tagged JSON tree (see `decode_value`) and are rebuilt in the parent
into exact builtin types only, with bounded size and depth.
"""

from __future__ import annotations

import itertools
import json
import struct
from typing import Any

# Hostile-input budgets (bytes, nodes, nesting) for everything that flows back from a sandbox.
MAX_FRAME_BYTES = 8 * 1024 * 1024
MAX_VALUE_NODES = 200_000
MAX_VALUE_DEPTH = 100
# Sets/dicts whose members share one hash this often are rejected: crafted collisions (ints that are
# multiples of 2**61 - 1 all hash to 0) would make building them in the parent quadratic.
MAX_SAME_HASH = 32

_HEADER = struct.Struct(">I")


class ProtocolError(Exception):
    """A frame or value from a worker is malformed or over budget (the worker is then discarded)."""


def encode_frame(payload: bytes) -> bytes:
    """Prefix ``payload`` with its length."""
    if len(payload) > MAX_FRAME_BYTES:
        raise ProtocolError(f"frame of {len(payload)} bytes exceeds MAX_FRAME_BYTES={MAX_FRAME_BYTES}")
    return _HEADER.pack(len(payload)) + payload


_ENCODE = json.JSONEncoder(separators=(",", ":")).encode


def encode_json_frame(obj: Any) -> bytes:
    """One frame holding ``obj`` as compact JSON (plain parent-built data only)."""
    return encode_frame(_ENCODE(obj).encode("utf-8"))


class FrameReader:
    """Incremental reader: feed bytes, pop complete frames; rejects frames over ``max_frame`` bytes."""

    def __init__(self, max_frame: int = MAX_FRAME_BYTES) -> None:
        self._buf = bytearray()
        self._max = max_frame

    def feed(self, data: bytes) -> list[bytes]:
        """Append ``data`` and return every frame now complete."""
        self._buf += data
        frames: list[bytes] = []
        while len(self._buf) >= 4:
            (n,) = _HEADER.unpack_from(self._buf, 0)
            if n > self._max:
                raise ProtocolError(f"frame of {n} bytes exceeds the {self._max}-byte limit")
            if len(self._buf) < 4 + n:
                break
            frames.append(bytes(self._buf[4 : 4 + n]))
            del self._buf[: 4 + n]
        return frames

    @property
    def pending(self) -> int:
        """Bytes buffered but not yet part of a complete frame."""
        return len(self._buf)


def split_frames(blob: bytes, max_frame: int = MAX_FRAME_BYTES) -> list[bytes]:
    """Split a blob of back-to-back frames; a truncated tail is dropped (the child may die mid-write)."""
    out: list[bytes] = []
    i = 0
    while i + 4 <= len(blob):
        (n,) = _HEADER.unpack_from(blob, i)
        if n > max_frame or i + 4 + n > len(blob):
            break
        out.append(blob[i + 4 : i + 4 + n])
        i += 4 + n
    return out


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


def decode_value(tree: Any) -> Any:
    """Rebuild a plain value from the child's tagged JSON tree.

    Encoding: JSON null/bool/int/float/str/array are None/bool/int/float/str/list; objects carry one tag:
    ``{"t": [...]}`` tuple, ``{"s": [...]}`` set, ``{"z": [...]}`` frozenset, ``{"d": [[k, v], ...]}`` dict,
    ``{"b": "hex"}`` bytes, ``{"c": [re, im]}`` complex, ``{"x": "TypeName"}`` an unsupported value (rejected).

    Raises:
        ValueRejected: anything else, or more than MAX_VALUE_NODES nodes / MAX_VALUE_DEPTH levels.
    """
    budget = [MAX_VALUE_NODES]
    return _decode(tree, 0, budget)


def _decode(t: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueRejected(f"value has more than {MAX_VALUE_NODES} nodes")
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
        _check_hash_flood([p[0] if tag == "d" and type(p) is list and p else p for p in items])
    try:
        if tag == "t":
            return tuple(items)
        if tag == "s":
            return set(items)
        if tag == "z":
            return frozenset(items)
        if tag == "d":
            if not all(type(p) is list and len(p) == 2 for p in items):
                raise ValueRejected("bad dict encoding")
            return {k: v for k, v in items}
    except TypeError as exc:  # unhashable member
        raise ValueRejected(f"bad container: {exc}") from None
    raise ValueRejected(f"unknown tag {tag!r}")


def _check_hash_flood(keys: list[Any]) -> None:
    try:
        hashes = sorted(hash(k) for k in keys)
    except TypeError:
        return  # unhashable: set()/dict() below rejects it
    run = 1
    for a, b in itertools.pairwise(hashes):
        run = run + 1 if a == b else 1
        if run > MAX_SAME_HASH:
            raise ValueRejected("too many set/dict members with the same hash (hash flooding)")


def encode_value(v: Any) -> Any:
    """Parent-side mirror of the child's encoder (used by tests and the process backend's self-checks)."""
    tv = type(v)
    if v is None or tv in (bool, int, float, str):
        return v
    if tv is list:
        return [encode_value(x) for x in v]
    if tv is tuple:
        return {"t": [encode_value(x) for x in v]}
    if tv is set:
        return {"s": [encode_value(x) for x in v]}
    if tv is frozenset:
        return {"z": [encode_value(x) for x in v]}
    if tv is dict:
        return {"d": [[encode_value(k), encode_value(x)] for k, x in v.items()]}
    if tv is bytes:
        return {"b": v.hex()}
    if tv is complex:
        return {"c": [v.real, v.imag]}
    return {"x": tv.__name__}
