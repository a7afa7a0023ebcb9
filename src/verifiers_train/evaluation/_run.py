"""`verifiers-eval checkpoint`: generate, score and summarize one model on one dataset, resumably.

The loop: render each problem's prompt, generate its missing samples batch by batch (fixed batches by default,
so the samples do not depend on the engine count or the resume point), score a batch in the background while
the next ones generate, append scored samples to ``samples.jsonl``, then write ``metrics.json`` and the report
from the file (so a resumed run summarizes everything it holds).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers.datasets import Problem, load_problems
from verifiers.errors import ConfigError, SandboxError, one_of
from verifiers_train import console
from verifiers_train.evaluation._backend_factory import BACKENDS, make_backend
from verifiers_train.evaluation._backends import (
    Backend,
    Completion,
    GenerationRequest,
    SamplingConfig,
    base_seed,
)
from verifiers_train.evaluation._data_parallel import DataParallelBackend
from verifiers_train.evaluation._models import model_fingerprint, resolve_model
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.evaluation._samples import SampleRow, finish_run, sample_row
from verifiers_train.evaluation._scoring import BackgroundScorer, job_for, scorer_config

# Fixed batches (the default): samples a batch holds by default, by backend (vLLM's max_num_seqs on cards of 70 GiB
# or more, so a batch is one scheduler wave there; the HF loop decodes one problem at a time anyway, so small
# batches give a live progress bar); a batch is this many samples' worth of whole problems, whatever the engine count.
FIXED_BATCH_SAMPLES = {"vllm": 1024, "hf": 8}
# --no-fixed-batches: problems per generation call, by backend (times the replicas with data parallelism). The
# openai backend always draws chunks (see `fixed_batch_problems`); a chunk is saved when its last sample arrives,
# and the next chunk's requests are sent meanwhile, so the size only sets how often samples are saved.
DEFAULT_CHUNK_PROBLEMS = {"vllm": 1024, "hf": 8, "openai": 64}

Pending = list[tuple[int, Problem, tuple[int, ...]]]  # (problem index, problem, sample indices to draw)


@dataclass(frozen=True)
class EvalConfig:
    """Everything one `checkpoint` run needs (the CLI flags, one field each).

    Attributes:
        model: HF model dir, hub name, or verl checkpoint dir (merged first); with the ``openai`` backend the
            served model's name (empty: the only model the server lists).
        dataset: a task of `verifiers.tasks` (``gsm8k``, ``math``, ``math500``, ``mbpp``, ``arith``, ...).
        data: local data file or folder; default ``VERIFIERS_DATA_DIR`` / the hub (``arith``: generated).
        split: dataset split.
        template: prompt template name; default the task's ``template``.
        system_prompt: overrides the template's system prompt.
        preset: scorer preset (``accuracy``, ``book``, ``grail``).
        backend: ``hf``, ``vllm`` or ``openai`` (a served model; ``backend_options`` holds its ``base_url``,
            ``concurrency``, ``max_retries``, ``retry_wait``, ``request_timeout``).
        n, temperature, top_p, max_tokens: sampling settings.
        limit: evaluate only the first ``limit`` problems.
        seed: run seed; sample ``j`` of problem ``p`` is seeded from ``(seed, p.id)`` plus ``j``.
        dtype: model dtype (``auto``, ``bfloat16``, ``float16``, ``float32``).
        out: run directory; default ``eval_runs/<model>-<dataset>-n<n>-t<temperature>-s<seed>``.
        resume: continue the run in ``out`` instead of refusing to touch it.
        chunk_problems: problems per batch (default `FIXED_BATCH_SAMPLES` // ``n``); without ``fixed_batches``,
            problems per generation call (default `DEFAULT_CHUNK_PROBLEMS` of the backend times ``data_parallel``).
        fixed_batches: (default) samples independent of ``data_parallel`` and of where a run was resumed: the
            problems are cut into fixed batches, each generated whole and alone by one engine (vLLM: engine core in
            this process, prefix cache emptied first), and a batch with any sample missing is generated again in
            full (only the missing samples are written). Every run then computes the same batches, so it draws
            the same samples on the same GPU model and software (evals/gpu/README.md R9). Off: chunks of the
            pending samples, split over the replicas (the samples then depend on both, R6.2).
        score_workers: the scorer's ``score_batch`` parallelism (``None``: its own choice).
        merge_dir: where a verl checkpoint is merged (default under ``$VERIFIERS_CACHE``).
        backend_options: extra backend arguments (``tensor_parallel_size``, ``gpu_memory_utilization``...).
        data_parallel: replicas of the backend, each a Ray actor with its own GPU(s) (``tensor_parallel_size``
            each); same seeds, run folder and resume as one engine.
        ray_address: run the replicas on an existing Ray cluster (``auto``, ``ray://host:10001``).
        sandbox: where MBPP programs run: ``local`` (this host's pool) or ``ray`` (sandbox actors on the
            cluster's CPUs); default ``ray`` when the replicas run on Ray, else ``local``.
        report: write ``report.html`` and PNG plots.
        progress: show progress on stderr (a rich bar on a terminal, else lines with ETA).
        api_key: the ``openai`` backend's API key (never written to the run folder).
    """

    model: str
    dataset: str
    data: str | None = None
    split: str = "test"
    template: str | None = None
    system_prompt: str | None = None
    preset: str = "accuracy"
    backend: str = "hf"
    n: int = 1
    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 512
    limit: int | None = None
    seed: int = 0
    dtype: str = "auto"
    out: str | None = None
    resume: bool = False
    chunk_problems: int | None = None
    fixed_batches: bool = True
    score_workers: int | None = None
    merge_dir: str | None = None
    backend_options: dict[str, Any] = field(default_factory=dict)
    data_parallel: int = 1
    ray_address: str | None = None
    sandbox: str | None = None
    report: bool = True
    progress: bool = True
    api_key: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        # several samples per problem under greedy decoding are identical, so pass@k = maj@k = pass@1
        if self.n > 1 and self.temperature == 0:
            raise ConfigError(f"--n {self.n} with --temperature 0 (greedy) gives {self.n} identical samples "
                              "per problem, so pass@k = maj@k = pass@1; add --temperature 0.6 (or any value "
                              "> 0) to sample, or use --n 1 for greedy")

    @property
    def sampling(self) -> SamplingConfig:
        """The sampling part of the config (validated)."""
        return SamplingConfig(self.n, self.temperature, self.top_p, self.max_tokens)


@dataclass(frozen=True)
class RunResult:
    """Where a run was written and its summary."""

    run_dir: Path
    metrics: dict[str, Any]
    generated: int  # samples generated by this invocation (0 if the run was already complete)


def default_out(cfg: EvalConfig) -> str:
    """Run folder used when ``--out`` is not given (stable, so ``--resume`` finds it again)."""
    name = Path(cfg.model.rstrip("/")).name or "model"
    if name == "actor":  # verl checkpoint: name it by its step folder
        name = Path(cfg.model.rstrip("/")).parent.name
    return os.path.join("eval_runs", f"{name}-{cfg.dataset}-n{cfg.n}-t{cfg.temperature:g}-s{cfg.seed}")


def run_checkpoint(cfg: EvalConfig, *, backend_factory: Callable[..., Backend] | None = None) -> RunResult:
    """Evaluate ``cfg.model`` on ``cfg.dataset`` and write the run folder.

    Args:
        cfg: the run settings.
        backend_factory: builds the backend (``make_backend`` signature); tests pass fakes.

    Returns:
        The run folder and its metrics.

    Raises:
        ConfigError: bad settings, a missing model, or a resume whose settings differ from the saved run.
        DataError: the dataset cannot be read.
    """
    t_start = time.perf_counter()
    from verifiers_train.templates import check_template

    spec = tasks.get(cfg.dataset, what="dataset")
    one_of(cfg.backend, BACKENDS, "backend")
    if cfg.data_parallel < 1:
        raise ConfigError(f"--data-parallel must be at least 1, got {cfg.data_parallel}")
    if cfg.sandbox not in (None, "local", "ray"):
        raise ConfigError(f"--sandbox must be local or ray, got {cfg.sandbox!r}")
    if cfg.chunk_problems is not None and cfg.chunk_problems < 1:
        raise ConfigError(f"chunk_problems must be at least 1, got {cfg.chunk_problems}")
    template = cfg.template or spec.template
    sampling = replace(cfg.sampling, stop=check_template(template, cfg.system_prompt).stop)
    scorer_config(cfg.dataset, cfg.preset)
    if cfg.backend == "openai":
        cfg, fingerprint = _served(cfg)
        model_path = cfg.model
    elif not cfg.model:
        raise ConfigError(f"MODEL is required with --backend {cfg.backend} (a model folder, hub name or verl checkpoint)")
    else:
        model_path = resolve_model(cfg.model, merge_dir=cfg.merge_dir)
        fingerprint = model_fingerprint(model_path)
    problems = load_problems(cfg.dataset, cfg.data, split=cfg.split, limit=cfg.limit)
    if not problems:
        raise ConfigError(f"{cfg.dataset} ({cfg.data or 'default source'}, split {cfg.split}) has no problems"
                          + (f" with --limit {cfg.limit}" if cfg.limit is not None else ""))
    # a code task's programs are scored after generation: a host that cannot run them is refused before the
    # run folder and the model (on Ray the sandbox actors start with the scorer, on the cluster's nodes)
    if _sandbox(cfg) == "local" and (sandbox := tasks.sandbox_problem(cfg.dataset)):
        raise SandboxError(sandbox)
    run = RunDir(cfg.out or default_out(cfg))
    config = _config_record(cfg, template, model_path, fingerprint, problems)
    size = config["fixed_batch_problems"]
    if cfg.resume and (saved := _saved_config(run)) is not None:
        _check_batches(run.path, saved, cfg, size)
        _note_engine_changes(run.path, saved, cfg)
    run.start(config, resume=cfg.resume)
    done = run.read_samples()  # also cuts a torn last line left by a crash
    have = {(s["problem_id"], int(s["sample_index"])) for s in done}
    pending = [(i, p, tuple(j for j in range(cfg.n) if (p.id, j) not in have)) for i, p in enumerate(problems)]
    pending = [x for x in pending if x[2]]
    batches = _fixed_batches(problems, pending, size, cfg.n) if size else _chunks(cfg, pending)
    previous = run.read_metrics().get("timing", {}) if cfg.resume else {}
    timing = {"load_s": 0.0, "generate_s": 0.0, "score_wait_s": 0.0, "prompts": 0, "generated_tokens": 0}
    generated = 0
    if pending:
        t0 = time.perf_counter()
        factory = backend_factory or (DataParallelBackend if _on_ray(cfg) else make_backend)
        backend = factory(cfg.backend, model_path, **_backend_options(cfg))
        timing["load_s"] = time.perf_counter() - t0
        scorer = BackgroundScorer(cfg.dataset, cfg.preset, template, cfg.score_workers, sandbox=_sandbox(cfg))
        try:
            generated = _generate_and_score(cfg, template, sampling, backend, scorer, run, problems, batches,
                                            have, len(done), timing)
        finally:
            scorer.close()
            backend.close()
    samples = run.read_samples()
    total = {k: float(previous.get(k, 0)) + float(v) for k, v in timing.items()}
    sessions = {"sessions": int(previous.get("sessions", 0)) + 1, "last_session_s": time.perf_counter() - t_start}
    metrics = finish_run(run, config, samples, cfg.dataset, report=cfg.report, seed=cfg.seed, timing=total,
                         extra={"complete": len(samples) == len(problems) * cfg.n, "timing": total | sessions})
    return RunResult(run.path, metrics, generated)


def fixed_batch_problems(cfg: EvalConfig) -> int | None:
    """Problems per batch of a ``fixed_batches`` run (``None`` without it); recorded and checked on resume."""
    if not cfg.fixed_batches or cfg.backend == "openai":
        return None  # a server batches our requests with its other traffic: fixed batches cannot pin the samples
    return cfg.chunk_problems or max(1, FIXED_BATCH_SAMPLES.get(cfg.backend, 64) // cfg.n)


def _saved_config(run: RunDir) -> dict[str, Any] | None:
    """The config of the run in ``run`` if it holds samples (a resume must then draw them alike), else None."""
    if run.config_path.is_file() and run.samples_path.is_file() and run.read_samples(repair=False):
        return run.read_config()
    return None


def _check_batches(path: Path, saved: dict[str, Any], cfg: EvalConfig, size: int | None) -> None:
    """Refuse to resume a run with other batches than it was drawn in, naming the flags that match it.

    Only when the settings the default batch size derives from (``n``, backend) match: otherwise those are what
    changed, and `RunDir.start` names them.
    """
    was = saved.get("fixed_batch_problems")
    if was == size or saved.get("n") != cfg.n or saved.get("backend") != cfg.backend:
        return
    if not was:
        raise ConfigError(f"cannot resume {path}: its samples were drawn in chunks (an older run, or "
                          "--no-fixed-batches), so the rest must be too; add --no-fixed-batches (or start a new --out)")
    fix = f"--chunk-problems {was}" + (" without --no-fixed-batches" if size is None else "")
    raise ConfigError(f"cannot resume {path}: its samples were drawn in fixed batches of {was} problems, so the "
                      f"rest must be too; resume with {fix} (or start a new --out)")


# engine settings that change a sample's numbers (not only speed); a resume may change them, with a note
_ENGINE_NUMERICS = ("tensor_parallel_size", "batch_invariant", "enforce_eager", "max_model_len")


def _note_engine_changes(path: Path, saved: dict[str, Any], cfg: EvalConfig) -> None:
    """One line on stderr when a resume computes with other engine settings than the saved samples were."""
    old = saved.get("backend_options") or {}
    changed = [f"{k}: {old.get(k)!r} -> {cfg.backend_options.get(k)!r}" for k in _ENGINE_NUMERICS
               if old.get(k) != cfg.backend_options.get(k)]
    if changed:
        console.stderr_line(f"note: resuming {path} with other engine settings ({'; '.join(changed)}): the new "
                            "samples may not match an uninterrupted run's byte for byte")


def _chunks(cfg: EvalConfig, pending: Pending) -> list[Pending]:
    """``--no-fixed-batches``: the pending samples in chunks; data parallel gives every replica a default-sized share."""
    size = cfg.chunk_problems or DEFAULT_CHUNK_PROBLEMS.get(cfg.backend, 64) * cfg.data_parallel
    return [pending[start : start + size] for start in range(0, len(pending), size)]


def _fixed_batches(problems: Sequence[Problem], pending: Pending, size: int, n: int) -> list[Pending]:
    """Fixed batches: every ``size``-problem batch of the whole list that misses a sample, with all ``n`` samples."""
    todo = {i for i, _, _ in pending}
    every = tuple(range(n))
    return [[(i, problems[i], every) for i in range(start, min(start + size, len(problems)))]
            for start in range(0, len(problems), size) if todo.intersection(range(start, start + size))]


def _generate_each(backend: Backend, batches: Iterable[list[GenerationRequest]], sampling: SamplingConfig,
                   whole: bool) -> Generator[tuple[list[GenerationRequest], list[Completion]], None, None]:
    """Each batch with its completions, in order. ``whole``: a data-parallel backend gives each batch to one
    replica, several batches at once (`DataParallelBackend.generate_each`); otherwise one call per batch."""
    each = getattr(backend, "generate_each", None) if whole else None
    if each is not None:
        yield from each(batches, sampling)
        return
    for requests in batches:
        yield requests, backend.generate(requests, sampling)


def _generate_and_score(cfg: EvalConfig, template: str, sampling: SamplingConfig, backend: Backend,
                        scorer: BackgroundScorer, run: RunDir, problems: Sequence[Problem], batches: list[Pending],
                        have: set[tuple[str, int]], already: int, timing: dict[str, float]) -> int:
    """Generate the batches in order; score each one while the next ones generate. Samples already in the run
    (``have``, which a fixed batch draws again) are not written twice."""
    from verifiers_train.templates import build_prompt

    total = len(problems) * cfg.n
    written = 0
    correct = 0
    inflight: list[tuple[Future[list[dict[str, Any]]], list[SampleRow]]] = []
    mode = console.choose_progress("auto", console.stderr_line) if cfg.progress else "off"

    def requests_of(batch: Pending) -> list[GenerationRequest]:
        out = []
        for i, problem, samples in batch:
            prompt = build_prompt(problem, template, cfg.system_prompt)
            text, ids = backend.render(prompt)
            out.append(GenerationRequest(i, text, ids, samples, base_seed(cfg.seed, problem.id),
                                         None if isinstance(prompt, str) else tuple(prompt)))
        return out

    with console.progress(mode, "eval", total, console.stderr_line, done=already) as bar:

        def drain(block: bool) -> None:
            nonlocal written, correct
            while inflight and (block or inflight[0][0].done()):
                t0 = time.perf_counter()
                handle, rows = inflight.pop(0)
                scores = handle.result()
                timing["score_wait_s"] += time.perf_counter() - t0
                for row, score in zip(rows, scores, strict=True):
                    row.update(score)  # type: ignore[typeddict-item]  # the scored keys of SampleRow
                run.append_samples(rows)
                written += len(rows)
                correct += sum(bool(r["correct"]) for r in rows)
                tps = timing["generated_tokens"] / timing["generate_s"] if timing["generate_s"] else 0.0
                bar(len(rows), f"acc {correct / max(written, 1):.1%}  {tps:,.0f} tok/s")

        # the openai backend's generate_each only overlaps one chunk's requests with the next's
        stream = _generate_each(backend, map(requests_of, batches), sampling,
                                whole=cfg.fixed_batches or cfg.backend == "openai")
        try:
            while True:
                t0 = time.perf_counter()
                try:
                    requests, completions = next(stream)
                except StopIteration:
                    break
                timing["generate_s"] += time.perf_counter() - t0
                timing["prompts"] += len(requests)
                timing["generated_tokens"] += sum(c.response_tokens for c in completions)
                prompts = {r.problem_index: r.prompt for r in requests}
                new = [c for c in completions if (problems[c.problem_index].id, c.sample_index) not in have]
                rows = [sample_row(problems[c.problem_index], c.sample_index, c.seed, prompts[c.problem_index], c.text,
                                   c.response_tokens, c.finish_reason) for c in new]
                jobs = [job_for(problems[c.problem_index], c.text, cfg.dataset) for c in new]
                inflight.append((scorer.submit(jobs), rows))
                drain(block=False)
        finally:
            # also on ^C or a backend crash: save every batch already generated before giving up
            stream.close()
            drain(block=True)
    return written


def _config_record(cfg: EvalConfig, template: str, model_path: str, fingerprint: str,
                   problems: Sequence[Problem]) -> dict[str, Any]:
    """``config.json``: the settings plus fingerprints of the model and the problems."""
    rec = {k: v for k, v in asdict(cfg).items() if k not in ("resume", "progress", "report", "api_key")}
    data_hash = hashlib.sha256()
    for p in problems:
        data_hash.update(json.dumps([p.id, p.question, p.gold, list(p.tests)]).encode())
    rec.update(fixed_batch_problems=fixed_batch_problems(cfg), template=template, model_path=model_path,
               model_fingerprint=fingerprint, data_fingerprint=data_hash.hexdigest()[:16], problems=len(problems),
               data=os.path.abspath(cfg.data) if cfg.data and os.path.exists(cfg.data) else cfg.data)
    return rec


def _backend_options(cfg: EvalConfig) -> dict[str, Any]:
    if cfg.backend == "openai":
        return {**cfg.backend_options, "api_key": cfg.api_key}
    opts = {"dtype": cfg.dtype, **cfg.backend_options}
    if cfg.backend == "vllm":
        opts.setdefault("seed", cfg.seed)
        if cfg.fixed_batches:  # a batch must not reuse prompt KV computed in another batch
            opts["isolate_batches"] = True
    if _on_ray(cfg):
        opts.update(replicas=cfg.data_parallel, ray_address=cfg.ray_address)
    return opts


# settings the openai backend has no use for (the server holds the model), with their defaults
_LOCAL_ONLY = {"data_parallel": 1, "ray_address": None, "dtype": "auto", "merge_dir": None}


def _served(cfg: EvalConfig) -> tuple[EvalConfig, str]:
    """An openai-backend config with the served model's name (asked from the server when not given), and the
    fingerprint of that model."""
    from verifiers_train.evaluation._openai import check_options, served_model

    for name, default in _LOCAL_ONLY.items():
        if getattr(cfg, name) != default:
            raise ConfigError(f"--{name.replace('_', '-')} does not apply to --backend openai (the server runs the "
                              "model); drop it")
    base_url = cfg.backend_options.get("base_url")
    if not base_url:
        raise ConfigError("--backend openai needs --base-url (e.g. http://localhost:8000/v1)")
    check_options(**cfg.backend_options)
    retry = {k: v for k, v in cfg.backend_options.items() if k in ("max_retries", "retry_wait")}
    model, fingerprint = served_model(base_url, cfg.model or None, cfg.api_key, **retry)
    return replace(cfg, model=model), fingerprint


def _on_ray(cfg: EvalConfig) -> bool:
    return cfg.data_parallel > 1 or bool(cfg.ray_address)


def _sandbox(cfg: EvalConfig) -> str:
    return cfg.sandbox or ("ray" if _on_ray(cfg) else "local")
