"""`review`: review a game like lichess does: each decision's value, the best move, and the
moves that gave a result away or lost a share of the win chance (ai.advice.game_review)."""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time
from collections.abc import Iterator
from typing import IO, Any

from plyground.ai.evaluation.numbers import compact
from plyground.cli.args import (
    UsageError,
    add_command,
    add_game_arguments,
    dump_json,
    game_examples,
    game_from_args,
    game_names,
    games_help,
    read_position,
    read_save,
    seconds_arg,
)
from plyground.cli.console import console_for, print_table, say, table
from plyground.games.base import Game

ANNOUNCE_SECONDS = 2.0
"""A table the review must build first is announced when estimated to take this long."""
HEARTBEAT_SECONDS = 5.0
"""While it is built, how often the time so far is said."""


@contextlib.contextmanager
def announced_build(game: Game[Any]) -> Iterator[None]:
    """Say what the game's options make it build before the review (the estimated time and
    memory, from `ai.engine.cost`), and the time so far every HEARTBEAT_SECONDS while the
    block runs: a long silent wait reads as a hang."""
    from plyground.ai.engine import cost

    values = game.option_values() if hasattr(game, "option_values") else {}
    needed = cost.option_cost(type(game), values)
    if needed is None or needed.seconds < ANNOUNCE_SECONDS:
        yield
        return
    errors = console_for(stderr=True)
    say(
        errors,
        f"building {needed.what} first: {compact(needed.states, words=True)} states, about "
        f"{cost.format_duration(needed.seconds)} and {cost.format_bytes(needed.memory)} of "
        "memory (estimated; Ctrl+C stops it)",
    )
    done = threading.Event()
    started = time.perf_counter()

    def heartbeat() -> None:
        while not done.wait(HEARTBEAT_SECONDS):
            spent = cost.format_duration(time.perf_counter() - started)
            say(errors, f"  {spent} so far (about {cost.format_duration(needed.seconds)} in all)")

    beating = threading.Thread(target=heartbeat, name="review-heartbeat", daemon=True)
    beating.start()
    try:
        yield
    finally:
        done.set()
        beating.join()


def _evaluation_data(evaluation: Any) -> dict[str, Any]:
    return {
        "value": evaluation.value,
        "kind": evaluation.kind.value,
        "source": evaluation.source.value,
        "depth": evaluation.depth,
    }


def review_data(game: Game[Any], moves: list[Any], seconds: float | None) -> dict[str, Any]:
    """The review as plain data: positions (first player's view) and judged decisions."""
    from plyground.ai.advice.game_review import MARKS, review_game
    from plyground.ai.advice.report import statistics_data
    from plyground.ai.advice.review_evaluator import default_evaluator

    review = review_game(game.initial_state(), moves, default_evaluator(game, seconds))
    text = game.format_move
    positions = [
        {
            "index": p.index,
            "first_player": _evaluation_data(p.graph),
            "best_move": None if p.best_move is None else text(p.best_move),
            "lines": [
                {"moves": [text(m) for m in line.moves], **_evaluation_data(line.evaluation)}
                for line in p.lines[:3]
            ],
        }
        for p in review.positions
    ]
    decisions = [
        {
            "index": m.index,
            "number": number,
            "player": m.player,
            "move": text(m.move),
            "played": _evaluation_data(m.played),
            "best": _evaluation_data(m.best),
            "best_move": None if m.best_move is None else text(m.best_move),
            "judgement": None if m.judgement is None else m.judgement.value,
            "mark": MARKS[m.judgement] if m.judgement is not None else "",
            "reason": m.reason,
            **({} if m.statistics is None else {"mcts": statistics_data(m.statistics, m.played)}),
        }
        for number, m in enumerate(review.moves, start=1)
    ]
    return {
        "game": game.name,
        "options": game.option_values(),
        "moves": game.format_moves(moves),
        "positions": positions,
        "decisions": decisions,
    }


def print_review(game: Game[Any], moves: list[Any], seconds: float | None, out: IO[str]) -> None:
    """The review as a table: move, its value with its kind, the judgement, the best move."""
    from plyground.ai.advice.game_review import evaluation_text, findings_text, review_game
    from plyground.ai.advice.report import statistics_text
    from plyground.ai.advice.review_evaluator import default_evaluator

    review = review_game(game.initial_state(), moves, default_evaluator(game, seconds))
    stochastic = bool(game.stochastic)
    sides = game.side_names
    rows = []
    with_playouts = any(m.statistics is not None for m in review.moves)
    for number, m in enumerate(review.moves, start=1):
        best = "" if m.best_move is None else game.format_move(m.best_move)
        judgement = f"{m.mark} {m.judgement.value}: {m.reason}" if m.judgement else ""
        row: list[Any] = [
            number,
            sides[m.player],
            game.format_move(m.move),
            evaluation_text(m.played, stochastic),
        ]
        if with_playouts:  # Monte Carlo tree search valued it: its visits, share, UCB term
            row.append("" if m.statistics is None else statistics_text(m.statistics))
        rows.append([*row, best if best != game.format_move(m.move) else "=", judgement])
    out.write(f"{game.title}: {game.format_moves(moves) or '(no moves)'}\n\n")
    headers = ["#", "side", "move", "value for the mover", "best", "judgement"]
    if with_playouts:
        headers.insert(4, "playouts")
    print_table(console_for(out), table(headers, rows, (0,)))
    last = game.replay(moves)
    if last.is_terminal():
        winner = last.winner()
        end = "A draw" if winner is None else f"{sides[winner]} won"
    else:
        value = evaluation_text(review.positions[-1].graph, stochastic)
        where = f"After move {len(review.moves)}" if review.moves else "The start"
        end = f"{where}: for {sides[0]}, {value}"
    out.write(f"\n{findings_text(review.moves)}. {end}.\n")


def command_review(args: argparse.Namespace) -> int:
    """`review`: judge every decision of a game."""
    if args.load is not None:
        if args.moves is not None:
            raise UsageError("--moves and --load cannot be combined: a save file holds its moves")
        save = read_save(args.load)
        game, moves_text = save.game, save.moves_text
    elif args.game is None:
        raise UsageError(f"review needs --game ({', '.join(game_names())}) or --load SAVEFILE")
    else:
        game, _ = game_from_args(args)
        moves_text = args.moves or ""
    moves, _ = read_position(game, moves_text)
    if args.json:
        with announced_build(game):
            data = review_data(game, moves, args.seconds)
        dump_json(data, sys.stdout)
    else:
        with announced_build(game):
            print_review(game, moves, args.seconds, sys.stdout)
    return 0


def add_parser(commands: Any) -> None:
    """The `review` subcommand's arguments."""
    from plyground.ai.advice.review_evaluator import REVIEW_SECONDS

    examples = "\n".join(game_examples("plyground review {game} --moves {moves}"))
    review = add_command(
        commands,
        "review",
        "review a game: values, best moves, mistakes",
        "Review a game as lichess does: every decision with its value for the player who made "
        "it (exact where the game knows it: a solve, the opening book, an exact table; else an "
        "estimate, said so), the best move, and marks on the moves that gave a win or a draw "
        "away (✗) or lost a share of the win chance (?! inaccuracy, ? mistake, ?? blunder).",
        f"""examples:
{examples}
  plyground review --load saved-game.json --json

{games_help()}""",
    )
    add_game_arguments(review, required=False)
    review.add_argument("--moves", help="the game's moves in its notation (see below)")
    review.add_argument(
        "--load", metavar="SAVEFILE", help="read the game from a save file written by the window"
    )
    review.add_argument(
        "--seconds",
        type=seconds_arg,
        default=REVIEW_SECONDS,
        help=f"search budget a position where no exact answer is known (default {REVIEW_SECONDS})",
    )
    review.add_argument("--json", action="store_true", help="print one JSON object")
    review.set_defaults(handler=command_review)
