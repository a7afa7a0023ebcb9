#!/usr/bin/env bash
# Wait for a detached RL stage (scripts/gpu_e2e_detached.sh) for up to SECONDS, then print its progress:
# the driver's log, validation accuracy, the last steps' reward and time, errors; copy results to $OUT when
# it has ended.   bash scripts/gpu_e2e_poll.sh ALGO SECONDS
set -uo pipefail
[ $# = 2 ] || { echo "usage: gpu_e2e_poll.sh grpo|ppo SECONDS" >&2; exit 2; }
algo=$1 seconds=$2 W=${W:-/root/e2e}
log=$W/$algo.console.log end=$((SECONDS + seconds))
while [ $SECONDS -lt $end ] && [ ! -f "$W/$algo.done" ] && [ ! -f "$W/$algo.failed" ]; do sleep 5; done
tail -12 "$W/$algo.detached.log" 2>/dev/null | cut -c1-300
echo "validation: $(sed -nE 's/.*step:([0-9]+) .*val-core\/[^:]*:(np\.float64\()?([0-9.]+).*/\1:\3/p' "$log" 2>/dev/null \
  | paste -sd' ')"
grep -oE "step:[0-9]+ .*timing_s/step:[0-9.]+" "$log" 2>/dev/null | tail -4 \
  | sed -E 's/^(step:[0-9]+) .*critic\/score\/mean:([0-9.]+).*timing_s\/step:([0-9.]+)$/\1 reward \2 step_s \3/' | cut -c1-200
grep -hE "[A-Za-z]+Error: |known failure" "$log" "$W/$algo.detached.log" 2>/dev/null | grep -vE "Warning|ModuleNotFoundError" \
  | tail -3 | cut -c1-400
if [ -f "$W/$algo.done" ] || [ -f "$W/$algo.failed" ]; then
  echo "$algo: $(ls "$W/$algo".done "$W/$algo".failed 2>/dev/null | xargs -n1 basename)"
  if [ -n "${OUT:-}" ] && [ -d "$W/out" ]; then
    (cd "$W" && tar czf "$OUT/${algo}_results.tgz" --exclude='out/*.part-*' out \
        $(ls -d "$algo.detached.log" "$algo/report" "compare_$algo" 2>/dev/null))
    cp "$W/out/$algo"_step*.part-* "$W"/out/base.tgz.part-* "$OUT/" 2>/dev/null   # for the next machine (pack
    # keeps only the latest checkpoint's parts)
  fi
fi
true
