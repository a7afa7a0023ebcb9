"""scripts/cpu_torch.py: set-up adds PyTorch's CPU index exactly when the configured pip would install a GPU build.

pip runs for real against local wheel folders (no network, nothing downloaded), with the machine's pip
configuration switched off (``PIP_CONFIG_FILE=/dev/null``), as on a machine whose pip knows only its index.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "cpu_torch.py"
CPU = ["--extra-index-url", "https://download.pytorch.org/whl/cpu"]
# Requires-Dist of torch 2.13.0's Linux wheels: PyPI's (the CUDA build) and the CPU index's 2.13.0+cpu.
PYPI_LINUX = ["filelock", "typing-extensions>=4.10.0", "sympy>=1.13.3", "networkx>=2.5.1", "jinja2", "fsspec>=0.8.5",
              'cuda-toolkit[cublas,cudart]==13.0.3; platform_system == "Linux"',
              'nvidia-cudnn-cu13==9.20.0.48; platform_system == "Linux"',
              'triton==3.7.1; platform_system == "Linux" and python_version < "3.15"',
              'optree>=0.13.0; extra == "optree"']
CPU_LINUX = ["filelock", "typing-extensions>=4.10.0", "sympy>=1.13.3", "networkx>=2.5.1", "jinja2", "fsspec>=0.8.5",
             'optree>=0.13.0; extra == "optree"']


@pytest.fixture(scope="module")
def cpu_torch() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cpu_torch", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gpu_builds_are_told_by_label_or_gpu_dependencies(cpu_torch: ModuleType) -> None:
    assert cpu_torch.is_gpu_build("2.13.0", PYPI_LINUX)
    assert not cpu_torch.is_gpu_build("2.13.0+cpu", CPU_LINUX)
    assert not cpu_torch.is_gpu_build("2.13.0", CPU_LINUX)  # e.g. macOS: PyPI's wheel is a CPU build
    assert cpu_torch.is_gpu_build("2.13.0+cu128", CPU_LINUX)
    assert cpu_torch.is_gpu_build("2.9.0+rocm6.4", [])
    # a GPU dependency whose marker does not hold here does not count
    assert not cpu_torch.is_gpu_build("2.13.0", ['nvidia-nccl-cu13==2.29.7; sys_platform == "no-such-os"'])
    assert cpu_torch.is_gpu_build("2.13.0", [f'nvidia-nccl-cu13==2.29.7; sys_platform == "{sys.platform}"'])


def _wheel(folder: Path, version: str, requires: list[str]) -> None:
    """A minimal installable wheel named torch (what pip's dry run reads: its METADATA)."""
    info = f"torch-{version}.dist-info"
    with zipfile.ZipFile(folder / f"torch-{version}-py3-none-any.whl", "w") as z:
        z.writestr("torch/__init__.py", "")
        z.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: " + version + "\n"
                   + "".join(f"Requires-Dist: {r}\n" for r in requires))
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{info}/RECORD", "")


def _run(env: dict[str, str], *argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """The script under only ``env``'s pip settings (the machine's configuration and PIP_* variables dropped)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    return subprocess.run([sys.executable, str(SCRIPT), *argv], env={**base, "PIP_CONFIG_FILE": os.devnull, **env},
                          capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.slow
def test_pip_that_offers_only_the_cuda_build_gets_the_cpu_index(tmp_path: Path) -> None:
    _wheel(tmp_path, "2.13.0", PYPI_LINUX)
    local = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path)}
    done = _run(local, "torch==2.13.0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == CPU
    # with the CPU build offered too, pip picks it for `torch==2.13.0` (2.13.0+cpu ranks above 2.13.0): this is
    # why an extra index is enough, and why a pip configured with a CPU wheel needs nothing added
    _wheel(tmp_path, "2.13.0+cpu", CPU_LINUX)
    done = _run(local, "torch==2.13.0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


@pytest.mark.slow
def test_no_torch_to_be_found_falls_back_to_the_cpu_index_with_a_warning(tmp_path: Path) -> None:
    done = _run({"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path)}, "torch==2.13.0")
    assert done.returncode == 0 and done.stdout.split() == CPU
    assert "cpu_torch: pip's dry run failed" in done.stderr and "using PyTorch's CPU index" in done.stderr


def test_an_index_that_never_answers_does_not_hang_set_up() -> None:
    with socket.socket() as server:  # accepts connections (the backlog) and never says a word
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        url = f"http://127.0.0.1:{server.getsockname()[1]}/simple"
        start = time.monotonic()
        done = _run({"PIP_INDEX_URL": url, "CPU_TORCH_TIMEOUT": "3"}, "torch==2.13.0", timeout=120)
    assert done.returncode == 0 and done.stdout.split() == CPU
    assert "cpu_torch: pip's dry run" in done.stderr
    assert time.monotonic() - start < 60


def test_usage_errors(cpu_torch: ModuleType) -> None:
    assert _run({}).returncode == 2
    assert _run({}, "--bogus").returncode == 2


@pytest.mark.slow
def test_the_default_index_alone_gets_the_cpu_index() -> None:
    """PyPI as the only index (no local wheels): its Linux torch is the CUDA build. Needs network; reads metadata."""
    try:
        socket.create_connection(("pypi.org", 443), timeout=5).close()
    except OSError as e:
        pytest.skip(f"pypi.org cannot be reached: {e}")
    if not sys.platform.startswith("linux"):
        pytest.skip("PyPI's torch is a CUDA build on Linux only")
    done = _run({}, "torch==2.13.0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == CPU
    assert "cpu_torch:" not in done.stderr  # decided from PyPI's answer, not by the fallback
