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

import itertools
import math
import random
from collections.abc import Iterator

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

__all__ = [
    "MctsNode",
    "back_propagate",
    "expand",
    "monte_carlo_tree_search",
    "select",
    "simulate",
    "ucb1",
]

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
    ids = itertools.count()
    tree = new_node(game, state, None, None, ids)
    for i in range(1, iterations + 1):
        observer.iteration(i, tree)
        leaf = select(game, tree, rng, c, observer)
        child = expand(game, leaf, ids, observer)
        result = simulate(game, child, rng, observer)
        back_propagate(result, child, observer)
    best = most_visited(tree)
    observer.decided(tree, best.move)
    return best.move, tree


def select(
    game: MctsGame[S], tree: MctsNode[S], rng: random.Random, c: float, observer: MctsObserver[S]
) -> MctsNode[S]:
    """SELECT: down from the root while every move of the node is in the tree: the child of
    largest UCB1 (the first such); at a chance node, the outcome drawn."""
    n = tree
    while not n.untried and n.children:
        if n.chance:
            outcome = draw(game, n.state, rng)
            child = next(child for child in n.children if child.move == outcome)
            observer.selected(n, child, ())
        else:
            scores = [(child, ucb1(child, n.N, c)) for child in n.children]
            child = max(scores, key=lambda pair: pair[1])[0]  # max keeps the first of ties
            observer.selected(n, child, scores)
        n = child
    return n


def expand(
    game: MctsGame[S], leaf: MctsNode[S], ids: Iterator[int], observer: MctsObserver[S]
) -> MctsNode[S]:
    """EXPAND: a child for the leaf's first untried move (the leaf itself when the game is
    over there)."""
    if not leaf.untried:
        observer.expanded(leaf, leaf)
        return leaf
    move = leaf.untried.pop(0)
    child = new_node(game, game.result(leaf.state, move), leaf, move, ids)
    leaf.children.append(child)
    observer.expanded(leaf, child)
    return child


def simulate(
    game: MctsGame[S], child: MctsNode[S], rng: random.Random, observer: MctsObserver[S]
) -> float:
    """SIMULATE: a playout from `child` to the end of the game with random moves (and the
    dice's outcomes); the result for MAX: 1 a win, 0.5 a draw, 0 a loss."""
    s = child.state
    moves: list[Move] = []
    while not game.is_terminal(s):
        if game.to_move(s) == CHANCE:
            move = draw(game, s, rng)
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


def back_propagate(result: float, child: MctsNode[S], observer: MctsObserver[S]) -> None:
    """BACK-PROPAGATE: from `child` up to the root, N + 1 and U + the result for the player
    who moved into the node."""
    n: MctsNode[S] | None = child
    while n is not None:
        n.N += 1
        n.U += result_for(n.mover, result)
        observer.backed_up(n, result)
        n = n.parent


def draw(game: MctsGame[S], state: S, rng: random.Random) -> Move:
    """A chance outcome drawn by its probability (the one way the search rolls dice)."""
    outcomes = game.chance_outcomes(state)
    return rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]


def new_node(
    game: MctsGame[S], state: S, parent: MctsNode[S] | None, move: Move | None, ids: Iterator[int]
) -> MctsNode[S]:
    """A node for `state`, numbered next: its untried moves in the game's order; at a chance
    node, a child for every outcome instead (numbered after it)."""
    made = MctsNode(state, parent, move, id=next(ids), mover=mover_into(game, parent))
    if game.is_terminal(state):
        return made
    if game.to_move(state) == CHANCE:
        made.chance = True
        for outcome, _ in game.chance_outcomes(state):
            made.children.append(new_node(game, game.result(state, outcome), made, outcome, ids))
    else:
        made.untried = list(game.actions(state))
    return made


def mover_into(game: MctsGame[S], parent: MctsNode[S] | None) -> str:
    """Who moves into a child of `parent`: the player to move there (through a chance node,
    whoever moved into it; into the root, MIN)."""
    if parent is None:
        return MIN
    if parent.chance:
        return parent.mover
    return game.to_move(parent.state)


def most_visited(tree: MctsNode[S]) -> MctsNode[S]:
    """The child with the largest N (the first such in the order they were added)."""
    if not tree.children:
        raise ValueError("no move was searched: the game is over, or no iteration ran")
    return max(tree.children, key=lambda child: child.N)


def result_for(player: str, result: float) -> float:
    """A result for MAX (1, 0.5, 0) as `player` (MAX or MIN) counts it."""
    return result if player == MAX else 1.0 - result
