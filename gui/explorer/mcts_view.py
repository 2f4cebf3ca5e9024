"""The explorer's Monte Carlo tree search: the growing tree and its side panel.

The tree is drawn by visits (a node's size and its edge's width grow with N), every node
labelled with its estimate "○ U/N · N"; the step's phase is named and drawn in its own
colour: the selection path with each child's UCB1, the node added, the playout as a dashed
line with its result, the back-up path with the updated counts.  Everything is read from
the explorer's model (`model.mcts`, `model.step`) and nothing here changes it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from plyground.ai.textbook.mcts_text import scores_note
from plyground.games.trees import examples as tree_examples
from plyground.gui import theme
from plyground.gui.explorer.mcts_steps import (
    BACKPROPAGATION,
    DEEPER,
    EXPANSION,
    FOLD,
    PHASE_TITLES,
    PHASES,
    SELECTION,
    SIMULATION,
    Highlight,
    MctsSteps,
    estimate_text,
    result_text,
    ucb_text,
)
from plyground.gui.explorer.model import ExplorerModel

if TYPE_CHECKING:
    from plyground.ai.textbook.mcts_trace import MctsTreeNode
from plyground.gui.explorer.panel import PanelWriter
from plyground.gui.explorer.tree_view import TreeCanvas, dashed
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

PHASE_COLOURS: dict[str, theme.Colour] = {
    SELECTION: theme.ACCENT,
    EXPANSION: (88, 214, 141),
    SIMULATION: theme.WARNING,
    BACKPROPAGATION: (196, 128, 255),
}
"""Each phase's colour (its name is always written beside it: colour is never alone)."""
EDGE = theme.mix(theme.PANEL, theme.TEXT_FAINT, 0.8)
WIDEST_MCTS_LABEL = "○ 0.00 · "
"""A node's label before its N (the scene sizes the slots to it, N's digits added)."""
WIDEST_UCB_LABEL = "UCB1 0.00"
"""The widest UCB1 label under a node at a select step."""


def mcts_label_size(m: Metrics) -> int:
    """The text size of the tree's labels."""
    return m.font_size(12)


def draw_mcts_tree(surface: pygame.Surface, model: ExplorerModel, canvas: TreeCanvas) -> None:
    """The tree as of the current step, the phase's nodes and edges in its colour."""
    steps, found = model.mcts, model.mcts_layout()
    assert steps is not None and found is not None
    m = canvas.m
    step = model.step
    tree = steps.tree(step)
    light = steps.highlight(step)
    colour = PHASE_COLOURS.get(light.phase, theme.TEXT)
    root_n = max(1, tree[0].N if 0 in tree else 1)
    top = canvas.rect.y + m.px(10)
    pos = {
        s.node: (round(canvas.rect.x + s.x), round(top + s.y)) for s in found.spots if s.node >= 0
    }
    small = mcts_label_size(m)
    lit_edges = _lit_edges(light)
    biggest = max(
        m.px(6), min(m.px(17), round(found.slot * 0.22), round(found.level_height * 0.22))
    )

    def radius(n: int) -> int:
        return max(m.px(4), round(biggest * math.sqrt(n / root_n))) if n else m.px(4)

    for spot in found.spots:  # edges first
        if spot.parent is None or spot.parent not in pos:
            continue
        a = pos[spot.parent]
        b = (round(canvas.rect.x + spot.x), round(top + spot.y))
        if spot.node < 0:
            pygame.draw.line(surface, theme.mix(theme.PANEL, EDGE, 0.6), a, (b[0], b[1] - small), 1)
            continue
        node = tree[spot.node]
        width = 1 + round(m.px(7) * node.N / root_n)
        lit = (spot.parent, spot.node) in lit_edges
        pygame.draw.line(surface, colour if lit else EDGE, a, b, width + (2 if lit else 0))
    taken = []  # where the nodes' labels go: a move's label on its edge keeps clear of them
    for spot in found.spots:
        if spot.node >= 0:
            node = tree[spot.node]
            taken += _label_rects(m, node, pos[spot.node], radius(node.N), light)
    for spot in found.spots:  # move labels on the edges, then nodes and their estimates
        if spot.node < 0 or spot.parent is None or spot.parent not in pos:
            continue
        a, b = pos[spot.parent], pos[spot.node]
        move = drawing.ellipsize(tree[spot.node].move or "", round(found.slot) - m.px(6), small)
        size = drawing.text_size(move, small)
        for t in (0.5, 0.62, 0.38, 0.72):
            at = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            box = pygame.Rect(0, 0, size[0] + 6, size[1] + 2)
            box.center = (round(at[0]), round(at[1]))
            if box.collidelist(taken) < 0:
                _plate(surface, move, at, small, theme.TEXT_DIM)
                taken.append(box)
                break
    for spot in found.spots:
        xy = (round(canvas.rect.x + spot.x), round(top + spot.y))
        if spot.node == FOLD:
            drawing.draw_text(
                surface, f"+{spot.hidden} more", xy, small, theme.TEXT_DIM, anchor="midtop"
            )
            continue
        if spot.node == DEEPER:
            drawing.draw_text(
                surface, f"… {spot.hidden}", xy, small, theme.TEXT_FAINT, anchor="midtop"
            )
            continue
        _draw_node(surface, m, tree[spot.node], xy, radius(tree[spot.node].N), light, found.slot)
    if light.playout_from is not None and light.playout_from in pos:
        _draw_playout(
            surface, canvas, steps, step, pos[light.playout_from], small, found.level_height
        )
    _draw_phase_badge(surface, canvas, steps, step)


def _label_rects(
    m: Metrics, node: MctsTreeNode, xy: tuple[int, int], r: int, light: Highlight
) -> list[pygame.Rect]:
    """Where a node's estimate (and, at a select step, its UCB1) go under it (as plates)."""
    small = mcts_label_size(m)
    text = f"N = {node.N}" if node.id == 0 else estimate_text(node)
    y = xy[1] + r + m.px(3)
    rects = []
    for line, top in ((text, y), ("UCB1 0.00", y + small + m.px(2))):
        if line.startswith("UCB1") and node.id not in light.ucb:
            continue
        width, height = drawing.text_size(line, small, "bold")
        rect = pygame.Rect(0, 0, width + 6, height + 2)
        rect.midtop = (xy[0], top)
        rects.append(rect)
    return rects


def _draw_node(
    surface: pygame.Surface,
    m: Metrics,
    node: MctsTreeNode,
    xy: tuple[int, int],
    r: int,
    light: Highlight,
    slot: float,
) -> None:
    """One node: a circle (a diamond where the dice decide) in the phase's colour if the
    step is about it, its estimate under it and, at a select step, its UCB1."""
    colour = PHASE_COLOURS.get(light.phase, theme.TEXT)
    small = mcts_label_size(m)
    lit = _lit(light, node.id)
    fill = colour if lit else theme.PANEL_RAISED
    border = colour if lit or node.id == light.chosen else theme.TEXT_DIM
    if node.id == light.chosen and light.event.kind in ("expand", "decide", "select"):
        pygame.draw.circle(surface, colour, xy, r + m.px(5), max(2, m.px(2)))
    if node.chance:  # the dice decide here: a diamond, as a die's corner
        corners = [(xy[0], xy[1] - r - 1), (xy[0] + r + 1, xy[1]), (xy[0], xy[1] + r + 1)]
        corners.append((xy[0] - r - 1, xy[1]))
        pygame.draw.polygon(surface, fill, corners)
        pygame.draw.polygon(surface, border, corners, max(1, m.px(2)))
    else:
        pygame.draw.circle(surface, fill, xy, r)
        pygame.draw.circle(surface, border, xy, r, max(1, m.px(2)))
    text = f"N = {node.N}" if node.id == 0 else estimate_text(node)
    label = drawing.ellipsize(text, round(slot) - m.px(4), small)
    y = xy[1] + r + m.px(3)
    _plate(surface, label, (xy[0], y + small / 2 + 1), small, theme.TEXT)
    ucb = light.ucb if light.event.kind == "select" else {}
    if node.id in ucb:
        text = drawing.ellipsize(f"UCB1 {ucb_text(ucb[node.id])}", round(slot) - m.px(4), small)
        weight = "bold" if node.id == light.chosen else "regular"
        centre = (xy[0], y + small + m.px(2) + small / 2 + 1)
        _plate(surface, text, centre, small, colour, weight)


def _lit_edges(light: Highlight) -> set[tuple[int, int]]:
    """The (parent, child) edges the phase draws in its colour."""
    line = list(light.path) if light.phase != BACKPROPAGATION else list(light.backed)[::-1]
    if (
        light.event.kind == "expand"
        and light.chosen is not None
        and light.chosen != light.event.node
    ):
        line.append(light.chosen)
    if light.event.kind == "decide" and light.chosen is not None:
        line = [0, light.chosen]
    return set(itertools.pairwise(line))


def _lit(light: Highlight, node: int) -> bool:
    """Whether a node is drawn in the phase's colour."""
    kind = light.event.kind
    if kind == "backup":
        return node in light.backed
    if kind == "expand":
        return node == light.chosen or node in light.path
    if kind == "playout":
        return node == light.playout_from
    if kind == "decide":
        return node == light.chosen
    return node in light.path


def _plate(
    surface: pygame.Surface,
    text: str,
    centre: tuple[float, float],
    size: int,
    colour: theme.Colour,
    weight: str = "regular",
) -> None:
    """A small label on a plate of the canvas's colour (over the edges it crosses)."""
    if not text:
        return
    image = drawing.text_surface(text, size, colour, weight)
    rect = image.get_rect(center=(round(centre[0]), round(centre[1])))
    pygame.draw.rect(surface, theme.PANEL, rect.inflate(6, 2), border_radius=4)
    drawing.blit_text(surface, text, image, rect)


def _draw_playout(
    surface: pygame.Surface,
    canvas: TreeCanvas,
    steps: MctsSteps,
    step: int,
    start: tuple[int, int],
    size: int,
    level_height: float,
) -> None:
    """The playout: a dashed line down from its node to its result."""
    m = canvas.m
    event = steps.event(step)
    colour = PHASE_COLOURS[SIMULATION]
    length = max(m.px(60), round(level_height * 1.2))
    end_y = min(canvas.rect.bottom - m.px(8) - 2 * size, start[1] + length)
    end = (start[0], end_y)
    begin = start[1] + m.px(8) + size + m.px(6)
    end = (start[0], max(end_y, begin + m.px(20)))
    dashed(surface, (start[0], begin), end, colour)
    dashed(surface, (start[0] + 1, begin), (end[0] + 1, end[1]), colour)
    result = result_text(event.result if event.result is not None else 0.5)
    count = len(event.moves)
    text = f"{count} random move{'s' if count != 1 else ''} → {result}"
    if not count:
        text = f"the game is over here → {result}"
    width = drawing.text_size(text, size, "semibold")[0]
    room = canvas.rect.width - m.px(12)
    text = drawing.ellipsize(text, room, size, "semibold")
    half = min(width, room) / 2 + m.px(4)
    x = max(canvas.rect.x + half + m.px(2), min(canvas.rect.right - half - m.px(2), end[0]))
    rect = pygame.Rect(0, 0, round(2 * half), size + m.px(8))
    rect.midtop = (round(x), end[1] + m.px(2))
    drawing.rounded_rect(surface, rect, theme.PANEL_RAISED, m.px(6), 1, colour)
    drawing.draw_text(surface, text, rect.center, size, colour, "semibold", anchor="center")


def _draw_phase_badge(
    surface: pygame.Surface, canvas: TreeCanvas, steps: MctsSteps, step: int
) -> None:
    """The canvas's top left: the iteration and the phase, in the phase's colour."""
    m = canvas.m
    phase = steps.phase(step)
    size = m.font_size(14)
    event = steps.event(step)
    if event.kind == "decide":
        text = f"Done: {steps.iterations} iterations"
        colour = theme.TEXT_DIM
    else:
        number = PHASES.index(phase) + 1 if phase in PHASES else 0
        text = f"Iteration {event.iteration} · {number}. {PHASE_TITLES.get(phase, phase)}"
        colour = PHASE_COLOURS.get(phase, theme.ACCENT)
    width = drawing.text_size(text, size, "semibold")[0] + m.px(16)
    rect = pygame.Rect(canvas.rect.x + m.px(8), canvas.rect.y + m.px(8), width, size + m.px(10))
    drawing.rounded_rect(surface, rect, theme.PANEL_RAISED, m.px(8), 2, colour)
    drawing.draw_text(surface, text, rect.center, size, colour, "semibold", anchor="center")


# ---------------------------------------------------------------------- the panel
PANEL_FITS = (
    *((14, 0), (13, 0), (12, 0), (11, 0), (12, 1), (11, 1), (11, 2), (10, 2)),
    *((12, 3), (11, 3), (10, 3), (11, 4), (10, 4)),
)
"""The panel's (text size, level) tried in turn, the most readable first: level 1 writes the
key in one short line, level 2 also leaves out the counts and shows two root moves, level 3
(a lesson's long text) also the settings' summary (the drop-downs show them) and the root's
moves, level 4 (a lesson in a small window) only the lesson and what happens now: the tree
names the phase and shows each child's UCB1 and the playout's result, the lesson says the
values are estimates."""
_FITS: dict[tuple[object, ...], int] = {}


def draw_mcts_panel(
    surface: pygame.Surface, model: ExplorerModel, m: Metrics, panel: pygame.Rect
) -> None:
    """The panel: the lesson, the settings, the four phases (the current one lit), what
    happens now, the step's details and the root's moves."""
    steps = model.mcts
    assert steps is not None
    key = (id(steps), panel.size, m.font_size(14), model.lesson, model.variant)
    first = _FITS.get(key)
    if first is None:
        first = _fit(surface, model, steps, m, panel, _sample_steps(steps), 0)
    # A step longer than the samples: tighter from now on (it never grows back mid-search).
    first = _fit(surface, model, steps, m, panel, [model.step], first)
    _FITS[key] = first
    points, level = PANEL_FITS[first]
    _write(PanelWriter(surface, panel, m, points, level=level), model, steps, model.step)


def _fit(
    surface: pygame.Surface,
    model: ExplorerModel,
    steps: MctsSteps,
    m: Metrics,
    panel: pygame.Rect,
    samples: list[int],
    start: int,
) -> int:
    """The index of the first of `PANEL_FITS` (from `start`) at which the panel of every
    step in `samples` fits (else the last)."""
    for index in range(start, len(PANEL_FITS)):
        points, level = PANEL_FITS[index]
        out = PanelWriter(surface, panel, m, points, dry=True, level=level)
        if all(_write(out, model, steps, s) <= out.bottom for s in samples):
            return index
    return len(PANEL_FITS) - 1


def _sample_steps(steps: MctsSteps) -> list[int]:
    """Steps of every kind, spread over the search (the panel is sized to fit them all)."""
    by_kind: dict[str, list[int]] = {}
    for index in range(steps.last_step + 1):
        by_kind.setdefault(steps.event(index).kind, []).append(index)
    chosen: set[int] = set()
    for found in by_kind.values():
        count = min(len(found), 12)
        chosen.update(found[round(i * (len(found) - 1) / max(1, count - 1))] for i in range(count))
    return sorted(chosen)


def _write(out: PanelWriter, model: ExplorerModel, steps: MctsSteps, step: int) -> int:
    """Write (or measure) the panel as of `step`; returns the y below the last line."""
    m = out.m
    y = out.panel.y + m.gap
    if model.lesson is not None and 0 <= model.lesson < len(tree_examples.TRACE_LESSONS):
        lesson = tree_examples.TRACE_LESSONS[model.lesson]
        y = out.section("Lesson", y)
        y = out.lines(lesson.text_for(model.variant), y, theme.TEXT_DIM) + m.px(6)
    note = scores_note(steps.trace.state)
    if note:
        y = out.lines(note, y, theme.TEXT) + m.px(6)
    bare = out.level >= 4
    if out.level < 3:
        y = out.section("Monte Carlo tree search", y)
        summary = (
            f"{steps.iterations} iterations · seed {steps.seed} · c = {steps.c:.2f}. "
            "UCB1 = U/N + c·√(ln N(parent) / N)"
        )
        y = out.lines(summary, y, theme.TEXT_DIM) + m.px(6)
    if not bare:
        y = _phase_chips(out, steps, step, y) + m.px(8)
    y = out.section("Now", y)
    y = out.lines(steps.sentence(step), y, theme.TEXT, "semibold") + m.px(6)
    if bare:  # the tree shows each child's UCB1 and the playout's result
        return y
    event = steps.event(step)
    tree = steps.tree(step)
    if event.kind == "select" and event.ucb:
        y = out.section("UCB1 of each child", y)
        for child, value in sorted(event.ucb, key=lambda cv: -cv[1])[: 3 if out.brief else 5]:
            node = tree.get(child)
            if node is None:
                continue
            mark = "→ " if child == event.child else ""
            colours = (
                (theme.TEXT, PHASE_COLOURS[SELECTION]) if mark else (theme.TEXT_DIM, theme.TEXT)
            )
            out.row(f"{mark}{node.move}  {estimate_text(node)}", ucb_text(value), y, colours)
            y += round(out.size * 1.4)
    elif event.kind == "playout" and event.moves:
        y = out.section("Playout", y)
        y = out.lines(playout_text(event.moves), y, theme.TEXT_DIM)
    if out.level < 3:
        y = _root_moves(out, steps, step, y + m.px(6), 2 if out.brief else 4)
    if not out.brief:
        tally = steps.trace.counts_at(step + 1)
        y = out.section("Counts so far", y + m.px(6))
        y = out.lines(
            f"{tally.iterations} iterations · {tally.tree_nodes} tree nodes · "
            f"{tally.playouts} playouts of {tally.playout_plies} plies",
            y,
            theme.TEXT_DIM,
        )
    key = (
        "○ 0.62 · 40: an estimate, not an exact value: U/N, the share of the 40 iterations "
        "through the node won by the side that moved into it (draws count half)."
    )
    if out.level >= 1:
        key = "○ U/N · N: an estimate from N iterations, never exact."
    else:
        y = out.section("Key", y + m.px(6))
        if any(node.chance for node in tree.values()):
            key += " A diamond: the dice decide there (drawn by probability, not by UCB1)."
    return out.lines(key, y + m.px(4), theme.TEXT_DIM, limit=None if out.dry else out.bottom)


def playout_text(moves: Sequence[str], ends: int = 6) -> str:
    """A playout's moves; a long one as its first and last few, and how many in all."""
    if len(moves) <= 2 * ends + 2:
        return " ".join(moves)
    return f"{' '.join(moves[:ends])} … {' '.join(moves[-ends:])} ({len(moves)} moves)"


def _phase_chips(out: PanelWriter, steps: MctsSteps, step: int, y: int) -> int:
    """The four phases as a 2x2 grid, the current one filled in its colour."""
    m = out.m
    phase = steps.phase(step)
    done = steps.event(step).kind == "decide"
    gap = m.px(6)
    width = (out.right - out.x - gap) // 2
    height = out.size + m.px(10)
    for index, name in enumerate(PHASES):
        rect = pygame.Rect(
            out.x + (index % 2) * (width + gap), y + (index // 2) * (height + gap), width, height
        )
        current = name == phase and not done
        colour = PHASE_COLOURS[name]
        if not out.dry:
            fill = colour if current else theme.PANEL_RAISED
            drawing.rounded_rect(out.surface, rect, fill, m.px(6), 1, colour)
            text = f"{index + 1}. {PHASE_TITLES[name]}"
            ink = theme.BG_BOTTOM if current else colour
            drawing.draw_text(
                out.surface, text, rect.center, out.size, ink, "semibold", anchor="center"
            )
    return y + 2 * height + gap


def _root_moves(out: PanelWriter, steps: MctsSteps, step: int, y: int, most: int) -> int:
    """The root's `most` most visited moves so far: visits and the estimate."""
    tree = steps.tree(step)
    kids = steps.children(tree, 0)
    if not kids:
        return y
    y = out.section("Root's moves (most visited first)", y)
    total = max(1, tree[0].N)
    for kid in kids[:most]:
        share = f"{kid.N} of {total}"
        out.row(f"{kid.move}   {estimate_text(kid)}", share, y)
        y += round(out.size * 1.4)
    if len(kids) > most:
        y = out.lines(f"+{len(kids) - most} more", y, theme.TEXT_FAINT)
    return y
