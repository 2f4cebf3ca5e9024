"""Plyground against aima-python's and easyAI's own searches, on their own games, in one run.

Each case is a framework's game (loaded by its module, unchanged), a position and a depth:
the framework's search (easyAI's ``Negamax`` without and with its transposition table;
aima's ``alphabeta_cutoff_search``), then Plyground's textbook alpha-beta (no table, the
game's move order: the same algorithm) and its engine (ordering, a table, iterative deepening)
on the same game through its adapter, at the same depth.  Times are whole calls, the median of
a few runs; the chosen moves are checked to be of equal value.  The frameworks are imported
here only (they are no dependency): `available()` says which are installed.
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plyground import games
from plyground.ai.compare.comparison import run_variant
from plyground.ai.engine.search import DepthLimited, SearchConfig, search
from plyground.games.from_file import FileGame, FileState, freeze
from plyground.games.from_file.styles import EasyAIStyle

CASES: tuple[tuple[str, str, str, int], ...] = (
    ("easyAI", "easyAI.games:Nim", "", 5),
    ("easyAI", "easyAI.games:Nim", "", 8),
    ("easyAI", "easyAI.games:TicTacToe", "", 6),
    ("easyAI", "easyAI.games:TicTacToe", "", 9),
    ("easyAI", "easyAI.games:ConnectFour", "", 6),
    ("aima", "aima3.games:TicTacToe", "", 5),
    ("aima", "aima3.games:TicTacToe", "", 9),
    ("aima", "aima3.games:ConnectFour", "", 4),
    ("aima", "aima3.games:ConnectFour", "", 9),
)
"""(framework, game, moves from the start, depth): each game at a depth a few milliseconds deep
(where the whole call's fixed cost shows) and at one a move in a game would use."""
QUICK_CASES = CASES[:1] + CASES[5:6]
RUNS = 3
SPAN = 0.5
MAX_RUNS = 50


def available() -> dict[str, bool]:
    """Which frameworks are installed here."""
    return {
        "easyAI": importlib.util.find_spec("easyAI") is not None,
        "aima": importlib.util.find_spec("aima3") is not None,
    }


@dataclass(frozen=True)
class Timing:
    """One search of a case: who ran it, its median seconds, its nodes (None: not counted)."""

    who: str
    seconds: float
    nodes: int | None
    move: str


def _median(run: Callable[[], tuple[Any, int | None]]) -> tuple[float, Any, int | None]:
    """The median time of `run()`: at least `RUNS` calls, more for a quick one (until
    `SPAN` seconds or `MAX_RUNS` calls), whose times a shared machine scatters most."""
    times: list[float] = []
    result: Any = None
    nodes: int | None = None
    while len(times) < RUNS or (sum(times) < SPAN and len(times) < MAX_RUNS):
        start = time.perf_counter()
        result, nodes = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result, nodes


def copy_of(game: FileGame, state: FileState) -> Any:
    """A fresh copy of an easyAI game object for the framework to search (it changes it)."""
    style = game.style
    assert isinstance(style, EasyAIStyle)
    return style.copy(state.inner)


def _framework_runs(
    framework: str, game: FileGame, state: FileState, depth: int
) -> list[tuple[str, Callable[[], tuple[Any, int | None]]]]:
    if framework == "easyAI":
        from easyAI import Negamax
        from easyAI.AI import TranspositionTable

        def plain() -> tuple[Any, int | None]:
            return Negamax(depth)(copy_of(game, state)), None

        def tabled() -> tuple[Any, int | None]:
            return Negamax(depth, tt=TranspositionTable())(copy_of(game, state)), None

        runs = [("easyAI Negamax", plain)]
        if callable(getattr(state.inner, "ttentry", None)):  # its table keys by ttentry()
            runs.append(("easyAI Negamax + its table", tabled))
        return runs
    from aima3.games import alphabeta_cutoff_search

    def cutoff() -> tuple[Any, int | None]:
        return alphabeta_cutoff_search(state.inner, game.obj, d=depth - 1), None

    return [("aima alphabeta_cutoff_search", cutoff)]


def run_case(framework: str, spec: str, moves: str, depth: int) -> dict[str, Any]:
    """One case: every search's median time, nodes and move, and whether the moves agree."""
    game = games.get_game(spec)
    state = game.replay(game.parse_moves(moves)) if moves else game.initial_state()
    assert isinstance(state, FileState), "a framework's game comes through its adapter"
    assert isinstance(game, FileGame)
    timings: list[Timing] = []
    for who, run in _framework_runs(framework, game, state, depth):
        seconds, move, nodes = _median(run)
        timings.append(Timing(who, seconds, nodes, game.format_move(freeze(move))))

    def textbook() -> tuple[Any, int | None]:
        row = run_variant(state, "alphabeta-plain", depth)
        return row.move, row.nodes

    def engine() -> tuple[Any, int | None]:  # a player's move: the best, not every value
        result = search(
            state, SearchConfig(DepthLimited("alphabeta", depth), all_values=False, book=False)
        )
        return result.move, result.nodes

    exact = search(state, SearchConfig(DepthLimited("alphabeta", depth), book=False))
    values = {game.format_move(m): float(v) for m, v in exact.move_values.items()}
    for who, run in (
        ("Plyground textbook alpha-beta", textbook),
        ("Plyground engine (table)", engine),
    ):
        seconds, move, nodes = _median(run)
        timings.append(Timing(who, seconds, nodes, game.format_move(move)))
    best = exact.value
    agree = all(
        t.move in values
        and (values[t.move] > 0) == (best > 0)
        and (values[t.move] < 0) == (best < 0)
        for t in timings
    )
    return {
        "framework": framework,
        "game": spec,
        "moves": moves,
        "depth": depth,
        "timings": [t.__dict__ for t in timings],
        "moves_agree": agree,
    }


def frameworks_bench(
    quick: bool = False, log: Callable[[str], None] = lambda _: None
) -> list[dict[str, Any]]:
    """Every case whose framework is installed."""
    have = available()
    rows = []
    for framework, spec, moves, depth in QUICK_CASES if quick else CASES:
        if not have[framework]:
            continue
        log(f"{spec} at depth {depth}")
        rows.append(run_case(framework, spec, moves, depth))
    return rows


def format_frameworks_bench(rows: list[dict[str, Any]]) -> list[str]:
    """The table: per case each search's time, its ratio to the framework's plain search,
    nodes where counted, the move; then whether the moves agree."""
    if not rows:
        return [
            "Frameworks: none installed "
            "(pip install easyAI tqdm numpy; pip install --no-deps aima3)."
        ]
    lines = [
        "Games of aima-python and easyAI, searched by each framework and by Plyground, at the "
        f"same depth (whole calls, the median of {RUNS} or more: a quick one's for {SPAN:g} s, "
        f"up to {MAX_RUNS}):"
    ]
    for row in rows:
        first = row["timings"][0]["seconds"]
        lines.append(
            f"  {row['game']} from {row['moves'] or 'the start'}, depth {row['depth']}"
            f"{'' if row['moves_agree'] else '  (MOVES DISAGREE)'}"
        )
        for timing in row["timings"]:
            ratio = first / timing["seconds"] if timing["seconds"] > 0 else float("inf")
            nodes = f"{timing['nodes']:>9,} nodes" if timing["nodes"] is not None else " " * 15
            lines.append(
                f"    {timing['who']:<32} {timing['seconds'] * 1000:>9.1f} ms  {ratio:>6.2f}x  "
                f"{nodes}  move {timing['move']}"
            )
    lines.append(
        "  (x: how many times faster than the framework's own plain search; "
        "moves of equal value agree)"
    )
    return lines
