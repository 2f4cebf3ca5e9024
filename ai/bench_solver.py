"""The solver benchmark: a game's solved test sets, each position solved exactly and its
score checked against the file (`solver_benchmark` of the game; nothing here names one).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from plyground.ai.search import search
from plyground.ai.text_table import format_seconds, format_table
from plyground.ai.values import plies_to_end
from plyground.games.base import SolverBenchmark

from plyground import games
from plyground.file_reader import read_lines

Log = Callable[[str], None]
"""Where a benchmark writes its progress lines."""


def solver_games() -> list[str]:
    """The registered games that offer solved test sets (`solver_benchmark`), in order."""
    return [
        name
        for name, factory in games.GAMES.items()
        if getattr(factory, "solver_benchmark", None) is not None
    ]


def solver_benchmark(game_name: str | None = None) -> tuple[str, SolverBenchmark]:
    """(game name, its solver test sets); None: the first game that offers them."""
    offered = solver_games()
    if game_name is None:
        if not offered:
            raise ValueError("no registered game offers solver test sets")
        game_name = offered[0]
    if game_name not in offered:
        raise ValueError(
            f"{game_name!r} offers no solver test sets; games that do: {', '.join(offered)}"
        )
    benchmark: SolverBenchmark = games.GAMES[game_name].solver_benchmark  # type: ignore[attr-defined]
    return game_name, benchmark


def solver_score(
    benchmark: SolverBenchmark, value: float, moves_played: int, exact: bool
) -> int | None:
    """The test files' score of a proven value (`benchmark.score`), or None if not proven.

    A proven value `v` ends the game `plies_to_end(v)` plies from now.
    """
    distance = plies_to_end(value)
    if distance is None:
        return 0 if exact and value == 0 else None
    return benchmark.score(1 if value > 0 else -1, distance, moves_played)


SOLVER_MODES = ("score", "move")
"""'score': the root's exact value alone (AlphaBeta.solve_value, as the reference solvers do);
'move': `ai.search(depth=None, all_values=False)`, which also finds the moves that tie."""
SOLVER_MODE_TITLES = {"score": "score only", "move": "score + move"}
SOLVER_TABLE_BITS = 20
"""Each position gets a fresh table of about 2**20 slots, allocated outside the timing."""


def _default_sets() -> tuple[dict[str, str], tuple[str, ...], tuple[tuple[str, int | None], ...]]:
    """The sets, hard sets and default plan of the first game with solver test sets."""
    if not solver_games():
        return {}, (), ()
    _, benchmark = solver_benchmark()
    return (
        {solver_set.name: solver_set.stage for solver_set in benchmark.sets},
        tuple(solver_set.name for solver_set in benchmark.sets if solver_set.hard),
        benchmark.default_plan,
    )


SOLVER_SETS, HARD_SOLVER_SETS, DEFAULT_SOLVER_PLAN = _default_sets()
"""The default solver game's sets by short name (with their stage), the sets that take
minutes to hours in Python (run only on request, with a per-position limit), and what
`bench --solver` runs without --sets."""


def solver_set_path(name: str, game_name: str | None = None) -> Path:
    """The file of one of a game's sets, by short name ('L2_R1') or file name."""
    _, benchmark = solver_benchmark(game_name)
    return benchmark.directory / benchmark.file_name(benchmark.short_name(name))


MAX_SOLVER_FILE = 64 * 2**20
"""Bytes of a solver test file (the largest shipped set is well under 100 KB)."""


def read_solver_file(path: Path, limit: int | None = None) -> list[tuple[str, int]]:
    """The 'moves score' lines of a test file: the first `limit` positions only are read.

    Read through `plyground.file_reader.read_lines` (a regular file, bounded size and line
    length), so /dev/zero or a FIFO is one clear error (`FileProblem`, a ValueError).
    """
    positions: list[tuple[str, int]] = []
    if limit is not None and limit <= 0:
        return positions
    for number, line in enumerate(read_lines(path, MAX_SOLVER_FILE, "file of positions"), 1):
        fields = line.split()
        if not fields:
            continue
        score = fields[-1].removeprefix("-")
        if len(fields) != 2 or not (score.isascii() and score.isdigit() and len(score) <= 6):
            raise ValueError(f"{path.name} line {number}: expected 'moves score', got {line!r:.60}")
        positions.append((fields[0], int(fields[1])))
        if len(positions) == limit:
            break  # the rest of the file is never read
    return positions


def _stopper(position_time: float | None) -> tuple[Callable[[], bool] | None, list[float]]:
    """A should_stop callback for a per-position time limit, and its settable start time."""
    if position_time is None:
        return None, [0.0]
    start = [0.0]
    return (lambda: time.perf_counter() - start[0] > position_time), start


def solve_position(
    state: Any, mode: str, position_time: float | None = None
) -> tuple[int | None, int, float]:
    """Solve one position: (the test files' score or None if out of time, nodes, seconds).

    'score' solves the root node alone with null-window probes; 'move' runs the search
    a player runs, which also values every root move that may tie for best.
    """
    from plyground.ai.alphabeta import AlphaBeta
    from plyground.ai.engine import UNLIMITED_DEPTH, Context, SearchCancelled
    from plyground.ai.search import heuristic_for
    from plyground.ai.table import TranspositionTable
    from plyground.ai.values import INF_UNITS, SCALE

    benchmark: SolverBenchmark = state.game.solver_benchmark
    table = TranspositionTable(bits=SOLVER_TABLE_BITS)
    should_stop, start = _stopper(position_time)
    ply = state.ply
    if mode == "score":
        ctx = Context(heuristic_for(state, None), None, 0, should_stop, None)
        searcher = AlphaBeta(ctx, table)
        start[0] = began = time.perf_counter()
        try:
            units = searcher.solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)
        except SearchCancelled:
            return None, ctx.nodes, time.perf_counter() - began
        elapsed = time.perf_counter() - began
        return solver_score(benchmark, units / SCALE, ply, True), ctx.nodes, elapsed
    if mode != "move":
        raise ValueError(f"unknown solver mode {mode!r}; choose from {', '.join(SOLVER_MODES)}")
    start[0] = began = time.perf_counter()
    try:
        result = search(
            state,
            algorithm="alphabeta",
            depth=None,
            seed=0,
            all_values=False,
            should_stop=should_stop,
            table=table,
        )
    except SearchCancelled:
        # The nodes of a cancelled search are not reported: count the time only.
        return None, 0, time.perf_counter() - began
    elapsed = time.perf_counter() - began
    return solver_score(benchmark, result.value, ply, result.exact), result.nodes, elapsed


def solver_bench(
    path: Path | None = None,
    limit: int | None = None,
    time_limit: float | None = None,
    log: Log = lambda text: None,
    position_time: float | None = None,
    modes: tuple[str, ...] = SOLVER_MODES,
    game_name: str | None = None,
) -> dict[str, Any]:
    """Solve the positions of one 'moves score' file in each mode and check every score.

    Stops after `limit` positions, or once a mode has spent `time_limit` seconds on the
    set; a position not solved within `position_time` seconds counts as unsolved.  Nodes
    and times are means and medians over the positions solved.  `path` None: the game's
    first set; `game_name` None: the first game with solver test sets.
    """
    game_name, benchmark = solver_benchmark(game_name)
    game = games.get_game(game_name)
    if path is None:
        path = benchmark.directory / benchmark.file_name(benchmark.sets[0].name)
    positions = read_solver_file(path, limit)
    states = [game.replay(game.parse_moves(moves)) for moves, _ in positions]
    try:
        short = benchmark.short_name(path.name)
    except ValueError:
        short = path.stem
    rows = [
        _solve_set(mode, positions, states, short, time_limit, position_time, log) for mode in modes
    ]
    solver_set = benchmark.find(short)
    reference = None if solver_set is None else solver_set.reference
    return {
        "game": game_name,
        "title": benchmark.title,
        "set": short,
        "file": path.name,
        "stage": "" if solver_set is None else solver_set.stage,
        "positions": len(positions),
        "position_time": position_time,
        "rows": rows,
        "reference_name": benchmark.reference_name,
        "reference_note": benchmark.reference_note,
        "reference": None
        if reference is None
        else {"mean_nodes": reference[0], "mean_time": reference[1]},
    }


def _solve_set(
    mode: str,
    positions: list[tuple[str, int]],
    states: list[Any],
    short: str,
    time_limit: float | None,
    position_time: float | None,
    log: Log,
) -> dict[str, Any]:
    """One mode's run over a set's positions: counts, nodes and times, the wrong scores."""
    gc.collect()
    right = attempted = 0
    nodes: list[int] = []
    times: list[float] = []
    wrong: list[dict[str, Any]] = []
    unsolved: list[int] = []
    started = time.perf_counter()
    for number, ((moves, expected), state) in enumerate(
        zip(positions, states, strict=True), start=1
    ):
        if time_limit is not None and time.perf_counter() - started > time_limit:
            log(f"{short} {mode}: set time limit reached after {attempted} positions")
            break
        attempted += 1
        score, count, elapsed = solve_position(state, mode, position_time)
        if score is None:
            unsolved.append(number)
            continue
        nodes.append(count)
        times.append(elapsed)
        if score == expected:
            right += 1
        else:
            wrong.append({"line": number, "moves": moves, "expected": expected, "found": score})
        if number % 100 == 0:
            log(f"{short} {mode}: {number} positions, {right} right")
    solved = len(nodes)
    row: dict[str, Any] = {
        "mode": mode,
        "attempted": attempted,
        "solved": solved,
        "unsolved": unsolved,
        "right": right,
        "wrong_count": len(wrong),
        "all_right": solved > 0 and right == solved,
        "mean_nodes": sum(nodes) / solved if solved else 0.0,
        "median_nodes": _median(nodes),
        "max_nodes": max(nodes, default=0),
        "mean_time": sum(times) / solved if solved else 0.0,
        "median_time": _median(times),
        "total_time": sum(times),
        "nodes_per_second": sum(nodes) / sum(times) if sum(times) > 0 else 0.0,
        "wrong": wrong[:20],
    }
    log(
        f"{short} {SOLVER_MODE_TITLES[mode]}: {solved} solved, {right} right, "
        f"mean {row['mean_nodes']:,.0f} nodes"
    )
    return row


def _median(values: list[int] | list[float]) -> float:
    """The median, 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (ordered[middle - 1] + ordered[middle]) / 2


def solver_suite(
    plan: tuple[tuple[str, int | None], ...] | None = None,
    position_time: float | None = None,
    time_limit: float | None = None,
    modes: tuple[str, ...] = SOLVER_MODES,
    log: Log = lambda text: None,
    game_name: str | None = None,
) -> list[dict[str, Any]]:
    """`solver_bench` over several of a game's sets: [(set name, positions or None for all)].

    `plan` None: the game's default plan.
    """
    game_name, benchmark = solver_benchmark(game_name)
    return [
        solver_bench(
            solver_set_path(name, game_name),
            limit=count,
            time_limit=time_limit,
            log=log,
            position_time=position_time,
            modes=modes,
            game_name=game_name,
        )
        for name, count in (benchmark.default_plan if plan is None else plan)
    ]


def _short_time(seconds: float) -> str:
    """Like format_seconds, but microseconds below a millisecond (reference end-game times)."""
    if 0 < seconds < 0.001:
        return f"{seconds * 1e6:.1f} µs"
    return format_seconds(seconds)


def format_solver_bench(reports: dict[str, Any] | list[dict[str, Any]]) -> list[str]:
    """One row per set and mode, with the reference solver's figures beside ours."""
    if isinstance(reports, dict):
        reports = [reports]
    rows = []
    misses: list[str] = []
    for report in reports:
        reference = report["reference"]
        for row in report["rows"]:
            unsolved = len(row["unsolved"])
            rows.append(
                [
                    report["set"],
                    SOLVER_MODE_TITLES[row["mode"]],
                    f"{row['attempted']}/{report['positions']}",
                    f"{row['solved']}" + (f" ({unsolved} out of time)" if unsolved else ""),
                    "yes" if row["all_right"] else f"no ({row['wrong_count']} wrong)",
                    f"{row['mean_nodes']:,.0f}",
                    f"{row['median_nodes']:,.0f}",
                    _short_time(row["mean_time"]),
                    "-" if reference is None else f"{reference['mean_nodes']:,.0f}",
                    "-" if reference is None else _short_time(reference["mean_time"]),
                ]
            )
            for miss in row["wrong"]:
                misses.append(
                    f"  {report['set']} line {miss['line']}: {miss['moves']} expected "
                    f"{miss['expected']}, found {miss['found']}"
                )
    headers = [
        "set",
        "mode",
        "positions",
        "solved",
        "all right",
        "mean nodes",
        "median nodes",
        "mean time",
        f"{reports[0]['reference_name']} nodes" if reports else "reference nodes",
        f"{reports[0]['reference_name']} time" if reports else "reference time",
    ]
    limits = {report["position_time"] for report in reports} - {None}
    title = reports[0]["title"] if reports else "Solver test sets"
    lines = [
        f"{title} (exact scores; nodes and times are per solved position):",
        *format_table(headers, rows, right=(2, 3, 5, 6, 7, 8, 9)),
    ]
    if limits:
        lines.append(f"time limit per position: {format_seconds(max(limits))}")
    notes = {report["reference_note"] for report in reports} - {""}
    lines += sorted(notes)
    return lines + misses
