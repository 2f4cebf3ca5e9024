"""The explorer's hover card: the node under the pointer named by its path, its value (a
bound explained as a bound), its window, a chance node's sum, and its position (a small
board, or the game's text drawing); a pruned node says alpha-beta never looked at it.

Reads the explorer's model; changes nothing.
"""

from __future__ import annotations

import pygame

from plyground.ai.evaluation.wording import counted
from plyground.ai.textbook.trace import SHAPES, TraceNode
from plyground.ai.textbook.trace_text import (
    bound_text,
    cut_text,
    node_name,
    so_far_text,
    sum_text,
    value_text,
    window_text,
)
from plyground.gui import theme
from plyground.gui.explorer import board as explorer_board
from plyground.gui.explorer.layout import CUT, MORE, PRUNED, Placed
from plyground.gui.explorer.model import ExplorerModel
from plyground.gui.explorer.pruned import NEVER_LOOKED
from plyground.gui.explorer.tree_view import TreeCanvas
from plyground.gui.widgets import drawing


def _hover_lines(model: ExplorerModel, item: Placed) -> tuple[list[str], list[str]]:
    """The hover card's sentences and its text board (empty for stubs)."""
    found = model.trace
    assert found is not None
    node = model.node(item.node)
    if item.stub == CUT:
        return [cut_text(found, node).replace("✂", "Cut:")], []
    if item.stub == MORE:
        return [
            f"{counted(item.hidden, 'move')} folded away: click to open, double-click to make "
            "this node the root"
        ], []
    if item.stub == PRUNED:
        return _pruned_lines(model, node), []
    name = node_name(found, node)
    role = node.kind.upper() if node.kind in ("max", "min") else node.kind
    lines = [f"{SHAPES[node.kind]} {name}: {role}"]
    value = node.value_at(model.step)
    if value is not None and not (model.guessing and node.kind != "leaf"):
        if 0 <= node.finished <= model.step:
            lines.append(f"value {value_text(found, node, value)}")
            explained = bound_text(found, node)
            if explained:
                lines.append(explained)
        else:
            lines.append(f"value {so_far_text(found, node, value)}")
    if model.window_shown and node.kind in ("max", "min"):
        lines.append(f"entered with {window_text(found, node.alpha, node.beta)}")
    if node.kind == "chance" and node.terms:
        lines.append(sum_text(found, node))
    return lines, board_text(model, node)


def _pruned_lines(model: ExplorerModel, node: TraceNode) -> list[str]:
    """A pruned node's card: that alpha-beta never looked at it, why it could not matter,
    and its value where the tree carries one (worked out for the picture)."""
    found = model.trace
    assert found is not None
    cut = found.nodes[model.pruned.cut_of(node.id)]
    name, show = node_name(found, cut), found.format_value
    if cut.cut_by == "alpha":
        why = (
            f"{name} was already worth ≤ {show(cut.value)}, no better for MAX than "
            f"α = {show(cut.cut_bound)}: nothing below it could change MAX's choice."
        )
    else:
        why = (
            f"{name} was already worth ≥ {show(cut.value)}, as good for MAX as "
            f"β = {show(cut.cut_bound)}: MIN would never let the game get here."
        )
    lines = [f"{SHAPES[node.kind]} {node.label}: pruned ({NEVER_LOOKED})", why]
    if node.value is not None:
        lines.append(f"Its value, {show(node.value)}, is shown for the picture only.")
    return lines


def draw_hover(
    surface: pygame.Surface, model: ExplorerModel, canvas: TreeCanvas, item: Placed
) -> None:
    """A small card by the pointer: the node, its value, its position."""
    assert model.trace is not None
    m = canvas.m
    node = model.node(item.node)
    size = m.font_size(13)
    lines, board = _hover_lines(model, item)
    width = min(m.px(360), canvas.window[0] - 2 * m.pad)
    picture = 0
    root = model.trace.root_state
    if item.stub == "" and root is not None and explorer_board.has_view(root):
        picture, board = m.px(170), []
    mono = max(11, size)
    below = len(board) * round(mono * 1.25) + (m.px(6) if board else 0) + picture
    card, y = _text_card(surface, canvas, canvas.pos(item), lines, width, below)
    y += m.px(6)
    for line in board:
        surface.blit(_mono(mono).render(line, True, theme.TEXT_DIM), (card.x + m.gap, y))
        y += round(mono * 1.25)
    if picture:
        area = pygame.Rect(card.x + m.gap, y, card.width - 2 * m.gap, picture - m.gap)
        explorer_board.draw_position(surface, area, model.trace.state_of(node.id))


def _text_card(
    surface: pygame.Surface,
    canvas: TreeCanvas,
    xy: tuple[int, int],
    lines: list[str],
    width: int,
    below: int = 0,
) -> tuple[pygame.Rect, int]:
    """A card by the point `xy` with `lines` wrapped to `width` and `below` pixels more under
    them; returns the card and the y under its text."""
    m = canvas.m
    size = m.font_size(13)
    wrapped = [w for line in lines for w in drawing.wrap(line, width - 2 * m.gap, size)]
    height = len(wrapped) * round(size * 1.4) + 2 * m.gap + below
    card = pygame.Rect(xy[0] + m.px(16), xy[1] + m.px(10), width, height)
    card.clamp_ip(pygame.Rect((0, 0), canvas.window))
    drawing.rounded_rect(surface, card, theme.PANEL_RAISED, m.px(8), 1, theme.PANEL_BORDER)
    y = card.y + m.gap
    for line in wrapped:
        drawing.draw_text(surface, line, (card.x + m.gap, y), size, theme.TEXT)
        y += round(size * 1.4)
    return card, y


def draw_mcts_hover(
    surface: pygame.Surface, model: ExplorerModel, canvas: TreeCanvas, node: int
) -> None:
    """MCTS: a card by the node under the pointer: its move path, N, U, U/N and UCB1 at its
    parent (`MctsSteps.hover_lines`)."""
    steps, found = model.mcts, model.mcts_layout()
    if steps is None or found is None:
        return
    spot = found.spot_of(node)
    lines = steps.hover_lines(model.step, node)
    if spot is None or not lines:
        return
    m = canvas.m
    xy = (round(canvas.rect.x + spot.x), round(canvas.rect.y + m.px(10) + spot.y))
    _text_card(surface, canvas, xy, lines, min(m.px(380), canvas.window[0] - 2 * m.pad))


def board_text(model: ExplorerModel, node: TraceNode) -> list[str]:
    """The node's position as the game draws it in text (a few lines at most)."""
    assert model.trace is not None
    try:
        state = model.trace.state_of(node.id)
        render = getattr(state.game, "render", None)
        text = render(state) if render is not None else ""
    except Exception:  # a game without a text drawing: the card shows no board
        return []
    return [line for line in str(text).splitlines() if line.strip()][:9]


_MONO: dict[int, pygame.font.Font] = {}


def _mono(size: int) -> pygame.font.Font:
    """A monospaced font for the small text board."""
    font = _MONO.get(size)
    if font is None:
        font = pygame.font.SysFont("dejavusansmono,monospace", size)
        _MONO[size] = font
    return font
