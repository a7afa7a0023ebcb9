"""`verifiers_train.console`: progress shows done/total and ETA (bar or plain lines, chosen by the terminal),
counts a resumed run's earlier units, and tables print with or without rich."""

from __future__ import annotations

import re
import sys

import pytest

from verifiers.errors import ConfigError
from verifiers_train.console import choose_progress, format_eta, print_table, progress


def test_plain_progress_lines_give_done_total_and_eta() -> None:
    lines: list[str] = []
    with progress("lines", "SFT", 20, lines.append) as advance:
        for i in range(20):
            advance(1, f"loss {i}")
    assert len(lines) == 10 and lines[-1].startswith("SFT 20/20 (100%) loss 19")
    assert lines[-1].endswith("ETA 0 s")
    assert re.fullmatch(r"SFT 2/20 \(10%\) loss 1, \d+ s elapsed, ETA \d+ s", lines[0])
    assert (format_eta(5), format_eta(185), format_eta(3720)) == ("5 s", "3 min 05 s", "1 h 02 min")


def test_plain_progress_in_chunks_prints_each_tenth_crossed_and_counts_earlier_units() -> None:
    lines: list[str] = []
    with progress("lines", "eval", 100, lines.append, done=40) as advance:
        for _ in range(4):
            advance(15, "acc 50.0%")  # 55, 70, 85, 100: each crosses a tenth
    assert [line.split(" (")[0] for line in lines] == [f"eval {n}/100" for n in (55, 70, 85, 100)]
    with progress("lines", "eval", 100, lines.append) as advance:
        advance(3, "")  # 3/100 crosses no tenth and comes right after the start: no line
    assert len(lines) == 4


def test_rich_progress_bar_shows_total(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rich")
    with progress("bar", "SFT", 7, print) as advance:
        for _ in range(7):
            advance(1, "loss 0.1")
    assert "7/7" in capsys.readouterr().err


def test_progress_mode_follows_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert choose_progress("auto", print) == "lines" and choose_progress("auto", None) == "off"
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert choose_progress("auto", print) == "bar"
    assert choose_progress("auto", [].append) == "lines"  # a custom log gets lines it can store
    monkeypatch.setitem(sys.modules, "rich", None)  # a host without rich
    assert choose_progress("auto", print) == "lines"
    with pytest.raises(ConfigError, match="progress"):
        choose_progress("fancy", print)


def test_table_prints_with_rich_and_as_plain_text_without_it(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("rich")
    print_table(["metric", "value"], [["accuracy", "50.00%"]], "run")
    assert "accuracy" in capsys.readouterr().out
    for name in ("rich", "rich.console", "rich.table"):
        monkeypatch.setitem(sys.modules, name, None)
    print_table(["metric", "value"], [["accuracy", "50.00%"]], "run", sys.stderr)
    out, err = capsys.readouterr()
    assert not out
    assert err.splitlines() == ["run", f"{'metric':<28}  {'value':<28}", f"{'accuracy':<28}  {'50.00%':<28}"]
