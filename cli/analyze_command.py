"""`analyze`: search one position and value every legal move."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from plyground.ai.engine.exact_solving import engine_status
from plyground.ai.engine.mcts.settings import PLAYOUTS
from plyground.ai.engine.search import (
    ALGORITHM_TITLES,
    MAX_DEPTH,
    MCTS,
    PLAYING_ALGORITHMS,
    DepthLimited,
    MonteCarlo,
    SearchConfig,
    SearchSettings,
)
from plyground.ai.evaluation.values import signed
from plyground.ai.evaluation.wording import counted, plural
from plyground.ai.players.text_table import format_seconds
from plyground.ai.textbook.counts import definitions_text
from plyground.cli.args import (
    PROG,
    UsageError,
    add_command,
    add_game_arguments,
    add_sandbox_argument,
    check_heuristic_cost,
    depth_arg,
    dump_json,
    game_examples,
    game_from_args,
    game_names,
    games_help,
    nonnegative_int,
    options_given,
    positive_int,
    read_position,
    read_save,
    seconds_arg,
)
from plyground.cli.console import console_for, print_table, table
from plyground.games.base import Game, Preset, State
from plyground.untrusted import printable

if TYPE_CHECKING:  # for annotations: the search imports its modules when it runs
    from plyground.ai.engine.cost import CostVerdict
    from plyground.ai.engine.result import SearchResult


def default_depth(presets: Sequence[Preset]) -> int | None:
    """`analyze --depth` when none is given, from the game's presets (None: to the end).

    A game whose strongest preset solves without a clock is small enough to solve; any other
    is searched two decisions deeper than its deepest fixed-depth preset.  A ladder on node
    budgets (a game from a file: each depth is the most its budget affords at the game's own
    speed) is searched as deep as its deepest level below the strongest.
    """
    searches = [p.search if isinstance(p.search, DepthLimited) else None for p in presets]
    strongest = searches[-1] if searches else None
    if strongest is not None and strongest.depth is None and presets[-1].time_limit is None:
        return None
    fixed = [s.depth for s in searches if s and s.depth is not None and s.node_limit is None]
    if fixed:
        return max(fixed) + 2
    budgeted = [s.depth for s in searches[:-1] if s and s.depth is not None]
    return max(budgeted, default=2)


def analyze_position(
    game: Game[Any],
    state: State[Any],
    settings: SearchSettings,
    time_limit: float | None,
    seed: int,
    best_evaluator: bool = False,
) -> dict[str, Any]:
    """Search `state` with `settings` (a `DepthLimited` or a `MonteCarlo`) and return the
    report as plain data, moves in the game's notation.

    With `best_evaluator` (analyze's default depth: the user asked for no search in
    particular), proven values the search found without their distance (an opening book's)
    are replaced by the advisor's, which `hint` shows: the solver's, with distances.

    At a chance node (a die roll, say) `ai.engine.search` values every outcome for the player
    who rolled; the report's value is their probability-weighted mean.
    """
    report: dict[str, Any] = {
        "game": game.name,
        "title": game.title,
        "ply": state.ply,
        "position": game.render(state),
        "algorithm": settings.algorithm,
        "depth_asked": settings.depth if isinstance(settings, DepthLimited) else None,
        "terminal": state.is_terminal(),
    }
    if state.is_terminal():
        winner = state.winner()
        report["winner"] = None if winner is None else winner + 1
        if winner is not None:
            report["winner_side"] = game.side_names[winner]
        return report
    began = time.perf_counter()
    if isinstance(settings, MonteCarlo):
        result, verdict = _search_mcts(state, SearchConfig(settings, time_limit, seed))
        report.update(_result_fields(game, state, result, verdict))
        report["mcts"] = playout_fields(game, result)
        report["time"] = {
            "estimate": 0.0,
            "search": result.elapsed,
            "searching": time.perf_counter() - began,
        }
        return report
    result, verdict, estimating = _search(state, settings, time_limit, seed)
    report["time"] = {
        "estimate": estimating,
        "search": result.elapsed,
        "searching": time.perf_counter() - began - estimating,
    }
    advised = _with_distances(game, state, result) if best_evaluator else None
    if advised is not None:  # the book said only "loss": the solver orders the moves, as hint
        result, report["advice"] = advised
    report.update(_result_fields(game, state, result, verdict))
    if settings.depth is None and settings.algorithm == "alphabeta":
        report["solver"] = engine_status(state)  # which solver solved (None: the only one)
        start_up = result.details.engine_start_up
        if report["solver"] and start_up:  # the search set its engine's start-up aside
            report["solver"] += f"; its start-up, {format_seconds(start_up)}, is not in the time"
    return report


def _with_distances(
    game: Game[Any], state: State[Any], result: SearchResult
) -> tuple[SearchResult, str] | None:
    """The advisor's answer (`ai.advice`, what `hint` shows) where the search's proven values
    lack their distance (an opening book that stores only win, draw or loss, so the moves
    tie) and the advisor proves every one with its distance; else None."""
    from plyground.ai.advice.advisor import advise
    from plyground.ai.engine.search import SearchError

    values = result.move_values.values()
    if not any(value.is_exact and not value.distance_known for value in values):
        return None
    try:
        advised, title = advise(game, state)
    except SearchError:
        return None
    shown = advised.move_values.values()
    if not all(value.is_exact and value.distance_known for value in shown):
        return None
    return advised, title


def _search(
    state: State[Any],
    settings: DepthLimited,
    time_limit: float | None,
    seed: int,
) -> tuple[SearchResult, CostVerdict, float]:
    """The search's result, the cost verdict judged before it (a refusal is a UsageError)
    and the seconds judging it took."""
    from plyground import ai
    from plyground.ai.advice.report import progress_line
    from plyground.ai.engine.cost import judge
    from plyground.ai.student_code.isolated_runs import run_search

    began = time.perf_counter()
    verdict = judge(state, settings.algorithm, settings.depth, time_limit)
    estimating = time.perf_counter() - began
    if verdict.level == "refuse":
        raise UsageError(verdict.message)
    if verdict.level == "warn":
        print(f"{PROG}: note: {verdict.message}", file=sys.stderr)
    shown = [time.perf_counter()]

    def show_progress(progress: Any) -> None:  # long searches say how far they got
        if progress.elapsed >= 1.0 and time.perf_counter() - shown[0] >= 1.0:
            shown[0] = time.perf_counter()
            print(f"{PROG}: {progress_line(progress)}", file=sys.stderr, flush=True)

    try:
        result = run_search(  # in a worker when the heuristic is the user's file
            state,
            SearchConfig(settings, time_limit, seed),
            progress=show_progress,
        )
    except ai.SearchError as error:
        raise UsageError(str(error)) from None
    return result, verdict, estimating


def _search_mcts(state: State[Any], config: SearchConfig) -> tuple[SearchResult, CostVerdict]:
    """Monte Carlo tree search on its budget (which always ends: no cost verdict to judge)."""
    from plyground import ai
    from plyground.ai.engine.cost import CostVerdict
    from plyground.ai.student_code.isolated_runs import run_search

    try:
        result = run_search(state, config)
    except ai.SearchError as error:
        raise UsageError(str(error)) from None
    return result, CostVerdict("ok", 0, 0.0, "")


def playout_fields(game: Game[Any], result: SearchResult) -> dict[str, Any]:
    """Monte Carlo tree search's counters and each root move's statistics, as plain data
    (a proven move's `mean` is its proven result, `playout_mean` its playouts' average)."""
    from plyground.ai.advice.report import statistics_data

    found = result.details.playouts
    assert found is not None
    return {
        "iterations": found.iterations,
        "playouts": found.playouts,
        "tree_nodes": found.tree_nodes,
        "root_visits": found.root_visits,
        "exploration": found.exploration,
        "playout_policy": found.playout_policy,
        "proven": found.proven,
        "deepest": result.depth,
        "moves": {
            game.format_move(move): statistics_data(stats, result.move_values[move])
            for move, stats in found.moves.items()
        },
    }


def _result_fields(
    game: Game[Any], state: State[Any], result: SearchResult, verdict: CostVerdict
) -> dict[str, Any]:
    """The report's part from the search: every move's value, the best move and counters."""
    from plyground.ai.advice.report import (
        book_end_text,
        counters,
        speed,
        values_note,
        versus_tree,
    )
    from plyground.ai.evaluation.wording import as_json, legend, source_text, value_text
    from plyground.games.base import CHANCE

    stochastic = bool(game.stochastic)
    chance = state.to_move == CHANCE
    probabilities = dict(state.chance_outcomes()) if chance else {}
    side = game.side_names[state.player]
    ranked = sorted(result.move_values.items(), key=lambda item: -item[1].value)
    return dict(
        chance=chance,
        stochastic=stochastic,
        to_move=state.player + 1,
        side=side,
        moves=[
            {
                "move": game.format_move(move),
                **as_json(evaluation),
                "meaning": value_text(evaluation, stochastic, side),
                "from": source_text(evaluation),
                **({"probability": probabilities[move]} if chance else {}),
            }
            for move, evaluation in ranked
        ],
        best_move=None if chance else game.format_move(result.move),
        value=result.value,
        kind=result.evaluation.kind.value,
        source=result.evaluation.source.value,
        meaning=value_text(result.evaluation, stochastic, side),
        pv=game.format_moves(list(result.pv)),
        pv_end=book_end_text(result, side),
        pv_cut=result.details.pv_stops_early and not result.details.pv_ends_in_book,
        depth=result.depth,
        complete=result.complete,
        exact=result.exact,
        heuristic=result.heuristic,
        nodes=result.nodes,
        leaves=result.leaves,
        leaf_evaluations=result.leaf_evaluations,
        cutoffs=result.cutoffs,
        table_hits=result.table_hits,
        counters=counters(result),
        elapsed=result.elapsed,
        nodes_per_second=result.nodes_per_second,
        speed=speed(result),
        estimated_nodes=verdict.nodes,
        versus_minimax=versus_tree(result) if result.algorithm == "alphabeta" else None,
        values_note=values_note(result, stochastic),
        legend=list(legend(stochastic, result.move_values.values())),
    )


def side_and_number(side: str, number: int) -> str:
    """'O (player 2)': a side's own name and its number, said once where the name already is
    the number ('Player 2')."""
    if side.casefold() == f"player {number}":
        return side
    return f"{side} (player {number})"


def time_parts(timed: dict[str, float], loaded: float, command: float) -> dict[str, float]:
    """The command's seconds, from reading its arguments to its report, and their parts:
    loading the game (a game from a file: its import and probe, which times its code),
    the cost estimate, the search, and the rest (the advisor, the report, the figures the
    search adds after its clock stops); `timed` is `analyze_position`'s."""
    parts = {"loading": loaded, "estimate": timed["estimate"], "search": timed["search"]}
    parts["rest"] = max(0.0, command - loaded - parts["estimate"] - parts["search"])
    parts["total"] = command
    return parts


def time_text(parts: dict[str, float], speed: str) -> str:
    """'Time 2.4 s in all (...): loading the game 1.3 s, ..., the search 111 ms at 21k
    nodes/s, the rest 36 ms'."""
    named = (
        ("loading", "loading the game"),
        ("estimate", "estimating its cost"),
        ("search", "the search"),
        ("rest", "the rest"),
    )
    rate = f" at {speed}" if speed else " (nodes/s: too small a search to time)"
    shown = ", ".join(
        f"{words} {format_seconds(parts[key])}" + (rate if key == "search" else "")
        for key, words in named
        if key == "search" or parts.get(key, 0.0) >= 0.0005
    )
    return f"Time {format_seconds(parts['total'])} in all (Python's start-up aside): {shown}"


def print_analysis(report: dict[str, Any], out: IO[str]) -> None:
    """The analysis as text."""
    write = out.write
    played = counted(report["ply"], "move")
    write(f"{report['title']}, after {played}\n\n{report['position'].rstrip()}\n\n")
    if report["terminal"]:
        winner = report["winner"]
        won = None if winner is None else side_and_number(report["winner_side"], winner)
        write("The game is over: " + ("a draw.\n" if won is None else f"{won} won.\n"))
        return
    depth = "to the end" if report["depth_asked"] is None else f"depth {report['depth_asked']}"
    title = ALGORITHM_TITLES.get(report["algorithm"], report["algorithm"])
    settings = f"{title}, {depth}, heuristic {printable(report['heuristic'])}"
    playouts = report.get("mcts")
    if playouts is not None:
        settings = (
            f"{title}, {counted(playouts['iterations'], 'iteration')}, "
            f"c {playouts['exploration']:.3g}, {playouts['playout_policy']} playouts"
        )
    if report["chance"]:
        _print_chance(report, settings, out)
    else:
        who = side_and_number(report["side"], report["to_move"])
        write(f"{who} to move. {settings}.\n")
        if report.get("advice"):
            write(
                f"The opening book stores no distances, so its moves tie: they are ordered and "
                f"named by the {report['advice']}, as `hint` does.\n"
            )
        write("\n")
        if playouts is not None:
            print_playout_table(report["moves"], playouts, out)
        else:
            rows = [
                [entry["move"], _signed4(entry["value"]), entry["meaning"], entry["from"]]
                for entry in report["moves"]
            ]
            print_table(console_for(out), table(["move", "value", "meaning", "from"], rows, (1,)))
        best = f"{report['best_move']} ({_signed4(report['value'])}, {report['meaning']})"
        write(f"\nBest move: {best}\n")
        end = f" · {report['pv_end']}" if report.get("pv_end") else ""
        end += " …" if report.get("pv_cut") else ""
        write(f"Principal variation: {report['pv'] or '-'}{end}\n")
    if playouts is not None:
        _print_playout_counts(report, playouts, out)
        return
    finished = "complete" if report["complete"] else "stopped by the time limit"
    write(f"Depth reached: {report['depth']} ({finished}{', exact' if report['exact'] else ''})\n")
    counts = "  ".join(f"{plural(noun)} {count:,}" for noun, count in report["counters"])
    write(
        f"Nodes {report['nodes']:,}"
        + (f"  {counts}" if counts else "")
        + "\n"
        + time_text(report["time"], report["speed"])
        + "\n"
    )
    if report.get("solver"):
        write(f"Solver: {report['solver']}\n")
    for note in (report["versus_minimax"], report["values_note"]):
        if note:
            write(note[0].upper() + note[1:] + ".\n")
    if report.get("legend"):
        write("Key: " + " · ".join(report["legend"]) + "\n")


def _print_chance(report: dict[str, Any], settings: str, out: IO[str]) -> None:
    """A chance node's analysis: each outcome's probability and value, and the expectation."""
    who = side_and_number(report["side"], report["to_move"])
    out.write(f"Next comes a die roll for {who}. {settings}.\n\n")
    rows = [
        [entry["move"], f"{entry['probability']:.3f}", _signed4(entry["value"]), entry["meaning"]]
        for entry in report["moves"]
    ]
    print_table(console_for(out), table(["face", "probability", "value", "meaning"], rows, (1, 2)))
    out.write(f"\nExpectation for {who}: {_signed4(report['value'])} ({report['meaning']})\n")


def print_playout_table(
    entries: list[dict[str, Any]], playouts: dict[str, Any], out: IO[str]
) -> None:
    """Every root move's value and statistics in Monte Carlo tree search: its mean result (an
    estimate from its playouts, unless proven), its visits, their share of the budget and the
    exploration term UCB1 adds to its mean, written as the window's panel writes them
    (`ai.advice.report.statistics_texts`)."""
    from plyground.ai.advice.report import statistics_texts
    from plyground.ai.engine.result import MoveStatistics

    rows = []
    for entry in entries:
        stats = playouts["moves"][entry["move"]]
        ucb = stats["ucb_term"]
        statistics = MoveStatistics(
            stats["visits"], stats["mean"], math.inf if ucb is None else ucb, stats["share"]
        )
        visits, share, ucb_text = statistics_texts(statistics)
        meaning = entry["meaning"] + (" · proven" if stats["proven"] else "")
        rows.append([entry["move"], _signed4(entry["value"]), meaning, visits, share, ucb_text])
    # the value column is the mean on the -1..+1 scale of the other searches: an estimate
    # where the mean is one, so its heading says what it is made of
    headers = ["move", "value (2*mean-1)", "mean result", "visits N", "share", "UCB term"]
    print_table(console_for(out), table(headers, rows, (1, 3, 4, 5)))


def _print_playout_counts(report: dict[str, Any], playouts: dict[str, Any], out: IO[str]) -> None:
    """Monte Carlo tree search's counters, its time, and the key to its values."""
    write = out.write
    finished = "complete" if report["complete"] else "stopped by the time limit"
    proven = ", proven: its tree reached every end that decides it" if playouts["proven"] else ""
    ended = playouts["iterations"] - playouts["playouts"]
    write(
        f"Iterations {playouts['iterations']:,} ({finished}{proven})  "
        f"playouts {playouts['playouts']:,}  tree nodes {playouts['tree_nodes']:,}  "
        f"deepest line {counted(playouts['deepest'], 'ply')}\n"
        + (
            f"({counted(ended, 'iteration')} reached a finished or solved position in the tree: "
            'its proven result backed up with no playout; a move\'s "from N playouts" counts '
            "each as one)\n"
            if ended > 0
            else ""
        )
        + f"Time {format_seconds(report['elapsed'])}\n"
    )
    if report["values_note"]:
        note = report["values_note"]
        write(note[0].upper() + note[1:] + ".\n")
    if report.get("legend"):
        write("Key: " + " · ".join(report["legend"]) + "\n")


def _signed4(value: float) -> str:
    """A value to four places, never '-0.0000'."""
    return signed(value, 4)


def command_analyze(args: argparse.Namespace) -> int:
    """`analyze`: value every move of a position."""
    began = time.perf_counter()
    if args.load is not None:
        if args.moves is not None:
            raise UsageError(
                "--moves and --load cannot be combined: a save file holds its own moves"
            )
        save = read_save(args.load)
        if args.game is not None and args.game != save.game_name:
            raise UsageError(
                f"--game {args.game} does not match the save file's game {save.game_name}"
            )
        saved = save.game.option_values()
        for name, value in options_given(args).items():
            if saved.get(name) != value:
                held = f", {name} {saved[name]}" if name in saved else ""
                raise UsageError(
                    f"--{name} {value} does not match the save file's game "
                    f"({save.game.title}{held})"
                )
        game = save.game
        moves_text = save.moves_text
    elif args.game is None:
        raise UsageError(f"analyze needs --game ({', '.join(game_names())}) or --load SAVEFILE")
    else:
        game, _ = game_from_args(args)
        moves_text = args.moves or ""
    loaded = time.perf_counter() - began
    moves, state = read_position(game, moves_text)
    algorithm = args.algorithm or ("expectiminimax" if game.stochastic else "alphabeta")
    asked = args.depth is not ... or args.algorithm is not None or args.heuristic is not None
    depth = args.depth if args.depth is not ... else default_depth(game.presets)
    check_heuristic_cost(game, args.heuristic)
    settings = _search_settings(args, algorithm, depth)
    report = analyze_position(game, state, settings, args.time, args.seed, not asked)
    report["moves_played"] = game.format_moves(moves)
    if "time" in report:  # a finished game is not searched
        report["time"] = time_parts(report["time"], loaded, time.perf_counter() - began)
    if args.json:
        dump_json(report, sys.stdout)
    else:
        print_analysis(report, sys.stdout)
    return 0


def _search_settings(args: argparse.Namespace, algorithm: str, depth: int | None) -> SearchSettings:
    """The search the flags ask for: a depth-limited one, or Monte Carlo tree search's
    settings from --iterations, --c and --playouts (refused with another algorithm, which
    has a depth instead)."""
    given = [
        flag
        for flag, value in (("--iterations", args.iterations), ("--c", args.c))
        if value is not None
    ] + (["--playouts"] if args.playouts is not None else [])
    if algorithm != MCTS:
        if given:
            raise UsageError(f"{given[0]} is for --algorithm mcts")
        return DepthLimited(algorithm, depth, args.heuristic)
    if args.depth is not ...:
        raise UsageError("MCTS has no depth; give it --iterations N or --time SECONDS")
    defaults = MonteCarlo()
    settings = MonteCarlo(
        args.iterations,
        defaults.exploration if args.c is None else args.c,
        args.playouts or defaults.playout,
        args.heuristic,
    )
    try:
        settings.check()
    except ValueError as error:
        raise UsageError(str(error)) from None
    return settings


def add_parser(commands: Any) -> None:
    """The `analyze` subcommand's arguments."""
    from plyground import games

    depths = {name: default_depth(games.GAMES[name]().presets) for name in games.builtin_names()}
    defaults = ", ".join(
        f"{name} {'solve' if depth is None else depth}" for name, depth in depths.items()
    )
    examples = "\n".join(
        game_examples("plyground analyze {game} --moves {moves}")
        + game_examples("plyground analyze {game} --moves {moves} --depth 2 --json")[:1]
    )
    analyze = add_command(
        commands,
        "analyze",
        "value every legal move of a position",
        "Search a position and show the value of every legal move, the best move, "
        "the principal variation and the search's counters. Depth counts player decisions; "
        "die rolls and other chance events do not use up depth.",
        f"""examples:
{examples}
  plyground analyze --load saved-game.json --json

values are from the point of view of the player to move, each with its kind (exact, lower,
upper, estimate) and source (search, book, solver, table, heuristic): a proven result reads
'win in N for X' (N plies), a bound '≤ ...', an estimate 'est. +0.31'; in games with chance
values are 2p-1 for win probability p (a chance to win only when exact). With --algorithm
mcts each move also shows its mean result ('○ 0.62 from 4,000 playouts', an estimate unless
'· proven'), visits N, share of the iterations and UCB term, as the window's panel does.

{games_help()}

{definitions_text()}""",
    )
    add_game_arguments(analyze, required=False)
    analyze.add_argument(
        "--moves", help="the moves played so far in the game's notation (see below)"
    )
    analyze.add_argument(
        "--load",
        metavar="SAVEFILE",
        help="read the game and moves from a save file written by the window",
    )
    analyze.add_argument(
        "--algorithm",
        choices=PLAYING_ALGORITHMS,
        help="default: alphabeta, or expectiminimax for games with chance; mcts: Monte Carlo "
        "tree search (values are estimates from playouts unless proven)",
    )
    analyze.add_argument(
        "--depth",
        type=depth_arg,
        default=...,
        help=f"player decisions to look ahead, 1-{MAX_DEPTH} or 'solve' (default: {defaults})",
    )
    analyze.add_argument("--heuristic", help="evaluation function (default: the game's own)")
    analyze.add_argument(
        "--time",
        type=seconds_arg,
        metavar="SECONDS",
        help="time budget: iterative deepening keeps the deepest finished iteration",
    )
    analyze.add_argument(
        "--seed",
        type=nonnegative_int,
        default=0,
        help="seed for breaking ties between equal moves (default 0)",
    )
    analyze.add_argument(
        "--json", action="store_true", help="print one JSON object instead of text"
    )
    _add_mcts_arguments(analyze)
    add_sandbox_argument(analyze)
    analyze.set_defaults(handler=command_analyze)


def _add_mcts_arguments(analyze: argparse.ArgumentParser) -> None:
    """Monte Carlo tree search's own settings (`--algorithm mcts`: no depth)."""
    analyze.add_argument(
        "--iterations",
        type=positive_int,
        help="with --algorithm mcts: iterations (default 10,000, or as many as --time allows)",
    )
    analyze.add_argument(
        "--c",
        type=float,
        metavar="C",
        help="with --algorithm mcts: UCB1's exploration constant (default 1.41)",
    )
    analyze.add_argument(
        "--playouts",
        choices=PLAYOUTS,
        help="with --algorithm mcts: random to the end, or cut off for the game's heuristic "
        "(default auto: the heuristic where the game has one)",
    )
