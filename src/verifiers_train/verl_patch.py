"""``verifiers-train patch-verl``: two fixes to verl 0.9.1 for hosts without flash-attn.

1. ``logprobs`` (``utils/torch_functional.py``): without flash-attn verl computes every log-prob through
   ``logprobs_from_logits_v2``, which loops over the first dimension "to reduce peak memory". With
   ``use_remove_padding=False`` the FSDP engine passes it logits of shape (tokens, vocab), so the loop runs
   once per token: ~100k small kernels (and as many autograd nodes) for a 1,024-sample batch, in each of
   old_log_prob, ref and update_actor. On a 1.5M-parameter model this was 85% of the log-prob time, and the
   patch took a whole verl step from 30.7 s to 11.4 s (evals/gpu/README.md, R3.2 and R4.1). The
   replacement keeps the memory bound (at most 2**26 logits a chunk) and each row's arithmetic (log_softmax
   + gather in bf16/fp16, logsumexp in fp32/fp64), so values and gradients are unchanged.
2. ``critic-attention`` (``utils/model.py``): ``load_valuehead_model`` loads the PPO critic with
   ``attn_implementation="flash_attention_2"`` hard-coded, ignoring ``critic.model.override_config``, so
   PPO/GAE cannot start without flash-attn ("is not a value head model, please install trl"). The patch uses
   the critic config's implementation, which verl sets from that override (default: flash_attention_2, as
   before).

Patching edits the installed files once; running it again changes nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verifiers.cli_common import add_json, emit_json
from verifiers.errors import ConfigError

__all__ = [
    "CRITIC_ATTENTION", "LOGPROBS", "PATCHES", "REPLACEMENT", "VerlPatch", "chunked_logprobs", "is_patched",
    "needs_patch", "patch_verl", "verl_root",
]

_LOGPROBS_MARKER = "# verifiers patch: chunked rows"

REPLACEMENT = '''LOGPROB_CHUNK_NUMEL = 1 << 26  ''' + _LOGPROBS_MARKER + '''


def logprobs_from_logits_v2(logits: torch.FloatTensor, labels: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of ``labels``, over chunks of rows of at most LOGPROB_CHUNK_NUMEL logits."""
    rows = logits.shape[0]
    step = max(1, LOGPROB_CHUNK_NUMEL // max(1, logits.numel() // max(1, rows)))
    out = [logits.new_empty((0, *logits.shape[1:-1]))]  # keeps torch.cat defined for zero rows
    for start in range(0, rows, step):
        chunk, chunk_labels = logits[start : start + step], labels[start : start + step].unsqueeze(-1)
        if logits.dtype in [torch.float32, torch.float64]:
            picked = torch.gather(chunk, dim=-1, index=chunk_labels).squeeze(-1)
            out.append(picked - torch.logsumexp(chunk, dim=-1))
        else:  # logsumexp is unstable in bfloat16: log_softmax, as upstream does per row
            out.append(F.log_softmax(chunk, dim=-1).gather(dim=-1, index=chunk_labels).squeeze(-1))
    return torch.cat(out)


'''


def chunked_logprobs(chunk_numel: int | None = None) -> Callable[[Any, Any], Any]:
    """The patched ``logprobs_from_logits_v2`` as a function here (benchmarks, tests), without touching verl.

    ``chunk_numel`` overrides ``LOGPROB_CHUNK_NUMEL`` (small values force several chunks on small inputs).
    """
    import torch
    import torch.nn.functional as F

    namespace: dict[str, Any] = {"torch": torch, "F": F}
    exec(compile(REPLACEMENT, "<verifiers patch>", "exec"), namespace)  # noqa: S102 - our own constant text
    if chunk_numel is not None:
        namespace["LOGPROB_CHUNK_NUMEL"] = chunk_numel
    return namespace["logprobs_from_logits_v2"]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class VerlPatch:
    """One edit of one file of the verl package."""

    name: str
    path: str  # inside the verl package
    edit: Callable[[str], str]  # source -> patched source; ConfigError when the code to patch is not there
    applied: Callable[[str], bool]  # whether a source already holds the fix

    def apply(self, source: str) -> str:
        """``source`` patched; unchanged if it already holds the fix."""
        return source if self.applied(source) else self.edit(source)


_LOGPROBS_FUNCTION = re.compile(r"^def logprobs_from_logits_v2\(.*?(?=^def )", re.DOTALL | re.MULTILINE)


def _logprobs_edit(source: str) -> str:
    patched, count = _LOGPROBS_FUNCTION.subn(lambda _: REPLACEMENT, source, count=1)
    if count != 1:
        raise ConfigError("logprobs_from_logits_v2 not found: not verl 0.9.1's utils/torch_functional.py")
    return patched


LOGPROBS = VerlPatch("logprobs", "utils/torch_functional.py", edit=_logprobs_edit,
                     applied=lambda source: _LOGPROBS_MARKER in source)

_CRITIC_HARD_CODED = 'attn_implementation="flash_attention_2",'
_CRITIC_FIX = ('attn_implementation=getattr(model_config, "_attn_implementation", None) or "flash_attention_2",'
               "  # verifiers patch: configured attention")


def _valuehead_function(source: str) -> tuple[str, str, str]:
    """``source`` split into (before, load_valuehead_model's text, after)."""
    before, found, rest = source.partition("\ndef load_valuehead_model(")
    if not found:
        return source, "", ""
    body, next_def, after = rest.partition("\ndef ")
    return before, found + body, next_def + after


def _critic_edit(source: str) -> str:
    before, function, after = _valuehead_function(source)
    if _CRITIC_HARD_CODED not in function:
        raise ConfigError("load_valuehead_model's flash_attention_2 not found: not verl 0.9.1's utils/model.py")
    return before + function.replace(_CRITIC_HARD_CODED, _CRITIC_FIX) + after  # both loads: its own, trl's


def _critic_applied(source: str) -> bool:
    """No hard-coded flash_attention_2 left in load_valuehead_model (ours, or an equivalent edit)."""
    function = _valuehead_function(source)[1]
    return bool(function) and _CRITIC_HARD_CODED not in function


CRITIC_ATTENTION = VerlPatch("critic-attention", "utils/model.py", edit=_critic_edit, applied=_critic_applied)

PATCHES: tuple[VerlPatch, ...] = (LOGPROBS, CRITIC_ATTENTION)


def verl_root() -> Path:
    """The folder of the verl package that ``import verl`` would load (without importing it)."""
    spec = importlib.util.find_spec("verl")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("verl is not installed here (pip install -e '.[train]' in a clone of this project's repository)")
    return Path(next(iter(spec.submodule_search_locations)))


def _read(root: Path, patch: VerlPatch) -> str:
    path = root / patch.path
    if not path.is_file():
        raise ConfigError(f"{path} does not exist: is {root} a verl package folder?")
    return path.read_text(encoding="utf-8")


def is_patched(root: Path | None = None) -> dict[str, bool]:
    """Each patch's name -> whether the verl at ``root`` (default: the installed one) holds it."""
    base = root or verl_root()
    return {patch.name: patch.applied(_read(base, patch)) for patch in PATCHES}


def needs_patch() -> bool:
    """True when verl is installed, flash-attn is not (so verl takes these paths), and a patch is missing."""
    try:
        return importlib.util.find_spec("flash_attn") is None and not all(is_patched().values())
    except (ConfigError, OSError):
        return False


def patch_verl(root: Path | None = None) -> list[str]:
    """Apply every patch to the verl at ``root`` (default: the installed one); return the names applied now.

    Every file is checked before any is written, so verl that is not 0.9.1 is left untouched.
    """
    base = root or verl_root()
    sources = {patch.name: _read(base, patch) for patch in PATCHES}
    patched = {patch.name: patch.apply(sources[patch.name]) for patch in PATCHES}
    changed = [patch for patch in PATCHES if patched[patch.name] != sources[patch.name]]
    for patch in changed:
        (base / patch.path).write_text(patched[patch.name], encoding="utf-8")
    return [patch.name for patch in changed]


def register(sub: Any) -> None:
    """Add ``verifiers-train patch-verl`` to a ``verifiers-train`` subparsers object."""
    p = sub.add_parser("patch-verl", help="fix verl 0.9.1 for hosts without flash-attn: chunked log-probs "
                                          "(same values), the PPO critic's attention",
                       description="Fix verl 0.9.1 for hosts without flash-attn: its log-prob fallback works in "
                                   "chunks of rows instead of one token at a time (values and gradients "
                                   "unchanged), and the PPO critic loads with the configured attention instead "
                                   "of a hard-coded flash_attention_2. The installed files are edited once.")
    p.add_argument("--verl-dir", type=Path, help="verl package folder to patch (default: the installed verl's)")
    p.add_argument("--check", action="store_true", help="only report; exit 1 when a patch is missing")
    add_json(p, "each patch's state")
    p.set_defaults(func=_run)


def _run(a: argparse.Namespace) -> int:
    root = a.verl_dir or verl_root()
    if a.check:
        state = is_patched(root)
        _report(a, root, {p.name: "patched" if state[p.name] else "not patched" for p in PATCHES})
        return 0 if all(state.values()) else 1
    try:
        applied = patch_verl(root)
    except OSError as e:  # e.g. a read-only site-packages: say so (files are written only after all checks)
        raise ConfigError(f"cannot write in {root}: {e.strerror or e}; run as the owner of that verl install") from e
    _report(a, root, {p.name: "patched now" if p.name in applied else "already patched" for p in PATCHES})
    return 0


def _report(a: argparse.Namespace, root: Path, states: dict[str, str]) -> None:
    if a.json:
        emit_json({"verl_dir": root, "patches": states})
        return
    for patch in PATCHES:
        print(f"{root / patch.path} ({patch.name}): {states[patch.name]}")
