"""Standard output that fails or cannot encode: degrade, or stop with one line.

prepare()       before a command: a closed stdout is replaced by the null device (with a
                note on stderr), and a console that cannot encode ▲ ▼ ○ ■ … ≤ α β gets
                ASCII stand-ins (^ v o # ... <= alpha beta) instead of a UnicodeEncodeError:
                PYTHONIOENCODING=ascii, a legacy Windows code page, LANG=C without UTF-8 mode
write_failed()  after an OSError writing stdout (a full disk, a closed pipe): the one line
                to say ("" for a reader that stopped reading), and stdout pointed at the
                null device so Python's own flush at exit does not fail a second time
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import sys
import unicodedata

STAND_INS = {
    "▲": "^",
    "▼": "v",
    "△": "^",
    "▽": "v",
    "○": "o",
    "●": "*",
    "■": "#",
    "□": "[]",
    "•": "*",
    "·": "-",
    "…": "...",
    "≤": "<=",
    "≥": ">=",
    "≈": "~",
    "≠": "!=",
    "±": "+/-",
    "×": "x",
    "−": "-",
    "–": "-",
    "—": "-",
    "→": "->",
    "←": "<-",
    "↑": "^",
    "↓": "v",
    "⇒": "=>",
    "∞": "inf",
    "α": "alpha",
    "β": "beta",
    "✓": "ok",
    "✗": "x",
    "│": "|",
    "─": "-",
    "┌": "+",
    "┐": "+",
    "└": "+",
    "┘": "+",
    "├": "+",
    "┤": "+",
    "┬": "+",
    "┴": "+",
    "┼": "+",
    "█": "#",
    "░": ".",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
}
"""ASCII for the characters the reports, traces and help use (anything else: its plain
letter when it has one, é -> e, else '?')."""
ERRORS = "plyground-ascii"
"""The codec error handler that writes the stand-ins."""
SAMPLE = "▲▼○■…≤αβ·"


def ascii_of(text: str) -> str:
    """`text` with every non-ASCII character replaced by its stand-in."""
    return "".join(_stand_in(char) for char in text)


def _stand_in(char: str) -> str:
    if char.isascii():
        return char
    if char in STAND_INS:
        return STAND_INS[char]
    plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    return plain or "?"


def _handler(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return ascii_of(error.object[error.start : error.end]), error.end


try:
    codecs.lookup_error(ERRORS)
except LookupError:
    codecs.register_error(ERRORS, _handler)


def can_encode(stream: object, text: str = SAMPLE) -> bool:
    """Whether `stream`'s encoding writes `text` as it is."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _degrade(stream: object) -> None:
    """Give a text stream the stand-ins when its encoding cannot write the sample."""
    if isinstance(stream, io.TextIOWrapper) and not can_encode(stream):
        with contextlib.suppress(ValueError, OSError):
            stream.reconfigure(errors=ERRORS)


def prepare() -> list[str]:
    """Make stdout and stderr safe to write; the notes to print on stderr (one line each)."""
    notes = []
    if sys.stdout is None or _closed(sys.stdout):
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives to exit
        notes.append("standard output is closed: the report is not shown (files are written)")
    if sys.stderr is None or _closed(sys.stderr):
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives to exit
    _degrade(sys.stdout)
    _degrade(sys.stderr)
    return notes


def _closed(stream: object) -> bool:
    """Whether a stream's file descriptor is gone (`>&-` leaves Python a dead stdout)."""
    try:
        fileno = stream.fileno()  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        return False  # not a file (a test's capture): it works
    try:
        os.fstat(fileno)
    except OSError:
        return True
    return False


OUTPUT_ERRNOS = frozenset(
    code
    for code in (errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", None))
    if code is not None
)


def is_output_failure(error: OSError) -> bool:
    """Whether `error` is a write to stdout that failed (a full disk, a closed pipe, ...):
    no file named, an errno that writing gives."""
    return isinstance(error, BrokenPipeError) or (
        not error.filename and error.errno in OUTPUT_ERRNOS
    )


def write_failed(error: OSError) -> str:
    """What to say after writing stdout failed ("" for a closed pipe), with stdout silenced."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())  # Python flushes stdout again at exit
        os.close(null)
    if isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE:
        return ""  # the reader stopped reading (| head): nothing is wrong
    return f"cannot write the output: {error.strerror or error}"
