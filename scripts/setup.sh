#!/usr/bin/env bash
# One set-up command: a .venv with the CPU build of torch and everything the tests need.
set -euo pipefail
cd "$(dirname "$0")/.."
# The code sandbox needs bubblewrap (Debian/Ubuntu package `bubblewrap`); install it when we can.
if ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    { DEBIAN_FRONTEND=noninteractive apt-get update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; } \
      || echo "warning: could not install bubblewrap with apt-get; verifiers.sandbox needs it" >&2
  else
    echo "warning: bubblewrap (bwrap) not found; install it (apt-get install bubblewrap) for verifiers.sandbox" >&2
  fi
fi
python3.11 -m venv .venv 2>/dev/null || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# torch first and pinned: the CPU wheel (a plain `torch` requirement would pull a multi-GB CUDA build).
.venv/bin/python -m pip install -q -c constraints.txt "torch==2.13.0"
.venv/bin/python -m pip install -q -c constraints.txt -e ".[dev]"
echo "set-up done: activate with 'source .venv/bin/activate'"
