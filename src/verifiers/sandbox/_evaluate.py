"""Evaluation in the trusted parent: a `TestPlan`'s tree over the program's decoded leaf values, within the
program's judge work budget (`judge`).

Comparisons, ``and``/``or``/``not``, arithmetic, displays, subscripts, the functions of `_pure.FUNCS` and the
pure methods of `_pure.METHODS` run here on plain data; a leaf's value is the program's answer, a
`Wrapped` one (a program object) stands only for the judge call made around it on the program's side. Any
exception is a failed test, never a pass. The work one program may cost is bounded across all its tests
(`_pure.MAX_JUDGE_STEPS`); planning (what is a leaf, what runs here) is `_judge`'s.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from verifiers.sandbox._judge import replan
from verifiers.sandbox._leaves import JudgeBudget, LeafError, Node, TestPlan, Wrapped, bind, fresh
from verifiers.sandbox._protocol import MAX_SAME_HASH, check_hash_flood
from verifiers.sandbox._pure import BINOPS, CMPOPS, FUNCS, MAX_JUDGE_STEPS, Unsafe, call_method


def _unary(kind: str, v: Any) -> Any:
    if kind == "not":
        return not v
    if type(v) not in (int, float, complex, bool):
        raise TypeError(f"bad operand type for unary op: {type(v).__name__}")
    return -v if kind == "neg" else (+v if kind == "pos" else ~v)


class _OverBudget(Unsafe):
    """The program's judge work budget is spent."""


_SMALL = frozenset({type(None), bool, float, complex})
_FLAT = (list, tuple, set, frozenset)


class _Evaluator:
    """Evaluates one plan tree over decoded leaf values, charging its work to the program's budget: one
    step per node evaluated and per loop item; inside loops over program values (where the same nodes run
    once per item), also the size of every operand of a comparison, operator or call, and anywhere the size
    of what test code (a set-up function, a ``key=`` lambda) is handed."""

    def __init__(self, values: dict[int, Any], errors: dict[int, str], budget: JudgeBudget) -> None:
        self.values = values
        self.errors = errors
        self.budget = budget

    def leaf(self, k: int) -> Any:
        if k in self.values:
            if type(self.values[k]) is Wrapped:
                raise LeafError("returned a value that is not plain data")
            return self.values[k]
        raise LeafError(self.errors.get(k, "not run"))

    def ev(self, tree: Node, env: dict[str, Any]) -> Any:
        budget = self.budget
        budget.left -= 1
        if budget.left < 0:
            raise _OverBudget
        kind = tree[0]
        if kind == "lit":
            return tree[1]
        if kind == "leaf":
            return self.leaf(tree[1])
        if kind == "var":
            return env[tree[1]]
        if kind == "cmp":
            left = self.ev(tree[1], env)
            for op, node in tree[2]:
                right = self.ev(node, env)
                if env:
                    self.charge(left, right)
                if not CMPOPS[op](left, right):
                    return False
                left = right
            return True
        if kind in ("and", "or"):
            result: Any = kind == "and"
            for node in tree[1]:
                result = self.ev(node, env)
                if bool(result) != (kind == "and"):
                    return result
            return result
        if kind in ("not", "neg", "pos", "inv"):
            return _unary(kind, self.ev(tree[1], env))
        if kind == "bin":
            a, b = self.ev(tree[2], env), self.ev(tree[3], env)
            if env:
                self.charge(a, b)
            return BINOPS[tree[1]](a, b)
        if kind == "if":
            return self.ev(tree[2] if self.ev(tree[1], env) else tree[3], env)
        if kind in ("tuple", "list", "set"):
            items: list[Any] = []
            for x in tree[1]:
                if x[0] == "star":
                    items.extend(self.bounded(self.ev(x[1], env)))
                else:
                    items.append(self.ev(x, env))
            if kind == "set" and len(items) > MAX_SAME_HASH:
                check_hash_flood(items)
            return {"tuple": tuple, "list": list, "set": set}[kind](items)
        if kind == "dict":
            pairs: list[tuple[Any, Any]] = []
            for x in tree[1]:
                if x[0] == "dstar":
                    pairs.extend(self.bounded(dict(self.ev(x[1], env)).items()))
                else:
                    pairs.append((self.ev(x[0], env), self.ev(x[1], env)))
            if len(pairs) > MAX_SAME_HASH:
                check_hash_flood([k for k, _ in pairs])
            return dict(pairs)
        if kind in ("call", "pcall"):
            for node in (*tree[2], *(v for _, v in tree[3])):
                if node[0] == "leaf" and type(self.values.get(node[1])) is Wrapped:
                    return self.values[node[1]].value  # the program's object: the call was made on its side
            args = [self.ev(a, env) for a in tree[2]]
            kwargs = {k: self.ev(v, env) for k, v in tree[3]}
            if env or kind == "pcall" or any(callable(a) for a in (*args, *kwargs.values())):
                self.charge(*args, *kwargs.values())  # in a loop, or test code runs per item (a key=, a checker)
            if kind == "pcall":
                return self.stepped(tree[1], args, kwargs)
            return FUNCS[tree[1]](*args, **kwargs)
        if kind == "meth":
            receiver = self.ev(tree[1], env)
            args = [self.ev(a, env) for a in tree[3]]
            kwargs = {k: self.ev(v, env) for k, v in tree[4]}
            if env:
                self.charge(receiver, *args, *kwargs.values())
            return call_method(receiver, tree[2], args, kwargs)
        if kind == "sub":
            container, key = self.ev(tree[1], env), self.ev(tree[2], env)
            if env and type(key) is slice:
                self.charge(container)
            return container[key]
        if kind == "slice":
            return slice(*(self.ev(p, env) for p in tree[1:]))
        if kind == "comp":
            if tree[3] is not None and type(self.values.get(tree[3])) is Wrapped:
                done = self.values[tree[3]].value  # evaluated on the program's objects, on its side
                return iter(done) if tree[1] == "gen" else done
            gen = self.run(tree[2], env)
            if tree[1] == "gen":
                return gen
            if tree[1] == "list":
                return list(gen)
            items = list(gen)
            if len(items) > MAX_SAME_HASH:
                check_hash_flood([p[0] for p in items] if tree[1] == "dict" else items)
            return set(items) if tree[1] == "set" else dict(items)
        if kind == "fresh":
            return fresh(tree)
        if kind == "err":
            raise LeafError(tree[1])
        raise Unsafe(f"unknown plan node {kind!r}")

    def stepped(self, fn: Any, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """``fn(*args, **kwargs)`` for a set-up function (its loops run on program values), charging one
        step per line and per call it runs (`sys.settrace`, on this thread, for this call only)."""
        budget = self.budget

        def on_line(frame: Any, event: str, arg: Any) -> Any:
            if event == "line":
                budget.left -= 1
                if budget.left < 0:
                    raise _OverBudget
            return on_line

        def on_call(frame: Any, event: str, arg: Any) -> Any:
            budget.left -= 1
            if budget.left < 0:
                raise _OverBudget
            return on_line

        before = sys.gettrace()
        sys.settrace(on_call)
        try:
            out = fn(*args, **kwargs)
        finally:
            sys.settrace(before)
        if budget.left < 0:  # the function caught the budget error and went on
            raise _OverBudget
        return out

    def bounded(self, xs: Any) -> Iterator[Any]:
        budget = self.budget
        for x in xs:
            budget.left -= 1
            if budget.left < 0:
                raise _OverBudget
            yield x

    def charge(self, *vals: Any) -> None:
        """Charge the sizes of an operation's operands (it may touch all of them, once per loop item)."""
        budget = self.budget
        for v in vals:
            budget.left -= self.size(v)
        if budget.left < 0:
            raise _OverBudget

    def size(self, v: Any) -> int:
        """Nodes of ``v`` (strings and integers by length; a small scalar costs nothing beyond the node that
        produced it), measured once per value and at most up to what the budget has left."""
        t = type(v)
        if t in _SMALL:
            return 0
        if t is int:
            return v.bit_length() >> 12
        if t is str or t is bytes:
            return len(v) >> 6
        known = self.budget.sizes.get(id(v))
        if known is not None and known[0] is v:
            return known[1]
        cap = max(self.budget.left, 0) + 1
        n = 0
        stack = [v]
        while stack and n <= cap:
            x = stack.pop()
            n += 1
            tx = type(x)
            if tx in _FLAT or tx is dict:
                if len(x) > cap:
                    n += len(x)
                    break
                stack.extend(x)
                if tx is dict:
                    stack.extend(x.values())
            elif tx is str or tx is bytes:
                n += len(x) >> 6
        self.budget.sizes[id(v)] = (v, n)
        return n

    def run(self, clause: Node, env: dict[str, Any]) -> Iterator[Any]:
        """The items one comprehension clause yields (lazily: a generator expression stays lazy)."""
        tag = clause[0]
        if tag == "elt":
            yield self.ev(clause[1], env)
        elif tag == "elt2":
            yield (self.ev(clause[1], env), self.ev(clause[2], env))
        elif tag == "for_lit":
            for sub in clause[1]:
                yield from self.run(sub, env)
        elif tag == "for_var":
            for item in self.bounded(self.ev(clause[2], env)):
                inner = dict(env)
                inner[""] = True  # never empty (even for `for () in ...`): operand sizes are charged in loops
                bind(clause[1], item, inner)
                yield from self.run(clause[3], inner)
        elif tag == "if":
            if self.ev(clause[1], env):
                yield from self.run(clause[2], env)
        elif tag == "raise":
            raise LeafError(clause[1])


def judge(plan: TestPlan, values: dict[int, Any], errors: dict[int, str]) -> tuple[bool, str]:
    """Decide one test in the parent: ``(passed, detail)``; any exception is a failed test, never a pass.

    The work is charged to the program's budget (``plan.budget``, shared by its tests): once spent, this and
    every later test of the program fail. A cached private plan is never evaluated: this judgement plans
    its own copy.
    """
    budget = plan.budget if plan.budget is not None else JudgeBudget()
    if plan.private and not plan.owned:  # only a plan with a tree is private
        plan = replan(plan)
    if plan.tree is None:
        return False, plan.error or "unsupported test"
    if budget.spent_by is not None:
        return False, (f"not judged: the program's judge work budget ({MAX_JUDGE_STEPS} steps for all its tests) "
                       "was spent by an earlier test")
    try:
        ok = bool(_Evaluator(values, errors, budget).ev(plan.tree, {}))
    except _OverBudget:
        budget.spent_by = plan.source
        return False, (f"judge work budget exceeded: more than {MAX_JUDGE_STEPS} steps for all the program's tests "
                       "(loops over its values)")
    except LeafError as exc:
        return False, str(exc)[:300]
    except RecursionError:
        return False, "value too deeply nested to compare"
    except Exception as exc:  # noqa: BLE001  (any failure to compare is a failed test, never a pass)
        return False, f"{type(exc).__name__}: {exc}"[:300]
    if ok:
        return True, ""
    got = [repr(_unwrapped(values[leaf.index]))[:120] for leaf in plan.leaves if leaf.index in values][:2]
    return False, "assertion failed" + (f" (got {', '.join(got)})" if got else "")


def _unwrapped(v: Any) -> Any:
    return v.value if type(v) is Wrapped else v

