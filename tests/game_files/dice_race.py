"""Dice race, a chance game written to Plyground's protocol from scratch.

On your turn choose to throw one or two three-sided dice: their total is added to your
score, but two dice that show a 1 score nothing.  The first to 8 wins.  A throw is a chance
node: `to_move` is CHANCE (-1) and `chance_outcomes()` lists (points, probability).
"""

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

CHANCE = -1
GOAL = 8


def throws(dice):
    """(points, probability) of throwing `dice` three-sided dice."""
    found = {}
    for faces in product((1, 2, 3), repeat=dice):
        points = 0 if dice == 2 and 1 in faces else sum(faces)
        found[points] = found.get(points, 0) + Fraction(1, 3**dice)
    return tuple((points, float(p)) for points, p in sorted(found.items()))


@dataclass(frozen=True)
class Race:
    scores: tuple = (0, 0)
    player: int = 0  # whose turn it is, also while the dice roll
    dice: int = 0  # dice thrown and rolling (a chance node), or 0

    @property
    def to_move(self):
        return CHANCE if self.dice else self.player

    def legal_moves(self):
        return (1, 2)

    def play(self, move):
        if self.dice:  # the dice came to rest: `move` is the points
            scores = list(self.scores)
            scores[self.player] += move
            return Race(tuple(scores), 1 - self.player)
        return Race(self.scores, self.player, move)

    def chance_outcomes(self):
        return throws(self.dice)

    def is_terminal(self):
        return max(self.scores) >= GOAL

    def utility(self, player):
        return 1 if self.scores[player] >= GOAL else -1


class DiceRace:
    title = "Dice race"

    def initial_state(self):
        return Race()

    def evaluate(self, state):
        """The lead, for the player whose turn it is."""
        return state.scores[state.player] - state.scores[1 - state.player]

    def render(self, state):
        rolling = f"  (throwing {state.dice} dice)" if state.dice else ""
        return f"Player 1: {state.scores[0]}   Player 2: {state.scores[1]}{rolling}"
