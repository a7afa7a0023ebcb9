"""Check overrides with verl's own machinery: Hydra composition of ``ppo_trainer`` + ``validate_config``.

This is what ``python -m verl.trainer.main_ppo`` does before it starts Ray, so a run that passes here
fails, if at all, only on things a CPU cannot see (GPU memory, model download, vLLM start).
"""

from __future__ import annotations

import contextlib
import io
import os
import warnings
from collections.abc import Sequence
from typing import Any

from verifiers.errors import ConfigError

__all__ = ["compose", "verl_config_dir", "verl_validate"]


def verl_config_dir() -> str:
    """The installed verl's ``trainer/config`` folder."""
    try:
        import verl
    except ImportError as e:
        raise ConfigError("verl is not installed: pip install -e '.[train]' in a clone of this project's repository (verl==0.9.1)") from e
    return os.path.join(os.path.dirname(verl.__file__), "trainer", "config")


def compose(overrides: Sequence[str], config_name: str = "ppo_trainer") -> Any:
    """Compose verl's trainer config with ``overrides`` exactly as ``main_ppo``'s ``@hydra.main`` would.

    Raises:
        ConfigError: an override names a key verl does not have, or a value of the wrong type.
    """
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=verl_config_dir(), version_base=None):
            return hydra_compose(config_name=config_name, overrides=list(overrides))
    except Exception as e:  # hydra's errors name the bad override; keep its message
        raise ConfigError(f"verl rejected the overrides: {type(e).__name__}: {e}") from e
    finally:
        GlobalHydra.instance().clear()


def verl_validate(overrides: Sequence[str]) -> Any:
    """Compose and run verl's ``validate_config`` (main_ppo's pre-flight check); return the config.

    Raises:
        ConfigError: composition or validation failed; the message is verl's.
    """
    config = compose(overrides)
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import validate_config

    try:
        # verl prints a success banner and warns that GRPO has no critic; neither is news here.
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            validate_config(config=config, use_reference_policy=need_reference_policy(config),
                            use_critic=need_critic(config))
    except Exception as e:  # assertions, ValueErrors, model-config instantiation errors: all verl's verdict
        raise ConfigError(f"verl's validate_config failed: {type(e).__name__}: {e}") from e
    return config
