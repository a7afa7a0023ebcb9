"""Peak host memory of one program that forks N children each touching M MB, under CodePool(memory_mb=...).

Run as a normal user on a host with no delegated cgroup (the case the split limit is for):
    python evals/sandbox/fork_memory.py --children 8 --mb 300 --memory-mb 512
The parent samples /proc every few ms and sums VmRSS over every descendant of this process (the
sandbox's zygote included, its idle RSS reported apart), so the figure is what the host really held.
"""

from __future__ import annotations

import argparse
import os
import threading
import time

from verifiers.sandbox import CodePool

PROGRAM = """
import os, time
def run(n, mb):
    pids, held = [], 0
    for _ in range(n):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            try:
                b = b"x" * (mb << 20)   # touched: every page resident
                time.sleep(1.5)
                os._exit(0 if len(b) else 1)
            except MemoryError:
                os._exit(3)
        pids.append(pid)
    for pid in pids:
        _, st = os.waitpid(pid, 0)
        held += os.waitstatus_to_exitcode(st) == 0
    return held
"""


def _descendants(root: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        for c in kids.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def _rss_kb(pids: list[int]) -> int:
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--children", type=int, default=8)
    ap.add_argument("--mb", type=int, default=300)
    ap.add_argument("--memory-mb", type=int, default=512)
    ap.add_argument("--cgroup", default="auto")
    a = ap.parse_args()
    with CodePool(workers=1, memory_mb=a.memory_mb, timeout_s=20, cgroup=a.cgroup) as pool:
        pool.run("def f():\n    return 1\n", ["assert f() == 1"])
        idle = _rss_kb(_descendants(os.getpid()))
        peak = [0]
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], _rss_kb(_descendants(os.getpid())))
                time.sleep(0.005)

        t = threading.Thread(target=sample)
        t.start()
        res = pool.run(PROGRAM, [f"assert print(run({a.children}, {a.mb})) is None"])
        stop.set()
        t.join()
        held = res.stdout.strip() or res.detail
        print(f"uid={os.getuid()} limits_in_force: {pool.limits_in_force}")
        print(f"memory_mb={a.memory_mb} children={a.children}x{a.mb}MB: status={res.status} "
              f"children that held their memory: {held}")
        print(f"idle sandbox RSS {idle / 1024:.0f} MB; peak RSS sum {peak[0] / 1024:.0f} MB; "
              f"program's share {(peak[0] - idle) / 1024:.0f} MB")


if __name__ == "__main__":
    main()
