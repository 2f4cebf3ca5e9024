"""Games lost by forfeit (a player from a file whose code failed), said as they happen."""

from __future__ import annotations

from typing import Any

from plyground.ai.evaluation.wording import counted
from plyground.cli.console import say


class ForfeitLog:
    """Prints one line per forfeit on stderr (the user's traceback lines under the first of
    each kind) and counts them per player for the summary."""

    def __init__(self, console: Any) -> None:
        self.console = console
        self.counts: dict[str, int] = {}
        self.shown: set[tuple[str, str]] = set()

    def add(self, record: Any, sides: tuple[str, str], where: str = "") -> None:
        """Report `record`'s forfeit, if any; `sides` names players A and B."""
        if record.void:
            return  # the command says why a game is void (`GameRecord.void`)
        loser = record.forfeiter
        if loser is None:
            return
        name = sides[loser]
        self.counts[name] = self.counts.get(name, 0) + 1
        say(self.console, f"{where}game {record.index + 1}: {name} forfeits: {record.forfeit}")
        if (name, record.forfeit) not in self.shown:
            self.shown.add((name, record.forfeit))
            for line in record.forfeit_details:
                say(self.console, f"    {line}")

    def summary(self) -> list[str]:
        """One line per player who forfeited."""
        return [
            f"{name} lost {counted(count, 'game')} by forfeit."
            for name, count in self.counts.items()
        ]
