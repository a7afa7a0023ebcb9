"""Write ``cas_bound.jsonl``: random symbolic answers against symbolic golds (a CAS-bound MATH workload).

This is the answer mix early in an RL run, when a policy emits symbolic junk: every gold is an expression
or a structure of expressions, a third of the responses are the gold in another form (expanded, factored,
an identity applied) and the rest are wrong (near misses: one coefficient, sign or exponent changed; and
unrelated random expressions). Kinds: ``expression``, ``constant`` (no variable), ``tuple``, ``interval``,
``equation``, ``roots`` (an unordered list) and ``matrix``.

Every row is checked here with sympy at random points (equal rows must agree everywhere sampled, wrong rows
must differ somewhere), so a label never depends on the scorers being measured. Fixed seed: the file is
reproducible and committed.

Run: python evals/speed/make_cas_bound.py [--rows 450] [--seed 13] [--out evals/speed/cas_bound.jsonl]
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent

# A template: rng -> (gold latex, equal latex, (near-miss latex, ...)) for one expression.
Template = Callable[[random.Random], tuple[str, str, list[str]]]


def _nz(rng: random.Random, lo: int = -9, hi: int = 9) -> int:
    """A random non-zero integer in [lo, hi]."""
    while True:
        v = rng.randint(lo, hi)
        if v:
            return v


def _lin(v: str, a: int) -> str:
    """``v+a`` / ``v-a`` written as a human would."""
    return f"{v}+{a}" if a > 0 else f"{v}-{-a}"


def _t_product(rng: random.Random) -> tuple[str, str, list[str]]:
    a, b = _nz(rng), _nz(rng)
    s, p = a + b, a * b
    mid = "" if s == 0 else (f"+{s}x" if s > 0 else f"-{-s}x")
    tail = f"+{p}" if p > 0 else f"-{-p}"
    return (f"({_lin('x', a)})({_lin('x', b)})", f"x^2{mid}{tail}",
            [f"({_lin('x', a)})({_lin('x', -b)})", f"x^2{mid}{'+' if p < 0 else '-'}{abs(p)}"])


def _t_cancel(rng: random.Random) -> tuple[str, str, list[str]]:
    a = rng.randint(1, 9)
    return (f"\\frac{{x^2-{a * a}}}{{x-{a}}}", _lin("x", a), [_lin("x", -a), f"x+{a + 1}"])


def _t_square(rng: random.Random) -> tuple[str, str, list[str]]:
    a = _nz(rng)
    lin = f"{2 * a}x" if a > 0 else f"-{-2 * a}x"
    lin = ("+" + lin) if a > 0 else lin
    return (f"({_lin('x', a)})^2", f"x^2{lin}+{a * a}", [f"x^2{lin}+{a * a + 1}", f"x^2+{a * a}"])


def _t_double_angle(rng: random.Random) -> tuple[str, str, list[str]]:
    k = rng.randint(1, 5)
    kx = "x" if k == 1 else f"{k}x"
    return (f"\\sin({2 * k}x)", f"2\\sin({kx})\\cos({kx})", [f"2\\sin({kx})", f"\\sin({kx})\\cos({kx})"])


def _t_cos_double(rng: random.Random) -> tuple[str, str, list[str]]:
    k = rng.randint(1, 4)
    kx = "x" if k == 1 else f"{k}x"
    return (f"\\cos({2 * k}x)", f"\\cos^2({kx})-\\sin^2({kx})", [f"\\cos^2({kx})+\\sin^2({kx})",
                                                                 f"2\\cos^2({kx})"])


def _t_sum_fractions(rng: random.Random) -> tuple[str, str, list[str]]:
    a, b = rng.randint(1, 9), rng.randint(1, 9)
    return (f"\\frac{{{a}}}{{x}}+\\frac{{{b}}}{{y}}", f"\\frac{{{a}y+{b}x}}{{xy}}",
            [f"\\frac{{{a}x+{b}y}}{{xy}}", f"\\frac{{{a + b}}}{{x+y}}"])


def _t_partial(rng: random.Random) -> tuple[str, str, list[str]]:
    a = rng.randint(1, 6)
    b = a + rng.randint(1, 5)
    return (f"\\frac{{1}}{{x-{a}}}-\\frac{{1}}{{x-{b}}}", f"\\frac{{{b - a}}}{{(x-{a})(x-{b})}}",
            [f"\\frac{{{b - a + 1}}}{{(x-{a})(x-{b})}}", f"\\frac{{{b - a}}}{{(x+{a})(x-{b})}}"])


def _t_exp(rng: random.Random) -> tuple[str, str, list[str]]:
    a, b = rng.randint(1, 7), rng.randint(1, 7)
    return (f"e^{{{a}x}}e^{{{b}x}}", f"e^{{{a + b}x}}", [f"e^{{{a * b}x}}" if a * b != a + b else
                                                         f"e^{{{a + b + 1}x}}", f"e^{{{a + b}x}}+1"])


def _t_log(rng: random.Random) -> tuple[str, str, list[str]]:
    a = rng.randint(2, 9)
    return (f"\\ln({a}x)", f"\\ln {a}+\\ln x", [f"{a}\\ln x", f"\\ln {a + 1}+\\ln x"])


def _t_power(rng: random.Random) -> tuple[str, str, list[str]]:
    k = rng.randint(2, 6)
    return (f"\\frac{{1}}{{x^{{{k}}}}}", f"x^{{-{k}}}", [f"x^{{{k}}}", f"x^{{-{k + 1}}}"])


def _t_cubes(rng: random.Random) -> tuple[str, str, list[str]]:
    a = rng.randint(2, 5)
    return (f"x^3-{a ** 3}y^3", f"(x-{a}y)(x^2+{a}xy+{a * a}y^2)",
            [f"(x-{a}y)(x^2-{a}xy+{a * a}y^2)", f"(x-{a}y)^3"])


def _t_binomial(rng: random.Random) -> tuple[str, str, list[str]]:
    return ("\\binom{n}{2}", "\\frac{n(n-1)}{2}", ["\\frac{n(n+1)}{2}", "n(n-1)"])


def _t_sqrt_var(rng: random.Random) -> tuple[str, str, list[str]]:
    a = rng.randint(2, 9)
    return (f"{a}\\sqrt{{x}}", f"{a}x^{{\\frac{{1}}{{2}}}}",
            [f"{a}x^{{\\frac{{1}}{{3}}}}", f"{a + 1}\\sqrt{{x}}"])


def _tree(rng: random.Random, depth: int) -> tuple:
    """A random expression tree in x and y: nested sums, products, quotients, powers, roots, sin, exp."""
    if depth == 0 or rng.random() < 0.2:
        return ("leaf", rng.choice(["x", "y", "x", str(rng.randint(2, 9))]))
    op = rng.choice(["add", "add", "mul", "mul", "frac", "pow", "sqrt", "sin", "exp"])
    if op in ("add", "mul", "frac"):
        return (op, _tree(rng, depth - 1), _tree(rng, depth - 1))
    if op == "pow":
        return (op, _tree(rng, depth - 1), rng.randint(2, 3))
    return (op, _tree(rng, depth - 1))


def _latex(t: tuple, form: int = 0) -> str:
    """LaTeX of a tree; ``form=1`` writes the same value differently (distributed products, powers for
    roots, negative exponents for quotients), ``form=0`` as written."""
    op = t[0]
    if op == "leaf":
        return t[1]
    if op == "add":
        first, second = (t[2], t[1]) if form else (t[1], t[2])
        return f"{_latex(first, form)}+{_latex(second, form)}"
    if op == "mul":
        a, b = t[1], t[2]
        if form and b[0] == "add":  # a(b1+b2) -> a b1 + a b2
            return f"({_latex(a, form)})({_latex(b[1], form)})+({_latex(a, form)})({_latex(b[2], form)})"
        return f"({_latex(a, form)})({_latex(b, form)})"
    if op == "frac":
        if form:
            return f"({_latex(t[1], form)})({_latex(t[2], form)})^{{-1}}"
        return f"\\frac{{{_latex(t[1], form)}}}{{{_latex(t[2], form)}}}"
    if op == "pow":
        return f"({_latex(t[1], form)})^{{{t[2]}}}"
    if op == "sqrt":
        return f"({_latex(t[1], form)})^{{\\frac{{1}}{{2}}}}" if form else f"\\sqrt{{{_latex(t[1], form)}}}"
    if op == "sin":
        return f"\\sin({_latex(t[1], form)})"
    return f"e^{{{_latex(t[1], form)}}}"


def _perturb(rng: random.Random, t: tuple) -> tuple:
    """The tree with one leaf or exponent changed (a near miss)."""
    if t[0] == "leaf":
        return ("leaf", str(int(t[1]) + 1)) if t[1].isdigit() else ("leaf", "y" if t[1] == "x" else "x")
    if t[0] == "pow":
        return ("pow", t[1], t[2] + 1) if rng.random() < 0.5 else ("pow", _perturb(rng, t[1]), t[2])
    i = rng.randrange(1, len(t))
    return t[:i] + (_perturb(rng, t[i]),) + t[i + 1:]


def _t_random(rng: random.Random) -> tuple[str, str, list[str]]:
    t = _tree(rng, 3)
    while t[0] == "leaf":
        t = _tree(rng, 3)
    return _latex(t), _latex(t, 1), [_latex(_perturb(rng, t)), _latex(_perturb(rng, t), 1)]


EXPRESSIONS: list[Template] = [_t_product, _t_cancel, _t_square, _t_double_angle, _t_cos_double,
                               _t_sum_fractions, _t_partial, _t_exp, _t_log, _t_power, _t_cubes, _t_binomial,
                               _t_sqrt_var, _t_random, _t_random, _t_random]


def _c_sqrt(rng: random.Random) -> tuple[str, str, list[str]]:
    k, m = rng.randint(2, 6), rng.choice([2, 3, 5, 6, 7])
    return (f"{k}\\sqrt{{{m}}}", f"\\sqrt{{{k * k * m}}}",
            [f"\\sqrt{{{k * k * m + 1}}}", f"{k + 1}\\sqrt{{{m}}}"])


def _c_pi(rng: random.Random) -> tuple[str, str, list[str]]:
    a, b = rng.randint(1, 5), rng.randint(2, 9)
    return (f"\\frac{{{a}\\pi}}{{{b}}}", f"\\frac{{{a}}}{{{b}}}\\pi", [f"\\frac{{{a}\\pi}}{{{b + 1}}}",
                                                                       f"\\frac{{{a + b}\\pi}}{{{b}}}"])


def _c_ratio(rng: random.Random) -> tuple[str, str, list[str]]:
    a, b = rng.choice([(2, 3), (3, 5), (5, 7), (2, 7), (3, 7), (6, 5)])
    return (f"\\frac{{\\sqrt{{{a}}}}}{{\\sqrt{{{b}}}}}", f"\\frac{{\\sqrt{{{a * b}}}}}{{{b}}}",
            [f"\\frac{{\\sqrt{{{a * b}}}}}{{{a}}}", f"\\sqrt{{{a * b}}}"])


def _c_rationalise(rng: random.Random) -> tuple[str, str, list[str]]:
    m = rng.choice([2, 3, 5, 6, 7])
    return (f"\\frac{{1}}{{\\sqrt{{{m}}}-1}}", f"\\frac{{\\sqrt{{{m}}}+1}}{{{m - 1}}}",
            [f"\\frac{{\\sqrt{{{m}}}-1}}{{{m - 1}}}", f"\\sqrt{{{m}}}+1"])


def _c_log(rng: random.Random) -> tuple[str, str, list[str]]:
    b, k = rng.choice([2, 3, 5]), rng.randint(2, 5)
    return (f"{k}\\ln {b}", f"\\ln {b ** k}", [f"\\ln {b ** k + 1}", f"{k}\\ln {b + 1}"])


CONSTANTS: list[Template] = [_c_sqrt, _c_pi, _c_ratio, _c_rationalise, _c_log]


def _junk(rng: random.Random) -> str:
    """An unrelated symbolic answer: a random template's gold, equal or near-miss form."""
    g, e, wrong = rng.choice(EXPRESSIONS)(rng)
    return rng.choice([g, e, *wrong])


def _same(a: str, b: str, points: list[dict]) -> bool | None:
    """Whether two LaTeX values agree at every point (30 digits); ``None`` when a point is undefined."""
    import sympy
    from latex2sympy2_extended import latex2sympy

    ea, eb = latex2sympy(a), latex2sympy(b)
    for p in points:
        va, vb = sympy.N(ea.subs(p), 30), sympy.N(eb.subs(p), 30)
        if not (va.is_finite and vb.is_finite):
            return None
        if abs(va - vb) > sympy.Float("1e-12") * max(1, abs(va), abs(vb)):
            return False
    return True


def _points(rng: random.Random) -> list[dict]:
    import sympy

    x, y, n = sympy.symbols("x y n")
    return [{x: 1 + sympy.Rational(rng.randint(1, 40), rng.randint(7, 29)),
             y: 1 + sympy.Rational(rng.randint(1, 40), rng.randint(7, 29)), n: rng.randint(3, 30)}
            for _ in range(4)]


def _value(latex: str) -> float:
    """The real value of a constant LaTeX expression."""
    import sympy
    from latex2sympy2_extended import latex2sympy

    return float(sympy.N(latex2sympy(latex)))


def _row(rng: random.Random, kind: str, equal: bool) -> tuple[str, str, list[tuple[str, str]]]:
    """(gold, answer, [(gold part, answer part) ...]) for one row of ``kind``."""
    pool = CONSTANTS if kind in ("constant", "interval", "roots") else EXPRESSIONS

    def part(want_equal: bool) -> tuple[str, str]:
        g, e, wrong = rng.choice(pool)(rng)
        if want_equal:
            return g, e
        return g, (rng.choice(wrong) if rng.random() < 0.5 or pool is CONSTANTS else _junk(rng))

    if kind in ("expression", "constant"):
        g, a = part(equal)
        return g, a, [(g, a)]
    if kind in ("tuple", "matrix", "interval"):
        n = 4 if kind == "matrix" else 2
        bad = -1 if equal else rng.randrange(n)
        parts = [part(i != bad) for i in range(n)]
        gs, as_ = [p[0] for p in parts], [p[1] for p in parts]
        if kind == "matrix":
            env = rng.choice(["pmatrix", "bmatrix"])
            return (f"\\begin{{{env}}} {gs[0]} & {gs[1]} \\\\ {gs[2]} & {gs[3]} \\end{{{env}}}",
                    f"\\begin{{{env}}} {as_[0]} & {as_[1]} \\\\ {as_[2]} & {as_[3]} \\end{{{env}}}", parts)
        if kind == "interval":
            lo, hi = sorted(parts, key=lambda p: _value(p[0]))
            parts = [lo, hi]
            left, right = rng.choice("(["), rng.choice(")]")
            return f"{left}{lo[0]}, {hi[0]}{right}", f"{left}{lo[1]}, {hi[1]}{right}", parts
        return f"({gs[0]}, {gs[1]})", f"({as_[0]}, {as_[1]})", parts
    if kind == "equation":
        g, a = part(equal)
        return f"y={g}", f"y={a}", [(g, a)]
    # roots: an unordered list, answered in the other order
    parts = [part(equal or i == 1) for i in range(2)]
    return (f"{parts[0][0]}, {parts[1][0]}", f"{parts[1][1]}, {parts[0][1]}", parts)


PROSE = ["Simplifying, we get", "Therefore the answer is", "Putting it together:", "So",
         "Hence, the result is"]
KINDS = [("expression", 0.45), ("constant", 0.15), ("tuple", 0.1), ("interval", 0.08), ("equation", 0.08),
         ("roots", 0.07), ("matrix", 0.07)]


def build(rows: int, seed: int) -> list[dict]:
    """``rows`` labelled rows: a third equal (another form of the gold), the rest wrong."""
    rng = random.Random(seed)
    out: list[dict] = []
    seen: set[tuple[str, str]] = set()
    kinds, weights = zip(*KINDS)
    while len(out) < rows:
        equal = len(out) % 3 == 0
        kind = rng.choices(kinds, weights)[0]
        gold, answer, parts = _row(rng, kind, equal)
        if (gold, answer) in seen or gold == answer:
            continue
        points = _points(rng)
        same = [_same(g, a, points) for g, a in parts]
        if None in same or all(same) != equal:  # a near miss that is equal after all (or vice versa): redraw
            continue
        seen.add((gold, answer))
        response = f"{rng.choice(PROSE)} $\\boxed{{{answer}}}$."
        out.append({"id": f"cas-{len(out):03d}", "kind": kind, "label": "equal" if equal else "wrong",
                    "gold": gold, "response": response})
    return out


def write_rows(rows: list[dict], out: Path) -> None:
    """Write ``rows`` as JSON lines to ``out`` and print how many of each kind and label."""
    out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    counts: dict[str, int] = {}
    for r in rows:
        counts[f"{r['kind']}/{r['label']}"] = counts.get(f"{r['kind']}/{r['label']}", 0) + 1
    print(f"wrote {len(rows)} rows to {out}: {json.dumps(counts, sort_keys=True)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=450)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", type=Path, default=HERE / "cas_bound.jsonl")
    args = ap.parse_args()
    rows = build(args.rows, args.seed)
    write_rows(rows, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
