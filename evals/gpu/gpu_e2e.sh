#!/usr/bin/env bash
# GPU end-to-end check (issue 6): tiny model -> vLLM eval (+ raw vLLM overhead) -> GRPO -> merge -> eval
# -> compare, the same with PPO (GAE + critic), and the step-time overhead of our reward vs verl's
# built-in gsm8k scorer. Prints a short table at the end of each stage and writes results to $OUT.
#
# Run from the repo root on a GPU host where the offline bundle is unpacked (evals/gpu/README.md):
#   bash evals/gpu/gpu_e2e.sh STAGE...      stages: model base grpo ppo overhead table pack unpack
#                                         (default: model base grpo ppo overhead table)
# Environment: W (work dir, default /root/e2e; stages share it), OUT (results, default $W/out),
#   STEPS (RL steps, default 40), LR (RL learning rate, default 1e-4), PYTHON (default python3),
#   RUN_EXTRA (more `verifiers-train run` flags), EVAL_EXTRA (more `verifiers-eval checkpoint` flags),
#   SKIP_RAW=1 (skip the raw-vLLM overhead benchmark),
#   OVERHEAD_STEPS (steps of each reward-overhead run, default 12), VARIANTS (overhead runs: ours verl, or both: each
#   response scored by both, timed apart, in one launch),
#   OVH_MODEL / OVH_TASK (model and task of the overhead runs; default $W/tiny, arith; realsize.sh rewardcost
#   points them at a real-size model and GSM8K, with RUN_EXTRA for its preset), OVH_OVERRIDES (more verl
#   overrides for them; VARIANTS=alternate needs data.shuffle=False and reward_kwargs.rows_per_step),
#   SAVE_FREQ (checkpoint every N RL steps, default STEPS), TRAIN_TIMEOUT (seconds; `verifiers-train run
#   --max-seconds`: training pauses there so a long run fits several 10-minute calls, and running the stage
#   again resumes from the last checkpoint),
#   TRAIN_ONLY=1 (stop an RL stage after training; the next run of the stage skips to merge and evaluation).
# Moving a run to another machine: stage pack writes the latest checkpoints to $OUT as PART_SIZE parts (15M); the
#   new machine `PARTS="dir..." bash evals/gpu/gpu_e2e.sh unpack` restores them (the parts may be spread over
#   several folders, e.g. one per bundle call), and the RL stage resumes from there.
set -euo pipefail
cd "$(dirname "$0")/../.."
W=${W:-/root/e2e}; OUT=${OUT:-$W/out}; STEPS=${STEPS:-40}; RL_LR=${LR:-1e-4}; PY=${PYTHON:-python3}
unset LR   # LR is also one of the bare (GRAIL) names our launcher reads; pass it explicitly instead
mkdir -p "$W" "$OUT"
[ -f /root/bs/env.sh ] && source /root/bs/env.sh
# absolute path: Ray workers start in other directories
export PYTHONPATH=$PWD/src${PYTHONPATH:+:$PYTHONPATH}
TRAIN="$PY -m verifiers_train.cli"; EVAL="$PY -m verifiers_train.evaluation.cli"
EVAL_ARGS=(--task arith --backend vllm --n 8 --temperature 1.0 --max-tokens 96 --limit 500 --quiet ${EVAL_EXTRA:-})
RUN_ARGS=(--rollouts 8 --task arith --preset tiny --data "$W/data" --total-steps "$STEPS" --save-freq "${SAVE_FREQ:-$STEPS}"
          --test-freq 5 --lr "$RL_LR" --batch-size 32 --mini-batch-size 16 ${RUN_EXTRA:-})
log() { echo "[gpu_e2e $(date +%H:%M:%S)] $*"; }
# without flash-attn verl computes log-probs one token at a time and cannot load a PPO critic: patch both
# (same values; evals/gpu/README.md R3, R4)
$TRAIN patch-verl | sed 's/^/[gpu_e2e] /' || log "could not patch verl (is verl 0.9.1 installed?)"

stage_model() {  # tiny model (SFT on arith to partial accuracy) and verl data; needs no vLLM
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
  [ -f "$W/tiny/config.json" ] || $TRAIN tiny-model --out "$W/tiny" --size small --device cuda 2>&1 | tail -3
  cp "$W/tiny/tiny_model_info.json" "$OUT/" 2>/dev/null || true
  [ -f "$W/data/train.parquet" ] || $TRAIN prepare --task arith --out "$W/data" --tokenizer "$W/tiny" | tail -3
  # the same problems with verl's data_source name, for the built-in-scorer baseline (stage overhead)
  [ -f "$W/data_verl/train.parquet" ] || $TRAIN prepare --task arith --out "$W/data_verl" \
      --tokenizer "$W/tiny" --data-source openai/gsm8k | tail -1
}

stage_base() {  # base-model evaluation with vLLM, and raw vLLM on the same prompts (overhead)
  local t0; t0=$(date +%s)
  if [ -f "$W/eval_base/metrics.json" ]; then
    log "base already evaluated ($W/eval_base)"
  else
    $EVAL checkpoint "$W/tiny" "${EVAL_ARGS[@]}" --out "$W/eval_base" 2>&1 | grep -vE "^(INFO|WARNING|\(EngineCore)" | tail -5
    log "base eval wall $(( $(date +%s) - t0 )) s"
  fi
  if [ -z "${SKIP_RAW:-}" ]; then
    $PY evals/eval_pipeline/bench_overhead.py "$W/tiny" --dataset arith --backend vllm --n 8 --temperature 1.0 \
        --max-tokens 96 --limit 500 --repeats 2 --out "$OUT" > "$OUT/bench_overhead.log" 2>&1 \
      && grep -E "^\||^\{" "$OUT/bench_overhead.log" || log "raw-vLLM overhead benchmark failed: see $OUT/bench_overhead.log"
  fi
  cp "$W/eval_base/metrics.json" "$OUT/eval_base_metrics.json"
}

rl_stage() {  # $1 = grpo|ppo: train, report, merge the last checkpoint, evaluate it, compare with base
  local algo=$1 run="$W/$1"; local t0 rc=0; t0=$(date +%s)
  if [ "$(cat "$run/checkpoints/latest_checkpointed_iteration.txt" 2>/dev/null)" != "$STEPS" ]; then
    # TRAIN_TIMEOUT: `run --max-seconds` pauses training cleanly there; running the stage again with the same
    # settings resumes from the last checkpoint (every SAVE_FREQ steps).
    local pause=(); [ "${TRAIN_TIMEOUT:-0}" = 0 ] || pause=(--max-seconds "$TRAIN_TIMEOUT")
    $TRAIN run --algo "$algo" --model "$W/tiny" --out "$run" "${pause[@]}" \
        "${RUN_ARGS[@]}" >> "$W/$algo.console.log" 2>&1 || rc=$?
    $TRAIN status "$run" > "$OUT/$algo.status.txt" 2>&1 || true   # checkpoint, validation, last steps, failures
    cp "$run/metrics.jsonl" "$OUT/${algo}_metrics.jsonl" 2>/dev/null || true  # every launch, appended
    [ $rc = 0 ] || { tail -60 "$W/$algo.console.log"; cp "$W/$algo.console.log" "$OUT/"; return 1; }
    local step; step=$(cat "$run/checkpoints/latest_checkpointed_iteration.txt" 2>/dev/null || echo none)
    if [ "$step" != "$STEPS" ]; then
      ray stop --force > /dev/null 2>&1 || true   # host plumbing: no Ray left behind between calls
      log "$algo paused after $(( $(date +%s) - t0 )) s at checkpoint $step; run the stage again to resume"
      return 0
    fi
    log "$algo train wall $(( $(date +%s) - t0 )) s"
  else
    log "$algo already trained to step $STEPS"
  fi
  [ -z "${TRAIN_ONLY:-}" ] || return 0
  $TRAIN report "$run" --out "$run/report" | tail -15 || true
  $TRAIN merge "$run" --out "$W/${algo}_hf" | tail -2
  rm -rf "$W/eval_$algo" "$W/compare_$algo"   # a new merge: evaluate it afresh (eval refuses a used folder)
  $EVAL checkpoint "$W/${algo}_hf" "${EVAL_ARGS[@]}" --out "$W/eval_$algo" 2>&1 | grep -vE "^(INFO|WARNING|\(EngineCore)" | tail -3
  [ ! -d "$W/eval_base" ] || $EVAL compare "$W/eval_base" "$W/eval_$algo" --labels "base,$algo" --out "$W/compare_$algo" | tail -8
  # what comes back: one tarball of the run's small files, plus the curves
  tar czf "$OUT/$algo.tar.gz" -C "$W" "$algo/metrics.jsonl" $(cd "$W" && ls "$algo"/verl_metrics*.jsonl) \
      "$algo/run_config.json" "$algo/command.sh" "$algo/report" "eval_$algo/metrics.json" "compare_$algo" \
      "eval_$algo/samples.jsonl" eval_base/samples.jsonl 2>/dev/null || true   # samples: compare can be redone
}
stage_grpo() { rl_stage grpo; }
stage_ppo() { rl_stage ppo; }

stage_overhead() {  # same short GRPO run, our reward vs verl's built-in gsm8k scorer, both timed per sample
  local steps=${OVERHEAD_STEPS:-12} reward="$PWD/evals/gpu/timed_reward.py"
  for variant in ${VARIANTS:-ours verl}; do  # e.g. VARIANTS="ours verl", then again: interleaved A/B/A/B
    local data="$W/data" i=1
    [ $variant = verl ] && data="$W/data_verl"   # same problems, data_source openai/gsm8k
    while [ -d "$W/ovh_${variant}_$i" ]; do i=$((i + 1)); done
    local run="$W/ovh_${variant}_$i"; mkdir -p "$run"
    $TRAIN run --algo grpo --model "${OVH_MODEL:-$W/tiny}" --out "$run" --task "${OVH_TASK:-arith}" --preset tiny \
        --data "$data" \
        --total-steps "$steps" --save-freq -1 --test-freq -1 --no-val-before-train --lr "$RL_LR" \
        --batch-size 32 --mini-batch-size 16 ${RUN_EXTRA:-} -- "reward.custom_reward_function.path=$reward" \
        "reward.custom_reward_function.name=$([ $variant = verl ] && echo verl_builtin || echo "$variant")" \
        "+reward.custom_reward_function.reward_kwargs.timing_log=$run/reward_times.tsv" ${OVH_OVERRIDES:-} > "$run.log" 2>&1 \
        || { tail -40 "$run.log"; return 1; }
    log "overhead run $(basename "$run") done"
  done
  local ours=("$W"/ovh_ours_*/) verl=("$W"/ovh_verl_*/)
  [ -d "${ours[0]}" ] && [ -d "${verl[0]}" ] || return 0
  $PY evals/gpu/step_times.py --ours "${ours[@]}" --verl "${verl[@]}" | tee "$OUT/overhead.md"
  tar czf "$OUT/overhead_runs.tar.gz" -C "$W" $(cd "$W" && ls -d ovh_*_*/verl_metrics.jsonl ovh_*_*/reward_times.tsv \
      ovh_*_*/command.sh 2>/dev/null) || true
}

stage_pack() {  # tiny model, data, and the latest checkpoint + run files of $W/grpo and $W/ppo, as PART_SIZE
  # parts in $OUT (machines go back after 30 minutes held and lose their disk; carry the parts to the next one,
  # then stage unpack there)
  local algo step f base=()
  for f in tiny data data_verl; do [ -d "$W/$f" ] && base+=("$f"); done   # the model and data the runs need
  rm -f "$OUT"/base.tgz.part-* "$OUT"/grpo_step*.tgz.part-* "$OUT"/ppo_step*.tgz.part-*   # only the latest
  if [ ${#base[@]} -gt 0 ]; then
    (cd "$W" && tar cf - "${base[@]}") | gzip -1 | split -b "${PART_SIZE:-15M}" - "$OUT/base.tgz.part-"
    log "packed ${base[*]}"
  fi
  for algo in grpo ppo; do
    step=$(cat "$W/$algo/checkpoints/latest_checkpointed_iteration.txt" 2>/dev/null) || continue
    (cd "$W" && tar cf - "$algo/checkpoints/global_step_$step" "$algo/checkpoints/latest_checkpointed_iteration.txt" \
        $(ls -d "$algo"/run_config.json "$algo"/command.sh "$algo"/metrics.jsonl "$algo"/verl_metrics*.jsonl 2>/dev/null)) \
      | gzip -1 | split -b "${PART_SIZE:-15M}" - "$OUT/${algo}_step$step.tgz.part-"
    log "packed $algo at step $step: $(ls "$OUT/${algo}_step$step.tgz.part-"* | wc -l) part(s)"
  done
}

stage_unpack() {  # PARTS="dir ..." holding the *.tgz.part-* files of stage pack (in any of those folders)
  local name names
  [ -n "${PARTS:-}" ] || { echo "gpu_e2e unpack: set PARTS to the folders holding the parts" >&2; return 1; }
  names=$(for d in $PARTS; do ls "$d"; done | sed -n 's/\.part-[a-z]*$//p' | sort -u)
  [ -n "$names" ] || { echo "gpu_e2e unpack: no *.part-* files in $PARTS" >&2; return 1; }
  for name in $names; do
    cat $(for d in $PARTS; do for f in "$d/$name".part-*; do [ -f "$f" ] && echo "$(basename "$f") $f"; done; done \
          | sort -u -k1,1 | cut -d' ' -f2) | tar xzf - -C "$W"   # a part carried twice is read once
    log "unpacked $name into $W"
  done
}

stage_table() {
  $PY evals/gpu/summary.py "$W" --png "$OUT/val_curves.png" | tee "$OUT/summary.md"
}

stages=("$@"); [ ${#stages[@]} -gt 0 ] || stages=(model base grpo ppo overhead table)
for s in "${stages[@]}"; do log "stage $s"; "stage_$s"; done
