"""Canonical text of a MATH answer: the same answer written differently should become the same string.

The rewrites only drop what never changes the value (``$``, ``\\left``, spacing, ``\\displaystyle``,
``\\dfrac``, degree signs, percent signs and words, trailing units in ``\\text{}``) and spell Unicode math as
LaTeX (``√2`` -> ``\\sqrt{2}``, ``π`` -> ``\\pi``, ``≤`` -> ``\\le``). Labels such as ``x =`` are kept: the answer
parser (``verifiers.answers._typed``) reads them. Gold and response go through the same steps. Every step is
linear.

Example:
    >>> normalize("$\\\\dfrac{1}{2}$.")
    '\\\\frac{1}{2}'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from verifiers.answers._qualifiers import SCALE_WORDS

MAX_ANSWER_CHARS = 2_000

_UNICODE = {
    "−": "-", "–": "-", "—": "-", "×": "\\times ", "·": "\\cdot ", "÷": "\\div ", "π": "\\pi ",
    "∞": "\\infty ", "≤": "\\le ", "≥": "\\ge ", "≠": "\\ne ", "°": "^\\circ ", "∪": "\\cup ",
    "∩": "\\cap ", "θ": "\\theta ", "α": "\\alpha ", "β": "\\beta ", "√": "\\sqrt", "½": "\\frac{1}{2}",
    "¼": "\\frac{1}{4}", "¾": "\\frac{3}{4}", "\u2009": "", "\u202f": "", "\u00a0": " ",
    "±": "\\pm ", "∓": "\\mp ", "∈": "\\in ", "∅": "\\emptyset ", "ℝ": "\\mathbb{R}", "⋅": "\\cdot ",
    "∗": "*", "′": "'", "∠": "\\angle ", "≦": "\\le ", "≧": "\\ge ", "⩽": "\\le ", "⩾": "\\ge ",
    "\u2061": "", "\u200b": "",
}
_UNICODE_RE = re.compile("|".join(map(re.escape, _UNICODE)))
_SQRT_UNICODE = re.compile(r"\\sqrt\s*(\d+(?:\.\d+)?|[a-zA-Z]|\([^()]*\))")
_DROP = re.compile(
    r"\\(?:displaystyle|textstyle|scriptstyle|left|right|big|Big|bigg|Bigg|bigl|bigr|Bigl|Bigr)(?![a-zA-Z])"
    r"|(?<!\\)\\[,;:! ]|\\q?quad|~|\\(?:hspace|vspace)\*?\s*\{[^{}]*\}|\\limits|\\nolimits")
_COMMA_NEG_SPACE = re.compile(r",\\!\s*")
_THIN = frozenset({"\\,", "\\!", "\\;", "\\:"})  # thin spaces vanish (1\\,000); others separate words
_FRAC_ALIAS = re.compile(r"\\[dt]frac(?![a-zA-Z])|\\cfrac(?![a-zA-Z])")
_FRAC_SHORT = re.compile(r"\\frac\s*(\d|[a-zA-Z]|\\pi)\s*(\d|[a-zA-Z]|\\pi)")
_FRAC_SHORT_1 = re.compile(r"\\frac\s*(\d|[a-zA-Z])\s*(?=\{)")
# \frac{\sqrt6}3: a braced numerator (one level of nesting) and a bare one-character denominator
_FRAC_SHORT_2 = re.compile(r"(\\frac\s*\{(?:[^{}]|\{[^{}]*\})*\})\s*(\d|[a-zA-Z]|\\pi(?![a-zA-Z]))")
_SQRT_SHORT = re.compile(r"\\sqrt\s*(\d|[a-zA-Z])")
_DEGREES = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|\\degree(?![a-zA-Z])|\^\s*\{\s*\}")
_PERCENT = re.compile(r"\\?%|\s*\b(?:percent(?:age)?|pct)\b\.?", re.IGNORECASE)
_LEQ = re.compile(r"\\leq?(?![a-zA-Z])|\\leqslant|\\le?q?slant|<=")
_GEQ = re.compile(r"\\geq?(?![a-zA-Z])|\\geqslant|>=")
_LT_GT = re.compile(r"\\([lg])t(?![a-zA-Z])")
_NEQ = re.compile(r"\\neq?(?![a-zA-Z])|!=|\\not\s*=")
_FONT = re.compile(r"\\(?:mathbf|textbf|mathrm|mathit|boldsymbol|bf|rm|operatorname)\s*\{([^{}]*)\}")
_TEXT = re.compile(r"\\(?:text|textnormal|mbox|hbox|textit|texttt)\s*\{([^{}]*)\}")
_UNIT_TAIL = re.compile(
    r"(?<=\S)\s*\\(?:text|mbox|mathrm|textbf|mathbf)\s*\{\s*(?![aApP]\.?\s*[mM]\.?\s*\})([a-zA-Z][a-zA-Z\s.]*)\}"
    r"(?:\s*\^\s*\{?[23]\}?)?\s*$")
_LETTERS = re.compile(r"[a-zA-Z]+")
_PLAIN_NUMBER = re.compile(r"-?[\d.,]+")
_MERIDIEM = re.compile(r"(?<=[\d\s}{])([aApP])\.?\s?[mM]\.?(?![a-zA-Z])")
_ONE_CHAR_GROUP = re.compile(r"([_^])\{(\w)\}")
_TRAILING_BACKSLASH = re.compile(r"(?<!\\)(?:\\\\|\\)\s*$")
_UNIT_WORDS = frozenset((
    "units", "unit", "cm", "m", "km", "mm", "inches", "inch", "in", "feet", "foot", "ft", "yards", "yard", "yd",
    "miles", "mile", "meters", "meter", "metres", "metre", "degrees", "degree", "cents", "cent", "dollars",
    "dollar", "square", "sq", "cubic", "hours", "hour", "hrs", "hr", "minutes", "minute", "mins", "min", "seconds",
    "second", "sec", "s", "days", "day", "weeks", "week", "months", "month", "years", "year", "mph", "pounds",
    "pound", "lbs", "lb", "ounces", "ounce", "oz", "grams", "gram", "g", "kg", "liters", "liter", "litres", "l",
    "ml", "gallons", "gallon", "people", "students", "ways", "times"))
# A unit glued to its number ("10weeks", "5cm"), or with a power ("10 cm^2"); multi-word units ("square units").
_POWER_TAIL = re.compile(r"\^\{?[23]\}?$")
_GLUED_UNIT = re.compile(r"(?<=\d)\s*([a-zA-Z]+)(?:\^\{?[23]\}?)?$")
_WORD_CONNECTOR = re.compile(
    r"\s*\\text\s*\{\s*(?:or|and)\s*\}\s*|\s+(?:or|and)\s+|(?<=[)\]}])\s*(?:or|and)\s*(?=[(\[\\{])")
# A doubled backslash before a command (``\\frac`` from JSON-escaped text); not a matrix row break (``&`` rows).
_DOUBLED = re.compile(r"\\\\(?=[a-zA-Z])")
_CHOICE = re.compile(r"^\(?([A-E])\)?$")
_SPACES = re.compile(r"\s+")
_BRACKET = re.compile(r"\\[{}]|[()\[\]{}]")
_THOUSANDS = re.compile(r"^-?[1-9]\d{0,2}(?:[, ]\d{3})+(?:\.\d+)?$")


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")


def _unicode(s: str) -> str:
    if s.isascii():
        return s
    s = _SUPERSCRIPT_RUN.sub(lambda m: "^{" + m.group().translate(_SUPERSCRIPTS) + "}", s)  # x⁴, x¹⁰, x⁻¹
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


@functools.lru_cache(maxsize=65536)  # RL scores the same golds and many identical answers again and again
def normalize(answer: str) -> str:
    """Canonical text of one extracted MATH answer (see module doc); long inputs are cut."""
    s = _unicode(answer[:MAX_ANSWER_CHARS])
    if "\\\\" in s and "&" not in s:
        s = _DOUBLED.sub(r"\\", s)
    s = s.replace("\\$", "")  # an escaped dollar is money, not math mode
    s = strip_math_delimiters(s)
    s = s.replace("$", "")
    if ",\\!" in s:
        s = _COMMA_NEG_SPACE.sub(",", s)  # 11,\\! 111: a thousands comma, whatever spaces follow
    s = _DROP.sub(lambda m: "" if m.group() in _THIN else " ", s)
    s = s.replace("{,}", ",").replace("{:}", ":").replace("\\{", "\\lbrace ").replace("\\}", "\\rbrace ")
    s = _FRAC_ALIAS.sub(r"\\frac", s)
    s = _FRAC_SHORT.sub(r"\\frac{\1}{\2}", s)
    s = _FRAC_SHORT_1.sub(r"\\frac{\1}", s)
    s = _FRAC_SHORT_2.sub(r"\1{\2}", s) if "\\frac" in s else s
    s = _SQRT_SHORT.sub(r"\\sqrt{\1}", s)
    s = _DEGREES.sub("", s)
    s = _PERCENT.sub("", s)
    s = _LEQ.sub(r"\\le ", s)
    s = _GEQ.sub(r"\\ge ", s)
    s = _NEQ.sub(r"\\ne ", s)
    s = _LT_GT.sub(lambda m: "<" if m.group(1) == "l" else ">", s) if "t" in s else s
    s = _strip_unit(s)
    s = _WORD_CONNECTOR.sub(", ", s) if ("or" in s or "and" in s) else s
    for _ in range(3):  # nested fonts/text, a few layers
        t = _TEXT.sub(r"\1", _FONT.sub(r"\1", s))
        if t == s:
            break
        s = t
    s = _WORD_CONNECTOR.sub(", ", s) if ("or" in s or "and" in s) else s  # \text{even}\text{ or odd}
    s = _strip_unit(s)  # units that were inside \\text{...}
    if "m" in s or "M" in s:
        s = _MERIDIEM.sub(lambda m: m.group(1).lower() + "m", s)  # 9 a.m. -> 9am, 4:30 P.M. -> 4:30pm
    if "," in s and any(c.isalpha() for c in s):
        s = _strip_item_units(s)
    s = strip_math_delimiters(s)
    s = _squeeze_spaces(s)
    s = s.replace("\\lbrace", "\\{").replace("\\rbrace", "\\}")
    if "{" in s:
        s = _ONE_CHAR_GROUP.sub(r"\1\2", s)  # x_{1} -> x_1, 4210_{7} -> 4210_7, x^{2} -> x^2
    if s.endswith("\\"):
        s = _TRAILING_BACKSLASH.sub("", s)  # a stray line break: "185\\"
    if _THOUSANDS.match(s):  # "1,000" is a number; "32, 349" (kept with its space) a list of two
        s = s.replace(",", "").replace(" ", "")
    m = _CHOICE.match(s)
    if m:
        s = m.group(1)
    return s


def _squeeze_spaces(s: str) -> str:
    """Drop spaces LaTeX ignores; keep one after a control word (``\\pi r``) and between digits (``\\log_2 8``)."""
    if " " not in s and "\t" not in s and "\n" not in s:
        return s
    return _SPACES.sub(lambda m: " " if _keeps_space(s, m.start(), m.end()) else "", s).strip()


_CONTROL_WORD_END = re.compile(r"\\[a-zA-Z]+$")


def _keeps_space(s: str, start: int, end: int) -> bool:
    if start == 0 or end >= len(s):
        return False
    before, after = s[start - 1], s[end]
    if before.isdigit() and after.isdigit() or before == ",":
        return True  # "1 000"; a list separator "1, 2" stays apart from a thousands comma "1,000"
    if before.isalpha() and (after.isalnum()):
        return _CONTROL_WORD_END.search(s, max(0, start - 40), start) is not None
    return False


def _strip_unit(s: str) -> str:
    """Drop a trailing unit after a value: ``5\\text{ cm}^2``, ``10 square units``, ``10weeks``, ``10 cm^2``."""
    if not s[-1:].isalpha() and not s.endswith(("}", ".", "^2", "^3")):
        return s  # ends in a digit, bracket or operator: no unit to drop
    m = _UNIT_TAIL.search(s)
    if m and s[:m.start()].strip():
        words = _LETTERS.findall(m.group(1))
        # a unit is a word, never a scale or hedge ("\text{ thousand}", "\text{ or more}") or a lone letter
        # (\mathrm{e} is Euler's number, \text{x} a variable)
        short = len(words) == 1 and len(words[0]) == 1
        if words and not any(w.lower() in SCALE_WORDS for w in words) and (not short or words[0] in _UNIT_WORDS):
            return s[:m.start()].rstrip()
        return s
    out = s.rstrip()
    for _ in range(3):  # "10 square units": one word at a time, a few words at most
        m = _GLUED_UNIT.search(out)
        if m and len(m.group(1)) >= 2 and m.group(1).lower() in _UNIT_WORDS and out[:m.start()].strip():
            return out[:m.start()].rstrip()
        head, _, last = out.rpartition(" ")
        word = _POWER_TAIL.sub("", last.lower().rstrip("."))
        if not head or word not in _UNIT_WORDS:
            break
        head = head.rstrip()
        if len(word) == 1 and not _PLAIN_NUMBER.fullmatch(head):
            break  # "5 s" is five seconds, but "2x + 5 s" is not 2x + 5
        if head[-1:].isdigit():
            return head
        out = head
    return s


def _strip_item_units(s: str) -> str:
    """Units after each item of a list or set: ``{35 cm, 4}`` -> ``{35, 4}``."""
    sep = ", " if ", " in s else ","
    for open_, close in (("\\{", "\\}"), ("\\lbrace", "\\rbrace"), ("{", "}"), ("(", ")"), ("[", "]")):
        if s.startswith(open_) and s.endswith(close):
            inner = s[len(open_):len(s) - len(close)]
            return open_ + sep.join(_strip_unit(x) for x in split_top(inner, ",")) + close
    return sep.join(_strip_unit(x) for x in split_top(s, ","))


def is_text_answer(s: str) -> bool:
    """Whether a normalized answer is a word or name (compared as text, never parsed as algebra).

    Three or more letters with a vowel (``Evelyn``, ``Monday``, ``odd``) read as a word; Math-Verify
    parses such strings as products of symbols, so ``Evelyn`` would equal ``Evlyne``.
    """
    if s.lower() in _ANSWER_WORDS:
        return True
    return len(s) >= 3 and s.isalpha() and s.isascii() and any(c in "aeiouyAEIOUY" for c in s)


# Short words that are answers, never products of variables (``no`` is not n times o).
_ANSWER_WORDS = frozenset({"no", "ok", "yes", "none"})


def bracket_depths(s: str) -> Iterator[tuple[int, int, int]]:
    """Each bracket of ``s`` (``\\{`` ``\\}`` count as brackets) as (start, end, depth after it)."""
    depth = 0
    for m in _BRACKET.finditer(s):
        depth += 1 if m.group()[-1] in "([{" else -1
        yield m.start(), m.end(), depth


def top_level(s: str) -> Iterator[int]:
    """Indices of the characters of ``s`` outside any brackets, the brackets themselves excluded."""
    pos, depth = 0, 0
    for start, end, after in bracket_depths(s):
        if depth == 0:
            yield from range(pos, start)
        pos, depth = end, after
    if depth == 0:
        yield from range(pos, len(s))


def split_top(s: str, sep: str) -> list[str]:
    """Split ``s`` on ``sep`` outside any brackets (``\\{`` ``\\}`` count as brackets)."""
    if sep not in s:
        return [s]
    parts, start, n = [], 0, len(sep)
    for i in top_level(s):
        # a command separator ends where its name does: \in, never the start of \infty
        if i >= start and s.startswith(sep, i) and not (sep[0] == "\\" and s[i + n:i + n + 1].isalpha()):
            parts.append(s[start:i])
            start = i + n
    parts.append(s[start:])
    return [x.strip() for x in parts]
