"""The one reader of every file Plyground reads: saves, the autosave, settings, solver files.

A file on disk is not to be trusted: it may be a FIFO or /dev/zero, gigabytes long, nested a
thousand deep, hold an integer of 5,000 digits or a string of 3 MB, or come from Notepad with
a byte-order mark.  Everything here is bounded before it is read, so a hostile file costs one
clear line (`FileProblem`, "<file>: <why>"), never a hang, a MemoryError or a traceback:

- `read_bytes` / `read_text`: regular files only (checked before opening, so a FIFO never
  blocks), a size cap, UTF-8 with or without a BOM.
- `read_json`: the text above, nesting checked before decoding (no RecursionError), integers
  of at most `MAX_INT_DIGITS` digits, no NaN or infinity, every string (keys too) bounded.
- `Field`: one field of a format declared with its type and range, read strictly (a save:
  `Field.take` raises) or leniently (settings: `Field.read` keeps the default).
- `keep_aside`: a bad file renamed to `<name>.bad`, so it is out of the way and not lost.

Only the standard library: games, ai, gui and cli may all import it.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, BinaryIO

MAX_DEPTH = 32
"""Nesting of a JSON file we read (ours are three or four deep)."""
MAX_INT_DIGITS = 40
"""Digits of one JSON number (Python refuses above 4,300 with a ValueError)."""
MAX_STRING = 1_000_000
"""Characters of one JSON string or key unless the caller says otherwise."""
SHOWN = 40
"""Characters of a bad value quoted in a message."""


class FileProblem(ValueError):
    """A file that cannot be read or is not what it should be; the message is one line."""


def shown(value: Any) -> str:
    """A value for a message: its repr, cut to `SHOWN` characters ("..." marks the cut)."""
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**SHOWN:
        return "a huge number"
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


# ----------------------------------------------------------------------------- bytes


def _kind(mode: int) -> str:
    """What a non-regular file is, for the message."""
    if stat.S_ISDIR(mode):
        return "is a folder"
    if stat.S_ISFIFO(mode):
        return "is a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device"
    if stat.S_ISSOCK(mode):
        return "is a socket"
    return "is not a regular file"


def _strerror(error: OSError) -> str:
    return error.strerror or str(error)


def check_regular(path: str | os.PathLike[str], what: str = "file") -> Path:
    """`path` if it is a regular file (links followed); FileProblem otherwise, without opening."""
    source = Path(path)
    try:
        mode = os.stat(source).st_mode
    except OSError as error:
        raise FileProblem(f"{source}: cannot read: {_strerror(error)}") from None
    if not stat.S_ISREG(mode):
        raise FileProblem(f"{source}: {_kind(mode)}, not a {what}")
    return source


def _open_regular(path: str | os.PathLike[str], what: str) -> BinaryIO:
    """A regular file opened for reading in binary; FileProblem otherwise (never blocks)."""
    source = check_regular(path, what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(source, flags)  # non-blocking: a FIFO swapped in after the check
        handle = os.fdopen(fd, "rb")
    except OSError as error:
        raise FileProblem(f"{source}: cannot read: {_strerror(error)}") from None
    if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        handle.close()
        raise FileProblem(f"{source}: is not a regular file, not a {what}")
    return handle


def read_bytes(path: str | os.PathLike[str], max_bytes: int, what: str = "file") -> bytes:
    """At most `max_bytes` of a regular file; FileProblem if it is larger or not regular."""
    source = Path(path)
    with _open_regular(source, what) as handle:
        try:
            raw = handle.read(max_bytes + 1)
        except OSError as error:
            raise FileProblem(f"{source}: cannot read: {_strerror(error)}") from None
    if len(raw) > max_bytes:
        raise FileProblem(f"{source}: too large to be a {what} (over {_size(max_bytes)})")
    return raw


def _size(count: int) -> str:
    if count >= 2**20:
        return f"{count / 2**20:g} MB"
    if count >= 2**10:
        return f"{count / 2**10:g} KB"
    return f"{count} bytes"


def read_text(path: str | os.PathLike[str], max_bytes: int, what: str = "file") -> str:
    """A regular file's text: UTF-8, with or without a byte-order mark."""
    raw = read_bytes(path, max_bytes, what)
    return decode(raw, str(path), what)


def decode(raw: bytes, source: str, what: str = "file") -> str:
    """UTF-8 bytes (a BOM, as Windows Notepad writes, is dropped) as text; FileProblem if not."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileProblem(f"{source}: not a text file (its bytes are not UTF-8)") from None


def read_lines(
    path: str | os.PathLike[str], max_bytes: int, what: str = "file", max_line: int = 10_000
) -> Iterator[str]:
    """The lines of a regular UTF-8 text file, read as they are asked for (a caller that
    stops after three lines reads three); FileProblem once the file passes `max_bytes`, a
    line passes `max_line` characters, or the bytes are not UTF-8."""
    source = Path(path)
    total = 0
    with _open_regular(source, what) as handle:
        for number, raw in enumerate(iter(lambda: handle.readline(max_line + 1), b""), 1):
            total += len(raw)
            if total > max_bytes:
                raise FileProblem(f"{source}: too large to be a {what} (over {_size(max_bytes)})")
            if len(raw) > max_line:
                raise FileProblem(f"{source} line {number}: longer than {max_line:,} characters")
            text = decode(raw, f"{source} line {number}", what)
            yield text.removeprefix("\ufeff").rstrip("\r\n")


# ----------------------------------------------------------------------------- JSON

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)  # an unclosed string ends the text: linear
_BRACKETS = re.compile(r"[\[\]{}]")


def nesting(text: str) -> int:
    """How deep the arrays and objects of JSON text nest (strings skipped; no decoding)."""
    bare = _STRINGS.sub('""', text)
    steps = (1 if bracket in "[{" else -1 for bracket in _BRACKETS.findall(bare))
    return max(accumulate(steps, initial=0))


def _bounded_int(source: str) -> Callable[[str], int]:
    def parse(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise FileProblem(f"{source}: a number of {len(digits)} digits is not allowed")
        return int(digits)

    return parse


def _bounded_float(source: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        if len(text) > 2 * MAX_INT_DIGITS:
            raise FileProblem(f"{source}: a number of {len(text)} characters is not allowed")
        return float(text)

    return parse


def _no_constant(source: str) -> Callable[[str], Any]:
    def parse(name: str) -> Any:
        raise FileProblem(f"{source}: {name} is not a JSON number")

    return parse


def parse_json(
    text: str,
    source: str,
    max_depth: int = MAX_DEPTH,
    max_string: int = MAX_STRING,
    what: str = "file",
) -> Any:
    """Decode JSON text with every bound checked; FileProblem ("<source>: <why>") otherwise."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise FileProblem(f"{source}: the file is empty")
    if nesting(text) > max_depth:
        raise FileProblem(f"{source}: not a {what} (nested more than {max_depth} levels deep)")
    try:
        data = json.loads(
            text,
            parse_int=_bounded_int(source),
            parse_float=_bounded_float(source),
            parse_constant=_no_constant(source),
        )
    except json.JSONDecodeError as error:
        raise FileProblem(
            f"{source}: not JSON ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:  # the nesting check above makes this unreachable; kept as a guard
        raise FileProblem(f"{source}: not a {what} (nested too deeply)") from None
    _check_strings(data, source, max_string)
    return data


def _check_strings(data: Any, source: str, max_string: int) -> None:
    """FileProblem if any string or key is longer than `max_string` (depth is bounded)."""
    if isinstance(data, str):
        if len(data) > max_string:
            raise FileProblem(f"{source}: a text of {len(data):,} characters is too long")
    elif isinstance(data, dict):
        for key, value in data.items():
            _check_strings(key, source, max_string)
            _check_strings(value, source, max_string)
    elif isinstance(data, list):
        for value in data:
            _check_strings(value, source, max_string)


def read_json(
    path: str | os.PathLike[str],
    max_bytes: int,
    what: str = "file",
    max_depth: int = MAX_DEPTH,
    max_string: int = MAX_STRING,
) -> Any:
    """A regular JSON file of at most `max_bytes`, decoded with every bound checked."""
    text = read_text(path, max_bytes, what)
    return parse_json(text, str(path), max_depth, max_string, what)


# ----------------------------------------------------------------------------- fields


@dataclass(frozen=True)
class Field:
    """One field of a file format: its key, type and range (numbers) or length (text).

    Declaring a new field of settings or saves is one line:
    ``Field("window_width", int, 320, 7680)``.  `kind` float accepts whole numbers too;
    bool is never taken for a number.
    """

    key: str
    kind: type
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    max_length: int = 10_000

    def problem(self, value: Any) -> str | None:
        """Why `value` does not fit this field, or None when it does."""
        kinds: tuple[type, ...] = (int, float) if self.kind is float else (self.kind,)
        if (isinstance(value, bool) and self.kind is not bool) or not isinstance(value, kinds):
            return f'"{self.key}" must be {_kind_words(self.kind)}, not {shown(value)}'
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(repr, self.choices))
            return f'"{self.key}" {shown(value)} is not allowed; use one of {allowed}'
        if isinstance(value, str) and len(value) > self.max_length:
            return f'"{self.key}" is too long ({len(value):,} characters)'
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            low = -float("inf") if self.minimum is None else self.minimum
            high = float("inf") if self.maximum is None else self.maximum
            if not low <= value <= high:
                return f'"{self.key}" {shown(value)} is out of range: {_range(self)}'
        return None

    def take(self, data: dict[str, Any], source: str, default: Any = None) -> Any:
        """The field's value from `data` (`default` if absent); FileProblem if it is bad."""
        if self.key not in data:
            return default
        value = data[self.key]
        why = self.problem(value)
        if why is not None:
            raise FileProblem(f"{source}: {why}")
        return float(value) if self.kind is float else value

    def read(self, data: Any, default: Any) -> Any:
        """The field's value from `data`, or `default` when absent or bad (lenient)."""
        if not isinstance(data, dict) or self.key not in data:
            return default
        value = data[self.key]
        if self.problem(value) is not None:
            return default
        return float(value) if self.kind is float else value


def _kind_words(kind: type) -> str:
    return {
        int: "a whole number",
        float: "a number",
        bool: "true or false",
        str: "text",
        dict: "an object",
        list: "a list",
    }.get(kind, kind.__name__)


def _range(field: Field) -> str:
    if field.minimum is not None and field.maximum is not None:
        return f"use {field.minimum:g}-{field.maximum:g}"
    if field.minimum is not None:
        return f"use {field.minimum:g} or more"
    return f"use {field.maximum:g} or less"


# ----------------------------------------------------------------------------- set aside


def keep_aside(path: str | os.PathLike[str]) -> str:
    """Rename a bad file (or a folder, a pipe, a link in its place) to `<name>.bad`; the words
    to add to the message ("" if it failed).  Only the name moves: a link to /dev/zero is
    renamed, /dev/zero itself is untouched."""
    source = Path(path)
    bad = source.with_name(source.name + ".bad")
    try:
        os.replace(source, bad)
    except OSError:
        return ""
    return f"; it was kept as {bad.name}"
