#!/usr/bin/env bash
# One RL stage of evals/gpu/gpu_e2e.sh in the background, for device calls of 10 minutes on a machine held 30:
# base eval (if missing) -> train ALGO up to STEPS, pausing at the last checkpoint after TRAIN_SECONDS ->
# merge + eval + compare that checkpoint -> pack the run as parts. Start it in its own process session, so it
# outlives the call, then poll with evals/gpu/gpu_e2e_poll.sh:
#   setsid nohup bash evals/gpu/gpu_e2e_detached.sh ALGO STEPS TRAIN_SECONDS > /root/e2e/ALGO.detached.log 2>&1 &
# Ends with $W/ALGO.done, or $W/ALGO.failed. One verl run per GPU: a second one fails at vLLM start-up
# ("Error in memory profiling": the first run's vLLM frees and takes back memory as it sleeps and wakes).
# Environment: as gpu_e2e.sh (W, LR, ...); RUN_FLAGS (`verifiers-train run` flags, default the 128 x 8 setting
# of R3/R4), CRITIC_LR (ppo, default 1e-4), OVERRIDES (Hydra overrides after `--`, default none; verl's v0
# trainer is `run`'s default --trainer), SAVE_FREQ (default 5), PART_SIZE (default 15M), E2E (the stage script,
# default evals/gpu/gpu_e2e.sh).
set -eo pipefail
cd "$(dirname "$0")/../.."
[ $# = 3 ] || { echo "usage: gpu_e2e_detached.sh grpo|ppo STEPS TRAIN_SECONDS" >&2; exit 2; }
algo=$1 steps=$2 seconds=$3 e2e=${E2E:-evals/gpu/gpu_e2e.sh}
export W=${W:-/root/e2e}
rm -f "$W/$algo.done" "$W/$algo.failed"
trap '[ -f "$W/$algo.done" ] || touch "$W/$algo.failed"' EXIT
flags=${RUN_FLAGS:---batch-size 128 --mini-batch-size 64 --micro-batch-size 128 --log-prob-micro-batch-size 256 \
--test-freq 10 --agent-workers 8 --reward-workers 4}
[ "$algo" = ppo ] && flags="$flags --critic-lr ${CRITIC_LR:-1e-4}"
# OUT: the launching call's $OUT is emptied by the next call; results stay in $W/out for the polls to copy
export OUT=$W/out SKIP_RAW=1 RUN_EXTRA="$flags${OVERRIDES:+ -- $OVERRIDES}"
bash "$e2e" base
STEPS=$steps SAVE_FREQ=${SAVE_FREQ:-5} TRAIN_TIMEOUT=$seconds TRAIN_ONLY=1 bash "$e2e" "$algo"
last=$(cat "$W/$algo/checkpoints/latest_checkpointed_iteration.txt")
STEPS=$last bash "$e2e" "$algo"   # the latest checkpoint: report, merge, eval, compare
PART_SIZE=${PART_SIZE:-15M} bash "$e2e" pack
touch "$W/$algo.done"
