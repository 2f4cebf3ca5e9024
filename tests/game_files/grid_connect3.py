"""Connect three on a 5x4 board, written to Plyground's protocol with a grid (from scratch).

Columns 0-4; a disc falls to the lowest empty cell; three in a row in any direction wins.
"""

COLUMNS, ROWS, LINE = 5, 4, 3


class Board:
    def __init__(self, cells=(), to_move=0):
        self.cells = cells or tuple(() for _ in range(COLUMNS))
        self.to_move = to_move

    def key(self):
        return self.cells, self.to_move

    def legal_moves(self):
        order = sorted(range(COLUMNS), key=lambda c: abs(c - COLUMNS // 2))
        return tuple(c for c in order if len(self.cells[c]) < ROWS)

    def play(self, column):
        cells = list(self.cells)
        cells[column] = cells[column] + (self.to_move,)
        return Board(tuple(cells), 1 - self.to_move)

    def at(self, column, row):
        stack = self.cells[column]
        return stack[row] if row < len(stack) else None

    def winner(self):
        for c in range(COLUMNS):
            for r in range(ROWS):
                who = self.at(c, r)
                if who is None:
                    continue
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    cells = [(c + i * dc, r + i * dr) for i in range(LINE)]
                    if all(
                        0 <= x < COLUMNS and 0 <= y < ROWS and self.at(x, y) == who
                        for x, y in cells
                    ):
                        return who
        return None

    def is_terminal(self):
        return self.winner() is not None or all(len(s) == ROWS for s in self.cells)

    def utility(self, player):
        who = self.winner()
        return 0 if who is None else (1 if who == player else -1)


class ConnectThree:
    title = "Connect three"
    side_names = ("Red", "Yellow")
    side_colours = ("#e8505b", "gold")

    def initial_state(self):
        return Board()

    def grid(self, state):
        return [
            ["RY"[state.at(c, r)] if state.at(c, r) is not None else "" for c in range(COLUMNS)]
            for r in reversed(range(ROWS))
        ]

    def grid_move(self, state, row, column):
        return column

    def evaluate(self, state):
        """Discs in the middle column, for the side to move."""
        mine = sum(1 for d in state.cells[COLUMNS // 2] if d == state.to_move)
        return mine - (len(state.cells[COLUMNS // 2]) - mine)
