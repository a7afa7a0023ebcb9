#!/usr/bin/env bash
# Issue 17 on a GPU host: real-size random models (evals/gpu/random_model.py), data-parallel evaluation vs one
# engine, evaluator overhead vs raw vLLM, the GPU test suite, and code RL (MBPP through the sandbox inside
# verl's reward workers, with hostile programs in the policy's output) with and without code rewards.
#
#   bash evals/gpu/realsize.sh STAGE...   stages: setup model dp gputests overhead coderl verltests
#                                         invariance rewardcost rewardab dpinv fixed
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

stage_dp() {  # one engine on GPU 0, then --data-parallel 2 (Ray actors), same settings, chunks of the pending samples
  # (--no-fixed-batches, as in R6.2); samples compared
  $PY evals/gpu/bench_dp.py "$MODEL" --data "$D/gsm8k/test.jsonl" --dataset gsm8k --dp 2 --n 4 --max-tokens 512 \
      --limit ${DP_LIMIT:-500} --out "$W/dp" 2>&1 | tail -3
  cp "$W/dp/bench_dp.json" "$OUT/"; tail -5 "$W/dp/dp2.log" > "$OUT/dp2_tail.log"
}

stage_dpinv() {  # R8.3: --batch-invariant in both runs; an engine without the flag on GPU 1 at the same time (the
  # flag's cost, each on a card of its own); samples compared (--wave 1024: vLLM's max_num_seqs on these cards)
  $PY evals/gpu/bench_dp.py "$MODEL" --data "$D/gsm8k/test.jsonl" --dataset gsm8k --dp 2 --n 4 --max-tokens 512 \
      --limit ${DP_LIMIT:-500} --batch-invariant --baseline-gpu 1 --wave 1024 --out "$W/dpinv" 2>&1 | tail -4
  cp "$W/dpinv/bench_dp.json" "$OUT/bench_dpinv.json"
}

stage_fixed() {  # R9: fixed batches in every run; one engine with --no-fixed-batches on GPU 1 at the same time (the
  # cost), then --data-parallel 2, then a copy of the one-engine run cut mid-batch and resumed; responses end on every 256th
  # token id too (--stop-every), so their lengths spread out and a batch that drains shows its cost
  $PY evals/gpu/bench_dp.py "$MODEL" --data "$D/gsm8k/test.jsonl" --dataset gsm8k --dp 2 --n 4 --max-tokens 512 \
      --limit ${DP_LIMIT:-500} --fixed-batches --baseline-gpu 1 --resume-at 1500 --stop-every 256 --wave 1024 \
      --out "$W/fixed" 2>&1 | tail -5
  cp "$W/fixed/bench_dp.json" "$OUT/bench_fixed.json"
  for r in single single_default dp2 single_resumed; do tail -3 "$W/fixed/$r.log" > "$OUT/fixed_$r.log"; done
  $PY evals/gpu/compare_samples.py "$W/fixed/single_default" "$W/fixed/single" > "$OUT/fixed_compare_default.json"
}

stage_gputests() {  # the whole log stays in $W; $OUT gets the assertion lines of a failure and the summary
  $PY -m pytest -q -x -p no:cacheprovider --timeout=900 tests/gpu/test_vllm.py ${GPUTEST_ARGS:-} > "$W/gputests_vllm.log" 2>&1
  grep -E "^(E |FAILED|ERROR)|passed|failed" "$W/gputests_vllm.log" | cut -c1-400 | tail -40 | tee "$OUT/gputests_vllm.txt"
}

stage_verltests() {
  $PY -m pytest -q -x -p no:cacheprovider --timeout=1800 tests/gpu/test_verl.py 2>&1 | tail -15 | tee "$OUT/gputests_verl.txt"
}

stage_overhead() {  # verifiers-eval vs raw LLM.generate, same engine, same prompts, one process, GPU 0
  CUDA_VISIBLE_DEVICES=${OVERHEAD_GPU:-0} $PY evals/eval_pipeline/bench_overhead.py "$MODEL" --dataset gsm8k \
      --data "$D/gsm8k/test.jsonl" --backend vllm --n 4 --temperature 1.0 --max-tokens 512 --limit ${OVERHEAD_LIMIT:-250} \
      --repeats ${OVERHEAD_REPEATS:-3} \
      --out "$OUT/overhead" > "$W/overhead.log" 2>&1; grep -E "^\||^\{" "$W/overhead.log" || tail -20 "$W/overhead.log"
}

stage_coderl() {  # GPU ${CODERL_GPU:-1}: tiny model SFT on MBPP with 30% hostile programs, then GRPO with our reward
  export CUDA_VISIBLE_DEVICES=${CODERL_GPU:-1}
  local steps=${CODERL_STEPS:-8} c=$W/coderl
  mkdir -p "$c"; rm -f /tmp/verifiers_pwned
  $PY evals/gpu/hostile_mbpp.py "$D/mbpp/mbpp.jsonl" "$c/mbpp.jsonl" --share 0.3 | tee "$OUT/coderl_data.json"
  [ -f "$c/tiny/config.json" ] || $TRAIN tiny-model --task mbpp --data "$c/mbpp.jsonl" --size small --steps 600 \
      --device cuda --out "$c/tiny" > "$c/tiny.log" 2>&1 || { tail -20 "$c/tiny.log"; return 1; }
  cp "$c/tiny/tiny_model_info.json" "$OUT/coderl_tiny_info.json"
  [ -f "$c/data/train.parquet" ] || $TRAIN prepare --task mbpp --data "$c/mbpp.jsonl" --out "$c/data" \
      --tokenizer "$c/tiny" --max-prompt-length 1024 | tail -2
  for variant in code nocode; do
    local run=$c/run_$variant extra=()
    [ $variant = nocode ] && extra=("+reward.custom_reward_function.reward_kwargs.task=gsm8k")
    rm -rf "$run"; mkdir -p "$run"
    $TRAIN run --algo grpo --model "$c/tiny" --out "$run" --task mbpp --preset tiny --data "$c/data" \
        --total-steps "$steps" --save-freq -1 --test-freq -1 --no-val-before-train --batch-size 32 --mini-batch-size 16 \
        --max-prompt-length 1024 --max-response-length 256 --lr 1e-5 -- \
        "reward.custom_reward_function.path=$PWD/evals/gpu/code_reward.py" "reward.custom_reward_function.name=logged" \
        "+reward.custom_reward_function.reward_kwargs.sample_log=$run/reward_samples.jsonl" "${extra[@]}" \
        > "$run.log" 2>&1 || { tail -40 "$run.log"; return 1; }
    log "coderl $variant done"
  done
  $PY evals/gpu/coderl_summary.py "$c" | tee "$OUT/coderl.md"
  [ -e /tmp/verifiers_pwned ] && log "HOST WRITE: /tmp/verifiers_pwned exists" || log "host /tmp untouched"
  tar czf "$OUT/coderl_runs.tar.gz" -C "$c" run_code/verl_metrics.jsonl run_code/reward_samples.jsonl \
      run_nocode/verl_metrics.jsonl run_nocode/reward_samples.jsonl run_code/command.sh 2>/dev/null || true
}

stage_invariance() {  # one engine: same seeded requests in one batch, reversed, in four batches; without and
  # with VLLM_BATCH_INVARIANT=1 (fresh processes)
  local mode
  for mode in "" --invariant; do
    CUDA_VISIBLE_DEVICES=${OVERHEAD_GPU:-0} $PY evals/gpu/batch_invariance.py "$MODEL" --data "$D/gsm8k/test.jsonl" \
        $mode --gpu-memory-utilization ${INVARIANCE_MEM:-0.8} --out "$OUT/invariance${mode:+_invariant}.json" > "$W/invariance$mode.log" 2>&1 \
      || { grep -vE "^(INFO|\(EngineCore)" "$W/invariance$mode.log" | tail -25 > "$OUT/invariance${mode}_error.log"; \
           log "batch_invariance $mode failed: see $OUT/invariance${mode}_error.log"; }
  done
}

stage_rewardcost() {  # reward cost inside a verl GRPO step at this model's size: our reward vs verl's built-in
  # gsm8k scorer, A/B/A (gpu_e2e.sh overhead, both scorers timed in the reward worker). The GSM8K test file is
  # split 1000/319 into train/test: only the step's cost is measured.
  local r=$W/rewardcost
  mkdir -p "$r/gsm8k"
  head -1000 "$D/gsm8k/test.jsonl" > "$r/gsm8k/train.jsonl"; tail -n +1001 "$D/gsm8k/test.jsonl" > "$r/gsm8k/test.jsonl"
  [ -f "$r/data/train.parquet" ] || $TRAIN prepare --task gsm8k --data "$r/gsm8k" --out "$r/data" \
      --tokenizer "$MODEL" --max-prompt-length 512 | tail -1
  # prepare already writes verl's own data_source for GSM8K (openai/gsm8k): the built-in run reads the same files
  ln -sfn data "$r/data_verl"
  W=$r OUT=$OUT/rewardcost OVH_MODEL=$MODEL OVH_TASK=gsm8k VARIANTS=${VARIANTS:-ours verl ours} \
    OVERHEAD_STEPS=${REWARDCOST_STEPS:-6} RUN_EXTRA="--preset grpo-baseline --attn-implementation sdpa \
    --no-remove-padding --batch-size 64 --mini-batch-size 32 --rollouts 8 --max-response-length 512 --lr 1e-6" \
    bash evals/gpu/gpu_e2e.sh overhead
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
