"""`bench --solver`: a game's solved test sets, each position solved exactly, its whole call
timed beside its search, optionally against a reference solver's command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from plyground.cli.args import (
    UsageError,
    positive_int,
    seconds_arg,
)
from plyground.games.base import Game


def solver_benchmarks(
    args: argparse.Namespace,
    report: dict[str, Any],
    plan: tuple[tuple[str, int | None], ...],
    log: Callable[[str], None],
    reference: list[str] | None,
) -> None:
    """`bench --solver`: the solver test sets (and the reference command's run) into
    `report`, printed."""
    from plyground.ai.bench import searches as bench

    out = sys.stdout
    modes = ("score",) if args.score_only else bench.SOLVER_MODES
    engines = bench.SOLVER_ENGINES if args.engine == "both" else (args.engine,)
    if args.solver_file is not None:
        report["solver"] = [
            bench.solver_bench(
                Path(args.solver_file),
                limit=args.solver_limit,
                time_limit=args.solver_time,
                position_time=args.time_limit,
                modes=modes,
                log=log,
                engines=engines,
                reference_command=reference,
            )
        ]
    else:
        report["solver"] = bench.solver_suite(
            plan,
            position_time=args.time_limit,
            time_limit=args.solver_time,
            modes=modes,
            log=log,
            engines=engines,
            reference_command=reference,
        )
    out.write("\n".join(bench.format_solver_bench(report["solver"])) + "\n")
    status = bench.solver_engine_status()
    if status:
        out.write(f"solver: {status}\n")
        report["solver_engine"] = status


def reference_command(text: str) -> list[str]:
    """The words of a --reference command, checked: a program that can be found."""
    import shlex
    import shutil

    try:
        words = shlex.split(text, posix=os.name != "nt")
    except ValueError as error:
        raise UsageError(f"--reference: {error}") from None
    if not words:
        raise UsageError("--reference: give a command, such as '/path/to/solver'")
    if shutil.which(words[0]) is None:
        raise UsageError(f"--reference: no program {words[0]!r} found")
    return words


def solver_plan(args: argparse.Namespace) -> tuple[tuple[str, int | None], ...]:
    """The (set, positions) list of `bench --solver`, checked: hard sets need --time-limit."""
    from plyground.ai.bench import searches as bench

    if args.solver_file is not None:
        if args.sets is not None:
            raise UsageError("--solver-file and --sets: give one or the other")
        check_solver_file(args.solver_file, args.solver_limit)
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


def check_solver_file(path: str, limit: int | None = None) -> int:
    """Read a --solver-file through: every line 'moves score', a legal game and a whole number.

    Only the first `limit` positions are read (all without one).  Returns the number of
    positions; anything else is one line naming the file, the line and the reason
    (UsageError).  The file goes through `plyground.file_reader` (a regular file of bounded
    size: /dev/zero or a FIFO is refused before it is read).
    """
    from plyground import games
    from plyground.ai.bench import searches as bench
    from plyground.file_reader import FileProblem, read_lines

    where = f"--solver-file {path}"
    if not Path(path).exists():
        raise UsageError(f"{where}: no such file")
    game_name, _ = bench.solver_benchmark()
    game = games.get_game(game_name)
    count = 0
    try:
        for number, line in enumerate(read_lines(path, bench.MAX_SOLVER_FILE, "file"), 1):
            count += _check_solver_line(game, where, number, line)
            if count == limit:
                break  # the rest of the file is never read
    except FileProblem as error:
        raise UsageError(f"--solver-file {error}") from None
    if count == 0:
        raise UsageError(f"{where}: no positions in it (expected 'moves score' lines)")
    return count


def _check_solver_line(game: Game[Any], where: str, number: int, line: str) -> int:
    """1 for a good 'moves score' line, 0 for a blank one; UsageError naming the line else."""
    fields = line.split()
    if not fields:
        return 0
    shown = line.strip() if len(line.strip()) <= 40 else line.strip()[:37] + "..."
    if len(fields) != 2:
        raise UsageError(f"{where} line {number}: expected 'moves score', got {shown!r}")
    moves, score = fields
    digits = score.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
        raise UsageError(f"{where} line {number}: the score {score[:20]!r} is not a whole number")
    try:
        state = game.replay(game.parse_moves(moves))
    except ValueError as error:
        raise UsageError(f"{where} line {number}: {error}") from None
    if state.is_terminal():
        raise UsageError(f"{where} line {number}: the game is over after {moves}: nothing to solve")
    return 1


def solver_texts() -> dict[str, str]:
    """Help texts about the solver benchmark, from the game that offers one (if any)."""
    from plyground.ai.bench import searches as bench

    if not bench.solver_games():
        return {"title": "solver test sets (no registered game offers them)", "what": "", "ex": ""}
    game_name, benchmark = bench.solver_benchmark()
    names = [solver_set.name for solver_set in benchmark.sets]
    easy = [solver_set.name for solver_set in benchmark.sets if not solver_set.hard]
    hard = [solver_set.name for solver_set in benchmark.sets if solver_set.hard]
    plan = ", ".join(
        f"{'all' if count is None else f'the first {count}'} of {name}"
        for name, count in benchmark.default_plan
    )
    examples = [
        f"  plyground bench --solver                          # {game_name}, every default set",
        f"  plyground bench --solver --sets {','.join(easy[:2])} --limit 200",
    ]
    if hard:
        examples.append(f"  plyground bench --solver --sets {hard[0]} --limit 20 --time-limit 60")
    return {
        "title": f"{benchmark.title} (the {game_name} game's solver benchmark)",
        "what": f"With --solver: instead, {benchmark.title}: positions with known exact "
        f"scores, beside the {benchmark.reference_name} figures.",
        "default": f"default: {plan}",
        "sets": ", ".join(names)
        + " or 'all'"
        + (f" ({' and '.join(hard)} need --time-limit)" if hard else ""),
        "ex": "\n".join(examples),
    }


def add_solver_arguments(bench: argparse.ArgumentParser, texts: dict[str, str]) -> None:
    """`bench --solver` and its options."""
    solver = bench.add_argument_group(texts["title"])
    solver.add_argument(
        "--solver",
        action="store_true",
        help="solve positions with known exact scores instead of the search benchmark "
        f"({texts.get('default', '')}; a few minutes)",
    )
    solver.add_argument(
        "--sets",
        metavar="NAMES",
        help=f"comma-separated sets: {texts.get('sets', '-')}",
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
        help="only the 'score only' row (the root's exact value, as the reference "
        "solver measures), not also 'score + move' (the search a player runs)",
    )
    solver.add_argument(
        "--engine",
        choices=("compiled", "python", "both"),
        default="both",
        help="which solver: the game's compiled engine, the pure-Python alpha-beta, or both "
        "side by side (default: both)",
    )
    solver.add_argument(
        "--solver-file",
        metavar="FILE",
        help="a file of 'moves score' lines instead of --sets",
    )
    solver.add_argument(
        "--reference",
        metavar="CMD",
        help="also time an external solver on the same positions in the same run: CMD reads "
        "one position (moves) a line on stdin and prints 'moves score' lines; its whole "
        "process is timed, and the ratio of our whole call to its time a position is printed",
    )
    solver.add_argument(
        "--solver-time",
        type=seconds_arg,
        metavar="SECONDS",
        help="stop each set (per mode) after this long (default: no limit)",
    )
