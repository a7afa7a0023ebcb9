#!/usr/bin/env bash
# Every stage of evals/gpu/code_rl.sh for each task in TASKS (default: humaneval code_stdio), one after the other;
# meant to be started detached (setsid nohup) in one device call and polled from later ones. The first task also
# runs `setup model`. Logs and results: $W/out (default /root/coderl/out), `driver.status` says when it is done.
# Environment: D (data dir, default .gpu-work/data), DEBS (default .gpu-work/debs), W, STEPS (default 2),
# TRAIN_TIMEOUT (default 420), EVAL_LIMIT (default 32), TASKS.
cd "$(dirname "$0")/../.."
W=${W:-/root/coderl}
export D=${D:-$PWD/.gpu-work/data} DEBS=${DEBS:-$PWD/.gpu-work/debs} W OUT=$W/out STEPS=${STEPS:-2} SAVE_FREQ=2 \
       TRAIN_TIMEOUT=${TRAIN_TIMEOUT:-420} EVAL_LIMIT=${EVAL_LIMIT:-32}
mkdir -p "$OUT"
first=1
for task in ${TASKS:-humaneval code_stdio}; do
  stages="prepare dryrun train merge eval summary"
  [ -n "$first" ] && stages="setup model $stages" && first=
  TASK=$task bash evals/gpu/code_rl.sh $stages > "$OUT/$task.driver.log" 2>&1
  echo "$task exit $?" >> "$OUT/driver.status"
done
echo done >> "$OUT/driver.status"
