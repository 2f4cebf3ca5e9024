"""Connect-four on Python-int bitboards, in Pascal Pons' layout.

Square (col, row), row 0 at the bottom, is bit ``col * 7 + row``.  Each column owns
HEIGHT + 1 = 7 bits; the top one is a sentinel that is always empty, so a shift that
walks off the top of one column lands on an empty bit instead of the next column::

    sentinel  6 13 20 27 34 41 48   <- always 0
    row 5     5 12 19 26 33 40 47
    row 4     4 11 18 25 32 39 46
    row 3     3 10 17 24 31 38 45
    row 2     2  9 16 23 30 37 44
    row 1     1  8 15 22 29 36 43
    row 0     0  7 14 21 28 35 42
    column    0  1  2  3  4  5  6    (text notation: 1-7)

Neighbours are shifts: +1 up, +7 right, +8 up-right, +6 down-right.  A position is two
bitboards: `current` (the stones of the player to move) and `mask` (all stones).
Playing column c is ``mask | (mask + bottom(c))``: the carry runs up the column's
stones and stops on the first empty square.  ``current + mask`` is a unique key.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from games.base import (
    HEURISTIC_LIMIT,
    NO_HEURISTIC,
    BenchPosition,
    DigitNotation,
    GameOption,
    Heuristic,
    IllegalMoveError,
    Player,
    Preset,
    SolverBenchmark,
    SolverSet,
    illegal,
)

if TYPE_CHECKING:
    from games.connect4_book import BookValue

Bitboard: TypeAlias = int
Column: TypeAlias = int

WIDTH = 7
HEIGHT = 6
STRIDE = HEIGHT + 1
"""Bits per column: HEIGHT squares plus the sentinel."""

UP, RIGHT, UP_RIGHT, DOWN_RIGHT = 1, STRIDE, STRIDE + 1, STRIDE - 1
DIRECTIONS = (UP, DOWN_RIGHT, RIGHT, UP_RIGHT)
CENTRE_ORDER: tuple[Column, ...] = (3, 2, 4, 1, 5, 0, 6)
"""Columns in search order: the centre takes part in the most lines of four."""

TOKENS = ("X", "O")
"""How players 0 (first) and 1 are drawn in text."""


def _bit(col: int, row: int) -> Bitboard:
    return 1 << (col * STRIDE + row)


BB_BOTTOM: Bitboard = sum(_bit(col, 0) for col in range(WIDTH))
BB_TOP: Bitboard = BB_BOTTOM << (HEIGHT - 1)
BB_SENTINELS: Bitboard = BB_BOTTOM << HEIGHT
BB_BOARD: Bitboard = BB_BOTTOM * ((1 << HEIGHT) - 1)
"""All 42 squares (no sentinels)."""
BB_COLUMNS: tuple[Bitboard, ...] = tuple(((1 << HEIGHT) - 1) << (c * STRIDE) for c in range(WIDTH))
BB_ROW_PARITY: tuple[Bitboard, ...] = (
    sum(BB_BOTTOM << row for row in range(0, HEIGHT, 2)),  # rows 1, 3, 5 counted from 1
    sum(BB_BOTTOM << row for row in range(1, HEIGHT, 2)),  # rows 2, 4, 6 counted from 1
)
"""Squares whose row parity favours player 0 (odd rows from 1) and player 1 (even rows)."""

_BOTTOM_OF: dict[Column, Bitboard] = {col: _bit(col, 0) for col in range(WIDTH)}


def _window_starts(direction: int) -> Bitboard:
    """Squares where a line of four in `direction` starts and stays on the board."""
    d = direction
    return BB_BOARD & (BB_BOARD >> d) & (BB_BOARD >> 2 * d) & (BB_BOARD >> 3 * d)


WINDOWS: tuple[Bitboard, ...] = tuple(
    sum(1 << (start + i * d) for i in range(4))
    for d in DIRECTIONS
    for start in range(WIDTH * STRIDE)
    if _window_starts(d) >> start & 1
)
"""The 69 lines of four, as bitboards (for reference code, tests and winning_line)."""


def _full_columns_top(columns: int) -> Bitboard:
    """The top squares of the columns whose bits are set in `columns` (bit c = column c)."""
    return sum(_bit(col, HEIGHT - 1) for col in range(WIDTH) if columns >> col & 1)


_LEGAL_MOVES: dict[Bitboard, tuple[Column, ...]] = {
    _full_columns_top(full): tuple(col for col in CENTRE_ORDER if not full >> col & 1)
    for full in range(1 << WIDTH)
}
"""Legal moves, centre first, by which columns are full (key: `mask & BB_TOP`)."""


def has_four(stones: Bitboard) -> bool:
    """Whether `stones` contain four in a line in any direction."""
    for d in DIRECTIONS:
        m = stones & (stones >> d)
        if m & (m >> 2 * d):
            return True
    return False


PACK = 128
"""Lane width for evaluating several boards at once with `_completions` (see there)."""
_REPEAT: tuple[int, ...] = tuple(sum(1 << (PACK * k) for k in range(n)) for n in range(WIDTH + 1))
"""_REPEAT[n] copies a board into n lanes by one multiplication."""


def _completions(p: Bitboard) -> int:
    """Squares (empty or not) where one more stone of `p` would complete four.

    Pons' compute_winning_position: along each direction d a square completes four when
    its neighbours match one of ``_XXX, X_XX, XX_X, XXX_``.  Works on several boards
    packed in lanes of PACK bits: a left shift moves a lane's bits at most 24 places up
    (47 + 24 < PACK) and a right shift brings the next lane's bits down no lower than
    PACK - 24 > 47, so the 42 squares of each lane never see another lane.
    """
    # Vertical: only three stones directly below can make four.
    r = (p << 1) & (p << 2) & (p << 3)
    # Horizontal, d = 7 (unrolled, literal shifts: this runs at every search node).
    right1, right2, left1, left2 = p >> 7, p >> 14, p << 7, p << 14
    r |= (right1 & right2 & ((p >> 21) | left1)) | (left1 & left2 & ((p << 21) | right1))
    # Up-right diagonal, d = 8.
    right1, right2, left1, left2 = p >> 8, p >> 16, p << 8, p << 16
    r |= (right1 & right2 & ((p >> 24) | left1)) | (left1 & left2 & ((p << 24) | right1))
    # Down-right diagonal, d = 6.
    right1, right2, left1, left2 = p >> 6, p >> 12, p << 6, p << 12
    r |= (right1 & right2 & ((p >> 18) | left1)) | (left1 & left2 & ((p << 18) | right1))
    return r


def winning_squares(stones: Bitboard, mask: Bitboard) -> Bitboard:
    """Empty squares, playable now or later, where one more of `stones` completes four."""
    return _completions(stones) & (BB_BOARD ^ mask)


def threats_of_both(mine: Bitboard, theirs: Bitboard, mask: Bitboard) -> tuple[Bitboard, Bitboard]:
    """`winning_squares` for both players in one pass (two lanes): about 40% faster."""
    both = _completions(mine | (theirs << PACK)) & ((BB_BOARD ^ mask) * _REPEAT[2])
    return both & BB_BOARD, both >> PACK


def _column_of(bit: Bitboard) -> Column:
    """The column of the lowest set bit of `bit`."""
    return ((bit & -bit).bit_length() - 1) // STRIDE


@dataclass(frozen=True, slots=True)
class State:
    """A connect-four position: `current` = stones of the player to move, `mask` = all stones.

    `to_move` and `over` are derived from the two bitboards (and so are not compared);
    `play` builds new states with the fast private constructor below the class.
    """

    STOCHASTIC: ClassVar[bool] = False

    current: Bitboard = 0
    mask: Bitboard = 0
    to_move: Player = field(init=False, compare=False, repr=False)
    over: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        """Check that the bitboards describe a reachable-looking position; derive the rest."""
        mask, current = self.mask, self.current
        if mask & ~BB_BOARD or current & ~mask:
            raise ValueError("stones outside the board, or `current` not within `mask`")
        for col_bits in BB_COLUMNS:
            column = (mask & col_bits) >> ((col_bits & -col_bits).bit_length() - 1)
            if column & (column + 1):
                raise ValueError("a column has a gap: stones must rest on the ones below")
        mine, theirs = current.bit_count(), (current ^ mask).bit_count()
        if theirs - mine not in (0, 1):
            raise ValueError("the player to move must have as many stones, or one fewer")
        object.__setattr__(self, "to_move", theirs - mine)
        over = mask == BB_BOARD or has_four(current) or has_four(current ^ mask)
        object.__setattr__(self, "over", over)

    def __hash__(self) -> int:
        return hash(self.current + self.mask)

    @property
    def player(self) -> Player:
        """The player to move (connect-four has no chance nodes)."""
        return self.to_move

    @property
    def ply(self) -> int:
        """Number of stones on the board."""
        return self.mask.bit_count()

    @property
    def game(self) -> Game:
        """The connect-four rules (for the search to find heuristics from a state)."""
        return GAME

    def key(self) -> int:
        """Pons' unique key: `current + mask` (each column's stone count and colours)."""
        return self.current + self.mask

    def is_terminal(self) -> bool:
        """Whether someone has four in a line or the board is full."""
        return self.over

    def legal_moves(self) -> tuple[Column, ...]:
        """Columns that are not full, centre first."""
        if self.over:
            return ()
        return _LEGAL_MOVES[self.mask & BB_TOP]

    def play(self, move: Column) -> State:
        """Drop a stone in column `move` (0-6) for the player to move."""
        mask = self.mask
        try:
            bottom = _BOTTOM_OF.get(move)
        except TypeError:  # unhashable
            bottom = None
        if bottom is None or self.over:
            raise self._illegal(move)
        new_mask = mask | (mask + bottom)
        if new_mask & BB_SENTINELS:  # the carry ran past the top: the column is full
            raise self._illegal(move)
        current = self.current
        # The mover's stones after the move: has_four, inlined with literal shifts
        # (a call and named constants cost about a quarter of play's time).
        p = current | (new_mask ^ mask)
        m = p & (p >> 7)  # RIGHT
        if m & (m >> 14):
            over = True
        else:
            m = p & (p >> 1)  # UP
            if m & (m >> 2):
                over = True
            else:
                m = p & (p >> 8)  # UP_RIGHT
                if m & (m >> 16):
                    over = True
                else:
                    m = p & (p >> 6)  # DOWN_RIGHT
                    over = bool(m & (m >> 12)) or new_mask == BB_BOARD
        state = _new(State)
        _set_current(state, current ^ mask)  # the opponent's stones: they move next
        _set_mask(state, new_mask)
        _set_to_move(state, self.to_move ^ 1)
        _set_over(state, over)
        return state

    def winner(self) -> Player | None:
        """0 or 1 if that player has four in a line, else None."""
        if not self.over:
            return None
        if has_four(self.current ^ self.mask):
            return self.to_move ^ 1
        if has_four(self.current):
            return self.to_move
        return None

    def utility(self, player: Player) -> float:
        """+1 if `player` won, -1 if they lost, 0 for a draw or a game in progress."""
        winner = self.winner()
        if winner is None:
            return 0.0
        return 1.0 if winner == player else -1.0

    def chance_outcomes(self) -> tuple[tuple[Column, float], ...]:
        """Connect-four has no chance: always ()."""
        return ()

    def max_plies_left(self) -> int:
        """Search hook: the game ends within this many plies (one per empty square)."""
        return WIDTH * HEIGHT - self.mask.bit_count()

    def winning_line(self) -> tuple[tuple[int, int], ...] | None:
        """Every (col, row) in a completed line of four of the winner, or None."""
        winner = self.winner()
        if winner is None:
            return None
        stones = self.current if winner == self.to_move else self.current ^ self.mask
        cells = 0
        for window in WINDOWS:
            if stones & window == window:
                cells |= window
        return tuple(
            (col, row) for col in range(WIDTH) for row in range(HEIGHT) if cells & _bit(col, row)
        )

    def cell(self, col: int, row: int) -> Player | None:
        """Who owns square (col, row), row 0 at the bottom: 0, 1 or None if empty."""
        bit = _bit(col, row)
        if not self.mask & bit:
            return None
        return self.to_move if self.current & bit else self.to_move ^ 1

    def height(self, col: int) -> int:
        """Number of stones in column `col`."""
        return (self.mask & BB_COLUMNS[col]).bit_count()

    def winning_move(self) -> Column | None:
        """A column where the player to move completes four at once, or None."""
        if self.over:
            return None
        mask = self.mask
        wins = winning_squares(self.current, mask) & (mask + BB_BOTTOM)
        return _column_of(wins) if wins else None

    def search_moves(self) -> tuple[Column, ...]:
        """Moves for the search: an immediate win alone, else the moves that do not let
        the opponent win at once, most threats first; () when every move lets it win."""
        if self.over:
            return ()
        current, mask = self.current, self.mask
        empty = BB_BOARD ^ mask
        both = _completions(current | ((current ^ mask) << PACK))  # mine | theirs
        playable = (mask + BB_BOTTOM) & BB_BOARD
        wins = both & playable
        if wins:
            return (_column_of(wins),)
        threats = (both >> PACK) & empty
        forced = playable & threats
        if forced:
            if forced & (forced - 1):  # two threats to block at once: every move loses
                return ()
            playable = forced
        safe = playable & ~(threats >> 1)  # never play just below an opponent's threat
        if not safe:  # every move lets the opponent win at once
            return ()
        if not safe & (safe - 1):
            return (_column_of(safe),)
        # Score every safe move in one pass: board k (after the k-th move) in lane k.
        columns = [col for col in CENTRE_ORDER if safe & BB_COLUMNS[col]]
        moves = 0
        for lane, col in enumerate(columns):
            moves |= (safe & BB_COLUMNS[col]) << (PACK * lane)
        repeat = _REPEAT[len(columns)]
        after = _completions(current * repeat | moves) & (empty * repeat ^ moves)
        minus_threats = [
            -((after >> (PACK * lane)) & BB_BOARD).bit_count() for lane in range(len(columns))
        ]
        # sorted() is stable: equal scores keep the centre-first order.
        ranked = sorted(range(len(columns)), key=minus_threats.__getitem__)
        return tuple(columns[lane] for lane in ranked)

    def _illegal(self, move: object) -> IllegalMoveError:
        if self.over:
            why = "the game is over"
        elif not (isinstance(move, int) and move in _BOTTOM_OF):
            why = f"columns are 0-{WIDTH - 1}"
        else:
            why = "the column is full"
        return illegal(move, [str(m) for m in sorted(self.legal_moves())], why)

    def solve_is_cheap(self) -> bool:
        """Search hook (ai.cost): with the opening book loaded, solving a position with 11
        or fewer stones takes seconds at most: every line reaches the 12-stone book."""
        if self.mask.bit_count() > 11:
            return False
        from games.connect4_book import available

        return available()

    def solved_value(self) -> BookValue | None:
        """Search hook used only when solving: the exact value of a position with 0-3
        stones, solved once with the opening book (games/data/connect4/early_book.txt)."""
        if self.mask.bit_count() > 3:
            return None
        from games.connect4_book import early_value

        return early_value(self)

    def book_value(self) -> BookValue | None:
        """Search hook: the opening book's (outcome, plies to the end or None) for the player
        to move in a position with 8 or 12 stones, else None (games/connect4_book.py)."""
        if self.mask.bit_count() not in (8, 12):
            return None
        from games.connect4_book import book_value

        return book_value(self)


# The fast private constructor: object.__new__ plus the slot descriptors' __set__
# skips the dataclass __init__ and __post_init__ (about 2x faster, measured).
_new = object.__new__
_Setter: TypeAlias = Callable[[State, Any], None]
_set_current: _Setter = State.__dict__["current"].__set__
_set_mask: _Setter = State.__dict__["mask"].__set__
_set_to_move: _Setter = State.__dict__["to_move"].__set__
_set_over: _Setter = State.__dict__["over"].__set__

EMPTY = State()


# --- heuristics --------------------------------------------------------------------------


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
    (_window_starts(d) | _window_starts(d) << OPPONENT_OFFSET) << (LANE_WIDTH * k)
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
    tuple(sum(1 for w in WINDOWS if w & _bit(col, row)) for row in range(HEIGHT))
    for col in range(WIDTH)
)
"""How many lines of four pass through each square, [col][row]: 3 in a corner, 13 in the centre."""
_WEIGHT_BITS: tuple[Bitboard, ...] = tuple(
    sum(
        _bit(col, row)
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


# --- benchmark data ----------------------------------------------------------------------


def pons_score(outcome: int, plies_to_end: int | None, moves_played: int) -> int:
    """Pascal Pons' score of a proven result: 22 - the winner's stone count, 0 for a draw.

    The game ends `plies_to_end` plies after `moves_played` stones, so the winner's last
    stone is its ceil((played + plies) / 2)-th; `outcome` is +1 or -1 for the side to move.
    """
    if outcome == 0 or plies_to_end is None:
        return 0
    stones = math.ceil((moves_played + plies_to_end) / 2)
    return outcome * (WIDTH * HEIGHT // 2 + 1 - stones)


SOLVER_BENCHMARK = SolverBenchmark(
    title="Connect-four solver on Pascal Pons' test sets",
    directory=Path(__file__).resolve().parent / "data" / "connect4",
    sets=(
        SolverSet("L3_R1", "end game, easy", (51, 5.5e-6)),
        SolverSet("L2_R1", "middle game, easy", (450, 46e-6)),
        SolverSet("L2_R2", "middle game, medium", (39_900, 6.0e-3)),
        SolverSet("L1_R1", "beginning, easy", (3_300, 0.32e-3)),
        SolverSet("L1_R2", "beginning, medium", (1_200_000, 0.178), hard=True),
        SolverSet("L1_R3", "beginning, hard", (65_700_000, 10.0), hard=True),
    ),
    # Every end-game and easy middle-game position and the first 100 / 200 of the medium
    # middle-game and easy beginning sets: a few minutes.
    default_plan=(("L3_R1", None), ("L2_R1", None), ("L2_R2", 100), ("L1_R1", 200)),
    score=pons_score,
    reference_name="Pons",
    reference_note="Pons: the published C++ solver (g++ -O3, one thread, no opening book).",
)
"""Pons' six sets of 1000 positions with exact scores (games/data/connect4/README.md), and
the mean nodes and seconds per position of his C++ solver (g++ -O3, one thread, no book)."""


# --- the game ----------------------------------------------------------------------------


class Game(DigitNotation):
    """Connect-four: 7 columns x 6 rows, gravity, four in a line wins; X moves first."""

    name = "connect4"
    title = "Connect Four"
    stochastic = False
    default_heuristic = "windows"
    side_names: tuple[str, str] = ("Red", "Yellow")
    options: tuple[GameOption, ...] = ()
    notation_help = "columns 1-7 from the left, e.g. 4453"
    # The measured ladder.  Depth is the main step: 2 and 4 with the quick "windows" count
    # (and a little noise), 6 with "threats" (which squares would complete four, and whose
    # row parity they favour).  Expert deepens iteratively within 1.5 s, so it solves
    # exactly from the late middle game on; before that it plays the deepest finished
    # iteration (9-10 plies from the opening on a 2-core machine).  Hard stops at depth 6,
    # well short of that: at depth 8 Hard scored as much as Expert over 40 games on a busy
    # machine, where the budget buys Expert little more than 8 plies.  1.5 s leaves room
    # for the overshoot of the last iteration under a 2 s worst move (1.6 s at worst,
    # over its 120 games of the ladder in docs/RESULTS.md).
    presets: tuple[Preset, ...] = (
        Preset(
            "Easy",
            "alphabeta",
            2,
            "windows",
            randomness=0.3,
            description="Looks two moves ahead and often plays a loose move.",
        ),
        Preset(
            "Medium",
            "alphabeta",
            4,
            "windows",
            randomness=0.05,
            description="Looks four moves ahead; now and then misjudges a close call.",
        ),
        Preset(
            "Hard",
            "alphabeta",
            6,
            "threats",
            description="Six moves ahead with the threat-parity heuristic, never at random.",
        ),
        Preset(
            "Expert",
            "alphabeta",
            None,
            "threats",
            time_limit=1.5,
            description="Deepens for 1.5 s a move and plays exactly once it can solve the "
            "position in that time; in the opening it always plays exactly, taking longer "
            "where proving a move needs it.",
        ),
    )

    bench_positions: tuple[BenchPosition, ...] = (
        BenchPosition("empty board", ""),
        BenchPosition("after 4453", "4453"),
        BenchPosition("midgame, 16 moves, first player wins", "2531276566711153"),
    )
    """Positions the search benchmark measures."""
    solver_benchmark: SolverBenchmark | None = SOLVER_BENCHMARK
    """Solved test sets for the solver benchmark."""

    def __init__(self) -> None:
        self.heuristics: dict[str, Heuristic] = dict(HEURISTICS)

    def option_values(self) -> dict[str, int]:
        """No options."""
        return {}

    def __repr__(self) -> str:
        return "connect4.Game()"

    def initial_state(self) -> State:
        """The empty board, X (player 0) to move."""
        return EMPTY

    def parse_move(self, text: str, state: State) -> Column:
        """A 1-based column digit, legal in `state`, as a column 0-6."""
        legal = [self.format_move(m) for m in sorted(state.legal_moves())]
        stripped = text.strip()
        if len(stripped) != 1 or stripped not in "1234567":
            raise illegal(text, legal, f"a move is one column number 1-{WIDTH}")
        move = int(stripped) - 1
        if move not in state.legal_moves():
            why = "the game is over" if state.over else f"column {stripped} is full"
            raise illegal(text, legal, why)
        return move

    def render(self, state: State) -> str:
        """Six rows of '. X O', top row first, with column numbers underneath."""
        rows = []
        for row in reversed(range(HEIGHT)):
            cells = (state.cell(col, row) for col in range(WIDTH))
            rows.append(" ".join("." if c is None else TOKENS[c] for c in cells))
        rows.append(" ".join(str(col + 1) for col in range(WIDTH)))
        return "\n".join(rows)


GAME = Game()
"""The shared instance that `State.game` returns."""
