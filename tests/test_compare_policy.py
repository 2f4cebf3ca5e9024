"""Pig's policy picture: the drawn thresholds are the solved table's decisions."""

from __future__ import annotations

from plyground import games
from plyground.games.pig import policy_chart as pig_policy_data
from plyground.games.pig.optimal import optimal_table


def test_thresholds_are_the_tables_decisions() -> None:
    table = optimal_table(30)
    for opp in (0, 12, 29):
        for own, threshold in pig_policy_data.hold_thresholds(table, opp):
            assert 1 <= threshold <= 30 - own
            assert all(table.should_roll(own, opp, k) for k in range(1, threshold))
            assert threshold == 30 - own or not table.should_roll(own, opp, threshold)


def test_the_rule_of_twenty() -> None:
    assert pig_policy_data.rule_thresholds(100)[:2] == [(0, 20), (1, 20)]
    assert pig_policy_data.rule_thresholds(100)[90] == (90, 10)


def test_picture_marks_the_decision_and_the_ai_choice() -> None:
    game = games.get_game("pig", goal=30)
    state = game.replay(game.parse_moves("r4r6h r5r3"))  # player 2: 0 against 10, total 8
    picture = game.policy_picture(state, "hold")  # type: ignore[attr-defined]
    boundary, surface = picture["panels"]
    table = optimal_table(30)
    decision = "roll" if table.should_roll(0, 10, 8) else "hold"
    assert picture["decision"] == decision
    here, chosen = boundary["markers"]
    assert (here["x"], here["y"]) == (0, 8) and decision in here["label"]
    assert chosen["label"] == "AI: hold"
    assert chosen["colour"] == ("good" if decision == "hold" else "danger")
    optimal = boundary["series"][1]["points"]
    assert optimal[:30] == pig_policy_data.hold_thresholds(table, 10)
    assert surface["heat"]["values"][10][0] == table.win_probability(0, 10, 0)
    assert surface["markers"][0]["x"] == 0 and surface["markers"][0]["y"] == 10
