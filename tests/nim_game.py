"""A small extra game defined only in tests/: three-heap Nim, registered the documented way.

Heaps (3, 4, 5); a move takes one or more stones from one heap; whoever takes the last
stone wins.  A move is written "heap:count" with heaps numbered from 1 ("3:2" takes two
stones from the third heap); a whole game is moves separated by spaces.  Nothing outside
this file knows the game: `games.register(Game)` is all it takes (see
tests/architecture/test_one_place.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from plyground.games.base import (
    NO_HEURISTIC,
    GameOption,
    Heuristic,
    Preset,
    illegal,
    parse_each,
    replay,
)
from plyground.games.search_settings import DepthLimited

HEAPS = (3, 4, 5)

Move = tuple[int, int]
"""(heap index from 0, stones taken)."""


@dataclass(frozen=True, slots=True)
class State:
    """A Nim position: the stones left in each heap, and how many moves were made."""

    STOCHASTIC: ClassVar[bool] = False

    heaps: tuple[int, ...] = HEAPS
    ply: int = 0
    to_move: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "to_move", self.ply % 2)

    @property
    def player(self) -> int:
        """The player to move (no chance nodes)."""
        return self.to_move

    @property
    def game(self) -> Game:
        """The rules, for the search to find heuristics from a state."""
        return GAME

    def key(self) -> tuple[tuple[int, ...], int]:
        """The heaps and the player to move."""
        return self.heaps, self.to_move

    def is_terminal(self) -> bool:
        """Every heap is empty."""
        return not any(self.heaps)

    def legal_moves(self) -> tuple[Move, ...]:
        """Every (heap, count), biggest takes first."""
        return tuple(
            (heap, count) for heap, size in enumerate(self.heaps) for count in range(size, 0, -1)
        )

    def play(self, move: Move) -> State:
        """Take `count` stones from heap `heap`."""
        if move not in self.legal_moves():
            raise illegal(move, [GAME.format_move(m) for m in self.legal_moves()])
        heap, count = move
        heaps = list(self.heaps)
        heaps[heap] -= count
        return State(tuple(heaps), self.ply + 1)

    def winner(self) -> int | None:
        """The player who took the last stone, once every heap is empty."""
        return 1 - self.to_move if self.is_terminal() else None

    def utility(self, player: int) -> float:
        """+1 if `player` won, -1 if they lost, 0 while the game goes on."""
        winner = self.winner()
        if winner is None:
            return 0.0
        return 1.0 if winner == player else -1.0

    def chance_outcomes(self) -> tuple[tuple[Move, float], ...]:
        """No chance: ()."""
        return ()

    def winning_line(self) -> tuple[int, ...] | None:
        """Nim has no winning line."""
        return None


def evaluate_nim_sum(state: State) -> float:
    """Bouton's theorem: the mover wins exactly when the heaps' xor is not 0."""
    return 0.5 if nim_sum(state.heaps) else -0.5


def evaluate_parity(state: State) -> float:
    """An odd number of non-empty heaps favours the mover (exact when no heap has 2+)."""
    odd = sum(1 for size in state.heaps if size) % 2 == 1
    if max(state.heaps) <= 1:
        return 0.8 if odd else -0.8
    return 0.1 if odd else -0.1


HEURISTICS = {
    "nimsum": Heuristic(
        "nimsum", "The xor of the heaps: not 0 wins for the mover.", evaluate_nim_sum
    ),
    "parity": Heuristic("parity", "Odd number of non-empty heaps is good.", evaluate_parity),
    "none": NO_HEURISTIC,
}


def nim_sum(heaps: Sequence[int]) -> int:
    """The xor of the heap sizes: the mover wins exactly when it is not 0 (Bouton)."""
    total = 0
    for size in heaps:
        total ^= size
    return total


class PerfectPolicy:
    """Bouton's strategy as the game's reference policy (`Game.reference_policy()`)."""

    title = "Bouton's strategy"
    subsets: tuple[tuple[str, str], ...] = (("all", "all states"), ("won", "nim-sum not 0"))

    def decision_keys(self) -> list[tuple[int, ...]]:
        """Every position with a stone left, the first player to move."""
        return [
            (a, b, c)
            for a in range(HEAPS[0] + 1)
            for b in range(HEAPS[1] + 1)
            for c in range(HEAPS[2] + 1)
            if a + b + c
        ]

    def state(self, key: tuple[int, ...]) -> State:
        """The heaps, the first player to move."""
        return State(key)

    def in_subset(self, key: tuple[int, ...], subset: str) -> bool:
        """all, or won (the mover can win)."""
        return subset == "all" or nim_sum(key) != 0

    def move_values(self, key: tuple[int, ...]) -> dict[Move, float]:
        """1 for a move to nim-sum 0 (a won game), else 0."""
        values = {}
        for move in State(key).legal_moves():
            after = State(key).play(move).heaps
            values[move] = 1.0 if nim_sum(after) == 0 else 0.0
        return values

    def best_move(self, key: tuple[int, ...]) -> Move:
        """The first move to nim-sum 0, or the first move when there is none."""
        values = self.move_values(key)
        return max(values, key=values.__getitem__)


class Game:
    """Three-heap Nim, last to take wins."""

    name = "nim"
    title = "Nim"
    stochastic = False
    default_heuristic = "nimsum"
    side_names: tuple[str, str] = ("First", "Second")
    options: tuple[GameOption, ...] = ()
    notation_help = "heap:count, heaps 1-3, e.g. 3:2 1:1"
    presets: tuple[Preset, ...] = (
        Preset(
            "Easy",
            DepthLimited("alphabeta", 1, "parity"),
            randomness=1.0,
            description="Takes at random.",
        ),
        Preset(
            "Medium",
            DepthLimited("alphabeta", 2, "parity"),
            randomness=0.3,
            description="Counts heaps.",
        ),
        Preset("Hard", DepthLimited("alphabeta", 2, "nimsum"), description="Knows the nim-sum."),
        Preset(
            "Expert", DepthLimited("alphabeta", None, "nimsum"), description="Solves the heaps."
        ),
    )

    def __init__(self) -> None:
        self.heuristics: dict[str, Heuristic] = dict(HEURISTICS)

    def option_values(self) -> dict[str, int]:
        """No options."""
        return {}

    def reference_policy(self) -> PerfectPolicy:
        """Bouton's strategy, for `ai.compare.policy_agreement`."""
        return PerfectPolicy()

    def initial_state(self) -> State:
        """Heaps 3, 4, 5, the first player to move."""
        return State()

    def parse_move(self, text: str, state: State) -> Move:
        """'heap:count' with heaps from 1."""
        legal = [self.format_move(move) for move in state.legal_moves()]
        heap_text, sep, count_text = text.strip().partition(":")
        if not sep or not heap_text.isdigit() or not count_text.isdigit():
            raise illegal(text, legal, "a move is heap:count, e.g. 3:2")
        move = (int(heap_text) - 1, int(count_text))
        if move not in state.legal_moves():
            raise illegal(text, legal)
        return move

    def format_move(self, move: Move) -> str:
        """'heap:count', heaps from 1."""
        return f"{move[0] + 1}:{move[1]}"

    def parse_moves(self, text: str) -> list[Move]:
        """Moves separated by spaces, checked by replaying them."""
        return parse_each(self.parse_move, self.initial_state(), text.split())

    def format_moves(self, moves: Sequence[Move]) -> str:
        """Moves separated by spaces."""
        return " ".join(self.format_move(move) for move in moves)

    def replay(self, moves: Sequence[Move]) -> State:
        """The state after `moves`."""
        return replay(self.initial_state(), moves)  # type: ignore[no-any-return]

    def render(self, state: State) -> str:
        """One line per heap."""
        return "\n".join(f"{i + 1}: {'|' * size}" for i, size in enumerate(state.heaps))


GAME = Game()
