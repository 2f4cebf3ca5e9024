"""`exercise --explore`: the explorer opened on the tree a student's search walked.

A thin entry point: the window opens the explorer scene on the failing case's position with
the student's recorded tree (`ai.exercise_trace`) in place of the scene's own recording;
changing any setting in the explorer records the reference search of the same position, so
the two trees can be compared step by step.
"""

from __future__ import annotations

from typing import Any

from plyground.ai.exercise_trace import student_trace
from plyground.gui import theme
from plyground.gui.app import App


def open_student_tree(app: Any, outcome: Any) -> Any:
    """Push the explorer showing the student's tree of `outcome`'s case; returns the scene."""
    case = outcome.case
    scene = app.switch("explorer", state=case.state(), algorithm=case.algorithm, depth=case.depth)
    # The scene has started recording the reference; the student's tree replaces it (the
    # scene adopts `_result` on its next update and drops the reference's when it arrives).
    scene._generation += 1
    scene._result = (student_trace(case, outcome.student_leaves), "")
    app.toast(
        f"Your {case.algorithm} on {case.title}: {outcome.line}. "
        "Change any setting to see the reference's tree.",
        theme.WARNING,
        seconds=12,
    )
    return scene


def explore(outcome: Any) -> int:
    """Open the window on the student's tree and run it until it is closed."""
    app = App()
    app.switch("menu")
    open_student_tree(app, outcome)
    return app.run()
