"""Opening a game from a file in the window: checked in a process of its own first.

`GameOpener.start(spec)` runs ``games.from_file.check`` in a child process (the file's import
and a short probe: `games.from_file.check.CheckProcess`, which the terminal commands use too);
the window keeps drawing while it runs (`poll` each frame).  Only a file that loads there is
loaded into the window's process, so a file that loops, crashes Python or takes minutes to
import costs the child.  The games opened recently are kept in the settings (`remember`),
newest first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plyground.games.from_file import check

CHECK_SECONDS = check.CHECK_SECONDS
"""The longest a game file may take to load and be probed before the window gives up."""
RECENT = 8
"""Games from files the menu offers, newest first (the menu pages them where they do not fit)."""


TYPED_FILE = re.compile(r"^(?P<path>.+?\.py)(?::(?P<name>[A-Za-z_]\w*))?$")
"""FILE.py or FILE.py:CLASS typed into "Open a game…"'s path box."""
TYPED_MODULE = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")
"""MODULE:CLASS typed there (``easyAI.games:Nim``)."""
TYPING_HELP = "A .py file, FILE.py:CLASS or MODULE:CLASS (easyAI.games:Nim); Enter opens it"
"""What the path box of "Open a game…" takes, said under it."""


def typed_game(text: str, folder: Path) -> str | None:
    """The game typed into "Open a game…"'s path box as a spec the window opens: a file that
    is there (relative to `folder`, the dialog's), with its class or not, or MODULE:CLASS;
    None for anything else (a folder, a name still being typed)."""
    text = text.strip()
    found = TYPED_FILE.match(text)
    if found:
        path = Path(found["path"]).expanduser()
        path = path if path.is_absolute() else folder / path
        if not path.is_file():
            return None
        name = found["name"]
        return str(path.resolve()) + (f":{name}" if name else "")
    if TYPED_MODULE.match(text) and not (folder / text).exists():
        return text
    return None


def typing_problem(text: str, folder: Path) -> str:
    """Why Enter cannot open what is typed (`typed_game` gave None): one short line."""
    text = text.strip()
    found = TYPED_FILE.match(text)
    if found:
        return f"{Path(found['path']).name}: no such file (pick it in the list, then add :CLASS)"
    if ":" in text:
        return "Write a module and a class as MODULE:CLASS, e.g. easyAI.games:Nim"
    if "." in text and TYPED_MODULE.match(f"{text}:CLASS"):
        return f"Name its class too: {text}:CLASS (e.g. easyAI.games:Nim)"
    return "Not a game: type FILE.py, FILE.py:CLASS or MODULE:CLASS"


@dataclass
class Opened:
    """The outcome of opening a game: its registry name and title, or the error's line."""

    spec: str
    name: str = ""
    title: str = ""
    error: str = ""


class GameOpener:
    """One check at a time, polled without blocking (see the module's docstring)."""

    def __init__(self) -> None:
        self.spec = ""
        self.check: check.CheckProcess | None = None

    @property
    def busy(self) -> bool:
        return self.check is not None

    def start(self, spec: str) -> None:
        """Check `spec` in a child process (a check already running is given up)."""
        self.cancel()
        self.spec = spec
        self.check = check.CheckProcess(spec)

    def cancel(self) -> None:
        """Stop a check in progress."""
        running, self.check = self.check, None
        if running is not None:
            running.cancel()

    def poll(self) -> Opened | None:
        """The outcome once the check has ended (then the game is loaded here), else None."""
        running = self.check
        if running is None:
            return None
        answer = running.poll(CHECK_SECONDS)
        if answer is None:
            return None
        self.check = None
        if "error" in answer:
            return Opened(self.spec, error=answer["error"])
        return load_here(self.spec)


def load_here(spec: str) -> Opened:
    """Load a checked game into the window's process (its code may still fail: then the line)."""
    from plyground import games
    from plyground.games.from_file import GameCodeError

    try:
        name = games.resolve(spec)
        title = str(games.GAMES[name].title)  # type: ignore[attr-defined]
    except (GameCodeError, ValueError) as error:
        return Opened(spec, error=str(error))
    return Opened(spec, name, title)


def remember(settings: Any, name: str, title: str) -> None:
    """Put a game from a file first among the recent ones."""
    recent = [entry for entry in settings.recent_games if entry.get("name") != name]
    settings.recent_games = [{"name": name, "title": title}, *recent][:RECENT]


def forget(settings: Any, name: str) -> None:
    """Drop a game from the recent ones (its file is gone)."""
    settings.recent_games = [e for e in settings.recent_games if e.get("name") != name]


def file_of(name: str) -> Path | None:
    """The file of a game's registry name ("/path/nim.py:Nim"), or None for a module's."""
    path, sep, _ = name.rpartition(":")
    if sep and path.endswith(".py"):
        return Path(path)
    return None
