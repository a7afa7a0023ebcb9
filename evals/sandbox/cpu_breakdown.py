"""Where the wall time of a 2-sandbox `CodePool` goes, per program: parent, zygotes, children, kernel.

    python evals/sandbox/cpu_breakdown.py --build head=/tmp/headsb/src --build new=src --rounds 4
    python evals/sandbox/cpu_breakdown.py --build a=src --build b=src --pool-kw b='{"cgroup": "off"}'

For each build (its own fresh interpreter, builds interleaved in shuffled rounds) a warm pool runs the 973
MBPP reference solutions other than mbpp/123; around each pass it reads ``/proc/stat`` (the whole
machine's user, system, irq and softirq time) and ``/proc/<pid>/stat`` of every process. Reported per
program, medians over passes and rounds:

- ``parent``: this process (dispatcher thread + caller), user and system;
- ``zygote``: the zygotes' own time (forks, waits, mounts); ``child``: the children they reaped;
- ``bwrap``: bubblewrap's processes (monitor, init);
- ``kthreads``: kernel threads (kworkers, RCU, ksoftirqd): deferred namespace and mount teardown;
- ``irq``: hard and soft interrupt time not charged to any task;
- ``other``: processes outside the pool that lived through the pass (other users of the machine);
- ``unattributed``: the machine's busy time minus all of the above (processes that started and ended
  within the pass outside the pool, and time not accounted to any task);
- ``ours``: parent + zygote + child + bwrap (the pool's own CPU, the figure least moved by other load);
- ``busy``: the machine's non-idle time; ``idle``: idle CPU time per program (with 2 cores at 100 %
  busy, 2 / busy bounds programs/s).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

_CHILD = r"""
import json, os, sys, time
from pathlib import Path
from verifiers.datasets import load_problems
from verifiers.sandbox import CodePool

TICK = os.sysconf("SC_CLK_TCK")


def machine():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal
    return {"user": v[0] + v[1], "system": v[2], "idle": v[3] + v[4], "irq": v[5] + v[6], "steal": v[7]}


def procs():
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                text = f.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        rest = text[text.rindex(")") + 2:].split()
        # ppid, flags, utime, stime, cutime, cstime, starttime
        out[int(d)] = (name, int(rest[1]), int(rest[6]), int(rest[11]), int(rest[12]), int(rest[13]),
                       int(rest[14]), int(rest[19]))
    return out


def classify(ps):
    me = os.getpid()
    kids = {}
    for pid, p in ps.items():
        kids.setdefault(p[1], []).append(pid)
    tree, todo = set(), [me]
    while todo:
        x = todo.pop()
        for k in kids.get(x, []):
            if k not in tree:
                tree.add(k)
                todo.append(k)
    cls = {}
    for pid, p in ps.items():
        if pid == me:
            cls[pid] = "parent"
        elif pid in tree:
            cls[pid] = "zygote" if p[0].startswith("python") else "bwrap"
        elif p[2] & 0x00200000 or pid == 2 or p[1] == 2:  # PF_KTHREAD
            cls[pid] = "kthreads"
        else:
            cls[pid] = "other"
    return cls


def delta(before, after):
    cls = classify(after)
    out = {"parent_user": 0.0, "parent_sys": 0.0, "zygote": 0.0, "child": 0.0, "bwrap": 0.0, "kthreads": 0.0,
           "other": 0.0}
    for pid, a in after.items():
        b = before.get(pid)
        if b is None or b[7] != a[7]:  # started during the pass
            b = (a[0], a[1], a[2], 0, 0, 0, 0, a[7])
            if cls[pid] == "other":
                continue  # its whole lifetime would not be this pass's
        c = cls[pid]
        du, ds, dcu, dcs = (a[3] - b[3]) / TICK, (a[4] - b[4]) / TICK, (a[5] - b[5]) / TICK, (a[6] - b[6]) / TICK
        if c == "parent":
            out["parent_user"] += du
            out["parent_sys"] += ds
        elif c == "zygote":
            out["zygote"] += du + ds
            out["child"] += dcu + dcs
        else:
            out[c] += du + ds + dcu + dcs
    return out


data, workers, passes, kw = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
problems = [p for p in load_problems("mbpp", Path(data) / "mbpp" / "mbpp.jsonl", split="all") if p.id != "mbpp/123"]
items = [{"code": p.solution, "tests": list(p.tests), "setup_code": p.setup_code, "timeout_s": 30.0}
         for p in problems]
n = len(items)
res = []
with CodePool(workers=workers, timeout_s=30.0, **kw) as pool:
    pool.map([{"code": "def f():\n    return 1\n", "tests": ["assert f() == 1"]}] * 50)
    for _ in range(passes):
        m0, p0, t0 = machine(), procs(), time.perf_counter()
        rs = pool.map(items)
        wall, m1, p1 = time.perf_counter() - t0, machine(), procs()
        d = delta(p0, p1)
        md = {k: (m1[k] - m0[k]) / TICK for k in m0}
        busy = md["user"] + md["system"] + md["irq"]
        row = {k: v / n * 1e3 for k, v in d.items()}
        row["irq"] = md["irq"] / n * 1e3
        row["steal"] = md["steal"] / n * 1e3
        row["machine_user"] = md["user"] / n * 1e3
        row["machine_sys"] = md["system"] / n * 1e3
        row["busy"] = busy / n * 1e3
        row["idle"] = md["idle"] / n * 1e3
        row["unattributed"] = row["busy"] - sum(row[k] for k in d) - row["irq"]
        row["ours"] = sum(row[k] for k in ("parent_user", "parent_sys", "zygote", "child", "bwrap"))
        row["wall"] = wall / n * 1e3
        row["programs_per_s"] = n / wall
        row["passed"] = sum(r.passed for r in rs)
        res.append(row)
print(json.dumps({"rows": res, "n": n}))
"""

COLUMNS = ("programs_per_s", "wall", "ours", "parent_user", "parent_sys", "zygote", "child", "bwrap", "kthreads", "irq",
           "other", "unattributed", "busy", "machine_user", "machine_sys", "idle", "steal")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="append", required=True, help="NAME=PATH of a src directory (repeatable)")
    ap.add_argument("--data-dir", default=os.environ.get("VERIFIERS_DATA_DIR", "../shared/data"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pool-kw", action="append", default=[],
                    help='NAME=JSON: CodePool keyword arguments for build NAME, e.g. new=\'{"cgroup": "off"}\'')
    args = ap.parse_args(argv)
    builds = dict(b.split("=", 1) for b in args.build)
    pool_kw = dict(b.split("=", 1) for b in args.pool_kw)
    rng = random.Random(args.seed)
    rows: dict[str, list[dict[str, float]]] = {name: [] for name in builds}
    loads = [os.getloadavg()]
    for r in range(args.rounds):
        order = list(builds)
        rng.shuffle(order)
        for name in order:
            env = {**os.environ, "PYTHONPATH": str(Path(builds[name]).resolve())}
            proc = subprocess.run([args.python, "-c", _CHILD, str(Path(args.data_dir).resolve()), str(args.workers),
                                   str(args.passes), pool_kw.get(name, "{}")], env=env, capture_output=True, text=True, check=False, cwd="/")
            if proc.returncode != 0:
                print(f"{name}: failed\n{proc.stderr[-2000:]}", file=sys.stderr)
                return 1
            got = json.loads(proc.stdout.strip().splitlines()[-1])
            rows[name] += got["rows"]
            print(f"round {r + 1} {name}: " + " ".join(f"{x['programs_per_s']:.0f}" for x in got["rows"])
                  + f" programs/s (passed {[x['passed'] for x in got['rows']]}/{got['n']})", flush=True)
        loads.append(os.getloadavg())
    print("per program, ms (medians over every pass of every round); programs_per_s as is")
    print(f"{'':16}" + "".join(f"{name:>10}" for name in builds))
    for col in COLUMNS:
        print(f"{col:16}" + "".join(f"{statistics.median(x[col] for x in rows[name]):10.3f}" for name in builds))
    print("load average:", [[round(x, 2) for x in la] for la in loads], time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                                                     time.gmtime()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
