# ruff: noqa: BLE001, S102, S110  (catching everything and exec-ing untrusted code is this file's job)
"""Sandbox worker: the only code that runs inside the sandbox besides the programs themselves.

It is never imported by the parent. The parent sends this file's text over the worker's stdin (see
`_isolation.BOOTSTRAP`), so nothing of the project tree is visible inside the sandbox. Standard library
only. Protocol (frames are a 4-byte big-endian length + bytes):

    parent -> worker: config frame, then one request frame per program (JSON).
    worker -> parent: "ready" frame, then per request a header frame (JSON) and a blob frame holding the
                      child's own frames verbatim (the parent validates everything).

Each program runs in a child forked from this warm worker, with rlimits, its own process group and no
channel fds. The child reports plain values for the test expressions ("leaves") the parent asked for;
it never sees expected values and never decides pass/fail. Its frames are untrusted.
"""

import builtins
import gc
import json
import os
import resource
import select
import signal
import struct
import sys
import time

_H = struct.Struct(">I")
_dumps = json.dumps
_encode = json.JSONEncoder(separators=(",", ":")).encode
IN_FD = os.dup(0)
OUT_FD = os.dup(1)
_nul = os.open("/dev/null", os.O_RDWR)
os.dup2(_nul, 0)
os.dup2(_nul, 1)
os.close(_nul)


def _read_exact(fd, n):
    chunks = []
    while n > 0:
        c = os.read(fd, min(n, 1 << 20))
        if not c:
            raise EOFError
        chunks.append(c)
        n -= len(c)
    return b"".join(chunks)


def _read_frame():
    (n,) = _H.unpack(_read_exact(IN_FD, 4))
    return _read_exact(IN_FD, n)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _send(header, blob=None):
    h = _dumps(header, separators=(",", ":")).encode()
    parts = [_H.pack(len(h)), h]
    if blob is not None:
        parts += [_H.pack(len(blob)), blob]
    _write_all(OUT_FD, b"".join(parts))


os.environ.clear()  # bwrap may still set PWD; programs see an empty environment
CFG = json.loads(_read_frame())
SANDBOXED = bool(CFG["sandboxed"])
TMP = CFG["tmp"]
MAX_CHILD_FRAME = int(CFG["max_child_frame"])

if SANDBOXED:
    # Non-dumpable: a program running as the same uid cannot ptrace this worker or open its fds via /proc.
    import ctypes

    _libc = ctypes.CDLL(None, use_errno=True)
    if _libc.prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE
        _send({"fatal": "prctl(PR_SET_DUMPABLE, 0) failed"})
        os._exit(2)
    if os.getuid() == 0 and not CFG.get("allow_root"):
        _send({"fatal": "sandbox worker is running as uid 0; refusing"})
        os._exit(2)

if CFG.get("nproc"):
    resource.setrlimit(resource.RLIMIT_NPROC, (CFG["nproc"], CFG["nproc"]))

# Warm imports: a forked child finds these in sys.modules (fast), and they are restored before tests run.
_MODS = {}
for _name in CFG["modules"]:
    try:
        _m = __import__(_name)
        for _part in _name.split(".")[1:]:
            _m = getattr(_m, _part)
        _MODS[_name] = _m
    except Exception:
        pass
RESTORED_MODULES = ("math", "operator")
_MOD_SNAP = {n: dict(_MODS[n].__dict__) for n in RESTORED_MODULES if n in _MODS}
_BUILTINS_SNAP = dict(builtins.__dict__)

_OUT = os.memfd_create("stdout") if hasattr(os, "memfd_create") else None
_ERR = os.memfd_create("stderr") if hasattr(os, "memfd_create") else None
if _OUT is None:
    _OUT = os.open(os.path.join(TMP, ".stdout"), os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    _ERR = os.open(os.path.join(TMP, ".stderr"), os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    os.unlink(os.path.join(TMP, ".stdout"))
    os.unlink(os.path.join(TMP, ".stderr"))
WORKDIR = os.path.join(TMP, "run")
os.makedirs(WORKDIR, exist_ok=True)


def _warm_up():
    """Exercise compile/exec/eval/encode once so children do not pay first-use costs (page faults)."""
    g = {"__name__": "__main__", "__builtins__": builtins}
    exec(compile("import math\ndef f(x):\n    return [x, (x, 1.5), {x: 'a'}, {x}, b'x']\nclass A:\n    pass\n",
                 "<warm-up>", "exec"), g)
    for src in ("f(1)", "f(2)[1]", "sorted(set(f(3)[3]))"):
        _dumps(["v", 0, _enc(eval(compile(src, "<test>", "eval"), g), 0, [1000])], separators=(",", ":"))




# ---------------------------------------------------------------------------------------------- child


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
    return {"x": str(getattr(t, "__name__", "?"))[:80]}


def _restore():
    """Undo what a program may have patched before the test expressions run.

    Builtins, the warm modules' ``sys.modules`` entries and the attributes of `RESTORED_MODULES` come
    back from the worker's snapshot. (Verdicts never depend on this: comparisons happen in the parent.
    It keeps honest programs that monkeypatch for their own use from skewing test expressions.)
    """
    sys.settrace(None)
    sys.setprofile(None)
    d = builtins.__dict__
    d.clear()
    d.update(_BUILTINS_SNAP)
    for n, m in _MODS.items():
        sys.modules[n] = m
    for n in RESTORED_MODULES:
        if n in _MODS:
            md = _MODS[n].__dict__
            md.clear()
            md.update(_MOD_SNAP[n])


def _compile_leaf(src):
    try:
        return compile(src, "<test>", "eval")
    except BaseException as e:
        return _fmt_exc(e)


def _child(req, w, pre, post):
    os.setpgid(0, 0)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(s, signal.SIG_DFL)
    os.dup2(_OUT, 1)
    os.dup2(_ERR, 2)
    os.closerange(3, w)
    os.closerange(w + 1, 1 << 16)
    os.chdir(WORKDIR)
    lim = req["limits"]
    for name, value in lim.items():
        value = int(value)
        resource.setrlimit(getattr(resource, name), (value, value))

    def emit(obj):
        if obj[0] in ("done", "rt", "syntax"):  # last frame: the worker kills us right after reading it
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except BaseException:
                    pass
        try:
            data = _encode(obj).encode()
        except BaseException as e:  # e.g. an int too large to print
            data = _dumps(["e", obj[1] if len(obj) > 1 else -1, "unencodable value: " + _fmt_exc(e)]).encode()
        if len(data) > MAX_CHILD_FRAME:
            data = _dumps(["e", obj[1] if len(obj) > 1 else -1, "value too large"]).encode()
        _write_all(w, _H.pack(len(data)) + data)

    def value(k, expr, ns):
        try:
            v = eval(expr, ns)
        except BaseException as e:
            return ["e", k, _fmt_exc(e)], False
        try:
            return ["v", k, _enc(v, 0, [200000])], True
        except BaseException as e:
            return ["e", k, _fmt_exc(e)], False

    # Program-independent leaves first, before any untrusted code runs (their frames come first).
    retry = []
    for k, expr, mods in pre:
        if not isinstance(expr, type(_child.__code__)):
            emit(["e", k, expr])  # the compile error text
            continue
        ns = {"__builtins__": builtins}
        for m in mods:
            ns[m] = _MODS.get(m) or __import__(m)
        frame, ok = value(k, expr, ns)
        if ok:
            emit(frame)
        else:
            retry.append((k, expr))
    emit(["p"])

    g = {"__name__": "__main__", "__builtins__": builtins}
    try:
        code = compile(req["code"], "<solution>", "exec")
    except (SyntaxError, ValueError) as e:
        emit(["syntax", _fmt_exc(e)])
        return
    except BaseException as e:
        emit(["rt", _fmt_exc(e)])
        return
    try:
        exec(code, g)
    except BaseException as e:
        _restore()
        emit(["rt", _fmt_exc(e)])
        return
    if req["setup"]:
        try:
            exec(compile(req["setup"], "<setup>", "exec"), g)
        except BaseException as e:
            _restore()
            emit(["rt", "in test setup code: " + _fmt_exc(e)])
            return
    _restore()
    emit(["ok"])
    for k, expr in post + retry:
        if not isinstance(expr, type(_child.__code__)):
            emit(["e", k, expr])
            continue
        emit(value(k, expr, g)[0])
    emit(["done"])


# --------------------------------------------------------------------------------------------- worker

def _clean_tmp():
    """Wipe what the last program left in the tmpfs; False if that failed (the worker is then recycled)."""
    ok = True
    for base in (WORKDIR, TMP):
        try:
            names = os.listdir(base)
        except OSError:
            return False
        for n in names:
            p = os.path.join(base, n)
            if base == TMP and p == WORKDIR:
                continue
            ok = _rm(p) and ok
    return ok


def _rm(p):
    try:
        if os.path.islink(p) or not os.path.isdir(p):
            os.unlink(p)
            return True
        os.chmod(p, 0o700)
        for n in os.listdir(p):
            _rm(os.path.join(p, n))
        os.rmdir(p)
        return True
    except OSError:
        return False


def _read_out(fd, limit):
    size = os.fstat(fd).st_size
    data = os.pread(fd, min(size, limit), 0) if size else b""
    if size:
        os.ftruncate(fd, 0)
    return data.decode("utf-8", "replace"), size > limit


_UNREAPED: list = []  # children killed after "done", reaped before the next fork


def _run(req):
    while _UNREAPED:
        try:
            os.waitpid(_UNREAPED.pop(), 0)
        except ChildProcessError:
            pass
    max_blob = int(req["max_blob"])
    os.lseek(_OUT, 0, 0)
    os.lseek(_ERR, 0, 0)
    r, w = os.pipe()
    t0 = time.monotonic()
    pre = [(k, _compile_leaf(src), mods) for k, src, mods in req["pre"]]
    post = [(k, _compile_leaf(src)) for k, src in req["post"]]
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            _child(req, w, pre, post)
        except BaseException:
            pass
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except BaseException:
                pass
            os._exit(0)
    os.close(w)
    os.set_blocking(r, False)
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    deadline = t0 + float(req["timeout"])
    buf = bytearray()
    done = timed_out = overflow = exited = False
    scan = 0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            timed_out = True
            break
        fds = [r] if pidfd is None else [r, pidfd]
        ready, _, _ = select.select(fds, [], [], remaining if pidfd is not None else min(remaining, 0.005))
        eof = False
        if r in ready or pidfd is None:
            try:
                while True:
                    chunk = os.read(r, 1 << 16)
                    if not chunk:
                        eof = True
                        break
                    buf += chunk
                    if len(buf) > max_blob:
                        overflow = True
                        break
            except BlockingIOError:
                pass
            if overflow:
                break
            # Scan complete frames for the end marker (other processes of the program may write too).
            while scan + 4 <= len(buf):
                (n,) = _H.unpack_from(buf, scan)
                if scan + 4 + n > len(buf):
                    break
                if buf[scan + 4:scan + 4 + n] == b'["done"]':
                    done = True
                scan += 4 + n
            if done:
                break
        if pidfd is not None and pidfd in ready:
            exited = True
        elif pidfd is None:
            exited = os.waitpid(pid, os.WNOHANG)[0] == pid
        if exited or eof:
            # Child gone (or closed its end): take what is left in the pipe without waiting for daemons.
            try:
                while len(buf) <= max_blob:
                    chunk = os.read(r, 1 << 16)
                    if not chunk:
                        break
                    buf += chunk
            except BlockingIOError:
                pass
            if exited or not eof:
                break
            # EOF but not exited yet: wait for the exit itself (bounded by the deadline).
            if pidfd is not None:
                select.select([pidfd], [], [], max(0.0, deadline - time.monotonic()))
                if time.monotonic() >= deadline:
                    timed_out = True
            break
    dur = time.monotonic() - t0
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass
    if SANDBOXED:
        # Own pid namespace and a uid of our own: this reaches exactly the program's leftover processes.
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass
    if done:
        # The verdict does not need the exit status: reap after answering (the kill is already queued).
        _UNREAPED.append(pid)
        st = 0
    else:
        try:
            _, st = os.waitpid(pid, 0)
        except ChildProcessError:
            st = 0
    if pidfd is not None:
        os.close(pidfd)
    os.close(r)
    sig = os.WTERMSIG(st) if os.WIFSIGNALED(st) else 0
    limit = int(req["max_output"])
    out, out_trunc = _read_out(_OUT, limit)
    err, err_trunc = _read_out(_ERR, limit)
    clean = _clean_tmp()
    header = {
        "id": req["id"],
        "timed_out": timed_out and not done,
        "overflow": overflow,
        "signal": sig if not done else 0,
        "duration": dur,
        "stdout": out,
        "stderr": err,
        "stdout_truncated": out_trunc,
        "stderr_truncated": err_trunc,
        "anomaly": not clean,
    }
    return header, bytes(buf[:max_blob])


_warm_up()
gc.collect()
gc.freeze()  # keep the warm heap shared copy-on-write with every child
_send({"ready": os.getpid(), "uid": os.getuid(), "python": sys.version.split()[0]})
while True:
    try:
        _req = json.loads(_read_frame())
    except EOFError:
        os._exit(0)
    _hdr, _blob = _run(_req)
    _send(_hdr, _blob)
