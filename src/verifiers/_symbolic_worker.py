"""Entry point of one symbolic worker process: JSON lines ``[name, args]`` in, ``[status, result]`` out.

Started by ``verifiers._workers``; not meant to be run by hand. It caps its own address space so that a
CAS blow-up ends in ``MemoryError`` here, not in the caller.
"""

from __future__ import annotations

import json
import os
import sys


def main() -> None:
    """Serve requests on stdin until it closes."""
    limit = int(os.environ.get("VERIFIERS_WORKER_MEMORY", "0") or 0)
    if limit:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):  # not Linux, or not allowed: the deadline still holds
            pass
    _die_with_parent()
    sys.setrecursionlimit(10_000)
    from verifiers import _symbolic

    # sympy imports much of itself lazily on first use; pay that here, before saying "ready", so the
    # first real check does not spend its deadline importing.
    try:
        _symbolic.equal("x^2-1", "(x-1)(x+1)", 1e-9)
        _symbolic.equal("\\frac{\\sqrt{3}}{2}", "\\sin(\\pi/3)", 1e-9)
    except Exception:  # noqa: BLE001, S110 - a warm-up failure is not fatal; real calls report errors
        pass
    out = sys.stdout.buffer
    out.write(b'"ready"\n')
    out.flush()
    for line in sys.stdin.buffer:
        try:
            name, args = json.loads(line)
            reply = ["ok", getattr(_symbolic, name)(*args)]
        except BaseException as e:  # noqa: BLE001 - report every failure; the worker lives on
            if isinstance(e, KeyboardInterrupt):
                return
            reply = ["error", f"{type(e).__name__}: {e}"[:500]]
        out.write(json.dumps(reply).encode() + b"\n")
        out.flush()


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when its parent exits, so no CAS job outlives the caller."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the parent already died before prctl took effect
            os._exit(0)
    except (OSError, AttributeError):  # not Linux: stdin EOF still ends the loop
        pass


if __name__ == "__main__":
    main()
