"""Few-shot templates: lm-eval's gsm8k 8-shot chain-of-thought prompt, its chat form, stop strings in every backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifiers import gsm8k
from verifiers.datasets import Problem
from verifiers.errors import ConfigError
from verifiers_train.evaluation import EvalConfig, run_checkpoint
from verifiers_train.evaluation._backend_factory import make_backend
from verifiers_train.evaluation._backends import GenerationRequest, SamplingConfig, cut_at_stop
from verifiers_train.evaluation._rundir import RunDir
from verifiers_train.templates import GSM8K_COT_SHOTS, build_messages, build_prompt, get_template

PROBLEM = Problem("p1", "  Janet has 3 eggs and buys 4 more. How many eggs does she have?  ", "7")

# lm-eval's gsm8k_cot rendering of its first example and of a test question (doc_to_text "Q: {{question}}\nA:",
# target_delimiter " ", fewshot_delimiter "\n\n"), written out by hand from lm_eval/tasks/gsm8k/gsm8k-cot.yaml
FIRST_SHOT = ("Q: There are 15 trees in the grove. Grove workers will plant trees in the grove today. After they are "
              "done, there will be 21 trees. How many trees did the grove workers plant today?\nA: There are 15 trees "
              "originally. Then there were 21 trees after some more were planted. So there must have been 21 - 15 = 6. "
              "The answer is 6.\n\n")
LAST = "\n\nQ: Janet has 3 eggs and buys 4 more. How many eggs does she have?\nA:"


def test_gsm8k_8shot_cot_is_lm_evals_prompt() -> None:
    prompt = build_prompt(PROBLEM, "gsm8k-8shot-cot")
    assert isinstance(prompt, str)
    assert prompt.startswith(FIRST_SHOT) and prompt.endswith(LAST)
    blocks = prompt.split("\n\n")
    assert len(blocks) == 9 and len(GSM8K_COT_SHOTS) == 8
    for block, (q, a) in zip(blocks, GSM8K_COT_SHOTS, strict=False):
        assert block == f"Q: {q}\nA: {a}" and a.endswith(f"The answer is {a.split()[-1]}")
    assert "Olivia has $23." in blocks[7] and blocks[7].endswith("The answer is 8.")
    assert get_template("gsm8k-8shot-cot").stop == ("Q:", "</s>", "<|im_end|>")  # lm-eval's `until`


def test_the_chat_form_has_the_examples_as_turns() -> None:
    messages = build_messages(PROBLEM, "gsm8k-8shot-cot-chat")
    assert [m["role"] for m in messages] == ["user", "assistant"] * 8 + ["user"]
    assert messages[0]["content"] == FIRST_SHOT.split("\nA: ")[0] + "\nA:"
    assert messages[1]["content"] == GSM8K_COT_SHOTS[0][1]
    assert messages[-1]["content"] == LAST.strip("\n")
    with_system = build_messages(PROBLEM, "gsm8k-8shot-cot-chat", "Solve it.")
    assert with_system[0] == {"role": "system", "content": "Solve it."} and with_system[1:] == messages
    assert build_prompt(PROBLEM, "verl") == build_messages(PROBLEM, "verl")  # chat templates are unchanged


def test_plain_text_templates_refuse_what_they_cannot_hold(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="plain-text prompt .*this command needs chat messages"):
        build_messages(PROBLEM, "gsm8k-8shot-cot")
    with pytest.raises(ConfigError, match="no system message; drop --system-prompt"):
        build_prompt(PROBLEM, "gsm8k-8shot-cot", "Be brief.")
    with pytest.raises(ConfigError, match="unknown template 'gsm8k-9shot'; did you mean 'gsm8k-8shot-cot'\\? choose one of verl, .*gsm8k-8shot-cot"):
        build_prompt(PROBLEM, "gsm8k-9shot")
    from verifiers_train.prepare import prepare

    with pytest.raises(ConfigError, match="needs chat messages: use one of .*gsm8k-8shot-cot-chat"):  # verl's data is chat
        prepare("arith", tmp_path / "out", template="gsm8k-8shot-cot", echo=None)
    assert not (tmp_path / "out").exists()


def test_the_gsm8k_scorer_reads_the_examples_answer_style() -> None:
    assert gsm8k.score("She has 3 + 4 = 7 eggs. The answer is 7.", "7").status == "correct"
    assert gsm8k.score("There are 1,450 eggs. The answer is 1,450.", "1450").status == "correct"


def test_cut_at_stop() -> None:
    assert cut_at_stop("x = 7. The answer is 7.\n\nQ: next", ("Q:", "</s>")) == ("x = 7. The answer is 7.\n\n", True)
    assert cut_at_stop("a</s>bQ:", ("Q:", "</s>")) == ("a", True)  # the first stop string in the text wins
    assert cut_at_stop("no stop here", ("Q:",)) == ("no stop here", False)
    assert cut_at_stop("text", ()) == ("text", False)


def test_the_hf_backend_stops_at_a_stop_string(tiny_model: Path) -> None:
    backend = make_backend("hf", str(tiny_model))
    text, ids = backend.render(build_messages(PROBLEM, "verl"))
    req = GenerationRequest(0, text, ids, (0, 1, 2), 1234)
    free = backend.generate([req], SamplingConfig(n=3, temperature=1.0, max_tokens=40))
    stopped_any = False
    for full in free:
        stop = full.text[len(full.text) // 2:][:2]
        if len(stop) < 2:
            continue
        (got,) = backend.generate([GenerationRequest(0, text, ids, (full.sample_index,), 1234)],
                                  SamplingConfig(n=3, temperature=1.0, max_tokens=40, stop=("@@never", stop)))
        assert got.text == full.text[:full.text.find(stop)] and got.finish_reason == "stop"
        assert got.response_tokens <= full.response_tokens
        stopped_any = True
    assert stopped_any


def test_a_plain_text_template_through_the_hf_backend(tiny_model: Path, tiny_data: Path, tmp_path: Path) -> None:
    result = run_checkpoint(EvalConfig(model=str(tiny_model), dataset="arith", data=str(tiny_data), limit=2,
                                       max_tokens=8, out=str(tmp_path / "run"), progress=False, report=False,
                                       template="gsm8k-8shot-cot"))
    rows = RunDir(result.run_dir).read_samples()
    assert len(rows) == 2 and all(r["prompt"].startswith(FIRST_SHOT) and r["prompt"].endswith("\nA:") for r in rows)
    assert "<|im_start|>" not in rows[0]["prompt"]  # no chat template around it
    assert all("Q:" not in r["response"] for r in rows)
