"""Properties of the searches over random positions of every game (hypothesis)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plyground import ai, games
from plyground.games import CHANCE

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_position(game: Any, seed: int, max_moves: int) -> Any:
    """A non-terminal position reached by random legal moves (and random dice)."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(rng.randint(0, max_moves)):
        if state.is_terminal():
            break
        state = state.play(rng.choice(state.legal_moves()))
    while state.is_terminal():  # step back to the start if the game ended
        state = game.initial_state()
    if state.to_move == CHANCE:
        state = state.play(rng.choice(state.legal_moves()))
    return state if not state.is_terminal() else game.initial_state()


@FAST
@given(
    game_name=st.sampled_from(["tictactoe", "connect4"]),
    seed=st.integers(0, 10**6),
    depth=st.integers(1, 4),
    data=st.data(),
)
def test_alphabeta_equals_minimax(game_name: str, seed: int, depth: int, data: Any) -> None:
    game = games.get_game(game_name)
    state = random_position(game, seed, 30)
    heuristic = data.draw(st.sampled_from(sorted(game.heuristics)))
    reference = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", depth, heuristic)))
    pruned = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth, heuristic)))
    best_only = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth, heuristic), all_values=False)
    )
    expecti = ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", depth, heuristic)))
    assert pruned.values == reference.values
    assert expecti.values == reference.values
    assert best_only.value == reference.value
    assert reference.values[best_only.move] == reference.value


def naive_expectiminimax(state: Any, depth: int, evaluate: Any) -> float:
    """Textbook expectiminimax on the [-1, 1] scale, no table, for the state's player."""
    if state.is_terminal():
        return float(state.utility(state.player))
    if state.to_move == CHANCE:
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            child = state.play(outcome)
            value = naive_expectiminimax(child, depth, evaluate)
            total += probability * (value if child.player == state.player else -value)
        return total
    if depth == 0:
        return float(evaluate(state))
    best = -2.0
    for move in state.legal_moves():
        child = state.play(move)
        value = naive_expectiminimax(child, depth - 1, evaluate)
        best = max(best, value if child.player == state.player else -value)
    return best


@FAST
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 3), goal=st.sampled_from([10, 20, 100]))
def test_expectiminimax_equals_the_textbook_recursion_on_pig(
    seed: int, depth: int, goal: int
) -> None:
    game = games.get_game("pig", goal=goal)
    state = random_position(game, seed, 40)
    for name in ("score", "race"):
        evaluate = game.heuristics[name].evaluate
        result = ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", depth, name)))
        expected = naive_expectiminimax(state, depth, evaluate)
        assert abs(result.value - expected) < 1e-5


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(game_name=st.sampled_from(sorted(games.GAMES)), seed=st.integers(0, 10**6))
def test_every_preset_plays_legal_moves(game_name: str, seed: int) -> None:
    game = games.get_game(game_name, **({"goal": 30} if game_name == "pig" else {}))
    state = random_position(game, seed, 20)
    for name, config in ai.DIFFICULTIES[game_name].items():
        if config.time_limit is not None:
            config = ai.with_seed(config, seed)  # keep the test quick: a short budget
            config = dataclasses.replace(config, time_limit=0.05, seed=seed)
        player = ai.make_player(config, game)
        move = player.choose(state)
        assert move in state.legal_moves(), (name, move)


@settings(max_examples=30, deadline=None)
@given(game_name=st.sampled_from(sorted(games.GAMES)), seed=st.integers(0, 10**6))
def test_ai_vs_ai_games_end_with_legal_moves(game_name: str, seed: int) -> None:
    game = games.get_game(game_name, **({"goal": 20} if game_name == "pig" else {}))
    rng = random.Random(seed)
    players = [
        ai.make_player(
            ai.SearchPlayer(ai.DepthLimited(ai.algorithms_for(game)[-1], 2), seed=seed), game
        ),
        ai.RandomPlayer(seed),
    ]
    state = game.initial_state()
    for _ in range(2000):
        if state.is_terminal():
            break
        if state.to_move == CHANCE:
            state = state.play(games.sample_outcome(state, rng))
            continue
        move = players[state.to_move].choose(state)
        assert move in state.legal_moves()
        state = state.play(move)
    assert state.is_terminal()
