"""`plyground review`: the table, the JSON, and one-line errors."""

from __future__ import annotations

import json

import pytest

import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_review_prints_each_decision_with_its_value_kind_and_judgement(capsys):
    status, out, err = run(capsys, "review", "--game", "tictactoe", "--moves", "15263")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Tic-Tac-Toe: 15263" or lines[0].endswith(": 15263")
    row = next(line for line in lines if line.lstrip().startswith("4 "))
    assert "6" in row and "loss in" in row and "exact, solver" in row
    assert "✗ gave a draw away" in row and " 3     ✗" in row  # the best move: 3
    assert lines[-1] == "1 of 5 moves lost value: 1 gave a draw away. X won."


def test_review_json_has_positions_and_decisions(capsys):
    status, out, _ = run(
        capsys,
        "review",
        "--game",
        "pig",
        "--goal",
        "30",
        "--moves",
        "r4r6r5h r3h r1 r6r6r6r4r2 r6r6h",
        "--json",
    )
    assert status == 0
    data = json.loads(out)
    marks = [d["mark"] for d in data["decisions"] if d["mark"]]
    assert marks == ["?!", "??", "✗"]
    given_away = data["decisions"][13]
    assert given_away["judgement"] == "gave a win away" and given_away["best_move"] == "h"
    assert given_away["played"]["kind"] == "exact" and given_away["played"]["source"] == "table"
    assert data["positions"][0]["first_player"]["kind"] == "exact"
    assert data["positions"][0]["lines"][0]["moves"] == ["r"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["review"], "needs --game"),
        (["review", "--game", "tictactoe", "--moves", "15x"], "move 3"),
        (["review", "--game", "tictactoe", "--seconds", "0"], "above 0"),
        (["review", "--load", "/nonexistent/game.json"], "--load"),
    ],
)
def test_review_bad_input_is_one_line(capsys, argv, expected):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert expected in err and len(err.strip().splitlines()) == 1


def test_screenshot_draws_a_reviewed_game(capsys, tmp_path):
    out = tmp_path / "review.png"
    status, text, err = run(
        capsys,
        "screenshot",
        "--scene",
        "review",
        "--game",
        "tictactoe",
        "--moves",
        "15263",
        "--out",
        str(out),
    )
    assert status == 0 and err == "" and "review scene" in text
    assert out.stat().st_size > 10_000


def test_review_reads_a_save_file(capsys, tmp_path):
    from plyground.gui.storage import savefile

    path = tmp_path / "game.json"
    players = [{"kind": "human"}, {"kind": "human"}]
    savefile.save_game(path, "tictactoe", {}, players, 0, "15263")
    status, out, _ = run(capsys, "review", "--load", str(path))
    assert status == 0 and "gave a draw away" in out
    status, _, err = run(capsys, "review", "--load", str(path), "--moves", "15")
    assert status == 2 and "cannot be combined" in err


def test_the_last_line_says_what_the_review_found(capsys):
    """One plain sentence: how many moves lost value and how, then the result (or the value
    where the moves stop)."""
    _, out, _ = run(capsys, "review", "--game", "pig", "--goal", "30", "--moves", "r4r6h r3r2r5h")
    assert out.splitlines()[-1] == (
        "2 of 7 moves lost value: 1 blunder, 1 mistake. After move 7: for Player 1, 61.6% to "
        "win (exact, table)."
    )
    _, out, _ = run(capsys, "review", "--game", "tictactoe")
    assert out.splitlines()[-1] == "No move to judge. The start: for X, draw (exact, solver)."
