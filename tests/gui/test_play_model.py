"""The play screen's model and its typed keys without a window: what the views read, what a
key means, and Pig's effects answered by its kit."""

from __future__ import annotations

import subprocess
import sys

import pygame
from test_play_controller import make

from plyground import games
from plyground.gui.kits import kit_for
from plyground.gui.kits.base import BoardView, PlayEffect
from plyground.gui.play.keyboard import PLAY_KEYS, Action, KeyPress, Situation, key_press
from plyground.gui.play.model import PlayModel
from plyground.gui.storage.settings import HUMAN

HUMAN_TURN = Situation(ai_vs_ai=False, paused=False, human_turn=True, browsing=False)


def test_the_model_imports_no_pygame() -> None:
    code = "import sys, plyground.gui.play.model; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_model_starts_from_the_position_its_last_move_and_die() -> None:
    controller, _, _ = make("pig", (HUMAN, HUMAN))
    for move in controller.game.parse_moves("r4r6"):
        controller.history.play(move)
    model = PlayModel(controller, kit_for("pig"))
    assert model.last_move == "roll" and model.last_outcome == 6
    assert model.shown_numbers == (0.0, 0.0, 10.0)
    assert model.overlay_shown(5.0) == 0.0 and model.message is None


def test_the_cursor_shows_until_the_pointer_moves() -> None:
    controller, _, _ = make()
    model = PlayModel(controller, kit_for("tictactoe"))
    model.cursor.move, model.cursor.shown, model.cursor.mouse_at = 4, True, (10, 10)
    assert model.cursor_shown((10, 10)) == 4
    assert model.cursor_shown((11, 10)) is None


def test_keys_become_typed_actions() -> None:
    assert key_press(pygame.K_u, 0, HUMAN_TURN) == KeyPress(Action.UNDO, pygame.K_u)
    assert key_press(pygame.K_z, pygame.KMOD_LCTRL, HUMAN_TURN) == KeyPress(Action.UNDO, pygame.K_z)
    assert key_press(pygame.K_LEFT, 0, HUMAN_TURN) == KeyPress(Action.CURSOR, pygame.K_LEFT)
    browsing = Situation(ai_vs_ai=False, paused=False, human_turn=True, browsing=True)
    assert key_press(pygame.K_LEFT, 0, browsing) == KeyPress(Action.BROWSE_STEP, pygame.K_LEFT)
    assert key_press(pygame.K_KP_ENTER, 0, HUMAN_TURN) == KeyPress(
        Action.PLAY_CURSOR, pygame.K_RETURN
    )
    assert key_press(pygame.K_SPACE, 0, HUMAN_TURN) == KeyPress(Action.PLAY_CURSOR, pygame.K_SPACE)
    assert key_press(pygame.K_4, 0, HUMAN_TURN) is None  # the kit's key: a move
    assert all(isinstance(binding.action, Action) for binding in PLAY_KEYS)


def test_a_kit_without_effects_of_its_own_gets_the_neutral_ones() -> None:
    kit = BoardView()
    state = games.get_game("tictactoe").initial_state()
    assert kit.move_effect(state, 4, ("X", "O")) == PlayEffect(sound="move")
    assert kit.outcome_effect(state, 1, ("X", "O")) == PlayEffect(sound="landed")
    assert kit.shown_numbers(state) == ()


def test_pig_says_what_a_hold_banks_and_what_a_one_costs() -> None:
    kit = kit_for("pig")
    game = games.get_game("pig", goal=30)
    names = ("Red", "Blue")
    state = game.initial_state()
    for move in game.parse_moves("r4r5"):
        state = state.play(move)
    held = kit.move_effect(state, "hold", names)
    assert held == PlayEffect("hold", ("Red holds and banks 9", "success"))
    assert kit.move_effect(state, "roll", names) == PlayEffect("move", ("", ""))
    chance = state.play("roll")
    bust = kit.outcome_effect(chance, 1, names)
    assert bust.sound == "bust" and bust.message == ("Rolled a 1! Red loses 9 points", "danger")
    assert bust.pause > 0 and bust.stops_motion
    assert kit.outcome_effect(chance, 3, names) == PlayEffect(sound="landed")
    assert kit.chance_effect(chance) == PlayEffect(sound="roll")
    eased = kit.ease_numbers((0.0, 0.0, 9.0), chance.play(1), 0.5)
    assert eased == (0.0, 0.0, 0.0)  # a lost turn total vanishes at once


def test_the_controller_is_made_of_parts_not_mixins() -> None:
    from plyground.gui.play.controller import PlayController
    from plyground.gui.play.match import Match

    controller, _, _ = make()
    assert PlayController.__bases__ == (Match,), "the match's state, no behaviour mixed in"
    parts = (controller.jobs, controller.browse, controller.review)
    assert all(part.match is controller for part in parts)
    assert controller.browse.jobs is controller.jobs, "a part is handed the parts it uses"
    assert controller.review.browse is controller.browse
    controller.try_human_move(4)
    controller.browse.browse_step(-1)
    assert controller.browse.index == 0 and controller.browse.browsing
