"""plyground.ai.compare.comparison: every algorithm agrees on the value, and the counts are the
known ones."""

from __future__ import annotations

import random

import pytest

from plyground import games
from plyground.ai.compare import comparison as compare
from plyground.ai.engine.bookkeeping import SearchCancelled, SearchError


def _c4(moves: str = "4453") -> object:
    game = games.get_game("connect4")
    return game.replay(game.parse_moves(moves))


def _random_positions(name: str, count: int, seed: int, **options: int) -> list[object]:
    game = games.get_game(name, **options)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 8)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
            while not state.is_terminal() and state.to_move == games.CHANCE:
                state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.append(state)
    return found


@pytest.mark.slow
def test_minimax_visits_the_whole_tic_tac_toe_tree() -> None:
    state = games.get_game("tictactoe").initial_state()
    row = compare.run_variant(state, "minimax", 9)
    assert row.nodes == 549_946
    plain = compare.run_variant(state, "alphabeta-plain", 9)
    assert plain.value == row.value == 0.0
    assert plain.nodes < row.nodes


def test_the_variants_fit_the_game() -> None:
    keys = [v.key for v in compare.variants_for(_c4())]
    assert keys == ["minimax", "alphabeta-plain", "alphabeta-ordered", "engine"]
    pig = games.get_game("pig", goal=20).initial_state()
    assert [v.key for v in compare.variants_for(pig)] == ["expectiminimax-plain", "expectiminimax"]


@pytest.mark.usefixtures("no_book")  # textbook counts: no opening book
def test_connect_four_counts_and_values() -> None:
    result = compare.compare(_c4(), range(1, 6))
    by = {(row.variant, row.depth): row for row in result.rows}
    assert [by["minimax", d].nodes for d in range(1, 6)] == [8, 57, 400, 2717, 18935]
    assert [by["alphabeta-plain", d].nodes for d in range(1, 6)] == [8, 30, 177, 459, 4212]
    assert [by["alphabeta-ordered", d].nodes for d in range(1, 6)] == [8, 28, 140, 328, 1432]
    # A cut-off skips at least one move (ai.textbook.counts.CUTOFF): the counts `trace` shows.
    assert [by["alphabeta-plain", d].cutoffs for d in range(1, 6)] == [0, 5, 13, 111, 251]
    for depth in range(1, 6):
        rows = result.at(depth)
        assert len({row.value for row in rows}) == 1, rows
        assert by["minimax", depth].share == 1.0
        minimax_nodes = by["minimax", depth].nodes
        for row in rows:
            if row.nodes <= minimax_nodes:
                assert row.share == row.nodes / minimax_nodes
            else:  # the engine's deepening passes: said in words, never a share above 100%
                assert row.variant == "engine" and row.share is None
                assert row.over_minimax and row.share_text == "more"
            assert row.leaves <= row.nodes


@pytest.mark.parametrize("name", ["tictactoe", "connect4"])
def test_every_algorithm_agrees_and_alpha_beta_never_exceeds_minimax(name: str) -> None:
    for state in _random_positions(name, 6, seed=11):
        result = compare.compare(state, [1, 2, 3, 4])
        for depth in result.depths():
            rows = {row.variant: row for row in result.at(depth)}
            assert len({row.value for row in rows.values()}) == 1, rows
            for key in ("alphabeta-plain", "alphabeta-ordered"):
                assert rows[key].nodes <= rows["minimax"].nodes
                assert rows[key].leaves <= rows["minimax"].leaves


def test_expectiminimax_with_and_without_table_agree() -> None:
    for state in _random_positions("pig", 4, seed=3, goal=20):
        result = compare.compare(state, [1, 2, 3])
        for depth in result.depths():
            plain, table = result.at(depth)
            assert plain.variant == "expectiminimax-plain"
            assert plain.value == pytest.approx(table.value, abs=1e-12)
            assert plain.move == table.move
            assert table.nodes <= plain.nodes
            assert plain.share == 1.0


def test_pig_counts() -> None:
    state = games.get_game("pig", goal=30).initial_state().play("roll").play(4)
    result = compare.compare(state, [1, 2, 3, 4])
    plain = [row.nodes for row in result.rows if row.variant == "expectiminimax-plain"]
    assert plain == [9, 63, 427, 2881]
    assert all(row.move == "roll" for row in result.rows)


@pytest.mark.slow
def test_a_run_that_would_take_too_long_is_skipped_and_says_so() -> None:
    result = compare.compare(_c4(), [3, 4, 8], max_seconds=5.0)
    skipped = [row for row in result.rows if not row.ran]
    assert ("minimax", 8) in {(row.variant, row.depth) for row in skipped}
    minimax9 = next(row for row in skipped if row.variant == "minimax")
    assert minimax9.nodes == 0 and minimax9.value is None
    assert minimax9.skipped.startswith("estimated ") and "nodes, about" in minimax9.skipped
    assert minimax9.estimate is not None and minimax9.estimate.nodes > 1_000_000
    assert all(row.ran for row in result.rows if row.depth < 8)


@pytest.mark.slow
def test_skipping_by_estimated_nodes_is_deterministic() -> None:
    def skip(variant: str, depth: int, guess: compare.Estimate) -> bool:
        return guess.nodes > 1_000_000

    result = compare.compare(_c4(), [5, 6, 8], skip=skip)
    ran = {(row.variant, row.depth) for row in result.rows if row.ran}
    assert ("minimax", 8) not in ran and ("engine", 8) in ran
    assert result.at(8)[-1].value == result.at(8)[-2].value


def test_skip_callback_decides_and_a_skipped_variant_stays_skipped() -> None:
    asked: list[tuple[str, int]] = []

    def skip(variant: str, depth: int, guess: compare.Estimate) -> bool:
        asked.append((variant, depth))
        return variant == "minimax" and depth >= 2

    result = compare.compare(_c4(), [1, 2, 3], skip=skip)
    assert ("minimax", 3) not in asked
    assert [row.ran for row in result.rows if row.variant == "minimax"] == [True, False, False]
    assert all(row.share is None for row in result.rows if row.depth > 1)


def test_estimates_grow_from_the_measured_runs() -> None:
    rows = [
        compare.Row("minimax", "minimax", 4, nodes=1000, elapsed=0.1),
        compare.Row("minimax", "minimax", 5, nodes=7000, elapsed=0.7),
    ]
    guess = compare.estimate("minimax", 6, 7.0, rows)
    assert guess.nodes == pytest.approx(49_000)
    assert guess.seconds == pytest.approx(4.9)
    first = compare.estimate("minimax", 2, 3.0, [])
    assert first.nodes == 13  # 1 + 3 + 9
    assert first.seconds == pytest.approx(13 / compare.DEFAULT_SPEED)


def test_branching_is_measured_from_the_game() -> None:
    assert compare.branching(games.get_game("tictactoe").initial_state()) > 4
    assert compare.branching(_c4()) == 7.0


def test_theory_curves() -> None:
    curves = compare.theory_curves(4.0, [1, 2, 4])
    assert curves["b^d"] == [(1, 4.0), (2, 16.0), (4, 256.0)]
    # alpha-beta's minimal tree (Knuth & Moore): b^ceil(d/2) + b^floor(d/2) - 1 leaves
    assert curves["b^ceil(d/2)+b^floor(d/2)−1"] == [(1, 4.0), (2, 7.0), (4, 31.0)]
    assert set(compare.theory_curves(4.0, [1, 2], chance=True)) == {"b^d"}


def test_progress_and_cancel() -> None:
    steps: list[compare.Step] = []
    compare.compare(_c4(), [4], progress=steps.append)
    assert {step.variant for step in steps} == {v.key for v in compare.variants_for(_c4())}
    assert all(step.total == 4 for step in steps)
    for variant in ("minimax", "alphabeta-plain", "engine"):
        with pytest.raises(SearchCancelled):
            compare.run_variant(_c4(), variant, 6, should_stop=lambda: True)
    pig = games.get_game("pig", goal=30).initial_state()
    with pytest.raises(SearchCancelled):
        compare.run_variant(pig, "expectiminimax-plain", 6, should_stop=lambda: True)


def test_mistakes_are_search_errors() -> None:
    ttt = games.get_game("tictactoe")
    with pytest.raises(SearchError, match="over"):
        compare.run_variant(ttt.replay(ttt.parse_moves("14253")), "minimax", 2)
    with pytest.raises(SearchError, match="does not fit"):
        compare.run_variant(ttt.initial_state(), "expectiminimax", 2)
    with pytest.raises(SearchError, match="unknown variant"):
        compare.run_variant(ttt.initial_state(), "bogo", 2)
    with pytest.raises(SearchError, match="dice"):
        compare.run_variant(games.get_game("pig").initial_state().play("roll"), "expectiminimax", 1)
    with pytest.raises(SearchError, match="heuristic"):
        compare.compare(ttt.initial_state(), [1], heuristic="nope")
    with pytest.raises(SearchError, match="does not fit"):
        compare.compare(ttt.initial_state(), [1], variants=["expectiminimax"])


@pytest.mark.parametrize(
    ("text", "depths"), [("7", [7]), ("1-4", [1, 2, 3, 4]), ("2, 5,3", [2, 3, 5])]
)
def test_parse_depths(text: str, depths: list[int]) -> None:
    assert compare.parse_depths(text) == depths


@pytest.mark.parametrize("text", ["0", "5-2", "x", "1-", "", "1-99"])
def test_parse_depths_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="depth"):
        compare.parse_depths(text)


def test_rows_as_plain_data() -> None:
    ttt = games.get_game("tictactoe")
    row = compare.run_variant(ttt.initial_state(), "alphabeta-plain", 2)
    data = row.as_dict(ttt.format_move)
    assert data["move"] == ttt.format_move(row.move) and data["nodes"] == row.nodes
    assert compare.duration(0.25) == "250 ms" and compare.duration(700) == "12 min"


def test_a_runs_start_up_is_not_taken_for_its_speed() -> None:
    """One engine run paid a one-time start-up (686 nodes in 0.29 s, a book loaded); the
    fastest run of 100 nodes or more sets the speed, so depth 5 is guessed at milliseconds,
    not seconds; runs too small to time leave the default speed."""
    rows = [
        compare.Row("engine", "engine", 1, nodes=7, elapsed=0.3),
        compare.Row("engine", "engine", 2, nodes=63, elapsed=0.0006),
        compare.Row("engine", "engine", 3, nodes=198, elapsed=0.0014),
        compare.Row("engine", "engine", 4, nodes=686, elapsed=0.29),
    ]
    guess = compare.estimate("engine", 5, 7.0, rows)
    assert guess.seconds == pytest.approx(guess.nodes / (198 / 0.0014))
    alone = compare.estimate("engine", 3, 7.0, rows[:2])
    assert alone.seconds == pytest.approx(alone.nodes / compare.DEFAULT_SPEED)


@pytest.mark.slow
def test_the_gate_guesses_the_engines_nodes_within_a_few_times() -> None:
    """Every engine run of a comparison from a connect-four opening (4453) was guessed (from
    the runs before it) within 4x of the nodes it counted."""
    result = compare.compare(_c4(), [1, 2, 3, 4, 5, 6])
    for row in result.rows:
        if row.variant == "engine" and row.depth >= 3:
            assert row.estimate is not None
            assert row.nodes / 4 <= row.estimate.nodes <= 4 * row.nodes, row


def test_tree_sizes_estimate_minimax_counts_before_any_run() -> None:
    empty = games.get_game("tictactoe").initial_state()
    sizes = compare.tree_sizes(empty, 9)
    assert sizes[:4] == [1, 10, 82, 586]  # uniform near the root: exact
    assert abs(sizes[9] - 549_946) < 0.2 * 549_946
    c4 = compare.tree_sizes(_c4(), 8)
    assert abs(c4[5] - 18_935) < 0.1 * 18_935
    guess = compare.estimate("minimax", 9, compare.branching(empty), [], sizes=sizes)
    assert guess.nodes == sizes[9] and guess.basis == "random paths through the tree"
    ordered = compare.estimate("alphabeta-ordered", 9, 5.0, [], sizes=sizes)
    assert ordered.nodes == pytest.approx(2 * sizes[9] ** 0.5)
    done = [compare.Row("engine", "engine", 4, nodes=100, elapsed=0.01)]
    grown = compare.estimate("engine", 6, 5.0, done, sizes=sizes)
    assert grown.nodes == pytest.approx(100 * (sizes[6] / sizes[4]) ** 0.5)


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "pig"])
def test_values_agree_for_every_heuristic(name: str) -> None:
    game = games.get_game(name, **({"goal": 20} if name == "pig" else {}))
    state = _random_positions(name, 1, seed=5, **({"goal": 20} if name == "pig" else {}))[0]
    for heuristic in game.heuristics:
        result = compare.compare(state, [1, 2, 3], heuristic=heuristic)
        for depth in result.depths():
            values = [row.value for row in result.at(depth)]
            assert max(values) - min(values) <= 1e-12, (heuristic, depth, values)
