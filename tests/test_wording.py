"""Every number says what it is: legends quote what is shown, counts agree with their nouns,
no negative zero, bounds claim no order they do not prove, and figures that do not apply to
an answer are not shown beside it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from plyground import ai, games
from plyground.ai.advice import report
from plyground.ai.advice.game_review import MoveReview, unmarked_text
from plyground.ai.engine.result import SearchDetails
from plyground.ai.evaluation.numbers import compact
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source, estimate, exact
from plyground.ai.evaluation.values import STEP, WIN, signed
from plyground.ai.evaluation.wording import counted, legend, plural, short_legend
from plyground.ai.student_code.templates import STARTER_FILE, template
from plyground.ai.textbook.trace import trace
from plyground.ai.textbook.trace_text import render_text
from plyground.games.trees.examples import DICE_SMALL, TreeGame

TTT = games.get_game("tictactoe")
C4 = games.get_game("connect4")


def _win_in(plies: int) -> float:
    return WIN - plies * STEP


# ------------------------------------------------------------------ legends quote what is shown
def test_the_key_quotes_the_values_on_show_never_a_fixed_example() -> None:
    draw = exact(0.0, Source.SOLVER)
    assert short_legend(False, [draw]) == ("draw: exact",)
    assert legend(False, [draw]) == ("draw: exact (proven)",)
    loss = exact(-_win_in(4), Source.SEARCH)
    win = exact(_win_in(3), Source.SEARCH)
    assert short_legend(False, [loss, draw, win, draw]) == ("win in 3 / draw: exact",)
    guess = estimate(0.124, 3)
    assert legend(False, [draw, guess]) == (
        "draw: exact (proven)",
        "est. +0.12: a heuristic estimate (-1 to +1, not a proof)",
    )
    upper = Evaluation(-_win_in(22), Kind.UPPER, Source.SEARCH)
    assert short_legend(False, [upper]) == ("≤: bound",)
    assert short_legend(False, [upper, upper.negated()]) == ("≤ ≥: bound",)
    chance = exact(0.24, Source.TABLE)
    assert short_legend(True, [chance]) == ("62%: exact chance",)
    assert legend(True, [chance]) == ("62.0% to win: exact (optimal play)",)
    assert short_legend(False, []) == ()


# ------------------------------------------------------------------ counts and their nouns
def test_a_count_agrees_with_its_noun() -> None:
    assert counted(1, "node") == "1 node"
    assert counted(0, "node") == "0 nodes"
    assert counted(12345, "node") == "12,345 nodes"
    assert counted(1, "leaf") == "1 leaf" and counted(3, "leaf") == "3 leaves"
    assert counted(2, "table hit") == "2 table hits"
    assert counted(2, "cut-off") == "2 cut-offs"
    assert counted(1, "game") == "1 game"
    assert counted(1_234_567, "node", "1.23M") == "1.23M nodes"
    assert plural("pass") == "passes" and plural("position") == "positions"
    assert plural("inaccuracy") == "inaccuracies" and plural("key") == "keys"


def test_the_trace_summary_says_one_node_and_one_leaf() -> None:
    tree = TreeGame(("max", (("B", 3.0),)))
    found = trace(tree.initial_state(), "minimax", 1)
    assert render_text(found).splitlines()[-2:] == [
        "value 3; 2 nodes, 1 leaf, 0 cut-offs, 0 table hits",
        "root value: exact, searched to the end",
    ]


def test_a_progress_line_and_an_estimate_of_one_node() -> None:
    progress = SimpleNamespace(depth=1, nodes=1, elapsed=0.0)
    assert report.progress_line(progress) == "depth 1 · 1 node · 0.0 s"


# ------------------------------------------------------------------ no negative zero
@pytest.mark.parametrize("value", [-0.00001, -0.00004, 0.0, -0.0])
def test_a_value_that_rounds_to_zero_is_written_without_a_sign(value: float) -> None:
    assert signed(value) == "0.00"
    assert signed(value, 3) == "0.000"
    assert signed(value, 4) == "0.0000"
    assert signed(-0.004) == "0.00" and signed(-0.004, 3) == "-0.004"
    assert signed(0.31) == "+0.31"


def test_trace_values_show_no_negative_zero() -> None:
    from plyground.ai.textbook.trace_tree import format_value

    assert format_value(-0.001) == "0.00"
    assert format_value(-0.31) == "−0.31"


# ------------------------------------------------------------------ bounds claim no order
def _move(played: Evaluation, best: Evaluation) -> MoveReview:
    return MoveReview(0, 2, 0, played, best, 4, None, "", 0.0)


def test_no_best_and_no_as_good_from_a_bound() -> None:
    """Red 3 was called 'a best move (5 is as good)' where 3 is only known to lose in 22 at
    most and 5 to lose in 28 at least."""
    three = Evaluation(-_win_in(22), Kind.LOWER, Source.SEARCH)
    five = Evaluation(-_win_in(28), Kind.LOWER, Source.SEARCH)
    text = unmarked_text(_move(three, five), "3", "5", False)
    assert text == ("not compared: a bound proves no order here (3 ≥ loss in 22, 5 ≥ loss in 28)")
    assert "best" not in text and "as good" not in text


def test_a_bound_that_does_prove_the_order_says_so() -> None:
    worse = Evaluation(-_win_in(22), Kind.UPPER, Source.SEARCH)
    best = exact(-_win_in(28), Source.SOLVER)
    assert unmarked_text(_move(worse, best), "3", "5", False) == "good enough · best was 5"
    at_least = Evaluation(0.0, Kind.LOWER, Source.SEARCH)
    assert unmarked_text(_move(at_least, exact(0.0, Source.SOLVER)), "3", "5", False) == (
        "a best move (5 is as good)"
    )


def test_exact_values_compare_as_before() -> None:
    draw = exact(0.0, Source.SOLVER)
    assert unmarked_text(_move(draw, draw), "3", "5", False) == "a best move (5 is as good)"
    assert unmarked_text(_move(draw, draw), "3", "3", False) == "the best move"
    lower = Evaluation(0.0, Kind.LOWER, Source.SEARCH)
    assert unmarked_text(_move(lower, draw), "3", "", False) == (
        "the engine's choice (its value is a bound)"
    )


# ------------------------------------------------------------------ figures that apply
def test_a_book_answer_shows_no_search_figures_and_says_its_source_once() -> None:
    pytest.importorskip("bitbully_databases")
    from plyground.ai.advice.advisor import advise
    from plyground.gui.play.analysis_panel import Analysis, summary_lines

    result, title = advise(C4, C4.initial_state())
    assert report.looked_up(result)
    assert report.search_line(result) == "opening book"
    rows = summary_lines(Analysis(result, "hint", 0, 7, advice=title), C4)
    labels = [label for label, _ in rows]
    assert "Work" not in labels and "Pruning" not in labels and "vs minimax" not in labels
    assert sum("opening book" in text for _, text in rows) == 1
    assert not any("cut short" in text or "no search needed" in text for _, text in rows)


def test_pig_table_advice_names_no_algorithm_or_depth() -> None:
    from plyground.ai.advice.advisor import advise
    from plyground.gui.play.analysis_panel import Analysis, summary_lines

    pig = games.get_game("pig", goal=30)
    state = pig.replay(pig.parse_moves("r4r6h r5"))
    result, title = advise(pig, state)
    if result.evaluation.source is not Source.TABLE:
        pytest.skip("this machine could not build the exact table")
    assert report.search_line(result) == "exact table"
    rows = summary_lines(Analysis(result, "hint", state.player, 2, advice=title), pig)
    texts = " · ".join(text for _, text in rows)
    assert texts.count("exact table") == 1
    assert "expectiminimax" not in texts and "depth" not in texts and "nodes" not in texts


def test_counters_a_compiled_engine_does_not_keep_are_not_shown() -> None:
    searched = SimpleNamespace(leaves=0, cutoffs=5, table_hits=0, details=SearchDetails())
    assert report.counters(searched) == [
        ("leaf", 0),
        ("cut-off", 5),
        ("table hit", 0),
    ]
    compiled = SearchDetails(exact_engine="compiled")
    engine = SimpleNamespace(leaves=0, cutoffs=0, table_hits=0, details=compiled)
    assert report.counters(engine) == []


def test_huge_counts_are_written_as_powers_of_ten() -> None:
    assert [compact(n) for n in (999, 1234, 1234567, 9.1e26, 1e12, 7.06e16)] == [
        "999",
        "1.23k",
        "1.23M",
        "9.1×10²⁶",
        "1×10¹²",
        "7.1×10¹⁶",
    ]


def test_fractions_are_written_in_three_digits_as_counts_are() -> None:
    # a slow game's rate (easyAI's Reversi: '81.9744 nodes/s') as short as the others
    assert [compact(n) for n in (81.9744, 0.5, 0.125, 999.7, -12.345)] == [
        "82",
        "0.5",
        "0.125",
        "1k",
        "-12.3",
    ]


def test_a_compiled_solvers_share_of_minimax_names_the_solver() -> None:
    solved = SearchDetails(minimax_tree=10**12, exact_engine="compiled")
    solver = SimpleNamespace(nodes=250_000, details=solved)
    assert report.versus_tree(solver) == (
        "minimax ≈ 1×10¹² nodes (sampled tree); the compiled solver (alpha-beta) used under 0.1%"
    )
    search = SimpleNamespace(nodes=5 * 10**10, details=SearchDetails(minimax_tree=10**12))
    assert report.versus_tree(search).endswith("; alpha-beta used 5.0%")


def test_an_estimated_tree_is_a_whole_number_of_nodes() -> None:
    small = SimpleNamespace(nodes=17, details=SearchDetails(minimax_tree=21.5))
    assert report.versus_tree(small) == "minimax ≈ 22 nodes (sampled tree); alpha-beta used 79.1%"


def test_analyze_prints_only_the_counters_that_apply(capsys: pytest.CaptureFixture[str]) -> None:
    from plyground.cli import run as cli_run

    state = TTT.replay(TTT.parse_moves("5"))
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 2)))
    assert cli_run(["analyze", "--game", "tictactoe", "--moves", "5", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "Tic-tac-toe, after 1 move\n" in out
    line = next(row for row in out.splitlines() if row.startswith("Nodes "))
    assert line == (
        f"Nodes {result.nodes:,}  leaves {result.leaves:,}  "
        f"cut-offs {result.cutoffs:,}  table hits {result.table_hits:,}"
    )


# ------------------------------------------------------------------ names and templates
def test_the_exercise_template_names_a_file_to_grade() -> None:
    text = template("alphabeta")
    assert "{file}" not in text and "{" not in text.split('"""')[1]
    assert f"python main.py exercise alphabeta {STARTER_FILE}\n" in text
    assert "python main.py exercise minimax mine.py\n" in template("minimax", "mine.py")


def test_the_narration_names_a_chance_node_as_the_tree_does() -> None:
    from plyground.ai.textbook.trace_text import explain, node_name

    found = trace(TreeGame(DICE_SMALL).initial_state(), "expectiminimax", 2)
    chance = next(node for node in found.nodes if node.kind == "chance")
    assert node_name(found, chance) == chance.label == "a1"
    sentences = [explain(found, step) for step in range(len(found.events))]
    assert "Chance node a1 averages its outcomes: 0.9·2 + 0.1·3 = 2.1." in sentences


# ------------------------------------------------------------------ the terminal's figures
def test_compare_writes_each_value_with_its_kind_and_a_key(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from plyground.cli import run as cli_run

    assert cli_run(["compare", "--game", "tictactoe", "--moves", "15", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if "minimax" in line and "│" in line]
    assert rows and all("est. " in row for row in rows)
    assert "Key: est. " in out and ": a heuristic estimate (-1 to +1, not a proof)" in out


def test_the_bench_shows_no_share_above_all_of_minimax() -> None:
    from plyground.ai.bench.searches import _share_text

    assert _share_text(0.125) == "12.5%"
    assert _share_text(1.0) == "100.0%"
    assert _share_text(1.098) == "more"
    assert _share_text(None) == "-"


def test_games_left_out_agree_with_their_count() -> None:
    from plyground.cli.console import void_or_aborted

    assert void_or_aborted(1) == "1 game is void (its worker or Ray lost it); not counted"
    assert void_or_aborted(2) == "2 games are void (their worker or Ray lost them); not counted"
    assert void_or_aborted(1, aborted=True) == (
        "1 game reached the move limit and was scored as a draw"
    )
    assert void_or_aborted(3, aborted=True) == (
        "3 games reached the move limit and were scored as draws"
    )
    assert void_or_aborted(1, aborted=True, limit=2_000) == (
        "1 game reached the move limit of 2,000 moves and was scored as a draw"
    )


def test_the_key_names_no_source_the_values_already_say() -> None:
    book = exact(0.0, Source.BOOK)
    assert short_legend(False, [book]) == ("draw: exact",)
    assert legend(False, [book]) == ("draw: exact (proven)",)


def test_an_estimate_line_quotes_one_estimate() -> None:
    shown = [estimate(0.034, 4), estimate(-0.41, 4)]
    assert legend(True, shown) == ("est. +0.03: a heuristic estimate, not a chance",)


def test_a_mix_of_heuristic_and_playout_estimates_keys_each_as_what_it_is() -> None:
    """A heuristic's estimate and a mean of playouts are two kinds of estimate: a table
    showing both (compare: alpha-beta beside MCTS) keys each on its own line."""
    from plyground.ai.evaluation.provenance import from_playouts

    shown = [estimate(0.3, 4), from_playouts(0.2, 100)]
    assert legend(False, shown) == (
        "est. +0.30: a heuristic estimate (-1 to +1, not a proof)",
        "○ 0.60: the mean result of playouts (1 win, 1/2 draw, 0 loss), an estimate",
    )
    assert short_legend(False, shown) == ("est.: estimate", "○: mean of playouts, estimate")
    assert legend(True, shown)[0] == "est. +0.30: a heuristic estimate, not a chance"
    assert legend(False, [from_playouts(0.2, 100)]) == (
        "○ 0.60: the mean result of playouts (1 win, 1/2 draw, 0 loss), an estimate",
    )
