"""Results survive: a dead pool worker costs at most its game, and a killed or stopped match or
tournament keeps every finished game in its --json and --record files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from plyground.ai.players.game_pool import WORKER_DIED, pool_results
from plyground.ai.players.match import MatchSetup, MatchTally, play_tasks, void_record
from plyground.cli.stop_signals import Stopped, exit_status, stop_reason

import dying_tasks  # isort: skip  # tests/ is on the path of the tests and their workers

ROOT = Path(__file__).resolve().parent.parent
SLOW_PLAYER = "alphabeta:depth=5"
"""A connect-four player slow enough (tens of ms a game) to be stopped half-way."""


@pytest.mark.slow
def test_a_worker_that_always_dies_costs_only_its_own_task() -> None:
    results = list(
        pool_results(((i, 3) for i in range(8)), dying_tasks.square_or_die, 2, dying_tasks.lost)
    )
    assert results == [0, 1, 4, -1, 16, 25, 36, 49]


@pytest.mark.slow
def test_a_worker_killed_once_costs_nothing(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    tasks = ((i, marker) for i in range(6))
    results = list(pool_results(tasks, dying_tasks.square_or_die_once, 2, dying_tasks.lost))
    assert results == [0, 1, 4, 9, 16, 25]
    assert Path(marker).exists()


@pytest.mark.slow
def test_a_match_stopped_half_way_leaves_no_pipe_for_the_exit_hook() -> None:
    """A stopped pool's manager thread closes its wake-up pipe as it ends; CPython's exit
    hook writes to every pipe it knows, so one closing just then printed a traceback on
    Ctrl+C (seen once in CI).  Stopping the pool must take its pipe off that list."""
    from concurrent.futures import process as futures_process

    before = set(futures_process._threads_wakeups)
    results = pool_results(
        ((i, -1) for i in range(40)), dying_tasks.square_or_die, 2, dying_tasks.lost
    )
    assert next(results) == 0
    results.close()  # as Ctrl+C does: the pool is stopped with games still to play
    assert set(futures_process._threads_wakeups) <= before


def test_a_void_game_counts_for_nobody() -> None:
    setup = MatchSetup("tictactoe", (), ("random", "random"), seed=1, swap=True)
    tally = MatchTally()
    records = list(play_tasks([(setup, 0), (setup, 1)]))
    for record in records:
        tally.add(record)
    tally.add(void_record((setup, 2), WORKER_DIED))
    assert tally.games == 2 and tally.void == 1
    assert tally.players[0].points + tally.players[1].points == 2


def test_signals_map_to_exit_statuses() -> None:
    assert exit_status(KeyboardInterrupt()) == 130
    assert exit_status(Stopped(signal.SIGTERM)) == 143
    assert stop_reason(Stopped(signal.SIGTERM)) == "stopped by SIGTERM"
    assert stop_reason(KeyboardInterrupt()) == "interrupted"


def start_match(
    tmp_path: Path, games: int, *extra: str, own_group: bool = False
) -> subprocess.Popen[str]:
    """A CLI match of slow connect-four players writing --json and --record in `tmp_path`."""
    command = [sys.executable, str(ROOT / "main.py"), "match", "--game", "connect4"]
    command += ["--p1", SLOW_PLAYER, "--p2", SLOW_PLAYER, "--games", str(games), "--swap"]
    command += ["--json", str(tmp_path / "games.json"), "--record", str(tmp_path / "games.txt")]
    return subprocess.Popen(
        [*command, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        cwd=tmp_path,
        start_new_session=own_group,
    )


def wait_for_games(child: subprocess.Popen[str], done: int) -> list[str]:
    """Read the child's progress lines ("6/60 games ...") until `done` games are reported."""
    assert child.stderr is not None
    seen = []
    for line in child.stderr:
        seen.append(line)
        count, slash, _ = line.partition(" ")[0].partition("/")
        if slash and count.isdigit() and int(count) >= done:
            return seen
    raise AssertionError(f"the match ended before {done} games: {''.join(seen)}")


def wait_for_file(holds: Callable[[], bool], seconds: float = 60.0) -> bool:
    """Poll the child's output files until `holds()` (a rewrite may trail its game a little)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if holds():
                return True
        except (OSError, ValueError):
            pass  # not written yet
        time.sleep(0.01)
    return False


def written(tmp_path: Path) -> tuple[int, int]:
    """How many games the --json file and the --record file hold now."""
    data, lines = saved_games(tmp_path)
    played = data["games_played"]
    return (len(played) if isinstance(played, list) else 0), len(lines)


def saved_games(tmp_path: Path) -> tuple[dict[str, object], list[str]]:
    """The --json data and the --record lines as the files hold them now."""
    data = json.loads((tmp_path / "games.json").read_text(encoding="utf-8"))
    lines = (tmp_path / "games.txt").read_text(encoding="utf-8").splitlines()
    return data, lines


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kill -9 is a Unix signal")
def test_a_match_killed_half_way_keeps_its_finished_games(tmp_path: Path) -> None:
    child = start_match(tmp_path, 60)
    try:
        wait_for_games(child, 12)
        assert wait_for_file(lambda: min(written(tmp_path)) >= 12)  # both files, paced apart
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:
        child.kill()
        child.communicate()
    data, lines = saved_games(tmp_path)
    played = data["games_played"]
    assert isinstance(played, list)
    assert len(played) >= 12 and data["games"] == len(played)
    assert len(lines) >= 12
    assert [game["moves"] for game in played[: len(lines)]] == lines[: len(played)]


@pytest.mark.slow
@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_stopped_match_reports_and_writes_what_it_played(
    tmp_path: Path, name: str, status: int
) -> None:
    number = getattr(signal, name, None)
    if number is None:
        pytest.skip(f"no {name} here")
    child = start_match(tmp_path, 60)
    try:
        wait_for_games(child, 12)
        child.send_signal(number)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == status, err
    assert f"stopped by {name} after" in err
    assert "(interrupted, of 60)" in out and "Results written to" in out
    data, lines = saved_games(tmp_path)
    assert 12 <= data["games"] < 60
    assert len(lines) == data["games"] == len(data["games_played"])  # type: ignore[arg-type]


def worker_pids(parent: int) -> list[int]:
    """The pool workers under `parent` (Linux: read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rpartition(")")[2].split()[1])
        if ppid == parent and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds workers in /proc")
def test_a_match_goes_on_when_a_pool_worker_is_killed(tmp_path: Path) -> None:
    child = start_match(tmp_path, 40, "--jobs", "2")
    try:
        wait_for_games(child, 8)
        workers = worker_pids(child.pid)
        assert workers
        os.kill(workers[0], signal.SIGKILL)
        _out, err = child.communicate(timeout=300)
    finally:
        child.kill()
    assert child.returncode == 0, err
    data, lines = saved_games(tmp_path)
    assert data["games"] + data["void"] == 40  # type: ignore[operator]
    assert data["void"] == 0  # a game killed once is played again, with the same seeds
    assert len(lines) == 40


@pytest.mark.slow
def test_a_stopped_tournament_reports_and_writes_what_it_played(tmp_path: Path) -> None:
    command = [sys.executable, str(ROOT / "main.py"), "tournament", "--game", "connect4"]
    command += ["--players", f"{SLOW_PLAYER},alphabeta:depth=4,easy", "--games", "20"]
    command += ["--json", str(tmp_path / "cross.json")]
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    try:
        wait_for_games(child, 12)

        def played() -> int:
            saved = json.loads((tmp_path / "cross.json").read_text(encoding="utf-8"))
            return sum(int(row["games"]) for row in saved["ranking"]) // 2

        assert wait_for_file(lambda: played() >= 12)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 143, err
    assert "stopped by SIGTERM after" in err and "Ranking" in out
    data = json.loads((tmp_path / "cross.json").read_text(encoding="utf-8"))
    played = sum(row["games"] for row in data["ranking"]) // 2
    assert 12 <= played < 60
    assert all(len(row["elo_ci95"]) == 2 for row in data["ranking"] if row["games"])
    assert all(row["elo"] is None for row in data["ranking"] if not row["games"])  # unrated


def test_a_running_file_is_rewritten_each_result_unless_that_costs_too_much(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground.cli import output

    clock = [100.0]
    monkeypatch.setattr(output.time, "perf_counter", lambda: clock[0])
    warnings: list[str] = []
    target = tmp_path / "results.json"
    running = output.RunningFile(output.OutputFile(str(target), "--json"), warnings.append)

    def made(text: str, seconds: float) -> str:
        clock[0] += seconds  # the rewrite takes `seconds`
        return text

    running.update(lambda: made("1\n", 0.001))
    clock[0] += 0.05  # a game of 50 ms: more than 9 times the rewrite, so the next is due
    running.update(lambda: made("2\n", 0.001))
    assert target.read_text(encoding="utf-8") == "2\n"
    clock[0] += 0.005  # a game of 5 ms: rewriting now would take more than a tenth
    asked: list[str] = []
    running.update(lambda: asked.append("3") or "3\n")  # type: ignore[func-returns-value]
    assert asked == [] and target.read_text(encoding="utf-8") == "2\n"
    clock[0] += 0.005
    running.update(lambda: made("4\n", 0.001))
    assert target.read_text(encoding="utf-8") == "4\n"
    assert running.finish("final\n", "the results") and warnings == []
    assert target.read_text(encoding="utf-8") == "final\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]  # no temporary left


def test_a_running_file_that_cannot_be_written_says_so_once(tmp_path: Path) -> None:
    from plyground.cli import output

    folder = tmp_path / "gone"
    folder.mkdir()
    warnings: list[str] = []
    running = output.RunningFile(
        output.OutputFile(str(folder / "r.json"), "--json"), warnings.append
    )
    folder.rmdir()
    running.update(lambda: "1\n")
    running.update(lambda: "2\n")
    assert len(warnings) == 1 and "trying again at the end" in warnings[0]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_a_hang_up_to_the_whole_process_group_stops_a_pool_cleanly(tmp_path: Path) -> None:
    child = start_match(tmp_path, 60, "--jobs", "2", own_group=True)
    try:
        wait_for_games(child, 12)
        os.killpg(child.pid, signal.SIGHUP)  # what a dropped terminal sends
        _out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 129, err
    assert "Traceback" not in err and "stopped by SIGHUP" in err
    data, lines = saved_games(tmp_path)
    assert 12 <= data["games"] < 60 and len(lines) == data["games"]  # type: ignore[operator]


def test_a_players_file_is_checked_once_per_version_not_per_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plyground import games
    from plyground.ai.players import match

    agent = tmp_path / "first.py"
    agent.write_text("def choose(state):\n    return state.legal_moves()[0]\n", encoding="utf-8")
    parsed: list[str] = []
    real = match.parse_player_spec

    def counting(name: str, spec: str, game: object = None) -> object:
        parsed.append(spec)
        return real(name, spec, game)

    monkeypatch.setattr(match, "parse_player_spec", counting)
    game = games.get_game("tictactoe")
    for _ in range(3):
        match.check_player_spec(game, str(agent))
    assert parsed == [str(agent)]
    later = agent.stat().st_mtime + 5
    os.utime(agent, (later, later))  # a new version is checked again
    match.check_player_spec(game, str(agent))
    assert parsed == [str(agent)] * 2


def test_the_running_json_is_the_same_text_as_the_final_one(tmp_path: Path) -> None:
    import argparse

    from plyground.ai.players.match import MatchTally, play_tasks
    from plyground.cli.args import json_text
    from plyground.cli.match_command import MatchFiles, match_json

    args = argparse.Namespace(record=None, json=str(tmp_path / "m.json"), jobs=1)
    files = MatchFiles(args, errors=None)
    setup = MatchSetup("tictactoe", (), ("random", "easy"), seed=3, swap=True)
    tally = MatchTally()
    for count, record in enumerate(play_tasks([(setup, i) for i in range(4)]), start=1):
        tally.add(record)

        def summary() -> dict[str, object]:
            return match_json(args, setup, tally, ["r", "e"], files.records, 1.5)

        assert files.json is not None
        files.json.next_due = 0.0  # each game written, however quick
        files.add(record, summary)
        assert json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))["games"] == count
    data = match_json(args, setup, tally, ["r", "e"], files.records, 1.5)
    assert files.json_text(data) == json_text(data)
    empty = match_json(args, setup, MatchTally(), ["r", "e"], [], 0.0)
    assert MatchFiles(args, errors=None).json_text(empty) == json_text(empty)


def test_temporary_files_a_killed_run_left_go_when_the_output_is_checked(tmp_path: Path) -> None:
    from plyground.cli import output

    stale = tmp_path / ".games.json.abcd1234.tmp.json"
    fresh = tmp_path / ".games.json.wxyz9876.tmp.json"
    other = tmp_path / ".other.json.abcd1234.tmp.json"
    for path in (stale, fresh, other):
        path.write_text("{", encoding="utf-8")
    old = time.time() - 2 * output.STALE_TEMPORARY_SECONDS
    for path in (stale, other):
        os.utime(path, (old, old))
    output.output_file(str(tmp_path / "games.json"), "--json")
    assert not stale.exists()
    assert fresh.exists() and other.exists()  # a write in progress; another file's
