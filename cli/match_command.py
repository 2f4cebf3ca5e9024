"""`match`: two players, N games, the score with a confidence interval."""

from __future__ import annotations

import argparse
import json
import math
import textwrap
import time
from collections.abc import Callable
from typing import Any

from plyground.ai.evaluation.wording import counted
from plyground.ai.players.text_table import format_seconds
from plyground.cli.args import (
    PROG,
    add_command,
    add_game_arguments,
    add_sandbox_argument,
    check_games_cost,
    check_spec,
    finite,
    game_examples,
    game_from_args,
    games_help,
    json_text,
    nonnegative_int,
    positive_int,
    worker_count,
)
from plyground.cli.console import (
    GameProgress,
    children_peak_megabytes,
    console_for,
    print_table,
    rss_megabytes,
    say,
    table,
    void_or_aborted,
)
from plyground.cli.forfeits import ForfeitLog
from plyground.cli.output import RunningFile, output_file
from plyground.cli.stop_signals import exit_status, stop_reason, stopping_on_signals
from plyground.games.base import Game, moves_allowed
from plyground.untrusted import printable

HEADERS = (
    "player",
    "wins",
    "draws",
    "losses",
    "score",
    "95% CI",
    "moving 1st",
    "moving 2nd",
    "time/move",
    "worst",
    "nodes/move",
)


def command_match(args: argparse.Namespace) -> int:
    """`match`: two players, N games."""
    from plyground.ai.players.match import MatchSetup, MatchTally, run_match

    game, options = game_from_args(args)
    descriptions = [check_spec(game, args.p1, "--p1"), check_spec(game, args.p2, "--p2")]
    args.jobs = worker_count(args.jobs, args.games)
    check_games_cost(game, (args.p1, args.p2), args.games, args.jobs, args.yes, args.quiet)
    setup = MatchSetup(
        game=game.name,
        options=tuple(sorted(options.items())),
        specs=(args.p1, args.p2),
        seed=args.seed,
        swap=args.swap,
    )
    errors = console_for(stderr=True)
    files = MatchFiles(args, errors)  # checked now: a bad path is refused before any game
    if args.verbose:
        current, peak = rss_megabytes()
        say(errors, f"memory at start: {current:.1f} MiB resident (peak {peak:.1f} MiB)")
    latest = [MatchTally()]
    progress = GameProgress(args.games, enabled=not args.quiet)
    forfeits = ForfeitLog(errors)
    started = time.perf_counter()

    def json_so_far() -> dict[str, Any]:
        wall = time.perf_counter() - started
        return match_json(args, setup, latest[0], descriptions, files.records, wall)

    def on_game(record: Any, tally: MatchTally) -> None:
        latest[0] = tally
        forfeits.add(record, ("A", "B"))
        if record.void:
            say(errors, f"game {record.index + 1}: {record.void}")
        files.add(record, json_so_far)
        a, b = tally.players
        progress.update(tally.games + tally.void, f"A {a.points:g} - {b.points:g} B")

    stopped: KeyboardInterrupt | None = None
    with stopping_on_signals():
        try:
            tally = run_match(setup, args.games, args.jobs, on_game)
        except KeyboardInterrupt as stop:  # Ctrl+C, SIGTERM, SIGHUP: report the games so far
            stopped = stop
            tally = latest[0]
        finally:
            progress.close()
        wall = time.perf_counter() - started
        if stopped is not None:
            say(
                errors,
                f"{PROG}: {stop_reason(stopped)} after {tally.games + tally.void} of "
                f"{counted(args.games, 'game')}; the results so far follow",
            )
        print_match(args, game, setup, tally, descriptions, wall, stopped is not None)
        for line in forfeits.summary():
            say(console_for(), line)
        written = files.write_record()
        if args.verbose:
            current, peak = rss_megabytes()
            workers = ""
            if args.jobs > 1:
                workers = f", largest worker peak {children_peak_megabytes():.1f} MiB"
            say(
                errors,
                f"memory at end: {current:.1f} MiB resident (peak {peak:.1f} MiB{workers})",
            )
        written = (
            files.write_json(match_json(args, setup, tally, descriptions, files.records, wall))
            and written
        )
    if stopped is not None:
        return exit_status(stopped)
    return 0 if written else 2


class MatchFiles:
    """A match's --record and --json: rewritten whole as each game ends (`RunningFile`), so a
    killed run keeps every finished game; written once more, flushed to the disk, at the end."""

    def __init__(self, args: argparse.Namespace, errors: Any) -> None:
        def warn(line: str) -> None:
            say(errors, line, style="red")

        record_file = output_file(args.record, "--record")
        json_file = output_file(args.json, "--json")
        self.args = args
        self.record = None if record_file is None else RunningFile(record_file, warn)
        self.json = None if json_file is None else RunningFile(json_file, warn)
        self.moves: list[str] = []
        self.records: list[dict[str, Any]] = []
        self.games_text: list[str] = []
        """Each game's part of the --json text, made once (the file is rewritten per game)."""

    def add(self, record: Any, summary: Callable[[], dict[str, Any]]) -> None:
        """One finished game (`summary()`: the --json data so far, made only when written)."""
        from plyground.ai.players.match import record_dict

        if self.record is not None and not record.void:
            self.moves.append(record.moves + "\n")
            self.record.update(lambda: "".join(self.moves))
        if self.json is not None:
            self.records.append(record_dict(record))
            game = json.dumps(finite(self.records[-1]), indent=2)
            self.games_text.append(textwrap.indent(game, "    "))
            self.json.update(lambda: self.json_text(summary()))

    def json_text(self, data: dict[str, Any]) -> str:
        """`json_text(data)` with `data["games_played"]` from the games' texts made once: the
        same text, without serialising every game again after each game."""
        head = json_text({key: value for key, value in data.items() if key != "games_played"})
        games = ",\n".join(self.games_text)
        played = f'"games_played": [\n{games}\n  ]' if games else '"games_played": []'
        return f"{head.rstrip().removesuffix('}').rstrip()},\n  {played}\n}}\n"

    def write_record(self) -> bool:
        """The --record file at the end (False: it failed and the moves went to stdout)."""
        if self.record is None:
            return True
        written = self.record.finish("".join(self.moves), "the moves of every game")
        if written:
            say(console_for(), f"Moves of every game written to {self.args.record}")
        return written

    def write_json(self, data: dict[str, Any]) -> bool:
        """The --json file at the end (False: it failed and the JSON went to stdout)."""
        if self.json is None:
            return True
        if self.json.finish(json_text(data), "the results as JSON"):
            say(console_for(), f"Results written to {self.args.json}")
            return True
        return False


def print_match(
    args: argparse.Namespace,
    game: Game[Any],
    setup: Any,
    tally: Any,
    descriptions: list[str],
    wall: float,
    interrupted: bool,
) -> None:
    """The match report on stdout: players, a table of results, the score and Elo difference."""
    from plyground.ai.players.match import SIDES, elo_difference

    out = console_for()
    first = "A and B alternate moving first (--swap)" if args.swap else "A always moves first"
    say(
        out,
        f"{game.title}: {counted(tally.games, 'game')}"
        + (f" (interrupted, of {args.games})" if interrupted else "")
        + f", seed {args.seed}, {first}, {format_seconds(wall)}\n",
        style="bold",
    )
    for side, spec in enumerate(setup.specs):
        say(out, f"{SIDES[side]} = {printable(spec)}: {descriptions[side]}")
    say(out)
    rows = []
    for side, player in enumerate(tally.players):
        low, high = tally.score_interval(side)
        rows.append(
            [
                SIDES[side],
                player.wins,
                player.draws,
                player.losses,
                f"{100 * tally.score(side):.1f}%",
                f"{100 * low:.1f}-{100 * high:.1f}%",
                f"{player.score_first:g}/{player.games_first}",
                f"{player.score_second:g}/{player.games_second}",
                format_seconds(player.time_per_move),
                format_seconds(player.worst_time),
                f"{player.nodes_per_move:,.0f}",
            ]
        )
    print_table(out, table(HEADERS, rows, right=tuple(range(1, 11))))
    score = tally.score(0)
    low, high = tally.score_interval(0)
    say(
        out,
        f"\nA scores {100 * score:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%, Wilson), "
        f"Elo difference A-B {signed_elo(elo_difference(score))} "
        f"({signed_elo(elo_difference(low))} to {signed_elo(elo_difference(high))})",
        style="bold",
    )
    if tally.aborted:
        limit = moves_allowed(game)
        say(out, f"{void_or_aborted(tally.aborted, aborted=True, limit=limit)}.")
    if tally.void:
        say(out, f"{void_or_aborted(tally.void)}.")


def match_json(
    args: argparse.Namespace,
    setup: Any,
    tally: Any,
    descriptions: list[str],
    records: list[dict[str, Any]],
    wall: float,
) -> dict[str, Any]:
    """The summary and every game, for `--json FILE`."""
    from plyground.ai.players.match import elo_difference, summary_dict

    data = summary_dict(setup, tally, descriptions)
    data.update(
        elapsed=wall,
        jobs=args.jobs,
        elo_difference=elo_difference(tally.score(0)),
        games_played=records,
    )
    return data


def signed_elo(elo: float) -> str:
    """An Elo difference, with infinities shown as such."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{round(elo) or 0:+d}"  # never "-0"


def add_parser(commands: Any) -> None:
    """The `match` subcommand's arguments."""
    lines = game_examples("plyground match {game} --p1 {strong} --p2 {weak} --games 100 --swap")
    lines += game_examples(
        "plyground match {game} --p1 {weak} --p2 alphabeta:depth=2 --games 200 --jobs 2 "
        "--record games.txt --json results.json"
    )[:1]
    examples = "\n".join(lines)
    match = add_command(
        commands,
        "match",
        "play two players against each other for N games",
        "Play N games between two players and report wins, draws and losses for "
        "each player (by player, not by seat), the score with a 95% Wilson interval, and time "
        "and nodes per move. Game i draws its dice and tie-breaks from seeds derived from "
        "(--seed, i), so the same command gives the same games, whatever --jobs.",
        f"""a player is a preset name, 'random', or algorithm:key=value:... with keys
depth, heuristic, time (seconds), randomness (noise added to root values), e.g.
alphabeta:depth=4:heuristic=windows or expectiminimax:depth=3; Monte Carlo tree
search (any game, even one with no evaluation) takes iterations, time, c
(exploration) and playouts (random, heuristic, auto) instead of a depth, e.g.
mcts:iterations=20000, mcts:time=1.5 or mcts:time=1:c=1.
a player from your own file: my_agent.py (its choose(state)), my_agent.py:name,
kaggle:my_agent.py (a Kaggle agent), or heuristic=my_eval.py (its evaluate(state));
it runs in a worker process with a time limit per move, and loses a game by forfeit
when its code fails.
(a player with a time budget depends on the clock, so it may not replay exactly.)

examples:
{examples}

{games_help()}""",
    )
    add_game_arguments(match)
    match.add_argument(
        "--p1", required=True, metavar="PLAYER", help="player A (moves first unless --swap)"
    )
    match.add_argument("--p2", required=True, metavar="PLAYER", help="player B")
    match.add_argument(
        "--games", type=positive_int, default=10, help="number of games (default 10)"
    )
    match.add_argument(
        "--seed", type=nonnegative_int, default=0, help="seed of the whole match (default 0)"
    )
    match.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        help="worker processes (default 1; results do not depend on it)",
    )
    match.add_argument(
        "--swap",
        action="store_true",
        help="alternate who moves first (B first in odd-numbered games)",
    )
    match.add_argument(
        "--record",
        metavar="FILE",
        help="write every game's moves, one game a line, in the game's notation",
    )
    match.add_argument("--json", metavar="FILE", help="write the summary and every game as JSON")
    match.add_argument(
        "--verbose", action="store_true", help="report memory in use at the start and the end"
    )
    match.add_argument("--quiet", action="store_true", help="no progress on stderr")
    match.add_argument(
        "--yes",
        action="store_true",
        help="play even a match estimated to take more than an hour",
    )
    add_sandbox_argument(match)
    match.set_defaults(handler=command_match)
