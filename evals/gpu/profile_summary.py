"""Where a process spent its time, from the sampling profiler's folded stacks (sampling_profiler/).

    python evals/gpu/profile_summary.py PROF_DIR                       # busiest processes
    python evals/gpu/profile_summary.py PROF_DIR --match infer_batch   # inclusive time under a frame

With --match, reads the process whose stacks contain that frame most often and prints, for the samples
under it, the share of each function (inclusive) and of each leaf line.
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path


def read_folded(path: Path) -> tuple[str, list[tuple[list[str], int]]]:
    """(process command line, [(stack frames root first, samples)])."""
    lines = path.read_text().splitlines()
    title = lines[0][2:] if lines and lines[0].startswith("# ") else path.stem
    rows = []
    for line in lines[1:]:
        stack, _, n = line.rpartition(" ")
        rows.append((stack.split(";"), int(n)))
    return title, rows


def summarise(rows: list[tuple[list[str], int]], match: str, top: int) -> str:
    inclusive: collections.Counter[str] = collections.Counter()
    leaves: collections.Counter[str] = collections.Counter()
    total = 0
    for frames, n in rows:
        if not any(match in f for f in frames):
            continue
        total += n
        for name in {f.rsplit(":", 1)[0] for f in frames}:  # file:function, any line
            inclusive[name] += n
        leaves[frames[-1]] += n
    out = [f"{total} samples under {match!r}", "inclusive:"]
    out += [f"  {100 * v / total:5.1f}%  {k}" for k, v in inclusive.most_common(top)]
    out += ["leaf lines:"] + [f"  {100 * v / total:5.1f}%  {k}" for k, v in leaves.most_common(top // 2)]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("prof_dir", type=Path)
    ap.add_argument("--match", help="a frame substring, e.g. infer_batch or train_mini_batch")
    ap.add_argument("--top", type=int, default=30)
    args = ap.parse_args()
    files = sorted(args.prof_dir.glob("*.folded"))
    if not files:
        raise SystemExit(f"no *.folded files in {args.prof_dir}")
    procs = [(f, *read_folded(f)) for f in files]
    if not args.match:
        for f, title, rows in sorted(procs, key=lambda p: -sum(n for _, n in p[2]))[: args.top]:
            print(f"{sum(n for _, n in rows):8d}  {f.name}  {title[:100]}")
        return
    f, title, rows = max(procs, key=lambda p: sum(n for fr, n in p[2] if any(args.match in x for x in fr)))
    print(f"{f.name}: {title[:100]}")
    print(summarise(rows, args.match, args.top))


if __name__ == "__main__":
    main()
