"""The thinking/answer tags of a response format, and finding the blocks they delimit (GSM8K, MATH, MBPP)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tags:
    """Thinking/answer tags the format parts look for (GRAIL defaults; ``<think>``/``<answer>`` also common).

    ``prompt_opens_thinking``: the prompt already opened the thinking block (a chat template whose generation
    prompt ends with ``<think>``, as DeepSeek-R1's distills, QwQ and the R1-Zero prompt do), so the response
    starts inside it: a response without the end tag was cut off while thinking and commits no answer.
    """

    thinking_start: str = "<start_working_out>"
    thinking_end: str = "<end_working_out>"
    answer_start: str = "<SOLUTION>"
    answer_end: str = "</SOLUTION>"
    prompt_opens_thinking: bool = False


def block(text: str, start: str, end: str) -> tuple[int, int] | None:
    """Span (content start, content end) of the last ``start ... end`` block, or ``None``."""
    j = text.rfind(end)
    if j < 0:
        return None
    i = text.rfind(start, 0, j)
    if i < 0:
        return None
    return i + len(start), j


def has_block(text: str, start: str, end: str) -> bool:
    """Whether ``text`` holds a non-empty ``start ... end`` block."""
    span = block(text, start, end)
    return span is not None and text[span[0] : span[1]].strip() != ""
