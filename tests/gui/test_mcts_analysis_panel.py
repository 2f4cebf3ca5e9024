"""Monte Carlo tree search in the window's analysis: each root move's mean (○, an estimate),
visits, share of the budget (with a bar) and UCB term in the panel, the board labelling the
same values the same way, a proven move shown as proven, and the review card's lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from plyground import games
from plyground.ai.advice import report
from plyground.ai.advice.game_review import Line, line_value_text
from plyground.ai.engine.mcts.runner import monte_carlo
from plyground.ai.engine.mcts.settings import MonteCarlo
from plyground.gui import screenshot
from plyground.gui.play import analysis_panel
from plyground.gui.play.search_jobs import Analysis
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

FILES = Path(__file__).resolve().parents[1] / "game_files"
EXACT_WORDS = ("win in", "loss in", "draw", "%")


def mcts_result(game: Any, moves: str, iterations: int) -> Any:
    state = game.replay(game.parse_moves(moves))
    settings = MonteCarlo(iterations)
    return monte_carlo(state, settings, game.heuristics[game.default_heuristic], seed=7)


def drawn_texts(
    monkeypatch: pytest.MonkeyPatch, analysis: Analysis, game: Any, size: tuple[int, int]
) -> list[str]:
    """Every text the panel draws for `analysis` in a rect of `size`."""
    drawn: list[str] = []
    real_text = drawing.draw_text

    def spy_text(surface: Any, text: str, *args: Any, **kw: Any) -> Any:
        drawn.append(text)
        return real_text(surface, text, *args, **kw)

    monkeypatch.setattr(drawing, "draw_text", spy_text)
    pygame.font.init()
    surface = pygame.Surface(size)
    m = Metrics((1280, 800))
    hidden = analysis_panel.draw(
        surface, pygame.Rect((0, 0), size), analysis, game, m, ("Red", "Yellow")
    )
    assert hidden == 0
    return drawn


def test_the_panel_lists_every_root_moves_playout_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = games.get_game("connect4")
    result = mcts_result(game, "44", 700)
    playouts = result.details.playouts
    analysis = Analysis(result, "hint", 0, 7)
    drawn = drawn_texts(monkeypatch, analysis, game, (420, 900))
    assert any("○ MEAN (ESTIMATE)" in text for text in drawn)
    rows = report.playout_rows(result, False)
    assert len(rows) == 7
    assert sum(int(row.visits.replace(",", "")) for row in rows) == playouts.root_visits
    for row in rows:
        stats = playouts.moves[row.move]
        text = row.text()
        assert game.format_move(row.move) in drawn and text in drawn
        assert text.startswith("○ 0.") and not any(word in row.value for word in EXACT_WORDS)
        assert "proven" not in text
        assert f"N {stats.visits:,} · {stats.share:.1%} · UCB {stats.ucb_term:.3f}" in text
    values = [result.move_values[row.move].value for row in rows]
    assert values == sorted(values, reverse=True)  # best first, as every table of values


def test_the_board_labels_the_values_the_panel_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screenshot of a game with no evaluation, its advice from MCTS: every move's label
    on the board is the value its panel row starts with (one formatter)."""
    drawn: list[str] = []
    shown: list[Any] = []
    real_text, real_draw = drawing.draw_text, analysis_panel.draw

    def spy_text(surface: Any, text: str, *args: Any, **kw: Any) -> Any:
        drawn.append(text)
        return real_text(surface, text, *args, **kw)

    def spy_draw(surface: Any, rect: Any, analysis: Any, *args: Any, **kw: Any) -> Any:
        shown.append(analysis)
        return real_draw(surface, rect, analysis, *args, **kw)

    monkeypatch.setattr(drawing, "draw_text", spy_text)
    monkeypatch.setattr(analysis_panel, "draw", spy_draw)
    app = screenshot.open_scene("analysis", str(FILES / "kalah_no_eval.py"), "5 12", (1366, 768))
    app.quit(save=False)
    result = shown[-1].result
    assert result.details.playouts is not None
    rows = report.playout_rows(result, False)
    assert rows
    for row in rows:
        assert row.value.startswith("○ ")
        assert row.value in drawn  # the board's label
        assert row.text() in drawn and row.text().startswith(row.value)  # the panel's row


def test_a_proven_move_shows_as_proven(monkeypatch: pytest.MonkeyPatch) -> None:
    game = games.get_game("tictactoe")
    result = mcts_result(game, "1 5 9", 2000)
    assert result.details.playouts.proven
    drawn = drawn_texts(monkeypatch, Analysis(result, "hint", 1, 6), game, (420, 900))
    assert "EACH MOVE · PROVEN VALUE · N · SHARE · UCB" in drawn
    rows = report.playout_rows(result, False)
    for row in rows:
        assert row.proven and "· proven · N " in row.text() and row.text() in drawn
        assert not row.value.startswith("○")


def test_a_review_line_valued_by_playouts_shows_its_figures() -> None:
    game = games.get_game("connect4")
    result = mcts_result(game, "44", 400)
    move = result.move
    stats = result.details.playouts.moves[move]
    text = line_value_text(Line((move,), result.move_values[move], stats), False)
    assert text.startswith("○ 0.") and " estimate · N " in text
    assert text.endswith(f"N {stats.visits:,} · {stats.share:.1%} · UCB {stats.ucb_term:.3f}")


def test_the_review_card_shortens_a_playout_line_to_its_room() -> None:
    from plyground.gui.play.review_card import fitted_value

    pygame.font.init()
    game = games.get_game("connect4")
    result = mcts_result(game, "44", 400)
    move = result.move
    stats = result.details.playouts.moves[move]
    line = Line((move,), result.move_values[move], stats)
    label = report.playout_row(move, result.move_values[move], stats, False).value
    assert fitted_value(line, False, 2000, 12) == line_value_text(line, False)
    assert fitted_value(line, False, 90, 12) == f"{label} · N {stats.visits:,}"
    assert fitted_value(line, False, 10, 12) == label


def test_move_now_reaches_a_custom_mcts_side() -> None:
    """A Custom MCTS of 100k iterations and no clock can be told to move now, as a deep
    search can: the worker gives its search the flag."""
    from plyground.ai.players.players import RandomMoves, SearchPlayer
    from plyground.gui.worker.process import _may_finish_early

    state = games.get_game("connect4").initial_state()
    assert _may_finish_early(state, SearchPlayer(MonteCarlo(100_000)))
    assert not _may_finish_early(state, RandomMoves())


def test_the_review_names_the_figures_of_the_mcts_player_that_moved() -> None:
    """Reviewing a game against a Custom MCTS side: beside each of its moves, what its own
    search gave that move (mean, visits, share, UCB term), as the panel wrote them."""
    from dataclasses import replace
    from types import SimpleNamespace

    from plyground.ai.advice.game_review import MoveReview
    from plyground.ai.evaluation.provenance import Source as EvaluationSource
    from plyground.ai.evaluation.provenance import exact
    from plyground.gui.play.controller import PlayController
    from plyground.gui.play.review_card import played_figures
    from plyground.gui.storage.settings import AI, CUSTOM, HUMAN, Settings
    from tests.gui.test_play_controller import Clock, FakeWorker, ai_replies

    stored = Settings()
    human, machine = stored.sides["connect4"]
    human.kind, machine.kind, machine.preset = HUMAN, AI, CUSTOM
    machine.custom = replace(machine.custom, search=MonteCarlo(200), time_limit=None)
    worker, clock = FakeWorker(), Clock()
    controller = PlayController("connect4", stored, worker, clock)
    assert controller.try_human_move(3)
    reply = ai_replies(controller, worker, clock)
    own = controller.jobs.own_figures[(controller.history.state_after(1), reply)]
    assert own.visits > 0
    value = exact(0.0, EvaluationSource.SEARCH)
    judged = MoveReview(1, reply, 1, value, value, reply, None, "", 0.0)
    text = played_figures(SimpleNamespace(controller=controller), judged, "4")  # type: ignore[arg-type]
    assert text == (
        f"4 in its own MCTS: ○ {own.mean:.2f} · "
        f"N {own.visits:,} · {own.share:.1%} · UCB {own.ucb_term:.3f}"
    )
