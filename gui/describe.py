"""A game and its sides in plain words and numbers, read from the game's description.

No pygame: the set-up and play scenes show these; nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from plyground import games
from plyground.games.base import Game
from plyground.gui.storage import settings
from plyground.gui.storage.settings import CUSTOM, SideSetup

ALGORITHM_NAMES = {
    "minimax": "Minimax",
    "alphabeta": "Alpha-beta",
    "expectiminimax": "Expectiminimax",
    "mcts": "Monte Carlo tree search",
}
TIME_LIMITS: tuple[tuple[str, float | None], ...] = (
    ("No limit", None),
    ("0.5 s", 0.5),
    ("1 s", 1.0),
    ("2 s", 2.0),
    ("5 s", 5.0),
    ("10 s", 10.0),
)


class _SideNames(Mapping[str, tuple[str, str]]):
    """Each registered game's side names, read from its description (a live view)."""

    def __getitem__(self, game_name: str) -> tuple[str, str]:
        if game_name not in games.GAMES:
            raise KeyError(game_name)
        names = settings.game_class(game_name).side_names
        return (str(names[0]), str(names[1]))

    def __iter__(self) -> Iterator[str]:
        return iter(games.GAMES)

    def __len__(self) -> int:
        return len(games.GAMES)


SIDE_NAMES: Mapping[str, tuple[str, str]] = _SideNames()
"""{game name: (first side's name, second side's name)} for every registered game."""


def make_game(game_name: str, app_settings: settings.Settings) -> Any:
    """The game object with the options chosen in the settings."""
    return app_settings.make_game(game_name)


def game_title(game_name: str) -> str:
    """Display name of a game (its name when it is not registered)."""
    factory = games.GAMES.get(game_name)
    return str(getattr(factory, "title", game_name))


def option_step(option: Any) -> int:
    """A round step for an option's slider: 1 for short ranges, 10 for 10-1000, ..."""
    span = option.maximum - option.minimum
    step = 1
    while span // (step * 10) >= 50:
        step *= 10
    return step


def snap_option(option: Any, value: float) -> int:
    """A slider position as an allowed value on the option's step (ends always allowed)."""
    step = option_step(option)
    snapped = round(value / step) * step
    return int(option.check(min(option.maximum, max(option.minimum, snapped))))


def preset_description(game_name: str, preset: str) -> str:
    """The preset's own description from the game (empty if none)."""
    for item in getattr(games.GAMES.get(game_name), "presets", ()):
        if item.name == preset:
            return str(item.description)
    return ""


def describe_side(side: SideSetup, game: Game[Any]) -> list[str]:
    """What an AI side will do, in plain words (empty for a human)."""
    if not side.is_ai:
        return []
    from plyground.ai.engine.search import DepthLimited
    from plyground.ai.players.players import SearchPlayer, blind_heuristic

    config = side.config_for(game.name)
    if not isinstance(config, SearchPlayer):
        return [config.describe()]
    search = config.search
    heuristic_name = search.heuristic or game.default_heuristic
    heuristic = game.heuristics.get(heuristic_name)
    blurb = preset_description(game.name, side.preset) if side.preset != CUSTOM else None
    if isinstance(search, DepthLimited):
        algorithm = ALGORITHM_NAMES.get(search.algorithm, search.algorithm)
        depth = "no depth limit" if search.depth is None else f"depth {search.depth}"
        lines = [f"{algorithm}, {depth}, heuristic “{heuristic_name}”"]
        if heuristic is not None and heuristic.description:
            lines.append(heuristic.description)
    else:  # "Monte Carlo tree search, 4,000 iterations, c 1.4", and what its playouts are
        blind = blind_heuristic(game, search)
        lines = [
            search.describe(config.time_limit, long=True, blind=blind),
            playout_text(heuristic_name, blind),
        ]
    if blurb:
        lines.insert(0, blurb)
    extras = []
    if config.time_limit and isinstance(search, DepthLimited):
        extras.append(time_text(config.time_limit, search.depth is None, game, bool(blurb)))
    if config.randomness:
        extras.append(f"some randomness (±{config.randomness:g})")
    if extras:
        lines.append("; ".join(extras).capitalize())
    return lines


def playout_text(heuristic: str, blind: bool) -> str:
    """What Monte Carlo tree search's playouts are and what its values therefore are:
    `heuristic` the name shown, `blind` whether it cannot value a position (no depth here:
    a heuristic's "within its depth" is a depth-limited search's)."""
    if blind:
        return (
            "Each iteration plays a game out to its end at random, from the rules alone: "
            "every value it gives is an estimate from those playouts."
        )
    return (
        f"Each iteration plays a game out at random, cut short where “{heuristic}” can "
        "value the position: every value it gives is an estimate from those playouts."
    )


def time_text(seconds: float, solving: bool, game: Game[Any], described: bool) -> str:
    """A side's time per move in words, true of what bounds it: a search on a clock is
    "up to N s a move", but a solve on the game's own exact engine is bounded by its nodes
    (the same move on every machine), so there the seconds are what the heuristic search
    gets where the solve does not finish; a preset the game describes says that itself."""
    offered = games.state_capabilities(game.initial_state()).exact_engine is not None
    if not (solving and offered):
        return f"up to {seconds:g} s a move"
    if described:
        return f"{seconds:g} s a move for the heuristic search, where the solve does not finish"
    return (
        f"{seconds:g} s a move for the heuristic search where a solve does not finish; the "
        "game's solver is bounded by nodes instead"
    )
