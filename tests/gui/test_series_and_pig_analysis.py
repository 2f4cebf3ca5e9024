"""The series cross table (the tournament's, via add_score) and Pig's optimal-play analysis."""

from __future__ import annotations

import pygame
import pytest
from driving import click_button, press, pump, start_game, wait_until

from plyground.ai.players.tournament import format_cross_table
from plyground.games.pig.optimal import optimal_table
from plyground.gui.kits.pig.odds import pig_rows
from plyground.gui.play.game_history import GameHistory
from plyground.gui.play.series_record import GameSeries


def test_series_is_the_tournament_cross_table():
    series = GameSeries()
    series.add("AI · Hard", "AI · Easy", 0)
    series.add("AI · Easy", "AI · Hard", 1)
    series.add("AI · Hard", "AI · Easy", None)
    result = series.result()
    assert result.specs == ("AI · Hard", "AI · Easy")
    pair = result.pairs[(0, 1)]
    assert (pair.wins, pair.draws, pair.losses) == (2, 1, 0)
    assert pair.games_moving_first == 2 and pair.score_moving_first == 1.5
    lines = format_cross_table(result)
    assert "2.5/3" in lines[1] and "0.5/3" in lines[2]
    top = series.lines()[0]
    assert top.label == "AI · Hard" and top.score == 2.5 / 3
    assert 0 < top.low < top.score < top.high <= 1
    assert "AI · Hard scores 83.3%" in series.head_to_head()
    series.pop()
    assert len(series) == 2


@pytest.mark.slow
def test_ai_vs_ai_series_table_in_the_window(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("Easy", "Medium"), speed=0.0)
    assert wait_until(app, lambda: len(play.controller.series) >= 2, 40)
    assert play.controller.series.labels() == ["AI · Easy", "AI · Medium"]
    assert play.buttons["series"].is_enabled
    click_button(app, play.buttons["series"])
    assert type(app.scene).__name__ == "SeriesScene"
    pump(app, 3)
    press(app, pygame.K_ESCAPE)
    assert app.scene is play
    press(app, pygame.K_t, "t")
    assert type(app.scene).__name__ == "SeriesScene"
    click_button(app, app.scene.back_button)
    assert app.scene is play


def test_swapping_sides_keeps_each_players_record(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    for key in "14253":  # X wins
        press(app, ord(key), key)
    pump(app, 30)
    assert play.controller.series.games == [("Human #1", "Human #2", 1.0)]
    play.controller.sides[0].kind = "ai"
    play.controller.sides[0].preset = "Hard"
    play.controller.swap_sides()
    play.controller.refresh_series_labels()
    assert play.controller.series_labels == ["Human", "AI · Hard"]
    press(app, pygame.K_u, "u")  # a finished game that was counted stays counted
    assert len(play.controller.series) == 1
    assert play.controller.score == [0, 0, 0]  # counted by player: these two have not met yet


def test_pig_rows_show_chances_the_optimal_move_and_what_a_choice_gave_up():
    from plyground import games

    game = games.get_game("pig", goal=30)
    table = optimal_table(30)
    history = GameHistory(game)
    names = ("Player 1", "Player 2")
    rows = dict(pig_rows(game, history.initial, history.entries, names))
    start = table.win_probability(0, 0, 0)
    assert rows["Chances"] == f"P1 {100 * start:.1f}% · P2 {100 * (1 - start):.1f}%"
    assert rows["Optimal"].startswith("roll (the only move)")
    assert "Last" not in rows
    for move in ("roll", 6, "roll", 6, "roll", 6):
        history.play(move)
    rows = dict(pig_rows(game, history.initial, history.entries, names))
    assert rows["Last"].startswith("P1 rolled at 12 · ")
    best = "roll" if table.should_roll(0, 0, 18) else "hold"
    assert rows["Optimal"].startswith(best)
    worse = "hold" if best == "roll" else "roll"
    history.play(worse)
    if worse == "roll":
        history.play(6)
    rows = dict(pig_rows(game, history.initial, history.entries, names))
    lost = max(table.roll_win_probability(0, 0, 18), table.hold_win_probability(0, 0, 18)) - (
        table.hold_win_probability(0, 0, 18)
        if worse == "hold"
        else table.roll_win_probability(0, 0, 18)
    )
    assert f"gave up {100 * lost:.1f}%" in rows["Last"]
    # optimal choices give up nothing
    history = GameHistory(game)
    history.play("roll")
    history.play(4)
    rows = dict(pig_rows(game, history.initial, history.entries, names))
    assert rows["Last"] == "P1 rolled · optimal, gave up 0%"


def test_pig_analysis_is_drawn_in_the_window(make_app):
    app = make_app()
    app.settings.set_option("pig", "goal", 20)
    play = start_game(app, "pig", ("human", "human"))
    press(app, pygame.K_a, "a", frames=2)
    press(app, pygame.K_r, "r", frames=60)
    rows = dict(play.model.kit_rows.get(play.controller, play.view))
    assert {"Chances", "Optimal", "Last"} <= set(rows)


@pytest.mark.slow
def test_scenes_are_reached_by_name_through_the_app(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", ("human", "human"))
    for key in "14253":  # X wins
        press(app, ord(key), key)
    pump(app, 30)
    press(app, pygame.K_t, "t")
    assert type(app.scene).__name__ == "SeriesScene" and app.scene.play is play.controller
    press(app, pygame.K_ESCAPE)
    assert app.scene is play
    click_button(app, play.buttons["players"])
    assert type(app.scene).__name__ == "SetupScene" and app.scene.editing
