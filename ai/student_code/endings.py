"""Who is to blame when a student's worker is gone: the one rule, read from evidence of ours.

A game (or an exercise case) is void, blamed on nobody, only on a cause the student's code
cannot produce, read by Plyground itself: the app's own wait on the supervisor (its child)
says a signal the app did not send ended it, or the supervisor found stopped by someone
else, or the supervisor's report (on its own framing, which no worker line can take) says
bubblewrap itself was killed from outside its namespace.  A worker found gone at any other
point of its game, however it went (an exit, a crash, a signal to itself, a supervisor that
said nothing), is its own forfeit.  Where the code can signal any process of the user (no
signal guard and no bubblewrap: macOS, Windows), nobody can say who sent a signal, so a kill
by signal there is void too; that is the one exception, and the only one.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass

CRASHES = frozenset(
    getattr(signal, name)
    for name in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGSYS")
    if hasattr(signal, name)
)
"""Signals a process's own fault raises: a crash is always the code's own doing."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """What Plyground itself knows about a worker's end."""

    started: bool
    """The worker said it was up and confined, before any of the student's code ran."""
    sandboxed: bool
    """It ran inside bubblewrap (its own PID namespace)."""
    guarded: bool
    """The signal guard was in force in it (it can signal only itself and its group)."""
    worker_code: int | None = None
    """How the worker (bubblewrap, inside it) ended, as the supervisor reported it: an exit
    code, or minus the signal; None when the supervisor reported nothing."""
    supervisor_status: int | None = None
    """The app's own wait on the supervisor: its exit code, minus a signal, or None while it
    runs (or when the app killed it)."""
    supervisor_stopped: bool = False
    """The app found the supervisor stopped while an answer was due."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The reason, one clause, and whether the game is void or the set-up failed."""

    reason: str
    void: bool = False
    setup: bool = False


def judge(evidence: Evidence, python_said: str = "") -> Verdict:
    """The one rule: void only on evidence the student's code cannot produce."""
    if evidence.supervisor_stopped:
        return Verdict("its supervisor was stopped by a signal from outside", void=True)
    status = evidence.supervisor_status
    if status is not None and status < 0:  # the app sends none while a game waits on it
        return Verdict(
            f"its supervisor was killed ({signal_name(-status)}) from outside", void=True
        )
    if not evidence.started:
        where = "inside bubblewrap" if evidence.sandboxed else "here"
        code = evidence.worker_code
        why = f": {python_said}" if python_said else f" (exit code {code})"
        return Verdict(
            f"Plyground's worker could not start {where}{why}. This is a set-up problem, "
            "not this file: nothing of it ran (--sandbox off runs workers without bubblewrap)",
            void=True,
            setup=True,
        )
    return _worker_end(evidence)


def _worker_end(evidence: Evidence) -> Verdict:
    """A worker that ended after it started, as the supervisor saw it end."""
    code = evidence.worker_code
    if code is None:
        return Verdict("its process ended, and its supervisor with it, without a word")
    if evidence.sandboxed:
        if code < 0:  # bubblewrap itself, outside the namespace the code lives in
            return Verdict(f"its sandbox was killed ({signal_name(-code)}) from outside", void=True)
        if code > 128:  # bubblewrap passes on 128 + the signal that ended the worker
            return _signalled(code - 128, own=True)
        return Verdict(f"its process ended (exit code {code}: os._exit or a crash)")
    if code >= 0:
        return Verdict(f"its process ended (exit code {code}: os._exit or a crash)")
    return _signalled(-code, own=evidence.guarded)


def _signalled(number: int, own: bool) -> Verdict:
    """A worker killed by signal `number`: its own doing where nothing else could send it."""
    name = signal_name(number)
    if number in CRASHES:
        return Verdict(f"its process was killed ({name}: it crashed)")
    if own:
        return Verdict(f"its process was killed ({name}: a signal only it could send)")
    return Verdict(f"its process was killed ({name}) with no sandbox to say by whom", void=True)


def signal_name(number: int) -> str:
    """'SIGKILL' for 9 (the number where the system has no name for it)."""
    return signal.Signals(number).name if number in signal.valid_signals() else str(number)
