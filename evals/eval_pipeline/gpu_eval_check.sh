#!/bin/bash
# GPU check of `verifiers-eval` with the vLLM backend, on a host where the offline bundle is unpacked
# (../shared/gpu/README.md: /root/bs/env.sh and $SITE hold vLLM 0.24) and a tiny model was built with
#   python -m verifiers_train.tiny --out /root/tiny --size small
# Usage (repo root): bash evals/eval_pipeline/gpu_eval_check.sh [MODEL=/root/tiny] [OUT_DIR=$OUT]
# Runs: 1) checkpoint --backend vllm --n 8 on 500 arith test problems, 2) the same command with --resume
# (must generate nothing), 3) the overhead benchmark against raw vllm.LLM.generate of the same prompts,
# 4) the HF backend on the first 32 problems greedy vs vLLM greedy (same accuracy expected), then prints
# a short table. Copies metrics/report files to OUT_DIR.
set -euo pipefail
MODEL=${1:-/root/tiny}
OUTD=${2:-${OUT:-/tmp/gpu_eval_out}}
mkdir -p "$OUTD"
source /root/bs/env.sh
export PYTHONPATH=$PWD/src:${PYTHONPATH:-}
EVAL="python -m verifiers_train.evaluation.cli"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUTD/gpu.txt"
R=/root/gpu_eval_runs; rm -rf "$R"; mkdir -p "$R"

t0=$(date +%s.%N)
$EVAL checkpoint "$MODEL" --dataset arith --backend vllm --n 8 --temperature 1.0 --max-tokens 128 --limit 500 \
  --out "$R/vllm_n8" --quiet 2>&1 | grep -vE "^(INFO|WARNING|\(EngineCore)" | tail -30
t1=$(date +%s.%N)
$EVAL checkpoint "$MODEL" --dataset arith --backend vllm --n 8 --temperature 1.0 --max-tokens 128 --limit 500 \
  --out "$R/vllm_n8" --resume --quiet --no-report > "$R/resume.log" 2>&1
t2=$(date +%s.%N)
python evals/eval_pipeline/bench_overhead.py "$MODEL" --dataset arith --backend vllm --n 8 --temperature 1.0 \
  --max-tokens 128 --limit 500 --repeats 2 --out "$OUTD" 2>&1 | grep -E "^\||^\{" || true
$EVAL checkpoint "$MODEL" --dataset arith --backend vllm --limit 32 --max-tokens 128 --out "$R/vllm_greedy" \
  --quiet --no-report > "$R/greedy_vllm.log" 2>&1
$EVAL checkpoint "$MODEL" --dataset arith --backend hf --limit 32 --max-tokens 128 --out "$R/hf_greedy" \
  --quiet --no-report > "$R/greedy_hf.log" 2>&1

cp "$R/vllm_n8/metrics.json" "$OUTD/metrics_vllm_n8.json"
cp "$R/vllm_n8/report.html" "$OUTD/report.html"
[ -f "$R/vllm_n8/plots/pass_at_k.png" ] && cp "$R/vllm_n8/plots/pass_at_k.png" "$OUTD/"
python - "$R" "$t0" "$t1" "$t2" <<'EOF' | tee "$OUTD/summary.md"
import json, sys
r, t0, t1, t2 = sys.argv[1], *map(float, sys.argv[2:])
m = json.load(open(f"{r}/vllm_n8/metrics.json"))
g_v = json.load(open(f"{r}/vllm_greedy/metrics.json"))["accuracy"]
g_h = json.load(open(f"{r}/hf_greedy/metrics.json"))["accuracy"]
lines = sum(1 for _ in open(f"{r}/vllm_n8/samples.jsonl"))
print("| check | value |\n|---|---|")
print(f"| vllm n=8 on {m['problems']} arith problems: accuracy (95% CI) | {m['accuracy']:.4f} "
      f"[{m['accuracy_ci95'][0]:.4f}, {m['accuracy_ci95'][1]:.4f}] |")
print("| pass@k | " + ", ".join(f"@{k} {v:.3f}" for k, v in m["pass_at_k"].items()) + " |")
print("| maj@k | " + ", ".join(f"@{k} {v:.3f}" for k, v in m["maj_at_k"].items()) + " |")
print(f"| generated tokens/s (generation phase) | {m['throughput']['tokens_per_s']:,.0f} |")
print(f"| wall time of the command (s) | {t1 - t0:.1f} (engine load {m['timing']['load_s']:.1f}) |")
print(f"| --resume of the finished run: wall (s), samples on disk | {t2 - t1:.1f}, {lines} (expect {m['problems'] * 8}) |")
print(f"| greedy accuracy, 32 problems: vllm vs hf | {g_v:.4f} vs {g_h:.4f} |")
EOF
