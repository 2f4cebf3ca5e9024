"""A game that never ends: a token walks a ring of five cells, each side moving it one or two
cells on; no position is ever over (a match stops it at its move limit)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    cell: int = 0
    to_move: int = 0

    def legal_moves(self):
        return (1, 2)

    def play(self, move):
        return Token((self.cell + move) % 5, 1 - self.to_move)

    def is_terminal(self):
        return False

    def utility(self, player):
        return 0


class Ring:
    title = "Ring"

    def initial_state(self):
        return Token()
