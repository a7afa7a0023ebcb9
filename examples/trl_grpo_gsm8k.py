"""GRPO on GSM8K with TRL's ``GRPOTrainer`` and this package's GSM8K scorer as the reward (CPU, seconds).

Needs the ``trl`` extra (``pip install -e '.[trl]'``) and GSM8K as a local file
(``$VERIFIERS_DATA_DIR/gsm8k/train.jsonl``, or ``--data``). With no ``--model`` it first builds a tiny
Qwen2-architecture model on GSM8K (`verifiers_train.tiny.build_tiny_model`, no download), so the whole run is
a smoke test of the wiring; pass a real model folder (e.g. Qwen2.5-0.5B-Instruct) and more ``--steps`` for
training that moves the reward::

    python examples/trl_grpo_gsm8k.py --out runs/trl-gsm8k --steps 2
    python examples/trl_grpo_gsm8k.py --out runs/trl-gsm8k --model Qwen/Qwen2.5-0.5B-Instruct --steps 200 --problems 2000

`verifiers_train.trl_rewards.reward_funcs` gives one TRL reward function per weighted part of the scorer
(``gsm8k_correctness``, ``gsm8k_reasoning``, ``gsm8k_marker`` with the ``book`` preset), summing to its reward;
TRL logs each as ``rewards/<name>/mean``. The last line printed is a JSON summary of the logged steps.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers.datasets import load_problems
from verifiers.extras import require_installed
from verifiers_train.templates import build_messages
from verifiers_train.trl_rewards import reward_funcs


def gsm8k_dataset(data: str, problems: int) -> Any:
    """The first ``problems`` GSM8K problems as a TRL dataset: a chat ``prompt`` (the template `verifiers-train
    prepare` uses) and the gold ``answer``."""
    from datasets import Dataset

    template = tasks.get("gsm8k").template
    rows = [{"prompt": build_messages(p, template), "answer": p.gold}
            for p in load_problems("gsm8k", data, split="train", limit=problems)]
    return Dataset.from_list(rows)


def train(out: Path, data: str, *, model: str | None = None, steps: int = 2, problems: int = 8,
          generations: int = 4, max_completion_length: int = 48, preset: str = "book", seed: int = 0) -> list[dict]:
    """Run GRPO for ``steps`` steps; returns TRL's log history (one dict per logged step)."""
    from trl import GRPOConfig, GRPOTrainer

    if model is None:
        from verifiers_train.tiny import TinySize, build_tiny_model

        # ~30k parameters, 20 SFT steps: enough to emit text, not to solve GSM8K (the reward stays near 0)
        tiny = TinySize(hidden=32, layers=1, heads=2, kv_heads=1, intermediate=64, vocab=300)
        model = str(build_tiny_model(out / "tiny-model", dataset="gsm8k", data=data, size=tiny, steps=20,
                                     batch_size=8, train_problems=100, eval_problems=4, seed=seed, device="cpu",
                                     log=None).path)
    config = GRPOConfig(
        output_dir=str(out), max_steps=steps, learning_rate=1e-5, seed=seed,
        per_device_train_batch_size=2 * generations, num_generations=generations,  # two prompts a step
        max_completion_length=max_completion_length, temperature=1.0, beta=0.0,
        logging_steps=1, save_strategy="no", report_to="none", use_cpu=True, bf16=False,
        dataloader_num_workers=0,
    )
    trainer = GRPOTrainer(model=model, reward_funcs=reward_funcs("gsm8k", preset=preset), args=config,
                          train_dataset=gsm8k_dataset(data, problems))
    trainer.train()
    return [dict(row) for row in trainer.state.log_history]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--out", required=True, help="output folder (the tiny model and TRL's files)")
    default_data = Path(os.environ.get("VERIFIERS_DATA_DIR", "data")) / "gsm8k" / "train.jsonl"
    ap.add_argument("--data", default=str(default_data), help="GSM8K train file (default: %(default)s)")
    ap.add_argument("--model", help="model folder or hub name (default: build a tiny model first)")
    ap.add_argument("--steps", type=int, default=2, help="GRPO steps (default: %(default)s)")
    ap.add_argument("--problems", type=int, default=8, help="GSM8K problems to train on (default: %(default)s)")
    ap.add_argument("--preset", default="book", help="scorer preset (default: %(default)s)")
    args = ap.parse_args(argv)
    try:
        require_installed("trl", "examples/trl_grpo_gsm8k.py", "trl", "torch", "transformers", "datasets")
    except ImportError as e:
        ap.exit(2, f"{ap.prog}: error: {e}\n")
    if not Path(args.data).is_file():
        ap.error(f"no GSM8K file at {args.data}: pass --data, or set VERIFIERS_DATA_DIR")
    history = train(Path(args.out), args.data, model=args.model, steps=args.steps, problems=args.problems,
                    preset=args.preset)
    steps = [row for row in history if "loss" in row or any(k.startswith("rewards/") for k in row)]
    print(json.dumps({"steps": len(steps), "log": steps}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
