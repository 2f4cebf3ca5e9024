"""Expert against the solver-plus-book in the connect-four opening (docs/SOLVER.md).

20 games from 10 seeded two-move openings, Expert on each side; the other side is the
solver (alpha-beta with the opening book, no depth or time limit).  Every Expert move
with 12 or fewer stones is checked against the exact value: run
``python tests/tools/expert_vs_perfect.py``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from plyground import games
from plyground.ai.engine.bookkeeping import UNLIMITED_DEPTH, Context, back_up
from plyground.ai.engine.pruning_search import PruningSearch
from plyground.ai.engine.search import DepthLimited, SearchConfig, heuristic_for, search
from plyground.ai.evaluation.values import INF_UNITS, WIN_UNITS
from plyground.ai.players.players import AIPlayer
from plyground.ai.players.presets import DIFFICULTIES

GAME = games.get_game("connect4")


def solve(state: Any) -> int:
    """The exact value in units for the player to move (a finished game: lost)."""
    if state.is_terminal():
        return 0 if state.winner() is None else -WIN_UNITS
    ctx = Context(heuristic_for(state, None), None, 0, None, None)
    return PruningSearch(ctx).solve_value(state, None, UNLIMITED_DEPTH, -INF_UNITS, INF_UNITS)


def main() -> None:
    rng = random.Random(2026)
    openings: set[tuple[int, int]] = set()
    while len(openings) < 10:
        openings.add((rng.randrange(7), rng.randrange(7)))
    kept = checked = given_away = 0
    worst = 0.0
    most_proof_nodes = 0
    for first, second in sorted(openings):
        for expert_side in (0, 1):
            expert = AIPlayer(DIFFICULTIES["connect4"]["Expert"], GAME)
            state = GAME.initial_state().play(first).play(second)
            lost = []
            while state.ply <= 12 and not state.is_terminal():
                if state.to_move == expert_side:
                    before = solve(state)
                    start = time.perf_counter()
                    move = expert.choose(state)
                    worst = max(worst, time.perf_counter() - start)
                    result = expert.last_result
                    if result is not None:
                        proof = result.extra.get("proof_nodes") or 0
                        most_proof_nodes = max(most_proof_nodes, proof)
                    after = back_up(solve(state.play(move)))
                    checked += 1
                    kept += after == before
                    if (before > 0) != (after > 0) or (before == 0) != (after == 0):
                        lost.append(state.ply)
                else:
                    move = search(
                        state, SearchConfig(DepthLimited("alphabeta", None), all_values=False)
                    ).move
                state = state.play(move)
            given_away += bool(lost)
            side = "XO"[expert_side]
            print(f"opening {first + 1}{second + 1}, Expert as {side}: gave away at {lost or '-'}")
    print(
        f"Expert moves checked: {checked}, exact value kept: {kept}; games where Expert gave "
        f"away a won or drawn result: {given_away} of 20; slowest Expert move {worst:.2f} s; "
        f"most nodes of a proof at 12 stones: {most_proof_nodes:,}"
    )


if __name__ == "__main__":
    main()
