"""Kalah (6 pits, 4 seeds each), as a student writes it before any evaluation function:
Plyground's protocol from scratch, no `evaluate`.

Sowing counter-clockwise skips the opponent's store; a last seed in your own store gives you
another turn (so `to_move` can name the same side twice in a row); a last seed in an empty pit
of yours captures it and the seeds opposite.  When one side's pits are empty, the other side
banks what is left; the larger store wins.
"""

from dataclasses import dataclass

PITS = 6


@dataclass(frozen=True)
class Board:
    cells: tuple  # pits 0-5 and store 6 for the first player, pits 7-12 and store 13 for the second
    to_move: int = 0

    def legal_moves(self):
        start = 0 if self.to_move == 0 else PITS + 1
        return tuple(i for i in range(start, start + PITS) if self.cells[i] > 0)

    def play(self, move):
        cells = list(self.cells)
        me = self.to_move
        my_store = PITS if me == 0 else 2 * PITS + 1
        their_store = 2 * PITS + 1 if me == 0 else PITS
        seeds, cells[move] = cells[move], 0
        pos = move
        while seeds:
            pos = (pos + 1) % (2 * PITS + 2)
            if pos == their_store:
                continue
            cells[pos] += 1
            seeds -= 1
        mine = range(0, PITS) if me == 0 else range(PITS + 1, 2 * PITS + 1)
        if pos in mine and cells[pos] == 1:
            opposite = 2 * PITS - pos
            if cells[opposite]:
                cells[my_store] += cells[opposite] + 1
                cells[pos] = cells[opposite] = 0
        if sum(cells[0:PITS]) == 0 or sum(cells[PITS + 1 : 2 * PITS + 1]) == 0:
            cells[PITS] += sum(cells[0:PITS])
            cells[2 * PITS + 1] += sum(cells[PITS + 1 : 2 * PITS + 1])
            for i in list(range(0, PITS)) + list(range(PITS + 1, 2 * PITS + 1)):
                cells[i] = 0
        again = pos == my_store
        return Board(tuple(cells), me if again else 1 - me)

    def is_terminal(self):
        return sum(self.cells[0:PITS]) == 0 and sum(self.cells[PITS + 1 : 2 * PITS + 1]) == 0

    def utility(self, player):
        mine = self.cells[PITS] if player == 0 else self.cells[2 * PITS + 1]
        theirs = self.cells[2 * PITS + 1] if player == 0 else self.cells[PITS]
        return (mine > theirs) - (mine < theirs)


class Kalah:
    title = "Kalah"
    side_names = ("South", "North")

    def __init__(self, seeds=4):
        self.seeds = seeds

    def initial_state(self):
        row = (self.seeds,) * PITS
        return Board((*row, 0, *row, 0))

    def render(self, state):
        c = state.cells
        north = " ".join(f"{c[i]:2}" for i in range(2 * PITS, PITS, -1))
        south = " ".join(f"{c[i]:2}" for i in range(0, PITS))
        return f"    {north}\n{c[2 * PITS + 1]:2}  {' ' * (3 * PITS - 1)}  {c[PITS]:2}\n    {south}"
