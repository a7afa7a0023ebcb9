"""Write ``junk.jsonl``: symbolic junk built from calculus and combinatorics forms against MATH test golds.

Issue 24's held-out "symbolic junk" class: a policy early in RL writes answers with ``\\int x``, ``n!``,
``\\Gamma``, ``\\binom{n}{2}``, bare ``\\tan^{-1}``, ``\\arcsin``, subscripted names (``a_n``), sums
``\\sum_{k=1}^{n}``, definite integrals ``\\int_0^1 ... dx`` and nested or double superscripts
(``x^{2^{3}}``, ``x^2^3``), against symbolic golds. Every gold is a MATH test answer that is a single
expression with a variable or an irrational constant (``\\frac{\\sqrt{3}}{2}``, ``2x-5``).

Rows:

- ``junk`` (wrong): one to three random atoms of the forms above, combined with ``+ - \\cdot \\frac`` and small
  coefficients, over the gold's own variables;
- ``near`` (wrong): the gold times (or plus) a constant built from the new forms that is *not* 1 (or 0):
  ``\\frac{\\Gamma(4)}{4!}(G)``, ``(G)\\int_0^1 3t\\,dt``; close to the gold in shape, different in value;
- ``equal``: the gold times (or plus) such a constant that *is* 1 (or 0): ``\\frac{\\Gamma(4)}{3!}(G)``,
  ``(G)+\\sum_{k=1}^{3}(k-2)``, ``(G)^{2^{0}}``; and textbook identities of the forms themselves against
  golds written the usual way (``\\sum_{k=1}^{n} k`` for ``\\frac{n(n+1)}{2}``, ``\\tan^{-1} 1`` for
  ``\\frac{\\pi}{4}``, ``\\int_0^x t^2\\,dt`` for ``\\frac{x^3}{3}``).

Labels are checked here with sympy (``latex2sympy``, integrals and sums done, numbers at random points):
an ``equal`` row must agree everywhere sampled and a wrong row must differ somewhere, else it is redrawn.
That check *samples*, which is fine for labels of constructed rows (the scorers measured must prove equality,
never sample it). A double superscript ``a^b^c`` is not valid LaTeX; a wrong row with one must differ under
both readings, ``(a^b)^c`` and ``a^{b^c}``, and no equal row has one. Fixed seed: reproducible and committed.

Run: python evals/speed/make_junk.py [--rows 300] [--seed 24] [--data ../shared/data] [--out evals/speed/junk.jsonl]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

from make_cas_bound import write_rows  # run from evals/speed (its directory is on sys.path)

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = Path(os.environ.get("VERIFIERS_DATA_DIR", HERE.parents[2] / "shared" / "data"))

_COMMAND = re.compile(r"\\[a-zA-Z]+")


def _variables(gold: str) -> list[str]:
    """The single-letter variables of a gold (outside command names)."""
    letters = sorted(set(re.findall(r"[a-zA-Z]", _COMMAND.sub("", gold))) - {"e", "i", "d"})
    return letters or ["x"]


# ------------------------------------------------------------------------------------------ atoms

Atom = Callable[[random.Random, str], str]


def _small(rng: random.Random) -> int:
    return rng.randint(2, 6)


ATOMS: dict[str, list[Atom]] = {
    "factorial": [lambda r, v: f"{v}!", lambda r, v: f"({v}+1)!", lambda r, v: f"({_small(r)}{v})!",
                  lambda r, v: f"{_small(r)}!", lambda r, v: f"\\frac{{{v}!}}{{({v}-1)!}}"],
    "gamma": [lambda r, v: f"\\Gamma({v})", lambda r, v: f"\\Gamma({v}+{_small(r)})",
              lambda r, v: "\\Gamma\\left(\\frac{1}{2}\\right)", lambda r, v: f"\\Gamma({_small(r)})"],
    "binomial": [lambda r, v: f"\\binom{{{v}}}{{2}}", lambda r, v: f"\\binom{{{v}}}{{{_small(r) - 1}}}",
                 lambda r, v: f"\\dbinom{{2{v}}}{{{v}}}", lambda r, v: f"\\binom{{{_small(r) + 3}}}{{{_small(r)}}}"],
    "inverse_trig": [lambda r, v: f"\\tan^{{-1}} {v}", lambda r, v: f"\\tan^{{-1}}({v})",
                     lambda r, v: f"\\sin^{{-1}}\\left(\\frac{{{v}}}{{{_small(r) + 4}}}\\right)",
                     lambda r, v: f"\\arcsin\\frac{{1}}{{{_small(r)}}}", lambda r, v: f"\\arccos {v}",
                     lambda r, v: f"\\arctan {_small(r)}", lambda r, v: f"\\arctan({v}^2)",
                     lambda r, v: "\\tan^{-1} 1"],
    "subscript": [lambda r, v: "a_n", lambda r, v: "a_{n+1}", lambda r, v: f"{v}_1",
                  lambda r, v: f"{v}_{{2}}", lambda r, v: "x_1x_2", lambda r, v: "a_1+a_2"],
    "integral": [lambda r, v: f"\\int {v}\\,d{v}", lambda r, v: f"\\int_0^1 {v}^{_small(r)}\\,d{v}",
                 lambda r, v: f"\\int_{{0}}^{{{v}}} t^{{{_small(r)}}}\\,dt",
                 lambda r, v: "\\int_0^{\\pi} \\sin t\\,dt", lambda r, v: f"\\int_1^{{{v}}}\\frac{{1}}{{t}}\\,dt",
                 lambda r, v: f"\\int_0^1 ({v}+t)\\,dt"],
    "sum": [lambda r, v: "\\sum_{k=1}^{n} k", lambda r, v: "\\sum_{k=1}^{n} k^2",
            lambda r, v: f"\\sum_{{k=1}}^{{{_small(r) + 4}}} \\frac{{1}}{{k}}",
            lambda r, v: f"\\sum_{{k=0}}^{{{_small(r)}}} {v}^k", lambda r, v: "\\sum_{k=0}^{n}\\binom{n}{k}"],
    "superscript": [lambda r, v: f"{v}^{{2^{{{_small(r)}}}}}", lambda r, v: f"2^{{2^{{{v}}}}}",
                    lambda r, v: f"{v}^{{{_small(r)}^{{2}}}}", lambda r, v: f"{v}^2^{_small(r)}",
                    lambda r, v: f"{_small(r)}^{v}^2"],
}


def _junk(rng: random.Random, variables: list[str]) -> str:
    """One to three atoms, combined with small coefficients and + - \\cdot \\frac."""
    parts = []
    for _ in range(rng.choice((1, 1, 2, 2, 3))):
        atom = rng.choice(ATOMS[rng.choice(sorted(ATOMS))])(rng, rng.choice(variables))
        c = rng.choice((1, 1, 2, 3, -1, 5))
        parts.append(atom if c == 1 else f"-{atom}" if c == -1 else f"{c}{atom}")
    out = parts[0]
    for p in parts[1:]:
        op = rng.choice(("+", "-", "\\cdot", "frac"))
        if op == "frac":
            out = f"\\frac{{{out}}}{{{p}}}"
        elif op == "\\cdot":
            out = f"\\left({out}\\right)\\cdot\\left({p.lstrip('-')}\\right)"
        else:
            out = f"{out}{op}{p.lstrip('-')}"
    return out


# One, written with the new forms (the multiplicative wrappers), and near misses of each.
ONES = [("\\frac{{\\Gamma(4)}}{{3!}}", "\\frac{{\\Gamma(4)}}{{4!}}"),
        ("\\frac{{\\binom{{5}}{{2}}}}{{10}}", "\\frac{{\\binom{{5}}{{3}}}}{{5}}"),
        ("\\int_0^1 2t\\,dt", "\\int_0^1 3t\\,dt"),
        ("\\frac{{4}}{{\\pi}}\\tan^{{-1}} 1", "\\frac{{3}}{{\\pi}}\\tan^{{-1}} 1"),
        ("\\frac{{2}}{{\\pi}}\\left(\\arcsin\\frac{{1}}{{2}}+\\arccos\\frac{{1}}{{2}}\\right)",
         "\\frac{{2}}{{\\pi}}\\left(\\arcsin\\frac{{1}}{{2}}+\\arctan\\frac{{1}}{{2}}\\right)"),
        ("\\frac{{1}}{{6}}\\sum_{{k=1}}^{{3}} k", "\\frac{{1}}{{5}}\\sum_{{k=1}}^{{3}} k"),
        ("\\frac{{\\Gamma\\left(\\frac{{1}}{{2}}\\right)^2}}{{\\pi}}", "\\frac{{\\Gamma\\left(\\frac{{1}}{{2}}\\right)}}{{\\pi}}")]
# Zero, written with the new forms (additive wrappers).
ZEROS = [("\\sum_{{k=1}}^{{3}}(k-2)", "\\sum_{{k=1}}^{{3}}(k-1)"),
         ("\\int_{{-1}}^{{1}} t^3\\,dt", "\\int_{{-1}}^{{1}} t^2\\,dt"),
         ("\\binom{{4}}{{1}}-2!\\cdot 2", "\\binom{{4}}{{2}}-2!\\cdot 2"),
         ("a_1-a_1", "a_1-a_2")]


def _wrapped(rng: random.Random, gold: str, equal: bool) -> str:
    if rng.random() < 0.6:
        one, other = rng.choice(ONES)
        w = (one if equal else other).format()
        return rng.choice((f"{w}\\left({gold}\\right)", f"\\left({gold}\\right)\\cdot {w}"))
    if rng.random() < 0.2 and equal:
        return f"\\left({gold}\\right)^{{2^{{0}}}}"
    zero, other = rng.choice(ZEROS)
    return f"{gold}+{(zero if equal else other).format()}"


# Textbook identities: (gold as written in answer keys, the same value in the new forms).
IDENTITIES = [("\\frac{n(n+1)}{2}", "\\sum_{k=1}^{n} k"), ("\\frac{n(n-1)}{2}", "\\binom{n}{2}"),
              ("\\frac{n(n+1)(2n+1)}{6}", "\\sum_{k=1}^{n} k^2"), ("2^n", "\\sum_{k=0}^{n}\\binom{n}{k}"),
              ("n(n-1)", "\\frac{n!}{(n-2)!}"), ("x^8", "x^{2^{3}}"), ("\\frac{\\pi}{4}", "\\tan^{-1} 1"),
              ("\\frac{\\pi}{2}", "\\arcsin x+\\arccos x"), ("\\frac{x^3}{3}", "\\int_0^x t^2\\,dt"),
              ("\\ln x", "\\int_1^{x}\\frac{1}{t}\\,dt"), ("\\sqrt{\\pi}", "\\Gamma\\left(\\frac{1}{2}\\right)"),
              ("n!", "\\Gamma(n+1)"), ("\\frac{\\pi}{6}", "\\arcsin\\frac{1}{2}"), ("24", "\\Gamma(5)"),
              ("\\frac{1}{3}", "\\int_0^1 x^2\\,dx"), ("x^{16}", "x^{4^{2}}"), ("a_{n+1}-a_n", "-a_n+a_{n+1}"),
              ("2x_1", "x_1+x_{1}"), ("\\frac{2x}{1+x^4}", "\\frac{d}{dx}\\tan^{-1}(x^2)")]


def _rename(rng: random.Random, gold: str, answer: str) -> tuple[str, str]:
    """An identity with its variables renamed (``n`` to ``m`` or ``r``, ``x`` to ``y`` or ``u``)."""
    names = {"n": rng.choice("nmr"), "x": rng.choice("xyu")}

    def sub(text: str) -> str:
        return re.sub(r"(\\[a-zA-Z]+)|([nx])", lambda m: m.group(1) or names[m.group(2)], text)

    return sub(gold), sub(answer)


# ------------------------------------------------------------------------------------------- labels


def _readings(latex: str) -> list[str]:
    """The readings of a LaTeX text: itself, and with each double superscript ``a^b^c`` as ``a^{b^{c}}``."""
    alt = re.sub(r"(\w)\^(\w)\^(\w)", r"\1^{\2^{\3}}", latex)
    return [latex] if alt == latex else [latex, alt]


def _sympy(latex: str) -> object:
    import sympy
    from latex2sympy2_extended import latex2sympy

    e = latex2sympy(latex)
    if not isinstance(e, sympy.Expr):
        raise TypeError("not an expression")
    return e.doit()


def _points(rng: random.Random, names: set) -> list[dict]:
    import sympy

    out = []
    for _ in range(4):
        p = {}
        for s in names:
            integral = str(s) in ("n", "k", "m") or "_" in str(s)
            p[s] = rng.randint(3, 12) if integral else 1 + sympy.Rational(rng.randint(1, 40), rng.randint(7, 29))
            if str(s) in ("x", "t") and rng.random() < 0.5:
                p[s] = sympy.Rational(rng.randint(1, 9), 10)  # inside arcsin's domain too
        out.append(p)
    return out


def _agree(gold: object, answer: object, rng: random.Random) -> bool | None:
    """Whether two sympy values agree at random points (30 digits); ``None`` when undecidable here."""
    import sympy

    names = gold.free_symbols | answer.free_symbols  # type: ignore[attr-defined]
    if any(isinstance(f, (sympy.Integral, sympy.Sum)) for f in (gold, answer)):
        return None  # indefinite integrals and sums sympy could not do: never labelled
    seen = 0
    for p in _points(rng, names):
        try:
            va, vb = sympy.N(gold.subs(p), 30), sympy.N(answer.subs(p), 30)  # type: ignore[attr-defined]
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if not (va.is_finite and vb.is_finite) or va.has(sympy.I) or vb.has(sympy.I):
            continue
        seen += 1
        if abs(va - vb) > sympy.Float("1e-12") * max(1, abs(va), abs(vb)):
            return False
    return True if seen >= 3 else None


def _label(gold: str, answer: str, rng: random.Random) -> str | None:
    """"equal", "wrong", or ``None`` (not labelled with confidence: redraw)."""
    try:
        g = _sympy(gold)
        readings = [_sympy(a) for a in _readings(answer)]
    except Exception:  # noqa: BLE001 - latex2sympy raises anything on odd input; the row is redrawn
        return None
    if "\\int" in answer and "\\int_" not in answer:
        return "wrong"  # an indefinite integral is a family of functions, never one value
    votes = [_agree(g, a, rng) for a in readings]
    if None in votes:
        return None
    if len(readings) > 1:
        return "wrong" if not any(votes) else None
    return "equal" if votes[0] else "wrong"


# ------------------------------------------------------------------------------------------- golds


def golds(data: Path) -> list[str]:
    """MATH test answers that are one expression with a variable or an irrational constant."""
    import sympy
    from latex2sympy2_extended import latex2sympy

    rows = [json.loads(line) for line in (data / "math" / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    out = []
    for r in rows:
        a = r["answer"].strip()
        if any(t in a for t in ("\\text", "\\mbox", "\\hbox", "\\mathrm", ",", "=", "<", ">", "\\le", "\\ge", "matrix", "\\in", "\\cup", "^\\circ",
                                "\\%", "\\$", "\\infty", "\\pm")):
            continue
        symbolic = re.search(r"[a-zA-Z]", _COMMAND.sub("", a)) or any(c in a for c in ("\\pi", "\\sqrt"))
        if not symbolic:
            continue
        try:
            e = latex2sympy(a)
        except Exception:  # noqa: BLE001, S112 - a gold latex2sympy cannot read is not used
            continue
        if isinstance(e, sympy.Expr) and not e.has(sympy.I):
            out.append(a)
    return sorted(set(out))


def build(rows: int, seed: int, data: Path) -> list[dict]:
    """``rows`` labelled rows: 1/2 junk, 1/4 near misses (wrapped golds), 1/4 equal (wrapped or identities)."""
    rng = random.Random(seed)
    pool = golds(data)
    out: list[dict] = []
    seen: set[tuple[str, str]] = set()
    while len(out) < rows:
        slot = len(out) % 4
        if slot in (0, 2):
            kind, want = "junk", "wrong"
            gold = rng.choice(pool)
            answer = _junk(rng, _variables(gold))
        elif slot == 1:
            kind, want = "near", "wrong"
            gold = rng.choice(pool)
            answer = _wrapped(rng, gold, equal=False)
        elif rng.random() < 0.6:
            kind, want = "wrapped", "equal"
            gold = rng.choice(pool)
            answer = _wrapped(rng, gold, equal=True)
        else:
            kind, want = "identity", "equal"
            gold, answer = _rename(rng, *rng.choice(IDENTITIES))
        if (gold, answer) in seen and kind != "identity" or gold == answer:
            continue
        if _label(gold, answer, rng) != want:
            continue
        seen.add((gold, answer))
        response = f"{rng.choice(PROSE)} $\\boxed{{{answer}}}$."
        out.append({"id": f"junk-{len(out):03d}", "kind": kind, "label": want, "gold": gold, "response": response})
    return out


PROSE = ["Therefore the answer is", "So we get", "Hence", "The final answer is", "Simplifying,"]


def main() -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # sympy's results (which label checks pass, so which draws are kept) follow string hashing: fix it
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=300)
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--out", type=Path, default=HERE / "junk.jsonl")
    args = ap.parse_args()
    rows = build(args.rows, args.seed, args.data)
    write_rows(rows, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
