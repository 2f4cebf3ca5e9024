"""The trust boundary on every system: what a student's file sends is data, the channel is
bounded, no wait is without a deadline, and what a worker does to itself is its own."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from plyground.ai.players.match import GameRecord, MatchSetup, run_match
from plyground.ai.student_code import sandbox
from plyground.ai.student_code.messages import encode_state, printable
from plyground.ai.student_code.worker import Limits, StudentWorker, UserCodeError
from plyground.games import tictactoe

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


# ------------------------------------------------------------- hostile files, both modes

MODES = [
    pytest.param("off", id="no sandbox"),
    pytest.param("auto", id="bubblewrap where it works"),
]
FIRST_LEGAL = "def choose(state):\n    return state.legal_moves()[0]\n"


def _match(
    monkeypatch: pytest.MonkeyPatch, mode: str, agent: Path, games: int = 2
) -> list[GameRecord]:
    """A match of `agent` against a random player in sandbox mode `mode`."""
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    monkeypatch.setattr(tictactoe.Game, "move_time_limit", 3.0)
    records: list[GameRecord] = []
    setup = MatchSetup("tictactoe", (), (str(agent), "random"), seed=3, swap=True)
    run_match(setup, games, on_game=lambda record, _: records.append(record))
    return records


def _agent(folder: Path, body: str, name: str = "hostile.py", header: str = "") -> Path:
    """A hostile agent whose choose() runs `body` first; `header` goes above it (constants)."""
    path = folder / name
    path.write_text(
        header
        + "import os, signal, sys, time\n\ndef choose(state):\n"
        + textwrap.indent(textwrap.dedent(body).strip(), "    ")
        + "\n    return state.legal_moves()[0]\n",
        encoding="utf-8",
    )
    return path


def _left_behind(marker: str) -> list[int]:
    """Live processes whose command line holds `marker` (a daemon's, say)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                status = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if status != "Z" and marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
    return found


linux_only = pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")


@linux_only
@pytest.mark.parametrize("mode", MODES)
def test_stopping_its_parent_is_refused_and_stopping_itself_costs_nothing(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = _agent(tmp_path, "os.kill(os.getppid(), signal.SIGSTOP)", "parent.py")
    began = time.monotonic()
    records = _match(monkeypatch, mode, parent)
    assert time.monotonic() - began < 60  # no hang
    assert all(record.forfeiter == 0 for record in records)  # its own doing: its forfeit
    assert all("PermissionError" in record.forfeit for record in records)
    itself = _agent(tmp_path, "os.kill(os.getpid(), signal.SIGSTOP)", "itself.py")
    records = _match(monkeypatch, mode, itself)
    assert [record.forfeit for record in records] == ["", ""]  # continued at once


DAEMON = """
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "600.123"])  # keeps every inherited descriptor
    os._exit(0)
time.sleep(0.1)
"""


@linux_only
@pytest.mark.parametrize("mode", MODES)
def test_a_daemon_holding_the_pipe_hangs_nothing_and_ends_with_its_game(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    began = time.monotonic()
    records = _match(monkeypatch, mode, _agent(tmp_path, DAEMON))
    assert len(records) == 2 and time.monotonic() - began < 60
    deadline = time.monotonic() + 10
    while _left_behind("600.123") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _left_behind("600.123") == []  # found through the subreaper and ended


FLOOD = """
line = b'{"ok": "1", "n": 1}' + b" " * 4000 + b"\\n"
for _ in range(20_000):  # 80 MB, more than any answer
    for fd in range(3, 12):
        try:
            os.write(fd, line)
        except OSError:
            pass
"""


@linux_only
@pytest.mark.parametrize("mode", MODES)
def test_a_flood_on_the_channel_costs_its_game_and_none_of_the_apps_memory(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psutil

    before = psutil.Process().memory_info().rss
    records = _match(monkeypatch, mode, _agent(tmp_path, FLOOD), games=1)
    grown = psutil.Process().memory_info().rss - before
    assert records[0].forfeiter == 0, records[0].forfeit
    assert grown < 40 << 20, f"the app grew by {grown >> 20} MB"


TREE = """
for _ in range(4):
    if os.fork() == 0:
        block = b"x" * (120 << 20)  # touched: resident
        time.sleep(60)
        os._exit(0)
time.sleep(30)
"""


@linux_only
@pytest.mark.parametrize("mode", MODES)
def test_the_memory_of_the_whole_tree_is_capped(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    path = _agent(tmp_path, TREE)
    worker = StudentWorker(
        str(path), {"kind": "agent", "path": str(path)}, Limits(40, 20, 300 << 20)
    )
    state = encode_state(tictactoe.Game().initial_state())
    began = time.monotonic()
    with pytest.raises(UserCodeError, match="of memory in all its processes"):
        worker.call({"state": state})
    assert time.monotonic() - began < 20
    worker.close()


READER = """
problems = []
import pwd
home = pwd.getpwuid(os.getuid()).pw_dir
for name in (CLASSMATE, os.path.join(home, ".bashrc"), os.path.join(home, ".profile"),
             "/etc/shadow", REFERENCE):
    try:
        with open(name) as file:
            file.read(1)
        problems.append(name)
    except OSError:
        pass
try:
    with open("/tmp/big", "wb") as file:
        file.write(b"x" * (200 << 20))
    problems.append("a /tmp without a size")
except OSError:
    pass
if problems:
    raise RuntimeError("read " + ", ".join(problems))
"""


@linux_only
@pytest.mark.parametrize("mode", ["off", "required"])
def test_only_its_own_file_and_its_scratch_are_there(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inside bubblewrap, and outside it on Linux (Landlock): a classmate's file, the home
    folder and the system's secrets cannot be read, nor anything written but its scratch."""
    from plyground.ai.student_code.confinement import landlock_version

    if mode == "required" and not sandbox.bubblewrap_works():
        pytest.skip("bubblewrap cannot run here")
    if mode == "off" and not landlock_version():
        pytest.skip("this kernel has no Landlock")
    classmate = tmp_path / "classmate.py"
    classmate.write_text("SECRET = 'their work'\n")
    reference = sandbox.reference_paths()[0] / "alphabeta.py" if mode == "required" else "/"
    header = f"CLASSMATE = {str(classmate)!r}\nREFERENCE = {str(reference)!r}\n"
    agent = _agent(tmp_path, READER, "reader.py", header)
    records = _match(monkeypatch, mode, agent)
    assert [record.forfeit for record in records] == ["", ""]


SELF_KILL = """
if len(state.legal_moves()) <= 7:  # losing, say: it ends itself
    os.kill(os.getpid(), signal.SIGKILL)
"""


@linux_only
@pytest.mark.parametrize("mode", MODES)
def test_a_worker_that_kills_itself_forfeits_it_is_never_void(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _match(monkeypatch, mode, _agent(tmp_path, SELF_KILL))
    assert records and all(record.forfeiter == 0 and not record.void for record in records)
    assert all("SIGKILL" in record.forfeit for record in records)


@pytest.mark.parametrize("mode", MODES)
def test_a_borrowed_reference_fails_every_case(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.ai.student_code.grader import grade

    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    path = tmp_path / "borrow.py"
    path.write_text(
        "from plyground.ai.textbook.alphabeta import alphabeta_decision as reference\n"
        "def alphabeta_decision(game, s, depth):\n"
        "    return reference(game, s, depth)\n"
    )
    outcomes = grade("alphabeta", str(path), seed=1)
    assert outcomes and not any(outcome.passed for outcome in outcomes)
    assert all("Plyground's reference search" in outcome.line for outcome in outcomes)


CAPABILITIES = """
import subprocess
status = subprocess.run(["cat", "/proc/self/status"], capture_output=True, text=True).stdout
held = [line for line in status.splitlines() if line.startswith(("CapPrm", "CapEff", "CapBnd"))]
if any(int(line.split()[1], 16) for line in held):
    raise RuntimeError("a program it executes has capabilities: " + "; ".join(held))
if "NoNewPrivs:\\t1" not in status:
    raise RuntimeError("no_new_privs is not set")
"""


@linux_only
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="as root only")
def test_as_root_a_program_it_executes_regains_no_capability(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _match(monkeypatch, "off", _agent(tmp_path, CAPABILITIES))
    assert [record.forfeit for record in records] == ["", ""]


NETWORK = """
import socket
try:
    link = socket.create_connection(("127.0.0.1", PORT), timeout=2)
    link.sendall(b"a classmate's moves")
    raise RuntimeError("reached the network")
except OSError:
    pass
"""


@linux_only
@pytest.mark.parametrize("mode", MODES)
def test_no_network_with_or_without_bubblewrap(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A listener in the app's machine hears nothing from a student's file: inside
    bubblewrap it has no network of its own, outside it the guard refuses the socket."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.5)
    heard: list[bytes] = []

    def listen() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not heard:
            with contextlib.suppress(OSError):
                connection, _ = server.accept()
                heard.append(connection.recv(100) or b"(connected)")

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    port = server.getsockname()[1]
    agent = _agent(tmp_path, NETWORK, "network.py", f"PORT = {port}\n")
    records = _match(monkeypatch, mode, agent)
    server.close()
    assert [record.forfeit for record in records] == ["", ""]
    assert heard == []
