"""`tournament`: a round robin, its cross table and Elo ratings (and a PNG chart)."""

from __future__ import annotations

import argparse
import time
from typing import Any

from plyground.ai.evaluation.wording import counted
from plyground.ai.players.ray_executor import EXECUTORS, ExecutorError
from plyground.ai.players.text_table import format_seconds
from plyground.cli.args import (
    PROG,
    UsageError,
    add_command,
    add_game_arguments,
    add_sandbox_argument,
    check_games_cost,
    check_spec,
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
    console_for,
    print_table,
    say,
    table,
    void_or_aborted,
)
from plyground.cli.forfeits import ForfeitLog
from plyground.cli.output import RunningFile, check_png_path, output_file
from plyground.cli.stop_signals import exit_status, stop_reason, stopping_on_signals
from plyground.games.base import Game, moves_allowed

MAX_PLAYERS = 20
"""More players than this need --yes."""
MAX_GAMES = 2_000
"""More games in all than this need --yes."""


def command_tournament(args: argparse.Namespace) -> int:
    """`tournament`: every pair both ways, a cross table and Elo ratings."""
    from plyground.ai.players.tournament import TournamentResult, player_labels, run_tournament

    game, options, specs, descriptions, setup = tournament_setup(args)
    plot_file = check_png_path(args.plot, "--plot") if args.plot else None
    json_file = output_file(args.json, "--json")
    check_size(len(specs), setup.total_games, args)
    args.jobs = worker_count(args.jobs, setup.total_games)
    check_games_cost(game, specs, setup.total_games, args.jobs, args.yes, args.quiet)
    pairs = [pair for pair, _, _ in setup.tasks()]
    done = 0
    errors = console_for(stderr=True)
    forfeits = ForfeitLog(errors)
    labels = player_labels(specs)
    latest = [TournamentResult(specs)]
    started = time.perf_counter()

    def warn(line: str) -> None:
        say(errors, line, style="red")

    running_json = None if json_file is None else RunningFile(json_file, warn)

    def json_so_far() -> str:  # without the bootstrap intervals: those come at the end
        ranking = latest[0].ranking(seed=args.seed, samples=0)
        data = tournament_json(args, game, options, latest[0], ranking, descriptions, started)
        return json_text(data)

    stopped: KeyboardInterrupt | None = None
    with stopping_on_signals():
        with GameProgress(setup.total_games, enabled=not args.quiet) as progress:

            def on_game(record: Any, result: TournamentResult) -> None:
                nonlocal done
                done += 1
                latest[0] = result
                i, j = pairs[done - 1]
                forfeits.add(record, (labels[i], labels[j]), f"{labels[i]} vs {labels[j]}, ")
                if record.void:
                    say(errors, f"{labels[i]} vs {labels[j]}, {record.index + 1}: {record.void}")
                if running_json is not None:
                    running_json.update(json_so_far)
                progress.update(done)

            try:
                result = run_tournament(setup, args.jobs, on_game, args.executor, args.address)
            except ExecutorError as error:
                if done == 0:
                    raise UsageError(f"--executor ray: {error}") from None
                say(errors, f"{PROG}: --executor ray: {error}", style="red")
                result = latest[0]
            except KeyboardInterrupt as stop:  # Ctrl+C, SIGTERM, SIGHUP: the games so far
                stopped = stop
                result = latest[0]
        if stopped is not None:
            say(
                errors,
                f"{PROG}: {stop_reason(stopped)} after {done} of "
                f"{counted(setup.total_games, 'game')}; the results so far follow",
            )
        ranking = result.ranking(seed=args.seed)
        written = report_tournament(
            args, game, descriptions, (result, ranking, forfeits.summary()), started, plot_file
        )
        if running_json is not None:
            data = tournament_json(args, game, options, result, ranking, descriptions, started)
            written = write_json(running_json, data, args.json) and written
    if stopped is not None:
        return exit_status(stopped)
    return 0 if written else 2


def tournament_setup(
    args: argparse.Namespace,
) -> tuple[Any, dict[str, Any], tuple[str, ...], list[str], Any]:
    """The game, its options, the players, their descriptions and the `TournamentSetup`."""
    from plyground.ai.players.tournament import TournamentSetup

    game, options = game_from_args(args)
    specs = tuple(spec.strip() for spec in args.players.split(",") if spec.strip())
    if len(specs) < 2:
        raise UsageError(
            "--players needs at least two players separated by commas, e.g. easy,medium,hard"
        )
    descriptions = [check_spec(game, spec, "--players") for spec in specs]
    setup = TournamentSetup(
        game=game.name,
        options=tuple(sorted(options.items())),
        specs=specs,
        games_per_pair=args.games,
        seed=args.seed,
    )
    return game, options, specs, descriptions, setup


def write_json(running: RunningFile, data: dict[str, Any], path: str) -> bool:
    """The --json file at the end (False: it failed and the JSON went to stdout)."""
    if running.finish(json_text(data), "the results as JSON"):
        say(console_for(), f"Results written to {path}")
        return True
    return False


def report_tournament(
    args: argparse.Namespace,
    game: Game[Any],
    descriptions: list[str],
    outcome: tuple[Any, Any, list[str]],
    started: float,
    plot_file: Any,
) -> bool:
    """The tables (`outcome`: the result, its ranking, the forfeit lines) on stdout and the
    chart; returns whether the chart (if asked for) was drawn."""
    result, ranking, forfeit_lines = outcome
    wall = time.perf_counter() - started
    print_tournament(args, game, result.specs, descriptions, result, ranking, wall)
    for line in forfeit_lines:
        say(console_for(), line)
    if plot_file is None:
        return True
    from plyground.cli.rating_chart import draw_rating_chart

    title = f"{game.title}: {counted(args.games, 'game')} per pair, seed {args.seed}"
    try:
        draw_rating_chart(ranking, title, plot_file)
        say(console_for(), f"\nChart written to {args.plot}")
    except UsageError as error:
        say(console_for(stderr=True), f"{PROG}: {error}", style="red")
        return False
    return True


def tournament_json(
    args: argparse.Namespace,
    game: Game[Any],
    options: dict[str, Any],
    result: Any,
    ranking: Any,
    descriptions: list[str],
    started: float,
) -> dict[str, Any]:
    """The cross table, the ranking and the run's settings, for `--json FILE`."""
    data: dict[str, Any] = result.to_dict(ranking)
    data.update(
        game=game.name,
        options=options,
        seed=args.seed,
        games_per_pair=args.games,
        move_limit=moves_allowed(game),
        descriptions=descriptions,
        elapsed=time.perf_counter() - started,
    )
    return data


def check_size(players: int, total: int, args: argparse.Namespace) -> None:
    """Say how many games the tournament plays; refuse an absurd size without --yes."""
    size = f"{players} players, {counted(args.games, 'game')} per pair: {counted(total, 'game')}"
    if (players > MAX_PLAYERS or total > MAX_GAMES) and not args.yes:
        raise UsageError(
            f"{size} in all is more "
            f"than {MAX_GAMES:,} games or {MAX_PLAYERS} players; give --yes to play them anyway, "
            "or fewer --players or --games"
        )
    if not args.quiet:
        say(
            console_for(stderr=True),
            f"{size} in all",
        )


def print_tournament(
    args: argparse.Namespace,
    game: Game[Any],
    specs: tuple[str, ...],
    descriptions: list[str],
    result: Any,
    ranking: Any,
    wall: float,
) -> None:
    """The players, the cross table and the ranking on stdout."""
    from plyground.ai.players.tournament import ANCHOR, BOOTSTRAP_SAMPLES, player_labels

    out = console_for()
    say(
        out,
        f"{game.title} tournament: {len(specs)} players, {counted(args.games, 'game')} per pair "
        f"(half with each moving first), seed {args.seed}, {format_seconds(wall)}\n",
        style="bold",
    )
    labels = player_labels(specs)
    for number, (spec, description) in enumerate(zip(labels, descriptions, strict=True), start=1):
        say(out, f"{number}. {spec}: {description}")
    say(out, "\nPoints of the row player against the column player:")
    print_table(out, cross_table(result))
    say(
        out,
        "\nRanking: Elo from a maximum-likelihood Bradley-Terry fit of all games, "
        f"mean of the field = {ANCHOR:g};\n95% intervals from {BOOTSTRAP_SAMPLES} bootstrap "
        f"resamples of each pair's games (seed {args.seed}).\n",
    )
    rows = [
        [
            rank if rating.rated else "-",
            rating.label,
            f"{rating.elo:.0f}" if rating.rated else "unrated",
            f"{rating.low:.0f} to {rating.high:.0f}" if rating.rated else "no counted game",
            f"{rating.points:g}/{rating.games}",
            f"{100 * rating.points / rating.games:.1f}%" if rating.games else "-",
            format_seconds(
                result.think_time[rating.player] / max(1, result.decisions[rating.player])
            ),
            format_seconds(result.worst_time[rating.player]),
        ]
        for rank, rating in enumerate(ranking, start=1)
    ]
    headers = ["rank", "player", "Elo", "95% CI", "points", "score", "time/move", "worst move"]
    print_table(out, table(headers, rows, right=(0, 2, 3, 4, 5, 6, 7)))
    if result.aborted:
        limit = moves_allowed(game)
        say(out, f"{void_or_aborted(result.aborted, aborted=True, limit=limit)}.")
    if result.void:
        say(out, f"{void_or_aborted(result.void)}.")


def cross_table(result: Any) -> Any:
    """The cross table: the row player's points against each column player, and the total."""
    from plyground.ai.players.tournament import player_labels

    count = len(result.specs)
    rows = []
    for i, spec in enumerate(player_labels(result.specs)):
        cells = [f"{i + 1}. {spec}"]
        for j in range(count):
            pair = None if i == j else result.pairs[(i, j)]
            cells.append("-" if pair is None else f"{pair.points:g}/{pair.games}")
        cells.append(f"{result.points(i):g}/{result.games(i)}")
        rows.append(cells)
    headers = ["", *(str(number) for number in range(1, count + 1)), "total"]
    return table(headers, rows, right=tuple(range(1, count + 2)))


def add_parser(commands: Any) -> None:
    """The `tournament` subcommand's arguments."""
    lines = game_examples("plyground tournament {game} --players {players} --games 20 --seed 1")
    lines += game_examples(
        "plyground tournament {game} --players {weak},{strong} --jobs 2 --plot elo.png"
    )[:1]
    lines += game_examples(
        "plyground tournament {game} --players {strong},mcts:iterations=2000,mcts:time=0.5"
    )[:1]
    examples = "\n".join(lines)
    own = "\n".join(
        [
            *game_examples(
                'plyground tournament {game} --players "a.py,b.py,kaggle:c.py,{strong}"'
            ),
            *game_examples("plyground tournament {game} --players {players} --executor ray"),
        ][::3][:2]
    )
    tournament = add_command(
        commands,
        "tournament",
        "round robin: cross table and Elo ratings",
        "Every pair of players plays --games games, each moving first in half of "
        "them. Prints a cross table and a ranking with Elo ratings (maximum-likelihood "
        "Bradley-Terry fit of all games, mean of the field 1500) and 95% intervals (seeded "
        "bootstrap over each pair's games).",
        f"""examples:
{examples}
{own}

{games_help()}""",
    )
    add_game_arguments(tournament)
    tournament.add_argument(
        "--players",
        required=True,
        help="comma-separated players (presets, 'random', algorithm:key=value..., or your "
        "own files: my_agent.py, my_agent.py:name, kaggle:my_agent.py)",
    )
    tournament.add_argument(
        "--games", type=positive_int, default=20, help="games per pair (default 20)"
    )
    tournament.add_argument(
        "--seed", type=nonnegative_int, default=0, help="seed of the whole tournament (default 0)"
    )
    tournament.add_argument(
        "--jobs", type=positive_int, default=1, help="worker processes (default 1)"
    )
    tournament.add_argument(
        "--executor",
        choices=EXECUTORS,
        default="process",
        help="where games run: local worker processes (--jobs, the default) or a Ray "
        'cluster (pip install "plyground[cluster]"); the same seeded results either way',
    )
    tournament.add_argument(
        "--address",
        metavar="ADDR",
        help="the Ray cluster to join (auto, or ray://host:10001); default: a local Ray",
    )
    tournament.add_argument(
        "--plot", metavar="FILE.png", help="draw the ranking with 95%% intervals as a PNG chart"
    )
    tournament.add_argument(
        "--json", metavar="FILE", help="write the cross table and ranking as JSON"
    )
    tournament.add_argument(
        "--yes",
        action="store_true",
        help=f"play even more than {MAX_GAMES:,} games or {MAX_PLAYERS} players",
    )
    tournament.add_argument("--quiet", action="store_true", help="no progress on stderr")
    add_sandbox_argument(tournament)
    tournament.set_defaults(handler=command_tournament)
