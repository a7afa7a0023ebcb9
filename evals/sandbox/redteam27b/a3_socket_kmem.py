"""Class limits: kernel memory outside memory_mb. A program's processes each fill AF_UNIX socketpair buffers
(SO_SNDBUF raised to wmem_max) up to RLIMIT_NOFILE: the queued bytes live in kernel memory that neither
RLIMIT_AS (split rlimit, no cgroup) nor, possibly, the sandbox cgroup counts.

Safe: what one program holds stays near memory_mb (512 MB) + the 64 MB tmpfs.
Run as root (cgroup where the host has one) and as a normal user (run_all does both).
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import report

from verifiers.sandbox import CodePool, StdioTest

PROG = r'''
import os, socket, time
r, w = os.pipe()
kids = []
for _ in range(int(os.environ.get("N", "7"))):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        kids = None
        break
    kids.append(pid)
total = 0
socks = []
chunk = b"x" * 65536
try:
    while True:
        a, b = socket.socketpair()
        socks += [a, b]
        a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)
        b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 30)
        a.setblocking(False)
        try:
            while True:
                total += a.send(chunk)
        except (BlockingIOError, OSError):
            pass
except OSError:
    pass
if kids is None:
    os.write(w, total.to_bytes(8, "little"))
    time.sleep(3)
    os._exit(0)
s = total
for _ in kids:
    s += int.from_bytes(os.read(r, 8), "little")
print(s >> 20, len(kids) + 1, flush=True)
time.sleep(2)
'''


def avail_mb() -> int:
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable"):
                return int(line.split()[1]) >> 10
    return -1


def main() -> None:
    with CodePool(workers=1, timeout_s=4.0, memory_mb=512) as pool:
        lim = pool.limits_in_force
        before = avail_mb()
        fut = pool.submit_stdio(PROG, [StdioTest("", "0\n")])
        low = before
        while not fut.done():
            low = min(low, avail_mb())
            time.sleep(0.1)
        r = fut.result()
    held = r.stdout.split()
    mb = int(held[0]) if held and held[0].isdigit() else -1
    who = "root" if os.getuid() == 0 else f"uid {os.getuid()}"
    obs = (f"as {who}; {lim[:60]}...; program reports {mb} MB queued in socket buffers by "
           f"{held[1] if len(held) > 1 else '?'} processes; host MemAvailable dropped {before - low} MB "
           f"(noisy, shared host); status {r.status} {r.detail[:80]}")
    report("limits", f"socketpair buffers x fds x processes ({who})",
           "program holds <= ~576 MB (memory_mb 512 + tmpfs 64)", obs, mb > 700 or before - low > 1500)


if __name__ == "__main__":
    main()
