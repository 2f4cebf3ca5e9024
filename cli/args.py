"""The shared argument layer: the one-line-error parser, value parsers, game and output helpers.

Every subcommand builds its arguments from these, so a bad value reads the same everywhere:
one line on stderr naming the option and what is allowed, exit status 2.  Game options
(a target score, ...) become flags from the registered games' descriptions, so nothing here
names a game.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import textwrap
from typing import IO, Any, NoReturn

from plyground.ai.engine.search import MAX_DEPTH, playing_algorithms
from plyground.ai.evaluation.wording import counted
from plyground.games.base import Game

PROG = "plyground"


ECHO_LIMIT = 600
"""Characters of one word of an argument echoed in an error; longer ones are cut in the middle."""
MESSAGE_LIMIT = 1_500
"""Characters of a whole error line; a longer one is cut in the middle."""


def shortened(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` with its middle cut out when longer than `limit`: "abc…(100,000 characters)…xyz"."""
    if len(text) <= limit:
        return text
    keep = max(8, limit // 2 - 16)
    return f"{text[:keep]}…({len(text):,} characters)…{text[-keep // 2 :]}"


def shortened_message(message: str) -> str:
    """An error line with every overlong word and the line itself shortened (`shortened`)."""
    words = re.split(r"(\s+)", message)
    short = "".join(
        (word if len(word) <= ECHO_LIMIT else " ") if word.isspace() else shortened(word)
        for word in words
    )
    return shortened(short, MESSAGE_LIMIT)


class UsageError(Exception):
    """A bad argument or input: reported as one line on stderr, exit status 2.

    The message is shortened (`shortened_message`): a 100,000-character argument is named
    by its start, its length and its end, not echoed whole.
    """

    def __init__(self, message: object = "") -> None:
        super().__init__(shortened_message(str(message)))


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (no usage dump) raised as UsageError."""

    def error(self, message: str) -> NoReturn:
        """Turn argparse's complaint into a UsageError naming the command."""
        raise UsageError(f"{self.prog}: {message} (see --help)")


# --------------------------------------------------------------------------- values


def _whole_number(text: str) -> int:
    """`text` as an int, or an argparse complaint."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def positive_int(text: str) -> int:
    """An integer >= 1."""
    value = _whole_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not allowed: use a whole number of 1 or more")
    return value


def nonnegative_int(text: str) -> int:
    """An integer >= 0 (seeds)."""
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not allowed: use a whole number of 0 or more")
    return value


def depth_arg(text: str) -> int | None:
    """A search depth 1..MAX_DEPTH, or 'solve' for no limit."""
    if text.lower() in ("solve", "none", "max"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a depth: use 1-{MAX_DEPTH} or 'solve'"
        ) from None
    if not 1 <= value <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(
            f"depth {value} is out of range: use 1-{MAX_DEPTH} or 'solve'"
        )
    return value


def seconds_arg(text: str) -> float:
    """A positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text} is not allowed: use a number of seconds above 0")
    return value


def size_arg(text: str) -> tuple[int, int]:
    """A window size WIDTHxHEIGHT."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: use WIDTHxHEIGHT, e.g. 1280x800")
    width, height = int(match[1]), int(match[2])
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(
            f"size {width}x{height} is out of range: 320x240 to 7680x4320"
        )
    return width, height


def option_assignment(text: str) -> tuple[str, str]:
    """`--option NAME=VALUE`: a game option by name; the value is read for the game chosen (a
    whole number for a built-in game, a Python literal for a game from a file)."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE, e.g. goal=50")
    return name.strip(), value.strip()


# --------------------------------------------------------------------------- games

GAME_HELP = "FILE.py, FILE.py:CLASS or MODULE:CLASS for a game of your own (docs/YOUR-GAME.md)"


def game_names() -> list[str]:
    """The built-in games (a game from a file is named by its file)."""
    from plyground import games

    return games.builtin_names()


def game_options() -> dict[str, list[tuple[str, Any]]]:
    """Every option a built-in game takes: name -> [(game name, GameOption), ...]."""
    from plyground import games

    found: dict[str, list[tuple[str, Any]]] = {}
    for name in games.builtin_names():
        for option in getattr(games.GAMES[name], "options", ()):
            found.setdefault(option.name, []).append((name, option))
    return found


def _flag(option_name: str) -> str:
    """The command-line flag of a game option."""
    return "--" + option_name.replace("_", "-")


def add_game_arguments(
    parser: argparse.ArgumentParser, required: bool = True, default: str | None = None
) -> None:
    """--game, one flag per game option of any built-in game, and --option NAME=VALUE."""
    parser.add_argument(
        "--game",
        required=required,
        default=default,
        metavar="GAME",
        help=f"the game: {', '.join(game_names())}, or {GAME_HELP}",
    )
    for name, takers in game_options().items():
        option = takers[0][1]
        games_with_it = ", ".join(game for game, _ in takers)
        parser.add_argument(
            _flag(name),
            dest=f"game_option_{name}",
            type=_whole_number,
            metavar="N",
            help=f"{games_with_it} only: {option.help} "
            f"({option.minimum}-{option.maximum}, default {option.default})",
        )
    add_option_argument(parser)


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """`--option NAME=VALUE` (repeatable): a game's option, read for the game chosen."""
    parser.add_argument(
        "--option",
        dest="game_option_list",
        action="append",
        type=option_assignment,
        metavar="NAME=VALUE",
        default=[],
        help="a game option by name, e.g. --option goal=50; for a game from a file, any "
        'keyword its class takes, as a Python literal: --option "piles=(1,2,3)"',
    )


def options_given(args: argparse.Namespace) -> dict[str, Any]:
    """The game options on the command line (own flags and --option), as given: read for
    the chosen game by `check_options`."""
    chosen: dict[str, Any] = dict(getattr(args, "game_option_list", []))
    for name in game_options():
        value = getattr(args, f"game_option_{name}", None)
        if value is not None:
            chosen[name] = value
    return chosen


def game_name(text: str, options: dict[str, Any] | None = None) -> str:
    """The registry name of `--game`'s value, loading a game from a file as the window does:
    checked first in a process of its own (`games.from_file.check`: a file that loops or ends
    Python while it loads is one line after at most 30 s), then loaded here, both with the
    game's `options` (Python literals, or their text).  UsageError if it cannot be: no such
    game, file, class or option, an import or a method that fails."""
    from plyground import games
    from plyground.games.from_file import GameCodeError, is_spec, literal_option
    from plyground.games.from_file.check import check_apart

    given = {
        key: literal_option(value) if isinstance(value, str) else value
        for key, value in (options or {}).items()
    }
    try:
        if text not in games.GAMES and is_spec(text):
            outcome = check_apart(text, given)
            if "error" in outcome:
                raise UsageError(outcome["error"])
        return games.resolve(text, given if is_spec(text) else None)
    except GameCodeError as error:
        raise UsageError(str(error)) from None
    except ValueError as error:
        raise UsageError(str(error)) from None


def check_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """`options` read and checked against the game `name`'s description: each taken and in
    range (a built-in game's are whole numbers; a file's class takes Python literals)."""
    from plyground import games

    factory = games.GAMES[name]
    if games.is_from_file(name):
        from plyground.games.from_file import literal_option

        takes = getattr(factory, "option_defaults", {})
        read = {}
        for key, value in options.items():
            if key not in takes:
                offered = ", ".join(takes) or "none"
                raise UsageError(
                    f"--option {key}: {getattr(factory, 'title', name)} takes no such option "
                    f"(options: {offered})"
                )
            read[key] = literal_option(value) if isinstance(value, str) else value
        return read
    described = {option.name: option for option in getattr(factory, "options", ())}
    checked = {}
    for key, value in options.items():
        option = described.get(key.lower())
        if option is None:
            takers = ", ".join(game for game, _ in game_options().get(key.lower(), []))
            if not takers:
                names = ", ".join(game_options()) or "none"
                raise UsageError(f"--option {key}: no game takes this option (options: {names})")
            raise UsageError(f"{_flag(key)} applies only to {takers}, not to {name}")
        try:
            number = _whole_number(value) if isinstance(value, str) else value
            checked[option.name] = option.check(number)
        except (ValueError, argparse.ArgumentTypeError) as error:
            raise UsageError(f"{_flag(key)} {value}: {error}") from None
    return checked


def make_game(name: str, options: dict[str, Any] | None = None) -> Any:
    """The game `name` (a built-in name or a game file) with its options, each checked
    against the game's description."""
    from plyground import games
    from plyground.games.from_file import GameCodeError

    name = game_name(name, options)
    settings = check_options(name, dict(options or {}))
    try:
        return games.get_game(name, **settings)
    except GameCodeError as error:
        raise UsageError(str(error)) from None
    except (TypeError, ValueError) as error:
        raise UsageError(f"cannot make game {name!r} with options {settings}: {error}") from None


def game_from_args(args: argparse.Namespace) -> tuple[Any, dict[str, Any]]:
    """The game of `--game` with the options given; also the options, for setups and saves."""
    game = make_game(args.game, options_given(args))
    args.game = game.name
    return game, game.option_values()


def read_position(game: Game[Any], text: str) -> tuple[list[Any], Any]:
    """The moves in `text` (the game's notation) and the position they reach.

    The games check move text by replaying it, so a malformed or illegal move (a player's move
    at a die roll, a move after the end) is refused naming its number and its text.
    """
    try:
        moves = list(game.parse_moves(text))
        return moves, game.replay(moves)
    except ValueError as error:
        raise UsageError(f"{game.name} moves {text!r}: {error}") from None


def check_spec(game: Game[Any], spec: str, option: str) -> str:
    """Validate a player spec; return its description."""
    from plyground.ai.players.match import check_player_spec

    try:
        return check_player_spec(game, spec)
    except ValueError as error:
        raise UsageError(f"{option} {spec!r}: {error}") from None


def check_heuristic_cost(game: Game[Any], heuristic: str | None) -> None:
    """Refuse a heuristic (None: the game's default) that reads something the game's
    options make too large to build on this machine (`ai.engine.cost.heuristic_refusal`)."""
    from plyground.ai.engine.cost import heuristic_refusal

    refusal = heuristic_refusal(game, heuristic)
    if refusal is not None:
        name = heuristic or getattr(game, "default_heuristic", "")
        raise UsageError(f"--heuristic {name}: cannot run on this machine: {refusal}")


def worker_count(jobs: int, work: int) -> int:
    """--jobs capped at the work and at this machine's cores: more processes than games or
    cores only wait (`--jobs 64` for 2 games starts 2)."""
    import os

    return max(1, min(jobs, work, os.cpu_count() or 1))


def check_games_cost(
    game: Game[Any], specs: Any, games: int, jobs: int, yes: bool = False, quiet: bool = False
) -> float:
    """Estimate `games` games between the players `specs` before they start (`ai.engine.cost`):
    refused past `LONG_REQUEST_SECONDS` unless `yes`, said on stderr past `WARN_SECONDS`.
    Returns the estimate in seconds."""
    from plyground.ai.engine import cost
    from plyground.ai.players.match import parsed_spec
    from plyground.cli.console import console_for, say

    configs = [parsed_spec(game, spec) for spec in specs]
    seconds = cost.games_seconds(game, configs, games, jobs)
    workers = counted(jobs, "worker process")
    size = f"{counted(games, 'game')} would take about {cost.format_duration(seconds)} on {workers}"
    if seconds > cost.LONG_REQUEST_SECONDS and not yes:
        raise UsageError(
            f"{size} (estimated); give --yes to play them anyway (Ctrl+C stops them), "
            "or fewer --games, or faster players"
        )
    if seconds > cost.WARN_SECONDS and not quiet:
        say(console_for(stderr=True), f"{size} (estimated); Ctrl+C stops them")
    return seconds


def read_save(path: str) -> Any:
    """A save file written by the window, checked field by field and replayed
    (gui.storage.savefile); a game from a file it names checked first in a process of its
    own, with the save's options (`game_name`)."""
    from plyground.games.from_file.check import check_apart
    from plyground.gui.storage.savefile import SaveError, game_file_of, load_game

    game_file = game_file_of(path)
    if game_file is not None:  # checked in a process of its own first, as --game is
        outcome = check_apart(*game_file)
        if "error" in outcome:
            raise UsageError(f"--load {path}: its game cannot be loaded: {outcome['error']}")
    try:
        return load_game(path)
    except SaveError as error:
        raise UsageError(f"--load {error}") from None


# --------------------------------------------------------------------------- output files


def json_text(data: Any) -> str:
    """`data` as indented strict JSON (NaN and infinity become null) and a newline."""
    return json.dumps(finite(data), indent=2) + "\n"


def dump_json(data: Any, out: IO[str]) -> None:
    """`data` as indented strict JSON and a newline."""
    json.dump(finite(data), out, indent=2)
    out.write("\n")


def finite(data: Any) -> Any:
    """A copy of `data` with NaN and infinities replaced by None (strict JSON)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: finite(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [finite(value) for value in data]
    return data


# --------------------------------------------------------------------------- help texts


def wrap(text: str) -> str:
    """A help paragraph wrapped for an 88-column terminal (the help formatter keeps it as is)."""
    return textwrap.fill(text, 88)


def games_help() -> str:
    """For each game: notation, options, presets, algorithms and heuristics (help epilogs)."""
    from plyground import games

    lines = ["games, their notation and valid names:"]
    for name in games.builtin_names():
        factory = games.GAMES[name]
        game = games.get_game(name)
        presets = ", ".join(preset.name.lower() for preset in getattr(factory, "presets", ()))
        lines.append(f"  {name} ({game.title}):")
        lines.append(f"    notation:    {getattr(factory, 'notation_help', '-')}")
        for option in getattr(factory, "options", ()):
            lines.append(
                f"    option:      {_flag(option.name)} N  {option.help} "
                f"({option.minimum}-{option.maximum}, default {option.default})"
            )
        lines.append(f"    presets:     {presets or '-'}, random")
        lines.append(f"    algorithms:  {', '.join(playing_algorithms(game))}")
        lines.append(
            f"    heuristics:  {', '.join(game.heuristics)} (default {game.default_heuristic})"
        )
    lines.append(f"  or {GAME_HELP}: --game nim.py, --game easyAI.games:Nim")
    return "\n".join(lines)


def add_command(
    commands: Any, name: str, summary: str, description: str, epilog: str
) -> argparse.ArgumentParser:
    """A subcommand parser with the shared layout: a wrapped description, epilog kept as is."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=wrap(description),
        epilog=epilog,
    )
    return parser


def example_moves(game: Game[Any], count: int) -> str:
    """`count` legal moves from the start in the game's notation, for help examples."""
    state = game.initial_state()
    moves: list[Any] = []
    while len(moves) < count and not state.is_terminal():
        legal = state.legal_moves()
        moves.append(legal[len(moves) % len(legal)])
        state = state.play(moves[-1])
    return str(game.format_moves(moves))


def game_examples(template: str) -> list[str]:
    """One help example per registered game: `template` filled with {game} (name and any
    options), {moves}, {strong}, {weak} and {players} from the game's description."""
    import shlex

    from plyground import games

    lines = []
    for name in games.builtin_names():
        factory = games.GAMES[name]
        game = games.get_game(name)
        options = "".join(
            f" {_flag(option.name)} {min(option.maximum, 3 * option.minimum)}"
            for option in getattr(factory, "options", ())
        )
        presets = [preset.name.lower() for preset in getattr(factory, "presets", ())]
        algorithm = "expectiminimax" if game.stochastic else "alphabeta"
        strong = presets[-1] if presets else f"{algorithm}:depth=2"
        weak = presets[0] if len(presets) > 1 else "random"
        lines.append(
            "  "
            + template.format(
                game=f"--game {name}{options}",
                moves=shlex.quote(example_moves(game, 4)),
                strong=strong,
                weak=weak,
                players=",".join([*presets, "random"]),
            )
        )
    return lines


# --------------------------------------------------------------------------- students' code


class _SandboxAction(argparse.Action):
    """--sandbox MODE: chosen at once for this process and every worker it starts; ``required``
    on a machine without bubblewrap is refused here, in one line."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from plyground.ai.student_code.sandbox import (
            SandboxUnavailable,
            check_sandbox_available,
            set_sandbox_mode,
        )

        set_sandbox_mode(str(values))
        try:
            check_sandbox_available()
        except SandboxUnavailable as error:
            raise UsageError(str(error)) from None
        setattr(namespace, self.dest, values)


def add_sandbox_argument(parser: argparse.ArgumentParser) -> None:
    """The --sandbox option of a command that runs students' code."""
    from plyground.ai.student_code.sandbox import SANDBOX_MODES

    parser.add_argument(
        "--sandbox",
        choices=SANDBOX_MODES,
        action=_SandboxAction,
        help="where students' files run: auto (default; inside bubblewrap where it is "
        "installed: own PID namespace, no network, read-only files), required (refuse "
        "without bubblewrap), off (a plain process in its own session)",
    )
