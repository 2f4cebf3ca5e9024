"""The explorer's side panel: the lesson, the search, the root's moves, the step's counts, a
chance node's weighted sum and what happens now, one section after another.

The words come from `ai.trace_render`; nothing here changes the scene.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
from plyground.ai.evaluation_text import kind_text, source_text
from plyground.ai.search import ALGORITHM_TITLES
from plyground.ai.trace import SHAPES, Trace, TraceNode, trace
from plyground.ai.trace_render import explain, probability_text, sum_text, value_text, window_text
from plyground.games import tree_examples
from plyground.gui import drawing, theme
from plyground.gui.explorer_practice import PRACTICE
from plyground.gui.theme import Metrics

if TYPE_CHECKING:
    from plyground.gui.scenes.explorer import ExplorerScene

ORDERING_NAMES = {"game": "Game order", "reversed": "Reversed", "best": "Best first"}


@dataclass
class PanelWriter:
    """Writes the panel top to bottom: section titles, wrapped text and label/value rows."""

    surface: pygame.Surface
    panel: pygame.Rect
    m: Metrics

    @property
    def x(self) -> int:
        return self.panel.x + self.m.gap

    @property
    def right(self) -> int:
        return self.panel.right - self.m.gap

    @property
    def bottom(self) -> int:
        return self.panel.bottom - self.m.gap

    @property
    def size(self) -> int:
        return self.m.font_size(14)

    def section(self, title: str, y: int) -> int:
        """A small capitalised title; returns the y below it."""
        m = self.m
        drawing.draw_text(
            self.surface, title.upper(), (self.x, y), m.font_size(12), theme.TEXT_FAINT, "semibold"
        )
        return y + m.font_size(12) + m.px(8)

    def lines(
        self,
        text: str,
        y: int,
        colour: theme.Colour = theme.TEXT,
        weight: str = "regular",
        limit: int | None = None,
    ) -> int:
        """`text` wrapped to the panel's width (stopping above `limit`); returns the y below."""
        size = self.size
        for line in drawing.wrap(text, self.panel.width - 2 * self.m.gap, size, weight):
            if limit is not None and y + size > limit:
                break
            drawing.draw_text(self.surface, line, (self.x, y), size, colour, weight)
            y += round(size * 1.4)
        return y

    def row(
        self,
        label: str,
        value: str,
        y: int,
        colours: tuple[theme.Colour, theme.Colour] = (theme.TEXT_DIM, theme.TEXT),
        weight: str = "regular",
    ) -> None:
        """`label` on the left, `value` on the right."""
        drawing.draw_text(self.surface, label, (self.x, y), self.size, colours[0], weight)
        drawing.draw_text(
            self.surface, value, (self.right, y), self.size, colours[1], weight, anchor="topright"
        )


def draw_panel(surface: pygame.Surface, scene: ExplorerScene) -> None:
    """The whole panel as of the scene's step (in practice, nothing that gives the answer away)."""
    m = scene.app.metrics
    out = PanelWriter(surface, scene.panel, m)
    y = scene.panel.y + m.gap
    if scene.lesson is not None:
        y = _lesson_section(out, scene, y) + m.px(10)
    found = scene.trace
    if found is None or scene.guessing:
        return
    y = out.section("Search", y)
    summary = (
        f"{ALGORITHM_TITLES[found.algorithm]}, depth {found.depth}, "
        f"{found.heuristic if not found.raw_values else 'leaf values'}, "
        f"{ORDERING_NAMES[found.ordering].lower()}"
        f"{', table' if found.table else ''}"
    )
    y = out.lines(summary, y, theme.TEXT_DIM)
    if found.evaluation is not None:  # the root value's provenance (ai.evaluation_text)
        kind, source = kind_text(found.evaluation), source_text(found.evaluation)
        y = out.lines(f"Root value: {kind}, {source} · ≤ ≥ mark bounds", y, theme.TEXT_DIM)
    y = _root_moves(out, scene, found, y + m.px(8)) + m.px(8)
    y = _step_counts(out, scene, found, y)
    node = found.nodes[found.events[scene.step].node]
    chance = chance_to_explain(scene, node)
    if chance is not None:
        y = out.section(f"Chance node {chance.label}", y + m.px(8))
        y = out.lines(sum_text(found, chance), y)
    y = out.section("Now", y + m.px(8))
    out.lines(explain(found, scene.step), y, theme.TEXT, "semibold", limit=out.bottom)


def _lesson_section(out: PanelWriter, scene: ExplorerScene, y: int) -> int:
    """The lesson's text and both versions compared, or practice's prompt or verdict."""
    assert scene.lesson is not None
    y = out.section("Lesson" if scene.lesson < PRACTICE else "Practice", y)
    if scene.lesson < PRACTICE:
        y = out.lines(tree_examples.LESSONS[scene.lesson].text, y, theme.TEXT_DIM)
        for line in lesson_comparison(scene.lesson):
            y = out.lines(line, y + out.m.px(4), theme.TEXT, "semibold")
        return y
    if scene.checked:
        return out.lines(scene.practice_verdict, y)
    y = out.lines(
        "Predict: type the root's value, click the branches "
        "alpha-beta will skip, then Show answer.",
        y,
        theme.TEXT_DIM,
    )
    return out.lines(f"Your root value: {scene.practice_guess or '_'}", y, theme.TEXT, "semibold")


def _root_moves(out: PanelWriter, scene: ExplorerScene, found: Trace, y: int) -> int:
    """Each move at the drawn root with its value so far; the chosen one in green."""
    root = found.nodes[scene.root_id]
    y = out.section("Moves at the root" if scene.root_id == 0 else f"Moves at {root.label}", y)
    done = 0 <= root.finished <= scene.step
    chosen_child = found.principal_path(scene.root_id)[1:2] if done else []
    size = out.size
    for child_id in root.children:
        child = found.nodes[child_id]
        if y + size > out.bottom - out.m.px(150):
            drawing.draw_text(out.surface, "…", (out.x, y), size, theme.TEXT_DIM)
            return y + round(size * 1.4)
        value = child.value_at(scene.step) if child.entered <= scene.step else None
        label = child.label
        if child.probability is not None:
            label += f"  ({probability_text(child.probability)})"
        if value is None:
            shown = "—"
        elif child.finished <= scene.step:
            shown = value_text(found, child, value)
        else:
            shown = found.format_value(value)
        best = child_id in chosen_child
        colour = theme.SUCCESS if best else theme.TEXT
        weight = "semibold" if best else "regular"
        out.row(f"{SHAPES[child.kind]} {label}", shown, y, (colour, colour), weight)
        y += round(size * 1.45)
    return y


def _step_counts(out: PanelWriter, scene: ExplorerScene, found: Trace, y: int) -> int:
    """The counts so far and, for alpha-beta, the window at the current node."""
    visited, leaves, cutoffs, hits = found.totals(scene.step)
    y = out.section(f"Step {scene.step + 1} of {len(found.events)}", y)
    for name, count in (
        ("Nodes visited", visited),
        ("Leaves evaluated", leaves),
        ("Cut-offs", cutoffs),
        ("Table hits", hits),
    ):
        out.row(name, f"{count:,}", y)
        y += round(out.size * 1.4)
    event = found.events[scene.step]
    if found.algorithm == "alphabeta" and event.kind != "exit":
        alpha, beta = scene.window_at(found.nodes[event.node])
        out.row("α/β here", window_text(found, alpha, beta), y, (theme.TEXT_DIM, theme.ACCENT))
        y += round(out.size * 1.4)
    return y


def chance_to_explain(scene: ExplorerScene, current: TraceNode) -> TraceNode | None:
    """The chance node whose weighted sum the panel writes out: hovered, current, or on
    the chosen line."""
    assert scene.trace is not None
    nodes = scene.trace.nodes
    candidates = []
    if scene.hover is not None and not scene.hover.stub:
        candidates.append(nodes[scene.hover.node])
    candidates.append(current)
    if current.parent >= 0:
        candidates.append(nodes[current.parent])
    candidates += [nodes[n] for n in scene.trace.principal_path(scene.root_id)[:2]]
    candidates += [nodes[c] for c in nodes[scene.root_id].children]
    for node in candidates:
        if node.kind == "chance" and node.terms and 0 <= node.finished <= scene.step:
            return node
    return None


def lesson_comparison(index: int) -> tuple[str, ...]:
    """Both versions of a lesson side by side: leaves evaluated, or the root's move values."""
    lesson = tree_examples.LESSONS[index]
    if lesson.other is None:
        return ()
    lines = []
    for tree, name in ((lesson.tree, lesson.label), (lesson.other, lesson.other_label)):
        state = tree_examples.TreeGame(tree).initial_state()
        found = trace(state, lesson.algorithm, tree_examples.height(tree))
        if lesson.algorithm == "alphabeta":
            lines.append(f"{name[0].upper()}{name[1:]}: {found.totals()[1]} leaves evaluated")
        else:
            values = ", ".join(
                f"{found.nodes[c].label} = {found.format_value(found.nodes[c].value)}"
                for c in found.root.children
            )
            best = found.best_child
            lines.append(f"{name[0].upper()}{name[1:]}: {values} → {best.label if best else '?'}")
    return tuple(lines)
