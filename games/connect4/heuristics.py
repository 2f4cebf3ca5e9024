"""Connect-four's heuristics: windows of four, square weights (centre) and threats with row
parity.  Each reads the two bitboards of a position (layout in `games.connect4.bitboard`)
and returns a value in [-0.9, 0.9] for the player to move."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from plyground.games.base import HEURISTIC_LIMIT, NO_HEURISTIC, Heuristic
from plyground.games.connect4.bitboard import (
    BB_BOARD,
    BB_BOTTOM,
    BB_ROW_PARITY,
    DIRECTIONS,
    HEIGHT,
    WIDTH,
    WINDOWS,
    Bitboard,
    bit,
    threats_of_both,
    window_starts,
)

if TYPE_CHECKING:  # games.connect4.rules imports this module for its heuristics
    from plyground.games.connect4.rules import State


LANE_WIDTH = 128
"""The windows heuristic lays the board out in 4 lanes (one per direction) of 128 bits:
the mover's stones at offset 0, the opponent's at offset OPPONENT_OFFSET."""
OPPONENT_OFFSET = 56
_LANE_MUL: tuple[int, ...] = tuple(
    sum(1 << (LANE_WIDTH * k + 8 * i - i * d) for k, d in enumerate(DIRECTIONS)) for i in range(4)
)
"""Multiplying by _LANE_MUL[i] then shifting right by 8*i puts, in lane k, the board
shifted right by i * DIRECTIONS[k]: four different shifts in one multiplication.  The
partial products never overlap (no carries); the bits shifted out of lane k land at
offsets >= 104 of lane k-1, above both halves, and window starts never read them."""
_MINE_LANES = sum(BB_BOARD << (LANE_WIDTH * k) for k in range(4))
_WINDOW_STARTS = sum(
    (window_starts(d) | window_starts(d) << OPPONENT_OFFSET) << (LANE_WIDTH * k)
    for k, d in enumerate(DIRECTIONS)
)
_MINE_STARTS = _WINDOW_STARTS & _MINE_LANES
THREE_WEIGHT, TWO_WEIGHT = 5, 2
WINDOWS_SCALE = 40.0
LIMIT = HEURISTIC_LIMIT


def evaluate_windows(state: State) -> float:
    """Windows of four holding 3 (weight 5) or 2 (weight 2) of one side's stones and none
    of the other's: mine minus the opponent's, squashed by tanh into [-0.9, 0.9].

    Bit-parallel: every window is named by its start square, and all four directions for
    both players are computed at once in one wide int (see LANE_WIDTH).
    """
    current = state.current
    x = current | ((current ^ state.mask) << OPPONENT_OFFSET)
    a0 = x * _LANE_MUL[0]  # square s of each window (start s, step d)
    a1 = (x * _LANE_MUL[1]) >> 8  # square s + d
    a2 = (x * _LANE_MUL[2]) >> 16  # square s + 2d
    a3 = (x * _LANE_MUL[3]) >> 24  # square s + 3d
    # Bit-sliced sum of the four squares: b1 b0 is the count (4 shows up as 0; a
    # position in play has no four).
    s1, c1, s2, c2 = a0 ^ a1, a0 & a1, a2 ^ a3, a2 & a3
    b0 = s1 ^ s2
    b1 = c1 ^ c2 ^ (s1 & s2)
    occupied = a0 | a1 | a2 | a3
    # A window is open for me when the opponent has no stone in it: swap the halves.
    blocked = ((occupied >> OPPONENT_OFFSET) & _MINE_LANES) | (
        (occupied & _MINE_LANES) << OPPONENT_OFFSET
    )
    b1 &= _WINDOW_STARTS & ~blocked
    three = b1 & b0
    two = b1 ^ three
    threes = 2 * (three & _MINE_STARTS).bit_count() - three.bit_count()
    twos = 2 * (two & _MINE_STARTS).bit_count() - two.bit_count()
    return LIMIT * math.tanh((THREE_WEIGHT * threes + TWO_WEIGHT * twos) / WINDOWS_SCALE)


SQUARE_WEIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 for w in WINDOWS if w & bit(col, row)) for row in range(HEIGHT))
    for col in range(WIDTH)
)
"""How many lines of four pass through each square, [col][row]: 3 in a corner, 13 in the centre."""
_WEIGHT_BITS: tuple[Bitboard, ...] = tuple(
    sum(
        bit(col, row)
        for col in range(WIDTH)
        for row in range(HEIGHT)
        if SQUARE_WEIGHTS[col][row] >> k & 1
    )
    for k in range(4)
)
"""Bit k of every square's weight, as bitboards (a bit-sliced weight table)."""
CENTRE_SCALE = 40.0


def _centre_score(mine: Bitboard, theirs: Bitboard) -> int:
    """Sum of SQUARE_WEIGHTS over my stones minus over theirs, one weight bit at a time."""
    w0, w1, w2, w3 = _WEIGHT_BITS
    return (
        (mine & w0).bit_count()
        - (theirs & w0).bit_count()
        + 2 * ((mine & w1).bit_count() - (theirs & w1).bit_count())
        + 4 * ((mine & w2).bit_count() - (theirs & w2).bit_count())
        + 8 * ((mine & w3).bit_count() - (theirs & w3).bit_count())
    )


def evaluate_centre(state: State) -> float:
    """Sum of the square weights of my stones minus the opponent's, squashed by tanh."""
    mine = state.current
    return LIMIT * math.tanh(_centre_score(mine, mine ^ state.mask) / CENTRE_SCALE)


THREATS_SCALE = 6.0
CENTRE_TIEBREAK = 100.0


def _threat_score(threats: Bitboard, good_rows: Bitboard, playable: Bitboard) -> int:
    return (
        threats.bit_count()
        + (threats & good_rows).bit_count()
        + 2 * (threats & playable).bit_count()
    )


def evaluate_threats(state: State) -> float:
    """Threats (empty squares that would complete four) count 1, +1 on a row whose parity
    favours their owner, +2 when playable now; mine minus the opponent's, squashed by
    tanh, with a little of the centre score to break ties."""
    mask = state.mask
    mine = state.current
    theirs = mine ^ mask
    me = state.to_move
    playable = (mask + BB_BOTTOM) & BB_BOARD
    my_threats, their_threats = threats_of_both(mine, theirs, mask)
    score = _threat_score(my_threats, BB_ROW_PARITY[me], playable) - _threat_score(
        their_threats, BB_ROW_PARITY[me ^ 1], playable
    )
    tiebreak = _centre_score(mine, theirs) / CENTRE_TIEBREAK
    return LIMIT * math.tanh((score + tiebreak) / THREATS_SCALE)


HEURISTICS: dict[str, Heuristic] = {
    h.name: h
    for h in (
        Heuristic(
            "windows",
            "Counts every line of four the opponent has not blocked: lines with 3 of your "
            "stones score most, lines with 2 score some, and the opponent's count against you.",
            evaluate_windows,
        ),
        Heuristic(
            "threats",
            "Counts empty squares that would complete four for each side, valuing them more "
            "when their row suits their owner (first player odd rows, second even) or when "
            "they can be played right now.",
            evaluate_threats,
        ),
        Heuristic(
            "centre",
            "Values each stone by how many lines of four pass through its square, so central "
            "stones count most.",
            evaluate_centre,
        ),
        NO_HEURISTIC,
    )
}
