"""Sound effects: every effect loads and plays on the dummy driver, mute and volume work,
and without a device the game is silent and quiet."""

from __future__ import annotations

import os
import subprocess
import sys
import wave
from pathlib import Path

import pytest

from plyground.gui import sound
from plyground.gui.kits.pig.effects import DICE_SOUNDS

ROOT = Path(__file__).resolve().parents[2]


def test_every_effect_is_a_small_clean_wav() -> None:
    for name in sound.EFFECTS:
        path = sound.SOUND_DIR / f"{name}.wav"
        with wave.open(str(path)) as wav:
            assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 22050)
            seconds = wav.getnframes() / wav.getframerate()
            frames = wav.readframes(wav.getnframes())
        assert 0.03 <= seconds <= 1.5, name
        samples = memoryview(frames).cast("h")
        peak = max(abs(v) for v in samples)
        assert 0.25 * 32767 <= peak <= 0.8 * 32767, name  # audible, never clipping
        assert abs(samples[0]) < 400 and abs(samples[-1]) < 400, name  # no click at the ends
    assert sum((sound.SOUND_DIR / f"{n}.wav").stat().st_size for n in sound.EFFECTS) < 400_000


def test_the_event_maps_reach_every_effect() -> None:
    maps = (sound.DISC_SOUNDS, sound.MARK_SOUNDS, DICE_SOUNDS, sound.COMMON_SOUNDS)
    used = {effect for m in maps for effect in m.values()}
    assert used == set(sound.EFFECTS)


def test_every_action_plays_its_effect_on_the_dummy_driver() -> None:
    sounds = sound.Sounds()
    assert sounds.available, sounds.problem
    assert sounds.problem is None
    actions = [
        (sound.DISC_SOUNDS, "move", 0, "disc_drop"),
        (sound.DISC_SOUNDS, "landed", 1, "disc_land"),
        (sound.MARK_SOUNDS, "move", 0, "mark_x"),
        (sound.MARK_SOUNDS, "move", 1, "mark_o"),
        (DICE_SOUNDS, "roll", 0, "die_tumble"),
        (DICE_SOUNDS, "landed", 0, "die_land"),
        (DICE_SOUNDS, "bust", 1, "wipeout"),
        (DICE_SOUNDS, "hold", 1, "bank"),
        (DICE_SOUNDS, "win", None, "win"),
        (sound.DISC_SOUNDS, "loss", None, "loss"),
        (sound.MARK_SOUNDS, "draw", None, "draw"),
        (sound.COMMON_SOUNDS, "button", None, "click"),
    ]
    for event_map, event, player, effect in actions:
        assert sounds.event(event_map, event, player), event
        assert sounds.played[-1] == effect
    assert not sounds.event(DICE_SOUNDS, "no such event")
    assert len(sounds.played) == len(actions)


def test_mute_silences_every_effect_and_unmute_brings_them_back() -> None:
    sounds = sound.Sounds(muted=True)
    for name in sound.EFFECTS:
        assert not sounds.play(name)
    assert not sounds.event(sound.DISC_SOUNDS, "move")
    assert list(sounds.played) == []
    assert sounds.toggle_mute() is False
    assert sounds.play("click")
    assert sounds.toggle_mute() is True
    assert not sounds.play("click")
    assert list(sounds.played) == ["click"]


def test_volume_is_kept_between_0_and_1_and_0_is_silent() -> None:
    sounds = sound.Sounds(volume=3.0)
    assert sounds.volume == 1.0
    sounds.volume = -2
    assert sounds.volume == 0.0
    assert not sounds.play("win")
    sounds.volume = 0.25
    assert sounds.play("win")
    assert sounds.volume == 0.25
    sounds.volume = float("nan")
    assert sounds.volume == sound.DEFAULT_VOLUME


def test_an_unknown_effect_is_a_programming_error_naming_the_effects() -> None:
    with pytest.raises(KeyError, match="disc_drop"):
        sound.Sounds().play("boing")


def test_missing_files_make_those_effects_silent(tmp_path: Path) -> None:
    (tmp_path / "click.wav").write_bytes((sound.SOUND_DIR / "click.wav").read_bytes())
    (tmp_path / "win.wav").write_bytes(b"not a wav file")
    sounds = sound.Sounds(directory=tmp_path)
    assert sounds.play("click")
    assert not sounds.play("win")
    assert not sounds.play("draw")
    assert sounds.problem is not None and "win" in sounds.problem


def test_the_shared_sounds_is_one_object() -> None:
    assert sound.sounds() is sound.sounds()


@pytest.mark.parametrize("driver", ["dummy", "no-such-audio-driver"])
def test_without_a_sound_device_the_game_is_silent_and_says_nothing(driver: str) -> None:
    script = (
        "from gui import sound\n"
        "s = sound.Sounds()\n"
        "results = [s.play(n) for n in sound.EFFECTS]\n"
        "print('RESULT', all(results), not any(results), s.problem)\n"
    )
    env = dict(os.environ, SDL_AUDIODRIVER=driver, PYGAME_HIDE_SUPPORT_PROMPT="1")
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stderr == ""
    if driver == "dummy":
        assert done.stdout == "RESULT True False None\n"
    else:
        assert done.stdout == "RESULT False True no sound device\n"


def test_effects_come_back_after_the_mixer_was_shut_down() -> None:
    import pygame

    sounds = sound.Sounds()
    assert sounds.play("click")
    pygame.mixer.quit()  # as pygame.quit() does when a window closes
    assert sounds.play("disc_land")
    assert list(sounds.played) == ["click", "disc_land"]
