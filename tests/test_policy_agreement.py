"""Presets against a game's reference policy (Pig's optimal table): the Expert agrees; scoring."""

from __future__ import annotations

import random

import pytest

from plyground.ai.compare import policy_agreement as pa
from plyground.ai.engine.search import DepthLimited
from plyground.ai.players.players import SearchPlayer
from plyground.ai.players.presets import DIFFICULTIES
from plyground.games.pig.optimal import optimal_table
from plyground.games.pig.rules import OptimalPolicy

POLICY = OptimalPolicy(100)


def test_the_decision_states_are_the_tables_states() -> None:
    small = OptimalPolicy(10)
    states = pa.decision_states(small)
    assert len(states) == 10 * 10 * 11 // 2 == len(set(states))
    assert all(i + k < 10 and j < 10 for i, j, k in states)
    sample = pa.sample_states(30, small)
    assert len(sample) == 30 and set(sample) <= set(states) and sample == sorted(sample)
    assert sample == pa.sample_states(30, small)  # seeded
    assert pa.policy_games() == ["pig"]
    assert pa.reference_for(goal=10).decision_keys() == states


def test_the_subsets() -> None:
    assert POLICY.in_subset((0, 5, 0), "all") and not POLICY.in_subset((0, 5, 0), "choice")
    assert POLICY.in_subset((0, 5, 2), "reachable")
    assert not POLICY.in_subset((1, 5, 2), "reachable")
    assert not POLICY.in_subset((3, 5, 1), "reachable")


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
    states = pa.sample_states(400, POLICY, seed=7)
    values = pa.root_values(config, states)
    table = optimal_table(100)
    for (i, j, k), move_values in zip(states, values, strict=True):
        roll, hold = move_values["roll"], move_values.get("hold")
        if hold is None:
            assert k == 0
            continue
        optimal = "roll" if table.should_roll(i, j, k) else "hold"
        chosen = "roll" if roll > hold else "hold"
        assert roll != hold and chosen == optimal, (i, j, k, roll, hold)
    sums = pa.score_preset(states, values, config.randomness, POLICY)
    assert sums["all"]["agree"] == sums["all"]["states"] == 400
    assert sums["all"]["cost"] == 0


def test_a_weak_player_disagrees_and_the_report_says_how_often() -> None:
    always_hold_early = SearchPlayer(DepthLimited("expectiminimax", 1, "score"))
    report = pa.agreement_report({"Score-1": always_hold_early}, sample=200, options={"goal": 100})
    entry = report["presets"][0]
    assert report["sample"] and report["states"] == 200
    assert 0 < entry["subsets"]["all"]["agree"] < 200
    assert entry["subsets"]["choice"]["states"] < 200
    text = "\n".join(pa.format_report(report))
    assert "Score-1" in text and "sample of 200" in text and "Wilson" in text
    assert text.startswith("Pig (goal 100): each preset's decision against the optimal policy")
    assert "reachable (no 1s)" in text


def test_presets_are_chosen_by_name() -> None:
    assert list(pa.choose_presets(None)) == list(DIFFICULTIES["pig"])
    assert list(pa.choose_presets("expert, EASY")) == ["Expert", "Easy"]
    with pytest.raises(ValueError, match="unknown Pig preset"):
        pa.choose_presets("grandmaster")


def test_the_expert_rolls_at_a_near_tie_of_a_millionth() -> None:
    """At (41, 0, 17) rolling beats holding by only 1.6e-7 in win probability: chance games
    keep unrounded leaf values so the Expert still rolls (it held while leaves were rounded
    to 1e-6 units, its one disagreement with the table over all 505,000 states)."""
    from plyground import ai
    from plyground.games.pig.rules import State

    table = optimal_table(100)
    assert table.should_roll(41, 0, 17)
    gap = table.roll_win_probability(41, 0, 17) - table.hold_win_probability(41, 0, 17)
    assert 0 < gap < 1e-6
    config = DIFFICULTIES["pig"]["Expert"]
    result = ai.search(
        State(goal=100, scores=(41, 0), turn_total=17),
        ai.SearchConfig(config.search),
    )
    assert result.move == "roll"


def test_choice_probabilities_of_two_and_of_more_moves() -> None:
    assert pa.choice_probabilities({"a": 0.3, "b": 0.3, "c": 0.1}, 0.0) == {
        "a": 0.5,
        "b": 0.5,
        "c": 0.0,
    }
    two = pa.choice_probabilities({"a": 0.1, "b": 0.0}, 0.2)
    assert two["a"] == pytest.approx(pa.noisy_agreement(0.1, 0.2))
    assert sum(two.values()) == pytest.approx(1.0)
    three = pa.choice_probabilities({"a": 0.1, "b": 0.0, "c": 0.05}, 0.2)
    assert sum(three.values()) == pytest.approx(1.0, abs=1e-3)
    assert three["a"] > three["c"] > three["b"] > 0
    rng = random.Random(2)
    trials = 30_000
    wins = 0
    for _ in range(trials):
        noisy = {m: v + rng.uniform(-0.2, 0.2) for m, v in {"a": 0.1, "b": 0.0, "c": 0.05}.items()}
        wins += max(noisy, key=noisy.__getitem__) == "a"
    assert three["a"] == pytest.approx(wins / trials, abs=0.01)
