#!/usr/bin/env bash
# CPU smoke path of `verifiers-train tiny-model`: wall time, CPU time and greedy accuracy of the default
# (no CUDA -> --size smoke) build, one run per seed, with the machine load beside each.
# Usage: bash evals/tiny_model/smoke_runs.sh [SEEDS...]   (default seeds 0 1 2); prints a markdown table.
set -euo pipefail
PY=${PY:-python}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "| seed | wall s | CPU s (user+sys) | greedy accuracy (32 held-out) | final loss | load before (1/5/15 min) |"
echo "|---|---|---|---|---|---|"
for seed in "${@:-0 1 2}"; do
  for s in $seed; do
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    /usr/bin/time -f "%e %U %S" -o "$OUT/time" $PY -m verifiers_train.cli tiny-model --out "$OUT/m$s" --seed "$s" \
      > "$OUT/info.json" 2> "$OUT/log"
    read -r wall user sys < "$OUT/time"
    acc=$($PY -c "import json,sys; d=json.load(open(sys.argv[1])); print(f\"{d['greedy_accuracy']:.1%} \
| {d['final_loss']:.3f}\")" "$OUT/info.json")
    cpu=$($PY -c "print(f'{$user + $sys:.1f}')")
    echo "| $s | $wall | $cpu | $acc | $load |"
  done
done
echo
echo "nproc $(nproc), $(head -1 "$OUT/log")"
