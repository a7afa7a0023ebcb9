"""Build a tiny Qwen2-architecture chat model (a few MB) that partly solves a dataset, with no downloads.

Used by the tests (a CPU model in seconds), as a CPU smoke path (``--size smoke``: under a minute on two
cores) and by the GPU end-to-end check, where no pretrained weights can be fetched: a byte-level BPE
tokenizer is trained with `tokenizers` on the dataset's prompts and solutions, a small `Qwen2ForCausalLM` is
initialised, and a brief SFT on the chat-formatted solutions teaches it to answer ``... #### N`` and get some
answers right, so RL has a non-zero, varying reward.

Pitfall handled here: transformers 5 reloads a saved qwen2 fast tokenizer as ``Qwen2Tokenizer``, whose
pre-tokenizer splits digits one by one, unlike the in-memory tokenizer it was trained as. The model is
trained on the tokenizer *as reloaded by AutoTokenizer* (what vLLM and verl use), so its accuracy
survives the round trip.

Output is atomic: everything is written to a hidden folder next to the target
(``.NAME.partial-PID-*``) and renamed into place only when complete, so a killed build leaves either no
model or the previous complete one; a later build removes partial folders whose process is gone.

Example:
    >>> info = build_tiny_model("tiny-model", size="smoke")   # doctest: +SKIP
    >>> info.greedy_accuracy                                    # doctest: +SKIP
    0.28125

Command line::

    verifiers-train tiny-model --out tiny-model [--size auto|smoke|test|small] [--steps N]
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from verifiers import tasks
from verifiers.datasets import Problem, load_problems
from verifiers.errors import ConfigError
from verifiers.extras import require_installed
from verifiers_train import console
from verifiers_train.prepare import rl_splits, split_slice

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
# Qwen's ChatML layout, without the default system prompt (tiny models only ever see this form).
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
INFO_FILE = "tiny_model_info.json"  # written last: its presence marks a complete tiny model folder
# Greedy evaluation may generate this many tokens beyond the longest training answer.
EVAL_EXTRA_TOKENS = 16


@dataclass(frozen=True)
class TinySize:
    """Architecture of a tiny model.

    Attributes:
        hidden: hidden size; ``hidden / heads`` is the head dim (64 suits vLLM's FlashAttention).
        layers: decoder layers.
        heads: attention heads.
        kv_heads: key/value heads (grouped-query attention as in Qwen2).
        intermediate: MLP width.
        vocab: BPE vocabulary size to train (the model's embedding is padded to a multiple of 64).
    """

    hidden: int
    layers: int
    heads: int
    kv_heads: int
    intermediate: int
    vocab: int


@dataclass(frozen=True)
class TinyPreset:
    """A named size: the architecture and the training settings that bring it to partial accuracy."""

    arch: TinySize
    steps: int
    batch_size: int
    lr: float
    train_problems: int
    purpose: str
    easy_arith: bool = False  # train and check on `easy_arith_rows` when the dataset is arith


PRESETS: dict[str, TinyPreset] = {
    # ~2M parameters: the GPU smoke-test model (a few minutes on a CPU, seconds on a GPU).
    "small": TinyPreset(TinySize(hidden=256, layers=2, heads=4, kv_heads=2, intermediate=512, vocab=1000),
                        steps=800, batch_size=32, lr=3e-3, train_problems=4000,
                        purpose="~2M parameters for GPU runs (vLLM head dim 64)"),
    # ~0.2M parameters: the model the tests build (callers pass their own steps and data).
    "test": TinyPreset(TinySize(hidden=64, layers=2, heads=4, kv_heads=2, intermediate=192, vocab=400),
                       steps=800, batch_size=32, lr=3e-3, train_problems=4000,
                       purpose="~0.2M parameters for tests"),
    # The CPU smoke path. On all of arith a 0.2M model stays near chance for minutes (it must learn to
    # copy and add two-digit numbers); on arith's one-digit slice it reaches ~20-40% in 400 steps.
    # Measured in evals/tiny_model/README.md.
    "smoke": TinyPreset(TinySize(hidden=64, layers=2, heads=4, kv_heads=2, intermediate=192, vocab=400),
                        steps=400, batch_size=16, lr=1e-2, train_problems=1500,
                        purpose="CPU smoke model on arith's one-digit slice, under a minute on 2 cores",
                        easy_arith=True),
}
# The smoke slice of arith: level 1 (one addition or subtraction) with every number in the question <= this.
EASY_ARITH_MAX = 9
EASY_ARITH_TEST = 200  # test problems written beside the model for `verifiers-eval`
AUTO_SIZE = "auto"  # `small` with CUDA, `smoke` without


@dataclass(frozen=True)
class TinyModelInfo:
    """What `build_tiny_model` made."""

    path: Path
    parameters: int
    vocab_size: int
    steps: int
    final_loss: float
    greedy_accuracy: float  # on the held-out problems, judged by the dataset's scorer
    seconds: float


def resolve_size(size: str, device: str) -> str:
    """The preset name ``size`` means on ``device`` (``auto``: ``small`` on CUDA, ``smoke`` on a CPU)."""
    if size == AUTO_SIZE:
        return "small" if device.startswith("cuda") else "smoke"
    if size not in PRESETS:
        raise ConfigError(f"unknown tiny model size {size!r}; choose one of {AUTO_SIZE}, {', '.join(PRESETS)}")
    return size


def build_tiny_model(out_dir: str | Path, *, dataset: str = "arith", data: str | None = None,
                     problems: Sequence[Problem] | None = None, template: str | None = None,
                     size: str | TinySize = AUTO_SIZE, steps: int | None = None, batch_size: int | None = None,
                     lr: float | None = None, train_problems: int | None = None, eval_problems: int = 32,
                     seed: int = 0, device: str | None = None, threads: int | None = None,
                     log: Callable[[str], Any] | None = print, progress: str = "auto") -> TinyModelInfo:
    """Train a tokenizer and a tiny Qwen2 model on a dataset's solutions; save both with save_pretrained.

    Args:
        out_dir: folder for ``config.json``, ``model.safetensors``, tokenizer files, ``generation_config.json``
            and ``tiny_model_info.json``; replaced atomically when complete (only if it is empty or a tiny model).
        dataset: dataset whose train split (``solution`` field) is the SFT data; ``arith`` by default.
        data: local file for the dataset (see `load_problems`); ``arith`` needs none.
        problems: use these problems instead of loading ``dataset`` (the last ``eval_problems`` are held out).
        template: prompt template, default the task's ``template``, so evaluation prompts match.
        size: a `PRESETS` key, ``auto`` (``small`` on CUDA, ``smoke`` on a CPU) or a `TinySize`.
        steps, batch_size, lr, train_problems: override the preset's training settings (a `TinySize` gets
            the ``small`` preset's).
        eval_problems: held-out problems for the greedy accuracy check.
        seed: seeds data order and initialisation.
        device: ``cuda`` or ``cpu``; default CUDA when available.
        threads: CPU threads for torch; default 1 on a CPU for the tiny sizes (their matrices are too small
            for threads to pay off, and spinning threads crawl on a shared machine), torch's choice on CUDA.
        log: ``print``-like callable for progress lines (``None`` to stay quiet).
        progress: ``auto`` (a rich progress bar when rich is installed, ``log`` is ``print`` and stderr is a
            terminal; else plain lines with ETA through ``log``), ``bar`` or ``lines``.

    Returns:
        A `TinyModelInfo`; ``greedy_accuracy`` says how much the model already solves.

    Raises:
        ConfigError: unknown size or template, too few problems, or ``out_dir`` exists and is not a tiny model.
    """
    import torch

    t0 = time.perf_counter()
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    name = "custom" if isinstance(size, TinySize) else resolve_size(size, device)
    preset = PRESETS["small" if name == "custom" else name]
    arch = size if isinstance(size, TinySize) else preset.arch
    steps = preset.steps if steps is None else steps
    batch_size = batch_size or preset.batch_size
    lr = lr or preset.lr
    train_problems = train_problems or preset.train_problems
    if threads is None and device == "cpu":
        threads = 1
    out = Path(out_dir)
    _check_target(out)
    easy = preset.easy_arith and dataset == "arith" and data is None and problems is None and name != "custom"
    say = log or (lambda *_: None)
    say(f"tiny-model: size {name}{' (auto: ' + device + ')' if size == AUTO_SIZE else ''}, {steps} steps of "
        f"{batch_size} on {device}" + (f" with {threads} thread(s)" if threads else "")
        + (f", arith level 1 with numbers <= {EASY_ARITH_MAX} (data/ beside the model)" if easy else "")
        + f", writing {out}")
    if threads:
        torch.set_num_threads(threads)
    with _atomic_folder(out) as tmp:
        if easy:
            problems = _write_easy_arith(tmp / "data", train_problems + eval_problems, seed)
        elif problems is None:
            # a test-only task (HumanEval) trains on the cut a run trains on (`rl_splits`: its first 80%)
            source, cut = split_slice(rl_splits(dataset)["train"])
            wanted = train_problems + eval_problems
            problems = load_problems(dataset, data, split=source, limit=None if cut else wanted)
            problems = problems[cut(len(problems))][:wanted] if cut else problems
        problems = [p for p in problems if p.solution]
        if len(problems) <= eval_problems + batch_size:
            raise ConfigError(f"need more than {eval_problems + batch_size} problems with solutions, "
                              f"got {len(problems)}")
        model, tok, loss_value, accuracy, params = _train(
            tmp, problems, dataset=dataset, template=template, arch=arch, steps=steps, batch_size=batch_size,
            lr=lr, eval_problems=eval_problems, seed=seed, device=device, say=say,
            progress=console.choose_progress(progress, log))
        _save_model(model, tok, tmp)
        info = TinyModelInfo(out, params, len(tok), steps, loss_value, accuracy, time.perf_counter() - t0)
        (tmp / INFO_FILE).write_text(json.dumps(asdict(info) | {
            "path": str(out), "dataset": dataset, "template": template or tasks.get(dataset).template,
            "size": name} | ({"data": str(out / "data")} if easy else {}), indent=2) + "\n")
    say(f"tiny-model: greedy accuracy {accuracy:.1%} on {eval_problems} held-out problems; "
        f"{info.seconds:.1f} s; saved {out}")
    return info


def easy_arith_rows(n: int, split: str, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` arith rows of level 1 whose numbers are all at most `EASY_ARITH_MAX` (the smoke slice).

    Drawn from `verifiers.arith.generate` and filtered, so they are arith problems, split as arith splits them.
    """
    from verifiers import arith

    draws = 16 * n  # about 1 level-1 problem in 12 has only one-digit numbers
    while True:
        rows = [r for r in arith.generate(draws, split=split, levels=(1,), seed=seed)
                if max(int(x) for x in re.findall(r"\d+", r["question"])) <= EASY_ARITH_MAX]
        if len(rows) >= n:
            return rows[:n]
        draws *= 2


def _write_easy_arith(folder: Path, n_train: int, seed: int) -> list[Problem]:
    """Write ``train.jsonl`` and ``test.jsonl`` of the smoke slice; return the train problems."""
    folder.mkdir()
    for split, n in (("train", n_train), ("test", EASY_ARITH_TEST)):
        rows = easy_arith_rows(n, split, seed)
        (folder / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return load_problems("arith", folder, split="train")


def _train(out: Path, problems: Sequence[Problem], *, dataset: str, template: str | None, arch: TinySize,
           steps: int, batch_size: int, lr: float, eval_problems: int, seed: int, device: str,
           say: Callable[[str], Any], progress: str) -> tuple[Any, Any, float, float, int]:
    """Tokenizer + SFT + greedy check; returns ``(model, tokenizer, final loss, accuracy, parameters)``."""
    import torch
    from torch.nn.utils.rnn import pad_sequence
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from verifiers_train.templates import build_messages

    template = template or tasks.get(dataset).template
    train, held_out = problems[:-eval_problems], problems[-eval_problems:]
    rng = random.Random(seed)
    torch.manual_seed(seed)

    chats = [(build_messages(p, template), p.solution) for p in problems]
    tok = _train_tokenizer(out, chats, arch.vocab)
    vocab = -(-len(tok) // 64) * 64  # pad the embedding to a multiple of 64
    cfg = Qwen2Config(
        vocab_size=vocab, hidden_size=arch.hidden, intermediate_size=arch.intermediate,
        num_hidden_layers=arch.layers, num_attention_heads=arch.heads, num_key_value_heads=arch.kv_heads,
        max_position_embeddings=1024, tie_word_embeddings=False,
        bos_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
    )
    model: Any = Qwen2ForCausalLM(cfg)
    model = model.to(device)
    params = sum(p.numel() for p in model.parameters())
    say(f"tiny-model: {params / 1e6:.2f}M parameters, vocab {len(tok)} (padded {vocab}), {len(train)} SFT problems")

    def encode(messages: list[dict[str, str]], solution: str) -> tuple[list[int], list[int]]:
        prompt = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        p_ids = tok(prompt, add_special_tokens=False)["input_ids"]
        a_ids = tok(solution + "<|im_end|>", add_special_tokens=False)["input_ids"]
        return p_ids + a_ids, [-100] * len(p_ids) + a_ids  # loss on the answer only

    encoded = [encode(m, s) for m, s in chats[: len(train)]]
    longest_answer = max(sum(t != -100 for t in y) for _, y in encoded)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1))
    model.train()
    loss_value = float("nan")
    with console.progress(progress, "SFT", steps, say) as bar:
        for _ in range(steps):
            batch = rng.sample(encoded, min(batch_size, len(encoded)))
            ids = pad_sequence([torch.tensor(x) for x, _ in batch], batch_first=True,
                               padding_value=tok.pad_token_id)
            labels = pad_sequence([torch.tensor(y) for _, y in batch], batch_first=True, padding_value=-100)
            mask = pad_sequence([torch.ones(len(x), dtype=torch.long) for x, _ in batch], batch_first=True)
            loss = model(input_ids=ids.to(device), attention_mask=mask.to(device), labels=labels.to(device)).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            loss_value = float(loss.item())
            bar(1, f"loss {loss_value:.3f}")
    model.eval()
    accuracy = _greedy_accuracy(model, tok, dataset, template, held_out, longest_answer + EVAL_EXTRA_TOKENS)
    return model, tok, loss_value, accuracy, params


def _save_model(model: Any, tok: Any, out: Path) -> None:
    from transformers import GenerationConfig
    from transformers.utils import logging as hf_logging

    quiet = hf_logging.is_progress_bar_enabled()
    if quiet:
        hf_logging.disable_progress_bar()  # its "Writing model shards" bar would interleave with ours
    try:
        model.to("cpu").save_pretrained(out, safe_serialization=True)
    finally:
        if quiet:
            hf_logging.enable_progress_bar()
    GenerationConfig(eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
                     bos_token_id=tok.pad_token_id, do_sample=True, temperature=1.0).save_pretrained(out)


def _train_tokenizer(out: Path, chats: Sequence[tuple[list[dict[str, str]], str]], vocab_size: int) -> Any:
    """Train a byte-level BPE on the chats, save it, and return it as AutoTokenizer reloads it."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import AutoTokenizer, PreTrainedTokenizerFast, Qwen2Config

    bpe = Tokenizer(models.BPE(unk_token=None))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    corpus = ["\n".join(m["content"] for m in msgs) + "\n" + sol for msgs, sol in chats]
    bpe.train_from_iterator(corpus, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   bos_token=None, unk_token=None, additional_special_tokens=["<|im_start|>"])
    fast.chat_template = CHAT_TEMPLATE
    fast.model_max_length = 1024
    fast.save_pretrained(out)
    # AutoTokenizer needs the model type to pick the tokenizer class; the real config overwrites this.
    Qwen2Config(vocab_size=-(-len(fast) // 64) * 64).save_pretrained(out)
    return AutoTokenizer.from_pretrained(out)


def _greedy_accuracy(model: Any, tok: Any, dataset: str, template: str, problems: Sequence[Problem],
                     max_new_tokens: int, batch: int = 64) -> float:
    """Share of problems the dataset's own scorer marks correct under greedy decoding (batched, left-padded)."""
    import torch

    from verifiers_train.evaluation._scoring import job_for, score_jobs
    from verifiers_train.templates import build_messages

    if not problems:
        return float("nan")
    responses: list[str] = []
    side = tok.padding_side
    tok.padding_side = "left"  # generation continues every row from its last real token
    try:
        for start in range(0, len(problems), batch):
            chunk = problems[start: start + batch]
            prompts = [tok.apply_chat_template(build_messages(p, template), add_generation_prompt=True,
                                               tokenize=False) for p in chunk]
            x = tok(prompts, add_special_tokens=False, padding=True, return_tensors="pt").to(model.device)
            with torch.inference_mode():
                y = model.generate(**x, max_new_tokens=max_new_tokens, do_sample=False,
                                   eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
            responses += tok.batch_decode(y[:, x["input_ids"].shape[1]:], skip_special_tokens=True)
    finally:
        tok.padding_side = side
    scores = score_jobs(dataset, "accuracy", template, [job_for(p, r, dataset) for p, r in zip(problems, responses,
                                                                                                strict=True)])
    return sum(bool(s["correct"]) for s in scores) / len(problems)


# ---------------------------------------------------------------- atomic output
_PARTIAL = ".partial-"
_OLD = ".old-"


def _check_target(out: Path) -> None:
    """Refuse a target that exists and is not a previous tiny model (it would be replaced whole)."""
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise ConfigError(f"--out {out} exists and is not a folder; choose another path")
    if out.is_dir() and any(out.iterdir()) and not (out / INFO_FILE).is_file():
        raise ConfigError(f"--out {out} exists and is not a tiny model folder (no {INFO_FILE}); building would "
                          "replace it, so choose a new path or remove it first")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def _clean_stale(out: Path) -> None:
    """Remove partial folders of builds whose process is gone; restore a previous model a swap left aside."""
    for p in out.parent.glob(f".{glob.escape(out.name)}.*-*"):
        kind = _PARTIAL if p.name.startswith(f".{out.name}{_PARTIAL}") else _OLD
        pid_text = p.name[len(f".{out.name}{kind}"):].split("-")[0]
        if not pid_text.isdigit() or _pid_alive(int(pid_text)):
            continue
        if kind == _OLD and not out.exists() and (p / INFO_FILE).is_file():
            os.replace(p, out)  # a build was killed between its two renames: put the old model back
        else:
            shutil.rmtree(p, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0  # type: ignore[no-any-return]


def _publish(tmp: Path, out: Path) -> None:
    """Move the finished folder ``tmp`` to ``out``, replacing a previous model without a moment of neither."""
    if not out.exists():
        os.replace(tmp, out)
        return
    if _exchange(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)  # tmp now holds the previous model
        return
    aside = out.parent / f".{out.name}{_OLD}{os.getpid()}-{time.time_ns()}"
    os.replace(out, aside)  # killed here: `_clean_stale` restores `aside` on the next build
    os.replace(tmp, out)
    shutil.rmtree(aside, ignore_errors=True)


@contextmanager
def _atomic_folder(out: Path) -> Iterator[Path]:
    """Yield a fresh hidden folder next to ``out``; on success it replaces ``out``, on failure it is removed."""
    out.parent.mkdir(parents=True, exist_ok=True)
    _clean_stale(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}{_PARTIAL}{os.getpid()}-", dir=out.parent))
    umask = os.umask(0)
    os.umask(umask)
    tmp.chmod(0o777 & ~umask)  # mkdtemp's 0700 would make the published model private to its builder
    try:
        yield tmp
        _publish(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


# ---------------------------------------------------------------- command line
def _add_arguments(ap: argparse.ArgumentParser) -> None:
    sizes = ", ".join(f"{n}: {p.purpose} ({p.steps} steps)" for n, p in PRESETS.items())
    ap.add_argument("-o", "--out", required=True, help="output model folder (replaced atomically when complete)")
    from verifiers.cli_common import add_json, add_task

    add_task(ap, tasks.names(), required=False, help="task whose train solutions are the SFT data (default: arith)")
    add_json(ap, "the model's info (path, parameters, accuracy)")
    ap.add_argument("--data", default=None, help="local data file (default: VERIFIERS_DATA_DIR, else the hub; "
                    "arith: generated)")
    ap.add_argument("--template", default=None, help="prompt template (default: the dataset's)")
    ap.add_argument("--size", default=AUTO_SIZE, choices=[AUTO_SIZE, *PRESETS],
                    help=f"preset; auto = small with CUDA, smoke without. {sizes}")
    ap.add_argument("--steps", type=int, default=None, help="SFT optimizer steps (default: the preset's)")
    ap.add_argument("--batch-size", type=int, default=None, help="sequences per step (default: the preset's)")
    ap.add_argument("--lr", type=float, default=None, help="peak learning rate (default: the preset's)")
    ap.add_argument("--train-problems", type=int, default=None, help="problems loaded (default: the preset's)")
    ap.add_argument("--seed", type=int, default=0, help="seed for data order and initialisation")
    ap.add_argument("--device", default=None, help="cuda or cpu (default: cuda when available)")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads for torch (default: 1 on a CPU)")
    ap.add_argument("--progress", default="auto", choices=console.PROGRESS_MODES,
                    help="auto: a bar on a terminal when rich is installed, plain lines with ETA otherwise")


def _run(args: argparse.Namespace) -> int:
    require_installed("train", "training a tiny model", "torch", "transformers", "tokenizers")
    # SIGTERM (kill, timeout, schedulers) unwinds like Ctrl-C, so the partial folder is removed; only the
    # main thread may set handlers (elsewhere a stale partial folder is cleared by the next build instead)
    try:
        previous = signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    except ValueError:
        previous = None
    try:
        info = build_tiny_model(args.out, dataset=args.task or "arith", data=args.data, template=args.template,
                                size=args.size, steps=args.steps, batch_size=args.batch_size, lr=args.lr,
                                train_problems=args.train_problems, seed=args.seed, device=args.device,
                                threads=args.threads, log=console.stderr_line, progress=args.progress)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    print(json.dumps(asdict(info) | {"path": str(info.path)}, indent=None if args.json else 2))
    return 0


def register(sub: Any) -> None:
    """Add ``verifiers-train tiny-model`` to a ``verifiers-train`` subparsers object."""
    from verifiers.cli_common import doc_summary

    p = sub.add_parser("tiny-model", help="build a tiny Qwen2 model + tokenizer, SFT-trained to partial accuracy",
                       description=doc_summary(__doc__))
    _add_arguments(p)
    p.set_defaults(func=_run)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m verifiers_train.tiny``: build a tiny model and print where it went and how good it is."""
    from verifiers.cli_common import CliParser, doc_summary

    ap = CliParser(prog="python -m verifiers_train.tiny", description=doc_summary(__doc__))
    _add_arguments(ap)
    return _run(ap.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
