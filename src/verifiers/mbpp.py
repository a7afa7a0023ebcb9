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
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from verifiers._problem import CodeTests
from verifiers.answers._tags import block, has_block
from verifiers.errors import ConfigError, SandboxError
from verifiers.humaneval import program
from verifiers.rewards._config import BaseConfig, combine
from verifiers.rewards._inputs import batch_items, response_text, scorer_config
from verifiers.rewards._score import PROGRAM_STATUS, Score
from verifiers.sandbox._setup import parse_python

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
_FENCE_LANG = re.compile(r"[ \t]*([A-Za-z0-9_+-]*)")
_PY_LANGS = {"python", "py", "python3", "py3"}


@dataclass(frozen=True)
class Config(BaseConfig):
    """How MBPP solutions are extracted, run and rewarded (frozen, hashable).

    Attributes:
        preset: ``"accuracy"`` (default: reward 1 iff every test passed) or ``"grail"`` (0.7 test pass
            rate + 0.1 compiles + 0.1 solution tags present + 0.1 thinking block present).
        weights: explicit ``{part: weight}`` over `PARTS`, overriding the preset.
        sources: extraction strategies in priority order, a subset of ``("tags", "fenced", "plain")``.
        fence: ``"last"`` python block (default) or ``"all"`` blocks joined.
        tags: thinking/solution tags (default ``<start_working_out>``/``<SOLUTION>``).
        timeout: CPU seconds for the program and all its tests (all its processes); wall time is only a
            backstop, several times longer (`verifiers.sandbox`), so a busy host does not fail a correct
            program. 10 s: MBPP's slowest reference (task 123) took 3-5.7 s of CPU on a loaded 2-core VM.
        max_chars: responses longer than this are cut to their last ``max_chars`` characters.
    """

    presets: ClassVar[Mapping[str, Mapping[str, float]]] = PRESETS
    parts: ClassVar[tuple[str, ...]] = PARTS

    timeout: float = 10.0
    sources: tuple[str, ...] = SOURCES
    fence: Literal["last", "all"] = "last"

    def __post_init__(self) -> None:
        object.__setattr__(self, "sources", tuple(self.sources))
        bad = [s for s in self.sources if s not in SOURCES]
        if bad or not self.sources:
            raise ConfigError(f"sources must be a non-empty subset of {SOURCES}, got {self.sources!r}")
        if self.fence not in ("last", "all"):
            raise ConfigError(f"fence must be 'last' or 'all', got {self.fence!r}")
        super().__post_init__()


_DEFAULT = Config()


def _fence_blocks(text: str) -> list[tuple[str, str]]:
    """``(language, body)`` of each ```` ``` ```` block: the language is the word after the opening fence, the
    rest of that line is ignored, and the body runs to the next fence (or the end: an unclosed last block).

    One forward pass (a regex that retries at every fence of a long line without a newline is quadratic).
    """
    blocks, i = [], 0
    while (start := text.find("```", i)) >= 0:
        newline = text.find("\n", start + 3)
        if newline < 0:  # no line break after this fence, nor after any later one: nothing opens
            break
        lang = _FENCE_LANG.match(text, start + 3, newline).group(1)  # type: ignore[union-attr]  # always matches
        end = text.find("```", newline + 1)
        blocks.append((lang.lower(), text[newline + 1:end if end >= 0 else len(text)]))
        if end < 0:
            break
        i = end + 3
    return blocks


def _fenced(text: str, mode: str) -> str | None:
    blocks = _fence_blocks(text)
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


def _function_code(response: str, tests: CodeTests, cfg: Config) -> tuple[str | None, str]:
    """`extract_code`, or for a function-completion task (HumanEval) a bare continuation of its prompt:
    a response (after the thinking block) whose first line is indented, as completion models emit."""
    code, source = extract_code(response, cfg)
    if code is not None:
        return code, source
    text = response[-cfg.max_chars:]
    think = block(text, cfg.tags.thinking_start, cfg.tags.thinking_end)
    visible = text[think[1] + len(cfg.tags.thinking_end):] if think else text
    first = next((ln for ln in visible.splitlines() if ln.strip()), "")
    return (visible.strip("\n"), "completion") if first[:1].isspace() else (None, "")


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
    weights = dict(cfg.resolved_weights)
    parts = _parts(response, code, result, cfg)
    reward = combine(parts, weights)
    if code is None:
        return Score(reward, False, "no_answer", None, parts,
                     f"no code found (looked for: {', '.join(cfg.sources)})")
    if result is None:
        return Score(reward, False, "error", code, parts, f"sandbox error: {error}")
    status = PROGRAM_STATUS[result.status]
    why = f"sandbox {result.status}: {result.tests_passed}/{result.tests_total} tests passed (code from {source})"
    if result.detail:
        why += f"; {result.detail}"
    return Score(reward, result.passed, status, code, parts, why[:500])


def score(response: str, tests: Sequence[str] | CodeTests, *, setup_code: str = "",
          config: Config | Mapping[str, Any] | None = None,
          pool: CodePool | None = None) -> Score:
    """Score one response against MBPP assert ``tests``; never raises for model output.

    Args:
        response: the model output.
        tests: MBPP ``test_list`` assert statements (the reference), or a `CodeTests` carrying its set-up code.
        setup_code: MBPP ``test_setup_code`` (run after the solution, before the tests).
        config: extraction/reward settings, or a mapping of its fields (default `Config()`).
        pool: a `verifiers.sandbox.CodePool`; default: the shared lazily started pool.

    Raises:
        TypeError: ``response`` is not a ``str``, or ``tests`` is not a list of assert strings (a bare string).
        ConfigError: ``config`` is not a ``Config`` or a mapping of valid fields.
        SandboxError: only if the sandbox cannot start at all (bubblewrap missing).
    """
    return score_batch([response], [tests], [setup_code], config=config, pool=pool)[0]


def score_batch(responses: Sequence[str], tests: Sequence[Sequence[str] | CodeTests],
                setup_codes: Sequence[str] | None = None, *, workers: int | None = None,
                config: Config | Mapping[str, Any] | None = None,
                pool: CodePool | None = None) -> list[Score]:
    """Score many responses in parallel over the pool; results in input order.

    ``workers`` is accepted for the common scorer signature; the pool's size sets the parallelism. A
    `CodeTests` item's set-up code is used where ``setup_codes`` gives none. Any iterable (a generator
    included) is read once.

    Raises:
        TypeError: as for `score`, for any item; ``None`` or a bare string where a sequence is expected.
        ConfigError: the lengths differ, or a bad ``config``.
    """
    from verifiers.sandbox import default_pool

    cfg = scorer_config(config, Config, _DEFAULT)
    # checked before any job is queued: a bad item fails the whole call, not half of it
    responses = [response_text(r) for r in batch_items(responses, "responses")]
    tests = batch_items(tests, "tests")
    setup_codes = None if setup_codes is None else batch_items(setup_codes, "setup_codes")
    if len(tests) != len(responses) or (setup_codes is not None and len(setup_codes) != len(responses)):
        raise ConfigError("responses, tests and setup_codes must have the same length")
    setups = [s or "" for s in setup_codes] if setup_codes is not None else [""] * len(responses)
    setups = [s or (t.setup_code if isinstance(t, CodeTests) else "") for s, t in zip(setups, tests)]
    test_lists = [t.tests if isinstance(t, CodeTests) else batch_items(t, "each item of tests") for t in tests]
    if any(not isinstance(x, str) for t in test_lists for x in t):
        raise TypeError("tests must hold one list of assert strings per response")
    if any(not isinstance(s, str) for s in setups):
        raise TypeError("setup_codes must be strings (or None)")
    found = [_function_code(r, t, cfg) if isinstance(t, CodeTests) and t.entry_point else extract_code(r, cfg)
             for r, t in zip(responses, tests)]
    programs = [code if code is None or not (isinstance(t, CodeTests) and t.entry_point)
                else program(code, t.prompt, t.entry_point) for (code, _), t in zip(found, tests)]
    runner = None
    futures: list[Future[ExecutionResult] | SandboxError | None] = []
    for code, t, s in zip(programs, test_lists, setups, strict=True):
        if code is None:
            futures.append(None)
            continue
        runner = runner or pool or default_pool()
        try:
            futures.append(runner.submit(code, t, s, cfg.timeout))
        except SandboxError as exc:  # the pool broke mid-run: an error verdict, not a crash
            futures.append(exc)
    out = []
    for resp, (code, source), fut in zip(responses, found, futures):
        result, error = None, ""
        if isinstance(fut, SandboxError):
            error = str(fut)
        elif fut is not None:  # None: no code was found
            try:
                result = fut.result()
            except SandboxError as exc:
                error = str(exc)
        out.append(_to_score(resp, code, source, result, cfg, error))
    return out
