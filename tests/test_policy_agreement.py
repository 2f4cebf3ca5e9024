"""Pig presets against the optimal policy: the Expert agrees with the table; the scoring."""

from __future__ import annotations

import random

import pytest

from ai import policy_agreement as pa
from ai.difficulty import DIFFICULTIES
from ai.players import PlayerConfig
from games.pig_optimal import optimal_table


def test_the_decision_states_are_the_tables_states() -> None:
    states = pa.decision_states(10)
    assert len(states) == 10 * 10 * 11 // 2 == len(set(states))
    assert all(i + k < 10 and j < 10 for i, j, k in states)
    sample = pa.sample_states(30, goal=10)
    assert len(sample) == 30 and set(sample) <= set(states)
    assert sample == pa.sample_states(30, goal=10)  # seeded


def test_the_subsets() -> None:
    assert pa.in_subset((0, 5, 0), "all") and not pa.in_subset((0, 5, 0), "choice")
    assert pa.in_subset((0, 5, 2), "reachable") and not pa.in_subset((1, 5, 2), "reachable")
    assert not pa.in_subset((3, 5, 1), "reachable")


@pytest.mark.parametrize("noise", [0.05, 0.2, 1.0])
def test_noisy_agreement_is_the_triangular_cdf(noise: float) -> None:
    rng = random.Random(1)
    for gap in (-0.3, -0.05, 0.0, 0.02, 0.1, 0.5):
        trials = 40_000
        hits = sum(
            gap + rng.uniform(-noise, noise) > rng.uniform(-noise, noise) for _ in range(trials)
        )
        assert pa.noisy_agreement(gap, noise) == pytest.approx(hits / trials, abs=0.01)
    assert pa.noisy_agreement(0.0, noise) == pytest.approx(0.5)


def test_without_noise_a_tie_is_half_right() -> None:
    assert pa.noisy_agreement(0.1, 0.0) == 1.0
    assert pa.noisy_agreement(0.0, 0.0) == 0.5
    assert pa.noisy_agreement(-0.1, 0.0) == 0.0


def test_the_expert_agrees_with_the_optimal_table_on_a_random_sample() -> None:
    config = DIFFICULTIES["pig"]["Expert"]
    states = pa.sample_states(400, seed=7)
    values = pa.root_values(config, states)
    table = optimal_table(100)
    for (i, j, k), (roll, hold) in zip(states, values, strict=True):
        if hold is None:
            assert k == 0
            continue
        optimal = "roll" if table.should_roll(i, j, k) else "hold"
        chosen = "roll" if roll > hold else "hold"
        assert roll != hold and chosen == optimal, (i, j, k, roll, hold)
    sums = pa.score_preset(states, values, config.randomness)
    assert sums["all"]["agree"] == sums["all"]["states"] == 400
    assert sums["all"]["cost"] == 0


def test_a_weak_player_disagrees_and_the_report_says_how_often() -> None:
    always_hold_early = PlayerConfig("expectiminimax", depth=1, heuristic="score")
    report = pa.agreement_report({"Score-1": always_hold_early}, sample=200, goal=100)
    entry = report["presets"][0]
    assert report["sample"] and report["states"] == 200
    assert 0 < entry["subsets"]["all"]["agree"] < 200
    assert entry["subsets"]["choice"]["states"] < 200
    text = "\n".join(pa.format_report(report))
    assert "Score-1" in text and "sample of 200" in text and "Wilson" in text


def test_presets_are_chosen_by_name() -> None:
    assert list(pa.choose_presets(None)) == list(DIFFICULTIES["pig"])
    assert list(pa.choose_presets("expert, EASY")) == ["Expert", "Easy"]
    with pytest.raises(ValueError, match="unknown Pig preset"):
        pa.choose_presets("grandmaster")


def test_the_expert_rolls_at_a_near_tie_of_a_millionth() -> None:
    """At (41, 0, 17) rolling beats holding by only 1.6e-7 in win probability: chance games
    keep unrounded leaf values so the Expert still rolls (it held while leaves were rounded
    to 1e-6 units, its one disagreement with the table over all 505,000 states)."""
    import ai
    from games.pig import State

    table = optimal_table(100)
    assert table.should_roll(41, 0, 17)
    gap = table.roll_win_probability(41, 0, 17) - table.hold_win_probability(41, 0, 17)
    assert 0 < gap < 1e-6
    config = DIFFICULTIES["pig"]["Expert"]
    result = ai.search(
        State(goal=100, scores=(41, 0), turn_total=17),
        config.algorithm,
        depth=config.depth,
        heuristic=config.heuristic,
    )
    assert result.move == "roll"
