"""Nim in aima-python's Game style (duck-typed: aima-python need not be installed)."""


class Nim:
    def __init__(self, piles=(1, 3, 5)):
        self.initial = (tuple(piles), "MAX")

    def actions(self, state):
        piles, _ = state
        return [(i, n) for i, p in enumerate(piles) for n in range(1, p + 1)]

    def result(self, state, move):
        piles, player = state
        i, n = move
        piles = (*piles[:i], piles[i] - n, *piles[i + 1 :])
        return (piles, "MIN" if player == "MAX" else "MAX")

    def terminal_test(self, state):
        return sum(state[0]) == 0

    def utility(self, state, player):
        # whoever took the last object won: the player to move lost
        if sum(state[0]) != 0:
            return 0
        value = 1 if state[1] == "MIN" else -1
        return value if player == "MAX" else -value

    def to_move(self, state):
        return state[1]

    def display(self, state):
        print(" ".join(str(p) for p in state[0]))
