"""The explorer's tree as it is drawn: edges, nodes, cut-off stubs, pruned subtrees and
the hover card.

Every function reads the explorer's model (its trace, step, layout and practice marks) and
draws where a `TreeCanvas` says; none changes anything.  The shapes (▲ MAX, ▼ MIN,
○ chance, ■ leaf) do not rely on colour.  The narrated node glows and the path from the
root to it is drawn thick.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from plyground.ai.textbook.trace import TraceNode
from plyground.ai.textbook.trace_text import (
    cut_text,
    probability_text,
    so_far_text,
    value_text,
    window_text,
)
from plyground.gui import theme
from plyground.gui.explorer.layout import CUT, MORE, PRUNED, Layout, Placed
from plyground.gui.explorer.model import ExplorerModel
from plyground.gui.explorer.pruned import NEVER_LOOKED
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

ROLE_COLOURS = {
    "max": theme.ACCENT,
    "min": theme.WARNING,
    "chance": theme.TEXT_DIM,
    "leaf": theme.TEXT,
}
NEVER = 1 << 30
"""A step no trace reaches: a cut that was never recorded is never drawn."""


@dataclass(frozen=True)
class TreeCanvas:
    """Where the tree goes on the screen: the scaled sizes, the canvas and the window."""

    m: Metrics
    rect: pygame.Rect
    window: tuple[int, int]

    def pos(self, item: Placed) -> tuple[int, int]:
        """An item's centre on the screen."""
        return (round(self.rect.x + item.x), round(self.rect.y + self.m.px(10) + item.y))

    def local(self, pos: tuple[int, int]) -> tuple[float, float]:
        """A screen point in the layout's coordinates."""
        return (pos[0] - self.rect.x, pos[1] - self.rect.y - self.m.px(10))


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
    right: int
    """The canvas's right edge: labels that would pass it go left of their node."""


def _frame(model: ExplorerModel, canvas: TreeCanvas) -> TreeFrame:
    found = model.current_layout()
    assert found is not None and model.trace is not None
    m = canvas.m
    at_end = model.at_end
    current = model.narrated
    practice = model.guessing
    return TreeFrame(
        found=found,
        positions=[canvas.pos(item) for item in found.items],
        at_end=at_end,
        current=current,
        current_path={n.id for n in model.trace.path(current)},
        chosen=set(model.trace.principal_path(model.root_id)) if at_end and not practice else set(),
        practice=practice,
        radius=max(m.px(5), min(m.px(13), round(found.slot * 0.28))),
        small=max(11, min(m.font_size(13), round(found.slot * 0.32))),
        window_on_path=model.window_shown and not at_end and not practice,
        right=canvas.rect.right - m.px(4),
    )


def draw_tree(surface: pygame.Surface, model: ExplorerModel, canvas: TreeCanvas) -> list[str]:
    """The tree as of the current step: edges and move labels first, then nodes and values;
    returns the values it wrote under the searched nodes (what the panel's key explains)."""
    frame = _frame(model, canvas)
    _draw_edges(surface, model, canvas.m, frame)
    written = _draw_nodes(surface, model, canvas.m, frame)
    _draw_pruned_notes(surface, model, canvas.m, frame)
    return written


def _draw_edges(
    surface: pygame.Surface, model: ExplorerModel, m: Metrics, frame: TreeFrame
) -> None:
    """Edges (the chosen line and the path to the narrated node stand out), their move
    labels, the dashed edges to cut stubs and pruned subtrees, the "… n" of folded levels."""
    found, positions, radius = frame.found, frame.positions, frame.radius
    for index, item in enumerate(found.items):
        if item.parent is None:
            continue
        node = model.node(item.node)
        parent_pos = positions[item.parent]
        pos = positions[index]
        if item.stub == CUT:
            if model.cut_steps.get(item.node, NEVER) <= model.step:
                dashed(surface, parent_pos, pos, theme.DANGER)
            continue
        if not model.visible(node):
            if model.whole_tree and item.stub != MORE:
                pygame.draw.line(
                    surface, theme.mix(theme.PANEL, theme.PANEL_BORDER, 0.6), parent_pos, pos, 1
                )
            continue
        if item.stub == PRUNED:
            dashed(surface, parent_pos, pos, theme.TEXT_FAINT)
            if found.slot >= m.px(22):
                _draw_move_label(surface, m, frame, item, node, (parent_pos, pos), theme.TEXT_FAINT)
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
            marked = frame.practice and item.node in model.practice.marks
            colour = theme.DANGER if marked else theme.TEXT_DIM
            _draw_move_label(surface, m, frame, item, node, (parent_pos, pos), colour)


def _draw_move_label(
    surface: pygame.Surface,
    m: Metrics,
    frame: TreeFrame,
    item: Placed,
    node: TraceNode,
    edge: tuple[tuple[int, int], tuple[int, int]],
    colour: theme.Colour,
) -> None:
    """The move (and a chance outcome's probability) on its edge, if it fits."""
    (px, py), (x, y) = edge
    label = node.label
    if node.probability is not None:
        label = f"{label} · {probability_text(node.probability)}"
    mid = (px + (x - px) * 0.68, py + (y - py) * 0.68)
    size = frame.small if frame.found.slot >= m.px(40) else max(10, frame.small - 2)
    if drawing.text_size(label, size)[0] < item.span * 0.95 or item.level == 1:
        image = drawing.text_surface(label, size, colour)
        rect = image.get_rect(center=mid)
        pygame.draw.rect(surface, theme.PANEL, rect.inflate(6, 2))
        drawing.blit_text(surface, label, image, rect)


def _draw_nodes(
    surface: pygame.Surface, model: ExplorerModel, m: Metrics, frame: TreeFrame
) -> list[str]:
    """Nodes with their marks, α/β windows on the current path, values, cut stubs and
    the greyed nodes of pruned subtrees; returns the values written under searched nodes."""
    assert model.trace is not None
    radius, small = frame.radius, frame.small
    written: list[str] = []
    for index, item in enumerate(frame.found.items):
        pos = frame.positions[index]
        node = model.node(item.node)
        if item.stub == CUT:
            if model.cut_steps.get(item.node, NEVER) <= model.step:
                draw_cut(surface, model, m, item, node, pos, small)
            continue
        if item.stub == MORE:
            continue
        if not model.visible(node):
            if model.whole_tree:
                _draw_future(surface, model, m, frame, item, node, pos)
            continue
        if item.stub == PRUNED:
            shape(surface, node.kind, pos, radius, False, theme.TEXT_FAINT)
            if node.value is not None:
                _value_label(
                    surface,
                    m,
                    item,
                    pos,
                    radius,
                    small,
                    model.trace.format_value(node.value),
                    theme.TEXT_FAINT,
                )
            continue
        if frame.practice and item.node in model.practice.marks:
            drawing.circle(surface, theme.DANGER, pos, radius + m.px(5))
            drawing.circle(surface, theme.PANEL, pos, radius + m.px(3))
        if node.id == frame.current and not frame.at_end:
            drawing.glow(surface, theme.ACCENT, pos, radius * 2)
            pygame.draw.circle(surface, theme.ACCENT, pos, radius + m.px(6), max(2, m.px(2)))
        shape(surface, node.kind, pos, radius, node.id in frame.chosen)
        if frame.window_on_path and node.id in frame.current_path and node.kind in ("max", "min"):
            alpha, beta = model.window_at(node)
            text = window_text(model.trace, alpha, beta)[1:-1]
            size = max(10, small - 1)
            left = pos[0] + radius + m.px(6) + drawing.text_size(text, size, "semibold")[0]
            anchor, x = "bottomleft", pos[0] + radius + m.px(6)
            if left > frame.right:
                anchor, x = "bottomright", pos[0] - radius - m.px(6)
            drawing.draw_text(
                surface, text, (x, pos[1] - radius), size, theme.ACCENT, "semibold", anchor=anchor
            )
        named = node.id in (frame.current, model.narrated_child) and not frame.at_end
        text = _value_shown(model, frame.practice, node)
        if _value_label(surface, m, item, pos, radius, small, text, theme.TEXT, always=named):
            written.append(text)
    return written


def _draw_future(
    surface: pygame.Surface,
    model: ExplorerModel,
    m: Metrics,
    frame: TreeFrame,
    item: Placed,
    node: TraceNode,
    pos: tuple[int, int],
) -> None:
    """A node the search has not reached yet, faint; a textbook leaf shows its given value."""
    assert model.trace is not None
    faint = theme.mix(theme.PANEL, theme.TEXT_FAINT, 0.45)
    shape(surface, node.kind, pos, frame.radius, False, faint)
    if node.kind == "leaf" and model.trace.raw_values and node.value is not None:
        text = model.trace.format_value(node.value)
        given = theme.mix(theme.PANEL, theme.TEXT_DIM, 0.7)
        _value_label(surface, m, item, pos, frame.radius, frame.small, text, given)


def _value_label(
    surface: pygame.Surface,
    m: Metrics,
    item: Placed,
    pos: tuple[int, int],
    radius: int,
    small: int,
    text: str,
    colour: theme.Colour,
    always: bool = False,
) -> bool:
    """A node's value under it, if it fits (always at the root, its children and the nodes
    the step narrates); whether it was written."""
    if always or item.level <= 1 or drawing.text_size(text, small)[0] < item.span * 0.95:
        weight = "semibold" if item.level <= 1 else "regular"
        image = drawing.text_surface(text, small, colour, weight)
        rect = image.get_rect(midtop=(pos[0], pos[1] + radius + m.px(3)))
        pygame.draw.rect(surface, theme.PANEL, rect.inflate(4, 0))
        drawing.blit_text(surface, text, image, rect)
        return True
    return False


def _draw_pruned_notes(
    surface: pygame.Surface, model: ExplorerModel, m: Metrics, frame: TreeFrame
) -> None:
    """ "alpha-beta never looked at these" over each group of pruned subtrees."""
    groups: dict[int, list[int]] = {}
    for index, item in enumerate(frame.found.items):
        if (
            item.stub == PRUNED
            and item.parent is not None
            and not model.pruned.is_ghost(frame.found.items[item.parent].node)
        ):
            groups.setdefault(item.parent, []).append(index)
    size = max(10, frame.small - 1)
    found = frame.found
    for members in groups.values():
        if not model.visible(model.node(found.items[members[0]].node)):
            continue
        ghosts = [i for i, item in enumerate(found.items) if _under(found, i, members)]
        xs = [frame.positions[i][0] for i in members]
        low = max(frame.positions[i][1] for i in ghosts)
        width = max(m.px(110), max(xs) - min(xs) + round(found.slot * 0.9))
        y = low + frame.radius + m.px(3) + round(frame.small * 1.5)
        for line in drawing.wrap(NEVER_LOOKED, width, size):
            image = drawing.text_surface(line, size, theme.TEXT_FAINT, "semibold")
            rect = image.get_rect(midtop=((min(xs) + max(xs)) // 2, y))
            pygame.draw.rect(surface, theme.PANEL, rect.inflate(6, 2))
            drawing.blit_text(surface, line, image, rect)
            y += round(size * 1.25)


def _under(found: Layout, index: int, tops: list[int]) -> bool:
    """Whether item `index` is one of `tops` or below one of them."""
    at: int | None = index
    while at is not None:
        if at in tops:
            return True
        at = found.items[at].parent
    return False


def _value_shown(model: ExplorerModel, practice: bool, node: TraceNode) -> str:
    """A node's value as of the step: "?" while practising, "…" before it has one, a bound
    ("≤ 3 so far") while it is being searched."""
    assert model.trace is not None
    value = node.value_at(model.step)
    if practice and node.kind != "leaf":
        return "?"
    if value is None:
        return "…"
    if 0 <= node.finished <= model.step:
        return value_text(model.trace, node, value)
    return so_far_text(model.trace, node, value)


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
    model: ExplorerModel,
    m: Metrics,
    item: Placed,
    node: TraceNode,
    pos: tuple[int, int],
    size: int,
) -> None:
    """One stub per cut-off: a scissors mark and what was skipped and why (as much as fits;
    hovering shows it all)."""
    assert model.trace is not None
    icon = size
    room = item.span * 0.92 - icon - 4
    full = cut_text(model.trace, node).removeprefix("✂ ")
    lines = drawing.wrap(full, int(room), size) if room >= m.px(100) else []
    if not lines or len(lines) > 6:
        # Too narrow for the sentence: the same facts in three short lines, if they fit.
        show = model.trace.format_value
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
        image = drawing.text_surface(line, size, theme.DANGER, "semibold")
        drawing.blit_text(surface, line, image, image.get_rect(topleft=(rect.x + icon + 4, y)))
        y += line_h


def shape(
    surface: pygame.Surface,
    kind: str,
    pos: tuple[int, int],
    r: int,
    thick: bool,
    colour: theme.Colour | None = None,
) -> None:
    """▲ MAX, ▼ MIN, ○ chance, ■ leaf: shapes that do not rely on colour."""
    colour = colour or ROLE_COLOURS[kind]
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


def draw_waiting(surface: pygame.Surface, model: ExplorerModel, canvas: TreeCanvas) -> None:
    """In place of the tree while the search is recorded, or why it could not be."""
    m = canvas.m
    text = model.error or "Recording the search…"
    colour = theme.WARNING if model.error else theme.TEXT_DIM
    y = canvas.rect.centery - m.px(20)
    for line in drawing.wrap(text, canvas.rect.width - 4 * m.pad, m.font_size(17)):
        drawing.draw_text(
            surface,
            line,
            (canvas.rect.centerx, y),
            m.font_size(17),
            colour,
            "semibold",
            anchor="midtop",
        )
        y += m.font_size(17) + m.px(8)
