"""Who plays each side, read from the game's description and the settings (no pygame)."""

from __future__ import annotations

import dataclasses
from typing import Any

from plyground.gui.storage import settings
from plyground.gui.storage.settings import AI, CUSTOM, HUMAN


def game_class(game_name: str) -> Any:
    """The registered factory of `game_name` (its class attributes describe the game)."""
    from plyground import games

    return games.GAMES[game_name]


def side_names(game_name: str, palette: str = "standard") -> tuple[str, str]:
    """X/O, Red/Yellow, Player 1/2: from the game's description; a game whose kit names
    its sides by colour takes the palette's colour names (Blue/Orange)."""
    names = getattr(game_class(game_name), "side_names", ("Player 1", "Player 2"))
    if palette != "standard":
        from plyground.gui import kits, theme

        renamed = theme.PALETTES[palette].colour_names if palette in theme.PALETTES else None
        if renamed and getattr(kits.KITS.get(game_name), "side_names_are_colours", False):
            names = renamed
    return str(names[0]), str(names[1])


def game_title(game_name: str) -> str:
    """The game's display name, from its description."""
    return str(getattr(game_class(game_name), "title", game_name))


def make_game(game_name: str, stored: settings.Settings) -> Any:
    """The game object with the options chosen in the settings."""
    return stored.make_game(game_name)


def store_options(game_name: str, stored: settings.Settings, options: dict[str, Any]) -> None:
    """Write a loaded game's options back into the settings (each checked by the game)."""
    for name, value in options.items():
        stored.set_option(game_name, name, value)


def side_to_player(side: settings.SideSetup, game_name: str) -> dict[str, Any]:
    """A side as a save file's player: {"kind": "human"} or an AI with its preset and config."""
    if not side.is_ai:
        return {"kind": "human"}
    config = side.config_for(game_name)
    return {
        "kind": "ai",
        "preset": None if side.preset in (CUSTOM, settings.FROM_FILE) else side.preset,
        "config": config.to_dict(),
    }


def player_to_side(player: dict[str, Any], fallback: settings.SideSetup) -> settings.SideSetup:
    """A save file's player as a side of the set-up (a config without a preset is Custom)."""
    side = dataclasses.replace(fallback)
    if player.get("kind") != "ai":
        side.kind = HUMAN
        return side
    side.kind = AI
    config = player.get("config") or {}
    side.preset = player["preset"] if player.get("preset") else CUSTOM
    if config.get("algorithm") == "agent":  # a player from a file (ai.student_code.agents)
        side.preset, side.agent = settings.FROM_FILE, str(config.get("agent", ""))
        return side
    side.read_custom({"heuristic": None, "time_limit": None, "randomness": 0.0, **config})
    return side


def side_label(side: settings.SideSetup, game_name: str) -> str:
    """A player for the series table: 'Human', 'AI · Hard', 'AI · Custom (…)'."""
    if not side.is_ai:
        return "Human"
    if side.preset == settings.FROM_FILE:
        return side.label()
    if side.preset != CUSTOM:
        return f"AI · {side.preset}"
    try:
        return f"AI · Custom ({side.config_for(game_name).describe()})"
    except Exception:  # an odd custom side: still a player of its own
        return "AI · Custom"


def apply_saved_players(stored: Any, saved: Any) -> None:
    """A loaded save's players and options become the settings (then saved)."""
    name = saved.game_name
    stored.last_game = name
    defaults = settings.default_sides(name)
    current = stored.sides.setdefault(name, defaults)
    stored.sides[name] = [
        player_to_side(player, current[i] if i < len(current) else defaults[i])
        for i, player in enumerate(saved.players)
    ]
    option_values = getattr(saved.game, "option_values", None)
    if callable(option_values):
        store_options(name, stored, option_values())
    settings.save(stored)


def result_sound(winner: int | None, humans: list[int]) -> str:
    """ "win", "loss" or "draw" from the one human's side; with no single human any win is "win"."""
    if winner is None:
        return "draw"
    if len(humans) == 1 and winner != humans[0]:
        return "loss"
    return "win"
