"""Users' own code in the window: the explorer on a student's tree and on a file heuristic."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from driving import pump, wait_until

from plyground import games

NO_PRUNING = """
def alphabeta(game, s, depth, alpha, beta):
    if game.is_terminal(s):
        return game.utility(s)
    if depth == 0:
        return game.evaluate(s)
    values = [alphabeta(game, game.result(s, a), depth - 1, alpha, beta) for a in game.actions(s)]
    return max(values) if game.is_max(s) else min(values)
"""


@pytest.mark.slow
def test_explore_opens_the_students_tree_then_the_reference(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    from plyground.ai.exercise import grade
    from plyground.gui.exercise_view import open_student_tree

    path = tmp_path / "my_search.py"
    path.write_text(NO_PRUNING, encoding="utf-8")
    failed = next(o for o in grade("alphabeta", str(path)) if not o.passed)
    assert failed.case.title == "lesson 1"
    app = make_app()
    scene = open_student_tree(app, failed)
    assert wait_until(app, lambda: scene.trace is not None, 30)
    pump(app, 3)
    leaves = [n for n in scene.trace.nodes if n.kind == "leaf"]
    assert len(leaves) == 9 and scene.trace.value == 3  # no pruning: all nine leaves
    assert scene.trace.heuristic == "your search"
    scene.retrace()  # any change of setting: the reference's tree
    assert wait_until(app, lambda: scene.trace is not None, 30)
    assert len([n for n in scene.trace.nodes if n.kind == "leaf"]) == 7


@pytest.mark.slow
def test_the_explorer_traces_a_file_heuristic_in_a_worker(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    from plyground.gui.scenes.explorer import ExplorerScene

    path = tmp_path / "my_eval.py"
    path.write_text("def evaluate(state):\n    return 0.25 if state.ply % 2 else -0.25\n")
    game = games.get_game("connect4")
    state = game.replay(game.parse_moves("4444443333331"))
    app = make_app()
    scene = ExplorerScene(app, state, algorithm="alphabeta", depth=2, heuristic=str(path))
    app.push(scene)
    assert wait_until(app, lambda: scene.trace is not None or bool(scene.error), 30)
    assert not scene.error
    pump(app, 2)
    assert scene.trace.heuristic == str(path)
    estimates = {n.value for n in scene.trace.nodes if n.kind == "leaf" and n.source != "terminal"}
    assert estimates and estimates <= {0.25, -0.25}
