"""The explorer's tree as it is drawn: edges, nodes, cut-off stubs and the hover card.

Every function reads the explorer scene (its trace, step, layout and practice marks) and
draws; none changes anything.  The shapes (▲ MAX, ▼ MIN, ○ chance, ■ leaf) do not rely on
colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
from plyground.ai.trace import SHAPES, TraceNode
from plyground.ai.trace_render import cut_text, probability_text, sum_text, value_text, window_text
from plyground.gui import drawing, theme
from plyground.gui.explorer import board as explorer_board
from plyground.gui.explorer.layout import CUT, MORE, Layout, Placed

if TYPE_CHECKING:
    from plyground.gui.scenes.explorer import ExplorerScene

ROLE_COLOURS = {
    "max": theme.ACCENT,
    "min": theme.WARNING,
    "chance": theme.TEXT_DIM,
    "leaf": theme.TEXT,
}
NEVER = 1 << 30
"""A step no trace reaches: a cut that was never recorded is never drawn."""


@dataclass(frozen=True)
class TreeFrame:
    """What one frame of the tree needs to know, worked out once before drawing."""

    found: Layout
    positions: list[tuple[int, int]]
    at_end: bool
    current: int
    current_path: set[int]
    chosen: set[int]
    practice: bool
    radius: int
    small: int
    window_on_path: bool


def _frame(scene: ExplorerScene) -> TreeFrame:
    found = scene.current_layout()
    assert found is not None and scene.trace is not None
    m = scene.app.metrics
    at_end = scene.step >= len(scene.trace.events) - 1
    current = scene.trace.events[scene.step].node if scene.trace.events else 0
    practice = scene.guessing
    return TreeFrame(
        found=found,
        positions=[scene.node_pos(item) for item in found.items],
        at_end=at_end,
        current=current,
        current_path={n.id for n in scene.trace.path(current)},
        chosen=set(scene.trace.principal_path(scene.root_id)) if at_end and not practice else set(),
        practice=practice,
        radius=max(m.px(5), min(m.px(13), round(found.slot * 0.28))),
        small=max(11, min(m.font_size(13), round(found.slot * 0.32))),
        window_on_path=scene.trace.algorithm == "alphabeta" and not at_end and not practice,
    )


def visible(scene: ExplorerScene, node: TraceNode) -> bool:
    """Whether the stepper has reached `node` (in practice every node shows)."""
    return node.entered <= scene.step or scene.guessing


def draw_tree(surface: pygame.Surface, scene: ExplorerScene) -> None:
    """The tree as of the current step: edges and move labels first, then nodes and values."""
    frame = _frame(scene)
    _draw_edges(surface, scene, frame)
    _draw_nodes(surface, scene, frame)


def _draw_edges(surface: pygame.Surface, scene: ExplorerScene, frame: TreeFrame) -> None:
    """Edges (the chosen line and the current path stand out), their move labels, the
    dashed edges to cut stubs and the "… n" of folded levels."""
    assert scene.trace is not None
    m = scene.app.metrics
    found, positions, radius = frame.found, frame.positions, frame.radius
    for index, item in enumerate(found.items):
        if item.parent is None:
            continue
        node = scene.trace.nodes[item.node]
        parent_pos = positions[item.parent]
        pos = positions[index]
        if item.stub == CUT:
            if scene.cut_steps.get(item.node, NEVER) <= scene.step:
                dashed(surface, parent_pos, pos, theme.DANGER)
            continue
        if not visible(scene, node):
            continue
        if item.stub == MORE:
            drawing.draw_text(
                surface,
                f"… {item.hidden}",
                (pos[0], pos[1] - radius),
                frame.small,
                theme.TEXT_FAINT,
                anchor="midtop",
            )
            continue
        width = 1
        colour = theme.PANEL_BORDER
        if node.id in frame.chosen:
            width, colour = max(3, m.px(4)), theme.SUCCESS
        elif node.id in frame.current_path and not frame.at_end:
            width, colour = max(2, m.px(3)), theme.ACCENT
        pygame.draw.line(surface, colour, parent_pos, pos, width)
        if found.slot >= m.px(22):
            _draw_move_label(surface, scene, frame, item, node, (parent_pos, pos))


def _draw_move_label(
    surface: pygame.Surface,
    scene: ExplorerScene,
    frame: TreeFrame,
    item: Placed,
    node: TraceNode,
    edge: tuple[tuple[int, int], tuple[int, int]],
) -> None:
    """The move (and a chance outcome's probability) on its edge, if it fits."""
    m = scene.app.metrics
    (px, py), (x, y) = edge
    label = node.label
    if node.probability is not None:
        label = f"{label} · {probability_text(node.probability)}"
    mid = (px + (x - px) * 0.68, py + (y - py) * 0.68)
    size = frame.small if frame.found.slot >= m.px(40) else max(10, frame.small - 2)
    if drawing.text_size(label, size)[0] < item.span * 0.95 or item.level == 1:
        rect = drawing.text_surface(label, size, theme.TEXT_DIM).get_rect(center=mid)
        pygame.draw.rect(surface, theme.PANEL, rect.inflate(6, 2))
        surface.blit(drawing.text_surface(label, size, theme.TEXT_DIM), rect)


def _draw_nodes(surface: pygame.Surface, scene: ExplorerScene, frame: TreeFrame) -> None:
    """Nodes with their marks, α/β windows on the current path, values and cut stubs."""
    assert scene.trace is not None
    m = scene.app.metrics
    radius, small = frame.radius, frame.small
    for index, item in enumerate(frame.found.items):
        pos = frame.positions[index]
        node = scene.trace.nodes[item.node]
        if item.stub == CUT:
            if scene.cut_steps.get(item.node, NEVER) <= scene.step:
                draw_cut(surface, scene, item, node, pos, small)
            continue
        if item.stub or not visible(scene, node):
            continue
        if frame.practice and item.node in scene.practice_marks:
            drawing.circle(surface, theme.DANGER, pos, radius + m.px(5))
            drawing.circle(surface, theme.PANEL, pos, radius + m.px(3))
        if node.id == frame.current and not frame.at_end:
            drawing.glow(surface, theme.ACCENT, pos, radius * 2)
        shape(surface, node.kind, pos, radius, node.id in frame.chosen)
        if frame.window_on_path and node.id in frame.current_path and node.kind in ("max", "min"):
            alpha, beta = scene.window_at(node)
            drawing.draw_text(
                surface,
                window_text(scene.trace, alpha, beta)[1:-1],
                (pos[0] + radius + m.px(6), pos[1] - radius),
                max(10, small - 1),
                theme.ACCENT,
                "semibold",
                anchor="bottomleft",
            )
        text = _value_shown(scene, frame, node)
        if item.level <= 1 or drawing.text_size(text, small)[0] < item.span * 0.95:
            weight = "semibold" if item.level <= 1 else "regular"
            image = drawing.text_surface(text, small, theme.TEXT, weight)
            rect = image.get_rect(midtop=(pos[0], pos[1] + radius + m.px(3)))
            pygame.draw.rect(surface, theme.PANEL, rect.inflate(4, 0))
            surface.blit(image, rect)


def _value_shown(scene: ExplorerScene, frame: TreeFrame, node: TraceNode) -> str:
    """A node's value as of the step: "?" while practising, "…" before it has one."""
    assert scene.trace is not None
    value = node.value_at(scene.step)
    if frame.practice and node.kind != "leaf":
        return "?"
    if value is None:
        return "…"
    if 0 <= node.finished <= scene.step:
        return value_text(scene.trace, node, value)
    return scene.trace.format_value(value)


def dashed(
    surface: pygame.Surface, a: tuple[int, int], b: tuple[int, int], colour: theme.Colour
) -> None:
    """A dashed line from `a` to `b`."""
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


def draw_cut(
    surface: pygame.Surface,
    scene: ExplorerScene,
    item: Placed,
    node: TraceNode,
    pos: tuple[int, int],
    size: int,
) -> None:
    """One stub per cut-off: a scissors mark and what was skipped and why (as much as fits;
    hovering shows it all)."""
    assert scene.trace is not None
    m = scene.app.metrics
    icon = size
    room = item.span * 0.92 - icon - 4
    full = cut_text(scene.trace, node).removeprefix("✂ ")
    lines = drawing.wrap(full, int(room), size) if room >= m.px(100) else []
    if not lines or len(lines) > 6:
        # Too narrow for the sentence: the same facts in three short lines, if they fit.
        show = scene.trace.format_value
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
    scissors(surface, pygame.Rect(rect.x, rect.y + (line_h - icon) // 2, icon, icon), theme.DANGER)
    y = rect.y
    for line in lines:
        surface.blit(
            drawing.text_surface(line, size, theme.DANGER, "semibold"), (rect.x + icon + 4, y)
        )
        y += line_h


def shape(surface: pygame.Surface, kind: str, pos: tuple[int, int], r: int, thick: bool) -> None:
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


def _hover_lines(scene: ExplorerScene, item: Placed) -> tuple[list[str], list[str]]:
    """The hover card's sentences and its text board (empty for stubs)."""
    assert scene.trace is not None
    node = scene.trace.nodes[item.node]
    if item.stub == CUT:
        return [cut_text(scene.trace, node).replace("✂", "Cut:")], []
    if item.stub == MORE:
        return [
            f"{item.hidden} moves folded away: click to open, double-click to make "
            "this node the root"
        ], []
    name = "the root" if node.parent < 0 else node.label
    role = node.kind.upper() if node.kind in ("max", "min") else node.kind
    lines = [f"{SHAPES[node.kind]} {name}: {role}"]
    value = node.value_at(scene.step)
    if value is not None and not (scene.guessing and node.kind != "leaf"):
        lines.append(f"value {value_text(scene.trace, node, value)}")
    if scene.trace.algorithm == "alphabeta" and node.kind in ("max", "min"):
        lines.append(f"entered with {window_text(scene.trace, node.alpha, node.beta)}")
    if node.kind == "chance" and node.terms:
        lines.append(sum_text(scene.trace, node))
    return lines, board_text(scene, node)


def draw_hover(surface: pygame.Surface, scene: ExplorerScene, item: Placed) -> None:
    """A small card by the pointer: the node, its value, its position."""
    assert scene.trace is not None
    m = scene.app.metrics
    node = scene.trace.nodes[item.node]
    size = m.font_size(13)
    lines, board = _hover_lines(scene, item)
    width = min(m.px(360), scene.app.size[0] - 2 * m.pad)
    picture = 0
    if item.stub == "" and explorer_board.has_view(scene.trace.root_state):
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
    pos = scene.node_pos(item)
    card = pygame.Rect(pos[0] + m.px(16), pos[1] + m.px(10), width, height)
    card.clamp_ip(pygame.Rect((0, 0), scene.app.size))
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
        explorer_board.draw_position(surface, area, scene.trace.state_of(node.id))


def board_text(scene: ExplorerScene, node: TraceNode) -> list[str]:
    """The node's position as the game draws it in text (a few lines at most)."""
    assert scene.trace is not None
    try:
        state = scene.trace.state_of(node.id)
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


def draw_waiting(surface: pygame.Surface, scene: ExplorerScene) -> None:
    """In place of the tree while the search is recorded, or why it could not be."""
    m = scene.app.metrics
    text = scene.error or "Recording the search…"
    colour = theme.WARNING if scene.error else theme.TEXT_DIM
    y = scene.canvas.centery - m.px(20)
    for line in drawing.wrap(text, scene.canvas.width - 4 * m.pad, m.font_size(17)):
        drawing.draw_text(
            surface,
            line,
            (scene.canvas.centerx, y),
            m.font_size(17),
            colour,
            "semibold",
            anchor="midtop",
        )
        y += m.font_size(17) + m.px(8)
