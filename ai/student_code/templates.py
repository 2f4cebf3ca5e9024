"""Starter files for the exercises (`python main.py exercise --template NAME > my_search.py`)."""

from __future__ import annotations

_API = '''"""{title}: write {signature} from the textbook's pseudocode.

Grade it with:  python main.py exercise {name} {file}
(this file, under the name you saved it as; add --explore to see your tree beside the
reference's in the explorer).

The game API (values are always from MAX's point of view; MAX moves at the root):
    game.actions(s)      the moves at a decision node, in the game's order
    game.result(s, a)    the position after move a
    game.is_terminal(s)  True when the game is over
    game.utility(s)      a finished game's value for MAX
    game.evaluate(s)     the heuristic's estimate for MAX, at the depth limit
    game.is_max(s)       True when MAX moves at s (else MIN, or chance)
    game.is_chance(s)    True at a chance node (a die roll)
    game.outcomes(s)     [(probability, next position), ...] at a chance node

Depth counts decisions: a move by MAX or MIN uses one, a chance layer uses none.  At depth
0 (or at the end of the game) a position is a leaf: give its utility if the game is over,
else its evaluation.  Try the moves in the order game.actions gives them.
"""
'''

_BODIES = {
    "minimax": '''

def minimax(game, s, depth):
    """The minimax value of s for MAX, searching `depth` decisions deep."""
    if game.is_terminal(s):
        return game.utility(s)
    if depth == 0:
        return game.evaluate(s)
    # Your code: the best value among the children, for MAX or for MIN.
    raise NotImplementedError("write minimax")
''',
    "alphabeta": '''

def alphabeta(game, s, depth, alpha, beta):
    """The minimax value of s for MAX, pruning what cannot matter.

    alpha: the value MAX is already sure of on the path to s; beta: MIN's.  At a MAX node,
    stop as soon as the value reaches beta (v >= beta); at a MIN node as soon as it falls
    to alpha (v <= alpha).  The first call is alphabeta(game, root, depth, -inf, inf).
    """
    if game.is_terminal(s):
        return game.utility(s)
    if depth == 0:
        return game.evaluate(s)
    # Your code: MAX raises alpha, MIN lowers beta, and both stop when alpha >= beta.
    raise NotImplementedError("write alphabeta")
''',
    "expectiminimax": '''

def expectiminimax(game, s, depth):
    """The expectiminimax value of s for MAX: chance nodes average their outcomes."""
    if game.is_terminal(s):
        return game.utility(s)
    # Your code: a chance node's value is the probability-weighted sum of its outcomes'
    # values (a chance layer uses no depth); then, at depth 0, the evaluation; else the
    # best value among the children for MAX or for MIN.
    raise NotImplementedError("write expectiminimax")
''',
}

_TITLES = {
    "minimax": ("Minimax", "minimax(game, s, depth)"),
    "alphabeta": ("Alpha-beta", "alphabeta(game, s, depth, alpha, beta)"),
    "expectiminimax": ("Expectiminimax", "expectiminimax(game, s, depth)"),
}


STARTER_FILE = "my_search.py"
"""The file name a starter suggests for itself (the one the command's help uses)."""


def template(name: str, file: str = STARTER_FILE) -> str:
    """The starter file of an exercise, its grading command naming `file` (KeyError for an
    unknown name)."""
    title, signature = _TITLES[name]
    return _API.format(title=title, signature=signature, name=name, file=file) + _BODIES[name]
