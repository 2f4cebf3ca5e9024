"""Tic-tac-toe on two 9-bit bitboards.

Cell i (0-8, row by row from the top left; text 1-9) is bit i::

    0 | 1 | 2
    3 | 4 | 5
    6 | 7 | 8

`x` holds X's marks (player 0, moves first), `o` holds O's.  ``x | o << 9`` is a unique key.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from plyground.games.base import (
    HEURISTIC_LIMIT,
    NO_HEURISTIC,
    BenchPosition,
    DigitNotation,
    GameOption,
    Heuristic,
    IllegalMoveError,
    Preset,
    Side,
    illegal,
)
from plyground.games.search_settings import DepthLimited

Bitboard: TypeAlias = int
Cell: TypeAlias = int

SIZE = 3
CELLS = SIZE * SIZE
BB_FULL: Bitboard = (1 << CELLS) - 1
TOKENS = ("X", "O")
"""How players 0 (X, first) and 1 (O) are drawn in text."""

LINES: tuple[Bitboard, ...] = tuple(
    sum(1 << cell for cell in line)
    for line in (
        (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
        (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
        (0, 4, 8), (2, 4, 6),  # diagonals
    )
)  # fmt: skip
"""The 8 lines of three, as bitboards."""

SEARCH_ORDER: tuple[Cell, ...] = (4, 0, 2, 6, 8, 1, 3, 5, 7)
"""Cells in search order: centre (4 lines), corners (3 lines), edges (2 lines)."""

_HAS_LINE: tuple[bool, ...] = tuple(
    any(marks & line == line for line in LINES) for marks in range(1 << CELLS)
)
"""Whether a 9-bit set of marks contains a line, for every set (a 512-entry table)."""

_LEGAL_MOVES: tuple[tuple[Cell, ...], ...] = tuple(
    tuple(cell for cell in SEARCH_ORDER if not occupied >> cell & 1)
    for occupied in range(1 << CELLS)
)
"""The empty cells in search order, for every set of occupied cells."""

_BIT_OF: dict[Cell, Bitboard] = {cell: 1 << cell for cell in range(CELLS)}


@dataclass(frozen=True, slots=True)
class State:
    """A tic-tac-toe position: `x` and `o` are the two players' marks as bitboards.

    `to_move` and `over` are derived from the marks (and so are not compared); `play`
    builds new states through the fast private constructor at the end of the class.
    """

    STOCHASTIC: ClassVar[bool] = False

    x: Bitboard = 0
    o: Bitboard = 0
    to_move: Side = field(init=False, compare=False, repr=False)
    over: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        """Check the marks and derive whose turn it is and whether the game is over."""
        x, o = self.x, self.o
        if x & ~BB_FULL or o & ~BB_FULL or x & o:
            raise ValueError("marks outside the 9 cells, or two marks on one cell")
        if x.bit_count() - o.bit_count() not in (0, 1):
            raise ValueError("X moves first: X has as many marks as O, or one more")
        object.__setattr__(self, "to_move", x.bit_count() - o.bit_count())
        over = _HAS_LINE[x] or _HAS_LINE[o] or x | o == BB_FULL
        object.__setattr__(self, "over", over)

    def __hash__(self) -> int:
        return hash(self.x | self.o << CELLS)

    @property
    def player(self) -> Side:
        """The player to move (tic-tac-toe has no chance nodes)."""
        return self.to_move

    @property
    def ply(self) -> int:
        """Number of marks on the board."""
        return (self.x | self.o).bit_count()

    @property
    def game(self) -> Game:
        """The tic-tac-toe rules (for the search to find heuristics from a state)."""
        return GAME

    def key(self) -> int:
        """A unique 18-bit key: X's marks in the low 9 bits, O's above."""
        return self.x | self.o << CELLS

    def is_terminal(self) -> bool:
        """Whether someone has three in a line or the board is full."""
        return self.over

    def legal_moves(self) -> tuple[Cell, ...]:
        """The empty cells: centre, then corners, then edges."""
        if self.over:
            return ()
        return _LEGAL_MOVES[self.x | self.o]

    def play(self, move: Cell) -> State:
        """Put the mover's mark on cell `move` (0-8)."""
        try:
            bit = _BIT_OF.get(move)
        except TypeError:  # unhashable
            bit = None
        x, o = self.x, self.o
        if bit is None or self.over or (x | o) & bit:
            raise self._illegal(move)
        if self.to_move == 0:
            x |= bit
            over = _HAS_LINE[x]
        else:
            o |= bit
            over = _HAS_LINE[o]
        state = _new(State)
        _set_x(state, x)
        _set_o(state, o)
        _set_to_move(state, self.to_move ^ 1)
        _set_over(state, over or x | o == BB_FULL)
        return state

    def winner(self) -> Side | None:
        """0 (X) or 1 (O) if that player has three in a line, else None."""
        if _HAS_LINE[self.x]:
            return 0
        if _HAS_LINE[self.o]:
            return 1
        return None

    def utility(self, player: Side) -> float:
        """+1 if `player` won, -1 if they lost, 0 for a draw or a game in progress."""
        winner = self.winner()
        if winner is None:
            return 0.0
        return 1.0 if winner == player else -1.0

    def chance_outcomes(self) -> tuple[tuple[Cell, float], ...]:
        """Tic-tac-toe has no chance: always ()."""
        return ()

    def max_plies_left(self) -> int:
        """Search hook: the game ends within this many plies (one per empty cell)."""
        return SIZE * SIZE - self.ply

    def winning_line(self) -> tuple[Cell, ...] | None:
        """Every cell of the winner's completed lines (usually three), or None."""
        winner = self.winner()
        if winner is None:
            return None
        marks = self.x if winner == 0 else self.o
        cells = 0
        for line in LINES:
            if marks & line == line:
                cells |= line
        return tuple(cell for cell in range(CELLS) if cells >> cell & 1)

    def kaggle_observation(self) -> dict[str, Any]:
        """This position as Kaggle's TicTacToe sees it: `board` the cells 0-8 row by row, 0
        empty, 1 X, 2 O; `mark` the mover's (1 or 2).  A Kaggle action is a cell, our move."""
        board = [0 if owner is None else owner + 1 for owner in map(self.cell, range(CELLS))]
        return {"board": board, "mark": self.to_move + 1}

    def cell(self, index: Cell) -> Side | None:
        """Who marked cell `index` (0-8): 0 (X), 1 (O) or None if empty."""
        if self.x >> index & 1:
            return 0
        if self.o >> index & 1:
            return 1
        return None

    def _illegal(self, move: object) -> IllegalMoveError:
        if self.over:
            why = "the game is over"
        elif isinstance(move, int) and move in _BIT_OF:
            why = f"cell {move} is taken"
        else:
            why = f"cells are 0-{CELLS - 1}"
        return illegal(move, [str(m) for m in sorted(self.legal_moves())], why)


# The fast private constructor: object.__new__ plus the slot descriptors' __set__ skips
# the dataclass __init__ and its checks (about 2x faster, measured).
_new = object.__new__
_Setter: TypeAlias = Callable[[State, Any], None]
_set_x: _Setter = State.__dict__["x"].__set__
_set_o: _Setter = State.__dict__["o"].__set__
_set_to_move: _Setter = State.__dict__["to_move"].__set__
_set_over: _Setter = State.__dict__["over"].__set__

EMPTY = State()


# --- heuristics --------------------------------------------------------------------------

LIMIT = HEURISTIC_LIMIT
LINE_WEIGHTS = (1, 1, 3)
"""An open line with 0, 1 or 2 of one side's marks (and none of the other's)."""
LINES_SCALE = 6.0


def _marks(state: State) -> tuple[Bitboard, Bitboard]:
    """(the mover's marks, the opponent's marks)."""
    if state.to_move == 0:
        return state.x, state.o
    return state.o, state.x


def evaluate_lines(state: State) -> float:
    """Open lines (no opposing mark) for me minus for the opponent; two in a line count 3."""
    mine, theirs = _marks(state)
    score = 0
    for line in LINES:
        my_count, their_count = (mine & line).bit_count(), (theirs & line).bit_count()
        if their_count == 0:
            score += LINE_WEIGHTS[my_count]
        if my_count == 0:
            score -= LINE_WEIGHTS[their_count]
    return LIMIT * math.tanh(score / LINES_SCALE)


CELL_WEIGHTS: tuple[int, ...] = tuple(
    sum(1 for line in LINES if line >> cell & 1) for cell in range(CELLS)
)
"""Lines through each cell: centre 4, corners 3, edges 2."""
BB_CENTRE: Bitboard = 1 << 4
BB_CORNERS_AND_CENTRE: Bitboard = 0b101010101
CENTRE_SCALE = 6.0


def evaluate_centre(state: State) -> float:
    """My marks weighted by the lines through their cells, minus the opponent's."""
    mine, theirs = _marks(state)
    # CELL_WEIGHTS as sums: every cell 2, corners and centre +1, the centre +1 more.
    score = (
        2 * (mine.bit_count() - theirs.bit_count())
        + (mine & BB_CORNERS_AND_CENTRE).bit_count()
        - (theirs & BB_CORNERS_AND_CENTRE).bit_count()
        + (mine & BB_CENTRE).bit_count()
        - (theirs & BB_CENTRE).bit_count()
    )
    return LIMIT * math.tanh(score / CENTRE_SCALE)


HEURISTICS: dict[str, Heuristic] = {
    h.name: h
    for h in (
        Heuristic(
            "lines",
            "Counts the lines you can still complete minus the lines your opponent can, "
            "with two marks in an open line counting three times.",
            evaluate_lines,
        ),
        Heuristic(
            "centre",
            "Values each mark by how many lines pass through its cell (centre 4, corners 3, "
            "edges 2), yours minus your opponent's.",
            evaluate_centre,
        ),
        NO_HEURISTIC,
    )
}


# --- the game ----------------------------------------------------------------------------


class Game(DigitNotation):
    """Tic-tac-toe: 3x3, three in a line wins, X moves first."""

    name = "tictactoe"
    title = "Tic-tac-toe"
    stochastic = False
    default_heuristic = "lines"
    side_names: tuple[str, str] = ("X", "O")
    options: tuple[GameOption, ...] = ()
    notation_help = "cells 1-9 row by row from the top left, e.g. 5193"
    # The measured ladder.  Easy looks one move ahead with so much noise (randomness 1
    # against values below 1) that it misses wins and blocks; Medium looks two moves ahead,
    # so it takes wins and blocks threats (proven values outweigh its noise) but falls for
    # forks; Hard looks four moves ahead, enough to see every fork: it never loses (checked
    # for every line of play in tests/test_ladder.py); Expert solves the game.  Hard and
    # Expert draw each other, so at the top the promise is "never loses".
    presets: tuple[Preset, ...] = (
        Preset(
            "Easy",
            DepthLimited("alphabeta", 1, "lines"),
            randomness=1.0,
            description="Looks one move ahead with a lot of noise: it misses wins and blocks.",
        ),
        Preset(
            "Medium",
            DepthLimited("alphabeta", 2, "lines"),
            randomness=0.5,
            description="Takes wins and blocks threats, but falls for a fork.",
        ),
        Preset(
            "Hard",
            DepthLimited("alphabeta", 4, "lines"),
            description="Looks four moves ahead, enough to see every fork: it never loses.",
        ),
        Preset(
            "Expert",
            DepthLimited("alphabeta", None, "lines"),
            description="Solves the game from every position: perfect play.",
        ),
    )

    bench_positions: tuple[BenchPosition, ...] = (
        BenchPosition("empty board", ""),
        BenchPosition("after 519", "519"),
    )
    """Positions the search benchmark measures."""

    def __init__(self) -> None:
        self.heuristics: dict[str, Heuristic] = dict(HEURISTICS)

    def option_values(self) -> dict[str, int]:
        """No options."""
        return {}

    def __repr__(self) -> str:
        return "tictactoe.Game()"

    exercise_positions: tuple[tuple[str, int, dict[str, int]], ...] = (
        ("5", 3, {}),
        ("519", 4, {}),
        ("1524", 5, {}),
    )
    """Positions (moves, depth, options) the exercise grader searches (ai.student_code.grader)."""

    openspiel_name = "tic_tac_toe"
    """OpenSpiel's name for this game (its actions are our moves): `bench --mcts` times its MCTS."""
    move_time_limit = 5.0
    """Seconds a player from a file may take for one move (ai.student_code.agents)."""
    sides_alternate = True
    """Every move passes the turn: the engine negates each child's value without asking."""

    def kaggle_configuration(self) -> dict[str, Any]:
        """Kaggle TicTacToe's configuration (its defaults)."""
        return {
            "rows": 3,
            "columns": 3,
            "inarow": 3,
            "timeout": 2,
            "actTimeout": 2,
            "agentTimeout": 60,
            "runTimeout": 1200,
            "episodeSteps": 10,
        }

    def initial_state(self) -> State:
        """The empty board, X (player 0) to move."""
        return EMPTY

    def parse_move(self, text: str, state: State) -> Cell:
        """A digit 1-9 naming an empty cell of `state`, as a cell 0-8."""
        legal = [self.format_move(m) for m in sorted(state.legal_moves())]
        stripped = text.strip()
        if len(stripped) != 1 or stripped not in "123456789":
            raise illegal(
                text, legal, "a move is one cell number 1-9, row by row from the top left"
            )
        move = int(stripped) - 1
        if move not in state.legal_moves():
            why = "the game is over" if state.over else f"cell {stripped} is taken"
            raise illegal(text, legal, why)
        return move

    def render(self, state: State) -> str:
        """Three rows of '. X O'."""
        rows = []
        for row in range(SIZE):
            cells = (state.cell(row * SIZE + col) for col in range(SIZE))
            rows.append(" ".join("." if c is None else TOKENS[c] for c in cells))
        return "\n".join(rows)


GAME = Game()
"""The shared instance that `State.game` returns."""
