"""A game's optional hooks, read once per class into its `Capabilities`, and registration
that refuses a game missing a member every game has."""

from __future__ import annotations

import nim_game
import pytest

from plyground import games
from plyground.games import base
from plyground.games.trees import examples as tree_examples

OFFERED = {
    "tictactoe": {
        "max_plies_left",
        "kaggle_observation",
        "bench_positions",
        "exercise_positions",
        "kaggle_configuration",
        "move_time_limit",
        "sides_alternate",
        "openspiel_name",
    },
    "connect4": {
        "winning_move",
        "search_moves",
        "max_plies_left",
        "book_value",
        "solved_value",
        "solve_is_cheap",
        "solve_speed",
        "exact_engine",
        "exact_engine_status",
        "kaggle_observation",
        "warm_up",
        "bench_positions",
        "solver_benchmark",
        "exercise_positions",
        "kaggle_configuration",
        "move_time_limit",
        "sides_alternate",
        "openspiel_name",
        "random_playout",
    },
    "pig": {
        "option_cost",
        "reference_policy",
        "policy_picture",
        "bench_positions",
        "exercise_positions",
        "move_time_limit",
    },
}


@pytest.mark.parametrize("name", sorted(OFFERED))
def test_each_registered_game_offers_exactly_its_hooks(name: str) -> None:
    factory = games.GAMES[name]
    offered = games.capabilities(factory)
    assert offered.offered() == OFFERED[name]
    assert offered.state_class is type(games.get_game(name).initial_state())
    assert games.missing_members(factory) == []


@pytest.mark.parametrize("name", sorted(OFFERED))
def test_a_game_its_class_and_its_states_share_one_record(name: str) -> None:
    game = games.get_game(name)
    state = game.initial_state()
    record = games.capabilities(games.GAMES[name])
    assert games.capabilities(game) is record
    assert games.state_capabilities(state) is record
    assert games.state_capabilities(state.play(state.legal_moves()[0])) is record


def test_hooks_are_the_classes_functions_and_match_the_protocols() -> None:
    connect4 = games.get_game("connect4")
    state = connect4.replay(connect4.parse_moves("444"))
    offered = games.state_capabilities(state)
    assert offered.winning_move is type(state).winning_move
    assert offered.max_plies_left is not None
    assert offered.max_plies_left(state) == state.max_plies_left() == 39
    assert isinstance(state, games.SearchMoves) and isinstance(state, games.OpeningBook)
    assert isinstance(connect4, games.WarmUp) and not isinstance(connect4, games.HasReferencePolicy)
    pig = games.get_game("pig", goal=20)
    assert isinstance(pig, games.HasReferencePolicy) and not isinstance(pig, games.WarmUp)
    assert not isinstance(pig.initial_state(), games.PlyHorizon)
    assert games.capabilities(pig).option_cost is not None


def test_nim_from_the_tests_offers_only_its_reference_policy() -> None:
    offered = games.capabilities(nim_game.Game)
    assert offered.offered() == {"reference_policy"}
    assert offered.state_class is nim_game.State
    assert games.missing_members(nim_game.Game) == []
    assert games.state_capabilities(nim_game.Game().initial_state()) is offered


def test_the_lesson_trees_name_their_root_and_keep_their_values() -> None:
    game = tree_examples.TreeGame(tree_examples.LESSON_TREE)
    offered = games.capabilities(game)
    assert offered.state_class is tree_examples.TreeState
    assert offered.utility_is_value and offered.labels_name_nodes and offered.root_label == "A"
    assert games.state_capabilities(game.initial_state()) is offered
    assert games.capabilities(None).offered() == set()


def _members_of_nim(**changes: object) -> dict[str, object]:
    """Nim's class members, some replaced or (given None) left out."""
    members = {name: value for name, value in vars(nim_game.Game).items() if name != "__dict__"}
    members.update(changes)
    return {name: value for name, value in members.items() if value is not None}


def test_a_game_missing_a_required_member_is_refused_with_the_names() -> None:
    lacking = type("NoRender", (), _members_of_nim(render=None, name="norender"))
    with pytest.raises(ValueError, match=r"^game NoRender cannot be registered: it lacks render$"):
        games.register(lacking)
    assert "norender" not in games.GAMES


def test_a_state_class_missing_a_member_is_named() -> None:
    state_class = type("HalfState", (), {"legal_moves": lambda self: (), "play": None})
    game = type("HalfGame", (), _members_of_nim(State=state_class, name="half"))
    with pytest.raises(ValueError) as refused:
        games.register(game)
    message = str(refused.value)
    assert message.startswith("game HalfGame cannot be registered: it lacks HalfState.STOCHASTIC")
    assert "HalfState.winning_line" in message and "HalfState.legal_moves" not in message


def test_a_game_whose_state_class_cannot_be_told_is_refused() -> None:
    def initial_state(self: object) -> object:
        raise RuntimeError("needs options")

    game = type("Unclear", (), _members_of_nim(initial_state=initial_state, name="unclear"))
    with pytest.raises(ValueError, match="it lacks State"):
        games.register(game)


def test_required_members_are_what_the_protocols_declare() -> None:
    declared = set(vars(base.Game)) | set(base.Game.__annotations__)
    assert set(base.REQUIRED_GAME_MEMBERS) <= declared
    assert {name for name in declared if not name.startswith("_")} - set(
        base.REQUIRED_GAME_MEMBERS
    ) == {"heuristics"}
    state_declared = set(vars(base.State)) | set(base.State.__annotations__)
    assert {name for name in state_declared if not name.startswith("_")} == set(
        base.REQUIRED_STATE_MEMBERS
    )


def test_only_a_policy_that_keys_positions_values_them_for_the_review() -> None:
    pig = games.get_game("pig", goal=20)
    assert isinstance(pig, games.HasReferencePolicy)
    assert isinstance(pig.reference_policy(), games.ValuedReferencePolicy)
    nim = nim_game.Game()
    assert not isinstance(nim.reference_policy(), games.ValuedReferencePolicy)
