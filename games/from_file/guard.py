"""Errors from a game written outside Plyground, each one line that names where it happened.

Every call into a game file's code goes through `Guard.call`: whatever the file's method does
(raise, recurse too deep, return the wrong kind of thing), the caller gets a `GameCodeError`
naming the file, the method and the position (the moves that led there), and nothing else of
the program is touched.  A file that does not load at all is a `GameFileError`.
"""

from __future__ import annotations

import _thread
import signal
import threading
import time
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


CALL_SECONDS = 5.0
"""The longest one call into a game file may take on the main thread once `watch()` is on:
longer, and the call is interrupted and fails ("it may loop forever")."""


class _Watch:
    """A watchdog for calls into game files on the main thread: one that runs longer than
    `CALL_SECONDS` is interrupted (`_thread.interrupt_main`) and becomes a GameCodeError, so
    a method that loops forever costs its game, not the window or the command."""

    def __init__(self) -> None:
        self.on = False
        self.lock = threading.Lock()
        self.active: int | None = None
        self.started = 0.0
        self.counter = 0
        self.fired: int | None = None
        self.depth = 0

    def start(self) -> None:
        if self.on:
            return
        self.on = True
        threading.Thread(target=self._run, name="game-file-watch", daemon=True).start()

    def _run(self) -> None:
        while True:
            time.sleep(0.25)
            with self.lock:
                if self.active is not None and time.monotonic() - self.started > CALL_SECONDS:
                    self.fired, self.active = self.active, None
                    _thread.interrupt_main()

    def enter(self) -> int | None:
        if self.depth:  # a call inside a call: the outer one is timed
            self.depth += 1
            return None
        with self.lock:
            self.counter += 1
            self.active, self.started, self.depth = self.counter, time.monotonic(), 1
            return self.counter

    def leave(self, token: int | None) -> None:
        self.depth -= 1
        if token is None:
            return
        with self.lock:
            if self.active == token:
                self.active = None
        if self.fired == token:
            for _ in range(4):  # let an interrupt already on its way arrive inside the guard
                time.sleep(0)


WATCH = _Watch()


def watch() -> None:
    """Time every call into a game file on the main thread from now on (the window, its AI
    worker and the terminal commands turn it on, after setting their own Ctrl+C handling).

    The watchdog interrupts the main thread as Ctrl+C would; the handler installed here
    turns that into the guarded call's failure while a call is running, and otherwise hands
    a real Ctrl+C to the handler that was there before (or ignores it where it was ignored).
    """
    WATCH.start()
    if threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGINT)
    if getattr(previous, "plyground_watch", False):
        return

    def on_interrupt(signum: int, frame: Any) -> Any:
        if WATCH.fired is not None:
            if WATCH.depth > 0:
                raise KeyboardInterrupt
            WATCH.fired = None  # it came after the call ended: nothing to stop
            return None
        if callable(previous):
            return previous(signum, frame)
        if previous == signal.SIG_IGN:
            return None
        raise KeyboardInterrupt

    on_interrupt.plyground_watch = True  # type: ignore[attr-defined]
    try:
        signal.signal(signal.SIGINT, on_interrupt)
    except (ValueError, OSError):  # not possible here: loops are then not interrupted
        WATCH.on = False


class Guard:
    """Calls into one game file's code, turning its failures into `GameCodeError`s."""

    def __init__(self, where: str) -> None:
        self.where = where
        """How the game is named in messages: the file's name and class ("nim.py:Nim")."""

    def call(self, method: str, moves: Callable[[], str], function: Callable[..., T], *args: Any) -> T:
        """`function(*args)`, or GameCodeError naming `method` and the position (`moves()`)."""
        timed = WATCH.on and threading.current_thread() is threading.main_thread()
        token = WATCH.enter() if timed else None
        try:
            try:
                return function(*args)
            finally:
                if timed:
                    WATCH.leave(token)
        except GameCodeError:
            raise
        except KeyboardInterrupt:
            if token is not None and WATCH.fired == token:
                WATCH.fired = None
                raise GameCodeError(
                    self.where, method, moves(),
                    f"it took longer than {CALL_SECONDS:g} s (does it loop forever?)",
                ) from None
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
