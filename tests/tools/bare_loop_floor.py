"""How fast any keyed search of an aima-python game can be, beside aima's own (docs/BENCHMARKS.md).

A bare negamax alpha-beta written for the measurement: aima's methods called directly, nothing
checked, nothing counted but nodes, the game's own move order.  Once with a table keyed as
Plyground keys an aima state (`freeze` of the whole state), once without a table.  Both visit
aima's nodes (one fewer: aima does not count its root), so the ratios are what a node costs.
Needs aima3: run ``python tests/tools/bare_loop_floor.py [connect4|tictactoe] [DEPTHS...]``
(defaults connect4 and depths 3 to 6).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from plyground.games.from_file import freeze

RUNS = 30
SLOTS = 4093


def bare_search(game: Any, state: Any, depth: int, keyed: bool) -> tuple[Any, int]:
    """The best root move and the nodes visited, by fail-soft negamax alpha-beta."""
    result, actions, over = game.result, game.actions, game.terminal_test
    utility, to_move = game.utility, game.to_move
    first = to_move(state)
    slots: list[Any] = [None] * SLOTS
    nodes = 0

    def value(node: Any, remaining: int, alpha: float, beta: float) -> float:
        nonlocal nodes
        nodes += 1
        if over(node) or remaining == 0:
            score = utility(node, first)
            return score if to_move(node) == first else -score
        if keyed:
            key = (freeze(node), False)
            index = hash(key) % SLOTS
            entry = slots[index]
            if entry is not None and entry[0] == key and entry[1] == remaining:
                return entry[2]  # type: ignore[no-any-return]
        best = -float("inf")
        moves = tuple(actions(node))
        len(set(moves))  # what checking a list of moves for repeats costs
        for move in moves:
            found = -value(result(node, move), remaining - 1, -beta, -max(alpha, best))
            if found > best:
                best = found
                if best >= beta:
                    break
        if keyed and alpha < best < beta:  # only exact values: no bounds to keep apart
            slots[index] = (key, remaining, best)
        return best

    chosen, best = None, -float("inf")
    for move in actions(state):
        found = -value(result(state, move), depth - 1, -float("inf"), -best)
        if found > best:
            chosen, best = move, found
    return chosen, nodes + 1


def median_ms(run: Callable[[], object]) -> float:
    """The median of `RUNS` timed calls of `run`, in milliseconds, after one to warm up."""
    run()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main(argv: list[str]) -> None:
    from aima3.games import ConnectFour, TicTacToe, alphabeta_cutoff_search

    name = argv[0] if argv else "connect4"
    game = TicTacToe() if name == "tictactoe" else ConnectFour()
    depths = [int(d) for d in argv[1:]] or [3, 4, 5, 6]
    start = game.initial
    print(f"aima's {type(game).__name__} from the start, median of {RUNS} whole calls:")
    for depth in depths:
        own = median_ms(lambda d=depth: alphabeta_cutoff_search(start, game, d=d - 1))
        keyed = median_ms(lambda d=depth: bare_search(game, start, d, True))
        plain = median_ms(lambda d=depth: bare_search(game, start, d, False))
        nodes = bare_search(game, start, depth, False)[1]
        print(
            f"  depth {depth}: aima {own:.2f} ms; bare loop keyed {keyed:.2f} ms "
            f"({own / keyed:.2f}x), without a table {plain:.2f} ms ({own / plain:.2f}x); "
            f"{nodes:,} nodes"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
