"""`evals/gpu/gpu_e2e_detached.sh` and `gpu_e2e_poll.sh`: the order of stages, the end markers, and the poll."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "evals" / "gpu"

# Stands in for gpu_e2e.sh: records each call with the settings the stage saw; training "reaches" step 35.
FAKE_E2E = r"""
echo "$* STEPS=${STEPS:-} TRAIN_ONLY=${TRAIN_ONLY:-} TRAIN_TIMEOUT=${TRAIN_TIMEOUT:-} OUT=$OUT RUN_EXTRA=$RUN_EXTRA" \
  >> "$W/calls"
[ -n "${FAIL_AT:-}" ] && [ "$*" = "$FAIL_AT" ] && exit 1
if [ -n "${TRAIN_ONLY:-}" ]; then  # the run folder as `verifiers-train run` leaves it
  mkdir -p "$W/$1/checkpoints" && echo 35 > "$W/$1/checkpoints/latest_checkpointed_iteration.txt"
  echo '{"step": 0, "val-core/arith/acc/mean@1": 0.184}' >> "$W/$1/metrics.jsonl"
  echo '{"step": 35, "critic/score/mean": 0.2, "val-core/arith/acc/mean@1": 0.21, "timing_s/step": 11.5}' \
    >> "$W/$1/metrics.jsonl"
fi
[ "$*" = pack ] && mkdir -p "$OUT" && echo part > "$OUT/grpo_step35.tgz.part-aa" && echo b > "$OUT/base.tgz.part-aa"
true
"""


def _detached(tmp_path: Path, algo: str, **env: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    fake = tmp_path / "fake_e2e.sh"
    fake.write_text(FAKE_E2E)
    work = tmp_path / "w"
    work.mkdir(exist_ok=True)
    done = subprocess.run(["bash", str(SCRIPTS / "gpu_e2e_detached.sh"), algo, "200", "1250"], check=False,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "W": str(work), "E2E": str(fake), "OUT": "/call/out", **env})
    calls = (work / "calls").read_text().splitlines() if (work / "calls").exists() else []
    return done, calls


def test_base_train_then_the_latest_checkpoint_is_evaluated_and_packed(tmp_path: Path) -> None:
    done, calls = _detached(tmp_path, "grpo")
    assert done.returncode == 0, done.stderr
    assert [c.split(" STEPS")[0] for c in calls] == ["base", "grpo", "grpo", "pack"]
    assert "STEPS=200 TRAIN_ONLY=1 TRAIN_TIMEOUT=1250" in calls[1]
    assert "STEPS=35 TRAIN_ONLY= " in calls[2]  # merge + eval of the checkpoint training reached
    assert all(f"OUT={tmp_path}/w/out" in c for c in calls)  # not the launching call's $OUT
    assert "--critic-lr" not in calls[1] and " -- " not in calls[1]  # no overrides: run's default trainer (v0)
    assert (tmp_path / "w" / "grpo.done").exists() and not (tmp_path / "w" / "grpo.failed").exists()


def test_ppo_gets_a_critic_learning_rate_with_any_flags(tmp_path: Path) -> None:
    done, calls = _detached(tmp_path, "ppo", CRITIC_LR="3e-4", RUN_FLAGS="--batch-size 64", OVERRIDES="x.y=1")
    assert done.returncode == 0, done.stderr
    assert calls[1].endswith("RUN_EXTRA=--batch-size 64 --critic-lr 3e-4 -- x.y=1")


def test_a_failed_training_stops_there_and_leaves_the_failed_marker(tmp_path: Path) -> None:
    done, calls = _detached(tmp_path, "ppo", FAIL_AT="ppo")
    assert done.returncode != 0
    assert [c.split(" STEPS")[0] for c in calls] == ["base", "ppo"]  # no merge of nothing, no pack
    assert (tmp_path / "w" / "ppo.failed").exists() and not (tmp_path / "w" / "ppo.done").exists()


def test_wrong_arguments_are_refused(tmp_path: Path) -> None:
    done = subprocess.run(["bash", str(SCRIPTS / "gpu_e2e_detached.sh"), "grpo"], check=False, capture_output=True,
                          text=True, timeout=30, env={**os.environ, "W": str(tmp_path)})
    assert done.returncode == 2 and "usage" in done.stderr


def test_poll_reports_progress_and_collects_results_once_ended(tmp_path: Path) -> None:
    _detached(tmp_path, "grpo")
    out = tmp_path / "out"
    out.mkdir()
    polled = subprocess.run(["bash", str(SCRIPTS / "gpu_e2e_poll.sh"), "grpo", "5"], check=False,
                            capture_output=True, text=True, timeout=30,
                            env={**os.environ, "W": str(tmp_path / "w"), "OUT": str(out), "PYTHON": sys.executable})
    assert polled.returncode == 0, polled.stderr
    assert "validation: 0:0.184 35:0.21" in polled.stdout
    assert "step 35  reward 0.2  step_s 11.5" in polled.stdout and "grpo: grpo.done" in polled.stdout
    assert (out / "grpo_results.tgz").is_file() and (out / "grpo_step35.tgz.part-aa").is_file()
    assert (out / "base.tgz.part-aa").is_file()  # the model and data travel with the checkpoint


def test_poll_without_arguments_says_how_to_call_it() -> None:
    polled = subprocess.run(["bash", str(SCRIPTS / "gpu_e2e_poll.sh")], check=False, capture_output=True,
                            text=True, timeout=30)
    assert polled.returncode == 2 and "usage" in polled.stderr
