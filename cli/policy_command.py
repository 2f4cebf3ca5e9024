"""`policy`: a game's known-best policy drawn around a decision, with an AI's choice.

Works for any game that describes its policy (`game.policy_picture(state, chosen)`); the
picture's first panel is also printed as a table.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground import games
from plyground.cli.args import (
    UsageError,
    add_command,
    add_game_arguments,
    game_from_args,
    games_help,
    read_position,
)
from plyground.cli.console import console_for, say
from plyground.cli.output import check_png_path
from plyground.games.base import Game, State


def ai_choice(game: Game[Any], state: State[Any], preset_name: str) -> str:
    """The move text a difficulty preset chooses at `state` (no randomness)."""
    from plyground.ai.engine.search import SearchConfig, search

    presets = {preset.name.lower(): preset for preset in getattr(game, "presets", ())}
    preset = presets.get(preset_name.lower())
    if preset is None:
        names = ", ".join(p.name for p in getattr(game, "presets", ()))
        raise UsageError(f"--ai {preset_name!r}: choose one of: {names}")
    result = search(
        state,
        SearchConfig(
            preset.search,
            time_limit=preset.time_limit,
        ),
    )
    return str(result.move)


def print_picture(console: Console, picture: dict[str, Any]) -> None:
    """Title, note, and the first panel's lines as a table (at most about 20 rows)."""
    console.print(f"[bold]{picture.get('title', '')}[/bold]")
    if picture.get("note"):
        console.print(picture["note"])
    panels = picture.get("panels", [])
    lines = [s for s in panels[0].get("series", []) if s.get("points")] if panels else []
    if not lines:
        return
    panel = panels[0]
    table = Table(title=panel.get("title", ""), title_justify="left")
    table.add_column(panel.get("x_label", "x"), justify="right")
    for series in lines:
        table.add_column(series.get("label", ""), justify="right")
    xs = [x for x, _ in lines[0]["points"]]
    step = max(1, len(xs) // 20)
    columns = [dict(series["points"]) for series in lines]
    for x in xs[::step]:
        table.add_row(
            f"{x:g}", *(f"{column.get(x, ''):g}" if x in column else "" for column in columns)
        )
    console.print(table)


def write_plot(picture: dict[str, Any], path: str) -> None:
    """All panels side by side as PNG."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from plyground.gui import chart
    from plyground.gui.compare.charts import policy_charts

    charts = policy_charts(picture)
    chart.save(chart.render_panels(charts, (1600, 760)), path)


def command_policy(args: argparse.Namespace) -> int:
    """Print (and with --plot draw) the policy around the position's decision."""
    plot_file = check_png_path(args.plot, "--plot") if args.plot else None
    game, _options = game_from_args(args)
    draw = games.capabilities(game).policy_picture
    if draw is None:
        raise UsageError(f"{game.title} has no reference policy to draw; try {_drawable()}")
    _moves, state = read_position(game, args.moves)
    if state.is_terminal():
        raise UsageError("--moves: the game is over: there is no decision to draw")
    if state.to_move not in (0, 1):
        raise UsageError("--moves: the dice are rolling: end the moves at a decision")
    _check_cost(game)
    chosen = ai_choice(game, state, args.ai) if args.ai else None
    picture = draw(game, state, chosen)
    console = console_for(sys.stdout)
    print_picture(console, picture)
    if plot_file is not None:
        plot_file.write_with(lambda path: write_plot(picture, path), (RuntimeError,))
        console.print(f"wrote {args.plot}")
    return 0


def _check_cost(game: Game[Any]) -> None:
    """Refuse options whose policy cannot be built here (with the estimate); say how long a
    slow one takes before it starts (`ai.engine.cost`, from the game's `option_cost` hook)."""
    from plyground.ai.engine import cost

    refusal = cost.option_refusal(type(game), game.option_values())
    if refusal is not None:
        raise UsageError(f"cannot draw the policy on this machine: {refusal}")
    estimate = cost.option_cost(type(game), game.option_values())
    if estimate is not None and estimate.seconds >= cost.WARN_SECONDS:
        say(
            console_for(stderr=True),
            f"building {estimate.what}: about {cost.format_duration(estimate.seconds)}, "
            f"{cost.format_bytes(estimate.memory)} (Ctrl+C stops)",
        )


def _drawable() -> str:
    """The games that can draw their policy, for messages and help."""
    names = [
        name
        for name, factory in games.GAMES.items()
        if games.capabilities(factory).policy_picture is not None
    ]
    return ", ".join(f"--game {name}" for name in names) or "no game offers one"


def add_parser(commands: Any) -> None:
    """The `policy` subcommand's arguments."""
    parser = add_command(
        commands,
        "policy",
        "draw a game's known-best policy around a decision (games that have one)",
        "Draw the game's known-best (optimal) policy around one decision, with the choice of "
        f"a difficulty preset marked.  Games with a policy to draw: {_drawable()}.",
        "examples:\n  plyground policy --game GAME --plot policy.png\n"
        "  plyground policy --game GAME --moves MOVES --ai Hard --plot policy.png\n\n"
        + games_help(),
    )
    add_game_arguments(parser)
    parser.add_argument("--moves", default="", help="moves to the decision (default: the start)")
    parser.add_argument("--ai", metavar="PRESET", help="mark this difficulty preset's choice")
    parser.add_argument("--plot", metavar="FILE.png", help="write the chart")
    parser.set_defaults(handler=command_policy)
