"""The game protocol is the typed seam between the games and everything else: `ai/` sees a
position as `State[Any]` and a game as `Game[Any]`, so mypy --strict refuses code that reads a
member only one game has (an opening book, a solver's hooks) instead of its capability."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

ONE_GAME_MEMBER = """
from typing import Any
from plyground.games.base import Game, State, state_capabilities

def books(state: State[Any]) -> object:
    return state.book_value()

def sets(game: Game[Any]) -> object:
    return game.solver_benchmark

def through_the_capability(state: State[Any]) -> object:
    hook = state_capabilities(state).book_value
    return None if hook is None else hook(state)
"""


@pytest.mark.slow
def test_mypy_refuses_a_member_only_one_game_has(tmp_path: Path) -> None:
    from mypy import api

    snippet = tmp_path / "reads_a_hook.py"
    snippet.write_text(ONE_GAME_MEMBER, encoding="utf-8")
    out, _, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(snippet)])
    errors = re.findall(r"reads_a_hook\.py:(\d+): error: (.*)", out)
    assert status == 1
    assert [(int(line), text.split("  [")[0]) for line, text in errors] == [
        (6, '"State[Any]" has no attribute "book_value"'),
        (9, '"Game[Any]" has no attribute "solver_benchmark"'),
    ]


def test_ai_annotates_positions_and_games_with_the_protocol() -> None:
    loose = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "ai").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b(state|game|root): Any\b", line)
    ]
    assert loose == []
