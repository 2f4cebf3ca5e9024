"""Games where a side moves again: a 13-line file, Kalah and dots and boxes from files written
as a student would (tests/game_files).  Plyground's solve equals an independent solver
written here from the rules (memoized, tracking whose move it is, no Plyground search), at
random positions and for every root move; Hard beats random at both."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import main
from plyground import ai, games
from plyground.ai.players.match import MatchSetup, run_match
from plyground.ai.textbook.game_view import TextbookGame
from plyground.ai.textbook.minimax import minimax

FILES = Path(__file__).resolve().parent / "game_files"
TWICE = str(FILES / "twice.py")
KALAH = str(FILES / "kalah.py")
DOTS = str(FILES / "dots_and_boxes.py")

Outcome = tuple[int, int]
"""(result, plies) for the side to move: result 1 a win, 0 a draw, -1 a loss."""


def as_value(outcome: Outcome) -> float:
    """An outcome on Plyground's scale: a win d plies away is 1 - d/1000, a draw 0."""
    result, plies = outcome
    return 0.0 if result == 0 else result * (1 - plies / 1000)


def best_outcome(children: list[tuple[Outcome, bool]]) -> Outcome:
    """The mover's best outcome over its moves, each child's outcome with whether the mover
    moves again there: a quicker win, then a draw, then a slower loss."""
    mine = []
    for (result, plies), again in children:
        mine.append((result if again else -result, plies + 1))
    return max(mine, key=lambda o: (o[0], -o[1] if o[0] > 0 else (0 if o[0] == 0 else o[1])))


# ------------------------------------------------------------------ Kalah, from the rules
@cache
def kalah_outcome(cells: tuple[int, ...], side: int) -> Outcome:
    """Kalah solved from its rules (sowing, the extra turn, capture, the end's sweep)."""
    pits = (len(cells) - 2) // 2
    stores = (pits, 2 * pits + 1)
    rows = (range(pits), range(pits + 1, 2 * pits + 1))
    moves = [p for p in rows[side] if cells[p]]
    if not moves:
        mine, theirs = cells[stores[side]], cells[stores[1 - side]]
        return ((mine > theirs) - (mine < theirs), 0)
    children = []
    for move in moves:
        board = list(cells)
        seeds, board[move], pit = board[move], 0, move
        while seeds:
            pit = (pit + 1) % len(board)
            if pit != stores[1 - side]:
                board[pit] += 1
                seeds -= 1
        if pit in rows[side] and board[pit] == 1 and board[2 * pits - pit]:
            board[stores[side]] += 1 + board[2 * pits - pit]
            board[pit] = board[2 * pits - pit] = 0
        if not any(board[p] for p in rows[0]) or not any(board[p] for p in rows[1]):
            for owner in (0, 1):
                board[stores[owner]] += sum(board[p] for p in rows[owner])
                for p in rows[owner]:
                    board[p] = 0
        again = pit == stores[side]
        children.append((kalah_outcome(tuple(board), side if again else 1 - side), again))
    return best_outcome(children)


# ------------------------------------------------------------------ dots and boxes, likewise
@cache
def dots_outcome(rows: int, cols: int, drawn: frozenset[int], lead: int) -> Outcome:
    """Dots and boxes solved from its rules; `lead` is the boxes of the side to move minus
    the other side's (all that decides the rest)."""
    horizontal = (rows + 1) * cols
    total = horizontal + rows * (cols + 1)
    moves = [line for line in range(total) if line not in drawn]
    if not moves:
        return ((lead > 0) - (lead < 0), 0)
    boxes = [
        (r * cols + c, r * cols + c + cols, horizontal + r * (cols + 1) + c)
        for r in range(rows)
        for c in range(cols)
    ]
    children = []
    for move in moves:
        after = drawn | {move}
        closed = sum(
            move in (top, bottom, left, left + 1)
            and all(line in after for line in (top, bottom, left, left + 1))
            for top, bottom, left in boxes
        )
        again = closed > 0
        child_lead = lead + closed if again else -lead
        children.append((dots_outcome(rows, cols, after, child_lead), again))
    return best_outcome(children)


def independent_values(state: Any) -> dict[Any, float]:
    """Every root move's value by the solver written here, for the side to move."""
    values = {}
    for move in state.legal_moves():
        child = state.play(move)
        again = child.player == state.player
        outcome = independent_outcome(child)
        values[move] = as_value(best_outcome([(outcome, again)]))
    return values


def independent_outcome(state: Any) -> Outcome:
    """The independent solver's outcome of a file's position, from its own fields."""
    inner = state.inner
    if hasattr(inner, "cells"):
        return kalah_outcome(inner.cells, inner.to_move)
    mover = inner.to_move
    lead = inner.boxes[mover] - inner.boxes[1 - mover]
    return dots_outcome(inner.rows, inner.cols, frozenset(inner.drawn), lead)


def random_positions(game: Any, count: int, seed: int, most: int) -> list[Any]:
    """`count` positions (not finished) reached by up to `most` random moves, seeded."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randint(0, most)):
            after = state.play(rng.choice(state.legal_moves()))
            if after.is_terminal():
                break
            state = after
        found.append(state)
    return found


# ------------------------------------------------------------------ the tests
def test_a_second_move_in_a_row_is_a_win_in_two(capsys: pytest.CaptureFixture[str]) -> None:
    """The file of the issue: `again` gives its side another move, which wins."""
    state = games.get_game(TWICE).initial_state()
    for depth in (2, 3, None):
        result = ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth), all_values=True)
        )
        assert result.move == "again"
        assert result.values == {"again": 0.998, "end": 0.0}
        assert result.pv == ("again", "finish")
    assert main.main(["hint", "--game", TWICE]) == 0
    assert "again · win in 2 for Player 1" in capsys.readouterr().out
    assert main.main(["analyze", "--game", TWICE, "--depth", "solve"]) == 0
    out = capsys.readouterr().out
    assert "Best move: again (+0.9980, win in 2 for Player 1)" in out
    assert main.main(["compare", "--game", TWICE]) == 0
    out = capsys.readouterr().out
    assert "loss" not in out
    assert out.count("win in 2 │ again") >= 4  # minimax, alpha-beta (two) and the engine


@pytest.mark.parametrize(("spec", "options"), [(KALAH, {"seeds": 2}), (DOTS, {})])
def test_the_solve_equals_an_independent_solver(spec: str, options: dict[str, Any]) -> None:
    game = games.get_game(spec, **options)
    extra = 0
    for state in random_positions(game, 6, seed=47, most=8):
        want = independent_values(state)
        solved = ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), all_values=True)
        )
        assert solved.values == pytest.approx(want, abs=1e-9), state.key()
        assert all(value.is_exact for value in solved.move_values.values())
        best = ai.search(
            state, ai.SearchConfig(ai.DepthLimited("alphabeta", None), all_values=False)
        )
        assert best.value == pytest.approx(max(want.values()), abs=1e-9)
        extra += sum(state.play(m).player == state.player for m in state.legal_moves())
    assert extra > 0  # the positions have moves that give another turn


def test_the_textbook_agrees_on_kalah_at_every_depth() -> None:
    game = games.get_game(KALAH, seeds=2)
    for state in random_positions(game, 3, seed=8, most=6):
        view = TextbookGame(state, None)
        for depth in range(1, 6):
            engine = ai.search(
                state, ai.SearchConfig(ai.DepthLimited("alphabeta", depth), book=False)
            )
            for move in state.legal_moves():
                value = minimax(view, view.result(view.start(depth), move), depth - 1)
                assert view.show(value) == engine.values[move], (state.key(), depth, move)


@pytest.mark.parametrize(("spec", "options"), [(KALAH, (("seeds", 2),)), (DOTS, ())])
def test_hard_beats_random(spec: str, options: tuple[tuple[str, Any], ...]) -> None:
    name = games.resolve(spec)
    setup = MatchSetup(name, options, ("hard", "random"), seed=47, swap=True)
    tally = run_match(setup, 8)
    hard = tally.players[0]
    assert hard.wins > hard.losses, (hard.wins, hard.draws, hard.losses)
    assert hard.points >= 6, (hard.wins, hard.draws, hard.losses)
