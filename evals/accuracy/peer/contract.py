"""Upstream labels that the verdict contract (``docs/answer-equivalence.md``) reads differently.

The suites keep every upstream label unchanged (``expected``). This table adds, for the rows listed,
``contract_label``: the verdict the contract gives (``None`` when the contract calls the case deliberately
ambiguous or is silent, so either label is defensible and the upstream one is kept). ``run.py`` reports
agreement under both labels. Rows are matched by ``case_key`` (a hash of gold and response, so the table
survives upstream line moves and commits no upstream text); ``where`` is for people. These judgments were
made by reading each case against the contract; change them only with a reason.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


def case_key(gold: str, response: str) -> str:
    """A short stable key of one (gold, response) pair."""
    return hashlib.sha256((gold + "\x1f" + response).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class ContractNote:
    where: str
    case: str
    contract_label: bool | None  # None: ambiguous under the contract, the upstream label is kept
    why: str


_APPROX = "the contract: approximations are not equal (`0.33` != `1/3`, `3.14` != `\\pi`)"
_LONG = "the contract lists long decimal approximations as deliberately ambiguous"
_COMMA = "decimal comma: the contract treats `,` as a thousands separator and says nothing of decimal commas"

NOTES: dict[str, ContractNote] = {
    # ------------------------------------------------------- Math-Verify (test_yujianll.py, test_all.py)
    "be84f6d66a96d66c": ContractNote(
        "test_yujianll.py:28",
        "1 - 1/e vs 1 + 1/e, labelled equal",
        False,
        "different values (a sign); no reading of the contract makes them equal",
    ),
    "380462b8e4d3d82a": ContractNote("test_all.py:552 (precision=4)", "1/3 vs 0.3333", False, _APPROX),
    "3a21fba53965802e": ContractNote(
        "test_all.py:586 (precision=2)", "(1/3, 1/5) vs (0.33, 0.2)", False, _APPROX
    ),
    "081a842d768d8060": ContractNote(
        "test_all.py:605 (precision=2)", "(3/5, 8/3] vs (0.6, 2.6667]", False, _APPROX
    ),
    "dee462932a3e7b73": ContractNote(
        "test_all.py:132",
        "9 vs 'Answer $ \\n 9 \\n $', labelled wrong",
        True,
        "a line break inside inline math is a parser rule; a grader reads 9",
    ),
    "678291e80cf0737c": ContractNote(
        "test_all.py:133",
        "9 vs 'Answer \\( \\n 9 \\n \\)', labelled wrong",
        True,
        "a line break inside inline math is a parser rule; a grader reads 9",
    ),
    "c7fb4962831b1582": ContractNote(
        "test_all.py:405",
        "x = 1/3 vs 'x = 5+5+1 = 1/3 \\approx 11'",
        None,
        "self-contradicting chain (= 1/3, then approx 11): the final value is either 1/3 or 11",
    ),
    "5515fe346630adbd": ContractNote(
        "test_all.py:423",
        "1/3 vs 'x=1/3\\approx1.3'",
        None,
        "exact value 1/3 followed by a wrong approximation",
    ),
    "e1494e65189e04bc": ContractNote(
        "test_all.py:506",
        "matrix vs an unevaluated matrix sum",
        None,
        "the contract lists unevaluated expressions as ambiguous",
    ),
    "5a23a36fe1d3c054": ContractNote(
        "test_all.py:512",
        "identity vs an unevaluated product I*I",
        None,
        "the contract lists unevaluated expressions as ambiguous",
    ),
    "849b44cc8f0bb53a": ContractNote("test_all.py:565", "1/12 vs 0.0833333333333333", None, _LONG),
    "c9f3c05459e401c2": ContractNote(
        "test_all.py:922 (precision=5)",
        "4.123105625617661 vs \\sqrt{17}",
        None,
        _LONG + " (here the gold is the approximation)",
    ),
    "32aaf23303ad4d62": ContractNote(
        "test_all.py:951",
        "'$<TAB>ext{13}$' vs 13, labelled wrong",
        None,
        "the upstream string is not raw: `\\t` is a TAB, so the gold is debris, "
        "not `\\text{13}` (which the contract would equal to 13)",
    ),
    "40346f87ade5e402": ContractNote(
        "test_all.py:853",
        "32349 vs '32, 349', labelled wrong",
        None,
        "`32, 349` is a thousands separator with a stray space, or a list of two numbers",
    ),
    "4be87cfe04183bac": ContractNote(
        "test_numina_cases.py:9 and :96",
        "5 tuples vs 6 with one repeated",
        None,
        "the contract lists duplicate set elements as ambiguous",
    ),
    "aab402c8391fc6db": ContractNote(
        "test_all.py:901 and :907",
        "x \\in [-2,7] vs -2 \\le x \\le 7 (labelled different with allow_set_relation_comp=False)",
        True,
        "the contract: a relation and the set it describes are the same answer; the False label is a "
        "Math-Verify option, not a verdict",
    ),
    "e8a5e09939bacb61": ContractNote(
        "test_open_thoughts.py:154",
        "gold '\\boxed{1} no no no no no \\boxed{2}' vs \\boxed{1,2}, labelled different",
        None,
        "whether two gold boxes with junk between them form one answer is not settled by the contract",
    ),
    "d53a6dda7fbadb61": ContractNote(
        "test_all.py:754",
        "(1,3) vs {1,3}, labelled equal",
        None,
        "`{1,3}` without `\\{` is a grouping: the bare list `1, 3` (a set of answers) against an ordered "
        "pair or an open interval",
    ),
    "f88dd7433b99eeb2": ContractNote(
        "test_all.py:753",
        "(3,1) vs {1,3}, labelled different",
        None,
        "`{1,3}` without `\\{` is a grouping: the bare list `1, 3` (a set of answers) against an ordered "
        "pair",
    ),
    "0497e697129bd6c7": ContractNote(
        "test_numina_cases.py:121",
        "gold '\\\\boxed{W(n) = 1 \\\\text{ and } W(n) = -1' (doubled backslashes, box never closed)",
        None,
        "the gold itself is an escaping accident with an unclosed box",
    ),
    "cba504732b703cf7": ContractNote("test_all.py:70", "1000.99 vs 1000,99", None, _COMMA),
    "7764b205aace6ec7": ContractNote("test_all.py:71", "1,22 vs 1.22", None, _COMMA),
    "59c6c841ce00e46f": ContractNote("test_all.py:72", "2.74 vs 'Soucis : 2,74 $ a..'", None, _COMMA),
    "2710d89297ffe1ae": ContractNote("test_all.py:87", "0,111 vs 0.111", None, _COMMA),
    # ------------------------------------------------------------------ hendrycks/math is_equiv tests
    "997cb36fb3dee696": ContractNote(
        "math_equivalence_test.py:15 test_order",
        "'10, 4, -2' vs '4, 10, -2', labelled different",
        True,
        "a list of solutions is a set: order is ignored (the upstream grader compares strings)",
    ),
    "87a1b80c844a29a9": ContractNote(
        "math_equivalence_test.py:50 test_decimals",
        "'0.1, 4, 2' vs '4, .1, 2', labelled different",
        True,
        "a list of solutions is a set: order is ignored",
    ),
    # ------------------------------------------------------------------ MARIO_EVAL is_equiv tests
    "b5ead0e12aef24a6": ContractNote("test_is_equiv.py:38", "x + \\sqrt2 I vs x + 1.414 I", False, _APPROX),
    "3066c42fc0512b5e": ContractNote(
        "test_is_equiv.py:73",
        "10\\% vs 0.1",
        False,
        "the contract: with a percent gold the bare number is accepted, the decimal fraction is not",
    ),
    "c5245e237cce61ef": ContractNote(
        "test_is_equiv.py:77", "1/3, \\sqrt3, \\pi vs 1/3, 1.732, 3.1416", False, _APPROX
    ),
    "fa553af1df4d11d7": ContractNote("test_is_equiv.py:81", "40\\pi vs 125.663", False, _APPROX),
    "e8fed15d3333c58d": ContractNote(
        "test_is_equiv.py:252",
        "2.314814814815e-3 vs 1/432",
        False,
        _APPROX + " (a rounded repeating decimal)",
    ),
    "aec2078bdbed1aa9": ContractNote("test_is_equiv.py:234", "a-b=\\sqrt3 vs a-b=1.732", False, _APPROX),
    "376cc7f5df4845d5": ContractNote(
        "test_is_equiv.py:263",
        "[1, +\\infty) vs [2^{1/2^{1000}}, \\infty)",
        False,
        "2^(1/2^1000) is not 1: numbers differing in the last digit differ",
    ),
    "e0764019ff467bbf": ContractNote(
        "test_is_equiv.py:150",
        "10cm vs 10, labelled different",
        True,
        "the contract ignores units (`cm`), with or without a space",
    ),
    "b885ce8806d9a513": ContractNote(
        "test_is_equiv.py:151",
        "10m vs 10, labelled different",
        True,
        "the contract ignores units, with or without a space",
    ),
    "6415a47702997030": ContractNote("test_is_equiv.py:129", "\\sqrt3/2 vs 0.8660254037844386", None, _LONG),
    "a3557ac1fc8f786d": ContractNote(
        "test_is_equiv.py:230",
        "column matrix (1/2, 1) vs [0.5, 1]",
        None,
        "`[0.5, 1]` is a list or a closed interval, not a matrix environment",
    ),
}


def contract_label(expected: bool, gold: str, response: str) -> tuple[bool, ContractNote | None]:
    """The label under the contract (the upstream one unless the table says otherwise) and the note."""
    note = NOTES.get(case_key(gold, response))
    if note is None or note.contract_label is None:
        return expected, note
    return note.contract_label, note
