"""`compare`: every algorithm that fits the game on one position, a table per depth and a
chart of nodes against depth.  Runs whose estimate exceeds --max-seconds are skipped and say
so.  Depth counts player decisions; chance layers do not use it up.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from plyground.ai.compare.comparison import (
    ENGINE_NOTE,
    Comparison,
    Row,
    Step,
    compare,
    duration,
    parse_depths,
    theory_curves,
)
from plyground.ai.engine.search import SearchCancelled, SearchError
from plyground.ai.evaluation.wording import counted, legend
from plyground.ai.textbook.counts import definitions_text
from plyground.cli.args import (
    UsageError,
    add_command,
    add_game_arguments,
    add_sandbox_argument,
    check_heuristic_cost,
    game_examples,
    game_from_args,
    games_help,
    json_text,
    read_position,
)
from plyground.cli.console import console_for, say
from plyground.cli.output import check_png_path, output_file
from plyground.games.base import Game, State


def format_row(row: Row, game: Game[Any]) -> list[str]:
    """The table cells of one row."""
    if not row.ran:
        guess = row.estimate
        nodes = f"~{round(guess.nodes):,}" if guess is not None else ""
        seconds = f"~{duration(guess.seconds)}" if guess is not None else ""
        return [row.title, "skipped", "", nodes, "", "", "", seconds, ""]
    return [
        row.title,
        row.value_text(bool(game.stochastic)),
        "" if row.move is None else game.format_move(row.move),
        f"{row.nodes:,}",
        f"{row.leaves:,}",
        f"{row.cutoffs:,}",
        f"{row.table_hits:,}",
        duration(row.elapsed),
        row.share_text,
    ]


def print_tables(console: Console, comparison: Comparison, game: Game[Any]) -> None:
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
        shown = [e for e in (row.evaluation for row in comparison.at(depth)) if e is not None]
        key = legend(bool(game.stochastic), shown)
        if key:
            console.print("Key: " + " · ".join(key), markup=False, highlight=False)
        for row in comparison.at(depth):
            if not row.ran:
                console.print(
                    f"  {row.title} at depth {depth} skipped: {row.skipped}"
                    " (raise --max-seconds to run it)"
                )
    engine = any(row.variant == "engine" for row in comparison.rows)
    console.print(
        f"branching b = {comparison.branching:.2f} (random playouts from the position)"
        + (f"; {ENGINE_NOTE}" if engine else ".")
    )


def to_json(
    comparison: Comparison, game: Game[Any], moves: str, heuristic: str | None
) -> dict[str, Any]:
    """The whole comparison as plain data."""
    return {
        "game": game.name,
        "options": game.option_values(),
        "moves": moves,
        "heuristic": heuristic or game.default_heuristic,
        "branching": comparison.branching,
        "rows": [row.as_dict(game.format_move) for row in comparison.rows],
        "theory": theory_curves(comparison.branching, comparison.depths(), comparison.chance),
    }


def write_plot(comparison: Comparison, game: Game[Any], path: str) -> None:
    """The nodes-by-depth chart as PNG."""
    import os

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from plyground.gui import chart
    from plyground.gui.compare.charts import nodes_chart

    title = f"{game.title}: nodes searched by depth"
    chart.save(chart.render(nodes_chart(comparison, title)), path)


def command_compare(args: argparse.Namespace) -> int:
    """Run the comparison and print it; 1 when cancelled (Ctrl+C)."""
    depths = _depths(args)
    game, _options = game_from_args(args)
    _moves, state = read_position(game, args.moves)
    plot_file = check_png_path(args.plot, "--plot") if args.plot else None
    json_file = output_file(args.json, "--json")
    console = console_for(sys.stdout)
    check_heuristic_cost(game, args.heuristic)
    _check_plan(state, depths, args.max_seconds)
    try:
        with Console(stderr=True).status("starting…") as status:

            def progress(step: Step) -> None:
                status.update(
                    f"run {step.index + 1} of {step.total}: {step.variant} at depth "
                    f"{step.depth} · {step.nodes:,} of "
                    f"~{counted(round(step.estimate.nodes), 'node')}"
                )

            comparison = compare(
                state, depths, args.heuristic, max_seconds=args.max_seconds, progress=progress
            )
    except SearchError as error:
        raise UsageError(f"compare: {error}") from None
    except SearchCancelled:
        console.print("compare: cancelled")
        return 1
    print_tables(console, comparison, game)
    written = True
    if json_file is not None:
        data = json_text(to_json(comparison, game, args.moves, args.heuristic))
        written = json_file.write_text_or_show(data, "the rows as JSON")
        if written:
            console.print(f"wrote {args.json}")
    if plot_file is not None:
        plot_file.write_with(lambda path: write_plot(comparison, game, path), (RuntimeError,))
        console.print(f"wrote {args.plot}")
    return 0 if written else 2


def _check_plan(state: State[Any], depths: list[int], max_seconds: float) -> None:
    """Estimate every run before the first (`ai.compare.comparison.planned_seconds`): refuse a plan
    longer than `LONG_REQUEST_SECONDS` with the estimate, say a long one on stderr."""
    from plyground.ai.compare.comparison import planned_seconds
    from plyground.ai.engine import cost

    seconds = planned_seconds(state, depths, max_seconds)
    about = f"the runs would take about {cost.format_duration(seconds)} (estimated)"
    if seconds > cost.LONG_REQUEST_SECONDS:
        raise UsageError(
            f"compare: {about}; lower --max-seconds (a run estimated above it is skipped) "
            "or the deepest --depth"
        )
    if seconds > cost.WARN_SECONDS:
        say(console_for(stderr=True), f"compare: {about}; Ctrl+C stops")


def _depths(args: argparse.Namespace) -> list[int]:
    """The depths asked for, checked before any search runs."""
    try:
        depths = parse_depths(args.depth)
    except ValueError as error:
        raise UsageError(f"--depth: {error}") from None
    if not args.max_seconds > 0:
        raise UsageError("--max-seconds must be above 0")
    return depths


def add_parser(commands: Any) -> None:
    """The `compare` subcommand's arguments."""
    lines = game_examples("plyground compare {game} --moves {moves} --depth 1-4")
    lines.append("plyground compare --game GAME --depth 1-7 --plot nodes.png --json rows.json")
    examples = "\n".join(lines)
    parser = add_command(
        commands,
        "compare",
        "run every algorithm on one position: nodes, cut-offs, time, a chart",
        "Run every algorithm and setting that fits the game on one position (minimax, "
        "alpha-beta in the game's order, alpha-beta with move ordering, the full engine; "
        "with dice, expectiminimax with and without its table) at each depth, and compare "
        "values, nodes, leaves, cut-offs, table hits and time.  Depth counts player "
        "decisions; chance layers do not use it up.",
        f"examples:\n{examples}\n\n{games_help()}\n\n{definitions_text()}",
    )
    add_game_arguments(parser)
    parser.add_argument("--moves", default="", help="moves to the position (default: the start)")
    parser.add_argument("--depth", default="1-5", help="a depth or a range, e.g. 7 or 1-7")
    parser.add_argument("--heuristic", help="evaluation function (default: the game's own)")
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=60.0,
        help="skip a run estimated to take longer (default 60)",
    )
    parser.add_argument("--json", metavar="FILE", help="write every row as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="write the nodes-by-depth chart")
    add_sandbox_argument(parser)
    parser.set_defaults(handler=command_compare)
