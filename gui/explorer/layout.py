"""Where the explorer draws each node: a tidy top-down layout that shrinks depth to fit.

Pure arithmetic (no pygame), so it is tested without a window.  Every visible leaf gets a
slot of equal width; a parent sits above the middle of its children.  When the slots do
not fit the width, the deepest levels are folded into "…" stubs until they do (the root's
own moves always stay), except on the `keep` nodes (the path to the narrated node), whose
children always show.  A cut-off adds one slot: its ✂ stub, or, with `pruned` given, the
subtrees it skipped (greyed, drawn under it as PRUNED items).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plyground.ai.textbook.trace import TraceNode

MORE = "more"
"""A stub for children hidden to fit (or collapsed by the user)."""
CUT = "cut"
"""A stub for the children a cut-off skipped."""
PRUNED = "pruned"
"""A node of a subtree a cut-off skipped (shown greyed when pruned subtrees are shown)."""


@dataclass(slots=True)
class Placed:
    """One drawn thing: a node, or a stub under one."""

    node: int
    x: float
    y: float
    level: int
    parent: int | None
    """Index in `Layout.items` of the item above, None for the root."""
    span: float
    """The width this item's subtree has for its labels."""
    stub: str = ""
    hidden: int = 0
    """For a MORE stub: how many children are hidden."""


@dataclass(slots=True)
class Layout:
    """The placed items and the geometry they were placed in."""

    items: list[Placed] = field(default_factory=list)
    levels: int = 0
    slot: float = 0.0
    level_height: float = 0.0
    folded: bool = False
    """True when depth was shrunk to fit (some expanded nodes show "…")."""

    def index_of(self, node: int) -> int | None:
        """The item showing `node` (not a stub), if visible."""
        for index, item in enumerate(self.items):
            if item.node == node and not item.stub:
                return index
        return None

    def edge_hit(self, pos: tuple[float, float], reach: float) -> Placed | None:
        """The node whose edge from its parent (line or move label) passes within `reach`
        of `pos`: a click on a branch."""
        best: Placed | None = None
        best_d = reach * reach
        for item in self.items:
            if item.parent is None or item.stub in (CUT, MORE):
                continue
            above = self.items[item.parent]
            d = _segment_distance2(pos, (above.x, above.y), (item.x, item.y))
            if d <= best_d:
                best, best_d = item, d
        return best

    def hit(self, pos: tuple[float, float], radius: float) -> Placed | None:
        """The item under `pos` (within `radius` of its centre), nearest first."""
        best: Placed | None = None
        best_d = radius * radius
        for item in self.items:
            d = (item.x - pos[0]) ** 2 + (item.y - pos[1]) ** 2
            if d <= best_d:
                best, best_d = item, d
        return best


def _segment_distance2(
    p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> float:
    """The squared distance from `p` to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    x, y = a[0] + t * dx, a[1] + t * dy
    return (p[0] - x) ** 2 + (p[1] - y) ** 2


@dataclass(frozen=True)
class _Shape:
    """What decides which children show: open nodes, kept nodes, the root, the depth limit."""

    nodes: list[TraceNode]
    expanded: set[int] | frozenset[int]
    keep: set[int] | frozenset[int]
    root: int
    pruned: dict[int, list[int]]
    step: int
    cut_at: dict[int, int]

    def reached(self, node: TraceNode) -> list[int]:
        """The children the search has entered by the step."""
        return [c for c in node.children if self.nodes[c].entered <= self.step]

    def cut(self, node: TraceNode) -> bool:
        """Whether the node's cut-off has happened by the step."""
        return node.cut and self.cut_at.get(node.id, self.step) <= self.step

    def children(self, node: TraceNode, level: int, limit: int) -> list[int] | None:
        """The children drawn under `node`, or None when they are hidden (a "…" stub)."""
        reached = self.reached(node)
        if not reached:
            return []
        if node.id in self.keep:
            return reached
        if level >= limit or (node.id != self.root and node.id not in self.expanded):
            return None
        return reached

    def ghost_slots(self, node_id: int) -> int:
        """Slots a skipped subtree takes (every ghost leaf one)."""
        node = self.nodes[node_id]
        return sum(self.ghost_slots(c) for c in node.children) if node.children else 1

    def cut_slots(self, node: TraceNode) -> int:
        """Slots for what a cut-off skipped: its stub, or its pruned subtrees."""
        if not self.cut(node):
            return 0
        ghosts = self.pruned.get(node.id)
        return sum(self.ghost_slots(g) for g in ghosts) if ghosts else 1

    def count(self, node_id: int, level: int, limit: int) -> int:
        node = self.nodes[node_id]
        children = self.children(node, level, limit)
        if not children:
            return 1  # a leaf, or folded: its "…" stub shares its slot
        total = sum(self.count(c, level + 1, limit) for c in children)
        return total + self.cut_slots(node)

    def ghost_depth(self, node_id: int) -> int:
        node = self.nodes[node_id]
        return 1 + max((self.ghost_depth(c) for c in node.children), default=0)

    def shown_depth(self, node_id: int, level: int, limit: int) -> int:
        """Levels drawn below `node_id` with this limit (kept paths can pass it)."""
        node = self.nodes[node_id]
        children = self.children(node, level, limit)
        if not children:
            return 0
        below = max(1 + self.shown_depth(c, level + 1, limit) for c in children)
        ghosts = self.pruned.get(node_id) if self.cut(node) else None
        if ghosts:
            below = max(below, max(self.ghost_depth(g) for g in ghosts))
        return below

    def depth(self, node_id: int) -> int:
        node = self.nodes[node_id]
        opened = node_id == self.root or node_id in self.expanded or node_id in self.keep
        reached = self.reached(node)
        if not reached or not opened:
            return 0
        return 1 + max(self.depth(c) for c in reached)


@dataclass
class _Placer:
    """Places items left to right: every leaf (or folded node, or stub) takes one slot."""

    shape: _Shape
    result: Layout
    limit: int
    top: float
    cursor: float

    def y(self, level: int) -> float:
        return self.top + level * self.result.level_height

    def next_slot(self) -> float:
        """The centre of the next free slot (taken)."""
        x = self.cursor + self.result.slot / 2
        self.cursor += self.result.slot
        return x

    def place(self, node_id: int, level: int, parent: int | None) -> float:
        """Place a subtree; return its centre x."""
        shape, result = self.shape, self.result
        node = shape.nodes[node_id]
        index = len(result.items)
        item = Placed(node_id, 0.0, self.y(level), level, parent, result.slot)
        result.items.append(item)
        children = shape.children(node, level, self.limit)
        start = self.cursor
        if not children:
            item.x = self.next_slot()
            if children is None:
                below = item.y + result.level_height * 0.45
                hidden = len(shape.reached(node))
                more = Placed(node_id, item.x, below, level + 1, index, result.slot, MORE, hidden)
                result.items.append(more)
            return item.x
        xs = [self.place(child, level + 1, index) for child in children]
        ghosts = shape.pruned.get(node_id) if shape.cut(node) else None
        if ghosts:
            xs += [self.place_ghost(g, level + 1, index) for g in ghosts]
        elif shape.cut(node):
            x = self.next_slot()
            result.items.append(
                Placed(node_id, x, self.y(level + 1), level + 1, index, result.slot, CUT)
            )
            xs.append(x)
        item.x = (xs[0] + xs[-1]) / 2
        item.span = self.cursor - start
        return item.x

    def place_ghost(self, node_id: int, level: int, parent: int) -> float:
        """Place a skipped subtree (all of it, greyed); return its centre x."""
        result = self.result
        node = self.shape.nodes[node_id]
        index = len(result.items)
        item = Placed(node_id, 0.0, self.y(level), level, parent, result.slot, PRUNED)
        result.items.append(item)
        start = self.cursor
        if not node.children:
            item.x = self.next_slot()
            return item.x
        xs = [self.place_ghost(child, level + 1, index) for child in node.children]
        item.x = (xs[0] + xs[-1]) / 2
        item.span = self.cursor - start
        return item.x


def layout(
    nodes: list[TraceNode],
    root: int,
    expanded: set[int],
    size: tuple[float, float],
    min_slot: float = 26.0,
    max_slot: float = 150.0,
    max_level_height: float = 120.0,
    keep: set[int] | frozenset[int] = frozenset(),
    pruned: dict[int, list[int]] | None = None,
    step: int = 1 << 30,
    cut_at: dict[int, int] | None = None,
) -> Layout:
    """Place the tree under `root` with the `expanded` nodes open, in a `size` canvas; the
    `keep` nodes' children always show; `pruned` maps a cut node to the ghost nodes (in
    `nodes`) of the subtrees it skipped.  Only what the search has reached by `step` is
    placed (nodes entered by then; cut-offs, by their step in `cut_at`)."""
    width, height = size
    shape = _Shape(nodes, expanded, keep, root, pruned or {}, step, cut_at or {})
    deepest = max(1, shape.depth(root))
    limit = deepest
    slots = shape.count(root, 0, limit)
    while limit > 1 and slots * min_slot > width:
        limit -= 1
        slots = shape.count(root, 0, limit)
    slot = min(max_slot, width / max(1, slots))
    levels = max(limit, shape.shown_depth(root, 0, limit))
    level_height = min(max_level_height, height / (levels + 0.8))
    result = Layout(levels=limit, slot=slot, level_height=level_height, folded=limit < deepest)
    used = level_height * (levels + 0.8)
    top = level_height * 0.35 + max(0.0, height - used) / 3
    _Placer(shape, result, limit, top, (width - slot * slots) / 2).place(root, 0, None)
    return result
