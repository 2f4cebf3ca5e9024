"""Positions that repeat: while solving, a position that comes back within a line is a draw
there unless the game says what it is worth (`repetition_value`); a line longer than the
search follows stops at an estimate, never at an error (tests/game_files/shuttle.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import main
from plyground import ai, games
from plyground.ai.engine import pruning_search
from plyground.games.base import state_capabilities
from plyground.games.from_file import GameCodeError

SHUTTLE = str(Path(__file__).resolve().parent / "game_files" / "shuttle.py")


def test_a_line_that_comes_back_is_a_draw(capsys: pytest.CaptureFixture[str]) -> None:
    state = games.get_game(f"{SHUTTLE}:Shuttle").initial_state()
    solved = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert solved.values == {"left": -0.998, "right": 0.0}
    assert all(value.is_exact for value in solved.move_values.values())
    assert main.main(["hint", "--game", f"{SHUTTLE}:Shuttle"]) == 0
    assert "Moves: right draw · left loss in 2 for South" in capsys.readouterr().out


def test_a_game_says_what_a_repetition_is_worth() -> None:
    state = games.get_game(f"{SHUTTLE}:StrictShuttle").initial_state()
    assert state_capabilities(state).repetition_value is not None
    for all_values in (True, False):
        config = ai.SearchConfig(ai.DepthLimited("alphabeta", None), all_values=all_values)
        assert ai.search(state, config).value == -0.998  # back at the start: South to move loses


def test_a_repetition_value_that_is_no_result_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text(
        Path(SHUTTLE).read_text().replace("return -1", "return 'lost'"), encoding="utf-8"
    )
    state = games.get_game(f"{broken}:StrictShuttle").initial_state()
    with pytest.raises(GameCodeError, match=r"repetition_value\(\).*not 1, 0 or -1"):
        ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None)))


def test_a_line_longer_than_the_search_follows_is_an_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With lines cut one ply below North's move, the solve cannot see where "left" leads:
    its value rests on estimates and says so."""
    monkeypatch.setattr(pruning_search, "MAX_PLY", 1)
    state = games.get_game(f"{SHUTTLE}:Shuttle").initial_state().play("right")
    solved = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert not solved.move_values["left"].is_exact
    assert solved.move_values["right"].is_exact  # North wins at once
