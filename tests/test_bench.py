"""The benchmark helpers: score conversion, the solver hook on known positions, depth ladders."""

from __future__ import annotations

from pathlib import Path

import pytest

from plyground import games
from plyground.ai.bench import searches as bench
from plyground.ai.evaluation.values import STEP, WIN

DATA = Path(games.__file__).resolve().parent / "connect4" / "data"
SETS = games.GAMES["connect4"].solver_benchmark  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("value", "played", "expected"),
    [
        (WIN - 1 * STEP, 6, 22 - 4),  # the mover's 4th stone wins at once
        (-(WIN - 2 * STEP), 7, -(22 - 5)),  # the opponent's 5th stone (ply 9) wins
        (WIN - 35 * STEP, 6, 1),  # the winner's last possible (21st) stone
        (0.0, 10, 0),
    ],
)
def test_connect4_score_from_a_proven_value(value: float, played: int, expected: int) -> None:
    assert bench.solver_score(SETS, value, played, exact=True) == expected


def test_an_unproven_value_has_no_score() -> None:
    assert bench.solver_score(SETS, 0.25, 10, exact=False) is None


def solver_engine_loads() -> bool:
    from plyground.games.connect4 import solver as connect4_solver

    return connect4_solver.compiled() is not None


@pytest.mark.slow
def test_the_solver_hook_gets_known_endgame_scores_right() -> None:
    report = bench.solver_bench(DATA / "Test_L3_R1.txt", limit=15)
    assert report["set"] == "L3_R1" and report["positions"] == 15
    engines = bench.SOLVER_ENGINES if solver_engine_loads() else ("python",)
    assert [(row["engine"], row["mode"]) for row in report["rows"]] == [
        (engine, mode) for engine in engines for mode in ("score", "move")
    ]
    for row in report["rows"]:
        assert row["solved"] == 15 and row["unsolved"] == []
        assert row["all_right"], row["wrong"]
        assert 0 < row["median_nodes"] <= row["max_nodes"]
        assert row["mean_nodes"] > 0 and row["mean_time"] > 0
    assert report["reference"] == {"mean_nodes": 51, "mean_time": 5.5e-6}
    assert report["game"] == "connect4" and report["stage"] == "end game, easy"
    text = "\n".join(bench.format_solver_bench(report))
    assert "score only" in text and "score + move" in text and "Pons nodes" in text
    assert "nodes/s" in text and "positions/s" in text


def test_every_solver_set_is_found_by_its_short_name() -> None:
    for name in bench.SOLVER_SETS:
        path = bench.solver_set_path(name)
        assert path.is_file()
        assert len(bench.read_solver_file(path)) == 1000
    assert bench.solver_set_path("Test_l2_r1.txt").name == "Test_L2_R1.txt"
    with pytest.raises(ValueError, match="L3_R1"):
        bench.solver_set_path("L9_R9")


@pytest.mark.slow
@pytest.mark.usefixtures("no_book")  # with the book this opening solves at once
def test_a_position_out_of_time_counts_as_unsolved() -> None:
    game = games.get_game("connect4")
    state = game.replay(game.parse_moves("44"))  # far too hard to solve in a millisecond
    for mode in bench.SOLVER_MODES:
        score, _, elapsed = bench.solve_position(state, mode, position_time=0.001)
        assert score is None
        assert elapsed < 5


@pytest.mark.slow
def test_both_modes_agree_with_the_file_on_middle_game_positions() -> None:
    reports = bench.solver_suite((("L2_R1", 5),))
    assert len(reports) == 1
    for row in reports[0]["rows"]:
        assert row["solved"] == 5 and row["all_right"], row["wrong"]


def test_every_bench_position_is_a_legal_unfinished_position() -> None:
    positions = bench.all_positions()
    assert {position.game for position in positions} == set(games.GAMES)
    assert bench.POSITIONS is None  # every run reads the games' own positions
    for position in positions:
        game = games.get_game(position.game, **dict(position.options))
        state = game.replay(game.parse_moves(position.moves))
        assert not state.is_terminal(), position


@pytest.mark.slow
def test_the_search_table_compares_alphabeta_with_minimax(monkeypatch: pytest.MonkeyPatch) -> None:
    small = (bench.BenchPosition("tictactoe", "after 519", "519"),)
    monkeypatch.setattr(bench, "POSITIONS", small)
    report = bench.search_bench(quick=True)
    ladders = report[0]["algorithms"]
    assert set(ladders) == {"minimax", "alphabeta", "expectiminimax"}
    alphabeta = {row["depth"]: row for row in ladders["alphabeta"]}
    for row in ladders["minimax"]:
        assert alphabeta[row["depth"]]["value"] == pytest.approx(row["value"])
        assert alphabeta[row["depth"]]["share_of_minimax"] is not None
    text = "\n".join(bench.format_search_bench(report))
    assert "of minimax" in text
    assert "time to reach each depth" in text
    assert "ebf" in text


def test_the_solver_sets_come_from_the_game_that_offers_them() -> None:
    assert bench.solver_games() == ["connect4"]
    assert bench.SOLVER_SETS["L3_R1"] == "end game, easy"
    assert bench.HARD_SOLVER_SETS == ("L1_R2", "L1_R3")
    assert bench.DEFAULT_SOLVER_PLAN[0] == ("L3_R1", None)
    assert bench.solver_set_path("l3_r1").parent == DATA
    with pytest.raises(ValueError, match="no solver test sets"):
        bench.solver_benchmark("tictactoe")
    report = bench.solver_bench(limit=2, modes=("score",))  # the first set of the first game
    assert report["set"] == "L3_R1" and report["rows"][0]["all_right"]
    assert "Pascal Pons" in "\n".join(bench.format_solver_bench(report))


def test_the_whole_call_is_timed_beside_the_search() -> None:
    report = bench.solver_bench(DATA / "Test_L2_R1.txt", limit=4, modes=("score",))
    for row in report["rows"]:
        assert row["mean_call_time"] >= row["mean_time"] > 0
    assert "whole call" in "\n".join(bench.format_solver_bench(report))


def test_a_reference_command_is_timed_on_the_same_positions(tmp_path: Path) -> None:
    """An external solver gets the positions on stdin, one process for the set; its answers
    are checked and our whole call is set against its time a position."""
    import sys

    positions = bench.read_solver_file(DATA / "Test_L3_R1.txt", 6)
    answers = dict(positions)
    answers[positions[0][0]] += 1  # one wrong answer
    script = tmp_path / "solver.py"
    script.write_text(
        "import sys\n"
        f"answers = {answers!r}\n"
        "for line in sys.stdin:\n"
        "    print(line.strip(), answers[line.strip()])\n"
    )
    report = bench.solver_bench(
        DATA / "Test_L3_R1.txt",
        limit=6,
        modes=("score",),
        reference_command=[sys.executable, str(script)],
    )
    run = report["reference_run"]
    assert (run["positions"], run["answered"], run["right"]) == (6, 6, 5)
    assert run["mean_time"] == pytest.approx(run["seconds"] / 6)
    assert run["ratio"] == pytest.approx(run["call_time"] / run["mean_time"])
    text = "\n".join(bench.format_solver_bench(report))
    assert "5 of 6 answers right" in text and "x the reference command's" in text


def test_a_failing_reference_command_is_one_clear_error() -> None:
    import sys

    with pytest.raises(ValueError, match="failed"):
        bench.reference_run([sys.executable, "-c", "raise SystemExit(3)"], [("44", 0)])


def test_the_expert_table_shows_every_move_the_most_nodes_and_the_load() -> None:
    from plyground.ai.bench.expert import format_expert_bench

    moves = [
        {"game": 0, "stones": stones, "seconds": seconds, "nodes": nodes, "kept_value": True}
        | {"kept_result": True}
        for stones, seconds, nodes in ((4, 0.01, 900), (12, 1.5, 6_000_001), (20, 0.2, 50_000))
    ]
    report = {
        "game": "connect4",
        "preset": "Expert",
        "config": "alpha-beta",
        "games": 1,
        "checked": True,
        "moves": moves,
        "load": [2.5, 3.0],
    }
    text = "\n".join(format_expert_bench(report))
    assert "most nodes" in text and "6,000,001" in text
    all_row = next(line for line in text.splitlines() if line.startswith("all"))
    assert all_row.split()[1] == "3" and "1.5 s" in all_row
    assert "load average (1 minute) 2.5 at the start, 3.0 at the end" in text
    assert "3 of 3 moves keep the result" in text


def test_the_hidden_position_check_times_every_move_in_a_fresh_process() -> None:
    from plyground.ai.bench.expert import HIDDEN_STONES, format_hidden_positions, hidden_positions

    report = hidden_positions(3, seed=5)
    assert len(report["moves"]) == 3 and report["preset"] == "Expert"
    assert all(HIDDEN_STONES[0] <= move["stones"] <= HIDDEN_STONES[1] for move in report["moves"])
    lines = format_hidden_positions(report)
    assert "first move (the engine's start-up included)" in lines[1] and "over 2 s" in lines[2]
