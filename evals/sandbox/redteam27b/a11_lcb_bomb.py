"""Class hostile data: a LiveCodeBench row whose private_test_cases is base64(zlib(pickle(json text))) that
decompresses to ~250 MB (under MAX_PRIVATE_BYTES = 256 MiB) of tiny test cases: a ~0.3 MB row. The loader
unpickles it (no globals: allowed, it is a str) and json-parses it into millions of dicts, then tuples.
Also: a pickle with a global (refused), truncated/garbage payloads (one DataError line each).
Safe: the row is refused or loaded with parent memory bounded by a small multiple of the row, and parse
time a few seconds; bad payloads give one line each.
"""
from __future__ import annotations

import base64
import json
import os
import pickle
import resource
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(__file__))
from _common import report

from verifiers.errors import DataError
from verifiers.stdio_data import stdio_row

MB = int(os.environ.get("RT_LCB_MB", "250"))


def blob(obj: object) -> str:
    return base64.b64encode(zlib.compress(pickle.dumps(obj), 9)).decode()


def main() -> None:
    case = '{"input": "", "output": "", "testtype": "stdin"}, '
    n = (MB << 20) // len(case)
    text = "[" + case * (n - 1) + case[:-2] + "]"
    row = {"question_id": "bomb", "question_content": "q", "public_test_cases": "[]", "private_test_cases": blob(text)}
    del text
    line = json.dumps(row)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
    t0, c0 = time.monotonic(), time.process_time()
    try:
        p = stdio_row("code_stdio", "test", 0, json.loads(line))
        got = f"loaded {len(p.meta['stdio']['tests'])} tests"
    except DataError as e:
        got = f"DataError: {e}"[:120]
    cpu, wall = time.process_time() - c0, time.monotonic() - t0
    grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10) - base
    report("hostile-data", f"LiveCodeBench zlib/pickle payload: {len(line) >> 10} KB row -> {MB} MB JSON text",
           "refused, or loaded with RSS growth << 1 GB", f"{got}; parent RSS +{grew} MB, CPU {cpu:.1f}s wall {wall:.1f}s",
           grew > 1024)

    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))
    for name, payload in [("global (os.system)", blob(Evil())), ("truncated", blob("[]")[:-8]),
                          ("not base64", "%%%%"), ("pickled list", blob([{"input": "", "output": ""}]))]:
        try:
            stdio_row("code_stdio", "test", 1, {"question_id": "x", "public_test_cases": "[]",
                                                "private_test_cases": payload})
            got, bad = "accepted", name != "pickled list"
        except DataError as e:
            got, bad = f"DataError: {e}", False
        except Exception as e:  # noqa: BLE001
            got, bad = f"UNCAUGHT {type(e).__name__}: {e}", True
        report("hostile-data", f"LiveCodeBench private_test_cases: {name}", "one DataError line", got[:150], bad)


if __name__ == "__main__":
    main()
