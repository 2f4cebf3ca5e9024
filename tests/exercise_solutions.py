"""Students' exercise files the tests grade: right solutions in the textbook's root form
(`ai.student_code.templates`) and the typical wrong ones, each derived from a right one."""

from __future__ import annotations

DECISION = """
import math

def {name}_decision(game, s, depth):
    if game.to_move(s) == "chance":
        return None, {call}
    best_move, best = None, -math.inf
    for a in game.actions(s):
        v = {child}
        if v > best:
            best_move, best = a, v
    return best_move, best
"""

MINIMAX = (
    DECISION.format(
        name="minimax", call="None", child="minimax(game, game.result(s, a), depth - 1)"
    )
    + """
def minimax(game, s, depth):
    if game.is_cutoff(s, depth):
        return game.evaluate(s)
    values = [minimax(game, game.result(s, a), depth - 1) for a in game.actions(s)]
    return max(values) if game.to_move(s) == "max" else min(values)
"""
)

ALPHABETA = (
    DECISION.format(
        name="alphabeta",
        call="None",
        child="alphabeta(game, game.result(s, a), depth - 1, best, math.inf)",
    )
    + """
def alphabeta(game, s, depth, alpha, beta):
    if game.is_cutoff(s, depth):
        return game.evaluate(s)
    if game.to_move(s) == "max":
        v = -math.inf
        for a in game.actions(s):
            v = max(v, alphabeta(game, game.result(s, a), depth - 1, alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for a in game.actions(s):
        v = min(v, alphabeta(game, game.result(s, a), depth - 1, alpha, beta))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v
"""
)

EXPECTIMINIMAX = (
    DECISION.format(
        name="expectiminimax",
        call="expectiminimax(game, s, depth)",
        child="expectiminimax(game, game.result(s, a), depth - 1)",
    )
    + """
def expectiminimax(game, s, depth):
    if game.is_cutoff(s, depth):
        return game.evaluate(s)
    if game.to_move(s) == "chance":
        return sum(
            p * expectiminimax(game, game.result(s, o), depth) for o, p in game.chance_outcomes(s)
        )
    values = [expectiminimax(game, game.result(s, a), depth - 1) for a in game.actions(s)]
    return max(values) if game.to_move(s) == "max" else min(values)
"""
)

NO_PRUNING = ALPHABETA.replace(
    "if v >= beta:\n                return v", "if v >= beta:\n                pass"
).replace("if v <= alpha:\n            return v", "if v <= alpha:\n            pass")
WRONG_BOUND = ALPHABETA.replace("beta = min(beta, v)", "alpha = min(alpha, v)")
NEGAMAX_SLIP = (
    DECISION.format(
        name="alphabeta",
        call="None",
        child="alphabeta(game, game.result(s, a), depth - 1, best, math.inf)",
    )
    + """
def alphabeta(game, s, depth, alpha, beta):
    sign = 1 if game.to_move(s) == "max" else -1
    if game.is_cutoff(s, depth):
        return game.evaluate(s)
    best = -2.0
    for a in game.actions(s):
        value = -sign * alphabeta(game, game.result(s, a), depth - 1, -beta, -alpha)
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return sign * best
"""
)
CHANCE_USES_DEPTH = EXPECTIMINIMAX.replace(
    "expectiminimax(game, game.result(s, o), depth)",
    "expectiminimax(game, game.result(s, o), depth - 1)",
)
WRONG_MOVE = MINIMAX.replace("return best_move, best", "return game.actions(s)[-1], best")
