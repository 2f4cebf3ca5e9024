"""`trace`: record a textbook search of a position and print its tree (text or JSON)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from plyground.ai.engine.algorithms import PLAYING_ALGORITHMS
from plyground.ai.engine.mcts.settings import MCTS
from plyground.ai.engine.search import SearchError
from plyground.ai.student_code.isolated_runs import record_trace
from plyground.ai.textbook.counts import definitions_text
from plyground.ai.textbook.mcts_text import render_mcts_json, render_mcts_text, scores_note
from plyground.ai.textbook.mcts_trace import DEFAULT_ITERATIONS, ITERATION_BUDGET, record_mcts
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
    nonnegative_int,
    positive_int,
    read_position,
)

DEFAULT_DEPTH = 3


MCTS_ONLY = (("--iterations", "iterations"), ("--c", "c"), ("--seed", "seed"))
"""Monte Carlo tree search's own options (refused with the depth-limited searches)."""
DEPTH_ONLY = (
    ("--depth", "depth"),
    ("--heuristic", "heuristic"),
    ("--ordering", "ordering"),
    ("--table", "table"),
    ("--book", "book"),
    ("--budget", "budget"),
)
"""The depth-limited searches' options, meaningless for MCTS (no depth, no evaluation: random
playouts to the end)."""


def command_trace(args: argparse.Namespace) -> int:
    """Trace the position (or a textbook lesson) and print the tree."""
    state, algorithm, depth = _position(args)
    _check_options(args, algorithm)
    if algorithm == MCTS:
        return _trace_mcts(args, state)
    game = getattr(state, "game", None)
    if game is not None and hasattr(game, "option_values"):  # a game's position, not a lesson
        check_heuristic_cost(game, args.heuristic)
    try:
        recorded = record_trace(
            state,
            algorithm,
            depth,
            args.heuristic,
            ordering=args.ordering or "game",
            table=bool(args.table),
            node_budget=args.budget or NODE_BUDGET,
            book=bool(args.book),
        )
    except (SearchError, ValueError) as error:
        raise UsageError(f"trace: {error}") from None
    if args.json:
        sys.stdout.write(json.dumps(render_json(recorded), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_text(recorded) + "\n")
    return 0


def _check_options(args: argparse.Namespace, algorithm: str) -> None:
    """One line for an option the chosen algorithm has no use for."""
    if algorithm == MCTS:
        for flag, name in DEPTH_ONLY:
            if getattr(args, name) not in (None, False):
                raise UsageError(
                    f"trace: {flag} means nothing to MCTS (no depth, no heuristic: random "
                    "playouts to the end of the game); give it --iterations N"
                )
        return
    for flag, name in MCTS_ONLY:
        if getattr(args, name) is not None:
            raise UsageError(f"trace: {flag} is for --algorithm mcts")


def _trace_mcts(args: argparse.Namespace, state: Any) -> int:
    """Record the textbook MCTS and print each iteration, the root's children and the move."""
    iterations = args.iterations or _lesson_iterations(args) or DEFAULT_ITERATIONS
    if iterations > ITERATION_BUDGET:
        raise UsageError(
            f"trace: a traced MCTS prints every iteration: at most {ITERATION_BUDGET:,}, not "
            f"{iterations:,} (for more, analyze --algorithm mcts --iterations {iterations})"
        )
    try:
        c = () if args.c is None else (args.c,)
        recorded = record_mcts(state, iterations, args.seed or 0, *c)
    except (SearchError, ValueError) as error:
        raise UsageError(f"trace: {error}") from None
    if args.json:
        sys.stdout.write(json.dumps(render_mcts_json(recorded), ensure_ascii=False) + "\n")
    else:
        scores = scores_note(state)
        sys.stdout.write((f"{scores}\n" if scores else "") + render_mcts_text(recorded) + "\n")
    return 0


def _lesson_iterations(args: argparse.Namespace) -> int:
    """The lesson's own iterations (0 without a lesson, or for a lesson of another search)."""
    if args.lesson is None:
        return 0
    from plyground.games.trees.examples import TRACE_LESSONS

    return int(TRACE_LESSONS[args.lesson - 1].iterations)


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
        from plyground.games.trees.examples import TRACE_LESSONS, TreeGame, height

        if not 1 <= args.lesson <= len(TRACE_LESSONS):
            raise UsageError(f"--lesson must be 1 to {len(TRACE_LESSONS)}, not {args.lesson}")
        lesson = TRACE_LESSONS[args.lesson - 1]
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
    lines.append("plyground trace --lesson 4   # Monte Carlo tree search, its four phases")
    mcts = "plyground trace {game} --moves {moves} --algorithm mcts --iterations 30 --seed 1"
    lines.append(game_examples(mcts)[0].strip())
    lines.append('plyground trace --tree "(3,5,9)(1,7,14)(8,11,2)"   # a tree typed as text')
    lines.append('plyground trace --tree "[.9:(2,2) .1:(3,3)] [.9:(1,1) .1:(4,4)]"   # chance')
    examples = "\n".join(line if line.startswith("  ") else f"  {line}" for line in lines)
    parser = add_command(
        commands,
        "trace",
        "print the tree a textbook search walks (values, alpha/beta, cut-offs; MCTS iterations)",
        "Record minimax, alpha-beta (MAX-VALUE / MIN-VALUE with alpha and beta) or "
        "expectiminimax on a position and print every node: values backed up, the window, "
        "which children a cut-off skipped and why, chance nodes' weighted sums.  Depth counts "
        "player decisions; chance layers (dice) are free.  With --algorithm mcts, Monte Carlo "
        "tree search as the textbook writes it: each iteration's path selected by UCB1 (every "
        "child's value), the node added, the random playout and its result, the counts backed "
        "up; then the root's children (N, U/N, UCB1: estimates from playouts) and the most "
        "visited move, the one chosen.",
        f"examples:\n{examples}\n\n{games_help()}\n\n{definitions_text()}",
    )
    add_game_arguments(parser, required=False)
    parser.add_argument(
        "--lesson", type=int, help="a textbook tree instead of a game (1-3; 4: MCTS)"
    )
    parser.add_argument(
        "--tree",
        help="a tree typed as text: numbers are leaves, ( ) MIN/MAX nodes (alternating from "
        'MAX at the root), [p:( ) q:( )] chance nodes, e.g. "(3,5,9)(1,7,14)(8,11,2)"',
    )
    parser.add_argument(
        "--book",
        action="store_true",
        default=None,
        help="let the game's opening book answer positions as the engine does (default: off, "
        "the textbook's tree and node counts)",
    )
    parser.add_argument("--moves", default="", help="moves from the start, game notation")
    parser.add_argument(
        "--algorithm",
        choices=PLAYING_ALGORITHMS,
        help="default: the game's strongest depth-limited search (mcts: Monte Carlo tree search)",
    )
    parser.add_argument(
        "--depth", type=positive_int, help=f"decisions to look ahead (default {DEFAULT_DEPTH})"
    )
    parser.add_argument("--heuristic", help="default: the game's default heuristic")
    parser.add_argument("--ordering", choices=ORDERINGS, help="move order (default game)")
    parser.add_argument(
        "--table", action="store_true", default=None, help="use a transposition table"
    )
    parser.add_argument(
        "--budget", type=positive_int, help=f"stop past this many nodes (default {NODE_BUDGET:,})"
    )
    parser.add_argument(
        "--iterations",
        type=positive_int,
        help=f"with --algorithm mcts: iterations (default {DEFAULT_ITERATIONS}, a lesson its "
        f"own; at most {ITERATION_BUDGET:,})",
    )
    parser.add_argument(
        "--c",
        type=float,
        metavar="C",
        help="with --algorithm mcts: UCB1's exploration constant (default 1.41)",
    )
    parser.add_argument(
        "--seed",
        type=nonnegative_int,
        help="with --algorithm mcts: the playouts' random seed (default 0; one seed, one tree)",
    )
    parser.add_argument("--json", action="store_true", help="print the nodes as JSON")
    add_sandbox_argument(parser)
    parser.set_defaults(handler=command_trace)
