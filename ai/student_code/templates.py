"""Starter files for the exercises (`python main.py exercise --template NAME > my_search.py`).

The function a student writes is the textbook's root form, with the textbook's signature and
its game API (`ai.textbook`: `minimax_decision(game, state, depth)` and its kin), so the code
they read and the code they write are one."""

from __future__ import annotations

_API = '''"""{title}: write {signature} from the textbook's pseudocode.

Grade it with:  python main.py exercise {name} {file}
(this file, under the name you saved it as; add --explore to see your tree beside the
reference's in the explorer).  The reference is Plyground's textbook,
{module}: the same functions, the same game API.

The game API (values are always from MAX's point of view; MAX moves at the root):
    game.to_move(s)          MAX, MIN or CHANCE (the names below)
    game.actions(s)          the moves at a decision node, in the game's order
    game.result(s, a)        the position after move a (or after a chance outcome)
    game.chance_outcomes(s)  [(outcome, probability), ...] at a chance node
    game.is_cutoff(s, depth) True where the search stops: the game is over, or depth is
                             used up at a decision node (never at a chance node)
    game.evaluate(s)         the value for MAX where the search stops: the game's result
                             if it is over, else the heuristic's estimate

Depth counts decisions: a move by MAX or MIN uses one, a chance layer uses none.  Try the
moves in the order game.actions gives them; return the best move for MAX at the root (the
first of equal ones) and its value.
"""

import math

MAX, MIN, CHANCE = "max", "min", "chance"
'''

_BODIES = {
    "minimax": '''

def minimax_decision(game, state, depth):
    """MINIMAX-DECISION: (the best move for MAX at state, its value), depth decisions ahead."""
    best_move, best = None, -math.inf
    for a in game.actions(state):
        v = minimax(game, game.result(state, a), depth - 1)
        if v > best:
            best_move, best = a, v
    return best_move, best


def minimax(game, state, depth):
    """MINIMAX-VALUE of state for MAX."""
    if game.is_cutoff(state, depth):
        return game.evaluate(state)
    # Your code: the largest child's value where MAX moves, the smallest where MIN does.
    raise NotImplementedError("write minimax")
''',
    "alphabeta": '''

def alphabeta_decision(game, state, depth):
    """ALPHA-BETA-SEARCH: (the best move for MAX at state, its value), pruning what cannot
    matter.  Search each move's position with alpha the best value so far."""
    best_move, best = None, -math.inf
    for a in game.actions(state):
        v = alphabeta(game, game.result(state, a), depth - 1, best, math.inf)
        if v > best:
            best_move, best = a, v
    return best_move, best


def alphabeta(game, state, depth, alpha, beta):
    """The minimax value of state for MAX, within the window (alpha, beta).

    alpha: the value MAX is already sure of on the path to state; beta: MIN's.  At a MAX
    node, stop as soon as the value reaches beta (v >= beta); at a MIN node as soon as it
    falls to alpha (v <= alpha).
    """
    if game.is_cutoff(state, depth):
        return game.evaluate(state)
    # Your code: MAX raises alpha, MIN lowers beta, and both stop when alpha >= beta.
    raise NotImplementedError("write alphabeta")
''',
    "expectiminimax": '''

def expectiminimax_decision(game, state, depth):
    """(the best move for MAX at state, its expectiminimax value); at a chance node no one
    decides: (None, its value)."""
    if game.to_move(state) == CHANCE:
        return None, expectiminimax(game, state, depth)
    best_move, best = None, -math.inf
    for a in game.actions(state):
        v = expectiminimax(game, game.result(state, a), depth - 1)
        if v > best:
            best_move, best = a, v
    return best_move, best


def expectiminimax(game, state, depth):
    """The expectiminimax value of state for MAX: chance nodes average their outcomes."""
    if game.is_cutoff(state, depth):
        return game.evaluate(state)
    # Your code: a chance node's value is the probability-weighted sum of its outcomes'
    # values (a chance layer uses no depth); else the best value among the children for
    # MAX or for MIN.
    raise NotImplementedError("write expectiminimax")
''',
}

_MCTS = r'''"""Monte Carlo tree search: write SELECT, EXPAND, SIMULATE and BACK-PROPAGATE (AIMA 4th
ed., section 5.4, MONTE-CARLO-TREE-SEARCH) and UCB1.

Grade it with:  python main.py exercise mcts {file}
(this file, under the name you saved it as).  The reference is Plyground's textbook,
ai/textbook/mcts.py.  The grader runs your search and the reference on the same positions
(small trees of won and lost games, positions of the games) with the same random stream,
and compares the root's counts after every iteration, the whole tree at the end and the
move chosen; the first iteration where they part is named.  It reads the root's counts
each time the loop below calls select(game, tree, c): keep the loop as it is.

The game API (results are from MAX's point of view; MAX moves at the root):
    game.to_move(s)          MAX or MIN (the names below): who moves at s
    game.actions(s)          the moves at s, in the game's order
    game.result(s, a)        the position after move a
    game.is_terminal(s)      True when the game is over at s
    game.evaluate(s)         at a finished game: > 0 MAX won, < 0 MIN won, 0 a draw

The node record (given): N is the number of playouts through the node; U their total
result for the player who MOVED INTO the node, the player to move at its parent (win 1,
draw 0.5, loss 0: AIMA's convention), so a side that moves twice is counted right.  The
counts must keep the invariants the grader checks: after i iterations the root's N is i and
its children's N add up to it; any other node's N is its children's plus one (its own
playout, when EXPAND added it); a finished game's node counts each visit.  The root's U is
not graded (nobody moves into the root).

The random stream: rng is random.Random(seed), the reference's too.  To grow exactly the
reference's tree, draw from it only where the reference does, and nowhere else (never
from the random module itself):
    a playout's move:        rng.choice(list(game.actions(s)))   (one draw a move)
EXPAND takes the FIRST untried move (game.actions order), never a random one; ties in
UCB1 go to the first child in children order (max() keeps the first); the move returned
is the most visited child's (ties: the first expanded).
"""

import math

MAX, MIN = "max", "min"


class Node:
    """A node of the search tree (given)."""

    def __init__(self, state, parent=None, move=None, untried=()):
        self.state = state
        self.parent = parent
        self.move = move  # the move from the parent (None at the root)
        self.untried = list(untried)  # moves not expanded yet, in game.actions order
        self.children = []  # in the order they were expanded
        self.N = 0  # playouts through this node
        self.U = 0.0  # their total result for the player who moved into this node


def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):
    """MONTE-CARLO-TREE-SEARCH: (the most visited root child's move, the root)."""
    tree = Node(state, untried=game.actions(state))
    for _ in range(iterations):
        leaf = select(game, tree, c)
        child = expand(game, leaf)
        result = simulate(game, child, rng)
        back_propagate(game, result, child)
    best = max(tree.children, key=lambda n: n.N)  # ties: the first expanded
    return best.move, tree


def ucb1(node, parent_N, c):
    """UCB1: node.U / node.N + c * sqrt(ln(parent_N) / node.N); infinite when node.N is 0."""
    # Your code: the mean result (exploitation) plus the exploration term.
    raise NotImplementedError("write ucb1")


def select(game, node, c):
    """SELECT: from node, while it is fully expanded (no untried moves) and the game is not
    over there, go down to the child of largest UCB1; return the node where you stop."""
    # Your code.
    raise NotImplementedError("write select")


def expand(game, node):
    """EXPAND: add a child for node's FIRST untried move and return it; at a finished game,
    return node itself."""
    # Your code: the child's untried moves are game.actions of its state.
    raise NotImplementedError("write expand")


def simulate(game, node, rng):
    """SIMULATE: play at random from node's state to the end (each move
    rng.choice(list(game.actions(s)))); return the result for MAX: 1, 0.5 or 0."""
    # Your code.
    raise NotImplementedError("write simulate")


def back_propagate(game, result, node):
    """BACK-PROPAGATE: from node up to the root (included), N += 1 and U += the result for
    the player who moved into the node (result where MAX moved, 1 - result where MIN did)."""
    # Your code: who moved into a node is game.to_move(node.parent.state).
    raise NotImplementedError("write back_propagate")
'''
"""The MCTS exercise's starter: AIMA's loop and node record given, the four phases and UCB1
to write; its docstring is the random-stream contract the grader holds both searches to."""

_TITLES = {
    "minimax": ("Minimax", "minimax_decision(game, state, depth)", "ai/textbook/minimax.py"),
    "alphabeta": (
        "Alpha-beta",
        "alphabeta_decision(game, state, depth)",
        "ai/textbook/alphabeta.py",
    ),
    "expectiminimax": (
        "Expectiminimax",
        "expectiminimax_decision(game, state, depth)",
        "ai/textbook/expectiminimax.py",
    ),
}


STARTER_FILE = "my_search.py"
"""The file name a starter suggests for itself (the one the command's help uses)."""


MCTS_STARTER_FILE = "my_mcts.py"
"""The file name the MCTS starter suggests for itself."""


def template(name: str, file: str | None = None) -> str:
    """The starter file of an exercise, its grading command naming `file` (by default the
    name its --help example uses; KeyError for an unknown name)."""
    if name == "mcts":
        return _MCTS.replace("{file}", file or MCTS_STARTER_FILE)
    file = file or STARTER_FILE
    title, signature, module = _TITLES[name]
    return (
        _API.format(title=title, signature=signature, name=name, file=file, module=module)
        + _BODIES[name]
    )
