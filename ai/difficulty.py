"""Difficulty presets: named, visible player configs for each game, easiest first.

Each preset is plain data (see `PlayerConfig`), shown in the set-up screen and editable
there.  The ladder is a promise, checked by tests/test_ladder.py and reported by the
tournament command: every preset beats the one below it.
"""

from __future__ import annotations

from typing import Any

from ai.players import RANDOM, PlayerConfig
from ai.search import ALGORITHMS, MAX_DEPTH

DIFFICULTIES: dict[str, dict[str, PlayerConfig]] = {
    "tictactoe": {
        "Easy": PlayerConfig("alphabeta", depth=1, heuristic="lines", randomness=0.5),
        "Medium": PlayerConfig("alphabeta", depth=2, heuristic="lines", randomness=0.1),
        "Hard": PlayerConfig("alphabeta", depth=4, heuristic="lines"),
        "Expert": PlayerConfig("alphabeta", depth=None, heuristic="lines"),
    },
    "connect4": {
        "Easy": PlayerConfig("alphabeta", depth=2, heuristic="windows", randomness=0.3),
        "Medium": PlayerConfig("alphabeta", depth=4, heuristic="windows", randomness=0.05),
        "Hard": PlayerConfig("alphabeta", depth=6, heuristic="windows"),
        "Expert": PlayerConfig("alphabeta", depth=None, heuristic="windows", time_limit=1.5),
    },
    "pig": {
        "Easy": PlayerConfig("expectiminimax", depth=1, heuristic="score", randomness=0.2),
        "Medium": PlayerConfig("expectiminimax", depth=2, heuristic="score"),
        "Hard": PlayerConfig("expectiminimax", depth=3, heuristic="race"),
        "Expert": PlayerConfig("expectiminimax", depth=1, heuristic="optimal"),
    },
}
"""{game name: {preset name: config}}, easiest first."""

PRESET_BLURBS = {
    "Easy": "Looks one move ahead and often plays loosely.",
    "Medium": "Looks a few moves ahead; rarely blunders.",
    "Hard": "Searches deep with a strong evaluation.",
    "Expert": "The strongest play we can compute.",
}


def get_preset(game_name: str, name: str) -> PlayerConfig:
    """A game's preset by name, case-insensitive; ValueError names the presets."""
    presets = DIFFICULTIES.get(game_name)
    if presets is None:
        raise ValueError(f"no presets for game {game_name!r}; games: {', '.join(DIFFICULTIES)}")
    for preset, config in presets.items():
        if preset.lower() == name.strip().lower():
            return config
    raise ValueError(
        f"unknown preset {name!r} for {game_name}; choose one of: {', '.join(presets)}"
    )


def _number(key: str, text: str, kind: type) -> Any:
    """Parse one numeric field of a player spec, with a message naming the field."""
    try:
        return kind(text)
    except ValueError:
        raise ValueError(
            f"{key} must be a {'whole ' if kind is int else ''}number, not {text!r}"
        ) from None


def parse_player_spec(game_name: str, text: str, game: Any = None) -> PlayerConfig:
    """A preset name, `random`, or `algorithm:key=value:...` parsed into a config.

    Keys: depth, heuristic, time, randomness, seed.

    Examples: `hard`, `alphabeta:depth=4:heuristic=windows`, `expectiminimax:depth=2`,
    `alphabeta:depth=none:time=2`.
    """
    spec = text.strip()
    if not spec:
        raise ValueError("empty player; give a preset name or algorithm:key=value:...")
    head, *pairs = spec.split(":")
    head = head.strip().lower()
    if head == RANDOM and not pairs:
        return PlayerConfig(RANDOM, depth=None)
    if head not in (*ALGORITHMS, RANDOM):
        if pairs:
            raise ValueError(
                f"unknown algorithm {head!r}; choose one of: {', '.join((*ALGORITHMS, RANDOM))}"
            )
        try:
            return get_preset(game_name, head)
        except ValueError:
            presets = ", ".join(name.lower() for name in DIFFICULTIES.get(game_name, {}))
            raise ValueError(
                f"unknown player {text!r}; use a preset ({presets}), random, or "
                f"algorithm:key=value:... with algorithm one of {', '.join(ALGORITHMS)}"
            ) from None
    fields: dict[str, Any] = {"algorithm": head}
    if head == "expectiminimax":
        fields["depth"] = 2
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or not value:
            raise ValueError(f"expected key=value in player spec, not {pair!r}")
        if key == "depth":
            fields["depth"] = (
                None if value.lower() in ("none", "max", "unlimited") else _number(key, value, int)
            )
            if fields["depth"] is not None and not 1 <= fields["depth"] <= MAX_DEPTH:
                raise ValueError(f"depth must be 1 to {MAX_DEPTH} or none, not {value}")
        elif key == "heuristic":
            fields["heuristic"] = value
        elif key in ("time", "time_limit"):
            fields["time_limit"] = _number(key, value, float)
        elif key == "randomness":
            fields["randomness"] = _number(key, value, float)
        elif key == "seed":
            fields["seed"] = _number(key, value, int)
        else:
            raise ValueError(
                f"unknown player setting {key!r}; use depth, heuristic, time, randomness, seed"
            )
    config = PlayerConfig(**fields)
    config.validate(game)
    return config
