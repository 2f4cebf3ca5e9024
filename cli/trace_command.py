"""`trace`: record a textbook search of a position and print its tree (text or JSON)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from plyground.ai.engine.search import ALGORITHMS, SearchError
from plyground.ai.student_code.isolated_runs import record_trace
from plyground.ai.textbook.counts import definitions_text
from plyground.ai.textbook.trace import NODE_BUDGET, ORDERINGS
from plyground.ai.textbook.trace_text import render_json, render_text
from plyground.cli.args import (
    UsageError,
    add_command,
    add_game_arguments,
    add_sandbox_argument,
    check_heuristic_cost,
    game_examples,
    game_from_args,
    games_help,
    positive_int,
    read_position,
)

DEFAULT_DEPTH = 3


def command_trace(args: argparse.Namespace) -> int:
    """Trace the position (or a textbook lesson) and print the tree."""
    state, algorithm, depth = _position(args)
    game = getattr(state, "game", None)
    if game is not None and hasattr(game, "option_values"):  # a game's position, not a lesson
        check_heuristic_cost(game, args.heuristic)
    try:
        recorded = record_trace(
            state,
            algorithm,
            depth,
            args.heuristic,
            ordering=args.ordering,
            table=args.table,
            node_budget=args.budget,
            book=args.book,
        )
    except (SearchError, ValueError) as error:
        raise UsageError(f"trace: {error}") from None
    if args.json:
        sys.stdout.write(json.dumps(render_json(recorded), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_text(recorded) + "\n")
    return 0


def _position(args: argparse.Namespace) -> tuple[Any, str, int]:
    """The state to trace, the algorithm and the depth to use."""
    if args.tree is not None:
        from plyground.games.trees.examples import TreeGame, height
        from plyground.games.trees.text import TreeTextError, parse_tree

        if args.lesson is not None or args.game is not None:
            raise UsageError("--tree is a tree of its own: leave out --lesson and --game")
        try:
            tree = parse_tree(args.tree)
        except TreeTextError as error:
            raise UsageError(f"trace: {error}") from None
        state = TreeGame(tree, "Your tree").initial_state()
        default = "expectiminimax" if state.game.stochastic else "alphabeta"
        return state, args.algorithm or default, args.depth or height(tree)
    if args.lesson is not None:
        from plyground.games.trees.examples import LESSONS, TreeGame, height

        if not 1 <= args.lesson <= len(LESSONS):
            raise UsageError(f"--lesson must be 1 to {len(LESSONS)}, not {args.lesson}")
        lesson = LESSONS[args.lesson - 1]
        state = TreeGame(lesson.tree, lesson.title).initial_state()
        return state, args.algorithm or lesson.algorithm, args.depth or height(lesson.tree)
    if args.game is None:
        raise UsageError('say which game: --game NAME (or --lesson N, or --tree "(3,5)(1,7)")')
    game, _options = game_from_args(args)
    _moves, state = read_position(game, args.moves)
    algorithm = args.algorithm or ("expectiminimax" if game.stochastic else "alphabeta")
    return state, algorithm, DEFAULT_DEPTH if args.depth is None else args.depth


def add_parser(commands: Any) -> None:
    """The `trace` subcommand's arguments."""
    lines = game_examples("plyground trace {game} --moves {moves} --depth 2")
    lines.append("plyground trace --lesson 1   # the textbook tree, alpha-beta")
    lines.append('plyground trace --tree "(3,5,9)(1,7,14)(8,11,2)"   # a tree typed as text')
    lines.append('plyground trace --tree "[.9:(2,2) .1:(3,3)] [.9:(1,1) .1:(4,4)]"   # chance')
    examples = "\n".join(lines)
    parser = add_command(
        commands,
        "trace",
        "print the tree a textbook search walks (values, alpha/beta, cut-offs)",
        "Record minimax, alpha-beta (MAX-VALUE / MIN-VALUE with alpha and beta) or "
        "expectiminimax on a position and print every node: values backed up, the window, "
        "which children a cut-off skipped and why, chance nodes' weighted sums.  Depth counts "
        "player decisions; chance layers (dice) are free.",
        f"examples:\n{examples}\n\n{games_help()}\n\n{definitions_text()}",
    )
    add_game_arguments(parser, required=False)
    parser.add_argument("--lesson", type=int, help="a textbook tree instead of a game (1-3)")
    parser.add_argument(
        "--tree",
        help="a tree typed as text: numbers are leaves, ( ) MIN/MAX nodes (alternating from "
        'MAX at the root), [p:( ) q:( )] chance nodes, e.g. "(3,5,9)(1,7,14)(8,11,2)"',
    )
    parser.add_argument(
        "--book",
        action="store_true",
        help="let the game's opening book answer positions as the engine does (default: off, "
        "the textbook's tree and node counts)",
    )
    parser.add_argument("--moves", default="", help="moves from the start, game notation")
    parser.add_argument("--algorithm", choices=ALGORITHMS, help="default: the game's strongest")
    parser.add_argument(
        "--depth", type=positive_int, help=f"decisions to look ahead (default {DEFAULT_DEPTH})"
    )
    parser.add_argument("--heuristic", help="default: the game's default heuristic")
    parser.add_argument("--ordering", choices=ORDERINGS, default="game", help="move order")
    parser.add_argument("--table", action="store_true", help="use a transposition table")
    parser.add_argument(
        "--budget", type=positive_int, default=NODE_BUDGET, help="stop past this many nodes"
    )
    parser.add_argument("--json", action="store_true", help="print the nodes as JSON")
    add_sandbox_argument(parser)
    parser.set_defaults(handler=command_trace)
