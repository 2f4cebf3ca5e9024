"""Connect-four's compiled solver: Pascal Pons' bitboard negamax in machine words (numba).

Everything here runs compiled (`numba.njit`, cached on disk): a position is three numbers,
`current` (the stones of the player to move, uint64), `mask` (all stones, uint64) and
`moves` (how many), in the bit layout of `games.connect4.bitboard`.  No Python object is
made per node.  The search is Pons' final solver:

* only the moves that do not let the opponent win at once (`non_losing_moves`), ordered by
  how many winning squares each makes (`move_score`), ties centre first;
* a transposition table in three flat arrays (`keys` uint32, `values` uint8, `stamps`
  uint8) of a prime size: the low 32 bits of the 49-bit key and the index (key mod size)
  name the position exactly; a value is a lower or an upper bound on the score; an entry
  counts only when its stamp is the table's generation (`stats[STATS_GENERATION]`), so the
  table is emptied by counting on, not by zeroing 40 MB;
* the opening books (games/connect4/book.py) as sorted numpy arrays: an exact score at 12
  stones, the sign of the score (win, draw, loss) at 8;
* `solve`: null-window probes narrowing the score, nearest zero first.

Scores are Pons': 0 a draw, 22 - n for a win with the winner's n-th stone (negative for a
loss).  `games.connect4.solver` turns them into the search's values and back; without numba
that module says so once and the game plays on the pure-Python solver.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numba import njit

U = np.uint64
ONE = U(1)
BOTTOM = U(sum(1 << (7 * col) for col in range(7)))
BOARD = U(sum(1 << (7 * col) for col in range(7)) * 63)
COLUMN_MASKS = np.array([63 << (7 * col) for col in range(7)], dtype=np.uint64)
ORDER = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)
"""Columns, centre first: the order of equally scored moves."""
SQUARES = 42
MIN_SCORE = -(SQUARES // 2) + 3
MAX_SCORE = (SQUARES + 1) // 2 - 3
LOWER_BASE = MAX_SCORE - 2 * MIN_SCORE + 2
"""A stored value above MAX_SCORE - MIN_SCORE + 1 is a lower bound (Pons' encoding)."""
TABLE_SIZE = 8_388_617
"""A prime just above 2**23: 2**32 * TABLE_SIZE > 2**49, so key mod size plus the key's low
32 bits tell every position apart.  About 48 MB (4 + 1 + 1 bytes a slot)."""
GENERATIONS = 255
"""Stamps 1..255 name a generation of the table (0: never written)."""

Books: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""The 8-stone codes and values, the 12-stone codes and values, each column's code and its
length (games.connect4.solver builds it from games.connect4.book)."""

STATS_NODES, STATS_LIMIT, STATS_ABORTED, STATS_ROOT, STATS_CUT_MOVE = 0, 1, 2, 3, 4
STATS_GENERATION = 5
STATS_SIZE = 6
"""The slots of the `stats` array: nodes so far, the node limit, 1 once it was reached, the
stone count of the root, the root's last move that failed high (a square bit), and the
table's generation (the stamp of the entries that count)."""


@njit(cache=True)
def popcount(x: np.uint64) -> int:
    """Set bits of a 64-bit word (SWAR)."""
    x = x - ((x >> U(1)) & U(0x5555555555555555))
    x = (x & U(0x3333333333333333)) + ((x >> U(2)) & U(0x3333333333333333))
    x = (x + (x >> U(4))) & U(0x0F0F0F0F0F0F0F0F)
    return int((x * U(0x0101010101010101)) >> U(56))


@njit(cache=True)
def winning_squares(stones: np.uint64, mask: np.uint64) -> np.uint64:
    """Empty squares where one more of `stones` completes four (Pons'
    compute_winning_position)."""
    r = (stones << U(1)) & (stones << U(2)) & (stones << U(3))
    for d in (U(7), U(6), U(8)):
        p = (stones << d) & (stones << (d + d))
        r |= p & (stones << (d + d + d))
        r |= p & (stones >> d)
        p = (stones >> d) & (stones >> (d + d))
        r |= p & (stones << d)
        r |= p & (stones >> (d + d + d))
    return r & (BOARD ^ mask)


@njit(cache=True)
def can_win_next(current: np.uint64, mask: np.uint64) -> bool:
    """Whether the player to move completes four with one stone."""
    return bool((winning_squares(current, mask) & ((mask + BOTTOM) & BOARD)) != U(0))


@njit(cache=True)
def non_losing_moves(current: np.uint64, mask: np.uint64) -> np.uint64:
    """The squares the player to move may play without letting the opponent win at once
    (0: every move loses).  The player to move must not be able to win at once."""
    possible = (mask + BOTTOM) & BOARD
    threats = winning_squares(current ^ mask, mask)
    forced = possible & threats
    if forced != U(0):
        if (forced & (forced - ONE)) != U(0):
            return U(0)
        possible = forced
    return possible & ~(threats >> ONE)


# --- the opening books ---------------------------------------------------------------------


@njit(cache=True)
def _signed32(code: int) -> int:
    return code - (1 << 32) if code >= (1 << 31) else code


@njit(cache=True)
def _find(codes: np.ndarray, key: int) -> int:
    """Index of `key` in the sorted `codes`, or -1."""
    lo, hi = 0, codes.shape[0]
    while lo < hi:
        middle = (lo + hi) >> 1
        if codes[middle] < key:
            lo = middle + 1
        else:
            hi = middle
    if lo < codes.shape[0] and codes[lo] == key:
        return lo
    return -1


@njit(cache=True)
def book_raw(
    x_stones: np.uint64,
    mask: np.uint64,
    codes: np.ndarray,
    values: np.ndarray,
    column_bits: np.ndarray,
    column_lengths: np.ndarray,
) -> int:
    """The stored value of a position or its mirror image, or -1000 if neither is stored
    (the book's Huffman code: see games/connect4/book.py)."""
    keys = x_stones + mask
    code = 0
    mirror = 0
    shift = 0
    for col in range(7):
        column = int((keys >> U(7 * col)) & U(0x7F))
        bits = column_bits[column]
        length = column_lengths[column]
        code = (code << length) | bits
        mirror |= bits << shift
        shift += length
    for candidate in (code << 1, mirror << 1):
        index = _find(codes, _signed32(candidate))
        if index >= 0:
            return int(values[index])
    return -1000


@njit(cache=True)
def _score_after(moves: int, plies: int, win: bool) -> int:
    """Pons' score for the player to move when the game ends `plies` plies after `moves`
    stones (a win for it when `win`)."""
    stones = (moves + plies + 1) // 2
    return SQUARES // 2 + 1 - stones if win else -(SQUARES // 2 + 1 - stones)


BOOK_WIN, BOOK_LOSS, NO_BOOK = 100, -100, 1000
"""`_book_score` answers: a win or a loss of unknown distance, or nothing known."""


@njit(cache=True)
def _book_score(
    current: np.uint64,
    mask: np.uint64,
    moves: int,
    books: Books,
) -> int:
    """What the books say of a position with the player to move unable to win at once: its
    exact score (12 stones, or a draw), BOOK_WIN / BOOK_LOSS (8 stones), or NO_BOOK."""
    codes8, values8, codes12, values12, column_bits, column_lengths = books
    if moves == 12 and codes12.shape[0] > 0:
        raw = book_raw(current, mask, codes12, values12, column_bits, column_lengths)
        if raw == -1000:
            return NO_BOOK
        return 0 if raw == 0 else _score_after(moves, 100 - abs(raw), raw > 0)
    if moves == 8 and codes8.shape[0] > 0:
        raw = book_raw(current, mask, codes8, values8, column_bits, column_lengths)
        if raw == 0:
            return 0
        return BOOK_WIN if raw == -1000 else BOOK_LOSS  # not stored: a win (X moves at 8)
    return NO_BOOK


# --- the search ----------------------------------------------------------------------------


@njit(cache=True)
def _order_moves(
    current: np.uint64,
    mask: np.uint64,
    possible: np.uint64,
    base: int,
    scratch_moves: np.ndarray,
    scratch_scores: np.ndarray,
) -> int:
    """Write the moves of `possible` from index `base` on, the most winning squares last
    (the search takes them from the end), equal scores centre last (Pons' MoveSorter): flat
    per-ply rows, so that no array is made per node.  Returns how many."""
    count = 0
    for i in range(6, -1, -1):
        move = possible & COLUMN_MASKS[ORDER[i]]
        if move != U(0):
            score = popcount(winning_squares(current | move, mask))
            position = base + count
            while position > base and scratch_scores[position - 1] > score:
                scratch_moves[position] = scratch_moves[position - 1]
                scratch_scores[position] = scratch_scores[position - 1]
                position -= 1
            scratch_moves[position] = move
            scratch_scores[position] = score
            count += 1
    return count


@njit(cache=True)
def _store(
    keys: np.ndarray,
    values: np.ndarray,
    stamps: np.ndarray,
    index: int,
    check: np.uint32,
    value: int,
    stamp: np.uint8,
) -> None:
    """Write a bound (in Pons' encoding) to slot `index`, stamped with this generation."""
    keys[index] = check
    values[index] = np.uint8(value)
    stamps[index] = stamp


@njit(cache=True)
def negamax(
    current: np.uint64,
    mask: np.uint64,
    moves: int,
    alpha: int,
    beta: int,
    keys: np.ndarray,
    values: np.ndarray,
    stamps: np.ndarray,
    books: Books,
    stats: np.ndarray,
    scratch: tuple[np.ndarray, np.ndarray],
) -> int:
    """Pons' negamax: the score within (alpha, beta), fail-hard; the player to move cannot
    win at once.  Stops early (any value, `stats[STATS_ABORTED]` set) at the node limit."""
    stats[STATS_NODES] += 1
    if stats[STATS_NODES] > stats[STATS_LIMIT]:
        stats[STATS_ABORTED] = 1
        return 0
    possible = non_losing_moves(current, mask)
    if possible == U(0):
        return -((SQUARES - moves) // 2)
    if moves >= SQUARES - 2:
        return 0
    alpha = max(alpha, -((SQUARES - 2 - moves) // 2))  # the opponent cannot win at once
    if alpha >= beta:
        return alpha
    beta = min(beta, (SQUARES - 1 - moves) // 2)  # nor can the player to move
    if alpha >= beta:
        return beta
    known = _book_score(current, mask, moves, books)
    if known == BOOK_WIN:  # the 8-stone book: a win, how soon not stored
        alpha = max(alpha, 1)
        if alpha >= beta:
            return alpha
    elif known == BOOK_LOSS:
        beta = min(beta, -1)
        if alpha >= beta:
            return beta
    elif known != NO_BOOK:
        return known
    key = current + mask
    index = int(key % U(TABLE_SIZE))
    check = np.uint32(key & U(0xFFFFFFFF))
    stamp = np.uint8(stats[STATS_GENERATION])
    if keys[index] == check and stamps[index] == stamp:
        stored = int(values[index])
        if stored > MAX_SCORE - MIN_SCORE + 1:  # a lower bound
            alpha = max(alpha, stored + 2 * MIN_SCORE - MAX_SCORE - 2)
            if alpha >= beta:
                return alpha
        else:  # an upper bound
            beta = min(beta, stored + MIN_SCORE - 1)
            if alpha >= beta:
                return beta
    base = moves * 7
    scratch_moves, scratch_scores = scratch
    count = _order_moves(current, mask, possible, base, scratch_moves, scratch_scores)
    opponent = current ^ mask
    for i in range(base + count - 1, base - 1, -1):
        move = scratch_moves[i]
        child = mask | move
        score = -negamax(
            opponent, child, moves + 1, -beta, -alpha, keys, values, stamps, books, stats, scratch
        )
        if stats[STATS_ABORTED] != 0:
            return 0
        if score >= beta:
            _store(keys, values, stamps, index, check, score + LOWER_BASE, stamp)
            if moves == stats[STATS_ROOT]:
                stats[STATS_CUT_MOVE] = np.int64(move)
            return score
        if score > alpha:
            alpha = score
    _store(keys, values, stamps, index, check, alpha - MIN_SCORE + 1, stamp)
    return alpha


@njit(cache=True)
def _scratch() -> tuple[np.ndarray, np.ndarray]:
    """Each ply's move list and scores for the move ordering."""
    return np.empty((SQUARES + 1) * 7, dtype=np.uint64), np.empty((SQUARES + 1) * 7, dtype=np.int64)


@njit(cache=True)
def probe(
    current: np.uint64,
    mask: np.uint64,
    moves: int,
    alpha: int,
    beta: int,
    keys: np.ndarray,
    values: np.ndarray,
    stamps: np.ndarray,
    books: Books,
    stats: np.ndarray,
) -> int:
    """The score of an unfinished position within (alpha, beta), fail-hard (a win at once is
    answered without a search)."""
    stats[STATS_ROOT] = -1
    if can_win_next(current, mask):
        return (SQUARES + 1 - moves) // 2
    return negamax(
        current, mask, moves, alpha, beta, keys, values, stamps, books, stats, _scratch()
    )


@njit(cache=True)
def solve(
    current: np.uint64,
    mask: np.uint64,
    moves: int,
    keys: np.ndarray,
    values: np.ndarray,
    stamps: np.ndarray,
    books: Books,
    stats: np.ndarray,
) -> int:
    """Pons' solve: the exact score by null-window probes, nearest zero first.  A move that
    keeps the score is left in stats[STATS_CUT_MOVE] (0: the lowest score, every move
    keeps it; or a probe was answered without trying a move: then nothing is known)."""
    stats[STATS_ROOT] = moves
    stats[STATS_CUT_MOVE] = 0
    if can_win_next(current, mask):
        return (SQUARES + 1 - moves) // 2
    low = -((SQUARES - moves) // 2)
    high = (SQUARES + 1 - moves) // 2
    scratch = _scratch()
    best = 0
    while low < high:
        middle = low + (high - low) // 2
        if middle <= 0 and int(low / 2) < middle:
            middle = int(low / 2)
        elif middle >= 0 and int(high / 2) > middle:
            middle = int(high / 2)
        stats[STATS_CUT_MOVE] = 0
        result = negamax(
            current,
            mask,
            moves,
            middle,
            middle + 1,
            keys,
            values,
            stamps,
            books,
            stats,
            scratch,
        )
        if stats[STATS_ABORTED] != 0:
            return 0
        if result <= middle:
            high = result
        else:
            low = result
            best = stats[STATS_CUT_MOVE]
    stats[STATS_CUT_MOVE] = best
    return low
