"""Text that is not ours, shown as data: the one `printable()`.

A file's name, an agent's name, a message a student's code raised: any of it may hold an
escape sequence (one clears the terminal, another recolours it), a new line that forges a
line of a report, or a right-to-left override that shows a name backwards.  Every table,
progress line, chart and window label that shows such text passes it through `printable`.

Only the standard library: games, ai, gui and cli may all import it.
"""

from __future__ import annotations

import unicodedata


def printable(text: object, limit: int | None = None) -> str:
    """Text from a student's code as data: every control or format character (a new line, an
    escape sequence, a right-to-left override) written as its escape, a name that was not
    UTF-8 with replacement characters, so it can never move a terminal's cursor, recolour
    it or forge a line; cut to `limit` characters."""
    out = []
    for char in str(text):
        kind = unicodedata.category(char)
        if kind == "Cs":  # a byte of a non-UTF-8 name, kept by surrogateescape
            out.append("\ufffd")
        elif kind in ("Cc", "Cf", "Zl", "Zp"):
            code = ord(char)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(char)
    shown = "".join(out)
    if limit is not None and len(shown) > limit:
        shown = shown[: limit - 3] + "..."
    return shown
