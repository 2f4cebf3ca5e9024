"""The trust boundary around students' code: plain-data messages, the sandbox, Kaggle's
calling convention and overage bank, and a grader that grades what the search asked for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from plyground import games
from plyground.ai.student_code import sandbox
from plyground.ai.student_code.agents import AgentSpec, agent_player
from plyground.ai.student_code.grader import cases, grade
from plyground.ai.student_code.messages import decode_state, encode_state
from plyground.ai.student_code.worker import MEMORY_CAP, Limits, StudentWorker, UserCodeError
from plyground.games import tictactoe
from tests.exercise_solutions import MINIMAX

MAIN = str(Path(__file__).resolve().parents[1] / "main.py")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "options", "moves"),
    [("tictactoe", {}, "519"), ("connect4", {}, "4453"), ("pig", {"goal": 30}, "r4r6h r1")],
)
def test_a_state_travels_as_plain_data_and_comes_back_equal(
    name: str, options: dict[str, int], moves: str
) -> None:
    game = games.get_game(name, **options)
    state = game.replay(game.parse_moves(moves))
    data = encode_state(state)
    assert data["game"] == name and data["options"] == dict(game.option_values())
    back = decode_state(data)
    assert back == state and back.key() == state.key() and back.to_move == state.to_move


def test_sandbox_required_without_bubblewrap_is_refused_in_one_line(tmp_path: Path) -> None:
    players = ["--p1", "random", "--p2", "random"]
    run = subprocess.run(
        [sys.executable, MAIN, "match", "--game", "tictactoe", *players, "--sandbox", "required"],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": str(tmp_path)},  # no bwrap to be found
    )
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0
    assert "--sandbox required: no working bubblewrap here" in run.stderr


INSIDE = """
import os, resource, socket

def choose(state):
    problems = []
    if os.getppid() == PARENT or os.path.exists(f"/proc/{PARENT}"):
        problems.append("sees the app")
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=1).close()
        problems.append("has a network")
    except OSError:
        pass
    try:
        open(__file__, "a").close()
        problems.append("writes files")
    except OSError:
        pass
    try:  # inside, the folder's path lies in the scratch /tmp: the real folder is untouched
        open(os.path.join(FOLDER, "written.txt"), "w").close()
    except OSError:
        pass
    with open("/tmp/scratch.txt", "w") as scratch:
        scratch.write("fine")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if soft != hard or hard > CAP:
        problems.append(f"memory cap {soft} {hard}")
    if problems:
        raise RuntimeError(", ".join(problems))
    return state.legal_moves()[0]
"""


@pytest.mark.slow
def test_inside_bubblewrap_the_code_sees_no_app_no_network_and_cannot_write(
    tmp_path: Path,
) -> None:
    if sandbox.bubblewrap() is None:
        pytest.skip("bubblewrap (bwrap) is not installed")
    text = f"PARENT = {os.getpid()}\nFOLDER = {str(tmp_path)!r}\nCAP = {MEMORY_CAP}\n" + INSIDE
    path = write(tmp_path, "inside.py", text)
    game = games.get_game("tictactoe")
    player = agent_player(AgentSpec(str(path), None, False), game)
    try:
        assert player.choose(game.initial_state()) == game.initial_state().legal_moves()[0]
        assert player.worker.sandboxed
    finally:
        player.close()
    assert not (tmp_path / "written.txt").exists()


ONE_ARGUMENT = "def agent(obs):\n    return obs.board.index(0)\n"

OVERAGE = """
import time
SEEN = []

def agent(obs, config):
    SEEN.append(obs.remainingOverageTime)
    if len(SEEN) == 2 and not SEEN[1] < SEEN[0] - 0.3:
        raise RuntimeError(f"the bank did not go down: {SEEN}")
    if len(SEEN) in (1, 3):
        time.sleep(config.actTimeout + 0.8 * len(SEEN))
    return obs.board.index(0)
"""


@pytest.mark.slow
def test_a_kaggle_agent_is_called_with_as_many_arguments_as_it_takes(tmp_path: Path) -> None:
    game = games.get_game("tictactoe")
    player = agent_player(AgentSpec(str(write(tmp_path, "one.py", ONE_ARGUMENT)), None, True), game)
    try:
        assert player.choose(game.initial_state()) == 0
    finally:
        player.close()


@pytest.mark.slow
def test_a_kaggle_agent_spends_its_overage_bank_before_it_forfeits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configuration = tictactoe.Game.kaggle_configuration

    def short(self: object) -> dict[str, object]:
        return {**configuration(self), "actTimeout": 0.2, "agentTimeout": 2.0}  # type: ignore[arg-type]

    monkeypatch.setattr(tictactoe.Game, "kaggle_configuration", short)
    game = games.get_game("tictactoe")
    player = agent_player(AgentSpec(str(write(tmp_path, "slow.py", OVERAGE)), None, True), game)
    try:
        player.start()
        state = game.initial_state()
        state = state.play(player.choose(state))  # 0.8 s over actTimeout: from the bank
        assert player.overage is not None and 0.5 < player.overage < 1.25
        state = state.play(player.choose(state))  # quick, and told less is left
        with pytest.raises(UserCodeError, match="overage"):
            player.choose(state)  # 2.4 s over: more than is left
    finally:
        player.close()


def test_the_random_trees_come_from_the_run_s_seed() -> None:
    default = [case.title for case in cases("minimax")]
    assert "random tree 0" in default and "random tree 5" in default
    seeded = list(cases("minimax", seed=40))
    titles = [case.title for case in seeded]
    assert "random tree 40" in titles and "random tree 45" in titles
    assert "random tree 0" not in titles
    assert [case.title for case in cases("minimax", seed=40)] == titles  # replays


CALLS_THE_REFERENCE = """
from plyground.ai.textbook.trace import trace

def minimax_decision(game, s, depth):
    return None, trace(s, "minimax", depth).value
"""


@pytest.mark.slow
def test_a_right_search_passes_any_seed_and_the_reference_cannot_be_borrowed(
    tmp_path: Path,
) -> None:
    right = grade("minimax", str(write(tmp_path, "mine.py", MINIMAX)), seed=977)
    assert all(outcome.passed for outcome in right)
    assert any(outcome.case.title == "random tree 977" for outcome in right)
    borrowed = grade("minimax", str(write(tmp_path, "borrow.py", CALLS_THE_REFERENCE)), seed=3)
    assert not any(outcome.passed for outcome in borrowed)
    assert all("Plyground's reference search" in outcome.line for outcome in borrowed)


def test_auto_falls_back_to_a_plain_process_where_bubblewrap_cannot_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sandbox, "bubblewrap", lambda: "/usr/bin/bwrap")
    problem = "Plyground's worker could not start inside bubblewrap: no pyvenv.cfg"
    monkeypatch.setattr(sandbox, "_PROBLEMS", {"/usr/bin/bwrap": problem})
    monkeypatch.setattr(sandbox, "_WARNED", [])
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "auto")
    assert not sandbox.uses_bubblewrap()
    assert not sandbox.uses_bubblewrap()
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1  # once per process, one line
    assert "without bubblewrap" in warning and "set-up problem" in warning
    assert "no pyvenv.cfg" in warning
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "required")
    with pytest.raises(sandbox.SandboxUnavailable, match=r"no pyvenv\.cfg"):
        sandbox.uses_bubblewrap()
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "off")
    assert not sandbox.uses_bubblewrap()


def test_a_worker_that_cannot_start_blames_the_set_up_not_the_student(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = [sys.executable, "-c", "import sys; sys.exit('Could not find platform libraries')"]
    monkeypatch.setattr(sandbox, "worker_command", lambda folders, sandboxed, files=(): broken)
    agent = write(tmp_path, "fine.py", "def choose(state):\n    return state.legal_moves()[0]\n")
    worker = StudentWorker(str(agent), {"kind": "agent", "path": str(agent)}, Limits(5.0))
    with pytest.raises(UserCodeError) as failure:
        worker.start()
    error = failure.value
    assert error.setup and error.void  # nobody forfeits for it
    assert "could not start" in error.line and "Could not find platform libraries" in error.line
    assert "set-up problem, not this file" in error.line
    assert "os._exit" not in error.line and "crash" not in error.line


def test_a_file_is_parsed_in_the_worker_never_in_the_app(tmp_path: Path) -> None:
    from plyground.ai.student_code.worker import require_function

    deep = write(tmp_path, "deep.py", "x = " + "-" * 100_000 + "1\n")
    with pytest.raises(ValueError, match=r"deep\.py: is too deeply nested for Python to parse"):
        require_function(deep, "choose")
    bad = write(tmp_path, "bad.py", "def choose(:\n")
    with pytest.raises(ValueError, match=r"bad\.py: syntax error on line 1"):
        require_function(bad, "choose")
    run = subprocess.run(
        [sys.executable, MAIN, "match", "--game", "tictactoe", "--p1", str(deep), "--p2", "random"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "internal error" not in run.stderr + run.stdout
    assert "too deeply nested" in run.stderr and run.stderr.strip().count("\n") == 0


def _venv_under(folder: Path) -> Path:
    """A virtual environment in `folder` that sees this one's packages (a .pth file): its
    pyvenv.cfg and bin/python lie under a temporary folder, as a student's may."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    found = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    ours = [entry for entry in sys.path if entry and Path(entry).is_dir()]
    (Path(found.stdout.strip()) / "plyground_test.pth").write_text("\n".join(ours) + "\n")
    return python


@pytest.mark.skipif(not sandbox.bubblewrap_works(), reason="bubblewrap cannot run here")
def test_a_virtual_environment_under_tmp_still_starts_inside_bubblewrap(tmp_path: Path) -> None:
    python = _venv_under(tmp_path / "venv")
    agent = write(tmp_path, "first.py", "def choose(state):\n    return state.legal_moves()[0]\n")
    players = ["--p1", str(agent), "--p2", "random", "--games", "2", "--sandbox", "required"]
    run = subprocess.run(
        [str(python), MAIN, "match", "--game", "tictactoe", *players],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "forfeit" not in run.stdout.lower() and "could not start" not in run.stderr
