"""Game of bones in easyAI's style (duck-typed: easyAI need not be installed)."""


class GameOfBones:
    def __init__(self, players=None, bones=20):
        self.players = players
        self.pile = bones
        self.current_player = 1

    def possible_moves(self):
        return ["1", "2", "3"]

    def make_move(self, move):
        self.pile -= int(move)

    def unmake_move(self, move):
        self.pile += int(move)

    def win(self):
        return self.pile <= 0

    def is_over(self):
        return self.win()

    def scoring(self):
        return 100 if self.win() else 0

    def show(self):
        print(f"{self.pile} bones left in the pile")

    def ttentry(self):
        return self.pile
