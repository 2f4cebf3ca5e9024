"""Games written outside Plyground: a file or module, in one of three styles, as a game.

``games.get_game("path/to/nim.py")`` (or ``"nim.py:Nim"``, ``"easyAI.games:Nim"``) loads the
class, reads it by the names it defines (Plyground's protocol, aima-python's ``Game``, easyAI's
``TwoPlayerGame``: `styles`), and registers a `FileGame` that gives it the protocol of
`games.base`, with every call into the file guarded (`guard`).  See docs/YOUR-GAME.md.
"""

from __future__ import annotations

from plyground.games.from_file.adapter import FileGame, FileState, literal_option
from plyground.games.from_file.guard import MAX_MOVES, GameCodeError, GameFileError
from plyground.games.from_file.loading import derived_presets, is_spec, load, parse_spec, probe
from plyground.games.from_file.styles import STYLE_NAMES, freeze, move_text, style_of

__all__ = [
    "MAX_MOVES",
    "STYLE_NAMES",
    "FileGame",
    "FileState",
    "GameCodeError",
    "GameFileError",
    "derived_presets",
    "freeze",
    "is_spec",
    "literal_option",
    "load",
    "move_text",
    "parse_spec",
    "probe",
    "style_of",
]
