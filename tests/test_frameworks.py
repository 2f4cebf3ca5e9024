"""Games written for aima-python and easyAI, unchanged, installed from the package index (not
vendored; `.ci/run` installs them into the test environment, and these tests skip where they
are absent): Plyground plays them and its values agree with each framework's own search.

* aima-python (the ``aima3`` distribution): the textbook's figure 5.2 gives the book's root
  value and node counts in the textbook trace; aima's ``minimax_decision`` and
  ``alphabeta_search`` pick the same move; at a depth limit its ``alphabeta_cutoff_search``
  (utility at the cut-off) picks a move Plyground values as highly as its own best.
* easyAI: its ``Negamax`` at the same depth with the game's ``scoring`` picks a move of
  Plyground's best value, and its value has the same sign.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import main
from plyground import ai, games
from plyground.ai.textbook.trace import trace

aima_games = pytest.importorskip("aima3.games")
easyAI = pytest.importorskip("easyAI")


def positions(game: Any, count: int, seed: int, most: int = 6) -> list[Any]:
    """`count` unfinished positions reached by seeded random play from the start."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randint(0, most)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.append(state)
    return found


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


# ------------------------------------------------------------------ aima-python


def test_the_textbook_figure_gives_the_books_value_and_counts() -> None:
    game = games.get_game("aima3.games:Fig52Game")
    root = game.initial_state()
    full = trace(root, "minimax", 2)
    assert full.value == 3 and full.totals() == (13, 9, 0, 0)
    pruned = trace(root, "alphabeta", 2)
    assert pruned.value == 3 and pruned.totals() == (11, 7, 1, 0)
    cuts = [(node.label, node.skipped) for node in pruned.nodes if node.cut]
    assert cuts == [("a2", ("c2", "c3"))]
    book = aima_games.Fig52Game()
    assert aima_games.minimax_decision("A", book) == "a1"
    assert aima_games.alphabeta_search("A", book) == "a1"
    for algorithm in ("minimax", "alphabeta"):
        assert (
            ai.search(root, ai.SearchConfig(ai.DepthLimited(algorithm, 2))).move == "a1"
        )  # the engine searches for scores too


def test_every_view_of_the_figure_says_the_books_numbers() -> None:
    """The engine's analysis, the hint and Compare's rows say the tree's own scores, as the
    textbook's trace does: never 3 in one place and +0.68 in another."""
    from plyground.ai.compare.comparison import run_variant
    from plyground.ai.evaluation.wording import board_text, value_text

    game = games.get_game("aima3.games:Fig52Game")
    root = game.initial_state()
    analysis = ai.search(root, ai.SearchConfig(ai.DepthLimited("alphabeta", 2)))
    assert {move: ev.score for move, ev in analysis.move_values.items()} == {
        "a1": 3,
        "a2": 2,
        "a3": 2,
    }
    assert value_text(analysis.evaluation, False) == "score 3"
    assert board_text(analysis.move_values["a2"], False) == "score 2"
    for variant in ("minimax", "alphabeta-plain", "engine"):
        row = run_variant(root, variant, 2)
        assert row.score == 3 and row.value_text(False) == "score 3", variant


def test_aima_tic_tac_toe_agrees_with_its_cutoff_search() -> None:
    game = games.get_game("aima3.games:TicTacToe")
    for depth in (2, 4):
        for state in positions(game, 12, seed=depth):
            ours = ai.search(
                state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth), book=False)
            )
            theirs = aima_games.alphabeta_cutoff_search(state.inner, game.obj, d=depth - 1)
            values = {move: float(value) for move, value in ours.move_values.items()}
            # aima's values carry no distance to the end: the same outcome is the same value
            assert theirs in values
            assert sign(values[theirs]) == sign(ours.value), (state, theirs, ours.move)
            if abs(ours.value) < 0.9:
                assert values[theirs] == pytest.approx(ours.value), (state, theirs)


def test_aima_tic_tac_toe_solved_agrees_with_alphabeta_search() -> None:
    game = games.get_game("aima3.games:TicTacToe")
    for state in positions(game, 6, seed=9, most=5)[:6]:
        if len(state.legal_moves()) > 6:
            continue
        ours = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), book=False))
        theirs = aima_games.alphabeta_search(state.inner, game.obj)
        values = {move: float(value) for move, value in ours.move_values.items()}
        assert sign(values[theirs]) == sign(ours.value)


# ------------------------------------------------------------------ easyAI


@pytest.mark.parametrize(
    ("spec", "depth"),
    [
        ("easyAI.games:Nim", 4),
        ("easyAI.games:GameOfBones", 6),
        ("easyAI.games:TicTacToe", 4),
        ("easyAI.games:ConnectFour", 3),
    ],
)
def test_easyai_negamax_agrees(spec: str, depth: int) -> None:
    game = games.get_game(spec)
    assert game.default_heuristic == "scoring"
    for state in positions(game, 12, seed=depth):
        ours = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth), book=False))
        negamax = easyAI.Negamax(depth)
        theirs = negamax(game.style.copy(state.inner))
        values = {move: float(value) for move, value in ours.move_values.items()}
        assert values[theirs] == pytest.approx(ours.value), (state, theirs, ours.move)
        assert sign(negamax.alpha) == sign(ours.value)


def test_easyai_games_states_are_copies() -> None:
    game = games.get_game("easyAI.games:Nim")
    start = game.initial_state()
    piles = list(start.inner.piles)
    start.play(start.legal_moves()[0])
    assert start.inner.piles == piles


def test_a_framework_game_plays_a_match_in_the_terminal() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "plyground",
            "match",
            "--game",
            "easyAI.games:Nim",
            "--option",
            "piles=(2,3)",
            "--p1",
            "hard",
            "--p2",
            "random",
            "--games",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "Nim: 4 games" in run.stdout


def test_a_game_that_keeps_its_state_on_its_players() -> None:
    """easyAI's Knights keeps each knight's square on its player object: every position has
    its own copies of them."""
    game = games.get_game("easyAI.games:Knights", board_size=(5, 5))
    start = game.initial_state()
    first = start.legal_moves()
    after = start.play(first[0])
    assert start.legal_moves() == first  # the start's knight did not move
    assert after.to_move == 1 and after.legal_moves() != first
    result = ai.search(after, ai.SearchConfig(ai.DepthLimited("alphabeta", 4)))
    assert result.move in after.legal_moves()


# ------------------------------------------------------------------ every game they ship
def shipped_games() -> list[str]:
    """Every game class easyAI's games folder and aima3's games module define, as a spec:
    `MODULE:CLASS`, or `FILE.py:CLASS` for a file whose name is no module's (easyAI's
    Kivy and Flask examples)."""
    folder = Path(easyAI.__file__).parent / "games"
    specs = []
    for path in sorted(folder.glob("*.py")):
        for name in re.findall(r"^class (\w+)\(TwoPlayerGame\)", path.read_text(), re.M):
            specs.append(
                f"easyAI.games.{path.stem}:{name}" if path.stem.isidentifier() else f"{path}:{name}"
            )
    source = Path(aima_games.__file__).read_text()
    for name in re.findall(r"^class (\w+)\((?:Game|StochasticGame|TicTacToe)\)", source, re.M):
        specs.append(f"aima3.games:{name}")
    return specs


@pytest.mark.slow
@pytest.mark.parametrize("spec", shipped_games())
def test_hint_answers_every_game_the_frameworks_ship(
    spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hint, or one line saying why not: never an internal error (lines that repeat,
    lines hundreds of plies long, a side that moves twice)."""
    status = main.main(["hint", "--game", spec])
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, err
    if status == 0:
        assert out.startswith("Hint for "), out
        assert " · " in out.splitlines()[0]
    else:
        assert status == 2 and len(err.strip().splitlines()) == 1, (status, err)


def test_the_frameworks_ship_games_whose_lines_repeat() -> None:
    assert {"easyAI.games.Chopsticks:Chopsticks", "easyAI.games.Awele:Awele"} <= set(
        shipped_games()
    )
    assert len(shipped_games()) >= 18


QUIRKS = [
    ("easyAI.games.Hexapawn:Hexapawn", "size=(3,3)", "the same move twice"),
    ("easyAI.games:Cram", "board_size=(3,4)", "show() failed"),
    ("easyAI.games:Knights", "board_size=(4,5)", "show() failed"),
]
"""Games the frameworks ship whose own code is odd where the search does not need it:
Hexapawn's pawn may step onto its own pawn (two moves alike), Cram's and Knights' show() reads
past a board that is not square."""


@pytest.mark.parametrize(("spec", "option", "quirk"), QUIRKS)
def test_a_frameworks_quirk_is_a_warning_not_a_refusal(
    spec: str, option: str, quirk: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from plyground.cli import run
    from plyground.games.from_file.check import check

    given = ["--game", spec, "--option", option]
    assert check(spec, {key: eval(value) for key, value in [option.split("=")]})["name"] == spec
    assert run(["hint", *given]) == 0
    hint = capsys.readouterr()
    assert hint.out.startswith("Hint for Player 1: "), hint
    assert run(["analyze", *given, "--depth", "2", "--json"]) == 0
    position = json.loads(capsys.readouterr().out)["position"]
    assert ("drawn plainly instead" in position) == (quirk == "show() failed")
    match = ["match", *given, "--p1", "medium", "--p2", "random", "--games", "2", "--quiet"]
    assert run(match) == 0
    played = capsys.readouterr()
    assert "2 games" in played.out and "Traceback" not in played.err
    said = hint.err + played.err
    if quirk == "the same move twice":  # said once, in the command that found it
        assert said.count("returned the same move twice") <= 1
        assert "each move is searched once" in said or "same move twice" not in said


def test_hexapawn_three_by_three_is_a_second_player_win_as_negamax_finds() -> None:
    from easyAI.games.Hexapawn import Hexapawn

    game = games.get_game("easyAI.games.Hexapawn:Hexapawn", size=(3, 3))
    ours = ai.search(game.initial_state(), ai.SearchConfig(ai.DepthLimited("alphabeta", None)))
    assert ours.value < -0.9  # every first move loses

    def scoring(position: Any) -> float:
        return -100 if position.lose() else 0

    negamax = easyAI.Negamax(12, scoring)
    seats = [easyAI.AI_Player(negamax), easyAI.AI_Player(negamax)]  # each keeps its pawns
    theirs = negamax(Hexapawn(seats, size=(3, 3)))
    assert negamax.alpha < 0 and theirs.replace(" ", "_") in {
        games.from_file.move_text(move)
        for move, value in ours.move_values.items()
        if float(value) == pytest.approx(ours.value)
    }
