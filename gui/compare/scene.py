"""Compare view: every algorithm on the current position.

`CompareScene(app, game, state)` runs each variant that fits the game (see
`ai.compare.comparison`) at
depths 1 up to the chosen depth, one after another in a background process, then Monte Carlo
tree search (a fixed number of iterations, seed 0: it has no depth, so its row stands beside
every depth's), then every root move's exact value where the game knows it (`ai.compare.exact`:
each row's move gets it); on asking (B, or `curve=True`), the budget curve
(`ai.compare.budget_curve`: how often MCTS picks an optimal move as its iterations grow,
beside alpha-beta at equal time: some seconds on a mid-game, so not on every Run).  It shows
the rows of the deepest depth as a table (`gui.compare.table`), nodes against depth as a log
chart with the theory curves b^d and b^(d/2), and the budget curve beside it.  A run whose
estimate exceeds `limit_seconds` waits for the person to skip it or run it anyway.  Cancel stops
the run under way; leaving the view cancels.  The play scene pushes it with `app.push(...)`; a
game's policy picture is the policy view's (`gui.compare.policy_scene`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground.ai.compare.budget_curve import BUDGETS, POSITIONS, BudgetCurve
from plyground.ai.compare.comparison import (
    Comparison,
    Estimate,
    Row,
    branching,
    describe,
    duration,
    estimate,
    mcts_title,
    theory_note,
    tree_sizes,
    variants_for,
    with_exact,
    with_shares,
)
from plyground.ai.compare.exact import ExactValues
from plyground.ai.engine.mcts.settings import DEFAULT_ITERATIONS, MonteCarlo
from plyground.ai.evaluation.wording import counted
from plyground.games.base import Game, State
from plyground.gui import chart
from plyground.gui.compare.charts import budget_chart, nodes_chart
from plyground.gui.compare.table import (
    TableState,
    column_titles,
    draw_table,
    header_height,
    header_lines,
)
from plyground.gui.compare.view_heading import draw_card, draw_heading
from plyground.gui.compare.worker import CURVE_JOB, EXACT_JOB, MCTS_JOB, CompareRunner
from plyground.gui.scenes.base import Scene
from plyground.gui.widgets.drop_down import drop_down
from plyground.untrusted import printable

if TYPE_CHECKING:  # for annotations: the app imports every scene
    from plyground.gui.app import App

DEPTHS = tuple(range(1, 13))
CURVE_DEPTH = 3
"""The least depth the view opens at: depths 1 to 3 draw a curve (a game whose AI looks one
decision ahead would otherwise show one point)."""
LIMIT_SECONDS = 20.0
"""A run estimated to take longer waits for Skip or Run anyway."""
AFTER_VARIANTS = (MCTS_JOB, EXACT_JOB, CURVE_JOB)
"""The jobs after the depth-limited runs: MCTS's row, the exact values, the budget curve (this
one only when asked for)."""


class CompareScene(Scene):
    """The comparison table, progress, skip offers and the nodes-by-depth chart."""

    title = "compare"

    def __init__(
        self,
        app: App,
        game: Game[Any],
        state: State[Any],
        depth: int = 5,
        heuristic: str | None = None,
        autostart: bool = True,
        curve: bool = False,
    ) -> None:
        super().__init__(app)
        self.game = game
        self.state = state
        # at least CURVE_DEPTH: a single depth draws a point, not a curve
        self.depth = max(CURVE_DEPTH, min(DEPTHS[-1], depth))
        self.heuristic = heuristic
        self.limit_seconds = LIMIT_SECONDS
        self.variants = [variant.key for variant in variants_for(state)]
        self.titles = {variant.key: variant.title for variant in variants_for(state)}
        self.mcts_iterations = DEFAULT_ITERATIONS
        """MCTS's iterations in its row (the engine's default budget)."""
        self.titles[MCTS_JOB] = mcts_title(MonteCarlo(iterations=self.mcts_iterations))
        self.curve_budgets: tuple[int, ...] = BUDGETS
        self.curve_positions = POSITIONS
        self.exact: ExactValues | None = None
        self.exact_done = False
        """The exact values were looked for (`exact` None then: not known here)."""
        self.curve: BudgetCurve | None = None
        self.with_curve = curve
        """Run measures the budget curve too (B measures it on its own)."""
        self.problem = self._problem()
        self.branching = 1.0 if self.problem else branching(state)
        self.sizes = [] if self.problem else tree_sizes(state, DEPTHS[-1])
        self.rows: list[Row] = []
        self.queue: list[tuple[str, int]] = []
        self.given_up: set[str] = set()
        self.pending: tuple[str, int, Estimate] | None = None
        self.message = ""
        self.view_depth = 0
        """The depth the table shows (Left / Right), 0 for the latest."""
        self.runner = CompareRunner()
        self.buttons: dict[Any, str] = {}
        self._chart_cache: tuple[Any, pygame.Surface] | None = None
        if autostart and not self.problem:
            self.start()

    # ------------------------------------------------------------------ the runs
    def _problem(self) -> str:
        """Why this position cannot be compared, or ''."""
        if self.state.is_terminal():
            return "The game is over: there is no move to compare."
        if self.state.to_move not in (0, 1):
            return "The dice are rolling: compare at a player's decision."
        return ""

    @property
    def running(self) -> bool:
        """Runs are under way or waiting."""
        return self.runner.busy or bool(self.queue) or self.pending is not None

    def start(self) -> None:
        """Forget earlier rows and run every variant at depths 1 to `depth`."""
        if self.problem:
            return
        self.cancel()
        self.rows, self.given_up, self.pending, self.message = [], set(), None, ""
        self.exact, self.exact_done, self.curve = None, False, None
        self.titles[MCTS_JOB] = mcts_title(MonteCarlo(iterations=self.mcts_iterations))
        self.view_depth = 0
        self.queue = [(key, d) for d in range(1, self.depth + 1) for key in self.variants]
        self.queue += [(job, 0) for job in AFTER_VARIANTS if job != CURVE_JOB or self.with_curve]
        self._chart_cache = None
        self._next()
        self._refresh_buttons()

    def measure_curve(self) -> None:
        """Measure the budget curve now (B), after any runs under way."""
        if self.problem or any(job == CURVE_JOB for job, _ in self.queue):
            return
        if self.runner.job is not None and self.runner.job[0] == CURVE_JOB:
            return
        self.curve, self._chart_cache = None, None
        self.queue.append((CURVE_JOB, 0))
        self._next()
        self._refresh_buttons()

    def cancel(self) -> None:
        """Stop the run under way and drop the waiting ones."""
        had_work = self.running
        self.queue.clear()
        self.pending = None
        if self.runner.busy:
            self.runner.cancel()
        if had_work:
            self.message = "Cancelled."
        self._refresh_buttons()

    def _next(self) -> None:
        """Start the next waiting run, or stop at one that would take too long."""
        while self.queue and not self.runner.busy and self.pending is None:
            key, depth = self.queue.pop(0)
            if key in AFTER_VARIANTS:
                option: Any = {
                    MCTS_JOB: self.mcts_iterations,
                    CURVE_JOB: (self.curve_budgets, self.curve_positions),
                }.get(key)
                self.runner.start(self.state, key, 0, self.heuristic, option)
                return
            guess = estimate(key, depth, self.branching, self.rows, sizes=self.sizes)
            if key in self.given_up:
                self._add(
                    Row(key, self.titles[key], depth, skipped=describe(guess), estimate=guess)
                )
                continue
            if guess.seconds > self.limit_seconds:
                self.pending = (key, depth, guess)
                self._refresh_buttons()
                return
            self.runner.start(self.state, key, depth, self.heuristic)

    def decide(self, run_anyway: bool) -> None:
        """Answer the offer to skip a long run."""
        if self.pending is None:
            return
        key, depth, guess = self.pending
        self.pending = None
        if run_anyway:
            self.runner.start(self.state, key, depth, self.heuristic)
        else:
            self.given_up.add(key)
            self._add(Row(key, self.titles[key], depth, skipped=describe(guess), estimate=guess))
            self._next()
        self._refresh_buttons()

    def _add(self, row: Row) -> None:
        """Add a finished (or skipped) run; one row per variant and depth (a run that ended
        just as Run restarted the comparison must not leave a twin)."""
        kept = [r for r in self.rows if (r.variant, r.depth) != (row.variant, row.depth)]
        self.rows = with_shares([*kept, row])
        self._chart_cache = None

    def comparison(self) -> Comparison:
        """The rows so far as a comparison (what the chart draws; MCTS's row apart)."""
        searched = [row for row in self.rows if row.variant != MCTS_JOB]
        mcts = next((row for row in self.rows if row.variant == MCTS_JOB), None)
        return Comparison(
            self.branching, searched, bool(self.state.STOCHASTIC), mcts=mcts, exact=self.exact
        )

    def shown_depth(self) -> int:
        """The depth whose rows the table shows: the one picked with the arrow keys, else the
        deepest with a row or the running one."""
        depths = [row.depth for row in self.rows if row.depth]
        if self.view_depth in depths:
            return self.view_depth
        if self.runner.job is not None and self.runner.job[1]:
            depths.append(self.runner.job[1])
        if self.pending is not None:
            depths.append(self.pending[1])
        return max(depths, default=self.depth)

    def animating(self) -> bool:
        """Runs are under way (their node counts and times tick up); a question waits still."""
        return bool(self.runner.busy or (self.queue and self.pending is None))

    def update(self, dt: float) -> None:
        """Collect finished runs and start the next."""
        job = self.runner.job[0] if self.runner.job is not None else ""
        finished, row, error = self.runner.poll()
        if finished:
            if isinstance(row, ExactValues) or (job == EXACT_JOB and not error and row is None):
                self.exact, self.exact_done = row, True
                self.rows = with_exact(self.rows, row)
            elif isinstance(row, BudgetCurve):
                self.curve = row
                self._chart_cache = None
            elif isinstance(row, Row) and row.variant == MCTS_JOB:
                self._add(row)
            elif row is not None:
                guess = estimate(
                    row.variant, row.depth, self.branching, self.rows, sizes=self.sizes
                )
                self._add(dataclasses.replace(row, estimate=guess))
            elif error:
                self.message = error
                self.queue.clear()
            self._next()
            self._refresh_buttons()

    def close(self) -> None:
        """Leaving the view cancels the runs and ends the worker."""
        self.queue.clear()
        self.pending = None
        self.runner.close()

    # ------------------------------------------------------------------ widgets
    def layout(self) -> dict[str, pygame.Rect]:
        """Where the controls, the table and the chart go."""
        m = self.app.metrics
        w, h = self.app.size
        top = m.pad + round(m.font_size(30) * 1.3) + round(m.font_size(14) * 1.8) + m.px(8)
        rows = len(self.variants) + 1  # and MCTS's
        titles = column_titles(self.titles, self.variants, self.shown_depth())
        inner = w - 2 * m.pad - 2 * m.pad  # the table card's width less its padding
        headers = header_height(m, header_lines(titles, inner, m.font_size(13)))
        table_h = m.px(20) + headers + rows * round(m.font_size(14) * 2.1)
        table_h += round(m.font_size(13) * 3.2) + (m.button_h + m.px(10) if self.pending else 0)
        table = pygame.Rect(m.pad, top, w - 2 * m.pad, table_h)
        chart_rect = pygame.Rect(m.pad, table.bottom + m.gap, w - 2 * m.pad, 0)
        chart_rect.height = max(m.px(120), h - m.pad - chart_rect.top)
        width = max(m.px(350), 400)
        controls = pygame.Rect(w - m.pad - width, m.pad, width, m.button_h)
        return {"table": table, "chart": chart_rect, "controls": controls}

    def build(self) -> None:
        """Depth menu, Run / Cancel, Back; Skip / Run anyway while a long run waits."""
        m = self.app.metrics
        spots = self.layout()
        controls = spots["controls"]
        self.buttons = {}
        gap = m.px(8)
        width = (controls.width - 3 * gap) // 4
        x = controls.left
        self.depth_choices = {f"depth {d}": d for d in DEPTHS}
        options = list(self.depth_choices)
        self.depth_menu = self.add(
            drop_down(
                list[str | tuple[str, str]](options),
                f"depth {self.depth}",
                pygame.Rect(x, controls.top, width + m.px(14), controls.height),
                self.manager,
            )
        )
        x += width + m.px(14) + gap
        width = (controls.right - x - 2 * gap) // 3
        for text, action, tip in (
            ("Run", "run", "run every algorithm at depths 1 to the chosen depth"),
            ("Cancel", "cancel", "stop the runs"),
            ("Back", "back", "Esc"),
        ):
            button = self.add(
                pygame_gui.elements.UIButton(
                    pygame.Rect(x, controls.top, width, controls.height),
                    text,
                    self.manager,
                    object_id="#primary" if action == "run" else None,
                    tool_tip_text=tip,
                )
            )
            self.buttons[button] = action
            x += width + gap
        if self.pending is not None:
            table = spots["table"]
            bw = m.px(130)
            y = table.bottom - m.px(12) - m.button_h
            for index, (text, action) in enumerate((("Run anyway", "anyway"), ("Skip", "skip"))):
                rect = pygame.Rect(
                    table.right - m.pad - (index + 1) * (bw + gap) + gap, y, bw, m.button_h
                )
                button = self.add(
                    pygame_gui.elements.UIButton(
                        rect,
                        text,
                        self.manager,
                        object_id="#primary" if action == "skip" else None,
                    )
                )
                self.buttons[button] = action
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        """Rebuild when the skip offer appears or goes; enable Cancel only while running."""
        offered = any(action in ("skip", "anyway") for action in self.buttons.values())
        if self.widgets and offered != (self.pending is not None):
            self.clear()
            self.build()
            return
        for button, action in self.buttons.items():
            if action == "cancel":
                if self.running:
                    button.enable()
                else:
                    button.disable()

    def keys_help(self) -> list[tuple[str, str]]:
        """Compare's keys."""
        from plyground.gui.app import COUNTS_HELP

        return [
            ("Enter", "run every algorithm to the depth chosen"),
            ("← →", "the table at the depth before / after"),
            ("B", "measure the budget curve: MCTS's optimal moves as its iterations grow"),
            ("Esc", "back (an open list closes first)"),
            ("Counts", COUNTS_HELP),
        ]

    def handle(self, event: pygame.event.Event) -> bool:
        """Buttons, the depth menu, Esc (back), Enter (run)."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            action = self.buttons[event.ui_element]
            if action == "back":
                self.app.pop()
            elif action == "run":
                self.start()
            elif action == "cancel":
                self.cancel()
            else:
                self.decide(run_anyway=action == "anyway")
            return True
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is getattr(
            self, "depth_menu", None
        ):
            self.depth = self.depth_choices.get(event.text, self.depth)
            return True
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
                return True
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.start()
                return True
            if event.key == pygame.K_b:
                self.measure_curve()
                return True
            if event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                depths = sorted({row.depth for row in self.rows if row.depth})
                if depths:
                    now = self.shown_depth()
                    step = -1 if event.key == pygame.K_LEFT else 1
                    index = depths.index(now) + step if now in depths else len(depths) - 1
                    self.view_depth = depths[max(0, min(len(depths) - 1, index))]
                return True
        return False

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Title, the table card, the chart card."""
        m = self.app.metrics
        moves = getattr(self.state, "ply", 0)
        heuristic = printable(Path(self.heuristic or self.game.default_heuristic).name)  # a file
        draw_heading(
            surface,
            self.app,
            "Compare the algorithms",
            f"{self.game.title} · position after {counted(moves, 'move')} · "
            f"heuristic “{heuristic}” · depth counts player decisions",
        )
        spots = self.layout()
        draw_table(surface, self.table_state(), m, spots["table"])
        card = spots["chart"]
        draw_card(surface, card, m.radius)
        self._draw_chart(surface, card.inflate(-2 * m.pad, -2 * m.px(16)))

    def table_state(self) -> TableState:
        """What the table shows, as plain data (the table never reads the scene)."""
        depth = self.shown_depth()
        return TableState(
            self.game,
            self.titles,
            [*self.variants, MCTS_JOB],
            self.rows,
            depth,
            self.status(depth),
            self.runner.job,
            self.runner.nodes,
            self.runner.elapsed,
            self.pending,
            self.running,
        )

    def status(self, depth: int) -> str:
        """The line under the table: what runs, what waits for an answer, or what was found."""
        done = sum(1 for row in self.rows if row.ran)
        total = len(self.variants) * self.depth + 1  # and MCTS's run
        if self.problem:
            return self.problem
        if self.pending is not None:
            key, at, guess = self.pending
            return (
                f"{self.titles[key]} at depth {at} would take about {duration(guess.seconds)}"
                f" ({counted(round(guess.nodes), 'node')} estimated): skip it or run it anyway."
            )
        job = self.runner.job[0] if self.runner.job is not None else ""
        if job == EXACT_JOB:
            return "Finding every move's exact value (a table, the book or a solve)…"
        if job == CURVE_JOB:
            return "Measuring the budget curve: MCTS and alpha-beta on a few positions…"
        if self.runner.busy:
            return f"Running {len(self.rows) + 1} of {total} · depth {depth} · cancel any time"
        if self.message:
            return self.message
        if self.rows:
            values = {row.value for row in self.rows if row.depth == depth and row.ran}
            agree = "same value" if len(values) <= 1 else "values differ"
            return (
                f"Done: {done} runs · {self.optimal_text()} · depth {depth} (← → others) · "
                f"{agree} · b = {self.branching:.1f}"
            )
        return "Choose a depth and press Run."

    def optimal_text(self) -> str:
        """The optimal moves and what says so ('optimal 1, 3, 7, 9 (solver)'), or why not."""
        if self.exact is None:
            return "exact values not known here" if self.exact_done else "exact values to come"
        moves = sorted(str(self.game.format_move(move)) for move in self.exact.optimal())
        return f"optimal {', '.join(moves)} ({self.exact.source})"

    def _draw_chart(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        waiting = any(job == CURVE_JOB for job, _ in self.queue) or self.runner.job is not None
        key = (rect.size, len(self.rows), self.app.metrics.scale, self.curve is None, waiting)
        if self._chart_cache is None or self._chart_cache[0] != key:
            image = pygame.Surface(rect.size, pygame.SRCALPHA)
            gap = self.app.metrics.gap
            left = pygame.Rect(0, 0, (rect.width - gap) * 11 // 20, rect.height)
            # the nodes chart's legend runs on under the curve, which has none of its own
            under = round(self.app.metrics.px(12) * 1.8)
            right = pygame.Rect(
                left.right + gap, 0, rect.width - left.width - gap, rect.height - under
            )
            figure = nodes_chart(self.comparison(), "Nodes searched by depth (log scale)")
            figure.note = theory_note(self.branching, bool(self.state.STOCHASTIC))
            if not self.rows:
                figure.series = []
                figure.x_range, figure.y_range = (0.5, self.depth + 0.5), (1.0, 1000.0)
                figure.x_ticks = [(float(d), str(d)) for d in range(1, self.depth + 1)]
            chart.draw(image, left, figure, self.app.metrics.scale)
            measuring = self.runner.job is not None and self.runner.job[0] == CURVE_JOB
            waiting = measuring or any(job == CURVE_JOB for job, _ in self.queue)
            figure = budget_chart(self.curve, waiting, self.curve_budgets)
            chart.draw(image, right, figure, self.app.metrics.scale)
            self._chart_cache = (key, image)
        surface.blit(self._chart_cache[1], rect)
