"""Plyground's entry point: no arguments open the window; subcommands work in the terminal.

    python main.py                      the window (gui.app.run)
    python main.py analyze ...          value every move of a position
    python main.py match ...            two players, N games, score with a confidence interval
    python main.py tournament ...       round robin, cross table, Elo ratings
    python main.py bench ...            search speed on fixed positions
    python main.py screenshot ...       render a scene of the window to a PNG

A bad argument prints one line on stderr (what is wrong and what is allowed) and exits
with status 2; nothing prints a traceback unless PLYGROUND_DEBUG=1 is set.  pygame and
the GUI are imported only by the commands that draw.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from ai.search import ALGORITHM_TITLES, MAX_DEPTH
from ai.text_table import format_seconds, format_table

if TYPE_CHECKING:
    from ai.tournament import Rating

PROG = "plyground"
DEFAULT_DEPTH = {"tictactoe": None, "connect4": 8, "pig": 4}
"""`analyze --depth` when none is given (None: search to the end)."""
SCENES = ("menu", "setup", "play", "gameover", "analysis", "resume", "series")


class UsageError(Exception):
    """A bad argument or input: reported as one line on stderr, exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one line (no usage dump) raised as UsageError."""

    def error(self, message: str) -> NoReturn:
        """Turn argparse's complaint into a UsageError naming the command."""
        raise UsageError(f"{self.prog}: {message} (see --help)")


# --------------------------------------------------------------------------- validation


def positive_int(text: str) -> int:
    """An integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not allowed: use a whole number of 1 or more")
    return value


def nonnegative_int(text: str) -> int:
    """An integer >= 0 (seeds)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not allowed: use a whole number of 0 or more")
    return value


def depth_arg(text: str) -> int | None:
    """A search depth 1..MAX_DEPTH, or 'solve' for no limit."""
    if text.lower() in ("solve", "none", "max"):
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a depth: use 1-{MAX_DEPTH} or 'solve'"
        ) from None
    if not 1 <= value <= MAX_DEPTH:
        raise argparse.ArgumentTypeError(
            f"depth {value} is out of range: use 1-{MAX_DEPTH} or 'solve'"
        )
    return value


def seconds_arg(text: str) -> float:
    """A positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text} is not allowed: use a number of seconds above 0")
    return value


def size_arg(text: str) -> tuple[int, int]:
    """A window size WIDTHxHEIGHT."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size: use WIDTHxHEIGHT, e.g. 1280x800")
    width, height = int(match[1]), int(match[2])
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(
            f"size {width}x{height} is out of range: 320x240 to 7680x4320"
        )
    return width, height


def game_names() -> list[str]:
    """The registered games."""
    import games

    return list(games.GAMES)


def make_game(name: str, goal: int | None = None, options: dict[str, Any] | None = None) -> Any:
    """The game `name` with its options; `--goal` applies to Pig only."""
    import games

    settings = dict(options or {})
    if goal is not None:
        if name != "pig":
            raise UsageError(f"--goal applies only to pig, not to {name}")
        settings["goal"] = goal
    try:
        return games.get_game(name, **settings)
    except (TypeError, ValueError) as error:
        raise UsageError(f"cannot make game {name!r} with options {settings}: {error}") from None


def read_position(game: Any, text: str) -> tuple[list[Any], Any]:
    """The moves in `text` (the game's notation) and the position they reach.

    The games check move text by replaying it, so a malformed or illegal move (a Pig roll
    at a die roll, a move after the end) is refused naming its number and its text.
    """
    try:
        moves = list(game.parse_moves(text))
        return moves, game.replay(moves)
    except ValueError as error:
        raise UsageError(f"{game.name} moves {text!r}: {error}") from None


def check_spec(game: Any, spec: str, option: str) -> str:
    """Validate a player spec; return its description."""
    from ai.match import check_player_spec

    try:
        return check_player_spec(game, spec)
    except ValueError as error:
        raise UsageError(f"{option} {spec!r}: {error}") from None


def open_output(path: str, option: str) -> IO[str]:
    """Open a file for writing now, so a bad path fails before any work is done."""
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{option} {path}: cannot write: {error.strerror or error}") from None


def check_png_path(path: str, option: str) -> None:
    """A PNG path whose folder exists."""
    if not path.lower().endswith(".png"):
        raise UsageError(f"{option} {path}: the file name must end in .png")
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: the folder {folder} does not exist")


def read_save(path: str) -> Any:
    """A save file written by the window, checked field by field and replayed (gui.savefile)."""
    from gui.savefile import SaveError, load_game

    try:
        return load_game(path)
    except SaveError as error:
        raise UsageError(f"--load {error}") from None


# --------------------------------------------------------------------------- shared text


def rss_megabytes() -> tuple[float, float]:
    """(current resident memory, peak resident memory) of this process in MiB."""
    current = 0.0
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        current = pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return current, peak


class Progress:
    """A progress line on stderr: redrawn in place on a terminal, one line per ~10% otherwise."""

    def __init__(self, total: int, stream: IO[str] | None = None, enabled: bool = True) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.tty = enabled and self.stream.isatty()
        self.lines = enabled and not self.tty
        self.start = time.perf_counter()
        self.last_draw = 0.0
        self.next_tenth = 1

    def update(self, done: int, text: str) -> None:
        """Show `done` of `total` with `text` (the score so far) and the time left."""
        text = f"{text}  " if text else ""
        now = time.perf_counter()
        elapsed = now - self.start
        left = elapsed / done * (self.total - done) if done else 0.0
        if self.tty and (now - self.last_draw >= 0.1 or done == self.total):
            self.last_draw = now
            width = 24
            filled = int(width * done / self.total)
            bar = "#" * filled + "." * (width - filled)
            self.stream.write(
                f"\r[{bar}] {done}/{self.total}  {text}{format_seconds(left)} left \x1b[K"
            )
            self.stream.flush()
        elif self.lines and done * 10 >= self.next_tenth * self.total:
            while done * 10 >= self.next_tenth * self.total:
                self.next_tenth += 1
            self.stream.write(f"{done}/{self.total} games  {text}{format_seconds(left)} left\n")
            self.stream.flush()

    def close(self) -> None:
        """Erase the in-place line, so the report starts on a clean line."""
        if self.tty:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def write_json(handle: IO[str], data: Any) -> None:
    """Write JSON (no NaN or infinity: they become null) and close the file."""
    with handle:
        json.dump(_finite(data), handle, indent=2)
        handle.write("\n")


def _finite(data: Any) -> Any:
    """A copy of `data` with NaN and infinities replaced by None (strict JSON)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_finite(value) for value in data]
    return data


# --------------------------------------------------------------------------- analyze


def analyze_position(
    game: Any,
    state: Any,
    algorithm: str,
    depth: int | None,
    heuristic: str | None,
    time_limit: float | None,
    seed: int,
) -> dict[str, Any]:
    """Search `state` and return the report as plain data, moves in the game's notation.

    At a chance node (Pig, after a roll) `ai.search` values every die face for the player
    who rolled; the report's value is their probability-weighted mean.
    """
    import ai
    from ai.cost import judge
    from ai.report import progress_line, speed, values_note, versus_tree
    from ai.values import describe
    from games.base import CHANCE

    stochastic = bool(game.stochastic)
    report: dict[str, Any] = {
        "game": game.name,
        "title": game.title,
        "ply": state.ply,
        "position": game.render(state),
        "algorithm": algorithm,
        "depth_asked": depth,
        "terminal": state.is_terminal(),
    }
    if state.is_terminal():
        winner = state.winner()
        report["winner"] = None if winner is None else winner + 1
        return report
    verdict = judge(state, algorithm, depth, time_limit)
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
        result = ai.search(
            state,
            algorithm=algorithm,
            depth=depth,
            heuristic=heuristic,
            time_limit=time_limit,
            seed=seed,
            progress=show_progress,
        )
    except ai.SearchError as error:
        raise UsageError(str(error)) from None
    chance = state.to_move == CHANCE
    probabilities = dict(state.chance_outcomes()) if chance else {}
    report.update(
        chance=chance,
        to_move=state.player + 1,
        moves=[
            {
                "move": game.format_move(move),
                "value": value,
                "meaning": describe(value, stochastic, result.exact),
                **({"probability": probabilities[move]} if chance else {}),
            }
            for move, value in sorted(result.move_values.items(), key=lambda item: -item[1])
        ],
        best_move=None if chance else game.format_move(result.move),
        value=result.value,
        meaning=describe(result.value, stochastic, result.exact),
        pv=game.format_moves(list(result.pv)),
        depth=result.depth,
        complete=result.complete,
        exact=result.exact,
        heuristic=result.heuristic,
        nodes=result.nodes,
        leaf_evaluations=result.leaf_evaluations,
        cutoffs=result.cutoffs,
        table_hits=result.table_hits,
        elapsed=result.elapsed,
        nodes_per_second=result.nodes_per_second,
        speed=speed(result),
        estimated_nodes=verdict.nodes,
        versus_minimax=versus_tree(result) if result.algorithm == "alphabeta" else None,
        values_note=values_note(result, stochastic),
    )
    return report


def print_analysis(report: dict[str, Any], out: IO[str]) -> None:
    """The analysis as text."""
    write = out.write
    write(f"{report['title']}, after {report['ply']} moves\n\n{report['position'].rstrip()}\n\n")
    if report["terminal"]:
        winner = report["winner"]
        write("The game is over: " + ("a draw.\n" if winner is None else f"player {winner} won.\n"))
        return
    depth = "to the end" if report["depth_asked"] is None else f"depth {report['depth_asked']}"
    title = ALGORITHM_TITLES.get(report["algorithm"], report["algorithm"])
    settings = f"{title}, {depth}, heuristic {report['heuristic']}"
    if report["chance"]:
        write(f"Next comes a die roll for player {report['to_move']}. {settings}.\n\n")
        rows = [
            [
                entry["move"],
                f"{entry['probability']:.3f}",
                _signed4(entry["value"]),
                entry["meaning"],
            ]
            for entry in report["moves"]
        ]
        for line in format_table(["face", "probability", "value", "meaning"], rows, right=(1, 2)):
            write(line + "\n")
        write(
            f"\nExpectation for player {report['to_move']}: {_signed4(report['value'])} "
            f"({report['meaning']})\n"
        )
    else:
        write(f"Player {report['to_move']} to move. {settings}.\n\n")
        rows = [
            [entry["move"], _signed4(entry["value"]), entry["meaning"]] for entry in report["moves"]
        ]
        for line in format_table(["move", "value", "meaning"], rows, right=(1,)):
            write(line + "\n")
        best = f"{report['best_move']} ({_signed4(report['value'])}, {report['meaning']})"
        write(f"\nBest move: {best}\n")
        write(f"Principal variation: {report['pv'] or '-'}\n")
    finished = "complete" if report["complete"] else "stopped by the time limit"
    write(f"Depth reached: {report['depth']} ({finished}{', exact' if report['exact'] else ''})\n")
    write(
        f"Nodes {report['nodes']:,}  leaf evaluations {report['leaf_evaluations']:,}  "
        f"cutoffs {report['cutoffs']:,}  table hits {report['table_hits']:,}\n"
        f"Time {format_seconds(report['elapsed'])}"
        + (f"  {report['speed']}" if report["speed"] else "  nodes/s: too quick to measure")
        + "\n"
    )
    for note in (report["versus_minimax"], report["values_note"]):
        if note:
            write(note[0].upper() + note[1:] + ".\n")


def _signed4(value: float) -> str:
    """A value to four places, never '-0.0000'."""
    text = f"{value:+.4f}"
    return "0.0000" if text in ("+0.0000", "-0.0000") else text


def command_analyze(args: argparse.Namespace) -> int:
    """`analyze`: value every move of a position."""
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
        if args.goal is not None and args.goal != getattr(save.game, "goal", None):
            raise UsageError(
                f"--goal {args.goal} does not match the save file's game ({save.game.title}"
                + (f", goal {save.game.goal})" if hasattr(save.game, "goal") else ")")
            )
        game = save.game
        moves_text = save.moves_text
    elif args.game is None:
        raise UsageError(f"analyze needs --game ({', '.join(game_names())}) or --load SAVEFILE")
    else:
        game = make_game(args.game, args.goal)
        moves_text = args.moves or ""
    moves, state = read_position(game, moves_text)
    algorithm = args.algorithm or ("expectiminimax" if game.stochastic else "alphabeta")
    depth = args.depth if args.depth is not ... else DEFAULT_DEPTH.get(game.name, 4)
    report = analyze_position(game, state, algorithm, depth, args.heuristic, args.time, args.seed)
    report["moves_played"] = game.format_moves(moves)
    if args.json:
        json.dump(_finite(report), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_analysis(report, sys.stdout)
    return 0


# --------------------------------------------------------------------------- match


def command_match(args: argparse.Namespace) -> int:
    """`match`: two players, N games."""
    from ai.match import (
        SIDES,
        MatchSetup,
        MatchTally,
        elo_difference,
        record_dict,
        run_match,
        summary_dict,
    )

    game = make_game(args.game, args.goal)
    descriptions = [check_spec(game, args.p1, "--p1"), check_spec(game, args.p2, "--p2")]
    record_file = open_output(args.record, "--record") if args.record else None
    json_file = open_output(args.json, "--json") if args.json else None
    options = tuple(sorted({"goal": args.goal}.items())) if args.goal is not None else ()
    setup = MatchSetup(
        game=game.name, options=options, specs=(args.p1, args.p2), seed=args.seed, swap=args.swap
    )
    if args.verbose:
        current, peak = rss_megabytes()
        print(f"memory at start: {current:.1f} MiB resident (peak {peak:.1f} MiB)", file=sys.stderr)
    progress = Progress(args.games, enabled=not args.quiet)
    records: list[dict[str, Any]] = []

    latest = [MatchTally()]

    def on_game(record: Any, tally: MatchTally) -> None:
        latest[0] = tally
        if record_file is not None:
            record_file.write(record.moves + "\n")
        if json_file is not None:
            records.append(record_dict(record))
        a, b = tally.players
        progress.update(tally.games, f"A {a.points:g} - {b.points:g} B")

    started = time.perf_counter()
    interrupted = False
    try:
        tally = run_match(setup, args.games, args.jobs, on_game)
    except KeyboardInterrupt:  # Ctrl+C: report the games finished so far, exit 130
        interrupted = True
        tally = latest[0]
    finally:
        progress.close()
        if record_file is not None:
            record_file.close()
    wall = time.perf_counter() - started
    out = sys.stdout
    first = "A and B alternate moving first (--swap)" if args.swap else "A always moves first"
    if interrupted:
        print(
            f"{PROG}: interrupted after {tally.games} of {args.games} games; "
            "the results so far follow",
            file=sys.stderr,
        )
    out.write(
        f"{game.title}: {tally.games} games"
        + (f" (interrupted, of {args.games})" if interrupted else "")
        + f", seed {args.seed}, {first}, {format_seconds(wall)}\n\n"
    )
    for side, spec in enumerate(setup.specs):
        out.write(f"{SIDES[side]} = {spec}: {descriptions[side]}\n")
    out.write("\n")
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
    headers = [
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
    ]
    for line in format_table(headers, rows, right=tuple(range(1, 11))):
        out.write(line + "\n")
    score = tally.score(0)
    low, high = tally.score_interval(0)
    out.write(
        f"\nA scores {100 * score:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%, Wilson), "
        f"Elo difference A-B {_signed(elo_difference(score))} "
        f"({_signed(elo_difference(low))} to {_signed(elo_difference(high))})\n"
    )
    if tally.aborted:
        out.write(f"{tally.aborted} games reached the move limit and were scored as draws.\n")
    if args.record:
        out.write(f"Moves of every game written to {args.record}\n")
    if args.verbose:
        current, peak = rss_megabytes()
        workers = ""
        if args.jobs > 1:
            worker_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            workers = f", largest worker peak {worker_peak:.1f} MiB"
        print(
            f"memory at end: {current:.1f} MiB resident (peak {peak:.1f} MiB{workers})",
            file=sys.stderr,
        )
    if json_file is not None:
        data = summary_dict(setup, tally, descriptions)
        data.update(
            elapsed=wall, jobs=args.jobs, elo_difference=elo_difference(score), games_played=records
        )
        write_json(json_file, data)
        out.write(f"Results written to {args.json}\n")
    return 130 if interrupted else 0


def _signed(elo: float) -> str:
    """An Elo difference, with infinities shown as such."""
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo:+.0f}"


# --------------------------------------------------------------------------- tournament


def command_tournament(args: argparse.Namespace) -> int:
    """`tournament`: every pair both ways, a cross table and Elo ratings."""
    from ai.tournament import (
        ANCHOR,
        BOOTSTRAP_SAMPLES,
        TournamentResult,
        TournamentSetup,
        format_cross_table,
        run_tournament,
    )

    game = make_game(args.game, args.goal)
    specs = tuple(spec.strip() for spec in args.players.split(",") if spec.strip())
    if len(specs) < 2:
        raise UsageError(
            "--players needs at least two players separated by commas, e.g. easy,medium,hard"
        )
    descriptions = [check_spec(game, spec, "--players") for spec in specs]
    if args.plot:
        check_png_path(args.plot, "--plot")
    json_file = open_output(args.json, "--json") if args.json else None
    options = tuple(sorted({"goal": args.goal}.items())) if args.goal is not None else ()
    setup = TournamentSetup(
        game=game.name, options=options, specs=specs, games_per_pair=args.games, seed=args.seed
    )
    progress = Progress(setup.total_games, enabled=not args.quiet)
    done = 0

    def on_game(record: Any, result: TournamentResult) -> None:
        nonlocal done
        done += 1
        progress.update(done, "")

    started = time.perf_counter()
    try:
        result = run_tournament(setup, args.jobs, on_game)
    finally:
        progress.close()
    wall = time.perf_counter() - started
    ranking = result.ranking(seed=args.seed)
    out = sys.stdout
    out.write(
        f"{game.title} tournament: {len(specs)} players, {args.games} games per pair "
        f"(half with each moving first), seed {args.seed}, {format_seconds(wall)}\n\n"
    )
    for number, (spec, description) in enumerate(zip(specs, descriptions, strict=True), start=1):
        out.write(f"{number}. {spec}: {description}\n")
    out.write("\nPoints of the row player against the column player:\n")
    for line in format_cross_table(result):
        out.write(line + "\n")
    out.write(
        "\nRanking: Elo from a maximum-likelihood Bradley-Terry fit of all games, "
        f"mean of the field = {ANCHOR:g};\n95% intervals from {BOOTSTRAP_SAMPLES} bootstrap "
        f"resamples of each pair's games (seed {args.seed}).\n\n"
    )
    rows = [
        [
            rank,
            rating.spec,
            f"{rating.elo:.0f}",
            f"{rating.low:.0f} to {rating.high:.0f}",
            f"{rating.points:g}/{rating.games}",
            f"{100 * rating.points / rating.games:.1f}%" if rating.games else "-",
            format_seconds(
                result.think_time[rating.player] / max(1, result.decisions[rating.player])
            ),
            format_seconds(result.worst_time[rating.player]),
        ]
        for rank, rating in enumerate(ranking, start=1)
    ]
    for line in format_table(
        ["rank", "player", "Elo", "95% CI", "points", "score", "time/move", "worst move"],
        rows,
        right=(0, 2, 3, 4, 5, 6, 7),
    ):
        out.write(line + "\n")
    if args.plot:
        draw_rating_chart(
            ranking, f"{game.title}: {args.games} games per pair, seed {args.seed}", args.plot
        )
        out.write(f"\nChart written to {args.plot}\n")
    if json_file is not None:
        data = result.to_dict(ranking)
        data.update(
            game=game.name,
            options=dict(options),
            seed=args.seed,
            games_per_pair=args.games,
            descriptions=descriptions,
            elapsed=wall,
        )
        write_json(json_file, data)
        out.write(f"Results written to {args.json}\n")
    return 0


def draw_rating_chart(ranking: Sequence[Rating], title: str, path: str) -> None:
    """Draw the ranking as dots with 95% whiskers on an Elo axis into a PNG (pygame, offscreen)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.font.init()
    try:
        font = pygame.font.Font(None, 26)
        small = pygame.font.Font(None, 22)
        big = pygame.font.Font(None, 34)
        label_width = max(font.size(rating.spec)[0] for rating in ranking) + 30
        left, right, top, row = max(140, int(label_width)), 40, 80, 48
        width = 960
        height = top + row * len(ranking) + 90
        surface = pygame.Surface((width, height))
        surface.fill((250, 250, 247))
        ink, grid, accent = (30, 30, 36), (215, 215, 210), (35, 100, 190)
        finite = [
            v
            for rating in ranking
            for v in (rating.low, rating.high, rating.elo)
            if math.isfinite(v)
        ]
        low, high = min(finite), max(finite)
        span = max(high - low, 50.0)
        step = _nice_step(span / 6)
        axis_low = math.floor((low - 0.05 * span) / step) * step
        axis_high = math.ceil((high + 0.05 * span) / step) * step
        plot_right = width - right
        bottom = top + row * len(ranking)

        def x_of(elo: float) -> int:
            return round(left + (elo - axis_low) / (axis_high - axis_low) * (plot_right - left))

        tick = axis_low
        while tick <= axis_high + 1e-9:
            x = x_of(tick)
            pygame.draw.line(surface, grid, (x, top - 10), (x, bottom), 1)
            text = small.render(f"{tick:.0f}", True, ink)
            surface.blit(text, (x - text.get_width() // 2, bottom + 8))
            tick += step
        pygame.draw.line(surface, ink, (left, bottom), (plot_right, bottom), 2)
        for index, rating in enumerate(ranking):
            y = top + row * index + row // 2
            name = font.render(rating.spec, True, ink)
            surface.blit(name, (left - name.get_width() - 14, y - name.get_height() // 2))
            x_low, x_high, x = x_of(rating.low), x_of(rating.high), x_of(rating.elo)
            pygame.draw.line(surface, accent, (x_low, y), (x_high, y), 3)
            for end in (x_low, x_high):
                pygame.draw.line(surface, accent, (end, y - 9), (end, y + 9), 3)
            pygame.draw.circle(surface, (200, 60, 40), (x, y), 8)
            value = small.render(f"{rating.elo:.0f}", True, ink)
            surface.blit(value, (x - value.get_width() // 2, y - 28))
        heading = big.render(title, True, ink)
        surface.blit(heading, ((width - heading.get_width()) // 2, 22))
        axis = font.render(
            "Elo rating (mean of the field 1500), dot = estimate, whiskers = 95% interval",
            True,
            ink,
        )
        surface.blit(axis, ((width - axis.get_width()) // 2, bottom + 40))
        pygame.image.save(surface, path)
    except (pygame.error, OSError) as error:
        raise UsageError(f"--plot {path}: cannot write the chart: {error}") from None
    finally:
        pygame.font.quit()


def _nice_step(raw: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) near `raw`."""
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)


# --------------------------------------------------------------------------- bench


def command_bench(args: argparse.Namespace) -> int:
    """`bench`: search speed and AI game timings; or the solver / Pig policy benchmarks alone."""
    from ai import bench

    json_file = open_output(args.json, "--json") if args.json else None
    solver_options = {
        "--solver-file": args.solver_file,
        "--sets": args.sets,
        "--limit": args.solver_limit,
        "--time-limit": args.time_limit,
        "--solver-time": args.solver_time,
        "--score-only": args.score_only or None,
    }
    for option, value in solver_options.items():
        if value is not None and not args.solver:
            raise UsageError(f"{option} needs --solver")
    pig_options = {"--presets": args.presets, "--sample": args.sample, "--jobs": args.jobs}
    for option, value in pig_options.items():
        if value is not None and not args.pig_policy:
            raise UsageError(f"{option} needs --pig-policy")
    plan = solver_plan(args) if args.solver else ()
    pig_presets = None
    if args.pig_policy:
        from ai import policy_agreement

        try:
            pig_presets = policy_agreement.choose_presets(args.presets)
        except ValueError as error:
            raise UsageError(f"--presets: {error}") from None
    out = sys.stdout
    report: dict[str, Any] = {"machine": bench.machine_description(), "quick": args.quick}
    out.write(bench.format_machine(report["machine"]) + "\n\n")
    say: Callable[[str], None] = (
        (lambda text: None)
        if args.quiet
        else (lambda text: print(text, file=sys.stderr, flush=True))
    )
    if not args.solver and not args.pig_policy:
        report["searches"] = bench.search_bench(quick=args.quick, log=say)
        out.write("\n".join(bench.format_search_bench(report["searches"])) + "\n\n")
        report["games"] = bench.game_bench(quick=args.quick, log=say)
        out.write("\n".join(bench.format_game_bench(report["games"])) + "\n")
    if args.gui:
        report["gui"] = gui_bench(quick=args.quick, log=say)
        out.write("\n" + "\n".join(format_gui_bench(report["gui"])) + "\n")
    if args.solver:
        modes = ("score",) if args.score_only else bench.SOLVER_MODES
        if args.solver_file is not None:
            report["solver"] = [
                bench.solver_bench(
                    Path(args.solver_file),
                    limit=args.solver_limit,
                    time_limit=args.solver_time,
                    position_time=args.time_limit,
                    modes=modes,
                    log=say,
                )
            ]
        else:
            report["solver"] = bench.solver_suite(
                plan,
                position_time=args.time_limit,
                time_limit=args.solver_time,
                modes=modes,
                log=say,
            )
        out.write("\n".join(bench.format_solver_bench(report["solver"])) + "\n")
    if pig_presets is not None:
        from ai import policy_agreement

        report["pig_policy"] = policy_agreement.agreement_report(
            pig_presets, sample=args.sample, jobs=args.jobs or 1, log=say
        )
        if args.solver:
            out.write("\n")
        out.write("\n".join(policy_agreement.format_report(report["pig_policy"])) + "\n")
    if json_file is not None:
        write_json(json_file, report)
        out.write(f"\nResults written to {args.json}\n")
    return 0


def solver_plan(args: argparse.Namespace) -> tuple[tuple[str, int | None], ...]:
    """The (set, positions) list of `bench --solver`, checked: hard sets need --time-limit."""
    from ai import bench

    if args.solver_file is not None:
        if args.sets is not None:
            raise UsageError("--solver-file and --sets: give one or the other")
        if not Path(args.solver_file).is_file():
            raise UsageError(f"--solver-file {args.solver_file}: no such file")
        return ()
    if args.sets is None:
        if args.solver_limit is None:
            return bench.DEFAULT_SOLVER_PLAN
        return tuple((name, args.solver_limit) for name, _ in bench.DEFAULT_SOLVER_PLAN)
    names = [name.strip() for name in args.sets.split(",") if name.strip()]
    if [name.lower() for name in names] == ["all"]:
        names = list(bench.SOLVER_SETS)
    if not names:
        raise UsageError("--sets: give set names such as L3_R1,L2_R1")
    plan = []
    for name in names:
        try:
            short = bench.solver_set_path(name).stem.removeprefix("Test_")
        except ValueError as error:
            raise UsageError(f"--sets: {error}") from None
        if short in bench.HARD_SOLVER_SETS and args.time_limit is None:
            raise UsageError(
                f"--sets {short}: this set takes minutes per position in Python; "
                "give --time-limit SECONDS (per position)"
            )
        plan.append((short, args.solver_limit))
    return tuple(plan)


def gui_bench(quick: bool, log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Frame times of the window while two AIs play each game (`gui.frame_bench.run`, headless)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        from gui import frame_bench
    except ImportError as error:
        raise UsageError(f"--gui: the GUI frame benchmark is not available ({error})") from None
    results = []
    for name in game_names():
        log(f"frame times: {name}")
        results.append(frame_bench.run(game=name, seed=0, max_seconds=15 if quick else 60))
    return results


def format_gui_bench(results: Sequence[dict[str, Any]]) -> list[str]:
    """Frame-time statistics (milliseconds) as a table."""
    rows = [
        [
            result["game"],
            result["frames"],
            f"{result['median_ms']:.1f}",
            f"{result['p95_ms']:.1f}",
            f"{result['worst_ms']:.1f}",
            f"{result['thinking_p95_ms']:.1f}",
            f"{result['fps']:.0f}",
            "yes" if result["finished"] else "no",
        ]
        for result in results
    ]
    headers = [
        "game",
        "frames",
        "median ms",
        "p95 ms",
        "worst ms",
        "p95 thinking",
        "fps",
        "game over",
    ]
    return [
        "Window frame times while two AIs play (headless, 60 fps pacing):",
        *format_table(headers, rows, right=(1, 2, 3, 4, 5, 6)),
    ]


# --------------------------------------------------------------------------- screenshot


def command_screenshot(args: argparse.Namespace) -> int:
    """`screenshot`: render one scene of the window to a PNG without a display."""
    game = make_game(args.game, args.goal)
    moves, _ = read_position(game, args.moves)
    check_png_path(args.out, "--out")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        from gui import screenshot
    except ImportError as error:
        raise UsageError(f"screenshot: the GUI is not available ({error})") from None
    options = {"goal": args.goal} if args.goal is not None else {}
    screenshot.render(args.scene, game.name, game.format_moves(moves), args.out, args.size, options)
    print(f"{args.scene} scene of {game.title} written to {args.out}")
    return 0


# --------------------------------------------------------------------------- the parser


def _names_help() -> str:
    """Valid presets, algorithms and heuristics for each game, for the --help epilogs."""
    import ai
    import games

    lines = ["valid names for each game:"]
    for name in games.GAMES:
        game = games.get_game(name)
        presets = ", ".join(preset.lower() for preset in ai.DIFFICULTIES.get(name, {}))
        lines.append(f"  {name}:")
        lines.append(f"    presets:     {presets or '-'}, random")
        lines.append(f"    algorithms:  {', '.join(ai.algorithms_for(game))}")
        lines.append(
            f"    heuristics:  {', '.join(game.heuristics)} (default {game.default_heuristic})"
        )
    return "\n".join(lines)


def _wrap(text: str) -> str:
    """A help paragraph wrapped for an 88-column terminal (the help formatter keeps it as is)."""
    return textwrap.fill(text, 88)


def _add_game(
    parser: argparse.ArgumentParser, required: bool = True, default: str | None = None
) -> None:
    """--game and --goal."""
    parser.add_argument(
        "--game", choices=game_names(), required=required, default=default, help="the game"
    )
    parser.add_argument(
        "--goal", type=positive_int, help="Pig only: the score that wins (default 100)"
    )


def build_parser() -> OneLineParser:
    """The argument parser of every subcommand."""
    import ai

    raw = argparse.RawDescriptionHelpFormatter
    parser = OneLineParser(
        prog=PROG,
        description=_wrap(
            "Plyground: tic-tac-toe, connect-four and Pig against search AIs. "
            "With no arguments it opens the window."
        ),
        formatter_class=raw,
        epilog="run 'plyground COMMAND --help' for each command's options and examples",
    )
    commands = parser.add_subparsers(
        title="commands", dest="command", metavar="COMMAND", parser_class=OneLineParser
    )
    names = _names_help()

    analyze = commands.add_parser(
        "analyze",
        help="value every legal move of a position",
        formatter_class=raw,
        description=_wrap(
            "Search a position and show the value of every legal move, the best move, "
            "the principal variation and the search's counters. Depth counts player decisions; "
            "Pig's die rolls do not use up depth."
        ),
        epilog=f"""examples:
  plyground analyze --game connect4 --moves 4453 --depth 8
  plyground analyze --game tictactoe --moves 15 --algorithm minimax --depth 9
  plyground analyze --game pig --goal 30 --moves r4r6h --depth 4
  plyground analyze --game pig --goal 30 --moves r4r     # next is a die roll: shows the expectation
  plyground analyze --load saved-game.json --json

values are from the point of view of the player to move: a proven result reads 'win in N'
(N plies), an estimate a signed number; Pig values are 2p-1 for win probability p.

{names}""",
    )
    _add_game(analyze, required=False)
    analyze.add_argument(
        "--moves",
        help="the moves played so far in the game's notation "
        "(connect4 '4453', tictactoe '159', pig 'r4r6h r1')",
    )
    analyze.add_argument(
        "--load",
        metavar="SAVEFILE",
        help="read the game and moves from a save file written by the window",
    )
    analyze.add_argument(
        "--algorithm", choices=ai.ALGORITHMS, help="default: alphabeta, or expectiminimax for Pig"
    )
    analyze.add_argument(
        "--depth",
        type=depth_arg,
        default=...,
        help=f"player decisions to look ahead, 1-{MAX_DEPTH} or 'solve' "
        "(default: tictactoe solve, connect4 8, pig 4)",
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
    analyze.set_defaults(handler=command_analyze)

    match = commands.add_parser(
        "match",
        help="play two players against each other for N games",
        formatter_class=raw,
        description=_wrap(
            "Play N games between two players and report wins, draws and losses for "
            "each player (by player, not by seat), the score with a 95% Wilson interval, and time "
            "and nodes per move. Game i draws its dice and tie-breaks from seeds derived from "
            "(--seed, i), so the same command gives the same games, whatever --jobs."
        ),
        epilog=f"""a player is a preset name, 'random', or algorithm:key=value:... with keys
depth, heuristic, time (seconds), randomness (noise added to root values), e.g.
alphabeta:depth=4:heuristic=windows or expectiminimax:depth=3.
(a player with a time budget depends on the clock, so it may not replay exactly.)

examples:
  plyground match --game connect4 --p1 hard --p2 alphabeta:depth=4 --games 100 --seed 1 --swap
  plyground match --game pig --goal 50 --p1 expert --p2 random --games 1000 --jobs 2 \\
      --record pig.txt
  plyground match --game tictactoe --p1 easy --p2 medium --games 200 --json results.json

{names}""",
    )
    _add_game(match)
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
    match.set_defaults(handler=command_match)

    tournament = commands.add_parser(
        "tournament",
        help="round robin: cross table and Elo ratings",
        formatter_class=raw,
        description=_wrap(
            "Every pair of players plays --games games, each moving first in half of "
            "them. Prints a cross table and a ranking with Elo ratings (maximum-likelihood "
            "Bradley-Terry fit of all games, mean of the field 1500) and 95% intervals (seeded "
            "bootstrap over each pair's games)."
        ),
        epilog=f"""examples:
  plyground tournament --game pig --players easy,medium,hard,expert --games 50 --seed 1
  plyground tournament --game connect4 --players easy,medium,alphabeta:depth=6 --games 20 \\
      --jobs 2 --plot elo.png

{names}""",
    )
    _add_game(tournament)
    tournament.add_argument(
        "--players",
        required=True,
        help="comma-separated players (presets, 'random' or algorithm:key=value...)",
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
        "--plot", metavar="FILE.png", help="draw the ranking with 95%% intervals as a PNG chart"
    )
    tournament.add_argument(
        "--json", metavar="FILE", help="write the cross table and ranking as JSON"
    )
    tournament.add_argument("--quiet", action="store_true", help="no progress on stderr")
    tournament.set_defaults(handler=command_tournament)

    bench = commands.add_parser(
        "bench",
        help="measure the search engine",
        formatter_class=raw,
        description=_wrap(
            "Time every algorithm at each depth on fixed positions of every game "
            "(nodes, time, nodes/s, alpha-beta's nodes as a share of minimax's, effective "
            "branching factor, time to reach each depth), and a complete AI-vs-AI game per "
            "difficulty.  With --solver: instead, solve connect-four positions with known "
            "exact scores (Pascal Pons' test sets) beside his published node counts.  With "
            "--pig-policy: instead, how often each Pig preset's roll/hold decision is the "
            "optimal one."
        ),
        epilog="""examples:
  plyground bench --quick
  plyground bench --json bench.json
  plyground bench --quick --gui                     # also the window's frame times (headless)
  plyground bench --solver                          # connect-four solver, Pons' sets (minutes)
  plyground bench --solver --sets L3_R1,L2_R1 --limit 200
  plyground bench --solver --sets L1_R2 --limit 20 --time-limit 60
  plyground bench --pig-policy --jobs 2             # Pig presets vs the optimal decisions""",
    )
    bench.add_argument(
        "--quick", action="store_true", help="smaller depths and fewer games (about a minute)"
    )
    bench.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    bench.add_argument(
        "--gui", action="store_true", help="also measure the window's frame times (gui.frame_bench)"
    )
    solver = bench.add_argument_group(
        "connect-four solver (Pascal Pons' test sets, tests/data/connect4)"
    )
    solver.add_argument(
        "--solver",
        action="store_true",
        help="solve positions with known exact scores instead of the search benchmark "
        "(default: all of L3_R1 and L2_R1, the first 100 of L2_R2 and 200 of L1_R1; "
        "a few minutes)",
    )
    solver.add_argument(
        "--sets",
        metavar="NAMES",
        help="comma-separated sets: L3_R1, L2_R1, L2_R2, L1_R1, L1_R2, L1_R3 or 'all' "
        "(L1_R2 and L1_R3 need --time-limit)",
    )
    solver.add_argument(
        "--limit",
        "--solver-limit",
        dest="solver_limit",
        type=positive_int,
        metavar="N",
        help="solve the first N positions of each set (default: all, or the default plan)",
    )
    solver.add_argument(
        "--time-limit",
        type=seconds_arg,
        metavar="SECONDS",
        help="give up on a position after this long and count it unsolved",
    )
    solver.add_argument(
        "--score-only",
        action="store_true",
        help="only the 'score only' row (the root's exact value, as Pons measures), "
        "not also 'score + move' (the search a player runs)",
    )
    solver.add_argument(
        "--solver-file",
        metavar="FILE",
        help="a file of 'moves score' lines instead of --sets",
    )
    solver.add_argument(
        "--solver-time",
        type=seconds_arg,
        metavar="SECONDS",
        help="stop each set (per mode) after this long (default: no limit)",
    )
    pig = bench.add_argument_group("Pig presets against the optimal policy")
    pig.add_argument(
        "--pig-policy",
        action="store_true",
        help="how often each Pig preset's roll/hold decision matches the optimal one, "
        "over every decision state at goal 100 (505,000)",
    )
    pig.add_argument(
        "--presets",
        metavar="NAMES",
        help="comma-separated Pig presets (default: all of ai.DIFFICULTIES['pig'])",
    )
    pig.add_argument(
        "--sample",
        type=positive_int,
        metavar="N",
        help="a uniform random sample of N states (seed 0) instead of all of them",
    )
    pig.add_argument("--jobs", type=positive_int, metavar="N", help="worker processes (default 1)")
    bench.add_argument("--quiet", action="store_true", help="no progress on stderr")
    bench.set_defaults(handler=command_bench)

    screenshot = commands.add_parser(
        "screenshot",
        help="render a scene of the window to a PNG (no display needed)",
        formatter_class=raw,
        description=_wrap("Draw one scene of the window offscreen and save it as a PNG."),
        epilog=f"""scenes: {", ".join(SCENES)}

examples:
  plyground screenshot --scene play --game connect4 --moves 4453 --out play.png
  plyground screenshot --scene menu --game tictactoe --out menu.png --size 1920x1080""",
    )
    screenshot.add_argument("--scene", choices=SCENES, required=True, help="which scene")
    _add_game(screenshot)
    screenshot.add_argument("--moves", default="", help="moves played, in the game's notation")
    screenshot.add_argument(
        "--out", required=True, metavar="FILE.png", help="where to write the PNG"
    )
    screenshot.add_argument(
        "--size",
        type=size_arg,
        default=(1280, 800),
        help="window size WIDTHxHEIGHT (default 1280x800)",
    )
    screenshot.set_defaults(handler=command_screenshot)
    return parser


def open_window() -> int:
    """Open the game window (pygame is imported only here)."""
    from gui import app

    status = app.run()
    return status if isinstance(status, int) else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad arguments)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if not arguments:
            return open_window()
        args = build_parser().parse_args(arguments)
        if args.command is None:
            raise UsageError(
                f"{PROG}: choose a command: analyze, match, tournament, bench or screenshot "
                "(see --help)"
            )
        return int(args.handler(args))
    except UsageError as error:
        message = str(error)
        if not message.startswith(PROG):
            message = f"{PROG}: {message}"
        print(f"{message}".replace("\n", " "), file=sys.stderr)
        return 2
    except SystemExit as stop:  # --help and --version exit through argparse
        return stop.code if isinstance(stop.code, int) else 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:
        if os.environ.get("PLYGROUND_DEBUG"):
            raise
        text = str(error).replace("\n", " ")
        print(
            f"{PROG}: internal error: {type(error).__name__}: {text} "
            "(set PLYGROUND_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
