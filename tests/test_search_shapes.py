"""The engine equals the textbook on games of every shape: random small games where a side
often moves twice in a row, lines meet again, and (with chance) dice are rolled
(tests/random_shape_game.py).  Every algorithm the engine offers, at every depth, every
root move: the pruning search at a fixed depth (every value, and the best only), full
width, expectiminimax, and the solve (no depth limit)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plyground import ai
from plyground.ai.textbook.expectiminimax import expectiminimax
from plyground.ai.textbook.game_view import TextbookGame
from plyground.ai.textbook.minimax import minimax
from plyground.games import CHANCE
from tests.random_shape_game import Game

SHAPES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def textbook_values(state: Any, depth: int, chance: bool) -> dict[Any, float]:
    """Each root move's value by the textbook's own function (minimax, or expectiminimax
    with chance), on the shown scale, for the player to move."""
    view = TextbookGame(state, "drawn")
    start = view.start(depth)
    search = expectiminimax if chance else minimax
    values = {}
    for move in state.legal_moves():
        value = view.show(search(view, view.result(start, move), depth - 1))
        assert value is not None
        values[move] = value
    return values


def a_decision(game: Game, path: list[int]) -> Any:
    """The position after following `path` (move numbers, wrapped), stopping before an end
    and past chance nodes; the start if that is all there is."""
    state = game.initial_state()
    for step in path:
        if state.is_terminal():
            break
        if state.to_move == CHANCE:
            state = state.play(step % len(state.legal_moves()))
            continue
        after = state.play(step % len(state.legal_moves()))
        if after.is_terminal():
            break
        state = after
    return state


def extra_turns(game: Game) -> int:
    """How many moves of the game's graph give the side to move another turn."""
    count = 0
    seen = set()
    todo = [game.initial_state()]
    while todo:
        state = todo.pop()
        if state.key() in seen or state.is_terminal():
            continue
        seen.add(state.key())
        for move in state.legal_moves():
            child = state.play(move)
            count += state.to_move != CHANCE and child.player == state.player
            todo.append(child)
    return count


@SHAPES
@given(seed=st.integers(0, 10**9), path=st.lists(st.integers(0, 8), max_size=3))
def test_every_search_equals_the_textbook_with_extra_turns(seed: int, path: list[int]) -> None:
    game = Game(seed=seed, height=6, width=4)
    state = a_decision(game, path)
    if state.is_terminal() or state.to_move == CHANCE:
        return
    for depth in range(1, 8):
        want = textbook_values(state, depth, chance=False)
        for algorithm in ("minimax", "alphabeta", "expectiminimax"):
            config = ai.SearchConfig(ai.DepthLimited(algorithm, depth, "drawn"), book=False)
            assert ai.search(state, config).values == want, (seed, path, depth, algorithm)
        best = ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth, "drawn"), all_values=False)
        )
        assert best.value == max(want.values()), (seed, path, depth)
        assert want[best.move] == best.value
    solved = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", None, "drawn"), book=False)
    )
    assert solved.values == textbook_values(state, 8, chance=False), (seed, path)
    assert all(value.is_exact for value in solved.move_values.values())
    chosen = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", None, "drawn"), all_values=False)
    )
    assert chosen.value == max(solved.values.values())


@SHAPES
@given(seed=st.integers(0, 10**9), path=st.lists(st.integers(0, 8), max_size=3))
def test_expectiminimax_equals_the_textbook_with_extra_turns_and_chance(
    seed: int, path: list[int]
) -> None:
    game = Game(seed=seed, chance=1, height=6, width=4)
    state = a_decision(game, path)
    if state.is_terminal() or state.to_move == CHANCE:
        return
    for depth in range(1, 8):
        want = textbook_values(state, depth, chance=True)
        config = ai.SearchConfig(ai.DepthLimited("expectiminimax", depth, "drawn"), book=False)
        got = ai.search(state, config).values
        assert got.keys() == want.keys()
        for move, value in want.items():
            assert abs(got[move] - value) < 1e-9, (seed, path, depth, move)


def test_the_random_games_have_extra_turns() -> None:
    """The shapes the properties need are there: most games give some side a second move."""
    with_extra = sum(extra_turns(Game(seed=seed)) > 0 for seed in range(20))
    assert with_extra >= 15


def line_outcome(state: Any, line: frozenset[Any]) -> tuple[int, int]:
    """(result, plies) for the side to move, each line followed to its end or to a position
    it reached before (a draw): 1 a win, 0 a draw, -1 a loss; a quicker win and a slower
    loss are better.  No table: every line is its own."""
    if state.is_terminal():
        return (int(state.utility(state.player)), 0)
    if state.key() in line:
        return (0, 0)
    below = line | {state.key()}
    best: tuple[int, int] | None = None
    for move in state.legal_moves():
        child = state.play(move)
        result, plies = line_outcome(child, below)
        mine = (result if child.player == state.player else -result, plies + 1)
        if best is None or rank(mine) > rank(best):
            best = mine
    assert best is not None
    return best


def rank(outcome: tuple[int, int]) -> tuple[int, int]:
    result, plies = outcome
    return (result, -plies if result > 0 else (plies if result < 0 else 0))


def as_value(outcome: tuple[int, int]) -> float:
    result, plies = outcome
    return 0.0 if result == 0 else result * (1 - plies / 1000)


@SHAPES
@given(seed=st.integers(0, 10**9), path=st.lists(st.integers(0, 8), max_size=3))
def test_the_solve_follows_each_line_where_positions_repeat(seed: int, path: list[int]) -> None:
    """A position that comes back within a line is a draw there; a fixed depth does not look
    at repetitions, as the textbook does not."""
    game = Game(seed=seed, height=4, width=3, loops=1)
    state = a_decision(game, path)
    if state.is_terminal():
        return
    want = {}
    for move in state.legal_moves():
        child = state.play(move)
        result, plies = line_outcome(child, frozenset({state.key()}))
        again = child.player == state.player
        want[move] = as_value((result if again else -result, plies + 1))
    solved = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", None, "drawn"), book=False)
    )
    assert solved.values == pytest.approx(want, abs=1e-9), (seed, path)
    best = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", None, "drawn"), all_values=False)
    )
    assert best.value == pytest.approx(max(want.values()), abs=1e-9), (seed, path)
    for depth in (1, 3, 6):
        config = ai.SearchConfig(ai.DepthLimited("alphabeta", depth, "drawn"), book=False)
        assert ai.search(state, config).values == textbook_values(state, depth, chance=False)
