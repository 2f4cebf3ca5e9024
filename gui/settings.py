"""The choices remembered between runs, and how each side of a match is set up.

Settings live in `$PLYGROUND_CONFIG_DIR`, else `$XDG_CONFIG_HOME/plyground`, else
`~/.config/plyground`, as `settings.json`.  A file that cannot be read or is not valid
is renamed to `settings.json.bad` and the defaults are used: a broken file never stops
the game.  Writes go to a temporary file first and then replace the old one atomically.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gui.safe_files import keep_aside, write_atomic

GAME_NAMES = ("tictactoe", "connect4", "pig")
HUMAN, AI = "human", "ai"
CUSTOM = "Custom"
MAX_DEPTH = {"tictactoe": 9, "connect4": 12, "pig": 8}
SPEED_DEFAULT = 0.6
"""Seconds between moves when two AIs play (0 = instant)."""
PIG_GOAL_DEFAULT = 100


def config_dir() -> Path:
    """Where the settings file lives (PLYGROUND_CONFIG_DIR overrides everything)."""
    override = os.environ.get("PLYGROUND_CONFIG_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = Path(xdg) if xdg else Path.home() / ".config"
    return base / "plyground"


def settings_path() -> Path:
    """The settings file."""
    return config_dir() / "settings.json"


@dataclass
class SideSetup:
    """One side of a match: a human, or an AI from a preset or custom settings."""

    kind: str = HUMAN
    preset: str = "Medium"
    algorithm: str = "alphabeta"
    depth: int = 4
    heuristic: str | None = None
    time_limit: float | None = None

    @property
    def is_ai(self) -> bool:
        """Whether this side is played by the computer."""
        return self.kind == AI

    def player_config(self, game_name: str, seed: int = 0) -> Any:
        """The `ai.players.PlayerConfig` for this side (None for a human)."""
        if not self.is_ai:
            return None
        import ai
        import ai.players

        presets = ai.DIFFICULTIES[game_name]
        if self.preset != CUSTOM and self.preset in presets:
            config = presets[self.preset]
            return dataclasses.replace(config, seed=seed) if seed else config
        import games

        algorithms = ai.algorithms_for(games.get_game(game_name))
        return ai.players.PlayerConfig(
            algorithm=self.algorithm if self.algorithm in algorithms else algorithms[0],
            depth=self.depth,
            heuristic=self.heuristic,
            time_limit=self.time_limit,
            randomness=0.0,
            seed=seed,
        )

    def label(self) -> str:
        """Short name: 'Human', 'AI · Hard', 'AI · Custom'."""
        return "Human" if not self.is_ai else f"AI · {self.preset}"

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the settings file."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Any, fallback: SideSetup) -> SideSetup:
        """Read a side from the settings file, keeping `fallback`'s value for anything odd."""
        if not isinstance(data, dict):
            return dataclasses.replace(fallback)
        side = dataclasses.replace(fallback)
        if data.get("kind") in (HUMAN, AI):
            side.kind = data["kind"]
        if isinstance(data.get("preset"), str):
            side.preset = data["preset"]
        if isinstance(data.get("algorithm"), str):
            side.algorithm = data["algorithm"]
        if (
            isinstance(data.get("depth"), int)
            and not isinstance(data.get("depth"), bool)
            and 1 <= data["depth"] <= 30
        ):
            side.depth = data["depth"]
        if data.get("heuristic") is None or isinstance(data.get("heuristic"), str):
            side.heuristic = data.get("heuristic")
        limit = data.get("time_limit")
        if limit is None or (
            isinstance(limit, (int, float)) and not isinstance(limit, bool) and 0 < limit <= 600
        ):
            side.time_limit = None if limit is None else float(limit)
        return side


def default_sides(game_name: str) -> list[SideSetup]:
    """Human first against a Medium AI, with the algorithm that fits the game."""
    algorithm = "expectiminimax" if game_name == "pig" else "alphabeta"
    depth = 3 if game_name == "pig" else 4
    return [
        SideSetup(kind=HUMAN, algorithm=algorithm, depth=depth),
        SideSetup(kind=AI, preset="Medium", algorithm=algorithm, depth=depth),
    ]


@dataclass
class Settings:
    """Everything remembered between runs."""

    last_game: str = "connect4"
    sides: dict[str, list[SideSetup]] = field(
        default_factory=lambda: {g: default_sides(g) for g in GAME_NAMES}
    )
    speed: float = SPEED_DEFAULT
    show_analysis: bool = False
    seed: int = 0
    pig_goal: int = PIG_GOAL_DEFAULT

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the settings file."""
        return {
            "version": 1,
            "last_game": self.last_game,
            "sides": {g: [s.to_json() for s in sides] for g, sides in self.sides.items()},
            "speed": self.speed,
            "show_analysis": self.show_analysis,
            "seed": self.seed,
            "pig_goal": self.pig_goal,
        }

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """Settings from a parsed file; raises ValueError when it is not a settings object."""
        if not isinstance(data, dict):
            raise ValueError("the settings file does not hold a JSON object")
        settings = cls()
        if data.get("last_game") in GAME_NAMES:
            settings.last_game = data["last_game"]
        sides = data.get("sides")
        if isinstance(sides, dict):
            for game in GAME_NAMES:
                pair = sides.get(game)
                if isinstance(pair, list) and len(pair) == 2:
                    defaults = settings.sides[game]
                    settings.sides[game] = [
                        SideSetup.from_json(pair[i], defaults[i]) for i in range(2)
                    ]
        speed = data.get("speed")
        if isinstance(speed, (int, float)) and not isinstance(speed, bool) and 0 <= speed <= 5:
            settings.speed = float(speed)
        if isinstance(data.get("show_analysis"), bool):
            settings.show_analysis = data["show_analysis"]
        if isinstance(data.get("seed"), int) and not isinstance(data.get("seed"), bool):
            settings.seed = data["seed"]
        goal = data.get("pig_goal")
        if isinstance(goal, int) and not isinstance(goal, bool) and 10 <= goal <= 1000:
            settings.pig_goal = goal
        return settings


def load() -> tuple[Settings, str | None]:
    """Read the settings; on any problem use defaults and return a message to show once."""
    path = settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), None
    except (OSError, UnicodeDecodeError):
        return Settings(), _set_aside(path, "could not be read")
    if not text.strip():
        return Settings(), _set_aside(path, "was empty")
    try:
        return Settings.from_json(json.loads(text)), None
    except (ValueError, TypeError, AttributeError):
        return Settings(), _set_aside(path, "was not valid")


def _set_aside(path: Path, why: str) -> str:
    """Keep a bad settings file aside as settings.json.bad; return the message for the window."""
    return f"Your settings file {why}, so the defaults are in use{keep_aside(path)}."


def save(settings: Settings) -> bool:
    """Write the settings atomically (temp file + os.replace); False if that failed."""
    try:
        write_atomic(settings_path(), json.dumps(settings.to_json(), indent=2))
    except OSError:
        return False
    return True
