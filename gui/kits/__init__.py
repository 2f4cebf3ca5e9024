"""One kit per game: how the window draws it, animates it, reads moves and draws its icon.

A kit is a `BoardView` subclass (see `gui.kits.base`).  Adding a game to the window is one
line here, ``register_kit(game_name, KitClass)``, next to the game's own ``games.register``;
nothing else in `gui/` names a game.
"""

from __future__ import annotations

from collections.abc import Callable

from plyground.gui.kits.base import BoardView, Kit, ViewContext

KITS: dict[str, Callable[[], Kit]] = {}
"""Every kit factory by game registry name (a kit class is a factory)."""


class MissingKitError(LookupError):
    """A game with rules in `games` but no kit to show it in the window."""


def register_kit(game_name: str, kit_factory: Callable[[], Kit]) -> None:
    """Make `kit_factory()` the kit for `game_name` (a later call replaces an earlier one)."""
    KITS[game_name] = kit_factory


def unregister_kit(game_name: str) -> None:
    """Forget a game's kit (for tests that add a game for a while)."""
    KITS.pop(game_name, None)


def kit_for(game_name: str) -> Kit:
    """A new kit for `game_name`; MissingKitError naming the games that have one."""
    factory = KITS.get(game_name)
    if factory is None and _from_file(game_name):
        from plyground.gui.kits.file_game import FileGameView

        return FileGameView()
    if factory is None:
        known = ", ".join(KITS) or "none"
        raise MissingKitError(
            f"no kit for the game {game_name!r}: register one with "
            f"gui.kits.register_kit({game_name!r}, KitClass) (kits exist for: {known})"
        )
    return factory()


def _from_file(game_name: str) -> bool:
    """Whether `game_name` is a game loaded from a file (drawn by the file games' kit)."""
    from plyground import games

    return games.is_from_file(game_name)


def has_kit(game_name: str) -> bool:
    """Whether the window can draw `game_name`: a registered kit, or a game from a file."""
    return game_name in KITS or _from_file(game_name)


def _register_builtin() -> None:
    from plyground.gui.kits.connect4 import ConnectFourView
    from plyground.gui.kits.pig.board import PigView
    from plyground.gui.kits.tictactoe import TicTacToeView

    register_kit("tictactoe", TicTacToeView)
    register_kit("connect4", ConnectFourView)
    register_kit("pig", PigView)


_register_builtin()

__all__ = [
    "KITS",
    "BoardView",
    "Kit",
    "MissingKitError",
    "ViewContext",
    "has_kit",
    "kit_for",
    "register_kit",
    "unregister_kit",
]
