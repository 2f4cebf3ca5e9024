"""student_uct.py: plain UCT as a student writes it (UCB1 on win rates, random playouts),
0.8 s a move.  The opponent of docs/RESULTS.md's MCTS table."""

import math
import random
import time

SECONDS = 0.8


def new_node(state, mover):
    return {
        "state": state,
        "mover": mover,
        "n": 0,
        "w": 0.0,
        "kids": [],
        "untried": list(state.legal_moves()) if not state.is_terminal() else [],
    }


def choose(state):
    root = new_node(state, None)
    end = time.time() + SECONDS
    while time.time() < end:
        node, path = root, [root]
        while not node["untried"] and node["kids"]:  # selection
            parent = node
            node = max(
                parent["kids"],
                key=lambda k: k["w"] / k["n"] + 1.4 * math.sqrt(math.log(parent["n"]) / k["n"]),
            )
            path.append(node)
        if node["untried"]:  # expansion
            move = node["untried"].pop(random.randrange(len(node["untried"])))
            child = new_node(node["state"].play(move), node["state"].to_move)
            child["move"] = move
            node["kids"].append(child)
            path.append(child)
            node = child
        sim = node["state"]
        while not sim.is_terminal():  # simulation
            sim = sim.play(random.choice(sim.legal_moves()))
        for n in path[1:]:  # back-propagation, for the side that moved into each node
            n["n"] += 1
            n["w"] += (sim.utility(n["mover"]) + 1) / 2
        root["n"] += 1
    return max(root["kids"], key=lambda k: k["n"])["move"]
