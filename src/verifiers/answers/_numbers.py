"""Read a plain-text or light-LaTeX number (``1,450,000``, ``$18.00``, ``0.\\overline{3}``, ``2\\frac12``) exactly.

Everything here is exact (``Fraction``) and bounded: regexes are linear, exponents are capped, so a
hostile string cannot make these functions slow. Anything that is not clearly one number gives ``None``.
"""

from __future__ import annotations

import re
from fractions import Fraction

from verifiers.answers._qualifiers import SCALE_WORDS

# Bounds on hostile numbers: 10**MAX_EXPONENT is the largest power we build exactly.
MAX_EXPONENT = 400
MAX_DIGITS = 400

# Wrappers that never change a number's value: money, bold, boxes, math-mode dollars, trailing period.
_WRAPPERS = re.compile(
    r"^(?:\\boxed\s*\{|\\fbox\s*\{|\\text\s*\{|\\textbf\s*\{|\\mathbf\s*\{|\\mathrm\s*\{)(.*)\}$", re.DOTALL)
_UNIT_LATEX = re.compile(r"(?:\s|\\[,;:! ])*\\(?:text|mbox|mathrm)\s*\{[^{}]*\}\s*(?:\^\s*\{?[23]\}?)?$")
_UNIT_WORDS = re.compile(r"\s*(?:/|per\s+)?\s*[a-zA-Z][a-zA-Z .'/-]*\s*(?:\^\s*\{?[23]\}?)?$")
# one separator or a run of them (",\\!" is a comma and a negative thin space: "114,\\!200")
_THOUSANDS_SEP = re.compile(r"(?<=\d)(?:\\,|\{,\}|\\!|\\ |\\thinspace|\u2009|\u202f|\u00a0|,|'|_){1,3}(?=\d{3}(?!\d))")
# Decimal comma (European style) only where a thousands separator is impossible: not exactly three digits
# after it, or a leading 0 ("0,111"). "1,234" stays one thousand two hundred thirty-four.
_DECIMAL_COMMA = re.compile(r"[-+]?(?:\d+,(?:\d{1,2}|\d{4,})|0,\d+)")
_SPACE_GROUPS = re.compile(r"[-+]?\d{1,3}(?: \d{3})+(?:\.\d+)?")
_DEGREES = re.compile(r"\s*(?:\^\s*\{?\\circ\}?|\^\s*\\circ|°|\\degree)\s*(?:\\text\s*\{\s*[CFK]\s*\}|\\mathrm\s*\{\s*[CFK]\s*\}|[CFK])?\s*$")

_PLAIN = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SCI = re.compile(
    r"([-+]?(?:\d+\.?\d*|\.\d+))\s*(?:\\times|\\cdot|\*|x|×|·)\s*10\s*\^\s*\{?\s*([-+−]?\d+)\s*\}?")
_FRAC = re.compile(
    r"([-+]?)\s*(\d+)?\s*\\[dt]?frac\s*(?:\{\s*([-+]?\d+)\s*\}|(\d))\s*(?:\{\s*([-+]?\d+)\s*\}|(\d))")
_SLASH = re.compile(r"([-+]?\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)")
_MIXED_SLASH = re.compile(r"([-+]?\d+)\s+(\d+)\s*/\s*(\d+)")
_REPEATING = re.compile(
    r"([-+]?)(\d*)\.(\d*)(?:\\overline\s*\{(\d+)\}|\\bar\s*\{(\d+)\}|\\overline\s*(\d)|\\bar\s*(\d)|\((\d+)\)|(\d)\\dots)")


# Every dash that reads as a minus sign (U+2212, en dash, hyphen and figure dashes, small/full-width hyphen
# minus, modifier/superscript/subscript minus, heavy minus, soft hyphen).
DASHES = str.maketrans({c: "-" for c in "\u2212\u2013\u2010\u2011\u2012\ufe63\uff0d\u02d7\u207b\u208b\u2796\u00ad"})
_DETACHED_SIGN = re.compile(r"^([-+])\s+(?=[\d.(])")


# Unicode vulgar fractions and superscript exponents, as a grader reads them: 18½ is 18.5, 10⁶ is 1000000.
_VULGAR = {"½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4), "⅕": (1, 5), "⅖": (2, 5), "⅗": (3, 5),
           "⅘": (4, 5), "⅙": (1, 6), "⅚": (5, 6), "⅐": (1, 7), "⅛": (1, 8), "⅜": (3, 8), "⅝": (5, 8), "⅞": (7, 8),
           "⅑": (1, 9), "⅒": (1, 10)}
_MIXED_VULGAR = re.compile(r"(?<![\d.])(\d{1,30})?[ \u2009\u202f]?([" + "".join(_VULGAR) + "])")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_POWER = re.compile(r"(?<![\d.])(\d{1,30})([⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})")


def unicode_numbers(text: str) -> str:
    """``text`` with Unicode vulgar fractions and digit superscripts written as plain numbers: ``18½`` -> ``18.5``,
    ``2 ¾`` -> ``2.75``, ``⅓`` -> ``1/3``, ``10⁶`` -> ``1000000`` (a superscript after a letter, ``m²``, stays)."""
    if text.isascii():
        return text

    def mixed(m: re.Match[str]) -> str:
        p, q = _VULGAR[m.group(2)]
        return format_number(int(m.group(1) or 0) + Fraction(p, q))

    def power(m: re.Match[str]) -> str:
        exponent = int(m.group(2).translate(_SUPERSCRIPTS))
        base = int(m.group(1))
        if exponent * max(1, len(m.group(1))) > MAX_EXPONENT:
            return m.group()
        return str(base ** exponent)

    return _POWER.sub(power, _MIXED_VULGAR.sub(mixed, text))


def strip_number_wrappers(text: str) -> str:
    """Remove what never changes a number's value: ``$``, ``**``, ``\\boxed{}``, thin spaces, a trailing period."""
    s = text.strip()
    for _ in range(4):  # a few nested layers at most; each pass is linear
        before = s
        s = s.strip().strip("*").strip()
        if s.startswith("$") or s.endswith("$"):
            s = s.strip("$").strip()
        if s.startswith("\\(") and s.endswith("\\)"):
            s = s[2:-2].strip()
        if s.startswith("\\[") and s.endswith("\\]"):
            s = s[2:-2].strip()
        m = _WRAPPERS.match(s)
        if m:
            s = m.group(1).strip()
        if s.endswith(".") and not s.endswith(".."):
            s = s[:-1].rstrip()
        s = s.replace("\\$", "").replace("$", "").replace("\\left", "").replace("\\right", "")
        s = s.translate(DASHES)
        if s == before:
            break
    return s


def parse_number(text: str, *, units: bool = True) -> Fraction | None:
    """The exact value of ``text`` if it is one number, else ``None``.

    Understands thousands separators (``,``, ``\\,``, ``{,}``, thin spaces), money, percent (as the bare
    number: ``50\\%`` reads 50), degrees, trailing units (``5 \\text{ cm}``, ``12 apples``), scientific
    notation, fractions (``\\frac{1}{2}``, ``1/2``), mixed numbers (``2\\frac{1}{2}``, ``2 1/2``) and
    repeating decimals (``0.\\overline{3}``).

    Args:
        text: the candidate answer.
        units: also strip a trailing bare unit word (``12 apples``); ``False`` keeps ``5x`` from reading
            as 5. A trailing ``\\text{...}`` unit is always stripped.

    Example:
        >>> parse_number("$1,450,000.00")
        Fraction(1450000, 1)
    """
    if len(text) > MAX_DIGITS:
        return None
    s = strip_number_wrappers(text)
    if not s:
        return None
    if s[0] in "-+" and s[1:2].isspace():
        s = _DETACHED_SIGN.sub(r"\1", s)  # "- 18" is -18
    if s[-1] == "%":
        s = s[:-1].rstrip().removesuffix("\\").rstrip()
    elif s.endswith("\\%"):
        s = s[:-2].rstrip()
    s = _DEGREES.sub("", s)
    # a unit goes only when it follows the number at once (a digit, or the } of \frac{1}{2})
    m = _UNIT_LATEX.search(s) if s[-1:] == "}" else None
    cut = m.start() if m else 0
    if cut and (s[cut - 1].isdigit() or s[cut - 1] == "}") and _is_unit(s[cut:]):
        s = s[:cut]
    m = _UNIT_WORDS.search(s) if units and s and not s[-1].isdigit() and s[-1] != "}" else None
    cut = m.start() if m else 0
    if cut and s[cut - 1].isdigit() and _is_unit(s[cut:], glued=not s[cut].isspace()):
        s = s[:cut]
    if "," in s and _DECIMAL_COMMA.fullmatch(s):
        s = s.replace(",", ".")  # 1,22 / 0,111 / 1000,99: a comma that cannot separate thousands
    elif " " in s and _SPACE_GROUPS.fullmatch(s):
        s = s.replace(" ", "")  # 1 000 000
    s = _THOUSANDS_SEP.sub("", s) if "," in s or "\\" in s or "'" in s or "_" in s or "\u2009" in s else s
    s = s.strip()
    if s[:1] == "{" and s[-1:] == "}":
        s = s[1:-1].strip()
    return _exact(s)


UNIT_LETTERS = frozenset("mgslh")  # meters, grams, seconds, liters, hours; "18 K" (thousand) is not a unit


def _is_unit(tail: str, glued: bool = False) -> bool:
    """Whether the words after a number are a unit (``apples``, ``cm^2``), not a scale, operator or hedge
    (``thousand``, ``squared``, ``or more``, ``k``); a single letter glued to the number is never a unit."""
    words = re.findall(r"[a-zA-Z]+", tail)
    if not words or any(w.lower() in SCALE_WORDS for w in words):
        return False
    if len(words[0]) == 1:  # a lone letter: glued ("18k", "18i") never; spaced only as a unit symbol ("5 m")
        return not glued and words[0] in UNIT_LETTERS
    return True


def _exact(s: str) -> Fraction | None:
    if _PLAIN.fullmatch(s):
        return _decimal(s)
    m = _FRAC.fullmatch(s)
    if m:
        sign, whole, n1, n2, d1, d2 = m.groups()
        num, den = int(n1 or n2), int(d1 or d2)
        if den == 0:
            return None
        value = Fraction(num, den)
        if whole is not None:
            if num < 0 or den < 0:
                return None
            value += int(whole)
        return -value if sign == "-" else value
    m = _SLASH.fullmatch(s)
    if m:
        top, bottom = _decimal(m.group(1)), _decimal(m.group(2))
        return None if top is None or not bottom else top / bottom
    m = _MIXED_SLASH.fullmatch(s)
    if m:
        whole, num, den = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if den == 0:
            return None
        part = Fraction(num, den)
        return whole - part if m.group(1).startswith("-") else whole + part
    m = _SCI.fullmatch(s)
    if m:
        mant, exp = _decimal(m.group(1)), int(m.group(2).replace("−", "-"))
        if mant is None or abs(exp) > MAX_EXPONENT:
            return None
        return mant * Fraction(10) ** exp
    m = _REPEATING.fullmatch(s)
    if m:
        return _repeating(m)
    return None


def _decimal(s: str) -> Fraction | None:
    """Exact value of a plain decimal such as ``-12.50`` or ``1.5e-3`` (``None`` for absurd exponents)."""
    mant, _, exp = s.lower().partition("e")
    e = int(exp) if exp else 0
    if abs(e) > MAX_EXPONENT:
        return None
    whole, _, frac = mant.partition(".")
    sign = -1 if whole.startswith("-") else 1
    whole = whole.lstrip("+-") or "0"
    value = Fraction(int(whole + frac) if (whole + frac) else 0, 10 ** len(frac))
    return sign * value * Fraction(10) ** e


def _repeating(m: re.Match[str]) -> Fraction:
    sign, whole, fixed = m.group(1), m.group(2) or "0", m.group(3)
    rep = next(g for g in m.groups()[3:] if g)
    # 0.ab(c) = (abc - ab) / (10^len(b) * (10^len(c) - 1)), plus the whole part.
    non_rep = int(fixed) if fixed else 0
    value = Fraction(int(whole)) + Fraction(int(fixed + rep) - non_rep,
                                            10 ** len(fixed) * (10 ** len(rep) - 1))
    return -value if sign == "-" else value


def decimal_places(denominator: int) -> int | None:
    """How many decimal places ``1/denominator`` needs, or ``None`` if its expansion never ends (a prime factor
    other than 2 and 5)."""
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    return max(twos, fives) if denominator == 1 else None


def format_number(value: Fraction) -> str:
    """Canonical text of an exact value: ``18``, ``-0.5``, ``1/3`` (fractions that do not terminate)."""
    if value.denominator == 1:
        return str(value.numerator)
    digits = decimal_places(value.denominator)
    if digits is not None and digits <= 60:  # a terminating decimal: 10**digits clears the denominator
        scaled = value * 10**digits
        sign = "-" if scaled.numerator < 0 else ""
        txt = str(abs(scaled.numerator)).rjust(digits + 1, "0")
        return f"{sign}{txt[:-digits]}.{txt[-digits:]}".rstrip("0").rstrip(".")
    return f"{value.numerator}/{value.denominator}"
