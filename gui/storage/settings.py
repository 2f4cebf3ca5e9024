"""The choices remembered between runs, and how each side of a match is set up.

Where files live (`platformdirs`): settings in the user config folder (XDG on Linux,
``%APPDATA%`` on Windows, ``~/Library/Application Support`` on macOS), the autosave and the
saves folder in the user data folder.  ``$PLYGROUND_CONFIG_DIR`` overrides both.  Older
versions kept everything in ``~/.config/plyground``: its settings are still read there while
the new folder does not exist, and its autosave moves to the data folder.

A settings file that cannot be read or is not valid is renamed to ``settings.json.bad`` and
the defaults are used: a broken file never stops the game.  Writes are atomic.

Nothing here names a game: sides and options are kept per registered game, options are
checked with the game's own `games.GameOption.check`.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from plyground import games
from plyground.file_reader import Field, FileProblem, read_json

if TYPE_CHECKING:
    from plyground.ai.players.players import PlayerConfig, SearchPlayer
    from plyground.games.search_settings import SearchSettings
from plyground.gui.storage.safe_files import keep_aside, remove_stale_temporaries, write_atomic

APP_NAME = "plyground"
HUMAN, AI = "human", "ai"
CUSTOM = "Custom"
FROM_FILE = "From a file…"
"""The set-up's choice of an AI from the player's own file (`SideSetup.agent`)."""
SPEED_DEFAULT = 0.6
PALETTE_NAMES = ("standard", "colour-blind")
"""The colour palettes a player may choose (`gui.theme.PALETTES` draws them)."""
"""Seconds between moves when two AIs play (0 = instant)."""
VERSION = 2
"""Version 2: ``options`` per game and one shape per side; version 1 files are still read."""


FIELDS = (
    Field("speed", float, 0, 5),
    Field("show_analysis", bool),
    Field("seed", int, 0, 2**63 - 1),
    Field("sound_muted", bool),
    Field("sound_volume", float, 0, 1),
    Field("palette", str, choices=PALETTE_NAMES),
    Field("fullscreen", bool),
)
"""The plain fields of the settings file, each with its type and range, read by
`Settings.from_json` (a bad value keeps the default).  A new setting is one line here and
one attribute of `Settings` with the same name (the window's size and place, pairs of
integers, are read beside them)."""


# ----------------------------------------------------------------------------- places


def legacy_dir() -> Path:
    """Where versions before platformdirs kept everything."""
    return Path.home() / ".config" / APP_NAME


def _platform_dir(kind: str) -> Path:
    """`kind` "config" or "data": the platform's folder, or the old one if only that exists."""
    import platformdirs

    getter = platformdirs.user_config_dir if kind == "config" else platformdirs.user_data_dir
    new = Path(getter(APP_NAME, appauthor=False))
    old = legacy_dir()
    if not new.exists() and old.is_dir():
        return old
    return new


def config_dir() -> Path:
    """The folder of the settings file (PLYGROUND_CONFIG_DIR overrides everything)."""
    override = os.environ.get("PLYGROUND_CONFIG_DIR")
    if override:
        return Path(override)
    return _platform_dir("config")


LEGACY_DATA = ("autosave.json", "autosave.json.bad", "saves")
"""What older versions kept beside the settings that belongs in the data folder."""
_MOVED: list[Path] = []


def data_dir() -> Path:
    """The folder of the autosave and the saves (PLYGROUND_CONFIG_DIR overrides everything):
    the platform's data folder (on Linux ~/.local/share/plyground).  An autosave or saves
    folder an older version left beside the settings (~/.config/plyground) is moved there
    once, losing nothing; if it cannot be moved, the old folder stays in use."""
    override = os.environ.get("PLYGROUND_CONFIG_DIR")
    if override:
        return Path(override)
    import platformdirs

    folder = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    old = legacy_dir()
    if old == folder or not old.is_dir():
        return folder
    if old not in _MOVED:
        _MOVED.append(old)
        _move_legacy_data(old, folder)
    left = [name for name in LEGACY_DATA[:1] if (old / name).exists()]
    return old if left and not (folder / left[0]).exists() else folder


def _move_legacy_data(old: Path, folder: Path) -> None:
    """Move each of `LEGACY_DATA` from `old` into `folder` where `folder` has none yet."""
    import shutil

    for name in LEGACY_DATA:
        source, target = old / name, folder / name
        if not source.exists() or target.exists():
            continue
        with contextlib.suppress(OSError, shutil.Error):
            folder.mkdir(parents=True, exist_ok=True)
            shutil.move(str(source), str(target))


def saves_dir() -> Path:
    """Where the file dialog offers to save and open games: a visible "Plyground" folder in
    the player's documents (made on the first save; PLYGROUND_CONFIG_DIR: its saves folder)."""
    if os.environ.get("PLYGROUND_CONFIG_DIR"):
        return data_dir() / "saves"
    import platformdirs

    return Path(platformdirs.user_documents_dir()) / "Plyground"


def older_saves_dir() -> Path:
    """Where older versions kept saves (the data folder's hidden saves folder)."""
    return data_dir() / "saves"


def settings_path() -> Path:
    """The settings file."""
    return config_dir() / "settings.json"


# ----------------------------------------------------------------------------- games

_LAST_GAMES_FOLDER: list[Path] = []


def last_games_folder() -> Path | None:
    """The folder of the game file opened last in this run (None: none yet)."""
    return _LAST_GAMES_FOLDER[-1] if _LAST_GAMES_FOLDER else None


def note_games_folder(folder: Path) -> None:
    """Remember where a game file was opened from (the next "Open a game…" starts there)."""
    _LAST_GAMES_FOLDER[:] = [folder]


def game_class(game_name: str) -> Any:
    """The registered factory (class) of a game, which describes it without making one."""
    return games.GAMES[game_name]


def preset_names(game_name: str) -> list[str]:
    """The game's difficulty presets, easiest first."""
    return [preset.name for preset in game_class(game_name).presets]


def preset_named(game_name: str, preset: str) -> SearchPlayer | None:
    """The config of the game's preset called `preset` (any case), or None: the game's own
    presets as `ai.DIFFICULTIES` gives them."""
    from plyground.ai import DIFFICULTIES

    wanted = preset.lower()
    return next(
        (config for name, config in DIFFICULTIES[game_name].items() if name.lower() == wanted),
        None,
    )


def default_options(game_name: str) -> dict[str, int]:
    """Each option of the game at its default."""
    return {option.name: option.default for option in game_class(game_name).options}


def check_options(game_name: str, values: Any) -> dict[str, int]:
    """The game's options from `values`, each checked; a missing or bad one is its default."""
    result = default_options(game_name)
    if not isinstance(values, dict):
        return result
    for option in game_class(game_name).options:
        if option.name in values:
            with contextlib.suppress(ValueError):
                result[option.name] = option.check(values[option.name])
    return result


# ----------------------------------------------------------------------------- sides

MAX_NAME = 40
"""Characters of a preset's name in the settings file (longer is not one of ours)."""
_CONFIG_FIELDS = ("algorithm", "depth", "heuristic", "time_limit", "randomness", "mcts")
"""The flat fields of a player's config a Custom AI chooses (the seed is the match's; "mcts":
Monte Carlo tree search's iterations, exploration and playouts)."""


def _custom_default() -> SearchPlayer:
    """A Custom AI before any choice: alpha-beta at depth 4, the game's heuristic."""
    from plyground.ai.players.players import SearchPlayer
    from plyground.games.search_settings import DepthLimited

    return SearchPlayer(DepthLimited("alphabeta", 4))


@dataclass(slots=True)
class SideSetup:
    """One side of a match: a human, or an AI from a preset or custom settings.

    The custom config is kept while a preset is chosen, so switching back to Custom finds it.
    On disk (settings and saves) a side is
    ``{"kind": ..., "preset": name or null for Custom, "config": config.to_dict()}`` (the flat
    form every version reads: `ai.players.players.player_from_dict`)
    (see `to_dict`); depths are checked against the one limit, `ai.engine.search.MAX_DEPTH`.
    """

    kind: str = HUMAN
    preset: str = "Medium"
    custom: SearchPlayer = field(default_factory=_custom_default)
    """The Custom AI: its search's settings (a depth-limited search, always with a depth, or
    Monte Carlo tree search), time limit and randomness; seed 0; a new one is made with
    `dataclasses.replace`."""
    set_aside: SearchSettings | None = None
    """The other family's settings the Custom AI had before its algorithm changed family (a
    depth while it is MCTS, MCTS's budget while it searches to a depth), for switching back."""
    agent: str = ""
    """With the FROM_FILE preset: the agent's spec (`my_agent.py`, `kaggle:c.py`)."""

    @property
    def is_ai(self) -> bool:
        """Whether this side is played by the computer."""
        return self.kind == AI

    def custom_config(self, game_name: str | None = None, seed: int = 0) -> SearchPlayer:
        """The Custom AI's `ai.players.players.SearchPlayer` (a depth-limited search's
        algorithm fitted to the game if given; MCTS plays every game)."""
        from plyground.ai.engine.search import DepthLimited, algorithms_for

        search = self.custom.search
        if game_name is not None and isinstance(search, DepthLimited):
            algorithms = algorithms_for(game_class(game_name))
            if search.algorithm not in algorithms:
                search = replace(search, algorithm=algorithms[0])
        return replace(self.custom, search=search, seed=seed)

    def player_config(self, game_name: str, seed: int = 0) -> PlayerConfig | None:
        """The `ai.players.players.PlayerConfig` this side plays with (None for a human)."""
        if not self.is_ai:
            return None
        return self.config_for(game_name, seed)

    def config_for(self, game_name: str, seed: int = 0) -> PlayerConfig:
        """The preset's config, or the custom one (also for a human: what its AI would be)."""
        if self.preset == FROM_FILE:
            return self.agent_config(seed)
        config = None if self.preset == CUSTOM else preset_named(game_name, self.preset)
        if config is None:
            return self.custom_config(game_name, seed)
        return replace(config, seed=seed) if seed else config

    def agent_config(self, seed: int = 0) -> PlayerConfig:
        """The `AgentPlayer` of the file this side names (`ai.student_code.agents`)."""
        from plyground.ai.players.players import AgentPlayer

        return AgentPlayer(self.agent, seed)

    def label(self) -> str:
        """Short name: 'Human', 'AI · Hard', 'AI · Custom', 'AI · my_agent.py'."""
        if self.is_ai and self.preset == FROM_FILE:
            from plyground.untrusted import printable  # a name not in UTF-8

            return f"AI · {printable(Path(self.agent.removeprefix('kaggle:')).name) or 'a file'}"
        return "Human" if not self.is_ai else f"AI · {self.preset}"

    def to_dict(self, game_name: str, played: bool = False) -> dict[str, Any]:
        """The one on-disk shape of a side (settings file and save files).

        ``config`` holds the custom fields (what the settings file remembers), or with
        `played` the config the side plays with, preset included (what a save records).
        """
        config = self.config_for(game_name) if played else self.custom_config(game_name)
        if self.preset == FROM_FILE:  # an agent: the preset is null, the config names the file
            config = self.agent_config()
        return {
            "kind": self.kind,
            "preset": None if self.preset in (CUSTOM, FROM_FILE) else self.preset,
            "config": config.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any, fallback: SideSetup) -> SideSetup:
        """A side from disk, keeping `fallback`'s value for anything odd (field by field).

        Reads the shape of `to_dict`, and the flat shape of version 1 settings files.
        """
        side = replace(fallback)
        if not isinstance(data, dict):
            return side
        if data.get("kind") in (HUMAN, AI):
            side.kind = data["kind"]
        if "config" in data:
            preset = data.get("preset")
            if preset is None:
                side.preset = CUSTOM
            elif isinstance(preset, str) and len(preset) <= MAX_NAME:
                side.preset = preset
            config = data.get("config")
        else:  # version 1: the custom fields beside kind and preset
            if isinstance(data.get("preset"), str) and len(data["preset"]) <= MAX_NAME:
                side.preset = data["preset"]
            config = data
        if isinstance(config, dict):
            side.read_custom(config)
            if config.get("algorithm") == "agent" and isinstance(config.get("agent"), str):
                side.preset, side.agent = FROM_FILE, config["agent"]
        return side

    def read_custom(self, config: dict[str, Any]) -> None:
        """Take each custom field of the flat `config` (every version's form) that makes a
        valid searching player with the fields taken before it; skip the others."""
        from plyground.ai.engine.search import MCTS, PLAYING_ALGORITHMS
        from plyground.ai.players.players import SearchPlayer, player_from_dict

        flat = self.custom.to_dict()
        for name in _CONFIG_FIELDS:
            if name not in config:
                continue
            value = config[name]
            if name == "depth" and (value is None or isinstance(value, bool)):
                continue  # no depth limit is a preset's; the custom slider keeps its depth
            if name == "algorithm" and value not in PLAYING_ALGORITHMS:
                continue  # a random player or an agent is not a Custom AI
            if name in ("time_limit", "randomness") and type(value) is int:
                value = float(value)
            trial = {**flat, name: value}
            if trial.get("algorithm") != MCTS:
                trial.pop("mcts", None)
                if trial.get("depth") is None:
                    trial["depth"] = 4  # from MCTS back to a depth: the slider's default
            try:
                player_from_dict(trial)
            except (TypeError, ValueError):
                continue
            flat = trial
        custom = player_from_dict(flat)
        if isinstance(custom, SearchPlayer):
            self.custom = custom

    # Older names of the same shape.
    def to_json(self, game_name: str) -> dict[str, Any]:
        """Same as `to_dict`."""
        return self.to_dict(game_name)

    @classmethod
    def from_json(cls, data: Any, fallback: SideSetup) -> SideSetup:
        """Same as `from_dict`."""
        return cls.from_dict(data, fallback)


def default_sides(game_name: str) -> list[SideSetup]:
    """Human first against a Medium AI, with the algorithm and depth that fit the game."""
    from plyground.ai.engine.search import algorithms_for

    factory = game_class(game_name)
    algorithms = algorithms_for(factory)
    algorithm = "alphabeta" if "alphabeta" in algorithms else algorithms[0]
    depth = 3 if factory.stochastic else 4
    names = preset_names(game_name)
    preset = names[min(1, len(names) - 1)] if names else CUSTOM
    from plyground.ai.engine.search import DepthLimited

    custom = replace(_custom_default(), search=DepthLimited(algorithm, depth))
    return [
        SideSetup(kind=HUMAN, preset=preset, custom=custom),
        SideSetup(kind=AI, preset=preset, custom=custom),
    ]


class _SidesByGame(dict[str, list[SideSetup]]):
    """Sides per game; a game registered later gets its default sides on first use."""

    stored: dict[str, Any]
    """Sides read from the settings file for games not loaded then (games from files)."""

    def __missing__(self, game_name: str) -> list[SideSetup]:
        if game_name not in games.GAMES:
            raise KeyError(game_name)
        sides = default_sides(game_name)
        pair = getattr(self, "stored", {}).get(game_name)
        if isinstance(pair, list) and len(pair) == 2:
            with contextlib.suppress(ValueError, TypeError, KeyError, AttributeError):
                sides = [SideSetup.from_dict(pair[i], sides[i]) for i in range(2)]
        self[game_name] = sides
        return sides


class _OptionsByGame(dict[str, dict[str, int]]):
    """Option values per game; a game registered later gets its defaults on first use."""

    def __missing__(self, game_name: str) -> dict[str, int]:
        if game_name not in games.GAMES:
            raise KeyError(game_name)
        values = self[game_name] = default_options(game_name)
        return values


def remember_stored_sides(sides: dict[str, list[SideSetup]], stored: dict[str, Any]) -> None:
    """Give the sides the stored ones of games not loaded yet (games from files)."""
    if isinstance(sides, _SidesByGame):
        sides.stored = stored


def _all_sides() -> _SidesByGame:
    return _SidesByGame({name: default_sides(name) for name in games.GAMES})


def _all_options() -> _OptionsByGame:
    return _OptionsByGame({name: default_options(name) for name in games.GAMES})


@dataclass
class Settings:
    """Everything remembered between runs.

    `options` holds ``{game: {option: value}}``: read them with `options_for`, change them
    with `set_option` (each checked against the game's own range).
    """

    last_game: str = ""
    """The game chosen last ("" before the first choice: the menu's first card)."""
    sides: dict[str, list[SideSetup]] = field(default_factory=_all_sides)
    speed: float = SPEED_DEFAULT
    show_analysis: bool = False
    seed: int = 0
    options: dict[str, dict[str, int]] = field(default_factory=_all_options)
    sound_muted: bool = False
    sound_volume: float = 0.7
    """Master volume of the sound effects, 0 to 1."""
    palette: str = "standard"
    """The players' colours: a name in `gui.theme.PALETTES` ("colour-blind": blue and
    orange, each side's pieces marked with its symbol)."""
    window_size: list[int] | None = None
    """The window's width and height out of full screen (None: one that fits the screen)."""
    window_position: list[int] | None = None
    """Where the window's top left corner was on the screen (None: where the system puts it)."""
    fullscreen: bool = False
    recent_games: list[dict[str, str]] = field(default_factory=list)
    """Games opened from files, newest first: {"name": registry name, "title": its title}."""
    stored_sides: dict[str, Any] = field(default_factory=dict)
    """The sides of games from files as the file held them, read when such a game loads."""

    def __post_init__(self) -> None:
        if not isinstance(self.sides, _SidesByGame):
            object.__setattr__(self, "sides", _SidesByGame(self.sides))
        remember_stored_sides(self.sides, self.stored_sides)
        if not isinstance(self.options, _OptionsByGame):
            object.__setattr__(self, "options", _OptionsByGame(self.options))

    def options_for(self, game_name: str) -> dict[str, int]:
        """The game's option values (checked; defaults for anything missing)."""
        return check_options(game_name, self.options[game_name])

    def set_option(self, game_name: str, option: str, value: Any) -> None:
        """Set one option; ValueError (from `GameOption.check`) if it is not allowed."""
        for item in game_class(game_name).options:
            if item.name == option:
                self.options[game_name][option] = item.check(value)
                return
        raise ValueError(f"{game_name} has no option {option!r}")

    def make_game(self, game_name: str) -> Any:
        """The game object with the options chosen here."""
        return games.get_game(game_name, **self.options_for(game_name))

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the settings file."""
        return {
            "version": VERSION,
            "last_game": self.last_game,
            "sides": {
                **{g: pair for g, pair in self.stored_sides.items() if g not in self.sides},
                **{g: [s.to_dict(g) for s in sides] for g, sides in self.sides.items()},
            },
            "speed": self.speed,
            "show_analysis": self.show_analysis,
            "seed": self.seed,
            "options": {g: self.options_for(g) for g in self.options if g in games.GAMES},
            "sound_muted": self.sound_muted,
            "sound_volume": self.sound_volume,
            "palette": self.palette,
            "window_size": self.window_size,
            "window_position": self.window_position,
            "fullscreen": self.fullscreen,
            "recent_games": self.recent_games,
        }

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """Settings from a parsed file; raises ValueError when it is not a settings object."""
        if not isinstance(data, dict):
            raise ValueError("the settings file does not hold a JSON object")
        settings = cls()
        if isinstance(data.get("last_game"), str) and data["last_game"] in games.GAMES:
            settings.last_game = data["last_game"]
        recent = data.get("recent_games")
        if isinstance(recent, list):
            settings.recent_games = [
                {"name": e["name"], "title": e["title"]}
                for e in recent[:8]
                if isinstance(e, dict)
                and isinstance(e.get("name"), str)
                and isinstance(e.get("title"), str)
            ]
        sides = data.get("sides")
        if isinstance(sides, dict):
            known = {entry["name"] for entry in settings.recent_games}
            settings.stored_sides = {g: pair for g, pair in sides.items() if g in known}
            remember_stored_sides(settings.sides, settings.stored_sides)
            for game in games.GAMES:
                pair = sides.get(game)
                if isinstance(pair, list) and len(pair) == 2:
                    defaults = settings.sides[game]
                    settings.sides[game] = [
                        SideSetup.from_dict(pair[i], defaults[i]) for i in range(2)
                    ]
        for item in FIELDS:
            setattr(settings, item.key, item.read(data, getattr(settings, item.key)))
        size, place = data.get("window_size"), data.get("window_position")
        if isinstance(size, list) and _pair(size, 100, 20000):
            settings.window_size = [int(size[0]), int(size[1])]
        if isinstance(place, list) and _pair(place, -20000, 20000):
            settings.window_position = [int(place[0]), int(place[1])]
        options = data.get("options")
        options = options if isinstance(options, dict) else {}
        for game in games.GAMES:
            stored = options.get(game)
            values = dict(stored) if isinstance(stored, dict) else {}
            for option in game_class(game).options:
                legacy = f"{game}_{option.name}"  # version 1 kept e.g. the goal at the top
                if option.name not in values and legacy in data:
                    values[option.name] = data[legacy]
            settings.options[game] = check_options(game, values)
        return settings


def _pair(value: Any, low: int, high: int) -> bool:
    """Whether `value` is two whole numbers from `low` to `high` (a window size or place)."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(type(v) is int and low <= v <= high for v in value)
    )


# ----------------------------------------------------------------------------- files


MAX_BYTES = 2**20
"""A settings file is a few kilobytes; anything above this is not ours."""


def load() -> tuple[Settings, str | None]:
    """Read the settings; on any problem use defaults and return a message to show once.

    The file goes through `plyground.file_reader` (a regular file, bounded size, nesting,
    numbers and texts, UTF-8 with or without a BOM); a bad one is kept aside as `.bad`.
    Temporary files a killed write left in the settings and save folders are removed first.
    """
    path = settings_path()
    for folder in {path.parent, data_dir(), saves_dir()}:  # what a killed write left behind
        remove_stale_temporaries(folder)
    if not path.exists() and not path.is_symlink():
        return Settings(), None
    try:
        data = read_json(path, MAX_BYTES, "settings file", max_string=4096)
        return Settings.from_json(data), None
    except FileProblem as error:
        why = str(error).removeprefix(f"{path}: ")
    except (ValueError, TypeError, AttributeError) as error:
        why = str(error)[:200]
    return Settings(), _set_aside(path, why)


def _set_aside(path: Path, why: str) -> str:
    """Keep a bad settings file aside as settings.json.bad; return the message for the window."""
    kept = keep_aside(path)
    return f"Your settings file could not be read: {why}. The defaults are in use{kept}."


def save(settings: Settings) -> bool:
    """Write the settings atomically (temp file + os.replace); False if that failed.

    A failure is reported to `gui.storage.write_problems.WRITES` (the window says it once); the
    next save that works writes everything and says so.
    """
    from plyground.gui.storage.write_problems import WRITES

    path = settings_path()
    try:
        write_atomic(path, json.dumps(settings.to_json(), indent=2))
    except OSError as error:
        WRITES.failed("settings", path, error)
        return False
    WRITES.worked("settings")
    return True
