"""`screenshot`: render one scene of the window to a PNG without a display."""

from __future__ import annotations

import argparse
import os
from typing import Any

from plyground.ai.engine.search import PLAYING_ALGORITHMS
from plyground.cli.args import (
    UsageError,
    add_command,
    add_game_arguments,
    game_examples,
    game_from_args,
    game_names,
    games_help,
    nonnegative_int,
    positive_int,
    read_position,
    size_arg,
)
from plyground.cli.console import console_for, say
from plyground.cli.output import check_png_path
from plyground.gui.screenshot import SCENES  # what it can draw (no pygame at import)
from plyground.gui.storage.settings import PALETTE_NAMES

WITHOUT_GAME = ("menu", "lesson")
"""Scenes that show no particular game: --game is optional (the menu highlights the first)."""


def command_screenshot(args: argparse.Namespace) -> int:
    """`screenshot`: render one scene of the window to a PNG without a display."""
    if args.game is None:
        if args.scene not in WITHOUT_GAME:
            raise UsageError(f"--scene {args.scene} shows a game: say which with --game")
        args.game = game_names()[0]
    game, options = game_from_args(args)
    moves, _ = read_position(game, args.moves)
    output = check_png_path(args.out, "--out")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        from plyground.gui import screenshot
    except ImportError as error:
        raise UsageError(f"screenshot: the GUI is not available ({error})") from None
    import pygame

    options = {**options, "palette": args.palette, **_view_options(args)}

    def render(path: str) -> None:
        screenshot.render(args.scene, game.name, game.format_moves(moves), path, args.size, options)

    output.write_with(render, (pygame.error,))
    shown = args.scene if args.scene in WITHOUT_GAME else f"{args.scene} scene of {game.title}"
    say(console_for(), f"{shown} written to {args.out}")
    return 0


def _view_options(args: argparse.Namespace) -> dict[str, Any]:
    """The explorer's, the lessons' and Compare's options, checked (one line when wrong)."""
    from plyground.gui.explorer.practice import EDITOR

    views = ("explorer", "lesson", "compare")
    given = [
        name
        for name in (
            "algorithm",
            "depth",
            "lesson",
            "step",
            "tree",
            "variant",
            "iterations",
            "seed",
            "c",
        )
        if getattr(args, name) not in (None, False)
    ]
    if given and args.scene not in views:
        raise UsageError(f"--{given[0]} is for --scene explorer, lesson or compare")
    mcts_only = [f"--{name}" for name in ("iterations", "seed", "c") if name in given]
    if mcts_only and not _mcts_shown(args):
        what = mcts_only[0]
        raise UsageError(f"{what} goes with --algorithm mcts (or an MCTS lesson)")
    if args.lesson is not None and not 1 <= args.lesson <= EDITOR + 1:
        raise UsageError(
            f"--lesson must be 1 to {EDITOR + 1} ({EDITOR} practice, {EDITOR + 1} your own tree)"
        )
    if args.tree is not None:
        from plyground.games.trees.text import TreeTextError, parse_tree

        if args.scene != "lesson" or args.lesson != EDITOR + 1:
            raise UsageError(f"--tree goes with --scene lesson --lesson {EDITOR + 1}")
        try:
            parse_tree(args.tree)
        except TreeTextError as error:
            raise UsageError(str(error)) from None
    chosen = {name: getattr(args, name) for name in given}
    if "seed" in chosen:  # the playouts' seed (a play scene's "seed" is the game's own)
        chosen["mcts_seed"] = chosen.pop("seed")
    if "c" in chosen:
        chosen["exploration"] = chosen.pop("c")
    return chosen


def exploration_constant(text: str) -> float:
    """--c: UCB1's exploration constant, a number 0 to 100 (argparse says so otherwise)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number 0 to 100, not {text!r}") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"a number 0 to 100, not {text}")
    return value


def _mcts_shown(args: argparse.Namespace) -> bool:
    """Whether the view asked for shows Monte Carlo tree search (asked for, or its lesson)."""
    if args.algorithm is not None or args.scene != "lesson":
        return bool(args.algorithm == "mcts")
    from plyground.games.trees.examples import TRACE_LESSONS

    index = (args.lesson or 1) - 1
    return index < len(TRACE_LESSONS) and TRACE_LESSONS[index].algorithm == "mcts"


def add_parser(commands: Any) -> None:
    """The `screenshot` subcommand's arguments."""
    lines = game_examples("plyground screenshot --scene play {game} --moves {moves} --out play.png")
    lines.append("plyground screenshot --scene menu --out menu.png --size 1920x1080")
    lines.append("plyground screenshot --scene lesson --lesson 1 --step 20 --out lesson.png")
    examples = "\n".join(lines)
    screenshot = add_command(
        commands,
        "screenshot",
        "render a scene of the window to a PNG (no display needed)",
        "Draw one scene of the window offscreen and save it as a PNG.",
        f"""scenes: {", ".join(SCENES)}

examples:
{examples}

{games_help()}""",
    )
    screenshot.add_argument("--scene", choices=SCENES, required=True, help="which scene")
    add_game_arguments(screenshot, required=False)
    screenshot.add_argument("--moves", default="", help="moves played, in the game's notation")
    screenshot.add_argument(
        "--out", required=True, metavar="FILE.png", help="where to write the PNG"
    )
    screenshot.add_argument(
        "--size",
        type=size_arg,
        default=(1280, 800),
        help="window size WIDTHxHEIGHT (default 1280x800)",
    )
    screenshot.add_argument("--algorithm", choices=PLAYING_ALGORITHMS, help="explorer, lesson")
    screenshot.add_argument(
        "--iterations",
        type=positive_int,
        help="explorer, lesson with --algorithm mcts: the iterations MCTS runs (default 100; "
        "a lesson: its own)",
    )
    screenshot.add_argument(
        "--seed",
        type=nonnegative_int,
        help="explorer, lesson with --algorithm mcts: the seed of its playouts (default 0)",
    )
    screenshot.add_argument(
        "--c",
        type=exploration_constant,
        metavar="C",
        help="explorer, lesson with --algorithm mcts: UCB1's exploration constant (default "
        "1.41, √2)",
    )
    screenshot.add_argument(
        "--depth", type=positive_int, help="explorer: decisions to look ahead; compare: deepest"
    )
    screenshot.add_argument(
        "--lesson",
        type=int,
        help="lesson: 1-4 the textbook trees (4: MCTS), 5 practice, 6 your own tree",
    )
    screenshot.add_argument(
        "--step", type=positive_int, help="explorer, lesson: the step shown (default: the end)"
    )
    screenshot.add_argument("--tree", help='lesson 6: the tree typed, e.g. "(3,5,9)(1,7,14)"')
    screenshot.add_argument(
        "--variant", action="store_true", help="lesson: the lesson's other version"
    )
    screenshot.add_argument(
        "--palette",
        choices=PALETTE_NAMES,
        default=PALETTE_NAMES[0],
        help="the players' colours (colour-blind: blue and orange, pieces marked)",
    )
    screenshot.set_defaults(handler=command_screenshot)
