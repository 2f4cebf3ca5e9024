"""Explicit game trees as data: the textbook examples (and random practice trees) as a game.

A tree is nested tuples: a leaf is a number (its value for MAX); a decision node is
``("max" | "min", ((move, subtree), ...))``; a chance node is
``("chance", ((outcome, probability, subtree), ...))``.  MAX is player 0, MIN player 1.
The game is not in `games.GAMES` (it is no game to play): the lessons build it directly.
Leaves are terminal and their utility *is* the value (`utility_is_value`), so a search
shows the book's numbers unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from plyground.games.base import CHANCE, NO_HEURISTIC, GameOption, Heuristic, Preset, illegal

Tree = Any
"""A leaf value, ("max"|"min", ((move, tree), ...)) or ("chance", ((outcome, p, tree), ...))."""


def _kind(tree: Tree) -> str:
    """'leaf', 'max', 'min' or 'chance'."""
    return "leaf" if isinstance(tree, int | float) else str(tree[0])


def height(tree: Tree) -> int:
    """Decision layers on the longest path (chance layers are free, as in the search)."""
    kind = _kind(tree)
    if kind == "leaf":
        return 0
    below = max(height(entry[-1]) for entry in tree[1])
    return below if kind == "chance" else below + 1


@dataclass(frozen=True, slots=True)
class TreeState:
    """A node of an explicit tree, named by the moves that lead to it."""

    game: TreeGame
    path: tuple[str, ...] = ()

    @property
    def STOCHASTIC(self) -> bool:
        """True when the tree has chance nodes."""
        return self.game.stochastic

    @property
    def tree(self) -> Tree:
        """This node's subtree."""
        node = self.game.tree
        for move in self.path:
            node = next(entry[-1] for entry in node[1] if entry[0] == move)
        return node

    @property
    def to_move(self) -> int:
        """0 at MAX nodes, 1 at MIN nodes, CHANCE at chance nodes (a leaf: the last mover's
        opponent, as in any finished game)."""
        kind = _kind(self.tree)
        if kind == "chance":
            return CHANCE
        if kind == "leaf":
            return self.player
        return 0 if kind == "max" else 1

    @property
    def player(self) -> int:
        """The player to move; at a chance node or a leaf, the player of the nearest decision
        node above it (its owner for sign purposes)."""
        kind = _kind(self.tree)
        if kind in ("max", "min"):
            return 0 if kind == "max" else 1
        if not self.path:
            return 0
        return TreeState(self.game, self.path[:-1]).player

    @property
    def ply(self) -> int:
        """Moves made from the root."""
        return len(self.path)

    def legal_moves(self) -> tuple[str, ...]:
        """The children's names in the tree's order."""
        tree = self.tree
        return () if _kind(tree) == "leaf" else tuple(str(entry[0]) for entry in tree[1])

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        """(outcome, probability) at a chance node."""
        tree = self.tree
        if _kind(tree) != "chance":
            return ()
        return tuple((str(entry[0]), float(entry[1])) for entry in tree[1])

    def play(self, move: str) -> TreeState:
        """The child named `move`."""
        if move not in self.legal_moves():
            raise illegal(move, list(self.legal_moves()))
        return TreeState(self.game, (*self.path, move))

    def is_terminal(self) -> bool:
        """Leaves end the game."""
        return _kind(self.tree) == "leaf"

    def leaf_value(self) -> float:
        """The leaf's value for MAX."""
        return float(self.tree)

    def utility(self, player: int) -> float:
        """The leaf value for MAX, its negation for MIN (zero-sum)."""
        value = self.leaf_value()
        return value if player == 0 else -value

    def winner(self) -> int | None:
        """MAX if the leaf is positive, MIN if negative."""
        value = self.leaf_value()
        return None if value == 0 else (0 if value > 0 else 1)

    def key(self) -> tuple[str, ...]:
        """The path: every node of a tree is its own position."""
        return self.path

    def winning_line(self) -> None:
        """No lines in a tree."""
        return None


class TreeGame:
    """One explicit tree as a game: the search, the trace and the explorer take it as is."""

    name = "tree"
    title = "Game tree"
    side_names = ("MAX", "MIN")
    default_heuristic = "none"
    heuristics: dict[str, Heuristic] = {"none": NO_HEURISTIC}  # noqa: RUF012 (never changed)
    utility_is_value = True
    """Leaves carry the book's values: a search reports them unscaled."""
    root_label = "A"
    """The book calls the root A."""
    labels_name_nodes = True
    """Move names (B, B1, B2, ...) already name each node: no need to write out its path."""

    def __init__(self, tree: Tree, title: str = "Game tree") -> None:
        self.tree = tree
        self.title = title
        self.stochastic = _has_chance(tree)

    def initial_state(self) -> TreeState:
        """The root."""
        return TreeState(self)

    options: tuple[GameOption, ...] = ()
    notation_help = "a move is a branch's name (B, B1, ...), moves separated by spaces"
    presets: tuple[Preset, ...] = ()

    def option_values(self) -> dict[str, int]:
        """A tree takes no options."""
        return {}

    def format_move(self, move: str) -> str:
        """Moves are their names."""
        return str(move)

    def parse_move(self, text: str, state: TreeState) -> str:
        """A branch of `state` by its name."""
        legal = [str(move) for move in state.legal_moves()]
        if text.strip() not in legal:
            raise illegal(text, legal)
        return text.strip()

    def parse_moves(self, text: str) -> list[str]:
        """Names separated by spaces."""
        return text.split()

    def format_moves(self, moves: Sequence[str]) -> str:
        """Names separated by spaces."""
        return " ".join(map(str, moves))

    def replay(self, moves: Sequence[str]) -> TreeState:
        """The node the branches lead to."""
        state = self.initial_state()
        for move in moves:
            state = state.play(move)
        return state

    def render(self, state: TreeState) -> str:
        """The node's path from the root."""
        return " ".join(("A", *state.path))


def _has_chance(tree: Tree) -> bool:
    kind = _kind(tree)
    if kind == "leaf":
        return False
    return kind == "chance" or any(_has_chance(entry[-1]) for entry in tree[1])


def leaf_values(tree: Tree) -> list[float]:
    """Every leaf's value, left to right."""
    if _kind(tree) == "leaf":
        return [float(tree)]
    return [value for entry in tree[1] for value in leaf_values(entry[-1])]


def value_of(tree: Tree) -> float:
    """The expectiminimax value of a tree for MAX."""
    kind = _kind(tree)
    if kind == "leaf":
        return float(tree)
    if kind == "chance":
        return float(sum(entry[1] * value_of(entry[2]) for entry in tree[1]))
    values = [value_of(entry[1]) for entry in tree[1]]
    return max(values) if kind == "max" else min(values)


def reorder(tree: Tree, best: bool) -> Tree:
    """The same tree with every decision node's children sorted best (or worst) first."""
    kind = _kind(tree)
    if kind == "leaf":
        return tree
    if kind == "chance":
        return (kind, tuple((o, p, reorder(t, best)) for o, p, t in tree[1]))
    children = [(move, reorder(sub, best)) for move, sub in tree[1]]
    descending = (kind == "max") == best
    children.sort(key=lambda entry: value_of(entry[1]), reverse=descending)
    return (kind, tuple(children))


def three_ply(leaves: tuple[float, ...]) -> Tree:
    """MAX's choice among B, C, D, each a MIN node over three leaves (AIMA fig. 5.2)."""
    children = []
    for index in range(0, len(leaves), 3):
        name = "BCDEFG"[index // 3]
        triple = leaves[index : index + 3]
        children.append((name, ("min", tuple((f"{name}{i + 1}", v) for i, v in enumerate(triple)))))
    return ("max", tuple(children))


def dice_tree(leaves: tuple[float, ...], probabilities: tuple[float, float] = (0.9, 0.1)) -> Tree:
    """MAX between two chance nodes, each over two MIN nodes over two leaves (AIMA fig. 5.12)."""
    moves = []
    for side, name in enumerate(("a1", "a2")):
        outcomes = []
        for branch, probability in enumerate(probabilities):
            base = side * 4 + branch * 2
            pair = leaves[base : base + 2]
            minimum = (
                "min",
                tuple((f"{name}.{branch + 1}.{i + 1}", v) for i, v in enumerate(pair)),
            )
            outcomes.append((f"{name}.{branch + 1}", probability, minimum))
        moves.append((name, ("chance", tuple(outcomes))))
    return ("max", tuple(moves))


AIMA_FIG_5_2 = three_ply((3, 12, 8, 2, 4, 6, 14, 5, 2))
"""AIMA 3rd ed. fig. 5.2/5.5: A = 3; alpha-beta skips C's last two leaves."""
LESSON_TREE = three_ply((3, 5, 9, 1, 7, 14, 8, 11, 2))
"""Lesson 1: A = 3; once C's first leaf is 1, C's other two cannot matter."""
BEST_ORDER_TREE = reorder(LESSON_TREE, best=True)
"""Lesson 2: every node's best child first (alpha-beta's best case)."""
WORST_ORDER_TREE = reorder(LESSON_TREE, best=False)
"""Lesson 2: every node's worst child first (alpha-beta prunes nothing)."""
DICE_SMALL = dice_tree((2, 2, 3, 3, 1, 1, 4, 4))
"""Lesson 3: the left move is worth 2.1, the right 1.3."""
DICE_STRETCHED = dice_tree((20, 20, 30, 30, 1, 1, 400, 400))
"""Lesson 3 after an order-preserving change of the leaves: now 21 against 40.9."""


def _two(name: str, first: float, second: float) -> Tree:
    """A MAX node `name` over two leaves, `name`a and `name`b."""
    return (name, ("max", ((f"{name}a", first), (f"{name}b", second))))


MCTS_TREE: Tree = (
    "max",
    (
        ("B", ("min", (_two("B1", 1, -1), _two("B2", 1, 1)))),
        ("C", ("min", (_two("C1", -1, -1), _two("C2", 1, 0)))),
        ("D", ("min", (_two("D1", 0, -1), _two("D2", 1, 0)))),
    ),
)
"""The Monte Carlo lesson: leaves are wins (1), draws (0) and losses (-1) for MAX.  B is a
win whatever MIN does (minimax 1), C a loss (-1), D a draw (0); played out at random from
each, MAX wins 3/4 of B's games, 3/8 of C's and half of D's."""


@dataclass(frozen=True)
class Lesson:
    """A textbook example: a tree to search, how, and what to notice."""

    title: str
    tree: Tree
    algorithm: str
    text: str
    other: Tree | None = None
    other_label: str = ""
    label: str = "as drawn"
    """What to call `tree` next to `other`."""
    other_text: str = ""
    """The text while `other` is shown (else `text`)."""
    iterations: int = 0
    """Monte Carlo tree search's iterations (a lesson whose algorithm is "mcts")."""

    def text_for(self, other: bool) -> str:
        """The lesson's text for the version shown."""
        return self.other_text if other and self.other_text else self.text


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "1. Minimax and alpha-beta",
        LESSON_TREE,
        "alphabeta",
        "MAX picks among B, C, D; each MIN node picks its smallest leaf. A = 3. Alpha-beta "
        "skips C's last two leaves (greyed: it never looked at them): once C's first leaf is "
        "1, C is worth at most 1 (≤ 1), and MAX already has 3 from B.",
    ),
    Lesson(
        "2. Move ordering",
        WORST_ORDER_TREE,
        "alphabeta",
        "The same tree with every node's worst move first: alpha-beta evaluates all 9 "
        "leaves. Switch to the best order to see how many leaves a good order saves.",
        other=BEST_ORDER_TREE,
        other_label="best order",
        label="worst order",
        other_text="The same tree with every node's best move first: alpha-beta evaluates "
        "only 5 leaves and never looks at the greyed ones. Switch back to the worst order "
        "to see all 9 evaluated.",
    ),
    Lesson(
        "3. Chance and the scale of values",
        DICE_SMALL,
        "expectiminimax",
        "With leaves 2, 2, 3, 3, 1, 1, 4, 4 the left move is worth 2.1 and the right 1.3. "
        "Stretch the leaves to 20, 20, 30, 30, 1, 1, 400, 400 (same order) and the decision "
        "flips: 21 against 40.9. Averages only respect an evaluation that is a positive "
        "linear transformation of the chance of winning.",
        other=DICE_STRETCHED,
        other_label="stretched leaves",
        label="leaves 2, 2, 3, 3, 1, 1, 4, 4",
        other_text="Now the leaves are stretched to 20, 20, 30, 30, 1, 1, 400, 400 (the same "
        "order as 2, 2, 3, 3, 1, 1, 4, 4) and the decision flips: 21 against 40.9, where "
        "before it was 2.1 against 1.3. Averages only respect an evaluation that is a "
        "positive linear transformation of the chance of winning.",
    ),
)
"""The lessons in the order they are taught (practice trees come from `random_tree`)."""

MCTS_LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "4. Monte Carlo tree search",
        MCTS_TREE,
        "mcts",
        "No evaluation, only results: each iteration SELECTS a path from A by UCB1, EXPANDS "
        "the first move not yet in the tree, SIMULATES a game from it with random moves to a "
        "leaf (win 1, draw 1/2, loss 0 for MAX) and BACKS the result UP: every node on the "
        "path gets N + 1 and U + the result for the player who moved into it. "
        "UCB1 = U/N + c * sqrt(ln N(parent) / N): U/N exploits (the move that won most so "
        "far), the second term explores: it is infinite for a child never tried, shrinks "
        "as the child is visited and grows slowly for every child the parent passes over, "
        "so a move that looked bad early is tried again before long. After 20 iterations B, "
        "the sure win, has the most visits: MCTS plays the most visited move. Every U/N is "
        "an estimate from playouts, never an exact value.",
        iterations=20,
    ),
)
"""The Monte Carlo tree search lessons, numbered after `LESSONS` (`trace --lesson 4`, and
the window's lesson 4: the explorer steps its iterations)."""
TRACE_LESSONS: tuple[Lesson, ...] = LESSONS + MCTS_LESSONS
"""Every lesson `trace --lesson K` can run, K from 1."""


def random_tree(seed: int, depth: int = 3, branching: tuple[int, int] = (2, 3)) -> Tree:
    """A random MAX/MIN tree with small integer leaves, for practising alpha-beta."""
    rng = random.Random(seed)
    letters = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")  # the root is A

    def build(level: int, name: str) -> Tree:
        if level == depth:
            return rng.randint(0, 9)
        kind = "max" if level % 2 == 0 else "min"
        count = rng.randint(*branching)
        names = [f"{name}{i + 1}" if name else next(letters) for i in range(count)]
        return (kind, tuple((n, build(level + 1, n)) for n in names))

    return build(0, "")
