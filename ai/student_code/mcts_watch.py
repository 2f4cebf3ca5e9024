"""The worker's side of the MCTS exercise: the student's tree read as plain data.

The student's `monte_carlo_tree_search(game, state, iterations, rng, c)` runs in the worker
(`ai.student_code.child.MctsExerciseHost`) against the exercise's game API
(`exercise_game.RemoteGame`) with `rng = random.Random(seed)`.  Its loop calls
`select(game, tree, c)` on the root once an iteration (the template's loop, AIMA's
MONTE-CARLO-TREE-SEARCH); `SelectWatch` stands in for the student's `select` and, each time
it is given the root again, reads the root's counts: the tree after one more iteration.
What goes to the parent is plain data only, bounded in size: per iteration the root's N and
its children's (move, N, U), and at the end the whole tree as rows (parent, move, N, U,
terminal), at most one node an iteration plus the root.  The parent
(`ai.student_code.mcts_grader`) trusts none of it and checks every field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plyground.ai.student_code.exercise_game import RemotePosition
from plyground.ai.student_code.worker import Refusal, short_repr

MAX_CHILDREN = 64
"""The most children a node of the student's tree may have that are read (a game's moves at
one position are far fewer in every exercise case)."""


def _plain(move: Any) -> bool:
    """Whether a move can travel to the parent as the game's moves do."""
    if move is None or isinstance(move, (bool, int, float, str)):
        return True
    return isinstance(move, (tuple, list)) and len(move) <= 8 and all(_plain(m) for m in move)


def _count(node: Any, name: str) -> float:
    """A node's N or U as a plain number, or a refusal naming the field."""
    try:
        value = getattr(node, name)
    except Exception:
        raise Refusal(f"a node of your tree has no {name}: keep the Node record's fields") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refusal(f"a node's {name} is {short_repr(value)}, not a number")
    try:
        return float(value)
    except OverflowError:  # an integer of 400 digits
        raise Refusal(f"a node's {name} is not a finite number") from None


def children_of(node: Any) -> list[Any]:
    """A node's children, in order (at most MAX_CHILDREN + 1: the parent refuses more)."""
    try:
        children = node.children
        return [child for _, child in zip(range(MAX_CHILDREN + 1), children, strict=False)]
    except Exception:
        raise Refusal("a node of your tree has no list of children") from None


def move_of(node: Any) -> Any:
    """The move into a node, as plain data."""
    move = getattr(node, "move", None)
    if not _plain(move):
        raise Refusal(f"a node's move is {short_repr(move)}, not one of the game's moves")
    return list(move) if isinstance(move, tuple) else move


def root_counts(top: object) -> list[Any]:
    """[root N, [[move, N, U], ...]]: the root's counts and its children's, in order."""
    return [
        _count(top, "N"),
        [[move_of(child), _count(child, "N"), _count(child, "U")] for child in children_of(top)],
    ]


def tree_rows(top: object, limit: int) -> list[Any]:
    """The tree breadth first as rows [parent row, move, N, U, terminal] (the root's parent
    -1), at most `limit` + 1 rows (the parent refuses more)."""
    rows: list[Any] = []
    queue: list[tuple[Any, int]] = [(top, -1)]
    seen: set[int] = set()
    while queue and len(rows) <= limit:
        node, parent = queue.pop(0)
        if id(node) in seen:
            raise Refusal("your tree holds a node twice (a child that is also an ancestor?)")
        seen.add(id(node))
        state = getattr(node, "state", None)
        terminal = isinstance(state, RemotePosition) and state.terminal
        rows.append(
            [
                parent,
                None if parent < 0 else move_of(node),
                _count(node, "N"),
                _count(node, "U"),
                terminal,
            ]
        )
        queue.extend((child, len(rows) - 1) for child in children_of(node))
    return rows


class SelectWatch:
    """The student's `select`, watched: a call given the root starts an iteration; from the
    second such call on, the root's counts are read first (the tree after the one before)."""

    def __init__(self, select: Callable[..., Any], iterations: int) -> None:
        self.select = select
        self.iterations = iterations
        self.root: object = None
        self.rounds: list[Any] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.root is None:
            nodes = [arg for arg in (*args, *kwargs.values()) if hasattr(arg, "children")]
            self.root = nodes[0] if nodes else None
            self.starts = 1
        elif any(arg is self.root for arg in (*args, *kwargs.values())):
            self.starts += 1
            if self.starts > self.iterations:
                raise Refusal(
                    f"selected from the root more than {self.iterations} times in "
                    f"{self.iterations} iterations: one select(game, tree, c) an iteration"
                )
            self.rounds.append(root_counts(self.root))
        return self.select(*args, **kwargs)
