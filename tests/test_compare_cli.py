"""The `compare` and `policy` commands: tables, JSON, PNG, and one-line errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from plyground.cli import run


class _Command:
    """`plyground NAME ARGS` as a function of ARGS."""

    def __init__(self, name: str) -> None:
        self.name = name

    def main(self, argv: list[str]) -> int:
        return run([self.name, *argv])


compare_cli = _Command("compare")
compare_policy_cli = _Command("policy")


@pytest.mark.slow
def test_compare_prints_tables_and_writes_json_and_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, plot = tmp_path / "c.json", tmp_path / "c.png"
    code = compare_cli.main(
        [
            "--game",
            "connect4",
            "--moves",
            "4453",
            "--depth",
            "1-4",
            "--json",
            str(data),
            "--plot",
            str(plot),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "Connect Four, depth 4" in out and "alpha-beta + ordering" in out and "2,717" in out
    saved = json.loads(data.read_text())
    assert saved["moves"] == "4453" and saved["game"] == "connect4"
    rows = saved["rows"]
    assert [r["nodes"] for r in rows if r["variant"] == "minimax"] == [8, 57, 400, 2717]
    for depth in (1, 2, 3, 4):
        assert len({r["value"] for r in rows if r["depth"] == depth}) == 1
    assert {r["move"] for r in rows if r["depth"] == 4} <= set("1234567")
    assert pygame.image.load(str(plot)).get_size() == (1200, 720)


def test_compare_pig_with_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    code = compare_cli.main(
        ["--game", "pig", "--option", "goal=30", "--moves", "r4", "--depth", "2"]
    )
    out = capsys.readouterr().out
    assert code == 0 and "expectiminimax + table" in out and "of expectiminimax" in out
    assert "│  r   │" in out


@pytest.mark.slow
def test_compare_skips_what_would_take_too_long(capsys: pytest.CaptureFixture[str]) -> None:
    code = compare_cli.main(["--game", "connect4", "--depth", "2,9", "--max-seconds", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "minimax at depth 9 skipped: estimated" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "connect4", "--depth", "0"], "--depth"),
        (["--game", "connect4", "--moves", "448"], "moves '448'"),
        (["--game", "connect4", "--moves", "9"], "moves"),
        (["--game", "tictactoe", "--moves", "14253"], "game is over"),
        (["--game", "pig", "--moves", "r"], "dice"),
        (["--game", "pig", "--option", "goal=0"], "goal"),
        (["--game", "pig", "--option", "speed=3"], "speed"),
        (["--game", "tictactoe", "--heuristic", "nope"], "heuristic"),
        (["--game", "tictactoe", "--plot", "x.txt"], ".png"),
        (["--game", "tictactoe", "--plot", "/no/such/dir/x.png"], "folder"),
        (["--game", "tictactoe", "--max-seconds", "0"], "max-seconds"),
    ],
)
def test_compare_mistakes_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare_cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_compare_unknown_game_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert compare_cli.main(["--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_policy_prints_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "p.png"
    code = compare_policy_cli.main(
        [
            "--game",
            "pig",
            "--option",
            "goal=30",
            "--moves",
            "r4r6h r5r3",
            "--ai",
            "hard",
            "--plot",
            str(plot),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "Pig to 30: the optimal policy" in out and "hold at 20" in out
    assert "Scores 0-10, turn total 8" in out
    assert pygame.image.load(str(plot)).get_size() == (1600, 760)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "tictactoe"], "no reference policy"),
        (["--game", "pig", "--ai", "godlike"], "Easy, Medium, Hard, Expert"),
        (["--game", "pig", "--moves", "r"], "dice"),
        (["--game", "pig", "--option", "goal=10", "--moves", "r6r6h"], "over"),
        (["--game", "pig", "--plot", "p.jpg"], ".png"),
    ],
)
def test_policy_mistakes_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert compare_policy_cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
