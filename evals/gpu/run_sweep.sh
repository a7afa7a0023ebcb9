#!/usr/bin/env bash
# The learning-rate / batch sweep of evals/gpu/README.md (R2.1): six rl_sweep.py runs side by side on one
# GPU, each stopped after BUDGET seconds. Needs only torch + transformers (the bare GPU image), no bundle.
#   OUT=results_dir bash evals/gpu/run_sweep.sh TINY_MODEL_DIR      (from the repo root)
set -u
MODEL=${1:?usage: run_sweep.sh TINY_MODEL_DIR}; OUT=${OUT:?set OUT}; BUDGET=${BUDGET:-400}
PY=/opt/torch/.venv/bin/python; [ -x $PY ] || PY=${PYTHON:-python3}
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > "$OUT/gpu.txt"
work=$(mktemp -d)
run() { name=$1; shift; $PY evals/gpu/rl_sweep.py "$MODEL" --out "$work" --name "$name" --steps 200 \
          --budget-s "$BUDGET" "$@" > "$work/$name.log" 2>&1; }
run b32_lr1e-4 --lr 1e-4 --batch 32 --n 8 --mini 16 &
run b128_lr1e-4 --lr 1e-4 --batch 128 --n 8 --mini 64 &
run b128_lr3e-4 --lr 3e-4 --batch 128 --n 8 --mini 64 &
run b128_lr1e-3 --lr 1e-3 --batch 128 --n 8 --mini 64 &
run b64n16_lr3e-4 --lr 3e-4 --batch 64 --n 16 --mini 32 &
run b256_lr1e-3 --lr 1e-3 --batch 256 --n 8 --mini 128 &
wait
cat "$work"/*.jsonl > "$OUT/grpo_sweep.jsonl"
$PY evals/gpu/sweep_summary.py "$OUT/grpo_sweep.jsonl"
