"""MBPP scorer: extract the solution code from a response, run it against the tests in the sandbox.

Example:
    >>> from verifiers import mbpp
    >>> s = mbpp.score("```python\\ndef add(a, b):\\n    return a + b\\n```", ["assert add(1, 2) == 3"])
    >>> s.status, s.reward                                                         # doctest: +SKIP
    ('correct', 1.0)

Extraction (``Config.sources``, tried in order): ``tags`` (the last ``<SOLUTION>...</SOLUTION>`` block;
a fenced block inside it wins over its raw text), ``fenced`` (the last fenced ``python``/``py`` block,
or an untagged fence if there is none; ``fence="all"`` joins every block), ``plain`` (the whole response,
if it parses as Python and holds at least one statement such as a ``def``, an import or an assignment). Code inside the thinking block is ignored unless nothing else is found.

Statuses: ``correct`` (all tests passed), ``incorrect`` (a test failed, or the program had a syntax error,
raised, crashed or hit the memory limit), ``timeout``, ``no_answer`` (no code found), ``gold_unparseable``
(no tests given), ``error`` (the sandbox itself failed). The explanation names the sandbox status.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

from verifiers._rewards import Tags, block, combine, has_block
from verifiers._score import Score, Status
from verifiers.errors import ConfigError, SandboxError
from verifiers.sandbox._judge import parse_python

if TYPE_CHECKING:
    from concurrent.futures import Future

    from verifiers.sandbox import CodePool, ExecutionResult

__all__ = ["PRESETS", "Config", "extract_code", "score", "score_batch"]

PRESETS: Mapping[str, Mapping[str, float]] = MappingProxyType({
    "accuracy": MappingProxyType({"all_passed": 1.0}),
    "grail": MappingProxyType({"correctness": 0.7, "syntax": 0.1, "format": 0.1, "thinking": 0.1}),
})
PARTS = ("all_passed", "correctness", "syntax", "format", "thinking")
SOURCES = ("tags", "fenced", "plain")
DEFAULT_MAX_CHARS = 100_000
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_PY_LANGS = {"python", "py", "python3", "py3"}
_STATUS_MAP: dict[str, Status] = {
    "passed": "correct", "failed": "incorrect", "syntax_error": "incorrect", "runtime_error": "incorrect",
    "memory": "incorrect", "crashed": "incorrect", "timeout": "timeout", "no_tests": "gold_unparseable",
}


@dataclass(frozen=True)
class Config:
    """How MBPP solutions are extracted, run and rewarded (frozen, hashable).

    Attributes:
        preset: ``"accuracy"`` (default: reward 1 iff every test passed) or ``"grail"`` (0.7 test pass
            rate + 0.1 compiles + 0.1 solution tags present + 0.1 thinking block present).
        weights: explicit ``{part: weight}`` over `PARTS`, overriding the preset.
        sources: extraction strategies in priority order, a subset of ``("tags", "fenced", "plain")``.
        fence: ``"last"`` python block (default) or ``"all"`` blocks joined.
        tags: thinking/solution tags (default ``<start_working_out>``/``<SOLUTION>``).
        timeout: seconds for the program and all its tests.
        max_chars: responses longer than this are cut to their last ``max_chars`` characters.
    """

    preset: str = "accuracy"
    weights: Mapping[str, float] | tuple[tuple[str, float], ...] | None = None
    sources: tuple[str, ...] = SOURCES
    fence: Literal["last", "all"] = "last"
    tags: Tags = field(default_factory=Tags)
    timeout: float = 5.0
    max_chars: int = DEFAULT_MAX_CHARS

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ConfigError(f"unknown preset {self.preset!r}; choose one of {', '.join(PRESETS)}")
        object.__setattr__(self, "sources", tuple(self.sources))
        bad = [s for s in self.sources if s not in SOURCES]
        if bad or not self.sources:
            raise ConfigError(f"sources must be a non-empty subset of {SOURCES}, got {self.sources!r}")
        if self.fence not in ("last", "all"):
            raise ConfigError(f"fence must be 'last' or 'all', got {self.fence!r}")
        if not 0 < float(self.timeout) <= 600:
            raise ConfigError(f"timeout must be in (0, 600] seconds, got {self.timeout!r}")
        if int(self.max_chars) < 16:
            raise ConfigError(f"max_chars must be at least 16, got {self.max_chars!r}")
        if self.weights is None:
            resolved = tuple(PRESETS[self.preset].items())
        else:
            items = self.weights.items() if isinstance(self.weights, Mapping) else self.weights
            resolved = tuple((str(k), float(v)) for k, v in items)
            unknown = [k for k, _ in resolved if k not in PARTS]
            if unknown:
                raise ConfigError(f"unknown reward part(s) {unknown}; known parts: {', '.join(PARTS)}")
            object.__setattr__(self, "weights", resolved)
        object.__setattr__(self, "_weights", resolved)


_DEFAULT = Config()


def _fenced(text: str, mode: str) -> str | None:
    blocks = [(lang.lower(), body) for lang, body in _FENCE.findall(text)]
    chosen = [b for lang, b in blocks if lang in _PY_LANGS] or [b for lang, b in blocks if not lang]
    chosen = [b.strip("\n") for b in chosen if b.strip()]
    if not chosen:
        return None
    return "\n\n".join(chosen) if mode == "all" else chosen[-1]


_STATEMENTS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Assign,
               ast.AugAssign, ast.AnnAssign, ast.For, ast.While, ast.If, ast.With, ast.Try)


def _looks_like_code(text: str) -> bool:
    """Parses as Python and defines or does something (a lone word like ``nothing`` also parses)."""
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False
    return any(isinstance(n, _STATEMENTS) for n in tree.body)


def extract_code(response: str, config: Config | None = None) -> tuple[str | None, str]:
    """Find the solution code in ``response``: ``(code or None, which source matched)``.

    Example:
        >>> extract_code("<SOLUTION>def f(): return 1</SOLUTION>")
        ('def f(): return 1', 'tags')
    """
    cfg = config or _DEFAULT
    text = response[-cfg.max_chars:]
    t = cfg.tags
    think = block(text, t.thinking_start, t.thinking_end)
    visible = text[think[1] + len(t.thinking_end):] if think else text
    for source in cfg.sources:
        if source == "tags":
            span = block(visible, t.answer_start, t.answer_end)
            if span:
                inner = visible[span[0]:span[1]]
                tagged = _fenced(inner, cfg.fence) or inner
                if tagged.strip():
                    return tagged.strip("\n"), "tags"
        elif source == "fenced":
            fenced = _fenced(visible, cfg.fence)
            if fenced:
                return fenced.strip("\n"), "fenced"
        elif source == "plain":
            stripped = visible.strip()
            if stripped and _looks_like_code(stripped):
                return stripped, "plain"
    if think and "fenced" in cfg.sources:  # last resort: code written only inside the thinking block
        fenced = _fenced(text, cfg.fence)
        if fenced:
            return fenced.strip("\n"), "fenced"
    return None, ""


def _parts(response: str, code: str | None, result: ExecutionResult | None, cfg: Config) -> dict[str, float]:
    t = cfg.tags
    thinking = has_block(response, t.thinking_start, t.thinking_end) or has_block(response, "<think>", "</think>")
    return {
        "all_passed": 1.0 if result is not None and result.passed else 0.0,
        "correctness": result.pass_rate if result is not None else 0.0,
        "syntax": 1.0 if code is not None and result is not None and result.status != "syntax_error" else 0.0,
        "format": 1.0 if has_block(response, t.answer_start, t.answer_end) else 0.0,
        "thinking": 1.0 if thinking else 0.0,
    }


def _to_score(response: str, code: str | None, source: str, result: ExecutionResult | None,
              cfg: Config, error: str = "") -> Score:
    weights = dict(cfg._weights)  # type: ignore[attr-defined]
    parts = _parts(response, code, result, cfg)
    reward = combine(parts, weights)
    if code is None:
        return Score(reward, False, "no_answer", None, parts,
                     f"no code found (looked for: {', '.join(cfg.sources)})")
    if result is None:
        return Score(reward, False, "error", code, parts, f"sandbox error: {error}")
    status = _STATUS_MAP[result.status]
    why = f"sandbox {result.status}: {result.tests_passed}/{result.tests_total} tests passed (code from {source})"
    if result.detail:
        why += f"; {result.detail}"
    return Score(reward, result.passed, status, code, parts, why[:500])


def score(response: str, tests: Sequence[str], *, setup_code: str = "", config: Config | None = None,
          pool: CodePool | None = None) -> Score:
    """Score one response against MBPP assert ``tests``; never raises for model output.

    Args:
        response: the model output.
        tests: MBPP ``test_list`` assert statements (the reference).
        setup_code: MBPP ``test_setup_code`` (run after the solution, before the tests).
        config: extraction/reward settings (default `Config()`).
        pool: a `verifiers.sandbox.CodePool`; default: the shared lazily started pool.

    Raises:
        SandboxError: only if the sandbox cannot start at all (bubblewrap missing).
    """
    return score_batch([response], [tests], [setup_code], config=config, pool=pool)[0]


def score_batch(responses: Sequence[str], tests: Sequence[Sequence[str]], setup_codes: Sequence[str] | None = None,
                *, config: Config | None = None, pool: CodePool | None = None) -> list[Score]:
    """Score many responses in parallel over the pool; results in input order."""
    from verifiers.sandbox import default_pool

    cfg = config or _DEFAULT
    if len(tests) != len(responses) or (setup_codes is not None and len(setup_codes) != len(responses)):
        raise ConfigError("responses, tests and setup_codes must have the same length")
    setups = list(setup_codes) if setup_codes is not None else [""] * len(responses)
    found = [extract_code(str(r), cfg) for r in responses]
    runner = None
    futures: list[Future[ExecutionResult] | SandboxError | None] = []
    for (code, _), t, s in zip(found, tests, setups):
        if code is None:
            futures.append(None)
            continue
        runner = runner or pool or default_pool()
        try:
            futures.append(runner.submit(code, list(t), s or "", cfg.timeout))
        except SandboxError as exc:  # the pool broke mid-run: an error verdict, not a crash
            futures.append(exc)
    out = []
    for resp, (code, source), fut in zip(responses, found, futures):
        if fut is None:
            out.append(_to_score(str(resp), None, source, None, cfg))
            continue
        try:
            if isinstance(fut, SandboxError):
                raise fut
            out.append(_to_score(str(resp), code, source, fut.result(), cfg))
        except SandboxError as exc:
            out.append(_to_score(str(resp), code, source, None, cfg, str(exc)))
    return out
