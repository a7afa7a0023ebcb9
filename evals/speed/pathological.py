"""Inputs built to make a MATH scorer hang, exhaust memory or recurse: (name, response, gold) triples.

Each is a class a policy can stumble into (or a hostile one search for): towers of powers, huge
factorials, expansions with astronomically many terms, thousands of nested braces/fractions/roots,
200 kB responses, sums and integrals a CAS tries to evaluate, big symbolic matrices. The contract is only
about time: every call returns within ``Config.timeout`` + 0.2 s with some status, never hangs or crashes.

As a script it scores the cases one at a time from ``--start`` on, printing one JSON line per case as soon
as it is scored, so that a caller watching the output can tell which case hangs (``run.py`` kills this
process then and goes on with the next case).

Run: python evals/speed/pathological.py [--start 0] [--timeout 1.0]
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def _nested(open_: str, inner: str, close: str, depth: int) -> str:
    return open_ * depth + inner + close * depth


def cases() -> list[tuple[str, str, str]]:
    """The pathological (name, response, gold) triples."""
    box = "\\boxed{{{}}}".format
    big_sum = "+".join(["1"] * 60_000)  # ~120 kB inside one box
    matrix = "\\begin{pmatrix}" + " \\\\ ".join(
        " & ".join(f"x^{{{i + j}}}+{i * j}y" for j in range(12)) for i in range(12)) + "\\end{pmatrix}"
    matrix2 = matrix.replace("y", "z")
    return [
        ("power tower 2^2^2^2^2^2", box("2^{2^{2^{2^{2^{2}}}}}"), "2^{2^{2^{2^{2^{3}}}}}"),
        ("power tower 9^9^9^9", box("9^{9^{9^{9}}}"), "9^{9^{9^{8}}}"),
        ("10^{10^{10}}+1 vs 10^{10^{10}}", box("10^{10^{10}}+1"), "10^{10^{10}}"),
        ("10^{10^{10}} vs 10^{10^{10}}-1", box("10^{10^{10}}"), "10^{10^{10}}-1"),
        ("expansion (x+2)^100000", box("(x+2)^{100000}"), "(x+1)^{100000}"),
        ("expansion (x+y+z)^200", box("(x+y+z)^{200}"), "(x+y+z+1)^{200}"),
        ("factorial 1000000!", box("1000000!"), "999999!"),
        ("factorial (10^{6})! + 1", box("(10^{6})!+1"), "(10^{6})!"),
        ("double factorial chain", box("((100!)!)!"), "5"),
        ("5000 nested braces", box(_nested("{", "x", "}", 5000)), "x"),
        ("3000 nested parentheses", box(_nested("(", "x", ")", 3000)), "x+1"),
        ("1000 nested fractions", box(_nested("\\frac{1}{", "2", "}", 1000)), "3"),
        ("300 nested exponents", box(_nested("x^{", "2", "}", 300)), "y"),
        ("500 nested roots", box(_nested("\\sqrt{", "x", "}", 500)), "x^{2^{-500}}"),
        ("2000 nested \\left( \\right)", box(_nested("\\left(", "x", "\\right)", 2000)), "x"),
        ("10000 unclosed boxes", "\\boxed{" * 10_000, "1"),
        ("200 kB of prose then a box", "word " * 40_000 + box("x^2-1"), "(x-1)(x+1)"),
        ("200 kB of digits", "9" * 200_000, "1"),
        ("120 kB sum inside a box", box(big_sum), "60000"),
        ("200 kB of repeated boxes", box("x") * 25_000, "x"),
        ("huge sum \\sum_{k=1}^{10^{12}} k^k", box("\\sum_{k=1}^{10^{12}} k^{k}"), "1"),
        ("huge product \\prod_{k=1}^{10^9} k", box("\\prod_{k=1}^{10^{9}} k"), "2"),
        ("integral without closed form", box("\\int_0^1 e^{x^2}\\,dx"), "\\int_0^1 e^{x^3}\\,dx"),
        ("trig of a huge argument", box("\\sin(10^{100}x)"), "\\sin(10^{100}x+1)"),
        ("x^{x^{x^{x^{x}}}} vs y", box("x^{x^{x^{x^{x}}}}"), "x^{x^{x^{x^{y}}}}"),
        ("12x12 symbolic matrix", box(matrix), matrix2),
        ("polynomial of degree 5000", box("+".join(f"{k}x^{{{k}}}" for k in range(1, 5001))), "x"),
        ("rational function with a huge cancel", box("\\frac{x^{2000}-1}{x-1}"),
         "+".join(f"x^{{{k}}}" for k in range(2000))),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=1.0)
    args = ap.parse_args()
    from verifiers import math

    math.warm_up()
    cfg = math.Config(timeout=args.timeout)
    for k, (name, response, gold) in enumerate(cases()):
        if k < args.start:
            continue
        t = time.perf_counter()
        s = math.score(response, gold, config=cfg)
        took = time.perf_counter() - t
        row = {"index": k, "case": name, "status": s.status, "ms": round(took * 1e3, 1)}
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
