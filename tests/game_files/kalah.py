"""Kalah with a few pits, written to Plyground's game protocol as a student would (no
evaluation): a last seed sown into one's own store gives another move.

South (player 0) owns pits 0 to PITS-1 and the store after them; North (player 1) the next
PITS pits and the last store.  Seeds are sown counter-clockwise, skipping the opponent's
store.  A last seed in an empty pit of one's own captures it and the seeds opposite.  When
one side has no seeds left in its pits, the other side stores the rest; the bigger store wins.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    cells: tuple
    to_move: int = 0

    @property
    def pits(self):
        return (len(self.cells) - 2) // 2

    def store(self, side):
        return self.pits if side == 0 else 2 * self.pits + 1

    def own_pits(self, side):
        start = 0 if side == 0 else self.pits + 1
        return range(start, start + self.pits)

    def legal_moves(self):
        return tuple(p for p in self.own_pits(self.to_move) if self.cells[p] > 0)

    def play(self, move):
        if move not in self.legal_moves():
            raise ValueError(f"pit {move} cannot be sown; choose one of {self.legal_moves()}")
        cells = list(self.cells)
        side = self.to_move
        skip = self.store(1 - side)
        seeds, cells[move] = cells[move], 0
        pit = move
        while seeds:
            pit = (pit + 1) % len(cells)
            if pit == skip:
                continue
            cells[pit] += 1
            seeds -= 1
        opposite = 2 * self.pits - pit
        if pit in self.own_pits(side) and cells[pit] == 1 and cells[opposite] > 0:
            cells[self.store(side)] += cells[opposite] + 1
            cells[pit] = cells[opposite] = 0
        for player in (0, 1):
            if not any(cells[p] for p in self.own_pits(player)):
                for other in (0, 1):
                    for p in self.own_pits(other):
                        cells[self.store(other)] += cells[p]
                        cells[p] = 0
        again = pit == self.store(side)
        return Board(tuple(cells), side if again else 1 - side)

    def is_terminal(self):
        return not self.legal_moves()

    def utility(self, player):
        mine, theirs = self.cells[self.store(player)], self.cells[self.store(1 - player)]
        return (mine > theirs) - (mine < theirs)


class Kalah:
    title = "Kalah"
    side_names = ("South", "North")

    def __init__(self, pits=3, seeds=2):
        self.pits = pits
        self.seeds = seeds

    def initial_state(self):
        row = (self.seeds,) * self.pits
        return Board((*row, 0, *row, 0))

    def render(self, state):
        north = " ".join(str(c) for c in reversed(state.cells[self.pits + 1 : -1]))
        south = " ".join(str(c) for c in state.cells[: self.pits])
        return (
            f"  {north}\n{state.cells[-1]} {' ' * len(south)} {state.cells[self.pits]}\n  {south}"
        )
