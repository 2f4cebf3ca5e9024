"""The explorer's widgets: the lesson or search settings row and the stepper row.

Each widget is registered in its host's `ids` under the action its events stand for; the
scene's `handle` maps those actions to changes.  The rows read the explorer's model.
"""

from __future__ import annotations

from typing import Any, Protocol

import pygame
import pygame_gui

from plyground.ai.engine.search import ALGORITHM_TITLES, MCTS
from plyground.ai.textbook.trace import ORDERINGS
from plyground.games.trees import examples as tree_examples
from plyground.gui import theme
from plyground.gui.explorer.mcts_steps import (
    EXPLORATION_CHOICES,
    ITERATION_CHOICES,
    SEED_CHOICES,
    exploration_label,
)
from plyground.gui.explorer.model import CHANCE_CHOICES, ExplorerModel
from plyground.gui.explorer.panel import ORDERING_NAMES
from plyground.gui.explorer.practice import EDITOR, PRACTICE
from plyground.gui.theme import Metrics
from plyground.gui.widgets.drop_down import drop_down

SPEEDS = (
    ("1 step/s", 1.0),
    ("3 steps/s", 3.0),
    ("10 steps/s", 10.0),
    ("30 steps/s", 30.0),
    ("100 steps/s", 100.0),
    ("1000 steps/s", 1000.0),
)
STEPPER = (
    ("|◀", "start", "Jump to the start (Home)"),
    ("◀", "back_step", "One step back (←)"),
    ("", "play", "Play or pause (Space)"),
    ("▶", "forward", "One step forward (→)"),
    ("▶|", "end", "Jump to the end (End)"),
)
"""The stepper's buttons: text (the play button's changes), action, tool tip."""
ITERATION_STEPPER = (
    ("◀◀", "prev_iteration", "MCTS: this or the previous iteration's start (Page Up)"),
    ("▶▶", "next_iteration", "MCTS: the next iteration's start (Page Down)"),
)
"""MCTS's stepper also jumps a whole iteration."""


class WidgetHost(Protocol):
    """What a row puts its widgets into (a scene): the app's sizes, the pygame_gui manager,
    `add` (the scene removes what it added) and `ids` (widget -> action)."""

    ids: dict[Any, str]

    @property
    def app(self) -> Any: ...

    @property
    def manager(self) -> Any: ...

    def add(self, element: Any) -> Any: ...


class WidgetRow:
    """Widgets laid out left to right from `x` on the line `y`, each one registered in the
    host's `ids` under its action."""

    def __init__(self, scene: WidgetHost, x: int, y: int) -> None:
        self.scene = scene
        self.x = x
        self.y = y
        self.gap = scene.app.metrics.gap

    def button(
        self,
        width: int,
        text: str,
        action: str,
        selected: bool = False,
        tip: str | None = None,
        gap: int | None = None,
    ) -> Any:
        """A button `width` pixels wide (wider if its caption needs it); the next widget goes
        after it and `gap`."""
        scene = self.scene
        m = scene.app.metrics
        width = self.button_width(width, text)
        rect = pygame.Rect(self.x, self.y, width, m.button_h)
        button = scene.add(
            pygame_gui.elements.UIButton(
                rect,
                text,
                scene.manager,
                object_id="#selected" if selected else None,
                tool_tip_text=tip,
            )
        )
        scene.ids[button] = action
        self.x += width + (self.gap if gap is None else gap)
        return button

    def button_width(self, width: int, text: str) -> int:
        """A button's width: `width` pixels, or more if its caption needs them."""
        m: Metrics = self.scene.app.metrics
        caption: int = theme.font(m.widget_font).size(text)[0]
        return max(width, caption + m.px(20))

    def dropdown_width(self, options: list[str], at_least: float) -> int:
        """A drop-down's width: its longest option's, at least `at_least` unscaled pixels."""
        m: Metrics = self.scene.app.metrics
        longest: int = max(theme.font(m.widget_font).size(text)[0] for text in options)
        return max(m.px(at_least), longest + m.px(44))

    def dropdown(
        self, options: list[str], current: str, action: str, at_least: float, up: bool = False
    ) -> Any:
        """A drop-down wide enough for its longest option (and `at_least` unscaled pixels)."""
        scene = self.scene
        m = scene.app.metrics
        width = self.dropdown_width(options, at_least)
        menu = scene.add(
            drop_down(
                list[str | tuple[str, str]](options),
                current,
                pygame.Rect(self.x, self.y, width, m.button_h),
                scene.manager,
                object_id="#dropup" if up else None,
            )
        )
        scene.ids[menu] = action
        self.x += width + self.gap
        return menu


def lesson_row(row: WidgetRow, model: ExplorerModel) -> None:
    """Lessons: the lesson, its other version and the algorithm; practice: new tree, answer;
    the editor: the algorithm."""
    m = row.scene.app.metrics
    assert model.lesson is not None
    names = [lesson.title for lesson in tree_examples.TRACE_LESSONS]
    names += [f"{PRACTICE + 1}. Practice", f"{EDITOR + 1}. Your own tree"]
    row.dropdown(names, names[model.lesson], "lesson", 240)
    if model.lesson == PRACTICE:
        row.button(m.px(120), "New tree", "new_tree")
        label = "Show answer" if not model.practice.checked else "Hide answer"
        row.button(m.px(150), label, "check", selected=model.practice.checked)
        return
    if model.lesson == EDITOR:
        options = [ALGORITHM_TITLES[a] for a in model.algorithms()]
        row.dropdown(options, ALGORITHM_TITLES[model.algorithm], "algorithm", 120)
        return
    lesson = tree_examples.TRACE_LESSONS[model.lesson]
    if lesson.other is not None:
        label = f"Show {lesson.other_label}" if not model.variant else f"Show {lesson.label}"
        label = label if len(label) < 24 else "Show the original"
        row.button(m.px(190), label, "variant", selected=model.variant)
    if lesson.algorithm != "expectiminimax":
        options = [ALGORITHM_TITLES[a] for a in ("minimax", "alphabeta", MCTS)]
        row.dropdown(options, ALGORITHM_TITLES[model.algorithm], "algorithm", 120)
    if model.is_mcts:
        mcts_settings(row, model)


def mcts_settings(row: WidgetRow, model: ExplorerModel) -> None:
    """MCTS: the iterations (in place of a depth), the seed (one seed, one tree) and UCB1's
    exploration constant c (how far it tries the children tried least)."""
    iterations = [f"{n} iterations" for n in ITERATION_CHOICES]
    if model.iterations not in ITERATION_CHOICES:
        iterations.append(f"{model.iterations} iterations")
    row.dropdown(iterations, f"{model.iterations} iterations", "iterations", 120)
    seeds = [f"Seed {n}" for n in SEED_CHOICES]
    if model.mcts_seed not in SEED_CHOICES:
        seeds.append(f"Seed {model.mcts_seed}")
    row.dropdown(seeds, f"Seed {model.mcts_seed}", "seed", 80)
    constants = [exploration_label(c) for c in EXPLORATION_CHOICES]
    if exploration_label(model.exploration) not in constants:
        constants.append(exploration_label(model.exploration))
    row.dropdown(constants, exploration_label(model.exploration), "exploration", 80)


def editor_row(row: WidgetRow, model: ExplorerModel, right: int) -> Any:
    """The tree editor: the text box (Enter searches), Run, and a random tree's branching,
    depth and chance nodes; returns the text box."""
    scene, m = row.scene, row.scene.app.metrics
    branchings = [f"{b} moves" for b in range(2, 5)]
    depths = [f"Depth {d}" for d in range(1, 5)]
    tail = row.button_width(m.px(90), "Run") + row.button_width(m.px(100), "Random")
    tail += row.dropdown_width(branchings, 100) + row.dropdown_width(depths, 100)
    tail += row.dropdown_width(list(CHANCE_CHOICES), 150) + 5 * row.gap
    width = max(m.px(120), right - row.x - tail)
    box = scene.add(
        pygame_gui.elements.UITextEntryLine(
            pygame.Rect(row.x, row.y, width, m.button_h), scene.manager
        )
    )
    box.set_text(model.editor_text)
    scene.ids[box] = "tree_text"
    row.x += width + row.gap
    row.button(m.px(90), "Run", "run_tree", tip="Search the tree typed (Enter)")
    row.dropdown(branchings, f"{model.branching} moves", "branching", 100)
    row.dropdown(depths, f"Depth {model.levels}", "levels", 100)
    row.dropdown(list(CHANCE_CHOICES), model.chance, "chance", 150)
    row.button(m.px(100), "Random", "random_tree", tip="A random tree of this shape")
    return box


def search_row(row: WidgetRow, model: ExplorerModel) -> None:
    """A position: algorithm, depth, heuristic, move ordering and the table switch."""
    options = [ALGORITHM_TITLES[a] for a in model.algorithms()]
    row.dropdown(options, ALGORITHM_TITLES[model.algorithm], "algorithm", 110)
    if model.is_mcts:
        mcts_settings(row, model)
        return
    depths = [f"Depth {d}" for d in range(1, 9)]
    row.dropdown(depths, f"Depth {min(8, model.depth)}", "depth", 90)
    heuristics, chosen = model.heuristic_choices()
    row.dropdown(heuristics, chosen, "heuristic", 100)
    orderings = [ORDERING_NAMES[o] for o in ORDERINGS]
    row.dropdown(orderings, ORDERING_NAMES[model.ordering], "ordering", 100)
    text = "Table on" if model.table else "Table off"
    row.button(row.scene.app.metrics.px(96), text, "table", selected=model.table)


def stepper_row(
    row: WidgetRow, model: ExplorerModel, playing: bool, speed: float, right: int
) -> Any:
    """The stepper's buttons, the speed and the scrubber up to `right`; returns the scrubber
    (None when there is no trace yet or no room)."""
    scene, m = row.scene, row.scene.app.metrics
    small = max(m.px(44), m.button_h)
    for text, action, tip in STEPPER:
        if action == "play":
            text = "Pause" if playing else "Play"
        width = m.px(74) if action == "play" else small
        row.button(width, text, action, tip=tip, gap=m.px(6))
    if model.is_mcts:
        for text, action, tip in ITERATION_STEPPER:
            row.button(small, text, action, tip=tip, gap=m.px(6))
    names = [name for name, _ in SPEEDS]
    current = next(name for name, s in SPEEDS if s == speed)
    row.dropdown(names, current, "speed", 110, up=True)
    scrub_w = right - row.x
    if not model.ready or scrub_w <= m.px(80):
        return None
    scrubber = scene.add(
        pygame_gui.elements.UIHorizontalSlider(
            pygame.Rect(row.x, row.y, scrub_w, m.button_h),
            model.step,
            (0, max(1, model.last_step)),
            scene.manager,
        )
    )
    scene.ids[scrubber] = "scrub"
    return scrubber
