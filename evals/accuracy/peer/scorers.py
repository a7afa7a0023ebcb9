"""The scorers compared on the peer suites, each called the way that matches the upstream check.

* This project: ``score(response, gold).correct`` (``verifiers.gsm8k`` for GSM8K rows, ``verifiers.math``
  otherwise) where the upstream check extracts the answer from text (``compare == "extract"``: Math-Verify's
  ``parse`` runs on both sides); ``math.equivalent(gold, response)`` where it compares two bare answers
  (``compare == "answers"``: ``is_equiv``/``math_equal`` are called on extracted answers).
* Math-Verify: with the configuration the upstream test used (``mv_config``): ``compare_strings`` rebuilt
  from its recorded extraction configs, ``float_rounding``/``strict``/``allow_set_relation_comp``; plain
  ``verify(parse(gold), parse(response))`` for ``test_yujianll.py``; ``wrap`` (each side in ``$...$``
  unless boxed, as ``run.py`` does for the own cases) for every other suite.
* verl 0.9.1 ``math_reward``: ``compute_score(response, gold) == 1.0`` for ``extract`` rows,
  ``is_equiv(gold, response)`` (the comparison it applies after taking the last box) for ``answers`` rows.

A scorer that raises counts as "not accepted" and as an error, as a trainer would see it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

OURS = "verifiers (this project)"
MATH_VERIFY = "Math-Verify 0.9"
VERL = "verl math_reward"


@dataclass(frozen=True)
class Verdict:
    """One scorer's answer on one row; ``detail`` carries this project's status/extraction when known."""

    accepted: bool
    error: str = ""
    detail: dict[str, Any] | None = None


def _ours(row: dict[str, Any]) -> Verdict:
    from verifiers import gsm8k, math

    if row["compare"] == "answers":
        eq = math.equivalent(row["gold"], row["response"])
        s = math.score(row["response"], row["gold"])  # for the disagreement report only
        return Verdict(
            eq,
            detail={
                "call": "equivalent",
                "status": "correct" if eq else "incorrect",
                "extracted": row["response"],
                "explanation": f"equivalent()={eq}; score(): {s.status} {s.extracted!r}",
            },
        )
    module = gsm8k if row["task"] == "gsm8k" else math
    s = module.score(row["response"], row["gold"])
    return Verdict(
        s.correct,
        detail={"call": "score", "status": s.status, "extracted": s.extracted, "explanation": s.explanation},
    )


def ours_bare_equivalent(row: dict[str, Any]) -> bool:
    """``math.equivalent(gold, response)`` with one outer math delimiter removed from each side."""
    from verifiers import math

    return math.equivalent(unwrap(row["gold"]), unwrap(row["response"]))


_DELIMS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))


def unwrap(text: str) -> str:
    """``text`` without one outer ``$...$``/``$$...$$``/``\\(...\\)``/``\\[...\\]`` pair (else unchanged)."""
    t = text.strip()
    for a, b in _DELIMS:
        if t.startswith(a) and t.endswith(b) and len(t) >= len(a) + len(b):
            inner = t[len(a) : len(t) - len(b)]
            if a.startswith("$") and "$" in inner:
                continue
            return inner.strip()
    return t


def is_bare(text: str) -> bool:
    """A bare answer: one math span or delimiter-free text, with no box and no prose sentence."""
    inner = unwrap(text)
    return (
        "$" not in inner
        and "\\boxed" not in inner
        and "\\(" not in inner
        and "\\[" not in inner
        and "\n" not in inner
        and len(inner) <= 120
        and ". " not in inner
        and len(_PROSE_WORD.findall(_LATEX_WORDS.sub(" ", inner))) < 2
    )


_LATEX_WORDS = re.compile(r"\\[A-Za-z]+|\\text\w*\{[^{}]*\}")  # commands and \text{...} are not prose
_PROSE_WORD = re.compile(r"[A-Za-z]{2,}")


def _mv_wrap(text: str) -> str:
    return text if "\\boxed" in text else f"${text}$"


def _math_verify(row: dict[str, Any]) -> Verdict:
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    cfg = row["mv_config"]
    call = cfg.get("call")
    gold, response = row["gold"], row["response"]
    if call == "compare_strings":
        targets: list[Any] = []
        for kind in cfg["match_types"]:
            if kind == "latex":
                targets.append(LatexExtractionConfig(**cfg.get("latex_config", {})))
            elif kind == "expr":
                targets.append(ExprExtractionConfig(**cfg.get("expr_config", {})))
        ok = verify(
            parse(gold, targets),
            parse(response, targets),
            float_rounding=cfg["float_rounding"],
            strict=cfg["strict"],
            allow_set_relation_comp=cfg["allow_set_relation_comp"],
        )
    elif call == "verify":
        accepted = set(inspect.signature(verify).parameters)
        kwargs = {k: v for k, v in cfg.items() if k in accepted and k not in ("gold", "target")}
        ok = verify(parse(gold), parse(response), **kwargs)
    else:
        ok = verify(parse(_mv_wrap(gold)), parse(_mv_wrap(response)))
    return Verdict(bool(ok))


def _verl(row: dict[str, Any]) -> Verdict:
    from verl.utils.reward_score import math_reward

    if row["compare"] == "answers":
        return Verdict(bool(math_reward.is_equiv(row["gold"], row["response"])))
    return Verdict(math_reward.compute_score(row["response"], row["gold"]) == 1.0)


PEER_SCORERS: dict[str, Callable[[dict[str, Any]], Verdict]] = {
    OURS: _ours,
    MATH_VERIFY: _math_verify,
    VERL: _verl,
}


def run_one(fn: Callable[[dict[str, Any]], Verdict], row: dict[str, Any]) -> Verdict:
    """``fn(row)``; an exception becomes a not-accepted verdict with the exception's type as ``error``."""
    try:
        return fn(row)
    except Exception as e:  # noqa: BLE001 - a scorer crash is a result to report, not a reason to stop
        return Verdict(False, error=type(e).__name__)
