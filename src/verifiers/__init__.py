"""verifiers: verifiable rewards for RL fine-tuning of LLMs.

Scorers live in submodules, imported on demand so ``import verifiers`` stays light::

    from verifiers import gsm8k, math, mbpp
    s = gsm8k.score("... #### 18", "18")
"""

from verifiers.answers._tags import Tags
from verifiers.errors import ConfigError, DataError, SandboxError, VerifiersError
from verifiers.rewards._score import STATUSES, Score, Status

__all__ = [
    "STATUSES",
    "ConfigError",
    "DataError",
    "SandboxError",
    "Score",
    "Status",
    "Tags",
    "VerifiersError",
]
__version__ = "0.1.0"
