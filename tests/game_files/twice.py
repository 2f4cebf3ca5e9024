from dataclasses import dataclass


@dataclass(frozen=True)
class S:
    step: int = 0
    to_move: int = 0
    over: bool = False
    winner: int = -1

    def legal_moves(self):
        return ("again", "end") if self.step == 0 else ("finish",)

    def play(self, move):
        if move == "again":
            return S(1, self.to_move)
        if move == "end":
            return S(2, 1 - self.to_move, True, -1)
        return S(2, 1 - self.to_move, True, self.to_move)

    def is_terminal(self):
        return self.over

    def utility(self, p):
        return 0 if self.winner < 0 else (1 if p == self.winner else -1)


class Twice:
    def initial_state(self):
        return S()
