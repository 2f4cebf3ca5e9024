"""The optimal Pig table: the stored asset, the solver, exact small cases and Bellman checks."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plyground.games.pig import optimal as pig_optimal
from plyground.games.pig.optimal import PigTable, PigTableError, load, optimal_table, save, solve

ROOT = Path(__file__).resolve().parent.parent
BUILD_SCRIPT = ROOT / "assets" / "rebuild" / "pig_table.py"
ASSET = pig_optimal.asset_path(100)


@pytest.fixture(scope="module")
def stored() -> PigTable:
    """The shipped goal-100 table, read straight from the file."""
    return load(ASSET, 100)


def bellman(table: PigTable, i: int, j: int, k: int) -> tuple[float, float | None]:
    """(roll value, hold value or None at k = 0) of state (i, j, k) from neighbouring entries."""
    p = table.win_probability
    roll = (1.0 - p(j, i, 0) + sum(p(i, j, k + face) for face in range(2, 7))) / 6
    hold = None if k == 0 else 1.0 - p(j, i + k, 0)
    return roll, hold


def brute_force(goal: int) -> dict[tuple[int, int, int], float]:
    """P(i, j, k) by plain Jacobi value iteration over a dict, straight from the rules."""
    states = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    value = dict.fromkeys(states, 0.5)

    def p(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else value[i, j, k]

    while True:
        new = {}
        for i, j, k in states:
            roll = (1.0 - p(j, i, 0) + sum(p(i, j, k + face) for face in range(2, 7))) / 6
            new[i, j, k] = roll if k == 0 else max(roll, 1.0 - p(j, i + k, 0))
        change = max(abs(new[s] - value[s]) for s in states)
        value = new
        if change < 1e-14:
            return value


# --- the stored asset ---------------------------------------------------------------


def test_stored_asset_gives_neller_presser_start_probability(stored: PigTable) -> None:
    assert stored.goal == 100
    assert round(stored.win_probability(0, 0, 0), 4) == 0.5306
    assert stored.win_probability(0, 0, 0) == pytest.approx(0.530592725, abs=1e-9)


def test_optimal_table_loads_the_asset_and_caches_it(stored: PigTable) -> None:
    table = optimal_table(100)
    assert table is optimal_table(100)
    assert table.difference(stored) == (0.0, 0)


def test_asset_matches_a_fresh_solve_at_goal_100(stored: PigTable) -> None:
    largest, decisions = stored.difference(solve(100))
    assert largest < 2e-10  # uint32 quantisation: half a step is 1.2e-10
    assert decisions == 0


def test_stored_entries_satisfy_the_bellman_equation(stored: PigTable) -> None:
    rng = random.Random(2004)
    goal = stored.goal
    states = [(0, 0, k) for k in range(goal)]
    for _ in range(20_000):
        i = rng.randrange(goal)
        states.append((i, rng.randrange(goal), rng.randrange(goal - i)))
    for i, j, k in states:
        roll, hold = bellman(stored, i, j, k)
        best = roll if hold is None else max(roll, hold)
        assert stored.win_probability(i, j, k) == pytest.approx(best, abs=1e-8), (i, j, k)
        if hold is not None and abs(roll - hold) > 1e-8:
            assert stored.should_roll(i, j, k) == (roll > hold), (i, j, k)


def test_opening_decisions_from_the_table(stored: PigTable) -> None:
    # At 0-0 roll through turn total 20, hold from 21: Neller & Presser's optimal player
    # holds at "20-25-ish", and their simple 'keep pace' rule starts from 21.
    assert [stored.should_roll(0, 0, k) for k in range(1, 21)] == [True] * 20
    assert stored.hold_threshold(0, 0) == 21
    # Behind, roll for more; far behind (opponent at 85+), roll all the way to the goal.
    assert stored.hold_threshold(0, 50) == 29
    assert stored.hold_threshold(0, 85) == 100
    # Ahead, hold sooner.
    assert stored.hold_threshold(50, 0) == 15
    assert stored.hold_threshold(95, 0) == 5


# --- save / load ----------------------------------------------------------------------


@pytest.mark.parametrize("goal", [1, 2, 3, 7, 20])
def test_save_load_round_trip(goal: int, tmp_path: Path) -> None:
    table = solve(goal)
    path = tmp_path / f"pig_{goal}.bin"
    save(table, path)
    again = load(path, goal)
    largest, decisions = again.difference(table)
    assert largest < 2e-10
    assert decisions == 0
    assert PigTable.from_bytes(table.to_bytes()).difference(table) == (largest, 0)


@pytest.mark.slow
def test_build_script_rebuilds_and_checks(tmp_path: Path) -> None:
    out = tmp_path / "pig_15.bin"
    command = [sys.executable, str(BUILD_SCRIPT), "--goal", "15", "--out", str(out)]
    built = subprocess.run(command, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    largest, decisions = load(out, 15).difference(solve(15))
    assert largest < 2e-10 and decisions == 0
    checked = subprocess.run([*command, "--check"], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
    out.write_bytes(solve(16).to_bytes())  # a table for another goal
    checked = subprocess.run([*command, "--check"], capture_output=True, text=True, check=False)
    assert checked.returncode == 1
    assert "goal 16, not 15" in checked.stderr


def test_build_script_rejects_bad_arguments() -> None:
    command = [sys.executable, str(BUILD_SCRIPT), "--goal", "0"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "--goal" in result.stderr and "Traceback" not in result.stderr


def corrupt(data: bytes, how: str) -> bytes:
    """A damaged copy of a stored table."""
    if how == "magic":
        return b"NOTAPIG!" + data[8:]
    if how == "version":
        return data[:8] + (99).to_bytes(2, "little") + data[10:]
    if how == "truncated":
        return data[: len(data) // 2]
    if how == "header-only":
        return data[:20]
    if how == "flipped":
        middle = len(data) // 2
        return data[:middle] + bytes([data[middle] ^ 0x10]) + data[middle + 1 :]
    raise AssertionError(how)


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("magic", "bad magic"),
        ("version", "format version 99"),
        ("truncated", "payload is"),
        ("header-only", "shorter than the 32-byte header"),
        ("flipped", "checksum mismatch"),
    ],
)
def test_corrupt_files_raise_a_clear_error(how: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.bin"
    path.write_bytes(corrupt(solve(10).to_bytes(), how))
    with pytest.raises(PigTableError, match=message) as error:
        load(path)
    assert str(path) in str(error.value)
    assert "rebuild/pig_table.py" in str(error.value)


def test_load_checks_the_goal_and_the_file(tmp_path: Path) -> None:
    path = tmp_path / "pig_10.bin"
    save(solve(10), path)
    with pytest.raises(PigTableError, match="is for goal 10, not 12"):
        load(path, 12)
    with pytest.raises(PigTableError, match="cannot read"):
        load(tmp_path / "missing.bin")


# --- small goals, exactly -------------------------------------------------------------


def test_goals_one_and_two_are_six_sevenths_everywhere() -> None:
    # With goal <= 2 every roll of 2-6 wins: p = 5/6 + (1 - p)/6, so p = 6/7.
    for goal in (1, 2):
        table = solve(goal)
        for i in range(goal):
            for j in range(goal):
                assert table.win_probability(i, j, 0) == pytest.approx(6 / 7, abs=1e-12)


def test_goal_three_by_hand() -> None:
    # From 1 or 2 points any 2-6 wins, so P = 6/7 between such scores.  From 0 the
    # player rolls at turn total 2 (holding leaves 1 - 6/7): with u = P(0, 0, 0),
    # u = (1 - u)/6 + (5/6 + (1 - u)/6)/6 + 4/6 gives u = 36/43; with v = P(1, 0, 0)
    # and w = P(0, 1, 0): v = 1 - w/6 and w = 1 - 7v/36 give v = 180/209, w = 174/209.
    table = solve(3)
    exact = {
        (0, 0, 0): Fraction(36, 43),
        (1, 0, 0): Fraction(180, 209),
        (2, 0, 0): Fraction(180, 209),
        (0, 1, 0): Fraction(174, 209),
        (0, 2, 0): Fraction(174, 209),
        (1, 1, 0): Fraction(6, 7),
        (1, 2, 0): Fraction(6, 7),
        (2, 2, 0): Fraction(6, 7),
    }
    for (i, j, k), value in exact.items():
        assert table.win_probability(i, j, k) == pytest.approx(float(value), abs=1e-12)
    assert table.should_roll(0, 0, 2)  # rolling wins 5/6 at once; holding is worth 1/7


@pytest.mark.parametrize("goal", [4, 6, 9, 12])
def test_small_goals_match_brute_force_value_iteration(goal: int) -> None:
    table = solve(goal)
    for (i, j, k), value in brute_force(goal).items():
        assert table.win_probability(i, j, k) == pytest.approx(value, abs=1e-9), (i, j, k)
        roll, hold = bellman(table, i, j, k)
        if hold is not None and abs(roll - hold) > 1e-9:
            assert table.should_roll(i, j, k) == (roll > hold)


def test_table_agrees_with_the_game_engine() -> None:
    """Value iteration over the engine's own states (games.pig.rules) gives the same numbers."""
    pig = pytest.importorskip("plyground.games.pig.rules")
    goal = 8

    def settled(state: Any) -> bool:
        """Over, or the mover can hold to win (rolling on would grow the turn total for ever)."""
        return bool(
            state.is_terminal()
            or (
                state.to_move == state.player
                and state.scores[state.player] + state.turn_total >= goal
            )
        )

    start = pig.State(goal=goal)
    seen = {start}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if settled(state):
            continue
        for move in state.legal_moves():
            child = state.play(move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    open_states = [s for s in seen if not settled(s)]
    # value[s] = probability that s.player (whose turn it is, also at a chance node) wins.
    value = {s: 0.5 if s in open_states else 1.0 for s in seen}

    def worth(child: Any, player: int) -> float:
        if child.is_terminal():
            return 1.0 if child.winner() == player else 0.0
        return float(value[child] if child.player == player else 1.0 - value[child])

    for _ in range(1000):
        change = 0.0
        for s in open_states:
            outcomes = s.chance_outcomes()
            if outcomes:
                new = sum(pr * worth(s.play(face), s.player) for face, pr in outcomes)
            else:
                new = max(worth(s.play(move), s.player) for move in s.legal_moves())
            change = max(change, abs(new - value[s]))
            value[s] = new
        if change < 1e-13:
            break
    table = solve(goal)
    decisions = [s for s in seen if not s.is_terminal() and s.to_move != pig.CHANCE]
    for s in decisions:
        mine, theirs = s.scores if s.player == 0 else s.scores[::-1]
        expected = table.win_probability(mine, theirs, s.turn_total)
        assert value[s] == pytest.approx(expected, abs=1e-9), s
    assert len(decisions) > 100


# --- the table's interface --------------------------------------------------------------


def test_positions_at_or_past_the_goal() -> None:
    table = solve(10)
    assert table.win_probability(4, 3, 6) == 1.0  # holding wins at once
    assert table.win_probability(12, 3, 0) == 1.0
    assert table.win_probability(3, 10, 0) == 0.0  # the opponent has already won
    assert not table.should_roll(4, 3, 6)
    assert table.should_roll(9, 9, 0)  # hold is not allowed at turn total 0
    assert table.hold_win_probability(4, 3, 6) == 1.0
    with pytest.raises(ValueError, match="game is over"):
        table.should_roll(3, 10, 0)
    with pytest.raises(ValueError, match="turn total of 0"):
        table.hold_win_probability(3, 3, 0)
    with pytest.raises(ValueError, match=">= 0"):
        table.win_probability(-1, 0, 0)


def test_roll_and_hold_values_explain_the_decision(stored: PigTable) -> None:
    for i, j, k in [(0, 0, 10), (0, 0, 25), (60, 80, 15), (90, 40, 8)]:
        roll = stored.roll_win_probability(i, j, k)
        hold = stored.hold_win_probability(i, j, k)
        assert stored.win_probability(i, j, k) == pytest.approx(max(roll, hold), abs=1e-9)
        assert stored.should_roll(i, j, k) == (roll > hold)


@pytest.mark.parametrize("goal", [0, -5, 70000, True, 2.5])
def test_bad_goals_are_rejected(goal: object) -> None:
    with pytest.raises(ValueError, match="goal must be an integer"):
        solve(goal)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="goal must be an integer"):
        optimal_table(goal)  # type: ignore[arg-type]


def test_other_goals_are_solved_on_the_fly() -> None:
    assert not pig_optimal.asset_path(20).exists()
    table = optimal_table(20)
    assert table is optimal_table(20)
    assert table.goal == 20
    assert table.win_probability(0, 0, 0) == pytest.approx(0.6155585498, abs=1e-9)


def test_first_player_advantage_shrinks_with_the_goal() -> None:
    starts = [solve(goal).win_probability(0, 0, 0) for goal in (10, 20, 30, 50)]
    assert starts == sorted(starts, reverse=True)
    assert all(p > 0.5 for p in starts)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 99), st.integers(0, 99), st.integers(0, 99))
def test_more_points_never_hurt(i: int, j: int, k: int) -> None:
    table = optimal_table(100)
    k = k % (100 - i)
    here = table.win_probability(i, j, k)
    assert table.win_probability(i + 1, j, k) >= here - 1e-9
    assert table.win_probability(i, j, k + 1) >= here - 1e-9
    assert table.win_probability(i, j + 1, k) <= here + 1e-9
