"""Players from a user's file: agents, Kaggle agents and heuristics, isolated; forfeits."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from plyground import games
from plyground.ai.engine.search import DepthLimited, SearchConfig, SearchError, search
from plyground.ai.players.match import MatchSetup, play_game, run_match
from plyground.ai.players.players import AgentPlayer
from plyground.ai.players.presets import parse_player_spec
from plyground.ai.student_code.agents import AgentSpec, agent_player, agent_spec, split_spec

FIRST_LEGAL = "def choose(state):\n    return state.legal_moves()[0]\n"
KAGGLE_MIDDLE = """
import random

def helper(board):
    return [c for c in range(len(board)) if board[c] == 0]

def my_agent(observation, configuration):
    if configuration.inarow == 3:  # tic-tac-toe: any empty cell
        free = helper(observation.board)
    else:  # connect-four: a column with room at the top
        free = [c for c in range(configuration.columns) if observation.board[c] == 0]
    assert observation.mark in (1, 2) and observation["mark"] == observation.mark
    assert len(observation.board) == configuration.rows * configuration.columns
    return free[len(free) // 2]
"""
CENTRE_EVAL = """
def evaluate(state):
    return 0.1 if state.ply % 2 else -0.1
"""


def write(folder: Path, name: str, text: str) -> str:
    """A user's file in `folder`; its path as a spec gives it."""
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my_agent.py", AgentSpec("my_agent.py", None, False)),
        ("my_agent.py:pick", AgentSpec("my_agent.py", "pick", False)),
        ("kaggle:c.py", AgentSpec("c.py", None, True)),
        (r"C:\work\my_agent.py", AgentSpec(r"C:\work\my_agent.py", None, False)),
        (r"C:\work\my_agent.py:pick", AgentSpec(r"C:\work\my_agent.py", "pick", False)),
        (r"kaggle:C:\work\c.py", AgentSpec(r"C:\work\c.py", None, True)),
        ("hard", None),
        ("alphabeta:depth=4:heuristic=my_eval.py", None),
    ],
)
def test_agent_specs_parse_windows_paths_too(text: str, expected: AgentSpec | None) -> None:
    assert agent_spec(text) == expected


def test_a_drive_letter_stays_with_its_path() -> None:
    assert split_spec(r"alphabeta:depth=4:heuristic=C:\work\e.py") == [
        "alphabeta",
        "depth=4",
        r"heuristic=C:\work\e.py",
    ]
    assert split_spec("kaggle:D:/x/c.py") == ["kaggle", "D:/x/c.py"]


def test_bad_files_are_refused_in_one_line_without_running_them(tmp_path: Path) -> None:
    game = games.get_game("tictactoe")
    ran = tmp_path / "ran"
    syntax = write(tmp_path, "broken.py", "def choose(state:\n")
    nothing = write(tmp_path, "empty.py", f"open({str(ran)!r}, 'w')\n")
    for spec, message in (
        (str(tmp_path / "missing.py"), "no such file"),
        (syntax, "syntax error on line 1"),
        (nothing, "no function choose()"),
        (f"{nothing}:other", "no function other()"),
        (f"kaggle:{nothing}", "defines no function"),
        (f"alphabeta:heuristic={nothing}", "no function evaluate()"),
    ):
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            parse_player_spec("tictactoe", spec, game)
    assert not ran.exists()
    kaggle = write(tmp_path, "k.py", KAGGLE_MIDDLE)
    with pytest.raises(ValueError, match="no Kaggle format"):
        AgentPlayer(f"kaggle:{kaggle}").validate(games.get_game("pig"))


def test_kaggle_observation_hooks() -> None:
    connect4 = games.get_game("connect4")
    state = connect4.replay(connect4.parse_moves("4453"))
    seen = state.kaggle_observation()
    assert seen["mark"] == 1
    assert seen["board"][35:42] == [0, 0, 2, 1, 1, 0, 0]  # the bottom row is the last
    assert seen["board"][28:35] == [0, 0, 0, 2, 0, 0, 0]
    assert sum(seen["board"][:28]) == 0
    assert connect4.kaggle_configuration()["inarow"] == 4
    tictactoe = games.get_game("tictactoe")
    state = tictactoe.replay(tictactoe.parse_moves("519"))
    assert state.kaggle_observation() == {"board": [2, 0, 0, 0, 1, 0, 0, 0, 1], "mark": 2}


@pytest.mark.slow
def test_a_file_agent_and_a_kaggle_agent_play_full_games(tmp_path: Path) -> None:
    agent = write(tmp_path, "first.py", FIRST_LEGAL)
    kaggle = write(tmp_path, "middle.py", KAGGLE_MIDDLE)
    for name in ("connect4", "tictactoe"):
        setup = MatchSetup(name, (), (agent, f"kaggle:{kaggle}"), seed=1, swap=True)
        for index in range(2):
            record = play_game(setup, index)
            assert record.forfeit == ""
            assert sum(record.decisions) == len(games.get_game(name).parse_moves(record.moves))
            final = games.get_game(name).replay(games.get_game(name).parse_moves(record.moves))
            assert final.is_terminal()


@pytest.mark.slow
def test_a_file_heuristic_plays_in_a_worker_and_never_here(tmp_path: Path) -> None:
    heuristic = write(tmp_path, "my_eval.py", CENTRE_EVAL)
    setup = MatchSetup("connect4", (), (f"alphabeta:depth=2:heuristic={heuristic}", "easy"), seed=0)
    record = play_game(setup, 0)
    assert record.forfeit == "" and record.nodes[0] > 0
    state = games.get_game("connect4").initial_state()
    with pytest.raises(SearchError, match="runs only in a worker process"):
        search(state, SearchConfig(DepthLimited(depth=2, heuristic=heuristic)))


def test_a_heuristic_file_in_use_is_its_own_threads_only(tmp_path: Path) -> None:
    """Two runs in two threads of one process (the explorer's new run while the one it gave
    up still ends) never evaluate through each other's worker."""
    import threading

    from plyground.ai.student_code.heuristics import (
        IsolatedHeuristic,
        evaluating_in_worker,
        file_heuristic,
    )

    heuristic = write(tmp_path, "my_eval.py", CENTRE_EVAL)
    given_up = IsolatedHeuristic(heuristic)  # never started: nothing to close
    seen: list[object] = []
    inside, done = threading.Event(), threading.Event()

    def other_run() -> None:
        with evaluating_in_worker(given_up):
            seen.append(file_heuristic(heuristic))
            inside.set()
            done.wait(10)

    thread = threading.Thread(target=other_run)
    thread.start()
    try:
        assert inside.wait(10) and seen == [given_up.heuristic]
        with pytest.raises(ValueError, match="runs only in a worker process"):
            file_heuristic(heuristic)  # this thread has none in use
        mine = IsolatedHeuristic(heuristic)
        with evaluating_in_worker(mine):
            assert file_heuristic(heuristic) is mine.heuristic
    finally:
        done.set()
        thread.join(10)


MISBEHAVING = {
    "fails to load": (
        "raise RuntimeError('boom')\ndef choose(state):\n    return 0\n",
        "raised RuntimeError: boom",
    ),
    "raises": ("def choose(state):\n    return [][1]\n", "raised IndexError"),
    "loops": ("def choose(state):\n    while True:\n        pass\n", "took longer than 1 s"),
    "garbage": ("def choose(state):\n    return 'e4'\n", "returned 'e4', not a legal move"),
    "prints": (
        "import os\ndef choose(state):\n    for _ in range(50_000):\n        print('x' * 80)\n"
        "        os.write(1, b'y' * 80)\n    return -1\n",
        "returned -1, not a legal move",
    ),
    "allocates": (
        "def choose(state):\n    blocks = []\n    while True:\n"
        "        blocks.append(bytearray(10_000_000))\n",
        "(out of memory|took longer|killed)",
    ),
    "exits": ("import os\ndef choose(state):\n    os._exit(3)\n", "exit code 3"),
    "kills itself": (
        "import os, signal\ndef choose(state):\n    os.kill(os.getpid(), signal.SIGKILL)\n",
        "killed",
    ),
    "heuristic out of bounds": ("def evaluate(state):\n    return 5\n", "must lie in"),
    "heuristic not a number": ("def evaluate(state):\n    return 'big'\n", "not a number"),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(MISBEHAVING))
def test_misbehaving_code_loses_by_forfeit_and_the_match_goes_on(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.ai.student_code import worker as user_code
    from plyground.ai.student_code.sandbox import uses_bubblewrap
    from plyground.games import tictactoe

    if kind == "kills itself" and not uses_bubblewrap():
        pytest.skip(
            "without a sandbox a worker's own kill cannot be told from one sent from outside, "
            "so the game is void, not forfeited (tests/test_hostile_students.py)"
        )
    # One second a move where the point is the limit; elsewhere room for a loaded machine.
    monkeypatch.setattr(tictactoe.Game, "move_time_limit", 1.0 if kind == "loops" else 20.0)
    monkeypatch.setattr(user_code, "MEMORY_CAP", 300 << 20)
    text, reason = MISBEHAVING[kind]
    path = write(tmp_path, "student.py", text)
    spec = f"alphabeta:depth=2:heuristic={path}" if "heuristic" in kind else path
    seen = []
    tally = run_match(
        MatchSetup("tictactoe", (), (spec, "random"), seed=3, swap=True),
        2,
        on_game=lambda record, _: seen.append(record),
    )
    assert tally.games == 2 and tally.players[0].losses == 2
    for record in seen:
        assert record.forfeiter == 0
        assert record.forfeit.startswith("student.py: ")
        assert re.search(reason, record.forfeit), record.forfeit
        assert not any("plyground" in line for line in record.forfeit_details)
    if kind == "raises":
        assert seen[0].forfeit_details == ("line 2, in choose: return [][1]",)


@pytest.mark.slow
def test_the_agent_in_the_api_docs_plays_every_game(tmp_path: Path) -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "API.md").read_text(encoding="utf-8")
    code = re.search(r'```python\n("""my_agent\.py.*?)```', docs, re.S)
    assert code is not None
    agent = write(tmp_path, "my_agent.py", code.group(1))
    for name in ("tictactoe", "connect4", "pig"):
        options = (("goal", 20),) if name == "pig" else ()
        record = play_game(MatchSetup(name, options, (agent, "random"), seed=2), 0)
        assert record.forfeit == ""
        final = games.get_game(name, **dict(options)).replay(
            games.get_game(name, **dict(options)).parse_moves(record.moves)
        )
        assert final.is_terminal()
    # X (cells 0, 1) takes the win at cell 2; O (cells 4, 5) would win at cell 3 otherwise.
    game = games.get_game("tictactoe")
    player = agent_player(AgentSpec(agent, None, False), game)
    try:
        assert player.choose(game.replay(game.parse_moves("1526"))) == 2
        assert player.choose(game.replay(game.parse_moves("15269"))) == 3  # O wins at 3 first
    finally:
        player.close()


@pytest.mark.slow
def test_analyze_and_trace_take_a_heuristic_file_and_refuse_a_bad_one(tmp_path: Path) -> None:
    import subprocess
    import sys

    main = str(Path(__file__).resolve().parents[1] / "main.py")
    good = write(tmp_path, "my_eval.py", CENTRE_EVAL)
    bad = write(tmp_path, "big.py", "def evaluate(state):\n    return 7\n")
    base = [sys.executable, main, "analyze", "--game", "connect4", "--moves", "4453"]
    run = subprocess.run(
        [*base, "--depth", "2", "--heuristic", good], capture_output=True, text=True
    )
    assert run.returncode == 0 and "Best move" in run.stdout
    run = subprocess.run(
        [*base, "--depth", "2", "--heuristic", bad], capture_output=True, text=True
    )
    assert run.returncode == 2 and "big.py: evaluate() returned 7" in run.stderr
    assert "Traceback" not in run.stderr
    trace = [sys.executable, main, "trace", "--game", "tictactoe", "--moves", "5", "--depth", "1"]
    run = subprocess.run([*trace, "--heuristic", good], capture_output=True, text=True)
    assert run.returncode == 0 and "my_eval.py" in run.stdout
