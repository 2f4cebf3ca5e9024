"""Files that survive crashes and mistakes: atomic writes, and bad files kept aside.

No pygame here: the settings, the save files and the terminal all use it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from plyground.file_reader import keep_aside

__all__ = ["keep_aside", "write_atomic"]


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename (OSError on failure).

    A crash mid-write leaves the old file as it was, never a half-written one.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
