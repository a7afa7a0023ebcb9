#!/usr/bin/env bash
# One set-up command: a .venv with the CPU build of torch and everything the tests need.
set -euo pipefail
cd "$(dirname "$0")/.."
# The code sandbox needs bubblewrap and libseccomp (Debian/Ubuntu packages `bubblewrap`, `libseccomp2`);
# install them when we can.
missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
ldconfig -p 2>/dev/null | grep -q 'libseccomp\.so\.2' || missing+=(libseccomp2)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } \
      || echo "warning: could not install ${missing[*]} with apt-get; verifiers.sandbox needs them" >&2
  else
    echo "warning: ${missing[*]} not found; install them for verifiers.sandbox" >&2
  fi
fi
echo "set-up: [1/3] .venv (Python 3.11) and pip"
python3.11 -m venv .venv 2>/dev/null || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# torch first and pinned, as its CPU build: PyPI's Linux wheel is the CUDA build (GBs of nvidia packages).
# cpu_torch.py asks the configured pip which build it would pick (a dry run, metadata only) and adds PyTorch's
# CPU index only when that is not a CPU build, so a pip already configured with a CPU wheel works offline.
torch_options="$(.venv/bin/python scripts/cpu_torch.py "torch==2.13.0" -c constraints.txt)"
if [ -n "$torch_options" ]; then echo "set-up: torch's CPU build from PyTorch's index ($torch_options)"; fi
echo "set-up: [2/3] torch 2.13.0, CPU build (about 200 MB; a minute or more)"
# shellcheck disable=SC2086  # the options are words
.venv/bin/python -m pip install -q -c constraints.txt $torch_options "torch==2.13.0"
.venv/bin/python scripts/cpu_torch.py --installed \
  || echo "warning: the torch installed in .venv is a GPU build; the tests need only the CPU one" >&2
echo "set-up: [3/3] this package with its dev and trl extras (verl, ray, transformers, ...; a few minutes)"
.venv/bin/python -m pip install -q -c constraints.txt -e ".[dev,trl]"
echo "set-up done: activate with 'source .venv/bin/activate'"
