"""Checks of a player's own file for the set-up screen, once per version, never in the way.

Checking a file parses it for its functions (nothing of it runs).  The result is remembered
by file version (path, modification time, size): the set-up card is rebuilt on every change
of the screen.  A file larger than READ_AT_ONCE_BYTES is read in a helper process, so the
window keeps drawing while Python parses it (seconds for a megabyte, with the interpreter
held); until then the problem says "Reading …".  A file Python itself cannot parse (nested
too deeply) is one line, like any other problem.  No pygame here: the helper imports this.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

REMEMBERED_CHECKS = 64
"""File checks kept (by path, modification time and size); the oldest go first."""

READ_AT_ONCE_BYTES = 256 * 1024
"""A file up to this size is checked at once; a larger one in a helper process."""

Found = TypeVar("Found")
CheckKey = tuple[str, str, int, int]
_CHECKS: dict[CheckKey, tuple[object, str]] = {}
_READING: dict[CheckKey, Future[tuple[object, str]]] = {}


def file_version(path: str) -> tuple[int, int]:
    """(modification time in ns, size) of the file `path` names, or (-1, -1) if it has none."""
    try:
        found = Path(path.strip()).expanduser().stat()
    except (OSError, ValueError):
        return (-1, -1)
    return (found.st_mtime_ns, found.st_size)


def run_check(check: Callable[[], Found], fallback: Found, name: str) -> tuple[Found, str]:
    """`check()` and "", or `fallback` and why it failed in one line (in either process)."""
    try:
        return check(), ""
    except ValueError as error:
        return fallback, str(error)
    except (RecursionError, MemoryError):
        return fallback, f"{name}: nested too deeply for Python to read"
    except OSError as error:
        return fallback, f"{name}: {error.strerror or error}"


def _read_aside(
    check: Callable[[], Found], fallback: Found, name: str
) -> Future[tuple[Found, str]]:
    """`run_check` in a helper process of its own, which ends with it (its memory goes)."""
    reader = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    future = reader.submit(run_check, check, fallback, name)
    future.add_done_callback(lambda _: reader.shutdown(wait=False))
    return future


def checked(
    what: str,
    path: str,
    check: Callable[[], Found],
    fallback: Found,
    when_read: Callable[[], None] | None = None,
) -> tuple[Found, str]:
    """`check()`'s result and "", or `fallback` and the one-line problem; remembered for this
    version of the file at `path` (`what` tells the checks apart).  A large file is read in
    the helper process: until it is, the problem says "Reading …" and `when_read` is called
    (from another thread) once it has been."""
    key = (what, path, *file_version(path))
    if key in _CHECKS:
        found, problem = _CHECKS[key]
        return found, problem  # type: ignore[return-value]  # stored by this same `what`
    from plyground.untrusted import printable  # a file's name is data

    name = printable(Path(path).name or path)
    if key[3] <= READ_AT_ONCE_BYTES:
        outcome = run_check(check, fallback, name)
    else:
        future = _READING.get(key)
        if future is None:
            future = _READING[key] = _read_aside(check, fallback, name)
        if not future.done():
            if when_read is not None:
                future.add_done_callback(lambda _: when_read())
            return fallback, f"Reading {name}… (a large file takes a few seconds)"
        _READING.pop(key, None)
        try:
            outcome = future.result()  # type: ignore[assignment]  # run_check of `check`
        except Exception as error:  # the helper died (out of memory, killed): one line
            outcome = (fallback, f"{name}: could not be read here ({type(error).__name__})")
    if len(_CHECKS) >= REMEMBERED_CHECKS:
        del _CHECKS[next(iter(_CHECKS))]
    _CHECKS[key] = outcome
    return outcome
