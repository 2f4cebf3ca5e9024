"""The searches with connect-four's opening book: book positions are solved leaves, exact
values from the first move, a 12-stone root played from the book's value, cheap solves."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from plyground import ai, games
from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context
from plyground.ai.engine.cost import judge
from plyground.ai.engine.full_width_search import book_units
from plyground.ai.engine.pruning_search import PruningSearch
from plyground.ai.engine.search import heuristic_for
from plyground.ai.evaluation.values import INF_UNITS, SCALE, STEP_UNITS, WIN_UNITS, plies_to_end
from plyground.games.connect4 import book
from plyground.games.connect4.rules import EMPTY, State

pytest.importorskip("bitbully_databases")
GAME = games.get_game("connect4")


@pytest.fixture(autouse=True)
def real_book(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test sees the real book, as loaded on first use."""
    monkeypatch.delenv("PLYGROUND_NO_BOOK", raising=False)
    book.reset()
    yield
    book.reset()


def position(moves: str) -> State:
    state: State = GAME.replay(GAME.parse_moves(moves))
    return state


def describe(value: float) -> str:
    plies = plies_to_end(value)
    if plies is None:
        return "draw" if value == 0 else f"estimate {value}"
    return f"{'win' if value > 0 else 'loss'} in {plies}"


def random_position(stones: int, rng: random.Random) -> State:
    """A random unfinished position with `stones` stones."""
    while True:
        state = EMPTY
        while state.ply < stones and not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


def test_every_column_of_the_empty_board_is_exact() -> None:
    """Pons' published scores of the first move, -2 -1 0 1 0 -1 -2, as plies to the end."""
    result = ai.search(EMPTY, ai.SearchConfig(ai.DepthLimited("alphabeta", None), time_limit=120.0))
    assert result.exact and result.complete
    assert [describe(result.values[col]) for col in range(7)] == [
        "loss in 40",
        "loss in 42",
        "draw",
        "win in 41",
        "draw",
        "loss in 42",
        "loss in 40",
    ]
    assert result.move == 3
    assert result.nodes < 100  # every first move is in the early table (0-3 stones)
    assert result.details.pv_ends_in_book is True


@pytest.mark.parametrize("moves", ["44", "17", "444", "123"])
def test_the_early_table_is_what_the_solver_finds(
    moves: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = position(moves)
    stored = state.solved_value()
    assert stored is not None
    monkeypatch.setattr(book, "_early", {})  # solve from the 8- and 12-stone books alone
    assert state.solved_value() is None
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    value = PruningSearch(ctx).solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)
    assert value == stored.bounds(WIN_UNITS, STEP_UNITS, 42)[0]


def test_the_early_table_is_used_only_when_solving() -> None:
    """A fixed-depth search from the empty board is still minimax's estimate."""
    pruned = ai.search(EMPTY, ai.SearchConfig(ai.DepthLimited("alphabeta", 2)))
    assert not pruned.exact
    assert pruned.values == ai.search(EMPTY, ai.SearchConfig(ai.DepthLimited("minimax", 2))).values


@pytest.mark.slow
def test_hint_budget_solves_every_opening_with_up_to_three_stones() -> None:
    for moves in ["", "4", "44", "444", "1234"]:
        result = ai.search(
            position(moves), ai.SearchConfig(ai.DepthLimited(depth=None), time_limit=600.0)
        )
        assert result.exact, moves
        assert result.details.iterations[0].depth == "solve"


@pytest.mark.parametrize("seed", range(4))
def test_a_twelve_stone_root_gets_the_book_value_at_once(seed: int) -> None:
    state = random_position(12, random.Random(seed))
    known = state.book_value()
    assert known is not None
    ctx_value = book_units(state)
    assert ctx_value is not None
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    value = PruningSearch(ctx).solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)
    assert value == ctx_value
    assert ctx.nodes <= 8  # a few probes of the root, each answered by the book


@pytest.mark.parametrize("moves", ["44444433", "12345671", "4444443322"])
def test_a_fixed_depth_search_reaching_the_book_is_exact_and_equals_minimax(moves: str) -> None:
    state = position(moves)
    depth = 12 - state.ply  # every line ends in the 12-stone book (or earlier)
    pruned = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth)))
    reference = (
        ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", depth)))
        if depth <= 4
        else pruned
    )
    assert pruned.exact
    assert pruned.values == reference.values
    solved = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert solved.values == pruned.values


@pytest.mark.usefixtures("no_book")
def test_without_the_book_the_same_search_is_an_estimate() -> None:
    state = position("44444433")
    assert state.book_value() is None
    assert not ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 4))).exact


def test_a_twelve_stone_root_cut_short_plays_the_likeliest_move_not_the_heuristic(
    pure_python: None,
) -> None:
    """Cut short before any move is proven, the root's book value stands and the game's
    likeliest move (first of search_moves) is played; nothing claims to be exact.  (On the
    Python solver: the compiled one finishes this proof between two looks at the clock.)"""
    rng = random.Random(6)
    state = random_position(12, rng)
    while not (book_units(state) or 0) > 0 or len(state.search_moves()) < 3:
        state = random_position(12, rng)  # a won position with a real choice
    known = book_units(state)
    assert known is not None
    polls = {"n": 0}

    def finish_now() -> bool:
        polls["n"] += 1
        return polls["n"] > 3

    result = ai.search(
        state,
        ai.SearchConfig(ai.DepthLimited(depth=None), time_limit=600.0, all_values=False),
        finish_now=finish_now,
    )
    assert not result.complete and not result.exact
    assert result.move == state.search_moves()[0]
    assert max(result.values.values()) * SCALE == pytest.approx(known)


def test_solving_an_opening_is_judged_cheap_with_the_book() -> None:
    assert judge(EMPTY, "alphabeta", None, None).level == "ok"
    assert judge(position("4453"), "alphabeta", None, None).level == "ok"


@pytest.mark.usefixtures("no_book")
def test_without_the_book_solving_the_opening_is_refused() -> None:
    assert judge(EMPTY, "alphabeta", None, None).level == "refuse"


def test_the_principal_variation_says_where_it_ends_in_the_book() -> None:
    result = ai.search(position("12345671"), ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert result.pv == (5, 3, 3, 2)  # to a 12-stone position: a draw, says the book
    assert result.details.pv_ends_in_book is True
    assert (
        ai.search(
            position("44444433"), ai.SearchConfig(ai.DepthLimited(depth=None))
        ).details.pv_ends_in_book
        is False
    )


def test_analyze_solves_the_first_move(capsys: pytest.CaptureFixture[str]) -> None:
    from main import main

    status = main(["analyze", "--game", "connect4", "--moves", "", "--depth", "solve"])
    out = capsys.readouterr().out
    assert status == 0
    assert "win in 41" in out and "loss in 40" in out
