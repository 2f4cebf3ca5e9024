"""Browsing a game: stepping through positions in the controller (no pygame), the AI
waiting meanwhile, the analysis of reviewed positions, and in the window a saved game
opened again and stepped through by keys, the move list's clicks and wheel."""

from __future__ import annotations

import pygame
import pytest

from plyground.gui.play import browse_view
from plyground.gui.play.controller import PlayController
from plyground.gui.storage.settings import HUMAN, Settings
from tests.gui.driving import click, click_button, press, pump, start_game
from tests.gui.test_play_controller import FakeWorker, ai_replies, make, run


def test_stepping_back_and_forth_and_the_ai_waits_while_reviewing():
    controller, worker, clock = make("tictactoe", (HUMAN, "Easy"))
    assert controller.try_human_move(4)
    ai_replies(controller, worker, clock)
    assert controller.try_human_move(0)
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "move"
    entries = list(controller.history.entries)
    controller.browse.browse_step(-1)  # one move back: the AI stops thinking
    assert (
        controller.browse.browsing and controller.browse.index == 2 and controller.jobs.job is None
    )
    run(controller, clock, 2.0)
    # the AI does not move; the worker reviews the game (the graph fills meanwhile)
    assert controller.jobs.job is not None and controller.jobs.job.kind == "game_review"
    assert len(controller.history.entries) == 3
    assert controller.browse.shown_state() == entries[1].state
    assert not controller.try_human_move(8)  # the board takes no moves
    assert controller.browse.browse_number() == (2, 3)
    controller.browse.browse_home()
    assert controller.browse.shown_state() == controller.history.initial
    assert controller.browse.shown_last_move() is None
    controller.browse.browse_step(-1)  # nothing before the start
    assert controller.browse.index == 0
    assert controller.current_notice() == "This is the start of the game"
    controller.browse.browse_step(1)
    assert (
        controller.browse.shown_state() == entries[0].state
        and controller.browse.shown_last_move() == 4
    )
    controller.browse.browse_step(1)
    controller.browse.browse_step(1)  # past the last move: the live game again
    assert not controller.browse.browsing and controller.browse.shown_state() == controller.state
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.kind == "move"


def test_undo_and_new_game_end_a_review():
    controller, _, _ = make("connect4", (HUMAN, HUMAN), moves=[3, 3, 4])
    controller.browse.browse_to(1)
    controller.undo()
    assert not controller.browse.browsing and len(controller.history.entries) == 2
    controller.browse.browse_home()
    controller.new_game()
    assert not controller.browse.browsing and controller.history.entries == []


def test_dice_are_stepped_over_with_the_decision_that_threw_them():
    controller, _, _ = make("pig", (HUMAN, HUMAN), moves=["roll", 4, "roll", 6, "hold"])
    assert controller.browse.browse_stops() == [0, 2, 4, 5]
    controller.browse.browse_step(-1)
    assert controller.browse.index == 4 and controller.browse.shown_state().turn_total == 10
    controller.browse.browse_step(-1)
    assert (
        controller.browse.shown_state().turn_total == 4
        and controller.browse.shown_last_move() == "roll"
    )


def test_a_reviewed_position_gets_its_own_analysis_once():
    controller, worker, _ = make("tictactoe", (HUMAN, HUMAN), moves=[4, 0, 8])
    controller.settings.show_analysis = True
    controller.browse.browse_to(1)
    controller.update()
    job = controller.jobs.job
    assert job is not None and job.kind == "browse" and job.entries == 1
    assert worker.jobs[-1].request.header.state == controller.browse.shown_state()
    worker.finish()
    controller.update()
    values = controller.browse.shown_values()
    assert values is not None
    assert set(values.values) == set(controller.browse.shown_state().legal_moves())
    assert controller.browse.shown_analysis() is not None
    controller.browse.browse_to(2)  # a new position: searched too
    controller.update()
    assert controller.jobs.job is not None and controller.jobs.job.entries == 2
    controller.browse.browse_to(1)  # the first one again: a new search cancels the old, none starts
    controller.update()
    assert controller.browse.shown_values() is not None
    # (the worker then goes on with the whole game's review: gui.play.game_review)
    assert controller.jobs.job is not None and controller.jobs.job.kind == "game_review"
    controller.settings.show_analysis = False
    assert controller.browse.shown_values() is None


@pytest.mark.slow
def test_a_saved_game_opened_again_is_stepped_through_move_by_move(make_app, tmp_path):
    app = make_app()
    play = start_game(app, "connect4", (HUMAN, HUMAN))
    for key in "4453":
        press(app, ord(key), key, frames=3)
    target = tmp_path / "four.json"
    assert play.save_to(target)
    assert play.load_from(target)
    opened = app.scene
    assert opened is not play and type(opened).__name__ == "PlayScene"
    controller: PlayController = opened.controller
    game = controller.game
    assert game.format_moves(controller.history.moves) == "4453"
    press(app, pygame.K_LEFT)  # a human's turn: the arrows are the board's cursor
    assert not controller.browse.browsing
    press(app, pygame.K_HOME, frames=2)
    assert controller.browse.browsing and controller.browse.shown_state() == game.initial_state()
    assert browse_view.banner_text(controller).startswith("Reviewing the start")
    assert opened.buttons["live"].visible
    position = game.initial_state()
    named = ["after 1. Red 4", "after 1. Yellow 4", "after 2. Red 5"]  # as the move list numbers
    for where, move in zip(named, game.parse_moves("445"), strict=True):
        press(app, pygame.K_RIGHT)
        position = position.play(move)
        assert controller.browse.shown_state() == position
        assert opened.context().last_move == move and not opened.context().interactive
        assert browse_view.banner_text(controller).startswith(f"Reviewing {where} —")
    click(app, opened.board_rect().center)  # a click on the board does nothing
    assert len(controller.history.entries) == 4 and controller.browse.shown_state() == position
    press(app, pygame.K_RIGHT)  # past the last move: the live game
    assert not controller.browse.browsing
    pump(app, 2)
    assert not opened.buttons["live"].visible
    press(app, pygame.K_LEFT, mod=pygame.KMOD_CTRL)
    assert controller.browse.index == 3
    press(app, pygame.K_ESCAPE)  # Esc ends the review first, the screen stays
    assert not controller.browse.browsing and app.scene is opened
    press(app, pygame.K_LEFT, mod=pygame.KMOD_CTRL, frames=2)
    click_button(app, opened.buttons["live"])
    assert not controller.browse.browsing
    press(app, pygame.K_END)
    assert not controller.browse.browsing and app.scene is opened


def test_a_finished_game_is_stepped_with_plain_arrows(make_app):
    app = make_app()
    play = start_game(app, "tictactoe", (HUMAN, HUMAN))
    for key in "14253":
        press(app, ord(key), key, frames=3)
    assert play.controller.state.is_terminal()
    press(app, pygame.K_LEFT)
    assert play.controller.browse.index == 4
    press(app, pygame.K_LEFT)
    press(app, pygame.K_RIGHT)
    assert play.controller.browse.index == 4
    pump(app, 2)


def test_the_move_list_scrolls_and_a_click_shows_that_move(make_app):
    app = make_app((800, 600))
    play = start_game(app, "connect4", (HUMAN, HUMAN))
    controller = play.controller
    for _ in range(32):  # moves that do not end the game, by their keys
        state = controller.state
        move = next(m for m in state.legal_moves() if not state.play(m).is_terminal())
        press(app, ord(str(move + 1)), str(move + 1))
    pump(app, 30)
    assert len(controller.history.entries) == 32
    shown = browse_view.window(play.model, play.screen())
    assert shown is not None and shown.room < len(shown.lines) and shown.scroll == 0
    app.mouse_override = shown.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    pump(app)
    assert controller.browse.scroll == 1  # one line towards the first moves
    press(app, pygame.K_PAGEUP)
    shown = browse_view.window(play.model, play.screen())
    assert shown is not None and shown.scroll > 1
    press(app, pygame.K_PAGEDOWN)
    press(app, pygame.K_PAGEDOWN)
    shown = browse_view.window(play.model, play.screen())
    assert shown is not None and shown.scroll == 0
    k, (_, parts) = next((k, line) for k, line in enumerate(shown.shown) if len(line[1]) == 2)
    row = parts[1][2]
    click(app, shown.part_rect(k, 1).center)
    assert controller.browse.browsing
    assert controller.browse.index == controller.history.row_ends()[row] == row + 1
    assert controller.browse.shown_state() == controller.history.entries[row].state


def test_the_controller_review_needs_no_scene():
    controller = PlayController("connect4", Settings(), FakeWorker(), lambda: 0.0, moves=[3])
    assert not controller.browse.browsing
    controller.browse.browse_to(0)
    assert (
        controller.browse.browsing and controller.browse.shown_state() == controller.history.initial
    )
    controller.browse.browse_to(5)  # beyond the game: live
    assert not controller.browse.browsing
