"""Hostile files that read the worker's source: forged reports, voids at will, the teacher's
environment, memory the tree's cap could not see.

Each attack runs in both modes (bubblewrap where it works, and ``--sandbox off``); after each
the app is alive and untouched (attacks that could kill it run it as a command in a session of
its own), every process outside the student's tree is untouched, the attacker's games are its
own forfeits (never void), an honest file never forfeits nor voids, the teacher's environment
is never seen, memory stays within the cap and nothing of the run is left running.
"""

from __future__ import annotations

import os
import signal
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
from plyground.ai.student_code import worker as user_code
from plyground.ai.student_code.grader import cases, grade
from plyground.games import tictactoe

MAIN = str(Path(__file__).resolve().parents[1] / "main.py")
MARK = "PLYGROUND_HOSTILE_RUN"
"""The environment variable every process of one run inherits (to find leftovers)."""
MODES = [
    pytest.param("off", id="no sandbox"),
    pytest.param("auto", id="bubblewrap where it works"),
]

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs Linux's /proc")


def agent(folder: Path, body: str, header: str = "", name: str = "hostile.py") -> Path:
    """An agent whose choose() runs `body` first, then plays the first legal move."""
    path = folder / name
    path.write_text(
        "import ctypes, os, signal, sys, threading, time\n"
        + header
        + "\ndef choose(state):\n"
        + textwrap.indent(textwrap.dedent(body).strip(), "    ")
        + "\n    return state.legal_moves()[0]\n",
        encoding="utf-8",
    )
    return path


def forge(line: str) -> str:
    """A body that writes `line` on every descriptor the worker holds (its channel among
    them), as a student who read the worker's source would."""
    return f"""
for fd in range(3, 40):
    try:
        os.write(fd, {line!r}.encode() + b"\\n")
    except OSError:
        pass
"""


def marked(mark: str) -> list[int]:
    """Live processes (not zombies) started with `mark` in their environment."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z" and needle in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except (OSError, IndexError):
            continue
    return found


@pytest.fixture
def mark(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh marker the run's processes inherit; none of them is left after the test."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    monkeypatch.setattr(tictactoe.Game, "move_time_limit", 5.0)
    yield value
    deadline = time.monotonic() + 10
    while marked(value) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marked(value) == []


def play(
    monkeypatch: pytest.MonkeyPatch, mode: str, spec: str, games: int = 2, other: str = "random"
) -> list[GameRecord]:
    """A match of `spec` against `other` (a random player) in sandbox mode `mode`."""
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    records: list[GameRecord] = []
    setup = MatchSetup("tictactoe", (), (spec, other), seed=3, swap=True)
    run_match(setup, games, on_game=lambda record, _: records.append(record))
    return records


def assert_its_own_forfeits(records: list[GameRecord], reason: str) -> None:
    """Every game the attacker's forfeit, one line naming it, never void."""
    assert records
    for record in records:
        assert record.forfeiter == 0 and not record.void, (record.forfeit, record.void)
        assert record.forfeit.startswith("hostile.py: ") and "\n" not in record.forfeit
        assert reason in record.forfeit, record.forfeit


# --------------------------------------------------------- reports a worker cannot produce


def run_command(arguments: list[str], mode: str, mark: str) -> subprocess.CompletedProcess[str]:
    """A terminal command in a session of its own (a forged kill of its group reaches
    nothing of the test's), with the run's marker."""
    environment = {**os.environ, MARK: mark, sandbox.SANDBOX_VARIABLE: mode}
    return subprocess.run(
        [sys.executable, MAIN, *arguments],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        start_new_session=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_forged_supervisor_pid_kills_nothing(mode: str, mark: str, tmp_path: Path) -> None:
    """`{"supervisor": {"pid": N}}` on the channel once made the app kill group N: its own
    (0) or any process the student named."""
    bystander = subprocess.Popen(["sleep", "300"], start_new_session=True)
    try:
        body = forge('{"supervisor": {"pid": 0}}') + forge(
            f'{{"supervisor": {{"pid": {bystander.pid}}}}}'
        )
        path = str(agent(tmp_path, body))
        players = ["--p1", path, "--p2", "random", "--games", "2", "--seed", "3"]
        run = run_command(["match", "--game", "tictactoe", *players], mode, mark)
        assert run.returncode == 0, (run.returncode, run.stderr)
        assert "2 games" in run.stdout and "Traceback" not in run.stdout + run.stderr
        forfeits = [line for line in run.stderr.splitlines() if "forfeits" in line]
        assert len(forfeits) == 2 and all("not the protocol" in line for line in forfeits)
        assert bystander.poll() is None  # a process outside the student's tree: untouched
    finally:
        bystander.kill()
        bystander.wait()


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_forged_end_report_does_not_void_the_game(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = agent(tmp_path, forge('{"supervisor": {"ended": null}}'))
    assert_its_own_forfeits(play(monkeypatch, mode, str(path)), "not the protocol")


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_second_started_line_then_a_self_kill_is_its_forfeit(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = forge('{"started": true, "guarded": false}') + "os.kill(os.getpid(), signal.SIGKILL)"
    assert_its_own_forfeits(play(monkeypatch, mode, str(agent(tmp_path, body))), "")


@pytest.mark.slow
@pytest.mark.parametrize(
    "line",
    ['{"ok": "a1", "n": 1, "supervisor": {"ended": 0}}', '{"memory": 1}', '{"ok": 1, "pid": 0}'],
)
def test_a_line_of_no_kind_or_with_foreign_keys_is_not_the_protocol(
    line: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = agent(tmp_path, forge(line))
    assert_its_own_forfeits(play(monkeypatch, "off", str(path), games=1), "not the protocol")


# --------------------------------------------------------------- void only on evidence

EXIT_SOON = """
threading.Timer(0.1, os._exit, (0,)).start()  # gone just after its answer
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_worker_gone_just_after_answering_is_its_own_forfeit(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = tmp_path / "slow.py"  # its answers take longer than the attacker lives on
    slow.write_text("import time\n" + HONEST.replace("    return", "    time.sleep(0.4); return"))
    records = play(monkeypatch, mode, str(agent(tmp_path, EXIT_SOON)), 2, str(slow))
    assert_its_own_forfeits(records, "its process ended (exit code 0")


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_supervisor_killed_from_outside_voids_the_game(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one outside cause the app reads itself: its own wait on the supervisor."""
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    path = agent(tmp_path, "time.sleep(3)")
    worker = user_code.StudentWorker(
        str(path), {"kind": "agent", "path": str(path)}, user_code.Limits(20)
    )
    worker.start()
    supervisor, student = worker.supervisor_pid, worker.pid
    assert supervisor is not None and student is not None
    killer = subprocess.Popen(
        [sys.executable, "-c", f"import os, time; time.sleep(1); os.kill({supervisor}, 9)"]
    )
    from plyground.ai.student_code.messages import encode_state

    with pytest.raises(user_code.UserCodeError) as failure:
        worker.call({"state": encode_state(tictactoe.Game().initial_state())})
    killer.wait()
    worker.close()
    assert failure.value.void and not failure.value.setup
    assert "its supervisor was killed (SIGKILL) from outside" in failure.value.line
    deadline = time.monotonic() + 5
    while alive(student) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(student)  # it went with its supervisor


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


HONEST = "def choose(state):\n    return state.legal_moves()[0]\n"


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_honest_players_never_forfeit_nor_void(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    first = tmp_path / "first.py"
    first.write_text(HONEST, encoding="utf-8")
    second = tmp_path / "second.py"
    second.write_text(HONEST, encoding="utf-8")
    records: list[GameRecord] = []
    setup = MatchSetup("tictactoe", (), (str(first), str(second)), seed=1, swap=True)
    run_match(setup, 4, on_game=lambda record, _: records.append(record))
    assert [(record.forfeit, record.void) for record in records] == [("", "")] * 4


# ------------------------------------------------------------- the teacher's environment

SECRETS = {
    "TEACHER_TOKEN": "ghp_teachers_secret_0123456789",
    "SSH_AUTH_SOCK": "/tmp/ssh-teacher/agent.1234",
    "DISPLAY": ":7",
    "PYTHONSTARTUP": "/nonexistent/teacher_startup.py",
}

SNOOP = """
seen = [f"{name}={value}" for name, value in os.environ.items()]
for pid in (os.getppid(), 1):
    try:
        with open(f"/proc/{pid}/stat") as file:
            parent = int(file.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        parent = 0
    for each in (pid, parent):
        try:
            with open(f"/proc/{each}/environ", "rb") as file:
                seen.append(file.read().decode(errors="replace"))
        except OSError:
            pass
text = " ".join(seen)
for secret in SECRETS:
    if secret in text:
        raise RuntimeError("saw " + text)
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_the_teachers_environment_is_never_seen(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    header = f"SECRETS = {list(SECRETS.values())!r}\n"
    records = play(monkeypatch, mode, str(agent(tmp_path, SNOOP, header)))
    assert [(record.forfeit, record.void) for record in records] == [("", "")] * 2
    shown = repr([(record.forfeit, record.forfeit_details) for record in records])
    assert not any(secret in shown for secret in SECRETS.values())


# ---------------------------------------------------------------- memory that is memory

MEMORY_CAP = 200 << 20
HELD = 300
"""Megabytes an attacker tries to hold outside its processes' resident memory (over the
cap of `MEMORY_CAP`)."""

HOLDERS = {
    "memfd": """
if not KEPT:
    try:
        fd = os.memfd_create("held")
    except OSError:
        KEPT.append(None)
    else:
        block = b"x" * (1 << 20)
        for _ in range(HELD):
            os.write(fd, block)
        KEPT.append(fd)
        raise RuntimeError(f"held {HELD} MB in a memory file")
""",
    "dev_shm": """
if not KEPT:
    KEPT.append(None)
    block = b"x" * (1 << 20)
    try:
        with open("/dev/shm/held", "wb") as file:
            for _ in range(HELD):
                file.write(block)
                file.flush()
    except OSError:
        pass
    else:
        raise RuntimeError(f"held {HELD} MB in /dev/shm")
""",
    "sysv_shm": """
if not KEPT:
    KEPT.append(None)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    key = libc.shmget(0, HELD << 20, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
    if key >= 0:
        address = libc.shmat(key, None, 0)
        ctypes.memset(address, 1, HELD << 20)
        libc.shmdt(ctypes.c_void_p(address))
        libc.shmctl(key, 0, None)  # IPC_RMID: still held until the namespace goes
        raise RuntimeError(f"held {HELD} MB of System V shared memory")
""",
    "big_file": """
if not KEPT:
    KEPT.append(None)
    import tempfile
    block = b"x" * (1 << 20)
    try:
        with open(os.path.join(tempfile.gettempdir(), "held"), "wb") as file:
            for _ in range(HELD):
                file.write(block)
                file.flush()
    except OSError:
        pass
    else:
        raise RuntimeError(f"held a {HELD} MB file")
""",
}


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", list(HOLDERS))
def test_memory_outside_the_processes_is_refused(
    kind: str, mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(user_code, "MEMORY_CAP", MEMORY_CAP)
    header = f"HELD = {HELD}\nKEPT = []\n"
    records = play(monkeypatch, mode, str(agent(tmp_path, HOLDERS[kind], header)))
    assert [(record.forfeit, record.void) for record in records] == [("", "")] * 2


MANY_FILES = """
import tempfile
block, written = b"x" * (1 << 20), 0
try:
    for number in range(HELD // 50 + 1):  # each file under the file-size limit
        with open(os.path.join(tempfile.gettempdir(), f"held{number}"), "wb") as file:
            for _ in range(50):
                file.write(block)
                file.flush()
                written += 1
except OSError:
    pass
if written >= HELD:
    time.sleep(2)  # held while the game plays on
    raise RuntimeError(f"held {written} MB in files")
"""


OWN_NAMESPACE = """
import ctypes
readable, writable = os.pipe()
if os.fork() == 0:  # one thread: where a user namespace can be made
    libc = ctypes.CDLL(None, use_errno=True)
    made = libc.unshare(0x10000000 | 0x00020000)  # CLONE_NEWUSER | CLONE_NEWNS
    mounted = libc.mount(b"none", b"/tmp", b"tmpfs", 0, b"size=4g") if made == 0 else -1
    os.write(writable, f"unshare {made}, mount {mounted}".encode())
    os._exit(0)
os.wait()
raise RuntimeError(os.read(readable, 100).decode())
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_no_namespace_of_its_own_to_mount_memory_in(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user and mount namespace would let it mount a tmpfs of 4 GB, memory outside every
    process (inside bubblewrap the mount worked): no namespace is made."""
    records = play(monkeypatch, mode, str(agent(tmp_path, OWN_NAMESPACE)), games=1)
    assert_its_own_forfeits(records, "unshare -1, mount -1")


INTO_THE_HIDDEN = """
import plyground
folder = os.path.join(os.path.dirname(plyground.__file__), "ai", "textbook")
try:
    with open(os.path.join(folder, "held"), "wb") as file:
        file.write(b"x" * (1 << 20))
except OSError as error:
    raise RuntimeError(f"refused: {error.strerror}") from None
raise RuntimeError("held 1 MB where the reference was hidden")
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_the_hidden_references_place_holds_no_memory(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bubblewrap hides the reference under an empty tmpfs: read-only and sized, so no
    memory can be held there (it was writable and unsized)."""
    records = play(monkeypatch, mode, str(agent(tmp_path, INTO_THE_HIDDEN)), games=1)
    assert_its_own_forfeits(records, "refused: ")


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_files_in_its_scratch_count_with_its_memory(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its scratch folder may be a tmpfs (memory): bounded inside bubblewrap, counted by
    the supervisor outside it, so the tree is ended past the cap."""
    monkeypatch.setattr(user_code, "MEMORY_CAP", MEMORY_CAP)
    header = f"HELD = {HELD}\n"
    records = play(monkeypatch, mode, str(agent(tmp_path, MANY_FILES, header)), games=1)
    for record in records:
        assert not record.void and "held" not in record.forfeit, record.forfeit
        assert not record.forfeit or "of memory in all its processes" in record.forfeit


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_the_graders_worker_holds_no_memory_file_across_cases(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    monkeypatch.setattr(user_code, "MEMORY_CAP", MEMORY_CAP)
    path = tmp_path / "hostile.py"
    path.write_text(
        "import os\nKEPT = []\n"
        "def minimax_decision(game, s, depth):\n"
        "    fd = os.memfd_create('held')\n"
        "    os.write(fd, b'x' * (50 << 20))\n"
        "    KEPT.append(fd)\n"
        "    return None, 0.0\n",
        encoding="utf-8",
    )
    outcomes = grade("minimax", str(path), seconds=5)
    assert len(outcomes) == len(list(cases("minimax")))
    assert all("PermissionError" in outcome.line for outcome in outcomes), [
        outcome.line for outcome in outcomes
    ]


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_the_graders_worker_carries_no_memory_from_case_to_case(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """60 MB resident kept by each case: over the cap by the fourth case in one worker."""
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    monkeypatch.setattr(user_code, "MEMORY_CAP", MEMORY_CAP)
    path = tmp_path / "hostile.py"
    path.write_text(
        "KEPT = []\n"
        "def minimax_decision(game, s, depth):\n"
        "    KEPT.append(bytearray(60 << 20))\n"
        "    return None, 0.0\n",
        encoding="utf-8",
    )
    outcomes = grade("minimax", str(path), seconds=5)
    assert len(outcomes) == len(list(cases("minimax")))
    assert not any("memory" in outcome.line for outcome in outcomes), [
        outcome.line for outcome in outcomes
    ]


def test_the_rule_voids_only_on_evidence_of_the_apps_own() -> None:
    """The one rule: a worker's end is its forfeit unless Plyground's own evidence names a
    cause outside its code (or, with neither guard nor sandbox, nobody can tell)."""
    from plyground.ai.student_code.endings import Evidence, judge

    started = {"started": True, "sandboxed": False, "guarded": True}
    assert not judge(Evidence(**started, worker_code=0, supervisor_status=0)).void
    assert not judge(Evidence(**started, worker_code=None, supervisor_status=0)).void
    assert not judge(Evidence(**started, worker_code=-signal.SIGKILL)).void
    assert judge(Evidence(**started, supervisor_status=-signal.SIGKILL)).void
    sandboxed = {**started, "sandboxed": True}
    assert judge(Evidence(**sandboxed, worker_code=-signal.SIGKILL)).void
    assert not judge(Evidence(**sandboxed, worker_code=128 + signal.SIGKILL)).void
    assert judge(Evidence(**started, supervisor_stopped=True)).void
    unguarded = {**started, "guarded": False}
    assert judge(Evidence(**unguarded, worker_code=-signal.SIGKILL)).void
    assert not judge(Evidence(**unguarded, worker_code=-signal.SIGSEGV)).void
    assert judge(Evidence(**{**started, "started": False}, worker_code=1)).setup


FORKS_THEN_WAITS = """
if os.fork() == 0:  # a process of its own tree, left behind if only the worker dies
    time.sleep(60)
    os._exit(0)
time.sleep(3)
"""


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_nothing_of_its_tree_is_left_when_its_supervisor_is_killed(
    mode: str, mark: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker goes with its supervisor (a parent-death signal), and what it forked goes
    too: the app ends the worker's session, which no process of it can leave."""
    monkeypatch.setenv(sandbox.SANDBOX_VARIABLE, mode)
    path = agent(tmp_path, FORKS_THEN_WAITS)
    worker = user_code.StudentWorker(
        str(path), {"kind": "agent", "path": str(path)}, user_code.Limits(20)
    )
    worker.start()
    supervisor = worker.supervisor_pid
    killer = subprocess.Popen(
        [sys.executable, "-c", f"import os, time; time.sleep(1.5); os.kill({supervisor}, 9)"]
    )
    from plyground.ai.student_code.messages import encode_state

    with pytest.raises(user_code.UserCodeError) as failure:
        worker.call({"state": encode_state(tictactoe.Game().initial_state())})
    killer.wait()
    worker.close()
    assert failure.value.void  # the fixture `mark` asserts nothing of the run is left


@pytest.mark.parametrize("void", [True, False])
def test_a_file_check_ended_in_a_game_is_that_games_void_or_forfeit(
    void: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pool process checks a player's file again before its game: a check ended by a cause
    outside the file (its supervisor stopped from outside) voids that game, any other failure
    (the file changed since the app checked it) is that player's forfeit; never an error out
    of the match."""
    from plyground.ai.players import match

    path = agent(tmp_path, "pass")

    def ended(self: user_code.StudentWorker, *_: object, **__: object) -> object:
        error = user_code.UserCodeError(self.path, "its supervisor was stopped from outside")
        error.void = void
        raise error

    monkeypatch.setattr(user_code.StudentWorker, "call", ended)
    monkeypatch.setattr(match, "_PARSED_SPECS", {})
    setup = MatchSetup("tictactoe", (), ("random", str(path)), seed=3)
    record = match.play_game(setup, 0)
    assert record.forfeit == "hostile.py: its supervisor was stopped from outside"
    assert bool(record.void) == void
    assert record.winner == (None if void else 0)
