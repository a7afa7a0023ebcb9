#!/usr/bin/env bash
# Code RL end to end on a GPU (issue 26 item 6) for any code task: prepare -> run (a few GRPO steps with verl +
# vLLM, our reward in verl's reward workers, a share of the rollouts replaced by hostile programs) -> merge ->
# verifiers-eval checkpoint, then a summary that fails when a hostile program earned reward. The commands are the
# README's "Code RL" ones; the model is a random-init real-size Qwen2.5-0.5B (evals/gpu/random_model.py). Each
# stage fits one 10-minute device call (train pauses at TRAIN_TIMEOUT and resumes when run again).
#
# Run from the repo root on a GPU host with the offline bundle unpacked (evals/gpu/README.md, Reproduce):
#   TASK=humaneval bash evals/gpu/code_rl.sh STAGE...   stages: setup model prepare dryrun train merge eval summary
#                                                       (default: all of them, in that order)
# Environment: TASK (a code task: humaneval, mbpp, code_stdio, ...; required), D (data dir, the layout of
#   VERIFIERS_DATA_DIR; required), W (work dir, default /root/coderl), OUT (results go to $OUT/$TASK; default $W/out),
#   MODEL (default $W/qwen2.5-0.5b, built by stage model; any local model folder works, e.g. a tiny one),
#   CONFIG (random_model.py config, default qwen2.5-0.5b), STEPS (GRPO steps, default 4), SHARE (share of
#   rollouts replaced by hostile programs, default 0.25), TIMEOUT (the reward's CPU seconds per program, default
#   5), SAVE_FREQ (checkpoint every N steps, default 2: a paused run resumes from there), TRAIN_TIMEOUT (seconds,
#   default 540), RUN_EXTRA (more `verifiers-train run` flags), EVAL_BACKEND (vllm;
#   hf on a CPU), EVAL_LIMIT (problems, default 64), DEBS (bubblewrap + libseccomp .deb files when bwrap is
#   missing), PYTHON (default python3).
set -uo pipefail
cd "$(dirname "$0")/../.."
TASK=${TASK:?set TASK to a code task (humaneval, mbpp, code_stdio, ...)}; D=${D:?set D to the data dir}
W=${W:-/root/coderl}; OUT=${OUT:-$W/out}/$TASK; PY=${PYTHON:-python3}
M=${MODEL:-$W/${CONFIG:-qwen2.5-0.5b}}; T=$W/$TASK; RUN=$T/run
unset MODEL   # also a bare (GRAIL) name verifiers-train reads; passed as --model instead
mkdir -p "$W" "$OUT" "$T"
[ -f /root/bs/env.sh ] && source /root/bs/env.sh
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}   # absolute: Ray workers start elsewhere
export VERIFIERS_DATA_DIR=$D
TRAIN="$PY -m verifiers_train.cli"; EVAL="$PY -m verifiers_train.evaluation.cli"
log() { echo "[code_rl $TASK $(date +%H:%M:%S)] $*"; }

stage_setup() {  # the sandbox (bubblewrap) and verl's flash-attn-free patches
  command -v bwrap >/dev/null || dpkg -i ${DEBS:-}/*.deb >/dev/null 2>&1
  bwrap --version; nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
  $TRAIN patch-verl | tail -1
}

stage_model() {
  [ -f "$M/config.json" ] || $PY evals/gpu/random_model.py --config "${CONFIG:-qwen2.5-0.5b}" --data-dir "$D" \
      --out "$M" | tee "$OUT/random_model.json"
}

stage_prepare() {  # the task's train split, or (a test-only task such as HumanEval) an 80/20 cut of its one split
  local splits
  splits=$($PY -c "from verifiers_train.prepare import rl_splits, splits_text; print(splits_text(rl_splits('$TASK')))")
  $TRAIN prepare --task "$TASK" --out "$T/data" --splits "$splits" --tokenizer "$M" --max-prompt-length 1024 \
      2>&1 | grep -v "Token indices sequence length" | tee "$OUT/prepare.txt"
}

batch_args() {  # 32 prompts a step (16 an update), or the largest power of two the train split fills (code_stdio's 11 rows: 8)
  local rows
  rows=$($PY -c "import pyarrow.parquet as pq; print(pq.ParquetFile('$T/data/train.parquet').metadata.num_rows)" \
         2>/dev/null || echo 32)
  local b=32; while [ "$b" -gt 1 ] && [ "$b" -gt "$rows" ]; do b=$(( b / 2 )); done   # a power of two: micro-batches divide it
  echo --batch-size "$b" --mini-batch-size "$(( b < 16 ? b : 16 ))"
}
run_args() {
  RUN_ARGS=(--algo grpo --task "$TASK" --data "$T/data" --model "$M" --out "$RUN" --preset grpo-baseline
            --attn-implementation sdpa --no-remove-padding $(batch_args) --rollouts 4
            --max-prompt-length 1024 --max-response-length 256 --lr 1e-6 --total-steps "${STEPS:-4}"
            --save-freq "${SAVE_FREQ:-2}" --test-freq "${STEPS:-4}" --val-before-train ${RUN_EXTRA:-})
}
# our reward behind evals/gpu/hostile_code.py's injector: the same compute_score, in verl's reward workers
REWARD=("reward.custom_reward_function.path=$PWD/evals/gpu/hostile_code.py"
        "reward.custom_reward_function.name=injected"
        "+reward.custom_reward_function.reward_kwargs.share=${SHARE:-0.25}"
        "+reward.custom_reward_function.reward_kwargs.sample_log=$RUN/reward_samples.jsonl"
        "+reward.custom_reward_function.reward_kwargs.timeout=${TIMEOUT:-5}")

stage_dryrun() {  # verl's own composition and validate_config; runs on a CPU too
  run_args
  $TRAIN run "${RUN_ARGS[@]}" --dry-run -- "${REWARD[@]}" > "$OUT/dryrun.txt" 2>&1
  local rc=$?; tail -3 "$OUT/dryrun.txt"; return $rc
}

stage_train() {
  run_args
  $TRAIN run "${RUN_ARGS[@]}" --max-seconds "${TRAIN_TIMEOUT:-540}" -- "${REWARD[@]}" > "$T/train.log" 2>&1
  local rc=$?
  grep -E "step:[0-9]+ " "$T/train.log" | tail -3 | cut -c1-400
  grep -vE "^(INFO|\(EngineCore)" "$T/train.log" | tail -40 > "$OUT/train_tail.log"
  cp "$RUN/command.sh" "$RUN/run_config.json" "$OUT/" 2>/dev/null
  cp "$RUN/verl_metrics.jsonl" "$RUN/metrics.jsonl" "$OUT/" 2>/dev/null
  gzip -c "$RUN/reward_samples.jsonl" > "$OUT/reward_samples.jsonl.gz" 2>/dev/null
  log "train exit $rc"; return $rc
}

stage_merge() {
  $TRAIN merge "$RUN" --out "$T/hf" 2>&1 | tail -2 | tee "$OUT/merge.txt"
}

stage_eval() {
  $EVAL checkpoint "$T/hf" --task "$TASK" --backend "${EVAL_BACKEND:-vllm}" --limit "${EVAL_LIMIT:-64}" --n 1 \
      --max-tokens 256 --out "$T/eval" --quiet > "$T/eval.log" 2>&1
  local rc=$?
  grep -vE "^(INFO|WARNING|\(EngineCore)" "$T/eval.log" | tail -25 | tee "$OUT/eval.txt"
  cp "$T/eval/metrics.json" "$OUT/eval_metrics.json" 2>/dev/null
  return $rc
}

stage_summary() {  # exits 1 when a hostile program earned reward, none was scored, or verl logged no step
  $PY evals/gpu/code_rl_summary.py "$RUN" --task "$TASK" --json "$OUT/summary.json" | tee "$OUT/summary.md"
  local rc=${PIPESTATUS[0]}
  if ls /tmp/verifiers_pwned* >/dev/null 2>&1; then log "HOST WRITE: /tmp/verifiers_pwned* exists"; rc=1; fi
  return $rc
}

STAGES=("$@"); [ ${#STAGES[@]} -eq 0 ] && STAGES=(setup model prepare dryrun train merge eval summary)
status=0
for s in "${STAGES[@]}"; do
  log "stage $s"; "stage_$s"; rc=$?; log "stage $s ended ($rc)"; [ $rc -ne 0 ] && status=$rc
done
exit $status
