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


def template(name: str, file: str = STARTER_FILE) -> str:
    """The starter file of an exercise, its grading command naming `file` (KeyError for an
    unknown name)."""
    title, signature, module = _TITLES[name]
    return (
        _API.format(title=title, signature=signature, name=name, file=file, module=module)
        + _BODIES[name]
    )
