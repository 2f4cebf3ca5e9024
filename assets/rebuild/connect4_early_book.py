"""Write games/connect4/data/early_book.txt: the exact value of every connect-four position
with 0 to 3 stones, solved by alpha-beta with the 8- and 12-stone opening books.

Run once (about a minute): ``python assets/rebuild/connect4_early_book.py``.  Each line is
``moves outcome plies``: the columns played (1-7, ``-`` for the empty board), then the
result for the player to move (1, 0, -1) and the plies until the game ends (0 for a draw).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context  # noqa: E402
from plyground.ai.engine.pruning_search import PruningSearch  # noqa: E402
from plyground.ai.engine.search import heuristic_for  # noqa: E402
from plyground.ai.evaluation.values import INF_UNITS, SCALE, plies_to_end  # noqa: E402
from plyground.games.connect4.book import EARLY_STONES  # noqa: E402
from plyground.games.connect4.rules import EMPTY, State  # noqa: E402

OUT = ROOT / "games" / "connect4" / "data" / "early_book.txt"


def solve(state: State) -> tuple[int, int]:
    """(outcome, plies to the end) for the player to move."""
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    units = PruningSearch(ctx).solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)
    if units == 0:
        return 0, 0
    plies = plies_to_end(units / SCALE)
    assert plies is not None
    return (1 if units > 0 else -1), plies


def main() -> None:
    from plyground.games.connect4 import book as connect4_book

    connect4_book._early = {}  # solve from the two books, never from this file itself
    lines = []
    seen: set[int] = set()
    frontier: list[tuple[str, State]] = [("", EMPTY)]
    for _ in range(EARLY_STONES + 1):
        following = []
        for moves, state in frontier:
            if state.key() not in seen:
                seen.add(state.key())
                outcome, plies = solve(state)
                lines.append(f"{moves or '-'} {outcome} {plies}")
                print(lines[-1], flush=True)
            for col in state.legal_moves():
                following.append((moves + str(col + 1), state.play(col)))
        frontier = following
    OUT.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
