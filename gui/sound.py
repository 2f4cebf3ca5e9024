"""Sound effects: load the synthesised WAVs once, play them by name, mute and volume.

The effects live in assets/sounds/ and are written by assets/rebuild/sounds.py (made in
code, nothing recorded, nothing to credit).  Without a sound device, with
``SDL_AUDIODRIVER=dummy`` or with a missing file the game simply stays silent: no
exception and no output.  Each kit says which effect an event of its game makes with
an event map (the kit's ``sounds`` attribute; the common ones below, a kit may bring its
own): the kit names the play event of each move and chance outcome ("move", "landed",
"win"...) and the play scene calls ``sounds().event(kit.sounds, name, player)``; the app
clicks for every button.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections import deque
from collections.abc import Mapping
from pathlib import Path

import pygame

SOUND_DIR = Path(__file__).resolve().parent.parent / "assets" / "sounds"
EFFECTS: tuple[str, ...] = (
    "click",
    "disc_drop",
    "disc_land",
    "mark_x",
    "mark_o",
    "die_tumble",
    "die_land",
    "wipeout",
    "bank",
    "win",
    "loss",
    "draw",
)
"""Every effect, by name (assets/sounds/<name>.wav)."""
DEFAULT_VOLUME = 0.7
MIXER_FORMAT = (44_100, -16, 2, 512)
"""Frequency, sample size, channels, buffer: a small buffer keeps the clack on time."""

# --- which effect an event makes: one map per kind of game (the kit picks its map) -----------

COMMON_SOUNDS: dict[str, str] = {
    "button": "click",
    "win": "win",  # a human player won (or, watching AI vs AI, the game ended decisively)
    "loss": "loss",  # a human player lost to the AI
    "draw": "draw",
}
"""Events of every game: a button press and the end of a game, from the human's side."""
DISC_SOUNDS: dict[str, str] = {
    **COMMON_SOUNDS,
    "move": "disc_drop",  # when the disc starts falling
    "landed": "disc_land",  # when the drop animation reaches its square
}
"""For games that drop discs down columns (connect-four's kit)."""
MARK_SOUNDS: dict[str, str] = {
    **COMMON_SOUNDS,
    "move": "mark_x",  # first player's mark
    "move:1": "mark_o",  # second player's mark
}
"""For games that draw marks in cells: "move:<player>" first, then "move"."""

log = logging.getLogger(__name__)


class Sounds:
    """The effects, loaded on first use; `play(name)` is safe to call anywhere, any time.

    `muted` and `volume` (0-1) are meant to be stored in the settings; `played` keeps the
    last effects that were sent to the mixer (tests and the frame benchmark read it).
    """

    def __init__(
        self, directory: Path = SOUND_DIR, volume: float = DEFAULT_VOLUME, muted: bool = False
    ) -> None:
        self.directory = directory
        self._volume = _clamp(volume)
        self.muted = muted
        self.played: deque[str] = deque(maxlen=64)
        self.problem: str | None = None
        """Why the game is silent (no device, missing files), or None: for the About box."""
        self._sounds: dict[str, pygame.mixer.Sound] | None = None

    # --- settings -------------------------------------------------------------------------
    @property
    def volume(self) -> float:
        """The master volume, 0 (silent) to 1."""
        return self._volume

    @volume.setter
    def volume(self, value: float) -> None:
        self._volume = _clamp(value)
        for sound in (self._sounds or {}).values():
            sound.set_volume(self._volume)

    def toggle_mute(self) -> bool:
        """Mute or unmute; returns the new `muted` (and stops what is playing on muting)."""
        self.muted = not self.muted
        if self.muted and self._sounds and pygame.mixer.get_init():
            pygame.mixer.stop()
        return self.muted

    # --- playing --------------------------------------------------------------------------
    @property
    def available(self) -> bool:
        """Whether effects can be heard at all (loads them on first call)."""
        return bool(self._load())

    def play(self, name: str) -> bool:
        """Play effect `name`; False (and nothing happens) when muted, silent or volume 0."""
        if name not in EFFECTS:
            raise KeyError(f"no sound effect {name!r}; effects: {', '.join(EFFECTS)}")
        if self.muted or self._volume <= 0:
            return False
        sounds = self._load()
        sound = sounds.get(name)
        if sound is None:
            return False
        try:
            if sound.get_num_channels():
                # The same effect again (AI vs AI at full speed): restart it rather than play
                # a Sound that is still playing, which can crash SDL's mixer thread
                # (pygame issue 3468).
                sound.stop()
            sound.play()
        except pygame.error:  # the mixer went away: try again on the next effect
            self._sounds = None
            return False
        self.played.append(name)
        return True

    def event(self, sounds: Mapping[str, str], event: str, player: int | None = None) -> bool:
        """Play the effect an event makes in a kit's event map (see DISC_SOUNDS); an event
        the map does not name makes no sound.  `player` picks "event:<player>" first."""
        name = None
        if player is not None:
            name = sounds.get(f"{event}:{player}")
        if name is None:
            name = sounds.get(event)
        return self.play(name) if name is not None else False

    # --- loading --------------------------------------------------------------------------
    def _load(self) -> dict[str, pygame.mixer.Sound]:
        if self._sounds and not pygame.mixer.get_init():  # pygame.quit() since: load again
            self._sounds = None
        if self._sounds is not None:
            return self._sounds
        self._sounds = {}
        if not _mixer_ready():
            self.problem = "no sound device"
            log.info("sound: no audio device, playing silently")
            return self._sounds
        missing = []
        for name in EFFECTS:
            path = self.directory / f"{name}.wav"
            try:
                sound = pygame.mixer.Sound(file=str(path))
            except (pygame.error, OSError, FileNotFoundError):
                missing.append(name)
                continue
            sound.set_volume(self._volume)
            self._sounds[name] = sound
        if missing:
            self.problem = f"missing or unreadable effects: {', '.join(missing)}"
            log.info("sound: %s", self.problem)
        return self._sounds


def _clamp(value: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return DEFAULT_VOLUME
    if number != number:  # NaN
        return DEFAULT_VOLUME
    return min(1.0, max(0.0, number))


def _mixer_ready() -> bool:
    """Start the mixer if nobody has; False when there is no audio device."""
    if pygame.mixer.get_init():
        return True
    # SDL may write to stderr when it finds no device: keep the terminal clean.
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            pygame.mixer.pre_init(*MIXER_FORMAT)
            pygame.mixer.init()
        except (pygame.error, NotImplementedError):
            return False
    return bool(pygame.mixer.get_init())


_shared: Sounds | None = None


def sounds() -> Sounds:
    """The app's one `Sounds` (the play scene, the menu and the settings share it)."""
    global _shared
    if _shared is None:
        _shared = Sounds()
    return _shared
