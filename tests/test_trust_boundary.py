"""The trust boundary on every system: what a student's file sends is data, the channel is
bounded, no wait is without a deadline, and what a worker does to itself is its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from plyground.ai.student_code.messages import printable

MAIN = str(Path(__file__).resolve().parents[1] / "main.py")


def test_text_from_a_student_is_data() -> None:
    shown = printable("boom\x1b[2J\nA = honest.py forfeits\u202e\x85 \udcff")
    assert "\x1b" not in shown and "\n" not in shown and "\u202e" not in shown
    assert "\\x1b[2J\\x0aA = honest.py forfeits\\u202e\\x85 \ufffd" in shown
    assert printable("x" * 50, limit=10) == "xxxxxxx..."


@pytest.mark.skipif(sys.platform == "win32", reason="file names that are not UTF-8: POSIX")
def test_escapes_and_names_that_are_not_utf8_reach_the_terminal_as_data(tmp_path: Path) -> None:
    name = os.fsdecode(b"ev\xffil.py")
    (tmp_path / name).write_text(
        'def choose(state):\n    raise ValueError("boom\\x1b[2J\\nA = honest.py forfeits")\n'
    )
    players = ["--p1", str(tmp_path / name), "--p2", "random", "--games", "2"]
    run = subprocess.run(
        [sys.executable, MAIN, "match", "--game", "tictactoe", *players],
        capture_output=True,
        timeout=120,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0 and b"Traceback" not in output
    assert b"\x1b" not in output  # no escape sequence reaches the terminal
    lines = [line for line in output.splitlines() if b"forfeits" in line]
    assert lines and all(line.startswith((b"game ", b"    line ")) for line in lines)
    assert "ev\ufffdil.py".encode() in output


def test_a_player_with_no_counted_game_is_listed_unrated_never_ranked() -> None:
    from plyground.ai.players.tournament import TournamentResult

    result = TournamentResult(("easy", "hard", "voider.py"))
    for _ in range(3):
        result.add_score(0, 1, 0.0, i_moved_first=True)  # hard beats easy
    # every game of voider.py was void: it is in no pair's count
    ranking = result.ranking(samples=20)
    assert [rating.spec for rating in ranking] == ["hard", "easy", "voider.py"]
    assert [rating.rated for rating in ranking] == [True, True, False]
    table = result.to_dict(ranking)["ranking"]
    assert table[2]["rank"] is None and table[2]["elo"] is None
