"""`screenshot --scene explorer|lesson|compare|policy`: each view drawn to a PNG."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from plyground.cli import run


def _size(path: Path) -> tuple[int, int]:
    return pygame.image.load(str(path)).get_size()


@pytest.mark.slow
def test_the_explorer_and_the_lessons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "explorer.png"
    assert (
        run(
            [
                "screenshot",
                "--scene",
                "explorer",
                "--game",
                "connect4",
                "--moves",
                "44",
                "--algorithm",
                "alphabeta",
                "--depth",
                "2",
                "--step",
                "13",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert _size(out) == (1280, 800)
    for extra in (
        ["--lesson", "1", "--step", "24"],
        ["--lesson", "2", "--variant"],
        ["--lesson", "4", "--step", "154"],
        ["--lesson", "6", "--tree", "[.9:(2,2) .1:(3,3)] [.9:(1,1) .1:(4,4)]"],
    ):
        out = tmp_path / f"lesson{extra[1]}.png"
        assert run(["screenshot", "--scene", "lesson", *extra, "--out", str(out)]) == 0
        assert _size(out) == (1280, 800)
    capsys.readouterr()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--scene", "play", "--game", "connect4", "--step", "3"], "--step is for --scene"),
        (["--scene", "lesson", "--lesson", "9"], "--lesson must be 1 to 6"),
        (["--scene", "lesson", "--lesson", "6", "--tree", "(1,x"], "character 4"),
        (["--scene", "lesson", "--tree", "(1,2)"], "--tree goes with"),
        (
            ["--scene", "explorer", "--game", "tictactoe", "--iterations", "9"],
            "--iterations goes with --algorithm mcts",
        ),
        (["--scene", "lesson", "--lesson", "1", "--seed", "2"], "--seed goes with"),
    ],
)
def test_view_options_are_checked_in_one_line(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["screenshot", *argv, "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert not (tmp_path / "x.png").exists()


@pytest.mark.slow
def test_compare_and_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "compare.png"
    assert (
        run(
            [
                "screenshot",
                "--scene",
                "compare",
                "--game",
                "tictactoe",
                "--moves",
                "15",
                "--depth",
                "2",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert _size(out) == (1280, 800)
    out = tmp_path / "policy.png"
    assert (
        run(
            [
                "screenshot",
                "--scene",
                "policy",
                "--game",
                "pig",
                "--moves",
                "r4h",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert _size(out) == (1280, 800)
    capsys.readouterr()


def test_the_explorer_draws_mcts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mcts.png"
    argv = ["screenshot", "--scene", "explorer", "--game", "tictactoe", "--moves", "5193"]
    argv += ["--algorithm", "mcts", "--iterations", "30", "--seed", "2", "--step", "40"]
    assert run([*argv, "--size", "800x600", "--out", str(out)]) == 0
    assert _size(out) == (800, 600)
    assert "explorer scene of Tic-tac-toe written" in capsys.readouterr().out
