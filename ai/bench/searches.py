"""Benchmarks of the search engine: fixed positions, whole AI games, and a game's solver sets
(these in `ai.bench.solver`, re-exported here).

Every position, game and test set comes from the games' own descriptions (`bench_positions`,
`presets`, `solver_benchmark`): nothing here names a game.

Every function returns plain data (ready for JSON) and has a matching `format_*` that
turns it into aligned text.  Depth ladders stop before a search would take longer than
the limit (predicted from the growth of the last two depths), so the full run takes a
few minutes and `quick` about a minute on a 2-core machine.
"""

from __future__ import annotations

import gc
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground import games
from plyground.ai.bench.solver import (
    DEFAULT_SOLVER_PLAN,
    HARD_SOLVER_SETS,
    MAX_SOLVER_FILE,
    SOLVER_ENGINES,
    SOLVER_MODE_TITLES,
    SOLVER_MODES,
    SOLVER_SETS,
    SOLVER_TABLE_BITS,
    Log,
    format_solver_bench,
    read_solver_file,
    reference_run,
    solve_position,
    solver_bench,
    solver_benchmark,
    solver_engine_status,
    solver_games,
    solver_score,
    solver_set_path,
    solver_suite,
)
from plyground.ai.engine.search import (
    ALGORITHM_TITLES,
    DepthLimited,
    SearchConfig,
    search,
    searchable_algorithms,
)
from plyground.ai.evaluation.values import signed
from plyground.ai.evaluation.wording import board_text, counted
from plyground.ai.players.match import MatchSetup, play_game
from plyground.ai.players.text_table import format_seconds, format_table
from plyground.games.base import State

__all__ = [
    "DEFAULT_SOLVER_PLAN",
    "HARD_SOLVER_SETS",
    "MAX_SOLVER_FILE",
    "POSITIONS",
    "QUICK_DECISIONS",
    "QUICK_SEARCH",
    "QUICK_SEARCH_REPEATS",
    "SOLVER_ENGINES",
    "SOLVER_MODES",
    "SOLVER_MODE_TITLES",
    "SOLVER_SETS",
    "SOLVER_TABLE_BITS",
    "BenchPosition",
    "Log",
    "all_positions",
    "format_game_bench",
    "format_machine",
    "format_search_bench",
    "format_solver_bench",
    "game_bench",
    "machine_description",
    "read_solver_file",
    "reference_run",
    "search_bench",
    "solve_position",
    "solver_bench",
    "solver_benchmark",
    "solver_engine_status",
    "solver_games",
    "solver_score",
    "solver_set_path",
    "solver_suite",
]

QUICK_SEARCH = 0.05
"""A search quicker than this (seconds) is timed again, keeping the fastest run: a scheduler
hiccup should not decide the nodes/s of a 2 ms search."""
QUICK_SEARCH_REPEATS = 2


@dataclass(frozen=True, slots=True)
class BenchPosition:
    """A fixed position: a game, its options and the moves that lead there."""

    game: str
    label: str
    moves: str
    options: tuple[tuple[str, Any], ...] = ()


def all_positions() -> tuple[BenchPosition, ...]:
    """Every registered game's `bench_positions`, in registry order."""
    positions = []
    for name, factory in games.GAMES.items():
        for position in games.capabilities(factory).bench_positions:
            positions.append(
                BenchPosition(name, position.label, position.moves, tuple(position.options))
            )
    return tuple(positions)


POSITIONS: tuple[BenchPosition, ...] | None = None
"""The positions every run measures, in the order of the report; None: `all_positions()`."""


def machine_description() -> dict[str, Any]:
    """What the figures were measured on."""
    processor = platform.processor()
    if not processor:
        try:
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                if line.startswith("model name"):
                    processor = line.split(":", 1)[1].strip()
                    break
        except OSError:
            pass
    return {
        "processor": processor or "unknown",
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def format_machine(machine: dict[str, Any]) -> str:
    """One line describing the machine."""
    return (
        f"Machine: {machine['processor']}, {machine['cpus']} CPUs, {machine['platform']}, "
        f"{machine['python']}"
    )


def _position_state(position: BenchPosition) -> tuple[Any, Any]:
    """The game object and the state of a bench position."""
    game = games.get_game(position.game, **dict(position.options))
    return game, game.replay(game.parse_moves(position.moves))


def _ladder(
    state: State[Any], algorithm: str, limit: float, max_depth: int, log: Log
) -> list[dict[str, Any]]:
    """Search at depths 1, 2, ... until the next depth is predicted to exceed `limit` seconds."""
    rows: list[dict[str, Any]] = []
    previous = 0.0
    for depth in range(1, max_depth + 1):
        gc.collect()  # earlier searches' garbage is freed here, not inside the timed search
        result = search(
            state, SearchConfig(DepthLimited(algorithm, depth), seed=0, all_values=True)
        )
        elapsed = result.elapsed
        for _ in range(QUICK_SEARCH_REPEATS if elapsed < QUICK_SEARCH else 0):
            gc.collect()
            elapsed = min(
                elapsed,
                search(state, SearchConfig(DepthLimited(algorithm, depth), seed=0)).elapsed,
            )
        row = {
            "depth": depth,
            "nodes": result.nodes,
            "time": elapsed,
            "nodes_per_second": result.nodes / elapsed if elapsed > 0 else 0.0,
            "leaves": result.leaves,
            "leaf_evaluations": result.leaf_evaluations,
            "cutoffs": result.cutoffs,
            "table_hits": result.table_hits,
            "value": result.value,
            "value_text": board_text(result.evaluation, bool(state.STOCHASTIC)),
            "move": result.move,
            "effective_branching": result.nodes ** (1.0 / depth) if result.nodes > 0 else 0.0,
            "growth": result.nodes / rows[-1]["nodes"] if rows and rows[-1]["nodes"] else None,
            "exact": result.exact,
            "iterations": [
                {"depth": it.depth, "nodes": it.nodes, "elapsed": it.elapsed}
                for it in result.details.iterations
            ],
        }
        rows.append(row)
        nodes = counted(result.nodes, "node")
        log(f"  {algorithm} depth {depth}: {nodes}, {format_seconds(elapsed)}")
        if result.exact:
            break
        growth = elapsed / previous if previous > 0.001 else 4.0
        previous = elapsed
        if elapsed * max(growth, 1.5) > limit:
            break
    if algorithm == "alphabeta" and rows:
        # Each row is one pass at its depth; on a clock the engine deepens pass by pass:
        # the time it takes to reach each depth that way (the clock never runs out here).
        gc.collect()
        clocked = SearchConfig(
            DepthLimited(algorithm, rows[-1]["depth"]), time_limit=3600.0, seed=0
        )
        rows[-1]["iterations"] = [
            {"depth": it.depth, "nodes": it.nodes, "elapsed": it.elapsed}
            for it in search(state, clocked).details.iterations
        ]
    return rows


def shown_name(name: str) -> str:
    """A game's name in a report: a built-in game's own, a file's "file.py:Class"."""
    return str(getattr(games.GAMES.get(name), "where", name))


def positions_of(name: str, options: dict[str, Any] | None = None) -> tuple[BenchPosition, ...]:
    """One game's bench positions: those it offers, else its start (a game from a file)."""
    offered = games.capabilities(games.GAMES[name]).bench_positions
    given = tuple((options or {}).items())
    if offered:
        return tuple(BenchPosition(name, p.label, p.moves, given or p.options) for p in offered)
    return (BenchPosition(name, "the start", "", given),)


def search_bench(
    quick: bool = False,
    log: Log = lambda text: None,
    positions: tuple[BenchPosition, ...] | None = None,
) -> list[dict[str, Any]]:
    """Every algorithm that fits each game, at increasing depths, on every bench position
    (`positions`: these instead, `positions_of` one game)."""
    limit = 0.5 if quick else 5.0
    max_depth = 12 if quick else 42
    report = []
    chosen = positions or (all_positions() if POSITIONS is None else POSITIONS)
    for position in chosen:
        game, state = _position_state(position)
        log(f"{game.title}, {position.label}")
        entry: dict[str, Any] = {
            "game": shown_name(position.game),
            "position": position.label,
            "moves": position.moves,
            "options": dict(position.options),
            "algorithms": {},
        }
        for algorithm in searchable_algorithms(game):
            entry["algorithms"][algorithm] = _ladder(state, algorithm, limit, max_depth, log)
        minimax = {row["depth"]: row["nodes"] for row in entry["algorithms"].get("minimax", [])}
        for row in entry["algorithms"].get("alphabeta", []):
            row["share_of_minimax"] = (
                row["nodes"] / minimax[row["depth"]] if row["depth"] in minimax else None
            )
        report.append(entry)
    return report


def _share_text(share: float | None) -> str:
    """'12.5%', '-' (no minimax at that depth) or 'more': above minimax's count the search
    did not walk the same tree (`ai.textbook.counts.SHARE`), so no share above 100%."""
    if share is None:
        return "-"
    return "more" if share > 1 else f"{100 * share:.1f}%"


def format_search_bench(report: list[dict[str, Any]]) -> list[str]:
    """The search benchmark as text: one table per position, then time to depth."""
    lines: list[str] = []
    for entry in report:
        lines.append(
            f"{entry['game']}: {entry['position']}"
            + (f" (moves {entry['moves']})" if entry["moves"] else "")
        )
        rows = []
        for algorithm, ladder in entry["algorithms"].items():
            for row in ladder:
                share = row.get("share_of_minimax")
                rows.append(
                    [
                        ALGORITHM_TITLES[algorithm],
                        row["depth"],
                        f"{row['nodes']:,}",
                        format_seconds(row["time"]),
                        f"{row['nodes_per_second']:,.0f}",
                        _share_text(share),
                        f"{row['effective_branching']:.2f}",
                        "-" if row["growth"] is None else f"{row['growth']:.2f}",
                        row.get("value_text") or signed(row["value"], 3),
                    ]
                )
        headers = [
            "algorithm",
            "depth",
            "nodes",
            "time",
            "nodes/s",
            "of minimax",
            "ebf",
            "growth",
            "value",
        ]
        lines += [
            "  " + line for line in format_table(headers, rows, right=(1, 2, 3, 4, 5, 6, 7, 8))
        ]
        deepened = [
            (algorithm, ladder[-1])
            for algorithm, ladder in entry["algorithms"].items()
            if ladder and len(ladder[-1]["iterations"]) > 1
        ]
        if deepened:
            algorithm, deepest = max(deepened, key=lambda item: item[1]["depth"])
            steps = ", ".join(
                f"{it['depth']}: {format_seconds(it['elapsed'])}" for it in deepest["iterations"]
            )
            lines.append(
                f"  time to reach each depth ({ALGORITHM_TITLES[algorithm]}, iterative deepening): "
                f"{steps}"
            )
        lines.append("")
    lines.append(
        "ebf = nodes^(1/depth); growth = nodes at this depth / nodes at the depth before; "
        "each row is one search of its own, one pass at its depth ('more': more nodes than "
        "minimax's); value: the root's, with its kind (est. = a heuristic estimate)."
    )
    return lines


def game_bench(
    quick: bool = False,
    log: Log = lambda text: None,
    names: list[str] | None = None,
    options_of: dict[str, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One AI-vs-AI game per game and difficulty preset (the preset against itself), timed per move
    (`names`: these games only, made with `options_of` theirs; default: the built-in games).

    With `quick`, games stop after QUICK_DECISIONS player decisions.
    """
    from plyground.ai.players.presets import DIFFICULTIES

    report = []
    for name in names or games.builtin_names():
        made = games.get_game(name, **(options_of or {}).get(name, {}))
        options = tuple(made.option_values().items())
        for preset in DIFFICULTIES[name]:
            setup = MatchSetup(game=name, options=options, specs=(preset, preset), seed=0)
            started = time.perf_counter()
            record = play_game(setup, 0, max_decisions=QUICK_DECISIONS if quick else None)
            wall = time.perf_counter() - started
            decisions = sum(record.decisions)
            think = sum(record.think_time)
            report.append(
                {
                    "game": shown_name(name),
                    "preset": preset,
                    "moves": decisions,
                    "complete": not record.aborted,
                    "time": wall,
                    "time_per_move": think / decisions if decisions else 0.0,
                    "worst_time_per_move": max(record.worst_time),
                    "nodes_per_move": sum(record.nodes) / decisions if decisions else 0.0,
                }
            )
            log(f"{name} {preset}: {counted(decisions, 'move')} in {format_seconds(wall)}")
    return report


QUICK_DECISIONS = 16
"""Decisions played per game by `game_bench(quick=True)`."""


def format_game_bench(report: list[dict[str, Any]]) -> list[str]:
    """The AI-game timings as text."""
    rows = [
        [
            row["game"],
            row["preset"],
            f"{row['moves']}{'' if row['complete'] else '+'}",
            format_seconds(row["time"]),
            format_seconds(row["time_per_move"]),
            format_seconds(row["worst_time_per_move"]),
            f"{row['nodes_per_move']:,.0f}",
        ]
        for row in report
    ]
    headers = [
        "game",
        "preset (vs itself)",
        "moves",
        "game time",
        "mean/move",
        "worst/move",
        "nodes/move",
    ]
    lines = ["AI-vs-AI games (seed 0):", *format_table(headers, rows, right=(2, 3, 4, 5, 6))]
    if any(not row["complete"] for row in report):
        lines.append(
            f"moves marked + : the quick run stops each game after {QUICK_DECISIONS} moves"
        )
    return lines
