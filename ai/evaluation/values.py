"""The value scale shared by every search.

Values are from the point of view of the player to move and lie in [-1, 1].

* Games without chance: a proven win `d` plies away is worth ``WIN - d * STEP`` and a
  proven loss ``-(WIN - d * STEP)``, so a quicker win scores higher and a slower loss
  scores higher than a quicker one.  A draw is 0.  Heuristic estimates are bounded by
  `games.base.HEURISTIC_LIMIT` (0.9), strictly below every proven result.
* Games with chance: a value is 2p - 1 for win probability p, with no distance
  adjustment; terminal wins are exactly +1 and losses -1.
"""

from __future__ import annotations

from plyground.games.base import HEURISTIC_LIMIT

SCALE = 1_000_000
"""Inside the searches a value is an integer number of *units*, `SCALE` units to 1.0, so
that alpha-beta's windows, ties and the per-ply distance bonus are exact.  This module is
the one definition of the scale: the float constants below are the unit ones divided by
`SCALE`."""
WIN_UNITS = SCALE
STEP_UNITS = 1_000
"""A proven result loses this many units per ply of distance."""
HEURISTIC_UNITS = int(HEURISTIC_LIMIT * SCALE)
"""The largest size a heuristic estimate may have."""
PROVEN_UNITS = HEURISTIC_UNITS + STEP_UNITS // 2
"""Values beyond this size are proven results, never heuristic estimates."""
INF_UNITS = 2 * SCALE

WIN = WIN_UNITS / SCALE
STEP = STEP_UNITS / SCALE
"""What one ply of distance costs a proven result (at most 1000 plies stay above 0.9)."""
INFINITY = INF_UNITS / SCALE
"""Larger than any value: the open window of alpha-beta."""
PROVEN = PROVEN_UNITS / SCALE
"""Any value whose size exceeds this is a proven win or loss."""


def to_value(units: float) -> float:
    """Units back to the [-1, 1] scale."""
    return units / SCALE


def score_value(score: float) -> float:
    """A game of scores' number on the search's scale, inside the heuristic band and in the
    same order: ``0.9 * s / (|s| + 1)`` (`ai.engine.bookkeeping.terminal_units`)."""
    return int(HEURISTIC_UNITS * score / (abs(score) + 1)) / SCALE


def value_score(value: float) -> float | None:
    """`score_value` undone: the game's own number behind a value (None: a proven result)."""
    limit = HEURISTIC_UNITS / SCALE
    if abs(value) >= limit:
        return None
    return round(value / (limit - abs(value)), 6)


def is_proven(value: float) -> bool:
    """Whether `value` is a proven win or loss rather than an estimate."""
    return abs(value) > PROVEN


def plies_to_end(value: float) -> int | None:
    """For a proven value in a game without chance, how many plies until the game ends."""
    if not is_proven(value):
        return None
    return round((WIN - abs(value)) / STEP)


def signed(value: float, places: int = 2) -> str:
    """'+0.31', '-0.05', and '0.00' for anything that rounds to zero (never '-0.00');
    `places` decimals."""
    text = f"{value:+.{places}f}"
    return text[1:] if float(text) == 0 else text


def describe(value: float, stochastic: bool = False, exact: bool = False) -> str:
    """A short human text for a value: 'win in 5', 'loss in 2', 'draw', '+0.31', '62.0% to
    win' (only an exact value is a chance to win), 'estimate +0.24'.

    `exact` says the value is the game's true value (`SearchResult.exact`): with chance, a
    heuristic estimate is a score, never a win chance; without chance, an exact 0 is a draw.
    """
    if stochastic:
        if exact:
            return f"{(value + 1) * 50:.1f}% to win"
        return f"estimate {signed(value)}"
    plies = plies_to_end(value)
    if plies is None:
        return "draw" if exact and value == 0 else signed(value)
    if value > 0:
        return f"win in {plies}"
    return f"loss in {plies}"


def board_label(value: float, stochastic: bool = False, exact: bool = False) -> str:
    """A compact label for a value drawn on the board: 'win in 3', '+0.25', '62% to win',
    'est. +0.07' (a chance game's estimate is not a chance to win)."""
    if stochastic:
        return f"{(value + 1) * 50:.0f}% to win" if exact else f"est. {signed(value)}"
    return describe(value, stochastic, exact)
