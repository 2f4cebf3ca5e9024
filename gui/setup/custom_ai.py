"""The set-up screen's Custom AI fields for a side: the algorithm; a depth-limited search's
depth, heuristic and time limit, or Monte Carlo tree search's budget (iterations or seconds a
move), exploration constant and heuristic; randomness; the numbers beside the sliders, and
the cost warning."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground.ai.engine.search import MAX_DEPTH, MCTS, DepthLimited, MonteCarlo
from plyground.ai.evaluation.numbers import compact
from plyground.ai.evaluation.wording import counted
from plyground.ai.student_code.heuristics import is_heuristic_file
from plyground.games.base import State
from plyground.gui import theme
from plyground.gui.describe import ALGORITHM_NAMES, TIME_LIMITS, playout_text
from plyground.gui.setup import from_file
from plyground.gui.storage.settings import CUSTOM, SideSetup
from plyground.gui.widgets import drawing

if TYPE_CHECKING:
    from plyground.ai.players.players import SearchPlayer
    from plyground.games.base import Game
    from plyground.gui.setup.form import SetupForm

RANDOMNESS_MAX = 2.0
"""The custom randomness slider's range (`ai.players.players.SearchPlayer` allows 0-2)."""
RANDOMNESS_STEP = 0.05
MCTS_BUDGETS: tuple[tuple[str, int | None, float | None], ...] = (
    ("1,000 iterations", 1_000, None),
    ("4,000 iterations", 4_000, None),
    ("10,000 iterations", 10_000, None),
    ("40,000 iterations", 40_000, None),
    ("0.5 s a move", None, 0.5),
    ("1 s a move", None, 1.0),
    ("2 s a move", None, 2.0),
    ("5 s a move", None, 5.0),
)
"""Monte Carlo tree search's budgets a Custom AI offers: (label, iterations, seconds a move),
one of the two."""
MCTS_ITERATIONS = 4_000
"""A Custom AI's iterations when its algorithm becomes Monte Carlo tree search."""
EXPLORATION_MAX = 3.0
EXPLORATION_STEP = 0.1
DEPTH = 4
"""A Custom AI's depth when its algorithm leaves Monte Carlo tree search for a depth."""


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
    """The Custom AI's fields for side `index` (its card, the card's inner area and the
    fields' column: `rects`), and a note: algorithm, depth, heuristic, time limit and
    randomness, or for Monte Carlo tree search its budget and exploration instead of the depth
    and the time limit."""
    card, inner, field = rects
    m = form.metrics
    custom = side.custom
    limit_text = next((t for t, v in TIME_LIMITS if v == custom.time_limit), TIME_LIMITS[0][0])
    titles = [ALGORITHM_NAMES[a] for a in algorithms]
    heuristic_name = custom.heuristic or game.default_heuristic
    heuristics, shown = from_file.heuristic_options(side, game)
    algorithm_row = (
        "Algorithm",
        lambda r: form.dropdown(titles, ALGORITHM_NAMES[custom.algorithm], r, "algorithm", index),
    )
    heuristic_row = (
        "Heuristic",
        lambda r: form.dropdown(heuristics, shown, r, "heuristic", index),
    )
    rows: list[tuple[str, Any]]
    if isinstance(custom.search, MonteCarlo):
        budgets, budget = budget_options(custom)
        rows = [
            algorithm_row,
            ("Budget", lambda r: form.dropdown(budgets, budget, r, "budget", index)),
            ("Exploration", lambda r: exploration_slider(form, r, side, index)),
            heuristic_row,
            ("Randomness", lambda r: randomness_slider(form, r, side, index)),
        ]
    else:
        rows = [
            algorithm_row,
            ("Depth", lambda r: depth_slider(form, r, side, index)),
            heuristic_row,
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
    if isinstance(custom.search, MonteCarlo):  # the search in one line, and what a playout is
        from plyground.ai.players.players import blind_heuristic

        blind = blind_heuristic(game, custom.search)
        lines = [
            custom.search.describe(custom.time_limit, long=True, blind=blind),
            playout_text(shown, blind),
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


def budget_label(config: SearchPlayer) -> str:
    """Monte Carlo tree search's budget in the drop-down's words ("4,000 iterations")."""
    search = config.search
    iterations = search.iterations if isinstance(search, MonteCarlo) else None
    if iterations is not None:
        return f"{iterations:,} iterations"
    seconds = config.time_limit if config.time_limit is not None else None
    if seconds is not None:
        return f"{seconds:g} s a move"
    return f"{MonteCarlo().budget():,} iterations"


def budget_options(config: SearchPlayer) -> tuple[list[str], str]:
    """The budgets offered (the one chosen among them, even when not a usual one) and it."""
    labels = [label for label, _, _ in MCTS_BUDGETS]
    chosen = budget_label(config)
    return (labels if chosen in labels else [chosen, *labels]), chosen


def exploration_slider(form: SetupForm, rect: pygame.Rect, side: SideSetup, index: int) -> None:
    """UCB1's exploration constant c, 0 to EXPLORATION_MAX, with its number beside it."""
    search = side.custom.search
    value = search.exploration if isinstance(search, MonteCarlo) else MonteCarlo().exploration
    slider = number_slider(form, rect, value, EXPLORATION_MAX, EXPLORATION_STEP)
    slider.set_tooltip("UCB1's c: higher tries more moves, lower deepens the best ones")
    form.ids[slider] = ("exploration", index)
    form.exploration_values.append((index, number_rect(form, rect)))


def randomness_slider(form: SetupForm, rect: pygame.Rect, side: SideSetup, index: int) -> None:
    """How much each move's value is jittered, 0 to RANDOMNESS_MAX."""
    slider = number_slider(form, rect, side.custom.randomness, RANDOMNESS_MAX, RANDOMNESS_STEP)
    slider.set_tooltip("Each move's value is jittered by up to this much (0: always the best)")
    form.ids[slider] = ("randomness", index)
    form.randomness_values.append((index, number_rect(form, rect)))


def number_slider(
    form: SetupForm, rect: pygame.Rect, value: float, maximum: float, step: float
) -> pygame_gui.elements.UIHorizontalSlider:
    """A slider from 0 to `maximum` in `step`s, leaving `number_rect` at its right free for
    the number it sets."""
    return form.add(
        pygame_gui.elements.UIHorizontalSlider(
            pygame.Rect(rect.x, rect.y, rect.width - form.metrics.px(40) - 6, rect.height),
            min(value, maximum),
            (0.0, maximum),
            form.manager,
            click_increment=step,
        )
    )


def number_rect(form: SetupForm, rect: pygame.Rect) -> pygame.Rect:
    """Where a slider's number is drawn, at the right of its row."""
    value_w = form.metrics.px(40)
    return pygame.Rect(rect.right - value_w, rect.y, value_w, rect.height)


def snap_randomness(value: float) -> float:
    """A slider position as a randomness in whole steps."""
    return round(round(float(value) / RANDOMNESS_STEP) * RANDOMNESS_STEP, 2)


def shown_depth(config: SearchPlayer) -> int:
    """The depth the slider shows (a Custom AI always has one; no limit shows the deepest)."""
    search = config.search
    depth = search.depth if isinstance(search, DepthLimited) else DEPTH
    return MAX_DEPTH if depth is None else min(depth, MAX_DEPTH)


def shown_exploration(config: SearchPlayer) -> str:
    """The exploration constant beside its slider ("1.4")."""
    search = config.search
    return f"{search.exploration:.2g}" if isinstance(search, MonteCarlo) else ""


def changed(config: SearchPlayer, field: str, value: Any) -> SearchPlayer:
    """The Custom AI's config after its drop-down or slider `field` ("algorithm",
    "heuristic", "time", "depth", "budget", "exploration", "randomness") showed `value` (a
    title, a name or a number).  An algorithm of the other family starts from its defaults
    (`change_side` restores what the side had set aside)."""
    search = config.search
    if field == "algorithm":
        algorithm = next(a for a, title in ALGORITHM_NAMES.items() if title == value)
        if algorithm == MCTS:
            if isinstance(search, MonteCarlo):
                return config
            return replace(config, search=MonteCarlo(MCTS_ITERATIONS, heuristic=search.heuristic))
        if isinstance(search, MonteCarlo):
            return replace(config, search=DepthLimited(algorithm, DEPTH, search.heuristic))
        return replace(config, search=replace(search, algorithm=algorithm))
    if field == "heuristic":
        return replace(config, search=replace(search, heuristic=str(value)))
    if field == "time":
        return replace(config, time_limit=dict(TIME_LIMITS)[value])
    if field == "depth" and isinstance(search, DepthLimited):
        return replace(config, search=replace(search, depth=round(value)))
    if field == "budget" and isinstance(search, MonteCarlo):
        iterations, seconds = next(
            ((i, s) for label, i, s in MCTS_BUDGETS if label == value), (search.iterations, None)
        )
        return replace(config, search=replace(search, iterations=iterations), time_limit=seconds)
    if field == "exploration" and isinstance(search, MonteCarlo):
        snapped = round(round(float(value) / EXPLORATION_STEP) * EXPLORATION_STEP, 2)
        return replace(config, search=replace(search, exploration=snapped))
    if field == "randomness":
        return replace(config, randomness=snap_randomness(value))
    raise ValueError(f"a Custom AI with {config.algorithm} has no field {field!r}")


def change_side(side: SideSetup, field: str, value: Any) -> None:
    """Change side's Custom AI as `changed` does; when its algorithm changes family, the
    family it leaves is set aside and the one it had set aside comes back (the depth a side
    had before it tried MCTS, MCTS's budget it had before it went back to a depth)."""
    before = side.custom
    after = changed(before, field, value)
    kept = side.set_aside
    if type(after.search) is not type(before.search):
        if isinstance(after.search, MonteCarlo) and isinstance(kept, MonteCarlo):
            after = replace(after, search=replace(kept, heuristic=after.search.heuristic))
        elif isinstance(after.search, DepthLimited) and isinstance(kept, DepthLimited):
            restored = replace(kept, algorithm=after.search.algorithm)
            after = replace(after, search=replace(restored, heuristic=after.search.heuristic))
        if isinstance(after.search, MonteCarlo) and after.search.iterations is not None:
            after = replace(after, time_limit=None)  # one budget: its iterations
        side.set_aside = before.search
    side.custom = after


def side_warning(side: SideSetup, game: Game[Any], known: dict[tuple[Any, ...], str]) -> str:
    """The cost warning for `side` when it is a Custom AI ("" otherwise), kept in `known`."""
    if not side.is_ai or side.preset != CUSTOM:
        return ""
    search = side.custom.search
    if not isinstance(search, DepthLimited):
        return ""  # Monte Carlo tree search ends on its budget
    key = (search.algorithm, search.depth, side.custom.time_limit)
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
    numbers = [(r, str(shown_depth(sides[i].custom))) for i, r in form.depth_values]
    numbers += [(r, shown_exploration(sides[i].custom)) for i, r in form.exploration_values]
    numbers += [(r, f"{sides[i].custom.randomness:g}") for i, r in form.randomness_values]
    for rect, text in numbers:
        drawing.draw_text(
            surface, text, rect.center, m.font_size(16), theme.TEXT, "semibold", anchor="center"
        )
