"""The exercise grader: right solutions pass, the typical wrong ones fail at the right step."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from plyground.ai.student_code.grader import cases, grade
from plyground.ai.student_code.templates import template
from tests.exercise_solutions import (
    ALPHABETA,
    CHANCE_USES_DEPTH,
    EXPECTIMINIMAX,
    MINIMAX,
    NEGAMAX_SLIP,
    NO_PRUNING,
    WRONG_BOUND,
    WRONG_MOVE,
)


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "my_search.py"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("algorithm", "text"),
    [("minimax", MINIMAX), ("alphabeta", ALPHABETA), ("expectiminimax", EXPECTIMINIMAX)],
)
def test_right_solutions_pass_every_case(algorithm: str, text: str, tmp_path: Path) -> None:
    outcomes = grade(algorithm, write(tmp_path, text))
    assert len(outcomes) == len(list(cases(algorithm))) >= 10
    assert all(outcome.passed for outcome in outcomes), [o.line for o in outcomes if not o.passed]
    titles = " ".join(outcome.case.title for outcome in outcomes)
    assert "lesson" in titles and "random" in titles
    games_seen = {outcome.case.game for outcome in outcomes if outcome.case.game}
    assert games_seen == ({"pig"} if algorithm == "expectiminimax" else {"tictactoe", "connect4"})


@pytest.mark.slow
def test_no_pruning_fails_at_the_first_leaf_it_should_have_skipped(tmp_path: Path) -> None:
    first = grade("alphabeta", write(tmp_path, NO_PRUNING))[0]
    assert first.case.title == "lesson 1" and not first.passed
    # B = 3; C1 = 1 <= alpha = 3, so C2 and C3 cannot matter: the 5th leaf is D1, not C2.
    assert first.line == "leaf 5: you evaluated C2, the reference evaluates D1"


@pytest.mark.slow
def test_a_wrong_bound_update_and_a_negamax_sign_slip_fail(tmp_path: Path) -> None:
    wrong = grade("alphabeta", write(tmp_path, WRONG_BOUND))
    assert not all(outcome.passed for outcome in wrong)
    failed = next(outcome for outcome in wrong if not outcome.passed)
    # MIN lowering alpha instead of beta passes the lessons but not random tree 0 (its root
    # is A, its moves B, C, ... as in the lessons).
    assert failed.case.title == "random tree 0"
    assert failed.line == "leaf 7: you evaluated B32, the reference evaluates C11"
    slip = grade("alphabeta", write(tmp_path, NEGAMAX_SLIP))
    first = next(outcome for outcome in slip if not outcome.passed)
    assert first.case.title == "lesson 1"
    # below the root the slipped signs swap the window: C's MIN node no longer cuts at C1
    assert first.line == "leaf 5: you evaluated C2, the reference evaluates D1"


@pytest.mark.slow
def test_a_chance_layer_that_uses_up_depth_fails_on_the_dice(tmp_path: Path) -> None:
    outcomes = grade("expectiminimax", write(tmp_path, CHANCE_USES_DEPTH))
    failed = {outcome.case.title: outcome for outcome in outcomes if not outcome.passed}
    first = failed["lesson 3, leaves 2 2 3 3 1 1 4 4"]
    # MAX -> chance -> MIN -> leaf: depth 2 must reach the leaves, not stop at the MIN nodes.
    assert first.line == "leaf 1: you evaluated a1.1, the reference evaluates a1.1.1"
    pig = failed["Pig start, depth 2"]
    assert pig.line == "leaf 1: you evaluated after r1, the reference evaluates after r1 r1"
    deep = failed["Pig r4r5, depth 2"]  # depth goes below 0 and never stops: the lines say so
    assert deep.line == "recursed too deeply (RecursionError)"
    assert len(deep.details) == 6 and deep.details[0].startswith("... ")


@pytest.mark.slow
def test_the_cli_template_fails_then_a_solution_passes(tmp_path: Path) -> None:
    main = str(Path(__file__).resolve().parents[1] / "main.py")
    written = subprocess.run(
        [sys.executable, main, "exercise", "--template", "alphabeta"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert written == template("alphabeta") and "game.chance_outcomes(s)" in written
    path = write(tmp_path, written)
    run = subprocess.run(
        [sys.executable, main, "exercise", "alphabeta", path], capture_output=True, text=True
    )
    assert run.returncode == 1
    assert "raised NotImplementedError: write alphabeta" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr
    path = write(tmp_path, ALPHABETA)
    run = subprocess.run(
        [sys.executable, main, "exercise", "alphabeta", path], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout
    bad = subprocess.run(
        [sys.executable, main, "exercise", "minimax", path], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "no function minimax_decision()" in bad.stderr


def test_the_same_file_gets_the_same_cases_every_run(tmp_path: Path) -> None:
    from plyground.ai.student_code.grader import file_seed

    main = str(Path(__file__).resolve().parents[1] / "main.py")
    half_right = MINIMAX.replace(  # right on some trees only
        "game.is_cutoff(s, depth)", "game.is_cutoff(s, depth) or depth <= 1"
    )
    path = write(tmp_path, half_right)
    runs = [
        subprocess.run(
            [sys.executable, main, "exercise", "minimax", path], capture_output=True, text=True
        )
        for _ in range(2)
    ]
    seed = file_seed(path)
    assert seed == file_seed(str(tmp_path / "elsewhere" / Path(path).name))  # by its name
    assert all(f"random trees from seed {seed}, this file's own" in run.stdout for run in runs)
    assert "--seed N draws other random trees" in runs[0].stdout
    assert runs[0].stdout == runs[1].stdout  # same cases, same lines, same score


@pytest.mark.slow
def test_the_move_is_graded_too(tmp_path: Path) -> None:
    """The root form returns the decision as well as the value (MINIMAX-DECISION): the
    right value with the worst move fails, naming the moves worth the value."""
    assert NO_PRUNING != ALPHABETA and WRONG_MOVE != MINIMAX
    outcomes = grade("minimax", write(tmp_path, WRONG_MOVE))
    first = outcomes[0]
    assert first.case.title == "lesson 1" and not first.passed
    assert first.line.startswith("move: you chose ") and "the best is worth 3 (B)" in first.line
    right = grade("minimax", write(tmp_path, MINIMAX))[0]
    assert right.passed and right.line.endswith("as the reference, and a best move")


def test_the_template_is_the_textbooks_root_form() -> None:
    """The function a student writes has the textbook's name and signature, against the
    textbook's game API."""
    import inspect

    from plyground.ai.textbook import alphabeta, expectiminimax, minimax

    for module, name in (
        (minimax, "minimax"),
        (alphabeta, "alphabeta"),
        (expectiminimax, "expectiminimax"),
    ):
        written = template(name)
        reference = getattr(module, f"{name}_decision")
        parameters = ", ".join(inspect.signature(reference).parameters)
        assert parameters == "game, state, depth"
        assert f"def {name}_decision({parameters}):" in written
        for method in ("to_move", "actions", "result", "chance_outcomes", "is_cutoff", "evaluate"):
            assert f"game.{method}(" in written
