"""The search-tree explorer: a recorded search drawn as a tree you can open, re-root and step.

Opened for a position (`ExplorerScene(app, state)`, from the play scene) or for the
textbook lessons (`ExplorerScene.lessons(app)`, from the menu).  The trace runs in a
thread so the window keeps drawing; the tree is laid out by `gui.explorer_layout`, the
words come from `ai.trace_render`.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

import pygame
import pygame_gui

import ai
from ai.search import ALGORITHM_TITLES, algorithms_for
from ai.trace import ORDERINGS, SHAPES, Trace, TraceNode, trace
from ai.trace_render import (
    cut_text,
    explain,
    probability_text,
    sum_text,
    value_text,
    window_text,
)
from games import tree_examples
from gui import drawing, explorer_board, theme
from gui.drop_down import drop_down
from gui.explorer_layout import CUT, MORE, Layout, Placed, layout
from gui.scenes.base import Scene

SPEEDS = (
    ("1 step/s", 1.0),
    ("3 steps/s", 3.0),
    ("10 steps/s", 10.0),
    ("30 steps/s", 30.0),
    ("100 steps/s", 100.0),
    ("1000 steps/s", 1000.0),
)
DOUBLE_CLICK = 0.4
"""Seconds between two clicks on one node that make a double-click."""
SMALL_TREE = 80
"""Traces up to this many nodes open fully at first; bigger ones show the chosen line."""
ROLE_COLOURS = {
    "max": theme.ACCENT,
    "min": theme.WARNING,
    "chance": theme.TEXT_DIM,
    "leaf": theme.TEXT,
}
PRACTICE = len(tree_examples.LESSONS)
"""The lesson index of practice mode (after the textbook lessons)."""
ORDERING_NAMES = {"game": "Game order", "reversed": "Reversed", "best": "Best first"}


def _game_title(state: Any) -> str:
    return str(getattr(state.game, "title", "game"))


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
        allowed = self._algorithms()
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
        self._cut_steps: dict[int, int] = {}
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

    def _algorithms(self) -> tuple[str, ...]:
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
                found = trace(state, algorithm, depth, heuristic, ordering, table)
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
        self._cut_steps = {e.node: i for i, e in enumerate(found.events) if e.kind == "cutoff"}
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

    def _button(
        self,
        rect: pygame.Rect,
        text: str,
        action: str,
        selected: bool = False,
        tip: str | None = None,
    ) -> Any:
        button = self.add(
            pygame_gui.elements.UIButton(
                rect,
                text,
                self.manager,
                object_id="#selected" if selected else None,
                tool_tip_text=tip,
            )
        )
        self.ids[button] = action
        return button

    def _fit(self, options: list[str], at_least: float) -> int:
        """A drop-down wide enough for its longest option."""
        m = self.app.metrics
        longest = max(theme.font(m.widget_font).size(text)[0] for text in options)
        return max(m.px(at_least), longest + m.px(44))

    def _dropdown(
        self, rect: pygame.Rect, options: list[str], current: str, action: str, up: bool = False
    ) -> Any:
        menu = self.add(
            drop_down(
                list[str | tuple[str, str]](options),
                current,
                rect,
                self.manager,
                object_id="#dropup" if up else None,
            )
        )
        self.ids[menu] = action
        return menu

    def build(self) -> None:
        """The settings row, the stepper row and the areas of the tree and the side panel."""
        m = self.app.metrics
        w, h = self.app.size
        self.ids = {}
        row_y = m.pad + m.font_size(26) + m.px(14)
        bh = m.button_h
        x = m.pad
        self._button(pygame.Rect(x, m.pad - m.px(4), m.px(96), bh), "Back", "back")
        x = m.pad
        gap = m.gap
        if self.lesson is not None:
            names = [lesson.title for lesson in tree_examples.LESSONS] + ["4. Practice"]
            width = self._fit(names, 240)
            self._dropdown(pygame.Rect(x, row_y, width, bh), names, names[self.lesson], "lesson")
            x += width + gap
            if self.lesson < PRACTICE:
                lesson = tree_examples.LESSONS[self.lesson]
                if lesson.other is not None:
                    label = (
                        f"Show {lesson.other_label}" if not self.variant else "Show the original"
                    )
                    self._button(
                        pygame.Rect(x, row_y, m.px(190), bh),
                        label,
                        "variant",
                        selected=self.variant,
                    )
                    x += m.px(190) + gap
                if lesson.algorithm != "expectiminimax":
                    options = [ALGORITHM_TITLES[a] for a in ("minimax", "alphabeta")]
                    width = self._fit(options, 120)
                    self._dropdown(
                        pygame.Rect(x, row_y, width, bh),
                        options,
                        ALGORITHM_TITLES[self.algorithm],
                        "algorithm",
                    )
                    x += width + gap
            else:
                self._button(pygame.Rect(x, row_y, m.px(120), bh), "New tree", "new_tree")
                x += m.px(120) + gap
                self._button(
                    pygame.Rect(x, row_y, m.px(150), bh),
                    "Show answer" if not self.checked else "Hide answer",
                    "check",
                    selected=self.checked,
                )
                x += m.px(150) + gap
        else:
            options = [ALGORITHM_TITLES[a] for a in self._algorithms()]
            width = self._fit(options, 110)
            self._dropdown(
                pygame.Rect(x, row_y, width, bh),
                options,
                ALGORITHM_TITLES[self.algorithm],
                "algorithm",
            )
            x += width + gap
            depths = [f"Depth {d}" for d in range(1, 9)]
            width = self._fit(depths, 90)
            self._dropdown(
                pygame.Rect(x, row_y, width, bh), depths, f"Depth {min(8, self.depth)}", "depth"
            )
            x += width + gap
            heuristics = list(self.state.game.heuristics)
            current = self.heuristic or self.state.game.default_heuristic
            width = self._fit(heuristics, 100)
            self._dropdown(pygame.Rect(x, row_y, width, bh), heuristics, current, "heuristic")
            x += width + gap
            orderings = [ORDERING_NAMES[o] for o in ORDERINGS]
            width = self._fit(orderings, 100)
            self._dropdown(
                pygame.Rect(x, row_y, width, bh),
                orderings,
                ORDERING_NAMES[self.ordering],
                "ordering",
            )
            x += width + gap
            self._button(
                pygame.Rect(x, row_y, m.px(96), bh),
                "Table on" if self.table else "Table off",
                "table",
                selected=self.table,
            )
            x += m.px(96) + gap
        # The panel on the right, the tree on the left, the stepper at the bottom.
        panel_w = m.panel_w
        top = row_y + bh + m.gap
        bottom = h - m.pad - bh - m.gap
        self.panel = pygame.Rect(w - m.pad - panel_w, top, panel_w, h - m.pad - top)
        self.canvas = pygame.Rect(m.pad, top, self.panel.x - 2 * m.pad, bottom - top)
        if self.roots[-1] != 0 and x + m.px(120) <= self.panel.x:
            self._button(pygame.Rect(x, row_y, m.px(120), bh), "Up to root", "unroot")
        bar_y = h - m.pad - bh
        x = m.pad
        small = max(m.px(44), bh)
        for text, action, tip in (
            ("|◀", "start", "Jump to the start (Home)"),
            ("◀", "back_step", "One step back (←)"),
            ("Pause" if self.playing else "Play", "play", "Play or pause (Space)"),
            ("▶", "forward", "One step forward (→)"),
            ("▶|", "end", "Jump to the end (End)"),
        ):
            width = m.px(74) if action == "play" else small
            self._button(pygame.Rect(x, bar_y, width, bh), text, action, tip=tip)
            x += width + m.px(6)
        speed_w = self._fit([name for name, _ in SPEEDS], 110)
        names = [name for name, _ in SPEEDS]
        current = next(name for name, s in SPEEDS if s == self.speed)
        self._dropdown(pygame.Rect(x, bar_y, speed_w, bh), names, current, "speed", up=True)
        x += speed_w + m.gap
        scrub_w = self.canvas.right - x
        if self.trace is not None and scrub_w > m.px(80):
            last = max(1, len(self.trace.events) - 1)
            self.scrubber = self.add(
                pygame_gui.elements.UIHorizontalSlider(
                    pygame.Rect(x, bar_y, scrub_w, bh), self.step, (0, last), self.manager
                )
            )
            self.ids[self.scrubber] = "scrub"
        else:
            self.scrubber = None
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
        if self.lesson == PRACTICE and not self.checked:
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
        """The branches alpha-beta cuts (by name) and the root value, from the recorded search."""
        found = trace(self.state, "alphabeta", self.depth)
        skipped = {name for node in found.nodes for name in node.skipped}
        return skipped, found.value

    def check_practice(self) -> str:
        """Compare the learner's marks and guess with alpha-beta; show its search."""
        assert self.trace is not None
        skipped, value = self.practice_answer()
        nodes = self.trace.nodes
        inside: set[int] = set()  # every node below a skipped branch (unique names)
        stack = [n.id for n in nodes if n.label in skipped]
        while stack:
            node_id = stack.pop()
            inside.update(nodes[node_id].children)
            stack.extend(nodes[node_id].children)
        marked = {nodes[n].label for n in self.practice_marks}
        right = marked & skipped
        below = {nodes[n].label for n in self.practice_marks & inside} - right
        wrong = marked - right - below
        verdict = [
            f"Alpha-beta cuts {len(skipped)} branch{'es' if len(skipped) != 1 else ''}"
            f"{': ' + ', '.join(sorted(skipped)) if skipped else ''}."
        ]
        parts = [f"You marked {len(right)} of them"]
        if below:
            parts.append(f"{len(below)} inside a cut branch")
        if wrong:
            parts.append(f"{len(wrong)} that {'is' if len(wrong) == 1 else 'are'} searched")
        verdict.append(
            ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] + "."
        )
        guess = self.practice_guess.strip()
        if guess:
            try:
                ok = float(guess) == value
            except ValueError:
                ok = False
            verdict.append(
                f"The root is worth {value:g}: your guess {guess} is "
                f"{'right' if ok else 'not right'}."
            )
        else:
            verdict.append(f"The root is worth {value:g}.")
        self.practice_verdict = " ".join(verdict)
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
            pygame.K_ESCAPE: lambda: self.app.pop(),
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
        if self.lesson == PRACTICE and not self.checked and self.practice_guess:
            self.practice_guess = self.practice_guess[:-1]
        else:
            self.unroot()

    def _press(self, action: str) -> None:
        if action == "back":
            self.app.pop()
        elif action == "start":
            self.go_to(0)
        elif action == "back_step":
            self.go_to(self.step - 1)
        elif action == "forward":
            self.go_to(self.step + 1)
        elif action == "end":
            self.go_to(1 << 30)
        elif action == "play":
            self.toggle_play()
        elif action == "unroot":
            self.unroot()
        elif action == "table":
            self.table = not self.table
            self.retrace()
            self.rebuild()
        elif action == "variant":
            self.variant = not self.variant
            self._load_lesson(self.lesson or 0)
            self.retrace()
            self.rebuild()
        elif action == "new_tree":
            self.seed += 1
            self._load_lesson(PRACTICE)
            self.retrace()
            self.rebuild()
        elif action == "check":
            if self.checked:
                self._load_lesson(PRACTICE)
                self.retrace()
                self.rebuild()
            else:
                self.check_practice()

    def _choose(self, action: str, text: str) -> None:
        if action == "algorithm":
            self.algorithm = next(a for a, t in ALGORITHM_TITLES.items() if t == text)
        elif action == "depth":
            self.depth = int(text.split()[-1])
        elif action == "heuristic":
            self.heuristic = text
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
        """Title, the tree, the side panel and the hover card (widgets on top)."""
        m = self.app.metrics
        heading = self._heading()
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
            text = self.error or "Recording the search…"
            colour = theme.WARNING if self.error else theme.TEXT_DIM
            y = self.canvas.centery - m.px(20)
            for line in drawing.wrap(text, self.canvas.width - 4 * m.pad, m.font_size(17)):
                drawing.draw_text(
                    surface,
                    line,
                    (self.canvas.centerx, y),
                    m.font_size(17),
                    colour,
                    "semibold",
                    anchor="midtop",
                )
                y += m.font_size(17) + m.px(8)
        else:
            self._draw_tree(surface)
        self._draw_panel(surface)
        self._draw_step_label(surface)

    def draw_over_widgets(self, surface: pygame.Surface) -> None:
        """The hover card goes over everything."""
        if self.hover is not None and self.trace is not None:
            self._draw_hover(surface, self.hover)

    def _heading(self) -> str:
        if self.lesson is not None:
            return "Lessons: search trees from the textbook"
        return f"Search tree — {_game_title(self.state)}"

    def _visible(self, node: TraceNode) -> bool:
        return node.entered <= self.step or (self.lesson == PRACTICE and not self.checked)

    def _draw_tree(self, surface: pygame.Surface) -> None:
        found = self.current_layout()
        assert found is not None and self.trace is not None
        m = self.app.metrics
        nodes = self.trace.nodes
        at_end = self.step >= len(self.trace.events) - 1
        current = self.trace.events[self.step].node if self.trace.events else 0
        current_path = {n.id for n in self.trace.path(current)}
        practice = self.lesson == PRACTICE and not self.checked
        chosen = set(self.trace.principal_path(self.root_id)) if at_end and not practice else set()
        radius = max(m.px(5), min(m.px(13), round(found.slot * 0.28)))
        window_on_path = self.trace.algorithm == "alphabeta" and not at_end and not practice
        small = max(11, min(m.font_size(13), round(found.slot * 0.32)))
        positions = [self.node_pos(item) for item in found.items]
        # Edges first, labels of moves next to them.
        for index, item in enumerate(found.items):
            if item.parent is None:
                continue
            node = nodes[item.node]
            parent_pos = positions[item.parent]
            pos = positions[index]
            if item.stub == CUT:
                if self._cut_steps.get(item.node, 1 << 30) > self.step:
                    continue
                self._dashed(surface, parent_pos, pos, theme.DANGER)
                continue
            if item.stub == MORE:
                if not self._visible(node):
                    continue
                drawing.draw_text(
                    surface,
                    f"… {item.hidden}",
                    (pos[0], pos[1] - radius),
                    small,
                    theme.TEXT_FAINT,
                    anchor="midtop",
                )
                continue
            if not self._visible(node):
                continue
            width = 1
            colour = theme.PANEL_BORDER
            if node.id in chosen:
                width, colour = max(3, m.px(4)), theme.SUCCESS
            elif node.id in current_path and not at_end:
                width, colour = max(2, m.px(3)), theme.ACCENT
            pygame.draw.line(surface, colour, parent_pos, pos, width)
            if found.slot >= m.px(22):
                label = node.label
                if node.probability is not None:
                    label = f"{label} · {probability_text(node.probability)}"
                mid = (
                    parent_pos[0] + (pos[0] - parent_pos[0]) * 0.68,
                    parent_pos[1] + (pos[1] - parent_pos[1]) * 0.68,
                )
                size = small if found.slot >= m.px(40) else max(10, small - 2)
                if drawing.text_size(label, size)[0] < item.span * 0.95 or item.level == 1:
                    rect = drawing.text_surface(label, size, theme.TEXT_DIM).get_rect(center=mid)
                    pygame.draw.rect(surface, theme.PANEL, rect.inflate(6, 2))
                    surface.blit(drawing.text_surface(label, size, theme.TEXT_DIM), rect)
        # Nodes, values, cut stubs.
        for index, item in enumerate(found.items):
            pos = positions[index]
            node = nodes[item.node]
            if item.stub == CUT:
                if self._cut_steps.get(item.node, 1 << 30) <= self.step:
                    self._draw_cut(surface, item, node, pos, small)
                continue
            if item.stub or not self._visible(node):
                continue
            if practice and item.node in self.practice_marks:
                drawing.circle(surface, theme.DANGER, pos, radius + m.px(5))
                drawing.circle(surface, theme.PANEL, pos, radius + m.px(3))
            if node.id == current and not at_end:
                drawing.glow(surface, theme.ACCENT, pos, radius * 2)
            self._shape(surface, node.kind, pos, radius, node.id in chosen)
            if window_on_path and node.id in current_path and node.kind in ("max", "min"):
                alpha, beta = self._window_at(node)
                text = window_text(self.trace, alpha, beta)[1:-1]
                drawing.draw_text(
                    surface,
                    text,
                    (pos[0] + radius + m.px(6), pos[1] - radius),
                    max(10, small - 1),
                    theme.ACCENT,
                    "semibold",
                    anchor="bottomleft",
                )
            value = node.value_at(self.step)
            if practice and node.kind != "leaf":
                text = "?"
            elif value is None:
                text = "…"
            else:
                done = node.finished <= self.step and node.finished >= 0
                text = (
                    value_text(self.trace, node, value) if done else self.trace.format_value(value)
                )
            if item.level <= 1 or drawing.text_size(text, small)[0] < item.span * 0.95:
                weight = "semibold" if item.level <= 1 else "regular"
                image = drawing.text_surface(text, small, theme.TEXT, weight)
                rect = image.get_rect(midtop=(pos[0], pos[1] + radius + m.px(3)))
                pygame.draw.rect(surface, theme.PANEL, rect.inflate(4, 0))
                surface.blit(image, rect)

    def _dashed(
        self, surface: pygame.Surface, a: tuple[int, int], b: tuple[int, int], colour: theme.Colour
    ) -> None:
        length = max(1.0, ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5)
        dashes = int(length // 8)
        for i in range(0, dashes, 2):
            t0, t1 = i / dashes, min(1.0, (i + 1) / dashes)
            pygame.draw.line(
                surface,
                colour,
                (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1),
                2,
            )

    def _draw_cut(
        self,
        surface: pygame.Surface,
        item: Placed,
        node: TraceNode,
        pos: tuple[int, int],
        size: int,
    ) -> None:
        """One stub per cut-off: a scissors mark and what was skipped and why (as much as fits;
        hovering shows it all)."""
        assert self.trace is not None
        m = self.app.metrics
        icon = size
        room = item.span * 0.92 - icon - 4
        full = cut_text(self.trace, node).removeprefix("✂ ")
        lines = drawing.wrap(full, int(room), size) if room >= m.px(100) else []
        if not lines or len(lines) > 6:
            # Too narrow for the sentence: the same facts in three short lines, if they fit.
            show = self.trace.format_value
            sign, bound = ("≤", "α") if node.cut_by == "alpha" else ("≥", "β")
            lines = [
                f"{len(node.skipped)} skipped",
                f"value {sign} {show(node.value)}",
                f"{sign} {bound} = {show(node.cut_bound)}",
            ]
            if max(drawing.text_size(line, size, "semibold")[0] for line in lines) > room:
                lines = [str(len(node.skipped))]
        line_h = round(size * 1.3)
        width = max(drawing.text_size(line, size, "semibold")[0] for line in lines)
        rect = pygame.Rect(0, 0, icon + 4 + width, max(icon, line_h * len(lines)))
        rect.midtop = (pos[0], pos[1] - line_h // 2)
        drawing.rounded_rect(surface, rect.inflate(10, 6), theme.PANEL_RAISED, 6, 1, theme.DANGER)
        scissors(
            surface, pygame.Rect(rect.x, rect.y + (line_h - icon) // 2, icon, icon), theme.DANGER
        )
        y = rect.y
        for line in lines:
            surface.blit(
                drawing.text_surface(line, size, theme.DANGER, "semibold"), (rect.x + icon + 4, y)
            )
            y += line_h

    def _shape(
        self, surface: pygame.Surface, kind: str, pos: tuple[int, int], r: int, thick: bool
    ) -> None:
        """▲ MAX, ▼ MIN, ○ chance, ■ leaf: shapes that do not rely on colour."""
        colour = ROLE_COLOURS[kind]
        x, y = pos
        if kind == "max":
            points = [(x, y - r), (x + r, y + r * 0.75), (x - r, y + r * 0.75)]
            drawing.polygon(surface, colour, points)
        elif kind == "min":
            points = [(x, y + r), (x + r, y - r * 0.75), (x - r, y - r * 0.75)]
            drawing.polygon(surface, colour, points)
        elif kind == "chance":
            pygame.draw.circle(surface, theme.PANEL, pos, r)
            pygame.draw.circle(surface, colour, pos, r, max(2, r // 4))
        else:
            side = round(r * 1.5)
            pygame.draw.rect(
                surface,
                colour,
                pygame.Rect(x - side // 2, y - side // 2, side, side),
                border_radius=2,
            )
        if thick:
            pygame.draw.circle(surface, theme.SUCCESS, pos, r + 4, 2)

    def _section(self, surface: pygame.Surface, title: str, y: int) -> int:
        m = self.app.metrics
        drawing.draw_text(
            surface,
            title.upper(),
            (self.panel.x + m.gap, y),
            m.font_size(12),
            theme.TEXT_FAINT,
            "semibold",
        )
        return y + m.font_size(12) + m.px(8)

    def _lines(
        self,
        surface: pygame.Surface,
        text: str,
        y: int,
        size: int,
        colour: theme.Colour = theme.TEXT,
        weight: str = "regular",
        limit: int | None = None,
    ) -> int:
        m = self.app.metrics
        width = self.panel.width - 2 * m.gap
        for line in drawing.wrap(text, width, size, weight):
            if limit is not None and y + size > limit:
                break
            drawing.draw_text(surface, line, (self.panel.x + m.gap, y), size, colour, weight)
            y += round(size * 1.4)
        return y

    def _draw_panel(self, surface: pygame.Surface) -> None:
        m = self.app.metrics
        x = self.panel.x + m.gap
        right = self.panel.right - m.gap
        y = self.panel.y + m.gap
        size = m.font_size(14)
        bottom = self.panel.bottom - m.gap
        if self.lesson is not None:
            y = self._section(surface, "Lesson" if self.lesson < PRACTICE else "Practice", y)
            if self.lesson < PRACTICE:
                y = self._lines(
                    surface, tree_examples.LESSONS[self.lesson].text, y, size, theme.TEXT_DIM
                )
                for line in lesson_comparison(self.lesson):
                    y = self._lines(surface, line, y + m.px(4), size, theme.TEXT, "semibold")
            elif not self.checked:
                y = self._lines(
                    surface,
                    "Predict: type the root's value, click the branches "
                    "alpha-beta will skip, then Show answer.",
                    y,
                    size,
                    theme.TEXT_DIM,
                )
                y = self._lines(
                    surface,
                    f"Your root value: {self.practice_guess or '_'}",
                    y,
                    size,
                    theme.TEXT,
                    "semibold",
                )
            else:
                y = self._lines(surface, self.practice_verdict, y, size, theme.TEXT)
            y += m.px(10)
        found = self.trace
        if found is None or (self.lesson == PRACTICE and not self.checked):
            return  # practice: nothing that gives the answer away
        y = self._section(surface, "Search", y)
        summary = (
            f"{ALGORITHM_TITLES[found.algorithm]}, depth {found.depth}, "
            f"{found.heuristic if not found.raw_values else 'leaf values'}, "
            f"{ORDERING_NAMES[found.ordering].lower()}"
            f"{', table' if found.table else ''}"
        )
        y = self._lines(surface, summary, y, size, theme.TEXT_DIM)
        y += m.px(8)
        root = found.nodes[self.root_id]
        y = self._section(
            surface, "Moves at the root" if self.root_id == 0 else f"Moves at {root.label}", y
        )
        done = 0 <= root.finished <= self.step
        chosen_child = found.principal_path(self.root_id)[1:2] if done else []
        for child_id in root.children:
            child = found.nodes[child_id]
            if y + size > bottom - m.px(150):
                drawing.draw_text(surface, "…", (x, y), size, theme.TEXT_DIM)
                y += round(size * 1.4)
                break
            value = child.value_at(self.step) if child.entered <= self.step else None
            label = child.label + (
                f"  ({probability_text(child.probability)})"
                if child.probability is not None
                else ""
            )
            shown = (
                "—"
                if value is None
                else (
                    value_text(found, child, value)
                    if child.finished <= self.step
                    else found.format_value(value)
                )
            )
            best = child_id in chosen_child
            colour = theme.SUCCESS if best else theme.TEXT
            drawing.draw_text(
                surface,
                f"{SHAPES[child.kind]} {label}",
                (x, y),
                size,
                colour,
                "semibold" if best else "regular",
            )
            drawing.draw_text(
                surface,
                shown,
                (right, y),
                size,
                colour,
                "semibold" if best else "regular",
                anchor="topright",
            )
            y += round(size * 1.45)
        y += m.px(8)
        visited, leaves, cutoffs, hits = found.totals(self.step)
        y = self._section(surface, f"Step {self.step + 1} of {len(found.events)}", y)
        for name, count in (
            ("Nodes visited", visited),
            ("Leaves evaluated", leaves),
            ("Cut-offs", cutoffs),
            ("Table hits", hits),
        ):
            drawing.draw_text(surface, name, (x, y), size, theme.TEXT_DIM)
            drawing.draw_text(
                surface, f"{count:,}", (right, y), size, theme.TEXT, anchor="topright"
            )
            y += round(size * 1.4)
        event = found.events[self.step]
        node = found.nodes[event.node]
        if found.algorithm == "alphabeta" and event.kind != "exit":
            alpha, beta = self._window_at(node)
            drawing.draw_text(surface, "α/β here", (x, y), size, theme.TEXT_DIM)
            drawing.draw_text(
                surface,
                window_text(found, alpha, beta),
                (right, y),
                size,
                theme.ACCENT,
                anchor="topright",
            )
            y += round(size * 1.4)
        chance = self._chance_to_explain(node)
        if chance is not None:
            y += m.px(8)
            y = self._section(surface, f"Chance node {chance.label}", y)
            y = self._lines(surface, sum_text(found, chance), y, size, theme.TEXT)
        y += m.px(8)
        y = self._section(surface, "Now", y)
        self._lines(
            surface, explain(found, self.step), y, size, theme.TEXT, "semibold", limit=bottom
        )

    def _chance_to_explain(self, current: TraceNode) -> TraceNode | None:
        """The chance node whose weighted sum the panel writes out: hovered, current, or on
        the chosen line."""
        assert self.trace is not None
        nodes = self.trace.nodes
        candidates = []
        if self.hover is not None and not self.hover.stub:
            candidates.append(nodes[self.hover.node])
        candidates.append(current)
        if current.parent >= 0:
            candidates.append(nodes[current.parent])
        candidates += [nodes[n] for n in self.trace.principal_path(self.root_id)[:2]]
        candidates += [nodes[c] for c in nodes[self.root_id].children]
        for node in candidates:
            if node.kind == "chance" and node.terms and 0 <= node.finished <= self.step:
                return node
        return None

    def _window_at(self, node: TraceNode) -> tuple[float | None, float | None]:
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

    def _draw_step_label(self, surface: pygame.Surface) -> None:
        if self.scrubber is None or self.trace is None:
            return

    def _draw_hover(self, surface: pygame.Surface, item: Placed) -> None:
        """A small card by the pointer: the node, its value, its position."""
        assert self.trace is not None
        m = self.app.metrics
        node = self.trace.nodes[item.node]
        size = m.font_size(13)
        if item.stub == CUT:
            lines = [cut_text(self.trace, node).replace("✂", "Cut:")]
            board: list[str] = []
        elif item.stub == MORE:
            lines = [
                f"{item.hidden} moves folded away: click to open, double-click to make "
                "this node the root"
            ]
            board = []
        else:
            name = "the root" if node.parent < 0 else node.label
            role = node.kind.upper() if node.kind in ("max", "min") else node.kind
            lines = [f"{SHAPES[node.kind]} {name}: {role}"]
            value = node.value_at(self.step)
            if value is not None and not (
                self.lesson == PRACTICE and not self.checked and node.kind != "leaf"
            ):
                lines.append(f"value {value_text(self.trace, node, value)}")
            if self.trace.algorithm == "alphabeta" and node.kind in ("max", "min"):
                lines.append(f"entered with {window_text(self.trace, node.alpha, node.beta)}")
            if node.kind == "chance" and node.terms:
                lines.append(sum_text(self.trace, node))
            board = self._board_text(node)
        width = min(m.px(360), self.app.size[0] - 2 * m.pad)
        picture = 0
        if item.stub == "" and explorer_board.has_view(self.trace.root_state):
            picture, board = m.px(170), []
        wrapped = [w for line in lines for w in drawing.wrap(line, width - 2 * m.gap, size)]
        mono = max(11, size)
        height = (
            len(wrapped) * round(size * 1.4)
            + len(board) * round(mono * 1.25)
            + 2 * m.gap
            + (m.px(6) if board else 0)
            + picture
        )
        pos = self.node_pos(item)
        card = pygame.Rect(pos[0] + m.px(16), pos[1] + m.px(10), width, height)
        card.clamp_ip(pygame.Rect((0, 0), self.app.size))
        drawing.rounded_rect(surface, card, theme.PANEL_RAISED, m.px(8), 1, theme.PANEL_BORDER)
        y = card.y + m.gap
        for line in wrapped:
            drawing.draw_text(surface, line, (card.x + m.gap, y), size, theme.TEXT)
            y += round(size * 1.4)
        y += m.px(6)
        for line in board:
            surface.blit(_mono(mono).render(line, True, theme.TEXT_DIM), (card.x + m.gap, y))
            y += round(mono * 1.25)
        if picture:
            area = pygame.Rect(card.x + m.gap, y, card.width - 2 * m.gap, picture - m.gap)
            explorer_board.draw_position(surface, area, self.trace.state_of(node.id))

    def _board_text(self, node: TraceNode) -> list[str]:
        """The node's position as the game draws it in text (a few lines at most)."""
        assert self.trace is not None
        try:
            state = self.trace.state_of(node.id)
            render = getattr(state.game, "render", None)
            text = render(state) if render is not None else ""
        except Exception:  # a game without a text drawing: the card shows no board
            return []
        return [line for line in str(text).splitlines() if line.strip()][:9]


@lru_cache(maxsize=8)
def lessons_scene(app: Any, index: int = 0) -> ExplorerScene:
    """The menu's "Lessons" (registered in the app as "lessons"): `ExplorerScene.lessons`."""
    return ExplorerScene.lessons(app, index)


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


def scissors(surface: pygame.Surface, box: pygame.Rect, colour: theme.Colour) -> None:
    """A small scissors mark (fonts disagree on ✂): two rings and two crossing blades."""
    r = max(2, box.height // 5)
    top = (box.x + r, box.y + r)
    low = (box.x + r, box.bottom - r)
    pygame.draw.circle(surface, colour, top, r, 1)
    pygame.draw.circle(surface, colour, low, r, 1)
    width = max(1, box.height // 9)
    pygame.draw.line(
        surface, colour, (top[0] + r, top[1] + r // 2), (box.right, box.bottom - r), width
    )
    pygame.draw.line(surface, colour, (low[0] + r, low[1] - r // 2), (box.right, box.y + r), width)


_MONO: dict[int, pygame.font.Font] = {}


def _mono(size: int) -> pygame.font.Font:
    """A monospaced font for the small text board."""
    font = _MONO.get(size)
    if font is None:
        font = pygame.font.SysFont("dejavusansmono,monospace", size)
        _MONO[size] = font
    return font
