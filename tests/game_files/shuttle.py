"""A tug of war whose positions repeat, written to Plyground's game protocol: a token on
five cells starts in the middle; each side moves it one cell, South (0) wins at the right
end, North at the left.  Both pulling their way, the token goes to and fro for ever.

`StrictShuttle` says what a repeated position is worth (`repetition_value`): a loss for
the side to move there, as if repeating were forbidden."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    cell: int = 2
    to_move: int = 0

    def legal_moves(self):
        return ("left", "right")

    def play(self, move):
        step = 1 if move == "right" else -1
        return type(self)(self.cell + step, 1 - self.to_move)

    def is_terminal(self):
        return self.cell in (0, 4)

    def utility(self, player):
        winner = 0 if self.cell == 4 else 1
        return 1 if player == winner else -1


@dataclass(frozen=True)
class StrictToken(Token):
    def repetition_value(self):
        return -1


class Shuttle:
    title = "Shuttle"
    side_names = ("South", "North")

    def initial_state(self):
        return Token()


class StrictShuttle:
    title = "Strict shuttle"
    side_names = ("South", "North")

    def initial_state(self):
        return StrictToken()
