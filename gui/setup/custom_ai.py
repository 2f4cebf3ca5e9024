"""The set-up screen's Custom AI fields: algorithm, depth, heuristic, time limit and
randomness for a side, the numbers beside the sliders, and the cost warning."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground.ai.engine.mcts.settings import DEFAULT_ITERATIONS, MCTS, MctsSettings
from plyground.ai.engine.search import MAX_DEPTH
from plyground.ai.evaluation.numbers import compact
from plyground.ai.evaluation.wording import counted
from plyground.ai.student_code.heuristics import is_heuristic_file
from plyground.games.base import State
from plyground.gui import theme
from plyground.gui.describe import ALGORITHM_NAMES, TIME_LIMITS
from plyground.gui.setup import from_file
from plyground.gui.storage.settings import CUSTOM, SideSetup
from plyground.gui.widgets import drawing

if TYPE_CHECKING:
    from plyground.ai.players.players import PlayerConfig
    from plyground.games.base import Game
    from plyground.gui.setup.form import SetupForm

RANDOMNESS_MAX = 2.0
"""The custom randomness slider's range (`ai.players.players.PlayerConfig` allows 0-2)."""
RANDOMNESS_STEP = 0.05
ITERATION_STEPS = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)
"""The iterations a Custom MCTS may take a move, one a slider step (a time limit, where one is
chosen, ends a move first if it comes first)."""


def cost_warning(
    state: State[Any], algorithm: str, depth: int | None, time_limit: float | None
) -> str:
    """A warning for a Custom AI whose search would take too long (`ai.engine.cost.judge`), with a
    time limit to try; "" when it finishes in reasonable time.  It never blocks the start."""
    from plyground.ai.engine import cost as ai_cost

    if algorithm not in ai_cost.NODES_PER_SECOND or state.is_terminal():
        return ""
    try:
        verdict = ai_cost.judge(state, algorithm, depth, time_limit)
    except Exception:  # an estimate is advice: without one, say nothing
        return ""
    if verdict.level == "ok":
        return ""
    what = "Solving" if depth is None else f"Depth {depth}"
    size = (
        f"about {counted(verdict.nodes, 'position', compact(verdict.nodes, words=True))}, "
        f"{ai_cost.format_duration(verdict.seconds)}, estimated"
    )
    if verdict.level == "refuse":
        return (
            f"{what} cannot finish in reasonable time ({size}). Choose a time limit such as "
            "10 s: the AI then plays its deepest finished search."
        )
    return f"{what} may take a while ({size}). A time limit such as 5 s keeps moves quick."


def build(
    form: SetupForm,
    side: SideSetup,
    index: int,
    game: Game[Any],
    algorithms: list[str],
    rects: tuple[pygame.Rect, pygame.Rect, pygame.Rect],
    y: int,
) -> None:
    """Algorithm, depth, heuristic, time limit and randomness for side `index` (its card,
    the card's inner area and the fields' column: `rects`), and a note."""
    card, inner, field = rects
    m = form.metrics
    custom = side.custom
    limit_text = next((t for t, v in TIME_LIMITS if v == custom.time_limit), TIME_LIMITS[0][0])
    titles = [ALGORITHM_NAMES[a] for a in algorithms]
    heuristic_name = custom.heuristic or game.default_heuristic
    heuristics, shown = from_file.heuristic_options(side, game)
    rows: list[tuple[str, Any]] = [
        (
            "Algorithm",
            lambda r: form.dropdown(
                titles, ALGORITHM_NAMES[custom.algorithm], r, "algorithm", index
            ),
        ),
        (
            ("Iterations", lambda r: iterations_slider(form, r, side, index))
            if custom.algorithm == MCTS
            else ("Depth", lambda r: depth_slider(form, r, side, index))
        ),
        (
            "Heuristic",
            lambda r: form.dropdown(heuristics, shown, r, "heuristic", index),
        ),
        (
            "Time limit",
            lambda r: form.dropdown([t for t, _ in TIME_LIMITS], limit_text, r, "time", index),
        ),
        ("Randomness", lambda r: randomness_slider(form, r, side, index)),
    ]
    # Build bottom-up so each drop-down's list is drawn above the fields below it.
    placed = []
    for label, _ in rows:
        placed.append((label, pygame.Rect(field.x, y, field.width, m.button_h)))
        y += m.button_h + m.gap
    for (label, rect), (_, make) in reversed(list(zip(placed, rows, strict=False))):
        make(rect)
        form.field_labels.append((index, label, (inner.x, rect.centery)))
    heuristic = game.heuristics.get(heuristic_name)
    note = heuristic.description if heuristic is not None else ""
    if is_heuristic_file(heuristic_name):
        note = f"evaluate(state) from {shown}, run in a worker process."
    dice = "Depth counts player decisions; dice rolls do not use it up."
    lines = [note, dice if game.stochastic else ""]
    if custom.algorithm == MCTS:  # first: what replaces the depth (the card may cut the rest)
        lines = [
            "MCTS has no depth: a move runs its iterations or stops at the time limit; its "
            "values are estimates from playouts.",
            note,
        ]
    form.descriptions.append((pygame.Rect(inner.x, y, inner.width, card.bottom - y), lines))


def depth_slider(form: SetupForm, rect: pygame.Rect, side: SideSetup, index: int) -> None:
    """The search depth, 1 to MAX_DEPTH, with its number beside it."""
    value_w = form.metrics.px(34)
    slider = form.add(
        pygame_gui.elements.UIHorizontalSlider(
            pygame.Rect(rect.x, rect.y, rect.width - value_w - 6, rect.height),
            shown_depth(side.custom),
            (1, MAX_DEPTH),
            form.manager,
            click_increment=1,
        )
    )
    form.ids[slider] = ("depth", index)
    form.depth_values.append(
        (index, pygame.Rect(rect.right - value_w, rect.y, value_w, rect.height))
    )


def iterations_slider(form: SetupForm, rect: pygame.Rect, side: SideSetup, index: int) -> None:
    """Monte Carlo tree search's iterations a move, one of ITERATION_STEPS, with the number
    beside it (in place of a depth: MCTS has none)."""
    value_w = form.metrics.px(34)
    slider = form.add(
        pygame_gui.elements.UIHorizontalSlider(
            pygame.Rect(rect.x, rect.y, rect.width - value_w - 6, rect.height),
            ITERATION_STEPS.index(shown_iterations(side.custom)),
            (0, len(ITERATION_STEPS) - 1),
            form.manager,
            click_increment=1,
        )
    )
    slider.set_tooltip("Iterations a move: select, expand, play out, back up")
    form.ids[slider] = ("iterations", index)
    form.depth_values.append(
        (index, pygame.Rect(rect.right - value_w, rect.y, value_w, rect.height))
    )


def shown_iterations(config: PlayerConfig) -> int:
    """The iterations the slider shows: the config's, at the nearest step."""
    wanted = (config.mcts.iterations if config.mcts else None) or DEFAULT_ITERATIONS
    return min(ITERATION_STEPS, key=lambda step: abs(step - wanted))


def shown_budget(config: PlayerConfig) -> str:
    """The number beside the depth slider, or beside the iterations slider for MCTS ('10k')."""
    if config.algorithm == MCTS:
        return compact(shown_iterations(config))
    return str(shown_depth(config))


def randomness_slider(form: SetupForm, rect: pygame.Rect, side: SideSetup, index: int) -> None:
    """How much each move's value is jittered, 0 to RANDOMNESS_MAX."""
    value_w = form.metrics.px(40)
    slider = form.add(
        pygame_gui.elements.UIHorizontalSlider(
            pygame.Rect(rect.x, rect.y, rect.width - value_w - 6, rect.height),
            min(side.custom.randomness, RANDOMNESS_MAX),
            (0.0, RANDOMNESS_MAX),
            form.manager,
            click_increment=RANDOMNESS_STEP,
        )
    )
    slider.set_tooltip("Each move's value is jittered by up to this much (0: always the best)")
    form.ids[slider] = ("randomness", index)
    form.randomness_values.append(
        (index, pygame.Rect(rect.right - value_w, rect.y, value_w, rect.height))
    )


def snap_randomness(value: float) -> float:
    """A slider position as a randomness in whole steps."""
    return round(round(float(value) / RANDOMNESS_STEP) * RANDOMNESS_STEP, 2)


def shown_depth(config: PlayerConfig) -> int:
    """The depth the slider shows (a Custom AI always has one; no limit shows the deepest)."""
    return MAX_DEPTH if config.depth is None else min(config.depth, MAX_DEPTH)


def changed(config: PlayerConfig, field: str, value: Any) -> PlayerConfig:
    """The Custom AI's config after its drop-down or slider `field` ("algorithm",
    "heuristic", "time", "depth", "iterations", "randomness") showed `value` (a title, a name
    or a number)."""
    if field == "algorithm":
        algorithm = next(a for a, title in ALGORITHM_NAMES.items() if title == value)
        return replace(config, algorithm=algorithm)
    if field == "heuristic":
        return replace(config, heuristic=str(value))
    if field == "time":
        return replace(config, time_limit=dict(TIME_LIMITS)[value])
    if field == "depth":
        return replace(config, depth=round(value))
    if field == "iterations":
        step = ITERATION_STEPS[max(0, min(len(ITERATION_STEPS) - 1, round(value)))]
        return replace(config, mcts=replace(config.mcts or MctsSettings(), iterations=step))
    if field == "randomness":
        return replace(config, randomness=snap_randomness(value))
    raise ValueError(f"a Custom AI has no field {field!r}")


def side_warning(side: SideSetup, game: Game[Any], known: dict[tuple[Any, ...], str]) -> str:
    """The cost warning for `side` when it is a Custom AI ("" otherwise), kept in `known`."""
    if not side.is_ai or side.preset != CUSTOM:
        return ""
    key = (side.custom.algorithm, side.custom.depth, side.custom.time_limit)
    if key not in known:
        known[key] = cost_warning(game.initial_state(), *key)
    return str(known[key])


def warning_box(form: SetupForm, index: int, text: str) -> tuple[pygame.Rect, list[str]] | None:
    """Where side `index`'s cost warning `text` goes (the bottom of its card), and its lines."""
    if not text or index >= len(form.card_rects):
        return None
    m = form.metrics
    card = form.card_rects[index]
    size = m.font_size(14)
    width = card.width - 2 * m.gap - m.px(24)
    lines = drawing.wrap(text, width, size)
    box = pygame.Rect(0, 0, width + m.px(16), round(size * 1.4) * len(lines) + m.px(12))
    box.midbottom = (card.centerx, card.bottom - m.px(10))
    return box, lines


def text_bottom(form: SetupForm, rect: pygame.Rect, warnings: list[str]) -> int:
    """How far a card's description may go: above the card's cost warning (`warnings`: each
    side's), if any."""
    for index, card in enumerate(form.card_rects):
        placed = warning_box(form, index, warnings[index]) if card.contains(rect) else None
        if placed is not None:
            return min(int(rect.bottom), int(placed[0].y - form.metrics.px(4)))
    return int(rect.bottom)


def draw_warnings(surface: pygame.Surface, form: SetupForm, warnings: list[str]) -> None:
    """Each Custom AI card's cost warning, in a box at the bottom of the card."""
    m = form.metrics
    size = m.font_size(14)
    line_h = round(size * 1.4)
    for index in range(len(form.card_rects)):
        placed = warning_box(form, index, warnings[index])
        if placed is None:
            continue
        box, lines = placed
        drawing.rounded_rect(
            surface,
            box,
            theme.mix(theme.PANEL, theme.WARNING, 0.12),
            m.px(8),
            1,
            theme.mix(theme.PANEL_BORDER, theme.WARNING, 0.6),
        )
        for i, line in enumerate(lines):
            pos = (box.x + m.px(8), box.y + m.px(6) + i * line_h)
            drawing.draw_text(surface, line, pos, size, theme.WARNING)


def draw_values(surface: pygame.Surface, form: SetupForm, sides: list[SideSetup]) -> None:
    """The field labels and the numbers beside the depth and randomness sliders."""
    m = form.metrics
    for _, label, pos in form.field_labels:
        drawing.draw_text(surface, label, pos, m.font_size(14), theme.TEXT_DIM, anchor="midleft")
    numbers = [(r, shown_budget(sides[i].custom)) for i, r in form.depth_values]
    numbers += [(r, f"{sides[i].custom.randomness:g}") for i, r in form.randomness_values]
    for rect, text in numbers:
        drawing.draw_text(
            surface, text, rect.center, m.font_size(16), theme.TEXT, "semibold", anchor="center"
        )
