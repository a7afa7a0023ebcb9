# ruff: noqa: BLE001, S102, S110  (catching everything and exec-ing untrusted code is this file's job)
"""Sandbox zygote: forks one pristine child per program. Never imported by the parent.

The parent sends this file's text as the first message on the control socket (``_isolation.BOOTSTRAP``),
so nothing of the project tree is visible in the sandbox; standard library only.

The zygote never holds a program's bytes. The parent writes each program's request into a fresh
socketpair and sends the zygote only "run job N" with three fds (that channel, a stdout and a stderr
memfd; a stdin/stdout program's input memfd as a fourth), one SOCK_SEQPACKET message at a time. The
zygote forks the child and closes its copies; only the child reads the request. So a child's memory is
the zygote's warm image plus its own program, never a sibling's code, tests, results or output.

Each child (``sandboxed``): a new pid namespace (it is pid 1: leftover processes die with it, and no
process outside is addressable), its own process group, a fresh tmpfs on ``/tmp`` (mounted by the zygote
just before the fork; once the child and all its processes are gone it is moved, unread, out of every
path a later program can resolve, and freed with a batch of others: see `_retire_tmp`), rlimits and no
capabilities; only then does it read its request. It marks a shared page once that set-up is done and
unmaps it: a child that exits without the mark failed before its program ran, which the parent treats
as an anomaly. The zygote enforces the wall-clock deadline (SIGKILL) and reports exit status and
duration; the parent judges the child's frames. (A mount namespace per child would do the same for
/tmp, but creating and tearing one down per program cost ~0.2 ms of CPU with two sandboxes running:
evals/sandbox/README.md.)

Per program the cost is mostly fork, copy-on-write faults and exit, so the zygote keeps its image small
(no `socket`, `select`, `mmap` or `resource` module: each mapped library is copied by every fork and
torn down by every exit), settles its caches before the first fork (warm-up, interned-string table,
`malloc_trim`) and does as few system calls per program as it can (evals/sandbox/README.md).

Protocol (control socket, one message each): parent -> zygote: the JSON config, then per job a `JOB`
struct and three fds; zygote -> parent: ``{"ready": ...}`` (JSON), then per job an `END` struct.
A child's channel: the parent's request frame in (4-byte big-endian length + marshal of ``(code,
setup, leaves)``); JSON frames out, exactly one per leaf in order, ``["v", k, value]`` or
``["e", k, error]``, or a single ``["syntax", msg]``/``["rt", msg]``; then ``["done"]``. A stdin/stdout
program's request is ``(code, file size limit)`` instead, answered by one frame (see `_stdio_program`).
"""

import _socket
import builtins
import ctypes
import errno
import gc
import io
import json
import marshal
import os
import signal
import struct
import sys
import time

# The code below also runs in each child *after* its program, which may rebind builtins or module
# attributes for its own use: bind what that code needs now. Functions defined from here on look
# builtins up in this private copy, not in the `builtins` module programs see.
globals()["__builtins__"] = dict(builtins.__dict__)
_write = os.write
_dumps = json.dumps
_H = struct.Struct(">I")
# Per-job control messages (the parent's `_sandbox` uses the same two layouts):
JOB = struct.Struct("<Qdi")  # parent -> zygote: job id, timeout (s), CPU limit (s); plus 3 fds (4: stdin)
END = struct.Struct("<QiBBidd")  # zygote -> parent: job id, exit status (-signal), timed out, set-up done, error,
# wall duration, CPU seconds (the child and every process of its program, from the zygote's children times)
# The C socket type, not `socket.py`: that module (and the array, enum and selectors work it brings)
# would be one more set of pages and mappings that every fork copies and every child exit tears down.
CTL: int  # the control socket's fd, set by the bootstrap
_SOCK = _socket.socket(fileno=CTL)  # noqa: F821  (ruff does not count a bare annotation as a binding)
_SOCK.setblocking(True)
_ANCILLARY = _socket.CMSG_SPACE(5 * 4)  # room for more fds than a job carries (3; 4 with stdin), to see extras


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
AS_BYTES = int(CFG["as_bytes"])

_libc = ctypes.CDLL(None, use_errno=True)


class _Rlimit(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]  # rlim_t: unsigned long on Linux


# Functions called per program (by a child or the zygote) have no `argtypes` (`_libc[name]` is a fresh
# function object: attribute access would return the one shared with `argtypes` set elsewhere) and take
# Python ints (all values here are below 2**31) or prebuilt pointers: ctypes then converts in C, without
# Python calls or temporary objects, and a call touches (copies) a few pages instead of ten
# (evals/sandbox/README.md).
_setrlimit_c = _libc["setrlimit"]


def _set_limit(resource_no, value):
    if _setrlimit_c(resource_no, ctypes.byref(_Rlimit(value, value))) != 0:
        raise OSError(ctypes.get_errno(), f"setrlimit({resource_no}): " + os.strerror(ctypes.get_errno()))


# Limits every child gets: set here, once, and inherited. The parent resolves the RLIMIT_* numbers (they
# differ between architectures): the `resource` module would be one more mapped library per fork.
for _no, _value in CFG["limits"]:
    _set_limit(int(_no), int(_value))
RLIMIT_AS = int(CFG["rlimit_as"])
VALUE_NODES = int(CFG["value_nodes"])  # the parent's MAX_VALUE_NODES: bigger values are never sent
_RLIMIT_CPU = int(CFG["rlimit_cpu"])
_RLIMIT_FSIZE = int(CFG["rlimit_fsize"])
_CPU_LIMIT = _Rlimit(0, 0)  # the child's CPU limit: the zygote fills it in before each fork
_CPU_LIMIT_REF = ctypes.byref(_CPU_LIMIT)
_mount = _libc["mount"]  # per program: prebuilt C arguments, no `argtypes` (see `_setrlimit_c`)
_umount2 = _libc["umount2"]
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
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_MOVE, MS_PRIVATE = 2, 4, 8, 0x2000, 1 << 18
TMPFS_OPTS = f"size={int(CFG['tmpfs_bytes'])},nr_inodes={int(CFG['tmpfs_inodes'])},mode=1777".encode()
_MOUNT_TMP = (b"tmpfs", b"/tmp", b"tmpfs", MS_NOSUID | MS_NODEV, TMPFS_OPTS)
_UMOUNT_TMP = (b"/tmp", MNT_DETACH)
# The holder under each program's tmpfs (see `_retire_tmp`): tiny, never seen by a program.
_MOUNT_HOLDER = (b"tmpfs", b"/tmp", b"tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                 b"size=4096,nr_inodes=16,mode=0700")
_PRIVATE_TMP = (None, b"/tmp", None, MS_PRIVATE, None)
_BURY = (b"/tmp", b"grave", None, MS_MOVE, None)  # relative target: the holder is our cwd
GRAVE_DEPTH = 64  # used tmpfs mounts kept (empty, covered) before they are all detached at once

CAP_SETGID, CAP_SETUID, CAP_SETPCAP, CAP_SYS_ADMIN = 6, 7, 8, 21
PR_CAPBSET_DROP = 24
_KEEP = (1 << CAP_SYS_ADMIN) | (1 << CAP_SETPCAP)  # the zygote's two capabilities (low word: caps 0-31)
UID, GID = int(CFG["uid"]), int(CFG["gid"])  # the programs' unprivileged ids in this namespace


def _caps_now():
    caps = (_CapData * 2)()
    if _capget(ctypes.byref(_CAP_HDR), caps) != 0:
        _fatal("capget failed")
    return caps


def _leave_uid_0():
    """As root's sandboxes: uid 0 -> UID/GID, capabilities kept (SECBIT_NO_SETUID_FIXUP is already locked),
    then every capability but the zygote's two dropped from the bounding set (bubblewrap, run as uid 0,
    left it full), CAP_SETUID/CAP_SETGID included; the caller drops them from the other sets."""
    if ~_caps_now()[0].effective & ((1 << CAP_SETUID) | (1 << CAP_SETGID)):
        _fatal("the zygote runs as uid 0 without CAP_SETUID/CAP_SETGID to leave it")
    try:
        os.setresgid(GID, GID, GID)
        os.setresuid(UID, UID, UID)
    except OSError as e:
        _fatal(f"the zygote could not become uid/gid {UID}/{GID} (is it mapped?): {e}")
    for cap in range(64):
        if not _KEEP & (1 << cap) and _prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            if ctypes.get_errno() == 22:  # EINVAL: past the kernel's last capability
                break
            _fatal("prctl(PR_CAPBSET_DROP) failed")


if SANDBOXED:
    # No uid 0 magic on exec for the zygote or any child and no capability fix-up when uids change (locked);
    # bubblewrap already set no_new_privs.
    if _prctl(PR_SET_SECUREBITS, SECUREBITS, 0, 0, 0) != 0:
        _fatal("prctl(PR_SET_SECUREBITS) failed")
    if os.getresuid() == (0, 0, 0):
        _leave_uid_0()
    if os.getresuid() != (UID, UID, UID) or os.getresgid() != (GID, GID, GID):
        _fatal(f"the zygote expects uid/gid {UID}/{GID} inside its user namespace, got {os.getresuid()}/"
               f"{os.getresgid()}")
    # Exactly the two capabilities, effective and permitted; none inheritable, so none ambient either.
    _caps = (_CapData * 2)()
    _caps[0].effective = _caps[0].permitted = _KEEP
    if _capset(ctypes.byref(_CAP_HDR), _caps) != 0:
        _fatal("the zygote lacks CAP_SYS_ADMIN/CAP_SETPCAP in its user namespace")
    _caps = _caps_now()
    if (_caps[0].effective, _caps[0].permitted, _caps[0].inheritable, _caps[1].permitted) != (_KEEP, _KEEP, 0, 0):
        _fatal("the zygote's capabilities are not exactly CAP_SYS_ADMIN and CAP_SETPCAP")
    # After any uid change: the kernel resets "dumpable" when credentials change.
    if _prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        _fatal("prctl(PR_SET_DUMPABLE, 0) failed")
    if _prctl(39, 0, 0, 0, 0) != 1:  # PR_GET_NO_NEW_PRIVS
        _fatal("no_new_privs is not set")


_setns = _libc["setns"]
_unshare = _libc["unshare"]
CLONE_NEWPID = 0x20000000
# Our own pid namespace, to reset "the namespace for children" to before each unshare (a child never sees
# this fd: it closes every fd above 3 before anything of its program runs).
_SELF_PIDFD = os.pidfd_open(os.getpid()) if SANDBOXED else -1
_SETNS_SELF = (_SELF_PIDFD, CLONE_NEWPID)


def _fork_in_new_pid_namespace():
    """``os.fork()`` whose child is pid 1 of a fresh pid namespace (the zygote itself stays where it is).

    unshare(CLONE_NEWPID) only decides where later children go, and once per namespace: setns back to our
    own first. Cheaper for the child than a raw clone through ctypes, and glibc's fork keeps its state right.
    """
    if _setns(*_SETNS_SELF) != 0 or _unshare(CLONE_NEWPID) != 0:
        raise OSError(ctypes.get_errno(), "setns/unshare(CLONE_NEWPID): " + os.strerror(ctypes.get_errno()))
    return os.fork()


# Warm imports: a child finds these in sys.modules and shares their pages copy-on-write.
for _name in CFG["modules"]:
    try:
        __import__(_name)
    except Exception:
        pass

# The set-up mark: a page shared with every child (MAP_SHARED survives fork), where a child writes its
# sequence number once set-up is done and which it then unmaps, so its program cannot forge the mark.
_mmap = _libc.mmap
_mmap.restype = ctypes.c_void_p
_mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
PAGE = os.sysconf("SC_PAGE_SIZE")
PROT_READ, PROT_WRITE, MAP_SHARED = 1, 2, 1
MAP_ANONYMOUS = int(CFG["map_anonymous"])  # from the parent's `mmap` module: it differs between architectures
_MARK_ADDR = _mmap(None, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
if _MARK_ADDR in (None, ctypes.c_void_p(-1).value):
    _fatal("mmap of the set-up mark failed")
_SETUP_MARK = ctypes.c_uint64.from_address(_MARK_ADDR)
_MARK_ARGS = (ctypes.c_void_p(_MARK_ADDR), PAGE)
_munmap_c = _libc["munmap"]
# The child unblocks SIGCHLD, which the zygote keeps blocked (see `_wait`): a sigset_t with that one bit.
_SIGCHLD_SET = (ctypes.c_ulong * (128 // ctypes.sizeof(ctypes.c_ulong)))()
_SIGCHLD_SET[(signal.SIGCHLD - 1) // (8 * ctypes.sizeof(ctypes.c_ulong))] = 1 << (
    (signal.SIGCHLD - 1) % (8 * ctypes.sizeof(ctypes.c_ulong)))
_UNBLOCK_SIGCHLD = (int(signal.SIG_UNBLOCK), ctypes.byref(_SIGCHLD_SET), None)
_pthread_sigmask_c = _libc["pthread_sigmask"]
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
        raise _TooBig("value too large or too deep (over the judge's node budget or 100 levels)")
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


_OUTBUF: list[bytes] = []
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
    # The only place frames are written: a process forked by the program exits here instead.
    if os.getpid() != _OWNER[0]:
        os._exit(1)
    if _OUTBUF:
        data = b"".join(_OUTBUF)
        _OUTBUF.clear()
        _OUTLEN[0] = 0
        _write_all(_OUT_FD[0], data)


def _emit(obj):
    """Queue one frame for the parent (a value too large or unencodable becomes an error frame)."""
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


def _read_request(fd):
    """The request frame's payload: usually one read of a page (the parent wrote it before the fork)."""
    data = os.read(fd, 4096)
    while len(data) < 4:
        more = os.read(fd, 1 << 16)
        if not more:
            raise EOFError
        data += more
    (n,) = _H.unpack_from(data)
    if len(data) - 4 >= n:
        return data[4:4 + n]
    chunks, got = [data[4:]], len(data) - 4
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


def _load(name, source):
    """A fresh module ``name`` (in ``sys.modules``) and the program compiled for it: ``(globals, code)``, or
    ``None`` once a ``syntax``/``rt`` frame says why it does not compile."""
    mod = type(sys)(name)
    g = mod.__dict__
    g["__builtins__"] = builtins
    sys.modules[name] = mod
    try:
        return g, compile(source, "<solution>", "exec")
    except (SyntaxError, ValueError) as e:
        _emit(["syntax", _fmt_exc(e)])
    except BaseException as e:
        _emit(["rt", _fmt_exc(e)])
    return None


def _program(source, setup, leaves):
    """Run the program, the set-up code and every leaf; emit one frame per leaf, then ``done``."""
    # The program's globals are a module named ``solution``, not ``__main__``: a function task's program is
    # imported, as exec-based harnesses do, so its ``if __name__ == "__main__":`` block (often ``input()``)
    # is skipped; and it is in ``sys.modules``, so its functions pickle by reference (``multiprocessing``).
    loaded = _load("solution", source)
    if loaded is None:
        return
    g, code = loaded
    try:
        exec(code, g)
    except BaseException as e:
        _emit(["rt", _fmt_exc(e)])
        return
    if setup:
        # The set-up code runs beside the program, not over it: it only adds the names the program did not
        # define (a program's own `poly` with an extra argument stays its own; the parent judges with its own
        # pristine copy of the set-up code).
        sg = dict(g)
        try:
            exec(compile(setup, "<setup>", "exec"), sg)
        except BaseException as e:
            _emit(["rt", "in test setup code: " + _fmt_exc(e)])
            return
        for k, v in sg.items():
            if k not in g:
                g[k] = v
    nodes = [VALUE_NODES]  # one budget for every value of the program, as the parent decodes them
    for k, truth, name, src, vals, wrap, wvals in leaves:
        try:
            v = _leaf(g, truth, name, src, vals)
        except BaseException as e:
            _emit(["e", k, _fmt_exc(e)])
            continue
        try:
            budget = [nodes[0], False]
            enc = _enc(v, 0, budget)
            if budget[1] and wrap is not None:  # a program object under a judge function: apply it here
                g["__leafvalue__"] = v
                g["__wrapargs__"] = [_dec(x) for x in wvals]
                budget = [nodes[0], False]
                enc = _enc(eval(compile(wrap, "<test>", "eval"), g), 0, budget)
                nodes[0] = budget[0]
                _emit(["w", k, enc])
            else:
                nodes[0] = budget[0]
                _emit(["v", k, enc])
        except _TooBig as e:
            _emit(["e", k, str(e)])
        except BaseException as e:
            _emit(["e", k, _fmt_exc(e)])
    _emit(["done"])


class _Quitter:
    """``exit``/``quit`` as the ``site`` module defines them (the sandbox's Python runs without ``site``)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Use {self.name}() or Ctrl-D (i.e. EOF) to exit"

    def __call__(self, code=None):
        raise SystemExit(code)


def _stdio_program(source, fsize):
    """Run a stdin/stdout program as ``__main__``: its input is on fd 0 (a memfd the parent filled), its
    output goes to fd 1 (a memfd the parent reads); writing more than ``fsize - 1`` bytes to any file (the
    pool's output cap) kills it with SIGXFSZ. Emits one frame: ``["ok"]`` (a normal end, ``sys.exit(0)``
    included), ``["rt", msg]`` or ``["syntax", msg]``. The expected output never comes here."""
    _set_limit(_RLIMIT_FSIZE, fsize)
    io = sys.modules["io"]
    # Fresh streams on fds 0-2 (``sys.__stdout__`` too: a program may print through it).
    streams = {"stdin": io.open(0, "r", encoding="utf-8", errors="replace", closefd=False),
               "stdout": io.open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False),
               "stderr": io.open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)}
    for name, stream in streams.items():
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    out, err = streams["stdout"], streams["stderr"]
    builtins.exit, builtins.quit = _Quitter("exit"), _Quitter("quit")
    loaded = _load("__main__", source)
    if loaded is None:
        return
    g, code = loaded
    frame = ["ok"]
    try:
        exec(code, g)
    except SystemExit as e:
        c = e.code
        if c is not None and c != 0:
            try:
                why = "exit status " + str(c) if type(c) is int else "SystemExit: " + str(c)[:300]
            except BaseException:
                why = "SystemExit"
            frame = ["rt", why]
    except BaseException as e:
        frame = ["rt", _fmt_exc(e)]
    # What it printed, written out (the streams it may have swapped in too): a write past the cap kills it.
    for f in (out, err, sys.stdout, sys.stderr):
        try:
            f.flush()
        except BaseException:
            pass
    _emit(frame)


def _isolate(job_id):
    """Child set-up before anything of the program is read: own process group, private /tmp, limits, signal
    mask, no privileges. (RLIMIT_AS and the constant limits are the zygote's own, inherited.)"""
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
    if _setrlimit_c(_RLIMIT_CPU, _CPU_LIMIT_REF) != 0:  # filled in by the zygote for this job
        raise OSError(ctypes.get_errno(), "setrlimit(RLIMIT_CPU)")
    if _pthread_sigmask_c(*_UNBLOCK_SIGCHLD) != 0:  # the zygote blocks it to wait (see `_wait`)
        raise OSError(ctypes.get_errno(), "pthread_sigmask")
    # The last step: no capabilities (the child's only difference from the zygote, which keeps two).
    if SANDBOXED and _capset(_CAP_HDR_REF, _CAP_NONE) != 0:
        raise OSError(ctypes.get_errno(), "capset")


def _child(job_id, seq, fds):
    """Runs in the forked child; never returns."""
    status = 0
    _OWNER[0] = os.getpid()
    try:
        chan, out, err = fds[:3]
        os.dup2(out, 1)
        os.dup2(err, 2)
        if len(fds) == 4:  # a stdin/stdout program: its input (a memfd the parent filled) on fd 0
            os.dup2(fds[3], 0)
        if chan != 3:
            os.dup2(chan, 3)
        os.closerange(4, 1 << 16)  # the control socket and every other fd of the zygote
        _isolate(job_id)
        _SETUP_MARK.value = seq
        if _munmap_c(*_MARK_ARGS) != 0:  # unmapped: the program cannot forge the mark afterwards
            _SETUP_MARK.value = 0
            raise OSError(ctypes.get_errno(), "munmap")
        request = marshal.loads(_read_request(3))  # the parent's own request (see `_protocol`)
        if len(request) == 2:
            _stdio_program(*request)
        else:
            _program(*request)
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

    CPython specializes bytecode in place as it runs, fills caches and argument parsers on first use, and
    the dynamic linker binds a library function on its first call: done here, once, so children start
    from settled code and do not copy the pages those writes would touch. The child's own set-up calls
    are made too, each in a form that changes nothing for the zygote.
    """
    payload = marshal.dumps((_WARM_PROGRAM, "y = 1", _WARM_LEAVES))
    request = _H.pack(len(payload)) + payload
    null = os.open("/dev/null", os.O_WRONLY)
    r, w = os.pipe()
    _OUT_FD[0] = null
    try:
        for _ in range(WARM_UP_RUNS):
            os.write(w, request)
            _program(*marshal.loads(_read_request(r)))
            _flush()
    finally:
        _OUT_FD[0] = 3
        os.close(r)
        os.close(w)
    os.dup2(null, null)
    os.closerange(1 << 16, (1 << 16) + 1)  # no such fd
    os.close(null)
    try:
        os.setpgid(0, os.getpgid(0))  # a no-op, or EPERM for a session leader: bound all the same
    except OSError:
        pass
    os.chdir(".")
    _pthread_sigmask_c(*_UNBLOCK_SIGCHLD)  # not blocked yet: a no-op
    if SANDBOXED:
        caps = (_CapData * 2)()
        if _capget(_CAP_HDR_REF, caps) != 0 or _capset(_CAP_HDR_REF, caps) != 0:  # the same capabilities
            _fatal("capget/capset failed")
    _munmap_c(None, 0)  # EINVAL
    sys.stdout.flush()
    sys.stderr.flush()


def _grow_interned_table():
    """Make the interned-string table grow here, once, instead of in every child.

    Compiling a program interns its names. A zygote whose table is nearly full makes every child grow it
    again for its first new names: a rehash of thousands of entries into new memory, ~40 copy-on-write
    faults and ~0.25 ms per program (the state HEAD was in: evals/sandbox/README.md). Whether a table is
    near full depends on every name interned before, so any change to the zygote can put it there, and
    its room cannot be read without using it up. So throwaway names (a NUL prefix: never an identifier)
    are interned until the table is reallocated, seen as one large allocation under tracemalloc: it then
    has room for at least as many names as it holds (CPython grows a dict to 3x its live entries), at the
    cost of a few thousand short strings (kept from 3.12 on: interned strings are immortal there) and a
    bigger table. Traces are cleared at every step: trace records of strings kept alive would otherwise
    fragment the C heap, and each child's first ``malloc`` would walk those chunks (+50 faults per
    program on 3.12).
    """
    import _tracemalloc

    _tracemalloc.start(1)
    try:
        for i in range(1 << 20):
            _tracemalloc.clear_traces()
            sys.intern(f"\0headroom-{i}")
            if _tracemalloc.get_traced_memory()[0] > 4096:  # more than a short string: the table's new keys
                return
    finally:
        _tracemalloc.stop()


_SIGCHLD = (signal.SIGCHLD,)


def _wait(pid, deadline):
    """Wait for ``pid`` until ``deadline`` (monotonic s); kill it then. Returns (exit status, timed out).

    SIGCHLD is blocked in the zygote, so a child's exit stays pending until `signal.sigtimedwait` takes it:
    two system calls per program. A pending SIGCHLD may be stale (a child killed at its deadline, or one
    that stopped): the child's own state decides, and the wait goes on until the deadline.
    """
    while True:
        left = deadline - time.monotonic()
        if left > 0:
            signal.sigtimedwait(_SIGCHLD, left)
        wpid, st = os.waitpid(pid, os.WNOHANG)
        if wpid:
            return st, False
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
            return os.waitpid(pid, 0)[1], True


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


# Each program gets a fresh tmpfs on /tmp, mounted just before its fork. Detaching a mount (umount2)
# makes the kernel wait for an expedited RCU grace period: ~0.2 ms per program with the zygote asleep and
# its CPU idle (evals/sandbox/README.md). So a used tmpfs is moved instead (MS_MOVE: no grace period)
# under a holder tmpfs beneath /tmp, where the next program's tmpfs covers it, and every GRAVE_DEPTH
# programs, or at once if a program left anything in its tmpfs, the holder is detached with all it holds:
# one grace period for many programs. Nothing reads a used tmpfs. The holder is reachable only through
# the zygote's working directory; a child changes to its own /tmp before anything of its program is read.
_TMP = {"holder": False, "buried": 0, "fresh": None}


def _new_holder():
    """Mount an empty holder on /tmp and make it the zygote's working directory; 0 or an errno."""
    if _mount(*_MOUNT_HOLDER) != 0:
        return ctypes.get_errno() or -1
    try:
        if _mount(*_PRIVATE_TMP) != 0:  # MS_MOVE needs a private parent
            raise OSError(ctypes.get_errno() or -1, "MS_PRIVATE")
        os.chdir("/tmp")
        os.mkdir("grave", 0o700)
    except OSError as e:
        os.chdir("/")
        _umount2(*_UMOUNT_TMP)
        return e.errno or -1
    _TMP["buried"] = 0
    return 0


def _retire_tmp():
    """After the program's last process is gone: take its tmpfs off /tmp, unread; 0 or an errno."""
    if not _TMP["holder"]:  # no holder on this host: detach it alone (one grace period per program)
        return 0 if _umount2(*_UMOUNT_TMP) == 0 else ctypes.get_errno() or -1
    try:
        vfs = os.statvfs("/tmp")
        clean = (vfs.f_bfree, vfs.f_ffree) == _TMP["fresh"]  # nothing left in it: it holds no memory
    except OSError:
        clean = False
    if _mount(*_BURY) == 0:
        _TMP["buried"] += 1
    elif _umount2(*_UMOUNT_TMP) != 0:  # cannot move it (an old kernel?): detach it alone
        return ctypes.get_errno() or -1
    if clean and _TMP["buried"] < GRAVE_DEPTH:
        return 0
    if _umount2(*_UMOUNT_TMP) != 0:  # the holder, and every tmpfs under it
        return ctypes.get_errno() or -1
    error = _new_holder()
    _TMP["holder"] = not error
    return error


_FDS3 = struct.Struct("3i")


def _recv_job():
    """One control message: (bytes, fds, truncated); the fds of every SCM_RIGHTS item, however many."""
    msg, ancillary, flags, _ = _SOCK.recvmsg(64, _ANCILLARY)
    fds = []
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            fds += _FDS3.unpack(data) if len(data) == 12 else struct.unpack(
                f"{len(data) // 4}i", data[:len(data) - len(data) % 4])
    return msg, fds, bool(flags & _socket.MSG_CTRUNC)


def _close_all(fds):
    for fd in fds:
        os.close(fd)


def _serve():
    seq = 0
    while True:
        msg, fds, truncated = _recv_job()
        if not msg:
            os._exit(0)
        job_id, timeout, cpu = JOB.unpack(msg)
        if len(fds) not in (3, 4) or truncated:
            _close_all(fds)
            _SOCK.send(END.pack(job_id, -1, 0, 0, -1, 0.0, 0.0))
            continue
        seq += 1  # the mark a child writes: never reset, a stale one is an older number
        if cpu != _CPU_LIMIT.cur:  # usually the same for every job: no write (and no copied page) then
            _CPU_LIMIT.cur = _CPU_LIMIT.max = cpu
        if SANDBOXED:
            if _mount(*_MOUNT_TMP) != 0:
                _close_all(fds)
                _SOCK.send(END.pack(job_id, -1, 0, 0, ctypes.get_errno() or -1, 0.0, 0.0))
                continue
            if _TMP["fresh"] is None:
                vfs = os.statvfs("/tmp")
                _TMP["fresh"] = (vfs.f_bfree, vfs.f_ffree)
        t0 = time.monotonic()
        cpu0 = os.times()
        deadline = t0 + timeout
        try:
            pid = _fork_in_new_pid_namespace() if SANDBOXED else os.fork()
        except OSError as e:
            _close_all(fds)
            if SANDBOXED:
                _retire_tmp()
            _SOCK.send(END.pack(job_id, -1, 0, 0, e.errno or -1, 0.0, 0.0))
            continue
        if pid == 0:
            _child(job_id, seq, fds)
        # Straight to sleep: while the child lives, every page the zygote writes is copied (the child
        # still shares it); once it is gone the same write only takes the page back.
        st, timed_out = _wait(pid, deadline)
        dur = time.monotonic() - t0
        cpu1 = os.times()  # one child at a time: the change is this child's (and its reaped processes')
        used = (cpu1.children_user - cpu0.children_user) + (cpu1.children_system - cpu0.children_system)
        _close_all(fds)
        error = 0
        if SANDBOXED:
            # Every process of the program is gone (its pid namespace died with it): drop its /tmp unread.
            error = _retire_tmp()
        else:
            try:
                os.killpg(pid, signal.SIGKILL)  # the program's leftover processes (no pid namespace here)
            except OSError:
                pass
            _rmtree(os.path.join(TMP, f"run-{job_id}"))
        code = -os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st)
        _SOCK.send(END.pack(job_id, code, timed_out, _SETUP_MARK.value == seq, error, dur, used))


# Default dispositions, inherited by every child (Python's own handlers would make a program's SIGINT
# raise inside the judge's code). SIGCHLD stays default too; the zygote blocks it (see `_wait`).
for _s in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGXFSZ):
    signal.signal(_s, signal.SIG_DFL)


class _CappedOutput(io.RawIOBase):
    """A program's fd 1 or 2: what it writes past the output file's size limit (RLIMIT_FSIZE) is dropped, not
    an error (the parent keeps only ``max_output_bytes`` of it anyway): printing too much truncates."""

    def __init__(self, fd):
        super().__init__()
        self._fd = fd

    def writable(self):
        return True

    def fileno(self):
        return self._fd

    def write(self, b):
        try:
            return os.write(self._fd, b)
        except OSError as e:
            if e.errno != errno.EFBIG:
                raise
            return len(b)


# Inherited by every child (which dup2s its own output files onto fds 1 and 2): no per-program cost.
sys.stdout, sys.stderr = (
    io.TextIOWrapper(io.BufferedWriter(_CappedOutput(f.fileno())), encoding=f.encoding, errors=f.errors,
                     line_buffering=bool(f.line_buffering)) for f in (sys.stdout, sys.stderr) if not f.flush())
# The CPUs a program may use (the parent's count: its cgroup quota, half its process allowance), so that
# `multiprocessing.Pool()` and executors size themselves to the limits instead of to the host.
_CPUS = int(CFG["cpus"])
_AFFINITY = frozenset(sorted(os.sched_getaffinity(0))[:_CPUS])
os.cpu_count = lambda: _CPUS
os.sched_getaffinity = lambda pid: set(_AFFINITY)
if hasattr(os, "process_cpu_count"):  # Python 3.13+: what multiprocessing and executors read there
    os.process_cpu_count = lambda: _CPUS
_TMP["holder"] = SANDBOXED and _new_holder() == 0
_warm_up()
_grow_interned_table()
signal.pthread_sigmask(signal.SIG_BLOCK, _SIGCHLD)
# RLIMIT_AS is the zygote's own from here on (it is far below any `memory_mb`), inherited by each child.
_set_limit(RLIMIT_AS, AS_BYTES)
gc.collect()
# Hand free heap pages back: fork copies the page-table entry of every present page and a child's exit
# tears each down again, ~0.25 us a page per program here (evals/sandbox/README.md).
try:
    _libc.malloc_trim(0)
except AttributeError:  # not glibc
    pass
gc.freeze()  # keep the warm heap shared copy-on-write with every child
_send({"ready": os.getpid(), "uid": os.getuid(), "python": sys.version.split()[0]})
_serve()
