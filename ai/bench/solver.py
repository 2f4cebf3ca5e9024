"""The solver benchmark: a game's solved test sets, each position solved exactly and its
score checked against the file (`solver_benchmark` of the game; nothing here names one).
"""

from __future__ import annotations

import gc
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground import games
from plyground.ai.engine.search import DepthLimited, SearchConfig, search
from plyground.ai.evaluation.numbers import compact
from plyground.ai.evaluation.values import plies_to_end
from plyground.ai.evaluation.wording import counted
from plyground.ai.players.text_table import format_seconds, format_table
from plyground.file_reader import read_lines
from plyground.games.base import SolverBenchmark, State

Log = Callable[[str], None]
"""Where a benchmark writes its progress lines."""


def solver_games() -> list[str]:
    """The registered games that offer solved test sets (`solver_benchmark`), in order."""
    return [
        name
        for name, factory in games.GAMES.items()
        if games.capabilities(factory).solver_benchmark is not None
    ]


def solver_benchmark(game_name: str | None = None) -> tuple[str, SolverBenchmark]:
    """(game name, its solver test sets); None: the first game that offers them."""
    offered = solver_games()
    if game_name is None:
        if not offered:
            raise ValueError("no registered game offers solver test sets")
        game_name = offered[0]
    factory = games.GAMES.get(game_name)
    benchmark = games.capabilities(factory).solver_benchmark if factory is not None else None
    if benchmark is None:
        raise ValueError(
            f"{game_name!r} offers no solver test sets; games that do: {', '.join(offered)}"
        )
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
"""'score': the root's exact value alone (PruningSearch.solve_value, as the reference solvers do);
'move': `ai.search(depth=None, all_values=False)`, which also finds the moves that tie."""
SOLVER_MODE_TITLES = {"score": "score only", "move": "score + move"}
SOLVER_TABLE_BITS = 20
"""On the pure-Python solver each position gets a fresh table of about 2**20 slots (in the
whole call's time, not the search's); a game's engine keeps its own, emptied at once."""


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


SOLVER_ENGINES = ("compiled", "python")
"""'compiled': the game's own exact engine where it has one (`State.exact_engine()`);
'python': the pure-Python alpha-beta, the reference."""


def solver_engine_status(game_name: str | None = None) -> str | None:
    """Which solver the game with solver test sets runs here (None: it has one solver)."""
    from plyground.ai.engine.exact_solving import engine_status

    if not solver_games():
        return None
    name, _ = solver_benchmark(game_name)
    return engine_status(games.get_game(name).initial_state())


def engine_available(state: State[Any]) -> bool:
    """Whether the game offers a compiled engine for `state` here."""
    from plyground.ai.engine.exact_solving import engine_for

    return engine_for(state) is not None


@dataclass(frozen=True, slots=True)
class TimedSolve:
    """One position solved: the test files' score (None: out of time), nodes, the search's
    seconds and the whole call's (everything the caller waits for: context, searcher,
    tables, the engine hook, the search, the result)."""

    score: int | None
    nodes: int
    search_seconds: float
    call_seconds: float


def solve_position(
    state: State[Any], mode: str, position_time: float | None = None, engine: str = "compiled"
) -> tuple[int | None, int, float]:
    """Solve one position: (the test files' score or None if out of time, nodes, seconds).

    'score' solves the root node alone with null-window probes; 'move' runs the search
    a player runs, which also values every root move that may tie for best.  `engine`
    'python' switches the game's compiled engine off for the solve.
    """
    timed = timed_solve(state, mode, position_time, engine)
    return timed.score, timed.nodes, timed.search_seconds


def timed_solve(
    state: State[Any], mode: str, position_time: float | None = None, engine: str = "compiled"
) -> TimedSolve:
    """`solve_position` with the whole call timed beside the search."""
    from plyground.ai.engine.exact_solving import python_only

    if engine == "python":
        with python_only():
            return _solve_position(state, mode, position_time, engine)
    return _solve_position(state, mode, position_time, engine)


def _solve_position(
    state: State[Any], mode: str, position_time: float | None, engine: str
) -> TimedSolve:
    """The whole call starts here: a game's engine keeps its table between searches, and is
    emptied (at once) so that every position's nodes are its own; the Python solver gets a
    fresh table of SOLVER_TABLE_BITS."""
    from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context, SearchCancelled
    from plyground.ai.engine.exact_solving import engine_for, make_alphabeta
    from plyground.ai.engine.search import heuristic_for
    from plyground.ai.engine.table import TranspositionTable
    from plyground.ai.evaluation.values import INF_UNITS, SCALE

    called = time.perf_counter()
    benchmark = games.capabilities(state.game).solver_benchmark
    assert benchmark is not None, "only a game with solver sets is benchmarked"
    exact_engine = engine_for(state) if engine != "python" else None
    if exact_engine is not None:
        exact_engine.clear()
    table = None if exact_engine is not None else TranspositionTable(bits=SOLVER_TABLE_BITS)
    should_stop, start = _stopper(position_time)
    ply = state.ply
    if mode == "score":
        ctx = Context(heuristic_for(state, None), None, 0, should_stop, None)
        searcher = make_alphabeta(state, ctx, table)
        start[0] = began = time.perf_counter()
        try:
            units = searcher.solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)
        except SearchCancelled:
            now = time.perf_counter()
            return TimedSolve(None, ctx.nodes, now - began, now - called)
        elapsed = time.perf_counter() - began
        score = solver_score(benchmark, units / SCALE, ply, True)
        return TimedSolve(score, ctx.nodes, elapsed, time.perf_counter() - called)
    if mode != "move":
        raise ValueError(f"unknown solver mode {mode!r}; choose from {', '.join(SOLVER_MODES)}")
    start[0] = began = time.perf_counter()
    try:
        result = search(
            state,
            SearchConfig(DepthLimited("alphabeta", None), seed=0, all_values=False),
            should_stop=should_stop,
            table=table,
        )
    except SearchCancelled:
        # The nodes of a cancelled search are not reported: count the time only.
        now = time.perf_counter()
        return TimedSolve(None, 0, now - began, now - called)
    score = solver_score(benchmark, result.value, ply, result.exact)
    return TimedSolve(score, result.nodes, result.elapsed, time.perf_counter() - called)


def solver_bench(
    path: Path | None = None,
    limit: int | None = None,
    time_limit: float | None = None,
    log: Log = lambda text: None,
    position_time: float | None = None,
    modes: tuple[str, ...] = SOLVER_MODES,
    game_name: str | None = None,
    engines: tuple[str, ...] = SOLVER_ENGINES,
    reference_command: list[str] | None = None,
) -> dict[str, Any]:
    """Solve the positions of one 'moves score' file on each engine in each mode and check
    every score (the compiled engine is left out where the game has none here).

    `reference_command`: an external solver run on the same positions in the same run (one
    'moves' line each on its stdin, 'moves score' lines out), timed as a whole process
    (`reference_run`), so that the ratio of the two is measured under the same load.

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
    if states and not engine_available(states[0]):
        engines = tuple(engine for engine in engines if engine != "compiled")
    rows = [
        _solve_set(mode, engine, positions, states, short, time_limit, position_time, log)
        for engine in engines
        for mode in modes
    ]
    solver_set = benchmark.find(short)
    reference = None if solver_set is None else solver_set.reference
    external = None
    if reference_command is not None:
        log(f"{short}: the reference command on {len(positions)} positions")
        external = reference_run(reference_command, positions)
        external.update(_against_reference(rows, external["mean_time"]))
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
        "reference_run": external,
    }


REFERENCE_TIMEOUT = 600.0
"""Seconds the reference command may take over one set."""


def reference_run(command: list[str], positions: list[tuple[str, int]]) -> dict[str, Any]:
    """Time an external solver on `positions` as one process: every position's moves on a
    line of its stdin, its 'moves score' lines read back and checked.  The per-position
    mean includes the process's start and its table (a whole call, as ours is timed).

    :raises ValueError: the command cannot be started, fails or runs too long.
    """
    text = "".join(f"{moves}\n" for moves, _ in positions)
    began = time.perf_counter()
    try:
        finished = subprocess.run(
            command,
            input=text,
            capture_output=True,
            text=True,
            timeout=REFERENCE_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise ValueError(f"the reference command {command[0]!r} did not run: {error}") from None
    seconds = time.perf_counter() - began
    if finished.returncode != 0:
        raise ValueError(
            f"the reference command {command[0]!r} failed (exit code {finished.returncode})"
        )
    expected = dict(positions)
    right = answered = 0
    for line in finished.stdout.splitlines():
        fields = line.split()
        if len(fields) < 2 or fields[0] not in expected:
            continue
        answered += 1
        right += fields[1].lstrip("-").isdigit() and int(fields[1]) == expected[fields[0]]
    count = max(1, len(positions))
    return {
        "command": " ".join(command),
        "positions": len(positions),
        "answered": answered,
        "right": right,
        "seconds": seconds,
        "mean_time": seconds / count,
    }


def _solve_set(
    mode: str,
    engine: str,
    positions: list[tuple[str, int]],
    states: list[Any],
    short: str,
    time_limit: float | None,
    position_time: float | None,
    log: Log,
) -> dict[str, Any]:
    """One mode's run over a set's positions: counts, nodes and times, the wrong scores."""
    if states:  # untimed: loading (or compiling) an engine is not solving
        solve_position(states[0], mode, position_time, engine)
    gc.collect()
    right = attempted = 0
    nodes: list[int] = []
    times: list[float] = []
    call_times: list[float] = []
    wrong: list[dict[str, Any]] = []
    unsolved: list[int] = []
    started = time.perf_counter()
    for number, ((moves, expected), state) in enumerate(
        zip(positions, states, strict=True), start=1
    ):
        if time_limit is not None and time.perf_counter() - started > time_limit:
            reached = counted(attempted, "position")
            log(f"{short} {engine} {mode}: set time limit reached after {reached}")
            break
        attempted += 1
        timed = timed_solve(state, mode, position_time, engine)
        score = timed.score
        if score is None:
            unsolved.append(number)
            continue
        nodes.append(timed.nodes)
        times.append(timed.search_seconds)
        call_times.append(timed.call_seconds)
        if score == expected:
            right += 1
        else:
            wrong.append({"line": number, "moves": moves, "expected": expected, "found": score})
        if number % 100 == 0:
            log(f"{short} {engine} {mode}: {number} positions, {right} right")
    solved = len(nodes)
    row: dict[str, Any] = {
        "engine": engine,
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
        "mean_call_time": sum(call_times) / solved if solved else 0.0,
        "median_call_time": _median(call_times),
        "total_time": sum(times),
        "nodes_per_second": sum(nodes) / sum(times) if sum(times) > 0 else 0.0,
        "positions_per_second": solved / sum(times) if sum(times) > 0 else 0.0,
        "wrong": wrong[:20],
    }
    log(
        f"{short} {engine} {SOLVER_MODE_TITLES[mode]}: {solved} solved, {right} right, "
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
    engines: tuple[str, ...] = SOLVER_ENGINES,
    reference_command: list[str] | None = None,
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
            engines=engines,
            reference_command=reference_command,
        )
        for name, count in (benchmark.default_plan if plan is None else plan)
    ]


def _short_time(seconds: float) -> str:
    """Like format_seconds, but microseconds below a millisecond (reference end-game times)."""
    if 0 < seconds < 0.001:
        return f"{seconds * 1e6:.1f} µs"
    return format_seconds(seconds)


def format_solver_bench(reports: dict[str, Any] | list[dict[str, Any]]) -> list[str]:
    """One row per set, engine and mode, with the reference solver's figures beside ours."""
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
                    row.get("engine", "python"),
                    SOLVER_MODE_TITLES[row["mode"]],
                    f"{row['attempted']}/{report['positions']}",
                    f"{row['solved']}" + (f" ({unsolved} out of time)" if unsolved else ""),
                    "yes" if row["all_right"] else f"no ({row['wrong_count']} wrong)",
                    f"{row['mean_nodes']:,.0f}",
                    _short_time(row["mean_time"]),
                    _short_time(row.get("mean_call_time", 0.0)),
                    compact(row["nodes_per_second"]),
                    compact(row.get("positions_per_second", 0.0)),
                    "-" if reference is None else f"{reference['mean_nodes']:,.0f}",
                    "-" if reference is None else _short_time(reference["mean_time"]),
                    "-"
                    if reference is None
                    else compact(reference["mean_nodes"] / reference["mean_time"]),
                    "-" if reference is None else compact(1 / reference["mean_time"]),
                ]
            )
            for miss in row["wrong"]:
                misses.append(
                    f"  {report['set']} {row.get('engine', 'python')} line {miss['line']}: "
                    f"{miss['moves']} expected {miss['expected']}, found {miss['found']}"
                )
    name = reports[0]["reference_name"] if reports else "reference"
    headers = [
        "set",
        "engine",
        "mode",
        "positions",
        "solved",
        "all right",
        "mean nodes",
        "mean time",
        "whole call",
        "nodes/s",
        "positions/s",
        f"{name} nodes",
        f"{name} time",
        f"{name} nodes/s",
        f"{name} positions/s",
    ]
    limits = {report["position_time"] for report in reports} - {None}
    title = reports[0]["title"] if reports else "Solver test sets"
    lines = [
        f"{title} (exact scores; nodes and times are per solved position):",
        *format_table(headers, rows, right=tuple(range(3, 15))),
        "mean time: the search alone; whole call: everything the caller waits for (context, "
        "searcher, tables, the engine hook, the result)",
    ]
    if limits:
        lines.append(f"time limit per position: {format_seconds(max(limits))}")
    notes = {report["reference_note"] for report in reports} - {""}
    lines += sorted(notes)
    for report in reports:
        lines += reference_run_lines(report)
    return lines + misses


def reference_run_lines(report: dict[str, Any]) -> list[str]:
    """The reference command's run on a set, and our whole call's mean against it (the
    score-only row, the question a reference solver answers; the compiled engine's where
    it ran)."""
    run = report.get("reference_run")
    if run is None:
        return []
    lines = [
        f"{report['set']} reference command `{run['command']}`: {run['positions']} positions "
        f"in one process, {run['right']} of {run['answered']} answers right, "
        f"{_short_time(run['mean_time'])} a position (whole process)"
    ]
    if run.get("ratio") is not None:
        lines.append(
            f"{report['set']} whole call ({run['engine']}, score only) "
            f"{_short_time(run['call_time'])} = {run['ratio']:.1f}x the reference command's"
        )
    return lines


def _against_reference(rows: list[dict[str, Any]], reference_time: float) -> dict[str, Any]:
    """Our whole call against the reference command's per-position time: the score-only
    row (the question a reference solver answers), the compiled engine's where it ran."""
    scored = [row for row in rows if row["mode"] == "score" and row["solved"]]
    scored.sort(key=lambda row: row["engine"] != "compiled")
    if not scored or reference_time <= 0:
        return {"ratio": None}
    ours = scored[0]
    return {
        "engine": ours["engine"],
        "call_time": ours["mean_call_time"],
        "ratio": ours["mean_call_time"] / reference_time,
    }
