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

MCTS = """
import math

MAX, MIN = "max", "min"


class Node:
    def __init__(self, state, parent=None, move=None, untried=()):
        self.state = state
        self.parent = parent
        self.move = move
        self.untried = list(untried)
        self.children = []
        self.N = 0
        self.U = 0.0


def monte_carlo_tree_search(game, state, iterations, rng, c=math.sqrt(2)):
    tree = Node(state, untried=game.actions(state))
    for _ in range(iterations):
        leaf = select(game, tree, c)
        child = expand(game, leaf)
        result = simulate(game, child, rng)
        back_propagate(game, result, child)
    best = max(tree.children, key=lambda n: n.N)
    return best.move, tree


def ucb1(node, parent_N, c):
    if node.N == 0:
        return math.inf
    return node.U / node.N + c * math.sqrt(math.log(parent_N) / node.N)


def select(game, node, c):
    while not node.untried and not game.is_terminal(node.state):
        node = max(node.children, key=lambda child: ucb1(child, node.N, c))
    return node


def expand(game, node):
    if game.is_terminal(node.state):
        return node
    move = node.untried.pop(0)
    state = game.result(node.state, move)
    child = Node(state, node, move, game.actions(state))
    node.children.append(child)
    return child


def simulate(game, node, rng):
    s = node.state
    while not game.is_terminal(s):
        s = game.result(s, rng.choice(list(game.actions(s))))
    value = game.evaluate(s)
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def back_propagate(game, result, node):
    while node is not None:
        node.N += 1
        if node.parent is not None:
            mover = game.to_move(node.parent.state)
            node.U += result if mover == MAX else 1 - result
        node = node.parent
"""
UCB1_WITHOUT_LOG = MCTS.replace(
    "math.sqrt(math.log(parent_N) / node.N)", "math.sqrt(parent_N / node.N)"
)
WRONG_SIDE = MCTS.replace(
    "result if mover == MAX else 1 - result", "result if mover == MIN else 1 - result"
)
RANDOM_EXPANSION = (
    MCTS.replace("child = expand(game, leaf)", "child = expand(game, leaf, rng)")
    .replace("def expand(game, node):", "def expand(game, node, rng):")
    .replace(
        "move = node.untried.pop(0)",
        "move = rng.choice(node.untried)\n    node.untried.remove(move)",
    )
)
ROOT_N_FORGOTTEN = MCTS.replace(
    "    while node is not None:\n        node.N += 1",
    "    while node is not None:\n        if node.parent is not None:\n            node.N += 1",
)
DOUBLE_COUNT = MCTS.replace(
    "        node.N += 1\n", "        node.N += 1 if node.parent is None else 2\n"
)
SKIP_GRANDCHILDREN = MCTS.replace(
    "    while node is not None:\n        node.N += 1",
    "    while node is not None:\n"
    "        if node.parent is None or node.parent.parent is None:\n"
    "            node.N += 1",
)
LEAST_VISITED = MCTS.replace("best = max(tree.children", "best = min(tree.children")
