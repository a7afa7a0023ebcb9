"""Prompt templates shared by `verifiers-train prepare` and `verifiers-eval checkpoint`.

One registry, so a model is evaluated with exactly the prompt it was trained on. Few-shot templates carry
their worked examples: ``gsm8k-8shot-cot`` is lm-eval's ``gsm8k_cot`` prompt (plain text, for base models,
sent to a server's completions endpoint), ``gsm8k-8shot-cot-chat`` the same examples as chat turns (lm-eval's
``--apply_chat_template --fewshot_as_multiturn``).

Example:
    >>> from verifiers.datasets import Problem
    >>> build_messages(Problem("x", "What is 2+3?", "5"), "verl")[-1]["role"]
    'user'
"""

from __future__ import annotations

from dataclasses import dataclass

from verifiers.datasets import Problem
from verifiers.errors import ConfigError, one_of

# GRAIL-style tags; the scorers' `grail` preset looks for the same ones by default.
WORKING_OUT_START, WORKING_OUT_END = "<start_working_out>", "<end_working_out>"
SOLUTION_START, SOLUTION_END = "<SOLUTION>", "</SOLUTION>"


@dataclass(frozen=True)
class PromptTemplate:
    """How a problem becomes chat messages.

    Attributes:
        name: registry key.
        user: format string with ``{question}`` (and ``{tests}`` for code tasks).
        system: default system prompt, or ``None`` for no system message.
        description: one line for ``--help`` listings.
        shots: worked examples ``(question, answer)`` put before the problem, each formatted with ``user``.
        completion: a plain-text prompt (no chat template, no system message): the shots and the problem
            joined by blank lines, each shot's answer after ``user`` and a space (lm-eval's layout).
        stop: strings that end a response (cut off, as lm-eval's ``until``).
    """

    name: str
    user: str
    system: str | None = None
    description: str = ""
    shots: tuple[tuple[str, str], ...] = ()
    completion: bool = False
    stop: tuple[str, ...] = ()


_GRAIL_SYSTEM = (
    "You are given a problem. Think about the problem and provide your working out. "
    f"Place it between {WORKING_OUT_START} and {WORKING_OUT_END}. "
    f"Then, provide your solution between {SOLUTION_START}{SOLUTION_END}"
)

# lm-eval's gsm8k_cot few-shot examples (lm_eval/tasks/gsm8k/gsm8k-cot.yaml, EleutherAI/lm-evaluation-harness
# at 4e7e0d4, the chain-of-thought exemplars of Wei et al. 2022), verbatim.
GSM8K_COT_SHOTS: tuple[tuple[str, str], ...] = (
    (("There are 15 trees in the grove. Grove workers will plant trees in the grove today. After they are done, "
     "there will be 21 trees. How many trees did the grove workers plant today?"),
     ("There are 15 trees originally. Then there were 21 trees after some more were planted. So there must have "
     "been 21 - 15 = 6. The answer is 6.")),
    ("If there are 3 cars in the parking lot and 2 more cars arrive, how many cars are in the parking lot?",
     "There are originally 3 cars. 2 more cars arrive. 3 + 2 = 5. The answer is 5."),
    ("Leah had 32 chocolates and her sister had 42. If they ate 35, how many pieces do they have left in total?",
     ("Originally, Leah had 32 chocolates. Her sister had 42. So in total they had 32 + 42 = 74. After eating 35, "
     "they had 74 - 35 = 39. The answer is 39.")),
    (("Jason had 20 lollipops. He gave Denny some lollipops. Now Jason has 12 lollipops. How many lollipops did "
     "Jason give to Denny?"),
     ("Jason started with 20 lollipops. Then he had 12 after giving some to Denny. So he gave Denny 20 - 12 = 8. "
     "The answer is 8.")),
    (("Shawn has five toys. For Christmas, he got two toys each from his mom and dad. How many toys does he have "
     "now?"),
     ("Shawn started with 5 toys. If he got 2 toys each from his mom and dad, then that is 4 more toys. 5 + 4 = 9. "
     "The answer is 9.")),
    (("There were nine computers in the server room. Five more computers were installed each day, from monday to "
     "thursday. How many computers are now in the server room?"),
     ("There were originally 9 computers. For each of 4 days, 5 more computers were added. So 5 * 4 = 20 "
     "computers were added. 9 + 20 is 29. The answer is 29.")),
    (("Michael had 58 golf balls. On tuesday, he lost 23 golf balls. On wednesday, he lost 2 more. How many golf "
     "balls did he have at the end of wednesday?"),
     ("Michael started with 58 golf balls. After losing 23 on tuesday, he had 58 - 23 = 35. After losing 2 more, "
     "he had 35 - 2 = 33 golf balls. The answer is 33.")),
    ("Olivia has $23. She bought five bagels for $3 each. How much money does she have left?",
     ("Olivia had 23 dollars. 5 bagels for 3 dollars each will be 5 x 3 = 15 dollars. So she has 23 - 15 dollars "
     "left. 23 - 15 is 8. The answer is 8.")),
)
# lm-eval's gsm8k_cot `until`
_COT_STOP = ("Q:", "</s>", "<|im_end|>")

TEMPLATES: dict[str, PromptTemplate] = {
    t.name: t
    for t in (
        PromptTemplate("verl", "{question} Let's think step by step and output the final answer after \"####\".",
                       description="verl's GSM8K example prompt; answer after ####"),
        PromptTemplate("boxed", "{question}\nPlease reason step by step, and put your final answer within \\boxed{{}}.",
                       description="answer in \\boxed{}; the usual MATH prompt"),
        PromptTemplate("grail", "{question}", system=_GRAIL_SYSTEM,
                       description="system prompt with working-out and <SOLUTION> tags"),
        PromptTemplate("plain", "{question}", description="the question alone"),
        PromptTemplate("mbpp",
                       "You are an expert Python programmer, and here is your task: {question} "
                       "Your code should pass these tests:\n\n{tests}\n\nWrite the solution in a ```python code block.",
                       description="MBPP's prompt with its tests; solution in a ```python block"),
        PromptTemplate("humaneval",
                       "Complete the following Python function:\n\n```python\n{question}\n```\n\n"
                       "Write the whole function in a ```python code block.",
                       description="HumanEval: the prompt's signature and docstring; the function in a ```python block"),
        PromptTemplate("code_stdio",
                       "{question}\n\nWrite a Python 3 program that reads the input from standard input and prints the "
                       "answer to standard output. Put the whole program in a ```python code block.",
                       description="stdin/stdout problems: a whole program in a ```python block"),
        PromptTemplate("mbpp-grail",
                       "{question} Your code should pass these tests:\n\n{tests}", system=_GRAIL_SYSTEM,
                       description="MBPP with working-out tags and the code between <SOLUTION> tags"),
        PromptTemplate("gsm8k-8shot-cot", "Q: {question}\nA:", shots=GSM8K_COT_SHOTS, completion=True,
                       stop=_COT_STOP, description="lm-eval's gsm8k_cot: 8 worked examples, plain text (base "
                                                   "models); answer after 'The answer is'"),
        PromptTemplate("gsm8k-8shot-cot-chat", "Q: {question}\nA:", shots=GSM8K_COT_SHOTS, stop=_COT_STOP,
                       description="the same 8 examples as chat turns (lm-eval --fewshot_as_multiturn)"),
    )
}

def get_template(name: str) -> PromptTemplate:
    """Look up a template by name; raise `ConfigError` listing the known names."""
    return TEMPLATES[one_of(name, TEMPLATES, "template")]


def check_template(name: str, system_prompt: str | None = None, *, chat_only: bool = False) -> PromptTemplate:
    """`get_template`, also refusing a system prompt for a plain-text template (and one at all with ``chat_only``)."""
    t = get_template(name)
    if t.completion and chat_only:
        raise ConfigError(f"template {name!r} is a plain-text prompt (no chat messages); this command needs chat "
                          f"messages: use one of {', '.join(n for n, c in TEMPLATES.items() if not c.completion)}")
    if t.completion and system_prompt is not None:
        raise ConfigError(f"template {name!r} is a plain-text prompt with no system message; drop --system-prompt")
    return t


def build_prompt(problem: Problem, template: str, system_prompt: str | None = None) -> list[dict[str, str]] | str:
    """The prompt of one problem: chat messages, or the text of a ``completion`` template."""
    t = check_template(template, system_prompt)
    if t.completion:
        shots = [f"{t.user.format(question=q, tests='')} {a}" for q, a in t.shots]
        return "\n\n".join([*shots, _user(t, problem)])
    return build_messages(problem, template, system_prompt)


def build_messages(problem: Problem, template: str, system_prompt: str | None = None) -> list[dict[str, str]]:
    """Chat messages for one problem (a few-shot template's examples as earlier turns); ``system_prompt``
    overrides the template's own.

    Raises:
        ConfigError: ``template`` is a plain-text (``completion``) one.
    """
    t = check_template(template, system_prompt, chat_only=True)
    system = system_prompt if system_prompt is not None else t.system
    messages = [{"role": "system", "content": system}] if system else []
    for q, a in t.shots:
        messages += [{"role": "user", "content": t.user.format(question=q, tests="")},
                     {"role": "assistant", "content": a}]
    messages.append({"role": "user", "content": _user(t, problem)})
    return messages


def _user(t: PromptTemplate, problem: Problem) -> str:
    return t.user.format(question=problem.question.strip(), tests="\n".join(problem.tests))
