"""Named run configurations (``verifiers-train run --preset NAME``), from the project's seed recipes.

A preset is a partial set of `verifiers_train.run.RunOptions` values; flags and environment variables
override it. Values not named by a preset fall back to the option defaults in ``run.py``.
"""

from __future__ import annotations

from typing import Any

from verifiers.errors import one_of

__all__ = ["PRESETS", "describe_presets", "get_preset"]

_QWEN_05B = "Qwen/Qwen2.5-0.5B-Instruct"
_QWEN2_7B = "Qwen/Qwen2-7B-Instruct"

# Each preset: description + option values. Keys are `RunOptions` field names.
PRESETS: dict[str, dict[str, Any]] = {
    "ppo-0.5b": {
        "description": "1 GPU, Qwen2.5-0.5B PPO (GAE critic): batch 128, mini 64, prompt 512, response 256, "
                       "actor lr 1e-6, critic lr 1e-5, rollout memory 0.4, 20 epochs",
        "values": {
            "algo": "ppo", "model": _QWEN_05B, "gpus": 1, "nodes": 1,
            "batch_size": 128, "mini_batch_size": 64, "micro_batch_size": 4, "log_prob_micro_batch_size": 8,
            "max_prompt_length": 512, "max_response_length": 256,
            "lr": 1e-6, "critic_lr": 1e-5, "gpu_memory_utilization": 0.4, "epochs": 20,
            "rollouts": 1, "kl_loss": False, "kl_coef": 0.001,
        },
    },
    "grpo-baseline": {
        "description": "1 GPU, Qwen2.5-0.5B GRPO: rollout.n 16, clip 0.2/0.28 (DAPO clip-higher), token-mean "
                       "loss, KL loss 0.001 (low_var_kl); batch 128, mini 64, prompt 512, response 256",
        "values": {
            "algo": "grpo", "model": _QWEN_05B, "gpus": 1, "nodes": 1,
            "batch_size": 128, "mini_batch_size": 64, "micro_batch_size": 8, "log_prob_micro_batch_size": 16,
            "max_prompt_length": 512, "max_response_length": 256,
            "lr": 1e-6, "gpu_memory_utilization": 0.4, "epochs": 20,
            "rollouts": 16, "clip_low": 0.2, "clip_high": 0.28, "loss_agg_mode": "token-mean",
            "kl_loss": True, "kl_coef": 0.001, "kl_loss_type": "low_var_kl", "entropy_coeff": 0.0,
        },
    },
    "ppo-7b-minimal": {
        "description": "8 GPUs, Qwen2-7B PPO, lowest memory: param+optimizer offload, gradient checkpointing, "
                       "rollout.n 2, dynamic batch size with 8192 tokens per GPU",
        "values": {
            "algo": "ppo", "model": _QWEN2_7B, "gpus": 8, "nodes": 1, "tp": 1,
            "batch_size": 1024, "mini_batch_size": 256, "log_prob_micro_batch_size": 16, "micro_batch_size": 8,
            "max_prompt_length": 1024, "max_response_length": 1024,
            "lr": 1e-6, "critic_lr": 1e-5, "gpu_memory_utilization": 0.5, "epochs": 15,
            "rollouts": 2, "param_offload": True, "optimizer_offload": True, "gradient_checkpointing": True,
            "dynamic_bsz": True, "max_tokens_per_gpu": 8192, "kl_loss": False,
        },
    },
    "ppo-7b-recommended": {
        "description": "8 GPUs, Qwen2-7B PPO, throughput: rollout TP=2, rollout.n 5, dynamic batch size with "
                       "12000 tokens per GPU, no offload",
        "values": {
            "algo": "ppo", "model": _QWEN2_7B, "gpus": 8, "nodes": 1, "tp": 2,
            "batch_size": 1024, "mini_batch_size": 256, "log_prob_micro_batch_size": 32, "micro_batch_size": 16,
            "max_prompt_length": 1024, "max_response_length": 1024,
            "lr": 1e-6, "critic_lr": 1e-5, "gpu_memory_utilization": 0.6, "epochs": 15,
            "rollouts": 5, "param_offload": False, "optimizer_offload": False, "gradient_checkpointing": True,
            "dynamic_bsz": True, "max_tokens_per_gpu": 12000, "kl_loss": False,
        },
    },
    "tiny": {
        "description": "1 GPU smoke test for a few-MB model (`verifiers-train tiny-model`) on arith: batch 16, "
                       "mini 8, prompt 160, response 96, sdpa attention (no flash-attn), eager vLLM",
        "values": {
            "gpus": 1, "nodes": 1, "tp": 1,
            "batch_size": 16, "mini_batch_size": 8, "micro_batch_size": 8, "log_prob_micro_batch_size": 16,
            "max_prompt_length": 160, "max_response_length": 96,
            "lr": 1e-5, "critic_lr": 1e-5, "gpu_memory_utilization": 0.3, "enforce_eager": True,
            "attn_implementation": "sdpa", "remove_padding": False, "torch_compile": False,
            "gradient_checkpointing": False, "rollouts": 4, "kl_loss": True, "kl_coef": 0.001,
            "kl_loss_type": "low_var_kl", "agent_workers": 2, "reward_workers": 2, "dataloader_workers": 0,
            "epochs": 1, "total_steps": 40, "test_freq": 10, "save_freq": 20,
        },
    },
}


def get_preset(name: str) -> dict[str, Any]:
    """The option values of preset ``name``; raise `ConfigError` listing the known presets."""
    return dict(PRESETS[one_of(name, PRESETS, "preset")]["values"])


def describe_presets() -> str:
    """One line per preset, for ``--help``."""
    return "\n".join(f"{name}: {p['description']}" for name, p in PRESETS.items())
