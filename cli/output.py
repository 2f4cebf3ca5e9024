"""Every file a command writes (--json, --record, --plot, --out) goes through `OutputFile`.

* `check()` before the work: the folder exists, a file can be created there and the name
  fits, so a long run is not lost at the end for a typo;
* `write_text` / `write_with` after it: into a temporary file in the same folder, then
  `os.replace`, so the file is whole or untouched, never half-written;
* `RunningFile` rewrites such a file as each result comes in (a game of a match), so a
  run killed half-way keeps every result it finished;
* any `OSError` becomes one line naming the file and the reason in plain words
  (`cannot write match.json: the disk is full`), exit status 2.

A device or pipe (/dev/stdout, /dev/full) is written in place: it cannot be replaced.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from plyground.cli.args import PROG, UsageError

REASONS = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: "the folder does not exist",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.ENAMETOOLONG: "the name is too long for this system",
    errno.EISDIR: "it is a folder",
    errno.EROFS: "the file system is read-only",
    errno.EFBIG: "the file is too large for this file system",
    errno.EIO: "an input/output error on the device",
    errno.EINVAL: "the name is not allowed here",
    errno.ELOOP: "too many symbolic links in the path",
    errno.ETXTBSY: "the file is in use",
    errno.EBUSY: "the file is in use",
    errno.EEXIST: "the file exists",
    errno.ENXIO: "it is a pipe (FIFO) that nobody reads",
}
"""errno -> the reason in plain words."""

STALE_TEMPORARY_SECONDS = 600.0
"""A temporary file of an output this old was left by a run killed mid-write."""


def reason(error: OSError) -> str:
    """The reason of an OSError in plain words."""
    if error.errno in REASONS:
        return REASONS[error.errno]
    text = error.strerror or str(error) or type(error).__name__
    return text[:1].lower() + text[1:]


class OutputError(UsageError):
    """An output file that could not be written (exit status 2)."""


def _umask() -> int:
    """The process's umask (read by setting it back at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _open_special(path: str) -> int:
    """A device or pipe opened for writing without waiting: a FIFO nobody reads is refused
    (ENXIO) rather than blocking for ever; the descriptor then blocks as usual."""
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0))
    if hasattr(os, "set_blocking"):  # Windows before Python 3.12 has no O_NONBLOCK to undo
        os.set_blocking(fd, True)
    return fd


class OutputFile:
    """A file a command will write: checked before the work, written whole after it."""

    def __init__(self, path: str, option: str) -> None:
        self.path = path
        self.option = option

    def error(self, problem: str) -> OutputError:
        """The one-line refusal for this file."""
        return OutputError(f"{self.option}: cannot write {self.path}: {problem}")

    def _special(self) -> bool:
        """Whether the path names an existing device or pipe (written in place)."""
        try:
            mode = os.stat(self.path).st_mode
        except OSError:
            return False
        return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)

    def _target(self) -> Path:
        """The file to replace: the path with symbolic links followed."""
        return Path(os.path.realpath(self.path))

    def check(self) -> None:
        """Refuse now (OutputError) a path that cannot be written: before any work is done."""
        if not self.path:
            raise self.error("the name is empty")
        try:
            if self._special():
                if stat.S_ISFIFO(os.stat(self.path).st_mode):
                    if not os.access(self.path, os.W_OK):  # opening it would end its reader
                        raise OSError(errno.EACCES, "permission denied")
                    return
                os.close(_open_special(self.path))
                return
            target = self._target()
            if target.is_dir() or self.path.endswith(("/", os.sep)):
                raise OSError(errno.EISDIR, "is a directory")
            folder = target.parent
            if not folder.exists():
                raise OSError(errno.ENOENT, "no such folder")
            if not folder.is_dir():
                raise OSError(errno.ENOTDIR, "not a directory")
            limit = os.pathconf(folder, "PC_NAME_MAX")
            if limit > 0 and len(os.fsencode(target.name)) > limit:
                raise OSError(errno.ENAMETOOLONG, "file name too long")
            if target.exists() and not os.access(target, os.W_OK):
                raise OSError(errno.EACCES, "permission denied")
            try:
                handle, probe = self._temporary(folder, target.name)
            except FileNotFoundError:  # the folder exists but takes no new files (/proc)
                raise OSError("no new file can be made in that folder") from None
            try:
                os.write(handle, b"\n")
                os.fsync(handle)
            finally:
                os.close(handle)
                os.unlink(probe)
        except OSError as error:
            raise self.error(reason(error)) from None
        self._remove_stale_temporaries(folder, target.name)

    @staticmethod
    def _temporary_affixes(name: str) -> tuple[str, str]:
        """The prefix and suffix of the temporary files made for the target `name`."""
        stem, dot, extension = name.rpartition(".")
        suffix = f".{extension}" if dot and stem and len(extension) <= 8 else ""
        return f".{name[:24]}.", ".tmp" + suffix

    @classmethod
    def _temporary(cls, folder: Path, name: str) -> tuple[int, str]:
        """A new hidden file beside the target whose name keeps the target's extension."""
        prefix, suffix = cls._temporary_affixes(name)
        return tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=folder)

    @classmethod
    def _remove_stale_temporaries(cls, folder: Path, name: str) -> None:
        """Delete this target's temporary files that a run killed mid-write left behind
        (older than STALE_TEMPORARY_SECONDS: another run's write in progress is never touched)."""
        prefix, suffix = cls._temporary_affixes(name)
        now = time.time()
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                if not (entry.name.startswith(prefix) and entry.name.endswith(suffix)):
                    continue
                if len(entry.name) != len(prefix) + 8 + len(suffix):  # mkstemp: 8 characters
                    continue
                with contextlib.suppress(OSError):
                    age = now - entry.stat(follow_symlinks=False).st_mtime
                    if entry.is_file(follow_symlinks=False) and age > STALE_TEMPORARY_SECONDS:
                        os.unlink(entry.path)

    def write_with(
        self,
        write: Callable[[str], None],
        errors: tuple[type[Exception], ...] = (),
        durable: bool = True,
    ) -> None:
        """Let `write(path)` make the file under a temporary name, then put it in place.

        Any OSError (from `write` too) or one of `errors` (a library's own, such as
        pygame.error) becomes an OutputError; the temporary file is removed.
        """
        try:
            if self._special():
                self._write_special(write, errors)
                return
            target = self._target()
            handle, temporary = self._temporary(target.parent, target.name)
            os.close(handle)
        except OSError as error:
            raise self.error(reason(error)) from None
        try:
            self._call(write, temporary, errors)
            if durable:
                with open(temporary, "rb+") as written:
                    os.fsync(written.fileno())
            mode = target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_umask()
            os.chmod(temporary, mode)
            os.replace(temporary, target)
        except OSError as error:
            raise self.error(reason(error)) from None
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)

    def _write_special(
        self, write: Callable[[str], None], errors: tuple[type[Exception], ...]
    ) -> None:
        """Write a device or pipe: made in a private temporary file, then copied in.

        (A writer handed the device's own name might replace the device with a file.)
        """
        name = os.path.basename(self.path)
        with tempfile.TemporaryDirectory(prefix="plyground-") as folder:
            temporary = os.path.join(folder, name if "." in name else name + ".out")
            self._call(write, temporary, errors)
            with open(temporary, "rb") as source, open(_open_special(self.path), "wb") as target:
                shutil.copyfileobj(source, target)

    @staticmethod
    def _call(write: Callable[[str], None], path: str, errors: tuple[type[Exception], ...]) -> None:
        """`write(path)`, a library's own error turned into an OSError."""
        try:
            write(path)
        except OSError:
            raise
        except errors as error:
            raise OSError(str(error) or type(error).__name__) from error

    def write_text(self, text: str, durable: bool = True) -> None:
        """Write `text` (UTF-8) whole, or raise OutputError and leave no file behind.

        `durable` False skips the flush to the disk: the file is still replaced whole (a
        killed process leaves the old or the new one), only a power cut might lose it.
        """

        def write(path: str) -> None:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()

        self.write_with(write, durable=durable)

    def write_text_or_show(self, text: str, what: str) -> bool:
        """Write `text`; if that fails, say so on stderr and print `text` to stdout instead.

        For results already computed: they are not lost.  Returns whether the file was
        written (the command then exits with status 2 if not).
        """
        try:
            self.write_text(text)
        except OutputError as error:
            print(f"{PROG}: {error}; {what} follow on standard output", file=sys.stderr, flush=True)
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
            sys.stdout.flush()
            return False
        return True


WRITE_SHARE = 0.1
"""The largest share of a run's time that rewriting a running file may take."""


class RunningFile:
    """An output file rewritten whole (temporary file, then `os.replace`) as results come in.

    A killed run leaves the file as of a recent result, never half-written.  It is rewritten
    after every result unless that would take more than WRITE_SHARE of the time: the last
    rewrite's cost sets the pause before the next (measured here: a rewrite of a 2,000-game
    match's JSON takes about 3 ms, so games slower than about 30 ms are each written; a
    run of faster ones is written every few games).  A device or pipe is written once, at
    the end.  A failed rewrite is said once; `finish` tries again.
    """

    def __init__(self, output: OutputFile, errors: Callable[[str], None]) -> None:
        self.output = output
        self.errors = errors
        self.spent = 0.0
        self.next_due = 0.0
        self.failed = False
        self.special = output._special()

    def update(self, text: Callable[[], str]) -> None:
        """Rewrite the file with `text()` if it is due (`text` is only called then)."""
        started = time.perf_counter()
        if self.special or started < self.next_due:
            return
        content = text()
        try:
            self.output.write_text(content, durable=False)
        except OutputError as error:
            if not self.failed:
                self.errors(f"{PROG}: {error}; trying again at the end")
            self.failed = True
        ended = time.perf_counter()
        self.spent = ended - started
        self.next_due = ended + self.spent * (1 - WRITE_SHARE) / WRITE_SHARE

    def finish(self, text: str, what: str) -> bool:
        """The final text, flushed to the disk (or shown on stdout: `write_text_or_show`)."""
        return self.output.write_text_or_show(text, what)


def output_file(path: str | None, option: str) -> OutputFile | None:
    """An output file checked now (None if the option was not given)."""
    if path is None:
        return None
    output = OutputFile(path, option)
    output.check()
    return output


def check_png_path(path: str, option: str) -> OutputFile:
    """A PNG output file, checked now (the name ends in .png and the file can be written)."""
    if not path.lower().endswith(".png"):
        raise UsageError(f"{option} {path}: the file name must end in .png")
    output = OutputFile(path, option)
    output.check()
    return output
