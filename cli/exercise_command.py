"""`exercise`: write minimax, alpha-beta, expectiminimax or MCTS yourself; the grader checks it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from plyground.cli.args import (
    UsageError,
    add_command,
    add_option_argument,
    add_sandbox_argument,
    make_game,
    nonnegative_int,
    options_given,
)
from plyground.cli.console import console_for, say
from plyground.untrusted import printable

EXERCISES = ("minimax", "alphabeta", "expectiminimax", "mcts")


def command_exercise(args: argparse.Namespace) -> int:
    """Print a starter file, or grade a student's file (exit 0 when every case passes)."""
    from plyground.ai.student_code.grader import check_file, file_seed, grade
    from plyground.ai.student_code.templates import template

    if args.template is not None:
        if args.name is not None or args.file is not None:
            raise UsageError("exercise --template NAME prints a starter: give nothing else")
        sys.stdout.write(template(args.template))
        return 0
    if args.name is None or args.file is None:
        raise UsageError(
            "exercise needs NAME FILE (e.g. exercise alphabeta my_search.py), "
            "or --template NAME for a starter"
        )
    if args.name not in EXERCISES:
        raise UsageError(f"unknown exercise {args.name!r}; choose one of: {', '.join(EXERCISES)}")
    try:
        check_file(args.name, args.file)
    except ValueError as error:
        raise UsageError(str(error)) from None
    out = console_for()
    seed = file_seed(args.file) if args.seed is None else args.seed
    game = None
    if args.game is not None:
        game = make_game(args.game, options_given(args))
        if args.name == "mcts" and game.stochastic:
            raise UsageError(f"{game.title} has chance: MCTS is graded on games without it")
        if args.name != "mcts" and game.stochastic != (args.name == "expectiminimax"):
            fits = "expectiminimax" if game.stochastic else "minimax, alphabeta or mcts"
            raise UsageError(f"{game.title} is graded on {fits}, not {args.name}")
    say(out, f"Grading {args.name} in {printable(args.file)}:", style="bold")
    if args.seed is None:
        say(out, f"  random trees from seed {seed}, this file's own: the same cases every run")
        say(out, "  (--seed N draws other random trees)")
    else:
        say(out, f"  random trees from seed {seed} (--seed {seed} replays this run)")
    failed: list[Any] = []
    shown: set[tuple[str, ...]] = set()

    def on_case(outcome: Any) -> None:
        mark = "pass" if outcome.passed else "FAIL"
        say(out, f"  {mark}  {outcome.case.title}: {outcome.line}")
        if outcome.details and outcome.details not in shown:  # each traceback once
            shown.add(outcome.details)
            for line in outcome.details:
                say(out, f"          {line}")
        if not outcome.passed:
            failed.append(outcome)

    try:
        outcomes = grade(
            args.name, args.file, on_case, seed=seed, game=None if game is None else game.name
        )
    except ValueError as error:  # the worker could not start: the set-up's problem, said once
        print(f"plyground exercise: {error}", file=sys.stderr)
        return 2
    passed = len(outcomes) - len(failed)
    say(out)
    say(
        out,
        f"{passed} of {len(outcomes)} passed"
        + ("." if not failed else f"; the first failure: {failed[0].case.title}."),
        style="bold",
    )
    if args.explore and args.name == "mcts":
        say(
            out,
            "--explore draws the minimax family's trees; for mcts the lines above name "
            "the first iteration where the counts part.",
        )
    elif failed and args.explore:
        from plyground.gui.explorer.exercise_scene import explore

        explore(failed[0])
    elif args.explore:
        say(out, "Nothing to explore: every case passed.")
    return 0 if not failed else 1


def add_parser(commands: Any) -> None:
    """The `exercise` subcommand's arguments."""
    parser = add_command(
        commands,
        "exercise",
        "write minimax, alpha-beta, expectiminimax or MCTS yourself and have it graded",
        "Write the textbook search in a file of your own and grade it: you write its root "
        "form, NAME_decision(game, state, depth) returning (move, value), as in "
        "ai/textbook/; the grader runs it (in a worker process, with a time limit) on the "
        "textbook trees, random trees (from a seed of the file's own: the same cases every "
        "run; --seed N draws others) and positions of every game, and compares the sequence "
        "of leaves your search asks the grader for, the value and the move with the "
        "reference trace; the first leaf that differs is named. "
        "Values are from MAX's point of view; depth counts decisions (chance layers use "
        "none). For mcts you write monte_carlo_tree_search(game, state, iterations, rng, c) "
        "returning (move, root node): it runs beside the textbook's on the same positions "
        "with the same random stream, and the grader compares the root's visit counts after "
        "every iteration (naming the first where they part), the invariants (a parent's N is "
        "its children's plus its own playouts), the final tree and the move. "
        "Exit status 0 when every case passes, 1 otherwise.",
        """examples:
  plyground exercise --template alphabeta > my_search.py
  plyground exercise alphabeta my_search.py
  plyground exercise alphabeta my_search.py --explore
  plyground exercise expectiminimax my_chance.py
  plyground exercise --template mcts > my_mcts.py
  plyground exercise mcts my_mcts.py

the textbook's game API your function gets: game.to_move(s) ("max", "min" or "chance"),
game.actions(s), game.result(s, a), game.chance_outcomes(s) (a list of (outcome,
probability)), game.is_cutoff(s, depth), game.evaluate(s); see --template for a starter.""",
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help=", ".join(EXERCISES))
    parser.add_argument("file", nargs="?", metavar="FILE", help="your Python file")
    parser.add_argument(
        "--game",
        metavar="GAME",
        help="grade on positions of this game (a built-in one or FILE.py[:CLASS]), drawn by "
        "random play from the seed, instead of the built-in games' positions",
    )
    add_option_argument(parser)
    parser.add_argument(
        "--template", choices=EXERCISES, metavar="NAME", help="print a starter file for NAME"
    )
    parser.add_argument(
        "--seed",
        type=nonnegative_int,
        metavar="N",
        help="draw the random trees from seed N (default: a seed drawn from the file's name, "
        "the same every run)",
    )
    parser.add_argument(
        "--explore",
        action="store_true",
        help="open the explorer on the first failing case: your tree beside the reference",
    )
    add_sandbox_argument(parser)
    parser.set_defaults(handler=command_exercise)
