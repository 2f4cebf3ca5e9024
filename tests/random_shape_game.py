"""Random small games of every shape, written to Plyground's protocol (a test game only).

A game is drawn from its `seed`: a layered graph of at most `height` plies.  Each node of a
layer is one of `width` positions, so different lines meet again (transpositions); a node's
side to move is drawn too, so a side often moves twice or more in a row (extra turns, as in
Kalah or dots and boxes).  A node may end the game (a win, draw or loss for the first
player), and with `chance` on, a node may be a roll of dice whose outcomes lead on.  Every
line from one layer to the next takes one ply, so a result's distance does not depend on
the line that reached it.  Its heuristic is a number drawn per node.  With `loops` on, a
move may lead to any layer, so positions repeat and a line may go on for ever.  The
properties in tests/test_search_shapes.py compare the engine with the textbook (and, where
positions repeat, its solve with a solver that follows each line) on these games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from plyground.games.base import CHANCE, NO_HEURISTIC, GameOption, Heuristic, Preset, illegal
from plyground.games.search_settings import DepthLimited

Move = int


@dataclass(frozen=True, slots=True)
class Node:
    """What the seed draws for one position."""

    side: int
    """The player to move (at a chance node: the one who rolls)."""
    chance: bool
    result: int | None
    """At an end: +1 the first player won, -1 lost, 0 a draw; None while the game goes on."""
    children: tuple[tuple[int, int], ...]
    """The (layer, index) of the position after each move (or outcome): the next layer's,
    or with loops any layer's."""
    probabilities: tuple[float, ...]
    estimate: float
    """The heuristic's number for the side to move."""


@cache
def draw_node(
    seed: int, chance: bool, loops: bool, height: int, width: int, layer: int, index: int
) -> Node:
    """The node `index` of `layer` of the game drawn from `seed`."""
    rng = random.Random(f"{seed}/{chance}/{loops}/{height}/{width}/{layer}/{index}")
    side = rng.randrange(2)
    estimate = round(rng.uniform(-0.95, 0.95), 3)
    ends = layer == height or (layer > 0 and rng.random() < 0.2)
    if ends:
        return Node(side, False, rng.choice((-1, 0, 1)), (), (), estimate)
    count = rng.randint(1, 3)
    children = tuple(
        (rng.randrange(1, height + 1) if loops else layer + 1, rng.randrange(width))
        for _ in range(count)
    )
    if chance and rng.random() < 0.3:
        weights = [rng.randint(1, 4) for _ in range(count)]
        total = sum(weights)
        return Node(side, True, None, children, tuple(w / total for w in weights), estimate)
    return Node(side, False, None, children, (), estimate)


@dataclass(frozen=True, slots=True)
class State:
    """A position: its layer and index in the drawn graph."""

    STOCHASTIC: ClassVar[bool] = False

    rules: Game
    layer: int = 0
    index: int = 0

    @property
    def node(self) -> Node:
        r = self.rules
        return draw_node(r.seed, r.chance, r.loops, r.height, r.width, self.layer, self.index)

    @property
    def game(self) -> Game:
        return self.rules

    @property
    def to_move(self) -> int:
        node = self.node
        return CHANCE if node.chance else node.side

    @property
    def player(self) -> int:
        return self.node.side

    @property
    def ply(self) -> int:
        return self.layer

    def key(self) -> tuple[int, int]:
        return self.layer, self.index

    def is_terminal(self) -> bool:
        return self.node.result is not None

    def legal_moves(self) -> tuple[Move, ...]:
        return tuple(range(len(self.node.children)))

    def chance_outcomes(self) -> tuple[tuple[Move, float], ...]:
        node = self.node
        return tuple(enumerate(node.probabilities)) if node.chance else ()

    def play(self, move: Move) -> State:
        children = self.node.children
        if not isinstance(move, int) or not 0 <= move < len(children):
            raise illegal(move, [str(m) for m in range(len(children))])
        return type(self)(self.rules, *children[move])

    def winner(self) -> int | None:
        result = self.node.result
        return None if not result else (0 if result > 0 else 1)

    def utility(self, player: int) -> float:
        result = self.node.result or 0
        return float(result if player == 0 else -result)

    def winning_line(self) -> None:
        return None


class StochasticState(State):
    """A position of a game drawn with chance nodes."""

    STOCHASTIC: ClassVar[bool] = True


def evaluate_drawn(state: Any) -> float:
    """The number the seed drew for the position, for the side to move."""
    return float(state.node.estimate)


class Game:
    """A random small game of every shape (see the module's docstring)."""

    name = "random-shape"
    title = "Random shape"
    stochastic = False
    default_heuristic = "drawn"
    side_names: tuple[str, str] = ("First", "Second")
    options: tuple[GameOption, ...] = (
        GameOption("seed", "Seed", 0, 0, 10**9, "the game drawn"),
        GameOption("chance", "Chance", 0, 0, 1, "1: some nodes roll dice"),
        GameOption("height", "Height", 5, 1, 9, "the longest line, in plies"),
        GameOption("width", "Width", 4, 1, 9, "positions per layer"),
        GameOption("loops", "Loops", 0, 0, 1, "1: a move may lead to any layer"),
    )
    notation_help = "a move's number from 0"
    presets: tuple[Preset, ...] = (Preset("Hard", DepthLimited("alphabeta", 4, "drawn")),)

    def __init__(
        self, seed: int = 0, chance: int = 0, height: int = 5, width: int = 4, loops: int = 0
    ) -> None:
        self.seed, self.chance, self.height, self.width = seed, bool(chance), height, width
        self.loops = bool(loops)
        self.stochastic = self.chance
        self.heuristics: dict[str, Heuristic] = {
            "drawn": Heuristic("drawn", "The number drawn per position.", evaluate_drawn),
            "none": NO_HEURISTIC,
        }

    def option_values(self) -> dict[str, int]:
        return {
            "seed": self.seed,
            "chance": int(self.chance),
            "height": self.height,
            "width": self.width,
            "loops": int(self.loops),
        }

    def initial_state(self) -> State:
        return StochasticState(self) if self.chance else State(self)

    def parse_move(self, text: str, state: State) -> Move:
        if not text.strip().isdigit() or int(text) not in state.legal_moves():
            raise illegal(text, [str(m) for m in state.legal_moves()])
        return int(text)

    def format_move(self, move: Move) -> str:
        return str(move)

    def parse_moves(self, text: str) -> list[Move]:
        state = self.initial_state()
        moves = []
        for word in text.split():
            move = self.parse_move(word, state)
            moves.append(move)
            state = state.play(move)
        return moves

    def format_moves(self, moves: Sequence[Move]) -> str:
        return " ".join(str(m) for m in moves)

    def replay(self, moves: Sequence[Move]) -> State:
        state = self.initial_state()
        for move in moves:
            state = state.play(move)
        return state

    def render(self, state: State) -> str:
        return f"layer {state.layer}, position {state.index}"
