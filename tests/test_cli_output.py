"""Terminal output through rich: colour and live bars only on a terminal (and never with
NO_COLOR), plain lines for files and pipes, tables never cut short."""

from __future__ import annotations

import io
import sys

import pytest

import main
from plyground.cli.console import GameProgress, console_for, print_table, say, table


class FakeTerminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def colour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """An environment in which rich would colour a terminal."""
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "COLUMNS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")


def test_reports_to_a_pipe_are_plain_and_unpadded(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "--game", "tictactoe", "--p1", "easy", "--p2", "random", "--games", "4"]
    status = main.main(argv)
    out, err = capsys.readouterr()
    assert status == 0
    assert "\x1b[" not in out and "\x1b[" not in err
    assert all(line == line.rstrip() for line in out.splitlines())
    header = next(line for line in out.splitlines() if line.startswith("player"))
    assert header.split() == [
        "player",
        "wins",
        "draws",
        "losses",
        "score",
        "95%",
        "CI",
        "moving",
        "1st",
        "moving",
        "2nd",
        "time/move",
        "worst",
        "nodes/move",
    ]
    assert "4/4 games" in err  # progress off a terminal: a line per tenth


@pytest.mark.usefixtures("colour_terminal")
def test_a_terminal_gets_colour_unless_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = FakeTerminal()
    say(console_for(stream), "oops", style="red")
    assert "\x1b[31m" in stream.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    stream = FakeTerminal()
    say(console_for(stream), "oops", style="red")
    assert stream.getvalue() == "oops\n"


@pytest.mark.usefixtures("colour_terminal")
def test_a_wide_table_is_not_cut_on_a_narrow_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    stream = FakeTerminal()
    console = console_for(stream)
    assert console.width == 40
    cells = [f"column-{number}" for number in range(8)]
    print_table(console, table([f"header-{number}" for number in range(8)], [cells]))
    text = stream.getvalue()
    assert all(cell in text for cell in cells) and "…" not in text


def test_progress_off_a_terminal_is_a_line_per_tenth(capsys: pytest.CaptureFixture[str]) -> None:
    with GameProgress(20) as progress:
        for done in range(1, 21):
            progress.update(done, f"score {done}")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 10
    assert lines[0].startswith("2/20 games  score 2  ") and lines[-1].endswith("left")
    with GameProgress(20, enabled=False) as progress:
        progress.update(20)
    assert capsys.readouterr().err == ""
    with GameProgress(1) as progress:
        progress.update(1)
    assert capsys.readouterr().err.startswith("1/1 game  ")


@pytest.mark.usefixtures("colour_terminal")
def test_progress_on_a_terminal_is_a_rich_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", stream)
    progress = GameProgress(8)
    assert progress.bar is not None
    progress.update(3, "A 2 - 1 B")
    progress.bar.refresh()
    progress.close()
    assert progress.bar is None
    text = stream.getvalue()
    assert "3/8" in text and "A 2 - 1 B" in text and "left" in text
