"""The connect-four Expert never gives away a game value it holds, checked by the solver.

Positions come from Pascal Pons' sets (games/connect4/data) with their exact scores.
For each, the Expert preset chooses a move and the solver values the position after it:
the move must keep the exact score (a win stays a win, as quick as possible; a draw
stays a draw; a loss is delayed as long as possible).  The preset's time budget is
raised so that a slow test machine cannot make it fall back to the heuristic search.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from plyground import games
from plyground.ai.bench.searches import solver_score
from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context
from plyground.ai.engine.pruning_search import PruningSearch
from plyground.ai.engine.search import heuristic_for
from plyground.ai.evaluation.values import INF_UNITS, SCALE
from plyground.ai.players.players import AIPlayer
from plyground.ai.players.presets import DIFFICULTIES

DATA = games.GAMES["connect4"].solver_benchmark.directory  # type: ignore[attr-defined]
GAME = games.get_game("connect4")
GENEROUS_TIME = 60.0
"""Seconds: far more than any of these positions needs (tens of ms; L2_R2 under a second)."""


def _sample(name: str, lines: range | list[int]) -> list[tuple[str, int]]:
    """Some lines of a set (0-based): a spread of stages and outcomes."""
    text = (DATA / f"Test_{name}.txt").read_text().splitlines()
    picked = [text[number].split() for number in lines]
    return [(moves, int(score)) for moves, score in picked]


MEDIUM_LINES = [100, 150, 250, 450, 550, 750, 850, 950]
"""Medium middle-game positions that solve in under ~25,000 nodes (most take 20k-400k)."""

POSITIONS = [
    *(("end", moves, score) for moves, score in _sample("L3_R1", range(0, 1000, 16))),
    *(("middle", moves, score) for moves, score in _sample("L2_R1", range(0, 1000, 25))),
    *(("middle, medium", moves, score) for moves, score in _sample("L2_R2", MEDIUM_LINES)),
]


def pons_score(state: games.State) -> int:
    """The exact Pons score of `state` for its player to move (the position is not over)."""
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    units = PruningSearch(ctx).solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)
    score = solver_score(state.game.solver_benchmark, units / SCALE, state.ply, exact=True)
    assert score is not None
    return score


def score_after(state: games.State, move: int) -> int:
    """The score the mover of `state` gets by playing `move` and then playing perfectly."""
    child = state.play(move)
    if child.is_terminal():
        if child.winner() is None:
            return 0
        return 22 - (child.ply + 1) // 2  # the mover won with its last stone
    return -pons_score(child)


@pytest.fixture(scope="module")
def expert() -> AIPlayer:
    config = DIFFICULTIES["connect4"]["Expert"]
    assert config.search.depth is None, "the Expert preset should solve (depth None)"
    budget = None if config.time_limit is None else max(config.time_limit, GENEROUS_TIME)
    return AIPlayer(dataclasses.replace(config, time_limit=budget), GAME)


def test_the_sample_covers_wins_draws_and_losses() -> None:
    scores = [score for _, _, score in POSITIONS]
    assert any(s > 0 for s in scores) and any(s < 0 for s in scores) and 0 in scores


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stage", "moves", "expected"),
    POSITIONS,
    ids=[f"{stage}:{moves}" for stage, moves, _ in POSITIONS],
)
def test_the_expert_move_keeps_the_exact_value(
    expert: AIPlayer, stage: str, moves: str, expected: int
) -> None:
    state = GAME.replay(GAME.parse_moves(moves))
    move = expert.choose(state)
    result = expert.last_result
    assert result is not None and result.exact, f"{stage}: the Expert did not solve {moves}"
    kept = score_after(state, move)
    outcome = "win" if expected > 0 else ("draw" if expected == 0 else "loss")
    assert kept == expected, (
        f"{stage} position {moves} ({outcome}, score {expected}): the Expert played "
        f"column {move + 1}, which scores {kept}"
    )


# ----------------------------------------------------------------- the opening, with the book
def _opening_sample(name: str, every: int, most_stones: int = 12) -> list[tuple[str, int]]:
    """Every `every`-th position of a beginning set with at most `most_stones` stones."""
    text = (DATA / f"Test_{name}.txt").read_text().splitlines()
    picked = [line.split() for line in text]
    short = [(moves, int(score)) for moves, score in picked if len(moves) <= most_stones]
    return short[::every]


def _random_openings(count: int, seed: int) -> list[tuple[str, int]]:
    """Random unfinished positions with 0-12 stones and their exact scores (the solver)."""
    rng = random.Random(seed)
    found: list[tuple[str, int]] = []
    while len(found) < count:
        state = GAME.initial_state()
        moves = ""
        for _ in range(rng.randint(0, 12)):
            if state.is_terminal():
                break
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            moves += str(move + 1)
        if not state.is_terminal() and state.winning_move() is None:
            found.append((moves, pons_score(state)))
    return found


OPENINGS = [
    *(("L1_R1", moves, score) for moves, score in _opening_sample("L1_R1", 40)),
    # 12-stone medium positions take Expert's solver up to 16 s: those up to 11 stones here
    *(("L1_R2", moves, score) for moves, score in _opening_sample("L1_R2", 40, 11)),
    *(("L1_R3", moves, score) for moves, score in _opening_sample("L1_R3", 100)),
]


@pytest.fixture(scope="module")
def book_loaded() -> None:
    from plyground.games.connect4 import book as connect4_book

    if not connect4_book.available():
        pytest.skip(f"no opening book: {connect4_book.status()}")


@pytest.mark.usefixtures("book_loaded")
@pytest.mark.parametrize(
    ("stage", "moves", "expected"),
    [*OPENINGS, *(("random", moves, score) for moves, score in _random_openings(12, seed=12))],
    ids=lambda value: str(value),
)
def test_the_expert_keeps_the_exact_value_in_the_opening(
    expert: AIPlayer, stage: str, moves: str, expected: int
) -> None:
    """With 12 or fewer stones Expert keeps the exact score (its move's value is proven,
    and, below 12 stones, checked by solving the position after it)."""
    state = GAME.replay(GAME.parse_moves(moves))
    move = expert.choose(state)
    result = expert.last_result
    assert result is not None and result.exact, f"{stage}: the Expert did not solve {moves}"
    claimed = solver_score(GAME.solver_benchmark, result.value, state.ply, exact=True)
    assert claimed == expected, f"{stage} {moves}: Expert's value scores {claimed}"
    if state.ply < 12:  # the position after the move is in or before the 12-stone book
        assert score_after(state, move) == expected, f"{stage} {moves}: column {move + 1}"
