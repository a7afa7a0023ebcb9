#!/usr/bin/env bash
# Wait for a detached RL stage (evals/gpu/gpu_e2e_detached.sh) for up to SECONDS, then print its progress:
# the driver's log, `verifiers-train status` of the run (validation accuracy, the last steps' reward and time,
# known failures), errors; copy results to $OUT when it has ended.   bash evals/gpu/gpu_e2e_poll.sh ALGO SECONDS
set -uo pipefail
[ $# = 2 ] || { echo "usage: gpu_e2e_poll.sh grpo|ppo SECONDS" >&2; exit 2; }
algo=$1 seconds=$2 W=${W:-/root/e2e}
log=$W/$algo.console.log end=$((SECONDS + seconds))
while [ $SECONDS -lt $end ] && [ ! -f "$W/$algo.done" ] && [ ! -f "$W/$algo.failed" ]; do sleep 5; done
tail -12 "$W/$algo.detached.log" 2>/dev/null | cut -c1-300
# validation, the last steps' reward and time, known failures: read from the run folder by the package
PYTHONPATH="$(cd "$(dirname "$0")/../.." && pwd)/src${PYTHONPATH:+:$PYTHONPATH}" ${PYTHON:-python3} -m verifiers_train.cli \
  status "$W/$algo" 2>&1 | cut -c1-300
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
