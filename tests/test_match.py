"""Matches: seeded and reproducible, the same over several processes, bookkept by player."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from plyground import games
from plyground.ai.players.match import (
    MatchSetup,
    MatchTally,
    build_player,
    derive_seed,
    elo_difference,
    play_game,
    play_match,
    replay_record,
    run_match,
    wilson_interval,
)
from plyground.games.base import DEFAULT_MOVE_LIMIT, moves_allowed
from plyground.games.from_file.loading import UNENDING_MOVE_LIMIT


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, 0) == derive_seed(1, 0)
    assert len({derive_seed(1, index) for index in range(1000)}) == 1000
    assert derive_seed(1, 0) != derive_seed(2, 0)
    assert 0 <= derive_seed(123, "chance") < 2**63


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(50, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0)
    assert low == pytest.approx(0.7225, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_difference() -> None:
    assert elo_difference(0.5) == 0
    assert math.copysign(1.0, elo_difference(0.5)) == 1.0  # never shown as "-0"
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(1.0) == float("inf")


def test_the_same_seed_gives_the_same_games() -> None:
    setup = MatchSetup(
        game="pig", options=(("goal", 20),), specs=("medium", "random"), seed=5, swap=True
    )
    first = list(play_match(setup, 6))
    again = list(play_match(setup, 6))
    assert [record.moves for record in first] == [record.moves for record in again]
    assert [record.winner for record in first] == [record.winner for record in again]
    assert [record.nodes for record in first] == [record.nodes for record in again]
    other = list(
        play_match(
            MatchSetup(
                game="pig", options=(("goal", 20),), specs=("medium", "random"), seed=6, swap=True
            ),
            6,
        )
    )
    assert [record.moves for record in first] != [record.moves for record in other]


def test_a_game_does_not_depend_on_the_games_before_it() -> None:
    setup = MatchSetup(game="connect4", options=(), specs=("easy", "random"), seed=9, swap=True)
    alone = play_game(setup, 3)
    in_sequence = list(play_match(setup, 4))[3]
    assert alone.moves == in_sequence.moves


@pytest.mark.slow
def test_two_processes_give_what_one_gives() -> None:
    setup = MatchSetup(
        game="pig", options=(("goal", 20),), specs=("easy", "hard"), seed=11, swap=True
    )
    one = [
        (record.moves, record.winner, record.first, record.nodes)
        for record in play_match(setup, 8, jobs=1)
    ]
    two = [
        (record.moves, record.winner, record.first, record.nodes)
        for record in play_match(setup, 8, jobs=2)
    ]
    assert one == two


def test_swap_alternates_the_first_mover_and_keeps_results_by_player() -> None:
    setup = MatchSetup(game="tictactoe", options=(), specs=("expert", "random"), seed=2, swap=True)
    records = list(play_match(setup, 10))
    assert [record.first for record in records] == [0, 1] * 5
    game = games.get_game("tictactoe")
    for record in records:
        final = replay_record(game, record.moves)
        seat_winner = final.winner()
        expected = None if seat_winner is None else seat_winner ^ record.first
        assert record.winner == expected
        assert record.winner != 1  # the random player never beats perfect play, from either seat
    tally = MatchTally()
    for record in records:
        tally.add(record)
    expert, rand = tally.players
    assert expert.games_first == expert.games_second == 5
    assert rand.games_first == rand.games_second == 5
    assert expert.losses == 0
    assert expert.wins == rand.losses
    assert expert.draws == rand.draws
    assert expert.score_first + expert.score_second == expert.points
    assert tally.score(0) + tally.score(1) == pytest.approx(1.0)


def test_without_swap_player_a_always_moves_first() -> None:
    setup = MatchSetup(game="tictactoe", options=(), specs=("random", "random"), seed=4)
    tally = run_match(setup, 6)
    assert tally.players[0].games_first == 6
    assert tally.players[1].games_second == 6


def test_the_callback_sees_every_game_in_order() -> None:
    seen: list[int] = []
    setup = MatchSetup(game="tictactoe", options=(), specs=("easy", "medium"), seed=1, swap=True)
    tally = run_match(setup, 5, on_game=lambda record, running: seen.append(record.index))
    assert seen == [0, 1, 2, 3, 4]
    assert tally.games == 5
    assert tally.players[0].decisions > 0
    assert tally.players[0].nodes > 0


def test_bad_player_specs_name_what_is_allowed() -> None:
    game = games.get_game("connect4")
    with pytest.raises(ValueError, match="preset"):
        build_player(game, "grandmaster", 0)
    with pytest.raises(ValueError, match="heuristic"):
        build_player(game, "alphabeta:depth=3:heuristic=nonsense", 0)


def test_a_game_stopped_at_the_decision_cap_is_a_draw() -> None:
    setup = MatchSetup(game="connect4", options=(), specs=("random", "random"), seed=1)
    record = play_game(setup, 0, max_decisions=4)
    assert record.aborted
    assert record.winner is None
    assert sum(record.decisions) == 4


def test_an_even_or_nearly_even_elo_is_never_minus_zero() -> None:
    from plyground.cli.match_command import signed_elo

    assert signed_elo(elo_difference(0.5)) == "+0"
    assert signed_elo(-0.4) == "+0"
    assert signed_elo(-12.6) == "-13"
    assert signed_elo(float("-inf")) == "-inf"


RING = str(Path(__file__).resolve().parent / "game_files" / "ring.py")


def test_a_game_that_never_ends_stops_at_the_default_move_limit() -> None:
    name = games.resolve(RING)  # its load-time probe saw no game end
    setup = MatchSetup(game=name, options=(), specs=("random", "random"), seed=0)
    record = play_game(setup, 0)
    assert record.aborted and record.winner is None
    assert sum(record.decisions) == UNENDING_MOVE_LIMIT == moves_allowed(games.get_game(name))
    assert moves_allowed(games.get_game("connect4")) == DEFAULT_MOVE_LIMIT
    assert moves_allowed(games.get_game(str(Path(RING).with_name("take_away.py")))) == 2_000


def test_a_game_sets_its_own_move_limit_and_the_match_says_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from plyground.cli import run

    short = tmp_path / "short_ring.py"
    short.write_text(
        Path(RING).read_text(encoding="utf-8").replace('title = "Ring"', "move_limit = 30"),
        encoding="utf-8",
    )
    report = tmp_path / "match.json"
    argv = ["match", "--game", str(short), "--p1", "hard", "--p2", "random", "--games", "2"]
    assert run([*argv, "--quiet", "--json", str(report)]) == 0
    out = capsys.readouterr().out
    assert "2 games reached the move limit of 30 moves and were scored as draws." in out
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["move_limit"] == 30 and data["aborted"] == 2
    assert [game["aborted"] for game in data["games_played"]] == [True, True]
    assert all(sum(game["decisions"]) == 30 for game in data["games_played"])
    players = "hard,random"
    assert run(["tournament", "--game", str(short), "--players", players, "--quiet"]) == 0
    assert "reached the move limit of 30 moves" in capsys.readouterr().out


def test_a_move_limit_that_is_no_whole_number_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad_ring.py"
    bad.write_text(
        Path(RING).read_text(encoding="utf-8").replace('title = "Ring"', 'move_limit = "lots"'),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="move_limit is 'lots'"):
        games.resolve(str(bad))
