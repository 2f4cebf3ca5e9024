"""Where the explorer draws each node: a tidy top-down layout that shrinks depth to fit.

Pure arithmetic (no pygame), so it is tested without a window.  Every visible leaf gets a
slot of equal width; a parent sits above the middle of its children.  When the slots do
not fit the width, the deepest levels are folded into "…" stubs until they do (the root's
own moves always stay).  A cut-off adds one slot: its ✂ stub.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from plyground.ai.trace import TraceNode

MORE = "more"
"""A stub for children hidden to fit (or collapsed by the user)."""
CUT = "cut"
"""A stub for the children a cut-off skipped."""


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

    def hit(self, pos: tuple[float, float], radius: float) -> Placed | None:
        """The item under `pos` (within `radius` of its centre), nearest first."""
        best: Placed | None = None
        best_d = radius * radius
        for item in self.items:
            d = (item.x - pos[0]) ** 2 + (item.y - pos[1]) ** 2
            if d <= best_d:
                best, best_d = item, d
        return best


def _visible_children(
    nodes: list[TraceNode], node: TraceNode, expanded: set[int], level: int, limit: int, root: int
) -> list[int] | None:
    """The children drawn under `node`, or None when they are hidden (a "…" stub)."""
    if not node.children:
        return []
    if level >= limit or (node.id != root and node.id not in expanded):
        return None
    return node.children


def _count(
    nodes: list[TraceNode], node_id: int, expanded: set[int], level: int, limit: int, root: int
) -> int:
    node = nodes[node_id]
    children = _visible_children(nodes, node, expanded, level, limit, root)
    if not children:
        return 1  # a leaf, or folded: its "…" stub shares its slot
    total = sum(_count(nodes, c, expanded, level + 1, limit, root) for c in children)
    return total + (1 if node.cut else 0)


def _depth(nodes: list[TraceNode], node_id: int, expanded: set[int], root: int) -> int:
    node = nodes[node_id]
    if not node.children or (node_id != root and node_id not in expanded):
        return 0
    return 1 + max(_depth(nodes, c, expanded, root) for c in node.children)


def layout(
    nodes: list[TraceNode],
    root: int,
    expanded: set[int],
    size: tuple[float, float],
    min_slot: float = 26.0,
    max_slot: float = 150.0,
    max_level_height: float = 120.0,
) -> Layout:
    """Place the tree under `root` with the `expanded` nodes open, in a `size` canvas."""
    width, height = size
    deepest = max(1, _depth(nodes, root, expanded, root))
    limit = deepest
    slots = _count(nodes, root, expanded, 0, limit, root)
    while limit > 1 and slots * min_slot > width:
        limit -= 1
        slots = _count(nodes, root, expanded, 0, limit, root)
    slot = min(max_slot, width / max(1, slots))
    level_height = min(max_level_height, height / (limit + 0.8))
    result = Layout(levels=limit, slot=slot, level_height=level_height, folded=limit < deepest)
    left = (width - slot * slots) / 2
    cursor = [left]
    used = level_height * (limit + 0.8)
    top = level_height * 0.35 + max(0.0, height - used) / 3

    def place(node_id: int, level: int, parent: int | None) -> tuple[float, float, float]:
        """Place a subtree; return its centre x and its left and right edges."""
        node = nodes[node_id]
        index = len(result.items)
        y = top + level * level_height
        item = Placed(node_id, 0.0, y, level, parent, slot)
        result.items.append(item)
        children = _visible_children(nodes, node, expanded, level, limit, root)
        start = cursor[0]
        if not children:
            x = cursor[0] + slot / 2
            cursor[0] += slot
            if children is None:
                result.items.append(
                    Placed(
                        node_id,
                        x,
                        y + level_height * 0.45,
                        level + 1,
                        index,
                        slot,
                        MORE,
                        len(node.children),
                    )
                )
            item.x = x
            return x, start, cursor[0]
        xs = [place(child, level + 1, index)[0] for child in children]
        if node.cut:
            stub_x = cursor[0] + slot / 2
            cursor[0] += slot
            result.items.append(
                Placed(node_id, stub_x, y + level_height, level + 1, index, slot, CUT)
            )
            xs.append(stub_x)
        item.x = (xs[0] + xs[-1]) / 2
        item.span = cursor[0] - start
        return item.x, start, cursor[0]

    place(root, 0, None)
    return result
