"""Sound in the window (dummy audio driver): each action makes its effect, M and the Mute
button silence them, and the settings remember mute and volume."""

from __future__ import annotations

import json
from typing import Any

import pygame
import pygame_gui
import pytest
from driving import click_button, press, pump, start_game

from plyground.gui import sound
from plyground.gui.kits.pig.effects import DICE_SOUNDS
from plyground.gui.play.controller import PlayController
from plyground.gui.storage import settings


@pytest.fixture(autouse=True)
def fresh_sounds(monkeypatch: pytest.MonkeyPatch) -> sound.Sounds:
    """Each test gets its own shared `Sounds` (mute and volume are app-wide)."""
    monkeypatch.setattr(sound, "_shared", None)
    return sound.sounds()


def effects(app: Any, action: Any, frames: int = 0) -> list[str]:
    """The effects played while `action()` runs and `frames` frames pass."""
    before = len(sound.sounds().played)
    action()
    pump(app, frames)
    return list(sound.sounds().played)[before:]


def test_the_kits_pick_their_event_maps() -> None:
    from plyground.gui import kits

    assert kits.kit_for("connect4").sounds is sound.DISC_SOUNDS
    assert kits.kit_for("tictactoe").sounds is sound.MARK_SOUNDS
    assert kits.kit_for("pig").sounds is DICE_SOUNDS
    assert kits.BoardView.sounds is sound.COMMON_SOUNDS


@pytest.mark.slow
def test_a_disc_drops_then_lands_and_a_win_sounds(make_app: Any) -> None:
    app = make_app()
    play = start_game(app, "connect4")
    assert effects(app, lambda: press(app, pygame.K_4, "4", frames=1)) == ["disc_drop"]
    assert effects(app, lambda: None, frames=60) == ["disc_land"]
    for key in "45566":
        press(app, getattr(pygame, f"K_{key}"), key, frames=60)
    played = effects(app, lambda: press(app, pygame.K_7, "7", frames=60))
    assert play.controller.history.state.is_terminal()
    assert played == ["disc_drop", "disc_land", "win"]


@pytest.mark.slow
def test_marks_have_a_sound_per_player_and_a_draw_sounds(make_app: Any) -> None:
    app = make_app()
    play = start_game(app, "tictactoe")
    played = []
    for key in "123546879":
        played += effects(app, lambda k=key: press(app, getattr(pygame, f"K_{k}"), k, frames=30))
    final = play.controller.history.state
    assert final.is_terminal() and final.winner() is None
    assert played == ["mark_x", "mark_o"] * 4 + ["mark_x", "draw"]


@pytest.mark.slow
def test_the_die_tumbles_lands_or_wipes_out_and_holding_banks(make_app: Any) -> None:
    app = make_app()
    play = start_game(app, "pig")
    seen: set[str] = set()
    for _ in range(40):
        if play.controller.history.state.turn_total > 0 and "bank" not in seen:
            assert effects(app, lambda: press(app, pygame.K_h, "h", frames=2)) == ["bank"]
            seen.add("bank")
            continue
        played = effects(app, lambda: press(app, pygame.K_r, "r", frames=60))
        face = play.model.last_outcome
        assert played == ["die_tumble", "wipeout" if face == 1 else "die_land"]
        seen.update(played)
        if seen == {"die_tumble", "die_land", "wipeout", "bank"}:
            break
    assert seen == {"die_tumble", "die_land", "wipeout", "bank"}


def test_a_game_over_sounds_from_the_humans_side() -> None:
    stored = settings.Settings()
    controller = PlayController("tictactoe", stored, worker=None, clock=lambda: 0.0)  # type: ignore[arg-type]
    sides = stored.sides["tictactoe"]
    sides[0].kind, sides[1].kind = settings.HUMAN, settings.AI
    assert [controller.result_sound(w) for w in (0, 1, None)] == ["win", "loss", "draw"]
    sides[0].kind, sides[1].kind = settings.AI, settings.HUMAN
    assert [controller.result_sound(w) for w in (0, 1, None)] == ["loss", "win", "draw"]
    sides[1].kind = settings.AI
    assert [controller.result_sound(w) for w in (0, 1, None)] == ["win", "win", "draw"]
    sides[0].kind = sides[1].kind = settings.HUMAN
    assert [controller.result_sound(w) for w in (0, 1, None)] == ["win", "win", "draw"]


def test_a_button_clicks(make_app: Any) -> None:
    app = make_app()
    play = start_game(app, "connect4")
    press(app, pygame.K_4, "4", frames=60)
    assert effects(app, lambda: click_button(app, play.buttons["undo"])) == ["click"]
    assert play.controller.history.moves == []


@pytest.mark.slow
def test_m_and_the_mute_button_silence_the_effects_and_are_remembered(
    make_app: Any, config_dir: Any
) -> None:
    app = make_app()
    play = start_game(app, "connect4")
    press(app, pygame.K_m, "m")
    assert sound.sounds().muted and app.settings.sound_muted
    stored = json.loads((config_dir / "settings.json").read_text())
    assert stored["sound_muted"] is True
    assert play.buttons["mute"].text == "Unmute"
    assert effects(app, lambda: press(app, pygame.K_4, "4", frames=60)) == []
    click_button(app, play.buttons["mute"])
    assert not sound.sounds().muted and not app.settings.sound_muted
    assert play.buttons["mute"].text == "Mute"
    assert effects(app, lambda: press(app, pygame.K_5, "5", frames=60)) == [
        "disc_drop",
        "disc_land",
    ]
    assert json.loads((config_dir / "settings.json").read_text())["sound_muted"] is False


def test_the_set_up_volume_slider_sets_and_saves_the_volume(make_app: Any, config_dir: Any) -> None:
    app = make_app()
    pump(app, 2)
    press(app, pygame.K_2, "2")
    setup = app.scene
    slider = next(w for w, (action, _) in setup.form.ids.items() if action == "volume")
    assert slider.get_current_value() == 70
    event = pygame.event.Event(pygame_gui.UI_HORIZONTAL_SLIDER_MOVED, ui_element=slider, value=25)
    assert setup.handle(event)
    assert sound.sounds().volume == 0.25 and app.settings.sound_volume == 0.25
    assert json.loads((config_dir / "settings.json").read_text())["sound_volume"] == 0.25


def test_the_app_starts_with_the_remembered_mute_and_volume(make_app: Any, config_dir: Any) -> None:
    stored = settings.Settings()
    stored.sound_muted, stored.sound_volume = True, 0.4
    assert settings.save(stored)
    make_app()
    assert sound.sounds().muted and sound.sounds().volume == 0.4


def test_settings_files_keep_mute_and_volume_and_old_files_still_read() -> None:
    stored = settings.Settings(sound_muted=True, sound_volume=0.35)
    again = settings.Settings.from_json(json.loads(json.dumps(stored.to_json())))
    assert (again.sound_muted, again.sound_volume) == (True, 0.35)
    old = settings.Settings().to_json()
    del old["sound_muted"], old["sound_volume"]
    assert (
        settings.Settings.from_json(old).sound_muted,
        settings.Settings.from_json(old).sound_volume,
    ) == (False, 0.7)
    odd = dict(old, sound_muted="yes", sound_volume=7)
    assert (
        settings.Settings.from_json(odd).sound_muted,
        settings.Settings.from_json(odd).sound_volume,
    ) == (False, 0.7)


@pytest.mark.slow
def test_a_window_without_a_sound_device_plays_on_silently_and_quietly(tmp_path: Any) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import pygame\n"
        "from gui.app import App\n"
        "from gui import sound\n"
        "app = App((800, 600), headless=True)\n"
        "app.switch('menu')\n"
        "app.scene.open_game('connect4')\n"
        "app.scene.start()\n"
        "pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_4, unicode='4',"
        " mod=0, scancode=0))\n"
        "for _ in range(40):\n"
        "    app.step(1 / 60)\n"
        "print('RESULT', app.scene.controller.history.moves[:1], list(sound.sounds().played))\n"
        "app.quit(save=False)\n"
    )
    env = dict(
        os.environ,
        SDL_AUDIODRIVER="no-such-audio-driver",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        PLYGROUND_CONFIG_DIR=str(tmp_path),
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stderr == ""
    assert done.stdout == "RESULT [3] []\n"
