"""Where two evaluation runs of the same settings drew different samples.

    python evals/gpu/compare_samples.py RUN_A RUN_B [--wave 1024]     # JSON on stdout

Reads each run folder's ``samples.jsonl`` (`verifiers-eval checkpoint`) and reports how many responses are
byte-identical, where the differing ones first differ (character offset quantiles: a wrong seed differs from
the first token, a numerical drift late), and how the differences fall over the run's problem order. With
``--wave M`` the samples are split at the M-th sequence of run A's order, e.g. vLLM's ``max_num_seqs``, to
see whether the differences belong to one scheduler wave.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def load(run: Path) -> dict[tuple[str, int], str]:
    out = {}
    for line in (run / "samples.jsonl").read_text(encoding="utf-8").split("\n"):  # not splitlines: U+2028
        if line:
            s = json.loads(line)
            out[(s["problem_id"], s["sample_index"])] = s["response"]
    return out


def first_difference(x: str, y: str) -> int:
    return next((i for i, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))


def compare(a: dict[tuple[str, int], str], b: dict[tuple[str, int], str], wave: int | None) -> dict[str, Any]:
    keys = list(a)
    differ = [i for i, k in enumerate(keys) if a[k] != b.get(k)]
    offsets = sorted(first_difference(a[keys[i]], b.get(keys[i], "")) for i in differ)
    deciles = [0] * 10
    for i in differ:
        deciles[i * 10 // len(keys)] += 1
    record: dict[str, Any] = {
        "samples": len(keys), "identical": len(keys) - len(differ),
        "first_difference_chars": {q: offsets[int(f * (len(offsets) - 1))] for q, f in
                                   (("min", 0), ("p10", .1), ("median", .5), ("p90", .9), ("max", 1))} if offsets else {},
        "mean_response_chars": round(sum(map(len, a.values())) / len(a), 1),
        "differing_by_decile_of_order": deciles,
    }
    if wave:
        record["differing_before_wave_end"] = [sum(i < wave for i in differ), min(wave, len(keys))]
        record["differing_after_wave_end"] = [sum(i >= wave for i in differ), max(0, len(keys) - wave)]
    return record


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_a", type=Path)
    ap.add_argument("run_b", type=Path)
    ap.add_argument("--wave", type=int, help="split the samples at this position of run A's order")
    args = ap.parse_args()
    print(json.dumps(compare(load(args.run_a), load(args.run_b), args.wave), indent=2))


if __name__ == "__main__":
    main()
