"""Patch vLLM's batch-invariant mode to install its Triton matmul overrides on every GPU (R8.4's experiment).

vLLM 0.24's ``enable_batch_invariant_mode`` replaces ``aten::mm/addmm/matmul/linear`` with Triton persistent
kernels only on Ampere (``is_device_capability_family(80)``); on Hopper it keeps cuBLAS and only rules out
split-K. This rewrites that one condition in the given ``batch_invariant.py`` so the Triton branch is taken
everywhere, and refuses (exit 1) if the file does not hold exactly one such condition.

    python evals/gpu/force_triton_matmul.py SITE/vllm/model_executor/layers/batch_invariant.py
"""

from __future__ import annotations

import sys
from pathlib import Path

CONDITION = "    if current_platform.is_device_capability_family(80):\n"
FORCED = "    if True:  # patched by evals/gpu/force_triton_matmul.py: Triton matmuls on every card\n"


def main(path: Path) -> None:
    text = path.read_text()
    if text.count(CONDITION) != 1:
        raise SystemExit(f"{path}: expected one line {CONDITION.strip()!r}; this vLLM differs from 0.24")
    path.write_text(text.replace(CONDITION, FORCED))
    print(f"{path}: Triton matmul overrides forced on every card")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
