"""Connect-four's Expert keeps the exact result in the opening, whatever the machine's speed.

With 12 or fewer stones the opening book (or a solve that reaches it within a few plies)
knows every position's exact value, and Expert's move must keep it: a win stays a win as
quick, a draw a draw, a loss as slow (at 12 stones a lost position stays lost whatever is
played, and the slowest loss is looked for within the time budget only).  Expert is given
a budget of a millisecond here, far too little for any machine, so these tests pass only
because the steps that keep the value do not look at the clock: a cheap solve (up to 11
stones) runs to its end, and at 12 stones the proof that a move keeps a won or drawn
value is bounded by nodes (`ai.engine.proof`).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from plyground import ai, games
from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context
from plyground.ai.engine.exact_solving import make_alphabeta
from plyground.ai.engine.proof import PROOF_NODE_LIMIT, candidates, known_value, prove_keeper
from plyground.ai.engine.pruning_search import PruningSearch
from plyground.ai.engine.search import heuristic_for
from plyground.ai.evaluation.values import INF_UNITS
from plyground.ai.players.players import AIPlayer
from plyground.ai.players.presets import DIFFICULTIES
from plyground.games.connect4.rules import EMPTY, State

pytest.importorskip("bitbully_databases")
GAME = games.get_game("connect4")
NO_TIME = 0.001
"""Expert's budget in these tests (seconds): no machine solves anything in it."""


pytestmark = pytest.mark.usefixtures("real_book")


def random_line(rng: random.Random, stones: int) -> str:
    """The moves of a random unfinished position with `stones` stones."""
    while True:
        state, moves = EMPTY, []
        while state.ply < stones and not state.is_terminal():
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        if not state.is_terminal():
            return GAME.format_moves(moves)


def random_position(rng: random.Random, stones: int) -> State:
    """A random unfinished position with `stones` stones, reached by legal moves."""
    return position(random_line(rng, stones))


def position(moves: str) -> State:
    state: State = GAME.replay(GAME.parse_moves(moves))
    return state


DRAWN_TWELVES = ["111272721143", "523261235364", "533445271571"]
"""Drawn 12-stone positions of Pons' beginning set L1_R3 (random ones are rarely drawn):
proofs of 0, 56,309 and 321,909 nodes (the 11 drawn 12-stone positions of L1_R1-R3 take
0 to 1.25 million; docs/SOLVER.md)."""


def sample() -> list[str]:
    """Seeded positions: 16 with 0-11 stones, 8 with 11 (just before the 12-stone book),
    6 with 12 (the book's own layer, whose moves lead out of it), and drawn 12-stone ones."""
    rng = random.Random(12)
    stones = [rng.randint(0, 11) for _ in range(16)] + [11] * 8 + [12] * 6
    return [random_line(rng, n) for n in stones] + DRAWN_TWELVES


def exact_value(state: State) -> int:
    """The solver's exact value in units for the player to move (the book included)."""
    known = known_value(state)
    if known is not None:
        return known
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    searcher = make_alphabeta(state, ctx)
    return searcher.solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)


def keeps(state: State, move: int, value: int) -> bool:
    """Whether `move` is worth `value` (the root's exact value: no move is worth more)."""
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    probe = make_alphabeta(state, ctx).child_value(state, move, UNLIMITED_DEPTH, value - 1, value)
    return probe >= value


@pytest.fixture(scope="module")
def hurried_expert() -> AIPlayer:
    config = DIFFICULTIES["connect4"]["Expert"]
    assert config.search.depth is None and config.time_limit is not None
    return AIPlayer(dataclasses.replace(config, time_limit=NO_TIME), GAME)


def test_the_sample_spans_the_opening() -> None:
    lengths = [len(moves) for moves in sample()]
    assert min(lengths) <= 2 and lengths.count(11) >= 8 and lengths.count(12) == 9


@pytest.mark.slow
@pytest.mark.parametrize("moves", sample())
def test_a_hurried_expert_keeps_the_exact_result(
    hurried_expert: AIPlayer, moves: str, solver: str
) -> None:
    state = position(moves)
    value = exact_value(state)
    move = hurried_expert.choose(state)
    result = hurried_expert.last_result
    assert result is not None
    proof_nodes = result.details.proof_nodes
    if state.ply < 12:  # a cheap solve, run to its end: no proof needed
        assert result.exact and proof_nodes is None, moves
    if value < 0 and state.ply == 12:
        return  # lost whatever it plays: the slowest loss is looked for within the budget only
    assert result.exact, moves
    assert keeps(state, move, value), f"{moves}: column {move + 1} gives the value away"
    if state.ply == 12:  # the proof finished within its node budget: no fallback
        assert proof_nodes is not None and proof_nodes < PROOF_NODE_LIMIT


@pytest.mark.slow
def test_with_the_analysis_shown_the_hurried_expert_still_plays_a_keeper() -> None:
    """Every root value asked for (the analysis panel): the proven move is still played, and
    the values not worked out within the budget are upper bounds, never claimed exact."""
    rng = random.Random(3)
    state = random_position(rng, 12)
    while exact_value(state) < 0:  # a won or drawn position: the one a proof must keep
        state = random_position(rng, 12)
    value = exact_value(state)
    config = DIFFICULTIES["connect4"]["Expert"]
    player = AIPlayer(dataclasses.replace(config, time_limit=NO_TIME), GAME)
    move = player.choose(state, all_values=True)
    result = player.last_result
    assert result is not None
    assert keeps(state, move, value)
    if result.details.bounds:  # each says it is only a bound (ai.evaluation.provenance)
        assert all(result.move_values[m].kind == "upper" for m in result.details.bounds)
        assert move not in result.details.bounds


def test_the_proof_drops_moves_that_lose_at_once_and_counts_nodes() -> None:
    """A position where one move alone does not hand the opponent a win: that move keeps
    the value without a single probe."""
    rng = random.Random(0)
    state = random_position(rng, 12)
    while len(state.search_moves()) != 1 or state.winning_move() is not None:
        state = random_position(rng, 12)
    known = known_value(state)
    assert known is not None
    order = list(state.legal_moves())
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    proof = prove_keeper(PruningSearch(ctx), state, known, order)
    assert proof.move == state.search_moves()[0] and proof.nodes == 0
    assert proof.by_elimination and len(proof.worse) == len(order) - 1
    assert candidates(state, order)[0] == [proof.move]


def test_a_proof_cut_by_its_node_budget_plays_the_likeliest_move_left(
    monkeypatch: pytest.MonkeyPatch, solver: str
) -> None:
    """Out of nodes before any move is proven, the search plays the likeliest move not
    proven worse (the first of `search_moves()` left) and claims nothing exact."""
    rng = random.Random(5)
    while True:
        state = random_position(rng, 12)
        known = known_value(state)
        assert known is not None
        ctx = Context(heuristic_for(state, None), None, 0, None, None)
        searcher = make_alphabeta(state, ctx)
        proof = prove_keeper(searcher, state, known, list(state.legal_moves()), limit=1)
        if proof.move is None:
            break
    assert proof.left == [m for m in state.search_moves() if m not in proof.worse]
    monkeypatch.setattr("plyground.ai.engine.proof.PROOF_NODE_LIMIT", 1)
    result = ai.search(
        state, ai.SearchConfig(ai.DepthLimited(depth=None), time_limit=NO_TIME, all_values=False)
    )
    assert result.move == proof.left[0]
    assert not result.exact and not result.complete


def test_a_search_without_a_book_value_is_unchanged() -> None:
    """A 13-stone root: nothing is known, no proof runs (the budgeted solve as before)."""
    state = random_position(random.Random(1), 13)
    result = ai.search(
        state, ai.SearchConfig(ai.DepthLimited(depth=None), time_limit=0.2, all_values=False)
    )
    assert result.details.proof_nodes is None
