"""The connect-four opening books: the file format read right (against the package's own
reader), mirror images, unknown positions, agreement with our solver, and the fallback."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from plyground import ai, games
from plyground.ai.evaluation.values import plies_to_end
from plyground.games.connect4 import book
from plyground.games.connect4.book import BookValue
from plyground.games.connect4.rules import EMPTY, State

bitbully = pytest.importorskip("bitbully_databases")
GAME = games.get_game("connect4")


@pytest.fixture(autouse=True)
def fresh_book(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test sees the real book, loaded as on first use, and leaves it that way."""
    monkeypatch.delenv("PLYGROUND_NO_BOOK", raising=False)
    book.reset()
    yield
    book.reset()


def position(moves: str) -> State:
    state: State = games.replay(GAME.initial_state(), GAME.parse_moves(moves))
    return state


def random_position(stones: int, rng: random.Random) -> State:
    """A random unfinished position with `stones` stones where X cannot win at once."""
    while True:
        state = EMPTY
        while state.ply < stones and not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal() and state.winning_move() is None:
            return state


def mirror(state: State) -> State:
    moves = [6 - m for m in replay_moves(state)]
    return games.replay(EMPTY, moves)  # type: ignore[no-any-return]


def replay_moves(state: State) -> list[int]:
    """Some move order reaching `state` (X first), found column by column."""

    def search(node: State, moves: list[int]) -> list[int] | None:
        if node.ply == state.ply:
            return moves if node == state else None
        for col in range(7):
            height = node.height(col)
            if height < state.height(col) and state.cell(col, height) == node.to_move:
                found = search(node.play(col), [*moves, col])
                if found is not None:
                    return found
        return None

    found = search(EMPTY, [])
    assert found is not None
    return found


def package_value(state: State, db: object) -> int | None:
    """The package's own reader on our position (its board: top row first, 1 = X)."""
    board = [
        [0 if state.cell(c, r) is None else 1 + state.cell(c, r) for c in range(7)]  # type: ignore[operator]
        for r in reversed(range(6))
    ]
    return db.get_book_value(board)  # type: ignore[attr-defined,no-any-return]


def from_board(rows: list[str]) -> State:
    """A position from rows top first ('X', 'O', '.'), X to move after an even count."""
    x = o = 0
    for r, line in enumerate(reversed(rows)):
        for c, cell in enumerate(line):
            bit = 1 << (7 * c + r)
            x |= bit if cell == "X" else 0
            o |= bit if cell == "O" else 0
    to_move_x = (x | o).bit_count() % 2 == 0
    return State(current=x if to_move_x else o, mask=x | o)


# The boards of the package's documentation (top row first) and their documented values.
DOCUMENTED = [
    ([".......", "...X...", ".X.O...", ".O.X.O.", ".X.O.X.", ".O.X.O."], (1, 29)),
    ([".......", ".......", "..XX...", "..OO...", ".XOX...", ".XXO.OO"], (-1, 12)),
    ([".......", ".......", ".X.....", ".OO.X..", ".OX.O..", "XXOXO.."], (1, 27)),
    ([".......", ".......", "..XX...", "..OO...", "..OXO..", ".XXOXO."], (0, 0)),
    ([".......", "...X...", "...O...", ".O.X...", ".X.O...", ".O.X..."], (1, None)),
    ([".......", "...O...", "...X...", "...O...", "...X.O.", "..XO.X."], (0, None)),
]


@pytest.mark.parametrize(("rows", "value"), DOCUMENTED)
def test_the_examples_of_the_package_documentation(rows: list[str], value: tuple[int, int]) -> None:
    assert from_board(rows).book_value() == value


@pytest.mark.slow
@pytest.mark.parametrize("stones", [8, 12])
def test_book_values_match_the_package_reader_on_random_positions(stones: int) -> None:
    name = "8-ply" if stones == 8 else "12-ply-dist"
    db = bitbully.BitBullyDatabases(name)
    rng = random.Random(stones)
    outcomes = set()
    for _ in range(150):
        state = random_position(stones, rng)
        ours = state.book_value()
        theirs = package_value(state, db)
        assert ours is not None and theirs is not None
        if stones == 8:
            assert ours == ({1: (1, None), 0: (0, None), -1: (-1, None)}[theirs])
        elif theirs == 0:
            assert ours == (0, 0)
        else:
            assert ours == (1 if theirs > 0 else -1, 100 - abs(theirs))
        outcomes.add(ours[0])
    assert outcomes == {1, 0, -1}


def negamax_to_12(state: State) -> int:
    """The exact score (1000 - plies for a win, negative for a loss, 0 draw) from the
    12-stone book, by searching every line down to 12 stones."""
    if state.is_terminal():
        return 0 if state.winner() is None else -1000
    if state.ply == 12:
        value = state.book_value()
        assert value is not None and value[1] is not None
        return value[0] * (1000 - value[1]) if value[0] else 0
    best = -2000
    for move in state.legal_moves():
        child = -negamax_to_12(state.play(move))
        best = max(best, child - 1 if child > 0 else (child + 1 if child < 0 else 0))
    return best


def test_the_8_stone_book_agrees_with_the_12_stone_book_four_plies_below() -> None:
    rng = random.Random(8)
    seen = set()
    for _ in range(12):
        state = random_position(8, rng)
        value = state.book_value()
        assert value is not None
        exact = negamax_to_12(state)
        assert value[0] == (exact > 0) - (exact < 0)
        seen.add(value[0])
    assert len(seen) >= 2


# Random 12-stone positions our solver answers in well under a second (and one slower):
# (moves, outcome, plies to the end).
SOLVED = [
    ("453555667763", 1, 5),
    ("337464364566", 1, 3),
    ("622155121325", 1, 5),
    ("773373754564", -1, 8),
    ("647537241537", -1, 4),
    ("515155414744", 1, 7),
]


@pytest.mark.parametrize(("moves", "outcome", "plies"), SOLVED)
def test_book_values_agree_with_the_solver(moves: str, outcome: int, plies: int) -> None:
    state = position(moves)
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), seed=0))
    assert ((result.value > 0) - (result.value < 0), plies_to_end(result.value)) == (
        outcome,
        plies,
    )
    assert state.book_value() == (outcome, plies)


@pytest.mark.slow
def test_a_long_win_agrees_with_the_solver() -> None:
    state = position("621622626411")
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), seed=0))
    assert plies_to_end(result.value) == 27 and result.value > 0
    assert state.book_value() == (1, 27)


def test_mirror_images_have_the_same_value_though_one_is_stored() -> None:
    rng = random.Random(3)
    books = book.load()
    only_one_stored = 0
    for _ in range(40):
        state = random_position(12, rng)
        image = mirror(state)
        assert image.book_value() == state.book_value()
        x = state.current  # X is to move at 12 stones
        code, mirrored = book.codes(x, state.mask)
        stored = {c for c in (code, mirrored) if _stored(books[12], c)}
        only_one_stored += len(stored) == 1 and code != mirrored
    assert only_one_stored >= 30


def _stored(one: book.Book, code: int) -> bool:
    from bisect import bisect_left

    key = code - (1 << 32) if code >= 1 << 31 else code
    i = bisect_left(one.codes, key)
    return i < len(one.codes) and one.codes[i] == key


def test_positions_without_a_book_layer_answer_none() -> None:
    assert EMPTY.book_value() is None
    assert position("4453").book_value() is None
    assert position("4453445").book_value() is None  # 7 stones
    assert position("445344531").book_value() is None  # 9 stones
    assert position("4453445312215").book_value() is None  # 13 stones


def test_finished_games_and_immediate_wins() -> None:
    # O completed four with the 12th stone: the game is over, no book answer.
    over = from_board([".......", ".......", "O......", "OO.....", "OXX....", "OXX.XXO"])
    assert over.is_terminal() and over.book_value() is None
    # X to move completes four at once: left out of the book, a win in one ply.
    threat = from_board([".......", ".......", ".......", ".......", ".X...OO", ".XXX.OO"])
    assert threat.ply == 8 and threat.winning_move() in (0, 4)
    assert threat.book_value() == (1, 1)


def test_the_code_is_the_packages_huffman_code() -> None:
    rng = random.Random(4)
    for stones in (8, 12):
        state = random_position(stones, rng)
        board = [
            [0 if state.cell(c, r) is None else 1 + state.cell(c, r) for c in range(7)]  # type: ignore[operator]
            for r in reversed(range(6))
        ]
        reference = bitbully.BitBullyDatabases._to_huffman(board) & 0xFFFFFFFF
        code, mirrored = book.codes(state.current, state.mask)
        assert code == reference
        assert book.codes(mirror(state).current, mirror(state).mask)[0] == mirrored


def test_bounds_in_search_units() -> None:
    assert BookValue(0, 0).bounds(1000, 1, 30) == (0, 0)
    assert BookValue(1, 13).bounds(1000, 1, 30) == (987, 987)
    assert BookValue(-1, 8).bounds(1000, 1, 30) == (-992, -992)
    assert BookValue(1, None).bounds(1000, 1, 34) == (966, 998)
    assert BookValue(-1, None).bounds(1000, 1, 34) == (-998, -966)
    from plyground.ai.engine.bookkeeping import PROVEN_UNITS, STEP_UNITS, WIN_UNITS

    low, high = BookValue(1, None).bounds(WIN_UNITS, STEP_UNITS, 34)
    assert PROVEN_UNITS < low < high < WIN_UNITS  # a proven win, whatever its distance
    low, high = BookValue(-1, None).bounds(WIN_UNITS, STEP_UNITS, 34)
    assert -WIN_UNITS < low < high < -PROVEN_UNITS
    assert BookValue(1, 13).describe() == "win in 13"
    assert BookValue(-1, 8).describe() == "loss in 8"
    assert BookValue(0, 0).describe() == "draw"
    assert BookValue(1, None).describe() == "win"


def test_switched_off_the_game_plays_without_a_book(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLYGROUND_NO_BOOK", "1")
    book.reset()
    assert position("444444626262").book_value() is None
    assert not book.available()
    assert "PLYGROUND_NO_BOOK" in book.status()


def test_unreadable_data_is_no_book_and_no_crash(tmp_path: Path) -> None:
    (tmp_path / "book_8ply.dat").write_bytes(b"\x01\x02")  # not whole records
    assert book.load(tmp_path) == {}
    assert book.status().startswith("unavailable")
    assert position("444444626262").book_value() is None
    book.reset()
    assert book.load(tmp_path / "nowhere") == {}
    assert "unavailable" in book.status()


def test_a_missing_package_is_no_book(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "bitbully_databases", None)  # import fails
    assert book.load() == {}
    assert "unavailable" in book.status()
    assert position("44444262").book_value() is None


def test_the_book_is_sorted_and_complete() -> None:
    books = book.load()
    assert len(books[8].codes) == 34_515 and len(books[12].codes) == 4_200_899
    for one in books.values():
        codes = one.codes
        assert all(codes[i] < codes[i + 1] for i in range(0, len(codes) - 1, 997))
        assert list(codes[:2000]) == sorted(codes[:2000])
        assert list(codes[-2000:]) == sorted(codes[-2000:])


def test_benchmark_reports_load_memory_and_lookup() -> None:
    rng = random.Random(1)
    states = [random_position(12, rng) for _ in range(50)]
    numbers = book.benchmark(states, repeat=2)
    assert numbers["positions"] == 34_515 + 4_200_899
    assert 20 < numbers["memory_mb"] < 22
    assert numbers["load_seconds"] > 0 and numbers["lookup_microseconds"] > 0
