"""`exercise --explore`: the explorer on the student's tree beside the reference's.

The window opens the explorer on the first failing case with both trees (`ComparisonScene`,
an `ExplorerScene` whose model is the lead of a `gui.explorer.two_trees.TwoTrees`): the
student's recorded search (`ai.student_code.exercise_trace.student_trace`) and the grader's
reference
(`ai.student_code.grader.reference`, `ai.textbook.trace.trace` of the same position, algorithm and
depth).
Side by side when the tree area is wide enough for two trees (each titled "Your search" /
"Reference"), else one at a time with a switch (Tab).  Both step together, leaf by leaf; the
panel names the grader's first difference and "Go to the first difference" puts both trees
on it.  There are no search settings here: both trees are what the grader compared.
"""

from __future__ import annotations

from typing import Any

import pygame

from plyground.ai.engine.search import ALGORITHM_TITLES
from plyground.ai.student_code.exercise_trace import student_trace
from plyground.ai.student_code.grader import reference
from plyground.gui import theme, window_frame
from plyground.gui.app import App
from plyground.gui.explorer.controls import WidgetRow, stepper_row
from plyground.gui.explorer.hover_card import draw_hover
from plyground.gui.explorer.layout import Placed
from plyground.gui.explorer.panel import PanelWriter, draw_panel
from plyground.gui.explorer.scene import ExplorerScene
from plyground.gui.explorer.tree_view import TreeCanvas, draw_tree
from plyground.gui.explorer.two_trees import REFERENCE, TITLES, YOURS, TwoTrees
from plyground.gui.widgets import drawing

MIN_TREE_WIDTH = 380
"""The narrowest tree (unscaled pixels) worth drawing beside another; narrower: one at a
time, with the switch."""


class ComparisonScene(ExplorerScene):
    """The explorer with two trees of one position: the student's and the reference's."""

    def __init__(self, app: App, pair: TwoTrees, title: str, standalone: bool = False) -> None:
        self.pair = pair
        self.standalone = standalone
        """The window's only scene (`exercise --explore`): Back and Esc close the window."""
        self.case_title = title
        self.frames: dict[str, pygame.Rect] = {}
        model = pair.yours
        super().__init__(app, model.state, model.algorithm, model.depth)
        self.model = pair.leading

    def close_view(self) -> None:
        """Back (Esc): to the scene under it, or (the window's only scene) close the window."""
        if self.standalone:
            self.app.running = False
        else:
            self.app.pop()

    def retrace(self) -> None:
        """Nothing to record: both trees came from the grader."""
        self.playing = False

    # ------------------------------------------------------------------ widgets
    def build(self) -> None:
        """Back, the switch and "Go to the first difference"; the tree area (split in two
        when wide enough), the panel, the stepper."""
        m = self.app.metrics
        w, h = self.app.size
        self.ids = {}
        self.editor_box = None
        bh = m.button_h
        WidgetRow(self, m.pad, m.pad - m.px(4)).button(m.px(96), "Back", "back")
        row = WidgetRow(self, m.pad, m.pad + m.font_size(26) + m.px(14))
        tip = "Which tree the stepper and the panel follow (Tab)"
        for name in (YOURS, REFERENCE):
            selected = self.pair.lead == name
            row.button(m.px(150), TITLES[name], f"lead_{name}", selected, tip, gap=m.px(4))
        row.x += m.gap
        tip = "Both trees on the first leaf where your search and the reference part"
        row.button(m.px(250), "Go to the first difference", "difference", tip=tip)
        top = row.y + bh + m.gap
        bottom = h - m.pad - bh - m.gap
        self.panel = pygame.Rect(w - m.pad - m.panel_w, top, m.panel_w, h - m.pad - top)
        self.canvas = pygame.Rect(m.pad, top, self.panel.x - 2 * m.pad, bottom - top)
        self.pair.side_by_side = self.canvas.width >= 2 * m.px(MIN_TREE_WIDTH) + m.gap
        self.model = self.pair.leading
        self.frames = self._frames()
        self.scrubber = stepper_row(
            WidgetRow(self, m.pad, h - m.pad - bh),
            self.model,
            self.playing,
            self.speed,
            self.canvas.right,
        )
        self._sync_area()

    def _frames(self) -> dict[str, pygame.Rect]:
        """Each shown tree's box: the tree area whole, or its two halves."""
        shown = self.pair.shown
        gap = self.app.metrics.gap
        width = (self.canvas.width - gap * (len(shown) - 1)) // len(shown)
        return {
            name: pygame.Rect(
                self.canvas.x + i * (width + gap), self.canvas.y, width, self.canvas.height
            )
            for i, name in enumerate(shown)
        }

    def _tree_rect(self, name: str) -> pygame.Rect:
        """Where a tree is laid out: its box less the title strip."""
        m = self.app.metrics
        frame = self.frames[name]
        strip = m.font_size(15) + m.px(14)
        return pygame.Rect(frame.x, frame.y + strip, frame.width, frame.height - strip)

    def _sync_area(self) -> None:
        m = self.app.metrics
        for name in self.frames:
            rect = self._tree_rect(name)
            model = self.pair.models[name]
            model.area = (float(rect.width), float(rect.height - m.px(20)))
            model.spacing = (float(m.px(30)), float(m.px(160)), float(m.px(110)))

    def tree_canvas(self) -> TreeCanvas:
        """The lead tree's canvas."""
        return self.canvas_of(self.pair.lead)

    def canvas_of(self, name: str) -> TreeCanvas:
        """Where the tree `name` is drawn."""
        return TreeCanvas(self.app.metrics, self._tree_rect(name), self.app.size)

    # ------------------------------------------------------------------ stepping
    def go_to(self, step: int) -> None:
        """Both trees to the lead's event `step` (the same leaf in each)."""
        roots = [model.root_id for model in self.pair.models.values()]
        self.pair.go_to(step)
        if (
            self.scrubber is not None
            and round(self.scrubber.get_current_value()) != self.model.step
        ):
            self.scrubber.set_current_value(self.model.step)
        if [model.root_id for model in self.pair.models.values()] != roots:
            self.rebuild()

    def switch_lead(self) -> None:
        """The other tree leads (and is drawn, one at a time), on the same leaf."""
        self.pair.switch()
        self.playing = False
        self.rebuild()

    def go_to_difference(self) -> None:
        """Both trees on the first differing leaf."""
        self.playing = False
        self.pair.go_to_difference()
        self.rebuild()

    # ------------------------------------------------------------------ events
    def tree_at(self, pos: tuple[int, int]) -> str | None:
        """The tree under the pointer, if any."""
        return next((name for name, rect in self.frames.items() if rect.collidepoint(pos)), None)

    def item_in(self, name: str, pos: tuple[int, int]) -> Placed | None:
        """The node or stub of the tree `name` under the pointer."""
        model = self.pair.models[name]
        found = model.current_layout()
        if found is None or not self._tree_rect(name).collidepoint(pos):
            return None
        m = self.app.metrics
        radius = max(m.px(14), min(found.slot / 2, m.px(24)))
        return found.hit(self.canvas_of(name).local(pos), radius)

    def handle(self, event: pygame.event.Event) -> bool:
        """Clicks and hovering in either tree; Tab switches; the rest as in the explorer."""
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            self.switch_lead()
            return True
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            name = self.tree_at(event.pos)
            for other in self.pair.models.values():
                other.hover = None
            if name is None:
                return False
            model = self.pair.models[name]
            item = self.item_in(name, event.pos)
            if event.type == pygame.MOUSEMOTION:
                model.hover = item
                return False
            if event.button != 1:
                return False
            at = self.canvas_of(name).local(event.pos)
            if model.click(item, self.app.now, at) == "reroot":
                self.rebuild()
            return True
        return super().handle(event)

    def _press(self, action: str) -> None:
        if action == "difference":
            self.go_to_difference()
        elif action.startswith("lead_"):
            if action != f"lead_{self.pair.lead}":
                self.switch_lead()
        else:
            super()._press(action)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Title, each tree in its titled box, the comparison and the lead's panel."""
        m = self.app.metrics
        heading = f"Your search beside the reference: {self.case_title}"
        room = self.app.size[0] - m.pad - (m.pad + m.px(110))
        if theme.font(m.font_size(24), "bold").size(heading)[0] > room:
            heading = self.case_title  # a long case's title alone
        drawing.draw_text(
            surface,
            heading,
            (m.pad + m.px(110), m.pad + m.px(15)),
            m.font_size(24),
            theme.TEXT,
            "bold",
            anchor="midleft",
        )
        written: list[str] = []  # the values the trees wrote (the panel's key reads them)
        for name, frame in self.frames.items():
            lead = name == self.pair.lead and self.pair.side_by_side
            border = theme.ACCENT if lead else theme.PANEL_BORDER
            drawing.rounded_rect(surface, frame, theme.PANEL, m.radius, 2 if lead else 1, border)
            model = self.pair.models[name]
            done = self.pair.leaves_done(name)
            total = self.pair.leaf_total(name)
            title = f"{TITLES[name]} · leaf {done} of {total}"
            if not self.pair.side_by_side:
                title += "   (Tab: the other tree)"
            drawing.draw_text(
                surface,
                title,
                (frame.x + m.gap, frame.y + m.px(8)),
                m.font_size(15),
                theme.ACCENT if lead else theme.TEXT,
                "semibold",
            )
            written += draw_tree(surface, model, self.canvas_of(name))
        drawing.shadow(surface, self.panel, m.radius, spread=m.px(10))
        drawing.rounded_rect(surface, self.panel, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
        below = self._comparison_section(surface)
        rest = pygame.Rect(self.panel.x, below, self.panel.width, self.panel.bottom - below)
        draw_panel(surface, self.model, m, rest, written)

    def _comparison_section(self, surface: pygame.Surface) -> int:
        """The grader's line and where each tree stands; returns the y below it."""
        m = self.app.metrics
        out = PanelWriter(surface, self.panel, m)
        y = out.section("Compared with the reference", self.panel.y + m.gap)
        y = out.lines(self.pair.message, y, theme.WARNING, "semibold")
        if self.pair.difference is None:  # the message names a value, not a leaf
            y = out.lines(self.pair.difference_text(), y, theme.TEXT_DIM)
        other = REFERENCE if self.pair.lead == YOURS else YOURS
        below = f"Below: {TITLES[self.pair.lead].lower()} · Tab: {TITLES[other].lower()}"
        return out.lines(below, y, theme.TEXT_DIM)

    def draw_over_widgets(self, surface: pygame.Surface) -> None:
        """The hover card of whichever tree is hovered."""
        for name in self.frames:
            model = self.pair.models[name]
            if model.hover is not None and model.trace is not None:
                draw_hover(surface, model, self.canvas_of(name), model.hover)


def comparison(outcome: Any) -> TwoTrees:
    """The student's tree of `outcome`'s case and the reference's, as the grader compared."""
    case = outcome.case
    mine = student_trace(case, outcome.student_leaves)
    return TwoTrees(case.state(), mine, reference(case), outcome.line)


def open_student_tree(app: App, outcome: Any, standalone: bool = False) -> ComparisonScene:
    """Push the explorer showing the student's tree beside the reference's (`standalone`:
    the window's only scene, which Back and Esc close); returns it."""
    case = outcome.case
    title = f"{case.title}, {ALGORITHM_TITLES[case.algorithm].lower()}"
    scene = ComparisonScene(app, comparison(outcome), title, standalone)
    app.push(scene)
    scene.go_to_difference()  # where the grader says it goes wrong (Home: the start)
    app.toast(f"Your {case.algorithm} on {case.title}: {outcome.line}.", theme.WARNING, seconds=12)
    return scene


def explore(outcome: Any) -> int:
    """Open a window on the student's tree and the reference's, sized as the main window
    first opens (to fit the screen); run it until closed.  It is not the main app: it
    neither shows the menu nor touches the settings' window size or the autosaved game."""
    pygame.display.init()  # the screen's size is known only once the display is up
    app = App(window_frame.default_size(window_frame.desktop_size()))
    app.autosave_enabled = False
    app.saves_settings = False
    open_student_tree(app, outcome, standalone=True)
    return app.run()
