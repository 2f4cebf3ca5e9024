"""Tic-tac-toe rules: exact game and position counts, wins, value 0, notation."""

from __future__ import annotations

import functools
import math
import pickle

import pytest

from plyground import games
from plyground.games import tictactoe
from plyground.games.tictactoe import EMPTY, State

GAME = tictactoe.Game()


def count_games(state: State, positions: set[int]) -> int:
    positions.add(state.key())
    if state.is_terminal():
        return 1
    return sum(count_games(state.play(move), positions) for move in state.legal_moves())


@pytest.mark.slow
def test_game_and_position_counts() -> None:
    positions: set[int] = set()
    assert count_games(GAME.initial_state(), positions) == 255_168
    assert len(positions) == 5_478


def test_perfect_play_is_a_draw() -> None:
    @functools.cache
    def negamax(state: State) -> int:
        if state.is_terminal():
            return 0 if state.winner() is None else -1  # the previous mover won
        return max(-negamax(state.play(move)) for move in state.legal_moves())

    assert negamax(EMPTY) == 0
    assert negamax(GAME.replay([0, 1])) == 1  # O answered a corner with an edge: X wins


def test_initial_state() -> None:
    assert EMPTY.to_move == EMPTY.player == 0 and EMPTY.ply == 0
    assert EMPTY.legal_moves() == (4, 0, 2, 6, 8, 1, 3, 5, 7)
    assert not EMPTY.is_terminal() and EMPTY.winner() is None
    assert EMPTY.chance_outcomes() == () and not State.STOCHASTIC


@pytest.mark.parametrize(
    ("moves", "winner", "line"),
    [
        ("14253", 0, (0, 1, 2)),  # top row
        ("415293", 1, (0, 1, 2)),  # O's top row
        ("12457", 0, (0, 3, 6)),  # left column
        ("1529", None, None),  # no line yet
        ("12539", 0, (0, 4, 8)),  # diagonal
        ("32547", 0, (2, 4, 6)),  # anti-diagonal
    ],
)
def test_wins(moves: str, winner: int | None, line: tuple[int, ...] | None) -> None:
    state = GAME.replay(GAME.parse_moves(moves))
    assert state.winner() == winner
    assert state.is_terminal() == (winner is not None)
    assert state.winning_line() == line
    if winner is not None:
        assert state.utility(winner) == 1.0 and state.utility(1 - winner) == -1.0
        assert state.legal_moves() == ()


def test_double_line_and_draw() -> None:
    double = GAME.replay(GAME.parse_moves("12375468"))
    assert double.winner() is None
    double = double.play(8)  # X at 8 completes the right column and the diagonal
    assert double.winner() == 0
    assert double.winning_line() == (0, 2, 4, 5, 8)
    draw = GAME.replay(GAME.parse_moves("513746829"))
    assert draw.is_terminal() and draw.winner() is None and draw.ply == 9
    assert draw.utility(0) == draw.utility(1) == 0.0 and draw.winning_line() is None


def test_cells_and_keys() -> None:
    state = GAME.replay([4, 0])
    assert [state.cell(i) for i in range(9)] == [1, None, None, None, 0, None, None, None, None]
    assert state.key() == (1 << 4) | (1 << 0) << 9
    assert GAME.replay([4, 0, 8]) == GAME.replay([8, 0, 4])
    assert GAME.replay([4, 0, 8]).key() == GAME.replay([8, 0, 4]).key()


def test_heuristics() -> None:
    assert set(GAME.heuristics) == {"lines", "centre", "none"}
    assert GAME.default_heuristic == "lines"
    after_centre = GAME.replay([4])  # O to move, X holds the centre
    assert tictactoe.evaluate_lines(after_centre) < 0
    assert tictactoe.evaluate_centre(after_centre) < 0
    assert tictactoe.GAME.heuristics["none"].evaluate(after_centre) == 0.0
    # X to move with two in a line (and O has not blocked it) is better for X.
    assert tictactoe.evaluate_lines(GAME.replay([0, 4, 1, 8])) > tictactoe.evaluate_lines(
        GAME.replay([0, 4, 8, 1])
    )
    for heuristic in GAME.heuristics.values():
        assert heuristic.description.endswith(".")


def test_notation_and_errors() -> None:
    assert GAME.parse_moves("5 1 9") == [4, 0, 8]
    assert GAME.format_moves([4, 0, 8]) == "519"
    assert GAME.parse_move("9", EMPTY) == 8
    with pytest.raises(games.IllegalMoveError, match=r"move 2: illegal move '5' \(cell 5 is taken"):
        GAME.parse_moves("55")
    with pytest.raises(games.IllegalMoveError, match="a move is one cell number 1-9"):
        GAME.parse_moves("0")
    with pytest.raises(games.IllegalMoveError, match=r"move 6: .*the game is over"):
        GAME.parse_moves("142536")
    with pytest.raises(games.IllegalMoveError, match=r"illegal move 4 \(cell 4 is taken\); legal"):
        GAME.replay([4]).play(4)
    with pytest.raises(games.IllegalMoveError, match="legal moves: 0, 1, 2, 3, 4, 5, 6, 7, 8"):
        EMPTY.play(9)


def test_render() -> None:
    assert GAME.render(GAME.replay([4, 0, 8])) == "O . .\n. X .\n. . X"


def test_constructor_checks() -> None:
    with pytest.raises(ValueError):
        State(x=0b11, o=0)
    with pytest.raises(ValueError):
        State(x=1, o=1)
    assert State(x=1 << 4, o=0).to_move == 1


def test_pickle() -> None:
    state = GAME.replay([4, 0])
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.to_move == 0 and copy.game.name == "tictactoe"


def test_centre_heuristic_uses_the_cell_weights() -> None:
    assert tictactoe.CELL_WEIGHTS == (3, 2, 3, 2, 4, 2, 3, 2, 3)
    state = GAME.replay([4, 0, 1])  # O to move: X has 4 + 2, O has 3
    expected = 0.9 * math.tanh((3 - 6) / tictactoe.CENTRE_SCALE)
    assert tictactoe.evaluate_centre(state) == pytest.approx(expected)
