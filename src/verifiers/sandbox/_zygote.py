# ruff: noqa: BLE001, S102, S110  (catching everything and exec-ing untrusted code is this file's job)
"""Sandbox zygote: forks one pristine child per program. Never imported by the parent.

The parent sends this file's text as the first message on the control socket (``_isolation.BOOTSTRAP``),
so nothing of the project tree is visible in the sandbox; standard library only.

The zygote never holds a program's bytes. The parent writes each program's request into a fresh
socketpair and sends the zygote only "run job N" with three fds (that channel, a stdout and a stderr
memfd), one SOCK_SEQPACKET message at a time. The zygote forks the child and closes its copies; only the
child reads the request. So a child's memory is the zygote's warm image plus its own program, never a
sibling's code, tests, results or output.

Each child (``sandboxed``): a new pid namespace (it is pid 1: leftover processes die with it, and no
process outside is addressable), its own session, a fresh tmpfs on ``/tmp`` (the zygote mounts it just
before the fork and detaches it once the child and all its processes are gone, without ever reading what
is in it), rlimits and no capabilities; only then does it read its request. It marks a shared page once
that set-up is done and unmaps it: a child that exits without the mark failed before its program ran,
which the parent treats as an anomaly. The zygote enforces the wall-clock deadline (SIGKILL) and reports
exit status and duration; the parent judges the child's frames. (A mount namespace per child would do
the same for /tmp, but creating and tearing one down per program cost ~0.2 ms of CPU with two sandboxes
running: evals/sandbox/README.md.)

Protocol (control socket, one message each): parent -> zygote: the JSON config, then per job a `JOB`
struct and three fds; zygote -> parent: ``{"ready": ...}`` (JSON), then per job an `END` struct.
A child's channel: the parent's request frame in (4-byte big-endian length + marshal of ``(code,
setup, leaves)``); JSON frames out, exactly one per leaf in order, ``["v", k, value]`` or
``["e", k, error]``, or a single ``["syntax", msg]``/``["rt", msg]``; then ``["done"]``.
"""

import builtins
import ctypes
import gc
import json
import marshal
import mmap
import os
import resource
import select
import signal
import socket
import struct
import sys
import time

# The code below also runs in each child *after* its program, which may rebind builtins or module
# attributes for its own use: bind what that code needs now. Functions defined from here on look
# builtins up in this private copy, not in the `builtins` module programs see.
__builtins__ = dict(builtins.__dict__)
_write = os.write
_dumps = json.dumps
_H = struct.Struct(">I")
# Per-job control messages (the parent's `_sandbox` uses the same two layouts):
JOB = struct.Struct("<Qdi")  # parent -> zygote: job id, timeout (s), CPU limit (s); plus 3 fds
END = struct.Struct("<QiBBid")  # zygote -> parent: job id, exit status (-signal), timed out, set-up done, error, duration
_SOCK = socket.socket(fileno=CTL)  # noqa: F821  (CTL is set by the bootstrap)
_SOCK.setblocking(True)


def _send(obj):
    _SOCK.send(json.dumps(obj, separators=(",", ":")).encode())


def _fatal(msg):
    try:
        _send({"fatal": msg})
    finally:
        os._exit(2)


os.environ.clear()  # bwrap may still set PWD; programs see an empty environment
CFG = json.loads(_SOCK.recv(1 << 20))
SANDBOXED = bool(CFG["sandboxed"])
MAX_FRAME = int(CFG["max_frame"])
FLUSH_BYTES = 1 << 16
# Limits every child gets: set here, once, and inherited (RLIMIT_AS per child: the zygote itself may be larger).
for _name, _value in CFG["limits"]:
    resource.setrlimit(getattr(resource, _name), (int(_value), int(_value)))
AS_BYTES = int(CFG["as_bytes"])

_libc = ctypes.CDLL(None, use_errno=True)
_mount = _libc.mount
_mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
_umount2 = _libc.umount2
_umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
MNT_DETACH = 2
_prctl = _libc.prctl
_prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


_CAP_HDR = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
_CAP_HDR_REF = ctypes.byref(_CAP_HDR)
_CAP_NONE = (_CapData * 2)()
_capset = _libc.capset
_capget = _libc.capget
PR_SET_DUMPABLE, PR_SET_SECCOMP, PR_SET_SECUREBITS, PR_SET_NO_NEW_PRIVS = 4, 22, 28, 38
# NOROOT, NO_SETUID_FIXUP, KEEP_CAPS and NO_CAP_AMBIENT_RAISE, each with its lock bit.
SECUREBITS = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80
MS_NOSUID, MS_NODEV = 2, 4
TMPFS_OPTS = f"size={int(CFG['tmpfs_bytes'])},nr_inodes={int(CFG['tmpfs_inodes'])},mode=1777".encode()

if SANDBOXED:
    if os.getuid() != 0 or os.geteuid() != 0:
        _fatal(f"the zygote expects uid 0 inside its user namespace, got {os.getuid()}")
    _caps = (_CapData * 2)()
    if _capget(ctypes.byref(_CAP_HDR), _caps) != 0:
        _fatal("capget failed")
    if not _caps[0].effective & (1 << 21) or not _caps[0].effective & (1 << 8):  # CAP_SYS_ADMIN, CAP_SETPCAP
        _fatal("the zygote lacks CAP_SYS_ADMIN/CAP_SETPCAP in its user namespace")
    if _prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        _fatal("prctl(PR_SET_DUMPABLE, 0) failed")
    # No uid 0 magic on exec for the zygote or any child (locked); bubblewrap already set no_new_privs.
    if _prctl(PR_SET_SECUREBITS, SECUREBITS, 0, 0, 0) != 0:
        _fatal("prctl(PR_SET_SECUREBITS) failed")
    if _prctl(39, 0, 0, 0, 0) != 1:  # PR_GET_NO_NEW_PRIVS
        _fatal("no_new_privs is not set")


_setns = _libc.setns
_setns.argtypes = [ctypes.c_int, ctypes.c_int]
_unshare = _libc.unshare
_unshare.argtypes = [ctypes.c_int]
CLONE_NEWPID = 0x20000000
# Our own pid namespace, to reset "the namespace for children" to before each unshare (a child never sees
# this fd: it closes every fd above 3 before anything of its program runs).
_SELF_PIDFD = os.pidfd_open(os.getpid()) if SANDBOXED else -1


def _fork_in_new_pid_namespace():
    """``os.fork()`` whose child is pid 1 of a fresh pid namespace (the zygote itself stays where it is).

    unshare(CLONE_NEWPID) only decides where later children go, and once per namespace: setns back to our
    own first. Cheaper for the child than a raw clone through ctypes, and glibc's fork keeps its state right.
    """
    if _setns(_SELF_PIDFD, CLONE_NEWPID) != 0 or _unshare(CLONE_NEWPID) != 0:
        raise OSError(ctypes.get_errno(), "setns/unshare(CLONE_NEWPID): " + os.strerror(ctypes.get_errno()))
    return os.fork()


# Warm imports: a child finds these in sys.modules and shares their pages copy-on-write.
for _name in CFG["modules"]:
    try:
        __import__(_name)
    except Exception:
        pass

_SETUP_MARK = mmap.mmap(-1, mmap.PAGESIZE, flags=mmap.MAP_SHARED)  # the child writes it once set-up is done
TMP = CFG.get("tmp") or "/tmp"


# ---------------------------------------------------------------------------------------------- child


def _no_default(o):
    raise TypeError(f"{type(o).__name__} is not JSON serializable")


def _encoder():
    make = json.encoder.c_make_encoder
    if make is None:
        return json.JSONEncoder(separators=(",", ":")).encode
    enc = make(None, _no_default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
    return lambda obj: "".join(enc(obj, 0))


_encode = _encoder()


def _fmt_exc(e):
    try:
        name = type(e).__name__
    except BaseException:
        name = "Exception"
    try:
        msg = str(e)
    except BaseException:
        msg = ""
    return (str(name)[:100] + ": " + str(msg)[:300]) if msg else str(name)[:100]


class _TooBig(Exception):
    pass


def _enc(v, depth, budget):
    budget[0] -= 1
    if budget[0] < 0 or depth > 100:
        raise _TooBig("value too large or too deep")
    t = type(v)
    if v is None or t is bool or t is int or t is float or t is str:
        return v
    if t is list:
        return [_enc(x, depth + 1, budget) for x in v]
    if t is tuple:
        return {"t": [_enc(x, depth + 1, budget) for x in v]}
    # Subclasses of builtins are converted through the base type's own slots (their overrides never run).
    if issubclass(t, bool):
        return bool(int.__int__(v))
    if issubclass(t, int):
        return int.__int__(v)
    if issubclass(t, float):
        return float.__float__(v)
    if issubclass(t, str):
        return str.__str__(v)
    if issubclass(t, list):
        return [_enc(x, depth + 1, budget) for x in list.__iter__(v)]
    if issubclass(t, tuple):
        return {"t": [_enc(x, depth + 1, budget) for x in tuple.__iter__(v)]}
    if issubclass(t, frozenset):
        return {"z": [_enc(x, depth + 1, budget) for x in frozenset.__iter__(v)]}
    if issubclass(t, set):
        return {"s": [_enc(x, depth + 1, budget) for x in set.__iter__(v)]}
    if issubclass(t, dict):
        return {"d": [[_enc(k, depth + 1, budget), _enc(x, depth + 1, budget)] for k, x in dict.items(v)]}
    if issubclass(t, (bytes, bytearray)):
        return {"b": bytes(memoryview(v)).hex()}
    if issubclass(t, complex):
        return {"c": [complex.real.__get__(v), complex.imag.__get__(v)]}
    budget[1] = True  # not plain data somewhere in this value
    return {"x": str(getattr(t, "__name__", "?"))[:80]}


def _dec(t):
    """Rebuild a parent-encoded value (trusted: the parent's own encoding of test inputs)."""
    if type(t) is list:
        return [_dec(x) for x in t]
    if type(t) is not dict:
        return t
    ((tag, body),) = t.items()
    if tag == "t":
        return tuple(_dec(x) for x in body)
    if tag == "s":
        return {_dec(x) for x in body}
    if tag == "z":
        return frozenset(_dec(x) for x in body)
    if tag == "d":
        return {_dec(k): _dec(v) for k, v in body}
    if tag == "b":
        return bytes.fromhex(body)
    if tag == "c":
        return complex(body[0], body[1])
    raise ValueError("unknown tag " + repr(tag))


_OUTBUF = []
_OUTLEN = [0]
_OUT_FD = [3]  # a child's channel (the warm-up points it at /dev/null)
# The process whose frames these are: a process the program forked that unwinds into this code (its own
# exception, or returning from the program's code) exits instead of writing frames of its own.
_OWNER = [os.getpid()]


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = _write(fd, view)
        view = view[n:]


def _flush():
    if os.getpid() != _OWNER[0]:
        os._exit(1)
    if _OUTBUF:
        data = b"".join(_OUTBUF)
        _OUTBUF.clear()
        _OUTLEN[0] = 0
        _write_all(_OUT_FD[0], data)


def _emit(obj):
    """Queue one frame for the parent (a value too large or unencodable becomes an error frame)."""
    if os.getpid() != _OWNER[0]:
        os._exit(1)
    try:
        data = _encode(obj).encode()
    except BaseException as e:  # e.g. an int too large to print
        data = _dumps(["e", obj[1], "unencodable value: " + _fmt_exc(e)]).encode()
    if len(data) > MAX_FRAME:
        data = _dumps(["e", obj[1], "value too large"]).encode()
    _OUTBUF.append(_H.pack(len(data)) + data)
    _OUTLEN[0] += 4 + len(data)
    if _OUTLEN[0] >= FLUSH_BYTES:
        _flush()


def _read_exact(fd, n):
    chunks, got = [], 0
    while got < n:
        c = os.read(fd, min(n - got, 1 << 20))
        if not c:
            raise EOFError
        chunks.append(c)
        got += len(c)
    return b"".join(chunks)


def _leaf(g, truth, name, src, vals):
    """Evaluate one leaf in the program's globals: a direct call ``name(*args, **kw)`` or an expression."""
    if name is not None:
        fn = g[name] if name in g else getattr(builtins, name) if hasattr(builtins, name) else None
        if fn is None:
            raise NameError(f"name '{name}' is not defined")
        v = fn(*_dec(vals[0]), **{k: _dec(x) for k, x in vals[1]})
    else:
        g["__leafargs__"] = [_dec(x) for x in vals]
        v = eval(compile(src, "<test>", "eval"), g)
    return bool(v) if truth else v


def _program(source, setup, leaves):
    """Run the program, the set-up code and every leaf; emit one frame per leaf, then ``done``."""
    g = {"__name__": "__main__", "__builtins__": builtins}
    try:
        code = compile(source, "<solution>", "exec")
    except (SyntaxError, ValueError) as e:
        _emit(["syntax", _fmt_exc(e)])
        return
    except BaseException as e:
        _emit(["rt", _fmt_exc(e)])
        return
    try:
        exec(code, g)
    except BaseException as e:
        _emit(["rt", _fmt_exc(e)])
        return
    if setup:
        try:
            exec(compile(setup, "<setup>", "exec"), g)
        except BaseException as e:
            _emit(["rt", "in test setup code: " + _fmt_exc(e)])
            return
    for k, truth, name, src, vals, wrap, wvals in leaves:
        try:
            v = _leaf(g, truth, name, src, vals)
        except BaseException as e:
            _emit(["e", k, _fmt_exc(e)])
            continue
        try:
            budget = [1_000_000, False]
            enc = _enc(v, 0, budget)
            if budget[1] and wrap is not None:  # a program object under a judge function: apply it here
                g["__leafvalue__"] = v
                g["__wrapargs__"] = [_dec(x) for x in wvals]
                _emit(["w", k, _enc(eval(compile(wrap, "<test>", "eval"), g), 0, [1_000_000, False])])
            else:
                _emit(["v", k, enc])
        except BaseException as e:
            _emit(["e", k, _fmt_exc(e)])
    _emit(["done"])


def _isolate(job_id, cpu):
    """Child set-up before anything of the program is read: own session, private /tmp, limits, no privileges."""
    # A process group of its own: kill(0, ...) and friends address the caller's process group, which a
    # child inherits from the zygote across the pid-namespace boundary. Not a session: `setsid` is denied
    # in the sandbox, so all its processes share one scheduler autogroup (one CPU share per sandbox).
    os.setpgid(0, 0)
    if SANDBOXED:
        os.chdir("/tmp")  # the fresh tmpfs the zygote mounted for this child
    else:
        d = os.path.join(TMP, f"run-{job_id}")
        os.mkdir(d, 0o700)
        os.chdir(d)
    resource.setrlimit(resource.RLIMIT_AS, (AS_BYTES, AS_BYTES))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    # The last step: no capabilities (the child's only difference from the zygote, which keeps two).
    if SANDBOXED and _capset(_CAP_HDR_REF, _CAP_NONE) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def _child(job_id, cpu, seq, fds):
    """Runs in the forked child; never returns."""
    status = 0
    _OWNER[0] = os.getpid()
    try:
        chan, out, err = fds
        os.dup2(out, 1)
        os.dup2(err, 2)
        if chan != 3:
            os.dup2(chan, 3)
        os.closerange(4, 1 << 16)  # the control socket and every other fd of the zygote
        _isolate(job_id, cpu)
        _SETUP_MARK[:8] = seq.to_bytes(8, "little")
        _SETUP_MARK.close()  # unmapped: the program cannot forge the mark afterwards
        (n,) = _H.unpack(_read_exact(3, 4))
        _program(*marshal.loads(_read_exact(3, n)))  # the parent's own request (see `_protocol`)
        _flush()
    except BaseException:
        status = 3
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(status)


# --------------------------------------------------------------------------------------------- zygote


WARM_UP_RUNS = 40
_WARM_PROGRAM = ("import math\ndef f(x):\n    return [x, (x, 1.5), {x: 'a'}, {x}, b'x', math.sqrt(x)]\n"
                 "class A:\n    pass\n")
_WARM_LEAVES = [[0, False, "f", "f(1)", [[1], []], None, []], [1, True, "f", "f(2)", [[2], []], None, []],
                [2, False, None, "f(__leafargs__[0])[1]", [5], None, []],
                [3, False, "f", "f(x)", [[{"t": [3, 4]}], []], None, []], [4, False, "g", "g(1)", [[1], []], None, []],
                [5, False, None, "A()", [], "str(__leafvalue__)", []]]


def _warm_up():
    """Run the per-program path (request, program, leaves, encoding) many times before any fork.

    CPython specializes bytecode in place as it runs and fills caches on first use: done here, once,
    so children start from settled code and do not copy the pages those writes would touch.
    """
    request = marshal.dumps((_WARM_PROGRAM, "y = 1", _WARM_LEAVES))
    null = os.open("/dev/null", os.O_WRONLY)
    _OUT_FD[0] = null
    try:
        for _ in range(WARM_UP_RUNS):
            _program(*marshal.loads(request))
            _flush()
    finally:
        _OUT_FD[0] = 3
        os.close(null)


def _wait(pid, timeout):
    """Wait for ``pid`` until ``timeout`` s; kill it then. Returns (exit status, timed out)."""
    timed_out = False
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        pidfd = None
    if pidfd is not None:
        if not select.select([pidfd], [], [], timeout)[0]:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
        os.close(pidfd)
    else:
        deadline = time.monotonic() + timeout
        while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            if time.monotonic() >= deadline:
                timed_out = True
                os.kill(pid, signal.SIGKILL)
                break
            time.sleep(0.001)
    _, st = os.waitpid(pid, 0)
    return st, timed_out


def _rmtree(p):
    try:
        if os.path.islink(p) or not os.path.isdir(p):
            os.unlink(p)
            return
        os.chmod(p, 0o700)
        for n in os.listdir(p):
            _rmtree(os.path.join(p, n))
        os.rmdir(p)
    except OSError:
        pass


def _serve():
    seq = 0
    while True:
        msg, fds, flags, _ = socket.recv_fds(_SOCK, 64, 4)
        if not msg:
            os._exit(0)
        job_id, timeout, cpu = JOB.unpack(msg)
        if len(fds) != 3 or flags & socket.MSG_CTRUNC:
            for fd in fds:
                os.close(fd)
            _SOCK.send(END.pack(job_id, -1, 0, 0, -1, 0.0))
            continue
        seq += 1
        _SETUP_MARK[:8] = b"\0" * 8
        if SANDBOXED and _mount(b"tmpfs", b"/tmp", b"tmpfs", MS_NOSUID | MS_NODEV, TMPFS_OPTS) != 0:
            for fd in fds:
                os.close(fd)
            _SOCK.send(END.pack(job_id, -1, 0, 0, ctypes.get_errno() or -1, 0.0))
            continue
        t0 = time.monotonic()
        try:
            pid = _fork_in_new_pid_namespace() if SANDBOXED else os.fork()
        except OSError as e:
            for fd in fds:
                os.close(fd)
            if SANDBOXED:
                _umount2(b"/tmp", MNT_DETACH)
            _SOCK.send(END.pack(job_id, -1, 0, 0, e.errno or -1, 0.0))
            continue
        if pid == 0:
            _child(job_id, cpu, seq, fds)
        for fd in fds:
            os.close(fd)
        st, timed_out = _wait(pid, timeout)
        dur = time.monotonic() - t0
        error = 0
        if SANDBOXED:
            # Every process of the program is gone (its pid namespace died with it): drop its /tmp unread.
            if _umount2(b"/tmp", MNT_DETACH) != 0:
                error = ctypes.get_errno() or -1
        else:
            try:
                os.killpg(pid, signal.SIGKILL)  # the program's leftover processes (no pid namespace here)
            except OSError:
                pass
            _rmtree(os.path.join(TMP, f"run-{job_id}"))
        code = -os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st)
        setup = int.from_bytes(_SETUP_MARK[:8], "little") == seq
        _SOCK.send(END.pack(job_id, code, timed_out, setup, error, dur))


# Default dispositions, inherited by every child (Python's own handlers would make a program's SIGINT
# raise inside the judge's code). SIGCHLD stays default: the zygote waits on pidfds.
for _s in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGXFSZ):
    signal.signal(_s, signal.SIG_DFL)
_warm_up()
gc.collect()
gc.freeze()  # keep the warm heap shared copy-on-write with every child
_send({"ready": os.getpid(), "uid": os.getuid(), "python": sys.version.split()[0]})
_serve()
