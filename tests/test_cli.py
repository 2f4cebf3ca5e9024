"""The terminal: one-line errors (exit 2), analyze's report, match files, tournament output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import main
from plyground import games

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """main.main(argv) with its exit status and captured output."""
    status = main.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


BAD_ARGUMENTS = [
    (["analyze", "--game", "chess"], "unknown game 'chess'; choose one of: tictactoe"),
    (["analyze", "--game", "connect4", "--algorithm", "negascout"], "invalid choice"),
    (["analyze", "--game", "connect4", "--heuristic", "magic"], "windows"),
    (["analyze", "--game", "connect4", "--depth", "0"], "out of range"),
    (["analyze", "--game", "connect4", "--depth", "99"], "out of range"),
    (["analyze", "--game", "connect4", "--depth", "deep"], "not a depth"),
    (["analyze", "--game", "connect4", "--moves", "4x53"], "4x53"),
    (["analyze", "--game", "connect4", "--moves", "4444444"], "move 7"),
    (["analyze", "--game", "tictactoe", "--moves", "55"], "move 2"),
    (["analyze", "--game", "pig", "--moves", "rr"], "move 2"),
    (["analyze", "--game", "pig", "--moves", "h"], "move 1"),
    (["analyze", "--game", "pig", "--algorithm", "alphabeta"], "expectiminimax"),
    (["analyze", "--game", "connect4", "--time", "-1"], "above 0"),
    (["analyze", "--game", "connect4", "--goal", "30"], "only to pig"),
    (["analyze", "--load", "/nonexistent/save.json"], "cannot read"),
    (["analyze"], "--game"),
    (["match", "--game", "connect4", "--p1", "grandmaster", "--p2", "easy"], "--p1"),
    (
        [
            "match",
            "--game",
            "connect4",
            "--p1",
            "hard",
            "--p2",
            "alphabeta:depth=4:heuristic=bogus",
        ],
        "heuristic",
    ),
    (["match", "--game", "connect4", "--p1", "hard", "--p2", "alphabeta:depth=four"], "depth"),
    (["match", "--game", "pig", "--p1", "alphabeta:depth=2", "--p2", "easy"], "expectiminimax"),
    (["match", "--game", "connect4", "--p1", "hard"], "--p2"),
    (["match", "--game", "connect4", "--p1", "hard", "--p2", "easy", "--games", "0"], "1 or more"),
    (
        ["match", "--game", "connect4", "--p1", "hard", "--p2", "easy", "--jobs", "x"],
        "whole number",
    ),
    (
        [
            "match",
            "--game",
            "connect4",
            "--p1",
            "hard",
            "--p2",
            "easy",
            "--record",
            "/nonexistent/dir/r.txt",
        ],
        "cannot write",
    ),
    (["tournament", "--game", "pig", "--players", "easy"], "at least two"),
    (["tournament", "--game", "pig", "--players", "easy,godlike"], "godlike"),
    (["tournament", "--game", "pig", "--players", "easy,hard", "--plot", "chart.jpg"], ".png"),
    (["screenshot", "--scene", "lobby", "--game", "connect4", "--out", "x.png"], "invalid choice"),
    (
        ["screenshot", "--scene", "play", "--game", "connect4", "--out", "x.png", "--size", "big"],
        "WIDTHxHEIGHT",
    ),
    (["bench", "--solver-file", "x.txt"], "--solver"),
    (["bench", "--sets", "L3_R1"], "--solver"),
    (["bench", "--solver", "--sets", "L9_R9"], "unknown set"),
    (["bench", "--solver", "--sets", "L1_R3"], "--time-limit"),
    (["bench", "--solver", "--solver-file", "nowhere.txt"], "no such file"),
    (["bench", "--reference", "solver"], "--solver"),
    (["bench", "--solver", "--reference", "/no/such/solver"], "no program"),
    (["bench", "--solver", "--reference", ""], "give a command"),
    (["bench", "--samples", "3"], "unrecognized"),
    (["bench", "--sample", "3"], "--policy"),
    (["bench", "--policy", "--presets", "grandmaster"], "unknown Pig preset"),
    (["bench", "--policy", "tictactoe"], "invalid choice"),
    (["frobnicate"], "invalid choice"),
]


@pytest.mark.parametrize(("argv", "expected"), BAD_ARGUMENTS)
def test_bad_arguments_give_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert expected in lines[0]


def test_a_bad_save_file_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases = {
        "not-json.json": "{oops",
        "wrong-format.json": json.dumps({"format": "something-else"}),
        "wrong-version.json": json.dumps(
            {"format": "plyground-save", "version": 9, "game": "connect4"}
        ),
        "wrong-game.json": json.dumps(
            {"format": "plyground-save", "version": 1, "game": "go", "moves": ""}
        ),
        "illegal.json": json.dumps(
            {
                "format": "plyground-save",
                "version": 1,
                "game": "connect4",
                "options": {},
                "moves": "1111111",
            }
        ),
    }
    messages = {}
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        status, _out, err = run(capsys, "analyze", "--load", str(path))
        assert status == 2, name
        assert len(err.strip().splitlines()) == 1, err
        messages[name] = err
    assert "not JSON" in messages["not-json.json"]
    assert "version" in messages["wrong-version.json"]
    assert "go" in messages["wrong-game.json"]
    assert "move 7" in messages["illegal.json"]
    assert "'1'" in messages["illegal.json"]


@pytest.mark.slow
def test_errors_have_no_traceback_in_a_real_process(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PLYGROUND_DEBUG", None)
    completed = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "analyze", "--game", "connect4", "--moves", "8"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert len(completed.stderr.strip().splitlines()) == 1
    assert "Traceback" not in completed.stderr
    assert "8" in completed.stderr


def test_help_lists_the_valid_names(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "match", "--help")
    assert status == 0
    assert "examples:" in out
    for name in (
        "tictactoe",
        "connect4",
        "pig",
        "easy",
        "expert",
        "random",
        "expectiminimax",
        "windows",
    ):
        assert name in out
    for command in ("analyze", "tournament", "bench", "screenshot"):
        status, out, _ = run(capsys, command, "--help")
        assert status == 0
        assert "examples:" in out


def test_help_shows_a_new_user_how_to_name_mcts(capsys: pytest.CaptureFixture[str]) -> None:
    """`match --help` listed each game's algorithms without mcts and its player keys without
    iterations: a reader of --help alone could not find Monte Carlo tree search."""
    status, out, _ = run(capsys, "match", "--help")
    assert status == 0
    assert "mcts:iterations=20000" in out and "mcts:time=1.5" in out
    assert "algorithms:  minimax, alphabeta, mcts" in out
    assert "algorithms:  expectiminimax, mcts" in out
    status, out, _ = run(capsys, "tournament", "--help")
    assert status == 0
    assert "mcts:iterations=2000,mcts:time=0.5" in out


def test_analyze_prints_every_move_value(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "analyze", "--game", "connect4", "--moves", "4453", "--depth", "4"
    )
    assert status == 0, err
    for column in "1234567":
        assert f"\n{column} " in out
    for label in (
        "Best move:",
        "Principal variation:",
        "Depth reached: 4",
        "Nodes",
        "cut-offs",
        "table hits",
        "nodes/s",
    ):
        assert label in out


def test_analyze_solves_tictactoe_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "--game", "tictactoe", "--moves", "1425", "--json")
    assert status == 0
    report = json.loads(out)
    assert report["moves_played"] == games.get_game("tictactoe").format_moves(
        games.get_game("tictactoe").parse_moves("1425")
    )
    values = {entry["move"]: entry for entry in report["moves"]}
    assert len(values) == 5
    assert values["3"]["meaning"] == "win in 1 for X"  # X completes the top row 1-2-3
    assert values["7"]["meaning"] == "loss in 2 for X"  # O then completes 4-5-6
    assert values["3"]["kind"] == "exact" and values["3"]["source"] in ("search", "solver")
    assert report["best_move"] == "3"
    assert report["exact"] is True
    assert report["nodes"] > 0


@pytest.mark.slow
def test_analyze_json_on_the_empty_tictactoe_board_is_a_draw(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, "analyze", "--game", "tictactoe", "--algorithm", "minimax", "--depth", "9", "--json"
    )
    assert status == 0
    assert json.loads(out)["value"] == 0
    status, out, _ = run(capsys, "analyze", "--game", "tictactoe", "--json")
    report = json.loads(out)
    assert report["value"] == 0
    assert all(entry["value"] == 0 for entry in report["moves"])


def test_analyze_a_pig_decision_and_a_die_roll(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "analyze", "--game", "pig", "--goal", "30", "--moves", "r4r6h", "--depth", "3"
    )
    assert status == 0, err
    assert "est." in out and "% to win" not in out  # a depth-3 estimate is not a chance
    assert "Best move:" in out
    status, out, err = run(
        capsys,
        "analyze",
        "--game",
        "pig",
        "--goal",
        "30",
        "--moves",
        "r4r6h r",
        "--depth",
        "3",
        "--json",
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["chance"] is True
    faces = {entry["move"]: entry for entry in report["moves"]}
    assert sorted(faces) == ["1", "2", "3", "4", "5", "6"]
    expectation = sum(entry["probability"] * entry["value"] for entry in report["moves"])
    assert report["value"] == pytest.approx(expectation)
    status, out, _ = run(
        capsys, "analyze", "--game", "pig", "--goal", "30", "--moves", "r4r6h r", "--depth", "3"
    )
    assert "die roll" in out
    assert "Expectation" in out


def test_analyze_names_the_side_to_move_once(capsys: pytest.CaptureFixture[str]) -> None:
    """A side named by its number ('Player 2') is not followed by '(player 2)'; a side with a
    name of its own is ('O (player 2)')."""
    _, out, _ = run(capsys, "analyze", "--game", "pig", "--moves", "r4r6h", "--depth", "2")
    assert "\nPlayer 2 to move." in out and "(player 2)" not in out
    _, out, _ = run(capsys, "analyze", "--game", "pig", "--moves", "r4r6h r", "--depth", "2")
    assert "die roll for Player 2." in out and "Expectation for Player 2:" in out
    _, out, _ = run(capsys, "analyze", "--game", "tictactoe", "--moves", "1")
    assert "\nO (player 2) to move." in out


def test_analyze_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "--game", "connect4", "--moves", "1212121")
    assert status == 0
    assert "The game is over: Red (player 1) won." in out


def test_analyze_loads_a_save_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = {
        "format": "plyground-save",
        "version": 1,
        "game": "pig",
        "options": {"goal": 20},
        "players": [],
        "seed": 0,
        "moves": "r5r5h",
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(save))
    status, out, err = run(capsys, "analyze", "--load", str(path), "--depth", "2", "--json")
    assert status == 0, err
    report = json.loads(out)
    assert report["game"] == "pig"
    assert report["to_move"] == 2


def test_match_record_replays_and_json_agrees(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "games.txt"
    summary = tmp_path / "match.json"
    status, out, err = run(
        capsys,
        "match",
        "--game",
        "pig",
        "--goal",
        "25",
        "--p1",
        "medium",
        "--p2",
        "random",
        "--games",
        "6",
        "--seed",
        "3",
        "--swap",
        "--record",
        str(record),
        "--json",
        str(summary),
    )
    assert status == 0, err
    assert "score" in out and "95% CI" in out
    data = json.loads(summary.read_text())
    lines = record.read_text().splitlines()
    assert len(lines) == 6 == data["games"]
    game = games.get_game("pig", goal=25)
    for line, played in zip(lines, data["games_played"], strict=True):
        final = game.replay(game.parse_moves(line))
        assert final.is_terminal()
        seat_winner = final.winner()
        first = 0 if played["first"] == "A" else 1
        assert played["winner"] == "AB"[seat_winner ^ first]
    a, b = data["players"]
    assert a["wins"] == b["losses"] and a["draws"] == b["draws"]
    assert a["games_first"] == a["games_second"] == 3
    assert 0 <= a["score_ci95"][0] <= a["score"] <= a["score_ci95"][1] <= 1


@pytest.mark.slow
def test_match_output_is_the_same_with_two_jobs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    outputs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"record-{jobs}.txt"
        status, _, err = run(
            capsys,
            "match",
            "--game",
            "connect4",
            "--p1",
            "easy",
            "--p2",
            "alphabeta:depth=2",
            "--games",
            "6",
            "--seed",
            "8",
            "--swap",
            "--jobs",
            jobs,
            "--record",
            str(path),
            "--quiet",
        )
        assert status == 0, err
        outputs.append(path.read_text())
    assert outputs[0] == outputs[1]


def test_match_verbose_reports_memory(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(
        capsys,
        "match",
        "--game",
        "tictactoe",
        "--p1",
        "easy",
        "--p2",
        "random",
        "--games",
        "3",
        "--verbose",
    )
    assert status == 0
    assert "memory at start" in err and "memory at end" in err


@pytest.mark.slow
def test_tournament_prints_a_ranking_and_draws_a_chart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    chart = tmp_path / "elo.png"
    summary = tmp_path / "tournament.json"
    status, out, err = run(
        capsys,
        "tournament",
        "--game",
        "tictactoe",
        "--players",
        "random,easy,expert",
        "--games",
        "4",
        "--seed",
        "1",
        "--plot",
        str(chart),
        "--json",
        str(summary),
        "--quiet",
    )
    assert status == 0, err
    assert "Elo" in out and "mean of the field = 1500" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(summary.read_text())
    assert data["ranking"][0]["player"] == "expert"
    assert sum(entry["elo"] for entry in data["ranking"]) / 3 == pytest.approx(1500)


@pytest.mark.slow
def test_bench_prints_tables_and_writes_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.ai.bench import searches as bench

    monkeypatch.setattr(
        bench, "POSITIONS", (bench.BenchPosition("connect4", "after 4453", "4453"),)
    )
    monkeypatch.setattr(bench, "QUICK_DECISIONS", 2)
    output = tmp_path / "bench.json"
    status, out, err = run(
        capsys,
        "bench",
        "--quick",
        "--quiet",
        "--json",
        str(output),
    )
    assert status == 0, err
    assert "Machine:" in out
    assert "of minimax" in out
    assert "AI-vs-AI games" in out
    data = json.loads(output.read_text())
    assert set(data) >= {"machine", "searches", "games"}
    assert data["searches"][0]["algorithms"]["alphabeta"][0]["depth"] == 1
    assert {row["preset"] for row in data["games"]} == {"Easy", "Medium", "Hard", "Expert"}


@pytest.mark.slow
def test_bench_solver_runs_only_the_solver(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "solver.json"
    status, out, err = run(
        capsys,
        "bench",
        "--solver",
        "--sets",
        "L3_R1,l2_r1",
        "--limit",
        "3",
        "--quiet",
        "--json",
        str(output),
    )
    assert status == 0, err
    assert "of minimax" not in out and "AI-vs-AI" not in out
    assert "Pons nodes" in out
    data = json.loads(output.read_text())
    assert [report["set"] for report in data["solver"]] == ["L3_R1", "L2_R1"]
    for report in data["solver"]:
        assert [row["solved"] for row in report["rows"]] == [3] * len(report["rows"])
        assert len(report["rows"]) in (2, 4)  # score, move on each engine (compiled, python)
        assert all(row["all_right"] for row in report["rows"])


def test_bench_policy_on_a_small_sample(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "bench", "--policy", "pig", "--presets", "expert", "--sample", "50", "--quiet"
    )
    assert status == 0, err
    assert "Expert" in out and "100.00%" in out and "sample of 50" in out


def test_no_arguments_open_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from plyground.gui import app

    opened: list[bool] = []
    monkeypatch.setattr(app, "run", lambda: opened.append(True))
    assert main.main([]) == 0
    assert opened == [True]


def test_analyze_and_hint_name_the_same_best_move_where_the_book_has_no_distance(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "analyze", "--game", "connect4", "--moves", "4453", "--json")
    assert code == 0
    analysis = json.loads(out)
    code, out, _ = run(capsys, "hint", "--game", "connect4", "--moves", "4453", "--json")
    hint = json.loads(out)
    assert analysis["best_move"] == hint["move"]
    assert analysis["advice"] == "solver"
    moves = [entry["move"] for entry in analysis["moves"]]
    assert moves[:3] == sorted(moves[:3])  # 3, 6 and 7 lose in 36, best first
    assert set(moves[:3]) == {"3", "6", "7"} and moves[4] == "5"  # 5 loses in 32
    assert all("distance unknown" not in entry["meaning"] for entry in analysis["moves"])
