"""Idle means idle: the window draws only after an event or while something moves."""

from __future__ import annotations

import pygame
import pytest
from driving import click, pump, start_game

from plyground.gui.app import SETTLE
from plyground.gui.bench import frame_bench
from plyground.gui.play.activity import PULSE_SECONDS, Activity

SETTLED_FRAMES = round(SETTLE * 60) + 5
"""Frames after which widgets have settled from the last event."""


def drawn_over(app, frames: int) -> int:
    """How many of the next `frames` steps drew."""
    before = app.frames
    pump(app, frames)
    return app.frames - before


def test_the_menu_at_rest_draws_nothing_until_an_event(make_app):
    app = make_app()
    pump(app, SETTLED_FRAMES)
    assert drawn_over(app, 120) == 0
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LSHIFT, unicode="", mod=0))
    assert drawn_over(app, 1) == 1
    pump(app, SETTLED_FRAMES)
    assert drawn_over(app, 60) == 0


@pytest.mark.slow
def test_a_hovered_menu_card_animates_and_rests_once_left(make_app):
    app = make_app()
    scene = app.scene
    card = scene.card_rects()[0]
    app.mouse_override = card.center
    pump(app, SETTLED_FRAMES)
    assert scene.animating() and drawn_over(app, 30) == 30  # its icon moves
    app.mouse_override = (2, 2)
    pump(app, 60)
    assert not scene.animating() and drawn_over(app, 30) == 0


def test_a_still_board_rests_and_a_move_animates_then_rests(make_app):
    app = make_app()
    play = start_game(app, "connect4", ("human", "human"))
    app.settings.show_analysis = False
    pump(app, SETTLED_FRAMES)
    assert drawn_over(app, 90) == 0
    click(app, play.board_rect().center, frames=1)
    assert play.animating()  # the disc falls
    assert drawn_over(app, 10) == 10
    pump(app, SETTLED_FRAMES)
    assert not play.animating() and drawn_over(app, 60) == 0
    assert play.controller.history.moves == [3]


def test_a_toast_draws_when_it_appears_and_while_it_fades(make_app):
    app = make_app()
    pump(app, SETTLED_FRAMES)
    app.toast("hello", seconds=2.0)
    assert drawn_over(app, 1) == 1
    assert drawn_over(app, 60) == 0  # shown and still
    assert drawn_over(app, 60) > 10  # fading out, then gone
    assert not app.toasts and drawn_over(app, 30) == 0


def test_pulsing_marks_hold_still_after_a_while():
    class GameHistory:
        entries = ()

    class Controller:
        hint = 3
        over_since = None
        history = GameHistory()

    activity = Activity()
    activity.update(Controller(), 10.0)
    assert activity.pulse_now(11.0) == 11.0
    assert activity.pulse_now(100.0) == 10.0 + PULSE_SECONDS
    Controller.hint = 4  # a new hint pulses again
    activity.update(Controller(), 50.0)
    assert activity.pulse_now(51.0) == 51.0


@pytest.mark.slow
def test_the_idle_bench_draws_no_frame_at_rest():
    result = frame_bench.idle_run(seconds=0.3, settle=SETTLE + 0.3)
    assert result["menu_rest"]["frames"] == 0 and result["board_rest"]["frames"] == 0
    assert result["menu_always"]["frames"] > 0 and result["board_always"]["frames"] > 0
    assert len(frame_bench.format_idle(result)) == 3
