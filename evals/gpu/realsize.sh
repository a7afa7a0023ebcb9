#!/usr/bin/env bash
# Issue 17 on a GPU host: real-size random models (evals/gpu/random_model.py), data-parallel evaluation vs one
# engine, evaluator overhead vs raw vLLM, the GPU test suite, and code RL (MBPP through the sandbox inside
# verl's reward workers, with hostile programs in the policy's output) with and without code rewards.
#
#   bash evals/gpu/realsize.sh STAGE...   stages: setup model dp gputests overhead coderl verltests
#                                         invariance rewardcost rewardab dpinv dpinv_triton
# Environment: W (work dir, default /root/rs), OUT (results, default $W/out), D (data dir with gsm8k/test.jsonl
#   and mbpp/mbpp.jsonl), DEBS (bubblewrap + libseccomp .deb files to install when bwrap is missing),
#   CODERL_STEPS (default 8), CONFIG (random model config, default qwen2.5-0.5b), DP_LIMIT (problems of stage dp,
#   default 500), OVERHEAD_LIMIT / OVERHEAD_REPEATS (stage overhead, default 250 / 3).
set -uo pipefail
cd "$(dirname "$0")/../.."
W=${W:-/root/rs}; OUT=${OUT:-$W/out}; D=${D:?set D to the data dir}; PY=${PYTHON:-python3}
mkdir -p "$W" "$OUT"
[ -f /root/bs/env.sh ] && source /root/bs/env.sh
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
TRAIN="$PY -m verifiers_train.cli"
MODEL=$W/${CONFIG:-qwen2.5-0.5b}
log() { echo "[realsize $(date +%H:%M:%S)] $*"; }

stage_setup() {
  command -v bwrap >/dev/null || dpkg -i ${DEBS:-}/*.deb >/dev/null 2>&1
  bwrap --version; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | tee "$OUT/gpus.txt"
  $TRAIN patch-verl | tail -1
}

stage_model() {
  [ -f "$MODEL/config.json" ] || $PY evals/gpu/random_model.py --config "${CONFIG:-qwen2.5-0.5b}" --data-dir "$D" \
      --out "$MODEL" | tee "$OUT/random_model.json"
}

stage_dp() {  # one engine on GPU 0, then --data-parallel 2 (Ray actors), same settings; samples compared
  $PY evals/gpu/bench_dp.py "$MODEL" --data "$D/gsm8k/test.jsonl" --dataset gsm8k --dp 2 --n 4 --max-tokens 512 \
      --limit ${DP_LIMIT:-500} --out "$W/dp" 2>&1 | tail -3
  cp "$W/dp/bench_dp.json" "$OUT/"; tail -5 "$W/dp/dp2.log" > "$OUT/dp2_tail.log"
}

dpinv_bench() {  # $1: run folder under $W and result name under $OUT
  $PY evals/gpu/bench_dp.py "$MODEL" --data "$D/gsm8k/test.jsonl" --dataset gsm8k --dp 2 --n 4 --max-tokens 512 \
      --limit ${DP_LIMIT:-500} --batch-invariant --flag-cost-gpu 1 --wave 1024 --out "$W/$1" 2>&1 | tail -4
  cp "$W/$1/bench_dp.json" "$OUT/bench_$1.json"; tail -5 "$W/$1/dp2.log" > "$OUT/$1_dp2_tail.log"
}

stage_dpinv() {  # batch-invariant kernels: one engine on GPU 0 while a default engine runs the same on GPU 1 (the
  # flag's cost, each on a card of its own), then --data-parallel 2 with the flag; samples compared (--wave 1024:
  # vLLM's max_num_seqs on these cards, R8.3)
  dpinv_bench dpinv
}

stage_dpinv_triton() {  # R8.4's next experiment: stage dpinv with vLLM's Triton matmul overrides on every card
  # (vLLM 0.24 installs them on Ampere only and keeps cuBLAS on Hopper); the installed file is patched for the
  # run and restored after it
  local f; f=$($PY -c 'import importlib.util as u; print(u.find_spec("vllm").submodule_search_locations[0])')/model_executor/layers/batch_invariant.py
  cp "$f" "$f.orig"
  $PY evals/gpu/force_triton_matmul.py "$f" || { mv "$f.orig" "$f"; return 1; }
  dpinv_bench dpinv_triton
  mv "$f.orig" "$f"
}

stage_rewardab() {  # one launch, scorer alternating from step to step (timed_reward.alternate): ours on odd
  # steps, verl's built-in on even ones; reward_cost.py compares each verl step with the ours steps around it
  VARIANTS=alternate OVH_OVERRIDES="data.shuffle=False +reward.custom_reward_function.reward_kwargs.rows_per_step=64" \
    REWARDCOST_STEPS=${REWARDCOST_STEPS:-9} stage_rewardcost
  local run; run=$(ls -d "$W"/rewardcost/ovh_alternate_*/ | tail -1)
  $PY evals/gpu/reward_cost.py "$run" | tee "$OUT/rewardab.md"
  cp "$run"/verl_metrics.jsonl "$run"/command.sh "$OUT/" 2>/dev/null; gzip -c "$run/reward_times.tsv" > "$OUT/reward_times.tsv.gz"
}

for s in "$@"; do log "stage $s"; "stage_$s"; log "stage $s ended ($?)"; done
