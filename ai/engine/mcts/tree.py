"""The tree of Monte Carlo tree search and its four phases, with MCTS-solver's proofs.

Each node keeps `visits` and `total`, the sum of the results backed up through it, FOR SIDE 0
(`ai.engine.mcts.playouts`): a node is read from the point of view of whoever moves at its
parent, by that side's sign, never by alternation, so a side that moves twice in a row is
backed up right.  UCB1 scores a child as ``q + c * sqrt(ln N / n)``, with q its mean result
for the side choosing (1 a win, 0.5 a draw, 0 a loss), N the parent's visits and n the
child's.  A chance node's outcome is sampled by its probability, never chosen.

Counts (the invariant the tests hold): a node's `visits` equal its children's visits plus
`ended`, the iterations that ended at the node itself (the playout when it was added, and
every time a finished or proven position was reached there); the root's `visits` equal the
iterations run on it.

MCTS-solver (Winands, Björnsson and Saito 2008): a finished position is `solved` with its
value; a node is solved when a child is a win for the side to move there, or when every
child is solved (its best; a chance node: the mean by probabilities).  A solved node is never
descended into again: reaching it backs up its value.  `known` says whether a proven win's
or loss's distance is the true one (a win found before every move was solved may have a
quicker one beside it).
"""

from __future__ import annotations

import math
import random
from collections import deque
from typing import Any

from plyground.ai.engine.mcts.playouts import Playouts, terminal_value
from plyground.ai.evaluation.values import PROVEN, STEP, WIN
from plyground.games.base import CHANCE, Move, State, state_capabilities

WON = WIN - 1e-12
"""A chance game's certain win (no distance there): nothing beats it."""


class Node:
    """One position of the tree (see the module's docstring for its counts)."""

    __slots__ = (
        "by_outcome",
        "chance",
        "children",
        "ended",
        "known",
        "move",
        "outcomes",
        "player",
        "prepared",
        "solved",
        "state",
        "total",
        "untried",
        "visits",
    )

    def __init__(self, state: State[Any], move: Move | None) -> None:
        # No link to the parent: the tree holds no cycle, so a part dropped when the tree
        # moves on with the game is freed at once, not by a pass of the cyclic collector.
        self.state = state
        self.move = move
        self.visits = 0
        self.total = 0.0
        self.ended = 0
        self.children: list[Node] = []
        self.untried: list[Move] = []
        self.by_outcome: dict[Any, Node] = {}
        self.outcomes: tuple[tuple[Move, float], ...] = ()
        self.prepared: dict[Any, State[Any]] | None = None
        """The positions after its moves, made once by the look-ahead (`look_ahead`)."""
        self.solved: float | None = None
        """The proven value for side 0 (a finished game's, or MCTS-solver's), else None."""
        self.known = True
        self.player = state.player
        self.chance = False
        if state.is_terminal():
            self.solved = terminal_value(state)
        elif state.to_move == CHANCE:
            self.chance = True
            self.outcomes = state.chance_outcomes()
        else:
            self.untried = list(reversed(state.legal_moves()))  # expanded in the game's order

    def sign(self) -> float:
        """+1 where side 0 chooses here, -1 where side 1 does."""
        return 1.0 if self.player == 0 else -1.0

    def mean(self) -> float:
        """The mean result backed up through this node, for side 0 (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0


def one_ply_up(value: float, stochastic: bool) -> float:
    """A proven child's value as its parent's move is worth it: one ply further from the end
    (a quicker win is worth more), as `ai.engine.bookkeeping.back_up` counts distance."""
    if stochastic:
        return value
    if value > PROVEN:
        return value - STEP
    if value < -PROVEN:
        return value + STEP
    return value


class MonteCarloTree:
    """A tree and its iterations: `iterate()` runs one (selection, expansion, playout,
    back-up, then the proofs it completes)."""

    def __init__(
        self,
        root: Node,
        exploration: float,
        playouts: Playouts,
        rng: random.Random,
    ) -> None:
        self.root = root
        self.exploration = exploration
        self.playouts = playouts
        self.rng = rng
        self.stochastic = bool(root.state.STOCHASTIC)
        self.nodes_added = 0
        self.playouts_run = 0
        self.deepest = 0
        self.looks_ahead = not state_capabilities(root.state).utility_is_value

    # ------------------------------------------------------------------ the four phases
    def iterate(self) -> None:
        """One iteration from the root."""
        node = self.root
        path = [node]
        while True:
            if node.solved is not None:  # a finished or proven position: its value is known
                result = node.solved
                node.ended += 1
                break
            if node.chance:
                outcome = self._sample(node)
                child = node.by_outcome.get(outcome)
                if child is None:
                    child = self.add_child(node, outcome)
                    node.by_outcome[outcome] = child
                    path.append(child)
                    result = self._value_new(child)
                    break
                node = child
            elif node.untried:
                if node.prepared is None and self.looks_ahead:
                    self.look_ahead(node)  # its first expansion: its moves played once
                    if node.solved is not None:  # a win at once: proven, no child added
                        result = node.solved
                        node.ended += 1
                        break
                child = self.add_child(node, node.untried.pop())
                path.append(child)
                result = self._value_new(child)
                break
            else:
                node = self._select(node)
            path.append(node)
        for visited in path:
            visited.visits += 1
            visited.total += result
        if len(path) > self.deepest:
            self.deepest = len(path)
        if path[-1].solved is not None:
            self._prove(path)

    def _select(self, node: Node) -> Node:
        """UCB1 among the children of a node whose moves are all in the tree; a child proven
        lost for the side choosing is never chosen (were all lost, the node would be solved)."""
        sign = node.sign()
        spread = self.exploration * math.sqrt(math.log(node.visits))
        best = node.children[0]
        best_score = -math.inf
        for child in node.children:
            value = child.solved
            if value is None:
                mean = sign * child.total / child.visits
            else:
                mean = sign * one_ply_up(value, self.stochastic)
                if mean < -PROVEN:
                    continue
            score = 0.5 + 0.5 * mean + spread / math.sqrt(child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _sample(self, node: Node) -> Move:
        """A chance outcome drawn by its probability from the search's seeded stream."""
        roll = self.rng.random()
        total = 0.0
        for outcome, probability in node.outcomes:
            total += probability
            if roll < total:
                return outcome
        return node.outcomes[-1][0]

    def add_child(self, node: Node, move: Move) -> Node:
        """Expansion: the position after `move` as a new child (looked ahead one move)."""
        prepared = node.prepared
        after = prepared.pop(move, None) if prepared is not None else None
        child = Node(node.state.play(move) if after is None else after, move)
        node.children.append(child)
        self.nodes_added += 1
        return child

    def look_ahead(self, node: Node) -> None:
        """A node's moves played once, when it is first expanded (kept for its expansions): a
        move that wins at once for the side to move there solves the node on the spot
        (MCTS-solver's proof, one move deep), so the tree never needs more playouts to see a
        win in one, nor its parent to see the loss it allows.  Not at chance nodes nor in a
        game of scores (no win to find).  Not when a node is added: most nodes are leaves
        reached once, whose moves would be played for nothing (on a game from aima-python
        where each move computes the game's utility, a third of a search's time)."""
        if not self.looks_ahead or node.solved is not None or node.chance:
            return
        mover = node.player
        prepared: dict[Any, State[Any]] = {}
        for move in node.untried:
            after = node.state.play(move)
            if after.is_terminal() and after.winner() == mover:
                win = Node(after, move)
                node.children.append(win)
                node.untried = []
                self.nodes_added += 1
                node.solved = one_ply_up(win.solved or 0.0, self.stochastic)
                return
            prepared[move] = after
        node.prepared = prepared

    def _value_new(self, child: Node) -> float:
        """A new node's first result: its value where the game is over there, else a playout."""
        child.ended += 1
        if child.solved is not None:
            return child.solved
        self.playouts_run += 1
        return self.playouts.run(child.state)

    # ------------------------------------------------------------------ MCTS-solver
    def _prove(self, path: list[Node]) -> None:
        """After reaching a solved node, solve its ancestors where that completes a proof."""
        for node in reversed(path[:-1]):
            if node.solved is not None or not self.solve(node):
                return

    def solve(self, node: Node) -> bool:
        """Whether `node` is now solved (and if so, set its value)."""
        if node.chance:
            if len(node.by_outcome) < len(node.outcomes):
                return False
            parts = [(node.by_outcome[o], p) for o, p in node.outcomes]
            if any(child.solved is None for child, _ in parts):
                return False
            node.solved = sum(p * (child.solved or 0.0) for child, p in parts)
            node.known = all(child.known for child, _ in parts)
            return True
        sign = node.sign()
        best: float | None = None
        every = not node.untried
        known = True
        for child in node.children:
            if child.solved is None:
                every = False
                continue
            value = one_ply_up(child.solved, self.stochastic)
            if best is None or sign * value > sign * best:
                best = value
            known = known and child.known
        if best is None:
            return False
        wins = sign * best >= WON if self.stochastic else sign * best > PROVEN
        if not (wins or every):
            return False
        node.solved = best
        # exact: a draw, a best over every move, or a win at once (nothing is quicker)
        node.known = best == 0 or (every and known) or (wins and abs(best) >= WIN - STEP - 1e-9)
        return True


def find_position(root: Node, state: State[Any], most_plies: int = 6) -> Node | None:
    """The node of a kept tree standing on `state` (the same position, found within
    `most_plies` of the kept root), or None: where the game follows on, its tree is reused."""
    wanted = state.key()
    ply = state.ply
    queue: deque[tuple[Node, int]] = deque([(root, 0)])
    while queue:
        node, depth = queue.popleft()
        found = node.state
        if found.key() == wanted and found.ply == ply and found.to_move == state.to_move:
            return node
        if depth < most_plies:
            queue.extend((child, depth + 1) for child in node.children)
    return None
