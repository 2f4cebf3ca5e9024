"""The difficulty ladder: each preset beats the one below it (seeded, sides swapped).

A short version of the full ladders in docs/RESULTS.md (made by `main.py tournament`):
every adjacent pair of presets plays a seeded match with the sides swapped every game,
and the stronger preset must score more than half the points.  Players without a time
budget are deterministic given the seed, so these matches replay exactly on any machine;
the one time-limited preset (connect-four's Expert) is tested where its result does not
hang on the clock (see `test_connect4_expert_beats_hard`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from plyground import ai, games
from plyground.ai.players.match import MatchSetup, MatchTally, run_match
from plyground.ai.players.players import AIPlayer

pytestmark = pytest.mark.slow  # long: CI runs it, the daily loop skips it

PRESETS = ("easy", "medium", "hard", "expert")


def _match(game: str, lower: str, upper: str, count: int, seed: int = 1) -> MatchTally:
    """`lower` (side A) against `upper` (side B), alternating who moves first."""
    options = (("goal", 100),) if game == "pig" else ()
    setup = MatchSetup(game=game, options=options, specs=(lower, upper), seed=seed, swap=True)
    return run_match(setup, count)


def _describe(tally: MatchTally) -> str:
    """'B 31-2-7 (83%)': the upper preset's wins, draws and losses, for failure messages."""
    upper = tally.players[1]
    return f"B {upper.wins}-{upper.draws}-{upper.losses} ({100 * tally.score(1):.0f}%)"


# --------------------------------------------------------------------------- tic-tac-toe


@pytest.mark.parametrize(("lower", "upper"), [("easy", "medium"), ("medium", "hard")])
def test_tictactoe_each_preset_beats_the_one_below(lower: str, upper: str) -> None:
    tally = _match("tictactoe", lower, upper, 60)
    low, _ = tally.score_interval(1)
    assert low > 0.5, f"{upper} vs {lower}: {_describe(tally)}"


def test_tictactoe_hard_and_expert_never_lose() -> None:
    """At the top of the tic-tac-toe ladder the promise is: never lose (so they draw each other)."""
    for lower in ("easy", "medium"):
        for upper in ("hard", "expert"):
            tally = _match("tictactoe", lower, upper, 40)
            assert tally.players[1].losses == 0, f"{upper} vs {lower}: {_describe(tally)}"
            assert tally.score(1) > 0.5
    tally = _match("tictactoe", "hard", "expert", 20)
    assert tally.players[0].draws == tally.games == 20


def test_tictactoe_hard_never_loses_whatever_the_opponent_plays() -> None:
    """Hard (a depth-limited search) is safe in every line: the opponent tries every move,
    Hard every move its search ranks best (any of them may win the seeded tie-break), and
    none of those moves gives away the value the solver finds.  Each search here starts
    with a fresh table; the seeded matches above play the real player, table and all."""
    game = games.get_game("tictactoe")
    hard = ai.get_preset("tictactoe", "hard")
    solved: dict[Any, dict[Any, float]] = {}

    def exact(state: Any) -> dict[Any, float]:
        if state.key() not in solved:
            solved[state.key()] = ai.search(
                state, ai.SearchConfig(ai.DepthLimited("alphabeta", None))
            ).values
        return solved[state.key()]

    seen: set[tuple[Any, int]] = set()
    mistakes: list[str] = []

    def walk(state: Any, moves: tuple[int, ...], me: int) -> None:
        if state.is_terminal() or (state.key(), me) in seen:
            return
        seen.add((state.key(), me))
        if state.to_move != me:
            for move in state.legal_moves():
                walk(state.play(move), (*moves, move), me)
            return
        result = ai.search(state, ai.SearchConfig(hard.search))
        best = max(result.values.values())
        values = exact(state)
        target = max(values.values())
        for move, value in result.values.items():
            if value != best:
                continue
            if (values[move] >= 0) != (target >= 0):  # a draw or win thrown into a loss
                mistakes.append(game.format_moves([*moves, move]))
            walk(state.play(move), (*moves, move), me)

    for me in (0, 1):
        walk(game.initial_state(), (), me)
    assert not mistakes, f"Hard loses after: {', '.join(mistakes[:5])}"


# --------------------------------------------------------------------------- connect-four


@pytest.mark.parametrize(
    ("lower", "upper", "count"), [("easy", "medium", 10), ("medium", "hard", 12)]
)
def test_connect4_each_preset_beats_the_one_below(lower: str, upper: str, count: int) -> None:
    tally = _match("connect4", lower, upper, count)
    assert tally.score(1) > 0.5, f"{upper} vs {lower}: {_describe(tally)}"


def test_connect4_expert_beats_hard() -> None:
    """Expert against Hard, each side of three seeded openings.

    Expert has a time budget (1.5 s a move), so how deep it gets, and with it the result,
    depends on the machine.  A full game from the first move takes about half a minute
    of Expert's thinking, too slow here; the full ladder (docs/RESULTS.md) plays those.
    So this test starts after 18 plies of a seeded Medium-vs-Medium opening, where
    Expert's searches mostly solve the position within a 0.5 s budget and otherwise go
    well past Hard's depth 6: from there Expert plays perfectly (or nearly), so over both
    sides of an opening it cannot score less than half, and it wins the openings Hard
    misplays.  The assertion allows for a slow machine: Expert must score more than Hard
    over the six games and never lose both sides of an opening.
    """
    game = games.get_game("connect4")
    expert = replace(ai.get_preset("connect4", "expert"), time_limit=0.5)
    hard = ai.get_preset("connect4", "hard")
    medium = ai.get_preset("connect4", "medium")
    expert_points = 0.0
    openings = 0
    for opening_seed in range(10):
        if openings == 3:
            break
        opening = AIPlayer(replace(medium, seed=opening_seed), game)
        start = game.initial_state()
        while start.ply < 18 and not start.is_terminal():
            start = start.play(opening.choose(start))
        if start.is_terminal():  # Medium sometimes wins the opening outright: take the next
            continue
        openings += 1
        pair_points = 0.0
        for expert_side in (0, 1):
            players = {
                expert_side: AIPlayer(replace(expert, seed=opening_seed), game),
                1 - expert_side: AIPlayer(replace(hard, seed=opening_seed), game),
            }
            state = start
            while not state.is_terminal():
                state = state.play(players[state.to_move].choose(state))
            winner = state.winner()
            pair_points += 0.5 if winner is None else float(winner == expert_side)
        assert pair_points >= 0.5, f"Expert lost both sides of opening {opening_seed}"
        expert_points += pair_points
    assert openings == 3
    assert expert_points > 3.0, f"Expert scored {expert_points:g} of 6 against Hard"


# --------------------------------------------------------------------------- Pig


@pytest.mark.parametrize(
    ("lower", "upper"), [("easy", "medium"), ("medium", "hard"), ("hard", "expert")]
)
def test_pig_each_preset_beats_the_one_below(lower: str, upper: str) -> None:
    """Dice make Pig close (Expert takes about 56% from Hard), so each pair plays 600 games:
    enough for the measured gaps to show, quick because Pig's presets move in under a ms."""
    tally = _match("pig", lower, upper, 600)
    assert tally.score(1) > 0.52, f"{upper} vs {lower}: {_describe(tally)}"


def test_presets_are_listed_easiest_first() -> None:
    for name in games.GAMES:
        assert [preset.lower() for preset in ai.DIFFICULTIES[name]] == list(PRESETS)
        assert all(ai.preset_description(name, preset) for preset in ai.DIFFICULTIES[name])
