"""Optimal Pig: exact win probabilities and decisions by value iteration (Neller & Presser 2004)."""

# P(i, j, k) is the probability that the player to move wins with own score i, opponent
# score j and turn total k.  If i + k >= goal, holding wins at once (P = 1); otherwise
#
#     roll = (1 - P(j, i, 0)) / 6 + sum_{r=2..6} P(i, j, k + r) / 6
#     hold = 1 - P(j, i + k, 0)                     (only when k > 0)
#     P(i, j, k) = max(roll, hold)
#
# Solving: Gauss-Seidel value iteration in the order Neller & Presser suggest.  Holding
# moves to a larger score sum i + j, so the states are solved one score sum at a time,
# from the highest sum down.  Inside one sum, the columns (i, j, .) and (j, i, .) depend
# on each other only through P(i, j, 0) and P(j, i, 0) (a 1 passes the turn without
# changing the scores).  A sweep computes column (i, j, .) from k = goal - i - 1 down to
# 0 for a guess x of P(j, i, 0), then column (j, i, .) from the result.  The one coupling
# unknown x is then updated by a safeguarded Newton step rather than a plain fixed-point
# step: the sweep also carries dP/dx, and for a fixed policy P is linear in x, so once
# the policy settles the next sweep is exact (about 2.1 sweeps per column at goal 100).
# A pair is done when a sweep reproduces its guess within `tolerance`, so every value
# satisfies its Bellman equation within `tolerance`.
#
# Stored format (`save` / `load`): a 32-byte little-endian header (magic, version, goal,
# state count, raw length, payload length, CRC-32 of the payload), then a zlib stream:
# the probabilities quantised to uint32 (round(p * (2**32 - 1)), error < 1.2e-10), as
# differences along k (each column restarts from 0) split into four byte planes, which
# compress far better than raw floats; then one decision byte per state (1 = roll), so
# the roll/hold choice is kept exactly, ties included.  Index of state (i, j, k), with
# i, j < goal and k < goal - i: offsets[i] + j * (goal - i) + k.

from __future__ import annotations

import functools
import struct
import zlib
from array import array
from itertools import accumulate
from pathlib import Path

__all__ = [
    "ASSET_DIR",
    "FORMAT_VERSION",
    "MAGIC",
    "PigTable",
    "PigTableError",
    "asset_path",
    "load",
    "optimal_table",
    "save",
    "solve",
    "state_count",
    "table_cost",
]

MAGIC = b"PIGOPT\r\n"
"""First bytes of a stored table (the CR LF catches text-mode mangling, as in PNG)."""
FORMAT_VERSION = 1
# magic, version, goal, states, raw length, payload length, payload CRC-32, padding
_HEADER = struct.Struct("<8sHHIIII4x")
_SCALE = 4294967295.0  # 2**32 - 1: quantisation scale of the stored probabilities
_MAX_GOAL = 65535  # the header stores the goal as uint16
_SIXTH = 1.0 / 6.0

ASSET_DIR = Path(__file__).resolve().parents[2] / "assets"
"""Where the precomputed tables live (`assets/pig_optimal_<goal>.bin`)."""


class PigTableError(ValueError):
    """A stored Pig table that is missing, corrupt, or for another goal."""


def asset_path(goal: int) -> Path:
    """The path of the stored table for `goal` (it may not exist)."""
    return ASSET_DIR / f"pig_optimal_{goal}.bin"


def _check_goal(goal: int) -> None:
    """Reject goals the solver and the file format cannot handle."""
    if not isinstance(goal, int) or isinstance(goal, bool) or not 1 <= goal <= _MAX_GOAL:
        raise ValueError(f"goal must be an integer from 1 to {_MAX_GOAL}, got {goal!r}")


def _column_offsets(goal: int) -> list[int]:
    """Start index of the block for own score i: block i holds goal columns of goal - i states."""
    offsets = [0] * (goal + 1)
    for i in range(goal):
        offsets[i + 1] = offsets[i] + goal * (goal - i)
    return offsets


def state_count(goal: int) -> int:
    """Number of stored (non-winning) states: i, j < goal and i + k < goal."""
    return goal * goal * (goal + 1) // 2


SOLVE_BYTES_PER_STATE = 52
"""Peak memory of `solve` per state: Python floats in lists, then the packed table.  Measured
with /usr/bin/time: goal 200 212 MB (4.0 million states), goal 300 679 MB (13.5 million)."""
SOLVE_SECONDS_PER_STATE = 0.7e-6
"""Time of `solve` per state on a busy 2-core machine: goal 200 2.0 s, goal 300 9.2 s."""


def table_cost(goal: int) -> tuple[int, int, float]:
    """(states, bytes, seconds) to have the table for `goal`: small when it is stored."""
    count = state_count(goal)
    if asset_path(goal).is_file():
        return count, 16 * count, 0.0
    return count, SOLVE_BYTES_PER_STATE * count, SOLVE_SECONDS_PER_STATE * count


class PigTable:
    """Exact win probabilities and optimal decisions for two-player Pig to `goal`."""

    __slots__ = ("_offsets", "_roll", "_values", "goal")

    def __init__(self, goal: int, values: array[float], roll: bytes | bytearray) -> None:
        """Wrap flat arrays in the layout described at the top (use solve, load, optimal_table)."""
        _check_goal(goal)
        count = state_count(goal)
        if len(values) != count or len(roll) != count:
            raise ValueError(f"a goal-{goal} table needs {count} values and decisions")
        self.goal = goal
        self._values = values
        self._roll = bytes(roll)
        self._offsets = _column_offsets(goal)

    def __repr__(self) -> str:
        """A short description, not the contents."""
        return f"PigTable(goal={self.goal}, P(0,0,0)={self.win_probability(0, 0, 0):.6f})"

    def _check(self, my_score: int, opp_score: int, turn_total: int) -> None:
        """Reject negative arguments (positions past the goal are handled by the callers)."""
        if my_score < 0 or opp_score < 0 or turn_total < 0:
            raise ValueError(
                f"scores and turn total must be >= 0, got {my_score}, {opp_score}, {turn_total}"
            )

    def win_probability(self, my_score: int, opp_score: int, turn_total: int) -> float:
        """Probability that the player to move wins under optimal play by both players."""
        self._check(my_score, opp_score, turn_total)
        goal = self.goal
        if my_score + turn_total >= goal:
            return 1.0
        if opp_score >= goal:
            return 0.0
        return self._values[self._offsets[my_score] + opp_score * (goal - my_score) + turn_total]

    def roll_win_probability(self, my_score: int, opp_score: int, turn_total: int) -> float:
        """Win probability of rolling now (and playing optimally after): a chance node's value."""
        self._check(my_score, opp_score, turn_total)
        if opp_score >= self.goal:
            return 0.0
        total = 1.0 - self.win_probability(opp_score, my_score, 0)
        for face in range(2, 7):
            total += self.win_probability(my_score, opp_score, turn_total + face)
        return total * _SIXTH

    def hold_win_probability(self, my_score: int, opp_score: int, turn_total: int) -> float:
        """Win probability of holding now (needs turn_total > 0)."""
        self._check(my_score, opp_score, turn_total)
        if turn_total == 0:
            raise ValueError("cannot hold with a turn total of 0")
        if my_score + turn_total >= self.goal:
            return 1.0
        return 1.0 - self.win_probability(opp_score, my_score + turn_total, 0)

    def should_roll(self, my_score: int, opp_score: int, turn_total: int) -> bool:
        """The optimal decision: True = roll, False = hold (always roll at turn total 0)."""
        self._check(my_score, opp_score, turn_total)
        goal = self.goal
        if opp_score >= goal or (turn_total == 0 and my_score >= goal):
            raise ValueError(f"the game is over at scores {my_score}-{opp_score} (goal {goal})")
        if turn_total == 0:
            return True
        if my_score + turn_total >= goal:
            return False
        return self._roll[self._offsets[my_score] + opp_score * (goal - my_score) + turn_total] == 1

    def hold_threshold(self, my_score: int, opp_score: int) -> int:
        """Smallest turn total at which the optimal player holds (at most goal - my_score)."""
        turn_total = 1
        while self.should_roll(my_score, opp_score, turn_total):
            turn_total += 1
        return turn_total

    def difference(self, other: PigTable) -> tuple[float, int]:
        """Largest probability difference and number of differing decisions (same goal only)."""
        if other.goal != self.goal:
            raise ValueError(f"cannot compare goal-{self.goal} and goal-{other.goal} tables")
        largest = max(map(abs, map(float.__sub__, self._values, other._values)), default=0.0)
        decisions = sum(a != b for a, b in zip(self._roll, other._roll, strict=True))
        return largest, decisions

    def to_bytes(self) -> bytes:
        """The table in the stored format (header + zlib payload)."""
        return _encode(self)

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "<bytes>") -> PigTable:
        """Read a table written by `to_bytes`; raises PigTableError naming `source` if corrupt."""
        return _decode(data, source)


def solve(goal: int, tolerance: float = 1e-9) -> PigTable:
    """Compute the optimal table for `goal` by value iteration (see the top of this module)."""
    _check_goal(goal)
    if not tolerance > 0.0:
        raise ValueError(f"tolerance must be > 0, got {tolerance!r}")
    count = state_count(goal)
    offsets = _column_offsets(goal)
    values = [0.0] * count
    roll = bytearray(count)
    # start[i * goal + j] = P(i, j, 0); hold at (i, j, k) is worth 1 - start[j * goal + i + k].
    start = [0.0] * (goal * goal)

    # Scratch columns, padded with the winning states past the goal (P = 1, dP/dx = 0).
    pad = goal + 7
    col_a = [1.0] * pad
    der_a = [0.0] * pad
    col_b = [1.0] * pad
    der_b = [0.0] * pad

    def sweep(i: int, j: int, x: float, col: list[float], der: list[float]) -> None:
        """Fill column (i, j, .) for P(j, i, 0) = x: col[k] = P, der[k] = dP/dx."""
        m = goal - i
        for k in range(m, m + 6):  # the winning states past the goal, possibly overwritten
            col[k] = 1.0
            der[k] = 0.0
        hold_base = j * goal + i
        lose = 1.0 - x
        s = 5.0  # sum of col[k + 2 .. k + 6] for k = m - 1: all winning states
        ds = 0.0
        for k in range(m - 1, 0, -1):
            value = (lose + s) * _SIXTH
            held = 1.0 - start[hold_base + k]
            if value > held:
                col[k] = value
                der[k] = (ds - 1.0) * _SIXTH
            else:
                col[k] = held
                der[k] = 0.0
            s += col[k + 1] - col[k + 6]
            ds += der[k + 1] - der[k + 6]
        col[0] = (lose + s) * _SIXTH
        der[0] = (ds - 1.0) * _SIXTH

    def store(i: int, j: int, col: list[float]) -> None:
        """Copy column (i, j, .) into the table with its decisions."""
        m = goal - i
        base = offsets[i] + j * m
        values[base : base + m] = col[:m]
        hold_base = j * goal + i
        roll[base] = 1
        for k in range(1, m):
            roll[base + k] = col[k] > 1.0 - start[hold_base + k]
        start[i * goal + j] = col[0]

    def guess(i: int, j: int) -> float:
        """A starting guess for P(i, j, 0) from the already-solved larger score sums."""
        ahead = start[(i + 1) * goal + j] if i + 1 < goal else 1.0
        behind = start[i * goal + j + 1] if j + 1 < goal else 0.0
        return 0.5 * (ahead + behind)

    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), total // 2 + 1):
            j = total - i
            if i == j:
                # One column coupled to itself: solve x = f(x) with f(x) = P(i, i, 0) given x.
                lo, hi = 0.0, 1.0
                x = guess(i, i)
                while True:
                    sweep(i, i, x, col_a, der_a)
                    residual = col_a[0] - x
                    if abs(residual) <= tolerance:
                        break
                    if residual > 0.0:
                        lo = x
                    else:
                        hi = x
                    x -= residual / (der_a[0] - 1.0)
                    if not lo < x < hi:
                        x = 0.5 * (lo + hi)
                        if not lo < x < hi:  # bracket at float precision: tolerance too small
                            break
                store(i, i, col_a)
                continue
            # Two columns: x = P(j, i, 0); f(x) = P(i, j, 0); g(y) = P(j, i, 0) given y.
            lo, hi = 0.0, 1.0
            x = guess(j, i)
            while True:
                sweep(i, j, x, col_a, der_a)
                sweep(j, i, col_a[0], col_b, der_b)
                residual = col_b[0] - x
                if abs(residual) <= tolerance:
                    break
                if residual > 0.0:
                    lo = x
                else:
                    hi = x
                x -= residual / (der_b[0] * der_a[0] - 1.0)
                if not lo < x < hi:
                    x = 0.5 * (lo + hi)
                    if not lo < x < hi:  # bracket at float precision: tolerance too small
                        break
            store(j, i, col_b)
            store(i, j, col_a)
    return PigTable(goal, array("d", values), roll)


# --- storage ------------------------------------------------------------------------


def _encode(table: PigTable) -> bytes:
    """Header + zlib(byte planes of uint32 deltas along k, then decision bytes)."""
    goal = table.goal
    count = state_count(goal)
    quantised = array("I", [int(p * _SCALE + 0.5) for p in table._values])
    deltas = array("I", bytes(4 * count))
    offsets = table._offsets
    for i in range(goal):
        m = goal - i
        for j in range(goal):
            base = offsets[i] + j * m
            previous = 0
            for index in range(base, base + m):
                current = quantised[index]
                deltas[index] = (current - previous) & 0xFFFFFFFF
                previous = current
    raw_deltas = _little_endian(deltas).tobytes()
    planes = b"".join(raw_deltas[plane::4] for plane in range(4))
    raw = planes + table._roll
    payload = zlib.compress(raw, 9)
    header = _HEADER.pack(
        MAGIC, FORMAT_VERSION, goal, count, len(raw), len(payload), zlib.crc32(payload)
    )
    return header + payload


def _little_endian(values: array[int]) -> array[int]:
    """`values` in little-endian byte order (the stored order), copied if the host differs."""
    if struct.pack("=I", 1) == struct.pack("<I", 1):
        return values
    swapped = array("I", values)
    swapped.byteswap()
    return swapped


def _decode(data: bytes, source: str) -> PigTable:
    """Parse and verify a stored table; every failure is a PigTableError naming `source`."""

    def fail(why: str) -> PigTableError:
        return PigTableError(
            f"corrupt Pig table {source}: {why}; rebuild it with assets/rebuild/pig_table.py"
        )

    if len(data) < _HEADER.size:
        raise fail(f"only {len(data)} bytes, shorter than the {_HEADER.size}-byte header")
    magic, version, goal, count, raw_length, payload_length, crc = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise fail(f"bad magic {magic!r} (expected {MAGIC!r})")
    if version != FORMAT_VERSION:
        raise fail(f"format version {version}, this code reads version {FORMAT_VERSION}")
    if not 1 <= goal <= _MAX_GOAL or count != state_count(goal):
        raise fail(f"goal {goal} does not match the state count {count}")
    if raw_length != 5 * count:
        raise fail(f"payload length {raw_length} does not match {count} states")
    payload = data[_HEADER.size :]
    if len(payload) != payload_length:
        raise fail(f"payload is {len(payload)} bytes, the header says {payload_length}")
    if zlib.crc32(payload) != crc:
        raise fail("checksum mismatch")
    try:
        raw = zlib.decompress(payload)
    except zlib.error as error:
        raise fail(f"cannot decompress ({error})") from None
    if len(raw) != raw_length:
        raise fail(f"decompressed to {len(raw)} bytes, expected {raw_length}")

    interleaved = bytearray(4 * count)
    for plane in range(4):
        interleaved[plane::4] = raw[plane * count : (plane + 1) * count]
    deltas = array("I")
    deltas.frombytes(bytes(interleaved))
    deltas = _little_endian(deltas)
    roll = raw[4 * count :]
    if roll.translate(None, b"\x00\x01"):
        raise fail("a decision byte is neither 0 (hold) nor 1 (roll)")

    # Undo the deltas column by column (each column restarts from 0), then scale.
    offsets = _column_offsets(goal)
    values = array("d", bytes(8 * count))
    inverse = 1.0 / _SCALE
    for i in range(goal):
        m = goal - i
        for j in range(goal):
            base = offsets[i] + j * m
            column = accumulate(deltas[base : base + m])
            values[base : base + m] = array("d", [(q & 0xFFFFFFFF) * inverse for q in column])
    return PigTable(goal, values, roll)


def save(table: PigTable, path: str | Path) -> None:
    """Write `table` to `path` in the stored format."""
    Path(path).write_bytes(table.to_bytes())


def load(path: str | Path, goal: int | None = None) -> PigTable:
    """Read a stored table, checking its header (and its goal, when `goal` is given)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PigTableError(f"cannot read Pig table {path}: {error.strerror or error}") from None
    table = _decode(data, str(path))
    if goal is not None and table.goal != goal:
        raise PigTableError(f"Pig table {path} is for goal {table.goal}, not {goal}")
    return table


@functools.lru_cache(maxsize=8, typed=True)  # typed: True is not goal 1
def optimal_table(goal: int = 100) -> PigTable:
    """The optimal table for `goal`: the stored asset if there is one, else solved now."""
    _check_goal(goal)
    path = asset_path(goal)
    if path.is_file():
        return load(path, goal)  # a corrupt asset raises: better than silently slow starts
    return solve(goal)
