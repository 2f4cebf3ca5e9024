"""Files that survive crashes and mistakes: atomic writes, and bad files kept aside.

No pygame here: the settings, the save files and the terminal all use it.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from pathlib import Path

from plyground.file_reader import keep_aside

__all__ = ["keep_aside", "remove_stale_temporaries", "write_atomic"]

STALE_SECONDS = 600.0
"""A temporary file of `write_atomic` this old was left by a process killed mid-write."""

TEMPORARY_NAME = re.compile(r"^\..+-[A-Za-z0-9_]{8}\.tmp$")
"""The names `write_atomic` gives its temporary files (".settings.json-k3j4h5g6.tmp")."""


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename (OSError on failure).

    A crash mid-write leaves the old file as it was, never a half-written one.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".tmp", dir=target.parent)
    # (the names TEMPORARY_NAME matches: `remove_stale_temporaries` finds those left behind)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def remove_stale_temporaries(
    folder: str | os.PathLike[str], older_than: float = STALE_SECONDS
) -> int:
    """Delete `write_atomic`'s temporary files left in `folder` by a process killed mid-write
    (older than `older_than` seconds: a write in progress is never touched); how many went."""
    removed = 0
    now = time.time()
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if not TEMPORARY_NAME.match(entry.name):
                continue
            with contextlib.suppress(OSError):
                age = now - entry.stat(follow_symlinks=False).st_mtime
                if entry.is_file(follow_symlinks=False) and age > older_than:
                    os.unlink(entry.path)
                    removed += 1
    return removed
