"""The terminal side of saving and stopping: `analyze --load` reads the window's save files
through the same loader, every bad input is one line and exit status 2, and Ctrl+C in
`match` prints the partial results, exits 130 and leaves no process behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import main
from plyground.gui.storage import savefile

ROOT = Path(__file__).resolve().parents[2]


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_analyze_loads_a_window_save(tmp_path, capsys):
    path = tmp_path / "game.json"
    savefile.save_game(path, "connect4", {}, [{"kind": "human"}] * 2, 0, "4453")
    status, out, _ = run(capsys, "analyze", "--load", str(path), "--depth", "3", "--json")
    assert status == 0
    report = json.loads(out)
    assert report["moves_played"] == "4453" and report["ply"] == 4
    pig = tmp_path / "pig.json"
    savefile.save_game(pig, "pig", {"goal": 20}, [{"kind": "human"}] * 2, 0, "r4r6h r1")
    status, out, _ = run(capsys, "analyze", "--load", str(pig), "--depth", "2", "--json")
    assert status == 0 and "Pig to 20" in json.loads(out)["position"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{oops", "not JSON"),
        ("", "empty"),
        ('{"format": "plyground-save", "version": 1, "game": "chess"}', "unknown game 'chess'"),
        (
            '{"format": "plyground-save", "version": 1, "game": "connect4", "moves": "4444444"}',
            "move 7: illegal move '4'",
        ),
        (
            '{"format": "plyground-save", "version": 1, "game": "pig", "moves": "r4rh"}',
            "move 4: illegal move 'h'",
        ),
    ],
)
def test_analyze_refuses_bad_save_files_in_one_line(tmp_path, capsys, content, expected):
    path = tmp_path / "bad.json"
    path.write_text(content)
    status, out, err = run(capsys, "analyze", "--load", str(path))
    assert status == 2 and out == ""
    assert expected in err and str(path) in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_analyze_load_missing_folder_and_conflicts(tmp_path, capsys):
    status, _, err = run(capsys, "analyze", "--load", str(tmp_path / "none.json"))
    assert status == 2 and "cannot read: No such file" in err
    status, _, err = run(capsys, "analyze", "--load", str(tmp_path))
    assert status == 2 and "folder" in err
    path = tmp_path / "g.json"
    savefile.save_game(path, "pig", {"goal": 20}, [{"kind": "human"}] * 2, 0, "r4")
    status, _, err = run(capsys, "analyze", "--load", str(path), "--moves", "r")
    assert status == 2 and "cannot be combined" in err
    status, _, err = run(capsys, "analyze", "--load", str(path), "--game", "connect4")
    assert status == 2 and "does not match" in err
    status, _, err = run(capsys, "analyze", "--load", str(path), "--goal", "30")
    assert status == 2 and "goal 20" in err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["analyze", "--game", "chess"], "unknown game 'chess'"),
        (["analyze", "--game", "connect4", "--algorithm", "best"], "invalid choice: 'best'"),
        (["analyze", "--game", "connect4", "--heuristic", "magic"], "choose one of"),
        (["analyze", "--game", "connect4", "--depth", "99"], "out of range"),
        (["analyze", "--game", "connect4", "--moves", "4x"], "move 2: illegal move 'x'"),
        (["analyze", "--game", "pig", "--moves", "rh"], "move 2: illegal move 'h'"),
        (["match", "--game", "connect4", "--p1", "godlike", "--p2", "easy"], "unknown player"),
        (["match", "--game", "pig", "--p1", "alphabeta:depth=2", "--p2", "easy"], "cannot play"),
        (["tournament", "--game", "pig", "--players", "easy"], "at least two"),
        (["screenshot", "--scene", "x", "--game", "pig", "--out", "a.png"], "invalid choice"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(capsys, args, expected):
    status, out, err = run(capsys, *args)
    assert status == 2 and out == ""
    assert expected in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.slow
def test_screenshot_passes_the_pig_goal_and_draws_the_new_scenes(tmp_path, capsys):
    for scene in ("resume", "series", "analysis"):
        out = tmp_path / f"{scene}.png"
        status, _, err = run(
            capsys,
            "screenshot",
            "--scene",
            scene,
            "--game",
            "pig",
            "--goal",
            "20",
            "--moves",
            "r4r6h",
            "--out",
            str(out),
            "--size",
            "900x650",
        )
        assert status == 0, err
        assert out.stat().st_size > 10_000


MATCH = ["--game", "connect4", "--p1", "medium", "--p2", "medium", "--games", "5000"]
MATCH += ["--jobs", "2", "--seed", "1"]


def _group(leader: int) -> list[str]:
    """The process ids in `leader`'s process group."""
    found = subprocess.run(["pgrep", "-g", str(leader)], capture_output=True, text=True)
    return found.stdout.split()


@pytest.mark.slow
def test_ctrl_c_in_match_prints_the_partial_results_and_exits_130(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "main.py", "match", *MATCH],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env=dict(os.environ, PLYGROUND_CONFIG_DIR=str(tmp_path)),
    )
    assert process.stderr is not None
    assert process.stderr.readline().endswith("Ctrl+C stops them\n")  # the match has begun
    deadline = time.time() + 30
    while len(_group(process.pid)) < 3 and time.time() < deadline:
        time.sleep(0.05)  # until both worker processes are up beside the match's own
    assert len(_group(process.pid)) >= 3, "the workers did not start"
    os.killpg(process.pid, signal.SIGINT)  # Ctrl+C reaches the whole process group
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted after" in err
    assert "(interrupted, of 5000)" in out and "A scores" in out
    deadline = time.time() + 3
    left = ["?"]
    while left and time.time() < deadline:
        left = subprocess.run(
            ["pgrep", "-g", str(process.pid)], capture_output=True, text=True
        ).stdout.split()
        time.sleep(0.1)
    assert left == [], "no worker process left behind"
