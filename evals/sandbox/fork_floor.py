"""The floor under any fork-per-program runner on this machine: bare ``os.fork()`` + exit from Python.

    python -I -S evals/sandbox/fork_floor.py [N]     # as the sandbox worker runs (no site, no .pth hooks)
    python evals/sandbox/fork_floor.py [N]           # a default interpreter: ~2.5x dearer here

Prints wall time, CPU (parent + child) and minor page faults per fork. On 2 cores the CPU per fork bounds
how many fresh children per second any such runner can make, before a program does any work.
"""

from __future__ import annotations

import gc
import os
import resource
import sys
import time


def main(n: int = 2000) -> None:
    gc.collect()
    gc.freeze()  # as the sandbox worker does: keep the heap shared copy-on-write
    t0 = time.perf_counter()
    c0, s0 = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    wall = time.perf_counter() - t0
    c1, s1 = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    child = (c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime) / n
    parent = (s1.ru_utime + s1.ru_stime - s0.ru_utime - s0.ru_stime) / n
    cores = os.cpu_count() or 1
    print(f"bare fork+exit, {n} times: {wall / n * 1e6:.0f} us wall, {child * 1e6:.0f} us child CPU + "
          f"{parent * 1e6:.0f} us parent CPU, {(c1.ru_minflt - c0.ru_minflt) / n:.0f} minor faults per fork; "
          f"ceiling on {cores} cores: {cores / (child + parent):,.0f} forks/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
