"""A recorded Monte Carlo tree search, step by step, without pygame: the tree after each
step, the phase it is in, what to highlight, the sentence that says it, and where each node
goes on the canvas.

The explorer's step `s` shows the search after event `s` (as for the other searches): the
tree is `trace.tree_at(s + 1)`.  A node's label is an estimate, "○ U/N · N": the share of
the iterations through it won by the side that moved into it, and how many went through it
(N counts iterations: one that reaches a finished game in the tree backs up its result
without a playout, so the "playouts" counted can be fewer).
Large trees show each node's most visited children and fold the rest into "+n more".
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from plyground.ai.textbook.mcts_trace import MctsEvent, MctsTrace, MctsTreeNode

SELECTION = "selection"
EXPANSION = "expansion"
SIMULATION = "simulation"
BACKPROPAGATION = "backpropagation"
PHASES = (SELECTION, EXPANSION, SIMULATION, BACKPROPAGATION)
"""The four phases of one iteration, in order (the names `MctsTrace.phase_at` gives)."""
PHASE_TITLES = {
    SELECTION: "Selection",
    EXPANSION: "Expansion",
    SIMULATION: "Simulation",
    BACKPROPAGATION: "Back-up",
}
ITERATION_CHOICES = (10, 20, 50, 100, 200, 500)
"""The explorer's iteration budgets (the drop-down's entries)."""
SEED_CHOICES = (0, 1, 2, 3, 4)
"""The explorer's seeds: one seed, one tree."""
EXPLORATION_CHOICES = (0.5, 1.0, math.sqrt(2), 2.0)
"""The explorer's exploration constants c (√2 the textbook's): small c exploits the child
that has won most, large c tries the children tried least."""


def exploration_label(c: float) -> str:
    """A c as the drop-down writes it: "c 0.5", "c 1", "c 1.41 (√2)"."""
    text = f"c {c:.3g}" if c != math.sqrt(2) else "c 1.41 (√2)"
    return text


def exploration_from_label(text: str) -> float:
    """The c a drop-down entry names (`exploration_label`'s inverse)."""
    for c in EXPLORATION_CHOICES:
        if exploration_label(c) == text:
            return c
    return float(text.split()[1])


BREADTHS = (
    *((9, 4), (9, 3), (7, 3), (7, 2), (5, 2), (9, 1), (7, 1), (5, 1)),
    *((9, 0), (7, 0), (5, 0), (4, 0), (3, 0), (2, 0), (1, 0)),
)
"""(the root's, every other node's) most children drawn, tried broadest first; 0: only the
children the step is about (the others folded into "… n")."""
FOLD = -1
"""The node id of a "+n more" item (the children folded to fit)."""
DEEPER = -2
"""The node id of a "…" item (a node whose subtree is deeper than the canvas shows)."""


def estimate_text(node: MctsTreeNode) -> str:
    """A node's label: "○ 0.62 · 40" (U/N, an estimate, after N iterations through it); "○ – · 0"
    before its first is counted."""
    share = f"{node.U / node.N:.2f}" if node.N else "–"
    return f"○ {share} · {node.N}"


def result_text(result: float) -> str:
    """A playout's result in words: for MAX, 1 a win, 0.5 a draw, 0 a loss."""
    if result >= 1:
        return "MAX wins (1)"
    if result <= 0:
        return "MIN wins (0 for MAX)"
    return "a draw (0.5)"


def ucb_text(value: float) -> str:
    """A UCB1 value: "∞" for a child not tried yet."""
    return "∞" if value == float("inf") else f"{value:.2f}"


@dataclass(frozen=True)
class Highlight:
    """What the current step marks on the tree."""

    phase: str
    event: MctsEvent
    path: tuple[int, ...] = ()
    """Selection: the nodes walked so far this iteration, from the root."""
    ucb: dict[int, float] = field(default_factory=dict)
    """A select step: each child's UCB1, by node id."""
    chosen: int | None = None
    """A select step: the child taken; expansion: the node added; the end: the move played."""
    playout_from: int | None = None
    """Simulation: the node the playout starts from."""
    backed: tuple[int, ...] = ()
    """Back-up: the nodes whose counts this iteration has updated so far."""


@dataclass(slots=True)
class Spot:
    """One drawn item: a node, a "+n more" fold or a "…" (deeper than shown)."""

    node: int
    x: float
    y: float
    depth: int
    parent: int | None
    """The node id above it (None for the root)."""
    hidden: int = 0
    """For a fold: how many children it stands for."""


@dataclass
class GrowingLayout:
    """Where the tree of one step goes (layout coordinates: 0..width, 0..height)."""

    spots: list[Spot]
    slot: float
    level_height: float
    levels: int
    shown_children: int
    """How many children of a node are drawn at most (the others fold)."""

    def node_at(self, x: float, y: float, radius: float) -> int | None:
        """The drawn node nearest the layout point (x, y), within `radius` (None: none)."""
        near = [
            (math.hypot(s.x - x, s.y - y), s.node)
            for s in self.spots
            if s.node >= 0 and math.hypot(s.x - x, s.y - y) <= radius
        ]
        return min(near)[1] if near else None

    def spot_of(self, node: int) -> Spot | None:
        """The spot of a node, if it is drawn."""
        for spot in self.spots:
            if spot.node == node:
                return spot
        return None


class MctsSteps:
    """A recorded MCTS, read one step at a time (a cache keeps the trees just shown)."""

    def __init__(self, trace: MctsTrace, iterations: int, seed: int, c: float) -> None:
        self.trace = trace
        self.iterations = iterations
        self.seed = seed
        self.c = c
        self.starts = list(trace.iteration_starts())
        self._trees: dict[int, dict[int, MctsTreeNode]] = {}
        self._kids: dict[int, tuple[dict[int, MctsTreeNode], dict[int, list[MctsTreeNode]]]] = {}
        """Each cached tree's children lists, the most visited first (by the tree's id)."""

    @property
    def last_step(self) -> int:
        """The index of the last event."""
        return max(0, len(self.trace.events) - 1)

    def event(self, step: int) -> MctsEvent:
        """The event shown at `step`."""
        return self.trace.events[step]

    def tree(self, step: int) -> dict[int, MctsTreeNode]:
        """The tree after event `step` (`tree_at(step + 1)`), by node id."""
        found = self._trees.get(step)
        if found is None:
            if len(self._trees) > 64:
                before = self._trees.get(step - 1)
                self._trees.clear()
                self._kids.clear()
                if before is not None:
                    self._trees[step - 1] = before
            before = self._trees.get(step - 1)
            if before is not None:  # stepping on: one event applied to the tree before
                found = self._apply(before, self.trace.events[step])
            else:
                found = {node.id: node for node in self.trace.tree_at(step + 1)}
            self._trees[step] = found
        return found

    def _apply(self, tree: dict[int, MctsTreeNode], event: MctsEvent) -> dict[int, MctsTreeNode]:
        """The tree after `event` (as `tree_at` rebuilds it, without replaying the rest)."""
        if event.kind == "backup" and event.node in tree:
            changed = dict(tree)
            changed[event.node] = replace(tree[event.node], N=event.N, U=event.U)
            return changed
        if event.kind == "expand" and event.added:
            from plyground.ai.textbook.mcts_trace import MctsTreeNode

            changed = dict(tree)
            for node in event.added:
                place = self.trace.places[node]
                changed[node] = MctsTreeNode(
                    node, place.parent, place.move, 0, 0.0, place.depth, place.mover, place.chance
                )
            return changed
        return tree

    def hover_lines(self, step: int, node_id: int) -> list[str]:
        """The hover card of a node at `step`: its move path from the root, N and U, U/N (an
        estimate), and UCB1 as its parent weighs it, both terms written out."""
        tree = self.tree(step)
        node = tree.get(node_id)
        if node is None:
            return []
        path: list[str] = []
        at: MctsTreeNode | None = node
        while at is not None and at.parent is not None:
            path.append(at.move or "?")
            at = tree.get(at.parent)
        if not path:
            lines = ["The root: the position searched", f"N {node.N}: iterations through it"]
            return lines
        whose = node.mover.upper() or "the side that moved"
        lines = [
            "Path: " + " → ".join(reversed(path)),
            f"N {node.N}: playouts through it",
            f"U {node.U:g}: their results for {whose} (1 a win, 0.5 a draw, 0 a loss)",
        ]
        if not node.N:
            lines.append("U/N –: no playout counted yet")
        else:
            lines.append(f"U/N {node.U / node.N:.2f}: an estimate from {node.N} playouts")
        parent = tree.get(node.parent) if node.parent is not None else None
        if parent is None or parent.chance:
            lines.append("Dice choose it at its parent: no UCB1")
        elif not node.N:
            lines.append("UCB1 at its parent: ∞ (never tried: it is tried first)")
        elif parent.N > 0:
            exploit = node.U / node.N
            explore = self.c * math.sqrt(math.log(parent.N) / node.N)
            lines.append(
                f"UCB1 at its parent: U/N + c·√(ln {parent.N} / {node.N}) = {exploit:.2f} + "
                f"{explore:.2f} = {exploit + explore:.2f} (c = {self.c:.2f})"
            )
        return lines

    def phase(self, step: int) -> str:
        """The phase the step is in (the trace's own `phase_at`)."""
        return self.trace.phase_at(step)

    def iteration(self, step: int) -> int:
        """The iteration the step belongs to (1-based)."""
        return self.event(step).iteration

    def iteration_start(self, step: int, offset: int = 0) -> int:
        """The first step of the iteration `offset` iterations after (or before) the one
        `step` is in; from the middle of an iteration, -1 goes to its own start."""
        starts = self.starts or [0]
        current = max((i for i, s in enumerate(starts) if s <= step), default=0)
        if offset < 0 and starts[current] < step:
            offset += 1
        target = max(0, min(len(starts) - 1, current + offset))
        return starts[target]

    def children(self, tree: dict[int, MctsTreeNode], node: int) -> list[MctsTreeNode]:
        """A node's children, the most visited first (ties: the first expanded)."""
        found = self._kids.get(id(tree))
        if found is None or found[0] is not tree:
            kids: dict[int, list[MctsTreeNode]] = {}
            for each in tree.values():
                if each.parent is not None:
                    kids.setdefault(each.parent, []).append(each)
            for line in kids.values():
                line.sort(key=lambda n: (-n.N, n.id))
            found = (tree, kids)
            self._kids[id(tree)] = found
        return list(found[1].get(node, ()))

    def path(self, tree: dict[int, MctsTreeNode], node: int) -> list[int]:
        """The node ids from the root down to `node`."""
        line: list[int] = []
        current: int | None = node
        while current is not None and current in tree:
            line.append(current)
            current = tree[current].parent
        return line[::-1]

    def highlight(self, step: int) -> Highlight:
        """What the step marks: the selection path, the UCB1 values, the node added, the
        playout, the counts backed up."""
        event = self.event(step)
        phase = self.phase(step)
        start = self.iteration_start(step)
        so_far = self.trace.events[start : step + 1]
        if event.kind == "decide":
            return Highlight(phase, event, chosen=event.child)
        path = (0, *(e.child for e in so_far if e.kind == "select" and e.child is not None))
        if event.kind in ("iteration", "select"):
            ucb = dict(event.ucb)
            return Highlight(phase, event, path=path, ucb=ucb, chosen=event.child)
        if event.kind == "expand":
            return Highlight(phase, event, path=path, chosen=event.child)
        if event.kind == "playout":
            return Highlight(phase, event, path=path, playout_from=event.node)
        backed = tuple(e.node for e in so_far if e.kind == "backup")
        return Highlight(phase, event, backed=backed)

    def focus(self, step: int) -> set[int]:
        """The nodes the step is about: they always show, whatever folds."""
        light = self.highlight(step)
        tree = self.tree(step)
        ids = set(light.path) | set(light.backed)
        for node in (light.chosen, light.playout_from, light.event.node):
            if node is not None and node in tree:
                ids.update(self.path(tree, node))
        return ids

    # ------------------------------------------------------------------ words
    def name(self, tree: dict[int, MctsTreeNode], node: int) -> str:
        """A node in words: "the root", or the moves that lead to it."""
        if node == 0 or node not in tree:
            return "the root"
        moves = [tree[n].move or "" for n in self.path(tree, node)[1:]]
        if all(b.startswith(a) for a, b in itertools.pairwise(moves)):
            return f"node {moves[-1]}"  # a textbook tree's names: C, C1, C1a
        shown = "·".join(moves[-4:])
        return f"node {'…·' if len(moves) > 4 else ''}{shown}"

    def sentence(self, step: int) -> str:
        """What happens at this step, in words a student follows."""
        event = self.event(step)
        tree = self.tree(step)
        name = self.name(tree, event.node)
        if event.kind == "iteration":
            return (
                f"Iteration {event.iteration} starts at the root. It walks down the tree "
                "(selection), adds one node (expansion), plays one random game from it "
                "(simulation) and carries the result back up (back-up)."
            )
        if event.kind == "select" and event.child is not None:
            return self._select_sentence(tree, event, name)
        if event.kind == "expand":
            return self._expand_sentence(tree, event, name)
        if event.kind == "playout":
            count = len(event.moves)
            result = result_text(event.result if event.result is not None else 0.5)
            if not count:
                return (
                    f"Simulation: the game is over at {name}, so the playout is just its "
                    f"result: {result}."
                )
            return (
                f"Simulation: from {name} both sides play random moves to the game's end "
                f"({count} move{'s' if count != 1 else ''}). Result: {result}. No node is "
                "added for these moves."
            )
        if event.kind == "backup":
            node = tree.get(event.node)
            if event.node == 0 or node is None:
                return f"Back-up: the root now counts {event.N} iterations. The iteration is over."
            return (
                f"Back-up: {name} gets N = {event.N} (one more iteration) and U = {event.U:g}: "
                "U adds the result as the side that moved into it sees it (1 a win, "
                "0.5 a draw, 0 a loss)."
            )
        child = tree.get(event.child) if event.child is not None else None
        if child is None:
            return "The search ends."
        root = tree.get(0)
        total = root.N if root is not None else self.iterations
        return (
            f"The search ends after {self.iterations} iterations and plays {child.move}, the "
            f"root's most visited move ({child.N} of {total} iterations). Its ○ "
            f"{child.U / max(1, child.N):.2f} is an estimate from playouts, not an exact value."
        )

    def _select_sentence(self, tree: dict[int, MctsTreeNode], event: MctsEvent, name: str) -> str:
        """A select step in words: UCB1 split into what the move earned and what its few
        visits add (or the dice's draw at a chance node)."""
        assert event.child is not None
        child = tree.get(event.child)
        value = dict(event.ucb).get(event.child, 0.0)
        if child is None:
            return f"Selection: from {name}, go down to the child with the highest UCB1."
        if (child.parent is not None and tree[child.parent].chance) or not event.ucb:
            return (
                f"Selection: the dice decide at {name}: the outcome {child.move} is drawn "
                "by its probability (no UCB1 at a chance node)."
            )
        if child.N == 0 or value == float("inf"):
            return (
                f"Selection: every move at {name} has a node. {child.move} has no "
                "playout yet, so its UCB1 is ∞ and it is tried first."
            )
        exploit = child.U / child.N
        explore = value - exploit
        ties = sum(1 for _, v in event.ucb if v == value)
        others = f"{ties - 1} other{'s' if ties > 2 else ''}"
        tie = f" (tied with {others}: the first added goes)" if ties > 1 else ""
        return (
            f"Selection: every move at {name} has a node, so UCB1 picks. "
            f"{child.move} scores {value:.2f} = {exploit:.2f} (U/N: how well it did) + "
            f"{explore:.2f} (c·√(ln N / n): how little it was tried). The highest goes "
            f"on{tie}: good moves are exploited, little-tried ones still explored."
        )

    def _expand_sentence(self, tree: dict[int, MctsTreeNode], event: MctsEvent, name: str) -> str:
        """An expand step in words: the node added (with its outcomes at a chance node)."""
        if event.child is None or event.child == event.node:
            return (
                f"Expansion: the game is over at {name}, so nothing is added; its result "
                "is counted again."
            )
        child = tree.get(event.child)
        move = child.move if child is not None else "?"
        dice = ""
        if child is not None and child.chance:
            dice = f" The dice decide there: its {len(event.added) - 1} outcomes come with it."
        return (
            f"Expansion: {name} still has a move without a node. The first, {move}, "
            f"becomes a new node with N = 0.{dice}"
        )

    # ------------------------------------------------------------------ layout
    def layout(
        self,
        step: int,
        area: tuple[float, float],
        min_slot: float,
        max_slot: float,
        max_level_height: float,
        min_level_height: float,
    ) -> GrowingLayout:
        """The tree of `step` placed in `area`: each node's most visited children (as many
        as fit, at least the ones the step is about), the rest folded into "+n more"; the
        levels that do not fit shown as "…"."""
        tree = self.tree(step)
        focus = self.focus(step)
        event = self.event(step)
        # A select step's node shows its children as the root does (their UCB1 compared).
        wide = event.node if event.kind == "select" and event.ucb else None
        width, height = area
        deepest = max((n.depth for n in tree.values()), default=0)
        needed = max(1, max((tree[n].depth for n in focus if n in tree), default=1))
        levels = max(needed, min(deepest, int(height // max(1.0, min_level_height)) - 1))
        best: tuple[float, list[tuple[int, int | None, int, int]], int, int] | None = None
        room = int(width // max(1.0, min_slot))
        for limit in range(levels, needed - 1, -1):
            for root_shown, shown in BREADTHS:
                found = self._rows(tree, focus, root_shown, shown, limit, room, wide)
                if found is None:
                    continue
                rows = found
                drawn = sum(1 for node, _, depth, _ in rows if node >= 0)
                at_root = sum(1 for node, _, depth, _ in rows if node >= 0 and depth == 1)
                score = drawn + 2 * at_root + 0.5 * limit
                if best is None or score > best[0]:
                    best = (score, rows, root_shown, limit)
                break  # the broadest that fits at this depth
        if best is None:
            rows = self._rows(tree, focus, 1, 0, needed) or []
            best = (0.0, rows, 1, needed)
        _, rows, shown, limit = best
        return self._place(rows, shown, limit, area, min_slot, max_slot, max_level_height)

    def _rows(
        self,
        tree: dict[int, MctsTreeNode],
        focus: set[int],
        root_shown: int,
        shown: int,
        limit: int,
        room: int = 1 << 30,
        wide: int | None = None,
    ) -> list[tuple[int, int | None, int, int]] | None:
        """Depth-first (node, parent, depth, hidden) items: nodes, folds (FOLD) and deeper
        stubs (DEEPER), each node's kids the most visited first; None when they need more
        than `room` slots."""
        rows: list[tuple[int, int | None, int, int]] = []
        slots = 0

        def stub(kind: int, node: int, depth: int, hidden: int) -> None:
            nonlocal slots
            rows.append((kind, node, depth, hidden))
            slots += 1

        def visit(node: int, parent: int | None, depth: int) -> bool:
            nonlocal slots
            rows.append((node, parent, depth, 0))
            kids = self.children(tree, node)
            most = root_shown if depth == 0 or node == wide else shown
            kept = [k for i, k in enumerate(kids) if i < most or k.id in focus]
            if not kids:
                slots += 1
            elif depth >= limit or not kept:
                stub(DEEPER, node, depth + 1, len(kids))
            else:
                for kid in kept:
                    if not visit(kid.id, node, depth + 1):
                        return False
                if len(kept) < len(kids):
                    stub(FOLD, node, depth + 1, len(kids) - len(kept))
            return slots <= room

        if 0 in tree and not visit(0, None, 0):
            return None
        return rows

    @staticmethod
    def _leaf_count(rows: Sequence[tuple[int, int | None, int, int]]) -> int:
        """How many slots the items need: one for every item with nothing under it."""
        parents = {parent for _, parent, _, _ in rows if parent is not None}
        return sum(1 for node, _, _, _ in rows if node < 0 or node not in parents)

    def _place(
        self,
        rows: list[tuple[int, int | None, int, int]],
        shown: int,
        limit: int,
        area: tuple[float, float],
        min_slot: float,
        max_slot: float,
        max_level_height: float,
    ) -> GrowingLayout:
        """Leaves left to right in equal slots, each parent over the middle of its items."""
        width, height = area
        leaves = max(1, self._leaf_count(rows))
        slot = max(min_slot, min(max_slot, width / leaves))
        slot = min(slot, width / leaves)  # the step's own path wider than the canvas: squeeze
        levels = max(depth for _, _, depth, _ in rows) + 1
        level_height = min(max_level_height, height / levels)
        left = max(0.0, (width - slot * leaves) / 2)
        spots: list[Spot] = []
        xs: dict[int, float] = {}
        next_slot = 0
        # A parent's x is the middle of its items' x: the deepest placed first.
        items_of: dict[int, list[int]] = {}
        for index, (_, parent, _, _) in enumerate(rows):
            if parent is not None:
                items_of.setdefault(parent, []).append(index)
        order = sorted(range(len(rows)), key=lambda i: -rows[i][2])
        for index in sorted(range(len(rows))):
            node = rows[index][0]
            if node < 0 or node not in items_of:
                xs[index] = left + slot * (next_slot + 0.5)
                next_slot += 1
        for index in order:
            node = rows[index][0]
            if index in xs:
                continue
            kids = items_of[node]
            xs[index] = (xs[kids[0]] + xs[kids[-1]]) / 2
        for index, (node, parent, depth, hidden) in enumerate(rows):
            y = level_height * (depth + 0.4)
            spots.append(Spot(node, xs[index], y, depth, parent, hidden))
        return GrowingLayout(spots, slot, level_height, levels, shown)
