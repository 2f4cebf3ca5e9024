"""Connect-four's exact engine as the search sees it: the compiled solver
(`games.connect4.compiled_solver`) behind the `exact_engine()` hook.

This module turns a `State` into machine words, keeps the transposition table (numpy
arrays, one table per process), hands the opening books to the compiled search as arrays
(no copy: numpy views of the arrays `games.connect4.book` reads), and converts between
Pons' scores and the distance values of `games.base.ExactEngine`.

The table is kept from one search to the next, as engines keep theirs: an entry is a bound
on the exact score of the one position its key names, true whatever search wrote it (a
search stopped at its node limit writes nothing it has not finished).  So the game's hook
(`kept_engine`) hands every search the table as the last one left it, and a call costs its
search.  `exact_engine()` empties it first, for counts that must not depend on what ran
before (Pons' node counts): emptying is a new generation stamp, not a 40 MB fill.

``PLYGROUND_PURE_PYTHON=1`` switches the engine off: every solve, proof and analysis then
runs on the pure-Python alpha-beta, the reference.  Without numba (a platform with no
wheel) the same happens, and `status()` says why (`analyze` and `bench` print it).

The compiled code is cached on disk (numba's ``cache=True``) in the user's cache folder
(platformdirs), never in the installed package: nothing is written into site-packages at run
time, and a read-only install still compiles only once.  `warm_up()` compiles (or loads)
it ahead of use.
"""

from __future__ import annotations

import os
import time
from bisect import bisect_left, bisect_right
from typing import Any

from plyground.games.base import DISTANCE_WIN, PURE_PYTHON_VARIABLE

UNLIMITED_NODES = 1 << 62
MOVE_NODES = 6_000_000
"""A move on a time budget (Expert) spends at most this many engine nodes, counted, never
timed, so it is the same move on every machine: the solve of a position the book does not
reach (13 or more stones), or at 12 stones and fewer the proof of a move keeping the book's
value and the root search after it.  1.3-1.5 s at the 4.0-4.5 million nodes a second of
the 2-core project machine at load 0.7-1.4 (`bench --solver`).  `bench --expert --games 40`:
every move within 2 s on the idle machine (worst 1.6 s at load 0.5-0.8), and all 1,494 moves
keep the result and the distance; a loaded machine stretches the dearest moves (2.2 s at load
3.1-4.2).  5 and 5.5 million are not enough: one move of 1,493 gave a result away at 13
stones (docs/SOLVER.md).  Figures and commands: docs/BENCHMARKS.md."""
SOLVE_NODES_PER_SECOND = 2_500_000.0
"""The compiled solver's speed for cost estimates.  Measured: 4.0-4.5 million nodes a second on
the 2-core project machine at load 0.7-1.4 (`bench --solver`, docs/BENCHMARKS.md), 1.1-3.7
million in the runs at load 1-7 of docs/SOLVER.md."""
SCORES = range(-25, 26)
"""Every Pons score and a few beyond (the window conversion needs them ordered, not valid)."""

_engine: Any = None
_status = "not loaded yet"


def _cache_directory() -> None:
    """Point numba's cache at the user's cache folder, never the installed package (numba
    reads NUMBA_CACHE_DIR when it is first imported; a value already set wins)."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    from platformdirs import user_cache_dir

    os.environ["NUMBA_CACHE_DIR"] = os.path.join(
        user_cache_dir("plyground", appauthor=False), "numba"
    )


def compiled() -> Any:
    """The compiled engine module, or None when switched off or numba cannot be imported."""
    global _engine, _status
    if os.environ.get(PURE_PYTHON_VARIABLE):
        return None
    if _engine is None:
        try:
            _cache_directory()
            import numba

            import plyground.games.connect4.compiled_solver as connect4_engine

            _engine = connect4_engine
            _status = f"compiled (numba {numba.__version__})"
        except Exception as error:  # any import failure: play on the Python solver
            _engine = False
            _status = f"pure Python (numba unavailable: {type(error).__name__}: {error})"
    return _engine or None


def may_compile() -> bool:
    """Whether the compiled solver is expected here (numba installed, not switched off),
    without importing numba (the window's process asks this and never solves)."""
    if os.environ.get(PURE_PYTHON_VARIABLE) or _engine is False:
        return False
    from importlib.util import find_spec

    return _engine is not None or find_spec("numba") is not None


def solve_speed() -> float | None:
    """Nodes a second of a solve on the compiled solver where it is expected here, else None
    (without importing numba: the window's process asks this for its estimates)."""
    return SOLVE_NODES_PER_SECOND if may_compile() else None


def status() -> str:
    """One line: which solver runs ('compiled (numba 0.68.1)' or 'pure Python (why)')."""
    if os.environ.get(PURE_PYTHON_VARIABLE):
        return f"pure Python ({PURE_PYTHON_VARIABLE} is set)"
    compiled()
    return _status


# --- scores -------------------------------------------------------------------------------


def distance_value(score: int, moves: int) -> int:
    """Pons' `score` at a position with `moves` stones as a distance value: a win d plies away
    is DISTANCE_WIN - d.  The mover has moves // 2 stones, the opponent (moves + 1) // 2."""
    if score == 0:
        return 0
    if score > 0:
        plies = 2 * (22 - score - moves // 2) - 1
        return DISTANCE_WIN - plies
    plies = 2 * (22 + score - (moves + 1) // 2)
    return -(DISTANCE_WIN - plies)


def _distance_values(moves: int) -> list[int]:
    return [distance_value(score, moves) for score in SCORES]


_DISTANCE_VALUES = [_distance_values(moves) for moves in range(43)]
"""distance_value of every score in SCORES (increasing), by stones on the board."""


def score_window(moves: int, low: int, high: int) -> tuple[int, int]:
    """The Pons window (alpha, beta) equivalent to the distance-value window (low, high):
    every score inside one maps inside the other (distance_value increases with the score)."""
    values = _DISTANCE_VALUES[moves]
    below = bisect_right(values, low)  # scores SCORES[:below] are worth at most `low`
    above = bisect_left(values, high)  # scores SCORES[above:] are worth at least `high`
    alpha = SCORES[below - 1] if below else SCORES[0] - 1
    beta = SCORES[above] if above < len(SCORES) else SCORES[-1] + 1
    return alpha, beta


# --- the engine ---------------------------------------------------------------------------


def _book_source() -> Any:
    """The loaded books (a new object after `connect4_book.reset()`)."""
    from plyground.games.connect4.book import load

    return load()


def _book_arrays(engine: Any) -> tuple[Any, ...]:
    """The 8- and 12-stone books as numpy views and the code of each column, for the
    compiled look-up (empty arrays without a book)."""
    import numpy as np

    from plyground.games.connect4.book import _COLUMN_CODES, BOOK_STONES, load

    books = load()
    arrays: list[Any] = []
    for stones in BOOK_STONES:
        book = books.get(stones)
        if book is None:
            arrays += [np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int8)]
        else:
            arrays += [
                np.frombuffer(book.codes, dtype=np.int32),
                np.frombuffer(book.values, dtype=np.int8),
            ]
    codes = _COLUMN_CODES
    arrays.append(np.array([bits for bits, _ in codes], dtype=np.int64))
    arrays.append(np.array([length for _, length in codes], dtype=np.int64))
    return tuple(arrays)


class CompiledSolver:
    """The compiled solver with its own transposition table (`games.base.ExactEngine`)."""

    name = "compiled"
    move_nodes = MOVE_NODES

    def __init__(self, engine: Any) -> None:
        import numpy as np

        self._np = np
        self._engine = engine
        self.books_source = _book_source()
        self.books = _book_arrays(engine)
        self.keys = np.zeros(engine.TABLE_SIZE, dtype=np.uint32)
        self.values = np.zeros(engine.TABLE_SIZE, dtype=np.uint8)
        self.stamps = np.zeros(engine.TABLE_SIZE, dtype=np.uint8)
        self.dirty = False
        """Whether a search wrote to the table since it was emptied."""
        self.stats = np.zeros(engine.STATS_SIZE, dtype=np.int64)
        self.stats[engine.STATS_GENERATION] = 1
        self.best_move: int | None = None
        """After `solve`: a column that keeps the solved value, where the engine knows one."""
        self._ready = False
        """Whether `ready` has run for this solver (its code loaded, its table touched)."""

    def ready(self) -> float:
        """Pay the engine's start-up now (`warm_up`, once per process, and the first touch
        of this solver's table): the seconds it took, 0 when it was ready.  A search calls
        this before its clock counts, so start-up is never counted as search time."""
        if self._ready:
            return 0.0
        start = time.perf_counter()
        if not _warmed:
            warm_up()
        for array in (self.keys, self.values, self.stamps):
            array.fill(0)  # the table's pages, first touched now rather than mid-search
        self._ready = True
        return time.perf_counter() - start

    def clear(self) -> None:
        """Empty the table: the next generation stamp, so no entry written before counts
        (the stamps are zeroed once every GENERATIONS clears; nothing when it is empty)."""
        if not self.dirty:
            return
        slot = self._engine.STATS_GENERATION
        generation = int(self.stats[slot]) + 1
        if generation > self._engine.GENERATIONS:
            self.stamps.fill(0)
            generation = 1
        self.stats[slot] = generation
        self.dirty = False

    def _words(self, state: Any) -> tuple[Any, Any, int]:
        u64 = self._np.uint64
        return u64(state.current), u64(state.mask), int(state.mask.bit_count())

    def _known(self, state: Any) -> int | None:
        """A root the rules or the early book answer: its distance value, else None."""
        if state.is_terminal():
            return 0 if state.winner() is None else -DISTANCE_WIN
        if state.winning_move() is not None:
            return DISTANCE_WIN - 1
        known = state.solved_value()
        if known is not None:  # positions of 0-3 stones, solved once (the early book)
            return 0 if known.outcome == 0 else known.outcome * (DISTANCE_WIN - known.plies)
        return None

    def probe(self, state: Any, low: int, high: int, node_limit: int) -> tuple[int, int, bool]:
        """See `games.base.ExactEngine.probe`."""
        known = self._known(state)
        if known is not None:
            return known, 1, True
        moves = int(state.mask.bit_count())
        alpha, beta = score_window(moves, low, high)
        score = self.probe_score(state, alpha, beta, node_limit)
        finished = not self.stats[2]
        return distance_value(score, moves), int(self.stats[0]), finished

    def probe_score(
        self, state: Any, alpha: int, beta: int, node_limit: int = UNLIMITED_NODES
    ) -> int:
        """Pons' fail-hard score of an unfinished position within (alpha, beta), on Pons'
        scale; `stats` then holds the nodes and whether the limit stopped it."""
        current, mask, moves = self._words(state)
        stats = self.stats
        stats[0], stats[1], stats[2] = 0, node_limit, 0
        self.dirty = True
        score = self._engine.probe(
            current,
            mask,
            moves,
            alpha,
            beta,
            self.keys,
            self.values,
            self.stamps,
            self.books,
            stats,
        )
        return int(score)

    def solve(self, state: Any, node_limit: int) -> tuple[int, int, bool]:
        """See `games.base.ExactEngine.solve`: Pons' own loop of null-window probes."""
        self.best_move = None
        known = self._known(state)
        if known is not None:
            return known, 1, True
        score, nodes = self.solve_score(state, node_limit)
        if score is None:
            return 0, nodes, False
        square = int(self.stats[4])
        if square:
            self.best_move = (square.bit_length() - 1) // 7
        return distance_value(score, int(state.mask.bit_count())), nodes, True

    def solve_score(self, state: Any, node_limit: int = UNLIMITED_NODES) -> tuple[int | None, int]:
        """(Pons' exact score, nodes) of an unfinished position (None: out of nodes)."""
        current, mask, moves = self._words(state)
        stats = self.stats
        stats[0], stats[1], stats[2] = 0, node_limit, 0
        self.dirty = True
        score = self._engine.solve(
            current, mask, moves, self.keys, self.values, self.stamps, self.books, stats
        )
        return (None if stats[2] else int(score)), int(stats[0])


_shared: CompiledSolver | None = None


def kept_engine() -> CompiledSolver | None:
    """The compiled solver with its table as the last search left it, or None: pure Python.
    One solver (one 48 MB table) serves the process; searches in a process run one after
    another.  A new one (an empty table) when the opening books were loaded again."""
    global _shared
    engine = compiled()
    if engine is None:
        return None
    if _shared is None or _shared.books_source is not _book_source():
        _shared = CompiledSolver(engine)
    return _shared


def exact_engine() -> CompiledSolver | None:
    """The compiled solver with an empty table (`kept_engine`, emptied), or None."""
    solver = kept_engine()
    if solver is not None:
        solver.clear()
    return solver


WARM_UP_MOVES = "2252576253462244111563365343671351441"
"""A position a few moves from the end (columns 1-7): solving it loads every compiled
function."""
_warmed = False
"""Whether this process has run `warm_up` to its end (the engine's first solve is paid)."""


class _Words:
    """A position as the engine reads it: `current` (the mover's stones) and `mask` (all
    stones), Pons' bitboards, one 7-bit column at a time."""

    def __init__(self, columns: str) -> None:
        self.current = self.mask = 0
        for column in columns:
            self.current ^= self.mask
            self.mask |= self.mask + (1 << (7 * (int(column) - 1)))


def warm_up() -> float:
    """Compile (or load from the disk cache) the engine by solving `WARM_UP_MOVES` (a
    position a few moves from the end) and loading the books; the seconds it took (0 when
    off).  It solves on a table of its own (untouched pages cost no memory),
    so it may run in a thread beside a search."""
    global _warmed
    start = time.perf_counter()
    engine = compiled()
    if engine is None:
        return 0.0
    solver = CompiledSolver(engine)  # a table of its own: a search may run meanwhile
    words = _Words(WARM_UP_MOVES)
    solver.solve_score(words)
    solver.probe_score(words, -1, 1)
    _warmed = True
    return time.perf_counter() - start
