"""Monte Carlo tree search as in AIMA (4th ed., Figure 5.11, MONTE-CARLO-TREE-SEARCH).

Each iteration grows the tree by one position in four phases:

1. SELECT: from the root, while a node's moves are all in the tree, go to the child of
   largest UCB1 (the first such in the children's order);
2. EXPAND: add the child for the node's first untried move (in the game's order);
3. SIMULATE: play on from the new child at random to the end of the game: the result for
   MAX is 1 for a win, 0.5 for a draw, 0 for a loss;
4. BACK-PROPAGATE: on the path back to the root, each node's N rises by 1 and its U by the
   result for the player who moved into it.

The answer is the move of the root's most visited child (the first such in the order they
were added).  Every value here is an estimate from playouts, never an exact one.

Chance (dice): a chance node is a tree node whose children are its outcomes, all added with
it; selection and playouts draw an outcome by its probability, never choose one.

The random stream, exactly (an exercise's grader compares a student's search with this one
draw for draw): a playout's move is ``rng.choice(list(game.actions(state)))``; a chance
outcome, in selection and in playouts, is ``rng.choices(outcomes, weights=probabilities)[0]``
over ``game.chance_outcomes(state)``; nothing else draws from `rng`.
"""

from __future__ import annotations

import math
import random

from plyground.ai.textbook.mcts_node import MctsNode
from plyground.ai.textbook.observer import (
    CHANCE,
    MAX,
    MIN,
    QUIET_MCTS,
    MctsGame,
    MctsObserver,
    S,
)
from plyground.games.base import Move

__all__ = ["MctsNode", "monte_carlo_tree_search", "ucb1"]

PLAYOUT_LIMIT = 100_000
"""A playout longer than this stops the search: the game may never end."""


class PlayoutTooLong(ValueError):
    """A playout passed `PLAYOUT_LIMIT` moves."""


def ucb1(child: MctsNode[S], parent_N: int, c: float) -> float:
    """UCB1(n) = U(n)/N(n) + c * sqrt(ln N(parent) / N(n)): the exploitation term (the mean
    result for the player choosing) plus the exploration term (large for a child rarely
    visited, growing slowly as the parent is visited more); infinite before any visit."""
    if child.N == 0:
        return math.inf
    return child.U / child.N + c * math.sqrt(math.log(parent_N) / child.N)


def monte_carlo_tree_search(
    game: MctsGame[S],
    state: S,
    iterations: int,
    rng: random.Random,
    c: float = math.sqrt(2),
    observer: MctsObserver[S] = QUIET_MCTS,
) -> tuple[Move, MctsNode[S]]:
    """MONTE-CARLO-TREE-SEARCH: `iterations` iterations from `state`; the move of the most
    visited child of the root, and the root (the whole tree, with its statistics)."""
    count = 0

    def node(state: S, parent: MctsNode[S] | None, move: Move | None) -> MctsNode[S]:
        """A new node; a chance node comes with a child for each outcome."""
        nonlocal count
        made = MctsNode(state, parent, move, id=count, mover=mover(parent))
        count += 1
        if game.is_terminal(state):
            pass
        elif game.to_move(state) == CHANCE:
            made.chance = True
            for outcome, _ in game.chance_outcomes(state):
                made.children.append(node(game.result(state, outcome), made, outcome))
        else:
            made.untried = list(game.actions(state))
        return made

    def mover(parent: MctsNode[S] | None) -> str:
        """Who moves into a child of `parent`: the player to move there (through a chance
        node, whoever moved into it; into the root, MIN)."""
        if parent is None:
            return MIN
        if parent.chance:
            return parent.mover
        return game.to_move(parent.state)

    def select(tree: MctsNode[S]) -> MctsNode[S]:
        """SELECT: down while every move is in the tree: the child of largest UCB1 (at a
        chance node, the outcome drawn)."""
        n = tree
        while not n.untried and n.children:
            if n.chance:
                child = draw(n)
                observer.selected(n, child, ())
            else:
                scores = [(child, ucb1(child, n.N, c)) for child in n.children]
                child = max(scores, key=lambda pair: pair[1])[0]  # the first of the largest
                observer.selected(n, child, scores)
            n = child
        return n

    def draw(n: MctsNode[S]) -> MctsNode[S]:
        """A chance node's child drawn by its probability."""
        outcomes = game.chance_outcomes(n.state)
        outcome = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        return next(child for child in n.children if child.move == outcome)

    def expand(leaf: MctsNode[S]) -> MctsNode[S]:
        """EXPAND: a child for the leaf's first untried move (the leaf itself when the game
        is over there)."""
        if not leaf.untried:
            observer.expanded(leaf, leaf)
            return leaf
        move = leaf.untried.pop(0)
        child = node(game.result(leaf.state, move), leaf, move)
        leaf.children.append(child)
        observer.expanded(leaf, child)
        return child

    def simulate(child: MctsNode[S]) -> float:
        """SIMULATE: a playout from `child` to the end of the game, at random; the result
        for MAX (1 win, 0.5 draw, 0 loss)."""
        s = child.state
        moves: list[Move] = []
        while not game.is_terminal(s):
            if game.to_move(s) == CHANCE:
                outcomes = game.chance_outcomes(s)
                move = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                move = rng.choice(list(game.actions(s)))
            moves.append(move)
            if len(moves) > PLAYOUT_LIMIT:
                raise PlayoutTooLong(
                    f"a playout passed {PLAYOUT_LIMIT:,} moves: the game may never end"
                )
            s = game.result(s, move)
        value = game.evaluate(s)
        result = 1.0 if value > 0 else (0.0 if value < 0 else 0.5)
        observer.simulated(child, moves, result)
        return result

    def back_propagate(result: float, child: MctsNode[S]) -> None:
        """BACK-PROPAGATE: N + 1 on every node up to the root, U + the result for the
        player who moved into the node."""
        n: MctsNode[S] | None = child
        while n is not None:
            n.N += 1
            n.U += result_for(n.mover, result)
            observer.backed_up(n, result)
            n = n.parent

    tree = node(state, None, None)
    for i in range(1, iterations + 1):
        observer.iteration(i, tree)
        leaf = select(tree)
        child = expand(leaf)
        result = simulate(child)
        back_propagate(result, child)
    best = most_visited(tree)
    observer.decided(tree, best.move)
    return best.move, tree


def most_visited(tree: MctsNode[S]) -> MctsNode[S]:
    """The child with the largest N (the first such in the order they were added)."""
    if not tree.children:
        raise ValueError("no move was searched: the game is over, or no iteration ran")
    return max(tree.children, key=lambda child: child.N)


def result_for(player: str, result: float) -> float:
    """A result for MAX (1, 0.5, 0) as `player` (MAX or MIN) counts it."""
    return result if player == MAX else 1.0 - result
