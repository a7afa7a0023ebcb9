"""Symbolic worker processes: a warm template that forks workers on request, and the workers' request loop.

Started by ``verifiers.equivalence._cas_pool`` as ``python -m verifiers.equivalence._cas_worker`` with one end
of a Unix socket pair as its stdin (the control channel); not meant to be run by hand. The template imports
sympy and Math-Verify's LaTeX parser once, runs a few checks so that sympy's lazy imports are done, then
answers each ``FORK`` byte with a new worker: a ``fork()`` of this warm process, ready in milliseconds where a
fresh interpreter needs about a second. The worker's end of a new socket pair goes back to the caller over the
control channel (``SCM_RIGHTS``), with the worker's pid. The template says ``READY`` after the first families of
checks and warms the others while idle; a ``WARM`` request makes it finish them all and answer ``WARM``, so a
caller that asked to be warm (``warm_up()``) shares no CPU with it afterwards.

A worker serves JSON lines ``[name, args]`` -> ``[status, result]``
(``verifiers.equivalence._cas.<name>(*args)``) until its socket closes. It caps its own address space, so a
CAS blow-up ends in ``MemoryError`` there, never in the caller. Lifetimes chain: a worker gets SIGKILL when
the template dies, the template when the caller's pool thread (so the caller) dies, and the template kills its
workers when the control channel closes.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import random
import select
import signal
import socket
import struct
import sys
from typing import Any

FORK = b"F"  # control request: fork one worker
READY = b"R"  # control reply once the template is warm
WARM = b"W"  # control request: finish warming up every family; answered with WARM
PID = struct.Struct("=i")  # the worker's pid, sent with its socket
# One check per family of answers the CAS sees (polynomials, radicals, trig, exp/log, binomials, matrices,
# equations): each loads the sympy modules and caches its family needs, once, in the template, so that a
# freshly forked worker (a replacement after a kill, too) does not pay for them in its first deadline.
WARM_UP = (("x^2-1", "(x-1)(x+1)"), ("\\frac{\\sqrt{3}}{2}", "\\sin(\\pi/3)"),
           ("\\sin(2x)", "2\\sin x\\cos x"), ("e^{3x}e^{x}", "e^{4x}"), ("\\ln(3x)", "\\ln 3+\\ln x"),
           ("x^3-8y^3", "(x-2y)(x^2+2xy+4y^2)"), ("\\binom{n}{2}", "\\frac{n(n-1)}{2}"),
           ("\\frac{1}{\\sqrt{2}-1}", "\\sqrt{2}+1"), ("y=2x+1", "2x-y=-1"),
           ("\\begin{pmatrix}1&x\\end{pmatrix}", "\\begin{pmatrix}1&y\\end{pmatrix}"))
WARM_BEFORE_READY = 2  # the LaTeX parser, simplify and numeric evaluation: every check needs them


def main() -> None:
    """Run the template: warm up, then fork a worker per ``FORK`` request until the control channel closes."""
    control = socket.socket(fileno=0)  # stdin is our end of the caller's socket pair
    _die_with_parent(int(os.environ.get("VERIFIERS_CALLER_PID", "0") or 0))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's; it ends us by closing the channel
    sys.setrecursionlimit(10_000)
    from verifiers.equivalence import _cas

    # sympy imports much of itself lazily on first use (the first simplify alone loads sympy.physics):
    # pay that here, once, so that no worker spends its first deadline importing. Only the first families
    # before saying "ready"; the others while no fork is asked for, so a cold caller waits less.
    for gold, answer in WARM_UP[:WARM_BEFORE_READY]:
        _check(_cas, gold, answer)
    gc.collect()
    gc.freeze()  # workers' collections then skip (and so never copy) the template's objects
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps workers; none is ever a zombie
    _quiet_stderr()  # the caller stops reading our stderr once we are ready
    control.sendall(READY)
    memory = int(os.environ.get("VERIFIERS_WORKER_MEMORY", "0") or 0)
    try:
        _fork_on_request(control, _cas, list(WARM_UP[WARM_BEFORE_READY:]), memory)
    finally:
        if os.getpgrp() == os.getpid():  # our own session (as the pool starts us): take every worker with us
            os.killpg(os.getpid(), signal.SIGKILL)


def _fork_on_request(control: socket.socket, symbolic: Any, later: list[tuple[str, str]],
                     memory: int) -> None:
    """Answer each ``FORK`` with a worker's pid and socket (or an errno and none) until the channel closes."""
    template = os.getpid()
    while True:
        if later and not select.select([control], [], [], 0.05)[0]:
            _check(symbolic, *later.pop(0))  # idle: warm up one more family for later forks
            if not later:
                gc.collect()
                gc.freeze()
            continue
        try:
            request = control.recv(1)
        except InterruptedError:
            continue
        except OSError:
            return
        if request == WARM:
            if later:
                while later:
                    _check(symbolic, *later.pop(0))
                gc.collect()
                gc.freeze()
            control.sendall(WARM)
            continue
        if request != FORK:  # b"": the caller closed the channel or died
            return
        try:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        except OSError as e:
            control.sendall(PID.pack(e.errno or 0))  # no socket attached: "could not fork", we live on
            continue
        try:
            pid = os.fork()
        except OSError as e:  # process or memory limits: say so, and stay ready for the next request
            ours.close()
            theirs.close()
            control.sendall(PID.pack(e.errno or 0))
            continue
        if pid == 0:
            try:
                control.close()
                theirs.close()
                _serve(ours, template, memory)
            finally:
                os._exit(0)
        ours.close()
        try:
            socket.send_fds(control, [PID.pack(pid)], [theirs.fileno()])
        finally:
            theirs.close()


def _check(symbolic: Any, gold: str, answer: str) -> None:
    with contextlib.suppress(Exception):  # a warm-up failure is not fatal; real calls report errors
        symbolic.equal(gold, answer, 1e-9)


def _serve(sock: socket.socket, template: int, memory: int) -> None:
    """A forked worker: answer requests on ``sock`` until it closes."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    _die_with_parent(template)
    if memory:
        # not Linux, or not allowed: the deadline still holds
        with contextlib.suppress(ImportError, ValueError, OSError):
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    random.seed()  # siblings forked from one template would otherwise share one random stream
    from verifiers.equivalence import _cas

    reader = sock.makefile("rb")
    for line in reader:
        try:
            name, args = json.loads(line)
            reply = ["ok", getattr(_cas, name)(*args)]
        except BaseException as e:  # noqa: BLE001 - report every failure; the worker lives on
            reply = ["error", f"{type(e).__name__}: {e}"[:500]]
        try:
            data = json.dumps(reply).encode() + b"\n"
        except (TypeError, ValueError) as e:
            data = json.dumps(["error", f"unserializable result ({type(e).__name__})"]).encode() + b"\n"
        sock.sendall(data)


def _quiet_stderr() -> None:
    """Point stderr at /dev/null: nobody reads it after start-up, and a full pipe would block a worker."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)


def _die_with_parent(parent: int) -> None:
    """Ask Linux to SIGKILL this process when its parent exits, so no CAS job outlives the caller."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the closed channel still ends the template
        return
    if parent and os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(0)


if __name__ == "__main__":
    main()
