"""Connect-four: the rules on two Python-int bitboards, and the game's description.

A position is two bitboards: `current` (the stones of the player to move) and `mask` (all
stones); the bit layout, drawn square by square, and the bit tricks are in
`games.connect4.bitboard`, the heuristics in `games.connect4.heuristics`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from plyground.games.base import (
    BenchPosition,
    DigitNotation,
    ExactEngine,
    GameOption,
    Heuristic,
    IllegalMoveError,
    Preset,
    Side,
    SolverBenchmark,
    SolverSet,
    illegal,
)
from plyground.games.connect4.bitboard import (
    BB_BOARD,
    BB_BOTTOM,
    BB_COLUMNS,
    BB_SENTINELS,
    BB_TOP,
    BOTTOM_OF,
    CENTRE_ORDER,
    HEIGHT,
    LEGAL_MOVES,
    PACK,
    REPEAT,
    TOKENS,
    WIDTH,
    WINDOWS,
    Bitboard,
    Column,
    bit,
    column_of,
    completions,
    has_four,
    winning_squares,
)
from plyground.games.connect4.heuristics import HEURISTICS
from plyground.games.search_settings import DepthLimited

if TYPE_CHECKING:
    from plyground.games.connect4.book import BookValue


CHEAP_COMPILED_STONES = 20
"""From this many stones on, the compiled solver solves any position within about a second
(every move's value included): the hint and the analysis then solve (`solve_is_cheap`)."""


@dataclass(frozen=True, slots=True)
class State:
    """A connect-four position: `current` = stones of the player to move, `mask` = all stones.

    `to_move` and `over` are derived from the two bitboards (and so are not compared);
    `play` builds new states with the fast private constructor below the class.
    """

    STOCHASTIC: ClassVar[bool] = False

    current: Bitboard = 0
    mask: Bitboard = 0
    to_move: Side = field(init=False, compare=False, repr=False)
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
    def player(self) -> Side:
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
        return LEGAL_MOVES[self.mask & BB_TOP]

    def play(self, move: Column) -> State:
        """Drop a stone in column `move` (0-6) for the player to move."""
        mask = self.mask
        try:
            bottom = BOTTOM_OF.get(move)
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

    def winner(self) -> Side | None:
        """0 or 1 if that player has four in a line, else None."""
        if not self.over:
            return None
        if has_four(self.current ^ self.mask):
            return self.to_move ^ 1
        if has_four(self.current):
            return self.to_move
        return None

    def utility(self, player: Side) -> float:
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
            (col, row) for col in range(WIDTH) for row in range(HEIGHT) if cells & bit(col, row)
        )

    def cell(self, col: int, row: int) -> Side | None:
        """Who owns square (col, row), row 0 at the bottom: 0, 1 or None if empty."""
        square = bit(col, row)
        if not self.mask & square:
            return None
        return self.to_move if self.current & square else self.to_move ^ 1

    def height(self, col: int) -> int:
        """Number of stones in column `col`."""
        return (self.mask & BB_COLUMNS[col]).bit_count()

    def kaggle_observation(self) -> dict[str, Any]:
        """This position as Kaggle's ConnectX sees it: `board` row by row from the top, 0
        empty, 1 and 2 the first and second player's discs; `mark` the mover's (1 or 2).
        A Kaggle action is a column 0-6, our move."""
        board = [0] * (WIDTH * HEIGHT)
        for row in range(HEIGHT):
            for col in range(WIDTH):
                owner = self.cell(col, HEIGHT - 1 - row)
                if owner is not None:
                    board[row * WIDTH + col] = owner + 1
        return {"board": board, "mark": self.to_move + 1}

    def random_playout(self, rng: random.Random) -> Side | None:
        """A random game from here to its end on the bitboards alone (`games.base.RandomPlayout`:
        each move is ``legal_moves()[int(rng.random() * n)]``, as played move by move): the
        winner, or None for a draw.  About five times faster than a new `State` per ply."""
        if self.over:
            return self.winner()
        mask, current, mover = self.mask, self.current, self.to_move
        random_number = rng.random
        while True:
            moves = LEGAL_MOVES[mask & BB_TOP]
            new_mask = mask | (mask + BOTTOM_OF[moves[int(random_number() * len(moves))]])
            p = current | (new_mask ^ mask)  # the mover's stones after the move (see `play`)
            m = p & (p >> 7)
            if m & (m >> 14):
                return mover
            m = p & (p >> 1)
            if m & (m >> 2):
                return mover
            m = p & (p >> 8)
            if m & (m >> 16):
                return mover
            m = p & (p >> 6)
            if m & (m >> 12):
                return mover
            if new_mask == BB_BOARD:
                return None
            current, mask, mover = current ^ mask, new_mask, mover ^ 1

    def winning_move(self) -> Column | None:
        """A column where the player to move completes four at once, or None."""
        if self.over:
            return None
        mask = self.mask
        wins = winning_squares(self.current, mask) & (mask + BB_BOTTOM)
        return column_of(wins) if wins else None

    def search_moves(self) -> tuple[Column, ...]:
        """Moves for the search: an immediate win alone, else the moves that do not let
        the opponent win at once, most threats first; () when every move lets it win."""
        if self.over:
            return ()
        current, mask = self.current, self.mask
        empty = BB_BOARD ^ mask
        both = completions(current | ((current ^ mask) << PACK))  # mine | theirs
        playable = (mask + BB_BOTTOM) & BB_BOARD
        wins = both & playable
        if wins:
            return (column_of(wins),)
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
            return (column_of(safe),)
        # Score every safe move in one pass: board k (after the k-th move) in lane k.
        columns = [col for col in CENTRE_ORDER if safe & BB_COLUMNS[col]]
        moves = 0
        for lane, col in enumerate(columns):
            moves |= (safe & BB_COLUMNS[col]) << (PACK * lane)
        repeat = REPEAT[len(columns)]
        after = completions(current * repeat | moves) & (empty * repeat ^ moves)
        minus_threats = [
            -((after >> (PACK * lane)) & BB_BOARD).bit_count() for lane in range(len(columns))
        ]
        # sorted() is stable: equal scores keep the centre-first order.
        ranked = sorted(range(len(columns)), key=minus_threats.__getitem__)
        return tuple(columns[lane] for lane in ranked)

    def _illegal(self, move: object) -> IllegalMoveError:
        if self.over:
            why = "the game is over"
        elif not (isinstance(move, int) and move in BOTTOM_OF):
            why = f"columns are 0-{WIDTH - 1}"
        else:
            why = "the column is full"
        return illegal(move, [str(m) for m in sorted(self.legal_moves())], why)

    def solve_is_cheap(self) -> bool:
        """Search hook (ai.engine.cost): with the opening book loaded, solving a position with 11
        or fewer stones takes seconds at most: every line reaches the 12-stone book; with
        the compiled solver, so does one with 20 or more stones (a second at most)."""
        stones = self.mask.bit_count()
        if stones >= CHEAP_COMPILED_STONES:
            from plyground.games.connect4.solver import may_compile

            return may_compile()
        if stones > 11:
            return False
        from plyground.games.connect4.book import available

        return available()

    def solve_speed(self) -> float | None:
        """Cost hook (ai.engine.cost): nodes a second of a solve from here on the compiled
        solver, None where the pure-Python one runs (checked without importing numba)."""
        from plyground.games.connect4.solver import solve_speed

        return solve_speed()

    def solved_value(self) -> BookValue | None:
        """Search hook used only when solving: the exact value of a position with 0-3
        stones, solved once with the opening book (games/connect4/data/early_book.txt)."""
        if self.mask.bit_count() > 3:
            return None
        from plyground.games.connect4.book import early_value

        return early_value(self)

    def exact_engine(self) -> ExactEngine | None:
        """Search hook: the compiled solver (games/connect4/solver.py) with the table the
        process keeps from search to search, or None where the pure-Python solver runs
        (PLYGROUND_PURE_PYTHON=1, or no numba)."""
        from plyground.games.connect4.solver import kept_engine

        return kept_engine()

    def exact_engine_status(self) -> str:
        """Which solver runs: 'compiled (numba 0.68.1)' or 'pure Python (why)'."""
        from plyground.games.connect4.solver import status

        return status()

    def book_value(self) -> BookValue | None:
        """Search hook: the opening book's (outcome, plies to the end or None) for the player
        to move in a position with 8 or 12 stones, else None (games/connect4/book.py)."""
        if self.mask.bit_count() not in (8, 12):
            return None
        from plyground.games.connect4.book import book_value

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
    directory=Path(__file__).resolve().parent / "data",
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
"""Pons' six sets of 1000 positions with exact scores (games/connect4/data/README.md), and
the mean nodes and seconds per position of his C++ solver (g++ -O3, one thread, no book)."""


# --- the game ----------------------------------------------------------------------------


EXPERT_COMPILED = (
    "Plays perfectly: the opening book and the compiled solver (numba) find the exact value of "
    "a position within a budget of 6 million solver nodes a move (under 2 s on an idle "
    "2-core machine); where that does not finish, it deepens with the threat heuristic for the "
    "rest of 1.5 s."
)
EXPERT_PURE_PYTHON = (
    "Perfect to 12 stones through the opening book. After it the pure-Python solver runs "
    "(numba is missing or switched off): it searches 1.5 s a move, and kept the result in 50 "
    "of 59 test positions at 13 stones."
)
"""Measured with tests/tools/expert_without_numba.py 13 60 (docs/BENCHMARKS.md)."""


def _expert_description() -> str:
    """Expert's set-up text for the solver that runs here: compiled where numba is installed
    (and not switched off by PLYGROUND_PURE_PYTHON), else the pure-Python one."""
    from plyground.games.connect4.solver import may_compile

    return EXPERT_COMPILED if may_compile() else EXPERT_PURE_PYTHON


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
    # row parity they favour).  Expert solves: in the opening through the book (a proof
    # bounded by nodes at 12 stones), after it on the compiled solver within its node
    # budget (games/connect4/solver.py MOVE_NODES, under 2 s), and only where that
    # runs out (or on the pure-Python solver, which manages it from the late middle game
    # on) does it deepen with "threats" for the rest of its 1.5 s.
    presets: tuple[Preset, ...] = (
        Preset(
            "Easy",
            DepthLimited("alphabeta", 2, "windows"),
            randomness=0.3,
            description="Looks two moves ahead and often plays a loose move.",
        ),
        Preset(
            "Medium",
            DepthLimited("alphabeta", 4, "windows"),
            randomness=0.05,
            description="Looks four moves ahead; now and then misjudges a close call.",
        ),
        Preset(
            "Hard",
            DepthLimited("alphabeta", 6, "threats"),
            description="Six moves ahead with the threat-parity heuristic, never at random.",
        ),
        Preset(
            "Expert",
            DepthLimited("alphabeta", None, "threats"),
            time_limit=1.5,
            description=_expert_description(),
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

    @staticmethod
    def warm_up() -> float:
        """Load the compiled solver (compiling it on the first run after an install) and the
        opening book now, ahead of the first solve; the seconds it took."""
        from plyground.games.connect4.solver import warm_up

        return warm_up()

    def option_values(self) -> dict[str, int]:
        """No options."""
        return {}

    def __repr__(self) -> str:
        return "connect4.Game()"

    exercise_positions: tuple[tuple[str, int, dict[str, int]], ...] = (
        ("4444443333331", 2, {}),
        ("4444443333335", 3, {}),
    )
    """Positions (moves, depth, options) the exercise grader searches (ai.student_code.grader); past
    the opening book's 8 and 12 stones, so every leaf is a plain search's."""

    openspiel_name = "connect_four"
    """OpenSpiel's name for this game (its actions are our moves): `bench --mcts` times its MCTS."""
    move_time_limit = 10.0
    """Seconds a player from a file may take for one move (ai.student_code.agents)."""
    sides_alternate = True
    """Every move passes the turn: the engine negates each child's value without asking."""

    def kaggle_configuration(self) -> dict[str, Any]:
        """Kaggle ConnectX's configuration (its defaults: 2 s a move, 60 s of overage)."""
        return {
            "rows": HEIGHT,
            "columns": WIDTH,
            "inarow": 4,
            "timeout": 2,
            "actTimeout": 2,
            "agentTimeout": 60,
            "runTimeout": 1200,
            "episodeSteps": 1000,
        }

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
