"""The terminal's rough edges a new user hit: each stays fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plyground.ai.players.tournament import player_labels
from plyground.cli import run


def test_a_player_listed_twice_gets_two_names() -> None:
    assert player_labels(("hard", "easy", "hard")) == ("hard #1", "easy", "hard #2")
    assert player_labels(("easy", "medium")) == ("easy", "medium")


@pytest.mark.slow
def test_a_tournament_with_a_player_twice_tells_them_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "t.json"
    argv = ["tournament", "--game", "tictactoe", "--players", "hard,hard,easy"]
    status = run([*argv, "--games", "2", "--seed", "1", "--quiet", "--json", str(out_json)])
    assert status == 0
    out = capsys.readouterr().out
    assert "1. hard #1" in out and "2. hard #2" in out
    data = json.loads(out_json.read_text())
    assert data["labels"] == ["hard #1", "hard #2", "easy"]
    assert {row["player"] for row in data["ranking"]} == {"hard #1", "hard #2", "easy"}


def test_the_menu_screenshot_needs_no_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "menu.png"
    assert run(["screenshot", "--scene", "menu", "--out", str(target)]) == 0
    assert target.stat().st_size > 0
    assert run(["screenshot", "--scene", "play", "--out", str(target)]) == 2
    assert "say which with --game" in capsys.readouterr().err
