"""Every figure a search reports is true (one test per item)."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plyground import ai, games
from plyground.ai.advice import report
from plyground.ai.engine.cost import estimate_nodes, judge, tree_size
from plyground.ai.engine.search import DepthLimited, algorithms_for, searchable_algorithms
from plyground.ai.engine.table import TranspositionTable
from plyground.ai.evaluation.values import board_label, describe, is_proven, signed
from plyground.games import CHANCE

TTT = games.get_game("tictactoe")
C4 = games.get_game("connect4")
DATA = Path(games.__file__).resolve().parent / "connect4" / "data"


# ----------------------------------------------------------------- 1: exactness from values
@pytest.mark.usefixtures("no_book")  # the book solves these openings
def test_hard_with_a_kept_table_reaches_its_depth_and_claims_no_proof() -> None:
    """The issue's game: Hard keeps its table between moves (as players do); at the end it
    stopped at depth 4 claiming "every value is a proven result"."""
    hard = ai.make_player(ai.DIFFICULTIES["connect4"]["Hard"], C4)
    state = C4.initial_state()
    for move in C4.parse_moves("45443352346674466"):
        if state.to_move == 1:
            hard.choose(state)
            assert hard.last_result is not None and hard.last_result.depth == 6
        state = state.play(move)
    hard.choose(state)
    result = hard.last_result
    assert result is not None
    assert result.depth == 6
    assert not result.exact
    fresh = ai.search(
        state, ai.SearchConfig(ai.DepthLimited(depth=6, heuristic="threats"), all_values=False)
    )
    assert (result.move, result.value) == (fresh.move, fresh.value)


def test_a_reused_table_answering_from_estimates_is_no_proof() -> None:
    """A depth-4 pass after a depth-6 search two plies up evaluates no leaf of its own."""
    table = TranspositionTable(18)
    parent = C4.replay(C4.parse_moves("454433523466744"))
    ai.search(
        parent,
        ai.SearchConfig(ai.DepthLimited(depth=6, heuristic="threats"), all_values=False),
        table=table,
    )
    child = C4.replay(C4.parse_moves("45443352346674466"))
    again = ai.search(
        child,
        ai.SearchConfig(ai.DepthLimited(depth=4, heuristic="threats"), all_values=False),
        table=table,
    )
    assert not again.exact  # its depth-4 pass was answered from estimates: no proof
    assert again.depth == 4


def test_a_full_search_is_exact_and_says_draw() -> None:
    result = ai.search(
        TTT.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 9, "lines"))
    )
    assert result.exact
    assert describe(result.value, exact=result.exact) == "draw"
    shallow = ai.search(
        TTT.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 4, "none"))
    )
    assert not shallow.exact
    assert describe(shallow.value, exact=shallow.exact) == "0.00"


def _solved_values(state: Any) -> dict[Any, float]:
    return ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), all_values=True)
    ).values


def _check_labels(result: Any, truth: dict[Any, float]) -> None:
    """Every value labelled proven (or every value of an exact result) is the solved value."""
    bounds = set(result.details.bounds)
    for move, value in result.values.items():
        if move in bounds:
            continue
        if result.exact or is_proven(value):
            assert value == pytest.approx(truth[move]), move


def _random_position(game: Any, rng: random.Random, most: int) -> Any:
    state = game.initial_state()
    for _ in range(rng.randint(0, most)):
        following = state.play(rng.choice(state.legal_moves()))
        if following.is_terminal():
            break
        state = following
    return state


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    algorithm=st.sampled_from(["minimax", "alphabeta", "expectiminimax"]),
    depth=st.integers(1, 9),
    all_values=st.booleans(),
)
def test_values_labelled_proven_are_solved_values_in_tictactoe(
    seed: int, algorithm: str, depth: int, all_values: bool
) -> None:
    rng = random.Random(seed)
    state = _random_position(TTT, rng, 6)
    table = TranspositionTable(16)
    parent_moves = state.legal_moves()
    # Search a position first with the same table, as a player keeping its table does.
    if algorithm != "minimax":
        ai.search(
            TTT.initial_state(),
            ai.SearchConfig(ai.DepthLimited(algorithm, min(9, depth + 2))),
            table=table,
        )
    result = ai.search(
        state,
        ai.SearchConfig(ai.DepthLimited(algorithm, depth), seed=seed, all_values=all_values),
        table=table,
    )
    assert set(result.values) == set(parent_moves)
    _check_labels(result, _solved_values(state))


def _pons_value(state: Any, score: int) -> float:
    """Our solved value from Pascal Pons' score (22 - the winner's stone count)."""
    if score == 0:
        return 0.0
    stones = 22 - abs(score)
    end_ply = 2 * stones - 1 if (score > 0) == (state.ply % 2 == 0) else 2 * stones
    return math.copysign(1 - (end_ply - state.ply) * 0.001, score)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=st.integers(0, 999), depth=st.integers(1, 8), reuse=st.booleans())
def test_values_labelled_proven_are_solved_values_in_connect4_endgames(
    line: int, depth: int, reuse: bool
) -> None:
    moves, score = (DATA / "Test_L3_R1.txt").read_text().splitlines()[line].split()
    played = C4.parse_moves(moves)
    state = C4.replay(played)
    table = TranspositionTable(16)
    if reuse:  # the position before, searched with the same table (a player's habit)
        ai.search(
            C4.replay(played[:-1]), ai.SearchConfig(ai.DepthLimited(depth=depth + 1)), table=table
        )
    result = ai.search(
        state, ai.SearchConfig(ai.DepthLimited(depth=depth), all_values=False), table=table
    )
    if result.exact or is_proven(result.value):
        assert result.value == pytest.approx(_pons_value(state, int(score)))
    _check_labels(result, _solved_values(state))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), depth=st.integers(1, 3))
def test_pig_values_are_chances_only_when_exact(seed: int, depth: int) -> None:
    from plyground.games.pig.optimal import optimal_table

    pig = games.get_game("pig", goal=20)
    rng = random.Random(seed)
    state = _random_position(pig, rng, 12)
    if state.to_move == CHANCE:
        state = state.play(rng.choice(state.legal_moves()))
    if state.is_terminal():
        state = pig.initial_state()
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", depth)))
    table = optimal_table(20)
    me = state.player
    exact = {
        "roll": table.roll_win_probability(state.scores[me], state.scores[1 - me], state.turn_total)
    }
    if state.turn_total:
        exact["hold"] = table.hold_win_probability(
            state.scores[me], state.scores[1 - me], state.turn_total
        )
    for move, value in result.values.items():
        text = describe(value, stochastic=True, exact=result.exact)
        if result.exact:
            assert (value + 1) / 2 == pytest.approx(exact[move], abs=1e-6)
        else:
            assert "to win" not in text and text.startswith("estimate")


def test_an_exact_heuristic_makes_pig_values_exact_chances(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A heuristic that declares itself exact (Pig's optimal table) gives true chances."""
    from types import SimpleNamespace

    from plyground.games.pig.optimal import optimal_table

    pig = games.get_game("pig", goal=20)
    optimal = pig.heuristics["optimal"]
    exact = SimpleNamespace(
        name="optimal", description=optimal.description, evaluate=optimal.evaluate, exact=True
    )
    state = pig.replay(pig.parse_moves("r4r6h r5r3"))
    assert not ai.search(
        state, ai.SearchConfig(ai.DepthLimited("expectiminimax", 1, "score"))
    ).exact
    assert ai.search(
        state, ai.SearchConfig(ai.DepthLimited("expectiminimax", 1, "optimal"))
    ).exact  # the game's
    monkeypatch.setitem(state.game.heuristics, "optimal", exact)
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", 1, "optimal")))
    assert result.exact
    table = optimal_table(20)
    me = state.player
    args = (state.scores[me], state.scores[1 - me], state.turn_total)
    assert (result.values["roll"] + 1) / 2 == pytest.approx(
        table.roll_win_probability(*args), abs=1e-6
    )
    assert (result.values["hold"] + 1) / 2 == pytest.approx(
        table.hold_win_probability(*args), abs=1e-6
    )
    assert describe(result.value, True, result.exact).endswith("% to win")


# ----------------------------------------------------------------- 4: estimates are not chances
def test_value_wording() -> None:
    assert describe(0.466 * 2 - 1, stochastic=True) == "estimate -0.07"
    assert describe(0.449 * 2 - 1, stochastic=True, exact=True) == "44.9% to win"
    assert board_label(0.2, stochastic=True) == "est. +0.20"
    assert board_label(0.2, stochastic=True, exact=True) == "60% to win"
    assert describe(1 - 0.005) == "win in 5"
    assert describe(-(1 - 0.002)) == "loss in 2"
    assert describe(0.0, exact=True) == "draw"
    assert describe(-0.001) == "0.00" == signed(-0.004)  # never "-0.00"
    assert describe(0.31) == "+0.31"


def test_panel_and_analyze_agree_and_pig_estimates_are_no_chances() -> None:
    from plyground.cli.analyze_command import analyze_position
    from plyground.gui.play.analysis_panel import Analysis, best_text, summary_lines

    pig = games.get_game("pig", goal=30)
    state = pig.replay(pig.parse_moves("r4r6h r5"))
    data = analyze_position(pig, state, DepthLimited("expectiminimax", 3), None, 0)
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", 3), seed=0))
    rows = dict(summary_lines(Analysis(result, "hint", state.player, 2), pig))
    assert rows["Best"] == best_text(result, pig) == f"{data['best_move']} · {data['meaning']}"
    assert "to win" not in rows["Best"] and "est." in rows["Best"]
    assert rows["Values"] == data["values_note"]
    assert "not chances to win" in rows["Values"]
    for game, moves, depth in ((C4, "4453", 6), (TTT, "15", None)):
        position = game.replay(game.parse_moves(moves))
        data = analyze_position(game, position, DepthLimited("alphabeta", depth), None, 0)
        result = ai.search(position, ai.SearchConfig(ai.DepthLimited("alphabeta", depth), seed=0))
        rows = dict(summary_lines(Analysis(result, "ai", position.player, 7), game))
        assert rows["Best"] == f"{data['best_move']} · {data['meaning']}"
        assert rows["vs minimax"] == data["versus_minimax"]
        assert rows.get("Values") == data["values_note"]


# ----------------------------------------------------------------- 5: misleading figures
def test_tree_sizes_are_counted_from_the_game_not_b_to_the_d() -> None:
    assert tree_size(TTT.initial_state(), 9) == pytest.approx(549_946, rel=0.1)
    after_two = TTT.replay(TTT.parse_moves("15"))
    full = ai.search(after_two, ai.SearchConfig(ai.DepthLimited("minimax", 7, "none")))
    assert tree_size(after_two, 7) == pytest.approx(full.nodes, rel=0.2)  # not 7^7 = 823k
    result = ai.search(TTT.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 8)))
    rows = dict(
        summary_lines_for(result, TTT, branching=9),
    )
    assert "^" not in " ".join(rows.values()) and "theory" not in " ".join(rows.values())
    assert "sampled" in rows["vs minimax"]


def summary_lines_for(result: Any, game: Any, branching: int, minimax: int | None = None) -> Any:
    from plyground.gui.play.analysis_panel import Analysis, summary_lines

    return summary_lines(Analysis(result, "ai", 0, branching, minimax), game)


@pytest.mark.slow
def test_alpha_beta_is_compared_with_minimax_pass_for_pass() -> None:
    state = TTT.initial_state()
    minimax = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 9, "none")))
    # On a clock, alpha-beta deepens pass by pass (the clock never runs out here).
    pruned = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", 9, "none"), time_limit=600)
    )
    own = report.last_pass_nodes(pruned)
    assert own < pruned.nodes  # iterative deepening ran earlier passes too
    text = dict(summary_lines_for(pruned, TTT, 9, minimax.nodes))["vs minimax"]
    assert f"depth-9 pass used {own / minimax.nodes * 100:.1f}%" in text
    assert "all 9 passes of iterative deepening" in text
    # At a fixed depth without a clock there is one pass, the one compared.
    single = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 9, "none")))
    assert report.last_pass_nodes(single) == single.nodes
    text = dict(summary_lines_for(single, TTT, 9, minimax.nodes))["vs minimax"]
    assert f"depth-9 pass used {single.nodes / minimax.nodes * 100:.1f}%" in text
    assert "iterative deepening" not in text


def test_no_rate_for_tiny_searches() -> None:
    tiny = ai.search(
        TTT.replay(TTT.parse_moves("1427")), ai.SearchConfig(ai.DepthLimited("alphabeta", 2))
    )
    assert report.speed(tiny) is None
    work = dict(summary_lines_for(tiny, TTT, 5))["Work"]
    assert "/s" not in work


# ----------------------------------------------------------------- 6: the whole line
@pytest.mark.parametrize("seed", range(6))
def test_minimax_shows_its_whole_line(seed: int) -> None:
    state = C4.replay(C4.parse_moves("4453"))
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 4), seed=seed))
    assert len(result.pv) == 4 and result.pv[0] == result.move
    empty = ai.search(
        TTT.initial_state(), ai.SearchConfig(ai.DepthLimited("minimax", 3, "none"), seed=seed)
    )
    assert len(empty.pv) == 3 and empty.pv[0] == empty.move  # every move ties: the seed picks


@pytest.mark.slow
@pytest.mark.usefixtures("no_book")  # the book solves these openings
def test_a_search_cut_short_shows_the_line_of_its_deepest_finished_pass() -> None:
    state = C4.replay(C4.parse_moves("4453"))
    polls = {"n": 0}

    def finish_now() -> bool:
        polls["n"] += 1
        return polls["n"] > 30

    result = ai.search(
        state,
        ai.SearchConfig(ai.DepthLimited(depth=14, heuristic="threats")),
        finish_now=finish_now,
    )
    assert not result.complete and not result.exact
    assert 4 <= result.depth < 14
    assert len(result.pv) >= result.depth - 1 and result.pv[0] == result.move
    # Expert's way: solve for half the budget, then deepen; the line is still a line.
    expert = ai.search(
        state, ai.SearchConfig(ai.DepthLimited(depth=None, heuristic="threats"), time_limit=0.4)
    )
    assert not expert.complete and len(expert.pv) >= min(3, expert.depth)


# ----------------------------------------------------------------- 7: what a UI offers
def test_expectiminimax_is_offered_only_where_dice_roll() -> None:
    assert algorithms_for(C4) == algorithms_for(TTT) == ("minimax", "alphabeta")
    assert algorithms_for(games.get_game("pig")) == ("expectiminimax",)
    assert searchable_algorithms(C4) == ai.ALGORITHMS
    state = C4.replay(C4.parse_moves("4453"))
    assert (
        ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", 3))).values
        == ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 3))).values
    )


# ----------------------------------------------------------------- 9: cost, refusal, move now
@pytest.mark.slow
def test_estimates_are_the_right_order_of_magnitude() -> None:
    state = C4.replay(C4.parse_moves("4453"))
    for algorithm, depth in (("minimax", 4), ("alphabeta", 6), ("alphabeta", 8)):
        real = ai.search(
            state, ai.SearchConfig(ai.DepthLimited(algorithm, depth), book=False)
        ).nodes
        assert real / 4 < estimate_nodes(state, algorithm, depth) < real * 4
    pig = games.get_game("pig", goal=30)
    position = pig.replay(pig.parse_moves("r4r6h"))
    real = ai.search(position, ai.SearchConfig(ai.DepthLimited("expectiminimax", 4))).nodes
    assert real / 10 < estimate_nodes(position, "expectiminimax", 4) < real * 10


@pytest.mark.usefixtures("no_book")  # with the book this opening solves at once
def test_searches_that_cannot_finish_are_refused_with_a_way_forward() -> None:
    opening = C4.replay(C4.parse_moves("4453"))  # the README's old example
    verdict = judge(opening, "alphabeta", None, None)
    assert verdict.level == "refuse"
    assert "--time" in verdict.message and "\n" not in verdict.message
    assert judge(opening, "alphabeta", None, 10.0).level == "ok"  # a budget always finishes
    assert judge(C4.initial_state(), "minimax", 12, None).level == "refuse"
    assert judge(opening, "alphabeta", 8, None).level == "ok"
    assert judge(TTT.initial_state(), "alphabeta", None, None).level == "ok"


@pytest.mark.usefixtures("no_book")  # with the book this opening solves at once
def test_analyze_refuses_the_endless_solve_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from main import main

    status = main(["analyze", "--game", "connect4", "--moves", "4453", "--depth", "solve"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "--time" in err


@pytest.mark.slow
@pytest.mark.usefixtures("no_book")  # the book solves these openings
def test_finish_now_returns_the_deepest_finished_iteration() -> None:
    state = C4.replay(C4.parse_moves("4453"))
    polls = {"n": 0}

    def finish_now() -> bool:
        polls["n"] += 1
        return polls["n"] > 20

    result = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", 14)), finish_now=finish_now
    )
    assert not result.complete
    assert 1 <= result.depth < 14
    assert result.depth == result.details.iterations[-1].depth
    fixed = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", result.depth)))
    assert result.values == fixed.values
    for algorithm in ("minimax", "expectiminimax"):
        polls["n"] = 0
        cut = ai.search(
            state, ai.SearchConfig(ai.DepthLimited(algorithm, 9)), finish_now=finish_now
        )
        assert not cut.complete and 1 <= cut.depth < 9
        assert (
            cut.values
            == ai.search(state, ai.SearchConfig(ai.DepthLimited(algorithm, cut.depth))).values
        )
    # Asked at once, it still owes a move: the first iteration always finishes.
    first = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", 8)), finish_now=lambda: True
    )
    assert first.depth == 1 and first.move in state.legal_moves()


def test_progress_names_solving_not_the_internal_depth() -> None:
    seen: list[ai.SearchProgress] = []
    ai.search(
        TTT.initial_state(),
        ai.SearchConfig(ai.DepthLimited("alphabeta", None)),
        progress=seen.append,
    )
    assert seen and report.progress_line(seen[0]).startswith("solving")
    assert "10000" not in report.progress_line(seen[0])


# ----------------------------------------------------------------- a true table size
def test_the_table_reports_its_true_size() -> None:
    table = TranspositionTable(12)
    state = C4.replay(C4.parse_moves("4453"))
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited(depth=6)), table=table)
    occupied = sum(1 for entry in table.slots if entry is not None)
    assert 0 < occupied == len(table) == result.details.table_entries <= table.capacity
    assert table.stores >= occupied
    pig = games.get_game("pig", goal=20)
    pig_table = TranspositionTable(12)
    ai.search(
        pig.replay(pig.parse_moves("r4r6h")),
        ai.SearchConfig(ai.DepthLimited("expectiminimax", 4)),
        table=pig_table,
    )
    ai.search(
        pig.replay(pig.parse_moves("r4r6h r5")),
        ai.SearchConfig(ai.DepthLimited("expectiminimax", 4)),
        table=pig_table,
    )
    assert len(pig_table) == sum(1 for entry in pig_table.slots if entry is not None) > 0
    pig_table.clear()
    assert len(pig_table) == 0


def test_pig_without_a_depth_limit_is_refused_in_words() -> None:
    pig = games.get_game("pig", goal=30)
    verdict = judge(pig.initial_state(), "expectiminimax", None, None)
    assert verdict.level == "refuse"
    assert "years" in verdict.message and "--time" in verdict.message


def test_a_solve_on_the_games_engine_is_estimated_at_the_engines_speed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A solve that runs on connect-four's compiled solver is priced at its speed (the
    game's `solve_speed()`), not the Python alpha-beta's; a fixed depth, and the
    pure-Python solver, at the Python speed."""
    from plyground.ai.engine import cost
    from plyground.games.base import PURE_PYTHON_VARIABLE
    from plyground.games.connect4 import solver as connect4_solver

    state = C4.replay(C4.parse_moves("4444443333332"))
    python = cost.NODES_PER_SECOND["alphabeta"]
    assert cost.speed(state, "alphabeta", 8) == python
    if connect4_solver.may_compile():
        engine = connect4_solver.SOLVE_NODES_PER_SECOND
        assert cost.speed(state, "alphabeta", None) == engine > 10 * python
        verdict = judge(state, "alphabeta", None, None)
        assert verdict.seconds == pytest.approx(verdict.nodes / engine)
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert cost.speed(state, "alphabeta", None) == python


def test_a_solver_s_work_is_named_as_the_solver_s() -> None:
    """A solve is never called 'alpha-beta's depth-1 pass' (its depth is the game's end)."""
    game = games.get_game("tictactoe")
    state = game.replay(game.parse_moves("5193"))
    solved = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    minimax = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", solved.depth, "none")))
    text = report.versus_minimax(solved, minimax.nodes)
    assert "alpha-beta's solve to the end" in text and "pass" not in text.split(";")[1]
    fake = dataclasses.replace(
        solved, details=dataclasses.replace(solved.details, exact_engine="compiled")
    )
    assert "the compiled solver (alpha-beta)" in report.versus_minimax(fake, minimax.nodes)
