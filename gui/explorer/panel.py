"""The explorer's side panel: the lesson, the search, the root's moves, the step's counts, a
chance node's weighted sum and what happens now, one section after another.

The words come from `ai.textbook.trace_text`; everything is read from the explorer's model and
nothing here changes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import pygame

from plyground.ai.engine.search import ALGORITHM_TITLES
from plyground.ai.evaluation.wording import kind_text, source_text
from plyground.ai.textbook import counts
from plyground.ai.textbook.trace import SHAPES, Trace, TraceNode, trace
from plyground.ai.textbook.trace_text import (
    bound_text,
    explain,
    node_name,
    probability_text,
    so_far_text,
    sum_text,
    value_text,
    window_text,
)
from plyground.games.trees import examples as tree_examples
from plyground.games.trees import text as tree_text
from plyground.gui import theme
from plyground.gui.explorer.model import ExplorerModel
from plyground.gui.explorer.practice import EDITOR, PRACTICE, PROMPT
from plyground.gui.theme import Metrics
from plyground.gui.widgets import drawing

ORDERING_NAMES = {"game": "Game order", "reversed": "Reversed", "best": "Best first"}


@dataclass
class PanelWriter:
    """Writes the panel top to bottom: section titles, wrapped text and label/value rows."""

    surface: pygame.Surface
    panel: pygame.Rect
    m: Metrics
    points: int = 14
    """The text's size before the window's scale (the titles are two points smaller)."""
    dry: bool = False
    """Measure only: nothing is drawn (to find the size at which everything fits)."""
    cut: bool = False
    """Something was left out for want of room (the moves at the root: "+3 more")."""
    level: int = 0
    """How tight: 0 in full; 1 the bound note short; 2 also the counts on one line, with no
    line under them."""

    @property
    def brief(self) -> bool:
        """The counts on one line (level 2)."""
        return self.level >= 2

    @property
    def x(self) -> int:
        return self.panel.x + self.m.gap

    @property
    def right(self) -> int:
        return self.panel.right - self.m.gap

    @property
    def bottom(self) -> int:
        return self.panel.bottom - self.m.gap

    @property
    def size(self) -> int:
        return self.m.font_size(self.points)

    def text(
        self,
        text: str,
        pos: tuple[int, int],
        size: int,
        colour: theme.Colour,
        weight: str = "regular",
        anchor: str = "topleft",
    ) -> None:
        """One text, unless this is a dry run."""
        if not self.dry:
            drawing.draw_text(self.surface, text, pos, size, colour, weight, anchor)

    def section(self, title: str, y: int, name: str = "") -> int:
        """A small capitalised title (`section_title`); returns the y below it."""
        m = self.m
        small = m.font_size(self.points - 2)
        self.text(section_title(title, name), (self.x, y), small, theme.TEXT_FAINT, "semibold")
        return y + small + m.px(8)

    def lines(
        self,
        text: str,
        y: int,
        colour: theme.Colour = theme.TEXT,
        weight: str = "regular",
        limit: int | None = None,
    ) -> int:
        """`text` wrapped to the panel's width (stopping above `limit`); returns the y below."""
        size = self.size
        shown = ""
        for line in drawing.wrap(text, self.panel.width - 2 * self.m.gap, size, weight):
            if limit is not None and y + size > limit:
                if shown and not self.dry:
                    drawing.note_cut(text, shown)
                break
            self.text(line, (self.x, y), size, colour, weight)
            shown = line
            y += round(size * 1.4)
        return y

    def row(
        self,
        label: str,
        value: str,
        y: int,
        colours: tuple[theme.Colour, theme.Colour] = (theme.TEXT_DIM, theme.TEXT),
        weight: str = "regular",
    ) -> None:
        """`label` on the left, `value` on the right."""
        self.text(label, (self.x, y), self.size, colours[0], weight)
        self.text(value, (self.right, y), self.size, colours[1], weight, anchor="topright")


PANEL_FITS = (
    (14, 0),
    (13, 0),
    (13, 1),
    (12, 0),
    (12, 1),
    (11, 0),
    (11, 1),
    (12, 2),
    (11, 2),
)
"""The panel's text sizes and levels (`PanelWriter.level`) tried in turn, the most readable
first: the first at which every step of the search fits is drawn at every step, so the text
never changes size while it runs and the counts are always there (else the last, the
sentence under NOW kept whole)."""
MEASURED_STEPS = 240
"""Steps measured to choose the size (all of a lesson's; a long search's spread evenly)."""

_FITS: dict[tuple[object, ...], tuple[int, int]] = {}


def draw_panel(
    surface: pygame.Surface,
    model: ExplorerModel,
    m: Metrics,
    panel: pygame.Rect,
    tree_values: Sequence[str] = (),
) -> None:
    """The whole panel as of the model's step (in practice, nothing that gives the answer
    away), at the one text size at which all of it fits at every step; `tree_values`: the
    values the tree wrote (`tree_view.draw_tree`), whose bound signs the key explains."""
    points, level = panel_fit(surface, model, m, panel)
    _write_panel(PanelWriter(surface, panel, m, points, level=level), model, tree_values)


def panel_fit(
    surface: pygame.Surface, model: ExplorerModel, m: Metrics, panel: pygame.Rect
) -> tuple[int, int]:
    """(points, level): the first of `PANEL_FITS` at which the panel fits at every step of
    the search shown (measured once per search, panel size and root)."""
    found = model.trace
    key = (
        id(found),
        found is not None and len(found.events),
        panel.size,
        m.font_size(14),
        model.lesson,
        model.variant,
        model.root_id if found is not None else 0,
        model.guessing,
        model.editor_error if model.lesson is not None else None,
        model.practice.checked,
    )
    fit = _FITS.get(key)
    if fit is not None:
        return fit
    saved = model.step
    last = model.last_step
    count = min(last + 1, MEASURED_STEPS)
    steps = sorted({round(i * last / max(1, count - 1)) for i in range(count)} | {saved})
    bound = "≤ ≥ mark bounds"  # the longest key the tree's values may need
    fit = PANEL_FITS[-1]
    try:
        for points, level in PANEL_FITS:
            measure = PanelWriter(surface, panel, m, points, dry=True, level=level)
            fits = True
            for step in steps if found is not None else [saved]:
                model.step = step
                measure.cut = False
                if _write_panel(measure, model, (bound,)) > measure.bottom or measure.cut:
                    fits = False
                    break
            if fits:
                fit = (points, level)
                break
    finally:
        model.step = saved
    if len(_FITS) > 64:
        _FITS.clear()
    _FITS[key] = fit
    return fit


def _write_panel(out: PanelWriter, model: ExplorerModel, tree_values: Sequence[str]) -> int:
    """Write the panel's sections; returns the y below the last."""
    m = out.m
    y = out.panel.y + m.gap
    if model.lesson is not None:
        y = _lesson_section(out, model, y) + m.px(10)
    found = model.trace
    if found is None or model.guessing:
        return y
    now = explain(found, model.step)
    now_room = out.size + m.px(16) + _lines_height(out, now, "semibold")
    y = out.section("Search", y)
    y = out.lines(search_summary(model, found), y, theme.TEXT_DIM)
    if found.evaluation is not None:  # the root value's provenance (ai.evaluation.wording)
        kind, source = kind_text(found.evaluation), source_text(found.evaluation)
        key = bound_key(tree_values)
        line = f"Root value: {kind}, {source}" + (f" · {key}" if key else "")
        y = out.lines(line, y, theme.TEXT_DIM)
    rows = 2 if out.brief else len(counts.LABELS) + 1
    counts_room = out.size + m.px(16) + rows * round(out.size * 1.4)
    limit = out.bottom - now_room - counts_room
    y = _root_moves(out, model, found, y + m.px(8), limit) + m.px(8)
    y = _step_counts(out, model, found, y)
    node = found.nodes[model.narrated]
    chance = chance_to_explain(model, node)
    if chance is not None:
        y = out.section("Chance node", y + m.px(8), node_name(found, chance))
        y = out.lines(sum_text(found, chance), y)
    y = out.section("Now", y + m.px(8))
    y = out.lines(now, y, theme.TEXT, "semibold", limit=out.bottom if not out.dry else None)
    event = found.events[model.step]
    if event.kind == "exit" and event.source in ("upper", "lower"):
        return y  # the sentence already explains the bound
    hovered = model.hover
    if hovered is not None and not hovered.stub and not model.pruned.is_ghost(hovered.node):
        node = found.nodes[hovered.node]
        explained = bound_text(found, node)
        if explained and 0 <= node.finished <= model.step:
            text = f"{node_name(found, node)} {explained}"
            out.lines(text, y + m.px(6), theme.TEXT_DIM, limit=out.bottom)
    return y


def bound_key(shown: Sequence[str]) -> str:
    """The key to the bound signs among the values `shown` ('≤ ≥ mark bounds', '≥ marks a
    bound'), '' where none is shown."""
    signs = [sign for sign in ("≤", "≥") if any(text.startswith(sign) for text in shown)]
    if not signs:
        return ""
    return f"{signs[0]} marks a bound" if len(signs) == 1 else "≤ ≥ mark bounds"


def _lines_height(out: PanelWriter, text: str, weight: str = "regular") -> int:
    """How tall `text` is, wrapped to the panel."""
    lines = drawing.wrap(text, out.panel.width - 2 * out.m.gap, out.size, weight)
    return len(lines) * round(out.size * 1.4)


def search_summary(model: ExplorerModel, found: Trace) -> str:
    """Algorithm, depth, values and the order the tree is searched in (a lesson's tree
    names its own order: "worst move first")."""
    order = f"{ORDERING_NAMES[found.ordering].lower()}"
    if model.lesson is not None and model.lesson < PRACTICE:
        lesson = tree_examples.TRACE_LESSONS[model.lesson]
        shown = lesson.other_label if model.variant else lesson.label
        order = shown if shown.endswith("order") else "the tree's order"
    elif model.lesson is not None:
        order = "the tree's order"
    values = found.heuristic if not found.raw_values else "leaf values"
    table = ", table" if found.table else ""
    return f"{ALGORITHM_TITLES[found.algorithm]}, depth {found.depth}, {values}, {order}{table}"


def _lesson_section(out: PanelWriter, model: ExplorerModel, y: int) -> int:
    """The lesson's text and both versions compared, practice's prompt or verdict, or the
    editor's help and its last error."""
    assert model.lesson is not None
    if model.lesson == EDITOR:
        y = out.section("Your own tree", y)
        if model.editor_error:
            y = out.lines(model.editor_error, y, theme.WARNING, "semibold")
        return out.lines(tree_text.HELP, y, theme.TEXT_DIM)
    y = out.section("Lesson" if model.lesson < PRACTICE else "Practice", y)
    if model.lesson < PRACTICE:
        y = out.lines(
            tree_examples.TRACE_LESSONS[model.lesson].text_for(model.variant), y, theme.TEXT_DIM
        )
        for line in lesson_comparison(model.lesson):
            y = out.lines(line, y + out.m.px(4), theme.TEXT, "semibold")
        return y
    if model.practice.checked:
        return out.lines(model.practice.verdict, y)
    y = out.lines(PROMPT, y, theme.TEXT_DIM)
    found = model.trace
    marks = sorted(found.nodes[n].label for n in model.practice.marks) if found else []
    y = out.lines(f"Branches marked: {', '.join(marks) or 'none'}", y, theme.TEXT)
    guess = model.practice.guess or "_"
    return out.lines(f"Your root value: {guess}", y, theme.TEXT, "semibold")


def _root_moves(out: PanelWriter, model: ExplorerModel, found: Trace, y: int, limit: int) -> int:
    """Each move at the drawn root with its value so far (a bound while it is searched);
    the chosen one in green; above `limit`, then how many more (the tree shows them all)."""
    root = found.nodes[model.root_id]
    title = "Moves at the root" if model.root_id == 0 else f"Moves at {node_name(found, root)}"
    y = out.section(title, y)
    done = 0 <= root.finished <= model.step
    chosen_child = found.principal_path(model.root_id)[1:2] if done else []
    size = out.size
    for index, child_id in enumerate(root.children):
        child = found.nodes[child_id]
        left = len(root.children) - index
        if y + round(size * 2.9) > limit and left > 1:
            out.text(f"+{left} more in the tree", (out.x, y), size, theme.TEXT_DIM)
            out.cut = True
            return y + round(size * 1.4)
        value = child.value_at(model.step) if child.entered <= model.step else None
        label = child.label
        if child.probability is not None:
            label += f"  ({probability_text(child.probability)})"
        if value is None:
            shown = "—"
        elif child.finished <= model.step:
            shown = value_text(found, child, value)
        else:
            shown = so_far_text(found, child, value)
        best = child_id in chosen_child
        colour = theme.SUCCESS if best else theme.TEXT
        weight = "semibold" if best else "regular"
        out.row(f"{SHAPES[child.kind]} {label}", shown, y, (colour, colour), weight)
        y += round(size * 1.45)
    if any(
        found.nodes[c].bound != "exact" and 0 <= found.nodes[c].finished <= model.step
        for c in root.children
    ):
        note = (
            "≤ / ≥: a bound (hover a node for why)."
            if out.level >= 1
            else "≤ / ≥: a bound, not an exact value: alpha-beta proved only that much, "
            "enough to rule the move out (hover a node for why)."
        )
        y = out.lines(note, y, theme.TEXT_FAINT)
    return y


def _step_counts(out: PanelWriter, model: ExplorerModel, found: Trace, y: int) -> int:
    """The counts so far and, for alpha-beta, the window at the current node."""
    y = out.section(f"Step {model.step + 1} of {len(found.events)}", y)
    totals = found.totals(model.step)
    if out.brief:  # one line: 'Nodes 11 · Leaves 7 · Cut-offs 1 · Table hits 0'
        pairs = zip(counts.SHORT_LABELS, totals, strict=True)
        parts = [f"{short} {count:,}" for short, count in pairs]
        y = out.lines(" · ".join(parts), y, theme.TEXT)
    else:
        pointed = None
        for name, count in zip(counts.LABELS, totals, strict=True):
            out.row(name, f"{count:,}", y)
            height = round(out.size * 1.4)
            if model.pointer is not None and pygame.Rect(
                out.x, y, out.right - out.x, height
            ).collidepoint(model.pointer):
                pointed = name
            y += height
        y = out.lines(counter_help(pointed), y, theme.TEXT_FAINT)
    event = found.events[model.step]
    if model.window_shown and event.kind != "exit":
        alpha, beta = model.window_at(found.nodes[event.node])
        out.row("α/β here", window_text(found, alpha, beta), y, (theme.TEXT_DIM, theme.ACCENT))
        y += round(out.size * 1.4)
    return y


def counter_help(label: str | None) -> str:
    """The line under the counters: the definition of the one pointed at
    (`ai.textbook.counts`), else how to see one."""
    if label is None:
        return counts.COUNTER_HINT
    return f"{label}: {counts.LABEL_DEFINITIONS[label]}."


def section_title(title: str, name: str = "") -> str:
    """A section's title in capitals; a node's `name` stays as the tree writes it
    ('CHANCE NODE a1')."""
    return f"{title.upper()} {name}" if name else title.upper()


def chance_to_explain(model: ExplorerModel, current: TraceNode) -> TraceNode | None:
    """The chance node whose weighted sum the panel writes out: hovered, current, or on
    the chosen line."""
    assert model.trace is not None
    nodes = model.trace.nodes
    candidates = []
    if model.hover is not None and not model.hover.stub:
        candidates.append(nodes[model.hover.node])
    candidates.append(current)
    if current.parent >= 0:
        candidates.append(nodes[current.parent])
    candidates += [nodes[n] for n in model.trace.principal_path(model.root_id)[:2]]
    candidates += [nodes[c] for c in nodes[model.root_id].children]
    for node in candidates:
        if node.kind == "chance" and node.terms and 0 <= node.finished <= model.step:
            return node
    return None


@cache
def lesson_comparison(index: int) -> tuple[str, ...]:
    """Both versions of a lesson side by side: leaves evaluated, or the root's move values
    (worked out once: the lessons' trees never change)."""
    lesson = tree_examples.TRACE_LESSONS[index]
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
