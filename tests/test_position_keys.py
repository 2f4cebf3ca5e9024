"""A game file's positions are keyed for the search's table by `freeze`: equal positions
must get equal keys (or transpositions are missed), and different ones different keys, even
after the file changes an object it shared (or the table answers a position with another's
value).  Its fast paths (plain tuples checked in C) must keep both."""

from __future__ import annotations

from collections import namedtuple
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from plyground.games.from_file import freeze

CELLS = st.integers() | st.tuples(st.integers(), st.integers())
ATOMS = st.none() | st.booleans() | st.integers() | st.text(max_size=3) | st.binary(max_size=3)
VALUES = st.recursive(
    ATOMS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(CELLS, inner, max_size=4)
    ),
    max_leaves=12,
)


def _copy_reordered(value: Any) -> Any:
    """An equal copy built anew, each dict's items inserted in the reverse order."""
    if isinstance(value, list):
        return [_copy_reordered(item) for item in value]
    if isinstance(value, tuple):
        return tuple(_copy_reordered(item) for item in value)
    if isinstance(value, dict):
        return {key: _copy_reordered(value[key]) for key in reversed(list(value))}
    return value


@given(VALUES)
def test_equal_positions_get_equal_keys(value: Any) -> None:
    key = freeze(value)
    hash(key)
    assert freeze(_copy_reordered(value)) == key


@given(VALUES, VALUES)
def test_different_positions_get_different_keys(first: Any, second: Any) -> None:
    if first != second:
        assert freeze(first) != freeze(second) or _loosely_equal(first, second)


def _loosely_equal(first: Any, second: Any) -> bool:
    """A list and a tuple of the same items key alike (a position's moves as either)."""
    if isinstance(first, (list, tuple)) and isinstance(second, (list, tuple)):
        return len(first) == len(second) and all(map(_loosely_equal, first, second))
    return bool(first == second)


class Stone:
    """A file's own object, compared by identity and changed in place."""

    def __init__(self, colour: str) -> None:
        self.colour = colour


def test_an_object_of_the_files_is_keyed_by_what_it_holds_then() -> None:
    stone = Stone("black")
    board = [(0, 1), (2, stone)]  # a list of tuples: the fast path must not keep the object
    before = freeze(board)
    stone.colour = "white"
    assert freeze(board) != before  # a snapshot: the old key is not the new position's
    assert freeze([(0, 1), (2, Stone("white"))]) == freeze(board)  # by value, not identity
    cells = {(0, 0): stone}
    held = freeze(cells)
    stone.colour = "black"
    assert freeze(cells) != held


def test_an_aima_state_is_keyed_whole() -> None:
    state = namedtuple("GameState", "to_move, utility, board, moves")
    one = state("X", 0, {(1, 1): "X", (2, 1): "O"}, [(1, 2), (3, 1)])
    same = state("X", 0, {(2, 1): "O", (1, 1): "X"}, [(1, 2), (3, 1)])
    other = state("X", 0, {(1, 1): "X", (2, 1): "O"}, [(1, 2), (3, 2)])
    assert freeze(one) == freeze(same)
    assert freeze(one) != freeze(other)
    assert freeze(one) != freeze(state("O", 0, one.board, one.moves))


class Piles:
    """An easyAI game without ttentry(): its attributes are its key."""

    def __init__(self, players: Any = None) -> None:
        self.players = players
        self.piles = [3, 4]
        self.current_player = 1

    def possible_moves(self) -> list[str]:
        return ["1", "2"]

    def make_move(self, move: str) -> None:
        self.piles[0] -= int(move)

    def is_over(self) -> bool:
        return False


def test_an_easyai_game_is_keyed_by_its_attributes_in_any_order() -> None:
    from plyground.games.from_file.styles import EasyAIStyle

    style = EasyAIStyle(Piles())
    one = style.initial()
    other = Piles(players=style.seats())
    other.__dict__ = {name: other.__dict__[name] for name in reversed(list(other.__dict__))}
    other.nmove = 7  # the move count is not the position
    assert style.key(one) == style.key(other)
    other.piles[0] = 1
    assert style.key(one) != style.key(other)
    other.piles[0] = 3
    other.extra = 0  # an attribute more: another position
    assert style.key(one) != style.key(other)
    other.__dict__.pop("extra")
    other.current_player = 2
    assert style.key(one) != style.key(other)


class Touchy:
    """A file's object whose hash fails: keyed by its fields, its __hash__ never called."""

    def __init__(self) -> None:
        self.side = 1

    def __hash__(self) -> int:
        raise RuntimeError("never hash me")


def test_a_files_object_in_a_list_of_tuples_is_never_hashed() -> None:
    assert freeze([(0, Touchy())]) == freeze([(0, Touchy())])
