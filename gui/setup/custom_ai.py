"""The set-up screen's Custom AI fields: algorithm, depth, heuristic, time limit and
randomness for a side, the numbers beside the sliders, and the cost warning."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

from plyground.ai.engine.search import MAX_DEPTH
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
    from plyground.gui.setup.scene import SetupScene

RANDOMNESS_MAX = 2.0
"""The custom randomness slider's range (`ai.players.players.PlayerConfig` allows 0-2)."""
RANDOMNESS_STEP = 0.05


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
        f"about {counted(verdict.nodes, 'position', ai_cost.format_count(verdict.nodes))}, "
        f"{ai_cost.format_duration(verdict.seconds)}, estimated"
    )
    if verdict.level == "refuse":
        return (
            f"{what} cannot finish in reasonable time ({size}). Choose a time limit such as "
            "10 s: the AI then plays its deepest finished search."
        )
    return f"{what} may take a while ({size}). A time limit such as 5 s keeps moves quick."


def build(scene: SetupScene, index: int, inner: pygame.Rect, field: pygame.Rect, y: int) -> None:
    """Algorithm, depth, heuristic, time limit and randomness for side `index`, and a note."""
    m = scene.app.metrics
    side = scene.sides[index]
    game = scene.game
    card = scene.card_rects[index]
    custom = side.custom
    limit_text = next((t for t, v in TIME_LIMITS if v == custom.time_limit), TIME_LIMITS[0][0])
    algorithms = [ALGORITHM_NAMES[a] for a in scene.algorithms]
    heuristic_name = custom.heuristic or game.default_heuristic
    heuristics, shown = from_file.heuristic_options(scene, side)
    rows: list[tuple[str, Any]] = [
        (
            "Algorithm",
            lambda r: scene.dropdown(
                algorithms, ALGORITHM_NAMES[custom.algorithm], r, "algorithm", index
            ),
        ),
        ("Depth", lambda r: depth_slider(scene, r, side, index)),
        (
            "Heuristic",
            lambda r: scene.dropdown(heuristics, shown, r, "heuristic", index),
        ),
        (
            "Time limit",
            lambda r: scene.dropdown([t for t, _ in TIME_LIMITS], limit_text, r, "time", index),
        ),
        ("Randomness", lambda r: randomness_slider(scene, r, side, index)),
    ]
    # Build bottom-up so each drop-down's list is drawn above the fields below it.
    placed = []
    for label, _ in rows:
        placed.append((label, pygame.Rect(field.x, y, field.width, m.button_h)))
        y += m.button_h + m.gap
    for (label, rect), (_, make) in reversed(list(zip(placed, rows, strict=False))):
        make(rect)
        scene.field_labels.append((index, label, (inner.x, rect.centery)))
    heuristic = game.heuristics.get(heuristic_name)
    note = heuristic.description if heuristic is not None else ""
    if is_heuristic_file(heuristic_name):
        note = f"evaluate(state) from {shown}, run in a worker process."
    dice = "Depth counts player decisions; dice rolls do not use it up."
    scene.descriptions.append(
        (
            pygame.Rect(inner.x, y, inner.width, card.bottom - y),
            [note, dice if game.stochastic else ""],
        )
    )


def depth_slider(scene: SetupScene, rect: pygame.Rect, side: SideSetup, index: int) -> None:
    """The search depth, 1 to MAX_DEPTH, with its number beside it."""
    value_w = scene.app.metrics.px(34)
    slider = scene.add(
        pygame_gui.elements.UIHorizontalSlider(
            pygame.Rect(rect.x, rect.y, rect.width - value_w - 6, rect.height),
            shown_depth(side.custom),
            (1, MAX_DEPTH),
            scene.manager,
            click_increment=1,
        )
    )
    scene.ids[slider] = ("depth", index)
    scene.depth_values.append(
        (index, pygame.Rect(rect.right - value_w, rect.y, value_w, rect.height))
    )


def randomness_slider(scene: SetupScene, rect: pygame.Rect, side: SideSetup, index: int) -> None:
    """How much each move's value is jittered, 0 to RANDOMNESS_MAX."""
    value_w = scene.app.metrics.px(40)
    slider = scene.add(
        pygame_gui.elements.UIHorizontalSlider(
            pygame.Rect(rect.x, rect.y, rect.width - value_w - 6, rect.height),
            min(side.custom.randomness, RANDOMNESS_MAX),
            (0.0, RANDOMNESS_MAX),
            scene.manager,
            click_increment=RANDOMNESS_STEP,
        )
    )
    slider.set_tooltip("Each move's value is jittered by up to this much (0: always the best)")
    scene.ids[slider] = ("randomness", index)
    scene.randomness_values.append(
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
    "heuristic", "time", "depth", "randomness") showed `value` (a title, a name or a number)."""
    if field == "algorithm":
        algorithm = next(a for a, title in ALGORITHM_NAMES.items() if title == value)
        return replace(config, algorithm=algorithm)
    if field == "heuristic":
        return replace(config, heuristic=str(value))
    if field == "time":
        return replace(config, time_limit=dict(TIME_LIMITS)[value])
    if field == "depth":
        return replace(config, depth=round(value))
    if field == "randomness":
        return replace(config, randomness=snap_randomness(value))
    raise ValueError(f"a Custom AI has no field {field!r}")


def side_warning(scene: SetupScene, index: int) -> str:
    """The cost warning for side `index` when it is a Custom AI ("" otherwise), cached."""
    side = scene.sides[index]
    if not side.is_ai or side.preset != CUSTOM:
        return ""
    key = (side.custom.algorithm, side.custom.depth, side.custom.time_limit)
    if key not in scene.cost_warnings:
        scene.cost_warnings[key] = cost_warning(scene.game.initial_state(), *key)
    return str(scene.cost_warnings[key])


def warning_box(scene: SetupScene, index: int) -> tuple[pygame.Rect, list[str]] | None:
    """Where side `index`'s cost warning goes (the bottom of its card), and its lines."""
    text = side_warning(scene, index)
    if not text or index >= len(scene.card_rects):
        return None
    m = scene.app.metrics
    card = scene.card_rects[index]
    size = m.font_size(14)
    width = card.width - 2 * m.gap - m.px(24)
    lines = drawing.wrap(text, width, size)
    box = pygame.Rect(0, 0, width + m.px(16), round(size * 1.4) * len(lines) + m.px(12))
    box.midbottom = (card.centerx, card.bottom - m.px(10))
    return box, lines


def text_bottom(scene: SetupScene, rect: pygame.Rect) -> int:
    """How far a card's description may go: above the card's cost warning, if any."""
    for index, card in enumerate(scene.card_rects):
        placed = warning_box(scene, index) if card.contains(rect) else None
        if placed is not None:
            return min(int(rect.bottom), int(placed[0].y - scene.app.metrics.px(4)))
    return int(rect.bottom)


def draw_warnings(surface: pygame.Surface, scene: SetupScene) -> None:
    """Each Custom AI card's cost warning, in a box at the bottom of the card."""
    m = scene.app.metrics
    size = m.font_size(14)
    line_h = round(size * 1.4)
    for index in range(len(scene.card_rects)):
        placed = warning_box(scene, index)
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


def draw_values(surface: pygame.Surface, scene: SetupScene) -> None:
    """The field labels and the numbers beside the depth and randomness sliders."""
    m = scene.app.metrics
    for _, label, pos in scene.field_labels:
        drawing.draw_text(surface, label, pos, m.font_size(14), theme.TEXT_DIM, anchor="midleft")
    numbers = [(r, str(shown_depth(scene.sides[i].custom))) for i, r in scene.depth_values]
    numbers += [(r, f"{scene.sides[i].custom.randomness:g}") for i, r in scene.randomness_values]
    for rect, text in numbers:
        drawing.draw_text(
            surface, text, rect.center, m.font_size(16), theme.TEXT, "semibold", anchor="center"
        )
