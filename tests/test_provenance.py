"""Every value says where it comes from: the seen cases 3-7 and the property test.

The window's cases 1 and 2 (the Pig hint, stale advice) are in tests/gui/test_advice.py.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plyground import ai, games
from plyground.ai.advice.advisor import advise, advise_with, advisor_for
from plyground.ai.advice.report import search_line, values_note
from plyground.ai.compare.comparison import compare, theory_curves, theory_note
from plyground.ai.compare.estimate import minimal_tree_leaves
from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context
from plyground.ai.engine.proof import known_value
from plyground.ai.engine.pruning_search import PruningSearch
from plyground.ai.engine.search import heuristic_for
from plyground.ai.evaluation.provenance import Kind, Source
from plyground.ai.evaluation.values import INF_UNITS, SCALE, STEP, WIN
from plyground.ai.evaluation.wording import board_text, value_text
from plyground.ai.textbook.trace import trace
from plyground.cli import run as cli_run
from plyground.games.trees.examples import TreeGame

C4 = games.get_game("connect4")
TTT = games.get_game("tictactoe")
needs_book = pytest.importorskip  # the connect-four cases read the opening book


def solved_units(state: Any) -> int:
    """The connect-four solver's exact value of `state` for the player to move, in units."""
    known = known_value(state)
    if known is not None:
        return known
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    return PruningSearch(ctx).solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)


def move_truth(state: Any, move: Any, solve: Any) -> float:
    """The true value of `move` for the player to move at `state` (negamax, a ply further)."""
    child = state.play(move)
    value = solve(child)
    if child.is_terminal():
        value = child.utility(state.player) * WIN
        return value - STEP if value > 0 else (value + STEP if value < 0 else 0.0)
    if child.player != state.player:
        value = -value
    if abs(value) > 0.5:
        value += -STEP if value > 0 else STEP
    return value


@functools.cache
def ttt_minimax(state: Any) -> float:
    """Full tic-tac-toe minimax, independent of the engine: a win d plies away is 1 - d/1000."""
    if state.is_terminal():
        return float(state.utility(state.player))
    best = -2.0
    for move in state.legal_moves():
        child = state.play(move)
        value = -ttt_minimax(child)
        value += -STEP if value > 0 else (STEP if value < 0 else 0.0)
        best = max(best, value)
    return best


def random_line(game: Any, rng: random.Random, plies: int) -> Any:
    """A random unfinished position `plies` plies (or fewer) into a game."""
    state = game.initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        nxt = state.play(rng.choice(moves))
        if nxt.is_terminal():
            break
        state = nxt
    return state


# ------------------------------------------------------------------ seen 3: no contradiction
@pytest.mark.parametrize("seed", range(6))
def test_no_sentence_contradicts_a_value_at_twelve_stones(seed: int) -> None:
    """Seen 3: a 12-stone position searched at Hard's depth mixes proven results and
    estimates; the note counts each kind from the values, and every estimate says so."""
    pytest.importorskip("bitbully_databases")
    state = random_line(C4, random.Random(seed), 12)
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 6, "threats")))
    note = values_note(result, False) or ""
    kinds = {ev.kind for ev in result.move_values.values()}
    if Kind.ESTIMATE in kinds:
        assert "all exact" not in note
        assert "estimate" in note or kinds == {Kind.ESTIMATE}  # (each then reads "est.")
    for evaluation in result.move_values.values():
        label = board_text(evaluation, False)
        assert label.startswith("est.") == (evaluation.kind is Kind.ESTIMATE), label


def test_a_proven_result_beside_estimates_is_labelled_each_its_own() -> None:
    """A win in one among estimates: the win is exact, the others say est."""
    state = TTT.replay(TTT.parse_moves("1425"))  # X to move: 3 wins at once
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 1, "lines")))
    win = result.move_values[2]
    assert win.kind is Kind.EXACT and value_text(win, False, "X") == "win in 1 for X"
    assert any(ev.kind is Kind.ESTIMATE for ev in result.move_values.values())
    assert result.evaluation.kind is Kind.EXACT  # the best is proven; no move beats a win in 1


# ------------------------------------------------------------------ seen 4: the book as a search
def test_the_empty_board_hint_says_book_not_a_deep_search() -> None:
    pytest.importorskip("bitbully_databases")
    result, title = advise(C4, C4.initial_state())
    assert title == "opening book"
    assert result.evaluation.source is Source.BOOK and result.evaluation.is_exact
    assert search_line(result).startswith("opening book")
    assert "depth 41" not in search_line(result)


def test_a_fixed_depth_search_ended_by_the_book_says_so() -> None:
    """Against Hard (depth 6, on the clock) the deepening stops early where the book answers
    everything: the panel says "opening book", not a bare shallow depth; at a fixed depth
    without a clock (one pass) it says so too."""
    pytest.importorskip("bitbully_databases")
    state = C4.replay(C4.parse_moves("4444"))
    clocked = ai.SearchConfig(ai.DepthLimited("alphabeta", 6, "threats"), time_limit=600)
    result = ai.search(state, clocked)
    assert result.depth < 6 and result.evaluation.source is Source.BOOK
    assert search_line(result).startswith(f"opening book · depth {result.depth}")
    fixed = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 6, "threats")))
    assert fixed.evaluation.source is Source.BOOK
    assert search_line(fixed).startswith("opening book · depth 6")


# ------------------------------------------------------------------ seen 5: a proven loss
def test_a_book_loss_is_exact_and_says_for_whom(capsys: pytest.CaptureFixture[str]) -> None:
    """Seen 5: `analyze --moves 454444 --depth 2 --heuristic windows` once showed 6 as 0.00.
    Book wins and losses are exact results ("distance unknown" where the book has none)."""
    pytest.importorskip("bitbully_databases")
    arguments = "analyze --game connect4 --moves 454444 --depth 2 --heuristic windows --json"
    status = cli_run(arguments.split())
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    six = next(entry for entry in report["moves"] if entry["move"] == "6")
    state = C4.replay(C4.parse_moves("454444"))
    truth = move_truth(state, 5, lambda s: solved_units(s) / SCALE)
    assert truth < -0.5  # solved: 6 loses
    assert six["kind"] == "exact" and six["value"] < -0.9
    assert six["meaning"].startswith("loss") and "for Red" in six["meaning"]
    assert report["kind"] == "exact"
    assert "then the book: win" not in json.dumps(report)  # every win or loss says for whom
    for entry in report["moves"]:
        if entry["meaning"].startswith(("win", "loss")):
            assert "for Red" in entry["meaning"]


# ------------------------------------------------------------------ seen 6: textbook trees
def test_textbook_trace_has_no_book_and_the_textbook_count(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Seen 6: minimax to depth 3 after 4352351 walks the textbook's 400 nodes, no book leaf;
    `--book` lets the book answer as the engine does."""
    state = C4.replay(C4.parse_moves("4352351"))
    plain = trace(state, "minimax", 3)
    assert plain.totals()[0] == 400 and not plain.book
    assert all(event.source != "book" for event in plain.events if event.kind == "leaf")
    arguments = "trace --game connect4 --moves 4352351 --algorithm minimax --depth 3 --json"
    assert cli_run(arguments.split()) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["nodes_visited"] == 400 and data["kind"] == "estimate"
    assert data["source"] == "heuristic" and data["book"] is False


def test_compare_counts_leaves_on_early_positions() -> None:
    """Seen 6: Compare once showed LEAVES 0 early (the book answered every leaf)."""
    state = C4.replay(C4.parse_moves("4352351"))
    comparison = compare(state, [3], variants=["minimax", "alphabeta-plain", "engine"])
    for row in comparison.rows:
        assert row.leaves > 0 and row.kind == "estimate" and row.source == "heuristic"
    minimax = next(row for row in comparison.rows if row.variant == "minimax")
    assert minimax.nodes == 400


# ------------------------------------------------------------------ seen 7: theory lines
def test_the_minimal_tree_is_knuth_and_moores() -> None:
    """Seen 7: alpha-beta's best case is b^ceil(d/2) + b^floor(d/2) - 1 leaves, checked on
    uniform trees searched best-first; no alpha-beta line for a game with chance."""
    assert [minimal_tree_leaves(3, d) for d in (1, 2, 3, 4)] == [3, 5, 11, 17]
    rng = random.Random(7)
    for b, d in ((2, 3), (3, 3), (3, 4), (2, 5)):
        tree = _uniform_tree(rng, b, d, "max")
        traced = trace(TreeGame(tree, "uniform").initial_state(), "alphabeta", d, ordering="best")
        assert traced.totals()[1] == minimal_tree_leaves(b, d), (b, d)
    curves = theory_curves(3.0, [1, 2], chance=False)
    assert set(curves) == {"b^d", "b^ceil(d/2)+b^floor(d/2)−1"}
    assert set(theory_curves(3.0, [1, 2], chance=True)) == {"b^d"}
    assert "Knuth" in theory_note(3.0, False) and "iterative deepening" in theory_note(3.0, False)
    assert "No alpha-beta line" in theory_note(2.0, True)


def _uniform_tree(rng: random.Random, b: int, d: int, kind: str) -> Any:
    """A uniform tree with distinct random leaves."""
    if d == 0:
        return rng.random()
    other = "min" if kind == "max" else "max"
    return (kind, tuple((str(i), _uniform_tree(rng, b, d - 1, other)) for i in range(b)))


# ------------------------------------------------------------------ the property test
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 7),
    depth=st.integers(1, 4),
    all_values=st.booleans(),
    algorithm=st.sampled_from(["minimax", "alphabeta"]),
)
def test_tictactoe_exact_values_are_full_minimax(
    seed: int, plies: int, depth: int, all_values: bool, algorithm: str
) -> None:
    state = random_line(TTT, random.Random(seed), plies)
    result = ai.search(
        state, ai.SearchConfig(ai.DepthLimited(algorithm, depth, "lines"), all_values=all_values)
    )
    _check(state, result, lambda s: ttt_minimax(s))


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    stones=st.sampled_from([6, 7, 10, 11, 30, 33, 36]),
    depth=st.integers(1, 4),
    all_values=st.booleans(),
)
def test_connect4_exact_values_are_the_solvers(
    seed: int, stones: int, depth: int, all_values: bool
) -> None:
    pytest.importorskip("bitbully_databases")
    state = random_line(C4, random.Random(seed), stones)
    result = ai.search(
        state,
        ai.SearchConfig(ai.DepthLimited("alphabeta", depth, "threats"), all_values=all_values),
    )
    _check(state, result, lambda s: solved_units(s) / SCALE)


PIG_GOAL = 15


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    i=st.integers(0, PIG_GOAL - 1),
    j=st.integers(0, PIG_GOAL - 1),
    k=st.integers(0, PIG_GOAL - 1),
    depth=st.integers(1, 3),
    heuristic=st.sampled_from(["score", "race", "optimal"]),
)
def test_pig_exact_values_are_the_tables_and_the_hint_is_optimal(
    i: int, j: int, k: int, depth: int, heuristic: str
) -> None:
    from plyground.games.pig.optimal import optimal_table

    pig = games.get_game("pig", goal=PIG_GOAL)
    policy = pig.reference_policy()
    if i + k >= PIG_GOAL:
        k = PIG_GOAL - 1 - i
    state = policy.state((i, j, k))
    truth = {move: 2 * p - 1 for move, p in policy.move_values((i, j, k)).items()}
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", depth, heuristic)))
    for move, evaluation in result.move_values.items():
        assert evaluation.admits(truth[move], tolerance=1e-6), (move, evaluation, truth)
        if heuristic == "optimal":
            assert evaluation.is_exact and evaluation.source is Source.TABLE
    hint, title = advise(pig, state)
    assert title == "exact table" and advisor_for(pig, state).evaluator == "exact table"
    table = optimal_table(PIG_GOAL)
    if k > 0 and abs(truth["roll"] - truth["hold"]) > 1e-9:
        assert hint.move == ("roll" if table.should_roll(i, j, k) else "hold")


@pytest.mark.parametrize(("name", "moves"), [("tictactoe", "5"), ("connect4", "4453")])
def test_advice_searches_with_the_config_whole(name: str, moves: str) -> None:
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer

    game = games.get_game(name)
    state = game.initial_state()
    for move in game.parse_moves(moves):
        state = state.play(move)
    config = SearchPlayer(DepthLimited("alphabeta", 3, None), seed=5)
    advice = advise_with(state, config)
    plain = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", 3), seed=5, all_values=True)
    )
    assert (advice.move, advice.value, advice.nodes) == (plain.move, plain.value, plain.nodes)
    assert advice.move_values == plain.move_values and advice.pv == plain.pv


def _check(state: Any, result: Any, solve: Any) -> None:
    """Every exact value is the independent answer; every bound is a true bound."""
    for move, evaluation in result.move_values.items():
        if evaluation.kind is Kind.ESTIMATE:
            continue
        truth = move_truth(state, move, solve)
        assert evaluation.admits(truth, tolerance=1e-9), (move, evaluation, truth)
    root = result.evaluation
    if root.kind is not Kind.ESTIMATE:
        best = max(move_truth(state, m, solve) for m in state.legal_moves())
        assert root.admits(best, tolerance=1e-9), (root, best)


def test_tied_book_losses_are_broken_by_the_heuristic_not_at_random() -> None:
    """After 4453 every move loses (solved); at depth 6 the book's distance-less losses tie,
    and the move played is the one the heuristic likes best, whatever the seed."""
    pytest.importorskip("bitbully_databases")
    state = C4.replay(C4.parse_moves("4453"))
    heuristic = C4.heuristics["threats"].evaluate
    chosen = set()
    for seed in range(4):
        result = ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", 6, "threats"), seed=seed)
        )
        assert all(not ev.distance_known for ev in result.move_values.values())
        chosen.add(result.move)
    scores = {move: -heuristic(state.play(move)) for move in state.legal_moves()}
    assert chosen == {max(scores, key=scores.__getitem__)}


def test_the_search_line_claims_every_end_only_when_every_value_is_exact() -> None:
    state = TTT.replay(TTT.parse_moves("1425"))  # a win in 1 beside estimates
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 1, "lines")))
    assert result.evaluation.is_exact and "every end" not in search_line(result)
    solved = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 9, "lines")))
    assert all(ev.is_exact for ev in solved.move_values.values())
    assert search_line(solved).endswith("reached every end")
