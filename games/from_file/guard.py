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
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from plyground.games.from_file.styles import SideError, freeze

T = TypeVar("T")

MAX_MOVES = 10_000
"""The most legal moves one position may have: more is a game's bug (or not a game to search
move by move) and is refused with that number, never searched."""


class GameFileError(ValueError):
    """A game file or module that cannot be used: it does not load, or defines no game."""


class GameCodeError(RuntimeError):
    """A method of a game from a file failed: one line naming the file, method and position
    (and the move being made, where it failed making one; and what Plyground was doing, where
    the position is not one the user reached, such as the load-time probe's)."""

    def __init__(
        self,
        where: str,
        method: str,
        moves: str,
        problem: str,
        playing: str = "",
        context: str = "",
    ) -> None:
        self.where = where
        self.method = method
        self.moves = moves
        self.problem = problem
        self.playing = playing
        self.context = context
        position = f"after moves {moves}" if moves else "at the start"
        if playing:
            position += f", making move {playing}"
        if context:
            position += f" ({context})"
        super().__init__(f"{where}: {method} failed {position}: {problem}")

    def during(self, context: str) -> GameCodeError:
        """The same failure, saying what Plyground was doing when it happened."""
        return GameCodeError(
            self.where, self.method, self.moves, self.problem, self.playing, context
        )


class GameFileWarning(UserWarning):
    """Something odd in a game file that Plyground works around (said once per game)."""


_WARNED: set[tuple[str, str]] = set()
SAID: list[str] = []
"""Every `GameFileWarning` said in this process, in order: the window shows each one it has
not shown yet (the terminal prints them as they come)."""


def warn_once(where: str, kind: str, text: str) -> None:
    """Say `text` about the game `where` as a `GameFileWarning`, the first time a problem of
    its `kind` is seen in that game only."""
    if (where, kind) in _WARNED:
        return
    _WARNED.add((where, kind))
    SAID.append(f"{where}: {text}")
    warnings.warn(GameFileWarning(SAID[-1]), stacklevel=2)


def describe_error(error: BaseException) -> str:
    """An exception as one short line: its type and its message (no traceback)."""
    if isinstance(error, RecursionError):
        return "it recursed too deeply (RecursionError)"
    if isinstance(error, SideError):
        return str(error)
    if isinstance(error, SystemExit):
        code = "" if error.code is None else f" {error.code!r}"
        return f"it asked Python to exit (sys.exit() or exit(): SystemExit{code})"
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
    a method that loops forever costs its game, not the window or the command.

    The main thread writes which call is running (a token) and when it started; the watchdog
    thread reads them (no lock: a call is a few attribute writes).  The interrupt's handler
    acts only while the call it was meant for is still the one running."""

    def __init__(self) -> None:
        self.on = False
        self.main = threading.main_thread().ident
        self.active = 0
        """The token of the outermost call running on the main thread (0: none)."""
        self.started = 0.0
        self.counter = 0
        self.fired = 0

    def start(self) -> None:
        if self.on:
            return
        self.on = True
        # The thread starts with Ctrl+C and a hang-up blocked, so the system delivers them to
        # the main thread: one delivered to this thread would interrupt the main thread at
        # any point, even where it holds them (starting a worker: `terminal_signals_held`).
        block = getattr(signal, "pthread_sigmask", None)  # none on Windows
        held = {getattr(signal, name) for name in ("SIGINT", "SIGHUP") if hasattr(signal, name)}
        before = block(signal.SIG_BLOCK, held) if block is not None else None
        try:
            threading.Thread(target=self._run, name="game-file-watch", daemon=True).start()
        finally:
            if block is not None and before is not None:
                block(signal.SIG_SETMASK, before)

    def _run(self) -> None:
        while True:
            time.sleep(0.25)
            active, started = self.active, self.started
            if active and active != self.fired and time.monotonic() - started > CALL_SECONDS:
                self.fired = active
                _thread.interrupt_main()

    def begin(self) -> int:
        """Time a call from now, if it is the outermost on the main thread once the watch is
        on: its token (0: untimed, as a call inside a timed one or on another thread)."""
        if not self.on or self.active or threading.get_ident() != self.main:
            return 0
        self.counter += 1
        self.started = time.monotonic()
        self.active = self.counter
        return self.counter

    def restart(self, token: int) -> None:
        """The timed call `token` made progress: its clock starts again."""
        if token:
            self.started = time.monotonic()

    def end(self, token: int) -> None:
        """The timed call `token` is over."""
        if token and self.active == token:
            self.active = 0

    def due(self) -> bool:
        """Whether an interrupt that just arrived is for the call running now."""
        return bool(self.fired) and self.fired == self.active


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
        if WATCH.fired:
            if WATCH.due():
                raise KeyboardInterrupt
            WATCH.fired = 0  # it came after the call ended: nothing to stop
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

    def call(
        self,
        method: str,
        moves: Callable[[], str],
        function: Callable[..., T],
        *args: Any,
        playing: str = "",
    ) -> T:
        """`function(*args)`, or GameCodeError naming `method` and the position (`moves()`),
        and the move it was making (`playing`, its text) where it was making one."""
        token = WATCH.begin()
        try:
            try:
                return function(*args)
            finally:
                WATCH.end(token)
        except BaseException as error:
            raise self.failure(method, moves, error, token, playing) from None

    def failure(
        self,
        method: str,
        moves: Callable[[], str],
        error: BaseException,
        token: int,
        playing: str = "",
    ) -> GameCodeError:
        """The GameCodeError that `error`, raised by the file's `method` in a call timed as
        `token`, becomes: the watch's interrupt of that call says it took too long; a real
        Ctrl+C is raised again as it was.  `SystemExit` (``sys.exit()``, ``exit()``) is the
        file's failure like any other: it never ends the program."""
        if isinstance(error, GameCodeError):
            return error
        if isinstance(error, KeyboardInterrupt):
            if not (token and WATCH.fired == token):
                raise error
            WATCH.fired = 0
            return GameCodeError(
                self.where,
                method,
                moves(),
                f"it took longer than {CALL_SECONDS:g} s (does it loop forever?)",
                playing,
            )
        if not isinstance(error, (Exception, SystemExit)):
            raise error
        return GameCodeError(self.where, method, moves(), describe_error(error), playing)

    def number(self, method: str, moves: Callable[[], str], value: object) -> float:
        """`value`, which the file's `method` gave as a number, as a float, or GameCodeError."""
        try:
            return float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise self.fail(method, moves(), f"gave {value!r}, not a number") from None

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
            raise guard.fail(
                method, moves, f"returned {type(found).__name__}, not a list of moves"
            ) from None
    listed: list[Any] = list(found)  # type: ignore[call-overload]
    if len(listed) > MAX_MOVES:
        raise guard.fail(
            method,
            moves,
            f"returned {len(listed):,} moves; Plyground plays games of at most {MAX_MOVES:,} "
            "moves a position",
        )
    return listed


def searchable_moves(
    guard: Guard, method: str, moves: Callable[[], str], found: object
) -> tuple[tuple[Any, ...], list[Any] | None]:
    """The legal moves `method` gave at a position not over, as the search keeps them:
    checked (`check_moves`), at least one, each hashable (a list as its tuple: `freeze`), none
    twice; and the file's own moves where some had to be made hashable (else None)."""
    listed: list[Any] | None = None
    # the common answers, a list or a tuple (not a subclass), checked without writing out
    # the moves that led here
    if type(found) is list and len(found) <= MAX_MOVES:
        listed = found
    elif type(found) is tuple and len(found) <= MAX_MOVES:
        listed = list(found)
    if listed is None:
        listed = check_moves(guard, method, moves(), found)
    if not listed:
        raise guard.fail(method, moves(), "returned no moves, yet the game is not over")
    raw: list[Any] | None = None
    try:
        distinct = len(set(listed))
        searchable = tuple(listed)
    except TypeError:  # a list as a move: searched as its tuple, played as itself
        searchable = tuple(_hashable(move) for move in listed)
        distinct = len(set(searchable))
        raw = listed
    if distinct != len(searchable):
        searchable, own = _once_each(searchable, listed if raw is None else raw)
        raw = None if raw is None else own
        position = moves()
        warn_once(
            guard.where,
            "same move twice",
            f"{method} returned the same move twice (first "
            f"{'after moves ' + position if position else 'at the start'}); each move is "
            "searched once",
        )
    return searchable, raw


def _once_each(searchable: tuple[Any, ...], own: list[Any]) -> tuple[tuple[Any, ...], list[Any]]:
    """The moves without repeats, first come first, with the file's own move behind each."""
    seen: set[Any] = set()
    kept: list[Any] = []
    kept_own: list[Any] = []
    for move, original in zip(searchable, own, strict=True):
        if move not in seen:
            seen.add(move)
            kept.append(move)
            kept_own.append(original)
    return tuple(kept), kept_own


def _hashable(move: Any) -> Any:
    try:
        hash(move)
    except TypeError:
        return freeze(move)
    return move
