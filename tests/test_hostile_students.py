"""Hostile students' files: whatever they do costs their game or case, never the app.

Each hostile behaviour runs as an agent, a Kaggle agent, a heuristic and an exercise
solution; after each run the parent is alive (this process, or a command's exit status),
the other player is unharmed, every game is recorded, no process is left (every process
started for a run carries a marker in its environment, found through /proc) and a failure
is one line naming the file.  Those that need bubblewrap skip, saying so, where it is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from plyground.ai.players.match import GameRecord, MatchSetup, run_match
from plyground.ai.student_code import sandbox
from plyground.ai.student_code.grader import cases, grade
from plyground.games import tictactoe

MAIN = str(Path(__file__).resolve().parents[1] / "main.py")
MARK = "PLYGROUND_HOSTILE_RUN"
"""The environment variable every process of one run inherits (to find leftovers)."""

HEADER = """\
import math, os, pickle, resource, signal, subprocess, sys, time
STARTED = []
"""

HOSTILE = {
    "killpg": "os.killpg(0, signal.SIGKILL)",
    "kill_parent": "os.kill(os.getppid(), signal.SIGKILL)",
    "forged_answers": """
class Payload:
    def __reduce__(self):
        return (os.system, ("touch " + os.environ.get("HOSTILE_MARKER", "/nonexistent"),))
lines = [pickle.dumps(Payload()) + b"\\n"]
lines += [('{"ok": ["__import__(\\'os\\')"], "ready": true, "n": %d}\\n' % n).encode()
          for n in range(50)]
for fd in range(3, 40):
    for line in lines:
        try:
            os.write(fd, line)
        except OSError:
            break
""",
    "lift_rlimit": """
resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
""",
    "fork_storm": """
if not STARTED:
    STARTED.append(1)
    for _ in range(60):
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
""",
    "popen_sleep": """
if not STARTED:
    STARTED.append(1)
    subprocess.Popen(["sleep", "600"])
    try:  # leaving its session is refused (setsid): the app finds all it started there
        subprocess.Popen(["sleep", "600"], start_new_session=True)
    except PermissionError:
        pass
""",
    "garbage": "return 'garbage'",
    "forty_two": "return 42",
    "nan": "return float('nan')",
    "infinite_loop": "while True:\n    pass",
    "huge_memory": "blocks = []\nwhile True:\n    blocks.append(bytes(200_000_000))",
    "print_spam": """
for _ in range(5_000):
    print("x" * 100)
    sys.stderr.write("y" * 100 + "\\n")
    os.write(1, b"z" * 100 + b"\\n")
    os.write(2, b"w" * 100 + b"\\n")
""",
    "sys_exit": "sys.exit(0)",
    "os_exit": "os._exit(0)",
}
"""Each hostile behaviour: the body of a function `hostile()` (a value returned is answered)."""

MUST_FAIL = {
    "killpg",
    "kill_parent",  # refused (its parent is the supervisor; the signal guard refuses it)
    "forged_answers",
    "lift_rlimit",
    "garbage",
    "forty_two",
    "nan",
    "infinite_loop",
    "huge_memory",
    "sys_exit",
    "os_exit",
}
"""Behaviours that must cost the game (or the case): the others may play on."""

NEEDS_SANDBOX: set[str] = set()
"""Behaviours only bubblewrap contains (none: the supervisor and the signal guard hold
without it on Linux)."""

ROLES = {
    "agent": """
def choose(state):
    value = hostile()
    return state.legal_moves()[0] if value is None else value
""",
    "kaggle": """
def agent(obs):
    value = hostile()
    return obs.board.index(0) if value is None else value
""",
    "heuristic": """
def evaluate(state):
    value = hostile()
    return 0.0 if value is None else value
""",
    "exercise": """
def minimax_decision(game, s, depth):
    value = hostile()
    if value is not None:
        return None, value
    best_move, best = None, -2.0
    for a in game.actions(s):
        v = minimax(game, game.result(s, a), depth - 1)
        if v > best:
            best_move, best = a, v
    return best_move, best

def minimax(game, s, depth):
    if game.is_cutoff(s, depth):
        return game.evaluate(s)
    values = [minimax(game, game.result(s, a), depth - 1) for a in game.actions(s)]
    return max(values) if game.to_move(s) == "max" else min(values)
""",
}


def hostile_file(folder: Path, kind: str, role: str) -> Path:
    """A student's file that does `kind` inside the function its `role` calls."""
    body = textwrap.indent(textwrap.dedent(HOSTILE[kind]).strip(), "    ")
    path = folder / "hostile.py"
    path.write_text(f"{HEADER}\ndef hostile():\n{body}\n{ROLES[role]}", encoding="utf-8")
    return path


def marked_processes(mark: str) -> list[int]:
    """Live processes (not zombies) started with `mark` in their environment."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def assert_nothing_left(mark: str) -> None:
    """No process of the run is left (killed ones may take a moment to go)."""
    deadline = time.monotonic() + 10
    while marked_processes(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marked_processes(mark) == []


def needs_bubblewrap() -> None:
    """Skip, saying why, where bubblewrap is missing."""
    if sandbox.bubblewrap() is None:
        pytest.skip("bubblewrap (bwrap) is not installed: the PID namespace is not available")


@pytest.fixture
def run_mark(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    """A fresh marker in the environment the workers inherit; short limits for the games."""
    if not Path("/proc").is_dir():
        pytest.skip("finding leftover processes needs /proc (Linux)")
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    monkeypatch.setenv("HOSTILE_MARKER", str(tmp_path / "parent_ran_it"))
    monkeypatch.setattr(tictactoe.Game, "move_time_limit", 1.5)
    configuration = tictactoe.Game.kaggle_configuration

    def short_kaggle(self: object) -> dict[str, object]:
        return {**configuration(self), "actTimeout": 1, "agentTimeout": 1}  # type: ignore[arg-type]

    monkeypatch.setattr(tictactoe.Game, "kaggle_configuration", short_kaggle)
    yield mark
    assert_nothing_left(mark)
    assert not (tmp_path / "parent_ran_it").exists()


def check_records(records: list[GameRecord], kind: str, count: int) -> None:
    """Every game recorded; a failure is one line naming the file and never B's fault."""
    assert len(records) == count
    for record in records:
        assert record.forfeiter != 1  # the other player is unharmed
        if record.forfeit:
            assert record.forfeit.startswith("hostile.py: ")
            assert "\n" not in record.forfeit
        if kind in MUST_FAIL:
            assert record.forfeit, kind
            assert record.void or record.forfeiter == 0


def play(path: Path, role: str, count: int = 2, jobs: int = 1) -> list[GameRecord]:
    """A match of the hostile file (as `role`) against a random player."""
    spec = {
        "agent": str(path),
        "kaggle": f"kaggle:{path}",
        "heuristic": f"alphabeta:depth=1:heuristic={path}",
    }[role]
    records: list[GameRecord] = []
    setup = MatchSetup("tictactoe", (), (spec, "random"), seed=5, swap=True)
    run_match(setup, count, jobs, on_game=lambda record, _: records.append(record))
    return records


@pytest.mark.slow
@pytest.mark.parametrize("role", ["agent", "kaggle", "heuristic"])
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_hostile_player_costs_only_its_own_games(
    kind: str, role: str, run_mark: str, tmp_path: Path
) -> None:
    if kind in NEEDS_SANDBOX:
        needs_bubblewrap()
    records = play(hostile_file(tmp_path, kind, role), role)
    check_records(records, kind, 2)


@pytest.mark.slow
@pytest.mark.parametrize("kind", [kind for kind in HOSTILE if kind not in NEEDS_SANDBOX])
def test_without_a_sandbox_a_hostile_agent_costs_only_its_own_games(
    kind: str, run_mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "off")
    records = play(hostile_file(tmp_path, kind, "agent"), "agent")
    check_records(records, kind, 2)


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_hostile_exercise_fails_its_cases_and_the_grader_goes_on(
    kind: str, run_mark: str, tmp_path: Path
) -> None:
    if kind in NEEDS_SANDBOX:
        needs_bubblewrap()
    path = hostile_file(tmp_path, kind, "exercise")
    # Each case runs in a fresh worker, so a storm of forks is started on every case: time
    # for it on a loaded machine (an endless loop is still cut short).
    seconds = 5.0 if kind in ("fork_storm", "popen_sleep") else 1.5
    outcomes = grade("minimax", str(path), seconds=seconds)
    assert len(outcomes) == len(list(cases("minimax")))
    for outcome in outcomes:
        assert "\n" not in outcome.line
    if kind in MUST_FAIL:
        assert not any(outcome.passed for outcome in outcomes), kind
    elif kind in ("fork_storm", "popen_sleep"):
        assert all(outcome.passed for outcome in outcomes), [o.line for o in outcomes]


SIBLING_KILLER = """
import os, signal
MARK = ("%s=" % "PLYGROUND_HOSTILE_RUN" + os.environ.get("PLYGROUND_HOSTILE_RUN", "?")).encode()

def choose(state):
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as file:
                    command = file.read()
            except OSError:
                continue
            if b"student_code.child" not in command:
                continue
            try:  # this run's workers only: other programs on the machine are left alone
                with open(f"/proc/{entry}/environ", "rb") as file:
                    if MARK not in file.read():
                        continue
                os.kill(int(entry), signal.SIGKILL)
            except OSError:
                pass
    return state.legal_moves()[0]
"""

FIRST_LEGAL = "def choose(state):\n    return state.legal_moves()[0]\n"


@pytest.mark.slow
def test_in_the_sandbox_an_agent_cannot_see_or_kill_the_other_player(
    run_mark: str, tmp_path: Path
) -> None:
    needs_bubblewrap()
    killer = tmp_path / "hostile.py"
    killer.write_text(SIBLING_KILLER, encoding="utf-8")
    other = tmp_path / "other.py"
    other.write_text(FIRST_LEGAL, encoding="utf-8")
    records: list[GameRecord] = []
    setup = MatchSetup("tictactoe", (), (str(killer), str(other)), seed=1, swap=True)
    run_match(setup, 2, on_game=lambda record, _: records.append(record))
    assert [record.forfeit for record in records] == ["", ""]


@pytest.mark.slow
def test_without_a_sandbox_the_signal_guard_keeps_the_other_player_alive(
    run_mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "off")
    killer = tmp_path / "hostile.py"
    killer.write_text(SIBLING_KILLER, encoding="utf-8")
    other = tmp_path / "other.py"
    other.write_text(FIRST_LEGAL, encoding="utf-8")
    records: list[GameRecord] = []
    setup = MatchSetup("tictactoe", (), (str(killer), str(other)), seed=1, swap=True)
    run_match(setup, 2, on_game=lambda record, _: records.append(record))
    assert [record.forfeit for record in records] == ["", ""]  # its kills were refused


def run_command(arguments: list[str], mark: str) -> subprocess.CompletedProcess[str]:
    """A terminal command with the run's marker in its environment."""
    environment = {**os.environ, MARK: mark}
    return subprocess.run(
        [sys.executable, MAIN, *arguments],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
    )


COMMAND_KINDS = ["killpg", "kill_parent", "fork_storm", "popen_sleep", "os_exit", "forged_answers"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", COMMAND_KINDS)
def test_match_with_two_jobs_and_tournament_survive_a_hostile_agent(
    kind: str, run_mark: str, tmp_path: Path
) -> None:
    if kind in NEEDS_SANDBOX:
        needs_bubblewrap()
    path = str(hostile_file(tmp_path, kind, "agent"))
    players = ["--p1", path, "--p2", "random"]
    match = run_command(
        ["match", "--game", "tictactoe", *players, "--games", "4", "--jobs", "2", "--quiet"],
        run_mark,
    )
    assert match.returncode == 0, match.stderr
    assert "Traceback" not in match.stdout + match.stderr
    assert "4 games" in match.stdout
    for line in match.stderr.splitlines():
        if "forfeits" in line or "void" in line:
            assert "hostile.py: " in line and "B forfeits" not in line
    tournament = run_command(
        ["tournament", "--game", "tictactoe", "--players", f"{path},random,easy", "--games", "2"],
        run_mark,
    )
    assert tournament.returncode == 0, tournament.stderr
    assert "Traceback" not in tournament.stdout + tournament.stderr


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["killpg", "os_exit", "huge_memory"])
def test_the_exercise_command_survives_a_hostile_solution(
    kind: str, run_mark: str, tmp_path: Path
) -> None:
    path = str(hostile_file(tmp_path, kind, "exercise"))
    run = run_command(["exercise", "minimax", path, "--seed", "7"], run_mark)
    assert run.returncode == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert "random trees from seed 7" in run.stdout
    assert "passed; the first failure" in run.stdout
