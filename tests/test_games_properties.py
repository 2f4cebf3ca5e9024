"""Properties every game must have, checked on random playouts of every game (hypothesis)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground import games
from plyground.games import CHANCE, IllegalMoveError
from plyground.games.base import sample_outcome

NAMES = sorted(games.GAMES)
OPTIONS: dict[str, dict[str, Any]] = {"pig": {"goal": 20}}
MAX_MOVES = 20_000
"""Far more than any game needs: Pig to 20 with random moves ends in a few hundred."""
CANDIDATE_MOVES: list[Any] = [*range(-2, 12), "roll", "hold", "r", "x", None, 2.5, (3,)]
"""Moves of every game plus nonsense, to try against each state."""


def make_game(name: str) -> Any:
    return games.get_game(name, **OPTIONS.get(name, {}))


def playout(game: Any, seed: int) -> tuple[list[Any], list[Any]]:
    """(states from the start to the end, the moves between them), with random choices."""
    rng = random.Random(seed)
    state = game.initial_state()
    states: list[Any] = [state]
    moves: list[Any] = []
    while not state.is_terminal():
        assert len(moves) < MAX_MOVES, "the game did not end"
        if state.to_move == CHANCE:
            move = sample_outcome(state, rng)
        else:
            move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
        states.append(state)
    return states, moves


def snapshot(state: Any) -> tuple[Any, ...]:
    return tuple(getattr(state, f.name) for f in dataclasses.fields(state))


games_and_seeds = given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32 - 1))


@games_and_seeds
@settings(max_examples=60, deadline=None)
def test_random_playouts_end_with_a_result(name: str, seed: int) -> None:
    game = make_game(name)
    states, _ = playout(game, seed)
    end = states[-1]
    assert end.legal_moves() == () and end.chance_outcomes() == ()
    winner = end.winner()
    for player in (0, 1):
        expected = 0.0 if winner is None else (1.0 if winner == player else -1.0)
        assert end.utility(player) == expected
    for state in states[:-1]:
        assert state.winner() is None and state.legal_moves()
    plies = [s.ply for s in states]
    assert plies == sorted(plies) and plies[0] == 0
    decisions = sum(1 for s in states[:-1] if s.to_move != CHANCE)
    assert plies[-1] == decisions


@games_and_seeds
@settings(max_examples=30, deadline=None)
def test_states_are_immutable_and_hashable(name: str, seed: int) -> None:
    states, _ = playout(make_game(name), seed)
    for state in states:
        for f in dataclasses.fields(state):
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(state, f.name, 0)
        with pytest.raises((AttributeError, TypeError)):
            state.extra = 1
        assert not hasattr(state, "__dict__")  # slotted
        copy = dataclasses.replace(state)  # rebuilt by the public constructor
        assert copy == state and hash(copy) == hash(state) and copy.key() == state.key()
        assert isinstance(hash(state.key()), int)
        assert isinstance(state, games.State)


@games_and_seeds
@settings(max_examples=30, deadline=None)
def test_play_never_mutates(name: str, seed: int) -> None:
    states, _ = playout(make_game(name), seed)
    for state in states:
        before = snapshot(state)
        key = state.key()
        for move in state.legal_moves():
            child = state.play(move)
            assert child is not state
        assert snapshot(state) == before and state.key() == key


@given(names=st.just(NAMES), seeds=st.lists(st.integers(0, 2**32 - 1), min_size=3, max_size=6))
@settings(max_examples=20, deadline=None)
def test_equal_keys_if_and_only_if_equal_positions(names: list[str], seeds: list[int]) -> None:
    for name in names:
        game = make_game(name)
        by_key: dict[Any, Any] = {}
        by_position: dict[Any, Any] = {}
        for seed in seeds:
            for state in playout(game, seed)[0]:
                position = (game.render(state), state.to_move)  # what a person sees
                assert by_key.setdefault(state.key(), position) == position
                assert by_position.setdefault(position, state.key()) == state.key()
        assert len(by_key) == len(by_position)


@games_and_seeds
@settings(max_examples=40, deadline=None)
def test_illegal_moves_raise_and_name_the_legal_ones(name: str, seed: int) -> None:
    states, _ = playout(make_game(name), seed)
    rng = random.Random(seed)
    for state in [*rng.sample(states, min(len(states), 8)), states[-1]]:
        legal = state.legal_moves()
        for move in CANDIDATE_MOVES:
            if any(move == m and type(move) is type(m) for m in legal):
                continue
            with pytest.raises(IllegalMoveError) as caught:
                state.play(move)
            message = str(caught.value)
            assert "legal moves:" in message
            listed = message.rsplit("legal moves: ", 1)[1]
            if legal:
                assert set(listed.split(", ")) == {str(m) for m in legal}
            else:
                assert "none" in listed


@games_and_seeds
@settings(max_examples=60, deadline=None)
def test_notation_round_trips(name: str, seed: int) -> None:
    game = make_game(name)
    states, moves = playout(game, seed)
    cut = random.Random(seed).randint(0, len(moves))  # a whole game or a game in progress
    text = game.format_moves(moves[:cut])
    parsed = game.parse_moves(text)
    assert parsed == moves[:cut]
    assert game.format_moves(parsed) == text
    assert game.replay(parsed) == states[cut]
    assert game.parse_moves(" ".join(text)) == parsed  # spaces are optional
    state = game.initial_state()
    for move in moves[:cut]:
        assert game.parse_move(game.format_move(move), state) == move
        state = state.play(move)


@games_and_seeds
@settings(max_examples=30, deadline=None)
def test_heuristics_stay_below_proven_values(name: str, seed: int) -> None:
    game = make_game(name)
    states, _ = playout(game, seed)
    assert game.default_heuristic in game.heuristics
    assert "none" in game.heuristics and len(game.heuristics) >= 3
    for state in states[:-1]:
        for heuristic in game.heuristics.values():
            value = heuristic.evaluate(state)
            if heuristic.name == "optimal":
                assert -1.0 < value < 1.0
            else:
                assert -games.HEURISTIC_LIMIT <= value <= games.HEURISTIC_LIMIT


@games_and_seeds
@settings(max_examples=30, deadline=None)
def test_chance_nodes(name: str, seed: int) -> None:
    game = make_game(name)
    states, _ = playout(game, seed)
    assert all(state.STOCHASTIC is game.stochastic for state in states)
    for state in states:
        outcomes = state.chance_outcomes()
        if state.to_move == CHANCE:
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
            assert tuple(o for o, _ in outcomes) == state.legal_moves()
            assert state.player in (0, 1)
        else:
            assert outcomes == ()
            assert state.player == state.to_move or state.is_terminal()


def test_registry() -> None:
    assert set(games.GAMES) == {"tictactoe", "connect4", "pig"}
    for name in games.GAMES:
        game = make_game(name)
        assert game.name == name and game.title
        assert isinstance(game, games.Game)
        assert game.initial_state().game.name == name
    with pytest.raises(ValueError, match="tictactoe, connect4, pig"):
        games.get_game("chess")
