"""Connect-four opening books: the exact value of every position with 8 or 12 stones.

The books come from the `bitbully-databases` package (Markus Thill, MIT licence).  Its
reader is a plain-Python demonstration; this module reads the same files once, lazily,
into a sorted `array` of codes and a `bytes` of values, and answers a look-up with one
C-level `bisect` (a few microseconds; `benchmark()` measures it).

The file format, from the package's reader and checked against our solver (tests):

* a record is a position's Huffman code, big-endian: columns left to right, each bottom
  to top, ``10`` for an X stone (the first player), ``11`` for an O stone, ``0`` ending
  every column, and one ``0`` bit of padding: 24 bits for 8 stones, 32 for 12.  Records
  are sorted by the code read as a signed integer.
* Both books hold positions with X to move (an even number of stones), valued from X's
  point of view.  Of a position and its mirror image at most one is stored, so a look-up
  tries both.  Positions where X wins at once are left out, and so is any finished game.
* ``book_8ply.dat`` (3-byte records): the two low bits are 0 for a draw, 1 for a loss of
  X; a legal 8-stone position that is found in neither orientation is a win for X (no
  distance is stored).
* ``book_12ply_distances.dat`` (4-byte code + 1 signed byte): 0 is a draw, ``100 - v``
  plies to X's win for v > 0, ``100 + v`` plies to X's loss for v < 0, counted from the
  position (a win in 29 plies ends with the 41st stone).

Without the package, or with unreadable data, every look-up answers None and the game
plays exactly as it did without a book.  ``PLYGROUND_NO_BOOK=1`` switches the book off.

``data/connect4/early_book.txt`` adds the exact value of every position with 0-3 stones,
solved once with the two books (assets/rebuild/connect4_early_book.py): `early_value`, which
the search reads only while solving (the `solved_value()` hook).
"""

from __future__ import annotations

import array
import os
import sys
import time
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

STONES_8, STONES_12 = 8, 12
BOOK_STONES = (STONES_8, STONES_12)
"""The stone counts that have a book."""
COLUMNS, STRIDE = 7, 7
DISTANCE_BASE = 100
"""A stored distance value v means 100 - |v| plies to the end."""

_FILES = {STONES_8: "book_8ply.dat", STONES_12: "book_12ply_distances.dat"}
_RECORD_BYTES = {STONES_8: 3, STONES_12: 5}


class BookValue(NamedTuple):
    """A book answer from the player-to-move's view: outcome +1 / 0 / -1 and, when the
    book has it, how many plies until the game ends (None: a win or loss, distance unknown)."""

    outcome: int
    plies: int | None

    def describe(self) -> str:
        """'win in 13', 'draw', 'loss in 8', or 'win' / 'loss' without a distance."""
        if self.outcome == 0:
            return "draw"
        word = "win" if self.outcome > 0 else "loss"
        return word if self.plies is None else f"{word} in {self.plies}"

    def bounds(self, win: int, step: int, plies_left: int) -> tuple[int, int]:
        """The value as a (lowest, highest) pair on a search scale where a win `d` plies
        away is worth ``win - d * step``: equal when the book is exact (a draw, or a
        distance); otherwise every distance the rest of the game allows (2 to
        `plies_left` plies: a win in one is never left to the book's "no distance")."""
        if self.outcome == 0:
            return 0, 0
        if self.plies is not None:
            exact = win - self.plies * step
            return (exact, exact) if self.outcome > 0 else (-exact, -exact)
        nearest, farthest = win - 2 * step, win - max(plies_left, 2) * step
        return (farthest, nearest) if self.outcome > 0 else (-nearest, -farthest)


# --- the code of a position ---------------------------------------------------------------


def _column_code(column_key: int) -> tuple[int, int]:
    """(bits, length) of one column from its Pons key ``x + mask`` (7 bits): the stones
    bottom to top as 10 (X) / 11 (O), then the 0 that ends the column."""
    height = (column_key + 1).bit_length() - 1  # keys of height h: 2**h - 1 to 2**(h+1) - 2
    x_stones = column_key - ((1 << height) - 1)
    bits = 0
    for row in range(height):
        bits = (bits << 2) | (0b10 if x_stones >> row & 1 else 0b11)
    return bits << 1, 2 * height + 1


_COLUMN_CODES: tuple[tuple[int, int], ...] = tuple(_column_code(key) for key in range(1 << STRIDE))
"""Code and length of a column, indexed by its 7-bit key (x + mask of that column)."""


def codes(x_stones: int, mask: int) -> tuple[int, int]:
    """The Huffman codes of a position and of its mirror image, as unsigned ints.

    `x_stones` are the first player's stones and `mask` all stones, on the bitboard of
    `games.connect4.rules` (column c in bits 7c to 7c + 6)."""
    keys = x_stones + mask  # no carry leaves a column: x <= mask within each column
    code = mirror = 0
    shift = 0
    for col in range(COLUMNS):
        bits, length = _COLUMN_CODES[(keys >> (STRIDE * col)) & 0x7F]
        code = (code << length) | bits
        mirror |= bits << shift
        shift += length
    return code << 1, mirror << 1


def _signed32(code: int) -> int:
    return code - (1 << 32) if code >= 1 << 31 else code


# --- one book -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Book:
    """One opening book: sorted codes (signed, as the file sorts them) and their values."""

    stones: int
    codes: array.array[int]
    values: bytes
    with_distances: bool

    @classmethod
    def read(cls, path: Path, stones: int) -> Book:
        """Read a book file of `stones` stones (8: win/draw/loss, 12: with distances)."""
        data = path.read_bytes()
        size = _RECORD_BYTES[stones]
        if not data or len(data) % size:
            raise ValueError(f"{path.name}: {len(data)} bytes is not a whole number of records")
        count = len(data) // size
        packed = bytearray(4 * count)  # every code widened to 4 big-endian bytes
        if stones == STONES_8:
            for lane in range(3):
                packed[lane + 1 :: 4] = data[lane::3]
            values = bytes(b & 3 for b in data[2::3])
            for offset in range(3, 4 * count, 4):  # the two value bits are not part of the code
                packed[offset] &= 0xFC
        else:
            for lane in range(4):
                packed[lane::4] = data[lane::5]
            values = data[4::5]
        codes = array.array("i")
        if codes.itemsize != 4:  # pragma: no cover - every CPython platform has a 4-byte int
            raise ValueError("this platform has no 4-byte array type")
        codes.frombytes(packed)
        if sys.byteorder == "little":
            codes.byteswap()
        return cls(stones, codes, values, stones == STONES_12)

    def raw(self, x_stones: int, mask: int) -> int | None:
        """The stored value of a position or its mirror image, or None if neither is stored."""
        codes_ = self.codes
        for code in codes(x_stones, mask):
            key = _signed32(code)
            i = bisect_left(codes_, key)
            if i < len(codes_) and codes_[i] == key:
                value = self.values[i]
                return value - 256 if value > 127 else value
        return None

    def value(self, x_stones: int, mask: int) -> BookValue:
        """The value for X (to move) of a legal, unfinished position with `stones` stones
        where X cannot win at once."""
        stored = self.raw(x_stones, mask)
        if not self.with_distances:
            if stored is None:
                return BookValue(1, None)
            return BookValue(0, None) if stored == 0 else BookValue(-1, None)
        if stored is None:  # not in the 12-stone book: it holds every such position
            raise LookupError("a 12-stone position is missing from the book")
        if stored == 0:
            return BookValue(0, 0)
        return BookValue(1 if stored > 0 else -1, DISTANCE_BASE - abs(stored))

    def memory(self) -> int:
        """Bytes held by the codes and values."""
        return self.codes.itemsize * len(self.codes) + len(self.values)


# --- the books, loaded once -----------------------------------------------------------------


_books: dict[int, Book] | None = None
_status = "not loaded yet"


def _data_directory() -> Path:
    from importlib.resources import files

    return Path(str(files("bitbully_databases").joinpath("assets")))


def load(directory: Path | None = None) -> dict[int, Book]:
    """Read both books (on first use; later calls return them). Empty, with `status()`
    saying why, when the book is switched off or its package or data cannot be read."""
    global _books, _status
    if _books is not None and directory is None:
        return _books
    books: dict[int, Book] = {}
    if os.environ.get("PLYGROUND_NO_BOOK"):
        _status = "switched off by PLYGROUND_NO_BOOK"
    else:
        try:
            where = directory if directory is not None else _data_directory()
            for stones in BOOK_STONES:
                books[stones] = Book.read(where / _FILES[stones], stones)
            _status = f"{sum(len(b.codes) for b in books.values()):,} positions"
        except (ImportError, OSError, ValueError) as error:
            books = {}
            _status = f"unavailable ({type(error).__name__}: {error})"
    _books = books
    return books


def reset() -> None:
    """Forget the loaded books (the next look-up loads them again): for tests."""
    global _books, _status
    _books, _status = None, "not loaded yet"


def status() -> str:
    """One line about the book: its size, or why it is not used."""
    return _status


def available() -> bool:
    """Whether the books can be used (loads them on first call)."""
    return bool(load())


EARLY_STONES = 3
"""Positions with this many stones or fewer have their exact value in `early_book.txt`."""
_early: dict[int, BookValue] | None = None


def _early_book() -> dict[int, BookValue]:
    """The exact values of every position with 0-3 stones, by `State.key()`: the file is
    written by assets/rebuild/connect4_early_book.py, which solves them with the two books."""
    global _early
    if _early is None:
        found: dict[int, BookValue] = {}
        path = Path(__file__).resolve().parent / "data" / "early_book.txt"
        try:
            for line in path.read_text().splitlines():
                moves, outcome, plies = line.split()
                found[_key_of(moves.strip("-"))] = BookValue(int(outcome), int(plies))
        except (OSError, ValueError):
            found = {}
        _early = found
    return _early


def _key_of(moves: str) -> int:
    """`State.key()` (the player to move's stones + all stones) after `moves`, columns
    1-7 from the empty board, on the bitboard of `games.connect4.rules`."""
    mask = 0
    stones = [0, 0]  # the first player's, the second's
    for turn, digit in enumerate(moves):
        column = int(digit) - 1
        height = ((mask >> (STRIDE * column)) & 0x7F).bit_count()
        bit = 1 << (STRIDE * column + height)
        mask |= bit
        stones[turn % 2] |= bit
    return stones[len(moves) % 2] + mask


def early_value(state: Any) -> BookValue | None:
    """The solved value of a position with 0-3 stones (None without the books: the values
    were found with them, and the game then plays exactly as it did without a book)."""
    if state.mask.bit_count() > EARLY_STONES or not (_books if _books is not None else load()):
        return None
    return _early_book().get(state.key())


def book_value(state: Any) -> BookValue | None:
    """The book's exact value of a connect-four state for the player to move, or None
    when the state has no book layer (not 8 or 12 stones), is over, or no book is loaded."""
    mask: int = state.mask
    stones = mask.bit_count()
    if stones != STONES_8 and stones != STONES_12:
        return None
    books = _books if _books is not None else load()
    book = books.get(stones)
    if book is None or state.is_terminal():
        return None
    if state.winning_move() is not None:  # left out of both books
        return BookValue(1, 1)
    current: int = state.current
    x_stones = current if state.to_move == 0 else current ^ mask
    found = book.value(x_stones, mask)
    if state.to_move == 0:
        return found
    return BookValue(-found.outcome, found.plies)  # pragma: no cover - X moves at 8 and 12


# --- measuring ------------------------------------------------------------------------------


def benchmark(states: list[Any], repeat: int = 5) -> dict[str, float]:
    """Load time (s), memory (MB) and mean look-up time (microseconds) over `states`."""
    reset()
    start = time.perf_counter()
    books = load()
    loaded = time.perf_counter() - start
    lookup: Callable[[Any], BookValue | None] = book_value
    start = time.perf_counter()
    for _ in range(repeat):
        for state in states:
            lookup(state)
    per_lookup = (time.perf_counter() - start) / max(1, repeat * len(states))
    return {
        "load_seconds": loaded,
        "memory_mb": sum(b.memory() for b in books.values()) / 1e6,
        "lookup_microseconds": per_lookup * 1e6,
        "positions": float(sum(len(b.codes) for b in books.values())),
    }
