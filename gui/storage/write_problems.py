"""Writes the window could not make: said once on screen, said again when one works.

The autosave, the settings and the saves are written without asking; a full or read-only
disk must not lose play in silence.  Each kind of write reports here (`WRITES.failed`,
`WRITES.worked`); the app shows what is waiting (`WRITES.take`) as a toast: what was not
kept, why, and which folder needs space.  A kind that keeps failing is said once; the
next write that works says so, and the writer has caught up by then (the autosave and the
settings are written whole every time).  No pygame here.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

WHAT = {
    "autosave": "the game in progress",
    "settings": "your settings",
    "save": "the game",
}
"""What each kind of write keeps, in the words of the toast."""

_REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "the folder is not writable",
    errno.EPERM: "the folder is not writable",
    errno.EIO: "the disk reported an error",
}
if hasattr(errno, "EDQUOT"):
    _REASONS[errno.EDQUOT] = "the disk quota is used up"


def reason(error: OSError) -> str:
    """An OSError in plain words."""
    return _REASONS.get(error.errno or 0, (error.strerror or str(error)).lower())


class WriteProblems:
    """The kinds of write failing now, and the messages waiting to be shown."""

    def __init__(self) -> None:
        self.failing: dict[str, str] = {}
        self.waiting: list[tuple[str, str]] = []

    def failed(self, kind: str, path: str | os.PathLike[str], error: OSError) -> str:
        """A write of `kind` to `path` failed: the message (queued only the first time)."""
        folder = Path(path).parent
        what = WHAT.get(kind, kind)
        text = (
            f"Could not keep {what} ({Path(path).name}): {reason(error)}. "
            f"Free some space in {folder} (or make it writable); Plyground keeps trying."
        )
        if kind not in self.failing:
            self.waiting.append((text, "danger"))
        self.failing[kind] = text
        return text

    def worked(self, kind: str) -> None:
        """A write of `kind` worked: if it had failed, say it is kept again."""
        if self.failing.pop(kind, None) is not None:
            what = WHAT.get(kind, kind)
            self.waiting.append((f"{what[0].upper()}{what[1:]} is kept again.", "success"))

    def take(self) -> list[tuple[str, str]]:
        """The messages to show now ((text, tone)), each once."""
        waiting, self.waiting = self.waiting, []
        return waiting


WRITES = WriteProblems()
"""The window's one record (one window per process)."""
