"""Hostile files against the worker's confinement, with bubblewrap and without it.

Each attack is a student's file (or a file where the app is started) that tries to reach
beyond its own process tree: code run from the working folder, a signal or a limit sent to
another process by a route other than kill(), a local socket, Plyground's own search
reference, a stopped process of the app.  After each: the process outside the student's
tree is untouched, the attacker's games are its own, the other player never forfeits,
nothing is left running, and the run ends in bounded time.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
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
from plyground.games import tictactoe

MAIN = str(Path(__file__).resolve().parents[1] / "main.py")
MARK = "PLYGROUND_CONFINEMENT_RUN"
"""An environment variable every process of one run inherits (to find leftovers)."""

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the attacks are Linux system calls"
)

MODES = [
    pytest.param("off", id="no sandbox"),
    pytest.param("required", id="bubblewrap"),
]


def _use(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run workers in `mode` (skip where bubblewrap cannot run)."""
    if mode == "required" and not sandbox.bubblewrap_works():
        pytest.skip("bubblewrap cannot run here")
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)


def _marked(mark: str) -> list[int]:
    """Live processes (not zombies) with `mark` in their environment."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError, IndexError):
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z" and needle in (entry / "environ").read_bytes():
                found.append(int(entry.name))
    return found


@pytest.fixture
def run_mark(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A marker in the environment of every process of the test; none is left after it."""
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    monkeypatch.setattr(tictactoe.Game, "move_time_limit", 5.0)
    yield mark
    deadline = time.monotonic() + 10
    while _marked(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _marked(mark) == []


def _agent(folder: Path, body: str, name: str = "hostile.py", header: str = "") -> Path:
    """An agent whose choose() runs `body` first, then plays the first legal move."""
    path = folder / name
    path.write_text(
        "import ctypes, fcntl, os, resource, signal, socket, struct, sys, time\n"
        + header
        + "\ndef choose(state):\n"
        + textwrap.indent(textwrap.dedent(body).strip(), "    ")
        + "\n    return state.legal_moves()[0]\n",
        encoding="utf-8",
    )
    return path


def _match(agent: Path, other: str = "random", games: int = 2) -> list[GameRecord]:
    records: list[GameRecord] = []
    setup = MatchSetup("tictactoe", (), (str(agent), other), seed=3, swap=True)
    run_match(setup, games, on_game=lambda record, _: records.append(record))
    return records


def _command(
    arguments: list[str], mark: str, cwd: Path | None = None, **environment: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, MAIN, *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, MARK: mark, **environment},
        timeout=240,
    )


# ------------------------------------------------------------- the working folder

SHADOW = """\
import os, sys
with open({marker!r}, "a") as file:
    file.write(f"{{os.getpid()}} {{sys.argv[:2]}}\\n")
sys.modules.pop(__name__, None)
sys.path[:] = [entry for entry in sys.path if entry not in ("", os.getcwd(), {folder!r})]
import importlib
sys.modules[__name__] = importlib.import_module(__name__)
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_file_named_like_a_standard_module_where_the_app_starts_never_runs(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_mark: str
) -> None:
    """inspect.py and socket.py in the working folder: neither a worker nor a match's pool
    process (multiprocessing's ``python -c``) puts that folder first on its path."""
    _use(mode, monkeypatch)
    marker = tmp_path / "ran.txt"
    for name in ("inspect", "socket"):
        (tmp_path / f"{name}.py").write_text(
            SHADOW.format(marker=str(marker), folder=str(tmp_path))
        )
    _agent(tmp_path, "pass", "me.py")
    players = ["--p1", "me.py", "--p2", "random", "--games", "2", "--jobs", "2"]
    run = _command(["match", "--game", "tictactoe", *players], run_mark, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "forfeits" not in run.stdout + run.stderr
    assert not marker.exists(), marker.read_text()


# ------------------------------------------------------------- other processes

REACH = """
reached = []
libc = ctypes.CDLL(None, use_errno=True)
r, w = os.pipe()
for command, value in ((fcntl.F_SETOWN, VICTIM), (10, signal.SIGKILL)):  # 10: F_SETSIG
    try:
        fcntl.fcntl(r, command, value)
        reached.append(f"fcntl {command}")
    except OSError:
        pass
fcntl.fcntl(r, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)
os.write(w, b"x")  # a signal to the descriptor's owner, if it has one
owner = struct.pack("ii", 1, VICTIM)  # F_OWNER_PID
if libc.fcntl(r, 15, ctypes.c_char_p(owner)) == 0:  # F_SETOWN_EX
    reached.append("F_SETOWN_EX")
if libc.ioctl(r, 0x8901, ctypes.byref(ctypes.c_int(VICTIM))) == 0:  # FIOSETOWN
    reached.append("FIOSETOWN")
for name, call in (
    ("prlimit", lambda: resource.prlimit(VICTIM, resource.RLIMIT_NOFILE, (3, 3))),
    ("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, VICTIM, 19)),
    ("setpriority of its group", lambda: os.setpriority(os.PRIO_PGRP, VICTIM, 19)),
    ("sched_setaffinity", lambda: os.sched_setaffinity(VICTIM, {0})),
    ("sched_setscheduler", lambda: os.sched_setscheduler(VICTIM, os.SCHED_IDLE, os.sched_param(0))),
):
    try:
        call()
        reached.append(name)
    except OSError:
        pass
UNIX, INET = socket.AF_UNIX, socket.AF_INET
for family, address in ((UNIX, PATH), (UNIX, ABSTRACT), (INET, ("127.0.0.1", PORT))):
    try:
        link = socket.socket(family)
        reached.append(f"a socket of family {family}")
        link.settimeout(2)
        link.connect(address)
        link.sendall(b"a classmate's moves")
        reached.append(f"connected to {address!r}")
    except OSError:
        pass
if reached:
    raise RuntimeError("reached: " + "; ".join(reached))
"""


@contextlib.contextmanager
def _listeners(folder: Path) -> Iterator[tuple[dict[str, object], list[bytes]]]:
    """A path socket, an abstract socket and a TCP port in the app's machine, and what they
    hear (a display, an SSH agent or D-Bus listen so)."""
    heard: list[bytes] = []
    path = str(folder / "agent.sock")
    abstract = "\0plyground-test-" + uuid.uuid4().hex
    servers = [socket.socket(socket.AF_UNIX), socket.socket(socket.AF_UNIX)]
    servers[0].bind(path)
    servers[1].bind(abstract)
    servers.append(socket.create_server(("127.0.0.1", 0)))
    for server in servers:
        server.listen()
        server.setblocking(False)
    addresses = {"PATH": path, "ABSTRACT": abstract, "PORT": servers[2].getsockname()[1]}
    try:
        yield addresses, heard
    finally:
        for server in servers:
            with contextlib.suppress(OSError):
                connection, _ = server.accept()
                heard.append(connection.recv(100) or b"(connected)")
            server.close()


def _state(pid: int) -> tuple[str, int, str]:
    """What the attacks would change in process `pid`: its open-file limit, niceness and
    allowed CPUs."""
    status = Path(f"/proc/{pid}/status").read_text()
    limits = Path(f"/proc/{pid}/limits").read_text()
    files = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    cpus = next(line for line in status.splitlines() if line.startswith("Cpus_allowed_list"))
    return files, os.getpriority(os.PRIO_PROCESS, pid), cpus


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_no_signal_limit_priority_or_socket_reaches_a_process_outside_its_tree(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_mark: str
) -> None:
    _use(mode, monkeypatch)
    victim = subprocess.Popen(["sleep", "120"], start_new_session=True)  # a group of its own
    before = _state(victim.pid)
    try:
        with _listeners(tmp_path) as (addresses, heard):
            header = f"VICTIM = {victim.pid}\n" + "".join(
                f"{name} = {value!r}\n" for name, value in addresses.items()
            )
            records = _match(_agent(tmp_path, REACH, header=header))
        assert victim.poll() is None, "the process outside its tree was killed"
        assert _state(victim.pid) == before
        assert heard == []
        assert [record.forfeit for record in records] == ["", ""]
    finally:
        victim.kill()
        victim.wait()


AT_THE_APP = """
app = int(open(f"/proc/{os.getppid()}/stat").read().rsplit(")", 1)[1].split()[1])
r, w = os.pipe()
for target in {app, os.getppid()} - {0}:  # inside bubblewrap: its init, pid 1
    try:
        fcntl.fcntl(r, fcntl.F_SETOWN, target)
        fcntl.fcntl(r, 10, signal.SIGSTOP)  # F_SETSIG
        fcntl.fcntl(r, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)
        os.write(w, b"x")
    except OSError:
        pass
    try:
        resource.prlimit(target, resource.RLIMIT_NOFILE, (3, 3))
    except OSError:
        pass
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_an_attack_on_the_app_leaves_match_and_tournament_whole(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_mark: str
) -> None:
    """SIGSTOP by an I/O owner and prlimit on the process that runs its games (the app, or a
    match's pool process) and on its supervisor: refused, the honest player never forfeits."""
    _use(mode, monkeypatch)
    hostile = str(_agent(tmp_path, AT_THE_APP))
    honest = str(_agent(tmp_path, "pass", "honest.py"))
    match = _command(
        [
            "match",
            "--game",
            "tictactoe",
            "--p1",
            hostile,
            "--p2",
            honest,
            "--games",
            "4",
            "--jobs",
            "2",
        ],
        run_mark,
    )
    assert match.returncode == 0, match.stderr
    assert "4 games" in match.stdout and "forfeits" not in match.stderr + match.stdout
    tournament = _command(
        [
            "tournament",
            "--game",
            "tictactoe",
            "--players",
            f"{hostile},{honest},random",
            "--games",
            "2",
            "--jobs",
            "2",
        ],
        run_mark,
    )
    assert tournament.returncode == 0, tournament.stderr
    output = tournament.stdout + tournament.stderr
    assert "forfeit" not in output and "Traceback" not in output


# ------------------------------------------------------------- a stopped pool process


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _pool_processes(app: int) -> list[int]:
    """The app's multiprocessing children (its match pool)."""
    found = []
    for child in _children(app):
        with contextlib.suppress(OSError):
            if b"multiprocessing-fork" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
    return found


def _start_slow_match(tmp_path: Path, mark: str) -> subprocess.Popen[str]:
    slow = _agent(tmp_path, "time.sleep(0.3)", "slow.py")
    players = ["--p1", str(slow), "--p2", "random", "--games", "6", "--jobs", "2"]
    return subprocess.Popen(
        [sys.executable, MAIN, "match", "--game", "tictactoe", *players],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, MARK: mark},
        start_new_session=True,
    )


def _stop_a_pool_process(app: subprocess.Popen[str], tree: bool = False) -> None:
    """SIGSTOP one of the app's pool processes once a game is under way (with `tree`, the
    supervisor and the worker under it too)."""
    deadline = time.monotonic() + 60
    pool: list[int] = []
    while time.monotonic() < deadline:  # a game under way: a supervisor under the process
        pool = [pid for pid in _pool_processes(app.pid) if _children(pid)]
        if pool:
            break
        time.sleep(0.1)
    time.sleep(0.5)
    stopped = pool[:1]
    for pid in stopped if tree else ():
        stopped += _children(pid)
    for pid in stopped:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGSTOP)


@pytest.mark.slow
def test_a_stopped_pool_process_is_continued_and_the_match_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_mark: str
) -> None:
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "off")
    app = _start_slow_match(tmp_path, run_mark)
    try:
        _stop_a_pool_process(app)
        output, errors = app.communicate(timeout=120)
    finally:
        app.kill()
    assert app.returncode == 0, errors
    assert "6 games" in output


@pytest.mark.slow
def test_ctrl_c_ends_a_match_whose_pool_process_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_mark: str
) -> None:
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, "off")
    app = _start_slow_match(tmp_path, run_mark)
    try:
        _stop_a_pool_process(app, tree=True)
        time.sleep(2.0)
        os.killpg(app.pid, signal.SIGINT)  # the terminal's Ctrl+C: to the whole group
        app.communicate(timeout=60)
    finally:
        with contextlib.suppress(OSError):
            os.killpg(app.pid, signal.SIGKILL)
    assert app.returncode is not None


# ------------------------------------------------------------- Plyground's reference

UNBLOCKED = """\
import sys
sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_ReferenceBlocker"]

def alphabeta_decision(game, s, depth):
    from plyground.ai.textbook.alphabeta import alphabeta_decision as reference
    return reference(game, s, depth)
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_the_reference_cannot_be_read_with_the_import_blocker_gone(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.ai.student_code.confinement import landlock_version
    from plyground.ai.student_code.grader import grade

    if mode == "off" and not landlock_version():
        pytest.skip("this kernel has no Landlock: the reference's files are readable")
    _use(mode, monkeypatch)
    path = tmp_path / "borrow.py"
    path.write_text(UNBLOCKED)
    outcomes = grade("alphabeta", str(path), seed=1)
    assert outcomes and not any(outcome.passed for outcome in outcomes)


# ------------------------------------------------------------- games and scratch folders

PLAYERS = ("--p2", "random", "--games", "2")
"""The other player and the games of the module game's match."""

CLASSMATE_READER = """
try:
    open(CLASSMATE).read()
    raise RuntimeError("read a classmate's file beside the game's module")
except OSError:
    pass
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_module_game_from_the_working_folder_plays_with_its_module_alone(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_mark: str
) -> None:
    _use(mode, monkeypatch)
    game = Path(__file__).with_name("game_files") / "take_away.py"
    (tmp_path / "mymod.py").write_text(game.read_text())
    classmate = tmp_path / "classmate.py"
    classmate.write_text("SECRET = 1\n")
    agent = _agent(tmp_path, CLASSMATE_READER, "me.py", f"CLASSMATE = {str(classmate)!r}\n")
    run = subprocess.run(  # `python -m plyground` from the game's folder: the app imports it
        [
            sys.executable,
            "-m",
            "plyground",
            "match",
            "--game",
            "mymod:TakeAway",
            *PLAYERS,
            "--p1",
            str(agent),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        # as from a terminal: not the PYTHONSAFEPATH an in-process run of the app set here
        env={**{k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}, MARK: run_mark},
        timeout=240,
    )
    assert run.returncode == 0, run.stderr
    assert "2 games" in run.stdout
    assert "forfeit" not in run.stdout + run.stderr, run.stderr


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_no_scratch_folder_is_left_when_the_app_is_killed(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_mark: str
) -> None:
    _use(mode, monkeypatch)
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    slow = _agent(tmp_path, "time.sleep(0.5)", "slow.py")
    app = subprocess.Popen(
        [
            sys.executable,
            MAIN,
            "match",
            "--game",
            "tictactoe",
            "--p1",
            str(slow),
            "--p2",
            "random",
            "--games",
            "4",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, MARK: run_mark, "TMPDIR": str(temporary)},
    )
    deadline = time.monotonic() + 60
    while not any(temporary.glob("plyground-worker-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)
    app.kill()
    app.wait()
    deadline = time.monotonic() + 10
    while any(temporary.glob("plyground-worker-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(temporary.glob("plyground-worker-*")) == []


SCOPED = """
import os, signal, socket, sys
from plyground.ai.student_code.confinement import restrict
assert restrict(None)
refused = []
try:
    os.kill(int(sys.argv[1]), signal.SIGKILL)
except PermissionError:
    refused.append("signal")
try:
    socket.socket(socket.AF_UNIX).connect("\\0" + sys.argv[2])
except PermissionError:
    refused.append("abstract socket")
print(" ".join(refused))
"""


def test_landlock_scopes_refuse_signals_and_abstract_sockets_outside_the_worker() -> None:
    """Without the seccomp guard, Landlock's scopes alone (ABI 6) keep a signal and an
    abstract socket's connection within the worker's own processes."""
    from plyground.ai.student_code.confinement import SCOPE_ABI, landlock_version

    if landlock_version() < SCOPE_ABI:
        pytest.skip("this kernel's Landlock has no scopes (Linux 6.12 and newer)")
    victim = subprocess.Popen(["sleep", "60"])
    server = socket.socket(socket.AF_UNIX)
    name = "plyground-test-" + uuid.uuid4().hex
    server.bind("\0" + name)
    server.listen()
    try:
        run = subprocess.run(
            [sys.executable, "-c", SCOPED, str(victim.pid), name],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.stdout.split() == ["signal", "abstract", "socket"], run.stderr
        assert victim.poll() is None
    finally:
        server.close()
        victim.kill()
        victim.wait()
