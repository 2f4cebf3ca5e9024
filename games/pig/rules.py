"""Pig, the dice race: roll to build a turn total, hold to bank it, a 1 loses it.

A turn is a loop of decisions and die rolls.  "roll" leads to a chance node
(`to_move == CHANCE`) whose outcomes are the faces 1-6, each with probability 1/6:
a 1 wipes the turn total and passes the turn, 2-6 add to the turn total.  "hold"
(legal once the turn total is above 0) banks the turn total and passes the turn; a
player whose banked score reaches `goal` wins at once.  A game reads ``r4r6h r1 r5h``:
r = roll, h = hold, digits = die faces, a space after each turn (spaces are optional).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias, TypeGuard

from plyground.games.base import (
    CHANCE,
    BenchPosition,
    GameOption,
    Heuristic,
    IllegalMoveError,
    OptionCost,
    Preset,
    Side,
    illegal,
    parse_one_character_moves,
    replay,
)

# The heuristics live in games.pig.heuristics and stay importable from here.
from plyground.games.pig.heuristics import HEURISTICS as HEURISTICS
from plyground.games.pig.heuristics import LIMIT as LIMIT
from plyground.games.pig.heuristics import OPTIMAL_LIMIT as OPTIMAL_LIMIT
from plyground.games.pig.heuristics import TURN_MEAN as TURN_MEAN
from plyground.games.pig.heuristics import TURN_VARIANCE as TURN_VARIANCE
from plyground.games.pig.heuristics import evaluate_optimal as evaluate_optimal
from plyground.games.pig.heuristics import evaluate_race as evaluate_race
from plyground.games.pig.heuristics import evaluate_score as evaluate_score
from plyground.games.search_settings import DepthLimited

Move: TypeAlias = "str | int"
"""ROLL, HOLD, or a die face 1-6 at a chance node."""

ROLL = "roll"
HOLD = "hold"
FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DEFAULT_GOAL = 100
TABLE_MAX_GOAL = 100
"""`OptimalPolicy.key_of` answers up to this goal: 100 is a stored table, smaller goals solve
in under a second, larger ones would stall whoever asked (the review then searches)."""
PLAYER_NAMES = ("Player 1", "Player 2")

_OUTCOMES: tuple[tuple[int, float], ...] = tuple((face, 1 / 6) for face in FACES)
_TEXT_OF: dict[str, str] = {ROLL: "r", HOLD: "h"}
_MOVE_OF: dict[str, str] = {"r": ROLL, "roll": ROLL, "h": HOLD, "hold": HOLD}


def _is_face(move: object) -> TypeGuard[int]:
    """Whether `move` is a die face 1-6 (an int, not a bool)."""
    return type(move) is int and 1 <= move <= 6


@dataclass(frozen=True, slots=True)
class State:
    """A Pig position: banked `scores` (index = player), the `turn_total` at stake,
    whose turn it is (`player`) and `to_move` (CHANCE right after a roll).

    `ply` counts decisions (rolls and holds) and is history, not position: it is not
    compared and not in the key.
    """

    STOCHASTIC: ClassVar[bool] = True

    goal: int = DEFAULT_GOAL
    scores: tuple[int, int] = (0, 0)
    turn_total: int = 0
    player: Side = 0
    to_move: Side = 0
    ply: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        """Reject positions that the rules cannot produce (the fast constructor skips this)."""
        goal, (mine, theirs) = self.goal, self.scores
        if goal < 1 or min(mine, theirs, self.turn_total, self.ply) < 0:
            raise ValueError("goal must be at least 1; scores, turn total and ply at least 0")
        if self.player not in (0, 1) or self.to_move not in (self.player, CHANCE):
            raise ValueError("player must be 0 or 1, and to_move the player or CHANCE")
        if (mine >= goal or theirs >= goal) and (
            min(mine, theirs) >= goal or self.turn_total or self.to_move == CHANCE
        ):
            raise ValueError("a finished game has one winner, no turn total and no roll")

    @property
    def game(self) -> Game:
        """The Pig rules for this goal (for the search to find heuristics from a state)."""
        return game_for_goal(self.goal)

    def key(self) -> int:
        """A unique int: the unbounded turn total (or a winner's score) in the top digits."""
        goal, turn_total = self.goal, self.turn_total
        mine, theirs = self.scores
        over = 0
        if mine >= goal:  # the game is over, so the turn total is 0: reuse its digit
            turn_total, mine, over = mine, 0, 1
        elif theirs >= goal:
            turn_total, theirs, over = theirs, 0, 1
        rolling = self.to_move == CHANCE
        return (
            (((turn_total * goal + mine) * goal + theirs) * 8)
            + over * 4
            + self.player * 2
            + rolling
        )

    def is_terminal(self) -> bool:
        """Whether a player's banked score has reached the goal."""
        mine, theirs = self.scores
        return mine >= self.goal or theirs >= self.goal

    def legal_moves(self) -> tuple[Move, ...]:
        """The faces at a chance node; else roll, and hold once there is a turn total."""
        if self.is_terminal():
            return ()
        if self.to_move == CHANCE:
            return FACES
        if self.turn_total == 0:
            return (ROLL,)
        if self.scores[self.player] + self.turn_total >= self.goal:
            return (HOLD, ROLL)  # holding wins: try it first
        return (ROLL, HOLD)

    def play(self, move: Move) -> State:
        """Roll, hold, or (at a chance node) apply die face 1-6."""
        player, turn_total = self.player, self.turn_total
        scores = self.scores
        if self.to_move == CHANCE:
            if not _is_face(move) or self.is_terminal():
                raise self._illegal(move)
            if move == 1:  # pig out: the turn total is lost and the turn passes
                return _make(self.goal, scores, 0, player ^ 1, player ^ 1, self.ply)
            return _make(self.goal, scores, turn_total + move, player, player, self.ply)
        if move == ROLL and not self.is_terminal():
            return _make(self.goal, scores, turn_total, player, CHANCE, self.ply + 1)
        if move == HOLD and turn_total > 0 and not self.is_terminal():
            banked = scores[player] + turn_total
            new_scores = (banked, scores[1]) if player == 0 else (scores[0], banked)
            return _make(self.goal, new_scores, 0, player ^ 1, player ^ 1, self.ply + 1)
        raise self._illegal(move)

    def winner(self) -> Side | None:
        """The player whose score reached the goal, or None while the game goes on."""
        mine, theirs = self.scores
        if mine >= self.goal:
            return 0
        if theirs >= self.goal:
            return 1
        return None

    def utility(self, player: Side) -> float:
        """+1 if `player` won, -1 if they lost, 0 while the game goes on."""
        winner = self.winner()
        if winner is None:
            return 0.0
        return 1.0 if winner == player else -1.0

    def chance_outcomes(self) -> tuple[tuple[Move, float], ...]:
        """At a chance node the six faces, each 1/6; else ()."""
        return _OUTCOMES if self.to_move == CHANCE and not self.is_terminal() else ()

    def winning_line(self) -> None:
        """Pig has no winning line: always None."""
        return None

    def _illegal(self, move: object) -> IllegalMoveError:
        if self.is_terminal():
            why = "the game is over"
        elif self.to_move == CHANCE:
            why = "after a roll the next move is the die face 1-6"
        elif move == HOLD:
            why = "nothing to hold: the turn total is 0"
        else:
            why = f"a player rolls ({ROLL!r}) or holds ({HOLD!r})"
        return illegal(move, [str(m) for m in self.legal_moves()], why)


# The fast private constructor: object.__new__ plus the slot descriptors' __set__ skips
# the dataclass __init__ and its checks (about 2x faster, measured).
_new = object.__new__
_Setter: TypeAlias = Callable[[State, Any], None]
_set_goal: _Setter = State.__dict__["goal"].__set__
_set_scores: _Setter = State.__dict__["scores"].__set__
_set_turn_total: _Setter = State.__dict__["turn_total"].__set__
_set_player: _Setter = State.__dict__["player"].__set__
_set_to_move: _Setter = State.__dict__["to_move"].__set__
_set_ply: _Setter = State.__dict__["ply"].__set__


def _make(
    goal: int, scores: tuple[int, int], turn_total: int, player: Side, to_move: Side, ply: int
) -> State:
    state = _new(State)
    _set_goal(state, goal)
    _set_scores(state, scores)
    _set_turn_total(state, turn_total)
    _set_player(state, player)
    _set_to_move(state, to_move)
    _set_ply(state, ply)
    return state


def turns_text(*turns: tuple[int, ...] | str) -> str:
    """Move text from turns: a tuple of faces rolled and then held, or raw text."""
    return " ".join(
        turn if isinstance(turn, str) else "".join(f"r{face}" for face in turn) + "h"
        for turn in turns
    )


class OptimalPolicy:
    """The optimal roll/hold policy (Neller & Presser) as the game's reference policy.

    A decision state at goal G is (own score i, opponent's score j, turn total k) with
    i, j < G and i + k < G, the player to move about to roll or hold: G * G * (G + 1) / 2
    states, 505,000 at goal 100.  Subsets: the states with a choice (k > 0: at k = 0 the
    only move is roll) and the states a game can reach (no score and no turn total of
    exactly 1, since every face that counts adds at least 2).
    """

    title = "the optimal policy (Neller & Presser)"
    subsets: tuple[tuple[str, str], ...] = (
        ("all", "all states"),
        ("choice", "with a choice (k > 0)"),
        ("reachable", "reachable (no 1s)"),
    )

    def __init__(self, goal: int = DEFAULT_GOAL) -> None:
        self.goal = goal

    def decision_keys(self) -> list[tuple[int, int, int]]:
        """Every (i, j, k), i and j < goal, i + k < goal, in the optimal table's order."""
        goal = self.goal
        return [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]

    def state(self, key: tuple[int, int, int]) -> State:
        """Player 0 to move with scores (i, j) and turn total k."""
        i, j, k = key
        return State(goal=self.goal, scores=(i, j), turn_total=k)

    def key_of(self, state: State) -> tuple[int, int, int] | None:
        """The decision key (own score, opponent's, turn total) of a position with a player
        to move, or None (a roll in flight, the game over, a goal above TABLE_MAX_GOAL): the
        review reads values by it."""
        if state.to_move == CHANCE or state.is_terminal() or self.goal > TABLE_MAX_GOAL:
            return None
        mine, theirs = state.scores if state.player == 0 else state.scores[::-1]
        return mine, theirs, state.turn_total

    def in_subset(self, key: tuple[int, int, int], subset: str) -> bool:
        """all, choice (k > 0) or reachable (no 1 among i, j, k)."""
        if subset == "all":
            return True
        if subset == "choice":
            return key[2] > 0
        return 1 not in key

    def best_move(self, key: tuple[int, int, int]) -> str:
        """ROLL or HOLD, as the optimal table decides."""
        from plyground.games.pig.optimal import optimal_table

        return ROLL if optimal_table(self.goal).should_roll(*key) else HOLD

    def move_values(self, key: tuple[int, int, int]) -> dict[str, float]:
        """The win probability of rolling (and holding, once k > 0), then playing optimally."""
        from plyground.games.pig.optimal import optimal_table

        table = optimal_table(self.goal)
        if key[2] == 0:
            return {ROLL: table.win_probability(*key)}
        return {ROLL: table.roll_win_probability(*key), HOLD: table.hold_win_probability(*key)}


# --- the game ----------------------------------------------------------------------------


class Game:
    """Pig: race to `goal` points with one die; roll to build a turn total, hold to bank it."""

    name = "pig"
    title = "Pig"
    stochastic = True
    default_heuristic = "race"
    side_names: tuple[str, str] = ("Player 1", "Player 2")
    options: tuple[GameOption, ...] = (
        GameOption(
            "goal",
            "Goal",
            DEFAULT_GOAL,
            10,
            1000,
            "points needed to win; small goals make short games",
        ),
    )
    notation_help = "r roll, h hold, a digit 1-6 for the die, e.g. r4r6h r1"
    # The measured ladder.  With the "score" heuristic one roll ahead the search holds once
    # the turn total passes 20 (rolling gains (20 - t) / 6 / goal in expectation): hold at
    # 20, the classic rule of thumb (at exactly 20 the two tie and the seeded tie-break
    # decides).  Roll-or-hold values differ by a few hundredths here, so randomness 0.2
    # makes Easy roll or hold almost at random and 0.02 makes Medium misjudge close calls.
    # Hard looks two decisions ahead; Expert reads the exact optimal policy.  Measured over
    # 1000 games, Expert wins about 56% against Hard; deeper searches gain little (depth 3
    # wins 45-47% against Expert), so Hard stays at depth 2, where the gap to Expert shows
    # within a thousand games and every move is instant.
    presets: tuple[Preset, ...] = (
        Preset(
            "Easy",
            DepthLimited("expectiminimax", 1, "score"),
            randomness=0.2,
            description="Looks one roll ahead with a lot of noise: rolls or holds almost "
            "at random when the choice is close.",
        ),
        Preset(
            "Medium",
            DepthLimited("expectiminimax", 1, "score"),
            randomness=0.02,
            description="Holds at about 20 points a turn, the classic rule of thumb, and "
            "sometimes misjudges a close call.",
        ),
        Preset(
            "Hard",
            DepthLimited("expectiminimax", 2, "score"),
            description="Looks two decisions ahead and never chooses at random.",
        ),
        Preset(
            "Expert",
            DepthLimited("expectiminimax", 1, "optimal"),
            description="Plays the exact optimal policy: the highest chance to win from "
            "every position.",
        ),
    )

    bench_positions: tuple[BenchPosition, ...] = (
        BenchPosition(
            "goal 100, 48-55, turn start", turns_text((6,) * 8, (5,) * 11), (("goal", 100),)
        ),
        BenchPosition(
            "goal 100, 48-55, turn total 12",
            turns_text((6,) * 8, (5,) * 11, "r4r4r4"),
            (("goal", 100),),
        ),
    )
    """Positions the search benchmark measures."""

    def option_values(self) -> dict[str, int]:
        """The goal."""
        return {"goal": self.goal}

    @staticmethod
    def option_cost(options: dict[str, int]) -> OptionCost:
        """The optimal-play table a goal needs (Expert, the "optimal" heuristic, the policy
        picture and the window's odds read it): about goal^3 / 2 states."""
        from plyground.games.pig.optimal import table_cost

        goal = options.get("goal", DEFAULT_GOAL)
        states, memory, seconds = table_cost(goal)
        return OptionCost(
            f"the optimal-play table for goal {goal}", states, memory, seconds, ("optimal",)
        )

    def reference_policy(self) -> OptimalPolicy:
        """The optimal policy at this goal, for `ai.compare.policy_agreement`."""
        return OptimalPolicy(self.goal)

    def policy_picture(self, state: State, chosen: Move | None = None) -> dict[str, Any]:
        """The optimal policy drawn around a decision, as chart data (games.pig.policy_chart)."""
        from plyground.games.pig.policy_chart import policy_picture

        me = state.player
        scores, total = state.scores, state.turn_total
        return policy_picture(
            self.goal, scores[me], scores[1 - me], total, str(chosen) if chosen else None
        )

    def __init__(self, goal: int = DEFAULT_GOAL) -> None:
        if isinstance(goal, bool) or not isinstance(goal, int) or goal < 1:
            raise ValueError(f"the goal must be a whole number of points, at least 1, not {goal!r}")
        self.goal = goal
        self.heuristics: dict[str, Heuristic] = dict(HEURISTICS)
        self._initial = State(goal=goal)

    def __repr__(self) -> str:
        return f"pig.Game(goal={self.goal})"

    exercise_positions: tuple[tuple[str, int, dict[str, int]], ...] = (
        ("", 2, {"goal": 10}),
        ("r4r5", 2, {"goal": 10}),
        ("r6h r3", 3, {"goal": 12}),
    )
    """Positions (moves, depth, options) the exercise grader searches (ai.student_code.grader)."""

    move_time_limit = 5.0
    """Seconds a player from a file may take for one decision (ai.student_code.agents)."""

    def initial_state(self) -> State:
        """Both scores 0, player 0 to decide."""
        return self._initial

    def format_move(self, move: Move) -> str:
        """'r' for roll, 'h' for hold, the digit for a die face."""
        if isinstance(move, str):
            return _TEXT_OF[move]
        return str(move)

    def parse_move(self, text: str, state: State) -> Move:
        """'r'/'roll' or 'h'/'hold' at a decision, a digit 1-6 at a chance node."""
        legal_text = [self.format_move(m) for m in state.legal_moves()]
        word = text.strip().lower()
        if state.is_terminal():
            raise illegal(text, legal_text, "the game is over")
        if state.to_move == CHANCE:
            if len(word) != 1 or word not in "123456":
                raise illegal(text, legal_text, "after a roll comes the die face, a digit 1-6")
            return int(word)
        move = _MOVE_OF.get(word)
        if move is None:
            raise illegal(text, legal_text, "a player types r (roll) or h (hold)")
        if move not in state.legal_moves():
            raise illegal(text, legal_text, "nothing to hold: the turn total is 0")
        return move

    def format_moves(self, moves: Sequence[Move]) -> str:
        """A whole game such as 'r4r6h r1 r5h': a space after each turn ends."""
        parts = []
        for move in moves:
            parts.append(self.format_move(move))
            if move == HOLD or (_is_face(move) and move == 1):
                parts.append(" ")
        return "".join(parts).rstrip()

    def parse_moves(self, text: str) -> list[Move]:
        """Text such as 'r4r6h r1 r5h' (spaces optional), checked by replaying it."""
        return parse_one_character_moves(self.parse_move, self._initial, text)

    def replay(self, moves: Sequence[Move]) -> State:
        """The state after `moves` from the start."""
        result: State = replay(self._initial, moves)
        return result

    def render(self, state: State) -> str:
        """Goal, both scores and the turn in progress, e.g. 'Player 1: 12 <- to move'."""
        lines = [f"Pig to {state.goal}"]
        winner = state.winner()
        for player in (0, 1):
            line = f"{PLAYER_NAMES[player]}: {state.scores[player]:>3}"
            if winner is None and player == state.player:
                line += f"  <- turn total {state.turn_total}"
                if state.to_move == CHANCE:
                    line += ", rolling"
            lines.append(line)
        if winner is not None:
            lines.append(f"{PLAYER_NAMES[winner]} wins")
        return "\n".join(lines)


_GAMES_BY_GOAL: dict[int, Game] = {}


def game_for_goal(goal: int) -> Game:
    """The shared Pig rules for `goal` (what `State.game` returns)."""
    game = _GAMES_BY_GOAL.get(goal)
    if game is None:
        game = _GAMES_BY_GOAL[goal] = Game(goal)
    return game
