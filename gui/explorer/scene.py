"""The search-tree explorer: a recorded search drawn as a tree you can open, re-root and step.

Opened for a position (`ExplorerScene(app, state)`, from the play scene) or for the
textbook lessons (`ExplorerScene.lessons(app)`, from the menu).  What it shows lives in a
pygame-free `gui.explorer.model.ExplorerModel` (`scene.model`), which tests drive directly;
the scene records the trace in a thread, maps events to the model's calls and draws
through `gui.explorer`'s views (controls, tree view, panel), which read the model.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground import ai
from plyground.ai.engine.search import ALGORITHM_TITLES
from plyground.ai.textbook.mcts_trace import DEFAULT_ITERATIONS
from plyground.ai.textbook.trace import Trace
from plyground.games.base import State
from plyground.games.trees import examples as tree_examples
from plyground.gui import theme
from plyground.gui.explorer.controls import (
    SPEEDS,
    WidgetRow,
    editor_row,
    lesson_row,
    search_row,
    stepper_row,
)
from plyground.gui.explorer.hover_card import draw_hover, draw_mcts_hover
from plyground.gui.explorer.layout import Layout, Placed
from plyground.gui.explorer.mcts_steps import MctsSteps, exploration_from_label
from plyground.gui.explorer.mcts_view import (
    WIDEST_MCTS_LABEL,
    WIDEST_UCB_LABEL,
    draw_mcts_panel,
    draw_mcts_tree,
    mcts_label_size,
)
from plyground.gui.explorer.model import MCTS_C, ExplorerModel
from plyground.gui.explorer.panel import ORDERING_NAMES, draw_panel
from plyground.gui.explorer.practice import EDITOR, PRACTICE
from plyground.gui.explorer.tree_view import TreeCanvas, draw_tree, draw_waiting
from plyground.gui.scenes.base import Scene
from plyground.gui.widgets import drawing

if TYPE_CHECKING:  # for annotations: the app imports every scene
    from plyground.gui.app import App


class ExplorerScene(Scene):
    """A recorded search of one position, drawn as a tree with a stepper."""

    title = "explorer"

    def __init__(
        self,
        app: App,
        state: State[Any],
        algorithm: str | None = None,
        depth: int | None = None,
        heuristic: str | None = None,
        ordering: str = "game",
        table: bool = False,
        lesson: int | None = None,
        seed: int = 1,
        iterations: int = DEFAULT_ITERATIONS,
        mcts_seed: int = 0,
        exploration: float = MCTS_C,
    ) -> None:
        super().__init__(app)
        self.model = ExplorerModel(
            state,
            algorithm,
            depth,
            heuristic,
            ordering,
            table,
            lesson,
            seed,
            iterations,
            mcts_seed,
            exploration,
        )
        self.playing = False
        self.speed = 10.0
        self._carry = 0.0
        self.canvas = pygame.Rect(0, 0, 1, 1)
        self.panel = pygame.Rect(0, 0, 1, 1)
        self.ids: dict[Any, str] = {}
        self.scrubber: Any = None
        self.editor_box: Any = None
        self._job: threading.Thread | None = None
        self._result: tuple[Trace | MctsSteps | None, str] | None = None
        self._generation = 0
        self._abandon: Callable[[], None] | None = None
        """Ends the running recording's student worker at once (a heuristic file's run)."""
        self._runs = threading.Lock()
        """Held while a run's abandon is kept or taken: a run given up as its worker starts
        is either kept (and so abandoned) or abandoned at once, never neither."""
        self.retrace()

    # ------------------------------------------------------------------ building
    @classmethod
    def lessons(cls, app: App, index: int = 0) -> ExplorerScene:
        """The textbook lessons (the menu's "Lessons" entry); index PRACTICE for practice,
        EDITOR for the tree editor."""
        lesson = tree_examples.TRACE_LESSONS[0]
        state = tree_examples.TreeGame(lesson.tree, lesson.title).initial_state()
        return cls(app, state, lesson=index)

    @property
    def ready(self) -> bool:
        """Whether a trace is shown (not still recording)."""
        return self.model.ready

    def retrace(self) -> None:
        """Start recording the search with the current settings (in a thread); a run still
        going is abandoned, never waited for."""
        self.abandon_run()
        self.model.forget()
        self.playing = False
        self._result = None
        generation = self._generation
        model = self.model
        request = (
            model.state,
            model.algorithm,
            model.depth,
            model.heuristic,
            model.ordering,
            model.table,
        )

        def keep(abandon: Callable[[], None]) -> None:
            with self._runs:
                if generation == self._generation:
                    self._abandon = abandon
                    return
            abandon()  # settings changed or the view closed while the worker started

        def run() -> None:
            from plyground.ai.student_code.isolated_runs import record_trace

            outcome: tuple[Trace | MctsSteps | None, str]
            try:
                if model.is_mcts:
                    outcome = (model.record_mcts(), "")
                else:
                    outcome = (record_trace(*request, abandon=keep), "")
            except (ai.SearchError, ValueError) as error:
                outcome = (None, str(error))
            if generation == self._generation:  # settings changed meanwhile: drop it
                self._result = outcome

        self._job = threading.Thread(target=run, daemon=True)
        self._job.start()

    def abandon_run(self) -> None:
        """Give up the recording under way: its answer is dropped and a student's worker
        behind it ends at once (the thread, a daemon, then ends by itself)."""
        with self._runs:
            self._generation += 1
            abandon, self._abandon = self._abandon, None
        if abandon is not None:
            abandon()

    def close(self) -> None:
        """Leaving: the recording under way is abandoned, never waited for."""
        self.abandon_run()

    # ------------------------------------------------------------------ widgets
    def rebuild(self) -> None:
        """Remove and re-create the widgets (after a change of settings or size)."""
        self.clear()
        self.build()

    def build(self) -> None:
        """The settings row, the stepper row and the areas of the tree and the side panel."""
        m = self.app.metrics
        w, h = self.app.size
        model = self.model
        self.ids = {}
        self.editor_box = None
        row_y = m.pad + m.font_size(26) + m.px(14)
        bh = m.button_h
        WidgetRow(self, m.pad, m.pad - m.px(4)).button(m.px(96), "Back", "back")
        row = WidgetRow(self, m.pad, row_y)
        if model.lesson is not None:
            lesson_row(row, model)
        else:
            search_row(row, model)
        top = row_y + bh + m.gap
        if model.lesson == EDITOR:
            self.editor_box = editor_row(WidgetRow(self, m.pad, top), model, w - 2 * m.pad)
            top += bh + m.gap
        # The panel on the right, the tree on the left, the stepper at the bottom.
        bottom = h - m.pad - bh - m.gap
        self.panel = pygame.Rect(w - m.pad - m.panel_w, top, m.panel_w, h - m.pad - top)
        self.canvas = pygame.Rect(m.pad, top, self.panel.x - 2 * m.pad, bottom - top)
        if model.root_id != 0 and row.x + m.px(120) <= self.panel.x:
            row.button(m.px(120), "Up to root", "unroot")
        elif not model.guessing and not model.is_mcts and row.x + m.px(150) <= self.panel.x:
            text = "Hide pruned" if model.show_pruned else "Show pruned"
            tip = "The subtrees a cut-off skipped, greyed: alpha-beta never looked at them"
            row.button(m.px(150), text, "pruned", selected=model.show_pruned, tip=tip)
        self.scrubber = stepper_row(
            WidgetRow(self, m.pad, h - m.pad - bh),
            model,
            self.playing,
            self.speed,
            self.canvas.right,
        )
        self._sync_area()

    def _sync_area(self) -> None:
        """Tell the model the size its layout fills (the canvas, less a margin)."""
        m = self.app.metrics
        self.model.area = (float(self.canvas.width), float(self.canvas.height - m.px(20)))
        self.model.spacing = (float(m.px(30)), float(m.px(160)), float(m.px(110)))
        size, gap = mcts_label_size(m), max(14, m.px(14))
        ucb = drawing.text_size(WIDEST_UCB_LABEL, size, "bold")[0]
        self.model.mcts_slots = tuple(
            float(max(ucb, drawing.text_size(WIDEST_MCTS_LABEL + "9" * digits, size)[0]) + gap)
            for digits in range(1, 5)
        )

    def tree_canvas(self) -> TreeCanvas:
        """Where the tree is drawn: the views map the layout to the screen with it."""
        return TreeCanvas(self.app.metrics, self.canvas, self.app.size)

    # ------------------------------------------------------------------ stepping
    @property
    def step(self) -> int:
        """The model's step (a shorthand for tests and the bench)."""
        return self.model.step

    def go_to(self, step: int) -> None:
        """Show the search as it was after event `step` (the narrated node in view)."""
        root = self.model.root_id
        self.model.go_to(step)
        if (
            self.scrubber is not None
            and round(self.scrubber.get_current_value()) != self.model.step
        ):
            self.scrubber.set_current_value(self.model.step)
        if self.model.root_id != root:
            self.rebuild()

    def jump_iteration(self, offset: int) -> None:
        """MCTS: to the start of the next (1) or this/the previous (-1) iteration."""
        if self.model.mcts is not None:
            self.go_to(self.model.mcts.iteration_start(self.model.step, offset))

    def toggle_play(self) -> None:
        """Play or pause the stepper (from the start if at the end)."""
        if not self.model.ready:
            return
        if not self.playing and self.model.at_end:
            self.go_to(0)
        self.playing = not self.playing
        self._carry = 0.0
        self.rebuild()

    def toast_area(self) -> pygame.Rect:
        """Toasts go over the tree, under the title, the controls and the tree's caption."""
        below = self.app.metrics.px(30)
        area = self.canvas.copy()
        area.top += below
        area.height -= below
        return area

    def animating(self) -> bool:
        """A trace is being worked out or arrives, or the stepper plays."""
        job = self._job
        return self.playing or self._result is not None or (job is not None and job.is_alive())

    def update(self, dt: float) -> None:
        """Adopt a finished trace; advance the stepper while playing."""
        if self._result is not None:
            found, error = self._result
            self._result = None
            if isinstance(found, MctsSteps):
                self.model.adopt_mcts(found)
            elif found is not None:
                self.model.adopt(found)
            else:
                self.model.fail(error)
            self.rebuild()
        if self.playing and self.model.ready:
            self._carry += dt * self.speed
            steps = int(self._carry)
            if steps:
                self._carry -= steps
                self.go_to(self.model.step + steps)
                if self.model.at_end:
                    self.playing = False
                    self.rebuild()

    # ------------------------------------------------------------------ tree interaction
    def current_layout(self) -> Layout | None:
        """The model's layout for the canvas."""
        return self.model.current_layout()

    def node_pos(self, item: Placed) -> tuple[int, int]:
        """An item's centre on the screen."""
        return self.tree_canvas().pos(item)

    def item_at(self, pos: tuple[int, int]) -> Placed | None:
        """The node or stub under the pointer (or, in practice, the branch)."""
        found = self.model.current_layout()
        if found is None or not self.canvas.collidepoint(pos):
            return None
        local = self.tree_canvas().local(pos)
        m = self.app.metrics
        radius = max(m.px(14), min(found.slot / 2, m.px(24)))
        item = found.hit(local, radius)
        if item is None and self.model.guessing:
            item = found.edge_hit(local, m.px(9))
        return item

    def mcts_node_at(self, pos: tuple[int, int]) -> int | None:
        """MCTS: the node under the pointer (None: none, or another search)."""
        found = self.model.mcts_layout()
        if found is None or not self.canvas.collidepoint(pos):
            return None
        m = self.app.metrics
        x, y = self.tree_canvas().local(pos)
        return found.node_at(x, y, max(m.px(12), min(found.slot / 3, m.px(22))))

    def click(self, pos: tuple[int, int]) -> None:
        """A click on the tree: open/close a node; twice quickly: make it the root."""
        item = self.item_at(pos)
        at = self.tree_canvas().local(pos)
        if self.model.click(item, self.app.now, at) == "reroot":
            self.rebuild()

    def reroot(self, node_id: int) -> None:
        """Draw the tree from `node_id` down (Backspace or "Up to root" goes back)."""
        if self.model.reroot(node_id):
            self.rebuild()

    def unroot(self) -> None:
        """Back to the previous root."""
        if self.model.unroot():
            self.rebuild()

    def check_practice(self) -> str:
        """Compare the learner's marks and guess with alpha-beta; show its search."""
        verdict = self.model.check_practice()
        self.retrace()
        self.rebuild()
        return verdict

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event) -> bool:
        """Widgets, clicks on the tree and the stepper keys."""
        if event.type == pygame.KEYDOWN:
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.model.hover = self.item_at(event.pos)
            self.model.mcts_hover = self.mcts_node_at(event.pos)
            self.model.pointer = event.pos
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
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and action == "tree_text":
            self.run_tree_text(event.text)
            return True
        if event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and action == "scrub":
            self.go_to(round(event.value))
            return True
        return False

    def _key(self, event: pygame.event.Event) -> bool:
        if self.editor_box is not None and self.editor_box.is_focused:
            return False  # the text box has the keys
        if self.model.type_guess(event.unicode):
            return True
        keys = {
            pygame.K_ESCAPE: self.close_view,
            pygame.K_RIGHT: lambda: self.go_to(self.model.step + 1),
            pygame.K_LEFT: lambda: self.go_to(self.model.step - 1),
            pygame.K_HOME: lambda: self.go_to(0),
            pygame.K_END: lambda: self.go_to(1 << 30),
            pygame.K_PAGEUP: lambda: self.jump_iteration(-1),
            pygame.K_PAGEDOWN: lambda: self.jump_iteration(1),
            pygame.K_SPACE: self.toggle_play,
            pygame.K_BACKSPACE: self._backspace,
        }
        action = keys.get(event.key)
        if action is None:
            return False
        action()
        return True

    def keys_help(self) -> list[tuple[str, str]]:
        """The stepper's keys (the lessons and the explorer share them)."""
        from plyground.gui.app import COUNTS_HELP

        lines = [
            ("← →", "one step of the search back / on"),
            ("Home  End", "the search's first step / its end"),
            ("Space", "play / pause the steps"),
            ("PgUp  PgDn", "MCTS: the previous / next iteration's start"),
            ("Backspace", "up from a subtree opened as the root"),
            ("click a node", "open or fold it; a double click makes it the root"),
        ]
        if self.model.guessing:
            lines.append(("0-9  -  .", "practice: type your root value (Backspace erases)"))
        lines += [("Esc", "back (an open list closes first)"), ("Counts", COUNTS_HELP)]
        return lines

    def close_view(self) -> None:
        """Back (Esc): to the scene under the explorer."""
        self.app.pop()

    def _backspace(self) -> None:
        practice = self.model.practice
        if self.model.guessing and practice.guess:
            practice.guess = practice.guess[:-1]
        else:
            self.unroot()

    def run_tree_text(self, text: str) -> bool:
        """The editor: search the typed tree (bad text: one line under the box, nothing
        lost)."""
        if not self.model.load_editor_text(text):
            return False
        self.retrace()
        self.rebuild()
        return True

    def _random_tree(self) -> None:
        """A random tree of the editor's shape, searched (or why not, under the box)."""
        if self.model.load_random_tree():
            self.retrace()
        self.rebuild()

    def _press(self, action: str) -> None:
        model = self.model
        moves = {
            "back": self.close_view,
            "start": lambda: self.go_to(0),
            "back_step": lambda: self.go_to(model.step - 1),
            "forward": lambda: self.go_to(model.step + 1),
            "end": lambda: self.go_to(1 << 30),
            "prev_iteration": lambda: self.jump_iteration(-1),
            "next_iteration": lambda: self.jump_iteration(1),
            "play": self.toggle_play,
            "unroot": self.unroot,
        }
        if action in moves:
            moves[action]()
        elif action == "pruned":
            model.show_pruned = not model.show_pruned
            self.rebuild()
        elif action == "run_tree" and self.editor_box is not None:
            self.run_tree_text(self.editor_box.get_text())
        elif action == "random_tree":
            model.seed += 1
            self._random_tree()
        elif action == "check" and not model.practice.checked:
            self.check_practice()
        elif action in ("table", "variant", "new_tree", "check"):  # record the search again
            if action == "table":
                model.table = not model.table
            elif action == "variant":
                model.variant = not model.variant
                model.load_lesson(model.lesson or 0)
            else:  # a new practice tree, or the same one again after its answer
                if action == "new_tree":
                    model.seed += 1
                model.load_lesson(PRACTICE)
            self.retrace()
            self.rebuild()

    def _choose(self, action: str, text: str) -> None:
        model = self.model
        if action == "algorithm":
            model.algorithm = next(a for a, t in ALGORITHM_TITLES.items() if t == text)
        elif action == "depth":
            model.depth = int(text.split()[-1])
        elif action == "iterations":
            model.iterations = int(text.split()[0])
        elif action == "seed":
            model.mcts_seed = int(text.split()[-1])
        elif action == "exploration":
            model.exploration = exploration_from_label(text)
        elif action == "heuristic":
            model.choose_heuristic(text)
        elif action == "ordering":
            model.ordering = next(o for o, t in ORDERING_NAMES.items() if t == text)
        elif action == "speed":
            self.speed = dict(SPEEDS)[text]
            return
        elif action in ("branching", "levels", "chance"):
            model.set_generator(action, text)
            self._random_tree()
            return
        elif action == "lesson":
            names = [lesson.title for lesson in tree_examples.TRACE_LESSONS]
            model.variant = False
            index = names.index(text) if text in names else PRACTICE
            model.load_lesson(EDITOR if text.endswith("Your own tree") else index)
        self.retrace()
        self.rebuild()

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Title, the tree and the side panel (the hover card goes over the widgets)."""
        m = self.app.metrics
        model = self.model
        heading = f"Search tree — {getattr(model.state.game, 'title', 'game')}"
        if model.lesson is not None:
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
        written: list[str] = []
        if model.mcts is not None:
            draw_mcts_tree(surface, model, self.tree_canvas())
            draw_mcts_panel(surface, model, m, self.panel)
            return
        if model.trace is None:
            draw_waiting(surface, model, self.tree_canvas())
        else:
            written = draw_tree(surface, model, self.tree_canvas())
        draw_panel(surface, model, m, self.panel, written)

    def draw_over_widgets(self, surface: pygame.Surface) -> None:
        """The hover card goes over everything."""
        if self.model.hover is not None and self.model.trace is not None:
            draw_hover(surface, self.model, self.tree_canvas(), self.model.hover)
        elif self.model.mcts_hover is not None and self.model.mcts is not None:
            draw_mcts_hover(surface, self.model, self.tree_canvas(), self.model.mcts_hover)


@lru_cache(maxsize=8)
def lessons_scene(app: App, index: int = 0) -> ExplorerScene:
    """The menu's "Lessons" (registered in the app as "lessons"): `ExplorerScene.lessons`."""
    return ExplorerScene.lessons(app, index)
