"""The search-tree explorer: a recorded search drawn as a tree you can open, re-root and step.

Opened for a position (`ExplorerScene(app, state)`, from the play scene) or for the
textbook lessons (`ExplorerScene.lessons(app)`, from the menu).  The trace runs in a
thread so the window keeps drawing.  The scene keeps the state and maps events; the
widgets are `gui.explorer_controls`', the tree `gui.explorer_layout` and
`gui.explorer_tree_view`, the side panel `gui.explorer_panel`.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

import pygame
import pygame_gui
from plyground.ai.isolated_runs import Trace, TraceNode, record_trace
from plyground.ai.search import ALGORITHM_TITLES, algorithms_for
from plyground.games import tree_examples
from plyground.gui import drawing, explorer_practice, theme
from plyground.gui.explorer_controls import SPEEDS, WidgetRow, lesson_row, search_row, stepper_row
from plyground.gui.explorer_layout import CUT, Layout, Placed, layout
from plyground.gui.explorer_panel import ORDERING_NAMES, draw_panel
from plyground.gui.explorer_practice import PRACTICE
from plyground.gui.explorer_tree_view import draw_hover, draw_tree, draw_waiting
from plyground.gui.scenes.base import Scene

from plyground import ai

DOUBLE_CLICK = 0.4
"""Seconds between two clicks on one node that make a double-click."""
SMALL_TREE = 80
"""Traces up to this many nodes open fully at first; bigger ones show the chosen line."""


class ExplorerScene(Scene):
    """A recorded search of one position, drawn as a tree with a stepper."""

    title = "explorer"

    def __init__(
        self,
        app: Any,
        state: Any,
        algorithm: str | None = None,
        depth: int | None = None,
        heuristic: str | None = None,
        ordering: str = "game",
        table: bool = False,
        lesson: int | None = None,
        seed: int = 1,
    ) -> None:
        super().__init__(app)
        self.state = state
        self.lesson = lesson
        self.variant = False
        self.seed = seed
        allowed = self.algorithms()
        default = "alphabeta" if "alphabeta" in allowed else allowed[0]
        self.algorithm = algorithm if algorithm in allowed else default
        self.depth = depth if depth is not None else 3
        self.heuristic = heuristic
        self.ordering = ordering
        self.table = table
        self.trace: Trace | None = None
        self.error = ""
        self.step = 0
        self.playing = False
        self.speed = 10.0
        self._carry = 0.0
        self.roots: list[int] = [0]
        self.expanded: set[int] = set()
        self.layout: Layout | None = None
        self._layout_key: Any = None
        self.canvas = pygame.Rect(0, 0, 1, 1)
        self.panel = pygame.Rect(0, 0, 1, 1)
        self.ids: dict[Any, str] = {}
        self.scrubber: Any = None
        self._last_click: tuple[int, float] | None = None
        self.hover: Placed | None = None
        self.cut_steps: dict[int, int] = {}
        self._bounds: dict[int, list[tuple[int, str, float | None]]] = {}
        self._job: threading.Thread | None = None
        self._result: tuple[Trace | None, str] | None = None
        self._generation = 0
        self.practice_marks: set[int] = set()
        self.practice_guess = ""
        self.practice_verdict = ""
        self.checked = False
        if lesson is not None:
            self._load_lesson(lesson)
        self.retrace()

    # ------------------------------------------------------------------ building
    @classmethod
    def lessons(cls, app: Any, index: int = 0) -> ExplorerScene:
        """The textbook lessons (the menu's "Lessons" entry); index PRACTICE for practice."""
        lesson = tree_examples.LESSONS[0]
        state = tree_examples.TreeGame(lesson.tree, lesson.title).initial_state()
        return cls(app, state, lesson=index)

    def algorithms(self) -> tuple[str, ...]:
        """The algorithms that can search this position's game."""
        if getattr(self.state.game, "stochastic", False):
            return ("expectiminimax",)
        return algorithms_for(self.state.game)

    def _load_lesson(self, index: int) -> None:
        """Put a lesson's tree (or a fresh practice tree) in place."""
        self.lesson = index
        self.practice_marks.clear()
        self.practice_guess = ""
        self.practice_verdict = ""
        self.checked = False
        if index >= PRACTICE:
            tree = tree_examples.random_tree(self.seed)
            self.state = tree_examples.TreeGame(tree, "Practice").initial_state()
            self.algorithm = "minimax"
        else:
            lesson = tree_examples.LESSONS[index]
            tree = lesson.other if self.variant and lesson.other is not None else lesson.tree
            self.state = tree_examples.TreeGame(tree, lesson.title).initial_state()
            self.algorithm = lesson.algorithm
        self.depth = tree_examples.height(self.state.game.tree)
        self.ordering = "game"

    def retrace(self) -> None:
        """Start recording the search with the current settings (in a thread)."""
        self.trace = None
        self.error = ""
        self.playing = False
        self._result = None
        self._generation += 1
        generation = self._generation
        settings = (
            self.state,
            self.algorithm,
            self.depth,
            self.heuristic,
            self.ordering,
            self.table,
        )

        def run() -> None:
            try:
                state, algorithm, depth, heuristic, ordering, table = settings
                found = record_trace(state, algorithm, depth, heuristic, ordering, table)
                outcome: tuple[Trace | None, str] = (found, "")
            except ai.SearchError as error:
                outcome = (None, str(error))
            if generation == self._generation:  # settings changed meanwhile: drop it
                self._result = outcome

        self._job = threading.Thread(target=run, daemon=True)
        self._job.start()

    def _adopt(self, found: Trace) -> None:
        """A finished trace: show it whole, the chosen line open."""
        self.trace = found
        self.step = len(found.events) - 1
        self.roots = [0]
        self.cut_steps = {e.node: i for i, e in enumerate(found.events) if e.kind == "cutoff"}
        self._bounds = {}
        for index, event in enumerate(found.events):
            if event.kind in ("alpha", "beta"):
                self._bounds.setdefault(event.node, []).append((index, event.kind, event.value))
        if len(found.nodes) <= SMALL_TREE:
            self.expanded = {n.id for n in found.nodes if n.children}
        else:
            self.expanded = set(found.principal_path())
            self.expanded.update(found.root.children)
        self._layout_key = None
        self.rebuild()

    @property
    def guessing(self) -> bool:
        """Practice before the answer is shown: the tree hides its values."""
        return self.lesson == PRACTICE and not self.checked

    @property
    def ready(self) -> bool:
        """Whether a trace is shown (not still recording)."""
        return self.trace is not None

    def close(self) -> None:
        """Nothing to stop: the recording thread ends by itself (and is a daemon)."""

    # ------------------------------------------------------------------ widgets
    def rebuild(self) -> None:
        """Remove and re-create the widgets (after a change of settings or size)."""
        self.clear()
        self.build()

    def build(self) -> None:
        """The settings row, the stepper row and the areas of the tree and the side panel."""
        m = self.app.metrics
        w, h = self.app.size
        self.ids = {}
        row_y = m.pad + m.font_size(26) + m.px(14)
        bh = m.button_h
        WidgetRow(self, m.pad, m.pad - m.px(4)).button(m.px(96), "Back", "back")
        row = WidgetRow(self, m.pad, row_y)
        if self.lesson is not None:
            lesson_row(row)
        else:
            search_row(row)
        # The panel on the right, the tree on the left, the stepper at the bottom.
        top = row_y + bh + m.gap
        bottom = h - m.pad - bh - m.gap
        self.panel = pygame.Rect(w - m.pad - m.panel_w, top, m.panel_w, h - m.pad - top)
        self.canvas = pygame.Rect(m.pad, top, self.panel.x - 2 * m.pad, bottom - top)
        if self.roots[-1] != 0 and row.x + m.px(120) <= self.panel.x:
            row.button(m.px(120), "Up to root", "unroot")
        self.scrubber = stepper_row(WidgetRow(self, m.pad, h - m.pad - bh), self.canvas.right)
        self._layout_key = None

    # ------------------------------------------------------------------ stepping
    def go_to(self, step: int) -> None:
        """Show the search as it was after event `step`."""
        if self.trace is None:
            return
        self.step = max(0, min(step, len(self.trace.events) - 1))
        if self.scrubber is not None and round(self.scrubber.get_current_value()) != self.step:
            self.scrubber.set_current_value(self.step)

    def toggle_play(self) -> None:
        """Play or pause the stepper (from the start if at the end)."""
        if self.trace is None:
            return
        if not self.playing and self.step >= len(self.trace.events) - 1:
            self.go_to(0)
        self.playing = not self.playing
        self._carry = 0.0
        self.rebuild()

    def animating(self) -> bool:
        """A trace is being worked out or arrives, or the stepper plays."""
        job = self._job
        return self.playing or self._result is not None or (job is not None and job.is_alive())

    def update(self, dt: float) -> None:
        """Adopt a finished trace; advance the stepper while playing."""
        if self._result is not None:
            found, error = self._result
            self._result = None
            if found is not None:
                self._adopt(found)
            else:
                self.error = error
                self.rebuild()
        if self.playing and self.trace is not None:
            self._carry += dt * self.speed
            steps = int(self._carry)
            if steps:
                self._carry -= steps
                self.go_to(self.step + steps)
                if self.step >= len(self.trace.events) - 1:
                    self.playing = False
                    self.rebuild()

    # ------------------------------------------------------------------ tree interaction
    @property
    def root_id(self) -> int:
        """The node drawn as the root (after re-rooting)."""
        return self.roots[-1]

    def current_layout(self) -> Layout | None:
        """The layout for the current tree, roots, open nodes and canvas (cached)."""
        if self.trace is None:
            return None
        key = (id(self.trace), self.root_id, frozenset(self.expanded), self.canvas.size)
        if key != self._layout_key:
            m = self.app.metrics
            self.layout = layout(
                self.trace.nodes,
                self.root_id,
                self.expanded,
                (self.canvas.width, self.canvas.height - m.px(20)),
                min_slot=m.px(30),
                max_slot=m.px(160),
                max_level_height=m.px(110),
            )
            self._layout_key = key
        return self.layout

    def node_pos(self, item: Placed) -> tuple[int, int]:
        """An item's centre on the screen."""
        return (
            round(self.canvas.x + item.x),
            round(self.canvas.y + self.app.metrics.px(10) + item.y),
        )

    def item_at(self, pos: tuple[int, int]) -> Placed | None:
        """The node or stub under the pointer."""
        found = self.current_layout()
        if found is None or not self.canvas.collidepoint(pos):
            return None
        local = (pos[0] - self.canvas.x, pos[1] - self.canvas.y - self.app.metrics.px(10))
        radius = max(self.app.metrics.px(14), min(found.slot / 2, self.app.metrics.px(24)))
        return found.hit(local, radius)

    def toggle(self, node_id: int) -> None:
        """Open or close a node."""
        if node_id in self.expanded:
            self.expanded.discard(node_id)
        else:
            self.expanded.add(node_id)

    def reroot(self, node_id: int) -> None:
        """Draw the tree from `node_id` down (Backspace or "Up to root" goes back)."""
        if self.trace is None or not self.trace.nodes[node_id].children:
            return
        if node_id != self.root_id:
            self.roots.append(node_id)
            self.expanded.add(node_id)
            self.rebuild()

    def unroot(self) -> None:
        """Back to the previous root."""
        if len(self.roots) > 1:
            self.roots.pop()
            self.rebuild()

    def click(self, pos: tuple[int, int]) -> None:
        """A click on the tree: open/close a node; twice quickly: make it the root."""
        item = self.item_at(pos)
        if item is None or self.trace is None:
            return
        if self.guessing:
            if item.node != self.root_id and not item.stub:
                self.practice_marks ^= {item.node}
            return
        if item.stub == CUT:
            return
        now = self.app.now
        if (
            self._last_click is not None
            and self._last_click[0] == item.node
            and (now - self._last_click[1] <= DOUBLE_CLICK)
        ):
            self._last_click = None
            self.toggle(item.node)  # undo the first click's toggle
            self.reroot(item.node)
            return
        self._last_click = (item.node, now)
        if item.node != self.root_id:
            self.toggle(item.node)

    # ------------------------------------------------------------------ practice
    def practice_answer(self) -> tuple[set[str], float]:
        """The branches alpha-beta cuts (by name) and the root value."""
        return explorer_practice.answer(self.state, self.depth)

    def check_practice(self) -> str:
        """Compare the learner's marks and guess with alpha-beta; show its search."""
        assert self.trace is not None
        skipped, value = self.practice_answer()
        self.practice_verdict = explorer_practice.verdict(
            self.trace, self.practice_marks, self.practice_guess, skipped, value
        )
        self.checked = True
        self.algorithm = "alphabeta"
        self.retrace()
        self.rebuild()
        return self.practice_verdict

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event) -> bool:
        """Widgets, clicks on the tree and the stepper keys."""
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.hover = self.item_at(event.pos)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.canvas.collidepoint(event.pos):
                self.click(event.pos)
                return True
            return False
        element = getattr(event, "ui_element", None)
        action = self.ids.get(element)
        if action is None:
            return False
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._press(action)
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self._choose(action, event.text)
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action == "scrub":
            self.step = max(
                0, min(round(event.value), len(self.trace.events) - 1 if self.trace else 0)
            )
            return True
        return False

    def _key(self, event: pygame.event.Event) -> bool:
        if (
            self.lesson == PRACTICE
            and not self.checked
            and event.unicode
            and (event.unicode.isdigit() or event.unicode in "-.")
        ):
            self.practice_guess = (self.practice_guess + event.unicode)[-6:]
            return True
        keys = {
            pygame.K_ESCAPE: self.app.pop,
            pygame.K_RIGHT: lambda: self.go_to(self.step + 1),
            pygame.K_LEFT: lambda: self.go_to(self.step - 1),
            pygame.K_HOME: lambda: self.go_to(0),
            pygame.K_END: lambda: self.go_to(1 << 30),
            pygame.K_SPACE: self.toggle_play,
            pygame.K_BACKSPACE: self._backspace,
        }
        action = keys.get(event.key)
        if action is None:
            return False
        action()
        return True

    def _backspace(self) -> None:
        if self.guessing and self.practice_guess:
            self.practice_guess = self.practice_guess[:-1]
        else:
            self.unroot()

    def _press(self, action: str) -> None:
        moves = {
            "back": self.app.pop,
            "start": lambda: self.go_to(0),
            "back_step": lambda: self.go_to(self.step - 1),
            "forward": lambda: self.go_to(self.step + 1),
            "end": lambda: self.go_to(1 << 30),
            "play": self.toggle_play,
            "unroot": self.unroot,
        }
        if action in moves:
            moves[action]()
        elif action == "check" and not self.checked:
            self.check_practice()
        elif action in ("table", "variant", "new_tree", "check"):  # record the search again
            if action == "table":
                self.table = not self.table
            elif action == "variant":
                self.variant = not self.variant
                self._load_lesson(self.lesson or 0)
            else:  # a new practice tree, or the same one again after its answer
                if action == "new_tree":
                    self.seed += 1
                self._load_lesson(PRACTICE)
            self.retrace()
            self.rebuild()

    def _choose(self, action: str, text: str) -> None:
        if action == "algorithm":
            self.algorithm = next(a for a, t in ALGORITHM_TITLES.items() if t == text)
        elif action == "depth":
            self.depth = int(text.split()[-1])
        elif action == "heuristic":
            self.heuristic = getattr(self, "heuristic_files", {}).get(text, text)
        elif action == "ordering":
            self.ordering = next(o for o, t in ORDERING_NAMES.items() if t == text)
        elif action == "speed":
            self.speed = dict(SPEEDS)[text]
            return
        elif action == "lesson":
            names = [lesson.title for lesson in tree_examples.LESSONS]
            self.variant = False
            self._load_lesson(names.index(text) if text in names else PRACTICE)
        self.retrace()
        self.rebuild()

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Title, the tree and the side panel (the hover card goes over the widgets)."""
        m = self.app.metrics
        heading = f"Search tree — {getattr(self.state.game, 'title', 'game')}"
        if self.lesson is not None:
            heading = "Lessons: search trees from the textbook"
        drawing.draw_text(
            surface,
            heading,
            (m.pad + m.px(110), m.pad + m.px(15)),
            m.font_size(24),
            theme.TEXT,
            "bold",
            anchor="midleft",
        )
        drawing.rounded_rect(surface, self.canvas, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
        drawing.shadow(surface, self.panel, m.radius, spread=m.px(10))
        drawing.rounded_rect(surface, self.panel, theme.PANEL, m.radius, 1, theme.PANEL_BORDER)
        if self.trace is None:
            draw_waiting(surface, self)
        else:
            draw_tree(surface, self)
        draw_panel(surface, self)

    def draw_over_widgets(self, surface: pygame.Surface) -> None:
        """The hover card goes over everything."""
        if self.hover is not None and self.trace is not None:
            draw_hover(surface, self, self.hover)

    def window_at(self, node: TraceNode) -> tuple[float | None, float | None]:
        """α and β at `node` as of the current step (raised/lowered since it was entered)."""
        alpha, beta = node.alpha, node.beta
        for index, kind, value in self._bounds.get(node.id, ()):
            if index > self.step:
                break
            if kind == "alpha":
                alpha = value
            else:
                beta = value
        return alpha, beta


@lru_cache(maxsize=8)
def lessons_scene(app: Any, index: int = 0) -> ExplorerScene:
    """The menu's "Lessons" (registered in the app as "lessons"): `ExplorerScene.lessons`."""
    return ExplorerScene.lessons(app, index)
