"""A copy of what git tracks, for building the wheel and the sdist outside the checkout
(setuptools would reuse an in-tree build/ folder, whose stale modules would land in them)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def copy_tracked_files(destination: Path) -> Path:
    """Copy every file git tracks in the checkout into `destination`; returns it."""
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, tracked.split("\0")):
        if (ROOT / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)
    return destination
