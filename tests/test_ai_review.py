"""The game review (ai.advice.game_review): judgements on constructed games, and the default
evaluator's
labels checked against independent answers (full minimax, the solver, Pig's exact table)."""

from __future__ import annotations

import pytest

from plyground import ai, games
from plyground.ai.advice.game_review import (
    BLUNDER_DROP,
    MARKS,
    Judgement,
    Line,
    assemble,
    judge,
    review_game,
    review_points,
    win_chance,
)
from plyground.ai.advice.review_evaluator import default_evaluator
from plyground.ai.evaluation.provenance import Evaluation, Kind, Source, estimate, exact


def _review(name: str, text: str, seconds: float | None = None, **options: int):
    game = games.get_game(name, **options)
    moves = game.parse_moves(text)
    return game, moves, review_game(game.initial_state(), moves, default_evaluator(game, seconds))


def test_tictactoe_a_move_that_gives_the_draw_away():
    _game, _moves, review = _review("tictactoe", "15263")
    assert review.complete and len(review.positions) == 6
    judged = {m.index: m for m in review.moves}
    assert judged[3].judgement is Judgement.DRAW_GIVEN_AWAY and judged[3].mark == "✗"
    assert "proven" in judged[3].reason
    assert judged[3].best_move == 2  # cell 3 holds the draw (X threatens 1-2-3)
    assert all(judged[i].judgement is None for i in (0, 1, 2, 4))
    assert review.positions[-1].graph == exact(1.0, Source.SEARCH)  # X won
    assert review.positions[4].best_move == 2  # the winning cell


@pytest.mark.slow
def test_tictactoe_exact_values_equal_full_minimax():
    game, moves, review = _review("tictactoe", "15263")
    state = game.initial_state()
    for position in review.positions[:-1]:
        truth = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 9, "none")))
        assert position.evaluation.admits(truth.value)
        assert len(position.lines) == len(state.legal_moves())
        for line in position.lines:
            assert line.evaluation.kind is Kind.EXACT
            assert line.evaluation.admits(truth.move_values[line.moves[0]].value)
        state = state.play(moves[position.index])


def test_connect4_first_move_off_centre_gives_the_proven_win_away(real_book):
    _game, _moves, review = _review("connect4", "3444", seconds=0.5)
    first = review.moves[0]
    assert first.judgement is Judgement.WIN_GIVEN_AWAY
    assert first.best_move == 3 and first.best.is_exact and first.played.is_exact
    start = review.positions[0]
    assert start.graph.is_exact and start.graph.value > 0.9  # the first player wins
    assert start.graph.source is Source.BOOK
    assert review.positions[1].graph.value == 0.0  # after 3: a draw, exactly
    assert [m.judgement for m in review.moves[1:]] == [None, None, None]
    assert len(start.lines) >= 2 and start.lines[0].moves[0] == 3


def test_connect4_exact_values_equal_the_solver(no_book):
    game = games.get_game("connect4")
    # a late middle game (26 stones) the solver finishes without the book
    text = "72724562277525636355467517"
    moves = game.parse_moves(text)
    state = game.replay(moves)
    evaluation, lines = default_evaluator(game, seconds=None)(state)
    truth = ai.search(state, ai.SearchConfig(ai.DepthLimited("alphabeta", None, "none")))
    assert truth.exact and evaluation.kind is Kind.EXACT
    assert evaluation.admits(truth.value)
    for line in lines:
        assert line.evaluation.admits(truth.move_values[line.moves[0]].value)


PIG_GAME = "r4r6r5h r3h r1 r6r6r6r4r2 r6r6h"
"""Goal 30: player 1 holds at 15 (too early), player 2 holds at 3 (far too early), then at
a turn total of 30 player 2 rolls instead of holding the win, and holds one roll later."""


def test_pig_judgements_from_the_exact_table():
    _game, _moves, review = _review("pig", PIG_GAME, goal=30)
    judged = {m.index: m for m in review.moves}
    assert judged[6].judgement is Judgement.INACCURACY  # hold at 15
    assert judged[9].judgement is Judgement.BLUNDER  # hold at 3
    assert judged[24].judgement is Judgement.WIN_GIVEN_AWAY  # a roll with the win in hand
    assert judged[24].best_move == "hold"
    assert "exact" in judged[6].reason
    assert sum(m.judgement is not None for m in review.moves) == 3
    for position in review.positions:
        assert position.graph.kind is Kind.EXACT


def test_pig_values_are_the_tables_win_chances():
    game, moves, review = _review("pig", PIG_GAME, goal=30)
    policy = game.reference_policy()
    states = dict(review_points(game.initial_state(), moves))
    for position in review.positions[:-1]:
        key = policy.key_of(states[position.index])
        truth = policy.move_values(key)
        assert position.graph.source is Source.TABLE
        for line in position.lines:
            assert line.evaluation.admits(2 * truth[line.moves[0]] - 1)


def test_chance_positions_are_played_through_and_not_judged():
    game = games.get_game("pig", goal=30)
    moves = game.parse_moves("r4r6h")
    indices = [index for index, _ in review_points(game.initial_state(), moves)]
    assert indices == [0, 2, 4, 5]  # before each decision, and the end


def test_judgement_thresholds_and_estimates():
    best, played = exact(0.6, Source.TABLE), exact(0.6 - BLUNDER_DROP, Source.TABLE)
    assert judge(best, played, stochastic=True)[0] is Judgement.BLUNDER
    assert judge(best, exact(0.55, Source.TABLE), stochastic=True)[0] is None
    judgement, reason = judge(estimate(0.4, 6), estimate(-0.4, 6), stochastic=False)
    assert judgement is Judgement.BLUNDER and reason.startswith("estimated")
    # an estimate never proves a result given away
    assert judge(estimate(0.8, 6), exact(0.0, Source.SEARCH), False)[0] is not (
        Judgement.WIN_GIVEN_AWAY
    )
    assert win_chance(exact(0.97, Source.SEARCH), stochastic=False) == 1.0
    assert -1 < win_chance(estimate(-0.5, 4), stochastic=False) < 0
    assert len(set(MARKS.values())) == 4  # ??, ?, ?! and the mark of a result given away


def test_an_upper_bound_below_the_win_still_gives_the_win_away():
    best = exact(0.96, Source.BOOK)
    played = Evaluation(0.0, Kind.UPPER, Source.SEARCH)
    assert judge(best, played, stochastic=False)[0] is Judgement.WIN_GIVEN_AWAY


def test_assemble_stops_at_the_first_position_not_evaluated_yet():
    game = games.get_game("tictactoe")
    moves = game.parse_moves("159")
    evaluate = default_evaluator(game, seconds=None)
    first = game.initial_state()
    known = {first: evaluate(first)}
    partial = assemble(first, moves, known)
    assert len(partial.positions) == 1 and len(partial.moves) == 1 and not partial.complete
    assert partial.total == 4


def test_a_move_without_a_line_is_valued_from_the_position_after_it():
    game = games.get_game("tictactoe")
    full = default_evaluator(game, seconds=None)

    def best_line_only(state):
        evaluation, lines = full(state)
        return evaluation, lines[:1]

    moves = game.parse_moves("15263")
    review = review_game(game.initial_state(), moves, best_line_only)
    assert {m.index: m.judgement for m in review.moves}[3] is Judgement.DRAW_GIVEN_AWAY
    assert isinstance(review.positions[0].lines[0], Line)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tictactoe", "connect4", "pig"])
def test_the_review_of_an_empty_game_is_the_start(name, no_book):
    game = games.get_game(name, **({"goal": 20} if name == "pig" else {}))
    review = review_game(game.initial_state(), [], default_evaluator(game, seconds=0.05))
    assert len(review.positions) == 1 and review.moves == ()


@pytest.mark.slow
def test_every_exact_label_on_random_tictactoe_positions_is_true():
    import random

    game = games.get_game("tictactoe")
    evaluate = default_evaluator(game, seconds=None)
    rng = random.Random(7)
    for _ in range(25):
        state = game.initial_state()
        for _ in range(rng.randrange(2, 7)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        truth = ai.search(state, ai.SearchConfig(ai.DepthLimited("minimax", 9, "none")))
        evaluation, lines = evaluate(state)
        assert evaluation.kind is Kind.EXACT and evaluation.admits(truth.value)
        assert {line.moves[0] for line in lines} == set(state.legal_moves())
        for line in lines:
            assert line.evaluation.admits(truth.move_values[line.moves[0]].value)


def test_values_are_written_with_their_kind():
    from plyground.ai.advice.game_review import evaluation_text

    assert evaluation_text(exact(0.0, Source.BOOK), False) == "draw (exact, book)"
    assert evaluation_text(estimate(0.31, 9), False) == "+0.31 (estimate, depth 9)"
    assert evaluation_text(exact(0.24, Source.TABLE), True) == "62.0% to win (exact, table)"
    bound = Evaluation(0.989, Kind.UPPER, Source.SEARCH)
    assert evaluation_text(bound, False) == "at most win in 11 (bound, search)"


def test_bounds_that_could_hide_a_smaller_drop_mark_nothing():
    at_least_a_loss = Evaluation(-0.98, Kind.LOWER, Source.SEARCH)
    assert judge(exact(0.0, Source.SEARCH), at_least_a_loss, False) == (None, "")
    at_most_a_win = Evaluation(0.98, Kind.UPPER, Source.SEARCH)
    assert judge(at_most_a_win, exact(0.0, Source.SEARCH), False) == (None, "")


def test_pig_above_the_tables_goal_is_searched_and_labelled_an_estimate(monkeypatch):
    game = games.get_game("pig", goal=300)
    assert game.reference_policy().key_of(game.initial_state()) is None
    # On a machine where this goal's exact table cannot be built, the advisor searches.
    refuse = {"optimal": "its table is too large here"}
    monkeypatch.setattr(
        "plyground.ai.advice.advisor.heuristic_refusal", lambda game, h: refuse.get(h)
    )
    state = game.replay(game.parse_moves("r4r6"))
    evaluation, lines = default_evaluator(game)(state)
    assert evaluation.kind is Kind.ESTIMATE and evaluation.source is Source.HEURISTIC
    assert {line.moves[0] for line in lines} == {"roll", "hold"}


def test_pig_moves_without_lines_are_valued_through_the_dice():
    game = games.get_game("pig", goal=30)
    full = default_evaluator(game)

    def best_line_only(state):
        evaluation, lines = full(state)
        return evaluation, lines[:1]

    moves = game.parse_moves(PIG_GAME)
    by_lines = review_game(game.initial_state(), moves, full)
    by_children = review_game(game.initial_state(), moves, best_line_only)
    for a, b in zip(by_lines.moves, by_children.moves, strict=True):
        assert a.judgement == b.judgement
        assert abs(a.played.value - b.played.value) < 1e-6 and b.played.is_exact
