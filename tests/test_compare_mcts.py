"""Compare with Monte Carlo tree search beside the depth-limited searches: its row by default,
the exact value of each move chosen (a solve, a solver's published scores, an exact table),
and the budget curve (shares of positions answered optimally, with their denominators)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plyground import games
from plyground.ai.compare.budget_curve import budget_curve, parse_budgets, positions_from
from plyground.ai.compare.comparison import compare
from plyground.ai.compare.exact import exact_values
from plyground.ai.engine.mcts.settings import MonteCarlo
from plyground.ai.evaluation.provenance import Source
from plyground.ai.evaluation.values import plies_to_end
from plyground.cli import run

DATA = Path(games.__file__).resolve().parent / "connect4" / "data"


def _state(name: str, moves: str, **options: int) -> object:
    game = games.get_game(name, **options)
    return game.replay(game.parse_moves(moves))


def test_compare_lists_mcts_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["compare", "--game", "tictactoe", "--moves", "5", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "MCTS, 10,000 iterations" in out
    assert "exact value of move" in out and "draw (solver)" in out
    assert "optimal: 1, 3, 7, 9" in out


def test_the_mcts_row_is_the_same_every_run_and_says_its_playouts() -> None:
    state = _state("connect4", "445344366")
    first, second = (
        compare(state, [1], variants=["minimax"], mcts=MonteCarlo(iterations=300)) for _ in range(2)
    )
    assert first.mcts is not None and second.mcts is not None
    assert (first.mcts.move, first.mcts.nodes, first.mcts.value) == (
        second.mcts.move,
        second.mcts.nodes,
        second.mcts.value,
    )
    assert first.mcts.playouts == 300 and first.mcts.title == "MCTS, 300 iterations"
    assert first.mcts.value_text(False).endswith("from 300 playouts")
    assert first.mcts.evaluation is not None and first.mcts.evaluation.source is Source.PLAYOUTS
    assert first.exact is None and first.mcts.exact is None  # not asked for
    assert first.rows[0].exact_text(False) == "not known"


def test_the_exact_values_of_tic_tac_toe_moves_are_its_solve() -> None:
    opened = exact_values(_state("tictactoe", "5"))
    assert opened is not None
    corners, edges = {0, 2, 6, 8}, {1, 3, 5, 7}
    assert opened.optimal() == corners
    assert all(opened.values[m].value == 0 for m in corners)
    assert all(opened.values[m].value < 0 and opened.values[m].is_exact for m in edges)
    start = exact_values(_state("tictactoe", ""))
    assert start is not None and start.optimal() == frozenset(range(9))  # every move draws


def test_each_rows_exact_value_is_its_moves() -> None:
    state = _state("tictactoe", "5")
    comparison = compare(state, [1, 2], mcts=MonteCarlo(iterations=200), exact_seconds=10)
    exact = exact_values(state)
    assert exact is not None and comparison.exact is not None
    assert comparison.mcts is not None
    for row in [*comparison.rows, comparison.mcts]:
        assert row.exact == exact.of(row.move)


def _own_stones_to_end(moves: str, score: int) -> int:
    """Plies to the end under best play from a published score (the data's README): the
    winner plays its last stone as its own (22 - |score|)-th."""
    played = len(moves)
    mover, other = played // 2, played - played // 2
    if score > 0:
        return 2 * (22 - score - mover) - 1
    return 2 * (22 + score - other)


@pytest.mark.parametrize(("name", "count"), [("Test_L3_R1.txt", 6), ("Test_L2_R1.txt", 3)])
def test_connect_four_exact_values_match_the_published_scores(name: str, count: int) -> None:
    lines = (DATA / name).read_text().splitlines()[:count]
    for line in lines:
        moves, score_text = line.split()
        score = int(score_text)
        exact = exact_values(_state("connect4", moves))
        assert exact is not None, moves
        if score == 0:
            assert exact.best == 0, moves
        else:
            assert (exact.best > 0) == (score > 0), moves
            assert plies_to_end(exact.best) == _own_stones_to_end(moves, score), moves


def test_pig_exact_values_come_from_its_table() -> None:
    state = _state("pig", "r2r4", goal=30)
    exact = exact_values(state)
    assert exact is not None and exact.source == "table"
    policy = state.game.reference_policy()
    chances = policy.move_values(policy.key_of(state))
    assert {m: (e.value + 1) / 2 for m, e in exact.values.items()} == pytest.approx(chances)


def test_the_budget_curve_counts_positions_answered_optimally() -> None:
    state = _state("tictactoe", "")
    curve = budget_curve(state, [5, 40], count=3)
    assert [point.iterations for point in curve.points] == [5, 40]
    assert len(curve.positions) == 3 and curve.rival == "alpha-beta"
    for point in curve.points:
        assert point.positions == 3
        assert 0 <= point.mcts_optimal <= 3 and 0 <= point.alphabeta_optimal <= 3
        assert 0.0 <= point.mcts_share <= 1.0 and 0.0 <= point.alphabeta_share <= 1.0
        assert point.mcts_share == point.mcts_optimal / 3


def test_the_curves_positions_are_decisions_that_matter() -> None:
    found, unknown = positions_from(_state("pig", "r2r4", goal=30), count=3)
    assert unknown == 0 and len(found) == 3
    assert found[0][0] == ()  # the position asked comes first
    for _moves, _node, exact in found:
        assert len(exact.optimal()) < len(exact.values)  # not every move is optimal


def test_budgets_parse_and_refuse() -> None:
    assert parse_budgets("1k,100,300") == [100, 300, 1000]
    with pytest.raises(ValueError, match="iterations"):
        parse_budgets("lots")


def test_compare_budget_curve_in_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "rows.json"
    argv = ["compare", "--game", "tictactoe", "--moves", "5", "--depth", "1"]
    argv += ["--iterations", "50", "--budget-curve", "10,30", "--positions", "2"]
    assert run([*argv, "--json", str(data)]) == 0
    out = capsys.readouterr().out
    assert "optimal choices as MCTS's budget grows (2 positions)" in out
    assert out.count(" of 2 (") == 4  # two budgets, two searches
    assert "MCTS, 50 iterations" in out
    saved = json.loads(data.read_text())
    assert saved["mcts"]["playouts"] == 50 and saved["optimal"] == ["1", "3", "7", "9"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--budget-curve", "lots"], "--budget-curve"),
        (["--iterations", "0"], "--iterations"),
        (["--positions", "0"], "--positions"),
    ],
)
def test_compare_mcts_mistakes_are_one_line(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["compare", "--game", "tictactoe", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err
