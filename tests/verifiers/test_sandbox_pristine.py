"""A program's child never holds another program's bytes: a program scans its memory for its siblings.

One sandbox, pipelined: an honest sibling runs just before the scanner (its marker is in its code, its
stdout, a file and its result frames) and another is queued just after it (its request is already on
its way while the scanner runs). The scanner walks every object the collector knows, every module and
frame, and reads raw memory page by page around all of their addresses (probing each page with
``write(2)``, which fails with EFAULT instead of crashing on unmapped memory). It searches for the
markers in a shifted form, so the needles it holds never match themselves; a marker of its own, written
in its code, must be found (the scanner works), the siblings' must not.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import NoReturn

import pytest

from verifiers.errors import SandboxError
from verifiers.sandbox import CodePool

Unavailable = Callable[[str, str], NoReturn]  # tests/conftest.py's `unavailable` fixture

SCANNER = '''import ctypes, gc, os, sys
OWN = "__OWN__"  # the positive control: present in this program's own code
NEEDLES = __NEEDLES__  # each marker with every byte + 1: never equal to the marker itself
SHIFT = bytes((i + 1) % 256 for i in range(256))
libc = ctypes.CDLL(None, use_errno=True)
libc.write.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
def addresses():
    out = {id(o) for o in gc.get_objects()}
    out |= {id(m) for m in sys.modules.values()} | {id(v) for m in list(sys.modules.values()) for v in vars(m).values()}
    f = sys._getframe()
    while f is not None:
        out |= {id(f), id(f.f_code), id(f.f_globals), id(f.f_locals)}
        f = f.f_back
    out |= {id(t) for t in (int, str, dict, list, type, object)}  # the interpreter's static data
    out.add(ctypes.addressof(ctypes.create_string_buffer(1 << 16)))  # the C heap
    return out
def scan():
    r, w = os.pipe()
    pages = sorted({p for a in addresses() for p in range((a >> 12) - 256, (a >> 12) + 512)})
    found = [False] * len(NEEDLES)
    scanned, tail, last = 0, b"", -2
    for page in pages:
        if libc.write(w, page << 12, 1) != 1:  # EFAULT: not mapped
            tail, last = b"", -2
            continue
        os.read(r, 1)
        data = ctypes.string_at(page << 12, 4096).translate(SHIFT)
        chunk = (tail if page == last + 1 else b"") + data
        for i, needle in enumerate(NEEDLES):
            found[i] = found[i] or needle in chunk
        tail, last = data[-64:], page
        scanned += 1
    return found + [scanned]
'''
SIBLING = '''SECRET = "__SIB__"
open("/tmp/sibling.txt", "w").write(SECRET)
print(SECRET)
def scan():
    return [SECRET, SECRET, SECRET, 0]
'''


def _shifted(marker: str) -> bytes:
    return bytes((b + 1) % 256 for b in marker.encode())


@pytest.fixture(scope="module")
def one_sandbox(unavailable: Unavailable):
    try:
        p = CodePool(workers=1, pipeline=8, timeout_s=20.0).start()
    except SandboxError as exc:
        unavailable("bwrap", f"bubblewrap sandbox unavailable: {exc}")
    yield p
    p.close()


def test_a_child_holds_no_sibling_bytes(one_sandbox: CodePool) -> None:
    own, before, after = ("MK" + uuid.uuid4().hex for _ in range(3))
    scanner = SCANNER.replace("__OWN__", own).replace("__NEEDLES__", repr([_shifted(m) for m in (own, before, after)]))
    tests = ["assert scan()[:3] == [True, False, False]", "assert scan()[3] > 2000"]
    futs = [one_sandbox.submit(SIBLING.replace("__SIB__", before), tests),   # runs just before
            one_sandbox.submit(scanner, tests),
            one_sandbox.submit(SIBLING.replace("__SIB__", after), tests)]    # queued behind it
    sib_before, result, sib_after = (f.result() for f in futs)
    for sib, marker in ((sib_before, before), (sib_after, after)):  # the siblings ran, with their markers
        assert (sib.status, sib.tests_passed, sib.tests_total) == ("failed", 0, 2), sib
        assert marker in sib.stdout
    assert result.passed, result.per_test


def test_the_scanner_finds_what_is_there(one_sandbox: CodePool) -> None:
    # Control for the test above: a program holding the "sibling" marker itself finds it.
    own, other = "MK" + uuid.uuid4().hex, "MK" + uuid.uuid4().hex
    scanner = SCANNER.replace("__OWN__", own).replace("__NEEDLES__", repr([_shifted(m) for m in (own, other)]))
    scanner += f"HELD = {other!r}\n"
    r = one_sandbox.run(scanner, ["assert scan()[:2] == [True, True]"])
    assert r.passed, r.per_test
