"""`new-game`: write a small runnable game file to edit, in one of the three styles."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from plyground.cli.args import UsageError, add_command


def command_new_game(args: argparse.Namespace) -> int:
    """Write the starter, load it once to show it works, and print what to run next."""
    import re

    from plyground import games
    from plyground.games.from_file.starters import (
        NIM_RULES,
        STARTERS,
        class_name_for,
        is_nim,
        name_title,
        starter,
    )

    given = Path(args.name)
    if not given.name:  # "", "." or "/": a folder at most
        raise UsageError(
            f"{args.name!r} names no file: give the game's name, e.g. plyground new-game kalah"
        )
    stem = re.sub(r"\W+", "_", given.name.removesuffix(".py")).strip("_") or "my_game"
    path = given.with_name(f"{stem}.py")
    if path.exists() and not args.force:
        raise UsageError(f"{path} exists already: pick another name, or give --force to replace it")
    if args.style not in STARTERS:
        raise UsageError(f"unknown style {args.style!r}; choose one of: {', '.join(STARTERS)}")
    name = class_name_for(path.name)
    try:
        path.write_text(starter(args.style, name, str(path)), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
    from plyground.games.from_file import load

    factory = load(str(path))
    game = games.get_game(str(path))
    out = sys.stdout
    written = f"a class {name} written for {factory.style_class.title}"
    wanted = name_title(name)
    if is_nim(wanted):
        out.write(f"Wrote {path}: {game.title} ({written}).\n")
        out.write("Edit its rules, then try it:\n")
    else:
        out.write(f"Wrote {path}: a Nim to turn into {wanted} ({written}).\n")
        out.write(f"It plays Nim as it is ({NIM_RULES}): make it {wanted}, then try it:\n")
    for line in (
        f"plyground match --game {path} --p1 hard --p2 random --games 10",
        f"plyground trace --game {path} --depth 3",
        f"plyground compare --game {path} --depth 1-4",
        f"plyground exercise alphabeta my_search.py --game {path}",
        f'plyground tournament --game {path} --players "easy,medium,hard,random"',
        'plyground   (the window: "Open a game..." on the menu)',
    ):
        out.write(f"  {line}\n")
    out.write("docs/YOUR-GAME.md says what else a game may define (a grid, heuristics, chance).\n")
    return 0


def add_parser(commands: Any) -> None:
    """The `new-game` subcommand's arguments."""
    parser = add_command(
        commands,
        "new-game",
        "write a starter game file to edit",
        "Write NAME.py: a small game that runs as it is, Nim (named NAME, and said to be a Nim "
        "to turn into NAME), for you to turn into your own. "
        "Plyground reads a game written to its own protocol, to aima-python's Game or to "
        "easyAI's TwoPlayerGame; every command and the window take it with --game NAME.py.",
        """examples:
  plyground new-game kalah
  plyground new-game hexapawn --style aima
  plyground new-game my_nim --style easyai""",
    )
    parser.add_argument("name", metavar="NAME", help="the file to write (NAME.py)")
    parser.add_argument(
        "--style",
        default="protocol",
        metavar="STYLE",
        help="protocol (default: Plyground's own), aima (aima-python's Game) or easyai "
        "(easyAI's TwoPlayerGame)",
    )
    parser.add_argument("--force", action="store_true", help="replace NAME.py if it exists")
    parser.set_defaults(handler=command_new_game)
