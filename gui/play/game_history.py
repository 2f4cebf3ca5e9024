"""One game's history: the list of states, undo/redo, and the seeded dice (no pygame)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from plyground.games.base import CHANCE, Game, Move, State, sample_outcome


@dataclass(frozen=True, slots=True)
class Entry:
    """One move and what it led to; `rng_state` is the dice generator after the move."""

    move: Move
    state: State[Any]
    rng_state: Any
    chance: bool


class GameHistory:
    """The history of one game with undo/redo; states are immutable so this is just lists.

    Chance outcomes are drawn with a `random.Random(seed)` owned here, so the same seed
    replays the same dice; undo restores the generator too, so redo and replays agree.
    """

    def __init__(self, game: Game[Any], seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.initial = game.initial_state()
        self._initial_rng = self.rng.getstate()
        self.entries: list[Entry] = []
        self.redo_stack: list[list[Entry]] = []

    @property
    def state(self) -> State[Any]:
        """The current position."""
        return self.state_after(len(self.entries))

    def state_after(self, entries: int) -> State[Any]:
        """The position after the first `entries` entries (0: the initial position)."""
        return self.entries[entries - 1].state if entries else self.initial

    @property
    def moves(self) -> list[Move]:
        """Every move so far, chance outcomes included."""
        return [entry.move for entry in self.entries]

    def decisions(self) -> int:
        """How many player decisions have been made."""
        return sum(not entry.chance for entry in self.entries)

    def play(self, move: Move) -> State[Any]:
        """Play a move (a player's, or a chance outcome); clears redo. Returns the new state."""
        chance = self.state.to_move == CHANCE
        new_state = self.state.play(move)
        self.entries.append(Entry(move, new_state, self.rng.getstate(), chance))
        self.redo_stack.clear()
        return new_state

    def load(self, moves: list[Move]) -> None:
        """Play saved moves (already checked); the dice generator follows along.

        At each chance node the generator draws once, as it did when the game was played,
        so a game saved by the window goes on with the same dice it would have had.
        """
        for move in moves:
            if self.state.to_move == CHANCE:
                self.sample_chance()
            self.play(move)

    def sample_chance(self) -> Move:
        """Draw the outcome of the current chance node with the match's generator."""
        return sample_outcome(self.state, self.rng)

    def _pop_decision(self) -> list[Entry]:
        popped: list[Entry] = []
        while self.entries and self.entries[-1].chance:
            popped.insert(0, self.entries.pop())
        if self.entries:
            popped.insert(0, self.entries.pop())
        return popped

    def _restore_rng(self) -> None:
        self.rng.setstate(self.entries[-1].rng_state if self.entries else self._initial_rng)

    def can_undo(self) -> bool:
        """Whether there is a move to take back."""
        return bool(self.entries)

    def can_redo(self) -> bool:
        """Whether an undone move can be replayed."""
        return bool(self.redo_stack)

    def undo(self, is_human: Callable[[int], bool]) -> bool:
        """Take back moves until a human is to move again (one decision if nobody is human)."""
        if not self.entries:
            return False
        anyone_human = is_human(0) or is_human(1)
        block: list[Entry] = []
        while self.entries:
            block = self._pop_decision() + block
            state = self.state
            if not anyone_human or (state.to_move != CHANCE and is_human(state.to_move)):
                break
        self._restore_rng()
        self.redo_stack.append(block)
        return True

    def redo(self) -> bool:
        """Replay the last undone block of moves."""
        if not self.redo_stack:
            return False
        self.entries.extend(self.redo_stack.pop())
        self._restore_rng()
        return True

    def restart(self, seed: int | None = None) -> None:
        """Back to the start; a new seed gives new dice."""
        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)
        self._initial_rng = self.rng.getstate()
        self.entries.clear()
        self.redo_stack.clear()

    def history_rows(self) -> list[tuple[int, str]]:
        """The moves in the game's notation, one row per turn: (player, text).

        Consecutive decisions by one player (a dice game's rolls) share a row, and chance
        outcomes are written right after the move that caused them.
        """
        return [(player, text) for player, text, _ in self._rows()]

    def row_ends(self) -> list[int]:
        """For each row of `history_rows`, how many entries the game has at its end."""
        return [end for _, _, end in self._rows()]

    def _rows(self) -> list[tuple[int, str, int]]:
        rows: list[tuple[int, str, int]] = []
        state = self.initial
        for count, entry in enumerate(self.entries, start=1):
            text = self.game.format_move(entry.move)
            if entry.chance:
                if rows:
                    rows[-1] = (rows[-1][0], rows[-1][1] + text, count)
            else:
                player = state.to_move
                if rows and rows[-1][0] == player and self.game.stochastic:
                    rows[-1] = (player, rows[-1][1] + " " + text, count)
                else:
                    rows.append((player, text, count))
            state = entry.state
        return rows
