"""The engine's fast path for games from files: it walks a game in place (easyAI's
make_move/unmake_move on one copy, or a stack of the file's own positions) and must reach
exactly the values the immutable positions give, and fail with the same one-line errors.

Speed is the benchmark's (`python main.py bench --frameworks`); here: values, counts, errors.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plyground import ai, games
from plyground.games.from_file import GameCodeError, guard, in_place

FILES = Path(__file__).resolve().parent / "game_files"
TAKE_AWAY = str(FILES / "take_away.py")
AIMA_NIM = str(FILES / "aima_nim.py")
BONES = str(FILES / "easy_bones.py")
CONNECT3 = str(FILES / "grid_connect3.py")

NO_UNMAKE = (
    (FILES / "easy_bones.py")
    .read_text(encoding="utf-8")
    .replace("    def unmake_move(self, move):\n        self.pile += int(move)\n", "")
)
LIST_MOVES = '''
class Splits:
    """Moves as lists (unhashable): split a pile into two, by easyAI's rules."""

    def __init__(self, players=None):
        self.players = players
        self.piles = [7]
        self.current_player = 1

    def possible_moves(self):
        return [[i, k] for i, p in enumerate(self.piles) for k in range(1, (p + 1) // 2)
                if k != p - k]

    def make_move(self, move):
        assert type(move) is list, f"given {move!r}, not its own list"  # at the root too
        i, k = move
        pile = self.piles.pop(i)
        self.piles += [k, pile - k]

    def is_over(self):
        return not self.possible_moves()

    def scoring(self):
        return -100 if self.is_over() else len(self.piles)
'''


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the walks the engine took (one per undo), to see the fast path ran."""
    taken: list[str] = []
    for cls in (in_place.StackWalk, in_place.UndoWalk):
        undo = cls.undo

        def counted(self: Any, undo: Any = undo) -> None:
            taken.append(type(self).__name__)
            undo(self)

        monkeypatch.setattr(cls, "undo", counted)
    yield taken


def _spec(tmp_path: Path, name: str) -> str:
    if name == "no_unmake":
        path = tmp_path / "bones_copied.py"
        path.write_text(NO_UNMAKE, encoding="utf-8")
        return str(path)
    if name == "list_moves":
        path = tmp_path / "splits.py"
        path.write_text(LIST_MOVES, encoding="utf-8")
        return str(path)
    return {"take_away": TAKE_AWAY, "aima_nim": AIMA_NIM, "bones": BONES, "c3": CONNECT3}[name]


WALK_OF = {
    "take_away": "StackWalk",
    "aima_nim": "StackWalk",
    "bones": "UndoWalk",
    "c3": "StackWalk",
    "no_unmake": "StackWalk",
    "list_moves": "StackWalk",
}


@pytest.mark.parametrize("name", sorted(WALK_OF))
@pytest.mark.parametrize("depth", [2, 4])
def test_walking_in_place_gives_minimaxs_values(
    tmp_path: Path, walks: list[str], name: str, depth: int
) -> None:
    game = games.get_game(_spec(tmp_path, name))
    state = game.initial_state()
    minimax = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", depth)))
    assert not walks  # minimax keeps its positions
    walked = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth)))
    assert walks and set(walks) == {WALK_OF[name]}
    assert {m: e.value for m, e in walked.move_values.items()} == {
        m: e.value for m, e in minimax.move_values.items()
    }
    for seed in range(4):  # a player's search: the best value, a best move
        move = ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth), seed=seed, all_values=False)
        )
        assert move.value == minimax.value
        assert minimax.move_values[move.move].value == minimax.value


def test_a_heuristic_not_the_games_own_reads_positions_not_a_walk(
    monkeypatch: pytest.MonkeyPatch, walks: list[str]
) -> None:
    """Only the game's own evaluations read a walk (they read its ``inner``); any other
    heuristic (a student's file, in its worker) gets the game's immutable positions."""
    from plyground.ai.engine import search as engine_search
    from plyground.games.base import Heuristic
    from plyground.games.from_file import FileState

    seen: list[type] = []

    def foreign(state: Any) -> float:
        seen.append(type(state))
        return 0.0

    monkeypatch.setattr(
        engine_search, "heuristic_for", lambda state, name: Heuristic("x", "x", foreign)
    )
    game = games.get_game(BONES)
    result = ai.search(game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 3)))
    assert not walks and seen and all(issubclass(kind, FileState) for kind in seen)
    assert result.move in game.initial_state().legal_moves()


def test_a_walk_leaves_the_position_it_started_from_as_it_was() -> None:
    game = games.get_game(BONES)
    state = game.replay(game.parse_moves("3 1"))
    before = (state.inner.pile, state.inner.current_player, state.key())
    ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", 6)))
    assert (state.inner.pile, state.inner.current_player, state.key()) == before


def test_seeded_tie_break_still_varies_on_a_file_game() -> None:
    game = games.get_game(AIMA_NIM)  # no move ends the game at once: all nine tie at depth 2
    state = game.initial_state()
    chosen = {
        ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", 2), seed=s, all_values=False)
        ).move
        for s in range(24)
    }
    assert len(chosen) > 1
    again = ai.search(
        state, ai.SearchConfig(ai.DepthLimited("alphabeta", 2), seed=7, all_values=False)
    ).move
    assert (
        again
        == ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", 2), seed=7, all_values=False)
        ).move
    )


# ------------------------------------------------------------------ failures inside a walk
BROKEN = """
class Sticks:
    FAIL = ""

    def __init__(self, players=None):
        self.players = players
        self.pile = 9
        self.current_player = 1

    def possible_moves(self):
        if self.FAIL == "moves" and self.pile == 3:
            return []
        return ["1", "2"]

    def make_move(self, move):
        if self.FAIL == "make" and self.pile == 4:
            raise ValueError("four")
        self.pile -= int(move)

    def unmake_move(self, move):
        if self.FAIL == "unmake" and self.pile == 4:
            raise KeyError("back")
        self.pile += int(move)

    def is_over(self):
        if self.FAIL == "loop" and self.pile == 2:
            while True:
                pass
        return self.pile <= 0

    def scoring(self):
        if self.FAIL == "scoring" and self.pile == 1:
            return "five"
        return -100 if self.pile <= 0 else 0
"""


@pytest.mark.parametrize(
    ("fail", "method", "problem", "pile"),
    [
        ("make", "make_move()", "ValueError: four", 4),
        ("unmake", "unmake_move()", "KeyError: 'back'", 4),
        ("moves", "possible_moves()", "returned no moves, yet the game is not over", 3),
        ("scoring", "scoring()", "gave 'five', not a number", 1),
    ],
)
def test_a_failure_deep_in_a_walk_names_the_method_and_the_moves(
    tmp_path: Path, fail: str, method: str, problem: str, pile: int
) -> None:
    path = tmp_path / "sticks.py"
    path.write_text(BROKEN, encoding="utf-8")
    game = games.get_game(str(path))  # loads and probes cleanly: nothing fails yet
    game.source.FAIL = fail
    try:
        with pytest.raises(GameCodeError) as caught:
            ai.search(game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 6)))
    finally:
        game.source.FAIL = ""
    message = str(caught.value)
    assert message.startswith("sticks.py:Sticks: ") and "\n" not in message
    assert f"{method} failed after moves " in message and problem in message
    played = message.split("after moves ")[1].split(":")[0].split(", making move ")
    assert 9 - sum(int(m) for m in played[0].split()) == pile  # where it was made to fail
    assert (len(played) == 2) == (fail == "make")  # the move it was making, named


def test_a_method_that_loops_inside_a_walk_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "CALL_SECONDS", 0.5)
    guard.watch()
    path = tmp_path / "sticks.py"
    path.write_text(BROKEN, encoding="utf-8")
    game = games.get_game(str(path))
    game.source.FAIL = "loop"
    try:
        with pytest.raises(GameCodeError, match=r"is_over\(\) failed after moves .*took longer"):
            ai.search(game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 8)))
    finally:
        game.source.FAIL = ""
    assert guard.WATCH.active == 0  # the watch is free for the next call
    assert ai.search(
        game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", 4))
    ).move in ("1", "2")
