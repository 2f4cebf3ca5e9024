"""`hint`: what the window's Hint shows for a position, through the same advisor."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from plyground.cli.args import (
    UsageError,
    add_command,
    add_game_arguments,
    dump_json,
    game_examples,
    game_from_args,
    games_help,
    read_position,
)
from plyground.games.base import Game, State


def hint_report(game: Game[Any], state: State[Any]) -> dict[str, Any]:
    """The hint as plain data: the move, its value with kind and source, every move's value,
    the evaluator that answered ('Advice: exact table'), as the window shows them."""
    from plyground.ai.advice.advisor import advise
    from plyground.ai.engine.search import SearchError
    from plyground.ai.evaluation.wording import as_json, value_text
    from plyground.games.base import CHANCE

    if state.is_terminal():
        raise UsageError("the game is over: there is no move to hint")
    if state.to_move == CHANCE:
        raise UsageError("the dice are rolling: a hint is for a player's decision")
    try:
        result, title = advise(game, state)
    except SearchError as error:
        raise UsageError(str(error)) from None
    stochastic = bool(game.stochastic)
    side = game.side_names[state.player]
    evaluation = result.evaluation
    report = {
        "game": game.name,
        "side": side,
        "move": game.format_move(result.move),
        **as_json(evaluation),
        "meaning": value_text(evaluation, stochastic, side),
        "advice": title,
        "moves": [
            {
                "move": game.format_move(move),
                **as_json(value),
                "meaning": value_text(value, stochastic, side),
            }
            for move, value in sorted(result.move_values.items(), key=lambda item: -item[1].value)
        ],
    }
    if result.details.playouts is not None:  # Monte Carlo tree search: each move's figures
        from plyground.ai.evaluation.wording import legend
        from plyground.cli.analyze_command import playout_fields

        report["mcts"] = playout_fields(game, result)
        report["legend"] = list(legend(stochastic, result.move_values.values()))
    return report


def command_hint(args: argparse.Namespace) -> int:
    """`hint`: the advised move of a position."""
    game, _ = game_from_args(args)
    _moves, state = read_position(game, args.moves or "")
    report = hint_report(game, state)
    if args.json:
        dump_json(report, sys.stdout)
        return 0
    out = sys.stdout
    out.write(f"Hint for {report['side']}: {report['move']} · {report['meaning']}\n")
    out.write(f"Advice: {report['advice']}\n")
    if "mcts" in report:
        from plyground.cli.analyze_command import print_playout_table

        out.write("\n")
        print_playout_table(report["moves"], report["mcts"], out)
        out.write("Key: " + " · ".join(report["legend"]) + "\n")
        return 0
    others = [f"{entry['move']} {entry['meaning']}" for entry in report["moves"]]
    out.write("Moves: " + " · ".join(others) + "\n")
    return 0


def add_parser(commands: Any) -> None:
    """The `hint` subcommand's arguments."""
    examples = "\n".join(
        game_examples("plyground hint {game} --moves {moves}")
        + game_examples("plyground hint {game} --moves {moves} --json")[:1]
    )
    parser = add_command(
        commands,
        "hint",
        "the window's Hint for a position",
        "Print what the window's Hint shows: the advised move and every move's value, from "
        "the best evaluator the game has at the position (an exact table, the opening book "
        "or a solve, else the strongest preset on a small budget), never from an opponent's "
        "difficulty. Where that preset is MCTS (a game with no evaluation), a table gives each "
        "move's mean result (an estimate from its playouts), visits N, share and UCB term.",
        f"""examples:
{examples}

{games_help()}""",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--moves", help="the moves played so far in the game's notation (see below)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (move, value, kind, source)"
    )
    parser.set_defaults(handler=command_hint)
