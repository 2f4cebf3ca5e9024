"""`screenshot`: render one scene of the window to a PNG without a display."""

from __future__ import annotations

import argparse
import os
from typing import Any

from plyground.cli.args import (
    UsageError,
    add_command,
    add_game_arguments,
    game_examples,
    game_from_args,
    game_names,
    games_help,
    read_position,
    size_arg,
)
from plyground.cli.console import console_for, say
from plyground.cli.output import check_png_path
from plyground.gui.settings import PALETTE_NAMES

SCENES = ("menu", "setup", "play", "gameover", "analysis", "review", "resume", "series")
"""The scenes gui.screenshot can draw."""
WITHOUT_GAME = ("menu",)
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

    options = {**options, "palette": args.palette}

    def render(path: str) -> None:
        screenshot.render(args.scene, game.name, game.format_moves(moves), path, args.size, options)

    output.write_with(render, (pygame.error,))
    shown = args.scene if args.scene in WITHOUT_GAME else f"{args.scene} scene of {game.title}"
    say(console_for(), f"{shown} written to {args.out}")
    return 0


def add_parser(commands: Any) -> None:
    """The `screenshot` subcommand's arguments."""
    lines = game_examples("plyground screenshot --scene play {game} --moves {moves} --out play.png")
    lines.append("plyground screenshot --scene menu --out menu.png --size 1920x1080")
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
    screenshot.add_argument(
        "--palette",
        choices=PALETTE_NAMES,
        default=PALETTE_NAMES[0],
        help="the players' colours (colour-blind: blue and orange, pieces marked)",
    )
    screenshot.set_defaults(handler=command_screenshot)
