"""A game from a file walked in place: the engine's fast path (`games.base.InPlacePosition`).

A `FileState` is a new immutable object per position, its every call guarded and its answers
kept: right for the window, the explorer and the textbook's trace, which keep positions, but
several times the cost of a node in the frameworks' own searches, which make a move, search
below it and unmake it.  The engine's alpha-beta walks a file's game the frameworks' way:

* `UndoWalk`, for an easyAI game with ``unmake_move``: one private copy of the game object,
  ``make_move`` and ``unmake_move`` on it, as easyAI's own ``Negamax`` does;
* `StackWalk`, for every other game: a stack of the file's own positions, a new one per move
  (aima's ``result``, a protocol state's ``play``, a copy of an easyAI game without
  ``unmake_move``), popped on the way back.

The walk asks the file the same questions as `FileState` (so the engine searches the same
nodes, keyed the same, and reaches the same values) and checks the answers the same way:
every failure is the same one-line `GameCodeError` naming the file, the method and the moves.
It trusts its caller (the engine) to play only moves `legal_moves()` gave.  A method that runs
on for `guard.CALL_SECONDS` without the walk reaching a new position is stopped as `Guard.call`
stops one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from plyground.games.from_file.guard import WATCH, GameCodeError, searchable_moves
from plyground.games.from_file.styles import NEXT_SEAT, EasyAIStyle, move_text

if TYPE_CHECKING:
    from plyground.games.from_file.adapter import FileGame, FileState

PLAYOUT_LIMIT = 2_000
"""Plies after which a random playout stops, undecided (a game whose lines may repeat)."""


class Finished:
    """What a finished position of a file's game says, from the file's number for it (its
    score for the first player, `number`): who won, each side's utility and score.  Shared by
    `adapter.FileState` and the walks, so both answer alike."""

    __slots__ = ()

    def number(self) -> float:
        raise NotImplementedError

    def winner(self) -> int | None:
        value = self.number()
        if value == 0 or math.isnan(value):
            return None
        return 0 if value > 0 else 1

    def utility(self, player: int) -> float:
        winner = self.winner()
        if winner is None:
            return 0.0
        return 1.0 if winner == player else -1.0

    def score(self, player: int) -> float:
        """A finished game's own number for `player` (the file's utility or scoring, which
        may be a score such as a textbook tree's leaf, not just +1 or -1)."""
        value = self.number()
        return value if player == 0 else -value

    def repetition_value(self) -> float:
        """What the position is worth to the player to move when it repeats within a line
        (`games.base.RepetitionValue`): the file's own ``repetition_value()`` where its
        position has one (1 a win, 0 a draw, -1 a loss), else a draw."""
        own = getattr(self.inner, "repetition_value", None)
        if not callable(own):
            return 0.0
        value = self.asked("repetition_value()", own)
        if value not in (-1, 0, 1):
            raise self.refusal("repetition_value()", f"gave {value!r}, not 1, 0 or -1")
        return float(value)

    inner: Any
    game: FileGame

    def asked(self, method: str, function: Callable[[], Any]) -> Any:
        """`function()`, a method of the file's position, guarded as every call into it."""
        raise NotImplementedError

    def moves_text(self) -> str:
        """The moves that led here, for messages."""
        raise NotImplementedError

    def refusal(self, method: str, problem: str) -> GameCodeError:
        """The error for the file's `method` answering something unusable (`problem`)."""
        return self.game.guard.fail(method, self.moves_text(), problem)

    def bad_side(self, role: str, side: object) -> GameCodeError:
        """The error for the file's `role` method ("to_move") naming no side (`side`)."""
        return self.refusal(self.game.method(role), f"gave side {side!r}, not 0 or 1")


class Walk(Finished):
    """What both walks share: the answers a `State` gives, asked of the position on top."""

    inner: Any
    """The file's own position the walk stands on (what the game's evaluation reads)."""

    def __init__(self, state: FileState) -> None:
        game: FileGame = state.game
        self.game = game
        self.root = state
        self.style = game.style
        self.guard = game.guard
        self.path: list[Any] = []
        """The moves played in place since the root (for messages and `undo`)."""
        self.raw: dict[int, dict[Any, Any]] = {}
        """Per depth, the file's own moves behind moves that were made hashable (lists)."""
        own = state.raw_moves()
        if own is not None:  # the root's moves, as the state listed them
            self.raw[0] = own
        self.inner = state.inner
        self.token = WATCH.begin()
        """Timed as one guarded call whose clock restarts at every new position (module)."""

    # ------------------------------------------------------------------ messages
    def moves_text(self) -> str:
        before = self.root.moves_text()
        played = " ".join(move_text(move) for move in self.path)
        return f"{before} {played}".strip()

    def failed(self, role: str, error: BaseException, playing: Any = None) -> GameCodeError:
        """The error for the file's `role` method raising `error` (or being stopped, as
        `Guard.call` stops a call), making the move `playing` where it was making one: the
        walk's timing ends with it."""
        token = self.token
        self.release()
        shown = "" if playing is None else move_text(playing)
        return self.guard.failure(self.game.method(role), self.moves_text, error, token, shown)

    def release(self) -> None:
        WATCH.end(self.token)
        self.token = 0

    def asked(self, method: str, function: Callable[[], Any]) -> Any:
        try:
            return function()
        except BaseException as error:
            raise self.failed(method, error) from None

    # ------------------------------------------------------------------ the position on top
    @property
    def player(self) -> int:
        try:
            side = self.style.side(self.inner)
        except BaseException as error:
            raise self.failed("to_move", error) from None
        if side not in (0, 1):  # a walk never stands on a chance event
            raise self.bad_side("to_move", side)
        return int(side)

    to_move = player

    def is_terminal(self) -> bool:
        try:
            return bool(self.style.over(self.inner))
        except BaseException as error:
            raise self.failed("over", error) from None

    def key(self) -> Hashable:
        """As `FileState.key`: the file's key and no chance event pending."""
        try:
            return (self.style.key(self.inner), False)
        except BaseException as error:
            raise self.failed("key", error) from None

    def legal_moves(self) -> tuple[Any, ...]:
        """The moves of a position that is not over, checked as `FileState` checks them."""
        try:
            found = self.style.moves(self.inner)
        except BaseException as error:
            raise self.failed("moves", error) from None
        moves, raw = searchable_moves(self.guard, self.game.method("moves"), self.moves_text, found)
        if raw is not None:
            self.raw[len(self.path)] = dict(zip(moves, raw, strict=True))
        return moves

    def number(self) -> float:
        try:
            value = self.style.score(self.inner)
        except BaseException as error:
            raise self.failed("score", error) from None
        return self.guard.number(self.game.method("score"), self.moves_text, value)

    def original(self, move: Any) -> Any:
        """The file's own move behind `move` (the same, unless it was made hashable)."""
        if self.raw:
            known = self.raw.get(len(self.path))
            if known is not None:
                return known.get(move, move)
        return move

    def moved(self, move: Any) -> None:
        """Note a move made: the path, and a new position for the watch's clock."""
        self.path.append(move)
        WATCH.restart(self.token)

    def back(self) -> Any:
        """Take the last move off the path (its hashable stand-ins with it); return it."""
        if self.raw:
            self.raw.pop(len(self.path), None)
        return self.path.pop()

    def play(self, move: Any) -> Walk:
        """Make `move` on the walk (each walk its own way) and return it."""
        raise NotImplementedError

    def random_playout(self, rng: random.Random, limit: int = PLAYOUT_LIMIT) -> int | None:
        """Random moves to the end (`games.base.RandomPlayout`: the move
        ``legal_moves()[int(rng.random() * n)]`` at each ply, the file's own moves in its
        order): the winner, or None for a draw or a game still going after `limit` plies.  The
        walk is spent afterwards: `release()` it."""
        for _ in range(limit):
            if self.is_terminal():
                return self.winner()
            moves = self.legal_moves()
            self.play(moves[int(rng.random() * len(moves))])
        return None


class StackWalk(Walk):
    """A stack of the file's own positions: one new position per move, popped on return."""

    def __init__(self, state: FileState) -> None:
        super().__init__(state)
        self.stack: list[Any] = []
        game = self.game
        self.checked = game.checks_mutation
        self.play_inner: Callable[[Any, Any], Any] = self.style.play

    def play(self, move: Any) -> StackWalk:
        inner = self.inner
        raw = self.original(move)
        try:
            if self.checked and type(self.game).mutation_checks > 0:
                child = self.game.checked_play(inner, raw, self.moves_text, move_text(move))
            else:
                child = self.play_inner(inner, raw)
        except BaseException as error:
            raise self.failed("play", error, move) from None
        self.stack.append(inner)
        self.inner = child
        self.moved(move)
        return self

    def undo(self) -> None:
        self.back()
        self.inner = self.stack.pop()

    def random_playout(self, rng: random.Random, limit: int = PLAYOUT_LIMIT) -> int | None:
        """As `Walk.random_playout`, on the file's own positions with no stack kept (the walk
        never comes back): the file's moves are asked, chosen among and played as they are,
        every failure still the one-line error naming the method and the moves."""
        if self.checked and type(self.game).mutation_checks > 0:  # the game's first plays
            return super().random_playout(rng, limit)
        style, token = self.style, self.token
        moves_of, over, play = style.moves, style.over, self.play_inner
        inner, path = self.inner, self.path
        random_number = rng.random
        role = "over"
        try:
            for _ in range(limit):
                if over(inner):
                    self.inner = inner
                    return self.winner()
                role = "moves"
                found = moves_of(inner)
                if (type(found) is not list and type(found) is not tuple) or not found:
                    self.inner = inner
                    found = self.legal_moves()  # checked, and failing, as the walk's are
                    found = [self.original(move) for move in found]
                move = found[int(random_number() * len(found))]
                role = "play"
                inner = play(inner, move)
                path.append(move)
                WATCH.restart(token)
                role = "over"
        except GameCodeError:
            raise
        except BaseException as error:
            self.inner = inner
            raise self.failed(role, error) from None
        self.inner = inner
        return None


class UndoWalk(Walk):
    """One private copy of an easyAI game, its moves made and unmade on it."""

    def __init__(self, state: FileState) -> None:
        super().__init__(state)
        style = self.style
        assert isinstance(style, EasyAIStyle)
        inner = self.inner = style.copy(state.inner)
        if not hasattr(inner, "nmove"):
            inner.nmove = 1
        self.make: Callable[[Any], Any] = inner.make_move
        self.unmake: Callable[[Any], Any] = inner.unmake_move
        self.over: Callable[[], Any] = inner.is_over
        self.played: list[Any] = []
        """The file's own moves made, to unmake."""
        self.remember: Callable[[Any], None] = self.played.append
        self.recall: Callable[[], Any] = self.played.pop

    def is_terminal(self) -> bool:
        try:
            return bool(self.over())
        except BaseException as error:
            raise self.failed("over", error) from None

    def play(self, move: Any) -> UndoWalk:
        inner = self.inner
        raw = self.original(move) if self.raw else move
        try:
            self.make(raw)
            inner.current_player = NEXT_SEAT[inner.current_player]
        except BaseException as error:
            raise self.failed("play", error, move) from None
        inner.nmove += 1
        self.remember(raw)
        self.path.append(move)  # `moved` written out, as `back` below: they run at every move
        WATCH.restart(self.token)
        return self

    def undo(self) -> None:
        inner = self.inner
        inner.nmove -= 1
        try:
            inner.current_player = NEXT_SEAT[inner.current_player]
            self.unmake(self.recall())
        except BaseException as error:  # named at the position it was to take back
            raise self.failed("unmake", error) from None
        if self.raw:
            self.raw.pop(len(self.path), None)
        self.path.pop()


def walk(state: FileState) -> Walk:
    """An in-place walk from `state`: unmaking moves where the game can, else a stack."""
    style = state.game.style
    if isinstance(style, EasyAIStyle) and callable(getattr(state.inner, "unmake_move", None)):
        return UndoWalk(state)
    return StackWalk(state)


WALKS = frozenset({StackWalk, UndoWalk})
"""The walks' classes (what the game's heuristics recognise as a walk, not a state)."""
