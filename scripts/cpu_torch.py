"""Which pip options install a CPU build of torch here (used by scripts/setup.sh; standard library and pip only).

    python scripts/cpu_torch.py torch==2.13.0 [PIP OPTIONS...]   # prints the options to add, or nothing
    python scripts/cpu_torch.py --installed                      # exit 1 when the installed torch is a GPU build

On Linux the default index (PyPI) serves torch's CUDA build (several GB of nvidia-* and cuda-* packages);
the CPU build (version ``X+cpu``) lives on PyTorch's CPU index. A pip that is configured with a CPU build
already (a local wheel folder, a mirror) must keep working offline, so the configured pip is asked first,
by a dry run that reads the chosen wheel's metadata and downloads nothing else: when it would install a
CPU build, nothing is printed; otherwise ``--extra-index-url https://download.pytorch.org/whl/cpu`` (on
that index the same version is ``X+cpu``, which pip ranks above ``X``). A dry run that fails or takes longer
than ``$CPU_TORCH_TIMEOUT`` seconds (default 180) also gives the CPU index, with a warning: it never hangs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence

CPU_INDEX = "https://download.pytorch.org/whl/cpu"
CPU_OPTIONS = ["--extra-index-url", CPU_INDEX]
GPU_LABEL = re.compile(r"\+(cu|rocm)\d", re.IGNORECASE)  # 2.13.0+cu128, 2.13.0+rocm6.4
GPU_PACKAGE = re.compile(r"^(nvidia|cuda)[-_.]", re.IGNORECASE)  # nvidia-cudnn-cu13, cuda-toolkit, cuda-bindings


def _applies(requirement: str) -> bool:
    """Whether a Requires-Dist line applies here (its marker holds; extras are never requested)."""
    if ";" not in requirement:
        return True
    try:
        from pip._vendor.packaging.requirements import Requirement
    except ImportError:  # no pip to evaluate markers with: count it (a GPU dependency is never optional)
        return True
    marker = Requirement(requirement).marker
    return marker is None or marker.evaluate({"extra": ""})


def is_gpu_build(version: str, requires: Iterable[str]) -> bool:
    """Whether a torch distribution (its version and Requires-Dist lines) is a CUDA or ROCm build."""
    if GPU_LABEL.search(version):
        return True
    return any(GPU_PACKAGE.match(r.strip()) and _applies(r) for r in requires)


def chosen_torch(requirement: str, pip_options: Sequence[str], timeout: float) -> tuple[str, list[str]] | str:
    """``(version, requires)`` of the torch the configured pip would install, or why that is unknown."""
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-deps", "--quiet",
               "--report", "-", "--timeout", f"{min(timeout, 30):g}", "--retries", "1", *pip_options, requirement]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"pip's dry run took over {timeout:g} s"
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip() and "is ignored" not in line]
        return f"pip's dry run failed ({lines[-1].strip() if lines else f'exit {done.returncode}'})"
    try:
        report = json.loads(done.stdout)
        meta = next(i["metadata"] for i in report["install"] if i["metadata"]["name"].lower() == "torch")
    except (ValueError, KeyError, StopIteration):
        return "pip's dry-run report names no torch"
    return str(meta["version"]), list(meta.get("requires_dist") or [])


def options_for(requirement: str, pip_options: Sequence[str] = (), timeout: float = 180.0) -> list[str]:
    """The pip options that make ``pip install requirement`` a CPU build (``[]`` when pip already picks one)."""
    chosen = chosen_torch(requirement, pip_options, timeout)
    if isinstance(chosen, str):
        print(f"cpu_torch: {chosen}; using PyTorch's CPU index {CPU_INDEX}", file=sys.stderr)
        return list(CPU_OPTIONS)
    return list(CPU_OPTIONS) if is_gpu_build(*chosen) else []


def installed_is_gpu_build() -> bool:
    """Whether the torch installed in this interpreter is a GPU build (by its metadata; torch is not imported)."""
    from importlib import metadata

    dist = metadata.distribution("torch")
    return is_gpu_build(dist.version, dist.requires or [])


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["--installed"]:
        return 1 if installed_is_gpu_build() else 0
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    timeout = float(os.environ.get("CPU_TORCH_TIMEOUT", "180"))
    print(" ".join(options_for(argv[0], argv[1:], timeout)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
