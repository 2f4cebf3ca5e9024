"""Expectiminimax on Pig against an independent value iteration written here.

Pig's game graph has cycles (a 1 can wipe out turn after turn), so no search reaches every
end; with a cutoff heuristic worth 0, the depth-d value is the chance of winning within d
decisions, which converges to the true win probability as d grows.
"""

from __future__ import annotations

import pytest

from plyground import ai, games
from plyground.ai.engine.table import TranspositionTable


def value_iteration(goal: int, tolerance: float = 1e-12) -> dict[tuple[int, int, int], float]:
    """P(i, j, k): the mover's chance to win with own score i, opponent's j, turn total k."""
    p: dict[tuple[int, int, int], float] = {}
    states = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    for state in states:
        p[state] = 0.5

    def prob(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else p[(i, j, k)]

    while True:
        change = 0.0
        for i, j, k in states:
            roll = (1 - prob(j, i, 0)) / 6 + sum(prob(i, j, k + face) for face in range(2, 7)) / 6
            best = max(roll, 1 - prob(j, i + k, 0)) if k > 0 else roll
            change = max(change, abs(best - p[(i, j, k)]))
            p[(i, j, k)] = best
        if change < tolerance:
            return p


CASES = [
    # goal, moves so far, depth: deep enough that the unreached tail is under 0.001
    (10, "", 16),
    (15, "", 18),
    (20, "r6r6h r5r5h", 18),
    (30, "r6r6r6r4h r6r6r6r4h", 16),
]


@pytest.mark.slow
@pytest.mark.parametrize(("goal", "moves", "depth"), CASES)
def test_expectiminimax_converges_to_value_iteration(goal: int, moves: str, depth: int) -> None:
    game = games.get_game("pig", goal=goal)
    state = game.replay(game.parse_moves(moves))
    truth = value_iteration(goal)
    me = state.player
    key = (state.scores[me], state.scores[1 - me], state.turn_total)
    expected = 2 * truth[key] - 1
    result = ai.search(
        state,
        ai.SearchConfig(ai.DepthLimited("expectiminimax", depth, "none")),
        table=TranspositionTable(22),
    )
    assert abs(result.value - expected) < 0.001
    # every root move too: roll and (where legal) hold
    for move, value in result.values.items():
        child = state.play(move)
        if move == "hold":
            child_key = (child.scores[1 - me], child.scores[me], 0)
            assert abs(value - (1 - 2 * truth[child_key])) < 0.001 or child.is_terminal()


def test_values_grow_towards_the_truth_with_depth() -> None:
    game = games.get_game("pig", goal=10)
    state = game.initial_state()
    truth = 2 * value_iteration(10)[(0, 0, 0)] - 1
    errors = [
        abs(
            ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", d, "none"))).value
            - truth
        )
        for d in (4, 8, 12)
    ]
    assert errors[0] > errors[1] > errors[2]


def test_chance_root_reports_the_expectation() -> None:
    game = games.get_game("pig", goal=20)
    state = game.replay(game.parse_moves("r"))
    assert state.to_move == games.CHANCE
    result = ai.search(state, ai.SearchConfig(ai.DepthLimited("expectiminimax", 3, "race")))
    assert result.move is None
    assert set(result.values) == {1, 2, 3, 4, 5, 6}
    mean = sum(result.values.values()) / 6
    assert result.value == pytest.approx(mean)


def test_optimal_heuristic_at_depth_one_is_the_optimal_policy() -> None:
    from plyground.games.pig.optimal import optimal_table
    from plyground.games.pig.rules import State

    table = optimal_table(100)
    expert = ai.get_preset("pig", "Expert")
    for i, j, k in [(61, 46, 37), (0, 0, 20), (0, 0, 21), (50, 0, 15), (95, 0, 5), (85, 99, 3)]:
        state = State(goal=100, scores=(i, j), turn_total=k, player=0, to_move=0)
        result = ai.search(
            state,
            ai.SearchConfig(expert.search),
        )
        expected = "roll" if table.should_roll(i, j, k) else "hold"
        assert result.move == expected, (i, j, k)
