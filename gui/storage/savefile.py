"""Saved games: a small, readable JSON file (no pygame, nothing executed from the file).

    {
      "format": "plyground-save",
      "version": 1,
      "game": "<name>",                    (a name in games.GAMES)
      "options": {},                       (the game's options, e.g. {"goal": 50})
      "players": [{"kind": "human"},       (the shape of `gui.storage.settings.SideSetup.to_dict`)
                  {"kind": "ai", "preset": "Hard", "config": {"algorithm": ...}}],
      "seed": 0,
      "moves": "4453",                     (the game's own notation, chance outcomes too)
      "saved_at": "2026-11-22T09:30:00Z"   (information only)
    }

Loading checks every field and replays the moves through the rules, so a hand-edited
file with an illegal move is refused with a message naming the move's number and text.
Writes are atomic: the text goes to a temporary file beside the target, is flushed to
disk, and only then renamed over it, so a crash mid-save never leaves half a file.

The window also keeps the game in progress as `autosave.json` in the data directory
(see `gui.storage.settings.data_dir`); a broken autosave is set aside as `autosave.json.bad`.
`main.py analyze --load FILE` reads files through `load_game` too: one loader.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground.file_reader import Field, FileProblem, parse_json, read_text, shown
from plyground.games.base import Game, State
from plyground.gui.storage.safe_files import write_atomic

FORMAT = "plyground-save"
VERSION = 1
MAX_BYTES = 4 * 2**20
"""A save file is a few hundred bytes; anything above this is not one of ours."""
MAX_TEXT = 200_000
"""Characters of one text in a save (the moves of the longest game are far fewer)."""
AUTOSAVE_NAME = "autosave.json"
SEED = Field("seed", int, 0, 2**63 - 1)
MOVES = Field("moves", str, max_length=MAX_TEXT)


class SaveError(FileProblem):
    """A save file that cannot be written, read or understood; the message says why."""

    os_error: OSError | None = None
    """The system's refusal when a write failed (a full disk...), else None."""


@dataclass
class SavedGame:
    """A checked save file: the game object, the replayed moves and the final state."""

    game_name: str
    options: dict[str, Any]
    players: list[dict[str, Any]]
    seed: int
    moves_text: str
    game: Game[Any]
    moves: list[Any]
    state: State[Any]
    """The position the moves reach."""
    saved_at: str | None = None

    @property
    def decisions(self) -> int:
        """How many player decisions the game holds (dice not counted)."""
        return self.state.ply

    def describe_players(self) -> str:
        """'Human vs AI · Hard'."""
        return " vs ".join(player_label(p) for p in self.players)


def player_label(player: dict[str, Any]) -> str:
    """'Human', 'AI · Hard' or 'AI · Custom'."""
    if player.get("kind") != "ai":
        return "Human"
    return f"AI · {player.get('preset') or 'Custom'}"


def autosave_path() -> Path:
    """Where the window keeps the game in progress."""
    from plyground.gui.storage.settings import data_dir

    return data_dir() / AUTOSAVE_NAME


# -------------------------------------------------------------------------- writing


def to_json(
    game_name: str,
    options: dict[str, Any],
    players: list[dict[str, Any]],
    seed: int,
    moves_text: str,
) -> dict[str, Any]:
    """The file's content as plain data (checked the same way a load checks it)."""
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": game_name,
        "options": dict(options),
        "players": [dict(p) for p in players],
        "seed": seed,
        "moves": moves_text,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    return data


def json_text(data: dict[str, Any]) -> str:
    """A save as JSON text, readable letters kept as they are; a lone surrogate (a file name
    in another encoding) written as its escape, so the file is UTF-8 and reads back the same."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def save_game(
    path: str | os.PathLike[str],
    game_name: str,
    options: dict[str, Any],
    players: list[dict[str, Any]],
    seed: int,
    moves_text: str,
) -> Path:
    """Write a save file atomically; SaveError (with the reason) if it cannot be written.

    The content is validated first (the moves replayed), so the window never writes a
    file it could not read back.
    """
    data = to_json(game_name, options, players, seed, moves_text)
    check(data, str(path))
    target = Path(path)
    try:
        write_atomic(target, json_text(data))
    except OSError as error:
        from plyground.gui.storage.write_problems import reason

        failure = SaveError(
            f"cannot write {target}: {reason(error)}; free some space in {target.parent} "
            "or choose another folder"
        )
        failure.os_error = error
        raise failure from None
    return target


def autosave_to(path: str | os.PathLike[str], data: dict[str, Any]) -> bool:
    """Write the autosave (`save_game`'s keywords in `data`); whether it was written.

    A disk that refuses is reported to `gui.storage.write_problems.WRITES` (the window says it
    once, and again when a later autosave works); the caller tries again later.
    """
    from plyground.gui.storage.write_problems import WRITES

    try:
        save_game(path, **data)
    except SaveError as error:
        if error.os_error is not None:
            WRITES.failed("autosave", path, error.os_error)
        return False
    WRITES.worked("autosave")
    return True


# -------------------------------------------------------------------------- reading


def load_game(path: str | os.PathLike[str]) -> SavedGame:
    """Read and check a save file; SaveError naming the file and the problem otherwise.

    The file goes through `plyground.file_reader`: a regular file (never a FIFO or a device),
    at most `MAX_BYTES`, UTF-8 with or without a byte-order mark, bounded nesting and numbers.
    """
    try:
        text = read_text(path, MAX_BYTES, "Plyground save")
    except FileProblem as error:
        raise SaveError(str(error)) from None
    return parse(text, str(path))


def game_file_of(path: str | os.PathLike[str]) -> tuple[str, dict[str, Any]] | None:
    """The game from a file a save names and its options, where it is one not loaded yet
    (so a caller may check it in a process of its own first); None otherwise, or where the
    file cannot be read (`load_game` then says why)."""
    from plyground import games
    from plyground.games.from_file import is_spec

    try:
        data = parse_json(
            read_text(path, MAX_BYTES, "Plyground save"),
            str(path),
            max_string=MAX_TEXT,
            what="Plyground save",
        )
    except FileProblem:
        return None
    name = data.get("game") if isinstance(data, dict) else None
    options = data.get("options", {}) if isinstance(data, dict) else None
    if not isinstance(name, str) or not isinstance(options, dict) or name in games.GAMES:
        return None
    return (name, options) if is_spec(name) else None


def parse(text: str, source: str = "save file") -> SavedGame:
    """A SavedGame from the file's text (see `load_game`)."""
    try:
        data = parse_json(text, source, max_string=MAX_TEXT, what="Plyground save")
    except FileProblem as error:
        raise SaveError(str(error)) from None
    return check(data, source)


def _fail(source: str, why: str) -> SaveError:
    return SaveError(f"{source}: {why}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check(data: Any, source: str = "save file") -> SavedGame:
    """Check every field of parsed save data and replay its moves; SaveError if anything is off."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _fail(source, f'not a Plyground save (expected "format": "{FORMAT}")')
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise _fail(source, f"save version {shown(version)} is not supported (only {VERSION})")
    game = _check_game(data, source)
    players = data.get("players") or [{"kind": "human"}, {"kind": "human"}]  # none: two people
    if not isinstance(players, list) or len(players) != 2:
        raise _fail(source, '"players" must be a list of two players (or empty)')
    checked = [_check_player(p, i, game, source) for i, p in enumerate(players)]
    try:
        seed = SEED.take(data, source, default=0)
        moves_text = MOVES.take(data, source, default="")
    except FileProblem as error:
        raise SaveError(str(error)) from None
    moves, state = replay_text(game, moves_text, source)
    saved_at = data.get("saved_at")
    return SavedGame(
        game_name=game.name,
        options=dict(data.get("options", {})),
        players=checked,
        seed=seed,
        moves_text=game.format_moves(moves),
        game=game,
        moves=moves,
        state=state,
        saved_at=saved_at[:40] if isinstance(saved_at, str) else None,
    )


def _check_game(data: dict[str, Any], source: str) -> Any:
    """The game of a save, made with its options, each checked against the game's range."""
    from plyground import games

    name = data.get("game")
    if not isinstance(name, str):
        allowed = ", ".join(games.GAMES)
        raise _fail(source, f'"game" must be the name of a game ({allowed}), not {shown(name)}')
    if name not in games.GAMES and not _game_file(name):
        raise _fail(
            source, f"unknown game {shown(name)}; allowed: {', '.join(games.builtin_names())}"
        )
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise _fail(source, '"options" must be an object of the game\'s options, e.g. {"goal": 50}')
    if name not in games.GAMES or games.is_from_file(name):
        name = _load_game_file(name, options, source)
    factory: Any = games.GAMES[name]
    if games.is_from_file(name):
        try:
            return games.get_game(name, **options)
        except Exception as error:
            raise _fail(
                source, f"cannot make {factory.title} with options {options}: {error}"
            ) from None
    described = {option.name: option for option in factory.options}
    unknown = sorted(set(options) - set(described))
    if unknown:
        raise _fail(
            source,
            f"unknown option(s) {', '.join(map(shown, unknown))} for {name}; "
            f"allowed: {', '.join(sorted(described)) or 'none'}",
        )
    for key, value in options.items():
        option = described[key]
        try:
            option.check(value)
        except (TypeError, ValueError):
            raise _fail(
                source,
                f"{option.name} {shown(value)} is not allowed: "
                f"use {option.minimum}-{option.maximum}",
            ) from None
    try:
        return games.get_game(name, **options)
    except (TypeError, ValueError) as error:
        raise _fail(source, f"cannot make {name} with options {options}: {error}") from None


def _game_file(name: str) -> bool:
    """Whether a save's game names a game in a file (``/path/nim.py:Nim``)."""
    from plyground.games.from_file import is_spec

    return is_spec(name)


def _load_game_file(name: str, options: dict[str, Any], source: str) -> str:
    """Load the game file a save was played with, checked with the save's options (its code
    runs with the user's rights)."""
    from plyground import games
    from plyground.games.from_file import GameCodeError

    try:
        return games.resolve(name, options)
    except (GameCodeError, ValueError) as error:
        raise _fail(source, f"its game cannot be loaded: {error}") from None


MAX_SAVED_MOVES = 10_000
"""The most moves (dice throws included) a saved game may hold: far more than any game takes
to its end (the longest dice race, to its highest goal, about a thousand), and few enough that
opening one, its move list and its review never hold up a frame."""


def replay_text(game: Game[Any], moves_text: str, source: str = "moves") -> tuple[list[Any], Any]:
    """Parse and replay moves; SaveError naming the move's number and text if one is bad, or
    saying the bound when there are more than `MAX_SAVED_MOVES`."""
    try:
        moves = list(game.parse_moves(moves_text))
    except ValueError as error:
        raise _fail(source, f"{game.name} moves: {error}") from None
    if len(moves) > MAX_SAVED_MOVES:
        most = f"a saved game holds at most {MAX_SAVED_MOVES:,}"
        raise _fail(source, f"{len(moves):,} moves (dice included): {most}")
    try:
        state = game.replay(moves)
    except ValueError as error:
        raise _fail(source, f"{game.name} moves: {error}") from None
    return moves, state


def _check_player(player: Any, index: int, game: Game[Any], source: str) -> dict[str, Any]:
    """One player entry: {"kind": "human"} or {"kind": "ai", "preset": ..., "config": {...}}."""
    where = f"player {index + 1}"
    if not isinstance(player, dict):
        raise _fail(source, f'{where} must be an object such as {{"kind": "human"}}')
    kind = player.get("kind")
    if kind == "human":
        return {"kind": "human"}
    if kind != "ai":
        raise _fail(source, f'{where}: kind {shown(kind)} is not allowed; use "human" or "ai"')
    from plyground.ai.players.players import PlayerConfig, player_from_dict
    from plyground.gui.storage.settings import preset_named, preset_names

    preset = player.get("preset")
    presets = preset_names(game.name)
    if preset is not None:
        wanted = preset.lower() if isinstance(preset, str) else None
        match = next((p for p in presets if p.lower() == wanted), None)
        if match is None:
            raise _fail(
                source,
                f"{where}: unknown preset {shown(preset)} for {game.name}; "
                f"allowed: {', '.join(presets)} or null",
            )
        preset = match
    raw_config = player.get("config")
    if raw_config is None:
        if preset is None:
            raise _fail(source, f'{where}: an AI needs a "preset" or a "config"')
        named = preset_named(game.name, preset)
        if named is None:  # checked above: the game has this preset
            raise _fail(source, f"{where}: unknown preset {shown(preset)} for {game.name}")
        config: PlayerConfig = named
    else:
        try:
            config = player_from_dict(raw_config)
            config.validate(game)
        except (TypeError, ValueError, AttributeError, OverflowError) as error:
            raise _fail(source, f"{where}: {str(error)[:200]}") from None
    return {"kind": "ai", "preset": preset, "config": config.to_dict()}
