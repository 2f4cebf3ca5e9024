"""The difficulty presets of the frameworks' games at play: each preset's time a move.

Every game aima-python and easyAI ship (those installed, loaded by their modules, unchanged)
gets its ladder derived at load (`games.from_file.derived_presets`); here each preset
searches a few positions of each game as a match asks it to (a fresh player, so a cold
table: the slowest case), and the table says the median and the longest move, with the
depth each preset reached.  The positions come from seeded random play, spread from the
start to the middle of a game, where the choices are most.  Times are wall-clock on a
shared machine (the median is the figure to quote), with the process's CPU time beside.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from plyground import games
from plyground.ai.bench.frameworks import available
from plyground.ai.players.players import AIPlayer
from plyground.ai.players.presets import preset_config
from plyground.games.base import CHANCE, Game, State

FRAMEWORK_GAMES: tuple[tuple[str, str], ...] = (
    ("easyAI", "easyAI.games:Nim"),
    ("easyAI", "easyAI.games:GameOfBones"),
    ("easyAI", "easyAI.games:TicTacToe"),
    ("easyAI", "easyAI.games:ConnectFour"),
    ("easyAI", "easyAI.games:Knights"),
    ("easyAI", "easyAI.games:Cram"),
    ("easyAI", "easyAI.games:ThreeMusketeers"),
    ("easyAI", "easyAI.games:AweleTactical"),
    ("easyAI", "easyAI.games.Awele:Awele"),
    ("easyAI", "easyAI.games.Chopsticks:Chopsticks"),
    ("easyAI", "easyAI.games.Hexapawn:Hexapawn"),
    ("easyAI", "easyAI.games.Reversi:Reversi"),
    ("aima", "aima3.games:Fig52Game"),
    ("aima", "aima3.games:Fig52Extended"),
    ("aima", "aima3.games:TicTacToe"),
    ("aima", "aima3.games:ConnectFour"),
)
"""(framework, game): every game the two frameworks ship that imports without extras
(easyAI's Kivy and Flask variants need those libraries)."""
POSITIONS = 5
"""Positions each preset searches in a game (--quick: 2)."""


def positions(game: Game[Any], count: int, seed: int = 0) -> list[State[Any]]:
    """`count` unfinished positions from seeded random play: the start, then positions spread
    up to the middle of a random game (a short game repeats its plies)."""
    rng = random.Random(seed)
    lengths = []
    for _ in range(8):
        state, plies = game.initial_state(), 0
        while not state.is_terminal() and plies < 400:
            state, plies = _random_step(state, rng), plies + 1
        lengths.append(plies)
    middle = max(1, statistics.median(lengths) // 2)
    found: list[State[Any]] = [game.initial_state()]
    attempt = 0
    while len(found) < count and attempt < 50 * count:
        attempt += 1
        target = round(middle * len(found) / max(1, count - 1))
        state = game.initial_state()
        for _ in range(target):
            if state.is_terminal():
                break
            state = _random_step(state, rng)
        if not state.is_terminal() and state.to_move != CHANCE:
            found.append(state)
    return found


def _random_step(state: State[Any], rng: random.Random) -> State[Any]:
    if state.to_move == CHANCE:
        outcomes = state.chance_outcomes()
        return state.play(rng.choice(outcomes)[0])
    return state.play(rng.choice(state.legal_moves()))


def time_presets(spec: str, count: int) -> dict[str, Any]:
    """One game's row: its load time and each preset's move times and depths reached."""
    start = time.perf_counter()
    try:
        game = games.get_game(spec)
    except Exception as error:  # a game the loader refuses: said in its row
        return {"game": spec, "error": str(error).splitlines()[0]}
    loaded = time.perf_counter() - start
    sample = positions(game, count)
    presets = []
    for preset in game.presets:
        config = preset_config(preset)
        seconds, processor, depths = [], [], []
        failed = ""
        for state in sample:
            player = AIPlayer(config, game)
            begun, used = time.perf_counter(), time.process_time()
            try:
                player.choose(state)
            except Exception as error:  # a game's or the engine's failure: said in the row
                failed = f"{type(error).__name__}: {error}".splitlines()[0]
                break
            seconds.append(time.perf_counter() - begun)
            processor.append(time.process_time() - used)
            result = player.last_result
            depths.append(result.depth if result is not None else 0)
        presets.append(
            {
                "preset": preset.name,
                "settings": config.describe(),
                "median": statistics.median(seconds) if seconds else None,
                "max": max(seconds, default=None),
                "cpu": statistics.median(processor) if processor else None,
                "depths": depths,
                "failed": failed,
            }
        )
    return {"game": spec, "load": loaded, "positions": len(sample), "presets": presets}


def levels_bench(
    quick: bool = False,
    log: Callable[[str], None] = lambda _: None,
    specs: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Every framework game installed here (or those named), each preset timed."""
    have = available()
    chosen = specs or [spec for framework, spec in FRAMEWORK_GAMES if have[framework]]
    rows = []
    for spec in chosen:
        log(f"the presets of {spec}")
        rows.append(time_presets(spec, 2 if quick else POSITIONS))
    return rows


def format_levels_bench(rows: list[dict[str, Any]]) -> list[str]:
    """The table: per game and preset the median and longest move and the depths reached."""
    if not rows:
        return [
            "Frameworks: none installed "
            "(pip install easyAI tqdm numpy; pip install --no-deps aima3)."
        ]
    lines = [
        "Each derived preset's move on the frameworks' games (a fresh player per position: "
        "wall-clock seconds on this machine, median and longest, and the median of the "
        "process's own CPU seconds, which the machine's other work does not inflate; depth: "
        "reached at each position):"
    ]
    for row in rows:
        if "error" in row:
            lines.append(f"  {row['game']}: not loaded ({row['error']})")
            continue
        lines.append(
            f"  {row['game']} (loaded in {row['load']:.2f} s; {row['positions']} positions)"
        )
        for preset in row["presets"]:
            if preset["failed"]:
                lines.append(f"    {preset['preset']:<8} failed: {preset['failed']}")
                continue
            depths = ",".join(str(depth) for depth in preset["depths"])
            lines.append(
                f"    {preset['preset']:<8} {preset['median']:>7.3f} s median "
                f"{preset['max']:>7.3f} s max {preset['cpu']:>7.3f} s cpu   depth {depths:<18} "
                f"{preset['settings']}"
            )
    return lines
