"""The terminal's commands and main.py name no game: a game's knowledge belongs to the game
(games/ and its kit), so `if game == "pig"` or a game's title never appears in cli/."""

from __future__ import annotations

import re
from pathlib import Path

from plyground import games

ROOT = Path(__file__).resolve().parents[2]


def _game_patterns() -> list[re.Pattern[str]]:
    """Every registered game's name and title in any spelling, not inside a word."""
    words = {games.GAMES[name].name for name in games.GAMES}  # type: ignore[attr-defined]
    words |= {games.GAMES[name].title for name in games.GAMES}  # type: ignore[attr-defined]
    words |= {"tic tac toe", "connect four"}
    patterns = []
    for word in sorted(words):
        parts = re.findall(r"[a-z0-9]+", word.lower())
        body = r"[\W_]*".join(map(re.escape, parts))
        patterns.append(re.compile(rf"(?<![a-z0-9]){body}(?![a-z0-9])", re.IGNORECASE))
    return patterns


def test_cli_and_main_name_no_game() -> None:
    patterns = _game_patterns()
    offenders = []
    for path in [*sorted((ROOT / "cli").rglob("*.py")), ROOT / "main.py"]:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if any(pattern.search(line) for pattern in patterns) or "tests/data" in line:
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == [], "\n".join(offenders)
