"""The MCTS exercise: the right solution grows the reference's tree draw for draw; the typical
wrong ones fail at the first iteration where the counts part, or on the invariants; a hostile
file costs only its case."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from plyground.ai.student_code.grader import cases, grade, grade_one
from plyground.ai.student_code.templates import template
from plyground.ai.student_code.worker import Limits, StudentWorker
from tests.exercise_solutions import (
    DOUBLE_COUNT,
    LEAST_VISITED,
    MCTS,
    RANDOM_EXPANSION,
    ROOT_N_FORGOTTEN,
    SKIP_GRANDCHILDREN,
    UCB1_WITHOUT_LOG,
    WRONG_SIDE,
)

MAIN = str(Path(__file__).resolve().parents[1] / "main.py")


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "my_mcts.py"
    path.write_text(text, encoding="utf-8")
    return str(path)


def first_cases(path: str, count: int = 1, seconds: float = 10.0) -> list:
    """The first `count` cases graded as `grade` grades them: a fresh worker each."""
    from plyground.ai.student_code.exercise_game import function_of

    host = {"kind": "mcts_exercise", "path": path, "function": function_of("mcts")}
    outcomes = []
    for case in list(cases("mcts"))[:count]:
        worker = StudentWorker(path, host, Limits(seconds))
        try:
            outcomes.append(grade_one(worker, case))
        finally:
            worker.close()
    return outcomes


def test_the_right_solution_grows_the_references_tree(tmp_path: Path) -> None:
    textbook, twice = first_cases(write(tmp_path, MCTS), 2)
    assert textbook.passed and twice.passed, (textbook.line, twice.line)
    # AIMA fig. 5.2's shape: 13 nodes, all expanded in 30 iterations; MAX moving twice: 12
    assert textbook.line == "30 iterations, 13 nodes, N 30 at the root, move B: as the reference"
    assert twice.line == "20 iterations, 12 nodes, N 20 at the root, move b: as the reference"


@pytest.mark.slow
def test_the_right_solution_passes_every_case(tmp_path: Path) -> None:
    outcomes = grade("mcts", write(tmp_path, MCTS))
    assert len(outcomes) == len(list(cases("mcts"))) >= 8
    assert all(outcome.passed for outcome in outcomes), [o.line for o in outcomes if not o.passed]
    assert {outcome.case.game for outcome in outcomes if outcome.case.game} == {
        "tictactoe",
        "connect4",
    }


def test_ucb1_without_the_log_parts_at_the_first_selection_it_changes(tmp_path: Path) -> None:
    (first,) = first_cases(write(tmp_path, UCB1_WITHOUT_LOG))
    assert not first.passed
    # without the log the exploration term outgrows B's lead (a draw, 3.5 of 4) too soon
    assert first.line == (
        "iteration 9: the counts part: B has N 3, U 3; the reference's N 4, U 3.5"
    )
    assert first.details == (
        "your root's children (move N/U): B 3/3, C 3/2, D 3/2",
        "the reference's:                 B 4/3.5, C 2/1, D 3/2",
    )


def test_a_back_up_crediting_the_wrong_side_parts_at_iteration_1(tmp_path: Path) -> None:
    first, twice = first_cases(write(tmp_path, WRONG_SIDE), 2)
    # B's first playout ends in B1, a win for MAX, who moved into B: U 1, not 0; after a,
    # MAX moves again, and a's playout is a win for MAX too
    assert first.line == "iteration 1: the counts part: B has N 1, U 0; the reference's N 1, U 1"
    assert twice.line == "iteration 1: the counts part: a has N 1, U 0; the reference's N 1, U 1"


def test_a_random_expansion_is_named(tmp_path: Path) -> None:
    (first,) = first_cases(write(tmp_path, RANDOM_EXPANSION))
    assert first.line == (
        "iteration 1: your root's child 1 is C, the reference's B "
        "(EXPAND takes the first untried move)"
    )


def test_a_back_up_that_forgets_the_roots_n_breaks_the_invariants(tmp_path: Path) -> None:
    """The student's ucb1 then takes log(0) and raises: the broken counts are named first,
    the crash after them, with the student's own lines."""
    (first,) = first_cases(write(tmp_path, ROOT_N_FORGOTTEN))
    assert first.line == (
        "the counts break the invariants: after iteration 1 the root has N = 0 but its "
        "children's N add up to 1 (a parent's N is its children's plus its own expansions' "
        "playouts, none at the root); then it raised ValueError: math domain error"
    )
    assert first.details[-1].startswith("line ") and "math.log(parent_N)" in first.details[-1]
    assert "Traceback" not in first.line


def test_counts_that_break_the_invariants_are_told_so(tmp_path: Path) -> None:
    (double,) = first_cases(write(tmp_path, DOUBLE_COUNT))
    assert double.line.startswith(
        "the counts break the invariants: after iteration 1 the root has N = 1 but its "
        "children's N add up to 2"
    )
    (deep,) = first_cases(write(tmp_path, SKIP_GRANDCHILDREN))
    # the root's counts hold; below the root's children nothing is counted
    assert deep.line == (
        "the counts break the invariants: at the end node B has N = 13, its children's N add "
        "up to 0 (a node's N is its children's plus its own playout: 1)"
    )


def test_the_chosen_move_is_graded(tmp_path: Path) -> None:
    (first,) = first_cases(write(tmp_path, LEAST_VISITED))
    assert first.line == (
        "move: you chose D (N 7); the reference chooses B, the most visited (N 15; ties: the "
        "first expanded)"
    )


HOSTILE = (
    MCTS
    + """
import time

_searches = [0]


def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):
    _searches[0] += 1
    kind = KIND
    if kind == "sleep":
        time.sleep(60)
    if kind == "print":
        for _ in range(100_000):
            print("x" * 1000)
    if kind == "raise":
        raise RuntimeError("no")
    if kind == "cycle":
        tree = Node(state, untried=game.actions(state))
        tree.children = [tree]
        tree.N = 0
        return None, tree
    if kind == "huge":
        tree = Node(state)
        tree.children = [Node(state, tree, "B") for _ in range(10_000)]
        return "B", tree
    if kind == "garbage":
        return "B" * 100_000, Node(state)
    if kind == "overflow":
        tree = Node(state)
        tree.N = 10**400
        return None, tree
    return _right(game, state, iterations, rng, c)
"""
)


@pytest.mark.parametrize(
    ("kind", "line"),
    [
        ("sleep", "took longer than 2 s on this case (stopped)"),
        ("raise", "raised RuntimeError: no"),
        ("cycle", "your tree holds a node twice (a child that is also an ancestor?)"),
        ("huge", "its root has 65 children, more than its moves"),
        ("garbage", "it sent a move larger than any of this game's moves"),
        ("overflow", "a node's N is not a finite number"),
    ],
)
def test_a_hostile_file_costs_its_case_only(tmp_path: Path, kind: str, line: str) -> None:
    text = HOSTILE.replace("KIND", repr(kind)).replace(
        "def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):\n    tree",
        "def _right(game, state, iterations, rng, c=math.sqrt(2)):\n    tree",
        1,
    )
    (outcome,) = first_cases(write(tmp_path, text), seconds=2.0)
    assert not outcome.passed and outcome.line == line
    right = first_cases(write(tmp_path, MCTS))[0]
    assert right.passed  # the next case's worker is a fresh one


@pytest.mark.slow
def test_printing_without_end_costs_its_case_only(tmp_path: Path) -> None:
    text = HOSTILE.replace("KIND", "'print' if _searches[0] == 1 else 'right'").replace(
        "def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):\n    tree",
        "def _right(game, state, iterations, rng, c=math.sqrt(2)):\n    tree",
        1,
    )
    outcomes = first_cases(write(tmp_path, text), 2, seconds=5.0)
    # each case a fresh worker: _searches starts at 0 again, so both print; both pass (the
    # output is kept aside, the last 2,000 characters) or time out alone
    assert all(o.passed or "took longer" in o.line for o in outcomes), [o.line for o in outcomes]


@pytest.mark.slow
def test_the_cli_template_fails_then_the_solution_passes(tmp_path: Path) -> None:
    written = subprocess.run(
        [sys.executable, MAIN, "exercise", "--template", "mcts"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert written == template("mcts")
    assert "rng.choice(list(game.actions(s)))" in written  # the random-stream contract
    assert "python main.py exercise mcts my_mcts.py" in written
    path = write(tmp_path, written)
    run = subprocess.run(
        [sys.executable, MAIN, "exercise", "mcts", path, "--seed", "3"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1
    assert "raised NotImplementedError: write select" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr
    no_select = write(tmp_path, MCTS.replace("def select(", "def choose("))
    bad = subprocess.run(
        [sys.executable, MAIN, "exercise", "mcts", no_select], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "no function select()" in bad.stderr


def test_the_template_is_the_textbooks_form() -> None:
    import inspect

    from plyground.ai.textbook import mcts

    written = template("mcts")
    reference = inspect.signature(mcts.monte_carlo_tree_search).parameters
    assert list(reference)[:5] == ["game", "state", "iterations", "rng", "c"]
    assert "def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):" in written
    for phase in ("select", "expand", "simulate", "back_propagate", "ucb1"):
        assert f"def {phase}(" in written and f'raise NotImplementedError("write {phase}")' in (
            written
        )
    for method in ("to_move", "actions", "result", "is_terminal", "evaluate"):
        assert f"game.{method}(" in written


def test_a_loop_that_hides_the_iterations_is_told_to_keep_the_templates(tmp_path: Path) -> None:
    """The grader reads the counts where the loop calls select on the root: a loop that
    calls a select of its own is told so, not judged on counts it could not see."""
    text = MCTS.replace("leaf = select(game, tree, c)", "leaf = _select(game, tree, c)")
    text += "\n_select = select\n"
    (first,) = first_cases(write(tmp_path, text))
    assert first.line == (
        "the grader saw 1 of 30 iterations (one select(game, tree, c) on the root an "
        "iteration): keep the template's loop"
    )


def test_the_cases_of_a_named_game_are_distinct_positions_with_a_seed_each() -> None:
    drawn = [case for case in cases("mcts", 4, "tictactoe") if case.game]
    assert len(drawn) == 8
    assert len({case.moves for case in drawn}) == 8  # no position twice
    assert len({case.seed for case in drawn}) == 8
    assert all(case.iterations == 60 and not case.state().is_terminal() for case in drawn)
    trees = [case for case in cases("mcts", 4) if case.tree is not None]
    assert [case.title for case in trees] == [
        "textbook tree",
        "MAX moves twice",
        "random win/loss tree 4",
        "random win/loss tree 5",
    ]


BORROWS_THE_REFERENCE = """
import math

def select(game, node, c):
    return node

def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):
    from plyground.ai.textbook.mcts import monte_carlo_tree_search as theirs

    return theirs(game, state, iterations, rng, c)
"""


def test_the_reference_cannot_be_borrowed(tmp_path: Path) -> None:
    (first,) = first_cases(write(tmp_path, BORROWS_THE_REFERENCE))
    assert not first.passed
    assert "Plyground's reference search: write your own" in first.line
