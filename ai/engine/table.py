"""A bounded transposition table: a fixed array of slots indexed by the position's hash.

The slot count is a prime and the index is ``hash(key) % size``: a Python int hashes to
itself, so masking low bits would index bitboard positions by their first squares
alone and make most positions collide.

Each slot holds one entry ``(key, depth, flag, value, move, generation, solved)``;
`solved` says the value rests on no heuristic estimate (every line below it reached the
end of the game), so a search answered from the table still knows whether it is exact.  A new entry
replaces the old one when the slot is empty, holds the same position, was written by an
older search, or was searched less deep ("replacement by depth"), so the table never
grows beyond its slot count however long a match runs.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import cache
from typing import Any

EXACT = 0
LOWER = 1
"""The stored value is a lower bound (the search failed high)."""
UPPER = 2
"""The stored value is an upper bound (the search failed low)."""

Entry = tuple[Hashable, int, int, int, Any, int, bool]

DEFAULT_BITS = 18
"""2**18 = 262,144 slots: a few tens of MB when full."""


class TranspositionTable:
    """Fixed-size table of search results keyed by `State.key()`."""

    __slots__ = ("filled", "generation", "size", "slots", "stores")

    def __init__(self, bits: int = DEFAULT_BITS) -> None:
        if not 4 <= bits <= 26:
            raise ValueError(f"table size must be 2**4 to 2**26 slots, not 2**{bits}")
        self.size = _prime_below(1 << bits)
        self.slots: list[Entry | None] = [None] * self.size
        self.generation = 0
        self.stores = 0
        """How many entries were written (including overwrites)."""
        self.filled = 0
        """How many slots hold an entry."""

    def __len__(self) -> int:
        """How many slots hold an entry."""
        return self.filled

    @property
    def capacity(self) -> int:
        """How many entries the table can hold at most."""
        return self.size

    def new_search(self) -> None:
        """Mark older entries as replaceable (they stay usable until overwritten)."""
        self.generation += 1

    def clear(self) -> None:
        """Forget everything."""
        self.slots = [None] * self.size
        self.stores = 0
        self.filled = 0

    def probe(self, key: Hashable) -> Entry | None:
        """The entry for `key`, or None."""
        entry = self.slots[hash(key) % self.size]
        if entry is not None and entry[0] == key:
            return entry
        return None

    def store(
        self, key: Hashable, depth: int, flag: int, value: int, move: Any, solved: bool = False
    ) -> None:
        """Record a result in the key's own slot (see `store_at`)."""
        self.store_at(hash(key) % self.size, key, depth, flag, value, move, solved)

    def store_at(
        self,
        index: int,
        key: Hashable,
        depth: int,
        flag: int,
        value: int,
        move: Any,
        solved: bool,
    ) -> None:
        """Record a result in slot `index`, keeping the deeper of two different positions.

        The one way to write the table: the searches bind it to a local name and pass the
        index they already computed for their probe (`hash(key) % size`, or a salted index).
        """
        slots = self.slots
        old = slots[index]
        generation = self.generation
        if old is None or old[0] == key or old[5] != generation or old[1] <= depth:
            slots[index] = (key, depth, flag, value, move, generation, solved)
            self.stores += 1
            if old is None:
                self.filled += 1


@cache
def _prime_below(limit: int) -> int:
    """The largest prime below `limit` (trial division, once per size: a search on an exact
    engine makes a small table each call)."""
    candidate = limit - 1
    while candidate > 2:
        if all(candidate % d for d in range(3, int(candidate**0.5) + 1, 2)) and candidate % 2:
            return candidate
        candidate -= 1
    return 2
