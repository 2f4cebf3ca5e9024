"""Plain-text tables and durations for the terminal reports (match, tournament, bench)."""

from __future__ import annotations

from collections.abc import Sequence


def format_table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], right: Sequence[int] = ()
) -> list[str]:
    """Aligned columns under a header and a rule; columns listed in `right` align right."""
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [
        max([len(header)] + [len(row[column]) for row in cells])
        for column, header in enumerate(headers)
    ]

    def line(row: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(widths[column]) if column in right else cell.ljust(widths[column])
            for column, cell in enumerate(row)
        ).rstrip()

    return [line(headers), line(["-" * width for width in widths]), *(line(row) for row in cells)]


def format_seconds(seconds: float) -> str:
    """A duration for people: '42 ms', '3.1 s', '2:05', '1:02:05'."""
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms" if seconds < 0.1 else f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
