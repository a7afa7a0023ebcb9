"""Format reward parts (each 0 or 1, ``answer_format`` also 0.5) used by the ``book`` and ``grail`` presets.

- ``reasoning``: at least two non-empty lines of work before the answer (multi-line reasoning);
- ``marker``: the answer came from an explicit marker (not the last-number fallback);
- ``thinking``: a non-empty thinking block (configured tags, or ``<think>...</think>``);
- ``answer_block``: a non-empty answer block (configured tags, or ``<answer>...</answer>``);
- ``no_trailing``: nothing but whitespace/closing punctuation after the answer;
- ``numeric_only``: the answer is a bare number (``-12``, ``3.5``; no units, ``$`` or commas);
- ``answer_format``: 1 if an explicit answer is present with at most ``MINIMAL_TRAILING`` characters
  after it, 0.5 if present with more, 0 if absent.
"""

from __future__ import annotations

import re

from verifiers.answers._extract import FALLBACK_MARKERS, Extraction
from verifiers.answers._tags import Tags, block, has_block

MINIMAL_TRAILING = 50
_BARE_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_CLOSERS = " \t\r\n.$\\])}*"


def format_parts(text: str, found: Extraction | None, tags: Tags, wanted: frozenset[str]) -> dict[str, float]:
    """Compute the format parts named in ``wanted`` for ``text`` and its extraction."""
    parts: dict[str, float] = {}
    explicit = found is not None and found.marker not in FALLBACK_MARKERS and found.text != ""
    end = found.end if found is not None else len(text)
    if "reasoning" in wanted:
        lines = [ln for ln in text[:end].splitlines() if ln.strip()]
        parts["reasoning"] = 1.0 if len(lines) >= 2 else 0.0
    if "marker" in wanted:
        parts["marker"] = 1.0 if explicit else 0.0
    if "thinking" in wanted:
        ok = has_block(text, tags.thinking_start, tags.thinking_end) or has_block(text, "<think>", "</think>")
        parts["thinking"] = 1.0 if ok else 0.0
    answer_span = block(text, tags.answer_start, tags.answer_end) or block(text, "<answer>", "</answer>")
    if "answer_block" in wanted:
        ok = answer_span is not None and text[answer_span[0]:answer_span[1]].strip() != ""
        parts["answer_block"] = 1.0 if ok else 0.0
    trailing = text[end:].strip(_CLOSERS) if found is not None else text
    if "no_trailing" in wanted:
        parts["no_trailing"] = 1.0 if found is not None and found.text and not trailing else 0.0
    if "numeric_only" in wanted:
        raw = text[answer_span[0]:answer_span[1]].strip() if answer_span else (found.text if found else "")
        parts["numeric_only"] = 1.0 if _BARE_NUMBER.fullmatch(raw) else 0.0
    if "answer_format" in wanted:
        parts["answer_format"] = 0.0 if not explicit else (1.0 if len(trailing) <= MINIMAL_TRAILING else 0.5)
    return parts
