"""Round robins: the Elo fit on synthetic results, cross-table bookkeeping, a real tournament."""

from __future__ import annotations

import math

import pytest

from plyground.ai.players.match import GameRecord
from plyground.ai.players.tournament import (
    ANCHOR,
    PRIOR_DRAWS,
    TournamentResult,
    TournamentSetup,
    bootstrap_intervals,
    fit_elo,
    format_cross_table,
    run_tournament,
)


def test_a_clear_winner_ranks_first() -> None:
    counts = {(0, 1): (2, 0, 18), (0, 2): (5, 0, 15), (1, 2): (14, 2, 4)}
    elo = fit_elo(3, counts)
    assert elo.index(max(elo)) == 1
    assert elo.index(min(elo)) == 0
    assert sum(elo) / 3 == pytest.approx(ANCHOR)


def test_symmetric_results_give_equal_ratings() -> None:
    counts = {(0, 1): (6, 8, 6), (0, 2): (10, 0, 10), (1, 2): (3, 14, 3)}
    elo = fit_elo(3, counts)
    assert elo == pytest.approx([ANCHOR] * 3, abs=1e-6)


def test_two_players_match_the_logistic_formula() -> None:
    wins, draws, losses = 70, 10, 20
    elo = fit_elo(2, {(0, 1): (wins, draws, losses)})
    games = wins + draws + losses + PRIOR_DRAWS
    score = (wins + 0.5 * draws + 0.5 * PRIOR_DRAWS) / games
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(score / (1 - score)), abs=1e-6)


def test_a_player_who_lost_everything_keeps_a_finite_rating() -> None:
    elo = fit_elo(3, {(0, 1): (0, 0, 20), (0, 2): (0, 0, 20), (1, 2): (10, 0, 10)})
    assert all(math.isfinite(value) for value in elo)
    assert elo[0] < elo[1] - 300


def test_ratings_follow_transitive_strength() -> None:
    counts = {
        (0, 1): (12, 0, 8),
        (0, 2): (15, 0, 5),
        (0, 3): (18, 0, 2),
        (1, 2): (12, 0, 8),
        (1, 3): (15, 0, 5),
        (2, 3): (12, 0, 8),
    }
    elo = fit_elo(4, counts)
    assert elo == sorted(elo, reverse=True)


def test_bootstrap_intervals_are_seeded_and_contain_the_estimate() -> None:
    counts = {(0, 1): (30, 5, 15), (0, 2): (40, 2, 8), (1, 2): (28, 4, 18)}
    elo = fit_elo(3, counts)
    first = bootstrap_intervals(3, counts, seed=7, samples=200)
    again = bootstrap_intervals(3, counts, seed=7, samples=200)
    other = bootstrap_intervals(3, counts, seed=8, samples=200)
    assert first == again
    assert first != other
    for (low, high), value in zip(first, elo, strict=True):
        assert low <= value <= high
        assert high - low > 10


def _record(winner: int | None, first: int) -> GameRecord:
    return GameRecord(
        index=0,
        first=first,
        moves="",
        winner=winner,
        decisions=(3, 3),
        think_time=(0.1, 0.2),
        worst_time=(0.05, 0.1),
        nodes=(10, 20),
    )


def test_the_cross_table_counts_both_ways() -> None:
    result = TournamentResult(("a", "b", "c"))
    result.add(0, 1, _record(0, first=0))
    result.add(0, 1, _record(None, first=1))
    result.add(1, 2, _record(1, first=0))
    assert (result.pairs[(0, 1)].wins, result.pairs[(0, 1)].draws, result.pairs[(0, 1)].losses) == (
        1,
        1,
        0,
    )
    assert (result.pairs[(1, 0)].wins, result.pairs[(1, 0)].draws, result.pairs[(1, 0)].losses) == (
        0,
        1,
        1,
    )
    assert result.pairs[(2, 1)].wins == 1
    assert result.pairs[(0, 1)].games_moving_first == 1
    assert result.pairs[(1, 0)].games_moving_first == 1
    assert result.points(0) == 1.5
    assert result.games(1) == 3
    lines = format_cross_table(result)
    assert lines[1].startswith("1. a")
    assert "1.5/2" in lines[1]
    ranking = result.ranking(seed=1, samples=50)
    assert [rating.spec for rating in ranking][-1] == "b"
    assert [rating.elo for rating in ranking] == sorted(
        (rating.elo for rating in ranking), reverse=True
    )
    data = result.to_dict(ranking)
    assert data["ranking"][0]["rank"] == 1
    assert len(data["cross_table"]) == 6


@pytest.mark.slow
def test_a_tournament_plays_every_pair_both_ways() -> None:
    setup = TournamentSetup(
        game="tictactoe", options=(), specs=("random", "expert", "easy"), games_per_pair=4, seed=3
    )
    assert setup.total_games == 12
    result = run_tournament(setup)
    for i in range(3):
        for j in range(3):
            if i != j:
                assert result.pairs[(i, j)].games == 4
                assert result.pairs[(i, j)].games_moving_first == 2
    assert result.pairs[(1, 0)].losses == 0  # perfect play never loses tic-tac-toe
    again = run_tournament(setup)
    assert result.counts() == again.counts()
    ranking = result.ranking(seed=3, samples=50)
    assert ranking[0].spec == "expert"


def test_scores_can_be_added_without_game_records() -> None:
    result = TournamentResult(("left", "right"))
    result.add_score(0, 1, 1.0, i_moved_first=True)
    result.add_score(1, 0, 0.5, i_moved_first=True)
    assert (result.pairs[(0, 1)].wins, result.pairs[(0, 1)].draws) == (1, 1)
    assert result.pairs[(1, 0)].games_moving_first == 1
    assert result.pairs[(1, 0)].score_moving_first == 0.5
    assert result.ranking(samples=20)[0].spec == "left"


def test_the_cross_table_keeps_wide_entries_apart_and_worst_moves_are_kept() -> None:
    result = TournamentResult(("easy", "expert"))
    for _ in range(1000):
        result.add(0, 1, _record(1, first=0))
    lines = format_cross_table(result)
    assert "1000/1000" in lines[2] and "2000" not in lines[2]
    assert all("/1000 " in line or line.endswith("/1000") for line in lines[1:])
    assert [cell.split() for cell in lines[1:]] == [
        ["1.", "easy", "-", "0/1000", "0/1000"],
        ["2.", "expert", "1000/1000", "-", "1000/1000"],
    ]
    assert result.worst_time == [0.05, 0.1]
    ranking = result.ranking(seed=1, samples=20)
    by_player = {entry["player"]: entry for entry in result.to_dict(ranking)["ranking"]}
    assert by_player["expert"]["worst_time_per_move"] == 0.1
