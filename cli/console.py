"""Terminal output through rich: consoles, report tables, progress with time left, memory.

Colour and live bars appear only on a terminal: rich turns them off when the output is a
file or a pipe, and when NO_COLOR is set.  Off a terminal nothing is wrapped or cut, so
reports stay easy to read in a file and to parse.
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from plyground.ai.players.text_table import format_seconds

FILE_WIDTH = 1000
"""Console width off a terminal: wide enough that no report line is wrapped."""


class ReportConsole(Console):
    """A rich console whose closed pipe is the same BrokenPipeError as any other write
    (rich's own answer is SystemExit(1)); `cli.run` ends quietly on it (`cli.streams`)."""

    def on_broken_pipe(self) -> None:
        """Stop writing and let the command's handler see the closed pipe."""
        self.quiet = True
        raise BrokenPipeError(32, "Broken pipe")


def console_for(stream: IO[str] | None = None, stderr: bool = False) -> Console:
    """A console writing to `stream` (default: the current stdout, or stderr)."""
    if stream is None:
        stream = sys.stderr if stderr else sys.stdout
    console = ReportConsole(file=stream, highlight=False)
    if not console.is_terminal:
        console = ReportConsole(file=stream, highlight=False, width=FILE_WIDTH)
    return console


def say(console: Console, text: str = "", style: str | None = None) -> None:
    """One paragraph of plain text (no markup; a terminal may wrap it, a file never does)."""
    console.print(text, style=style, markup=False, soft_wrap=True)


def void_or_aborted(count: int, aborted: bool = False, limit: int | None = None) -> str:
    """The games a result leaves out or scores by rule, in words that agree with `count`:
    '1 game is void (its worker or Ray lost it); not counted', '3 games reached the move
    limit of 2,000 moves and were scored as draws' (`limit`: the move limit, where known)."""
    from plyground.ai.evaluation.wording import counted, move_limit_draws

    if aborted:
        return move_limit_draws(count, limit)
    games = counted(count, "game")
    one = count == 1
    its = "its worker or Ray lost it" if one else "their worker or Ray lost them"
    return f"{games} {'is' if one else 'are'} void ({its}); not counted"


def table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], right: Sequence[int] = ()
) -> Table:
    """Aligned columns under a bold header; the columns listed in `right` align right."""
    grid = Table(box=None, pad_edge=False, header_style="bold", show_edge=False)
    for column, header in enumerate(headers):
        grid.add_column(header, justify="right" if column in right else "left", no_wrap=True)
    for row in rows:
        grid.add_row(*(Text(str(cell)) for cell in row))  # cells are data: never markup
    return grid


def print_table(console: Console, grid: Table) -> None:
    """Print a table at its natural width (a narrow terminal wraps it rather than cutting
    cells short), without the padding rich leaves at the ends of lines."""
    wide = Console(
        file=io.StringIO(),
        width=FILE_WIDTH,
        color_system=console.color_system,  # type: ignore[arg-type]
        force_terminal=console.is_terminal,
        no_color=console.no_color,
        highlight=False,
    )
    wide.print(grid)
    text = wide.file.getvalue()  # type: ignore[attr-defined]
    console.file.write("".join(line.rstrip() + "\n" for line in text.splitlines()))


class GameProgress:
    """Progress of `total` items on stderr: a rich bar with time left on a terminal, else a
    line every tenth (for logs).  `enabled` False shows nothing."""

    def __init__(self, total: int, unit: str = "game", enabled: bool = True) -> None:
        from plyground.ai.evaluation.wording import plural

        self.total = max(1, total)
        self.unit = unit if self.total == 1 else plural(unit)
        unit = self.unit
        self.enabled = enabled
        self.console = console_for(stderr=True)
        self.start = time.perf_counter()
        self.next_tenth = 1
        self.bar: Progress | None = None
        if enabled and self.console.is_terminal:
            self.bar = Progress(
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(unit),
                TextColumn("{task.fields[note]}"),
                TimeRemainingColumn(),
                TextColumn("left"),
                console=self.console,
                transient=True,
                redirect_stdout=_stdout_is_terminal(),
                redirect_stderr=False,
            )
            self.task = self.bar.add_task(unit, total=self.total, note="")
            self.bar.start()

    def update(self, done: int, note: str = "") -> None:
        """Show `done` of `total` with `note` (the score so far) and the time left."""
        if self.bar is not None:
            self.bar.update(self.task, completed=done, note=note)
        elif self.enabled and done * 10 >= self.next_tenth * self.total:
            while done * 10 >= self.next_tenth * self.total:
                self.next_tenth += 1
            elapsed = time.perf_counter() - self.start
            left = elapsed / done * (self.total - done) if done else 0.0
            note = f"{note}  " if note else ""
            say(self.console, f"{done}/{self.total} {self.unit}  {note}{format_seconds(left)} left")

    def close(self) -> None:
        """Remove the bar, so the report starts on a clean line."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def __enter__(self) -> GameProgress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class StepLog:
    """Steps of a long job of unknown length on stderr: the latest step beside a spinner and
    the time so far on a terminal, one line per step otherwise; `enabled` False: silent."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.console = console_for(stderr=True)
        self.bar: Progress | None = None
        if enabled and self.console.is_terminal:
            self.bar = Progress(
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
                redirect_stdout=_stdout_is_terminal(),
                redirect_stderr=False,
            )
            self.task = self.bar.add_task("", total=None)
            self.bar.start()

    def __call__(self, text: str) -> None:
        """Report one step."""
        if self.bar is not None:
            self.bar.update(self.task, description=text)
        elif self.enabled:
            say(self.console, text)

    def close(self) -> None:
        """Remove the live line."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _stdout_is_terminal() -> bool:
    """Whether report lines printed during a live bar share its terminal (then rich keeps the
    bar below them); a report going to a file must not pass through the bar's console."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def rss_megabytes() -> tuple[float, float]:
    """(current, peak) resident memory of this process in MiB; 0 where the system cannot say.

    `resource` is Unix-only, so it is imported here, guarded, never at start-up.
    """
    current = 0.0
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        current = pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    return current, _peak_megabytes(children=False)


def children_peak_megabytes() -> float:
    """The largest peak resident memory of a finished worker process in MiB (0 if unknown)."""
    return _peak_megabytes(children=True)


def _peak_megabytes(children: bool) -> float:
    """getrusage's peak resident memory in MiB, or 0 without the `resource` module."""
    try:
        import resource
    except ImportError:
        return 0.0
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    return resource.getrusage(who).ru_maxrss / 1024
