"""Every request estimates its cost before it starts.

What cannot finish in reasonable time or memory is refused with the estimate (or runs
with the estimate said and Ctrl+C as the way out); conflicting modes are refused before
any work; --jobs never exceeds the work or the cores; a FIFO nobody reads never blocks.
"""

from __future__ import annotations

import json
import os

import pytest

import main
from plyground import games
from plyground.ai.engine import cost
from plyground.games.pig import optimal as pig_optimal


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused(status: int, out: str, err: str, *words: str) -> None:
    assert (status, out) == (2, ""), err
    assert len(err.strip().splitlines()) == 1 and "internal error" not in err
    for word in words:
        assert word in err, err


@pytest.fixture
def small_machine(monkeypatch):
    """A machine with 1 GB free, whatever this one has."""
    monkeypatch.setattr(cost, "available_memory", lambda: 2**30)


def test_pigs_table_cost_is_estimated_by_its_game():
    factory = games.GAMES["pig"]
    estimate = cost.option_cost(factory, {"goal": 300})
    assert estimate.states == pig_optimal.state_count(300) == 13_545_000
    assert estimate.memory == pig_optimal.SOLVE_BYTES_PER_STATE * estimate.states
    assert cost.option_cost(factory, {"goal": 100}).seconds == 0.0  # the stored table
    assert cost.option_cost(games.GAMES["connect4"], {}) is None
    reason = cost.option_refusal(factory, {"goal": 1000}, memory=2**30)
    assert reason is not None and "goal 1000" in reason and "use goal 274 or less" in reason
    assert cost.option_refusal(factory, {"goal": 274}, memory=2**30) is None
    assert cost.option_refusal(factory, {"goal": 275}, memory=2**30) is not None


def test_policy_for_a_huge_goal_is_refused_with_the_estimate(capsys, small_machine):
    refused(*run(capsys, "policy", "--game", "pig", "--goal", "1000"), "24.2 GB", "goal 274")


def test_a_player_that_reads_a_huge_table_is_refused(capsys, small_machine):
    argv = ["match", "--game", "pig", "--goal", "1000", "--p1", "expert", "--p2", "easy"]
    refused(*run(capsys, *argv), "--p1 'expert'", "optimal-play table")
    argv = ["match", "--game", "pig", "--goal", "1000", "--p1", "hard", "--p2", "easy"]
    status, _, err = run(capsys, *argv, "--games", "1")
    assert status == 0, err  # Hard does not read the table: goal 1000 plays


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["match", "--game", "tictactoe", "--p1", "easy", "--p2", "easy", "--games", "10**9"], ()),
        (["tournament", "--game", "connect4", "--players", "expert,expert", "--games", "2000"], ()),
        (["compare", "--game", "connect4", "--depth", "1-64", "--max-seconds", "1e308"], ()),
    ],
)
def test_requests_that_cannot_finish_are_refused_with_the_estimate(capsys, argv, words):
    argv = [str(10**9) if word == "10**9" else word for word in argv]
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, ""), err
    assert "would take about" in err and "(estimated)" in err and "internal error" not in err
    assert err.strip().splitlines()[-1].startswith("plyground:")


def test_yes_plays_a_long_match_anyway_and_jobs_are_capped(capsys, tmp_path):
    out = tmp_path / "m.json"
    argv = ["match", "--game", "tictactoe", "--p1", "random", "--p2", "random", "--games", "2"]
    status, _, err = run(capsys, *argv, "--jobs", "64", "--json", str(out), "--quiet")
    assert status == 0, err
    assert json.loads(out.read_text())["jobs"] == min(2, os.cpu_count() or 1)


def test_two_benchmarks_at_once_are_refused_before_any_work(capsys):
    refused(*run(capsys, "bench", "--solver", "--policy", "pig"), "one at a time")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_nobody_reads_as_json_never_blocks(capsys, tmp_path):
    fifo = tmp_path / "rows.json"
    os.mkfifo(fifo)
    argv = ["compare", "--game", "tictactoe", "--moves", "5394", "--depth", "1-2"]
    status, out, err = run(capsys, *argv, "--json", str(fifo))
    assert status == 2 and "a pipe (FIFO) that nobody reads" in err
    assert '"rows"' in out, "the results are shown instead"


@pytest.mark.parametrize("command", ["analyze", "trace", "compare"])
def test_a_heuristic_that_reads_a_huge_table_is_refused(capsys, small_machine, command):
    argv = [command, "--game", "pig", "--goal", "1000", "--heuristic", "optimal", "--depth", "1"]
    refused(*run(capsys, *argv), "--heuristic optimal", "use goal 274 or less")


def test_free_memory_is_read_through_psutil_on_every_system(monkeypatch) -> None:
    """psutil's available memory (Linux, Windows and macOS alike); without psutil, a
    small machine is assumed."""
    import sys
    from types import SimpleNamespace

    import psutil

    monkeypatch.setattr(psutil, "virtual_memory", lambda: SimpleNamespace(available=123 << 20))
    assert cost.available_memory() == 123 << 20
    monkeypatch.setitem(sys.modules, "psutil", None)
    assert cost.available_memory() == cost.UNKNOWN_MEMORY
