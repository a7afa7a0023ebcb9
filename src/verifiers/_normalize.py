"""Canonical text of a MATH answer: the same answer written differently should become the same string.

The rewrites only drop what never changes the value (``$``, ``\\left``, spacing, ``\\displaystyle``,
``\\dfrac``, degree signs, percent signs, trailing units in ``\\text{}``, a leading ``x =``) and spell
Unicode math as LaTeX (``√2`` -> ``\\sqrt{2}``, ``π`` -> ``\\pi``). Every step is linear in the input.

Example:
    >>> normalize("$x = \\\\dfrac{1}{2}$.")
    '\\\\frac{1}{2}'
"""

from __future__ import annotations

import re

MAX_ANSWER_CHARS = 2_000

_UNICODE = {
    "−": "-", "–": "-", "—": "-", "×": "\\times ", "·": "\\cdot ", "÷": "\\div ", "π": "\\pi ",
    "∞": "\\infty ", "≤": "\\le ", "≥": "\\ge ", "≠": "\\ne ", "°": "^\\circ ", "∪": "\\cup ",
    "∩": "\\cap ", "θ": "\\theta ", "α": "\\alpha ", "β": "\\beta ", "√": "\\sqrt", "½": "\\frac{1}{2}",
    "¼": "\\frac{1}{4}", "¾": "\\frac{3}{4}", "\u2009": "", "\u202f": "", "\u00a0": " ", "²": "^2", "³": "^3",
}
_UNICODE_RE = re.compile("|".join(map(re.escape, _UNICODE)))
_SQRT_UNICODE = re.compile(r"\\sqrt\s*(\d+(?:\.\d+)?|[a-zA-Z]|\([^()]*\))")
_DROP = re.compile(
    r"\\(?:displaystyle|textstyle|scriptstyle|left|right|big|Big|bigg|Bigg|bigl|bigr|Bigl|Bigr)(?![a-zA-Z])"
    r"|(?<!\\)\\[,;:! ]|\\q?quad(?![a-zA-Z])|~|\\(?:hspace|vspace)\*?\s*\{[^{}]*\}|\\limits|\\nolimits")
_FRAC_ALIAS = re.compile(r"\\[dt]frac(?![a-zA-Z])|\\cfrac(?![a-zA-Z])")
_FRAC_SHORT = re.compile(r"\\frac\s*(\d|[a-zA-Z]|\\pi)\s*(\d|[a-zA-Z]|\\pi)")
_FRAC_SHORT_1 = re.compile(r"\\frac\s*(\d|[a-zA-Z])\s*(?=\{)")
_SQRT_SHORT = re.compile(r"\\sqrt\s*(\d|[a-zA-Z])")
_DEGREES = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|\\degree(?![a-zA-Z])|\^\s*\{\s*\}")
_PERCENT = re.compile(r"\\?%")
_LEQ = re.compile(r"\\leq?(?![a-zA-Z])|\\leqslant")
_GEQ = re.compile(r"\\geq?(?![a-zA-Z])|\\geqslant")
_NEQ = re.compile(r"\\neq?(?![a-zA-Z])")
_FONT = re.compile(r"\\(?:mathbf|textbf|mathrm|mathit|boldsymbol|bf|rm|operatorname)\s*\{([^{}]*)\}")
_TEXT = re.compile(r"\\(?:text|textnormal|mbox|hbox|textit|texttt)\s*\{([^{}]*)\}")
_UNIT_TAIL = re.compile(
    r"(?<=[\d}).\s])\s*\\(?:text|mbox|mathrm)\s*\{\s*[a-zA-Z][a-zA-Z\s.]*\}(?:\s*\^\s*\{?[23]\}?)?\s*$")
_UNIT_WORDS = ("units", "unit", "cm", "m", "km", "mm", "inches", "inch", "in", "feet", "foot", "ft", "yards",
               "miles", "meters", "meter", "degrees", "degree", "cents", "dollars", "square", "sq", "cubic",
               "hours", "minutes", "seconds", "days", "mph", "pounds", "ounces", "grams", "kg", "liters")
_WORD_CONNECTOR = re.compile(r"\s*\\text\s*\{\s*(?:or|and)\s*\}\s*|\s+(?:or|and)\s+")
_LEAD_VAR = re.compile(r"^\s*(?:[a-zA-Z]|\\[a-zA-Z]+|[a-zA-Z]_\{?\w+\}?|[a-zA-Z]\([a-zA-Z]\))\s*(?:=|\\in)\s*(?=\S)")
_CHOICE = re.compile(r"^\(?([A-E])\)?$")
_SPACES = re.compile(r"\s+")
_THOUSANDS = re.compile(r"^-?\d{1,3}(?:[, ]\d{3})+(?:\.\d+)?$")


def _unicode(s: str) -> str:
    if s.isascii():
        return s
    s = _UNICODE_RE.sub(lambda m: _UNICODE[m.group()], s)
    return _SQRT_UNICODE.sub(lambda m: "\\sqrt{" + m.group(1).strip("()") + "}", s)


def strip_math_delimiters(s: str) -> str:
    """Drop enclosing ``$...$``, ``\\(...\\)``, ``\\[...\\]`` and a trailing period."""
    s = s.strip()
    for _ in range(3):
        before = s
        if s.endswith("."):
            s = s[:-1].rstrip()
        if s.startswith("$") and s.endswith("$"):
            s = s.strip("$").strip()
        if s.startswith("\\(") and s.endswith("\\)") or s.startswith("\\[") and s.endswith("\\]"):
            s = s[2:-2].strip()
        if s == before:
            break
    return s


def normalize(answer: str) -> str:
    """Canonical text of one extracted MATH answer (see module doc); long inputs are cut."""
    s = _unicode(answer[:MAX_ANSWER_CHARS])
    s = s.replace("\\$", "")  # an escaped dollar is money, not math mode
    s = strip_math_delimiters(s)
    s = s.replace("$", "")
    s = _DROP.sub(" ", s)
    s = s.replace("{,}", ",").replace("\\{", "\\lbrace ").replace("\\}", "\\rbrace ")
    s = _FRAC_ALIAS.sub(r"\\frac", s)
    s = _FRAC_SHORT.sub(r"\\frac{\1}{\2}", s)
    s = _FRAC_SHORT_1.sub(r"\\frac{\1}", s)
    s = _SQRT_SHORT.sub(r"\\sqrt{\1}", s)
    s = _DEGREES.sub("", s)
    s = _PERCENT.sub("", s)
    s = _LEQ.sub(r"\\le ", s)
    s = _GEQ.sub(r"\\ge ", s)
    s = _NEQ.sub(r"\\ne ", s)
    s = _strip_unit(s)
    s = _WORD_CONNECTOR.sub(",", s) if ("or" in s or "and" in s) else s
    for _ in range(3):  # nested fonts/text, a few layers
        t = _TEXT.sub(r"\1", _FONT.sub(r"\1", s))
        if t == s:
            break
        s = t
    s = _strip_unit(s)  # units that were inside \\text{...}
    s = strip_math_delimiters(s)
    s = _LEAD_VAR.sub("", s) if s.count("=") <= 1 and ("=" in s or "\\in" in s) else s
    s = _squeeze_spaces(s)
    s = s.replace("\\lbrace", "\\{").replace("\\rbrace", "\\}")
    if _THOUSANDS.match(s):
        s = s.replace(",", "").replace(" ", "")
    m = _CHOICE.match(s)
    if m:
        s = m.group(1)
    return s


def _squeeze_spaces(s: str) -> str:
    """Drop spaces LaTeX ignores; keep one after a control word (``\\pi r``) and between digits (``\\log_2 8``)."""
    if " " not in s and "\t" not in s and "\n" not in s:
        return s
    out = []
    pos = 0
    for m in _SPACES.finditer(s):
        out.append(s[pos:m.start()])
        if _keeps_space(s, m.start(), m.end()):
            out.append(" ")
        pos = m.end()
    out.append(s[pos:])
    return "".join(out).strip()


_CONTROL_WORD_END = re.compile(r"\\[a-zA-Z]+$")


def _keeps_space(s: str, start: int, end: int) -> bool:
    if start == 0 or end >= len(s):
        return False
    before, after = s[start - 1], s[end]
    if before.isdigit() and after.isdigit():
        return True
    if before.isalpha() and (after.isalnum()):
        return _CONTROL_WORD_END.search(s, max(0, start - 40), start) is not None
    return False


def _strip_unit(s: str) -> str:
    """Drop a trailing unit written in ``\\text{}`` (``5\\text{ cm}^2``) when a value precedes it."""
    m = _UNIT_TAIL.search(s)
    if m and s[:m.start()].strip():
        return s[:m.start()].rstrip()
    # "5 cm" / "12 units": bare unit words after a number
    head, _, last = s.rstrip().rpartition(" ")
    if head and last.lower().rstrip(".") in _UNIT_WORDS and head.rstrip()[-1:].isdigit():
        return head.rstrip()
    return s


def is_text_answer(s: str) -> bool:
    """Whether a normalized answer is a word or name (compared as text, never parsed as algebra).

    Three or more letters with a vowel (``Evelyn``, ``Monday``, ``odd``) read as a word; Math-Verify
    parses such strings as products of symbols, so ``Evelyn`` would equal ``Evlyne``.
    """
    return len(s) >= 3 and s.isalpha() and s.isascii() and any(c in "aeiouyAEIOUY" for c in s)
