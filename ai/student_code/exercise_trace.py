"""A student's search as a `Trace`, so the explorer can draw the tree they searched.

The grader records which leaves the student's function evaluated, in order (`Outcome`);
`student_trace` turns that into the events a textbook trace would have: each node entered
on the way to a leaf, the leaf's value, and each node left (backing up the best value of
the children the student evaluated) when the next leaf lies elsewhere.  Cut-offs are not
recorded: what the student skipped shows as children that are simply not there.
"""

from __future__ import annotations

import math
from typing import Any

from plyground.ai.student_code.exercise_game import Case
from plyground.ai.textbook.trace import Trace, TraceEvent, leaf_values, recorded
from plyground.games.base import CHANCE, Move, State


def student_trace(case: Case, leaves: tuple[tuple[Move, ...], ...]) -> Trace:
    """The tree a student's search walked, for the explorer (values from MAX's side)."""
    root = case.state()
    value_of = leaf_values(root)
    builder = _Builder(root, value_of)
    for path in leaves:
        builder.reach(path)
    builder.close_down_to(())
    builder.leave(())
    found = recorded(root, case.algorithm, case.depth, "your search", builder.events)
    found.windowless = True  # the grader sees the student's leaves, not their α and β
    return found


class _Builder:
    def __init__(self, root: State[Any], value_of: Any) -> None:
        self.root = root
        self.value_of = value_of
        self.events: list[TraceEvent] = []
        self.ids: dict[tuple[Move, ...], int] = {}
        self.states: dict[tuple[Move, ...], Any] = {(): root}
        self.values: dict[tuple[Move, ...], list[tuple[Move, float, float | None]]] = {}
        self.open: list[tuple[Move, ...]] = []
        self.label = getattr(root.game, "format_move", str)
        self.enter((), "max" if root.to_move != CHANCE else "chance", None)

    def role(self, state: State[Any]) -> str:
        if state.to_move == CHANCE:
            return "chance"
        return "max" if state.player == self.root.player else "min"

    def enter(self, path: tuple[Move, ...], role: str, probability: float | None) -> None:
        node = len(self.ids)
        self.ids[path] = node
        parent = self.ids[path[:-1]] if path else -1
        self.events.append(
            TraceEvent(
                "enter",
                node,
                parent=parent,
                move=path[-1] if path else None,
                label=str(self.label(path[-1])) if path else "root",
                role=role,
                ply=len(path),
                probability=probability,
            )
        )
        self.values[path] = []
        self.open.append(path)

    def close_down_to(self, keep: tuple[Move, ...]) -> None:
        """Leave every open node that is not on the way to `keep`, deepest first."""
        while self.open and self.open[-1] != keep[: len(self.open[-1])] and self.open[-1]:
            self.leave(self.open.pop())

    def leave(self, path: tuple[Move, ...]) -> None:
        children = self.values[path]
        state = self.states[path]
        if not children:
            return
        if state.to_move == CHANCE:
            value = sum((p or 0.0) * v for _, v, p in children)
        elif self.role(state) == "max":
            value = max(v for _, v, _ in children)
        else:
            value = min(v for _, v, _ in children)
        node = self.ids[path]
        self.events.append(TraceEvent("exit", node, value=value))
        if path:
            self._back_up(path, value)

    def _back_up(self, path: tuple[Move, ...], value: float) -> None:
        parent = path[:-1]
        siblings = self.values[parent]
        probability = self._probability(parent, path[-1])
        siblings.append((path[-1], value, probability))
        state = self.states[parent]
        best: float
        if state.to_move == CHANCE:
            best = sum((p or 0.0) * v for _, v, p in siblings)
        elif self.role(state) == "max":
            best = max(v for _, v, _ in siblings)
        else:
            best = min(v for _, v, _ in siblings)
        self.events.append(
            TraceEvent(
                "backup",
                self.ids[parent],
                child=self.ids[path],
                move=path[-1],
                value=value,
                best=best,
                probability=probability,
            )
        )

    def _probability(self, parent: tuple[Move, ...], move: Move) -> float | None:
        state = self.states[parent]
        if state.to_move != CHANCE:
            return None
        return dict(state.chance_outcomes()).get(move)

    def reach(self, path: tuple[Move, ...]) -> None:
        """Enter the nodes on the way to the leaf `path`, then evaluate it."""
        self.close_down_to(path)
        if path in self.ids and path:
            return  # the same leaf twice: drawn once
        for depth in range(1, len(path) + 1):
            prefix = path[:depth]
            if prefix in self.ids:
                continue
            state = self.states[prefix[:-1]].play(prefix[-1])
            self.states[prefix] = state
            leaf = depth == len(path)
            role = "leaf" if leaf else self.role(state)
            self.enter(prefix, role, self._probability(prefix[:-1], prefix[-1]))
        state = self.states[path]
        value = self.value_of(state, len(path))
        node = self.ids[path]
        source = "terminal" if state.is_terminal() else "heuristic"
        self.events.append(TraceEvent("leaf", node, value=value, source=source))
        self.events.append(TraceEvent("exit", node, value=value))
        self.open.pop()
        if path:
            self._back_up(path, value)
        if math.isnan(value):
            raise ValueError("a leaf without a value")
