"""Known ways a verl run dies, recognised in its log, each with its cause and fix.

verl's real error is often hundreds of lines above the traceback the user sees last (Ray re-raises it
through every actor). `verifiers-train run` feeds each log line to a `FailureDetector` and, when verl exits
non-zero, prints one line per known failure it saw. Every entry here was met on a real run or is quoted
from the library that raises it; `tests/verifiers_train/test_failures.py` holds a sample line of each.

    >>> detector = FailureDetector()
    >>> detector.feed("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
    >>> [f.name for f in detector.found]
    ['cuda_oom']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["KNOWN_FAILURES", "FailureDetector", "KnownFailure"]


@dataclass(frozen=True)
class KnownFailure:
    """A log signature of a known failure, what it means and what to do."""

    name: str
    pattern: re.Pattern[str]
    cause: str
    fix: str

    def message(self) -> str:
        """One line for the user: cause, then fix."""
        return f"known failure ({self.name}): {self.cause}; fix: {self.fix}"


KNOWN_FAILURES: tuple[KnownFailure, ...] = (
    KnownFailure(
        "vllm_shared_gpu", re.compile(r"Error in memory profiling"),
        "another process on the GPU freed memory while vLLM was starting (for example a second verl run, whose "
        "vLLM frees and retakes its memory every step)",
        "run one verl job per GPU (CUDA_VISIBLE_DEVICES), or start it while the GPU is otherwise idle"),
    KnownFailure(
        "cuda_oom", re.compile(r"CUDA out of memory|torch\.(cuda\.)?OutOfMemoryError"),
        "the GPU ran out of memory",
        "lower --micro-batch-size / --log-prob-micro-batch-size, or --gpu-memory-utilization (vLLM's share), "
        "or use --dynamic-bsz, --param-offload, --optimizer-offload"),
    KnownFailure(
        "host_oom", re.compile(r"ray\.exceptions\.OutOfMemoryError|running low on memory"),
        "the host ran out of RAM and Ray's memory monitor killed a worker",
        "fewer --agent-workers / --reward-workers, a smaller --batch-size, or no CPU offload "
        "(--no-param-offload --no-optimizer-offload)"),
    KnownFailure(
        "no_flash_attn", re.compile(r"FlashAttention\d? has been toggled on, but it cannot be used|"
                                    r"No module named 'flash_attn'"),
        "the model asks for flash-attn, which is not installed",
        "--attn-implementation sdpa --no-remove-padding (the tiny preset does this); for a PPO critic also "
        "`verifiers-train patch-verl` (verl 0.9.1 hard-codes flash-attn there); or install flash-attn"),
    KnownFailure(
        "critic_value_head", re.compile(r"is not a value head model"),
        "verl 0.9.1 loads the PPO critic with flash_attention_2 hard-coded (verl/utils/model.py, "
        "load_valuehead_model); without flash-attn that load fails, and verl reports it as a missing trl",
        "`verifiers-train patch-verl` (the critic then uses --attn-implementation), or install flash-attn"),
    KnownFailure(
        "too_few_gpus", re.compile(r"Total available GPUs \d+ is less than total desired GPUs"),
        "--gpus x --nodes asks for more GPUs than Ray sees",
        "lower --gpus/--nodes, or check CUDA_VISIBLE_DEVICES and `ray status`"),
    # What a user meets first on a new machine (issue 16): the v1 trainer's extra dependency, no vLLM,
    # no GPU, a mistyped Hydra key, a hub model without network, data whose data_source has no scorer.
    KnownFailure(
        "no_transfer_queue", re.compile(r"No module named '?transfer_queue"),
        "verl's v1 trainer (trainer.use_v1=true) imports transfer_queue, which is not installed",
        "--trainer v0 (the default, which the recorded GPU runs used), or pip install TransferQueue"),
    KnownFailure(
        "no_vllm", re.compile(r"No module named '?vllm"),
        "vLLM, verl's rollout engine, is not installed",
        "pip install 'verl[vllm]==0.9.1' on a GPU host; `verifiers-train run --dry-run` checks a run without it"),
    KnownFailure(
        "no_gpu", re.compile(r"No CUDA GPUs are available|Found no NVIDIA driver on your system"),
        "torch sees no GPU on this machine (verl's workers need one each)",
        "run on a GPU host and check CUDA_VISIBLE_DEVICES and nvidia-smi; `--dry-run` checks a run on a CPU"),
    KnownFailure(
        "hydra_bad_key", re.compile(r"Could not override '[^']+'|Key '[^']+' is not in struct"),
        "an override after `--` names a key verl's config does not have",
        "fix the key (`verifiers-train run --dry-run` names the closest real one); a leading + adds a new key, "
        "which verl ignores unless something reads it"),
    KnownFailure(
        "hub_unreachable", re.compile(r"OfflineModeIsEnabled|We couldn't connect to '[^']+' to load the files"),
        "the model or tokenizer is a hub name, and the hub cannot be reached from this machine (or its workers)",
        "pass a local model folder (download it where there is network), or set HF_HUB_OFFLINE=1 with a "
        "cached copy on every node"),
    KnownFailure(
        "unknown_data_source", re.compile(r"no verifiers scorer for data_source"),
        "rows of the data have a data_source no scorer knows, so each of them scores 0 with error=1",
        "prepare the data with a known --data-source, or force a scorer with "
        "`-- +reward.custom_reward_function.reward_kwargs.task=gsm8k|math|mbpp`"),
)


class FailureDetector:
    """Collects the known failures whose signature appears in the lines fed to it (each one once)."""

    def __init__(self, known: tuple[KnownFailure, ...] = KNOWN_FAILURES) -> None:
        self._pending = list(known)
        self.found: list[KnownFailure] = []

    def feed(self, line: str) -> None:
        """Check one log line."""
        for failure in self._pending:
            if failure.pattern.search(line):
                self.found.append(failure)
                self._pending.remove(failure)
                return
