"""The dice race of dice_race.py in aima-python's StochasticGame style: a chance event
(chances, outcome, probability) follows every move, as aima's expect_minimax searches it."""

from itertools import product

GOAL = 8


class AimaDiceRace:
    initial = ((0, 0), "P1", 0)  # scores, whose turn, dice thrown (0: none yet)

    def actions(self, state):
        return [1, 2]

    def result(self, state, move):
        scores, player, _ = state
        return (scores, player, move)

    def chances(self, state):
        dice = state[2]
        return sorted(
            {
                (dice, 0 if dice == 2 and 1 in faces else sum(faces))
                for faces in product((1, 2, 3), repeat=dice)
            }
        )

    def probability(self, chance):
        dice, points = chance
        ways = sum(
            1
            for faces in product((1, 2, 3), repeat=dice)
            if (0 if dice == 2 and 1 in faces else sum(faces)) == points
        )
        return ways / 3**dice

    def outcome(self, state, chance):
        scores, player, _ = state
        index = 0 if player == "P1" else 1
        scores = tuple(s + chance[1] if i == index else s for i, s in enumerate(scores))
        return (scores, "P2" if player == "P1" else "P1", 0)

    def terminal_test(self, state):
        return max(state[0]) >= GOAL

    def utility(self, state, player):
        if not self.terminal_test(state):
            return 0
        won = "P1" if state[0][0] >= GOAL else "P2"
        return 1 if player == won else -1

    def to_move(self, state):
        return state[1]

    def display(self, state):
        print(f"P1 {state[0][0]}  P2 {state[0][1]}")
