"""Difficulty presets: named, visible player configs for each game, easiest first.

Each game describes its own presets (`games.base.Preset`, class attribute `presets`); here
they become `SearchPlayer`s, shown in the set-up screen and editable there.  The ladder is
a promise, checked by tests/test_ladder.py and reported by the tournament command: every
preset beats the one below it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from plyground import games
from plyground.ai.engine.search import (
    MAX_DEPTH,
    MCTS,
    PLAYING_ALGORITHMS,
    DepthLimited,
    MonteCarlo,
)
from plyground.ai.players.players import (
    RANDOM,
    AgentPlayer,
    PlayerConfig,
    RandomMoves,
    SearchPlayer,
)
from plyground.ai.student_code.agents import agent_spec, split_spec
from plyground.ai.student_code.heuristics import check_heuristic_file, is_heuristic_file
from plyground.games.base import Game, Preset


def preset_config(preset: Preset) -> SearchPlayer:
    """The player of a game's preset: its search's settings whole, with its clock and noise."""
    return SearchPlayer(preset.search, preset.time_limit, preset.randomness)


def presets_of(game: Game[Any]) -> dict[str, SearchPlayer]:
    """{preset name: config} of a game as it is made, easiest first: a game from a file made
    with other options has a ladder of its own (`games.from_file`'s `Ladder`)."""
    presets: tuple[Preset, ...] = getattr(game, "presets", ())
    return {preset.name: preset_config(preset) for preset in presets}


class Difficulties(Mapping[str, dict[str, SearchPlayer]]):
    """{game name: {preset name: config}}, easiest first, read live from `games.GAMES`.

    A game registered later (`games.register`) has its presets here with no other change.
    These are the presets of each game's default options; `presets_of(game)` gives those of
    a game as it is made.
    """

    def __getitem__(self, game_name: str) -> dict[str, SearchPlayer]:
        factory = games.GAMES[game_name]
        presets: tuple[Preset, ...] = getattr(factory, "presets", ())
        return {preset.name: preset_config(preset) for preset in presets}

    def __iter__(self) -> Iterator[str]:
        return iter(list(games.GAMES))

    def __len__(self) -> int:
        return len(games.GAMES)

    def __repr__(self) -> str:
        return f"Difficulties({dict(self)!r})"


DIFFICULTIES: Mapping[str, dict[str, SearchPlayer]] = Difficulties()
"""{game name: {preset name: config}}, easiest first.  Each game's presets and their measured
ladder are in its module in games/; the ladder results are in docs/RESULTS.md."""


def game_presets(game_name: str) -> tuple[Preset, ...]:
    """A game's presets as the game describes them (name, settings, description)."""
    factory = games.GAMES.get(game_name)
    if factory is None:
        raise ValueError(f"unknown game {game_name!r}; choose one of: {', '.join(games.GAMES)}")
    presets: tuple[Preset, ...] = getattr(factory, "presets", ())
    return presets


def preset_description(game_name: str, preset_name: str) -> str:
    """The game's own one- or two-sentence text for a preset ("" for an unknown preset)."""
    if game_name not in games.GAMES:
        return ""
    wanted = preset_name.strip().lower()
    for preset in game_presets(game_name):
        if preset.name.lower() == wanted:
            return preset.description
    return ""


def get_preset(game_name: str, name: str, game: Game[Any] | None = None) -> SearchPlayer:
    """A game's preset by name, case-insensitive (of `game` as it is made, where given);
    ValueError names the presets."""
    if game_name not in games.GAMES:
        raise ValueError(f"no presets for game {game_name!r}; games: {', '.join(DIFFICULTIES)}")
    presets = DIFFICULTIES[game_name] if game is None else presets_of(game)
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


def parse_player_spec(game_name: str, text: str, game: Game[Any] | None = None) -> PlayerConfig:
    """A preset name, `random`, or `algorithm:key=value:...` parsed into a config.

    Keys: depth, heuristic (a name, or a .py file defining evaluate(state)), time,
    randomness, seed, nodes (the most nodes a move searches); Monte Carlo tree search (`mcts`)
    takes iterations, time, c (the exploration constant) and playouts (random, heuristic,
    auto) instead of a depth.  A spec naming a .py file is an agent (`ai.student_code.agents`).

    Examples: `hard`, `alphabeta:depth=4:heuristic=windows`, `expectiminimax:depth=2`,
    `alphabeta:depth=none:time=2`, `mcts`, `mcts:iterations=20000`, `mcts:time=1.5:c=1`.
    """
    spec = text.strip()
    if not spec:
        raise ValueError("empty player; give a preset name or algorithm:key=value:...")
    agent = agent_spec(spec)
    if agent is not None:
        config: PlayerConfig = AgentPlayer(agent.text)
        config.validate(game)
        return config
    head, *pairs = split_spec(spec)
    head = head.strip().lower()
    if head == RANDOM and not pairs:
        return RandomMoves()
    if head not in (*PLAYING_ALGORITHMS, RANDOM):
        if pairs:
            raise ValueError(
                f"unknown algorithm {head!r}; choose one of: "
                f"{', '.join((*PLAYING_ALGORITHMS, RANDOM))}"
            )
        try:
            return get_preset(game_name, head, game)
        except ValueError:
            known = DIFFICULTIES.get(game_name, {}) if game is None else presets_of(game)
            presets = ", ".join(name.lower() for name in known)
            raise ValueError(
                f"unknown player {text!r}; use a preset ({presets}), random, or "
                f"algorithm:key=value:... with algorithm one of {', '.join(PLAYING_ALGORITHMS)}"
            ) from None
    if head == MCTS:
        return _mcts_spec(pairs, game)
    search: dict[str, Any] = {"algorithm": head, "depth": 2 if head == "expectiminimax" else 4}
    fields: dict[str, Any] = {}
    for key, value in _settings(pairs):
        if key == "depth":
            search["depth"] = (
                None if value.lower() in ("none", "max", "unlimited") else _number(key, value, int)
            )
            if search["depth"] is not None and not 1 <= search["depth"] <= MAX_DEPTH:
                raise ValueError(f"depth must be 1 to {MAX_DEPTH} or none, not {value}")
        elif key == "heuristic":
            search["heuristic"] = check_heuristic_file(value) if is_heuristic_file(value) else value
        elif key in ("time", "time_limit"):
            fields["time_limit"] = _number(key, value, float)
        elif key == "randomness":
            fields["randomness"] = _number(key, value, float)
        elif key == "seed":
            fields["seed"] = _number(key, value, int)
        elif key == "nodes":
            search["node_limit"] = _number(key, value.replace(",", "").replace("_", ""), int)
        else:
            raise ValueError(
                f"unknown player setting {key!r}; use depth, heuristic, time, randomness, "
                "seed, nodes"
            )
    config = SearchPlayer(DepthLimited(**search), **fields)
    config.validate(game)
    return config


def _pair(pair: str) -> tuple[str, str]:
    """One `key=value` of a player spec, the key lowercased."""
    key, sep, value = pair.partition("=")
    key, value = key.strip().lower(), value.strip()
    if not sep or not value:
        raise ValueError(f"expected key=value in player spec, not {pair!r}")
    return key, value


# Two spellings of one setting (`time` and `time_limit`, `c` and `exploration`).
SAME_SETTING = {"time_limit": "time", "exploration": "c", "playout": "playouts"}


def _settings(pairs: list[str]) -> list[tuple[str, str]]:
    """A spec's `key=value` pairs, each setting at most once: `mcts:iterations=5:iterations=6`
    is refused rather than one of the two silently winning."""
    settings = [_pair(pair) for pair in pairs]
    seen: set[str] = set()
    for key, _ in settings:
        name = SAME_SETTING.get(key, key)
        if name in seen:
            raise ValueError(f"{name} given twice; give each setting once")
        seen.add(name)
    return settings


MCTS_KEYS = "iterations, time, c, playouts, processes, heuristic, randomness, seed"


def _mcts_spec(pairs: list[str], game: Game[Any] | None) -> SearchPlayer:
    """`mcts:key=value:...`: Monte Carlo tree search's settings (no depth)."""
    settings: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    for key, value in _settings(pairs):
        if key == "iterations":
            settings["iterations"] = _number(key, value.replace("_", ""), int)
        elif key in ("c", "exploration"):
            settings["exploration"] = _number(key, value, float)
        elif key in ("playouts", "playout"):
            settings["playout"] = value.lower()
        elif key == "processes":
            settings["processes"] = _number(key, value, int)
        elif key in ("time", "time_limit"):
            fields["time_limit"] = _number(key, value, float)
        elif key == "heuristic":
            settings["heuristic"] = (
                check_heuristic_file(value) if is_heuristic_file(value) else value
            )
        elif key == "randomness":
            fields["randomness"] = _number(key, value, float)
        elif key == "seed":
            fields["seed"] = _number(key, value, int)
        elif key == "depth":
            raise ValueError("MCTS has no depth; give it iterations=N or time=S")
        else:
            raise ValueError(f"unknown MCTS setting {key!r}; use {MCTS_KEYS}")
    config = SearchPlayer(MonteCarlo(**settings), **fields)
    config.validate(game)
    return config
