"""`compare`: every algorithm on one position, a table per depth and a chart (issue 11).

    compare --game connect4 --moves 4453 --depth 1-7 [--json FILE] [--plot FILE.png]

`main(argv)` is the whole command (the integrator moves it under cli/).  Runs whose
estimate exceeds --max-seconds are skipped and say so.  Bad input: one line, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from ai.compare import (
    Comparison,
    Row,
    Step,
    compare,
    duration,
    parse_depths,
    theory_curves,
)
from ai.engine import SearchCancelled, SearchError

EXAMPLES = """examples:
  compare --game tictactoe --depth 9
  compare --game connect4 --moves 4453 --depth 1-7 --plot nodes.png
  compare --game pig --option goal=30 --moves r4r6h --depth 1-5 --json pig.json
Depth counts player decisions; chance layers do not use it up."""


class UsageError(Exception):
    """A mistake in the command line: printed as one line, exit code 2."""


def game_names() -> list[str]:
    """The registered games."""
    import games

    return list(games.GAMES)


def make_game(name: str, settings: list[str]) -> Any:
    """The game with its ``name=value`` options, checked against the game's own list."""
    import games

    factory = games.GAMES[name]
    known = {option.name: option for option in getattr(factory, "options", ())}
    values: dict[str, int] = {}
    for text in settings:
        key, equals, raw = text.partition("=")
        if not equals or key not in known:
            names = ", ".join(known) or "none"
            raise UsageError(f"--option {text!r}: use NAME=VALUE; {name} options: {names}")
        try:
            values[key] = known[key].check(int(raw))
        except ValueError as error:
            raise UsageError(f"--option {text!r}: {error}") from None
    return games.get_game(name, **values)


def read_position(game: Any, text: str) -> Any:
    """The position after the moves in `text` (the game's notation)."""
    try:
        return game.replay(game.parse_moves(text))
    except ValueError as error:
        raise UsageError(f"--moves {text!r}: {error}") from None


def check_png(path: str) -> None:
    """A .png path whose folder exists."""
    from pathlib import Path

    if not path.lower().endswith(".png"):
        raise UsageError(f"--plot {path}: the file name must end in .png")
    if not Path(path).resolve().parent.is_dir():
        raise UsageError(f"--plot {path}: the folder does not exist")


def parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    p = argparse.ArgumentParser(
        prog="compare",
        description="Run every algorithm that fits the game on one position and compare "
        "values, nodes, cut-offs, table hits and time.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--game", required=True, choices=game_names())
    p.add_argument("--moves", default="", help="the moves to the position (default: the start)")
    p.add_argument("--depth", default="1-5", help="a depth or a range, e.g. 7 or 1-7 (default 1-5)")
    p.add_argument("--heuristic", help="evaluation function (default: the game's own)")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
    )
    p.add_argument(
        "--max-seconds",
        type=float,
        default=60.0,
        help="skip a run estimated to take longer (default 60)",
    )
    p.add_argument("--json", metavar="FILE", help="write every row as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="write the nodes-by-depth chart")
    return p


def format_row(row: Row, game: Any) -> list[str]:
    """The table cells of one row."""
    if not row.ran:
        guess = row.estimate
        nodes = f"~{round(guess.nodes):,}" if guess is not None else ""
        seconds = f"~{duration(guess.seconds)}" if guess is not None else ""
        return [row.title, "skipped", "", nodes, "", "", "", seconds, ""]
    share = "" if row.share is None else f"{row.share:.1%}"
    return [
        row.title,
        "" if row.value is None else f"{row.value:+.3f}",
        "" if row.move is None else game.format_move(row.move),
        f"{row.nodes:,}",
        f"{row.leaves:,}",
        f"{row.cutoffs:,}",
        f"{row.table_hits:,}",
        duration(row.elapsed),
        share,
    ]


def print_tables(console: Console, comparison: Comparison, game: Any) -> None:
    """One table per depth."""
    first = comparison.rows[0].title if comparison.rows else "minimax"
    for depth in comparison.depths():
        table = Table(title=f"{game.title}, depth {depth}", title_justify="left")
        for name, justify in (
            ("algorithm", "left"),
            ("value", "right"),
            ("move", "center"),
            ("nodes", "right"),
            ("leaves", "right"),
            ("cut-offs", "right"),
            ("table hits", "right"),
            ("time", "right"),
            (f"of {first}", "right"),
        ):
            table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        for row in comparison.at(depth):
            table.add_row(*format_row(row, game))
        console.print(table)
        for row in comparison.at(depth):
            if not row.ran:
                console.print(
                    f"  {row.title} at depth {depth} skipped: {row.skipped}"
                    " (raise --max-seconds to run it)"
                )
    engine = any(row.variant == "engine" for row in comparison.rows)
    console.print(
        f"branching b = {comparison.branching:.2f} (random playouts from the position)"
        + ("; the engine's count includes its iterative deepening." if engine else ".")
    )


def to_json(comparison: Comparison, game: Any, moves: str, heuristic: str | None) -> dict[str, Any]:
    """The whole comparison as plain data."""
    return {
        "game": game.name,
        "options": game.option_values(),
        "moves": moves,
        "heuristic": heuristic or game.default_heuristic,
        "branching": comparison.branching,
        "rows": [row.as_dict(game.format_move) for row in comparison.rows],
        "theory": theory_curves(comparison.branching, comparison.depths()),
    }


def write_plot(comparison: Comparison, game: Any, path: str) -> None:
    """The nodes-by-depth chart as PNG."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from gui import chart
    from gui.compare_charts import nodes_chart

    title = f"{game.title}: nodes searched by depth"
    chart.save(chart.render(nodes_chart(comparison, title)), path)


def main(argv: list[str] | None = None) -> int:
    """Run the command; 0 on success, 2 on bad input, 1 when cancelled."""
    args_parser = parser()
    try:
        args = args_parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    console = Console(width=None if sys.stdout.isatty() else 140, highlight=False)
    try:
        depths = _check(args)
        game = make_game(args.game, args.option)
        state = read_position(game, args.moves)
        with Console(stderr=True).status("starting…") as status:

            def progress(step: Step) -> None:
                status.update(
                    f"run {step.index + 1} of {step.total}: {step.variant} at depth "
                    f"{step.depth} · {step.nodes:,} nodes of ~{round(step.estimate.nodes):,}"
                )

            comparison = compare(
                state, depths, args.heuristic, max_seconds=args.max_seconds, progress=progress
            )
        print_tables(console, comparison, game)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as handle:
                json.dump(to_json(comparison, game, args.moves, args.heuristic), handle, indent=1)
            console.print(f"wrote {args.json}")
        if args.plot:
            write_plot(comparison, game, args.plot)
            console.print(f"wrote {args.plot}")
    except (UsageError, SearchError) as error:
        print(f"compare: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"compare: error: cannot write: {error.strerror or error}", file=sys.stderr)
        return 2
    except (SearchCancelled, KeyboardInterrupt):
        print("compare: cancelled", file=sys.stderr)
        return 1
    return 0


def _check(args: argparse.Namespace) -> list[int]:
    """Depths and output paths, checked before any search runs."""
    try:
        depths = parse_depths(args.depth)
    except ValueError as error:
        raise UsageError(f"--depth: {error}") from None
    if not args.max_seconds > 0:
        raise UsageError("--max-seconds must be above 0")
    if args.plot:
        check_png(args.plot)
    return depths


if __name__ == "__main__":
    sys.exit(main())
