"""Plyground's terminal commands: one module per subcommand over a shared argument layer.

    plyground analyze ...       value every move of a position        (cli.analyze_command)
    plyground review ...        a game's values, best moves, mistakes (cli.review_command)
    plyground hint ...          the window's Hint for a position      (cli.hint_command)
    plyground match ...         two players, N games, a scored match  (cli.match_command)
    plyground tournament ...    round robin, cross table, Elo         (cli.tournament_command)
    plyground bench ...         search speed on fixed positions       (cli.bench)
    plyground exercise ...      grade your own minimax / alpha-beta   (cli.exercise_command)
    plyground screenshot ...    a scene of the window as a PNG        (cli.screenshot_command)
    plyground --version         the installed version

A bad argument, or a file that cannot be read or written, prints one line on stderr (what
is wrong and what is allowed, or the file and the reason) and exits with status 2; every
output file goes through cli.output (checked before the work, written whole after it).
Nothing prints a traceback unless PLYGROUND_DEBUG=1 is set.  pygame and
the GUI are imported only by the commands that draw.
"""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Sequence
from typing import Any

from plyground import __version__
from plyground.cli import (
    analyze_command,
    bench,
    compare_command,
    exercise_command,
    hint_command,
    match_command,
    new_game_command,
    policy_command,
    review_command,
    screenshot_command,
    streams,
    tournament_command,
    trace_command,
)
from plyground.cli.args import PROG, OneLineParser, UsageError, wrap
from plyground.cli.console import console_for, say

COMMANDS = (
    analyze_command,
    review_command,
    hint_command,
    match_command,
    tournament_command,
    bench,
    trace_command,
    compare_command,
    exercise_command,
    policy_command,
    screenshot_command,
    new_game_command,
)
"""One module per subcommand, named `<command>_command.py` (a package, `bench`, where a command
holds several benchmarks), in the order --help lists them;
each has `add_parser`."""


def build_parser() -> OneLineParser:
    """The argument parser of every subcommand (game flags from the games registered now)."""
    from plyground import games

    titles = ", ".join(getattr(factory, "title", name) for name, factory in games.GAMES.items())
    parser = OneLineParser(
        prog=PROG,
        description=wrap(
            f"Plyground: {titles} against search AIs. With no arguments it opens the window."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="run 'plyground COMMAND --help' for each command's options and examples",
    )
    parser.add_argument(
        "--version", action="version", version=f"{PROG} {__version__}", help="print the version"
    )
    commands = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", parser_class=OneLineParser
    )
    for command in COMMANDS:
        command.add_parser(commands)
    return parser


def run(arguments: Sequence[str]) -> int:
    """Run one terminal command; returns the exit status (2 for bad arguments, and for a game
    file whose code fails)."""
    notes = streams.prepare()
    errors = console_for(stderr=True)
    for note in notes:
        say(errors, f"{PROG}: {note}")
    from plyground.games.from_file.guard import GameFileWarning

    with warnings.catch_warnings():
        warnings.simplefilter("always", GameFileWarning)  # each is said once (`warn_once`)
        shown = warnings.showwarning

        def show(message: Any, category: Any, *rest: Any, **keywords: Any) -> None:
            if issubclass(category, GameFileWarning):  # a game file's quirk: one line
                say(errors, f"{PROG}: warning: {message}".replace("\n", " "), style="yellow")
            else:
                shown(message, category, *rest, **keywords)

        warnings.showwarning = show
        return _run(arguments, errors)


def _run(arguments: Sequence[str], errors: Any) -> int:
    """`run`'s command, its failures each one line on `errors`."""
    from plyground.games.from_file import GameCodeError
    from plyground.games.from_file.guard import watch

    watch()  # a game file's method that loops fails after a while, the command goes on
    try:
        args = build_parser().parse_args(list(arguments))
        if args.command is None:
            names = [
                command.__name__.rpartition(".")[2].removesuffix("_command").replace("_", "-")
                for command in COMMANDS
            ]
            raise UsageError(
                f"{PROG}: choose a command: {', '.join(names[:-1])} or {names[-1]} (see --help)"
            )
        return int(args.handler(args))
    except UsageError as error:
        message = str(error)
        if not message.startswith(PROG):
            message = f"{PROG}: {message}"
        say(errors, message.replace("\n", " "), style="red")
        return 2
    except GameCodeError as error:  # a game file's own code failed: its one line
        say(errors, f"{PROG}: {error}".replace("\n", " "), style="red")
        return 2
    except SystemExit as stop:  # --help and --version exit through argparse
        return stop.code if isinstance(stop.code, int) else 0
    except KeyboardInterrupt:
        say(errors, f"{PROG}: interrupted")
        return 130
    except Exception as error:
        if isinstance(error, OSError) and streams.is_output_failure(error):
            message = streams.write_failed(error)
            if message:
                say(errors, f"{PROG}: {message}", style="red")
            return 1 if message else 0
        if os.environ.get("PLYGROUND_DEBUG"):
            raise
        if isinstance(error, OSError) and error.filename:  # a file the machine refused
            from plyground.cli.output import reason

            say(errors, f"{PROG}: {error.filename}: {reason(error)}", style="red")
            return 2
        text = str(error).replace("\n", " ")
        say(
            errors,
            f"{PROG}: internal error: {type(error).__name__}: {text} "
            "(set PLYGROUND_DEBUG=1 for details)",
            style="red",
        )
        return 1
