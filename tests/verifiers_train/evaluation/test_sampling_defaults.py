"""`verifiers-eval checkpoint --n > 1` needs sampling: greedy samples are identical (issue 16)."""

from __future__ import annotations

import pytest

from verifiers.errors import ConfigError
from verifiers_train.evaluation._run import EvalConfig
from verifiers_train.evaluation.cli import main


def test_several_greedy_samples_are_refused_with_the_fix() -> None:
    with pytest.raises(ConfigError, match=r"--n 8 with --temperature 0 .* pass@k = maj@k = pass@1; add --temperature"):
        EvalConfig(model="m", dataset="gsm8k", n=8)
    EvalConfig(model="m", dataset="gsm8k", n=1)  # greedy pass@1
    EvalConfig(model="m", dataset="gsm8k", n=8, temperature=0.6)  # sampled pass@8


def test_the_cli_refuses_before_loading_anything(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["checkpoint", "/no/such/model", "--task", "gsm8k", "--n", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("verifiers-eval checkpoint: error: --n 4 with --temperature 0") and err.count("\n") == 1
