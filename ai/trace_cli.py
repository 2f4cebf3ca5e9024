"""The terminal command `trace`: print a recorded search as an indented tree or as JSON.

`main(argv)` is what `python main.py trace ...` calls (the integrator moves this module
under cli/).  Bad input gets one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

import games
from ai.engine import SearchError
from ai.search import ALGORITHMS
from ai.trace import NODE_BUDGET, ORDERINGS, trace
from ai.trace_render import render_json, render_text


class _Usage(Exception):
    """A one-line usage error."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(message)


def parser() -> argparse.ArgumentParser:
    """The `trace` command line."""
    p = _Parser(
        prog="trace",
        description="Record a textbook search of a position and print its tree. Depth counts "
        "player decisions; chance layers (dice) are free.",
    )
    p.add_argument("--game", choices=sorted(games.GAMES), help="the game")
    p.add_argument("--lesson", type=int, help="a textbook tree instead of a game (1, 2, 3)")
    p.add_argument("--moves", default="", help="moves from the start, in the game's notation")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. goal=20",
    )
    p.add_argument("--algorithm", choices=ALGORITHMS, help="default: the game's strongest")
    p.add_argument(
        "--depth",
        type=int,
        help="player decisions to look ahead (default 3; a lesson: its whole tree)",
    )
    p.add_argument("--heuristic", help="default: the game's default heuristic")
    p.add_argument("--ordering", choices=ORDERINGS, default="game")
    p.add_argument("--table", action="store_true", help="use a transposition table")
    p.add_argument("--budget", type=int, default=NODE_BUDGET, help="stop past this many nodes")
    p.add_argument("--json", action="store_true", help="print the nodes as JSON")
    return p


def _options(pairs: list[str]) -> dict[str, int]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise _Usage(f"--option wants NAME=NUMBER, not {pair!r}")
        options[name.strip()] = int(value)
    return options


def _position(args: argparse.Namespace) -> tuple[object, str, int]:
    """The state to trace, the algorithm and the depth to use."""
    if args.lesson is not None:
        from games.tree_examples import LESSONS, TreeGame, height

        if not 1 <= args.lesson <= len(LESSONS):
            raise _Usage(f"--lesson must be 1 to {len(LESSONS)}, not {args.lesson}")
        lesson = LESSONS[args.lesson - 1]
        state = TreeGame(lesson.tree, lesson.title).initial_state()
        return state, args.algorithm or lesson.algorithm, args.depth or height(lesson.tree)
    if args.game is None:
        raise _Usage("say which game: --game NAME (or --lesson N)")
    game = games.get_game(args.game, **_options(args.option))
    state = game.replay(game.parse_moves(args.moves))
    algorithm = args.algorithm or ("expectiminimax" if game.stochastic else "alphabeta")
    return state, algorithm, 3 if args.depth is None else args.depth


def main(argv: list[str] | None = None) -> int:
    """Run `trace` with `argv` (default: sys.argv[1:]); 0 on success, 2 on bad input."""
    try:
        args = parser().parse_args(argv)
        state, algorithm, depth = _position(args)
        recorded = trace(
            state,
            algorithm,
            depth,
            args.heuristic,
            ordering=args.ordering,
            table=args.table,
            node_budget=args.budget,
        )
    except _Usage as error:
        print(f"trace: error: {error}", file=sys.stderr)
        return 2
    except (SearchError, ValueError) as error:
        print(f"trace: error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(render_json(recorded), ensure_ascii=False))
    else:
        print(render_text(recorded))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
