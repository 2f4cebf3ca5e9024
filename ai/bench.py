"""Benchmarks of the search engine: fixed positions, whole AI games, and the connect-four solver.

Every function returns plain data (ready for JSON) and has a matching `format_*` that
turns it into aligned text.  Depth ladders stop before a search would take longer than
the limit (predicted from the growth of the last two depths), so the full run takes a
few minutes and `quick` about a minute on a 2-core machine.
"""

from __future__ import annotations

import gc
import math
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from ai.match import MatchSetup, play_game
from ai.search import ALGORITHM_TITLES, algorithms_for, search
from ai.text_table import format_seconds, format_table
from ai.values import plies_to_end

Log = Callable[[str], None]

DEFAULT_SOLVER_FILE = (
    Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4" / "Test_L3_R1.txt"
)
"""Pascal Pons' end-game set: 1000 positions with exact scores (see its README)."""

CONNECT4_WIDTH, CONNECT4_HEIGHT = 7, 6

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


def _pig_moves(*turns: tuple[int, ...] | str) -> str:
    """Pig move text from turns: a tuple of faces rolled then held, or raw text."""
    parts = []
    for turn in turns:
        if isinstance(turn, str):
            parts.append(turn)
        else:
            parts.append("".join(f"r{face}" for face in turn) + "h")
    return " ".join(parts)


POSITIONS = (
    BenchPosition("tictactoe", "empty board", ""),
    BenchPosition("tictactoe", "after 519", "519"),
    BenchPosition("connect4", "empty board", ""),
    BenchPosition("connect4", "after 4453", "4453"),
    BenchPosition("connect4", "midgame, 16 moves, first player wins", "2531276566711153"),
    BenchPosition(
        "pig",
        "goal 100, 48-55, turn start",
        _pig_moves((6,) * 8, (5,) * 11),
        (("goal", 100),),
    ),
    BenchPosition(
        "pig",
        "goal 100, 48-55, turn total 12",
        _pig_moves((6,) * 8, (5,) * 11, "r4r4r4"),
        (("goal", 100),),
    ),
)
"""The positions every run measures, in the order of the report."""


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
    state: Any, algorithm: str, limit: float, max_depth: int, log: Log
) -> list[dict[str, Any]]:
    """Search at depths 1, 2, ... until the next depth is predicted to exceed `limit` seconds."""
    rows: list[dict[str, Any]] = []
    previous = 0.0
    for depth in range(1, max_depth + 1):
        gc.collect()  # earlier searches' garbage is freed here, not inside the timed search
        result = search(state, algorithm=algorithm, depth=depth, seed=0, all_values=True)
        elapsed = result.elapsed
        for _ in range(QUICK_SEARCH_REPEATS if elapsed < QUICK_SEARCH else 0):
            gc.collect()
            elapsed = min(elapsed, search(state, algorithm=algorithm, depth=depth, seed=0).elapsed)
        row = {
            "depth": depth,
            "nodes": result.nodes,
            "time": elapsed,
            "nodes_per_second": result.nodes / elapsed if elapsed > 0 else 0.0,
            "leaf_evaluations": result.leaf_evaluations,
            "cutoffs": result.cutoffs,
            "table_hits": result.table_hits,
            "value": result.value,
            "move": result.move,
            "effective_branching": result.nodes ** (1.0 / depth) if result.nodes > 0 else 0.0,
            "growth": result.nodes / rows[-1]["nodes"] if rows and rows[-1]["nodes"] else None,
            "exact": result.exact,
            "iterations": [
                {"depth": it["depth"], "nodes": it["nodes"], "elapsed": it["elapsed"]}
                for it in result.extra.get("iterations", [])
            ],
        }
        rows.append(row)
        log(f"  {algorithm} depth {depth}: {result.nodes:,} nodes, {format_seconds(elapsed)}")
        if result.exact:
            break
        growth = elapsed / previous if previous > 0.001 else 4.0
        previous = elapsed
        if elapsed * max(growth, 1.5) > limit:
            break
    return rows


def search_bench(quick: bool = False, log: Log = lambda text: None) -> list[dict[str, Any]]:
    """Every algorithm that fits each game, at increasing depths, on every bench position."""
    limit = 0.5 if quick else 5.0
    max_depth = 12 if quick else 42
    report = []
    for position in POSITIONS:
        game, state = _position_state(position)
        log(f"{game.title}, {position.label}")
        entry: dict[str, Any] = {
            "game": position.game,
            "position": position.label,
            "moves": position.moves,
            "options": dict(position.options),
            "algorithms": {},
        }
        for algorithm in algorithms_for(game):
            entry["algorithms"][algorithm] = _ladder(state, algorithm, limit, max_depth, log)
        minimax = {row["depth"]: row["nodes"] for row in entry["algorithms"].get("minimax", [])}
        for row in entry["algorithms"].get("alphabeta", []):
            row["share_of_minimax"] = (
                row["nodes"] / minimax[row["depth"]] if row["depth"] in minimax else None
            )
        report.append(entry)
    return report


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
                        "-" if share is None else f"{100 * share:.1f}%",
                        f"{row['effective_branching']:.2f}",
                        "-" if row["growth"] is None else f"{row['growth']:.2f}",
                        f"{row['value']:+.3f}",
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
        "alpha-beta's counts include its shallower iterations."
    )
    return lines


def game_bench(quick: bool = False, log: Log = lambda text: None) -> list[dict[str, Any]]:
    """One AI-vs-AI game per game and difficulty preset (the preset against itself), timed per move.

    With `quick`, games stop after QUICK_DECISIONS player decisions.
    """
    from ai.difficulty import DIFFICULTIES

    report = []
    for name, options in (("tictactoe", ()), ("connect4", ()), ("pig", (("goal", 100),))):
        for preset in DIFFICULTIES[name]:
            setup = MatchSetup(game=name, options=options, specs=(preset, preset), seed=0)
            started = time.perf_counter()
            record = play_game(setup, 0, max_decisions=QUICK_DECISIONS if quick else None)
            wall = time.perf_counter() - started
            decisions = sum(record.decisions)
            think = sum(record.think_time)
            report.append(
                {
                    "game": name,
                    "preset": preset,
                    "moves": decisions,
                    "complete": not record.aborted,
                    "time": wall,
                    "time_per_move": think / decisions if decisions else 0.0,
                    "worst_time_per_move": max(record.worst_time),
                    "nodes_per_move": sum(record.nodes) / decisions if decisions else 0.0,
                }
            )
            log(f"{name} {preset}: {decisions} moves in {format_seconds(wall)}")
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


def connect4_score(value: float, moves_played: int, exact: bool) -> int | None:
    """The Pons score (22 - the winner's stone count, 0 for a draw) of a solved value, or None.

    A proven value `v` ends the game `plies_to_end(v)` plies from now; with `moves_played`
    stones already down, the winner's last stone is its ceil((p + d) / 2)-th.
    """
    distance = plies_to_end(value)
    if distance is None:
        return 0 if exact and value == 0 else None
    stones = math.ceil((moves_played + distance) / 2)
    score = CONNECT4_WIDTH * CONNECT4_HEIGHT // 2 + 1 - stones
    return score if value > 0 else -score


def solver_bench(
    path: Path = DEFAULT_SOLVER_FILE,
    limit: int | None = None,
    time_limit: float | None = None,
    log: Log = lambda text: None,
) -> dict[str, Any]:
    """Solve connect-four positions from a file of 'moves score' lines with unlimited alpha-beta.

    Reports positions solved, how many scores were right, mean nodes and mean time per
    position.  Stops after `limit` positions or once `time_limit` seconds have passed.
    """
    game = games.get_game("connect4")
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    if limit is not None:
        lines = lines[:limit]
    solved = right = 0
    nodes = 0
    elapsed = 0.0
    wrong: list[dict[str, Any]] = []
    started = time.perf_counter()
    for number, (moves, expected_text) in enumerate(lines, start=1):
        if time_limit is not None and time.perf_counter() - started > time_limit:
            log(f"solver: time limit reached after {solved} positions")
            break
        expected = int(expected_text)
        state = game.replay(game.parse_moves(moves))
        result = search(state, algorithm="alphabeta", depth=None, seed=0, all_values=False)
        solved += 1
        nodes += result.nodes
        elapsed += result.elapsed
        score = connect4_score(
            result.value, len(moves), result.exact or plies_to_end(result.value) is not None
        )
        if score == expected:
            right += 1
        elif len(wrong) < 20:
            wrong.append(
                {
                    "line": number,
                    "moves": moves,
                    "expected": expected,
                    "found": score,
                    "value": result.value,
                }
            )
        if number % 10 == 0:
            log(f"solver: {number} positions, {right} right")
    return {
        "file": path.name,
        "positions": len(lines),
        "solved": solved,
        "right": right,
        "all_right": solved > 0 and right == solved,
        "mean_nodes": nodes / solved if solved else 0.0,
        "mean_time": elapsed / solved if solved else 0.0,
        "wrong": wrong,
    }


def format_solver_bench(report: dict[str, Any]) -> list[str]:
    """The solver benchmark as text."""
    lines = [
        f"Connect-four solver on {report['file']}: {report['solved']} of "
        f"{report['positions']} positions solved, {report['right']} scores right"
        f"{' (all)' if report['all_right'] else ''}",
        f"mean {report['mean_nodes']:,.0f} nodes and {format_seconds(report['mean_time'])} "
        "per position",
    ]
    for miss in report["wrong"]:
        lines.append(
            f"  line {miss['line']}: {miss['moves']} expected {miss['expected']}, "
            f"found {miss['found']}"
        )
    return lines
