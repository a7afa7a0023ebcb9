"""Instructions a verdict under callgrind: deterministic where wall time on a shared machine is not.

As a workload: ``python instructions.py --passes N {math500,gsm8k}`` scores the dataset solutions against
their golds once (warm) and then N more times. As a driver (``--src DIR``), it runs that workload under
``valgrind --tool=callgrind`` with 0 and 1 timed passes, ``PYTHONPATH=DIR``, and prints the difference per
verdict (imports and the warm pass cancel out):

    python evals/speed/instructions.py --src src math500
    python evals/speed/instructions.py --src /tmp/landed/src gsm8k
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = Path(os.environ.get("VERIFIERS_DATA_DIR", HERE.parents[2] / "shared" / "data"))


def _workload(name: str, passes: int, data: Path) -> None:
    sys.path.insert(0, str(HERE))
    import workloads

    responses, golds = workloads.datasets(data)[name]
    if name == "math500":
        from verifiers import math as scorer
    else:
        from verifiers import gsm8k as scorer  # type: ignore[no-redef]
    for _ in range(1 + passes):
        for r, g in zip(responses, golds):
            scorer.score(r, g)


def _collected(src: str, name: str, passes: int, data: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", sys.executable, __file__,
               "--passes", str(passes), "--data", str(data), name]
        done = subprocess.run(cmd, env={**os.environ, "PYTHONPATH": src}, capture_output=True, text=True,
                              check=False)
    m = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or m is None:
        raise SystemExit(f"instructions.py: error: callgrind run failed: {done.stderr.strip()[-300:]}")
    return int(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dataset", choices=("math500", "gsm8k"))
    ap.add_argument("--src", help="driver mode: the source tree to count (a directory holding verifiers)")
    ap.add_argument("--passes", type=int, default=1)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    if args.src is None:
        _workload(args.dataset, args.passes, args.data)
        return
    sys.path.insert(0, str(HERE))
    import workloads

    count = len(workloads.datasets(args.data)[args.dataset][0])
    base = _collected(args.src, args.dataset, 0, args.data)
    one = _collected(args.src, args.dataset, 1, args.data)
    print(f"{args.src} {args.dataset}: {(one - base) / count:,.0f} instructions a verdict")


if __name__ == "__main__":
    main()
