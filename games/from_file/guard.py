"""Errors from a game written outside Plyground, each one line that names where it happened.

Every call into a game file's code goes through `Guard.call`: whatever the file's method does
(raise, recurse too deep, return the wrong kind of thing), the caller gets a `GameCodeError`
naming the file, the method and the position (the moves that led there), and nothing else of
the program is touched.  A file that does not load at all is a `GameFileError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

MAX_MOVES = 10_000
"""The most legal moves one position may have: more is a game's bug (or not a game to search
move by move) and is refused with that number, never searched."""


class GameFileError(ValueError):
    """A game file or module that cannot be used: it does not load, or defines no game."""


class GameCodeError(RuntimeError):
    """A method of a game from a file failed: one line naming the file, method and position."""

    def __init__(self, where: str, method: str, moves: str, problem: str) -> None:
        self.where = where
        self.method = method
        self.moves = moves
        self.problem = problem
        position = f"after moves {moves}" if moves else "at the start"
        super().__init__(f"{where}: {method} failed {position}: {problem}")


def describe_error(error: BaseException) -> str:
    """An exception as one short line: its type and its message (no traceback)."""
    if isinstance(error, RecursionError):
        return "it recursed too deeply (RecursionError)"
    text = " ".join(str(error).split())
    if len(text) > 200:
        text = text[:197] + "..."
    name = type(error).__name__
    return f"{name}: {text}" if text else name


class Guard:
    """Calls into one game file's code, turning its failures into `GameCodeError`s."""

    def __init__(self, where: str) -> None:
        self.where = where
        """How the game is named in messages: the file's name and class ("nim.py:Nim")."""

    def call(self, method: str, moves: Callable[[], str], function: Callable[..., T], *args: Any) -> T:
        """`function(*args)`, or GameCodeError naming `method` and the position (`moves()`)."""
        try:
            return function(*args)
        except GameCodeError:
            raise
        except (Exception, RecursionError) as error:  # noqa: BLE001 (the file's own code)
            raise GameCodeError(self.where, method, moves(), describe_error(error)) from None

    def fail(self, method: str, moves: str, problem: str) -> GameCodeError:
        """The error for a method that ran but answered something unusable."""
        return GameCodeError(self.where, method, moves, problem)


def check_moves(guard: Guard, method: str, moves: str, found: object) -> list[Any]:
    """A method's list of legal moves as a list, or GameCodeError: not a sequence, too many,
    or the same move twice."""
    if isinstance(found, (str, bytes)) or not isinstance(found, (Sequence, set, frozenset)):
        try:
            found = list(found)  # type: ignore[call-overload]
        except TypeError:
            raise guard.fail(method, moves, f"returned {type(found).__name__}, not a list of moves") from None
    listed = list(found)  # type: ignore[call-overload]
    if len(listed) > MAX_MOVES:
        raise guard.fail(
            method, moves, f"returned {len(listed):,} moves; Plyground plays games with at most {MAX_MOVES:,} a position"
        )
    return listed
