"""`exercise --explore`: the student's tree beside the reference, through the model (no
window, no pixels; the explore command).

Students' searches are stood in for by the leaves a wrong search evaluates (minimax's for an
alpha-beta that does not prune; a prefix for one that prunes too much), as the grader would
have recorded them; the grader's own comparison gives the message.
"""

from __future__ import annotations

from typing import Any

from plyground.ai.student_code.exercise_game import Case
from plyground.ai.student_code.exercise_trace import student_trace
from plyground.ai.student_code.grader import compare, reference, reference_leaves
from plyground.ai.textbook.trace import trace
from plyground.ai.textbook.trace_text import explain
from plyground.games.trees import examples as tree_examples
from plyground.gui.explorer.two_trees import (
    REFERENCE,
    YOURS,
    TwoTrees,
    first_difference,
    leaf_paths,
    leaf_steps,
)

LESSON_1 = Case("lesson 1", "alphabeta", 2, tree=tree_examples.LESSON_TREE)


def two_trees(case: Case, leaves: list[Any]) -> TwoTrees:
    """The explorer's pair for a student who evaluated `leaves` (value: minimax's)."""
    found = reference(case)
    mine = student_trace(case, tuple(leaves))
    _, line = compare(case, mine.value, leaves, found)
    return TwoTrees(case.state(), mine, found, line)


def no_pruning(case: Case) -> list[Any]:
    return reference_leaves(trace(case.state(), "minimax", case.depth, None, "game", False))


def test_both_traces_are_present_and_the_grader_names_the_difference() -> None:
    pair = two_trees(LESSON_1, no_pruning(LESSON_1))
    assert pair.yours.trace is not None and pair.reference.trace is not None
    assert pair.yours.trace.heuristic == "your search"
    assert len(leaf_steps(pair.yours.trace)) == 9  # no pruning: every leaf
    assert len(leaf_steps(pair.reference.trace)) == 7
    assert pair.message.startswith("leaf 5: you evaluated")
    assert pair.difference == 5
    assert pair.yours.step == 0 and pair.reference.step == 0  # both from the start


def test_side_by_side_shows_both_and_the_switch_changes_the_lead() -> None:
    pair = two_trees(LESSON_1, no_pruning(LESSON_1))
    assert pair.side_by_side and pair.shown == (YOURS, REFERENCE)
    pair.side_by_side = False  # a window too narrow for two trees
    assert pair.shown == (YOURS,)
    pair.go_to(leaf_steps(pair.yours.trace)[2])  # on the third leaf
    assert pair.switch() == REFERENCE and pair.shown == (REFERENCE,)
    assert pair.leading is pair.reference
    assert pair.leaves_done(REFERENCE) == 3  # the same leaf, in the other tree
    assert pair.reference.step == leaf_steps(pair.reference.trace)[2]
    assert pair.switch() == YOURS and pair.yours.step == leaf_steps(pair.yours.trace)[2]


def test_stepping_keeps_both_trees_on_the_same_leaf() -> None:
    pair = two_trees(LESSON_1, no_pruning(LESSON_1))
    reference_total = len(leaf_steps(pair.reference.trace))
    previous = 0
    for step in range(pair.yours.last_step + 1):
        pair.go_to(step)
        mine, theirs = pair.leaves_done(YOURS), pair.leaves_done(REFERENCE)
        assert theirs == min(mine, reference_total)
        assert pair.reference.step >= previous  # the reference never steps back
        previous = pair.reference.step
        if pair.yours.trace.events[step].kind == "leaf" and mine <= reference_total:
            assert pair.reference.trace.events[pair.reference.step].kind == "leaf"
    assert pair.reference.at_end


def test_going_to_the_first_difference_lands_where_the_leaves_part() -> None:
    pair = two_trees(LESSON_1, no_pruning(LESSON_1))
    pair.go_to(pair.yours.last_step)
    assert pair.go_to_difference()
    number = pair.difference
    assert number is not None
    for model in (pair.yours, pair.reference):
        assert model.trace is not None
        assert model.trace.events[model.step].kind == "leaf"
    assert pair.leaves_done(YOURS) == pair.leaves_done(REFERENCE) == number
    mine, theirs = leaf_paths(pair.yours.trace), leaf_paths(pair.reference.trace)
    assert mine[: number - 1] == theirs[: number - 1] and mine[number - 1] != theirs[number - 1]
    # the grader's message names the same leaf
    assert pair.message.startswith(f"leaf {number}:")
    # the narrated node is that leaf, in view in both trees
    for model in (pair.yours, pair.reference):
        layout = model.current_layout()
        assert layout is not None and any(i.node == model.narrated for i in layout.items)


def test_a_search_that_stops_early_parts_where_it_stops() -> None:
    too_few = reference_leaves(reference(LESSON_1))[:4]
    pair = two_trees(LESSON_1, too_few)
    assert pair.difference == 5 and pair.message.startswith("leaf 5: you stopped after 4")
    assert pair.go_to_difference()
    assert pair.yours.at_end  # your search has no fifth leaf
    assert pair.reference.step == leaf_steps(pair.reference.trace)[4]
    pair.go_to(pair.yours.last_step)  # past your last leaf: the reference waits before its 5th
    assert pair.leaves_done(REFERENCE) == 4


def test_the_same_leaves_differ_only_in_value() -> None:
    same = reference_leaves(reference(LESSON_1))
    found = reference(LESSON_1)
    assert first_difference(student_trace(LESSON_1, tuple(same)), found) is None
    pair = TwoTrees(LESSON_1.state(), student_trace(LESSON_1, tuple(same)), found, "value: …")
    assert not pair.go_to_difference()
    assert pair.yours.at_end and pair.reference.at_end
    assert "values differ" in pair.difference_text()


def test_a_game_position_pairs_too() -> None:
    case = Case("tic-tac-toe", "alphabeta", 2, "tictactoe", (), "15")
    pair = two_trees(case, no_pruning(case))
    assert pair.difference is not None
    assert pair.go_to_difference()
    assert pair.leaves_done(YOURS) == pair.leaves_done(REFERENCE) == pair.difference


def test_a_chance_tree_pairs_too() -> None:
    tree = tree_examples.DICE_SMALL
    case = Case("lesson 3", "expectiminimax", tree_examples.height(tree), tree=tree)
    backwards = list(reversed(reference_leaves(reference(case))))
    pair = two_trees(case, backwards)
    assert pair.difference == 1 and pair.message.startswith("leaf 1:")
    assert pair.go_to_difference()
    assert pair.leaves_done(YOURS) == pair.leaves_done(REFERENCE) == 1
    assert not pair.yours.window_shown and not pair.reference.window_shown


def test_your_tree_shows_no_window_the_reference_does() -> None:
    pair = two_trees(LESSON_1, no_pruning(LESSON_1))
    assert not pair.yours.window_shown and pair.reference.window_shown
    assert pair.yours.trace is not None and pair.reference.trace is not None
    assert "window" not in explain(pair.yours.trace, 0)
    assert "window" in explain(pair.reference.trace, 0)
