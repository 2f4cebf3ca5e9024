"""The explorer's widgets: the lesson or search settings row and the stepper row.

Each widget is registered in the scene's `ids` under the action its events stand for; the
scene's `handle` maps those actions to changes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from plyground.ai.file_heuristics import is_heuristic_file
from plyground.ai.search import ALGORITHM_TITLES
from plyground.ai.trace import ORDERINGS
from plyground.games import tree_examples
from plyground.gui import theme
from plyground.gui.drop_down import drop_down
from plyground.gui.explorer_panel import ORDERING_NAMES
from plyground.gui.explorer_practice import PRACTICE

if TYPE_CHECKING:
    from plyground.gui.scenes.explorer import ExplorerScene

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


class WidgetRow:
    """Widgets laid out left to right from `x` on the line `y`, each one registered in the
    scene's `ids` under its action."""

    def __init__(self, scene: ExplorerScene, x: int, y: int) -> None:
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
        """A button `width` pixels wide; the next widget goes after it and `gap`."""
        scene = self.scene
        rect = pygame.Rect(self.x, self.y, width, scene.app.metrics.button_h)
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

    def dropdown(
        self, options: list[str], current: str, action: str, at_least: float, up: bool = False
    ) -> Any:
        """A drop-down wide enough for its longest option (and `at_least` unscaled pixels)."""
        scene = self.scene
        m = scene.app.metrics
        longest = max(theme.font(m.widget_font).size(text)[0] for text in options)
        width = max(m.px(at_least), longest + m.px(44))
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


def lesson_row(row: WidgetRow) -> None:
    """Lessons: the lesson, its other version and the algorithm; practice: new tree, answer."""
    scene, m = row.scene, row.scene.app.metrics
    assert scene.lesson is not None
    names = [lesson.title for lesson in tree_examples.LESSONS] + ["4. Practice"]
    row.dropdown(names, names[scene.lesson], "lesson", 240)
    if scene.lesson >= PRACTICE:
        row.button(m.px(120), "New tree", "new_tree")
        label = "Show answer" if not scene.checked else "Hide answer"
        row.button(m.px(150), label, "check", selected=scene.checked)
        return
    lesson = tree_examples.LESSONS[scene.lesson]
    if lesson.other is not None:
        label = f"Show {lesson.other_label}" if not scene.variant else "Show the original"
        row.button(m.px(190), label, "variant", selected=scene.variant)
    if lesson.algorithm != "expectiminimax":
        options = [ALGORITHM_TITLES[a] for a in ("minimax", "alphabeta")]
        row.dropdown(options, ALGORITHM_TITLES[scene.algorithm], "algorithm", 120)


def search_row(row: WidgetRow) -> None:
    """A position: algorithm, depth, heuristic, move ordering and the table switch."""
    scene = row.scene
    options = [ALGORITHM_TITLES[a] for a in scene.algorithms()]
    row.dropdown(options, ALGORITHM_TITLES[scene.algorithm], "algorithm", 110)
    depths = [f"Depth {d}" for d in range(1, 9)]
    row.dropdown(depths, f"Depth {min(8, scene.depth)}", "depth", 90)
    heuristics = list(scene.state.game.heuristics)
    chosen = scene.heuristic or scene.state.game.default_heuristic
    if is_heuristic_file(chosen):  # a heuristic from a file: shown by its file's name
        vars(scene)["heuristic_files"] = {Path(chosen).name: chosen}
        chosen = Path(chosen).name
        heuristics.append(chosen)
    row.dropdown(heuristics, chosen, "heuristic", 100)
    orderings = [ORDERING_NAMES[o] for o in ORDERINGS]
    row.dropdown(orderings, ORDERING_NAMES[scene.ordering], "ordering", 100)
    text = "Table on" if scene.table else "Table off"
    row.button(scene.app.metrics.px(96), text, "table", selected=scene.table)


def stepper_row(row: WidgetRow, right: int) -> Any:
    """The stepper's buttons, the speed and the scrubber up to `right`; returns the scrubber
    (None when there is no trace yet or no room)."""
    scene, m = row.scene, row.scene.app.metrics
    small = max(m.px(44), m.button_h)
    for text, action, tip in STEPPER:
        if action == "play":
            text = "Pause" if scene.playing else "Play"
        width = m.px(74) if action == "play" else small
        row.button(width, text, action, tip=tip, gap=m.px(6))
    names = [name for name, _ in SPEEDS]
    current = next(name for name, s in SPEEDS if s == scene.speed)
    row.dropdown(names, current, "speed", 110, up=True)
    scrub_w = right - row.x
    if scene.trace is None or scrub_w <= m.px(80):
        return None
    last = max(1, len(scene.trace.events) - 1)
    scrubber = scene.add(
        pygame_gui.elements.UIHorizontalSlider(
            pygame.Rect(row.x, row.y, scrub_w, m.button_h), scene.step, (0, last), scene.manager
        )
    )
    scene.ids[scrubber] = "scrub"
    return scrubber
