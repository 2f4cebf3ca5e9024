"""Files that survive crashes and mistakes: atomic writes, and bad files kept aside.

No pygame here: the settings, the save files and the terminal all use it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


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


def keep_aside(path: Path) -> str:
    """Rename a bad file to `<name>.bad`; the words to add to the message ("" if it failed)."""
    bad = path.with_name(path.name + ".bad")
    try:
        os.replace(path, bad)
    except OSError:
        return ""
    return f"; it was kept as {bad.name}"
