"""SIGTERM and SIGHUP end a long command the way Ctrl+C does: the results so far are kept.

`timeout`, job schedulers and container runtimes send SIGTERM; a dropped SSH session sends
SIGHUP.  Inside `stopping_on_signals()` either one raises `Stopped` (a KeyboardInterrupt) in
the main thread, so the command's own Ctrl+C path reports what it has, writes its files and
exits with 128 + the signal's number (143, 129; Ctrl+C stays 130).  Windows has no SIGHUP.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any

INTERRUPT_STATUS = 130
"""The exit status after Ctrl+C (128 + SIGINT)."""


class Stopped(KeyboardInterrupt):
    """The command was told to stop by a signal other than Ctrl+C."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


def stop_signals() -> tuple[signal.Signals, ...]:
    """The signals that stop a command like Ctrl+C: SIGTERM, and SIGHUP where it exists."""
    found = [signal.SIGTERM]
    hangup = getattr(signal, "SIGHUP", None)
    if hangup is not None:
        found.append(hangup)
    return tuple(found)


def exit_status(stop: KeyboardInterrupt) -> int:
    """128 + the signal's number: 143 for SIGTERM, 129 for SIGHUP, 130 for Ctrl+C."""
    if isinstance(stop, Stopped):
        return 128 + stop.signum
    return INTERRUPT_STATUS


def stop_reason(stop: KeyboardInterrupt) -> str:
    """How the command was stopped, in words: "interrupted" or "stopped by SIGTERM"."""
    if isinstance(stop, Stopped):
        return f"stopped by {signal.Signals(stop.signum).name}"
    return "interrupted"


@contextlib.contextmanager
def stopping_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise `Stopped` once (later ones are ignored while
    the command reports); the previous handlers come back after it."""
    previous: dict[int, Any] = {}

    def stop(signum: int, _frame: FrameType | None) -> None:
        for number in previous:
            with contextlib.suppress(ValueError, OSError):
                signal.signal(number, signal.SIG_IGN)
        raise Stopped(signum)

    for stopping in stop_signals():
        with contextlib.suppress(ValueError, OSError):  # only the main thread may set them
            previous[stopping] = signal.signal(stopping, stop)
    try:
        yield
    finally:
        for number, handler in previous.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                signal.signal(number, handler)
