"""Class limits: a program forks as many processes as it may, each touching as much memory as it can (16 MB
steps, also 1 MB steps to fill the last gap), and writes to every fd it holds (stdin memfd, /tmp) to add page
cache. Safe: the sum stays within memory_mb (512) + the 64 MB tmpfs, as a root pool (cgroup) and as a normal
user (split rlimit)."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import report

from verifiers.sandbox import CodePool, StdioTest

PROG = r'''
import os, time, threading
r, w = os.pipe()
kids = []
for _ in range(64):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        kids = None
        break
    kids.append(pid)
got = []
for step in (16 << 20, 1 << 20):
    while True:
        try:
            b = bytearray(step)
            b[::4096] = b"\1" * len(b[::4096])
            got.append(b)
        except MemoryError:
            break
mine = sum(map(len, got))
extra = 0
try:
    fd = os.open("/proc/self/fd/0", os.O_RDWR)
    for _ in range(64):
        extra += os.write(fd, b"z" * (1 << 20))
except OSError:
    pass
if kids is None:
    os.write(w, (mine + extra).to_bytes(8, "little"))
    time.sleep(3)
    os._exit(0)
s = mine + extra
for _ in kids:
    s += int.from_bytes(os.read(r, 8), "little")
print(s >> 20, len(kids) + 1, extra >> 20, flush=True)
'''


def main() -> None:
    with CodePool(workers=1, timeout_s=4.0, memory_mb=512) as pool:
        lim = pool.limits_in_force
        r = pool.run_stdio(PROG, [StdioTest("", "0\n")])
    held = r.stdout.split()
    mb = int(held[0]) if held and held[0].isdigit() else -1
    who = "root" if os.getuid() == 0 else f"uid {os.getuid()}"
    obs = (f"as {who}; limits: {lim[:70]}...; program touched {mb} MB over {held[1:2]} processes "
           f"(stdin-memfd writes {held[2:3]} MB); status {r.status}")
    report("limits", f"fork max processes x allocate max ({who})", "sum <= ~576 MB", obs, mb > 600)


if __name__ == "__main__":
    main()
