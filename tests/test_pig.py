"""Pig rules: rolling, pigging out, holding, winning, chance nodes, keys and notation."""

from __future__ import annotations

import math
import pickle
from collections import deque
from typing import Any

import pytest

from plyground import games
from plyground.games import CHANCE
from plyground.games.pig import rules as pig
from plyground.games.pig.rules import HOLD, ROLL, State

GAME = pig.Game(goal=20)


def test_get_game_and_goal() -> None:
    default: Any = games.get_game("pig")
    assert default.goal == 100
    assert games.get_game("pig", goal=20).initial_state().goal == 20
    for bad in (0, -5, 2.5, "20", True):
        with pytest.raises(ValueError, match="goal"):
            games.get_game("pig", goal=bad)
    with pytest.raises(ValueError, match="option"):
        games.get_game("pig", target=20)


def test_initial_state() -> None:
    state = GAME.initial_state()
    assert state.scores == (0, 0) and state.turn_total == 0
    assert state.to_move == state.player == 0 and state.ply == 0
    assert state.legal_moves() == (ROLL,)
    assert not state.is_terminal() and state.winner() is None
    assert state.chance_outcomes() == ()
    assert State.STOCHASTIC and GAME.stochastic


def test_roll_makes_a_chance_node() -> None:
    rolled = GAME.initial_state().play(ROLL)
    assert rolled.to_move == CHANCE and rolled.player == 0
    assert rolled.ply == 1
    outcomes = rolled.chance_outcomes()
    assert [face for face, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    assert rolled.legal_moves() == (1, 2, 3, 4, 5, 6)


def test_faces_add_to_the_turn_total() -> None:
    state = GAME.initial_state().play(ROLL).play(4)
    assert state.turn_total == 4 and state.to_move == state.player == 0
    assert state.legal_moves() == (ROLL, HOLD)
    state = state.play(ROLL).play(6)
    assert state.turn_total == 10 and state.ply == 2  # chance outcomes are not decisions


def test_a_one_wipes_the_turn_total_and_passes_the_turn() -> None:
    state = GAME.replay([ROLL, 5, ROLL, 1])
    assert state.turn_total == 0 and state.scores == (0, 0)
    assert state.to_move == state.player == 1


def test_hold_banks_and_passes() -> None:
    state = GAME.replay([ROLL, 5, ROLL, 3, HOLD])
    assert state.scores == (8, 0) and state.turn_total == 0
    assert state.to_move == state.player == 1
    assert not state.is_terminal()


def test_hold_with_nothing_is_illegal() -> None:
    with pytest.raises(
        games.IllegalMoveError, match=r"'hold' \(nothing to hold.*legal moves: roll"
    ):
        GAME.initial_state().play(HOLD)
    with pytest.raises(games.IllegalMoveError, match="legal moves: 1, 2, 3, 4, 5, 6"):
        GAME.initial_state().play(ROLL).play(HOLD)
    with pytest.raises(games.IllegalMoveError):
        GAME.initial_state().play(ROLL).play(7)
    with pytest.raises(games.IllegalMoveError):
        GAME.initial_state().play(ROLL).play(True)  # a bool is not a die face
    with pytest.raises(games.IllegalMoveError):
        GAME.initial_state().play(3)  # a face at a decision


def test_reaching_the_goal_on_hold_wins() -> None:
    state = GAME.replay([ROLL, 6, ROLL, 6, ROLL, 6])
    assert state.turn_total == 18 and not state.is_terminal()
    state = state.play(ROLL).play(5)  # 23 at stake: not a win until held
    assert not state.is_terminal()
    assert state.legal_moves() == (HOLD, ROLL)  # the winning hold first
    won = state.play(HOLD)
    assert won.is_terminal() and won.winner() == 0 and won.scores == (23, 0)
    assert won.utility(0) == 1.0 and won.utility(1) == -1.0
    assert won.legal_moves() == () and won.chance_outcomes() == ()
    with pytest.raises(games.IllegalMoveError, match="game is over"):
        won.play(ROLL)


def test_second_player_can_win() -> None:
    moves: list[pig.Move] = [ROLL, 1, ROLL, 6, ROLL, 6, ROLL, 6, ROLL, 6, HOLD]
    state = GAME.replay(moves)
    assert state.winner() == 1 and state.scores == (0, 24)


def reachable(goal: int, max_turn_total: int) -> list[State]:
    """Every state reachable with turn totals up to a bound (the graph has cycles)."""
    start = pig.Game(goal).initial_state()
    seen = {start}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for move in state.legal_moves():
            child = state.play(move)
            if child.turn_total <= max_turn_total and child not in seen:
                seen.add(child)
                queue.append(child)
    return list(seen)


def test_keys_are_unique_and_ignore_ply() -> None:
    states = reachable(goal=12, max_turn_total=20)
    assert len(states) > 1000
    assert any(s.is_terminal() for s in states)
    keys = {s.key(): s for s in states}
    assert len(keys) == len(states)
    a = GAME.replay([ROLL, 1, ROLL, 1])
    b = GAME.initial_state()
    assert a == b and a.key() == b.key() and a.ply != b.ply  # the same position


@pytest.mark.slow
def test_heuristics_are_bounded() -> None:
    assert set(GAME.heuristics) == {"race", "score", "optimal", "none"}
    assert GAME.default_heuristic == "race"
    states = [s for s in reachable(goal=20, max_turn_total=30) if not s.is_terminal()]
    for name, heuristic in GAME.heuristics.items():
        values = [heuristic.evaluate(s) for s in states]
        if name == "optimal":
            assert all(-1 < v < 1 for v in values)
        else:
            assert all(-0.9 <= v <= 0.9 for v in values), name
        assert heuristic.description.endswith(".")


def test_heuristics_favour_the_leader() -> None:
    ahead = State(goal=100, scores=(80, 20), turn_total=0, player=0, to_move=0)
    behind = State(goal=100, scores=(20, 80), turn_total=0, player=0, to_move=0)
    for name in ("race", "score", "optimal"):
        evaluate = GAME.heuristics[name].evaluate
        assert evaluate(ahead) > 0.5 > -0.5 > evaluate(behind), name
    # At a chance node the heuristic speaks for the player who rolled.
    rolled = State(goal=100, scores=(80, 20), turn_total=5, player=0, to_move=CHANCE)
    assert pig.evaluate_race(rolled) > 0.5


def test_optimal_heuristic_matches_the_table() -> None:
    from plyground.games.pig.optimal import optimal_table

    table = optimal_table(20)
    decision = State(goal=20, scores=(7, 12), turn_total=4, player=1, to_move=1)
    assert pig.evaluate_optimal(decision) == pytest.approx(2 * table.win_probability(12, 7, 4) - 1)
    rolled = State(goal=20, scores=(7, 12), turn_total=4, player=1, to_move=CHANCE)
    expected = (1 - table.win_probability(7, 12, 0)) + sum(
        table.win_probability(12, 7, 4 + face) for face in range(2, 7)
    )
    assert pig.evaluate_optimal(rolled) == pytest.approx(2 * expected / 6 - 1)
    sure = State(goal=20, scores=(15, 0), turn_total=6, player=0, to_move=0)
    assert 0.999 < pig.evaluate_optimal(sure) < 1


def test_notation() -> None:
    moves = GAME.parse_moves("r4r6h r1 r5h")
    assert moves == [ROLL, 4, ROLL, 6, HOLD, ROLL, 1, ROLL, 5, HOLD]
    assert GAME.parse_moves("r4r6hr1r5h") == moves
    assert GAME.format_moves(moves) == "r4r6h r1 r5h"
    state = GAME.replay(moves)
    assert state.scores == (15, 0) and state.to_move == 1  # "r1" was player 2's turn
    assert GAME.parse_move("roll", state) == ROLL
    assert GAME.parse_move(" H ", GAME.replay([ROLL, 3])) == HOLD


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h", r"move 1: illegal move 'h' \(nothing to hold: the turn total is 0\); legal moves: r"),
        ("4", "move 1: illegal move '4' .*r \\(roll\\) or h \\(hold\\)"),
        (
            "rr",
            r"move 2: illegal move 'r' \(after a roll comes the die face, a digit 1-6\); "
            "legal moves: 1, 2, 3, 4, 5, 6",
        ),
        ("r7", "move 2: illegal move '7'"),
        ("r3x", "move 3: illegal move 'x'"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    with pytest.raises(games.IllegalMoveError, match=message):
        GAME.parse_moves(text)


def test_render() -> None:
    state = GAME.replay(GAME.parse_moves("r4r6h r3"))
    assert GAME.render(state) == "Pig to 20\nPlayer 1:  10\nPlayer 2:   0  <- turn total 3"
    rolling = state.play(ROLL)
    assert GAME.render(rolling).endswith("<- turn total 3, rolling")
    won = GAME.replay(GAME.parse_moves("r6r6r6r6h"))
    assert GAME.render(won).endswith("Player 1 wins")


def test_constructor_checks() -> None:
    with pytest.raises(ValueError):
        State(goal=20, scores=(25, 20))  # two winners
    with pytest.raises(ValueError):
        State(goal=20, player=0, to_move=1)
    with pytest.raises(ValueError):
        State(goal=20, turn_total=-1)


def test_pickle_and_game_link() -> None:
    state = GAME.replay([ROLL, 4])
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.ply == state.ply
    assert state.game.goal == 20 and state.game.name == "pig"
    assert isinstance(state, games.State) and isinstance(GAME, games.Game)
