"""Hint and the analysis in the opening: every column's exact value, through the controller.

Where the game says a solve is cheap (connect-four with its opening book: 11 stones or
fewer) the hint and the board's move values come from a solve, so each column is labelled
with its exact result ("win in 41", "draw", "loss in 40"); elsewhere the analysis keeps
its usual search.  Values are checked against Pons' published first-move scores, the
opening book itself, and the beginning test set in games/data.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from test_play_controller import FakeWorker, make

from plyground import ai, games
from plyground.ai.engine.bookkeeping import back_up
from plyground.ai.engine.full_width_search import book_units
from plyground.gui.kits.base import short_value
from plyground.gui.play.analysis_panel import Analysis, summary_lines
from plyground.gui.play.controller import PlayController
from plyground.gui.storage.settings import HUMAN

pytest.importorskip("bitbully_databases")
GAME = games.get_game("connect4")


pytestmark = pytest.mark.usefixtures("real_book")


def opened(moves: str) -> tuple[PlayController, FakeWorker]:
    """Human against human on connect-four after `moves`, the analysis shown."""
    controller, worker, _ = make(game="connect4", sides=(HUMAN, HUMAN))
    for move in GAME.parse_moves(moves):
        assert controller.try_human_move(move)
    controller.settings.show_analysis = True
    return controller, worker


def position_values(controller: PlayController, worker: FakeWorker) -> Any:
    """Let the board's move values be worked out; return them."""
    controller.update()
    job = controller.jobs.job
    assert job is not None and job.kind == "position"
    config = worker.jobs[-1].request.config
    assert config.algorithm == "alphabeta" and config.search.depth is None, "not a solve"
    worker.finish()
    controller.update()
    board = controller.jobs.board_values()
    assert board is not None
    return board


def labels(board: Any) -> list[str]:
    return [short_value(board.values[col], False) for col in sorted(board.values)]


def test_every_column_of_the_first_move_is_labelled_exactly() -> None:
    """Pons' first-move scores -2 -1 0 +1 0 -1 -2, as plies to the end."""
    controller, worker = opened("")
    board = position_values(controller, worker)
    assert board.exact
    assert labels(board) == [
        "loss in 40",
        "loss in 42",
        "draw",
        "win in 41",
        "draw",
        "loss in 42",
        "loss in 40",
    ]
    assert board.chosen == 3


@pytest.mark.slow
@pytest.mark.parametrize("moves", ["4444443", "12345671", "44444433226", "3443211"])
def test_each_column_of_an_opening_is_the_books_value(moves: str) -> None:
    """Positions with 7-11 stones: every column's value equals the value the book gives
    the position after it (12 stones), or the solver's through the book."""
    controller, worker = opened(moves)
    board = position_values(controller, worker)
    assert board.exact
    state = controller.state
    for col, value in board.values.items():
        child = state.play(col)
        if child.is_terminal() or child.ply != 12:
            continue
        units = book_units(child)
        assert units is not None
        assert round(value.value * 1_000_000) == back_up(units), f"{moves}: column {col + 1}"


def _l1_openings(most: int = 11, every: int = 97) -> list[tuple[str, int]]:
    data = games.GAMES["connect4"].solver_benchmark.directory  # type: ignore[attr-defined]
    lines = (data / "Test_L1_R1.txt").read_text().splitlines()
    picked = [line.split() for line in lines[::every]]
    return [(moves, int(score)) for moves, score in picked if len(moves) <= most][:4]


@pytest.mark.parametrize(("moves", "score"), _l1_openings())
def test_the_hint_is_exact_and_agrees_with_pons_beginning_set(moves: str, score: int) -> None:
    from plyground.ai.bench.searches import solver_score

    controller, worker = opened(moves)
    controller.settings.show_analysis = False
    controller.request_hint()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "analyse"
    assert worker.jobs[-1].request.config.search.depth is None
    worker.finish()
    controller.update()
    analysis = controller.jobs.analysis
    assert analysis is not None and analysis.source == "hint"
    result = analysis.result
    assert result.exact
    assert solver_score(GAME.solver_benchmark, result.value, controller.state.ply, True) == score
    assert controller.hint == result.move
    best = dict(summary_lines(Analysis(result, "hint", 0, 7), GAME))["Best"]
    assert best.split(" for ")[0].endswith(("draw", *(f" in {n}" for n in range(1, 43))))


def test_past_the_opening_the_analysis_keeps_its_usual_search() -> None:
    """13 stones: the book is out of reach, so the strongest preset advises on a small
    budget, whoever the opponent is (ai.advice.advisor)."""
    from plyground.ai.advice.advisor import ADVICE_SECONDS

    controller, worker = opened("4444443333332")
    controller.update()
    config = worker.jobs[-1].request.config
    assert config == dataclasses.replace(
        ai.DIFFICULTIES["connect4"]["Expert"], time_limit=ADVICE_SECONDS, randomness=0.0
    )


@pytest.mark.parametrize("game", ["tictactoe", "pig"])
def test_games_without_a_cheap_solve_keep_their_analysis(game: str) -> None:
    controller, worker, _ = make(game=game, sides=(HUMAN, HUMAN))
    controller.settings.show_analysis = True
    controller.update()
    if controller.jobs.job is None:  # e.g. a die to roll first
        return
    assert worker.jobs[-1].request.config == controller.jobs.analysis_config(
        controller.state.to_move
    )


def test_the_panels_line_says_where_it_meets_the_book() -> None:
    controller, worker = opened("12345671")
    controller.request_hint()
    worker.finish()
    controller.update()
    analysis = controller.jobs.analysis
    assert analysis is not None
    rows = dict(summary_lines(analysis, GAME))
    assert "book" not in rows["Line"] and len(rows["Line"].split()) == 4
    assert rows["Then"] == "the book: draw"


def test_the_first_moves_line_goes_on_in_the_book() -> None:
    controller, worker = opened("")
    board = position_values(controller, worker)
    assert board.exact
    analysis = controller.jobs.analysis
    assert analysis is not None
    rows = dict(summary_lines(analysis, GAME))
    assert rows["Line"] == "4" and rows["Then"] == "the book: win in 40 more for Red"
