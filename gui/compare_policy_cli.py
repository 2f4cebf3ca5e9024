"""`policy`: a game's reference policy as a picture, for one decision (issue 11).

    policy --game pig [--option goal=50] [--moves r4r6h] [--ai Hard] [--plot FILE.png]

Works for any game that describes its policy (`game.policy_picture(state, chosen)`); the
picture's first panel is also printed as a table.  `main(argv)` is the whole command (the
integrator moves it under cli/).  Bad input: one line, exit 2.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from ai.engine import SearchError
from gui.compare_cli import UsageError, check_png, game_names, make_game, read_position

EXAMPLES = """examples:
  policy --game pig --plot policy.png
  policy --game pig --moves r4r6h r5r3 --ai Hard --plot policy.png"""


def parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    p = argparse.ArgumentParser(
        prog="policy",
        description="Draw the game's known-best policy around a decision, with an AI's choice.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", required=True, choices=game_names())
    p.add_argument("--moves", default="", help="the moves to the decision (default: the start)")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    p.add_argument("--ai", metavar="PRESET", help="mark this difficulty preset's choice")
    p.add_argument("--plot", metavar="FILE.png", help="write the chart")
    return p


def ai_choice(game: Any, state: Any, preset_name: str) -> str:
    """The move text a difficulty preset chooses at `state` (no randomness)."""
    from ai.search import search

    presets = {preset.name.lower(): preset for preset in getattr(game, "presets", ())}
    preset = presets.get(preset_name.lower())
    if preset is None:
        names = ", ".join(p.name for p in getattr(game, "presets", ()))
        raise UsageError(f"--ai {preset_name!r}: choose one of: {names}")
    result = search(state, preset.algorithm, preset.depth, preset.heuristic, preset.time_limit)
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
    from gui import chart
    from gui.compare_charts import policy_charts

    charts = policy_charts(picture)
    chart.save(chart.render_panels(charts, (1600, 760)), path)


def main(argv: list[str] | None = None) -> int:
    """Run the command; 0 on success, 2 on bad input."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    console = Console(width=None if sys.stdout.isatty() else 140, highlight=False)
    try:
        if args.plot:
            check_png(args.plot)
        game = make_game(args.game, args.option)
        describe = getattr(game, "policy_picture", None)
        if describe is None:
            raise UsageError(f"{game.title} has no reference policy to draw")
        state = read_position(game, args.moves)
        if state.is_terminal():
            raise UsageError("--moves: the game is over: there is no decision to draw")
        if state.to_move not in (0, 1):
            raise UsageError("--moves: the dice are rolling: end the moves at a decision")
        chosen = ai_choice(game, state, args.ai) if args.ai else None
        picture = describe(state, chosen)
        print_picture(console, picture)
        if args.plot:
            write_plot(picture, args.plot)
            console.print(f"wrote {args.plot}")
    except (UsageError, SearchError) as error:
        print(f"policy: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"policy: error: cannot write: {error.strerror or error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
