"""Connect-four's Expert on the pure-Python solver (no numba) just after the opening book.

Seeded games: a random opening of four moves, then the compiled Expert plays both sides up to
`STONES` stones; there the pure-Python Expert (`PLYGROUND_PURE_PYTHON=1` for its move only)
chooses, and the compiled solver checks whether its move keeps the exact value and the
result (win, draw or loss).  Needs numba for the checks.  Run
``python tests/tools/expert_without_numba.py [STONES] [GAMES]`` (defaults 13 and 40).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from plyground import games
from plyground.ai.bench.expert import _check
from plyground.ai.players.players import AIPlayer, with_seed
from plyground.ai.players.presets import DIFFICULTIES
from plyground.games.base import PURE_PYTHON_VARIABLE
from plyground.games.connect4 import solver

STONES = 13
GAMES = 40


def main() -> None:
    """Play the games and print one line per position and a summary."""
    stones = int(sys.argv[1]) if len(sys.argv) > 1 else STONES
    count = int(sys.argv[2]) if len(sys.argv) > 2 else GAMES
    if solver.compiled() is None:
        sys.exit("needs numba for the checks: " + solver.status())
    game = games.get_game("connect4")
    expert = DIFFICULTIES["connect4"]["Expert"]
    kept_value = kept_result = played = 0
    seconds: list[float] = []
    for number in range(count):
        rng = random.Random(number)
        state = game.initial_state()
        moves = []
        for _ in range(4):
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        compiled = AIPlayer(with_seed(expert, number), game)
        while state.ply < stones and not state.is_terminal():
            moves.append(compiled.choose(state))
            state = state.play(moves[-1])
        if state.is_terminal():
            continue
        os.environ[PURE_PYTHON_VARIABLE] = "1"
        try:
            pure = AIPlayer(with_seed(expert, number), game)
            began = time.perf_counter()
            move = pure.choose(state)
            seconds.append(time.perf_counter() - began)
        finally:
            del os.environ[PURE_PYTHON_VARIABLE]
        value, result = _check(state, move)
        played += 1
        kept_value += value
        kept_result += result
        line = game.format_moves(moves)
        print(f"game {number}: {line} value kept {value}, result kept {result}", flush=True)
    print(
        f"{played} positions with {stones} stones: the pure-Python Expert kept the result in "
        f"{kept_result}, the exact value in {kept_value}; move time median "
        f"{statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
    )


if __name__ == "__main__":
    main()
