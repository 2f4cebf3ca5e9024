"""Tasks for the worker-pool tests: module-level, so spawned workers find them by name."""

from __future__ import annotations

import os
from pathlib import Path


def square_or_die(task: tuple[int, int]) -> int:
    """`index` squared; the worker process exits at once when `index` is `fatal`."""
    index, fatal = task
    if index == fatal:
        os._exit(1)
    return index * index


def square_or_die_once(task: tuple[int, str]) -> int:
    """`index` squared; for index 2 the first worker to try (no marker file yet) exits."""
    index, marker = task
    if index == 2 and not Path(marker).exists():
        Path(marker).write_text("died once\n", encoding="utf-8")
        os._exit(1)
    return index * index


def lost(task: tuple[int, object], reason: str) -> int:
    """The result of a game given up: -1."""
    return -1


def square_or_die_in_place(index: int, fatal: int) -> int:
    """`square_or_die` for executors that call `play(*task)`."""
    return square_or_die((index, fatal))
