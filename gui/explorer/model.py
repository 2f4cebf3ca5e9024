"""The explorer without pygame: what it shows and what a click, a key or a step changes.

`ExplorerModel` holds the position (or lesson tree), the search settings, the recorded
trace, the current step, the root it is drawn from, the open nodes, practice's marks and
guess, the hovered item and whether pruned subtrees are shown.  Tests drive it directly;
the scene turns events into its calls and the views (`tree_view`, `panel`, `controls`)
read it.  Recording runs wherever the caller likes (`record()`; the scene uses a thread)
and arrives through `adopt` or `fail`.

The narrated node is always in view: every step opens the path to it (and goes back up
from a re-rooted subtree that does not hold it), and the layout never folds that path.

Monte Carlo tree search is stepped the same way with iterations and a seed in place of the
depth: its recording (`record_mcts`, `adopt_mcts`) is read through `mcts_steps.MctsSteps`
(`mcts`), and `trace` stays None.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from plyground.ai.engine.search import MCTS, playing_algorithms
from plyground.ai.student_code.heuristics import is_heuristic_file
from plyground.ai.student_code.isolated_runs import record_trace
from plyground.ai.textbook.mcts_trace import DEFAULT_ITERATIONS, record_mcts
from plyground.ai.textbook.trace import Trace, TraceNode
from plyground.games.base import State
from plyground.games.trees import examples as tree_examples
from plyground.games.trees import text as tree_text
from plyground.gui.explorer import practice as explorer_practice
from plyground.gui.explorer.layout import CUT, MORE, PRUNED, Layout, Placed, layout
from plyground.gui.explorer.mcts_steps import GrowingLayout, MctsSteps
from plyground.gui.explorer.practice import EDITOR, PRACTICE, Practice
from plyground.gui.explorer.pruned import Pruned, pruned_subtrees
from plyground.untrusted import printable

CHANCE_CHOICES = {
    "No chance": (),
    "Chance 0.9 / 0.1": (0.9, 0.1),
    "Chance 0.5 / 0.5": (0.5, 0.5),
    "Chance 1/3 each": (1 / 3, 1 / 3, 1 / 3),
}
"""The editor's random trees: chance nodes (and their outcomes' probabilities) or none."""
DOUBLE_CLICK = 0.4
"""Seconds between two clicks on one node that make a double-click."""
MCTS_C = math.sqrt(2)
"""MCTS's exploration constant c in UCB1 (the textbook's √2)."""
SMALL_TREE = 80
"""Traces up to this many nodes open fully at first; bigger ones show the chosen line."""


class ExplorerModel:
    """One explorer's state: settings, trace, step, root, open nodes, practice, hover."""

    def __init__(
        self,
        state: State[Any],
        algorithm: str | None = None,
        depth: int | None = None,
        heuristic: str | None = None,
        ordering: str = "game",
        table: bool = False,
        lesson: int | None = None,
        seed: int = 1,
        iterations: int = DEFAULT_ITERATIONS,
        mcts_seed: int = 0,
        exploration: float = MCTS_C,
    ) -> None:
        self.state = state
        self.lesson = lesson
        self.variant = False
        self.seed = seed
        allowed = self.algorithms()
        default = "alphabeta" if "alphabeta" in allowed else allowed[0]
        self.algorithm = algorithm if algorithm in allowed else default
        self.depth = depth if depth is not None else 3
        self.heuristic = heuristic
        self.ordering = ordering
        self.table = table
        self.trace: Trace | None = None
        self.iterations = iterations
        """MCTS: how many iterations it runs (in place of a depth)."""
        self.mcts_seed = mcts_seed
        """MCTS: the seed of its playouts (one seed, one tree; `trace` uses the same)."""
        self.exploration = exploration
        """MCTS: UCB1's exploration constant c (`trace --c` the same)."""
        self.mcts: MctsSteps | None = None
        """MCTS: the recorded search, read step by step (`trace` is then None)."""
        self._mcts_layout: tuple[Any, GrowingLayout] | None = None
        self.mcts_slots: tuple[float, ...] = (64.0, 70.0, 76.0, 82.0)
        """MCTS: the narrowest slot a node gets when the most visited node's N has 1, 2, 3,
        4 or more digits (its labels' width; the scene measures them)."""
        self.error = ""
        self.step = 0
        self.roots: list[int] = [0]
        self.expanded: set[int] = set()
        self.pinned: set[int] = set()
        """Nodes opened by hand: their children show even past the depth that fits."""
        self.hover: Placed | None = None
        self.mcts_hover: int | None = None
        """MCTS: the node under the pointer (its hover card says its N, U, U/N and UCB1)."""
        self.pointer: tuple[int, int] | None = None
        """Where the mouse is (the panel explains the counter under it)."""
        self.show_pruned = lesson is not None
        """Pruned subtrees drawn greyed (on in the lessons)."""
        self.pruned = Pruned(0)
        self.practice = Practice()
        self.editor_text = tree_text.EXAMPLE
        self.editor_error = ""
        self.branching = 3
        self.levels = 2
        self.chance = "No chance"
        self.area = (600.0, 400.0)
        """The size the tree is laid out in (the scene sets its canvas's)."""
        self.spacing = (26.0, 150.0, 120.0)
        """The smallest and largest slot and the largest level height (scaled by the scene)."""
        self.cut_steps: dict[int, int] = {}
        self._bounds: dict[int, list[tuple[int, str, float | None]]] = {}
        self._layout: Layout | None = None
        self._layout_key: Any = None
        self._last_click: tuple[int, float, tuple[float, float] | None, bool] | None = None
        if lesson is not None:
            self.load_lesson(lesson)

    # ------------------------------------------------------------------ settings
    def algorithms(self) -> tuple[str, ...]:
        """The algorithms that can search this position's game."""
        return playing_algorithms(self.state.game)

    @property
    def is_mcts(self) -> bool:
        """Whether the search shown (or asked for) is Monte Carlo tree search."""
        return self.algorithm == MCTS

    def load_lesson(self, index: int) -> None:
        """Put a lesson's tree, a fresh practice tree or the editor's tree in place."""
        self.lesson = index
        self.practice = Practice()
        self.show_pruned = True
        if index == PRACTICE:
            tree = tree_examples.random_tree(self.seed)
            self.state = tree_examples.TreeGame(tree, "Practice").initial_state()
            self.algorithm = "minimax"
        elif index == EDITOR:
            self.load_editor_text(self.editor_text)
            return
        else:
            lesson = tree_examples.TRACE_LESSONS[index]
            tree = lesson.other if self.variant and lesson.other is not None else lesson.tree
            self.state = tree_examples.TreeGame(tree, lesson.title).initial_state()
            self.algorithm = lesson.algorithm
            if lesson.iterations:
                self.iterations, self.mcts_seed = lesson.iterations, 0  # as `trace --lesson`
        self.depth = tree_examples.height(self.state.game.tree)
        self.ordering = "game"

    def load_editor_text(self, text: str) -> bool:
        """The editor's tree from `text`; on bad text keep the last tree and say why."""
        try:
            tree = tree_text.parse_tree(text)
        except tree_text.TreeTextError as error:
            self.editor_error = str(error)
            return False
        self.editor_text = text
        self.editor_error = ""
        self.state = tree_examples.TreeGame(tree, "Your tree").initial_state()
        allowed = self.algorithms()
        if self.algorithm not in allowed:
            self.algorithm = "expectiminimax" if "expectiminimax" in allowed else "alphabeta"
        self.depth = tree_examples.height(tree)
        self.ordering = "game"
        return True

    def set_generator(self, what: str, text: str) -> None:
        """The editor's random-tree shape: "branching" ("3 moves"), "levels" ("Depth 2")
        or "chance" (a CHANCE_CHOICES name)."""
        if what == "chance" and text in CHANCE_CHOICES:
            self.chance = text
        elif what == "branching":
            self.branching = int(text.split()[0])
        elif what == "levels":
            self.levels = int(text.split()[-1])

    def random_editor_text(self) -> str:
        """A random tree of the chosen shape, as text (seeded by `seed`)."""
        return tree_text.generate(
            self.branching, self.levels, CHANCE_CHOICES[self.chance], self.seed
        )

    def load_random_tree(self) -> bool:
        """The editor's tree becomes a random one of the chosen shape; a shape with too many
        leaves is refused in one line (the tree shown stays)."""
        outcomes = len(CHANCE_CHOICES[self.chance]) or 1
        leaves = self.branching**self.levels * outcomes ** (self.levels - 1)
        if leaves > tree_text.MAX_LEAVES:
            self.editor_error = (
                f"{self.branching} moves, depth {self.levels}"
                f"{' and chance' if outcomes > 1 else ''} make {leaves:,} leaves; the editor "
                f"takes at most {tree_text.MAX_LEAVES}: choose fewer moves or less depth"
            )
            return False
        return self.load_editor_text(self.random_editor_text())

    def record(self) -> Trace:
        """Record the search with the current settings (raises `ai.SearchError`); a heuristic
        from a user's file runs in a worker process."""
        return record_trace(
            self.state, self.algorithm, self.depth, self.heuristic, self.ordering, self.table
        )

    def heuristic_choices(self) -> tuple[list[str], str]:
        """The heuristic drop-down's entries and the one shown (a heuristic from a file by its
        file's name)."""
        game = self.state.game
        names = list(game.heuristics)
        chosen = self.heuristic or game.default_heuristic
        if is_heuristic_file(chosen):
            chosen = printable(Path(chosen).name)
            names.append(chosen)
        return names, chosen

    def choose_heuristic(self, label: str) -> None:
        """The drop-down picked `label` (a file's name keeps its file)."""
        current = self.heuristic
        if current and is_heuristic_file(current) and printable(Path(current).name) == label:
            return
        self.heuristic = label

    def forget(self) -> None:
        """The settings changed: the trace shown no longer holds."""
        self.trace = None
        self.mcts = None
        self.error = ""

    def fail(self, error: str) -> None:
        """The recording was refused: say why in place of the tree."""
        self.trace = None
        self.mcts = None
        self.error = error

    def record_mcts(self) -> MctsSteps:
        """Record MCTS with the current iterations, seed and exploration constant (the
        textbook's, seeded: one seed, one tree)."""
        return MctsSteps(
            record_mcts(self.state, self.iterations, self.mcts_seed, self.exploration),
            self.iterations,
            self.mcts_seed,
            self.exploration,
        )

    def adopt_mcts(self, found: MctsSteps) -> None:
        """A recorded MCTS: shown at its end (the grown tree and the move it plays); a
        lesson opens at its last iteration's start, to step through the four phases."""
        self.trace = None
        self.mcts = found
        self.error = ""
        self.roots = [0]
        self.hover = None
        self._mcts_layout = None
        self.step = found.last_step
        if self.lesson is not None:
            self.step = found.iteration_start(found.last_step)

    def mcts_layout(self) -> GrowingLayout | None:
        """Where the MCTS tree of the current step goes on the canvas (cached)."""
        if self.mcts is None:
            return None
        key = (id(self.mcts), self.step, self.area, self.spacing, self.mcts_slots)
        if self._mcts_layout is None or self._mcts_layout[0] != key:
            low, high, level = self.spacing
            tree = self.mcts.tree(self.step)
            most = max((n.N for n in tree.values() if n.id != 0), default=0)
            slot = self.mcts_slots[min(len(str(most)), len(self.mcts_slots)) - 1]
            placed = self.mcts.layout(self.step, self.area, slot, max(high, slot), level, low * 1.7)
            self._mcts_layout = (key, placed)
        return self._mcts_layout[1]

    def jump_iteration(self, offset: int) -> None:
        """MCTS: to the start of the next (`offset` 1) or this/previous (-1) iteration."""
        if self.mcts is not None:
            self.go_to(self.mcts.iteration_start(self.step, offset))

    def adopt(self, found: Trace) -> None:
        """A finished trace: show it whole, the chosen line open."""
        self.trace = found
        self.error = ""
        self.step = len(found.events) - 1
        self.roots = [0]
        self.hover = None
        self.cut_steps = {e.node: i for i, e in enumerate(found.events) if e.kind == "cutoff"}
        self._bounds = {}
        for index, event in enumerate(found.events):
            if event.kind in ("alpha", "beta"):
                self._bounds.setdefault(event.node, []).append((index, event.kind, event.value))
        if len(found.nodes) <= SMALL_TREE:
            self.expanded = {n.id for n in found.nodes if n.children}
        else:
            self.expanded = set(found.principal_path())
            self.expanded.update(found.root.children)
        self.pinned = set()
        self.pruned = pruned_subtrees(found)
        self._layout_key = None

    # ------------------------------------------------------------------ stepping
    @property
    def ready(self) -> bool:
        """Whether a trace is shown (not still recording)."""
        return self.trace is not None or self.mcts is not None

    @property
    def last_step(self) -> int:
        """The index of the trace's last event (0 without a trace)."""
        if self.mcts is not None:
            return self.mcts.last_step
        return len(self.trace.events) - 1 if self.trace is not None else 0

    @property
    def at_end(self) -> bool:
        """Whether the stepper stands at the end of the search."""
        return self.step >= self.last_step

    @property
    def narrated(self) -> int:
        """The node the current step's sentence is about."""
        if self.trace is None or not self.trace.events:
            return 0
        return self.trace.events[self.step].node

    @property
    def narrated_child(self) -> int | None:
        """The child the sentence names too (a value backed up from it), if any."""
        if self.trace is None or not self.trace.events:
            return None
        child = self.trace.events[self.step].child
        return child if child >= 0 else None

    def go_to(self, step: int) -> None:
        """Show the search as it was after event `step`, the narrated node in view."""
        if self.mcts is not None:
            self.step = max(0, min(step, self.last_step))
            return
        if self.trace is None:
            return
        self.step = max(0, min(step, self.last_step))
        self.follow()

    def follow(self) -> None:
        """Go back up from a re-rooted subtree until the root holds the narrated node."""
        if self.trace is None:
            return
        child = self.narrated_child
        path = [n.id for n in self.trace.path(self.narrated if child is None else child)]
        while len(self.roots) > 1 and self.roots[-1] not in path:
            self.roots.pop()
        # No need to open the path for good: the layout keeps it open while it is narrated
        # (`kept`), so stepping on does not leave every visited line open behind it.

    @property
    def window_shown(self) -> bool:
        """Whether α and β are drawn (along the path, in the panel and the hover card): an
        alpha-beta trace records them; a student's search rebuilt by the grader does not."""
        return self.trace is not None and self.trace.shows_window

    # ------------------------------------------------------------------ the tree
    @property
    def root_id(self) -> int:
        """The node drawn as the root (after re-rooting)."""
        return self.roots[-1]

    @property
    def guessing(self) -> bool:
        """Practice before the answer is shown: the tree hides its values."""
        return self.lesson == PRACTICE and not self.practice.checked

    def node(self, node_id: int) -> TraceNode:
        """A node of the trace, or a ghost of a pruned subtree."""
        assert self.trace is not None
        if self.pruned.is_ghost(node_id):
            return self.pruned.nodes[node_id - self.pruned.first]
        return self.trace.nodes[node_id]

    def kept(self) -> frozenset[int]:
        """The nodes whose children always show: the path to the narrated node and to the
        nodes opened by hand (each below the drawn root)."""
        if self.trace is None:
            return frozenset()
        kept: set[int] = set()
        child = self.narrated_child
        path = [n.id for n in self.trace.path(self.narrated if child is None else child)]
        for target, own in (
            (path, False),
            *(([n.id for n in self.trace.path(p)], True) for p in self.pinned),
        ):
            if self.root_id not in target:
                continue
            line = target[target.index(self.root_id) :]
            kept.update(line if own else line[:-1])
        return frozenset(kept)

    def current_layout(self) -> Layout | None:
        """The layout for the current tree, root, open nodes and area (cached)."""
        if self.trace is None:
            return None
        pruned = self.pruned.under if self.show_pruned and not self.guessing else {}
        keep = self.kept()
        step = 1 << 30 if self.guessing or self.at_end or self.whole_tree else self.step
        key = (
            step,
            id(self.trace),
            self.root_id,
            frozenset(self.expanded),
            keep,
            self.area,
            self.spacing,
            bool(pruned),
        )
        if key != self._layout_key:
            low, high, level = self.spacing
            self._layout = layout(
                self.trace.nodes + self.pruned.nodes,
                self.root_id,
                self.expanded,
                self.area,
                min_slot=low,
                max_slot=high,
                max_level_height=level,
                keep=keep,
                pruned=pruned,
                step=step,
                cut_at=self.cut_steps,
            )
            self._layout_key = key
        return self._layout

    @property
    def whole_tree(self) -> bool:
        """A small trace is laid out whole from the first step, like a textbook figure (the
        nodes not reached yet drawn faint); a big one grows as it is searched."""
        return self.trace is not None and len(self.trace.nodes) <= SMALL_TREE

    def visible(self, node: TraceNode) -> bool:
        """Whether the stepper has reached `node` (in practice every node shows)."""
        if self.pruned.is_ghost(node.id):
            return self.cut_steps.get(self.pruned.cut_of(node.id), 1 << 30) <= self.step
        return node.entered <= self.step or self.guessing

    def toggle(self, node_id: int) -> None:
        """Open or close a node (closing it closes what was opened by hand below it)."""
        if node_id in self.expanded:
            self.expanded.discard(node_id)
            if self.trace is not None:
                self.pinned = {
                    p for p in self.pinned if node_id not in {n.id for n in self.trace.path(p)}
                }
        else:
            self.expanded.add(node_id)

    def reroot(self, node_id: int) -> bool:
        """Draw the tree from `node_id` down; False when it has no children to show."""
        if self.trace is None or self.pruned.is_ghost(node_id):
            return False
        if not self.trace.nodes[node_id].children or node_id == self.root_id:
            return False
        self.roots.append(node_id)
        self.expanded.add(node_id)
        self.hover = None  # the tree moved under the pointer
        return True

    def unroot(self) -> bool:
        """Back to the previous root; False at the top."""
        if len(self.roots) > 1:
            self.roots.pop()
            self.hover = None
            return True
        return False

    def click(self, item: Placed | None, now: float, at: tuple[float, float] | None = None) -> str:
        """A click on an item (`at`: where, in the layout's coordinates): practice marks it;
        else a single click opens or closes the node (a "…" stub opens its node), a second
        one within DOUBLE_CLICK on the same node or the same spot (the first click may have
        moved the tree) makes it the root.  Returns "mark", "toggle", "reroot" or ""."""
        if self.trace is None:
            return ""
        if self.guessing:
            return "mark" if item is not None and self.mark(item.node) else ""
        last = self._last_click
        if last is not None and now - last[1] <= DOUBLE_CLICK and self._same(last, item, at):
            self._last_click = None
            if last[3]:
                self.toggle(last[0])  # undo the first click's toggle
            return "reroot" if self.reroot(last[0]) else ""
        if item is None or item.stub in (CUT, PRUNED):
            return ""
        toggled = item.stub != MORE and item.node != self.root_id
        toggled = toggled and bool(self.trace.nodes[item.node].children)
        self._last_click = (item.node, now, at, toggled)
        if item.stub == MORE:
            self.expanded.add(item.node)
            self._open_folded(item.node)
            return "toggle"
        if not toggled:
            return ""
        self.toggle(item.node)
        if item.node in self.expanded:
            self._open_folded(item.node)
        return "toggle"

    @staticmethod
    def _same(
        last: tuple[int, float, tuple[float, float] | None, bool],
        item: Placed | None,
        at: tuple[float, float] | None,
    ) -> bool:
        """Whether a click repeats the last one: the same node, or (nearly) the same spot."""
        if item is not None and item.node == last[0] and item.stub not in (CUT, PRUNED):
            return True
        before = last[2]
        if at is None or before is None:
            return False
        return (at[0] - before[0]) ** 2 + (at[1] - before[1]) ** 2 <= 12.0**2

    def _open_folded(self, node_id: int) -> None:
        """A node opened by hand: its children show even where the depth limit folds."""
        self.pinned.add(node_id)

    # ------------------------------------------------------------------ practice
    def mark(self, node_id: int) -> bool:
        """Practice: mark or unmark the branch into `node_id` (not the root)."""
        if node_id == self.root_id or self.pruned.is_ghost(node_id):
            return False
        self.practice.marks ^= {node_id}
        return True

    def type_guess(self, char: str) -> bool:
        """Practice: a digit, a sign or a point of the guessed root value."""
        if not self.guessing or not char or not (char.isdigit() or char in "-."):
            return False
        self.practice.guess = (self.practice.guess + char)[-6:]
        return True

    def check_practice(self) -> str:
        """Compare the learner's marks and guess with alpha-beta (the caller records the
        alpha-beta search to show next)."""
        assert self.trace is not None
        skipped, value = explorer_practice.answer(self.state, self.depth)
        self.practice.verdict = explorer_practice.verdict(
            self.trace, self.practice.marks, self.practice.guess, skipped, value
        )
        self.practice.checked = True
        self.algorithm = "alphabeta"
        return self.practice.verdict

    # ------------------------------------------------------------------ alpha and beta
    def window_at(self, node: TraceNode) -> tuple[float | None, float | None]:
        """α and β at `node` as of the current step (raised/lowered since it was entered)."""
        alpha, beta = node.alpha, node.beta
        for index, kind, value in self._bounds.get(node.id, ()):
            if index > self.step:
                break
            if kind == "alpha":
                alpha = value
            else:
                beta = value
        return alpha, beta
