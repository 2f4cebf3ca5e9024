"""Dots and boxes on a small board, written to Plyground's game protocol as a student would
(no evaluation): a player who closes a box draws another line.

Lines are numbered: first the horizontal ones, row by row (ROWS+1 rows of COLS lines), then
the vertical ones (ROWS rows of COLS+1 lines).  The player with more boxes at the end wins.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Dots:
    rows: int
    cols: int
    drawn: frozenset = frozenset()
    boxes: tuple = (0, 0)
    to_move: int = 0

    def lines_of(self, r, c):
        horizontal = (self.rows + 1) * self.cols
        top = r * self.cols + c
        bottom = top + self.cols
        left = horizontal + r * (self.cols + 1) + c
        return (top, bottom, left, left + 1)

    def legal_moves(self):
        count = (self.rows + 1) * self.cols + self.rows * (self.cols + 1)
        return tuple(line for line in range(count) if line not in self.drawn)

    def play(self, move):
        if move not in self.legal_moves():
            raise ValueError(f"line {move} is drawn already or not on the board")
        drawn = self.drawn | {move}
        closed = 0
        for r in range(self.rows):
            for c in range(self.cols):
                sides = self.lines_of(r, c)
                if move in sides and all(line in drawn for line in sides):
                    closed += 1
        boxes = list(self.boxes)
        boxes[self.to_move] += closed
        side = self.to_move if closed else 1 - self.to_move
        return Dots(self.rows, self.cols, drawn, tuple(boxes), side)

    def is_terminal(self):
        return not self.legal_moves()

    def utility(self, player):
        mine, theirs = self.boxes[player], self.boxes[1 - player]
        return (mine > theirs) - (mine < theirs)


class DotsAndBoxes:
    title = "Dots and boxes"
    side_names = ("Blue", "Red")

    def __init__(self, rows=2, cols=2):
        self.rows = rows
        self.cols = cols

    def initial_state(self):
        return Dots(self.rows, self.cols)
