"""The source tree's seams: no import cycle between modules of ``src/`` and no private name used across modules.

Imports are read with ``ast`` from every module, function-level and ``TYPE_CHECKING`` imports included: a cycle
held apart by a late import is still a cycle. A private name is one starting with ``_``; a module may use
its own package's private *modules* (``from verifiers.rewards._score import Score``) but never another
module's private *names* (``from x import _helper``, ``x._helper``).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules() -> dict[str, Path]:
    out = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> list[tuple[str, str | None, int]]:
    """(imported module, imported name or None, line) for every import in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: list[tuple[str, str | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            for a in node.names:
                sub = f"{target}.{a.name}"
                found.append((sub, None, node.lineno) if sub in MODULES else (target, a.name, node.lineno))
    return found


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for m in MODULES:
        for target, _, _ in _imports(m):
            # `import a.b.c` runs a/__init__ and a/b/__init__ too, but those edges are the packages' own
            # re-exports; the edge that can close a cycle is the one to the module named.
            if target in MODULES and target != m:
                graph[m].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles_between_modules() -> None:
    cycles = _cycles(_graph())
    assert not cycles, "import cycles in src/ (late imports count):\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_cycles() -> None:
    # the checker itself: a two-module cycle and a three-module one are found, a chain is not
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert sorted(_cycles(graph)) == [["a", "b"], ["c", "d", "e"]]


def _private_uses(module: str) -> list[str]:
    """Private names this module takes from other modules of src/."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}  # local name -> module of src/ it is bound to
    bad = []
    for target, name, line in _imports(module):
        if name is not None and name.startswith("_") and target in MODULES and target != module:
            bad.append(f"{module}:{line} imports {name} from {target}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in MODULES:
                    aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            for a in node.names:
                if f"{target}.{a.name}" in MODULES:
                    aliases[a.asname or a.name] = f"{target}.{a.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            dotted = ast.unparse(node.value)
            owner = aliases.get(dotted, dotted if dotted in MODULES else None)
            if owner is not None and owner != module:
                bad.append(f"{module}:{node.lineno} uses {owner}.{node.attr}")
    return bad


def test_no_private_names_across_modules() -> None:
    bad = [b for m in sorted(MODULES) for b in _private_uses(m)]
    assert not bad, "private names used across modules:\n" + "\n".join(bad)


# The core's stages, in order: a stage may import the ones before it, never a later one.
STAGES = ("verifiers.answers", "verifiers.equivalence", "verifiers.rewards")


def _stage(module: str) -> int | None:
    return next((i for i, s in enumerate(STAGES) if module == s or module.startswith(s + ".")), None)


def test_core_stages_import_only_earlier_stages() -> None:
    bad = []
    for m in sorted(MODULES):
        mine = _stage(m)
        if mine is None:
            continue
        for target, _, line in _imports(m):
            theirs = _stage(target)
            if theirs is not None and theirs > mine:
                bad.append(f"{m}:{line} imports {target} (a later stage)")
    assert not bad, "core stages import later ones:\n" + "\n".join(bad)


def test_every_core_stage_exists() -> None:
    # a renamed stage must not silently turn the check above into one that cannot fail
    assert all(any(_stage(m) == i for m in MODULES) for i in range(len(STAGES)))
