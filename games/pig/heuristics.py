"""How good a Pig position is: the race, score and optimal heuristics (see games.pig.rules)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from plyground.games.base import CHANCE, HEURISTIC_LIMIT, Heuristic, evaluate_none

if TYPE_CHECKING:  # games.pig.rules imports this module for its heuristics
    from plyground.games.pig.rules import State

LIMIT = HEURISTIC_LIMIT


def _view(state: State) -> tuple[int, int, int]:
    """(my score, the opponent's score, my turn total) for `state.player`."""
    mine, theirs = state.scores
    if state.player == 1:
        mine, theirs = theirs, mine
    return mine, theirs, state.turn_total


def evaluate_score(state: State) -> float:
    """My score plus my turn total minus the opponent's score, as a fraction of the goal."""
    mine, theirs, turn_total = _view(state)
    lead = (mine + turn_total - theirs) / state.goal
    return LIMIT * max(-1.0, min(1.0, lead))


TURN_MEAN = 8.141794893727031
TURN_VARIANCE = 111.07129874806598
"""Mean and variance of the points one turn banks when holding at 20 (the best simple
strategy); computed exactly by following the turn total's distribution from 0 to 20."""


def evaluate_race(state: State) -> float:
    """Turns each side still needs at ~8 points a turn (holding at 20), turned into a
    win chance by a normal approximation; the mover's turn total counts as banked."""
    mine, theirs, turn_total = _view(state)
    my_distance = max(0, state.goal - mine - turn_total)
    their_distance = max(0, state.goal - theirs)
    # I play first: if we need the same number of turns, I finish half a round earlier.
    lead = (their_distance - my_distance) / TURN_MEAN + 0.5
    # Turns to cover d points: variance about d * var / mean^3 (renewal theory).
    spread = math.sqrt((my_distance + their_distance) * TURN_VARIANCE / TURN_MEAN**3 + 0.25)
    return LIMIT * math.erf(lead / (spread * math.sqrt(2)))


OPTIMAL_LIMIT = 1.0 - 1e-9
"""The optimal heuristic is exact, so it may exceed HEURISTIC_LIMIT, but a non-terminal
estimate stays strictly inside (-1, 1): only a finished game is worth exactly 1."""


def evaluate_optimal(state: State) -> float:
    """The exact win chance p under optimal play by both sides, as 2p - 1."""
    # Imported here: the table module is optional and solving a table takes a while.
    from plyground.games.pig.optimal import optimal_table

    win = optimal_table(state.goal).win_probability
    mine, theirs, turn_total = _view(state)
    if state.to_move == CHANCE:  # a roll in flight: average the six faces
        p = 1.0 - win(theirs, mine, 0) + sum(win(mine, theirs, turn_total + f) for f in range(2, 7))
        p /= 6
    else:
        p = win(mine, theirs, turn_total)
    return max(-OPTIMAL_LIMIT, min(OPTIMAL_LIMIT, 2 * p - 1))


HEURISTICS: dict[str, Heuristic] = {
    h.name: h
    for h in (
        Heuristic(
            "race",
            "Estimates how many turns each player still needs (about 8 points a turn) and "
            "turns the difference into a chance of winning.",
            evaluate_race,
        ),
        Heuristic(
            "score",
            "Your score plus the points at stake this turn, minus your opponent's score, "
            "as a share of the goal.",
            evaluate_score,
        ),
        Heuristic(
            "optimal",
            "The exact chance of winning against a perfect opponent, read from a solved "
            "table (slow the first time for a new goal).",
            evaluate_optimal,
            exact=True,
        ),
        Heuristic(
            "none",
            "Always 0: the AI only sees wins and losses it can reach within its depth.",
            evaluate_none,
        ),
    )
}
