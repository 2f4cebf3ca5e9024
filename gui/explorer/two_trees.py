"""Two recorded searches of one position, stepped together: a student's and the reference.

`exercise --explore` opens the explorer on a failing case with both trees (`TwoTrees`, no
pygame): the student's (`ai.student_code.exercise_trace.student_trace`) and the reference's
(`ai.student_code.grader.reference`, the grader's own).  One of them leads: the stepper, the keys
and
the panel follow it, and the other follows the lead leaf by leaf (`follow`): when the lead
has evaluated k leaves and stands s events past its k-th, the other stands the same s
events past its own k-th leaf (no further than the event before its next leaf).  So the two
trees show the same leaf number side by side, or one after the other when the window is too
narrow for two trees (`side_by_side` False: Tab switches which one is drawn).

`difference` is the first leaf number where the two sequences of leaves differ (the step the
grader names); `go_to_difference` puts both trees on it.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from plyground.ai.student_code.grader import reference_leaves
from plyground.ai.textbook.trace import Trace
from plyground.games.base import State
from plyground.gui.explorer.model import ExplorerModel

YOURS = "yours"
REFERENCE = "reference"
TITLES = {YOURS: "Your search", REFERENCE: "Reference"}
"""Each tree's title, over its canvas and on the switch."""


def leaf_steps(found: Trace) -> list[int]:
    """The index of each leaf event of a trace, in order."""
    return [index for index, event in enumerate(found.events) if event.kind == "leaf"]


def leaf_paths(found: Trace) -> list[tuple[object, ...]]:
    """The leaves a trace evaluates, in order, each as the moves from the root to it (the
    grader's own reading of a trace: `ai.student_code.grader.reference_leaves`)."""
    return list(reference_leaves(found))


def first_difference(yours: Trace, reference: Trace) -> int | None:
    """The first leaf number (from 1) where the two searches evaluate different leaves, or
    where one stops and the other goes on; None when both evaluate the same leaves."""
    mine, theirs = leaf_paths(yours), leaf_paths(reference)
    for number, (a, b) in enumerate(zip(mine, theirs, strict=False), start=1):
        if a != b:
            return number
    if len(mine) != len(theirs):
        return min(len(mine), len(theirs)) + 1
    return None


class TwoTrees:
    """The student's and the reference's explorer models, one leading, stepped together."""

    def __init__(self, state: State[Any], yours: Trace, reference: Trace, message: str) -> None:
        self.models = {
            YOURS: ExplorerModel(state, yours.algorithm, yours.depth),
            REFERENCE: ExplorerModel(state, reference.algorithm, reference.depth),
        }
        for model, found in ((self.yours, yours), (self.reference, reference)):
            model.adopt(found)
        self.message = message
        """The grader's line for this case ("leaf 5: you evaluated C2, the reference …")."""
        self.lead = YOURS
        """Which tree the stepper, the keys and the panel follow (Tab switches)."""
        self.side_by_side = True
        """Both trees drawn at once; False when the window is too narrow (one at a time)."""
        self.difference = first_difference(yours, reference)
        self._leaves = {YOURS: leaf_steps(yours), REFERENCE: leaf_steps(reference)}
        self.go_to(0)

    @property
    def yours(self) -> ExplorerModel:
        """The student's tree."""
        return self.models[YOURS]

    @property
    def reference(self) -> ExplorerModel:
        """The reference's tree."""
        return self.models[REFERENCE]

    @property
    def leading(self) -> ExplorerModel:
        """The model the stepper drives."""
        return self.models[self.lead]

    @property
    def following(self) -> ExplorerModel:
        """The model that follows the lead."""
        return self.models[REFERENCE if self.lead == YOURS else YOURS]

    @property
    def shown(self) -> tuple[str, ...]:
        """The trees drawn, left to right: both, or the lead alone."""
        return (YOURS, REFERENCE) if self.side_by_side else (self.lead,)

    def switch(self) -> str:
        """Lead with the other tree (it stands on the same leaf already); returns its name."""
        self.lead = REFERENCE if self.lead == YOURS else YOURS
        self.follow()
        return self.lead

    def leaves_done(self, name: str) -> int:
        """How many leaves the tree `name` has evaluated as of its step."""
        return bisect_right(self._leaves[name], self.models[name].step)

    def leaf_total(self, name: str) -> int:
        """How many leaves the tree `name` evaluates in all."""
        return len(self._leaves[name])

    def go_to(self, step: int) -> None:
        """The lead to event `step`, the other tree to the same leaf."""
        self.leading.go_to(step)
        self.follow()

    def follow(self) -> None:
        """Put the other tree on the lead's leaf number, as many events past it."""
        lead_name = self.lead
        other_name = REFERENCE if lead_name == YOURS else YOURS
        lead, other = self.models[lead_name], self.models[other_name]
        done = self.leaves_done(lead_name)
        lead_leaves, other_leaves = self._leaves[lead_name], self._leaves[other_name]
        start = lead_leaves[done - 1] if done else 0
        offset = lead.step - start
        if done > len(other_leaves):  # the other stopped earlier: it stands at its end
            other.go_to(other.last_step)
            return
        base = other_leaves[done - 1] if done else 0
        limit = other_leaves[done] - 1 if done < len(other_leaves) else other.last_step
        other.go_to(max(base, min(base + offset, limit)))

    def go_to_difference(self) -> bool:
        """Both trees on the first differing leaf (a tree that stopped before it: at its
        end); False when the leaves are the same (then the values differ: both at the end)."""
        if self.difference is None:
            self.go_to(1 << 30)
            self.following.go_to(1 << 30)
            return False
        number = self.difference
        for name, model in self.models.items():
            steps = self._leaves[name]
            model.go_to(steps[number - 1] if number <= len(steps) else model.last_step)
        return True

    def difference_text(self) -> str:
        """Where the two searches part, for the panel."""
        if self.difference is None:
            return "Both evaluate the same leaves: the values differ (check how they back up)."
        return f"The searches part at leaf {self.difference}."
