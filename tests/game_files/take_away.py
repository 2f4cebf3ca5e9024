"""Take-away, written to Plyground's game protocol from scratch (no import of Plyground).

A pile of stones; each turn a player takes 1, 2 or 3; whoever takes the last stone wins.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Pile:
    stones: int
    to_move: int = 0

    def legal_moves(self):
        return tuple(n for n in (1, 2, 3) if n <= self.stones)

    def play(self, move):
        return Pile(self.stones - move, 1 - self.to_move)

    def is_terminal(self):
        return self.stones == 0

    def utility(self, player):
        # the player who just moved took the last stone and won
        return 1 if player != self.to_move else -1


class TakeAway:
    title = "Take-away"
    side_names = ("Left", "Right")

    def __init__(self, stones=10):
        self.stones = stones

    def initial_state(self):
        return Pile(self.stones)

    def evaluate(self, state):
        """Positions with a multiple of 4 stones lose for the side to move."""
        return -1 if state.stones % 4 == 0 else 1

    def render(self, state):
        return f"{state.stones} stones: " + "o" * state.stones
