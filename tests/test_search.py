"""The search library against exact, independently known answers."""

from __future__ import annotations

import random

import pytest

from plyground import ai, games
from plyground.ai.evaluation.values import STEP, is_proven, plies_to_end

TTT = games.get_game("tictactoe")
C4 = games.get_game("connect4")


# --------------------------------------------------------------------------- tic-tac-toe
def test_minimax_visits_the_whole_tictactoe_tree_and_values_it_a_draw() -> None:
    result = ai.search(TTT.initial_state(), ai.SearchConfig(ai.DepthLimited("minimax", 9, "none")))
    assert result.nodes == 549_946  # every node of the game tree, root included
    assert result.value == 0.0
    assert set(result.values.values()) == {0.0}
    assert result.exact


@pytest.mark.slow
def test_alphabeta_matches_minimax_with_far_fewer_nodes() -> None:
    state = TTT.initial_state()
    full = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 9, "none")))
    pruned = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 9, "none")))
    solved = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), all_values=False))
    assert pruned.values == full.values
    assert solved.value == full.value == 0.0
    assert pruned.nodes * 10 < full.nodes
    assert solved.nodes * 50 < full.nodes


def test_expectiminimax_on_a_game_without_chance_is_minimax() -> None:
    state = TTT.parse_moves("15")
    state = TTT.replay(state)
    full = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 7, "lines")))
    expecti = ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", 7, "lines")))
    assert expecti.values == full.values


def test_quicker_wins_score_higher_and_slower_losses_resist() -> None:
    # X: 1 and 2; O: 4 and 7; X to move wins at once with 3, or later with others.
    state = TTT.replay(TTT.parse_moves("1427"))
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert result.move == 2  # cell 3
    assert result.value == pytest.approx(1 - STEP)
    assert plies_to_end(result.value) == 1
    slower = [v for m, v in result.values.items() if m != 2 and v > 0]
    assert slower and all(v < result.value for v in slower)
    assert min(plies_to_end(v) or 0 for v in slower) == 3
    # After X takes 5, O faces three threats: every move loses in 2 plies.
    lost = ai.search(state.play(4), ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert lost.value == pytest.approx(-(1 - 2 * STEP))
    assert is_proven(lost.value)


def _perfect_move_table() -> dict[object, set[int]]:
    """Every reachable non-terminal position -> the set of moves plain minimax rates best."""
    table: dict[object, set[int]] = {}

    def visit(state: games.State) -> None:
        if state.is_terminal() or state.key() in table:
            return
        result = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 9, "none")))
        best = max(result.values.values())
        table[state.key()] = {m for m, v in result.values.items() if v == best}
        for move in state.legal_moves():
            visit(state.play(move))

    visit(TTT.initial_state())
    return table


@pytest.fixture(scope="module")
def perfect_moves() -> dict[object, set[int]]:
    return _perfect_move_table()


@pytest.mark.slow
def test_tictactoe_expert_plays_perfectly_from_every_reachable_position(
    perfect_moves: dict[object, set[int]],
) -> None:
    assert len(perfect_moves) == 4_520  # 5,478 reachable positions minus 958 finished ones
    expert = ai.get_preset("tictactoe", "Expert")

    def visit(state: games.State, seen: set[object]) -> None:
        if state.is_terminal() or state.key() in seen:
            return
        seen.add(state.key())
        result = ai.search(
            state,
            ai.SearchConfig(expert.search),
        )
        assert result.move in perfect_moves[state.key()], TTT.render(state)
        for move in state.legal_moves():
            visit(state.play(move), seen)

    visit(TTT.initial_state(), set())


@pytest.mark.slow
def test_perfect_play_draws_and_never_loses_to_random(
    perfect_moves: dict[object, set[int]],
) -> None:
    rng = random.Random(7)
    expert = ai.make_player(ai.get_preset("tictactoe", "Expert"), TTT)
    first = TTT.initial_state()
    while not first.is_terminal():
        first = first.play(expert.choose(first))
    assert first.winner() is None
    for game_number in range(3000):
        state = TTT.initial_state()
        perfect_side = game_number % 2
        while not state.is_terminal():
            if state.to_move == perfect_side:
                move = rng.choice(sorted(perfect_moves[state.key()]))
            else:
                move = rng.choice(state.legal_moves())
            state = state.play(move)
        assert state.winner() in (None, perfect_side)


# --------------------------------------------------------------------------- connect-four
def _pons_score(state: games.State, value: float) -> int:
    """Pascal Pons' score (22 - winner's stone count) from our proven value."""
    plies = plies_to_end(value)
    if plies is None:
        assert value == 0.0
        return 0
    end_ply = state.ply + plies
    stones = (end_ply + 1) // 2
    return (22 - stones) if value > 0 else -(22 - stones)


def _load(name: str, limit: int | None = None) -> list[tuple[str, int]]:
    from pathlib import Path

    path = Path(games.__file__).resolve().parent / "connect4" / "data" / name
    rows = []
    for line in path.read_text().splitlines()[:limit]:
        moves, score = line.split()
        rows.append((moves, int(score)))
    return rows


@pytest.mark.slow
def test_connect4_endgame_set_solved_exactly() -> None:
    """All 1,000 end-game positions: win/draw/loss and the exact Pons score."""
    wrong = []
    for moves, score in _load("Test_L3_R1.txt"):
        state = C4.replay(C4.parse_moves(moves))
        result = ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), all_values=False)
        )
        if _pons_score(state, result.value) != score:
            wrong.append((moves, score, result.value))
    assert wrong == []


@pytest.mark.slow
def test_connect4_middle_game_sample_solved_exactly() -> None:
    wrong = []
    for moves, score in _load("Test_L2_R1.txt", limit=60):
        state = C4.replay(C4.parse_moves(moves))
        result = ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), all_values=False)
        )
        if _pons_score(state, result.value) != score:
            wrong.append((moves, score, result.value))
    assert wrong == []


def test_connect4_forced_win_found_at_the_right_depth() -> None:
    # After "4455" X makes an open three on the bottom row with 3 or 6 and wins in 3 plies.
    state = C4.replay(C4.parse_moves("4455"))
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 3)))
    assert plies_to_end(result.value) == 3  # O blocks one end, X plays the other
    assert C4.format_move(result.move) in ("3", "6")
    shallow = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 2)))
    assert not is_proven(shallow.value)


def test_alphabeta_values_every_connect4_root_move_like_minimax() -> None:
    state = C4.replay(C4.parse_moves("4453"))
    for heuristic in ("windows", "threats"):
        full = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 4, heuristic)))
        pruned = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 4, heuristic)))
        assert pruned.values == full.values
        assert pruned.nodes < full.nodes


# --------------------------------------------------------------------------- search API
def test_search_errors_are_clear() -> None:
    pig = games.get_game("pig", goal=20).initial_state()
    with pytest.raises(ai.SearchError, match="expectiminimax"):
        ai.search(pig, ai.SearchConfig(ai.DepthLimited("minimax", 2)))
    with pytest.raises(ai.SearchError, match="expectiminimax"):
        ai.search(pig, ai.SearchConfig(ai.DepthLimited("alphabeta", 2)))
    with pytest.raises(ai.SearchError, match="unknown algorithm"):
        ai.search(TTT.initial_state(), ai.SearchConfig(ai.DepthLimited("negascout")))
    with pytest.raises(ai.SearchError, match="unknown heuristic"):
        ai.search(TTT.initial_state(), ai.SearchConfig(ai.DepthLimited(heuristic="magic")))
    with pytest.raises(ai.SearchError, match="depth"):
        ai.search(TTT.initial_state(), ai.SearchConfig(ai.DepthLimited(depth=0)))
    over = TTT.replay(TTT.parse_moves("14253"))
    with pytest.raises(ai.SearchError, match="over"):
        ai.search(over, ai.SearchConfig())


@pytest.mark.slow
@pytest.mark.usefixtures("no_book")  # with the book this opening solves at once
def test_time_limit_returns_the_deepest_finished_iteration() -> None:
    state = C4.initial_state()
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), time_limit=0.3))
    assert not result.complete
    iterations = result.details.iterations
    assert iterations and result.depth == iterations[-1].depth
    assert result.move in state.legal_moves()


def test_stop_request_cancels() -> None:
    calls = {"n": 0}

    def stop() -> bool:
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(ai.SearchCancelled):
        ai.search(
            C4.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 12)), should_stop=stop
        )


def test_progress_reports_depth_and_nodes() -> None:
    seen: list[ai.SearchProgress] = []
    ai.search(
        C4.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 5)), progress=seen.append
    )
    assert seen and seen[-1].depth == 5 and seen[-1].nodes > 0


def test_seeded_tie_breaks_replay_and_vary() -> None:
    state = TTT.initial_state()
    moves = {
        ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 2, "none"), seed=s)).move
        for s in range(20)
    }
    assert len(moves) > 1  # every first move is a draw: the seed decides
    again = [
        ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 2, "none"), seed=5)).move
        for _ in range(3)
    ]
    assert len(set(again)) == 1


def test_principal_variation_is_legal() -> None:
    state = C4.replay(C4.parse_moves("4453"))
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 6)))
    assert result.pv[0] == result.move
    node = state
    for move in result.pv:
        assert move in node.legal_moves()
        node = node.play(move)
