"""The judge's wire and leaf data types, shared by planning (`_judge`), evaluation (`_evaluate`) and the child
protocol (`_result`, `_local`): a test's `TestPlan` (the parent-side tree over program-side `Leaf` s), the
program's `JudgeBudget`, what a leaf's value may come back as (`Wrapped`, `LeafError`), and the two helpers
both sides of a comprehension use (`bind`, `fresh`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from verifiers.sandbox._pure import MAX_JUDGE_STEPS

Node = tuple[Any, ...]
Roles = tuple[frozenset[str], frozenset[str]]  # (program objects, names of unsettled kind): see `name_roles`


@dataclass(frozen=True)
class Leaf:
    """A program-side sub-expression: ``name(*args, **kw)`` (``name`` set) or ``source`` evaluated with
    ``__leafargs__`` bound to ``values`` (closed inputs, tagged-encoded); ``truth``: report only its truth.

    ``wrap``: a judge call around it with the leaf as ``__leafvalue__`` and nothing else: a one-argument
    judge builtin (``str(__leafvalue__)``) or a projection of its items (``[str(p) for p in
    __leafvalue__]``). When the leaf's value is not plain data (a program object), the child evaluates that
    instead, on the same value, and its result stands for the whole call. It carries no test value, so it
    is a function of the program's own value alone: the program's answer, which it could give directly.
    """

    index: int
    source: str
    truth: bool
    name: str | None
    values: tuple[Any, ...]
    wrap: str | None = None

    def wire(self) -> list[Any]:
        """The leaf as the child reads it (the last item, the wrap's inputs, is always empty)."""
        return [self.index, self.truth, self.name, self.source, list(self.values), self.wrap, []]


class JudgeBudget:
    """The judge work one program may cost, shared by all its tests (`_pure.MAX_JUDGE_STEPS`).

    ``sizes`` remembers the size of values already measured (keyed by id; the value is kept alive with it).
    """

    __slots__ = ("left", "sizes", "spent_by")

    def __init__(self, steps: int = MAX_JUDGE_STEPS) -> None:
        self.left = steps
        self.spent_by: str | None = None  # the test that used the budget up
        self.sizes: dict[int, tuple[Any, int]] = {}


@dataclass(frozen=True)
class TestPlan:
    """One parsed test: the parent-side tree over leaves, or why the test cannot be judged.

    ``private``: its evaluation may run test code that keeps state, or reads values that are not plain
    data: each program judges its own copy, planned afresh (``key`` says how), never the cached one.
    ``budget``: the work budget of the program it belongs to (`plan_tests`); None for a bare plan.
    """

    source: str
    tree: Node | None
    leaves: tuple[Leaf, ...]
    error: str | None = None
    entry_candidate: str | None = None  # builtin name at the root of the left side of a program-free test
    private: bool = False
    key: tuple[Any, ...] = ()  # plan_test's arguments
    owned: bool = field(default=False, compare=False)  # planned for one program only
    budget: JudgeBudget | None = field(default=None, compare=False, repr=False)

    def for_program(self, budget: JudgeBudget) -> TestPlan:
        """This plan as one program's (``owned``, charging ``budget``); the tree and leaves are shared.

        A shallow copy (``dataclasses.replace`` costs ~10x more; this runs for every test of every program).
        """
        plan = object.__new__(TestPlan)
        plan.__dict__.update(self.__dict__, owned=True, budget=budget)
        return plan


class LeafError(Exception):
    """A leaf raised in the sandbox, or its value was missing or not plain data."""


@dataclass(frozen=True)
class Wrapped:
    """A leaf's `Leaf.wrap` result: the value of the judge call around it, computed program-side."""

    value: Any


def bind(p: Any, value: Any, out: dict[str, Any]) -> None:
    """Bind ``value`` to pattern ``p`` as Python's assignment would (TypeError/ValueError as it would)."""
    if isinstance(p, str):
        out[p] = value
        return
    _, subs, star = p
    items = list(value) if not isinstance(value, (list, tuple)) else value
    if star < 0:
        if len(items) != len(subs):
            raise ValueError(f"cannot unpack {len(items)} values into {len(subs)} names")
        for s, v in zip(subs, items):
            bind(s, v, out)
        return
    after = len(subs) - star - 1
    if len(items) < len(subs) - 1:
        raise ValueError(f"not enough values to unpack (expected at least {len(subs) - 1}, got {len(items)})")
    for s, v in zip(subs[:star], items[:star]):
        bind(s, v, out)
    bind(subs[star], list(items[star:len(items) - after]), out)
    for s, v in zip(subs[star + 1:], items[len(items) - after:]):
        bind(s, v, out)


def fresh(node: Node) -> Any:
    """The value of a ``lit`` or ``fresh`` node (a ``fresh`` one evaluated anew)."""
    return eval(node[1], node[2]) if node[0] == "fresh" else node[1]


@dataclass(frozen=True)
class LeafResults:
    """What a program's child returned for its leaves, decoded (`_result`): ``values`` and ``errors`` by leaf
    index; ``failure``: why leaves were not run (the program failed before its tests, or broke the protocol)."""

    values: dict[int, Any]
    errors: dict[int, str]
    failure: str | None = None
