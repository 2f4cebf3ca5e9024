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

from plyground.ai.compare.budget_curve import (
    BUDGETS,
    POSITIONS,
    BudgetCurve,
    budget_curve,
    parse_budgets,
)
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
from plyground.ai.compare.exact import EXACT_SECONDS
from plyground.ai.engine.mcts.settings import (
    DEFAULT_ITERATIONS,
    MAX_ITERATIONS,
    MCTS,
    MonteCarlo,
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

CURVE_WIDTH = 30
"""Characters of a full bar (every position answered optimally) in the text chart."""
MAX_POSITIONS = 100


def format_row(row: Row, game: Game[Any]) -> list[str]:
    """The table cells of one row (MCTS's: its tree nodes; no leaves, cut-offs or table)."""
    if not row.ran:
        guess = row.estimate
        nodes = f"~{round(guess.nodes):,}" if guess is not None else ""
        seconds = f"~{duration(guess.seconds)}" if guess is not None else ""
        return [row.title, "skipped", "", "", nodes, "", "", "", seconds, ""]
    tree = row.variant == MCTS
    return [
        row.title,
        row.value_text(bool(game.stochastic)),
        "" if row.move is None else game.format_move(row.move),
        row.exact_text(bool(game.stochastic)),
        f"{row.nodes:,}",
        "" if tree else f"{row.leaves:,}",
        "" if tree else f"{row.cutoffs:,}",
        "" if tree else f"{row.table_hits:,}",
        duration(row.elapsed),
        row.share_text,
    ]


def print_tables(console: Console, comparison: Comparison, game: Game[Any]) -> None:
    """One table per depth."""
    first = comparison.rows[0].title if comparison.rows else "minimax"
    depths = comparison.depths()
    for depth in depths:
        table = Table(title=f"{game.title}, depth {depth}", title_justify="left")
        for name, justify in (
            ("algorithm", "left"),
            ("value", "right"),
            ("move", "center"),
            ("exact value of move", "right"),
            ("nodes", "right"),
            ("leaves", "right"),
            ("cut-offs", "right"),
            ("table hits", "right"),
            ("time", "right"),
            (f"of {first}", "right"),
        ):
            table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        rows = comparison.at(depth)
        for row in rows:
            table.add_row(*format_row(row, game))
        if comparison.mcts is not None and depth == depths[-1]:
            table.add_section()  # MCTS has no depth: its one run beside the deepest depth
            table.add_row(*format_row(comparison.mcts, game))
            rows = [*rows, comparison.mcts]
        console.print(table)
        shown = [row.evaluation for row in rows if row.evaluation is not None]
        key = legend(bool(game.stochastic), shown)
        if key:
            console.print("Key: " + " · ".join(key), markup=False, highlight=False)
        for row in comparison.at(depth):
            if not row.ran:
                console.print(
                    f"  {row.title} at depth {depth} skipped: {row.skipped}"
                    " (raise --max-seconds to run it)"
                )
    if comparison.mcts is not None:
        console.print(
            f"{comparison.mcts.title} (seed 0, the same tree every run; MCTS has no depth, so "
            "it is shown once, beside the deepest depth): its nodes are the positions its "
            "tree holds, its value the mean result of its playouts, an estimate unless the "
            "tree proved it.",
            markup=False,
            highlight=False,
        )
    console.print(exact_note(comparison, game), markup=False, highlight=False)
    engine = any(row.variant == "engine" for row in comparison.rows)
    console.print(
        f"branching b = {comparison.branching:.2f} (random playouts from the position)"
        + (f"; {ENGINE_NOTE}" if engine else ".")
    )


def exact_note(comparison: Comparison, game: Game[Any]) -> str:
    """What the exact value column rests on, and the optimal moves."""
    exact = comparison.exact
    if exact is None:
        return (
            "exact value of move: not known here (the game has no exact table and no solve "
            f"finished within {EXACT_SECONDS:g} s)"
        )
    best = ", ".join(sorted(game.format_move(move) for move in exact.optimal()))
    return (
        f"exact value of move: the true value of the move chosen under best play, for the "
        f"player to move (from the game's {exact.source}); optimal: {best}"
    )


def print_curve(console: Console, curve: BudgetCurve, game: Game[Any], start: str) -> None:
    """The budget curve as a table and a text chart: shares of the positions measured."""
    count = len(curve.positions)
    if not count:
        console.print(
            "budget curve: no position here has a choice that matters with known exact "
            f"values ({curve.unknown} tried had none within the solve's time)"
        )
        return
    table = Table(
        title=f"{game.title}: optimal choices as MCTS's budget grows ({count} positions)",
        title_justify="left",
    )
    rival = curve.rival
    for name in ("MCTS iterations", "seconds (mean)", "MCTS optimal", f"{rival} optimal"):
        table.add_column(name, justify="right", no_wrap=True)
    for point in curve.points:
        table.add_row(
            f"{point.iterations:,}",
            duration(point.seconds),
            f"{point.mcts_optimal} of {point.positions} ({point.mcts_share:.0%})",
            f"{point.alphabeta_optimal} of {point.positions} ({point.alphabeta_share:.0%})",
        )
    console.print(table)
    for point in curve.points:
        for name, share in (("MCTS", point.mcts_share), (rival, point.alphabeta_share)):
            bar = "█" * round(share * CURVE_WIDTH)
            label = f"{point.iterations:>7,} it. {name:<{len(rival)}}"
            console.print(
                f"{label} {bar:<{CURVE_WIDTH}} {share:.0%}", markup=False, highlight=False
            )
    positions = ", ".join(_moves_text(game, moves, start) for moves in curve.positions)
    console.print(
        "Share of the positions where each search chose an optimal move (its exact value "
        f"equals the best move's; a quicker win beats a slower one). {rival.capitalize()}: "
        "the engine with iterative deepening, no opening book, given MCTS's seconds on each "
        "position. "
        f"Positions (moves from the start): {positions}"
        + (f"; {curve.unknown} more tried had no exact values in time." if curve.unknown else "."),
        markup=False,
        highlight=False,
    )


def _moves_text(game: Game[Any], moves: tuple[Any, ...], start: str) -> str:
    """A position as `start` (the moves asked) and the moves on from it, in the game's
    notation ('the start' for none)."""
    more = "".join(game.format_move(move) for move in moves)
    return f"{start}{'+' if start and more else ''}{more}" or "the start"


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
        "mcts": None if comparison.mcts is None else comparison.mcts.as_dict(game.format_move),
        "optimal": None
        if comparison.exact is None
        else sorted(game.format_move(move) for move in comparison.exact.optimal()),
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
    budgets = _budgets(args)
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
                state,
                depths,
                args.heuristic,
                max_seconds=args.max_seconds,
                progress=progress,
                mcts=MonteCarlo(iterations=args.iterations),
                exact_seconds=EXACT_SECONDS,
            )
            curve = None
            if budgets:
                curve = budget_curve(
                    state,
                    budgets,
                    args.positions,
                    args.heuristic,
                    progress=lambda text: status.update(f"budget curve: {text}"),
                )
    except SearchError as error:
        raise UsageError(f"compare: {error}") from None
    except SearchCancelled:
        console.print("compare: cancelled")
        return 1
    print_tables(console, comparison, game)
    if curve is not None:
        print_curve(console, curve, game, args.moves)
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


def _budgets(args: argparse.Namespace) -> list[int]:
    """The curve's budgets (none without --budget-curve), checked before any search runs."""
    if not 1 <= args.iterations <= MAX_ITERATIONS:
        raise UsageError(f"--iterations must be 1 to {MAX_ITERATIONS:,}, not {args.iterations}")
    if not 1 <= args.positions <= MAX_POSITIONS:
        raise UsageError(f"--positions must be 1 to {MAX_POSITIONS}, not {args.positions}")
    if not args.budget_curve:
        return []
    try:
        budgets = parse_budgets(args.budget_curve)
    except ValueError as error:
        raise UsageError(f"--budget-curve: {error}") from None
    if budgets[-1] > MAX_ITERATIONS:
        raise UsageError(f"--budget-curve: at most {MAX_ITERATIONS:,} iterations")
    return budgets


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
    lines += game_examples(
        "plyground compare {game} --moves {moves} --depth 1-2 --budget-curve 100,300,1k"
    )[:1]
    examples = "\n".join(lines)
    parser = add_command(
        commands,
        "compare",
        "run every algorithm on one position: nodes, cut-offs, time, a chart",
        "Run every algorithm and setting that fits the game on one position (minimax, "
        "alpha-beta in the game's order, alpha-beta with move ordering, the full engine; "
        "with dice, expectiminimax with and without its table) at each depth, and Monte "
        "Carlo tree search beside them (no depth: a fixed number of iterations, seed 0), and "
        "compare values, moves, nodes, leaves, cut-offs, table hits and time.  Each move "
        "chosen shows its exact value where Plyground knows it (the game's exact table, "
        "its opening book or a solve).  --budget-curve adds how often MCTS picks an optimal "
        "move as its iterations grow, beside alpha-beta given the same seconds.  Depth counts "
        "player decisions; chance layers do not use it up.",
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
    parser.add_argument(
        "--iterations",
        type=int,
        default=DEFAULT_ITERATIONS,
        help=f"Monte Carlo tree search's iterations (default {DEFAULT_ITERATIONS:,}, as a "
        "player with no budget gets)",
    )
    parser.add_argument(
        "--budget-curve",
        nargs="?",
        const=",".join(f"{b:,}".replace(",000", "k") for b in BUDGETS),
        metavar="ITERATIONS",
        help="also measure how often MCTS picks an optimal move at these iterations "
        "(default 100,300,1k,3k), with alpha-beta at equal time, over positions reached "
        "from this one",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=POSITIONS,
        help=f"positions the budget curve is measured on (default {POSITIONS})",
    )
    parser.add_argument("--json", metavar="FILE", help="write every row as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="write the nodes-by-depth chart")
    add_sandbox_argument(parser)
    parser.set_defaults(handler=command_compare)
