"""The strongest preset at play: its move time by stones on the board, and whether any of
its moves gives the exact result away (checked with the solver), over seeded self-play
games of the game that offers solver test sets (`solver_benchmark`; nothing here names it).

Each game starts from a seeded random opening of up to `opening_plies` moves (so the games
differ), then the strongest preset plays both sides.  Every move it plays is checked: the
position's exact value is solved and the move probed against it.  A move "keeps the result"
when it keeps a win a win, a draw a draw (a loss stays a loss whatever is played); it
"keeps the value" when it also keeps the distance (the quickest win, the slowest loss).

A move on a budget starts from an empty engine table (`ai.engine.search`), so the checks,
which fill the kept table, do not speed up the next move.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from typing import Any

from plyground import games
from plyground.ai.bench.solver import Log, solver_benchmark
from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context
from plyground.ai.engine.exact_solving import make_alphabeta
from plyground.ai.engine.search import heuristic_for
from plyground.ai.evaluation.values import INF_UNITS
from plyground.ai.evaluation.wording import counted
from plyground.ai.players.players import AIPlayer, with_seed
from plyground.ai.players.presets import DIFFICULTIES
from plyground.ai.players.text_table import format_seconds, format_table
from plyground.games.base import Game, State

STONE_BANDS = ((0, 11), (12, 12), (13, 16), (17, 20), (21, 30), (31, 42))
"""Rows of the move-time table: stones on the board before the move."""


def _exact(state: State[Any]) -> int:
    """The exact value of `state` in units (the game's solver)."""
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    return make_alphabeta(state, ctx).solve_value(
        state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS
    )


def _check(state: State[Any], move: Any) -> tuple[bool, bool]:
    """(the move keeps the exact value, the move keeps the result: win, draw or loss)."""
    value = _exact(state)
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    searcher = make_alphabeta(state, ctx)
    if searcher.child_value(state, move, UNLIMITED_DEPTH, value - 1, value) >= value:
        return True, True
    if value < 0:
        return False, True  # lost whatever is played
    moved = searcher.exact_child_value(state, move, UNLIMITED_DEPTH)
    return False, (moved > 0) == (value > 0) and (moved >= 0) == (value >= 0)


def load_average() -> float | None:
    """The machine's load over the last minute (None where the system does not say)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def _opening(game: Game[Any], rng: random.Random, plies: int) -> Any:
    """A random unfinished position `plies` moves from the start."""
    while True:
        state = game.initial_state()
        for _ in range(plies):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            return state


def expert_bench(
    count: int = 40,
    opening_plies: int = 4,
    check: bool = True,
    log: Log = lambda text: None,
    game_name: str | None = None,
) -> dict[str, Any]:
    """`count` seeded self-play games of the game's strongest preset; every move timed and,
    with `check`, checked against the solver."""
    name, _ = solver_benchmark(game_name)
    game = games.get_game(name)
    preset, config = list(DIFFICULTIES[name].items())[-1]
    moves: list[dict[str, Any]] = []
    warm_up = games.capabilities(game).warm_up
    if warm_up is not None:
        warm_up()  # loading (or compiling) an engine is not a move: untimed
    load_before = load_average()
    started = time.perf_counter()
    for number in range(count):
        rng = random.Random(number)
        state = _opening(game, rng, rng.randint(0, opening_plies))
        opening = len(moves)
        players = [AIPlayer(with_seed(config, 2 * number + side), game) for side in (0, 1)]
        while not state.is_terminal():
            began = time.perf_counter()
            player = players[state.to_move]
            move = player.choose(state)
            seconds = time.perf_counter() - began
            nodes = player.last_result.nodes if player.last_result is not None else 0
            kept_value, kept_result = _check(state, move) if check else (True, True)
            moves.append(
                {
                    "game": number,
                    "stones": state.ply,
                    "seconds": seconds,
                    "nodes": nodes,
                    "kept_value": kept_value,
                    "kept_result": kept_result,
                }
            )
            state = state.play(move)
        log(f"{preset} game {number + 1}/{count}: {counted(len(moves) - opening, 'move')}")
    return {
        "game": name,
        "preset": preset,
        "config": config.describe(),
        "games": count,
        "checked": check,
        "moves": moves,
        "elapsed": time.perf_counter() - started,
        "load": [load_before, load_average()],
    }


HIDDEN_POSITIONS = 120
"""Positions of the hidden-position check (`hidden_positions`)."""
HIDDEN_STONES = (12, 16)
"""Stones on the board of its positions: where the strongest preset works hardest."""


def hidden_positions(count: int = HIDDEN_POSITIONS, seed: int = 0) -> dict[str, Any]:
    """The strongest preset's move at `count` random positions of 12-16 stones, each timed,
    in a fresh process whose first move pays the engine's start-up as a new process does
    (loading the compiled code from its cache; no warm-up first, unlike the window)."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        report: dict[str, Any] = pool.apply(_time_hidden_positions, (count, seed))
    return report


def _time_hidden_positions(count: int, seed: int) -> dict[str, Any]:
    """In the fresh process: every move timed, the first call included."""
    name, _ = solver_benchmark(None)
    game = games.get_game(name)
    preset, config = list(DIFFICULTIES[name].items())[-1]
    rng = random.Random(seed)
    moves = []
    for number in range(count):
        state = _opening(game, rng, rng.randint(*HIDDEN_STONES))
        player = AIPlayer(with_seed(config, number), game)
        start = time.perf_counter()
        player.choose(state)
        moves.append({"stones": state.ply, "seconds": time.perf_counter() - start})
    return {
        "game": name,
        "preset": preset,
        "seed": seed,
        "moves": moves,
        "load": load_average(),
    }


def format_hidden_positions(report: dict[str, Any]) -> list[str]:
    """The hidden-position check in three lines: the first call, then every move."""
    times = [move["seconds"] for move in report["moves"]]
    first = report["moves"][0]
    low, high = HIDDEN_STONES
    return [
        f"{report['preset']} at {len(times)} random positions of {low}-{high} stones of "
        f"{report['game']} (seed {report['seed']}), in a fresh process:",
        f"  first move (the engine's start-up included): {format_seconds(first['seconds'])} "
        f"at {first['stones']} stones",
        f"  every move: median {format_seconds(statistics.median(times))}, p90 "
        f"{format_seconds(_percentile(times, 0.9))}, max {format_seconds(max(times))}; "
        f"{sum(t > 2.0 for t in times)} over 2 s",
    ]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def format_expert_bench(report: dict[str, Any]) -> list[str]:
    """Move time by stones (median, p90, max), the most nodes a move took, and the moves that
    gave anything away."""
    bands = [(str(low) if low == high else f"{low}-{high}", low, high) for low, high in STONE_BANDS]
    rows = []
    for label, low, high in [*bands, ("all", 0, 10**6)]:
        chosen = [m for m in report["moves"] if low <= m["stones"] <= high]
        if not chosen:
            continue
        times = [m["seconds"] for m in chosen]
        rows.append(
            [
                label,
                len(times),
                format_seconds(statistics.median(times)),
                format_seconds(_percentile(times, 0.9)),
                format_seconds(max(times)),
                f"{max(m.get('nodes', 0) for m in chosen):,}",
            ]
        )
    all_moves = report["moves"]
    lines = [
        f"{report['preset']} ({report['config']}) against itself, "
        f"{counted(report['games'], 'seeded game')} of {report['game']}: move time by stones "
        "on the board",
        *format_table(
            ["stones", "moves", "median", "p90", "max", "most nodes"], rows, right=(1, 2, 3, 4, 5)
        ),
    ]
    loads = [load for load in report.get("load", []) if load is not None]
    if loads:
        lines.append(
            "load average (1 minute) "
            + " at the start, ".join(f"{load:.1f}" for load in loads)
            + (" at the end" if len(loads) > 1 else "")
            + f" on {os.cpu_count()} CPUs"
        )
    if report["checked"]:
        lost_result = [m for m in all_moves if not m["kept_result"]]
        lost_value = [m for m in all_moves if not m["kept_value"]]
        lines.append(
            f"checked with the solver: {len(all_moves) - len(lost_result)} of {len(all_moves)} "
            f"moves keep the result (win, draw, loss), {len(all_moves) - len(lost_value)} "
            "also the distance"
        )
        lines += [
            f"  game {m['game']} at {m['stones']} stones gives the result away" for m in lost_result
        ]
    return lines
