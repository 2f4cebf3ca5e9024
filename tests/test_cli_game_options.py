"""Game options on the command line come from the games' descriptions: `--goal N`,
`--option goal=N`, and the flags of a game registered by a test (a tiny Nim)."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

import main
from plyground import games
from plyground.cli.analyze_command import default_depth
from plyground.games.base import NO_HEURISTIC, GameOption, Heuristic, IllegalMoveError, Preset
from plyground.games.search_settings import DepthLimited


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """main.main(argv) with its exit status and captured output."""
    status = main.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# --------------------------------------------------------------------------- a test game


@dataclass(frozen=True)
class NimState:
    """Three heaps; a move takes 1-3 stones from one heap; who takes the last stone wins."""

    STOCHASTIC = False
    heaps: tuple[int, int, int]
    to_move: int = 0
    ply: int = 0

    @property
    def player(self) -> int:
        return self.to_move

    @property
    def game(self) -> NimGame:
        return NimGame(max(self.heaps) or 1)

    def legal_moves(self) -> tuple[tuple[int, int], ...]:
        return tuple(
            (heap, take)
            for heap, size in enumerate(self.heaps)
            for take in (1, 2, 3)
            if take <= size
        )

    def play(self, move: tuple[int, int]) -> NimState:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move {move!r}")
        heap, take = move
        heaps = list(self.heaps)
        heaps[heap] -= take
        return NimState((heaps[0], heaps[1], heaps[2]), 1 - self.to_move, self.ply + 1)

    def is_terminal(self) -> bool:
        return not any(self.heaps)

    def winner(self) -> int | None:
        return 1 - self.to_move if self.is_terminal() else None

    def utility(self, player: int) -> float:
        return 1.0 if self.winner() == player else -1.0

    def chance_outcomes(self) -> tuple[tuple[Any, float], ...]:
        return ()

    def key(self) -> tuple[tuple[int, int, int], int]:
        return self.heaps, self.to_move

    def winning_line(self) -> None:
        return None


class NimGame:
    """Nim with three heaps of `stones` stones each."""

    name = "nimtest"
    title = "Test Nim"
    stochastic = False
    default_heuristic = "none"
    side_names = ("First", "Second")
    options = (GameOption("stones", "Stones", 3, 1, 9, "stones in each heap"),)
    notation_help = "heap letter and stones taken, e.g. a2 c1"
    presets = (
        Preset("Easy", DepthLimited("alphabeta", 1)),
        Preset("Expert", DepthLimited("alphabeta", 3)),
    )

    def __init__(self, stones: int = 3) -> None:
        self.stones = stones
        self.heuristics: dict[str, Heuristic] = {"none": NO_HEURISTIC}

    def option_values(self) -> dict[str, int]:
        return {"stones": self.stones}

    def initial_state(self) -> NimState:
        return NimState((self.stones,) * 3)  # type: ignore[arg-type]

    def parse_move(self, text: str, state: Any) -> tuple[int, int]:
        if len(text) != 2 or text[0] not in "abc" or not text[1].isdigit():
            raise ValueError(f"{text!r} is not a move: {self.notation_help}")
        return "abc".index(text[0]), int(text[1])

    def format_move(self, move: tuple[int, int]) -> str:
        return "abc"[move[0]] + str(move[1])

    def parse_moves(self, text: str) -> list[tuple[int, int]]:
        return [self.parse_move(part, None) for part in text.split()]

    def format_moves(self, moves: Sequence[tuple[int, int]]) -> str:
        return " ".join(self.format_move(move) for move in moves)

    def replay(self, moves: Sequence[tuple[int, int]]) -> NimState:
        return games.replay(self.initial_state(), moves)  # type: ignore[no-any-return]

    def render(self, state: NimState) -> str:
        return "  ".join(f"{'abc'[i]}:{'|' * size}" for i, size in enumerate(state.heaps))


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> type[NimGame]:
    """Nim registered for this test only."""
    monkeypatch.setitem(games.GAMES, NimGame.name, NimGame)
    return NimGame


# --------------------------------------------------------------------------- tests


def test_option_by_name_equals_its_own_flag(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["analyze", "--game", "pig", "--moves", "r4r6h", "--depth", "2", "--json"]
    _, by_flag, _ = run(capsys, *base, "--goal", "30")
    _, by_name, _ = run(capsys, *base, "--option", "goal=30")
    report = json.loads(by_flag)
    assert "30" in report["position"]
    report.pop("elapsed"), report.pop("nodes_per_second"), report.pop("time")
    other = json.loads(by_name)
    other.pop("elapsed"), other.pop("nodes_per_second"), other.pop("time")
    assert report == other


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["analyze", "--game", "pig", "--goal", "5"], "goal must be 10 to 1000"),
        (["analyze", "--game", "pig", "--option", "goal=5000"], "goal must be 10 to 1000"),
        (["analyze", "--game", "pig", "--option", "goal"], "NAME=VALUE"),
        (["analyze", "--game", "pig", "--option", "goal=lots"], "whole number"),
        (["analyze", "--game", "pig", "--option", "depth=3"], "no game takes"),
        (["analyze", "--game", "tictactoe", "--option", "goal=30"], "only to pig, not to tic"),
        (["match", "--game", "connect4", "--goal", "30", "--p1", "easy", "--p2", "easy"], "pig"),
        (["tournament", "--game", "connect4", "--goal", "30", "--players", "a,b"], "pig"),
    ],
)
def test_bad_game_options_give_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert expected in err


def test_help_lists_games_with_their_notation_and_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "analyze", "--help")
    assert status == 0
    for factory in games.GAMES.values():
        assert factory.notation_help in out  # type: ignore[attr-defined]
    assert "--goal N" in out and "10-1000, default 100" in out
    assert "--option NAME=VALUE" in out
    assert "tictactoe solve, connect4 8, pig 4" in out


def test_default_depths_come_from_the_presets() -> None:
    depths = {name: default_depth(factory().presets) for name, factory in games.GAMES.items()}
    assert depths == {"tictactoe": None, "connect4": 8, "pig": 4}


def test_a_registered_game_gets_its_own_option_flag(
    capsys: pytest.CaptureFixture[str], nim: type[NimGame]
) -> None:
    status, out, _ = run(capsys, "match", "--help")
    assert status == 0
    assert "--stones N" in out and "nimtest only" in out and nim.notation_help in out
    status, out, err = run(
        capsys, "analyze", "--game", "nimtest", "--stones", "2", "--moves", "a2", "--json"
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["moves_played"] == "a2" and report["depth_asked"] == 5
    assert report["position"] == "a:  b:||  c:||"
    # two equal heaps left: the player to move loses whatever they do
    assert {entry["meaning"] for entry in report["moves"]} <= {
        "loss in 2 for Second",
        "loss in 4 for Second",
    }
    status, _, err = run(capsys, "analyze", "--game", "nimtest", "--stones", "12")
    assert status == 2 and "stones must be 1 to 9" in err
    status, _, err = run(capsys, "analyze", "--game", "nimtest", "--goal", "30")
    assert status == 2 and "--goal applies only to pig, not to nimtest" in err
    status, _, err = run(capsys, "analyze", "--game", "pig", "--stones", "3")
    assert status == 2 and "--stones applies only to nimtest, not to pig" in err


def test_help_examples_come_from_the_registry_and_run(
    capsys: pytest.CaptureFixture[str], nim: type[NimGame]
) -> None:
    status, out, _ = run(capsys, "match", "--help")
    assert "plyground match --game nimtest --stones 3 --p1 expert --p2 easy" in out
    status, out, _ = run(capsys, "analyze", "--help")
    examples = [
        shlex.split(line)[1:]
        for line in out.splitlines()
        if line.startswith("  plyground analyze --game")
    ]
    assert len(examples) == len(games.GAMES) + 1
    for argv in examples:
        status, _, err = run(capsys, *argv, "--depth", "2")
        assert status == 0, (argv, err)
