"""Monte Carlo tree search in the terminal: `analyze --algorithm mcts`, `mcts` players in
`match`, the hint of a game with no evaluation, and `bench --mcts` (OpenSpiel optional)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import main
from plyground import games
from plyground.ai.bench import monte_carlo
from plyground.ai.players.presets import preset_config
from plyground.games.base import capabilities, state_capabilities
from plyground.games.search_settings import MonteCarlo

FILES = Path(__file__).resolve().parent / "game_files"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main.main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_analyze_labels_mcts_values_as_estimates_from_playouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, "analyze", "--game", "connect4", "--moves", "44", "--algorithm", "mcts",
        "--iterations", "600", "--playouts", "random",
    )  # fmt: skip
    assert status == 0
    assert "MCTS, 600 iterations, c 1.41, random playouts" in out
    assert "visits" in out and "UCB term" in out
    assert " playouts" in out and "○ 0." in out
    assert "Iterations 600 (complete)" in out
    assert "an estimate" in out
    status, out, _ = run(
        capsys, "analyze", "--game", "tictactoe", "--moves", "1 5 9", "--algorithm", "mcts",
        "--json",
    )  # fmt: skip
    report = json.loads(out)
    assert report["mcts"]["proven"] and report["kind"] == "exact"
    assert {m["kind"] for m in report["moves"]} == {"exact"}
    assert (
        sum(s["visits"] for s in report["mcts"]["moves"].values()) == report["mcts"]["iterations"]
    )


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--algorithm", "mcts", "--depth", "3"], "MCTS has no depth"),
        (["--iterations", "30"], "--iterations is for --algorithm mcts"),
        (["--algorithm", "mcts", "--c", "-1"], "exploration constant must be"),
    ],
)
def test_analyze_refuses_mixed_settings(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    status, _, err = run(capsys, "analyze", "--game", "connect4", *argv)
    assert status == 2 and words in err and "Traceback" not in err


def test_mcts_players_in_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "match", "--game", "pig", "--goal", "15", "--p1", "mcts:iterations=150",
        "--p2", "random", "--games", "2", "--swap", "--quiet",
    )  # fmt: skip
    assert status == 0
    assert "A = mcts:iterations=150: MCTS, 150 iterations, c 1.4" in out
    status, _, err = run(
        capsys, "match", "--game", "tictactoe", "--p1", "mcts:depth=2", "--p2", "random",
    )  # fmt: skip
    assert status == 2 and "MCTS has no depth" in err


def test_mcts_plays_chance_games_to_the_end_in_a_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Pig and a chance game from a file, played out by MCTS on iteration budgets: every
    game ends with a result (no forfeit, no void, no move limit), the same on a rerun."""
    for game in (["pig", "--goal", "15"], [str(FILES / "dice_race.py")]):
        report = tmp_path / "match.json"
        status, out, _ = run(
            capsys, "match", "--game", *game, "--p1", "mcts:iterations=120", "--p2",
            "mcts:iterations=40:c=1", "--games", "4", "--swap", "--quiet", "--json", str(report),
        )  # fmt: skip
        assert status == 0, out
        played = json.loads(report.read_text())["games_played"]
        assert len(played) == 4
        for record in played:
            assert not record["forfeit"] and not record["void"] and not record["aborted"]
            assert record["decisions"][0] > 0 and record["decisions"][1] > 0
        again = tmp_path / "again.json"
        run(
            capsys, "match", "--game", *game, "--p1", "mcts:iterations=120", "--p2",
            "mcts:iterations=40:c=1", "--games", "4", "--swap", "--quiet", "--json", str(again),
        )  # fmt: skip
        assert [g["moves"] for g in json.loads(again.read_text())["games_played"]] == [
            g["moves"] for g in played
        ]


def test_a_game_with_no_evaluation_gets_mcts_as_its_strongest_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = games.resolve(str(FILES / "kalah_no_eval.py"))
    ladder = games.GAMES[name].presets  # type: ignore[attr-defined]
    expert = ladder[-1]
    assert expert.search == MonteCarlo(exploration=1.0, heuristic="none", processes=2)
    assert expert.time_limit is not None and expert.time_limit < 2
    # blind alpha-beta plays at random until an end is near: every level is MCTS, each
    # on more iterations than the one below (a count, the same on every machine)
    assert [level.name for level in ladder] == ["Easy", "Medium", "Hard", "Expert"]
    assert all(isinstance(level.search, MonteCarlo) for level in ladder)
    assert all(level.search.exploration == 1.0 for level in ladder)
    counts = [level.search.iterations for level in ladder[:-1]]
    assert all(count is not None for count in counts) and counts == sorted(set(counts))
    assert ladder[0].randomness > 0 and expert.search.iterations is None
    easy = preset_config(ladder[0])
    assert easy.search == MonteCarlo(counts[0], 1.0, heuristic="none")
    assert easy.time_limit == ladder[0].time_limit
    with_evaluation = games.resolve(str(FILES / "take_away.py"))
    assert games.GAMES[with_evaluation].presets[-1].search.algorithm == "alphabeta"  # type: ignore[attr-defined]
    status, out, _ = run(capsys, "hint", "--game", str(FILES / "kalah_no_eval.py"), "--moves", "5")
    assert status == 0
    assert "Advice: Expert, MCTS, " in out and "playouts" in out


def test_a_games_own_random_playout_plays_the_same_games() -> None:
    for name in games.builtin_names():
        game = games.get_game(name)
        hook = state_capabilities(game.initial_state()).random_playout
        if hook is None:
            continue
        for seed in range(100):
            state = game.initial_state()
            slow, fast = random.Random(seed), random.Random(seed)
            position = state
            while not position.is_terminal():
                moves = position.legal_moves()
                position = position.play(moves[int(slow.random() * len(moves))])
            assert hook(state, fast) == position.winner()
            assert slow.random() == fast.random()


def test_bench_mcts_skips_openspiel_where_it_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(monte_carlo, "openspiel_available", lambda: False)
    monkeypatch.setattr(monte_carlo, "aima_available", lambda: False)
    monkeypatch.setattr(monte_carlo, "QUICK_ITERATIONS", 50)
    monkeypatch.setattr(monte_carlo, "RUNS", 1)
    rows = monte_carlo.mcts_bench(quick=True, log=lambda _: None)
    assert {row["game"] for row in rows} == set(games.builtin_names())
    assert all(row["openspiel"] is None and row["per_second"] > 0 for row in rows)
    text = "\n".join(monte_carlo.format_mcts_bench(rows))
    assert "OpenSpiel is not installed, its rows skipped" in text
    assert "aima-python is not installed, its row skipped" in text
    assert any(capabilities(games.get_game(n)).openspiel_name for n in games.builtin_names())


def test_analyze_prints_each_moves_visits_mean_share_and_ucb_term(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ("analyze", "--game", "connect4", "--moves", "44", "--algorithm", "mcts",
            "--iterations", "500", "--seed", "3")  # fmt: skip
    status, out, _ = run(capsys, *argv)
    assert status == 0
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("move"))
    assert lines[header].split() == ["move", "value", "(2*mean-1)", "mean", "result", "visits",
                                     "N", "share", "UCB", "term"]  # fmt: skip
    table = lines[header + 1 : header + 8]
    status, text, _ = run(capsys, *argv, "--json")
    report = json.loads(text)
    assert report["kind"] == "estimate" and report["source"] == "playouts"
    stats = report["mcts"]["moves"]
    assert set(stats) == {entry["move"] for entry in report["moves"]} and len(stats) == 7
    for entry in report["moves"]:
        figures = stats[entry["move"]]
        assert {"visits", "mean", "ucb_term", "share", "proven"} <= set(figures)
        assert entry["kind"] == "estimate" and entry["playouts"] == figures["visits"]
        row = next(line for line in table if line.startswith(entry["move"] + " "))
        assert f"○ {figures['mean']:.2f} from {figures['visits']:,} playouts" in row
        assert f"{figures['visits']:,}" in row and f"{figures['share']:.1%}" in row
        assert f"{figures['ucb_term']:.3f}" in row
    assert "Key: ○ " in out and "an estimate" in out


def test_analyze_says_why_its_moves_playouts_add_up_to_more_than_its_playouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """On tic-tac-toe's empty board the moves' "from N playouts" added up to 2,000 under
    "playouts 1,838": the 162 iterations that reached a decided position are said."""
    argv = ("analyze", "--game", "tictactoe", "--algorithm", "mcts", "--iterations", "2000")
    status, out, _ = run(capsys, *argv)
    assert status == 0
    status, text, _ = run(capsys, *argv, "--json")
    figures = json.loads(text)["mcts"]
    ended = figures["iterations"] - figures["playouts"]
    assert ended > 0
    assert f"({ended:,} iterations reached a finished or solved position in the tree" in out
    status, out, _ = run(capsys, "analyze", "--game", "connect4", "--algorithm", "mcts",
                         "--iterations", "200")  # fmt: skip
    assert "playouts 200 " in out and "reached a finished" not in out


def test_a_proven_mcts_value_is_printed_as_proven(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "analyze", "--game", "tictactoe", "--moves", "1 5 9", "--algorithm", "mcts",
    )  # fmt: skip
    assert status == 0
    rows = [line for line in out.splitlines() if "· proven" in line]
    assert len(rows) == 6 and not any("○" in line for line in rows)
    assert "proven: its tree reached every end that decides it" in out
    # the JSON says the same: a proven move's mean is its proven result (1 a win, 0.5 a
    # draw, 0 a loss), its playouts' own average beside it, named as such
    status, text, _ = run(
        capsys, "analyze", "--game", "tictactoe", "--moves", "1 5 9", "--algorithm", "mcts",
        "--json",
    )  # fmt: skip
    report = json.loads(text)
    stats = report["mcts"]["moves"]
    for entry in report["moves"]:
        figures = stats[entry["move"]]
        assert figures["proven"] and 0 < figures["playout_mean"] < 1
        wanted = {"draw": 0.5, "loss in 4 for O": 0.0}[entry["meaning"]]
        assert figures["mean"] == wanted, (entry, figures)


def test_every_commands_json_gives_a_proven_moves_proven_mean() -> None:
    """analyze, hint and review write a move's MCTS figures with one function: a proven
    move's `mean` is its proven result, an unproven one's its playouts' mean."""
    from plyground.ai.advice.report import statistics_data
    from plyground.ai.engine.result import MoveStatistics
    from plyground.ai.evaluation.provenance import Evaluation, Kind, Source
    from plyground.ai.evaluation.values import WIN

    proven = MoveStatistics(40, 0.7, 0.2, 0.4, proven=True)
    exact = Evaluation(WIN - 0.004, Kind.EXACT, Source.SEARCH)
    assert statistics_data(proven, exact)["mean"] == 1.0
    assert statistics_data(proven, exact)["playout_mean"] == 0.7
    draw = Evaluation(0.0, Kind.EXACT, Source.SEARCH)
    assert statistics_data(proven, draw)["mean"] == 0.5
    estimate = Evaluation(0.4, Kind.ESTIMATE, Source.PLAYOUTS, playouts=40)
    unproven = MoveStatistics(40, 0.7, 0.2, 0.4)
    assert statistics_data(unproven, estimate)["mean"] == 0.7


def test_hint_with_an_mcts_advisor_prints_the_same_columns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = str(FILES / "kalah_no_eval.py")
    status, out, _ = run(capsys, "hint", "--game", game, "--moves", "5")
    assert status == 0
    header = next(line for line in out.splitlines() if line.startswith("move"))
    assert header.split()[3:] == ["mean", "result", "visits", "N", "share", "UCB", "term"]
    assert out.count(" playouts ") >= 6 and "Key: ○ " in out and "an estimate" in out
    status, out, _ = run(capsys, "hint", "--game", game, "--moves", "5", "--json")
    report = json.loads(out)
    assert report["source"] == "playouts" and report["kind"] == "estimate"
    assert set(report["mcts"]["moves"]) == {entry["move"] for entry in report["moves"]}


def test_the_review_of_a_game_valued_by_mcts_shows_each_moves_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = str(FILES / "kalah_no_eval.py")
    argv = ("review", "--game", game, "--moves", "5 12 3", "--seconds", "0.3")
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert "playouts" in next(line for line in out.splitlines() if line.startswith("#"))
    rows = [line for line in out.splitlines() if line.split()[1:2] in (["South"], ["North"])]
    assert len(rows) == 3
    for row in rows:
        assert "(estimate from " in row and " N " in row and "UCB " in row
    marked = [row for row in rows if "win chance" in row]
    assert all("estimated from playouts" in row for row in marked)
    status, out, _ = run(capsys, *argv, "--json")
    decisions = json.loads(out)["decisions"]
    assert all(d["played"]["source"] == "playouts" and d["mcts"]["visits"] > 0 for d in decisions)


def test_a_judgement_resting_on_playouts_says_so() -> None:
    from plyground.ai.advice.game_review import judge, win_chance
    from plyground.ai.evaluation.provenance import from_playouts

    best, played = from_playouts(0.4, 300), from_playouts(-0.1, 80)
    assert win_chance(best, False) == pytest.approx(0.4)  # the mean estimates the score itself
    judgement, reason = judge(best, played, False)
    assert judgement is not None and reason == "win chance 70% → 45%, estimated from playouts"


def test_bench_mcts_runs_aima_pythons_mcts_beside_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    """aima-python's PUCT runs with uniform priors and a random rollout as its leaf value: a
    row of its own, both searches on aima's ConnectFour, each choosing a legal opening move."""
    pytest.importorskip("aima3")
    monkeypatch.setattr(monte_carlo, "RUNS", 1)
    row = monte_carlo.aima_row(30, log=lambda _: None)
    theirs = row["aima"]
    assert row["per_second"] > 0 and theirs["per_second"] > 0
    openings = {f"({column},1)" for column in range(1, 8)}
    assert set(row["moves"]) <= openings and set(theirs["moves"]) <= openings
    text = "\n".join(monte_carlo.format_mcts_bench([row]))
    assert "aima-python's MCTS (PUCT, c_puct 5, uniform priors" in text
    assert monte_carlo.AIMA_GAME in text
