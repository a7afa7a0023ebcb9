"""``verifiers-train patch-verl``: make verl 0.9.1's log-prob fallback work in chunks, not row by row.

Without flash-attn, verl computes every log-prob through
``verl.utils.torch_functional.logprobs_from_logits_v2``, which loops over the first dimension "to reduce
peak memory". With ``use_remove_padding=False`` the FSDP engine passes it logits of shape (tokens, vocab),
so the loop runs once per token: ~100k small kernels (and as many autograd nodes) for a 1,024-sample
batch, in each of old_log_prob, ref and update_actor. On a 1.5M-parameter model this was 85% of the
log-prob time (sampling profile, evals/gpu/README.md, section R3).

The replacement keeps the memory bound (at most 2**26 logits a chunk) and each row's arithmetic
(log_softmax + gather in bf16/fp16, logsumexp in fp32/fp64), so values and gradients are unchanged.
Patching edits the installed file once; running it again changes nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from verifiers.errors import ConfigError

__all__ = [
    "MARKER", "REPLACEMENT", "chunked_logprobs", "installed_file", "is_patched", "needs_patch", "patch_file",
    "patch_source",
]

MARKER = "# verifiers patch: chunked rows"

REPLACEMENT = '''LOGPROB_CHUNK_NUMEL = 1 << 26  ''' + MARKER + '''


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


_FUNCTION = re.compile(r"^def logprobs_from_logits_v2\(.*?(?=^def )", re.DOTALL | re.MULTILINE)


def patch_source(source: str) -> str:
    """``source`` of verl's torch_functional.py with the chunked function; unchanged if already patched.

    Raises:
        ConfigError: ``source`` has no ``logprobs_from_logits_v2`` followed by another function.
    """
    if MARKER in source:
        return source
    patched, count = _FUNCTION.subn(lambda _: REPLACEMENT, source, count=1)
    if count != 1:
        raise ConfigError("logprobs_from_logits_v2 not found: not verl 0.9.1's utils/torch_functional.py")
    return patched


def installed_file() -> Path:
    """``utils/torch_functional.py`` of the verl that ``import verl`` would load (without importing it)."""
    spec = importlib.util.find_spec("verl")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("verl is not installed here (pip install 'verifiers[train]')")
    return Path(next(iter(spec.submodule_search_locations))) / "utils" / "torch_functional.py"


def is_patched(path: Path | None = None) -> bool:
    """Whether ``path`` (default: the installed verl's file) holds the chunked function."""
    return MARKER in (path or installed_file()).read_text(encoding="utf-8")


def needs_patch() -> bool:
    """True when verl is installed, flash-attn is not (so verl takes the fallback), and it is unpatched."""
    try:
        return importlib.util.find_spec("flash_attn") is None and not is_patched()
    except (ConfigError, OSError):
        return False


def patch_file(path: Path | None = None) -> bool:
    """Patch ``path`` (default: the installed verl's file) in place; return whether it changed."""
    target = path or installed_file()
    source = target.read_text(encoding="utf-8")
    patched = patch_source(source)
    if patched == source:
        return False
    target.write_text(patched, encoding="utf-8")
    return True


def register(sub: Any) -> None:
    """Add ``verifiers-train patch-verl`` to a ``verifiers-train`` subparsers object."""
    p = sub.add_parser("patch-verl", help="make verl's log-prob fallback (used without flash-attn) work in chunks, "
                                          "not one token at a time; same values",
                       description="Make verl 0.9.1's log-prob fallback (used without flash-attn) work in chunks "
                                   "of rows instead of one token at a time. Values and gradients are unchanged; "
                                   "the installed file is edited once.")
    p.add_argument("--file", type=Path, help="torch_functional.py to patch (default: the installed verl's)")
    p.add_argument("--check", action="store_true", help="only report; exit 1 when not patched")
    p.set_defaults(func=_run)


def _run(a: argparse.Namespace) -> int:
    path = a.file or installed_file()
    if not path.is_file():
        raise ConfigError(f"{path} does not exist")
    if a.check:
        patched = is_patched(path)
        print(f"{path}: {'patched' if patched else 'not patched'}")
        return 0 if patched else 1
    try:
        changed = patch_file(path)
    except OSError as e:  # e.g. a read-only site-packages: say so, change nothing
        raise ConfigError(f"cannot write {path}: {e.strerror or e}; run as the owner of that verl install") from e
    print(f"{path}: {'patched now' if changed else 'already patched'}")
    return 0
