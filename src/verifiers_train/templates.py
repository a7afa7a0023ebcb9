"""Prompt templates shared by `verifiers-train prepare` and `verifiers-eval checkpoint`.

One registry, so a model is evaluated with exactly the prompt it was trained on.

Example:
    >>> from verifiers.datasets import Problem
    >>> build_messages(Problem("x", "What is 2+3?", "5"), "verl")[-1]["role"]
    'user'
"""

from __future__ import annotations

from dataclasses import dataclass

from verifiers.datasets import Problem
from verifiers.errors import one_of

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
    """

    name: str
    user: str
    system: str | None = None
    description: str = ""


_GRAIL_SYSTEM = (
    "You are given a problem. Think about the problem and provide your working out. "
    f"Place it between {WORKING_OUT_START} and {WORKING_OUT_END}. "
    f"Then, provide your solution between {SOLUTION_START}{SOLUTION_END}"
)

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
        PromptTemplate("mbpp-grail",
                       "{question} Your code should pass these tests:\n\n{tests}", system=_GRAIL_SYSTEM,
                       description="MBPP with working-out tags and the code between <SOLUTION> tags"),
    )
}

def get_template(name: str) -> PromptTemplate:
    """Look up a template by name; raise `ConfigError` listing the known names."""
    return TEMPLATES[one_of(name, TEMPLATES, "template")]


def build_messages(problem: Problem, template: str, system_prompt: str | None = None) -> list[dict[str, str]]:
    """Chat messages for one problem; ``system_prompt`` overrides the template's own."""
    t = get_template(template)
    user = t.user.format(question=problem.question.strip(), tests="\n".join(problem.tests))
    system = system_prompt if system_prompt is not None else t.system
    messages = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": user})
    return messages
